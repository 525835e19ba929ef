/* ember fuse: recorded elementwise expressions, run as one kernel when
 * their value is needed (issue 25, parts 1 and 2).
 *
 * STATUS: this header is the agreed interface; the implementation
 * (src/fuse/record.c, force.c, key.c and the generator's expression case)
 * is not written yet, so nothing includes it and the build does not
 * compile it. docs/design.md "Fusion" says what each part will do.
 *
 * Where the lazy state lives. An expression is a C object of the core
 * (em_fuse_expr), never Python: the extension's ndarray holds a pointer to
 * one (empy_ndarray.pending) while its em_array has the result's dtype,
 * shape, C-order strides and flags but no storage. .dtype, .shape, .ndim,
 * .size read the em_array and never force.
 *
 * How an operation is recorded. em_ufunc_record runs the eager path's own
 * resolution (em_ufunc_resolve, NEP 50 weak scalars, em_ufunc_cast checks,
 * broadcasting) and returns its status before anything is appended, so a
 * dtype or shape error is raised by the line that wrote the operation,
 * with eager's message. Only then is a node appended: the op, the loop's
 * input and output dtypes, the output dtype, and per input either another
 * node of the same expression, a leaf (an em_array view holding a
 * reference to its storage, so the leaf outlives every Python name of
 * it), or a scalar by value already cast to the loop dtype. Two pending
 * inputs of different expressions are merged when both fit the bound,
 * else the smaller is forced first. The extension's recording site is
 * the branch of ufuncobj.c's call path where neither out= nor where= is
 * given (the result struct starts zeroed and apply_nogil allocates it);
 * quick_operand passes a pending ndarray as its expression instead of
 * its em_array. The reduction site is reduction.c's em_reduce call.
 *
 * What forces it. One function, em_fuse_force, allocates the result on
 * the stream the expression was recorded on and launches the kernel. The
 * extension reaches every em_array of an ndarray through one inline
 * accessor (empy_arr, which replaces the EMPY_ARR macro; the embedded
 * field is renamed so a site that bypasses it does not compile) that
 * calls it when `pending` is set: host reads, non-fusable operations,
 * kernels, DLPack and __cuda_array_interface__, indexing, views and
 * in-place writes all go through it. The stream's synchronize and event
 * record, and ember._capture_hooks before a graph capture begins or ends,
 * force every open expression of that stream (a per-stream list). An
 * expression is also forced when it would pass EM_FUSE_MAX_NODES nodes or
 * EM_FUSE_MAX_LEAVES leaves.
 *
 * How eager semantics are kept when a leaf is written. Decided: force,
 * not snapshot (a snapshot is a copy, the traffic fusion saves). Each
 * storage counts the open expressions that read it; every path that
 * writes a storage (ufunc out=, setitem, copy, fill, a kernel argument, a
 * writable export) checks that counter (one relaxed load) and, when it is
 * not zero, forces the open expressions of the writer's device before it
 * writes. `a += a * 2` thus records a * 2, then forces it at the in-place
 * write to a, then adds: the same bytes as eager. Views of one buffer
 * share the storage and so the counter.
 *
 * How the kernel is keyed and cached. While recording, each node appends
 * a fixed-size record to the expression's key bytes: op, loop dtypes,
 * output dtype, and for each input a node index, a leaf index (leaves
 * that are the same view share an index, so a subexpression used twice is
 * one value per element and a leaf read twice is one load) or "scalar".
 * Forcing adds the layout class, collapsed rank, vector width and index
 * width exactly as em_gen_ewise chooses them. The key's first words and a
 * running hash index the kernel_table.h table (a hit takes no lock and
 * builds no string); the remaining bytes are compared in full on a hash
 * match. The source is the single-op generator's: each node is an
 * em_gen_ewise descriptor (its src dtypes are the producing nodes' output
 * dtypes), ewise.c's emit_elem writes one ew_elem_<name>_n<k> per node
 * (the result rounded to the node's output dtype, exactly as eager stores
 * it), and the expression's element function calls them in node order
 * into locals over the leaves' loads. What must generalise in ewise.c is
 * the operand count: emit_params, the statements and em_gen_ewise_call
 * have two inputs and four fixed slots; they become a leaf list (at most
 * EM_FUSE_MAX_LEAVES) of which one ewise op is the two-leaf case. The
 * loop geometry (contiguous/strided, cuda/host) is unchanged; the tiled
 * layout is not used for expressions.
 * Fused kernels are compiled without FMA contraction (NVRTC --fmad=false,
 * host -ffp-contract=off), so values are bit-identical to eager ember.
 *
 * Reductions. em_reduce given a pending input passes the expression to
 * the reduction generator, whose element load becomes the expression's
 * per-element function over the leaves at (m, k); the schedules, the
 * partials and FIN are unchanged. norm(x) where it is sqrt(sum(|x|^2))
 * records |x|^2 and reduces it.
 *
 * Threads: an expression belongs to the stream it was recorded on and is
 * recorded and forced under the GIL by the extension; the per-storage
 * counters are atomic because the core may be called without it.
 */
#ifndef EMBER_FUSE_FUSE_H
#define EMBER_FUSE_FUSE_H

#include <stdint.h>

#include "ember/reduce.h"
#include "ember/ufunc.h"

#define EM_FUSE_MAX_NODES 32  /* nodes per expression; forced past it */
#define EM_FUSE_MAX_LEAVES 16 /* distinct leaf views per expression */

typedef struct em_fuse_expr em_fuse_expr;

/* Whether recording is on for this thread: EMBER_FUSION (read once;
 * "0" turns it off) unless em_fuse_set_enabled overrode it. ember.fuse
 * traces with it forced on. */
int em_fuse_enabled(void);
/* Sets this thread's override and returns the previous state (for the
 * context manager's restore): 1 on, 0 off, -1 the environment's. */
int em_fuse_set_enabled(int state);

/* Records op over in (arrays, pending arrays given as their expression,
 * or scalars) after the same checks as em_ufunc_apply; on EM_OK *out is a
 * new reference to the expression whose last node is the result, and
 * *shape_out / *ndim_out / *dtype_out describe it. `pending[k]` is the
 * expression behind in[k] or NULL. Operations that are not fusable (an
 * out= or where= argument, an op without a per-element function, a cpu
 * op the host generator cannot inline) return EM_ERR_NOT_SUPPORTED
 * without a message, and the caller runs the eager path. */
em_status em_ufunc_record(em_op op, const em_operand *in,
                          em_fuse_expr *const *pending, int nin,
                          em_stream *s, em_fuse_expr **out,
                          em_dtype *dtype_out, int *ndim_out,
                          int64_t *shape_out);

/* astype(dtype) recorded as a cast node (same 'unsafe' rules as
 * EM_OP_COPY) and where(cond, x, y) as a select node. */
em_status em_fuse_record_cast(em_fuse_expr *e, em_dtype to,
                              em_fuse_expr **out);
em_status em_fuse_record_where(const em_operand *in,
                               em_fuse_expr *const *pending,
                               em_stream *s, em_fuse_expr **out,
                               em_dtype *dtype_out, int *ndim_out,
                               int64_t *shape_out);

/* Runs e once: *out (zeroed on entry) becomes the result array; a second
 * call returns another reference to the same result. */
em_status em_fuse_force(em_fuse_expr *e, em_array *out);

/* Forces every open expression recorded on s (NULL: all streams of dev)
 * - for synchronize, event record and graph capture. */
em_status em_fuse_flush(em_device *dev, em_stream *s);

/* Before a write to a's storage: forces the open expressions that read
 * it (nothing but one atomic load when none do). */
em_status em_fuse_before_write(const em_array *a);

/* out = op(e) over args' axes in one kernel (see em_reduce). */
em_status em_fuse_reduce(em_reduce_op op, em_fuse_expr *e,
                         const em_reduce_args *args, em_array *out,
                         em_stream *s);

void em_fuse_expr_retain(em_fuse_expr *e);
void em_fuse_expr_release(em_fuse_expr *e);

/* Kernels launched for forced expressions and fused reductions since the
 * process started (tests count launches with it). */
uint64_t em_fuse_launch_count(void);

#endif
