/* ember runtime: copies and fills ordered on a stream. */
#include "runtime.h"
#include "profile.h"

/* Device memory, or page-locked host memory a graph can copy from at
 * every replay. On cpu no host memory is page-locked. */
static int capturable_memory(em_device *d, const void *p)
{
    int ordinal = -1;
    if (em_rt_pool_owns(d, p))
        return 1;
    if (d->type != EM_DEVICE_CUDA)
        return 0;
    if (em_cuda_is_host_alloc(p))
        return 1;
    return em_cuda_pointer_ordinal(p, &ordinal) == EM_OK && ordinal >= 0;
}

/* A captured copy replays later: from pageable host memory the driver
 * stages it at capture time only, and to it the host would read values
 * that no replay updates. */
static em_status capture_copy_check(em_device *d, void *dst, const void *src,
                                    size_t n, em_stream *s)
{
    if (!capturable_memory(d, src))
        return em_rt_capture_refuse(d, "a copy of %zu bytes from pageable host "
                                    "memory %p on stream %p", n, src, s->impl);
    if (!capturable_memory(d, dst))
        return em_rt_capture_refuse(d, "a copy of %zu bytes to pageable host "
                                    "memory %p on stream %p (a host read)", n,
                                    dst, s->impl);
    return EM_OK;
}

em_status em_memcpy_async(em_device *d, void *dst, const void *src, size_t n,
                          em_stream *stream)
{
    em_stream *s;
    em_status fz;
    if (!d)
        return em_error(EM_ERR_INVALID_VALUE, "em_memcpy_async: device is NULL");
    if (!(s = em_rt_stream_for(d, stream, "em_memcpy_async")))
        return EM_ERR_INVALID_VALUE;
    if ((fz = em_fuse_guard()) != EM_OK)
        return fz;
    if (n == 0)
        return EM_OK;
    if (!dst || !src)
        return em_error(EM_ERR_INVALID_VALUE, "em_memcpy_async: %s is NULL (%zu bytes on %s)",
                        dst ? "src" : "dst", n, d->name);
    if (em_rt_capture_of(s)) {
        em_status st = capture_copy_check(d, dst, src, n, s);
        if (st != EM_OK)
            return st;
    }
    if (em_prof_on)
        return em_prof_copy(d, dst, src, n, s);
    return d->ops->memcpy_async(d, dst, src, n, s);
}

em_status em_memset_async(em_device *d, void *dst, int value, size_t n,
                          em_stream *stream)
{
    em_stream *s;
    em_status fz;
    if (!d)
        return em_error(EM_ERR_INVALID_VALUE, "em_memset_async: device is NULL");
    if (!(s = em_rt_stream_for(d, stream, "em_memset_async")))
        return EM_ERR_INVALID_VALUE;
    if ((fz = em_fuse_guard()) != EM_OK)
        return fz;
    if (n == 0)
        return EM_OK;
    if (!dst)
        return em_error(EM_ERR_INVALID_VALUE, "em_memset_async: dst is NULL (%zu bytes on %s)",
                        n, d->name);
    if (em_prof_on)
        return em_prof_fill(d, dst, value, n, s);
    return d->ops->memset_async(d, dst, value, n, s);
}
