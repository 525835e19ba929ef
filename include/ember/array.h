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
#include <string.h>
#include "ember/status.h"
#include "ember/dtype.h"
#include "ember/shape.h"
#include "ember/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Memory shared by views. Owned memory comes from the device's pool and is
 * returned to it (on the stream it was allocated on) when the last
 * reference goes, so that stream must outlive the storage; work on other
 * streams that still uses the memory must be ordered before that stream
 * first. Foreign memory (a NumPy buffer, a CuPy array) is kept alive by
 * `release(release_ctx)`, called once at the end. References may be taken
 * and dropped on any thread. */
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

/* A new array of uninitialised memory, order 'C' or 'F', allocated on s
 * (NULL: the current stream when it is d's, else d's default stream).
 * Sizes are overflow-checked (EM_ERR_OVERFLOW); an empty array still gets
 * its own valid storage. On failure *out is zeroed. */
em_status em_array_empty(em_device *d, em_dtype dtype, int ndim,
                         const int64_t *shape, char order, em_stream *s,
                         em_array *out);

/* An array over memory ember does not own. `data` must be valid for the
 * layout on device d (NULL only for an empty array); strides NULL means
 * C-contiguous; release(ctx) is called when the last view goes (release
 * may be NULL). Writeable unless readonly. On failure *out is zeroed and
 * release is not called: the caller still owns the memory. */
em_status em_array_wrap(em_device *d, void *data, em_dtype dtype, int ndim,
                        const int64_t *shape, const int64_t *strides,
                        int readonly, void (*release)(void *), void *ctx,
                        em_array *out);

/* Another reference to a's storage with the same layout (out == a: no-op). */
void em_array_retain(const em_array *a, em_array *out);

/* Drop a's reference (a becomes zeroed). NULL storage is a no-op. */
void em_array_release(em_array *a);

/* Drop a's reference and leave a's bytes as they are: for an em_array
 * about to be freed with its owner (an object's destructor), where
 * clearing it (em_array_release) was a tenth of a recorded fused
 * operation's host time. a must not be used again. */
void em_array_drop(em_array *a);

/* Clears an em_array (560 bytes) through libc's memset: GCC expands a
 * memset of a constant size this large into `rep stosq`, whose start-up
 * was a third of em_array_empty's time on the recording path; libc's
 * vector stores clear it several times faster. The empty asm hides the
 * constant so the call stays a call. */
static inline void em_array_zero(em_array *a)
{
    size_t n = sizeof *a;
    __asm__("" : "+r"(n));
    memset(a, 0, n);
}

/* EM_OK, or the error of the fused kernel that should have written a's
 * memory and failed: a's value was never computed (every array entry
 * point checks this; the extension checks it before exporting memory). */
em_status em_array_check_computed(const em_array *a);

/* Recompute size and flags after a caller changed shape/strides/data.
 * WRITEABLE is kept; ALIGNED means the data pointer and every stride of an
 * axis longer than 1 are multiples of the itemsize. */
void em_array_update_flags(em_array *a);

/* ---- views (no copy, no device work) --------------------------------- */

/* Each view function gives *out a new reference to a's storage. out may
 * be a itself: a then becomes the view and its reference moves (the count
 * does not change). On failure *out is left as it was. */

/* Reshape without copying when the layout allows it (NumPy's rules, the
 * same strides as NumPy gives); EM_ERR_NOT_SUPPORTED when a copy would be
 * needed (the caller then copies). One extent may be -1; a size mismatch
 * is EM_ERR_INVALID_VALUE ("cannot reshape array of size 6 into shape
 * (4,)"). order 'C' or 'F' is the index order, as NumPy's. */
em_status em_array_reshape_view(const em_array *a, int ndim,
                                const int64_t *shape, char order,
                                em_array *out);

/* Permute axes (perm NULL: reverse them). perm holds a->ndim axes, each
 * once; negative axes count from the end. Anything else is
 * EM_ERR_INVALID_VALUE. */
em_status em_array_transpose(const em_array *a, const int *perm,
                             em_array *out);

/* A basic-index view: one em_slice for each of a's axes.
 *  - step != 0: a slice, normalised as Python's slice.indices(len) does
 *    it: for step > 0, 0 <= start, stop <= len; for step < 0,
 *    -1 <= start, stop <= len - 1, where -1 means "before element 0"
 *    (so a[::-1] is {len - 1, -1, -1}). The axis gets
 *    len(range(start, stop, step)) elements. Values outside these bounds
 *    are EM_ERR_INVALID_VALUE (a caller's bug, not the user's).
 *  - step == 0: an integer index `start`, already made non-negative; the
 *    axis is dropped. Out of range is EM_ERR_INDEX ("index 5 is out of
 *    bounds for axis 0 with size 3").
 * None and ... are the caller's (they are reshapes); an empty slice
 * points at the axis's first element, as NumPy's do. */
typedef struct em_slice { int64_t start, stop, step; } em_slice;
em_status em_array_slice(const em_array *a, const em_slice *slices,
                         em_array *out);

/* Broadcast a to a shape (zero strides on new or extent-1 axes). The view
 * is read-only, as NumPy's broadcast_to is. */
em_status em_array_broadcast_to(const em_array *a, int ndim,
                                const int64_t *shape, em_array *out);

/* Reinterpret as another dtype (NumPy's view(dtype)). Another itemsize
 * rescales the last axis, which must then be contiguous (or of extent 1,
 * or the array empty) and hold a whole number of the new items; a 0-d
 * array keeps its itemsize. Otherwise EM_ERR_INVALID_VALUE, worded as
 * NumPy's ValueError. */
em_status em_array_view_dtype(const em_array *a, em_dtype dtype,
                              em_array *out);

/* ---- copies and transfers -------------------------------------------- */

/* dst[...] = src with broadcasting and casting (NumPy's 'unsafe' casting,
 * as assignment does). Same device: one generated kernel (or a memcpy when
 * both are contiguous and of one dtype); overlapping src and dst go
 * through a temporary. Different devices: a transfer, staged through
 * pinned memory, and any cast or broadcast done on the destination. There
 * s orders the side whose device it belongs to (NULL: both sides use
 * their device's current stream), the other side uses its device's
 * current stream; the call returns once src has been read. cuda:N to
 * cuda:M goes through host memory (no peer copies yet). */
em_status em_array_copy(em_array *dst, const em_array *src, em_stream *s);

/* Copy bytes of host memory (a NumPy array's buffer, any layout given by
 * byte strides in the array's shape; NULL: C-contiguous) into dst, and
 * back, with no cast. The host side is not ember's: these return when the
 * host memory may be reused or read. The device side is ordered on s; for
 * a cpu array the copy runs on the calling thread after s drains. */
em_status em_array_from_host(em_array *dst, const void *host,
                             const int64_t *host_strides, em_stream *s);
em_status em_array_to_host(const em_array *src, void *host,
                           const int64_t *host_strides, em_stream *s);

/* Host buffers ptrs[0..n), of nbytes[i] bytes each, one after another into
 * the C-contiguous dst (their sizes summing to dst's bytes): one staged
 * pipeline for all, where a copy a buffer would start and drain it n
 * times (an Arrow column's many chunks). Returns as em_array_from_host. */
em_status em_array_from_host_pieces(em_array *dst, int n,
                                    const void *const *ptrs,
                                    const int64_t *nbytes, em_stream *s);

/* Fill with one value given as bytes of `value_dtype` (cast to a's, as
 * assignment casts). */
em_status em_array_fill(em_array *a, const void *value, em_dtype value_dtype,
                        em_stream *s);

#ifdef __cplusplus
}
#endif
#endif
