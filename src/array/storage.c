/* ember array: refcounted storage shared by views.
 *
 * The count is a C11 atomic so views may be made and dropped on any thread
 * (free-threaded Python drops references from many). Taking a reference
 * needs no ordering, since the taker already holds one; dropping one is a
 * release, and the thread that drops the last acquires before freeing, so
 * every write any holder made through the storage happens before the free
 * (the usual refcount discipline).
 *
 * Owned memory goes back to the pool on the stream it was allocated on:
 * work that used it was queued there (or made to wait for it), so the
 * pool may hand the block to the next allocation on that stream at once,
 * and to other streams only after that work.
 */
#include <stdlib.h>
#include "array/array_internal.h"
#include "ember/util.h"
#include "fuse/fuse.h"

static em_status storage_new(em_device *d, em_storage **out)
{
    /* malloc, not calloc: glibc's calloc skips its per-thread cache, and
     * a fused chain makes and frees one storage per operation. Each field
     * is set by name (GCC turns malloc and a memset of zero into calloc). */
    em_storage *st = malloc(sizeof *st);
    if (!st)
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of host memory for an array's storage on %s",
                        em_device_name(d));
    atomic_init(&st->refs, 1);
    st->device = d;
    st->base = NULL;
    st->nbytes = 0;
    st->stream = NULL;
    st->release = NULL;
    st->release_ctx = NULL;
    st->owned = 0;
    atomic_init(&st->fuse_node, NULL);
    atomic_init(&st->fuse_failed, 0);
    st->deferred = 0;
    *out = st;
    return EM_OK;
}

/* A storage ember owns, of nbytes on stream s, without its memory yet. */
static em_status owned_new(em_device *d, size_t nbytes, em_stream *s,
                           int deferred, em_storage **out)
{
    em_status rc = storage_new(d, out);
    if (rc != EM_OK)
        return rc;
    (*out)->nbytes = nbytes;
    (*out)->stream = s;
    (*out)->owned = 1;
    (*out)->deferred = deferred;
    return EM_OK;
}

em_status em_arr_storage_alloc(em_device *d, size_t nbytes, em_stream *s,
                               em_storage **out)
{
    em_storage *st = NULL;
    em_status rc = owned_new(d, nbytes, s, 0, &st);
    if (rc != EM_OK)
        return rc;
    if ((rc = em_malloc(d, nbytes, s, &st->base)) != EM_OK) {
        free(st);
        return rc;
    }
    *out = st;
    return EM_OK;
}

em_status em_arr_storage_defer(em_device *d, size_t nbytes, em_stream *s,
                               em_storage **out)
{
    return owned_new(d, nbytes, s, 1, out);
}

em_status em_arr_storage_materialize(em_storage *st)
{
    void *p = NULL;
    em_status rc;
    if (st->base)
        return EM_OK;
    if ((rc = em_malloc(st->device, st->nbytes, st->stream, &p)) != EM_OK)
        return rc;
    /* release: a thread that sees the base (em_array_settle) sees the
     * block as the pool handed it out */
    __atomic_store_n(&st->base, p, __ATOMIC_RELEASE);
    return EM_OK;
}

void em_array_settle_slow(em_array *a)
{
    if (a->storage && a->storage->deferred)
        a->data = em_arr_storage_base(a->storage);
}

em_status em_arr_storage_wrap(em_device *d, void *base,
                              void (*release)(void *), void *ctx,
                              em_storage **out)
{
    em_storage *st = NULL;
    em_status rc = storage_new(d, &st);
    if (rc != EM_OK)
        return rc;
    st->base = base;
    st->release = release;
    st->release_ctx = ctx;
    *out = st;
    return EM_OK;
}

void em_arr_storage_retain(em_storage *st)
{
    atomic_fetch_add_explicit(&st->refs, 1, memory_order_relaxed);
}

void em_arr_storage_release(em_storage *st)
{
    if (atomic_fetch_sub_explicit(&st->refs, 1, memory_order_release) != 1)
        return;
    atomic_thread_fence(memory_order_acquire);
    if (atomic_load_explicit(&st->fuse_node, memory_order_relaxed))
        em_fuse_storage_dropped(st);
    if (st->owned && st->base) { /* a deferred one may never have had it */
        /* Nobody can act on a failure here (this runs from destructors),
         * so it is logged; the pool only fails for a pointer it does not
         * know, which would be a bug in this file. */
        if (em_free(st->device, st->base, st->stream) != EM_OK)
            em_log(EM_LOG_WARN, "array", "freeing an array's memory on %s: %s",
                   em_device_name(st->device), em_last_error());
    } else if (st->release) {
        em_device_settle_foreign(st->device);
        st->release(st->release_ctx);
    }
    free(st);
}

long long em_arr_storage_refs(const em_storage *st)
{
    return atomic_load_explicit(&st->refs, memory_order_relaxed);
}
