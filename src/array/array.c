/* ember array: making arrays, references and flags.
 *
 * An em_array is a value the caller owns; only the storage it points at
 * is shared. So making a view is filling a struct and taking a reference,
 * and nothing here allocates except em_array_empty (storage) and
 * em_array_wrap (the storage record).
 */
#include <stdint.h>
#include <string.h>
#include "array/array_internal.h"
#include "fuse/fuse.h"

/* Long enough for EM_MAX_NDIM extents of 20 digits plus ", ". */
#define SHAPE_STR 768

em_stream *em_arr_stream(em_device *d, em_stream *s, const char *what)
{
    em_stream *cur;
    if (s) {
        if (em_stream_device(s) == d)
            return s;
        em_error(EM_ERR_INVALID_VALUE, "%s: the stream belongs to %s, but the "
                 "array is on %s", what, em_device_name(em_stream_device(s)),
                 em_device_name(d));
        return NULL;
    }
    cur = em_current_stream();
    if (cur && em_stream_device(cur) == d)
        return cur;
    return em_stream_default(d);
}

em_stream *em_arr_stream_lenient(em_device *d, em_stream *s)
{
    if (s && em_stream_device(s) != d)
        s = NULL;
    return em_arr_stream(d, s, "");
}

em_status em_arr_axis(int *axis, int ndim)
{
    if (*axis < -ndim || *axis >= ndim)
        return em_error(EM_ERR_AXIS, "axis %d is out of bounds for array of "
                        "dimension %d", *axis, ndim);
    if (*axis < 0)
        *axis += ndim;
    return EM_OK;
}

em_status em_array_check_computed(const em_array *a)
{
    int failed = a && a->storage ? atomic_load_explicit(
                                       &a->storage->fuse_failed,
                                       memory_order_relaxed)
                                 : 0;
    if (failed)
        return em_error((em_status)failed,
                        "this array's value was never computed: the fused "
                        "kernel that computes it failed (%s)",
                        em_fuse_failure_message());
    return EM_OK;
}

em_status em_arr_check(const em_array *a, const char *what)
{
    em_status st;
    if (!a)
        return em_error(EM_ERR_INVALID_VALUE, "%s is NULL", what);
    if ((st = em_array_check_computed(a)) != EM_OK)
        return st;
    if (!a->storage || !a->device)
        return em_error(EM_ERR_INVALID_VALUE, "%s is not a made array "
                        "(no storage)", what);
    if (!em_dtype_get(a->dtype))
        return em_error(EM_ERR_TYPE, "%s has an invalid dtype %d", what,
                        (int)a->dtype);
    if (a->ndim < 0 || a->ndim > EM_MAX_NDIM)
        return em_error(EM_ERR_INVALID_VALUE, "%s has ndim %d, outside 0..%d",
                        what, a->ndim, EM_MAX_NDIM);
    return EM_OK;
}

void em_arr_publish_view(const em_array *a, const em_array *view,
                         em_array *out)
{
    /* Copy first: view may live in *out's memory in a caller's hands. */
    em_array v = *view;
    if (out != a && v.storage)
        em_arr_storage_retain(v.storage);
    *out = v;
}

static em_status check_dtype(em_dtype dtype, const char *fn)
{
    if (!em_dtype_get(dtype))
        return em_error(EM_ERR_TYPE, "%s: invalid dtype %d", fn, (int)dtype);
    return EM_OK;
}

/* The layout of a fresh contiguous array straight into a (zeroed):
 * strides, size and flags, in one pass over the shape instead of
 * em_shape_size + em_strides_contiguous + em_array_update_flags (each
 * checking and walking it again: a tenth of a recorded operation's
 * time). 0 when the shape is not plainly valid (ndim out of range, a
 * negative extent, a byte span past int64 or size_t): the caller then
 * takes the checked path, which reports it. The flags are what
 * em_array_update_flags computes for such strides: contiguous in the
 * order asked, in the other order too when at most one extent exceeds 1
 * or the array is empty; aligned since every stride is a multiple of
 * the itemsize (data is checked once the storage is there). */
static int fast_layout(int ndim, const int64_t *shape, int64_t itemsize,
                       char order, em_array *a)
{
    int64_t step = itemsize, size = 1;
    int big = 0, zero = 0;
    if (ndim < 0 || ndim > EM_MAX_NDIM || itemsize <= 0)
        return 0;
    for (int k = 0; k < ndim; k++) {
        int i = order == 'C' ? ndim - 1 - k : k;
        int64_t e = shape[i];
        if (e < 0)
            return 0;
        a->shape[i] = e; /* here, not a memcpy: GCC made that `rep movsq` */
        a->strides[i] = step;
        zero |= e == 0;
        big += e > 1;
        if (__builtin_mul_overflow(step, e ? e : 1, &step) ||
            __builtin_mul_overflow(size, e ? e : 1, &size))
            return 0;
    }
    if ((uint64_t)step > (uint64_t)SIZE_MAX)
        return 0;
    a->size = zero ? 0 : size;
    a->flags = EM_ARRAY_WRITEABLE |
               (order == 'C' ? EM_ARRAY_C_CONTIGUOUS : EM_ARRAY_F_CONTIGUOUS);
    if (zero || big <= 1)
        a->flags |= EM_ARRAY_C_CONTIGUOUS | EM_ARRAY_F_CONTIGUOUS;
    return 1;
}

/* defer: the storage gets its memory only when a fused group runs
 * (em_arr_storage_defer). */
static em_status empty(em_device *d, em_dtype dtype, int ndim,
                       const int64_t *shape, char order, em_stream *s,
                       em_array *out, int defer)
{
    em_array a;
    em_stream *on = NULL;
    em_status rc;
    int64_t size, itemsize;
    char buf[SHAPE_STR];
    if (!out)
        return em_error(EM_ERR_INVALID_VALUE, "em_array_empty: out is NULL");
    em_array_zero(out);
    if (!d)
        return em_error(EM_ERR_INVALID_VALUE, "em_array_empty: device is NULL");
    if ((rc = check_dtype(dtype, "em_array_empty")) != EM_OK)
        return rc;
    if (order != 'C' && order != 'F')
        return em_error(EM_ERR_INVALID_VALUE, "em_array_empty: order must be "
                        "'C' or 'F', not '%c'", order);
    itemsize = (int64_t)em_dtype_size(dtype);
    if (fast_layout(ndim, shape, itemsize, order, out)) {
        /* filled in place: no second struct to clear and copy */
        size_t nbytes = (size_t)out->size * (size_t)itemsize;
        uintptr_t m = (uintptr_t)itemsize, p;
        if (!(on = em_arr_stream(d, s, "em_array_empty")))
            rc = EM_ERR_INVALID_VALUE;
        else
            rc = defer ? em_arr_storage_defer(d, nbytes, on, &out->storage)
                       : em_arr_storage_alloc(d, nbytes, on, &out->storage);
        if (rc != EM_OK) {
            em_array_zero(out);
            return rc;
        }
        out->device = d;
        out->data = out->storage->base;
        out->dtype = dtype;
        out->ndim = ndim;
        /* itemsizes are powers of two: a mask, not a 64-bit divide */
        p = (uintptr_t)out->data;
        if (!out->size || ((m & (m - 1)) == 0 ? !(p & (m - 1)) : !(p % m)))
            out->flags |= EM_ARRAY_ALIGNED;
        return EM_OK;
    }
    em_array_zero(out); /* fast_layout may have begun on it */
    memset(&a, 0, sizeof a);
    if ((rc = em_shape_size(ndim, shape, &size)) != EM_OK)
        return rc;
    if ((rc = em_strides_contiguous(ndim, shape, itemsize, order, a.strides))
        != EM_OK)
        return rc;
    /* em_strides_contiguous checked the span with empty axes counted as 1,
     * which bounds size * itemsize; a size_t of 32 bits may still not hold
     * it. */
    if ((uint64_t)size * (uint64_t)itemsize > (uint64_t)SIZE_MAX)
        return em_error(EM_ERR_OVERFLOW, "an array of shape %s and dtype %s "
                        "does not fit the address space",
                        em_shape_format(ndim, shape, buf, sizeof buf),
                        em_dtype_get(dtype)->name);
    if (!(on = em_arr_stream(d, s, "em_array_empty")))
        return EM_ERR_INVALID_VALUE;
    rc = defer ? em_arr_storage_defer(d, (size_t)size * (size_t)itemsize, on,
                                      &a.storage)
               : em_arr_storage_alloc(d, (size_t)size * (size_t)itemsize, on,
                                      &a.storage);
    if (rc != EM_OK)
        return rc;
    a.device = d;
    a.data = a.storage->base;
    a.dtype = dtype;
    a.ndim = ndim;
    if (ndim > 0)
        memcpy(a.shape, shape, (size_t)ndim * sizeof *shape);
    a.flags = EM_ARRAY_WRITEABLE;
    em_array_update_flags(&a);
    *out = a;
    return EM_OK;
}

em_status em_array_empty(em_device *d, em_dtype dtype, int ndim,
                         const int64_t *shape, char order, em_stream *s,
                         em_array *out)
{
    return empty(d, dtype, ndim, shape, order, s, out, 0);
}

em_status em_arr_empty_deferred(em_device *d, em_dtype dtype, int ndim,
                                const int64_t *shape, em_stream *s,
                                em_array *out)
{
    return empty(d, dtype, ndim, shape, 'C', s, out, 1);
}

em_status em_array_wrap(em_device *d, void *data, em_dtype dtype, int ndim,
                        const int64_t *shape, const int64_t *strides,
                        int readonly, void (*release)(void *), void *ctx,
                        em_array *out)
{
    em_array a;
    em_status rc;
    int64_t size;
    if (!out)
        return em_error(EM_ERR_INVALID_VALUE, "em_array_wrap: out is NULL");
    memset(out, 0, sizeof *out);
    if (!d)
        return em_error(EM_ERR_INVALID_VALUE, "em_array_wrap: device is NULL");
    if ((rc = check_dtype(dtype, "em_array_wrap")) != EM_OK)
        return rc;
    memset(&a, 0, sizeof a);
    if ((rc = em_shape_size(ndim, shape, &size)) != EM_OK)
        return rc;
    /* Producers may export an empty array with a NULL pointer
     * (__cuda_array_interface__ does); such an array is never read. */
    if (!data && size != 0)
        return em_error(EM_ERR_INVALID_VALUE, "em_array_wrap: NULL data for "
                        "%lld elements", (long long)size);
    if (strides) {
        if (ndim > 0)
            memcpy(a.strides, strides, (size_t)ndim * sizeof *strides);
    } else if ((rc = em_strides_contiguous(ndim, shape,
                                           (int64_t)em_dtype_size(dtype), 'C',
                                           a.strides)) != EM_OK) {
        return rc;
    }
    if ((rc = em_arr_storage_wrap(d, data, release, ctx, &a.storage)) != EM_OK)
        return rc;
    a.device = d;
    a.data = data;
    a.dtype = dtype;
    a.ndim = ndim;
    if (ndim > 0)
        memcpy(a.shape, shape, (size_t)ndim * sizeof *shape);
    a.flags = readonly ? 0u : (unsigned)EM_ARRAY_WRITEABLE;
    em_array_update_flags(&a);
    *out = a;
    return EM_OK;
}

void em_array_retain(const em_array *a, em_array *out)
{
    /* retain(a, a) would need a to hold two references; it is a no-op. */
    if (!a || !out || out == a)
        return;
    *out = *a;
    if (a->storage)
        em_arr_storage_retain(a->storage);
}

void em_array_release(em_array *a)
{
    if (!a)
        return;
    if (a->storage)
        em_arr_storage_release(a->storage);
    em_array_zero(a);
}

void em_array_drop(em_array *a)
{
    if (a && a->storage)
        em_arr_storage_release(a->storage);
}

/* Every element on an itemsize boundary: kernels load whole elements (and
 * complex as two-component vectors), which misaligned data would fault
 * on the GPU. NumPy asks only for the component's alignment; this is the
 * stricter test, so it errs toward the safe, unvectorised path. */
static int is_aligned(const em_array *a, int64_t itemsize)
{
    int i;
    if (a->size == 0)
        return 1;
    if (itemsize <= 0 || (uintptr_t)a->data % (uint64_t)itemsize)
        return 0;
    for (i = 0; i < a->ndim; i++)
        if (a->shape[i] > 1 && a->strides[i] % itemsize)
            return 0;
    return 1;
}

void em_array_update_flags(em_array *a)
{
    int64_t itemsize, size;
    unsigned flags;
    if (!a)
        return;
    flags = a->flags & EM_ARRAY_WRITEABLE;
    itemsize = (int64_t)em_dtype_size(a->dtype);
    /* An invalid shape cannot come from these functions; the flags then
     * promise nothing. */
    if (a->ndim < 0 || a->ndim > EM_MAX_NDIM
        || em_shape_size(a->ndim, a->shape, &size) != EM_OK || itemsize == 0) {
        a->size = 0;
        a->flags = flags;
        return;
    }
    a->size = size;
    if (em_is_c_contiguous(a->ndim, a->shape, a->strides, itemsize))
        flags |= EM_ARRAY_C_CONTIGUOUS;
    if (em_is_f_contiguous(a->ndim, a->shape, a->strides, itemsize))
        flags |= EM_ARRAY_F_CONTIGUOUS;
    if (is_aligned(a, itemsize))
        flags |= EM_ARRAY_ALIGNED;
    a->flags = flags;
}
