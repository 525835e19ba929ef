/* ember array: assignment between arrays (dst[...] = src) and fill.
 *
 * On one device the work is a memcpy when both sides are contiguous in one
 * order with one dtype, else the generated elementwise copy/cast kernel
 * (em_ufunc_apply with EM_OP_COPY), which also broadcasts. When the two
 * sides overlap in memory (a[1:] = a[:-1]) the source goes through a
 * temporary first, as NumPy does, since neither a memcpy nor a kernel
 * gives a defined result for overlapping elements.
 *
 * Between devices the data crosses as bytes of the source dtype: directly
 * when the source is not broadcast and no cast is needed (the transfer
 * functions handle any layout on either side), else through a temporary
 * of the source's shape on the destination device, which the destination
 * then broadcasts and casts. Transferring the unbroadcast source moves the
 * fewest bytes over the slowest link. cuda:N to cuda:M goes through pinned
 * host staging (transfer.c); peer-to-peer copies can come later.
 *
 * Streams: on one device the copy is ordered on s (NULL: the current
 * stream). Across devices s orders the side whose device it belongs to;
 * the other side uses its device's current stream. A cpu side is drained
 * before the host touches it, and the call returns once the source's
 * bytes have been read, as em_array_from_host/to_host do.
 */
#include <string.h>
#include "array/array_internal.h"
#include "ember/ufunc.h"

static int same_layout(const em_array *a, const em_array *b)
{
    return a->data == b->data && a->dtype == b->dtype && a->ndim == b->ndim
        && !memcmp(a->shape, b->shape, (size_t)a->ndim * sizeof a->shape[0])
        && !memcmp(a->strides, b->strides, (size_t)a->ndim * sizeof a->strides[0]);
}

static em_status apply_copy(em_array *dst, const em_array *src, em_stream *on)
{
    em_operand op;
    memset(&op, 0, sizeof op);
    op.array = src;
    op.dtype = src->dtype;
    return em_ufunc_apply(EM_OP_COPY, &op, 1, dst, NULL, on);
}

em_status em_arr_copy_new(const em_array *a, em_dtype t, em_stream *s,
                          em_array *out)
{
    em_status st = em_array_empty(a->device, t, a->ndim, a->shape, 'C', s, out);
    if (st != EM_OK)
        return st;
    if ((st = apply_copy(out, a, s)) != EM_OK)
        em_array_release(out);
    return st;
}

/* dst = b on one device; b is already in dst's shape. src is b before
 * broadcasting, used for the temporary when they overlap. */
static em_status copy_local(em_array *dst, const em_array *b,
                            const em_array *src, em_stream *on)
{
    em_device *d = dst->device;
    unsigned both = dst->flags & b->flags;
    em_array tmp, tb;
    em_status rc;
    if (same_layout(dst, b))
        return EM_OK;
    if (em_arr_overlap(dst, b)) {
        rc = em_array_empty(d, src->dtype, src->ndim, src->shape, 'C', on, &tmp);
        if (rc != EM_OK)
            return rc;
        rc = copy_local(&tmp, src, src, on);
        if (rc == EM_OK
            && (rc = em_arr_broadcast_layout(&tmp, dst->ndim, dst->shape, &tb))
               == EM_OK)
            rc = copy_local(dst, &tb, &tmp, on);
        /* Freed on `on`, after the copies queued there. */
        em_array_release(&tmp);
        return rc;
    }
    if (dst->dtype == b->dtype
        && (both & (EM_ARRAY_C_CONTIGUOUS | EM_ARRAY_F_CONTIGUOUS)))
        return em_memcpy_async(d, dst->data, b->data,
                               (size_t)dst->size * em_dtype_size(dst->dtype), on);
    return apply_copy(dst, b, on);
}

static em_status cpu_to_cuda(em_array *dst, const em_array *b,
                             const em_array *src, em_stream *ds, em_stream *ss)
{
    em_array tmp, tb;
    em_status rc = em_stream_synchronize(ss);
    if (rc != EM_OK)
        return rc;
    if (src->dtype == dst->dtype && src->size == dst->size)
        return em_array_from_host(dst, b->data, b->strides, ds);
    rc = em_array_empty(dst->device, src->dtype, src->ndim, src->shape, 'C',
                        ds, &tmp);
    if (rc != EM_OK)
        return rc;
    rc = em_array_from_host(&tmp, src->data, src->strides, ds);
    if (rc == EM_OK
        && (rc = em_arr_broadcast_layout(&tmp, dst->ndim, dst->shape, &tb)) == EM_OK)
        rc = copy_local(dst, &tb, &tmp, ds);
    em_array_release(&tmp);
    return rc;
}

static em_status cuda_to_cpu(em_array *dst, const em_array *b,
                             const em_array *src, em_stream *ds, em_stream *ss)
{
    em_array tmp, tb;
    em_status rc = em_stream_synchronize(ds);  /* cpu work on dst is done */
    if (rc != EM_OK)
        return rc;
    if (src->dtype == dst->dtype && src->size == dst->size)
        return em_array_to_host(b, dst->data, dst->strides, ss);
    rc = em_array_empty(dst->device, src->dtype, src->ndim, src->shape, 'C',
                        ds, &tmp);
    if (rc != EM_OK)
        return rc;
    rc = em_array_to_host(src, tmp.data, NULL, ss);
    if (rc == EM_OK
        && (rc = em_arr_broadcast_layout(&tmp, dst->ndim, dst->shape, &tb)) == EM_OK)
        rc = copy_local(dst, &tb, &tmp, ds);
    em_array_release(&tmp);
    return rc;
}

static em_status cuda_to_cuda(em_array *dst, const em_array *b,
                              const em_array *src, em_stream *ds, em_stream *ss)
{
    int direct = src->dtype == dst->dtype && src->size == dst->size;
    unsigned both = dst->flags & b->flags;
    size_t nbytes = (size_t)src->size * em_dtype_size(src->dtype);
    em_array ts, td, tb;
    const em_array *from = src;
    em_array *to = dst;
    em_status rc = EM_OK;
    memset(&ts, 0, sizeof ts);
    memset(&td, 0, sizeof td);
    if (direct && (both & (EM_ARRAY_C_CONTIGUOUS | EM_ARRAY_F_CONTIGUOUS)))
        return em_arr_transfer_d2d(dst->device, dst->data, ds, src->device,
                                   b->data, ss, nbytes);
    /* Bytes cross in src's C order: a contiguous copy of src on its own
     * device, landing in dst itself when dst is C-ordered and nothing is
     * cast or broadcast, else in a temporary there. */
    if (!(src->flags & EM_ARRAY_C_CONTIGUOUS)) {
        rc = em_array_empty(src->device, src->dtype, src->ndim, src->shape,
                            'C', ss, &ts);
        if (rc == EM_OK)
            rc = copy_local(&ts, src, src, ss);
        from = &ts;
    }
    if (rc == EM_OK && !(direct && (dst->flags & EM_ARRAY_C_CONTIGUOUS))) {
        rc = em_array_empty(dst->device, src->dtype, src->ndim, src->shape,
                            'C', ds, &td);
        to = &td;
    }
    if (rc == EM_OK)
        rc = em_arr_transfer_d2d(dst->device, to->data, ds, src->device,
                                 from->data, ss, nbytes);
    if (rc == EM_OK && to == &td
        && (rc = em_arr_broadcast_layout(&td, dst->ndim, dst->shape, &tb)) == EM_OK)
        rc = copy_local(dst, &tb, &td, ds);
    em_array_release(&ts);
    em_array_release(&td);
    return rc;
}

em_status em_array_copy(em_array *dst, const em_array *src, em_stream *s)
{
    em_device *dd, *sd;
    em_stream *ds, *ss;
    em_array b;
    em_status rc;
    if ((rc = em_arr_check(dst, "em_array_copy: dst")) != EM_OK
        || (rc = em_arr_check(src, "em_array_copy: src")) != EM_OK)
        return rc;
    if (!(dst->flags & EM_ARRAY_WRITEABLE))
        return em_error(EM_ERR_INVALID_VALUE, "assignment destination is read-only");
    if ((rc = em_arr_broadcast_layout(src, dst->ndim, dst->shape, &b)) != EM_OK)
        return rc;
    dd = dst->device;
    sd = src->device;
    if (dd == sd) {
        if (!(ds = em_arr_stream(dd, s, "em_array_copy")))
            return EM_ERR_INVALID_VALUE;
        return dst->size ? copy_local(dst, &b, src, ds) : EM_OK;
    }
    if (s && em_stream_device(s) != dd && em_stream_device(s) != sd)
        return em_error(EM_ERR_INVALID_VALUE, "em_array_copy from %s to %s: the "
                        "stream belongs to %s", em_device_name(sd),
                        em_device_name(dd), em_device_name(em_stream_device(s)));
    ds = em_arr_stream_lenient(dd, s);
    ss = em_arr_stream_lenient(sd, s);
    if (dst->size == 0)
        return EM_OK;
    if (em_device_get_type(sd) == EM_DEVICE_CPU)
        return cpu_to_cuda(dst, &b, src, ds, ss);
    if (em_device_get_type(dd) == EM_DEVICE_CPU)
        return cuda_to_cpu(dst, &b, src, ds, ss);
    return cuda_to_cuda(dst, &b, src, ds, ss);
}

/* ---- fill ------------------------------------------------------------- */

/* The byte every byte of the value's cast to a's dtype equals, or -1 when
 * it takes a kernel. All-zero bytes are zero (or false) in every dtype, so
 * they cast to all-zero bytes; any other value needs a cast unless the
 * dtypes match. */
static int fill_byte(const unsigned char *v, size_t n, int same_dtype)
{
    size_t i;
    for (i = 1; i < n; i++)
        if (v[i] != v[0])
            return -1;
    return v[0] == 0 || same_dtype ? v[0] : -1;
}

em_status em_array_fill(em_array *a, const void *value, em_dtype value_dtype,
                        em_stream *s)
{
    const em_dtype_info *vi;
    em_operand op;
    em_stream *on = NULL;
    em_status rc;
    int byte;
    if ((rc = em_arr_check(a, "em_array_fill: the array")) != EM_OK)
        return rc;
    if (!value)
        return em_error(EM_ERR_INVALID_VALUE, "em_array_fill: value is NULL");
    if (!(vi = em_dtype_get(value_dtype)))
        return em_error(EM_ERR_TYPE, "em_array_fill: invalid value dtype %d",
                        (int)value_dtype);
    if (!(a->flags & EM_ARRAY_WRITEABLE))
        return em_error(EM_ERR_INVALID_VALUE, "assignment destination is read-only");
    if (!(on = em_arr_stream(a->device, s, "em_array_fill")))
        return EM_ERR_INVALID_VALUE;
    if (a->size == 0)
        return EM_OK;
    byte = fill_byte(value, vi->size, value_dtype == a->dtype);
    if (byte >= 0 && (a->flags & (EM_ARRAY_C_CONTIGUOUS | EM_ARRAY_F_CONTIGUOUS)))
        return em_memset_async(a->device, a->data, byte,
                               (size_t)a->size * em_dtype_size(a->dtype), on);
    memset(&op, 0, sizeof op);
    op.dtype = value_dtype;
    memcpy(op.value.bytes, value, vi->size);
    return em_ufunc_apply(EM_OP_COPY, &op, 1, a, NULL, on);
}
