/* ember: products of arrays (matmul, dot, vdot, inner, outer, tensordot,
 * vecdot) and cumulative sums and products along an axis.
 *
 * Every product is one generated kernel over a strided description
 *     C[batch..., m, n] = sum over k of A[batch..., m, k] * B[batch..., k, n]
 * where each batch axis, m, n and k carries its own byte stride in every
 * operand (0 where the operand does not depend on it), so dot's and
 * tensordot's mixed axes, broadcast batches and transposed or negatively
 * strided operands need no copies. On CUDA a block computes a 64x64 tile
 * through shared memory, 16 outputs per thread, or, when m and n are both
 * 1 (vdot, vecdot, inner of vectors), a block reduces one output's k
 * range; on the host cache-sized tiles are packed and multiplied.
 *
 * Types follow NumPy: both inputs are converted to the promoted dtype (or
 * to `dtype` when given, which must be a 'same_kind' cast of each input),
 * the result has that dtype. Integers wrap around; bool is the logical or
 * of ands; float16 and bfloat16 accumulate in float32 and round once at
 * the end; complex multiplies as (ac - bd, ad + bc). k = 0 gives zeros
 * (False for bool). An out= array must have the result's shape and accept
 * a 'same_kind' cast of the result dtype; it may overlap the inputs (the
 * result then goes through a temporary). Shape errors are
 * EM_ERR_INVALID_VALUE naming both shapes; operands on two devices are
 * EM_ERR_INVALID_VALUE naming both devices. Streams are as in
 * em_ufunc_apply. If out->storage is NULL a new C-contiguous array is made
 * on the operands' device.
 */
#ifndef EMBER_LINALG_H
#define EMBER_LINALG_H

#include "ember/array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Options shared by the products. Zero-initialise, then set what differs. */
typedef struct em_product_args {
    int has_dtype; /* convert inputs to `dtype` and compute in it */
    em_dtype dtype;
    /* 1: a float32 or complex64 product on cuda may run on TF32 tensor
     * cores (cuBLAS's FAST_TF32) whatever EMBER_TF32 says, for this call
     * only: a caller that keeps float32's accuracy itself (split operands,
     * ember.ml's kNN) asks without changing other threads' products. */
    int tf32;
} em_product_args;

/* numpy.matmul: a 1-D first operand is a row (its dimension is dropped
 * from the result), a 1-D second operand a column; leading axes broadcast
 * as batches. 0-d operands are EM_ERR_INVALID_VALUE ("matmul: Input
 * operand 0 does not have enough dimensions ..."), a core dimension
 * mismatch is EM_ERR_INVALID_VALUE in NumPy's words with both shapes.
 * args may be NULL. */
em_status em_matmul(const em_array *a, const em_array *b,
                    const em_product_args *args, em_array *out, em_stream *s);

/* numpy.dot: 0-d operands multiply elementwise (em_ufunc_apply), 1-D x
 * 1-D is the inner product, otherwise the sum over a's last axis and b's
 * second-to-last (its only axis when 1-D): the result's shape is
 * a.shape[:-1] + b.shape[:-2] + b.shape[-1:]. */
em_status em_dot(const em_array *a, const em_array *b, em_array *out,
                 em_stream *s);

/* numpy.vdot: both operands flattened (C order), the first conjugated;
 * the sizes must match. The result is 0-d. */
em_status em_vdot(const em_array *a, const em_array *b, em_array *out,
                  em_stream *s);

/* numpy.inner: the sum over both last axes; result a.shape[:-1] +
 * b.shape[:-1]. 0-d operands multiply elementwise. */
em_status em_inner(const em_array *a, const em_array *b, em_array *out,
                   em_stream *s);

/* numpy.outer: both operands flattened; result (a.size, b.size). */
em_status em_outer(const em_array *a, const em_array *b, em_array *out,
                   em_stream *s);

/* numpy.tensordot: the sum over a's axes_a[i] paired with b's axes_b[i]
 * (naxes pairs, negative axes counting from the end); the result has a's
 * other axes then b's other axes, each in order. A bad axis is
 * EM_ERR_AXIS, a repeated one or unequal extents EM_ERR_INVALID_VALUE
 * ("shape-mismatch for sum"). */
em_status em_tensordot(const em_array *a, const em_array *b, int naxes,
                       const int *axes_a, const int *axes_b, em_array *out,
                       em_stream *s);

/* Array API vecdot: sum over `axis` (negative from the end; of the
 * broadcast shape) of conj(a) * b; the other axes broadcast. */
em_status em_vecdot(const em_array *a, const em_array *b, int axis,
                    em_array *out, em_stream *s);

/* ---- cumulative sums and products ------------------------------------ */

/* The order is part of cache keys: append only. */
typedef enum em_cumulate_op {
    EM_CUM_SUM = 0,
    EM_CUM_PROD,
    EM_CUM_NANSUM,  /* NaN counts as 0 (complex: either part NaN) */
    EM_CUM_NANPROD, /* NaN counts as 1 */
    EM_CUM_OP_COUNT
} em_cumulate_op;

/* NumPy's name ("cumsum", "nancumprod"), or NULL. */
const char *em_cumulate_name(em_cumulate_op op);

/* The accumulator and result dtype of op over an input dtype, as NumPy's
 * cumsum and cumprod choose it: bool and signed integers narrower than
 * 64 bits give int64, unsigned ones uint64, others their own type. */
em_dtype em_cumulate_dtype(em_cumulate_op op, em_dtype in);

/* out = op accumulated along `axis` of a (negative counts from the end),
 * or along a's C-order flattening when flatten is nonzero (the result is
 * then 1-D). The accumulator is `dtype` when has_dtype, else out's dtype
 * when out is given (as NumPy's accumulate), else em_cumulate_dtype;
 * each step is rounded to it (float16 sums round every step, as NumPy's
 * do). A 0-d a is treated as 1-D of one element. A bad axis is
 * EM_ERR_AXIS; out must have the result's shape (casting is 'unsafe', as
 * NumPy's cumsum allows). */
em_status em_cumulate(em_cumulate_op op, const em_array *a, int axis,
                      int flatten, int has_dtype, em_dtype dtype, em_array *out,
                      em_stream *s);

#ifdef __cplusplus
}
#endif
#endif
