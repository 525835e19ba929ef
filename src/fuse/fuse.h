/* ember fuse: elementwise operations recorded instead of launched, run as
 * one generated kernel when anything else happens (issue 25, part 1).
 *
 * What is recorded. em_ufunc_apply, after every check eager makes (dtypes,
 * NEP 50, casting, shapes, devices) and after allocating its result as
 * eager does, hands the operation to em_fuse_record instead of launching
 * it. So an error is raised by the line that wrote the operation, and the
 * result is an ordinary array with storage whose contents are not yet
 * computed. One group is open per process: its nodes share a device, a
 * stream and the shape they run over. A node's inputs are the group's
 * earlier nodes (an array that is exactly a node's result), leaves (any
 * other array view, deduplicated) or scalars (by value, in the loop's
 * dtype, passed as kernel arguments so values do not recompile).
 *
 * What runs it. Nothing can read an array's memory except through the
 * runtime (launch, copy, memset, library calls on a stream, synchronize,
 * event record, graph capture) or the extension's accessor of an
 * ndarray's em_array; each of those calls em_fuse_guard() first, which is
 * one relaxed load when nothing is pending. So the group runs before any
 * later work in stream order, and in-place writes to a leaf (`a += a * 2`)
 * see eager's order: the recorded read runs before the write's launch.
 * The group also runs when it would pass EM_FUSE_MAX_NODES nodes or
 * EM_FUSE_MAX_LEAVES leaves, or when an operation of another device,
 * stream or shape arrives.
 *
 * What is never written. A node's storage points back at it (fuse_node);
 * when the last reference to that storage goes before the group runs
 * (a temporary of `a * b + c`), the storage is freed at once and the
 * kernel keeps the value in a register.
 *
 * Values. Each node calls the same per-element function the eager kernel
 * calls (ewise.c), on values in their storage dtype. On the GPU every
 * generated elementwise and reduction kernel, eager or fused, is compiled
 * with --fmad=false, so NVVM cannot contract one node's multiply into the
 * next node's add (nor into a reduction's): fused results are
 * bit-identical to eager ones. (An empty asm around each node's value did
 * this before, and ptxas dropped the second lane's pow of a two-wide
 * vector through it: x ** 0.5 on float64 gave x in odd elements.)
 *
 * Threads: recording happens wherever em_ufunc_apply runs; the group is
 * guarded by one mutex, taken only while recording or running a group. */
#ifndef EMBER_FUSE_FUSE_H
#define EMBER_FUSE_FUSE_H

#include <stdint.h>

#include "ember/fuse.h"
#include "ember/ufunc.h"


/* The recording half of em_ufunc_apply: op over the inputs (arrays as
 * broadcast views of the call's shape, strides[k] against it; NULL arrays
 * are scalars in sval[k], already cast to loop_in[k]) into out, which the
 * caller has just allocated C-contiguous with (nd, shape) on stream s.
 * EM_OK: recorded (out's storage now belongs to the group until it runs).
 * EM_ERR_NOT_SUPPORTED, without a message: not recordable here; the
 * caller launches eagerly. Anything else is an error of running the
 * previous group. nowait: never wait for the lock nor run a group (which
 * launches and may compile): EM_ERR_NOT_SUPPORTED where it would, for a
 * caller that holds Python's GIL (em_ufunc_apply_try), which has also
 * asked em_fuse_may_record for out (its dtype being loop_out). The caller
 * has checked em_fuse_enabled() (out's storage is deferred only then). */
em_status em_fuse_record(em_op op, const em_array *const *in,
                         const int64_t (*strides)[EM_MAX_NDIM],
                         const unsigned char (*sval)[16],
                         const em_dtype *loop_in, em_dtype loop_out, int nin,
                         em_array *out, int nd, const int64_t *shape,
                         em_stream *s, int nowait);

/* Whether em_fuse_record may take a new result of `size` elements on
 * dev with these loop dtypes (its dtype loop_out) and array inputs
 * (NULL for scalars), fusion being on: its cheap refusals, asked before
 * the result is made. */
int em_fuse_may_record(em_device *dev, int64_t size, const em_dtype *loop_in,
                       em_dtype loop_out, int nin, const em_array *const *in);
/* Its first refusal, by size alone: on the host a group of fewer than
 * FZ_HOST_MIN_ELEMENTS (record.c) runs op by op. */
int em_fuse_size_ok(em_device *dev, int64_t size);

/* A reduction (src/array/reduce.c) of a, described by d, about to launch
 * on cuda: when a is a pending result of a contiguous group, *fused = 1,
 * *fn computes it where the reduction loads it, args[0..*nargs) are the
 * extra arguments after the reduction's four, and the group is held (no
 * guard runs it) until em_fuse_reduce_end, which the caller must call
 * after its launches. Otherwise *fused = 0 and nothing is held. */
struct em_gen_reduce;
em_status em_fuse_reduce_begin(const em_array *a,
                               const struct em_gen_reduce *d, em_stream *s,
                               em_function **fn, void **args, int *nargs,
                               int *fused);
void em_fuse_reduce_end(void);

/* Taping (include/ember/fuse.h): the tape this thread builds, or NULL.
 * em_reduce, while it is set, reports itself around its work: begin
 * before (a: the input, out: where the result goes), end after with the
 * status and the result. */
struct em_fuse_tape;
extern _Thread_local struct em_fuse_tape *em_fuse_tl_tape;
struct em_reduce_args;
void em_fuse_tape_reduce_begin(int op, const em_array *a,
                               const struct em_reduce_args *args,
                               const em_array *out);
void em_fuse_tape_reduce_end(em_status st, const em_array *out);
/* Marks this thread's tape as not replayable: one of its guards took the
 * slow path outside a fused launch (something read or wrote memory), or
 * a reduction ran on a stream it named. */
void em_fz_tape_guarded(void);

/* The storage release hook: storage (an em_storage whose fuse_node was
 * set) lost its last reference, maybe before its group ran. */
void em_fuse_storage_dropped(void *storage);

/* The message of the last fused kernel that failed to run: the arrays it
 * should have written refuse to be read (em_array_check_computed). */
const char *em_fuse_failure_message(void);


#endif
