/* ember: shapes and byte strides.
 *
 * A shape is an array of ndim int64 extents; strides are in bytes and may be
 * negative or zero (broadcast). These helpers do the overflow-checked
 * arithmetic that every array operation needs.
 */
#ifndef EMBER_SHAPE_H
#define EMBER_SHAPE_H

#include <stdint.h>
#include <stddef.h>
#include "ember/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EM_MAX_NDIM 32  /* NumPy 2's limit is 64; 32 covers real uses */

/* Number of elements of a shape; EM_ERR_INVALID_VALUE for a negative extent,
 * EM_ERR_OVERFLOW if the product does not fit int64. ndim 0 gives 1. */
em_status em_shape_size(int ndim, const int64_t *shape, int64_t *size);

/* C-order (order='C') or Fortran-order ('F') byte strides for a shape.
 * Fails with EM_ERR_OVERFLOW if the byte size does not fit int64. */
em_status em_strides_contiguous(int ndim, const int64_t *shape,
                                int64_t itemsize, char order,
                                int64_t *strides);

/* Nonzero when the layout is C-contiguous (extent-1 axes ignored). */
int em_is_c_contiguous(int ndim, const int64_t *shape, const int64_t *strides,
                       int64_t itemsize);

/* Nonzero when the layout is Fortran-contiguous. */
int em_is_f_contiguous(int ndim, const int64_t *shape, const int64_t *strides,
                       int64_t itemsize);

/* The lowest and one-past-highest byte offsets the layout touches relative
 * to its base pointer (both 0 for an empty shape). */
void em_layout_extent(int ndim, const int64_t *shape, const int64_t *strides,
                      int64_t itemsize, int64_t *lo, int64_t *hi);

/* NumPy broadcasting of two shapes into out (ndim *out_ndim); fails with
 * EM_ERR_INVALID_VALUE naming both shapes when they do not broadcast. */
em_status em_shape_broadcast(int na, const int64_t *a, int nb,
                             const int64_t *b, int *out_ndim, int64_t *out);

/* Write "(2, 3)" into buf (truncated to n bytes); returns buf. */
char *em_shape_format(int ndim, const int64_t *shape, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
