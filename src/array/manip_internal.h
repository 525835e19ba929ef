/* ember internal: what manip.c, manip_pad.c and ranges.c share. */
#ifndef EMBER_MANIP_INTERNAL_H
#define EMBER_MANIP_INTERNAL_H

#include "ember/ember.h"

/* v = a with axis restricted to start, start+step, ... (len elements): a
 * borrowed layout (no reference of its own) that keeps a's WRITEABLE. */
void em_manip_part(const em_array *a, int axis, int64_t start, int64_t len,
                   int64_t step, em_array *v);

/* EM_ERR_INVALID_VALUE naming both devices unless a and b share one. */
em_status em_manip_same_device(const em_array *a, const em_array *b,
                               const char *fn);

/* out->storage NULL: a new C-contiguous array; else check out's device,
 * writeability and shape. */
em_status em_manip_out(em_device *d, em_dtype dtype, int ndim,
                       const int64_t *shape, em_array *out, em_stream *s,
                       const char *fn);

/* The diagonal layout (as em_array_diagonal) keeping a's WRITEABLE, so
 * eye and diag can write through it; borrowed, like em_manip_part. */
em_status em_manip_diagonal_layout(const em_array *a, int64_t offset, int axis1,
                                   int axis2, em_array *v);

#endif
