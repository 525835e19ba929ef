/* ember array: concatenate, tile, flip, roll, diagonal and diag — layout
 * arithmetic plus em_array_copy/em_array_fill (see include/ember/manip.h;
 * pad lives in manip_pad.c).
 *
 * The sub-views built here (`part`) are plain copies of an em_array
 * struct with a changed layout and no reference of their own: they only
 * live for the call that fills them, while the caller's reference keeps
 * the storage alive, so they are never released.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "array/array_internal.h"
#include "array/manip_internal.h"

void em_manip_part(const em_array *a, int axis, int64_t start, int64_t len,
                   int64_t step, em_array *v)
{
    *v = *a;
    if (len > 0)
        v->data += start * a->strides[axis];
    v->shape[axis] = len;
    v->strides[axis] = a->strides[axis] * step;
    em_array_update_flags(v);
    v->flags |= a->flags & EM_ARRAY_WRITEABLE;
}

em_status em_manip_same_device(const em_array *a, const em_array *b,
                               const char *fn)
{
    if (a->device != b->device)
        return em_error(EM_ERR_INVALID_VALUE, "%s: arrays on different devices "
                        "(%s and %s); move one with to_device() first", fn,
                        em_device_name(a->device), em_device_name(b->device));
    return EM_OK;
}

/* A new array of a's device, or a check that a given out has the shape. */
em_status em_manip_out(em_device *d, em_dtype dtype, int ndim,
                       const int64_t *shape, em_array *out, em_stream *s,
                       const char *fn)
{
    char want[256], got[256];
    int i;
    if (!out)
        return em_error(EM_ERR_INVALID_VALUE, "%s: out is NULL", fn);
    if (!out->storage)
        return em_array_empty(d, dtype, ndim, shape, 'C', s, out);
    if (out->device != d)
        return em_error(EM_ERR_INVALID_VALUE, "%s: out is on %s but the inputs "
                        "are on %s", fn, em_device_name(out->device),
                        em_device_name(d));
    if (!(out->flags & EM_ARRAY_WRITEABLE))
        return em_error(EM_ERR_INVALID_VALUE, "%s: out is read-only", fn);
    for (i = 0; i < ndim && out->ndim == ndim; i++)
        if (out->shape[i] != shape[i])
            break;
    if (out->ndim != ndim || i < ndim) {
        em_shape_format(ndim, shape, want, sizeof want);
        em_shape_format(out->ndim, out->shape, got, sizeof got);
        return em_error(EM_ERR_INVALID_VALUE, "Output array is the wrong shape: "
                        "%s has shape %s, expected %s", fn, got, want);
    }
    return EM_OK;
}

static const char *casting_name(em_casting c)
{
    static const char *const names[] = {"no", "equiv", "safe", "same_kind", "unsafe"};
    return (unsigned)c < 5 ? names[c] : "?";
}

/* ---- concatenate ------------------------------------------------------ */

em_status em_array_concatenate(const em_array *const *in, int n, int axis,
                               int dtype, em_casting casting, em_array *out,
                               em_stream *s)
{
    static const char fn[] = "concatenate";
    int64_t shape[EM_MAX_NDIM], at;
    em_dtype rt;
    em_status rc;
    em_array o;
    int i, j, nd, fresh;
    if (n < 1 || !in)
        return em_error(EM_ERR_INVALID_VALUE, "need at least one array to "
                        "concatenate");
    for (i = 0; i < n; i++)
        if ((rc = em_arr_check(in[i], "concatenate: an input")) != EM_OK)
            return rc;
    nd = in[0]->ndim;
    if (nd == 0)
        return em_error(EM_ERR_INVALID_VALUE, "zero-dimensional arrays cannot "
                        "be concatenated");
    if ((rc = em_arr_axis(&axis, nd)) != EM_OK)
        return rc;
    memcpy(shape, in[0]->shape, sizeof(int64_t) * (size_t)nd);
    rt = in[0]->dtype;
    for (i = 1; i < n; i++) {
        const em_array *b = in[i];
        if ((rc = em_manip_same_device(in[0], b, fn)) != EM_OK)
            return rc;
        if (b->ndim != nd)
            return em_error(EM_ERR_INVALID_VALUE, "all the input arrays must have "
                            "same number of dimensions, but the array at index 0 "
                            "has %d dimension(s) and the array at index %d has %d "
                            "dimension(s)", nd, i, b->ndim);
        for (j = 0; j < nd; j++)
            if (j != axis && b->shape[j] != shape[j])
                return em_error(EM_ERR_INVALID_VALUE, "all the input array "
                                "dimensions except for the concatenation axis must "
                                "match exactly, but along dimension %d, the array at "
                                "index 0 has size %lld and the array at index %d has "
                                "size %lld", j, (long long)shape[j], i,
                                (long long)b->shape[j]);
        if (__builtin_add_overflow(shape[axis], b->shape[axis], &shape[axis]))
            return em_error(EM_ERR_OVERFLOW, "concatenate: the result is too large");
        if ((rc = em_dtype_promote(rt, b->dtype, &rt)) != EM_OK)
            return rc;
    }
    if (dtype >= 0)
        rt = (em_dtype)dtype;
    else if (out && out->storage)
        rt = out->dtype;
    for (i = 0; i < n; i++)
        if (!em_dtype_can_cast(in[i]->dtype, rt, casting))
            return em_error(EM_ERR_TYPE, "Cannot cast array data from dtype('%s') "
                            "to dtype('%s') according to the rule '%s'",
                            em_dtype_get(in[i]->dtype)->name, em_dtype_get(rt)->name,
                            casting_name(casting));
    if (out && out->storage && dtype >= 0 && out->dtype != rt)
        return em_error(EM_ERR_TYPE, "concatenate: out has dtype %s but dtype=%s "
                        "was asked for", em_dtype_get(out->dtype)->name,
                        em_dtype_get(rt)->name);
    fresh = out && !out->storage;
    if ((rc = em_manip_out(in[0]->device, rt, nd, shape, out, s, fn)) != EM_OK)
        return rc;
    for (i = 0, at = 0; i < n; i++) {
        int64_t len = in[i]->shape[axis];
        if (in[i]->size) {
            em_manip_part(out, axis, at, len, 1, &o);
            if ((rc = em_array_copy(&o, in[i], s)) != EM_OK) {
                if (fresh)
                    em_array_release(out);
                return rc;
            }
        }
        at += len;
    }
    return EM_OK;
}

/* ---- tile ------------------------------------------------------------- */

em_status em_array_tile(const em_array *a, int nreps, const int64_t *reps,
                        em_array *out, em_stream *s)
{
    int64_t r[EM_MAX_NDIM], as[EM_MAX_NDIM], ast[EM_MAX_NDIM], shape[EM_MAX_NDIM];
    int64_t oshape[EM_MAX_NDIM], sshape[EM_MAX_NDIM], sstr[EM_MAX_NDIM];
    int i, nd, k = 0;
    em_array src, dst;
    em_status rc;
    if ((rc = em_arr_check(a, "tile: the array")) != EM_OK)
        return rc;
    if (nreps < 0 || nreps > EM_MAX_NDIM || (nreps && !reps))
        return em_error(EM_ERR_INVALID_VALUE, "tile: %d repetitions do not fit "
                        "%d dimensions", nreps, EM_MAX_NDIM);
    nd = nreps > a->ndim ? nreps : a->ndim;
    for (i = 0; i < nd; i++) {
        int ri = i - (nd - nreps), ai = i - (nd - a->ndim);
        r[i] = ri >= 0 ? reps[ri] : 1;
        if (r[i] < 0)
            return em_error(EM_ERR_INVALID_VALUE, "negative dimensions are not "
                            "allowed (tile reps %lld)", (long long)r[i]);
        as[i] = ai >= 0 ? a->shape[ai] : 1;
        ast[i] = ai >= 0 ? a->strides[ai] : 0;
        if (__builtin_mul_overflow(as[i], r[i], &shape[i]))
            return em_error(EM_ERR_OVERFLOW, "tile: the result is too large");
    }
    if ((rc = em_array_empty(a->device, a->dtype, nd, shape, 'C', s, out)) != EM_OK)
        return rc;
    if (!out->size)
        return EM_OK;
    /* Only axes that repeat get a (reps, extent) pair, so ranks up to
     * EM_MAX_NDIM work unless more than half of them repeat. */
    for (i = 0; i < nd; i++) {
        if (k + (r[i] != 1 && as[i] != 1 ? 2 : 1) > EM_MAX_NDIM) {
            em_array_release(out);
            return em_error(EM_ERR_NOT_SUPPORTED, "tile: too many repeated "
                            "axes for %d dimensions", EM_MAX_NDIM);
        }
        if (r[i] != 1 && as[i] != 1) {
            oshape[k] = r[i];
            sshape[k] = 1;
            sstr[k++] = 0;
            oshape[k] = as[i];
        } else {
            oshape[k] = shape[i];   /* an extent-1 axis broadcasts */
        }
        sshape[k] = as[i];
        sstr[k++] = ast[i];
    }
    if ((rc = em_array_reshape_view(out, k, oshape, 'C', &dst)) != EM_OK) {
        em_array_release(out);
        return rc;
    }
    src = *a;
    src.ndim = k;
    memcpy(src.shape, sshape, sizeof(int64_t) * (size_t)k);
    memcpy(src.strides, sstr, sizeof(int64_t) * (size_t)k);
    em_array_update_flags(&src);
    rc = em_array_copy(&dst, &src, s);
    em_array_release(&dst);
    if (rc != EM_OK)
        em_array_release(out);
    return rc;
}

/* ---- flip, diagonal --------------------------------------------------- */

em_status em_array_flip(const em_array *a, const int *axes, int naxes,
                        em_array *out)
{
    int flip[EM_MAX_NDIM] = {0};
    em_array v;
    em_status rc;
    int i;
    if ((rc = em_arr_check(a, "flip: the array")) != EM_OK)
        return rc;
    if (!out)
        return em_error(EM_ERR_INVALID_VALUE, "flip: out is NULL");
    if (naxes < 0 || !axes) {
        for (i = 0; i < a->ndim; i++)
            flip[i] = 1;
    } else {
        for (i = 0; i < naxes; i++) {
            int ax = axes[i];
            if ((rc = em_arr_axis(&ax, a->ndim)) != EM_OK)
                return rc;
            if (flip[ax])
                return em_error(EM_ERR_INVALID_VALUE, "repeated axis in flip");
            flip[ax] = 1;
        }
    }
    v = *a;
    for (i = 0; i < a->ndim; i++) {
        if (!flip[i] || a->shape[i] == 0)
            continue;
        v.data += (a->shape[i] - 1) * a->strides[i];
        v.strides[i] = -a->strides[i];
    }
    em_array_update_flags(&v);
    v.flags = (v.flags & ~(unsigned)EM_ARRAY_WRITEABLE) | (a->flags & EM_ARRAY_WRITEABLE);
    em_arr_publish_view(a, &v, out);
    return EM_OK;
}

/* The diagonal layout, keeping a's WRITEABLE flag (eye and diag write
 * through it). */
em_status em_manip_diagonal_layout(const em_array *a, int64_t offset, int axis1,
                                   int axis2, em_array *v)
{
    int64_t n1, n2, len, s1, s2;
    int i, k = 0;
    em_status rc;
    if (a->ndim < 2)
        return em_error(EM_ERR_INVALID_VALUE, "diag requires an array of at least "
                        "two dimensions");
    if ((rc = em_arr_axis(&axis1, a->ndim)) != EM_OK
        || (rc = em_arr_axis(&axis2, a->ndim)) != EM_OK)
        return rc;
    if (axis1 == axis2)
        return em_error(EM_ERR_INVALID_VALUE, "axis1 and axis2 cannot be the same");
    n1 = a->shape[axis1];
    n2 = a->shape[axis2];
    s1 = a->strides[axis1];
    s2 = a->strides[axis2];
    *v = *a;
    if (offset >= 0) {
        len = offset >= n2 ? 0 : (n1 < n2 - offset ? n1 : n2 - offset);
        if (len > 0)
            v->data += offset * s2;
    } else {
        len = offset <= -n1 ? 0 : (n1 + offset < n2 ? n1 + offset : n2);
        if (len > 0)
            v->data += -offset * s1;
    }
    for (i = 0; i < a->ndim; i++) {
        if (i == axis1 || i == axis2)
            continue;
        v->shape[k] = a->shape[i];
        v->strides[k++] = a->strides[i];
    }
    v->shape[k] = len;
    v->strides[k++] = s1 + s2;
    v->ndim = k;
    em_array_update_flags(v);
    v->flags = (v->flags & ~(unsigned)EM_ARRAY_WRITEABLE) |
               (a->flags & EM_ARRAY_WRITEABLE);
    return EM_OK;
}

em_status em_array_diagonal(const em_array *a, int64_t offset, int axis1,
                            int axis2, em_array *out)
{
    em_array v;
    em_status rc;
    if ((rc = em_arr_check(a, "diagonal: the array")) != EM_OK)
        return rc;
    if (!out)
        return em_error(EM_ERR_INVALID_VALUE, "diagonal: out is NULL");
    if ((rc = em_manip_diagonal_layout(a, offset, axis1, axis2, &v)) != EM_OK)
        return rc;
    /* NumPy 2 hands the diagonal out read-only (writing through it is
     * reserved for a future NumPy), so ember does too. */
    v.flags &= ~(unsigned)EM_ARRAY_WRITEABLE;
    em_arr_publish_view(a, &v, out);
    return EM_OK;
}

em_status em_array_diag(const em_array *v, int64_t k, em_array *out,
                        em_stream *s)
{
    em_array d;
    em_status rc;
    if ((rc = em_arr_check(v, "diag: the array")) != EM_OK)
        return rc;
    if (!out)
        return em_error(EM_ERR_INVALID_VALUE, "diag: out is NULL");
    if (v->ndim == 1) {
        int64_t n, shape[2];
        if (k == INT64_MIN || __builtin_add_overflow(v->shape[0], k < 0 ? -k : k, &n))
            return em_error(EM_ERR_OVERFLOW, "diag: k=%lld makes the result too large",
                            (long long)k);
        shape[0] = shape[1] = n;
        if ((rc = em_array_empty(v->device, v->dtype, 2, shape, 'C', s, out)) != EM_OK)
            return rc;
        if (out->size) {
            if ((rc = em_memset_async(out->device, out->data, 0,
                                      (size_t)out->size * em_dtype_size(out->dtype),
                                      em_arr_stream(out->device, s, "diag"))) != EM_OK
                || (rc = em_manip_diagonal_layout(out, k, 0, 1, &d)) != EM_OK
                || (rc = em_array_copy(&d, v, s)) != EM_OK)
                em_array_release(out);
        }
        return rc;
    }
    if (v->ndim != 2)
        return em_error(EM_ERR_INVALID_VALUE, "Input must be 1- or 2-d.");
    if ((rc = em_manip_diagonal_layout(v, k, 0, 1, &d)) != EM_OK)
        return rc;
    if ((rc = em_array_empty(v->device, v->dtype, 1, d.shape, 'C', s, out)) != EM_OK)
        return rc;
    if (out->size && (rc = em_array_copy(out, &d, s)) != EM_OK)
        em_array_release(out);
    return rc;
}

/* ---- roll ------------------------------------------------------------- */

em_status em_array_roll(const em_array *a, const int64_t *shift,
                        const int *axes, int n, em_array *out, em_stream *s)
{
    int64_t sh[EM_MAX_NDIM] = {0};
    int moved[EM_MAX_NDIM], nm = 0, i, combo;
    em_status rc;
    if ((rc = em_arr_check(a, "roll: the array")) != EM_OK)
        return rc;
    if (n < 0 || (n && (!shift || !axes)))
        return em_error(EM_ERR_INVALID_VALUE, "roll: bad shift/axis arguments");
    for (i = 0; i < n; i++) {
        int ax = axes[i];
        int64_t ext;
        if ((rc = em_arr_axis(&ax, a->ndim)) != EM_OK)
            return rc;
        ext = a->shape[ax];
        if (ext > 0) {
            /* Sum modulo the extent so that large shifts cannot overflow. */
            int64_t m = shift[i] % ext;
            if (m < 0)
                m += ext;
            sh[ax] = (sh[ax] + m) % ext;
        }
    }
    for (i = 0; i < a->ndim; i++)
        if (sh[i])
            moved[nm++] = i;
    if ((rc = em_array_empty(a->device, a->dtype, a->ndim, a->shape, 'C', s,
                             out)) != EM_OK)
        return rc;
    if (!a->size)
        return EM_OK;
    /* Each moved axis splits into the part that wraps and the part that
     * does not; every combination of parts is one strided copy. */
    for (combo = 0; combo < (1 << nm); combo++) {
        em_array src = *a, dst = *out;
        for (i = 0; i < nm; i++) {
            int ax = moved[i];
            int64_t e = a->shape[ax], k = sh[ax];
            em_array t;
            if (combo & (1 << i)) {          /* the tail wraps to the front */
                em_manip_part(&src, ax, e - k, k, 1, &t);
                src = t;
                em_manip_part(&dst, ax, 0, k, 1, &t);
                dst = t;
            } else {
                em_manip_part(&src, ax, 0, e - k, 1, &t);
                src = t;
                em_manip_part(&dst, ax, k, e - k, 1, &t);
                dst = t;
            }
        }
        if ((rc = em_array_copy(&dst, &src, s)) != EM_OK) {
            em_array_release(out);
            return rc;
        }
    }
    return EM_OK;
}
