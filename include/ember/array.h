/* ember: n-dimensional arrays on a device.
 *
 * An em_array is a small value (a view): a reference to refcounted storage
 * on one device, a data pointer into it, a dtype, a shape and byte strides.
 * Views share storage; em_array_release drops one reference. The struct is
 * public so callers (the Python module) can embed it and the hot path
 * allocates nothing but the storage itself.
 *
 * Operations are stream-ordered on the given stream (NULL: the current
 * stream of the array's device). Every operand of one call must live on
 * one device; mixing devices is EM_ERR_INVALID_VALUE naming both (ember
 * never copies between devices silently). Shape errors name the shapes.
 */
#ifndef EMBER_ARRAY_H
#define EMBER_ARRAY_H

#include <stdint.h>
#include <stddef.h>
#include "ember/status.h"
#include "ember/dtype.h"
#include "ember/shape.h"
#include "ember/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Memory shared by views. Owned memory comes from the device's pool and is
 * returned to it (on the stream it was allocated on) when the last
 * reference goes; foreign memory (a NumPy buffer, a CuPy array) is kept
 * alive by `release(release_ctx)`, called once at the end. */
typedef struct em_storage em_storage;

enum {
    EM_ARRAY_C_CONTIGUOUS = 1u << 0,
    EM_ARRAY_F_CONTIGUOUS = 1u << 1,
    EM_ARRAY_WRITEABLE    = 1u << 2,
    EM_ARRAY_ALIGNED      = 1u << 3
};

typedef struct em_array {
    em_storage *storage;     /* NULL only for a zeroed, never-made array */
    em_device *device;
    char *data;              /* the element at index (0, ..., 0) */
    em_dtype dtype;
    int ndim;
    unsigned flags;          /* EM_ARRAY_*; kept current by every function */
    int64_t size;            /* product of shape */
    int64_t shape[EM_MAX_NDIM];
    int64_t strides[EM_MAX_NDIM];   /* bytes */
} em_array;

/* ---- making and dropping --------------------------------------------- */

/* A new array of uninitialised memory, order 'C' or 'F'. */
em_status em_array_empty(em_device *d, em_dtype dtype, int ndim,
                         const int64_t *shape, char order, em_stream *s,
                         em_array *out);

/* An array over memory ember does not own. `data` must be valid for the
 * layout on device d; release(ctx) is called when the last view goes
 * (release may be NULL). Writeable unless readonly. */
em_status em_array_wrap(em_device *d, void *data, em_dtype dtype, int ndim,
                        const int64_t *shape, const int64_t *strides,
                        int readonly, void (*release)(void *), void *ctx,
                        em_array *out);

/* Another reference to a's storage with the same layout. */
void em_array_retain(const em_array *a, em_array *out);

/* Drop a's reference (a becomes zeroed). NULL storage is a no-op. */
void em_array_release(em_array *a);

/* Recompute size and flags after a caller changed shape/strides/data. */
void em_array_update_flags(em_array *a);

/* ---- views (no copy, no device work) --------------------------------- */

/* Reshape without copying when the layout allows it; EM_ERR_NOT_SUPPORTED
 * when a copy would be needed (the caller then copies). One extent may be
 * -1. order 'C' or 'F' is the index order, as NumPy's. */
em_status em_array_reshape_view(const em_array *a, int ndim,
                                const int64_t *shape, char order,
                                em_array *out);

/* Permute axes (perm NULL: reverse them). */
em_status em_array_transpose(const em_array *a, const int *perm,
                             em_array *out);

/* A basic-index view: for each of a's axes, start, stop, step (NumPy's
 * slice rules after normalisation: the caller resolves negatives and
 * None), or an integer index (step 0: the axis is dropped). */
typedef struct em_slice { int64_t start, stop, step; } em_slice;
em_status em_array_slice(const em_array *a, const em_slice *slices,
                         em_array *out);

/* Broadcast a to a shape (zero strides on new or extent-1 axes). */
em_status em_array_broadcast_to(const em_array *a, int ndim,
                                const int64_t *shape, em_array *out);

/* Reinterpret as another dtype of the same itemsize (NumPy's view(dtype)
 * for equal sizes). */
em_status em_array_view_dtype(const em_array *a, em_dtype dtype,
                              em_array *out);

/* ---- copies and transfers -------------------------------------------- */

/* dst[...] = src with broadcasting and casting (NumPy's 'unsafe' casting,
 * as assignment does). Same device: one generated kernel (or a memcpy when
 * both are contiguous and of one dtype). Different devices: a transfer,
 * staged through pinned memory for pageable host data, ordered on s. */
em_status em_array_copy(em_array *dst, const em_array *src, em_stream *s);

/* Copy bytes of host memory (a NumPy array's buffer, any layout given by
 * strides) into dst, and back. The host side is not ember's: these return
 * when the host memory may be reused or read. */
em_status em_array_from_host(em_array *dst, const void *host,
                             const int64_t *host_strides, em_stream *s);
em_status em_array_to_host(const em_array *src, void *host,
                           const int64_t *host_strides, em_stream *s);

/* Fill with one value given as bytes of `value_dtype` (cast to a's). */
em_status em_array_fill(em_array *a, const void *value, em_dtype value_dtype,
                        em_stream *s);

#ifdef __cplusplus
}
#endif
#endif
