/* ember array: arange, linspace, logspace, eye, tri, tril/triu (see
 * include/ember/manip.h).
 *
 * The ranges' values follow NumPy's own formula and operation order, so
 * they equal NumPy's bit for bit on every device: written on the host and
 * uploaded, or, for long arange and real linspace ranges on a GPU, as a
 * few elementwise kernels that each do one of NumPy's roundings (never a
 * fused multiply-add; logspace's pow stays on the host). tri and tril
 * compare two small uploaded index vectors in one broadcast kernel
 * instead of filling row by row.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "array/array_internal.h"
#include "array/manip_internal.h"

static int is_int_dtype(em_dtype d)
{
    char k = em_dtype_get(d)->kind;
    return k == 'i' || k == 'u';
}

/* Upload n host elements of dtype `hd` as a new 1-D array, then cast to
 * `dtype` (one copy kernel when they differ). Frees nothing. */
static em_status upload(em_device *d, const void *host, int64_t n, em_dtype hd,
                        em_dtype dtype, em_array *out, em_stream *s)
{
    em_array h;
    em_status rc;
    if (hd == dtype) {
        if ((rc = em_array_empty(d, dtype, 1, &n, 'C', s, out)) != EM_OK)
            return rc;
        if (n && (rc = em_array_from_host(out, host, NULL, s)) != EM_OK)
            em_array_release(out);
        return rc;
    }
    if ((rc = em_array_empty(d, hd, 1, &n, 'C', s, &h)) != EM_OK)
        return rc;
    if (n && (rc = em_array_from_host(&h, host, NULL, s)) != EM_OK)
        goto done;
    if ((rc = em_array_empty(d, dtype, 1, &n, 'C', s, out)) != EM_OK)
        goto done;
    if (n && (rc = em_array_copy(out, &h, s)) != EM_OK)
        em_array_release(out);
done:
    em_array_release(&h);
    return rc;
}

/* NumPy's complex division (its loop's scaling, so results match). */
static void cdiv(double ar, double ai, double br, double bi, double *r, double *i)
{
    double babs_r = fabs(br), babs_i = fabs(bi);
    if (babs_r >= babs_i) {
        if (babs_r == 0 && babs_i == 0) {
            *r = ar / babs_r;
            *i = ai / babs_r;
        } else {
            double rat = bi / br, scl = 1.0 / (br + bi * rat);
            *r = (ar + ai * rat) * scl;
            *i = (ai - ar * rat) * scl;
        }
    } else {
        double rat = br / bi, scl = 1.0 / (bi + br * rat);
        *r = (ar * rat + ai) * scl;
        *i = (ai * rat - ar) * scl;
    }
}

/* The float64 (complex: interleaved complex128) values of linspace. */
static void linspace_values(double a, double ai, double b, double bi, int64_t num,
                            int endpoint, int cplx, double *y, double *step)
{
    int64_t div = endpoint ? num - 1 : num, n;
    double dr = b - a, di = bi - ai, sr, si;
    if (!cplx) {
        if (div > 0) {
            sr = dr / (double)div;
            for (n = 0; n < num; n++)
                y[n] = sr == 0 ? (double)n / (double)div * dr : (double)n * sr;
        } else {
            sr = NAN;
            for (n = 0; n < num; n++)
                y[n] = (double)n * dr;
        }
        for (n = 0; n < num; n++)
            y[n] += a;
        if (endpoint && num > 1)
            y[num - 1] = b;
        step[0] = sr;
        step[1] = 0;
        return;
    }
    if (div > 0) {
        cdiv(dr, di, (double)div, 0, &sr, &si);
        for (n = 0; n < num; n++) {
            double x = (double)n, mr = sr, mi = si;
            if (sr == 0 && si == 0) {
                x = x / (double)div;
                mr = dr;
                mi = di;
            }
            y[2 * n] = x * mr - 0.0 * mi;
            y[2 * n + 1] = x * mi + 0.0 * mr;
        }
    } else {
        sr = si = NAN;
        for (n = 0; n < num; n++) {
            y[2 * n] = (double)n * dr - 0.0 * di;
            y[2 * n + 1] = (double)n * di + 0.0 * dr;
        }
    }
    for (n = 0; n < num; n++) {
        y[2 * n] += a;
        y[2 * n + 1] += ai;
    }
    if (endpoint && num > 1) {
        y[2 * num - 2] = b;
        y[2 * num - 1] = bi;
    }
    step[0] = sr;
    step[1] = si;
}

static em_status check_num(int64_t num)
{
    if (num < 0)
        return em_error(EM_ERR_INVALID_VALUE, "Number of samples, %lld, must be "
                        "non-negative.", (long long)num);
    if ((uint64_t)num > SIZE_MAX / 16)
        return em_error(EM_ERR_OUT_OF_MEMORY, "linspace: %lld samples do not fit "
                        "in host memory", (long long)num);
    return EM_OK;
}

/* ---- arange ------------------------------------------------------------ */

/* Below this many values (or on the host) arange writes them on the host
 * and uploads; above it a GPU builds them faster than a host pass plus a
 * pageable upload (311 ms for 2^26 int32 on the H200 host). */
#define ARANGE_ON_DEVICE (1 << 16)
#define ARANGE_ON_CPU (1 << 20)

/* The first n values of an arange, as em_arange's comment defines them,
 * written on the host into buf and uploaded into out[0:n]. */
static em_status arange_upload(em_array *out, em_dtype t, const void *a,
                               const void *b, int64_t n, em_stream *s)
{
    union { float f; double d; double c[2]; uint64_t u; char b; } x, y;
    char *buf = malloc((size_t)n * em_dtype_size(t));
    em_array head;
    em_slice sl = {0, n, 1};
    em_status rc;
    if (!buf)
        return em_error(EM_ERR_OUT_OF_MEMORY, "arange: %lld values",
                        (long long)n);
    memcpy(&x, a, em_dtype_size(t));
    memcpy(&y, b, em_dtype_size(t));
    if (t == EM_FLOAT32) {
        float *p = (float *)buf, step = y.f - x.f;
        for (int64_t i = 0; i < n; i++)
            p[i] = x.f + (float)i * step;
    } else if (t == EM_FLOAT64 || t == EM_COMPLEX128) {
        int parts = t == EM_FLOAT64 ? 1 : 2;
        double *p = (double *)buf;
        for (int k = 0; k < parts; k++) {
            double step = y.c[k] - x.c[k];
            for (int64_t i = 0; i < n; i++)
                p[i * parts + k] = x.c[k] + (double)i * step;
        }
    } else if (t == EM_UINT64) {
        uint64_t *p = (uint64_t *)buf, step = y.u - x.u;
        for (int64_t i = 0; i < n; i++)
            p[i] = x.u + (uint64_t)i * step;
    } else {
        buf[0] = x.b != 0;
    }
    /* element 1 is start + step itself, as NumPy's fill has it */
    if (n > 1)
        memcpy(buf + em_dtype_size(t), &y, em_dtype_size(t));
    if (t == EM_BOOL && n > 1)
        buf[1] = y.b != 0;
    rc = em_array_slice(out, &sl, &head);
    if (rc == EM_OK) {
        rc = em_array_from_host(&head, buf, NULL, s);
        em_array_release(&head);
    }
    free(buf);
    return rc;
}

static em_operand scalar_of(em_dtype t, const void *v)
{
    em_operand o;
    memset(&o, 0, sizeof o);
    o.dtype = t;
    memcpy(o.value.bytes, v, em_dtype_size(t));
    return o;
}

/* out = a <op> v, v a scalar of a's dtype (out may be a itself). */
static em_status apply_scalar(em_op op, const em_array *a, const void *v,
                              em_array *out, em_stream *s)
{
    em_operand in[2];
    memset(&in[0], 0, sizeof in[0]);
    in[0].array = a;
    in[0].dtype = a->dtype;
    in[1] = scalar_of(a->dtype, v);
    return em_ufunc_apply(op, in, 2, out, NULL, s);
}

/* r[i] = i for every i: a prefix uploaded, then r[k:2k] = r[0:k] + k. */
static em_status index_ramp(em_array *r, em_stream *s)
{
    uint64_t zero = 0, one = 1;
    int64_t n = r->size, have = n < 2 ? n : 2;
    /* a prefix as long as the upload is cheap; two under the test hook, so
     * the doubling's last, partial step runs on small ranges too */
    if (!em_knob_text(EM_KNOB_TEST_ARANGE_KERNELS))
        have = n < ARANGE_ON_DEVICE ? n : ARANGE_ON_DEVICE;
    em_status rc = arange_upload(r, EM_UINT64, &zero, &one, have, s);
    while (rc == EM_OK && have < n) {
        int64_t m = have < n - have ? have : n - have;
        em_slice src = {0, m, 1}, dst = {have, have + m, 1};
        em_array from, to;
        uint64_t k = (uint64_t)have;
        if ((rc = em_array_slice(r, &src, &from)) != EM_OK)
            break;
        if ((rc = em_array_slice(r, &dst, &to)) == EM_OK) {
            rc = apply_scalar(EM_OP_ADD, &from, &k, &to, s);
            em_array_release(&to);
        }
        em_array_release(&from);
        have += m;
    }
    return rc;
}

/* out[i] = i in out's dtype (the cast rounds as C's conversion does). */
static em_status ramp_into(em_array *out, em_stream *s)
{
    em_array r;
    em_status rc = em_array_empty(out->device, EM_UINT64, 1, &out->size, 'C',
                                  s, &r);
    if (rc != EM_OK)
        return rc;
    rc = index_ramp(&r, s);
    if (rc == EM_OK)
        rc = em_array_copy(out, &r, s);
    em_array_release(&r);
    return rc;
}

static int is_pos_zero(const void *v, size_t n)
{
    static const char zero[8];
    return memcmp(v, zero, n) == 0;
}

/* Whether n values on d are built by kernels rather than uploaded. */
static int ramp_on_device(em_device *d, int64_t n)
{
    if (em_knob_text(EM_KNOB_TEST_ARANGE_KERNELS))
        return n >= 2;
    /* on cpu the kernels run on the thread pool and write in place: 2.5x
     * faster than the host loop plus a copy for 10^7 values (2 cores) */
    return n >= (em_device_get_type(d) == EM_DEVICE_CPU ? ARANGE_ON_CPU
                                                        : ARANGE_ON_DEVICE);
}

em_status em_arange(em_device *d, em_dtype dtype, const void *start,
                    const void *next, int64_t n, em_array *out, em_stream *s)
{
    /* int64 wraps as uint64 does: computed in uint64, viewed as int64 */
    int signed64 = dtype == EM_INT64;
    em_status rc;
    if (signed64)
        dtype = EM_UINT64;
    if (dtype != EM_UINT64 && dtype != EM_FLOAT32 && dtype != EM_FLOAT64 &&
        dtype != EM_COMPLEX128 && dtype != EM_BOOL)
        return em_error(EM_ERR_TYPE, "arange: no fill in %s",
                        em_dtype_get(dtype) ? em_dtype_get(dtype)->name : "?");
    if ((rc = check_num(n)) != EM_OK)
        return rc;
    if ((rc = em_array_empty(d, dtype, 1, &n, 'C', s, out)) != EM_OK)
        return rc;
    if (!n) {
        rc = EM_OK;
    } else if (dtype == EM_COMPLEX128 || dtype == EM_BOOL ||
               !ramp_on_device(d, n)) {
        rc = arange_upload(out, dtype, start, next, n, s);
    } else if (dtype == EM_UINT64) {
        uint64_t v0, v1, step;
        memcpy(&v0, start, sizeof v0);
        memcpy(&v1, next, sizeof v1);
        step = v1 - v0;
        rc = index_ramp(out, s);
        /* arange(n) is the ramp itself: no pass multiplies by 1 or adds 0 */
        if (rc == EM_OK && step != 1)
            rc = apply_scalar(EM_OP_MULTIPLY, out, &step, out, s);
        if (rc == EM_OK && v0 != 0)
            rc = apply_scalar(EM_OP_ADD, out, &v0, out, s);
    } else {
        /* (T)i * step + start, each step rounded in T as on the host; then
         * element 1 is next itself */
        union { float f; double d; } a, b, step;
        em_slice one = {1, 2, 1};
        em_array e1;
        memcpy(&a, start, em_dtype_size(dtype));
        memcpy(&b, next, em_dtype_size(dtype));
        if (dtype == EM_FLOAT32)
            step.f = b.f - a.f;
        else
            step.d = b.d - a.d;
        rc = ramp_into(out, s);
        /* i * 1 and i + 0 (positive zero) change no value */
        if (rc == EM_OK && (dtype == EM_FLOAT32 ? step.f != 1 : step.d != 1))
            rc = apply_scalar(EM_OP_MULTIPLY, out, &step, out, s);
        if (rc == EM_OK && !is_pos_zero(&a, em_dtype_size(dtype)))
            rc = apply_scalar(EM_OP_ADD, out, &a, out, s);
        if (rc == EM_OK && (rc = em_array_slice(out, &one, &e1)) == EM_OK) {
            rc = em_array_fill(&e1, &b, dtype, s);
            em_array_release(&e1);
        }
    }
    if (rc == EM_OK && signed64) {
        em_array v;
        rc = em_array_view_dtype(out, EM_INT64, &v);
        if (rc == EM_OK) {
            em_array_release(out);
            *out = v;
            return EM_OK;
        }
    }
    if (rc != EM_OK)
        em_array_release(out);
    return rc;
}

/* A long real linspace on a GPU: linspace_values' steps, each one kernel
 * over float64 (the index ramp, then times the step, or over div times
 * the span when the step underflows to 0, plus start), the end set, then
 * floored for integers and cast: NumPy's values without an upload. */
static em_status linspace_kernels(em_device *d, double a, double b,
                                  int64_t num, int endpoint, em_dtype dtype,
                                  double *step_out, em_array *out,
                                  em_stream *s)
{
    int64_t div = endpoint ? num - 1 : num;
    double span = b - a, step = span / (double)div, divd = (double)div;
    em_slice last = {num - 1, num, 1};
    em_array y, e;
    em_status rc;
    if ((rc = em_array_empty(d, EM_FLOAT64, 1, &num, 'C', s, &y)) != EM_OK)
        return rc;
    rc = ramp_into(&y, s);
    if (rc == EM_OK && step == 0) {
        rc = apply_scalar(EM_OP_TRUE_DIVIDE, &y, &divd, &y, s);
        if (rc == EM_OK)
            rc = apply_scalar(EM_OP_MULTIPLY, &y, &span, &y, s);
    } else if (rc == EM_OK) {
        rc = apply_scalar(EM_OP_MULTIPLY, &y, &step, &y, s);
    }
    if (rc == EM_OK)
        rc = apply_scalar(EM_OP_ADD, &y, &a, &y, s);
    if (rc == EM_OK && endpoint &&
        (rc = em_array_slice(&y, &last, &e)) == EM_OK) {
        rc = em_array_fill(&e, &b, EM_FLOAT64, s);
        em_array_release(&e);
    }
    if (rc == EM_OK && is_int_dtype(dtype)) {
        em_operand in;
        memset(&in, 0, sizeof in);
        in.array = &y;
        in.dtype = EM_FLOAT64;
        rc = em_ufunc_apply(EM_OP_FLOOR, &in, 1, &y, NULL, s);
    }
    if (rc == EM_OK && step_out) {
        step_out[0] = step;
        step_out[1] = 0;
    }
    if (rc == EM_OK && dtype == EM_FLOAT64) {
        *out = y;
        return EM_OK;
    }
    if (rc == EM_OK && (rc = em_array_empty(d, dtype, 1, &num, 'C', s, out)) ==
                           EM_OK &&
        (rc = em_array_copy(out, &y, s)) != EM_OK)
        em_array_release(out);
    em_array_release(&y);
    return rc;
}

em_status em_linspace(em_device *d, double start, double start_im,
                      double stop, double stop_im, int64_t num, int endpoint,
                      em_dtype dtype, double *step_out, em_array *out,
                      em_stream *s)
{
    int cplx = em_dtype_get(dtype) && em_dtype_get(dtype)->kind == 'c';
    double step[2], *y;
    em_status rc;
    int64_t n;
    if (!em_dtype_get(dtype))
        return em_error(EM_ERR_TYPE, "linspace: invalid dtype %d", (int)dtype);
    if ((rc = check_num(num)) != EM_OK)
        return rc;
    if (!cplx && (start_im != 0 || stop_im != 0))
        return em_error(EM_ERR_TYPE, "linspace: complex start or stop for a %s "
                        "result", em_dtype_get(dtype)->name);
    if (!cplx && ramp_on_device(d, num))
        return linspace_kernels(d, start, stop, num, endpoint, dtype, step_out,
                                out, s);
    y = malloc((size_t)(num ? num : 1) * (cplx ? 16 : 8));
    if (!y)
        return em_error(EM_ERR_OUT_OF_MEMORY, "linspace: %lld samples",
                        (long long)num);
    linspace_values(start, start_im, stop, stop_im, num, endpoint, cplx, y, step);
    if (is_int_dtype(dtype))
        for (n = 0; n < num; n++)
            y[n] = floor(y[n]);
    if (step_out) {
        step_out[0] = step[0];
        step_out[1] = step[1];
    }
    rc = upload(d, y, num, cplx ? EM_COMPLEX128 : EM_FLOAT64, dtype, out, s);
    free(y);
    return rc;
}

em_status em_logspace(em_device *d, double start, double stop, int64_t num,
                      int endpoint, double base, em_dtype dtype,
                      em_array *out, em_stream *s)
{
    double step[2], *y;
    em_status rc;
    int64_t n;
    if (!em_dtype_get(dtype))
        return em_error(EM_ERR_TYPE, "logspace: invalid dtype %d", (int)dtype);
    if ((rc = check_num(num)) != EM_OK)
        return rc;
    y = malloc((size_t)(num ? num : 1) * 8);
    if (!y)
        return em_error(EM_ERR_OUT_OF_MEMORY, "logspace: %lld samples",
                        (long long)num);
    linspace_values(start, 0, stop, 0, num, endpoint, 0, y, step);
    for (n = 0; n < num; n++)
        y[n] = pow(base, y[n]);
    rc = upload(d, y, num, EM_FLOAT64, dtype, out, s);
    free(y);
    return rc;
}

em_status em_geomspace(em_device *d, double start, double stop, int64_t num,
                       int endpoint, em_dtype dtype, em_array *out,
                       em_stream *s)
{
    double step[2], *y, sign;
    em_status rc;
    int64_t n;
    if (!em_dtype_get(dtype))
        return em_error(EM_ERR_TYPE, "geomspace: invalid dtype %d", (int)dtype);
    if (start == 0 || stop == 0)
        return em_error(EM_ERR_INVALID_VALUE, "Geometric sequence cannot include zero");
    if ((rc = check_num(num)) != EM_OK)
        return rc;
    y = malloc((size_t)(num ? num : 1) * 8);
    if (!y)
        return em_error(EM_ERR_OUT_OF_MEMORY, "geomspace: %lld samples",
                        (long long)num);
    sign = start > 0 ? 1.0 : start < 0 ? -1.0 : start;   /* NaN stays NaN */
    start /= sign;
    stop /= sign;
    linspace_values(log10(start), 0, log10(stop), 0, num, endpoint, 0, y, step);
    for (n = 0; n < num; n++)
        y[n] = pow(10.0, y[n]);
    if (num > 0) {
        y[0] = start;
        if (num > 1 && endpoint)
            y[num - 1] = stop;
    }
    for (n = 0; n < num; n++)
        y[n] *= sign;
    rc = upload(d, y, num, EM_FLOAT64, dtype, out, s);
    free(y);
    return rc;
}

em_status em_eye(em_device *d, int64_t n, int64_t m, int64_t k,
                 em_dtype dtype, char order, em_array *out, em_stream *s)
{
    int64_t shape[2] = {n, m}, one = 1;
    em_stream *on = NULL;
    em_array diag;
    em_status rc;
    if (n < 0 || m < 0)
        return em_error(EM_ERR_INVALID_VALUE, "negative dimensions are not allowed");
    if ((rc = em_array_empty(d, dtype, 2, shape, order == 'F' ? 'F' : 'C', s,
                             out)) != EM_OK)
        return rc;
    if (!out->size)
        return EM_OK;
    if (!(on = em_arr_stream(d, s, "eye"))) {
        em_array_release(out);
        return EM_ERR_INVALID_VALUE;
    }
    if ((rc = em_memset_async(d, out->data, 0,
                              (size_t)out->size * em_dtype_size(dtype), on)) != EM_OK
        || (rc = em_manip_diagonal_layout(out, k, 0, 1, &diag)) != EM_OK
        || (diag.size && (rc = em_array_fill(&diag, &one, EM_INT64, s)) != EM_OK))
        em_array_release(out);
    return rc;
}

/* A (n, 1) column i + k (saturated) and a (1, m) row j, as int64 on d. */
static em_status index_vectors(em_device *d, int64_t n, int64_t m, int64_t k,
                               em_array *rows, em_array *cols, em_stream *s)
{
    int64_t *buf, i;
    em_array flat;
    em_status rc;
    buf = malloc((size_t)(n + m + 1) * sizeof(int64_t));
    if (!buf)
        return em_error(EM_ERR_OUT_OF_MEMORY, "tri: index vectors of %lld and %lld",
                        (long long)n, (long long)m);
    for (i = 0; i < n; i++)
        if (__builtin_add_overflow(i, k, &buf[i]))
            buf[i] = k > 0 ? INT64_MAX : INT64_MIN;
    for (i = 0; i < m; i++)
        buf[n + i] = i;
    rc = upload(d, buf, n + m, EM_INT64, EM_INT64, &flat, s);
    free(buf);
    if (rc != EM_OK)
        return rc;
    em_manip_part(&flat, 0, 0, n, 1, rows);
    rows->ndim = 2;
    rows->shape[0] = n;
    rows->shape[1] = 1;
    rows->strides[1] = 8;
    em_array_update_flags(rows);
    em_manip_part(&flat, 0, n, m, 1, cols);
    cols->ndim = 2;
    cols->shape[0] = 1;
    cols->shape[1] = m;
    cols->strides[1] = 8;
    cols->strides[0] = 8 * m;
    em_array_update_flags(cols);
    /* Both views keep the upload alive; flat's own reference goes. */
    {
        em_array r = *rows, c = *cols;
        em_array_retain(&r, rows);
        em_array_retain(&c, cols);
    }
    em_array_release(&flat);
    return EM_OK;
}

/* out (already made, (..., n, m)) = [j <= i + k] (upper: j >= i + k),
 * cast to out's dtype. */
static em_status mask_into(em_array *out, int64_t n, int64_t m, int64_t k, int upper,
                           em_stream *s)
{
    em_array rows, cols;
    em_operand in[2];
    em_status rc;
    if ((rc = index_vectors(out->device, n, m, k, &rows, &cols, s)) != EM_OK)
        return rc;
    memset(in, 0, sizeof in);
    in[0].array = &rows;
    in[0].dtype = EM_INT64;
    in[1].array = &cols;
    in[1].dtype = EM_INT64;
    rc = em_ufunc_apply(upper ? EM_OP_LESS_EQUAL : EM_OP_GREATER_EQUAL, in, 2, out,
                        NULL, s);
    em_array_release(&rows);
    em_array_release(&cols);
    return rc;
}

em_status em_tri(em_device *d, int64_t n, int64_t m, int64_t k,
                 em_dtype dtype, em_array *out, em_stream *s)
{
    int64_t shape[2] = {n, m};
    em_status rc;
    if (n < 0 || m < 0)
        return em_error(EM_ERR_INVALID_VALUE, "negative dimensions are not allowed");
    if ((rc = em_array_empty(d, dtype, 2, shape, 'C', s, out)) != EM_OK)
        return rc;
    if (out->size && (rc = mask_into(out, n, m, k, 0, s)) != EM_OK)
        em_array_release(out);
    return rc;
}

em_status em_tril(const em_array *a, int64_t k, int upper, em_array *out,
                  em_stream *s)
{
    int64_t n, m, shape[2];
    em_array mask;
    em_operand in;
    em_stream *on = NULL;
    em_status rc;
    if ((rc = em_arr_check(a, upper ? "triu: the array" : "tril: the array")) != EM_OK)
        return rc;
    if (a->ndim < 2)
        return em_error(EM_ERR_INVALID_VALUE, "%s: the array needs at least 2 "
                        "dimensions, not %d", upper ? "triu" : "tril", a->ndim);
    n = shape[0] = a->shape[a->ndim - 2];
    m = shape[1] = a->shape[a->ndim - 1];
    if ((rc = em_array_empty(a->device, a->dtype, a->ndim, a->shape, 'C', s,
                             out)) != EM_OK)
        return rc;
    if (!out->size)
        return EM_OK;
    if (!(on = em_arr_stream(a->device, s, "tril"))) {
        em_array_release(out);
        return EM_ERR_INVALID_VALUE;
    }
    if ((rc = em_memset_async(a->device, out->data, 0,
                              (size_t)out->size * em_dtype_size(a->dtype), on)) != EM_OK)
        goto fail;
    /* triu keeps j >= i + k, the complement of tril(k - 1). */
    if ((rc = em_array_empty(a->device, EM_BOOL, 2, shape, 'C', s, &mask)) != EM_OK)
        goto fail;
    rc = mask_into(&mask, n, m, k, upper, s);
    if (rc == EM_OK) {
        memset(&in, 0, sizeof in);
        in.array = a;
        in.dtype = a->dtype;
        rc = em_ufunc_apply(EM_OP_COPY, &in, 1, out, &mask, s);
    }
    em_array_release(&mask);
    if (rc == EM_OK)
        return EM_OK;
fail:
    em_array_release(out);
    return rc;
}
