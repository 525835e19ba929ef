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

/* Runs the open group, if any. The kernel's name is generated. */
em_status em_fuse_flush(void);
/* As em_fuse_flush, with the kernel named `name` (a C identifier of at
 * most 63 characters; ember.fuse's kernel_name). */
em_status em_fuse_flush_named(const char *name);

/* Before anything that may read or write array memory. */
static inline em_status em_fuse_guard(void)
{
    if (__builtin_expect(
            atomic_load_explicit(&em_fuse_pending_n, memory_order_relaxed),
            0))
        return em_fuse_flush();
    return EM_OK;
}

/* Whether this thread records: EMBER_FUSION (read once; "0" turns it
 * off) unless em_fuse_set_state overrode it for this thread. */
int em_fuse_enabled(void);
/* Sets this thread's override (1 on, 0 off, -1 the environment's) and
 * returns the previous override. */
int em_fuse_set_state(int state);

/* Fused kernels launched since the process started (tests count them). */
uint64_t em_fuse_launch_count(void);

#ifdef __cplusplus
}
#endif
#endif
