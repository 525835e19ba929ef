/* ember: automatic fusion of elementwise operations, the part the
 * extension and other callers see (src/fuse/fuse.h has the design).
 *
 * Elementwise operations made through em_ufunc_apply_lazy may be recorded
 * instead of launched; everything in the runtime that can read or write
 * array memory calls em_fuse_guard() first, and so does the extension's
 * accessor of an ndarray's array. */
#ifndef EMBER_FUSE_H
#define EMBER_FUSE_H

#include <stdatomic.h>
#include <stdint.h>

#include "ember/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EM_FUSE_MAX_NODES 32  /* nodes per group; it runs past that */
#define EM_FUSE_MAX_LEAVES 16 /* distinct input views per group */

/* Nodes pending in the open group (0: nothing to run). */
extern atomic_int em_fuse_pending_n;
/* Threads taping a fused function (em_fuse_tape_begin): while any is,
 * every guard takes the slow path, so a read the tape cannot replay is
 * seen. */
extern atomic_int em_fuse_taping;

/* Runs the open group, if any. The kernel's name is generated. */
em_status em_fuse_flush(void);
/* As em_fuse_flush, with the kernel named `name` (a C identifier of at
 * most 63 characters; ember.fuse's kernel_name). */
em_status em_fuse_flush_named(const char *name);

/* Before anything that may read or write array memory. */
static inline em_status em_fuse_guard(void)
{
    if (__builtin_expect(
            atomic_load_explicit(&em_fuse_pending_n, memory_order_relaxed) |
                atomic_load_explicit(&em_fuse_taping, memory_order_relaxed),
            0))
        return em_fuse_flush();
    return EM_OK;
}

/* A fused result's storage takes its memory only when its group runs
 * (src/fuse/fuse.h), so until then the array's data is NULL; once the
 * group ran this fills in the array's data from its storage. Arrays that
 * are pending are always whole results, never views (making a view runs
 * the group first), so the data is the storage's base. */
struct em_array;
void em_array_settle_slow(struct em_array *a);

/* Whether this thread records: EMBER_FUSION (read once; "0" turns it
 * off) unless em_fuse_set_state overrode it for this thread. */
int em_fuse_enabled(void);
/* Sets this thread's override (1 on, 0 off, -1 the environment's) and
 * returns the previous override. */
int em_fuse_set_state(int state);

/* ---- tapes: ember.fuse's calls without re-running Python ----------------
 *
 * A fused function's first call with a given layout of arguments runs its
 * Python body between em_fuse_tape_begin and em_fuse_tape_end. When the
 * body did nothing but record elementwise operations over its array
 * arguments (Python scalars become constants, as cupy.fuse's tracing
 * makes them), optionally ending with one reduction fused into its kernel
 * (src/fuse/reduce.c), the tape keeps that group; em_fuse_replay later
 * rebuilds it over new arguments of the same layout, with no Python and
 * no dtype resolution, and runs the reduction. Anything else on the way -
 * a group that ran, a read of memory, a second reduction, an operation
 * that launched eagerly, a leaf that is not an argument - leaves no tape,
 * and each call runs the body as before. */
typedef struct em_fuse_tape em_fuse_tape;
/* A tape's most array arguments and outputs (a call with more runs its
 * body every time). */
#define EM_FUSE_TAPE_MAX_ARGS EM_FUSE_MAX_LEAVES
#define EM_FUSE_TAPE_MAX_OUTS 8
struct em_array;

/* Starts taping on this thread; the open group must be empty (flush
 * first): EM_ERR_INVALID_VALUE otherwise, or when already taping. */
em_status em_fuse_tape_begin(void);
/* Ends taping. args: the call's array arguments in order; outs: what the
 * body returned (nouts arrays). *tape: a new tape, or NULL where the call
 * cannot be replayed (args NULL: abandon, after an exception). */
void em_fuse_tape_end(const struct em_array *const *args, int nargs,
                      const struct em_array *const *outs, int nouts,
                      em_fuse_tape **tape);
/* Replays t over args (laid out as the taped call's, aliased as they
 * were): outs[0..em_fuse_tape_nouts) get new arrays, pending where the
 * body returned pending values. *done = 0, with nothing made, where args
 * do not match or another group is open. */
em_status em_fuse_replay(const em_fuse_tape *t,
                         const struct em_array *const *args, int nargs,
                         struct em_array *outs, int *done);
int em_fuse_tape_nouts(const em_fuse_tape *t);
/* For outs that name one value twice (`return y, y`): the index of the
 * first output with the same value as output i (i itself if none). */
int em_fuse_tape_same_out(const em_fuse_tape *t, int i);
void em_fuse_tape_free(em_fuse_tape *t);

/* Fused kernels launched since the process started (tests count them). */
uint64_t em_fuse_launch_count(void);

#ifdef __cplusplus
}
#endif
#endif
