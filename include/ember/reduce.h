/* ember: reductions over the axes of an em_array (NumPy's sum, prod, min,
 * max, argmin, argmax, any, all, mean, var, std, count_nonzero and their
 * nan* forms).
 *
 * One call reduces any set of axes. The generator has three schedules,
 * chosen from the layout after the kept and reduced axes are collapsed:
 *   full      every axis reduced: blocks reduce chunks into partials, one
 *             more launch combines them (no atomics, so results do not
 *             depend on timing);
 *   inner     the reduced axes are contiguous in memory (row sums): a warp
 *             or a block per output element, vector loads along the row;
 *   outer     the reduced axes are strided (column sums): threads run
 *             along the kept contiguous axis, the reduced extent is split
 *             among blocks when there are too few columns to fill the
 *             device, and a second launch combines the splits.
 * Kernels are found by a compact descriptor (op, dtypes, schedule, rank,
 * vector width), so a repeated call builds no source and no strings.
 *
 * Accumulators follow NumPy: sum and prod of bool and of signed integers
 * narrower than the platform integer accumulate and return int64 (unsigned:
 * uint64); float16 and bfloat16 accumulate in float32 and return their own
 * type; mean of integers is float64; var/std of complex is real. An
 * explicit dtype is both the accumulator and the result type, as NumPy's.
 * Summation is pairwise or tree-shaped (never a long serial chain), so
 * float results are as accurate as NumPy's.
 *
 * Empty reductions behave as NumPy's: sum 0, prod 1, any False, all True,
 * count_nonzero 0; mean/var/std give NaN (and the Python layer warns);
 * min, max, argmin, argmax of an empty extent are EM_ERR_INVALID_VALUE
 * ("zero-size array to reduction operation minimum which has no
 * identity"). nanargmin/nanargmax of an all-NaN slice are
 * EM_ERR_INVALID_VALUE ("All-NaN slice encountered"), which costs one
 * small device-to-host read after the kernel.
 */
#ifndef EMBER_REDUCE_H
#define EMBER_REDUCE_H

#include "ember/array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The order is part of cache keys: append only. */
typedef enum em_reduce_op {
    EM_RED_SUM = 0, EM_RED_PROD, EM_RED_MIN, EM_RED_MAX,
    EM_RED_ARGMIN, EM_RED_ARGMAX, EM_RED_ANY, EM_RED_ALL,
    EM_RED_COUNT_NONZERO,
    EM_RED_MEAN, EM_RED_VAR, EM_RED_STD,
    EM_RED_NANSUM, EM_RED_NANPROD, EM_RED_NANMIN, EM_RED_NANMAX,
    EM_RED_NANARGMIN, EM_RED_NANARGMAX,
    EM_RED_NANMEAN, EM_RED_NANVAR, EM_RED_NANSTD,
    /* sum of |x|^2 in a real type: the core of the 2-norm, one pass */
    EM_RED_SUMSQ,
    EM_RED_OP_COUNT
} em_reduce_op;

/* NumPy's name of an op ("sum", "nanargmax", ...), or NULL. */
const char *em_reduce_name(em_reduce_op op);

/* What to reduce and how. Zero-initialise, then set what differs:
 * naxes 0 with axes NULL reduces every axis (axis=None); otherwise axes
 * holds naxes distinct axes, negative ones counting from the end
 * (argmin/argmax/nanargmin/nanargmax accept one axis or None, and with
 * None return the index into the C-order flattened array). */
typedef struct em_reduce_args {
    const int *axes;
    int naxes;
    int keepdims;       /* keep reduced axes with extent 1 */
    int has_dtype;      /* use `dtype` as accumulator and result type */
    em_dtype dtype;
    double ddof;        /* var/std: divide by N - ddof */
} em_reduce_args;

/* The result dtype of op over an input dtype (args->dtype when has_dtype);
 * EM_ERR_TYPE naming the function and dtype where NumPy has no loop (for
 * example var of bool is fine, argmax of complex is fine, any dtype may be
 * given to count_nonzero). */
em_status em_reduce_result_dtype(em_reduce_op op, em_dtype in,
                                 const em_reduce_args *args, em_dtype *out);

/* out = op(a) over args' axes. If out->storage is NULL a new array is
 * made on a's device; otherwise out must have the reduced shape (with or
 * without the kept axes, as keepdims says) and is written with
 * 'same_kind' casting from the result type, as NumPy's out= does. A bad
 * axis is EM_ERR_AXIS ("axis 2 is out of bounds for array of dimension
 * 2"); a repeated axis EM_ERR_INVALID_VALUE. Stream as em_ufunc_apply. */
em_status em_reduce(em_reduce_op op, const em_array *a,
                    const em_reduce_args *args, em_array *out, em_stream *s);

#ifdef __cplusplus
}
#endif
#endif
