/* ember: joining, tiling, flipping, rolling, padding arrays, their
 * diagonals, and the creation functions built from ranges (linspace, eye,
 * tri).
 *
 * Every function here is composed from the array core: views are layout
 * arithmetic (no device work) and results are filled with em_array_copy,
 * em_array_fill and em_ufunc_apply, each one generated elementwise kernel.
 * No function adds a kernel family of its own; the number of launches of
 * each is stated above it. Operands of one call must live on one device
 * (EM_ERR_INVALID_VALUE naming both otherwise). Axes may be negative;
 * an axis out of range is EM_ERR_AXIS ("axis 2 is out of bounds for array
 * of dimension 2"). Streams as em_array_copy (NULL: the current stream of
 * the arrays' device).
 *
 * For functions with an `out`: if out->storage is NULL a new C-contiguous
 * array is made on the operands' device; otherwise out must already have
 * the result's shape and is written in place.
 */
#ifndef EMBER_MANIP_H
#define EMBER_MANIP_H

#include "ember/array.h"
#include "ember/ufunc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- joining ---------------------------------------------------------- */

/* numpy.concatenate(in, axis) for n >= 1 arrays of one ndim >= 1 whose
 * shapes agree except along axis. dtype < 0: the promoted dtype of the
 * inputs (numpy.result_type); else that dtype. Each input must cast to
 * the result under `casting` (EM_ERR_TYPE naming both dtypes and the
 * rule). Mismatched shapes are EM_ERR_INVALID_VALUE with NumPy's message
 * ("... along dimension 1, the array at index 0 has size 2 and the array
 * at index 1 has size 3"); a 0-d input is EM_ERR_INVALID_VALUE. One copy
 * per non-empty input. An out overlapping an input gives undefined
 * values, as in NumPy. */
em_status em_array_concatenate(const em_array *const *in, int n, int axis,
                               int dtype, em_casting casting, em_array *out,
                               em_stream *s);

/* numpy.tile(a, reps) for nreps >= 0 non-negative repetitions (a shorter
 * one is padded with leading 1s, as is a's shape when it is the shorter).
 * One broadcast copy: out is seen as (r0, s0, r1, s1, ...) and a as
 * (1, s0, 1, s1, ...). out is always a new array. */
em_status em_array_tile(const em_array *a, int nreps, const int64_t *reps,
                        em_array *out, em_stream *s);

/* ---- views ------------------------------------------------------------ */

/* numpy.flip: a view with the given axes reversed (axes NULL and naxes
 * < 0: every axis). A repeated axis is EM_ERR_INVALID_VALUE. out may be
 * a (its reference moves), as for the view functions of array.h. */
em_status em_array_flip(const em_array *a, const int *axes, int naxes,
                        em_array *out);

/* numpy.diagonal(a, offset, axis1, axis2): a read-only view whose last
 * axis runs along the diagonal (extent 0 when offset misses the matrix).
 * a needs ndim >= 2 and two distinct axes. out may be a. */
em_status em_array_diagonal(const em_array *a, int64_t offset, int axis1,
                            int axis2, em_array *out);

/* ---- moving and padding ----------------------------------------------- */

/* numpy.roll(a, shift, axis) with n (shift, axis) pairs (shifts for one
 * axis add up). out is a new array of a's shape and dtype. 2^k copies,
 * where k is the number of axes whose net shift is not a multiple of
 * their extent. (axis=None is the caller's: roll the flattened array.) */
em_status em_array_roll(const em_array *a, const int64_t *shift,
                        const int *axes, int n, em_array *out, em_stream *s);

typedef enum em_pad_mode {
    EM_PAD_CONSTANT = 0,  /* values[2*axis + side], cast as assignment */
    EM_PAD_EDGE,          /* the edge element repeated */
    EM_PAD_REFLECT,       /* mirrored about the edge, edge not repeated */
    EM_PAD_SYMMETRIC,     /* mirrored, edge repeated */
    EM_PAD_WRAP,          /* periodic */
    EM_PAD_REFLECT_ODD,   /* reflect, reflect_type='odd': 2 * edge - mirror */
    EM_PAD_SYMMETRIC_ODD, /* symmetric, reflect_type='odd' (not for bool) */
    EM_PAD_EMPTY,         /* the pad left uninitialised */
    EM_PAD_MAXIMUM,       /* the maximum of stat_length edge elements */
    EM_PAD_MINIMUM,       /* the minimum, likewise */
    EM_PAD_MEAN,          /* the mean, likewise (rounded for integers) */
    EM_PAD_LINEAR_RAMP    /* from values[2*axis + side] to the edge */
} em_pad_mode;

/* numpy.pad(a, width, mode): width holds a->ndim (before, after) pairs,
 * each >= 0 (EM_ERR_INVALID_VALUE "index can't contain negative values").
 * For EM_PAD_CONSTANT (the fill) and EM_PAD_LINEAR_RAMP (the end values),
 * values holds a->ndim (before, after) pairs of `values_dtype` elements
 * (NULL: zeros). A ramp is NumPy's linspace(end, edge, width,
 * endpoint=False) in the promoted dtype (em_linspace_array). Modes other
 * than constant and empty on an empty axis that is padded are
 * EM_ERR_INVALID_VALUE ("can't extend empty axis 0 using modes other
 * than 'constant' or 'empty'"); reflect
 * and symmetric on an axis of extent 1 repeat the edge, as NumPy. Axes
 * are padded in order, each over the already padded extents of the axes
 * before it, so corners come out as NumPy's. Launches: one copy of a plus
 * two per padded axis (reflect, symmetric and wrap wider than the axis:
 * two more per round, each round about tripling the filled part; the odd
 * modes two more per chunk; the statistics one em_reduce per side).
 * stat_length (maximum, minimum, mean; may be NULL) holds a->ndim
 * (before, after) pairs of how many edge elements the statistic covers,
 * -1 for the whole axis; 0 for maximum or minimum is EM_ERR_INVALID_VALUE
 * ("stat_length of 0 yields no value for padding"). out is always a new
 * array. */
em_status em_array_pad(const em_array *a, const int64_t *width,
                       em_pad_mode mode, const void *values,
                       em_dtype values_dtype, const int64_t *stat_length,
                       em_array *out, em_stream *s);

/* numpy.diag(v, k): for 1-D v a new (n+|k|, n+|k|) array with v on
 * diagonal k and zeros elsewhere (a fill and a copy); for 2-D v a new 1-D
 * copy of diagonal k. Other ndims are EM_ERR_INVALID_VALUE ("Input must
 * be 1- or 2-d."). */
em_status em_array_diag(const em_array *v, int64_t k, em_array *out,
                        em_stream *s);

/* ---- creation from ranges (src/array/ranges.c) ------------------------ */

/* numpy.arange's n values as a new 1-D array of `dtype` on device d,
 * where dtype is the packing NumPy's fill computes in: EM_UINT64 (every
 * integer result, wrapping), EM_FLOAT32, EM_FLOAT64, EM_COMPLEX128 or
 * EM_BOOL (n <= 2). start and next point at the first two values (start
 * and start + step) as that dtype; element i > 1 is start + (T)i * (next -
 * start) in T, as NumPy's fill. Large real ranges on a GPU are computed
 * there: an index ramp doubled from an uploaded prefix (log2 launches), a
 * cast, a multiply and an add, each rounding as the host's arithmetic does;
 * the rest is written on the host and uploaded. */
em_status em_arange(em_device *d, em_dtype dtype, const void *start,
                    const void *next, int64_t n, em_array *out, em_stream *s);

/* numpy.linspace(start, stop, num, endpoint) for real (start_im and
 * stop_im 0 and dtype real) or complex scalars, into a new 1-D array of
 * `dtype` on device d. The values are NumPy's exactly: computed in
 * float64 (complex128) as start + i * step with step = (stop - start) /
 * div (or i / div * delta when step is 0), the last one set to stop when
 * endpoint, then floored for integer dtypes and cast. *step_out (may be
 * NULL) receives the step (NaN when div is 0), real and imaginary parts.
 * The values are built on the host and uploaded (one transfer), or, for a
 * long real range on a GPU, by the same steps as kernels (em_arange's). */
em_status em_linspace(em_device *d, double start, double start_im,
                      double stop, double stop_im, int64_t num, int endpoint,
                      em_dtype dtype, double *step_out, em_array *out,
                      em_stream *s);

/* numpy.linspace with array ends: start and stop broadcast together to
 * shape B, the result has shape (num,) + B with the samples along `axis`
 * (of the result; a transposed view when not 0). The arithmetic is
 * NumPy's, step by step, in `compute` (NumPy's result_type of the ends,
 * made inexact), each step one elementwise kernel: the ends cast to
 * compute, delta = stop - start, step = delta / div, y = i * step (or
 * i / div * delta when any step is 0, which costs a one-byte read back),
 * y += start, the last sample set to stop, floor for integer dtypes, then
 * the cast to dtype. step_out (may be NULL) receives the step array (B,
 * compute dtype; NaN when div is 0). */
em_status em_linspace_array(const em_array *start, const em_array *stop,
                            int64_t num, int endpoint, int axis,
                            em_dtype compute, em_dtype dtype,
                            em_array *step_out, em_array *out, em_stream *s);

/* numpy.logspace: base ** linspace(...) computed in float64 (complex128
 * when any part is complex) on the host with the C library's pow, then
 * cast to dtype. */
em_status em_logspace(em_device *d, double start, double stop, int64_t num,
                      int endpoint, double base, em_dtype dtype,
                      em_array *out, em_stream *s);

/* numpy.geomspace for real scalars: logspace between log10 of |start| and
 * log10 of stop / sign(start), the ends set to start and stop exactly,
 * times sign(start) (NumPy's steps, on the host). A zero end is
 * EM_ERR_INVALID_VALUE ("Geometric sequence cannot include zero"). */
em_status em_geomspace(em_device *d, double start, double stop, int64_t num,
                       int endpoint, em_dtype dtype, em_array *out,
                       em_stream *s);

/* numpy.eye(n, m, k, dtype, order): a new (n, m) array, ones on diagonal
 * k. A fill of zeros and a fill of the diagonal view. */
em_status em_eye(em_device *d, int64_t n, int64_t m, int64_t k,
                 em_dtype dtype, char order, em_array *out, em_stream *s);

/* numpy.tri(n, m, k, dtype): a new (n, m) array, 1 where j <= i + k.
 * One comparison kernel over two small uploaded index vectors. */
em_status em_tri(em_device *d, int64_t n, int64_t m, int64_t k,
                 em_dtype dtype, em_array *out, em_stream *s);

/* numpy.tril / numpy.triu (upper nonzero) of a (ndim >= 2; the last two
 * axes are the matrices): a new array of a's shape and dtype with the
 * elements above (tril) or below (triu) diagonal k set to zero. A
 * zero fill, a mask (as em_tri) and one masked copy. */
em_status em_tril(const em_array *a, int64_t k, int upper, em_array *out,
                  em_stream *s);

#ifdef __cplusplus
}
#endif
#endif
