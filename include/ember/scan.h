/* ember: scans, transforms and stream compaction with user operators.
 *
 * A scan combines in index order: element i of an inclusive scan is
 * x[0] op x[1] op ... op x[i] (the operator's `a` always from the lower
 * index), so an associative but non-commutative operator gives the
 * sequential answer. On CUDA a scan is one pass over the data (decoupled
 * look-back with dynamic tile ids); on the host it is three passes over
 * chunks (chunk totals, a serial pass over them, the chunk scans). Floats
 * are therefore summed in another order than NumPy's sequential loop:
 * results agree within rounding, not bit for bit.
 *
 * Built-in operators and the value type they work in: add and mul wrap
 * around in integers (as NumPy), and/or/xor are for bool and integers,
 * min and max propagate NaN (as np.minimum.accumulate). A C expression
 * works on the output dtype's natural C type (int32_t, float, ...; a
 * 16-bit float as float, complex as ew_c64/ew_c128 structs with .re/.im).
 * argmin/argmax need tuple values (em_scan_tuple below).
 *
 * Streams: every function here is ordered on s (NULL: the current stream
 * of the array's device) and never synchronises, except em_select and
 * em_partition, which read back the one count that sizes their result.
 */
#ifndef EMBER_SCAN_H
#define EMBER_SCAN_H

#include "ember/array.h"
#include "ember/parallel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The axis argument that flattens the input first (as NumPy's axis=None). */
#define EM_SCAN_FLAT (-1000)

/* The output dtype a scan with op gets by default: NumPy's cumsum rule for
 * add and mul (bool and small signed ints -> int64, small unsigned ints ->
 * uint64), the input's dtype for every other operator. */
em_dtype em_scan_default_dtype(em_par_builtin op, em_dtype in);

/* Scan x along axis (EM_SCAN_FLAT: over the flattened array) with op into
 * a new C-ordered array *out of dtype out_dtype, the shape of x (1-D when
 * flattened). Elements are converted to out_dtype before they are
 * combined. exclusive: element i combines init with x[0..i-1] (element 0
 * is init), and init is required; inclusive: init, when not NULL, is
 * combined in front of x[0]. init points to one value of out_dtype's
 * storage (host memory, read during the call).
 * Errors: EM_ERR_TYPE naming the function and dtype for an operator the
 * dtype has no meaning for (min of complex, xor of float); EM_ERR_AXIS;
 * EM_ERR_COMPILE with the expression and the compiler's log. */
em_status em_scan(const em_array *x, int axis, const em_par_op *op,
                  int exclusive, const void *init, em_dtype out_dtype,
                  em_array *out, em_stream *s);

/* out = the C expression `expr` over the inputs, named a, b, c, ... (at
 * most 8), elementwise. Inputs must all have one shape; each is
 * converted to out_dtype's natural C type (as em_scan's expressions) and
 * the expression's value is converted to out_dtype. *out is new. */
em_status em_par_transform(const char *expr, int ninputs,
                           const em_array *const *inputs, em_dtype out_dtype,
                           em_array *out, em_stream *s);

/* Stream compaction. The elements of the flattened x (in C order) for
 * which the predicate holds, in order, into a new 1-D array *out of x's
 * dtype. The predicate is either a C expression over `a` (x's natural C
 * type), or mask, a bool array of x's shape (then pred is NULL). A mask
 * of x's leading shape x.shape[:k] selects whole sub-arrays, as NumPy's
 * x[mask]: *out then has shape (count,) + x.shape[k:]. */
em_status em_select(const em_array *x, const char *pred, const em_array *mask,
                    em_array *out, em_stream *s);

/* As em_select, and the rejected elements after the selected ones (both
 * in their original order): *out has x's size; *nselected says where the
 * second part begins. */
em_status em_partition(const em_array *x, const char *pred,
                       const em_array *mask, em_array *out,
                       int64_t *nselected, em_stream *s);

/* ---- by key: runs of consecutive equal keys ------------------------
 * keys and values are 1-D of one length (EM_ERR_INVALID_VALUE naming both
 * shapes otherwise). Keys compare by value: -0.0 equals 0.0 and a NaN
 * key starts a run of its own. */

/* A scan of values that restarts at every run of keys (init, when given,
 * in front of every run; required for exclusive). As em_scan otherwise. */
em_status em_scan_by_key(const em_array *keys, const em_array *values,
                         const em_par_op *op, int exclusive, const void *init,
                         em_dtype out_dtype, em_array *out, em_stream *s);

/* One key and the values of its run combined with op (in out_dtype) per
 * run: new 1-D arrays *out_keys and *out_values. */
em_status em_reduce_by_key(const em_array *keys, const em_array *values,
                           const em_par_op *op, em_dtype out_dtype,
                           em_array *out_keys, em_array *out_values,
                           em_stream *s);

/* The first key and value of each run (values may be NULL). */
em_status em_unique_by_key(const em_array *keys, const em_array *values,
                           em_array *out_keys, em_array *out_values,
                           em_stream *s);

/* One value per segment [offsets[i], offsets[i + 1]) of values (1-D):
 * init op values[begin] op ... op values[end - 1], init alone for an empty
 * segment, in out_dtype; *out has len(offsets) - 1 elements. offsets is
 * 1-D of integers, non-decreasing for meaningful results; each offset is
 * clamped to [0, len(values)], so none can reach outside the values.
 * init (one value of out_dtype's storage) is required. */
em_status em_segmented_reduce(const em_array *values, const em_array *offsets,
                              const em_par_op *op, const void *init,
                              em_dtype out_dtype, em_array *out, em_stream *s);

/* Runs of x (1-D): each run's value and its length (int64). */
em_status em_run_length_encode(const em_array *x, em_array *out_values,
                               em_array *out_counts, em_stream *s);

/* ---- tuple (zipped) values ------------------------------------------
 * A value is a tuple of 2 to EM_SCAN_MAX_TUPLE components, component k
 * taken from array k (all of one size; EM_ERR_INVALID_VALUE naming both
 * lengths otherwise; flattened in C order), each of its own dtype. The
 * operator is one of:
 *  - a built-in (add, mul, min, max, and, or, xor) applied per component;
 *  - argmin or argmax on a (value, index) pair: the smaller (larger)
 *    value wins, a tie goes to the lower index, and a NaN value beats
 *    every number (the first NaN wins), as NumPy's argmin/argmax;
 *  - one C expression per component over a0, a1, ... (the left operand's
 *    components, from the lower index) and b0, b1, ... (the right's),
 *    each in its component's value type, e.g. {"a0 + b0", "a1 + b1"}.
 * Results are new 1-D arrays, one per component. out_dtypes may be NULL:
 * add and mul then take em_scan_default_dtype per component, other
 * operators keep each input's dtype. init, where taken, is an array of
 * one pointer per component, each to one value of that component's
 * output dtype. */
#define EM_SCAN_MAX_TUPLE 4

typedef struct em_par_tuple_op {
    em_par_builtin kind;       /* EM_PAR_EXPR: exprs below */
    int nexpr;                 /* EM_PAR_EXPR: must equal the components */
    const char *const *exprs;  /* NUL-terminated, copied by the callee */
} em_par_tuple_op;

/* Inclusive or exclusive scan of tuple values (as em_scan over the
 * flattened arrays): outs[k] receives component k. */
em_status em_scan_tuple(int n, const em_array *const *xs,
                        const em_par_tuple_op *op, int exclusive,
                        const void *const *init, const em_dtype *out_dtypes,
                        em_array *outs, em_stream *s);

/* em_scan_by_key with tuple values (keys 1-D, values 1-D of its length). */
em_status em_scan_by_key_tuple(const em_array *keys, int n,
                               const em_array *const *values,
                               const em_par_tuple_op *op, int exclusive,
                               const void *const *init,
                               const em_dtype *out_dtypes, em_array *outs,
                               em_stream *s);

/* em_reduce_by_key with tuple values: *out_keys and outs[0..n). */
em_status em_reduce_by_key_tuple(const em_array *keys, int n,
                                 const em_array *const *values,
                                 const em_par_tuple_op *op,
                                 const em_dtype *out_dtypes,
                                 em_array *out_keys, em_array *outs,
                                 em_stream *s);

#ifdef __cplusplus
}
#endif
#endif
