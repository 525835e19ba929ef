/* ember runtime: copies and fills ordered on a stream. */
#include "runtime.h"

em_status em_memcpy_async(em_device *d, void *dst, const void *src, size_t n,
                          em_stream *stream)
{
    em_stream *s;
    if (!d)
        return em_error(EM_ERR_INVALID_VALUE, "em_memcpy_async: device is NULL");
    if (!(s = em_rt_stream_for(d, stream, "em_memcpy_async")))
        return EM_ERR_INVALID_VALUE;
    if (n == 0)
        return EM_OK;
    if (!dst || !src)
        return em_error(EM_ERR_INVALID_VALUE, "em_memcpy_async: %s is NULL (%zu bytes on %s)",
                        dst ? "src" : "dst", n, d->name);
    return d->ops->memcpy_async(d, dst, src, n, s);
}

em_status em_memset_async(em_device *d, void *dst, int value, size_t n,
                          em_stream *stream)
{
    em_stream *s;
    if (!d)
        return em_error(EM_ERR_INVALID_VALUE, "em_memset_async: device is NULL");
    if (!(s = em_rt_stream_for(d, stream, "em_memset_async")))
        return EM_ERR_INVALID_VALUE;
    if (n == 0)
        return EM_OK;
    if (!dst)
        return em_error(EM_ERR_INVALID_VALUE, "em_memset_async: dst is NULL (%zu bytes on %s)",
                        n, d->name);
    return d->ops->memset_async(d, dst, value, n, s);
}
