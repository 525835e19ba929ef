/* ember: sorting and searching (radix and merge sort, merge, bounds,
 * top-k, and the NumPy-style sort/argsort/searchsorted along an axis).
 *
 * Order of floats everywhere: NumPy's. NaNs sort last (after +inf, and
 * in a descending radix sort too), and -0.0 equals 0.0 (a stable sort
 * keeps them in input order). Complex numbers order by real part, then
 * imaginary part, NaNs last (NumPy's rule), in every function here but
 * em_radix_sort, em_top_k and em_searchsorted (which refuse complex).
 *
 * Every sort here is stable. Results are new C-contiguous arrays made on
 * the keys' device unless said otherwise; on failure outputs are zeroed.
 * Operations are stream-ordered on s (NULL: the current stream of the
 * keys' device); nothing synchronizes with the host.
 */
#ifndef EMBER_SORT_H
#define EMBER_SORT_H

#include "ember/array.h"
#include "ember/parallel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sort 1-D keys (bool, ints of 8..64 bits, float16/bfloat16/float32/
 * float64; any layout) by their order-preserving bit image, stable.
 * values (NULL: keys only) is 1-D of the keys' length and any dtype; it is
 * permuted with the keys. Only bits [begin_bit, end_bit) of the image take
 * part (0 and 8 * itemsize sort fully; -1 for end_bit means the full
 * width). descending reverses the key order but keeps equal keys in input
 * order (stable) and NaNs last.
 * Unsupported key dtypes (complex) are EM_ERR_TYPE naming the function
 * and dtype; lengths that differ are EM_ERR_INVALID_VALUE naming both.
 * out_keys gets the sorted keys; out_values (when values) the values. */
em_status em_radix_sort(const em_array *keys, const em_array *values,
                        int descending, int begin_bit, int end_bit,
                        em_array *out_keys, em_array *out_values, em_stream *s);

/* Stable merge sort of 1-D keys with a comparator: cmp is an
 * EM_PAR_EXPR, a C expression over a and b of the key type meaning
 * "a goes before b" (NULL or a built-in: ascending, NumPy's order). */
em_status em_merge_sort(const em_array *keys, const em_array *values,
                        const em_par_op *cmp, em_array *out_keys,
                        em_array *out_values, em_stream *s);

/* Merge two sorted 1-D arrays (stable: of equal keys, a's come first).
 * a_values/b_values are both NULL or both given. */
em_status em_merge(const em_array *a_keys, const em_array *a_values,
                   const em_array *b_keys, const em_array *b_values,
                   const em_par_op *cmp, em_array *out_keys,
                   em_array *out_values, em_stream *s);

/* For each needle (any shape), the first index i of sorted 1-D `sorted`
 * (ascending in NumPy's order, NaNs last) where the needle could be
 * inserted keeping order: lower bound (right 0, NumPy's side 'left':
 * sorted[i-1] < v <= sorted[i]) or upper bound (right 1). sorter (NULL,
 * or 1-D integers of sorted's length) gives the order of an unsorted
 * array, as NumPy's searchsorted; an index out of range is EM_ERR_INDEX.
 * Both sides are compared in their common type (em_result_type); complex
 * is EM_ERR_TYPE. out is int64 of the needles' shape. */
em_status em_searchsorted(const em_array *sorted, const em_array *needles,
                          int right, const em_array *sorter, em_array *out,
                          em_stream *s);

/* NumPy's sort / argsort along axis (negative counts from the end);
 * flatten sorts the flattened array (axis=None). em_argsort's out is
 * int64 indices along the axis, stable. All numeric dtypes and bool;
 * complex via a stable merge sort. */
em_status em_sort(const em_array *a, int axis, int flatten, em_array *out,
                  em_stream *s);
em_status em_argsort(const em_array *a, int axis, int flatten, em_array *out,
                     em_stream *s);

/* The k largest (largest != 0) or smallest elements of 1-D x, in sorted
 * order (largest first for largest), with their int64 indices (either
 * output may be NULL). Ties keep input order; NaNs count as after every
 * number either way (never picked before one). 0 <= k <= len, else
 * EM_ERR_INVALID_VALUE. */
em_status em_top_k(const em_array *x, int64_t k, int largest,
                   em_array *out_values, em_array *out_indices, em_stream *s);

#ifdef __cplusplus
}
#endif
#endif
