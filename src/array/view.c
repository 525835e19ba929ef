/* ember array: views — reshape, transpose, slice, broadcast, dtype.
 *
 * Each builds the new layout in a local array and hands it out through
 * em_arr_publish_view, so a failure leaves *out alone and out may be the
 * input itself. No function here touches device memory.
 */
#include <stdio.h>
#include <string.h>
#include "array/array_internal.h"

#define SHAPE_STR 768

static em_status check_out(const em_array *a, em_array *out, const char *fn)
{
    char what[64];
    em_status rc;
    snprintf(what, sizeof what, "%s: the array", fn);
    if ((rc = em_arr_check(a, what)) != EM_OK)
        return rc;
    if (!out)
        return em_error(EM_ERR_INVALID_VALUE, "%s: out is NULL", fn);
    return EM_OK;
}

/* ---- reshape ---------------------------------------------------------- */

/* Strides that make `nshape` index a's elements in `fortran` (or C) index
 * order without moving them, or 0 if no such strides exist. a has at least
 * one element (an empty array is contiguous and never comes here).
 *
 * Extent-1 axes of a are dropped: their strides never matter. The old and
 * new extents are then split into the shortest runs with equal products
 * (6,4 against 2,3,4 pairs [6]~[2,3] and [4]~[4]); inside one run the old
 * axes must follow each other in memory in index order, and the new axes
 * of the run then step through that one block. New extent-1 axes left at
 * the end get the stride of the axis before them, as NumPy gives them. */
static int reshape_strides(const em_array *a, int nd, const int64_t *nshape,
                           int fortran, int64_t *nstr)
{
    int64_t odim[EM_MAX_NDIM], ostr[EM_MAX_NDIM], last;
    int ond = 0, oi = 0, ni = 0, i, k;
    for (i = 0; i < a->ndim; i++) {
        if (a->shape[i] != 1) {
            odim[ond] = a->shape[i];
            ostr[ond] = a->strides[i];
            ond++;
        }
    }
    while (oi < ond && ni < nd) {
        int oj = oi + 1, nj = ni + 1;
        int64_t op = odim[oi], np = nshape[ni];
        while (op != np) {
            if (np < op) {
                if (nj >= nd || __builtin_mul_overflow(np, nshape[nj], &np))
                    return 0;
                nj++;
            } else {
                if (oj >= ond || __builtin_mul_overflow(op, odim[oj], &op))
                    return 0;
                oj++;
            }
        }
        for (k = oi; k + 1 < oj; k++) {
            int64_t want;
            int bad = fortran
                ? __builtin_mul_overflow(odim[k], ostr[k], &want) || ostr[k + 1] != want
                : __builtin_mul_overflow(odim[k + 1], ostr[k + 1], &want) || ostr[k] != want;
            if (bad)
                return 0;
        }
        if (fortran) {
            nstr[ni] = ostr[oi];
            for (k = ni + 1; k < nj; k++)
                if (__builtin_mul_overflow(nstr[k - 1], nshape[k - 1], &nstr[k]))
                    return 0;
        } else {
            nstr[nj - 1] = ostr[oj - 1];
            for (k = nj - 1; k > ni; k--)
                if (__builtin_mul_overflow(nstr[k], nshape[k], &nstr[k - 1]))
                    return 0;
        }
        oi = oj;
        ni = nj;
    }
    if (ni == 0)
        last = (int64_t)em_dtype_size(a->dtype);
    else if (!fortran)
        last = nstr[ni - 1];
    else if (__builtin_mul_overflow(nstr[ni - 1], nshape[ni - 1], &last))
        return 0;
    for (k = ni; k < nd; k++)
        nstr[k] = last;
    return 1;
}

em_status em_array_reshape_view(const em_array *a, int ndim,
                                const int64_t *shape, char order,
                                em_array *out)
{
    static const char fn[] = "em_array_reshape_view";
    char sbuf[SHAPE_STR], nbuf[SHAPE_STR], tbuf[SHAPE_STR];
    int64_t nshape[EM_MAX_NDIM], known = 1, itemsize;
    int unknown = -1, i, overflow = 0;
    em_array v;
    em_status rc;
    if ((rc = check_out(a, out, fn)) != EM_OK
        || (rc = em_shape_check_ndim(fn, ndim, shape)) != EM_OK)
        return rc;
    if (order != 'C' && order != 'F')
        return em_error(EM_ERR_INVALID_VALUE, "%s: order must be 'C' or 'F', "
                        "not '%c'", fn, order);
    for (i = 0; i < ndim; i++) {
        nshape[i] = shape[i];
        if (shape[i] == -1) {
            if (unknown >= 0)
                return em_error(EM_ERR_INVALID_VALUE,
                                "can only specify one unknown dimension");
            unknown = i;
        } else if (shape[i] < 0) {
            return em_error(EM_ERR_INVALID_VALUE, "negative dimensions are "
                            "not allowed: shape %s",
                            em_shape_format(ndim, shape, sbuf, sizeof sbuf));
        } else if (__builtin_mul_overflow(known, shape[i], &known)) {
            overflow = 1;
        }
    }
    if (unknown >= 0 && !overflow && known != 0 && a->size % known == 0)
        nshape[unknown] = a->size / known;
    else if (unknown >= 0 || overflow || known != a->size)
        return em_error(EM_ERR_INVALID_VALUE,
                        "cannot reshape array of size %lld into shape %s",
                        (long long)a->size,
                        em_shape_format(ndim, shape, sbuf, sizeof sbuf));
    v = *a;
    v.ndim = ndim;
    if (ndim > 0)
        memcpy(v.shape, nshape, (size_t)ndim * sizeof *nshape);
    itemsize = (int64_t)em_dtype_size(a->dtype);
    if (order == 'C' ? em_is_c_contiguous(a->ndim, a->shape, a->strides, itemsize)
                     : em_is_f_contiguous(a->ndim, a->shape, a->strides, itemsize)) {
        if ((rc = em_strides_contiguous(ndim, nshape, itemsize, order,
                                        v.strides)) != EM_OK)
            return rc;
    } else if (!reshape_strides(a, ndim, nshape, order == 'F', v.strides)) {
        return em_error(EM_ERR_NOT_SUPPORTED,
                        "reshaping an array of shape %s and strides %s into "
                        "shape %s (order '%c') needs a copy",
                        em_shape_format(a->ndim, a->shape, sbuf, sizeof sbuf),
                        em_shape_format(a->ndim, a->strides, tbuf, sizeof tbuf),
                        em_shape_format(ndim, nshape, nbuf, sizeof nbuf), order);
    }
    em_array_update_flags(&v);
    em_arr_publish_view(a, &v, out);
    return EM_OK;
}

/* ---- transpose -------------------------------------------------------- */

em_status em_array_transpose(const em_array *a, const int *perm,
                             em_array *out)
{
    static const char fn[] = "em_array_transpose";
    unsigned char seen[EM_MAX_NDIM];
    em_array v;
    em_status rc;
    int i;
    if ((rc = check_out(a, out, fn)) != EM_OK)
        return rc;
    memset(seen, 0, sizeof seen);
    v = *a;
    for (i = 0; i < a->ndim; i++) {
        int ax = perm ? perm[i] : a->ndim - 1 - i;
        if (ax < -a->ndim || ax >= a->ndim)
            return em_error(EM_ERR_INVALID_VALUE, "axis %d is out of bounds "
                            "for array of dimension %d", ax, a->ndim);
        if (ax < 0)
            ax += a->ndim;
        if (seen[ax]++)
            return em_error(EM_ERR_INVALID_VALUE, "repeated axis in "
                            "transpose: axis %d appears twice", ax);
        v.shape[i] = a->shape[ax];
        v.strides[i] = a->strides[ax];
    }
    em_array_update_flags(&v);
    em_arr_publish_view(a, &v, out);
    return EM_OK;
}

/* ---- basic indexing --------------------------------------------------- */

/* Elements of range(start, stop, step), as len() counts them. */
static int64_t slice_length(int64_t start, int64_t stop, int64_t step)
{
    if (step > 0)
        return stop > start ? (stop - start - 1) / step + 1 : 0;
    return start > stop ? (start - stop - 1) / -step + 1 : 0;
}

em_status em_array_slice(const em_array *a, const em_slice *slices,
                         em_array *out)
{
    static const char fn[] = "em_array_slice";
    int64_t offset = 0;
    em_array v;
    em_status rc;
    int i, nd = 0;
    if ((rc = check_out(a, out, fn)) != EM_OK)
        return rc;
    if (a->ndim > 0 && !slices)
        return em_error(EM_ERR_INVALID_VALUE, "%s: slices is NULL", fn);
    v = *a;
    for (i = 0; i < a->ndim; i++) {
        int64_t dim = a->shape[i], stride = a->strides[i], len, step_stride, off;
        em_slice sl = slices[i];
        if (sl.step == 0) {
            if (sl.start < 0 || sl.start >= dim)
                return em_error(EM_ERR_INDEX, "index %lld is out of bounds for "
                                "axis %d with size %lld", (long long)sl.start,
                                i, (long long)dim);
            if (__builtin_mul_overflow(sl.start, stride, &off)
                || __builtin_add_overflow(offset, off, &offset))
                return em_error(EM_ERR_OVERFLOW, "%s: the offset of index %lld "
                                "on axis %d overflows", fn, (long long)sl.start, i);
            continue;
        }
        /* Python's slice.indices() bounds: [0, dim] going up, [-1, dim-1]
         * going down, where -1 stands for "before the first element". */
        if (sl.step == INT64_MIN
            || (sl.step > 0 && (sl.start < 0 || sl.start > dim
                                || sl.stop < 0 || sl.stop > dim))
            || (sl.step < 0 && (sl.start < -1 || sl.start > dim - 1
                                || sl.stop < -1 || sl.stop > dim - 1)))
            return em_error(EM_ERR_INVALID_VALUE, "%s: axis %d of size %lld: "
                            "slice %lld:%lld:%lld is not normalised",
                            fn, i, (long long)dim, (long long)sl.start,
                            (long long)sl.stop, (long long)sl.step);
        len = slice_length(sl.start, sl.stop, sl.step);
        if (len == 0) {
            /* Nothing is read through an empty axis; pointing it at the
             * start keeps the data pointer inside the block (a start of -1
             * would not be). */
            sl.start = 0;
            sl.step = 1;
        }
        if (__builtin_mul_overflow(stride, sl.step, &step_stride)) {
            if (len > 1)
                return em_error(EM_ERR_OVERFLOW, "%s: stride %lld times step "
                                "%lld overflows on axis %d", fn,
                                (long long)stride, (long long)sl.step, i);
            step_stride = stride;   /* one element: the stride is never used */
        }
        if (__builtin_mul_overflow(sl.start, stride, &off)
            || __builtin_add_overflow(offset, off, &offset))
            return em_error(EM_ERR_OVERFLOW, "%s: the offset of start %lld on "
                            "axis %d overflows", fn, (long long)sl.start, i);
        v.shape[nd] = len;
        v.strides[nd] = step_stride;
        nd++;
    }
    v.ndim = nd;
    v.data = a->data + offset;
    em_array_update_flags(&v);
    em_arr_publish_view(a, &v, out);
    return EM_OK;
}

/* ---- broadcasting ----------------------------------------------------- */

/* a's layout broadcast to (ndim, shape) in v; `assign` picks NumPy's
 * assignment wording and first drops a's surplus leading extent-1 axes. */
static em_status broadcast_layout(const em_array *a, int ndim,
                                  const int64_t *shape, int assign,
                                  em_array *v)
{
    char abuf[SHAPE_STR], tbuf[SHAPE_STR];
    const int64_t *ashape = a->shape, *astr = a->strides;
    int and_ = a->ndim, k;
    em_status rc;
    int64_t size;
    if ((rc = em_shape_check_ndim(assign ? "em_array_copy"
                                         : "em_array_broadcast_to",
                                  ndim, shape)) != EM_OK ||
        (rc = em_shape_size(ndim, shape, &size)) != EM_OK)
        return rc;
    while (assign && and_ > ndim && ashape[0] == 1) {
        ashape++;
        astr++;
        and_--;
    }
    if (and_ > ndim)
        goto mismatch;
    *v = *a;
    v->ndim = ndim;
    for (k = 1; k <= ndim; k++) {
        int64_t t = shape[ndim - k];
        if (k > and_ || ashape[and_ - k] == 1) {
            v->strides[ndim - k] = 0;
        } else if (ashape[and_ - k] == t) {
            v->strides[ndim - k] = astr[and_ - k];
        } else {
            goto mismatch;
        }
        v->shape[ndim - k] = t;
    }
    em_array_update_flags(v);
    return EM_OK;
mismatch:
    em_shape_format(a->ndim, a->shape, abuf, sizeof abuf);
    em_shape_format(ndim, shape, tbuf, sizeof tbuf);
    if (assign)
        return em_error(EM_ERR_INVALID_VALUE, "could not broadcast input array "
                        "from shape %s into shape %s", abuf, tbuf);
    return em_error(EM_ERR_INVALID_VALUE, "cannot broadcast an array of shape "
                    "%s to shape %s", abuf, tbuf);
}

em_status em_arr_broadcast_layout(const em_array *src, int ndim,
                                  const int64_t *shape, em_array *out)
{
    return broadcast_layout(src, ndim, shape, 1, out);
}

em_status em_array_broadcast_to(const em_array *a, int ndim,
                                const int64_t *shape, em_array *out)
{
    em_array v;
    em_status rc;
    if ((rc = check_out(a, out, "em_array_broadcast_to")) != EM_OK
        || (rc = broadcast_layout(a, ndim, shape, 0, &v)) != EM_OK)
        return rc;
    /* Elements repeated through zero strides would be written by every
     * alias at once; NumPy hands such views out read-only too. */
    v.flags &= ~(unsigned)EM_ARRAY_WRITEABLE;
    em_arr_publish_view(a, &v, out);
    return EM_OK;
}

/* ---- dtype ------------------------------------------------------------ */

em_status em_array_view_dtype(const em_array *a, em_dtype dtype,
                              em_array *out)
{
    const em_dtype_info *from, *to;
    em_array v;
    em_status rc;
    if ((rc = check_out(a, out, "em_array_view_dtype")) != EM_OK)
        return rc;
    if (!(to = em_dtype_get(dtype)))
        return em_error(EM_ERR_TYPE, "em_array_view_dtype: invalid dtype %d",
                        (int)dtype);
    from = em_dtype_get(a->dtype);
    v = *a;
    v.dtype = dtype;
    if (from->size != to->size) {
        const int k = a->ndim - 1;
        const int64_t bytes = k >= 0 ? a->shape[k] * (int64_t)from->size : 0;
        if (k < 0)
            return em_error(EM_ERR_INVALID_VALUE,
                            "Changing the dtype of a 0d array is only supported "
                            "if the itemsize is unchanged (%s is %u bytes, %s %u)",
                            from->name, (unsigned)from->size, to->name,
                            (unsigned)to->size);
        if (a->shape[k] != 1 && a->size != 0 &&
            a->strides[k] != (int64_t)from->size)
            return em_error(EM_ERR_INVALID_VALUE,
                            "To change to a dtype of a different size, the last "
                            "axis must be contiguous (viewing %s as %s: its "
                            "stride is %lld bytes)",
                            from->name, to->name, (long long)a->strides[k]);
        if (bytes % (int64_t)to->size)
            return em_error(EM_ERR_INVALID_VALUE,
                            "When changing to a %s dtype, its size must be a "
                            "divisor of the %s (viewing %s as %s: %lld bytes on "
                            "the last axis, items of %u)",
                            to->size < from->size ? "smaller" : "larger",
                            to->size < from->size
                                ? "size of original dtype"
                                : "total size in bytes of the last axis of the array",
                            from->name, to->name, (long long)bytes,
                            (unsigned)to->size);
        v.shape[k] = bytes / (int64_t)to->size;
        v.strides[k] = (int64_t)to->size;
    }
    em_array_update_flags(&v);
    /* NumPy hands out misaligned views; ember's kernels load whole items
     * (a GPU faults on a misaligned one), so it refuses to make one */
    if ((a->flags & EM_ARRAY_ALIGNED) && !(v.flags & EM_ARRAY_ALIGNED))
        return em_error(EM_ERR_INVALID_VALUE,
                        "cannot view %s as %s here: the view's items would "
                        "not be aligned to their size (copy it first)",
                        from->name, to->name);
    em_arr_publish_view(a, &v, out);
    return EM_OK;
}
