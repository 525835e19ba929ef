/* ember core (internal): loop geometry, computed once for every kernel
 * family.
 *
 * An elementwise or reduction launch sees its operands as one shape with
 * a row of byte (or element) strides per operand. These functions do what
 * every generator and array function needs of that picture: broadcast the
 * operands' shapes and strides, merge axes that every operand walks as one
 * run, decide whether 32-bit offsets reach every element, and tell whether
 * two operands' memory overlaps. They work on caller-owned fixed-size
 * arrays (EM_MAX_NDIM axes), build no strings unless broadcasting fails,
 * and never allocate: they sit on every ufunc call.
 */
#ifndef EMBER_CORE_LAYOUT_H
#define EMBER_CORE_LAYOUT_H

#include <stdint.h>

#include "ember/shape.h"

/* A shape argument's ndim is within 0..EM_MAX_NDIM and its shape is
 * there when ndim > 0; fn names the caller in the error (core/shape.c). */
em_status em_shape_check_ndim(const char *fn, int ndim, const int64_t *shape);

/* NumPy broadcasting of n shapes (ndim[i], shape[i]) into (*out_nd,
 * out); a NULL shape[i] is skipped (a scalar, a raw argument). n == 0 or
 * all skipped gives ndim 0. Fails with em_shape_broadcast's error, naming
 * the shape so far and the one that does not fit. */
em_status em_layout_broadcast(int n, const int *ndim,
                              const int64_t *const *shape, int *out_nd,
                              int64_t *out);

/* The strides of an operand (ndim, shape, strides) laid against the
 * broadcast shape (nd, bshape): trailing axes aligned, 0 on axes it lacks
 * or has extent 1 on, and on axes of extent 1 (which a kernel never
 * steps). */
void em_layout_broadcast_strides(int ndim, const int64_t *shape,
                                 const int64_t *strides, int nd,
                                 const int64_t *bshape, int64_t *out);

/* Collapse nd axes (shape, and a row of strides per operand in st[0..nop))
 * in place and return the new count: extent-1 axes go; with sort_by >= 0
 * the rest are stably ordered by |st[sort_by]| largest first (so the
 * innermost axis walks that operand's memory in order); with merge, an
 * axis merges into its inner neighbour when every operand with used[j]
 * (every operand when used is NULL) has outer stride == inner stride *
 * inner extent. Every row moves, used or not. May return 0 (no axis of
 * extent other than 1). */
int em_layout_collapse(int nd, int64_t *shape, int nop,
                       int64_t (*st)[EM_MAX_NDIM], const int *used,
                       int sort_by, int merge);

/* One operand's axes (n of them) as a single run: 1 with *extent their
 * product and *stride the innermost stride when they merge into one (1
 * and 0 when no axis of extent other than 1 is left; 0 and 0 when an
 * axis is empty), else 0 and the outputs unspecified. sort: order by
 * |stride| first. */
int em_layout_run(int n, const int64_t *shape, const int64_t *strides,
                  int sort, int64_t *extent, int64_t *stride);

/* Whether 32-bit signed offsets reach everything a kernel over (nd,
 * shape) computes: count (the largest index it counts to, exclusive)
 * below 2^31, every used operand's stride below 2^31 on axes of extent
 * above 1, and each used operand's span sum((extent-1)*|stride|) plus
 * margin (a step past the end that a kernel may compute) below 2^31. */
int em_layout_fits32(int nd, const int64_t *shape, int nop,
                     const int64_t (*st)[EM_MAX_NDIM], const int *used,
                     int64_t count, int64_t margin);

/* One operand's memory: its base pointer and byte layout. */
typedef struct em_layout_mem {
    const void *data;
    int ndim;
    const int64_t *shape, *strides;
    int64_t itemsize;
} em_layout_mem;

/* Whether the bytes the two layouts touch (em_layout_extent's range from
 * each base) intersect; 0 when either is empty. Compares addresses as
 * integers: the two may be different allocations, which C pointers may
 * not be compared across. */
int em_layout_overlap(const em_layout_mem *a, const em_layout_mem *b);

#endif
