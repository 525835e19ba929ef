/* ember core: overflow-checked shape and stride arithmetic. */
#include <stdio.h>
#include <string.h>
#include "core/layout.h"
#include "ember/shape.h"

/* Long enough for EM_MAX_NDIM extents of 20 digits plus ", ". */
#define EM_SHAPE_STR 768

em_status em_shape_check_ndim(const char *fn, int ndim, const int64_t *shape)
{
    if (ndim < 0 || ndim > EM_MAX_NDIM)
        return em_error(EM_ERR_INVALID_VALUE, "%s: ndim %d is outside 0..%d",
                        fn, ndim, EM_MAX_NDIM);
    if (ndim > 0 && !shape)
        return em_error(EM_ERR_INVALID_VALUE, "%s: NULL shape with ndim %d",
                        fn, ndim);
    return EM_OK;
}

static em_status em_check_extents(const char *fn, int ndim,
                                  const int64_t *shape)
{
    char buf[EM_SHAPE_STR];
    int i;
    em_status s = em_shape_check_ndim(fn, ndim, shape);
    if (s != EM_OK)
        return s;
    for (i = 0; i < ndim; i++)
        if (shape[i] < 0)
            return em_error(EM_ERR_INVALID_VALUE,
                            "negative dimensions are not allowed: shape %s",
                            em_shape_format(ndim, shape, buf, sizeof buf));
    return EM_OK;
}

em_status em_shape_size(int ndim, const int64_t *shape, int64_t *size)
{
    char buf[EM_SHAPE_STR];
    int64_t n = 1;
    int i;
    em_status s = em_check_extents("em_shape_size", ndim, shape);
    if (s != EM_OK)
        return s;
    /* An empty array is valid whatever its other extents, as in NumPy. */
    for (i = 0; i < ndim; i++) {
        if (shape[i] == 0) {
            *size = 0;
            return EM_OK;
        }
    }
    for (i = 0; i < ndim; i++)
        if (__builtin_mul_overflow(n, shape[i], &n))
            return em_error(EM_ERR_OVERFLOW,
                            "the size of shape %s does not fit in int64",
                            em_shape_format(ndim, shape, buf, sizeof buf));
    *size = n;
    return EM_OK;
}

em_status em_strides_contiguous(int ndim, const int64_t *shape,
                                int64_t itemsize, char order,
                                int64_t *strides)
{
    char buf[EM_SHAPE_STR];
    int64_t step = itemsize;
    int k;
    em_status s = em_check_extents("em_strides_contiguous", ndim, shape);
    if (s != EM_OK)
        return s;
    if (ndim > 0 && !strides)
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_strides_contiguous: NULL strides");
    if (order != 'C' && order != 'F')
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_strides_contiguous: order must be 'C' or 'F', "
                        "not '%c'", order);
    if (itemsize <= 0)
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_strides_contiguous: itemsize %lld is not positive",
                        (long long)itemsize);
    /* Extent-0 axes count as 1 (NumPy does the same), so an empty array
     * still gets distinct, nonzero strides. */
    for (k = 0; k < ndim; k++) {
        int i = order == 'C' ? ndim - 1 - k : k;
        int64_t extent = shape[i] ? shape[i] : 1;
        strides[i] = step;
        if (__builtin_mul_overflow(step, extent, &step))
            return em_error(EM_ERR_OVERFLOW,
                            "the byte size of shape %s with itemsize %lld "
                            "does not fit in int64",
                            em_shape_format(ndim, shape, buf, sizeof buf),
                            (long long)itemsize);
    }
    return EM_OK;
}

static int em_has_zero_extent(int ndim, const int64_t *shape)
{
    int i;
    for (i = 0; i < ndim; i++)
        if (shape[i] == 0)
            return 1;
    return 0;
}

/* Walk the axes from fastest to slowest (C: last first) and require each
 * stride to be the product of the faster extents. */
static int em_is_contiguous(int ndim, const int64_t *shape,
                            const int64_t *strides, int64_t itemsize,
                            int c_order)
{
    int64_t expect = itemsize;
    int k;
    if (ndim < 0 || ndim > EM_MAX_NDIM)
        return 0;
    if (em_has_zero_extent(ndim, shape))
        return 1;  /* an empty array touches no memory */
    for (k = 0; k < ndim; k++) {
        int i = c_order ? ndim - 1 - k : k;
        if (shape[i] == 1)
            continue;  /* any stride is fine: it is never multiplied */
        if (shape[i] < 0 || strides[i] != expect)
            return 0;
        if (__builtin_mul_overflow(expect, shape[i], &expect))
            return 0;  /* no real array spans more than int64 bytes */
    }
    return 1;
}

int em_is_c_contiguous(int ndim, const int64_t *shape, const int64_t *strides,
                       int64_t itemsize)
{
    return em_is_contiguous(ndim, shape, strides, itemsize, 1);
}

int em_is_f_contiguous(int ndim, const int64_t *shape, const int64_t *strides,
                       int64_t itemsize)
{
    return em_is_contiguous(ndim, shape, strides, itemsize, 0);
}

/* Saturating, since this function cannot report an error and a layout that
 * spans more than int64 cannot back a real allocation anyway. */
static int64_t em_sat_add(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_add_overflow(a, b, &r))
        return b < 0 ? INT64_MIN : INT64_MAX;
    return r;
}

static int64_t em_sat_mul(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r))
        return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
    return r;
}

void em_layout_extent(int ndim, const int64_t *shape, const int64_t *strides,
                      int64_t itemsize, int64_t *lo, int64_t *hi)
{
    int64_t low = 0, high = itemsize;
    int i;
    if (ndim < 0 || ndim > EM_MAX_NDIM || em_has_zero_extent(ndim, shape)) {
        *lo = *hi = 0;
        return;
    }
    for (i = 0; i < ndim; i++) {
        int64_t span;
        if (shape[i] <= 0) {
            *lo = *hi = 0;
            return;
        }
        span = em_sat_mul(strides[i], shape[i] - 1);
        if (span < 0)
            low = em_sat_add(low, span);
        else
            high = em_sat_add(high, span);
    }
    *lo = low;
    *hi = high;
}

em_status em_shape_broadcast(int na, const int64_t *a, int nb,
                             const int64_t *b, int *out_ndim, int64_t *out)
{
    char abuf[EM_SHAPE_STR], bbuf[EM_SHAPE_STR];
    int64_t tmp[EM_MAX_NDIM];
    int n, k;
    em_status s = em_check_extents("em_shape_broadcast", na, a);
    if (s == EM_OK)
        s = em_check_extents("em_shape_broadcast", nb, b);
    if (s != EM_OK)
        return s;
    n = na > nb ? na : nb;
    /* Align trailing axes; a missing leading axis acts as extent 1. Built in
     * tmp so out may alias a or b. */
    for (k = 1; k <= n; k++) {
        int64_t x = k <= na ? a[na - k] : 1;
        int64_t y = k <= nb ? b[nb - k] : 1;
        if (x != y && x != 1 && y != 1)
            return em_error(EM_ERR_INVALID_VALUE,
                            "shapes %s and %s do not broadcast",
                            em_shape_format(na, a, abuf, sizeof abuf),
                            em_shape_format(nb, b, bbuf, sizeof bbuf));
        tmp[n - k] = x == 1 ? y : x;
    }
    if (n > 0)
        memcpy(out, tmp, (size_t)n * sizeof *out);
    *out_ndim = n;
    return EM_OK;
}

char *em_shape_format(int ndim, const int64_t *shape, char *buf, size_t n)
{
    size_t used = 0;
    int i;
    if (!buf || n == 0)
        return buf;
    buf[0] = 0;
    if (ndim < 0 || ndim > EM_MAX_NDIM || (ndim > 0 && !shape)) {
        snprintf(buf, n, "(<invalid ndim %d>)", ndim);
        return buf;
    }
    /* snprintf reports what it would have written; stop once full so the
     * result is a clean prefix. */
    for (i = -1; i <= ndim && used < n; i++) {
        int w;
        if (i < 0)
            w = snprintf(buf + used, n - used, "(");
        else if (i == ndim)
            w = snprintf(buf + used, n - used, ndim == 1 ? ",)" : ")");
        else
            w = snprintf(buf + used, n - used, i ? ", %lld" : "%lld",
                         (long long)shape[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    return buf;
}
