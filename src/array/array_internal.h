/* ember internal: what the array core's files share (storage.c, array.c,
 * view.c, copy.c, transfer.c).
 *
 * For the other array engineers (ufunc, Python):
 *  - include/ember/array.h is unchanged in its declarations; its comments
 *    now spell out the slice normalisation, the aliasing of `out` in the
 *    view functions (out may be the input: its reference moves), failure
 *    leaving *out unwritten, and stream lifetimes: owned storage remembers
 *    the stream it was allocated on and frees on it, so that stream must
 *    outlive the storage (Python: an ndarray keeps its stream object alive
 *    while it owns the allocation).
 *  - em_array_copy calls em_ufunc_apply(EM_OP_COPY, {src}, 1, dst, NULL, s)
 *    with src already broadcast to dst's shape and never overlapping dst in
 *    memory; it needs 'unsafe' casting there (assignment casts), not the
 *    'same_kind' rule of ufunc out=.
 *  - em_array_fill calls it with one strong scalar operand.
 */
#ifndef EMBER_ARRAY_INTERNAL_H
#define EMBER_ARRAY_INTERNAL_H

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include "core/layout.h"
#include "ember/ember.h"

/* ---- storage.c -------------------------------------------------------- */

/* storage.c's storage_new sets each field by name (it mallocs): a new
 * field is set there too. */
struct em_storage {
    atomic_llong refs;
    em_device *device;
    void *base;                 /* owned: the pool block; foreign: the caller's */
    size_t nbytes;              /* owned: bytes asked of the pool; foreign: 0 */
    em_stream *stream;          /* owned: where it was allocated and is freed */
    void (*release)(void *);    /* foreign: called once at the end (may be NULL) */
    void *release_ctx;
    int owned;
    /* The pending fused node that will write this storage (src/fuse), or
     * NULL; set and cleared under the fuse mutex. */
    void *_Atomic fuse_node;
    /* The status of the fused kernel that failed to write this storage
     * (0: none failed): its value is refused, never read (src/fuse). */
    atomic_int fuse_failed;
    /* Memory taken only when the fused group that writes it runs, and
     * only if the storage is still referenced then (em_arr_storage_defer):
     * until then base is NULL, and so is the data of every array of it. */
    int deferred;
};

/* nbytes of device memory from d's pool on stream s (already resolved,
 * not NULL), with one reference. */
em_status em_arr_storage_alloc(em_device *d, size_t nbytes, em_stream *s,
                               em_storage **out);

/* Foreign memory with one reference; on failure release is not called
 * (the caller still owns the memory). */
em_status em_arr_storage_wrap(em_device *d, void *base,
                              void (*release)(void *), void *ctx,
                              em_storage **out);

/* As em_arr_storage_alloc, without the memory yet: a fused result
 * (src/fuse) gets it from em_arr_storage_materialize when its group runs;
 * a result that dies first never touches the pool. */
em_status em_arr_storage_defer(em_device *d, size_t nbytes, em_stream *s,
                               em_storage **out);
/* Takes a deferred storage's memory now (a no-op once it has it). */
em_status em_arr_storage_materialize(em_storage *st);
/* The base of st as other threads may see it: NULL while deferred. */
static inline void *em_arr_storage_base(const em_storage *st)
{
    return __atomic_load_n(&((em_storage *)st)->base, __ATOMIC_ACQUIRE);
}

/* An uninitialised C-ordered array whose storage is deferred (above): its
 * data is NULL until its group runs; em_array_settle fills it in. */
em_status em_arr_empty_deferred(em_device *d, em_dtype dtype, int ndim,
                                const int64_t *shape, em_stream *s,
                                em_array *out);

void em_arr_storage_retain(em_storage *st);
void em_arr_storage_release(em_storage *st);

/* The current count (tests only: racy by nature). */
long long em_arr_storage_refs(const em_storage *st);

/* ---- array.c ---------------------------------------------------------- */

/* The stream work on d goes on: s when it is d's; with s NULL the calling
 * thread's current stream when it is d's, else d's default stream. A
 * stream of another device gives NULL with EM_ERR_INVALID_VALUE naming
 * both and `what`. */
em_stream *em_arr_stream(em_device *d, em_stream *s, const char *what);

/* As em_arr_stream, but a stream of another device is not an error: it
 * means "the current stream" for d (cross-device copies take one stream
 * argument for two devices). */
em_stream *em_arr_stream_lenient(em_device *d, em_stream *s);

/* Give out a view: `view` is a filled layout over a's storage; *out gets
 * it with a new reference, or with a's reference moved when out == a. */
void em_arr_publish_view(const em_array *a, const em_array *view,
                         em_array *out);

/* EM_ERR_INVALID_VALUE unless a is a made array (storage, valid dtype
 * and ndim); `what` names the caller and the argument. */
em_status em_arr_check(const em_array *a, const char *what);

/* Normalise a possibly negative axis of an ndim-dimensional array, or
 * EM_ERR_AXIS with NumPy's text. */
em_status em_arr_axis(int *axis, int ndim);

/* ---- view.c ----------------------------------------------------------- */

/* The layout of src broadcast to (ndim, shape) for assignment: leading
 * extent-1 axes of src beyond ndim are dropped first, as NumPy's
 * assignment does. Fills *out (no new reference) or fails naming both
 * shapes. */
em_status em_arr_broadcast_layout(const em_array *src, int ndim,
                                  const int64_t *shape, em_array *out);

/* ---- transfer.c ------------------------------------------------------- */

/* A new C-contiguous array of dtype t on a's device holding a's values
 * (converted as a cast), written on stream s; nothing is left made on
 * failure. */
em_status em_arr_copy_new(const em_array *a, em_dtype t, em_stream *s,
                          em_array *out);

/* Copy elements between two strided layouts of one shape, both in host
 * memory, on the calling thread (and the host thread pool when large). */
void em_arr_host_copy(int ndim, const int64_t *shape, size_t itemsize,
                      char *dst, const int64_t *dst_strides,
                      const char *src, const int64_t *src_strides);

/* nbytes from src on device sd (ordered on ss) to dst on device dd
 * (ordered on dd's stream ds), both contiguous, through pinned host
 * staging. Returns when src has been read. */
em_status em_arr_transfer_d2d(em_device *dd, void *dst, em_stream *ds,
                              em_device *sd, const void *src, em_stream *ss,
                              size_t nbytes);

/* Give every cached pinned staging buffer back (after their copies
 * finish). Tests call it before exit so leak checkers see a clean heap. */
void em_arr_transfer_trim(void);

/* ---- overlap ---------------------------------------------------------- */

/* Whether the bytes x and y touch intersect (never for an empty one). */
static inline int em_arr_overlap(const em_array *x, const em_array *y)
{
    em_layout_mem a = {x->data, x->ndim, x->shape, x->strides,
                       (int64_t)em_dtype_size(x->dtype)};
    em_layout_mem b = {y->data, y->ndim, y->shape, y->strides,
                       (int64_t)em_dtype_size(y->dtype)};
    return em_layout_overlap(&a, &b);
}

#endif
