/* ember: advanced indexing (integer arrays, boolean masks) and the index
 * functions (take, take_along_axis, put, nonzero, where).
 *
 * The core is one generated gather/scatter kernel over an "index space":
 * a shape of rank R (the result of a gather, the value array of a
 * scatter). Each element of the index space addresses one source element:
 * its coordinates times per-axis source strides (the axes that a slice or
 * a broadcast keeps), plus, for each of K integer index arrays (read with
 * their own broadcast strides in the index space), the index value times
 * the source stride of the axis it indexes. NumPy's key rules (axis
 * placement, broadcasting the index arrays) are the caller's: it states
 * the result as such a geometry. Elements are moved as bytes of the
 * source's itemsize, so one kernel serves every dtype of a size; casts are
 * the caller's (em_array_copy) before a scatter.
 *
 * Index checking (EM_INDEX_RAISE) costs one small allocation, a memset and
 * one 24-byte device-to-host read after the kernel, with a stream
 * synchronisation: the kernel records one bad index (atomically) and the
 * call reports it as EM_ERR_INDEX, "index 10 is out of bounds for axis 0
 * with size 3" (on the GPU, which bad index is reported when there are
 * several is not specified). Masks are compacted by nonzero: per-block
 * counts, a one-block scan of the counts, one 8-byte read of the total,
 * then a write of each block's coordinates at its offset.
 */
#ifndef EMBER_INDEX_H
#define EMBER_INDEX_H

#include "ember/array.h"
#include "ember/ufunc.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum em_index_mode {
    EM_INDEX_RAISE = 0, /* out of range: EM_ERR_INDEX */
    EM_INDEX_WRAP = 1,  /* taken modulo the extent */
    EM_INDEX_CLIP = 2   /* clamped to [0, extent - 1] */
} em_index_mode;

/* One gather or scatter. idx[k] must be an integer array (bool is not an
 * index here: masks go through em_nonzero first) on the source's device,
 * laid out over the index space by idx_strides[k] (bytes, 0 where it
 * broadcasts). */
typedef struct em_index_geom {
    int ndim; /* R, 0..EM_MAX_NDIM */
    int64_t shape[EM_MAX_NDIM];
    int64_t src_strides[EM_MAX_NDIM]; /* bytes per index-space axis */
    int nidx;                         /* K, 0..EM_MAX_NDIM */
    const em_array *idx[EM_MAX_NDIM];
    int64_t idx_strides[EM_MAX_NDIM][EM_MAX_NDIM];
    int64_t extent[EM_MAX_NDIM]; /* the indexed axis's length */
    int64_t stride[EM_MAX_NDIM]; /* the indexed axis's byte stride */
    int axis[EM_MAX_NDIM];       /* its number, for messages */
} em_index_geom;

/* out[i] = src[address(i)] for i over the index space. src gives the
 * device, dtype and base pointer (src->data is the element whose
 * coordinates are all 0). out->storage NULL: a new C-contiguous array of
 * g's shape and src's dtype; otherwise out must have g's shape and src's
 * dtype (any layout, not overlapping src). */
em_status em_index_gather(const em_array *src, const em_index_geom *g,
                          em_index_mode mode, em_array *out, em_stream *s);

/* dst[address(i)] = values[i]. values has g's shape and dst's dtype (the
 * caller broadcasts and casts). With repeated addresses the last write in
 * C order wins on cpu; on cuda one of them wins (unspecified, as NumPy
 * leaves it). dst must be writeable. With EM_INDEX_RAISE the indices are
 * checked in a pass of their own before any element is written, so an
 * out-of-range index leaves dst as it was, as in NumPy (one more kernel,
 * the same one synchronisation). */
em_status em_index_scatter(em_array *dst, const em_index_geom *g,
                           em_index_mode mode, const em_array *values,
                           em_stream *s);

/* The coordinates of a's nonzero elements in C order as one new int64
 * array of shape (a->ndim, count) (row d holds axis d's coordinates). a of
 * any dtype and layout, ndim >= 1 (a 0-d array is EM_ERR_INVALID_VALUE, as
 * NumPy 2 refuses it). */
em_status em_nonzero(const em_array *a, em_array *out, em_stream *s);

/* numpy.take: axis < 0 counts from the end; EM_TAKE_FLAT takes from the
 * flattened array (copied to C order first when it is not). out as in
 * em_index_gather (dtype a's). */
#define EM_TAKE_FLAT (-1000)
em_status em_take(const em_array *a, const em_array *indices, int axis,
                  em_index_mode mode, em_array *out, em_stream *s);

/* numpy.take_along_axis (axis >= -ndim; indices of a's rank whose other
 * extents broadcast with a's). */
em_status em_take_along_axis(const em_array *a, const em_array *indices,
                             int axis, em_array *out, em_stream *s);

/* numpy.put_along_axis: values (a's dtype or cast, as assignment) are
 * broadcast to the along-axis index's shape and scattered. */
em_status em_put_along_axis(em_array *a, const em_array *indices,
                            const em_array *values, int axis, em_stream *s);

/* numpy.put: a.flat[indices] = values.flat, cast to a's dtype, values
 * repeated cyclically when fewer than the indices (an empty values array
 * is EM_ERR_INVALID_VALUE). a that is not C-contiguous goes through a
 * temporary. */
em_status em_put(em_array *a, const em_array *indices, const em_array *values,
                 em_index_mode mode, em_stream *s);

/* numpy.choose: out[i] = choices[a[i]][i], a (an integer array) and the
 * choices broadcast together, the result of the choices' result_type;
 * out->storage NULL: a new array, else out of that shape and dtype. An
 * entry out of range in raise mode is EM_ERR_INVALID_VALUE, as NumPy. */
#define EM_CHOOSE_MAX 32
em_status em_choose(const em_array *a, const em_array *const *choices, int n,
                    em_index_mode mode, em_array *out, em_stream *s);

/* numpy.where(cond, x, y): cond of any dtype (nonzero is true), x and y
 * arrays or scalars (weak Python scalars as NEP 50), all broadcast; the
 * result dtype is em_result_type(x, y). out->storage NULL: a new array. */
em_status em_where(const em_array *cond, const em_operand *x,
                   const em_operand *y, em_array *out, em_stream *s);

#ifdef __cplusplus
}
#endif
#endif
