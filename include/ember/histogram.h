/* ember: histograms and counting, unique and set operations, order
 * statistics (the "hist" family of the parallel algorithms: see
 * parallel.h).
 *
 * The counting functions read their input once with per-block privatized
 * counters (shared-memory counters per CUDA block for up to
 * EM_HIST_SHARED_BINS bins, global atomics beyond; a private row of
 * counters per host block, summed by a second kernel). Everything is
 * stream ordered, except the small reads each function names (a result's
 * size, a range, a check of bins). Values are compared in float64
 * (integers beyond 2^53 lose precision there, as NumPy's float64 edges
 * do); bool, integer, float16, bfloat16, float32 and float64 inputs are
 * accepted, complex ones are EM_ERR_TYPE naming the function and the
 * dtype. Any layout is accepted (a strided input is first copied to a
 * contiguous one).
 */
#ifndef EMBER_HISTOGRAM_H
#define EMBER_HISTOGRAM_H

#include "ember/array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bins kept in shared memory per CUDA block (half as many with weights);
 * more use global atomics. bincount counts up to this many values (or
 * minlength) in the same pass that finds its output's length. */
#define EM_HIST_SHARED_BINS 8192

/* What em_histogram_bin_edges knows about the equal bins it made, so
 * that counting needs no read of the edges: the first and last edge as
 * the edges array holds them, and the largest distance of an edge from
 * exact equal spacing between them, in bins. */
typedef struct em_hist_grid {
    double first, last, dev;
} em_hist_grid;

/* CUB's HistogramEven: `bins` equal bins over [lower, upper) (every bin
 * half-open, upper excluded; values outside and NaN are not counted).
 * *out receives a new int64 array of `bins` counts on x's device.
 * bins < 1 or !(lower < upper) or non-finite bounds: EM_ERR_INVALID_VALUE. */
em_status em_histogram_even(const em_array *x, int64_t bins, double lower,
                            double upper, em_array *out, em_stream *s);

/* NumPy's histogram counting over given edges: edges (1-d, real, on
 * x's device, at least one: one edge makes no bins; monotonically
 * non-decreasing, else EM_ERR_INVALID_VALUE, checked on a host copy)
 * bound nbins = len(edges) - 1 bins, each half-open [e_i, e_i+1) except
 * the last, which includes its right edge; values outside [e_0, e_nbins]
 * and NaN are not counted. `uniform` nonzero promises equal spacing
 * (NumPy's linspace edges) and lets the kernel compute a bin and correct
 * it by one against the edges instead of a binary search; the result is
 * the same. weights (NULL, or of x's shape and device, real) sum a
 * weight per value instead of counting: *out is int64 counts without
 * weights, float64 sums with them. */
em_status em_histogram_edges(const em_array *x, const em_array *weights,
                             const em_array *edges, int uniform, em_array *out,
                             em_stream *s);

/* NumPy's histogram bin edges for `bins` equal bins: over [lo, hi] when
 * has_range, else over x's minimum and maximum (one small read; NaN in x
 * gives EM_ERR_INVALID_VALUE "autodetected range of [nan, nan] is not
 * finite", as NumPy). lo == hi widens to [lo - 0.5, hi + 0.5]. *out is a
 * new array of bins + 1 edges in NumPy's dtype (the float type of the
 * input, float64 for integers) on x's device, computed as NumPy's
 * linspace. grid (NULL: not wanted) receives what em_histogram_uniform
 * needs to count without reading the edges back. */
em_status em_histogram_bin_edges(const em_array *x, int64_t bins, int has_range,
                                 double lo, double hi, em_array *out,
                                 em_hist_grid *grid, em_stream *s);

/* NumPy's bin count for a string `bins`: method is one of "auto", "fd",
 * "sturges", "sqrt", "rice", "scott", "doane", "stone" (anything else is
 * EM_ERR_INVALID_VALUE naming it). The data (x flattened, trimmed to
 * [lo, hi] when has_range) gives a width as NumPy's estimator of that
 * name; *nbins = ceil(range / width) (at least 1 for integer data's
 * widths below 1; 1 for a zero width or no data). Statistics are computed
 * on the device (in float64 where NumPy uses the data's float type, so a
 * width that lands within rounding of a whole count may differ by one);
 * a few small reads. 'stone' counts one histogram per candidate count
 * (up to max(100, sqrt(n))), as NumPy does; NumPy's warning when the
 * best is the last candidate is not given. */
em_status em_histogram_bin_count(const em_array *x, const char *method,
                                 int has_range, double lo, double hi,
                                 int64_t *nbins, em_stream *s);

/* em_histogram_edges with the uniform edges em_histogram_bin_edges made
 * and the grid it described them with: no host read, one pass over x. */
em_status em_histogram_uniform(const em_array *x, const em_array *weights,
                               const em_array *edges, const em_hist_grid *grid,
                               em_array *out, em_stream *s);

/* NumPy's density=True: hist / diff(edges) / sum(hist) as float64 (nbins
 * values: computed on a host copy, one small read). */
em_status em_histogram_density(const em_array *hist, const em_array *edges,
                               em_array *out, em_stream *s);

/* NumPy's bincount: x is 1-d of a non-negative integer type (a negative
 * value is EM_ERR_INVALID_VALUE; a bool is counted as 0/1). *out has
 * max(max(x) + 1, minlength) elements: int64 counts, or float64 sums of
 * weights (same length as x). One pass counts the values below
 * max(EM_HIST_SHARED_BINS, minlength) (half that with weights) while it
 * finds x's extremes; the length needs them: one small read. Only when
 * a value is past that bound is x counted again. *out may be a view of
 * a slightly longer buffer. */
em_status em_bincount(const em_array *x, const em_array *weights,
                      int64_t minlength, em_array *out, em_stream *s);

/* One coordinate's bins for em_histogram2d: the given edges (1-d, real,
 * on x's device, at least one, monotonically non-decreasing, else
 * EM_ERR_INVALID_VALUE), or, with edges NULL, `count` equal bins over
 * [lo, hi] (has_range) or over the coordinate's minimum and maximum, as
 * NumPy's histogramdd makes them (float64 edges for a given range or
 * integer data, else the data's float type; no check of collapsed
 * edges). */
typedef struct em_hist_axis {
    const em_array *edges;
    int64_t count;
    int has_range;
    double lo, hi;
} em_hist_axis;

/* NumPy's histogram2d: x and y 1-d of one length (else
 * EM_ERR_INVALID_VALUE naming both), real (complex is EM_ERR_TYPE), taken
 * in their promoted dtype as NumPy stacks them; weights NULL or real of
 * their length. A pair counts in bin (i, j) when x is in x's bin i and y
 * in y's bin j (half-open bins, the last closed; NaN and values outside
 * are not counted). *hist is a new float64 (nx, ny) array of counts or
 * weight sums, or with dens NumPy's density (hist / dx_i / dy_j /
 * sum(hist), on a host copy); *xedges and *yedges the edges used (the
 * given arrays themselves, or new ones). One pass over x and y, plus
 * one small read of each coordinate's range when it is computed. */
em_status em_histogram2d(const em_array *x, const em_array *y,
                         const em_array *weights, const em_hist_axis axes[2],
                         int dens, em_array *hist, em_array *xedges,
                         em_array *yedges, em_stream *s);

/* NumPy's digitize: for each element of x, the index of its bin in `bins`
 * (1-d, real, monotonically increasing or decreasing, else
 * EM_ERR_INVALID_VALUE; the check is one read of bins). right selects
 * NumPy's `right` (bins[i-1] < x <= bins[i] for increasing bins). *out
 * is a new int64 array of x's shape. NaN goes past the last bin, as NumPy
 * (which sorts NaN last). */
em_status em_digitize(const em_array *x, const em_array *bins, int right,
                      em_array *out, em_stream *s);

/* ---- unique and set operations ---------------------------------------
 * On sort.h's stable sorts: sort (argsort when indices are wanted), flag
 * the first element of each run of equal values, compact the flags
 * (em_nonzero: one small read for the count) and gather. Inputs of any
 * shape are flattened (axis=None); bool, integer and real floating
 * dtypes (float16 and bfloat16 sort as float32); complex is EM_ERR_TYPE.
 * -0.0 and 0.0 are one value (the first in sorted order is kept). */

/* NumPy 2's unique(a, return_index, return_inverse, return_counts,
 * equal_nan): *values gets the sorted distinct values (a's dtype);
 * index (NULL: not wanted) the int64 position in the flattened a of each
 * value's first occurrence; inverse the int64 index into values of each
 * element of a, in a's shape; counts each value's int64 count. With
 * equal_nan, all NaNs are one value (NumPy's default), else each NaN is
 * its own. */
em_status em_unique(const em_array *a, int equal_nan, em_array *values,
                    em_array *index, em_array *inverse, em_array *counts,
                    em_stream *s);

/* NumPy's isin(element, test_elements, invert): a bool array of
 * element's shape. The two arrays are compared in their common dtype
 * (promotion as NumPy's; complex is EM_ERR_TYPE); NaN is in nothing. */
em_status em_isin(const em_array *element, const em_array *test, int invert,
                  em_array *out, em_stream *s);

/* NumPy's union1d: the sorted distinct values of both (flattened, in
 * their promoted dtype). */
em_status em_union1d(const em_array *a, const em_array *b, em_array *out,
                     em_stream *s);

/* NumPy's intersect1d: sorted values in both. assume_unique skips the
 * unique of each input (wrong answers if they are not, as NumPy).
 * With idx1 and idx2 (both or neither), the int64 indices into the
 * flattened inputs of each common value (first occurrences). */
em_status em_intersect1d(const em_array *a, const em_array *b,
                         int assume_unique, em_array *out, em_array *idx1,
                         em_array *idx2, em_stream *s);

/* NumPy's setdiff1d: the distinct values of a not in b (with
 * assume_unique, a's values as given, in order). */
em_status em_setdiff1d(const em_array *a, const em_array *b, int assume_unique,
                       em_array *out, em_stream *s);

/* NumPy's setxor1d: sorted values in exactly one of a and b. */
em_status em_setxor1d(const em_array *a, const em_array *b, int assume_unique,
                      em_array *out, em_stream *s);

/* ---- order statistics ------------------------------------------------ */

/* NumPy's quantile (method 'linear') and, with median nonzero, median,
 * by a sort along the axis: nq quantiles q (host memory, each in [0, 1],
 * else EM_ERR_INVALID_VALUE; ignored for the median) of a over the
 * naxes axes in `axes` (negative count from the end; out of range is
 * EM_ERR_AXIS, repeated EM_ERR_INVALID_VALUE; axes NULL: all of a, as
 * NumPy's axis=None). *out has shape qshape + the remaining
 * axes (qndim 0: a scalar q; keepdims keeps the reduced axes as 1) and
 * dtype out_dtype (a float dtype: NumPy's is a's float type, float64 for
 * integers, promoted with q's dtype when q is an array). Computed in
 * float64 and rounded once. A slice holding a NaN gives NaN, an empty
 * one NaN; with skipnan (nanquantile, nanmedian) NaNs are left out of
 * each slice (an all-NaN or empty slice gives NaN). Complex is
 * EM_ERR_TYPE; so is bool, except for the median. */
em_status em_quantile(const em_array *a, const double *q, int qndim,
                      const int64_t *qshape, const int *axes, int naxes,
                      int keepdims, int median, int skipnan,
                      em_dtype out_dtype, em_array *out, em_stream *s);

#ifdef __cplusplus
}
#endif
#endif
