/* ember array: numpy.pad, by copies between parts of the padded array.
 *
 * Axes are padded one after another. While axis i is padded, the region
 * worked on spans the full padded extent of the axes before i (already
 * padded) and only the original extent of the axes after it, which is how
 * NumPy orders it, so every corner gets NumPy's value. Reflect, symmetric
 * and wrap copy from the part already filled, in chunks no longer than
 * that part (NumPy's rule), so a pad wider than the axis takes a few
 * rounds, each one about tripling the filled part.
 */
#include <string.h>
#include "array/array_internal.h"
#include "array/manip_internal.h"

/* from (broadcast along axis) into [dst, dst + len) of w's axis. */
static em_status write_part(em_array *w, int axis, int64_t dst, int64_t len,
                            const em_array *from, em_stream *s)
{
    em_array d;
    if (len <= 0)
        return EM_OK;
    em_manip_part(w, axis, dst, len, 1, &d);
    return em_array_copy(&d, from, s);
}

static em_status copy_part(em_array *w, int axis, int64_t dst, int64_t src,
                           int64_t len, int64_t step, em_stream *s)
{
    em_array r;
    if (len <= 0)
        return EM_OK;
    em_manip_part(w, axis, src, len, step, &r);
    return write_part(w, axis, dst, len, &r, s);
}

/* reflect_type='odd': the chunk just copied to [dst, dst + len) becomes
 * 2 * edge - chunk, with NumPy's arithmetic (2 * edge first, in the
 * array's dtype, then the difference). */
static em_status odd_part(em_array *w, int axis, int64_t dst, int64_t len, int64_t edge,
                          em_stream *s)
{
    em_array d, e, twice;
    em_operand in[2];
    em_status rc;
    em_manip_part(w, axis, dst, len, 1, &d);
    em_manip_part(w, axis, edge, 1, 1, &e);
    memset(in, 0, sizeof in);
    memset(&twice, 0, sizeof twice);
    if ((rc = em_array_empty(w->device, w->dtype, e.ndim, e.shape, 'C', s,
                             &twice)) != EM_OK)
        return rc;
    in[0].array = &e;
    in[0].dtype = e.dtype;
    in[1].dtype = EM_INT64;
    in[1].weak = 1;
    in[1].value.i = 2;
    rc = em_ufunc_apply(EM_OP_MULTIPLY, in, 2, &twice, NULL, s);
    if (rc == EM_OK) {
        in[0].array = &twice;
        in[1].array = &d;
        in[1].dtype = d.dtype;
        in[1].weak = 0;
        rc = em_ufunc_apply(EM_OP_SUBTRACT, in, 2, &d, NULL, s);
    }
    em_array_release(&twice);
    return rc;
}

/* NumPy's _set_reflect_both: one round; updates the widths still to do. */
static em_status reflect_round(em_array *w, int axis, int64_t n, int symmetric, int odd,
                               int64_t *lp, int64_t *rp, em_stream *s)
{
    int64_t S = w->shape[axis], old = S - *lp - *rp, eo = symmetric ? 1 : 0, chunk;
    em_status rc;
    /* reflect leaves the edge element out of each chunk */
    old = symmetric ? old / n * n : (old - 1) / (n - 1) * (n - 1);
    if (*lp > 0) {
        chunk = old < *lp ? old : *lp;
        if ((rc = copy_part(w, axis, *lp - chunk, *lp - eo + chunk, chunk, -1,
                            s)) != EM_OK ||
            (odd &&
             (rc = odd_part(w, axis, *lp - chunk, chunk, *lp, s)) != EM_OK))
            return rc;
        *lp -= chunk;
    }
    if (*rp > 0) {
        chunk = old < *rp ? old : *rp;
        if ((rc = copy_part(w, axis, S - *rp, S - *rp + eo - 2, chunk, -1, s)) != EM_OK
            || (odd && (rc = odd_part(w, axis, S - *rp, chunk, S - *rp - 1, s)) != EM_OK))
            return rc;
        *rp -= chunk;
    }
    return EM_OK;
}

/* NumPy's _set_wrap_both: one round. */
static em_status wrap_round(em_array *w, int axis, int64_t n, int64_t *lp,
                            int64_t *rp, em_stream *s)
{
    int64_t S = w->shape[axis], period = (S - *lp - *rp) / n * n, nl = 0, nr = 0;
    em_status rc;
    if (*lp > 0) {
        int64_t end = *lp + period, len = period < *lp ? period : *lp;
        int64_t dst = *lp > period ? *lp - period : 0;
        if (*lp > period)
            nl = *lp - period;
        if ((rc = copy_part(w, axis, dst, end - len, len, 1, s)) != EM_OK)
            return rc;
    }
    if (*rp > 0) {
        int64_t start = S - *rp - period, len = period < *rp ? period : *rp;
        if (*rp > period)
            nr = *rp - period;
        if ((rc = copy_part(w, axis, S - *rp, start, len, 1, s)) != EM_OK)
            return rc;
    }
    *lp = nl;
    *rp = nr;
    return EM_OK;
}

/* NumPy's _get_stats for one side: op over `len` elements from `start`
 * along axis, kept as an extent-1 axis; integer means rounded (half to
 * even, as np.around) before the assignment casts them. */
static em_status stat_of(em_array *w, int axis, int64_t start, int64_t len,
                         em_pad_mode mode, em_array *stat, em_stream *s)
{
    em_reduce_op op = mode == EM_PAD_MAXIMUM ? EM_RED_MAX
                    : mode == EM_PAD_MINIMUM ? EM_RED_MIN : EM_RED_MEAN;
    char k = em_dtype_get(w->dtype)->kind;
    em_reduce_args ra;
    em_array part;
    em_status rc;
    em_manip_part(w, axis, start, len, 1, &part);
    memset(&ra, 0, sizeof ra);
    ra.axes = &axis;
    ra.naxes = 1;
    ra.keepdims = 1;
    memset(stat, 0, sizeof *stat);
    if ((rc = em_reduce(op, &part, &ra, stat, s)) != EM_OK)
        return rc;
    if (op == EM_RED_MEAN && (k == 'i' || k == 'u')) {
        em_operand in;
        memset(&in, 0, sizeof in);
        in.array = stat;
        in.dtype = stat->dtype;
        if ((rc = em_ufunc_apply(EM_OP_RINT, &in, 1, stat, NULL, s)) != EM_OK)
            em_array_release(stat);
    }
    return rc;
}

static em_status pad_stat(em_array *w, int axis, int64_t n, int64_t before, int64_t after,
                          em_pad_mode mode, const int64_t *len, em_stream *s)
{
    int64_t S = w->shape[axis], ll = len ? len[0] : -1, rl = len ? len[1] : -1;
    em_array ls, rs;
    em_status rc;
    if (ll < 0 || ll > n)
        ll = n;
    if (rl < 0 || rl > n)
        rl = n;
    if ((ll == 0 || rl == 0) && mode != EM_PAD_MEAN)
        return em_error(EM_ERR_INVALID_VALUE, "stat_length of 0 yields no value for "
                        "padding");
    if ((rc = stat_of(w, axis, before, ll, mode, &ls, s)) != EM_OK)
        return rc;
    if (ll == n && rl == n)
        em_array_retain(&ls, &rs);
    else if ((rc = stat_of(w, axis, before + n - rl, rl, mode, &rs, s)) != EM_OK) {
        em_array_release(&ls);
        return rc;
    }
    rc = write_part(w, axis, 0, before, &ls, s);
    if (rc == EM_OK)
        rc = write_part(w, axis, S - after, after, &rs, s);
    em_array_release(&ls);
    em_array_release(&rs);
    return rc;
}

/* One side of linear_ramp: NumPy's linspace(end, edge, len, endpoint=False,
 * dtype, axis) written to [dst, dst + len), reversed on the right side. */
static em_status ramp_side(em_array *w, int axis, int64_t dst, int64_t len,
                           int64_t edge_at, int reverse, const char *value,
                           em_dtype vd, em_stream *s)
{
    em_array e, endv, ramp;
    em_dtype compute;
    em_status rc;
    int i;
    char k;
    em_manip_part(w, axis, edge_at, 1, 1, &e);
    for (i = axis; i + 1 < e.ndim; i++) {   /* squeeze the edge's axis */
        e.shape[i] = e.shape[i + 1];
        e.strides[i] = e.strides[i + 1];
    }
    e.ndim--;
    em_array_update_flags(&e);
    if ((rc = em_dtype_promote(vd, w->dtype, &compute)) != EM_OK)
        return rc;
    k = em_dtype_get(compute)->kind;
    if (k != 'f' && k != 'c')
        compute = EM_FLOAT64;
    memset(&endv, 0, sizeof endv);
    memset(&ramp, 0, sizeof ramp);
    if ((rc = em_array_empty(w->device, vd, 0, NULL, 'C', s, &endv)) != EM_OK)
        return rc;
    if ((rc = em_array_fill(&endv, value, vd, s)) == EM_OK
        && (rc = em_linspace_array(&endv, &e, len, 0, axis, compute, w->dtype,
                                   NULL, &ramp, s)) == EM_OK) {
        em_array r = ramp;
        if (reverse && len > 0) {
            r.data += (len - 1) * r.strides[axis];
            r.strides[axis] = -r.strides[axis];
            em_array_update_flags(&r);
        }
        rc = write_part(w, axis, dst, len, &r, s);
        em_array_release(&ramp);
    }
    em_array_release(&endv);
    return rc;
}

static em_status pad_axis(em_array *w, int axis, int64_t n, int64_t before,
                          int64_t after, em_pad_mode mode, const char *values,
                          size_t vsize, em_dtype vd, const int64_t *stat_len,
                          em_stream *s)
{
    int64_t S = w->shape[axis];
    em_array p;
    em_status rc = EM_OK;
    if (mode == EM_PAD_CONSTANT) {
        int side;
        for (side = 0; side < 2; side++) {
            int64_t len = side ? after : before;
            static const int64_t zero[2] = {0, 0};
            if (!len)
                continue;
            em_manip_part(w, axis, side ? S - after : 0, len, 1, &p);
            rc = em_array_fill(&p, values ? values + (size_t)(2 * axis + side) * vsize
                                          : (const char *)zero,
                               values ? vd : EM_FLOAT64, s);
            if (rc != EM_OK)
                return rc;
        }
        return EM_OK;
    }
    if (mode == EM_PAD_LINEAR_RAMP) {
        static const int64_t zero[2] = {0, 0};
        const char *v0 = values ? values + (size_t)(2 * axis) * vsize
                                : (const char *)zero;
        const char *v1 = values ? v0 + vsize : (const char *)zero;
        em_dtype d = values ? vd : EM_INT64;
        if (before && (rc = ramp_side(w, axis, 0, before, before, 0, v0, d, s))
                          != EM_OK)
            return rc;
        if (after)
            rc = ramp_side(w, axis, S - after, after, S - after - 1, 1, v1, d, s);
        return rc;
    }
    if (mode >= EM_PAD_MAXIMUM)
        return pad_stat(w, axis, n, before, after, mode, stat_len, s);
    if (mode != EM_PAD_WRAP && n == 1)
        mode = EM_PAD_EDGE;          /* NumPy's rule, for 'odd' too */
    if (mode == EM_PAD_EDGE) {
        em_array e;
        if (before) {
            em_manip_part(w, axis, before, 1, 1, &e);
            if ((rc = write_part(w, axis, 0, before, &e, s)) != EM_OK)
                return rc;
        }
        if (after) {
            em_manip_part(w, axis, S - after - 1, 1, 1, &e);
            rc = write_part(w, axis, S - after, after, &e, s);
        }
        return rc;
    }
    while (before > 0 || after > 0) {
        rc = mode == EM_PAD_WRAP
                 ? wrap_round(w, axis, n, &before, &after, s)
                 : reflect_round(w, axis, n,
                                 mode == EM_PAD_SYMMETRIC ||
                                     mode == EM_PAD_SYMMETRIC_ODD,
                                 mode == EM_PAD_REFLECT_ODD ||
                                     mode == EM_PAD_SYMMETRIC_ODD,
                                 &before, &after, s);
        if (rc != EM_OK)
            return rc;
    }
    return EM_OK;
}

em_status em_array_pad(const em_array *a, const int64_t *width,
                       em_pad_mode mode, const void *values,
                       em_dtype values_dtype, const int64_t *stat_length,
                       em_array *out, em_stream *s)
{
    static const char *const mode_names[] = {"constant", "edge", "reflect",
                                             "symmetric", "wrap", "reflect",
                                             "symmetric", "empty", "maximum",
                                             "minimum", "mean", "linear_ramp"};
    int64_t shape[EM_MAX_NDIM];
    size_t vsize = 0;
    em_array inner, w;
    em_status rc;
    int i, j;
    if ((rc = em_arr_check(a, "pad: the array")) != EM_OK)
        return rc;
    if (!out || (a->ndim && !width))
        return em_error(EM_ERR_INVALID_VALUE, "pad: NULL width or out");
    if ((unsigned)mode > EM_PAD_LINEAR_RAMP)
        return em_error(EM_ERR_INVALID_VALUE, "pad: unknown mode %d", (int)mode);
    if ((mode == EM_PAD_REFLECT_ODD || mode == EM_PAD_SYMMETRIC_ODD) &&
        a->dtype == EM_BOOL)
        return em_error(EM_ERR_NOT_SUPPORTED, "pad: reflect_type='odd' of a bool array "
                        "is not supported");
    if ((mode == EM_PAD_CONSTANT || mode == EM_PAD_LINEAR_RAMP) && values) {
        const em_dtype_info *vi = em_dtype_get(values_dtype);
        if (!vi)
            return em_error(EM_ERR_TYPE, "pad: invalid values dtype %d",
                            (int)values_dtype);
        vsize = vi->size;
    }
    for (i = 0; i < a->ndim; i++) {
        int64_t b = width[2 * i], e = width[2 * i + 1];
        if (b < 0 || e < 0)
            return em_error(EM_ERR_INVALID_VALUE, "index can't contain negative "
                            "values");
        if (mode != EM_PAD_CONSTANT && mode != EM_PAD_EMPTY && a->shape[i] == 0
            && (b || e))
            return em_error(EM_ERR_INVALID_VALUE, "can't extend empty axis %d using "
                            "modes other than 'constant' or 'empty' (mode '%s')",
                            i, mode_names[mode]);
        if (__builtin_add_overflow(a->shape[i], b, &shape[i])
            || __builtin_add_overflow(shape[i], e, &shape[i]))
            return em_error(EM_ERR_OVERFLOW, "pad: the result is too large");
    }
    if ((rc = em_array_empty(a->device, a->dtype, a->ndim, shape, 'C', s, out)) != EM_OK)
        return rc;
    if (!out->size)
        return EM_OK;
    inner = *out;
    for (i = 0; i < a->ndim; i++) {
        em_array t;
        em_manip_part(&inner, i, width[2 * i], a->shape[i], 1, &t);
        inner = t;
    }
    if (a->size && (rc = em_array_copy(&inner, a, s)) != EM_OK)
        goto fail;
    for (i = 0; i < a->ndim && mode != EM_PAD_EMPTY; i++) {
        if (!width[2 * i] && !width[2 * i + 1])
            continue;
        w = *out;
        for (j = i + 1; j < a->ndim; j++) {
            em_array t;
            em_manip_part(&w, j, width[2 * j], a->shape[j], 1, &t);
            w = t;
        }
        if (!w.size)
            continue;
        rc = pad_axis(&w, i, a->shape[i], width[2 * i], width[2 * i + 1], mode,
                      (const char *)values, vsize, values_dtype,
                      stat_length ? stat_length + 2 * i : NULL, s);
        if (rc != EM_OK)
            goto fail;
    }
    return EM_OK;
fail:
    em_array_release(out);
    return rc;
}
