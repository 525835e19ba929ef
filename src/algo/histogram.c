/* ember algorithms: histograms, bincount and digitize (histogram.h).
 *
 * Inputs are brought to a layout the kernels read directly (contiguous,
 * of a dtype the generator loads natively: float16 and bfloat16 become
 * float32, exactly), then one generated kernel counts with per-block
 * privatized counters: see codegen/histogram.h for the schedules.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array/array_internal.h"
#include "codegen/ewise.h"
#include "codegen/histogram.h"
#include "ember/reduce.h"

/* Host rows of private counters at most (beyond, fewer blocks). */
#define HIST_HOST_MAX_COUNTERS (1ll << 22)

static const char *dt_name(em_dtype d)
{
    const em_dtype_info *i = em_dtype_get(d);
    return i ? i->name : "?";
}

static int is_real(em_dtype d)
{
    const em_dtype_info *i = em_dtype_get(d);
    return i && i->kind_id != EM_KIND_COMPLEX;
}

/* *c: a new reference to x's elements, C-contiguous, of `want` (or, with
 * want < 0, of x's dtype when the kernels load it, else float32). */
static em_status contiguous_as(const em_array *x, int want, em_stream *on,
                               em_array *c)
{
    em_dtype dt = want >= 0                      ? (em_dtype)want
                  : em_gen_hist_native(x->dtype) ? x->dtype
                                                 : EM_FLOAT32;
    em_status st;
    if (dt == x->dtype && (x->flags & EM_ARRAY_C_CONTIGUOUS)) {
        em_array_retain(x, c);
        return EM_OK;
    }
    st = em_array_empty(x->device, dt, x->ndim, x->shape, 'C', on, c);
    if (st != EM_OK)
        return st;
    if ((st = em_array_copy(c, x, on)) != EM_OK)
        em_array_release(c);
    return st;
}

static em_status check_real(const em_array *x, const char *fn, const char *arg)
{
    em_status st = em_arr_check(x, fn);
    if (st != EM_OK)
        return st;
    if (!is_real(x->dtype))
        return em_error(EM_ERR_TYPE,
                        "%s: %s of dtype %s is not supported "
                        "(only bool, integer and real floating "
                        "dtypes)",
                        fn, arg, dt_name(x->dtype));
    return EM_OK;
}

/* Launch the counting kernel of op over c (n elements) into out (nbins
 * counters of 8 bytes, on c's device): zeroes and fills out. */
static em_status count(int op, const em_array *c, const em_array *w,
                       const double *edges, int64_t nbins, double lo, double hi,
                       double norm, em_array *out, em_stream *on)
{
    em_device *dev = c->device;
    int cuda = em_device_get_type(dev) == EM_DEVICE_CUDA;
    int64_t n = c->size;
    em_gen_hist d;
    em_function *fn[2];
    em_dim3 grid = {1, 1, 1}, block = {1, 1, 1};
    const void *xp = c->data, *wp = w ? w->data : NULL, *ep = edges;
    void *op_ = out->data;
    em_status st;

    if (n == 0)
        return em_memset_async(dev, out->data, 0, (size_t)nbins * 8, on);
    memset(&d, 0, sizeof d);
    d.op = (uint8_t)op;
    d.xdt = (uint8_t)c->dtype;
    d.weighted = w != NULL;
    d.shared = cuda && nbins <= EM_HIST_SHARED_BINS;
    if ((st = em_gen_hist_functions(dev, &d, fn)) != EM_OK)
        return st;
    if (cuda) {
        int64_t tiles = (n + EM_GEN_HIST_BLOCK - 1) / EM_GEN_HIST_BLOCK,
                cap = (int64_t)em_gen_device_units(dev) * 16,
                least = n / (1ll << 30) + 1, nb;
        size_t shmem = d.shared ? (size_t)nbins * (w ? 8 : 4) : 0;
        int64_t chunk = 0;
        void *args[] = {&xp,    &wp, &n,  &chunk, &ep,
                        &nbins, &lo, &hi, &norm,  &op_};
        nb = tiles < cap ? tiles : cap;
        if (nb < least) /* a block's 32-bit shared counters never wrap */
            nb = least;
        grid.x = (unsigned)nb;
        block.x = EM_GEN_HIST_BLOCK;
        st = em_memset_async(dev, out->data, 0, (size_t)nbins * 8, on);
        if (st == EM_OK)
            st = em_launch(fn[0], grid, block, shmem, on, args);
        return st;
    }
    {
        int64_t units = em_gen_device_units(dev), chunk, nb, rows_max;
        em_array rows;
        void *rp;
        chunk = (n + units * 4 - 1) / (units * 4);
        if (chunk < 65536)
            chunk = 65536;
        nb = (n + chunk - 1) / chunk;
        rows_max = HIST_HOST_MAX_COUNTERS / nbins;
        if (rows_max < 1)
            rows_max = 1;
        if (nb > rows_max) {
            nb = rows_max;
            chunk = (n + nb - 1) / nb;
        }
        grid.x = (unsigned)nb;
        if (nb == 1) {
            void *args[] = {&xp,    &wp, &n,  &chunk, &ep,
                            &nbins, &lo, &hi, &norm,  &op_};
            return em_launch(fn[0], grid, block, 0, on, args);
        }
        {
            int64_t total = nb * nbins;
            st = em_array_empty(dev, out->dtype, 1, &total, 'C', on, &rows);
            if (st != EM_OK)
                return st;
        }
        rp = rows.data;
        {
            void *args[] = {&xp,    &wp, &n,  &chunk, &ep,
                            &nbins, &lo, &hi, &norm,  &rp};
            st = em_launch(fn[0], grid, block, 0, on, args);
        }
        if (st == EM_OK) {
            int64_t bchunk = (nbins + units - 1) / units;
            void *args[] = {&rp, &nb, &nbins, &bchunk, &op_};
            if (bchunk < 1024)
                bchunk = 1024;
            grid.x = (unsigned)((nbins + bchunk - 1) / bchunk);
            st = em_launch(fn[1], grid, block, 0, on, args);
        }
        em_array_release(&rows);
        return st;
    }
}

em_status em_histogram_even(const em_array *x, int64_t bins, double lower,
                            double upper, em_array *out, em_stream *s)
{
    em_stream *on = NULL;
    em_array c;
    em_status st;
    if (!x || !out)
        return em_error(EM_ERR_INVALID_VALUE, "histogram_even: NULL argument");
    if ((st = check_real(x, "histogram_even", "x")) != EM_OK)
        return st;
    if (bins < 1)
        return em_error(EM_ERR_INVALID_VALUE,
                        "histogram_even: bins must be at least 1, not %lld",
                        (long long)bins);
    if (!isfinite(lower) || !isfinite(upper) || !(lower < upper))
        return em_error(EM_ERR_INVALID_VALUE,
                        "histogram_even: need finite lower < upper, got "
                        "[%g, %g)",
                        lower, upper);
    if (!(on = em_arr_stream(x->device, s, "histogram_even")))
        return EM_ERR_INVALID_VALUE;
    if ((st = contiguous_as(x, -1, on, &c)) != EM_OK)
        return st;
    st = em_array_empty(x->device, EM_INT64, 1, &bins, 'C', on, out);
    if (st == EM_OK) {
        st = count(EM_GEN_HIST_EVEN, &c, NULL, NULL, bins, lower, upper,
                   (double)bins / (upper - lower), out, on);
        if (st != EM_OK)
            em_array_release(out);
    }
    em_array_release(&c);
    return st;
}

/* One element of a 0-d or 1-d array's host copy as double. */
static double host_to_double(const void *p, em_dtype dt)
{
    switch (dt) {
    case EM_BOOL:
    case EM_UINT8:
        return *(const unsigned char *)p;
    case EM_INT8:
        return *(const signed char *)p;
    case EM_INT16:
        return *(const short *)p;
    case EM_INT32:
        return *(const int *)p;
    case EM_INT64:
        return (double)*(const long long *)p;
    case EM_UINT16:
        return *(const unsigned short *)p;
    case EM_UINT32:
        return *(const unsigned int *)p;
    case EM_UINT64:
        return (double)*(const unsigned long long *)p;
    case EM_FLOAT32:
        return *(const float *)p;
    case EM_FLOAT64:
        return *(const double *)p;
    default:
        return NAN;
    }
}

static int64_t host_to_i64(const void *p, em_dtype dt)
{
    switch (dt) {
    case EM_BOOL:
    case EM_UINT8:
        return *(const unsigned char *)p;
    case EM_INT8:
        return *(const signed char *)p;
    case EM_INT16:
        return *(const short *)p;
    case EM_INT32:
        return *(const int *)p;
    case EM_INT64:
        return *(const long long *)p;
    case EM_UINT16:
        return *(const unsigned short *)p;
    case EM_UINT32:
        return *(const unsigned int *)p;
    default: /* uint64 is refused before */
        return (int64_t) * (const unsigned long long *)p;
    }
}

/* Minimum (op MIN) or maximum of c, read back as 8 host bytes. */
static em_status extreme(const em_array *c, em_reduce_op op, em_stream *on,
                         unsigned char host[8])
{
    em_reduce_args ra;
    em_array r;
    em_status st;
    memset(&ra, 0, sizeof ra);
    memset(&r, 0, sizeof r); /* no storage: a new result */
    if ((st = em_reduce(op, c, &ra, &r, on)) != EM_OK)
        return st;
    memset(host, 0, 8);
    st = em_array_to_host(&r, host, NULL, on);
    em_array_release(&r);
    return st;
}

/* v rounded to the nearest value of float type t (ties to even), as
 * an operation computed in t would give: products and sums of two such
 * values are exact in double, so rounding the double result once more
 * is the correctly rounded result in t. */
static double round_to(double v, em_dtype t)
{
    int bits, emin, e;
    double m;
    if (t == EM_FLOAT32)
        return (double)(float)v;
    if (t == EM_FLOAT16) {
        bits = 11;
        emin = -14;
    } else if (t == EM_BFLOAT16) {
        bits = 8;
        emin = -126;
    } else {
        return v;
    }
    if (v == 0 || !isfinite(v))
        return v;
    m = frexp(v, &e); /* v = m * 2^e, 0.5 <= |m| < 1 */
    (void)m;
    if (e - 1 < emin) /* subnormal: fewer significant bits */
        bits -= emin - (e - 1);
    v = ldexp(nearbyint(ldexp(v, bits - e)), e - bits);
    if (t == EM_FLOAT16 && fabs(v) > 65504.0)
        v = v > 0 ? INFINITY : -INFINITY;
    return v;
}

/* A 1-d float64 device array of n values from host memory. */
static em_status upload_f64(em_device *dev, const double *v, int64_t n,
                            em_stream *on, em_array *out)
{
    em_status st = em_array_empty(dev, EM_FLOAT64, 1, &n, 'C', on, out);
    if (st != EM_OK)
        return st;
    if ((st = em_array_from_host(out, v, NULL, on)) != EM_OK)
        em_array_release(out);
    return st;
}

em_status em_histogram_bin_edges(const em_array *x, int64_t bins, int has_range,
                                 double lo, double hi, em_array *out,
                                 double ends[2], em_stream *s)
{
    em_stream *on = NULL;
    em_dtype bt, at;
    double *v;
    em_array e64;
    em_status st;
    if (!x || !out)
        return em_error(EM_ERR_INVALID_VALUE, "histogram: NULL argument");
    if ((st = check_real(x, "histogram", "a")) != EM_OK)
        return st;
    if (bins < 1)
        return em_error(EM_ERR_INVALID_VALUE,
                        "`bins` must be positive, when an integer");
    if (!(on = em_arr_stream(x->device, s, "histogram")))
        return EM_ERR_INVALID_VALUE;
    bt = em_dtype_get(x->dtype)->kind_id == EM_KIND_FLOAT ? x->dtype
                                                          : EM_FLOAT64;
    /* NumPy's linspace computes in the type of its ends: a's own (float)
     * type when they come from a.min() and a.max(), float64 for a given
     * range or integer data. */
    at = has_range || x->size == 0 ? EM_FLOAT64 : bt;
    if (has_range) {
        if (lo > hi)
            return em_error(EM_ERR_INVALID_VALUE,
                            "max must be larger than min in range parameter.");
        if (!isfinite(lo) || !isfinite(hi))
            return em_error(EM_ERR_INVALID_VALUE,
                            "supplied range of [%g, %g] is not finite", lo, hi);
    } else if (x->size == 0) {
        lo = 0;
        hi = 1;
    } else {
        em_array c;
        unsigned char a[8], b[8];
        if ((st = contiguous_as(x, -1, on, &c)) != EM_OK)
            return st;
        st = extreme(&c, EM_RED_MIN, on, a);
        if (st == EM_OK)
            st = extreme(&c, EM_RED_MAX, on, b);
        if (st == EM_OK) {
            lo = host_to_double(a, c.dtype);
            hi = host_to_double(b, c.dtype);
        }
        em_array_release(&c);
        if (st != EM_OK)
            return st;
        if (!isfinite(lo) || !isfinite(hi))
            return em_error(EM_ERR_INVALID_VALUE,
                            "autodetected range of [%g, %g] is not finite", lo,
                            hi);
    }
    if (lo == hi) {
        lo = round_to(lo - 0.5, at);
        hi = round_to(hi + 0.5, at);
    }
    if (!(v = malloc((size_t)(bins + 1) * sizeof *v)))
        return em_error(EM_ERR_OUT_OF_MEMORY, "histogram: %lld bin edges",
                        (long long)bins + 1);
    /* NumPy's linspace, each operation rounded to the arithmetic type:
     * i * step + start, then the exact stop. */
    {
        double delta = round_to(hi - lo, at),
               step = round_to(delta / (double)bins, at);
        for (int64_t i = 0; i <= bins; i++) {
            double fi = round_to((double)i, at);
            v[i] =
                step == 0
                    ? round_to(round_to(round_to(fi / (double)bins, at) * delta,
                                        at) +
                                   lo,
                               at)
                    : round_to(round_to(fi * step, at) + lo, at);
        }
        v[bins] = hi;
    }
    /* NumPy refuses edges that collapse in the bin dtype */
    for (int64_t i = 0; i < bins; i++)
        if (!(round_to(v[i], bt) < round_to(v[i + 1], bt))) {
            free(v);
            return em_error(EM_ERR_INVALID_VALUE,
                            "Too many bins for data range. Cannot create %lld "
                            "finite-sized bins.",
                            (long long)bins);
        }
    if (ends) { /* as the device will hold them, in the bin dtype */
        ends[0] = round_to(v[0], bt);
        ends[1] = round_to(v[bins], bt);
    }
    {
        int64_t ne = bins + 1;
        st = upload_f64(x->device, v, ne, on, &e64);
        free(v);
        if (st != EM_OK)
            return st;
        if (bt == EM_FLOAT64) {
            *out = e64;
            return EM_OK;
        }
        st = em_array_empty(x->device, bt, 1, &ne, 'C', on, out);
        if (st == EM_OK && (st = em_array_copy(out, &e64, on)) != EM_OK)
            em_array_release(out);
        em_array_release(&e64);
    }
    return st;
}

/* ends: NULL, or the uniform edges' first and last value known to the
 * caller (no host read then). */
static em_status by_edges(const em_array *x, const em_array *weights,
                          const em_array *edges, int uniform,
                          const double *ends, em_array *out, em_stream *s)
{
    em_stream *on = NULL;
    em_array c, w, e;
    int64_t nbins;
    double lo = 0, norm = 0;
    em_status st;
    if (!x || !edges || !out)
        return em_error(EM_ERR_INVALID_VALUE, "histogram: NULL argument");
    if ((st = check_real(x, "histogram", "a")) != EM_OK ||
        (st = check_real(edges, "histogram", "bins")) != EM_OK ||
        (weights &&
         (st = check_real(weights, "histogram", "weights")) != EM_OK))
        return st;
    if (edges->ndim != 1 || edges->size < 1)
        return em_error(EM_ERR_INVALID_VALUE,
                        "`bins` must be 1d, with at least 1 edge");
    if (edges->device != x->device || (weights && weights->device != x->device))
        return em_error(EM_ERR_INVALID_VALUE,
                        "histogram: a, bins and weights must be on one "
                        "device");
    if (weights && (weights->ndim != x->ndim ||
                    memcmp(weights->shape, x->shape,
                           (size_t)x->ndim * sizeof *x->shape))) {
        char b1[128], b2[128];
        return em_error(
            EM_ERR_INVALID_VALUE,
            "weights should have the same shape as a: %s vs %s",
            em_shape_format(weights->ndim, weights->shape, b1, sizeof b1),
            em_shape_format(x->ndim, x->shape, b2, sizeof b2));
    }
    if (!(on = em_arr_stream(x->device, s, "histogram")))
        return EM_ERR_INVALID_VALUE;
    nbins = edges->size - 1;
    if (nbins == 0) /* one edge: no bins, as NumPy */
        return em_array_empty(x->device, weights ? EM_FLOAT64 : EM_INT64, 1,
                              &nbins, 'C', on, out);
    if ((st = contiguous_as(edges, EM_FLOAT64, on, &e)) != EM_OK)
        return st;
    if (uniform && ends) {
        lo = ends[0];
        norm = (double)nbins / (ends[1] - ends[0]);
        if (!isfinite(norm))
            uniform = 0;
    } else {
        /* NumPy's monotonicity check and the uniform kernel's constants,
         * on a host copy (edges are few next to the data). */
        double *hv = malloc((size_t)(nbins + 1) * sizeof *hv);
        if (!hv)
            st = em_error(EM_ERR_OUT_OF_MEMORY, "histogram: %lld edges",
                          (long long)nbins + 1);
        if (st == EM_OK)
            st = em_array_to_host(&e, hv, NULL, on);
        for (int64_t i = 0; st == EM_OK && i < nbins; i++)
            if (hv[i] > hv[i + 1])
                st = em_error(EM_ERR_INVALID_VALUE,
                              "`bins` must increase monotonically, when an "
                              "array (edge %lld is %g, edge %lld is %g)",
                              (long long)i, hv[i], (long long)i + 1, hv[i + 1]);
        if (st == EM_OK && uniform) {
            lo = hv[0];
            norm = (double)nbins / (hv[nbins] - hv[0]);
            if (!isfinite(norm))
                uniform = 0;
        }
        free(hv);
    }
    memset(&w, 0, sizeof w);
    if (st == EM_OK)
        st = contiguous_as(x, -1, on, &c);
    if (st == EM_OK && weights &&
        (st = contiguous_as(weights, EM_FLOAT64, on, &w)) != EM_OK)
        em_array_release(&c);
    if (st != EM_OK) {
        em_array_release(&e);
        return st;
    }
    st = em_array_empty(x->device, weights ? EM_FLOAT64 : EM_INT64, 1, &nbins,
                        'C', on, out);
    if (st == EM_OK) {
        st = count(uniform ? EM_GEN_HIST_UNIFORM : EM_GEN_HIST_EDGES, &c,
                   weights ? &w : NULL, (const double *)e.data, nbins, lo, 0,
                   norm, out, on);
        if (st != EM_OK)
            em_array_release(out);
    }
    em_array_release(&c);
    if (weights)
        em_array_release(&w);
    em_array_release(&e);
    return st;
}

em_status em_histogram_edges(const em_array *x, const em_array *weights,
                             const em_array *edges, int uniform, em_array *out,
                             em_stream *s)
{
    return by_edges(x, weights, edges, uniform, NULL, out, s);
}

em_status em_histogram_uniform(const em_array *x, const em_array *weights,
                               const em_array *edges, const double ends[2],
                               em_array *out, em_stream *s)
{
    if (!ends)
        return em_error(EM_ERR_INVALID_VALUE, "histogram: NULL ends");
    return by_edges(x, weights, edges, 1, ends, out, s);
}

em_status em_bincount(const em_array *x, const em_array *weights,
                      int64_t minlength, em_array *out, em_stream *s)
{
    em_stream *on = NULL;
    em_array c, w;
    int64_t len = minlength;
    em_dtype_kind k;
    em_status st;
    if (!x || !out)
        return em_error(EM_ERR_INVALID_VALUE, "bincount: NULL argument");
    if ((st = em_arr_check(x, "bincount")) != EM_OK)
        return st;
    k = em_dtype_get(x->dtype)->kind_id;
    if ((k != EM_KIND_BOOL && k != EM_KIND_INT && k != EM_KIND_UINT) ||
        x->dtype == EM_UINT64)
        return em_error(EM_ERR_TYPE,
                        "bincount: cannot cast array data from dtype('%s') "
                        "to dtype('int64') according to the rule 'safe'",
                        dt_name(x->dtype));
    if (x->ndim != 1)
        return em_error(EM_ERR_INVALID_VALUE,
                        "bincount: x must be 1-dimensional, not %d-"
                        "dimensional",
                        x->ndim);
    if (minlength < 0)
        return em_error(EM_ERR_INVALID_VALUE,
                        "'minlength' must not be negative");
    if (weights) {
        if ((st = check_real(weights, "bincount", "weights")) != EM_OK)
            return st;
        if (weights->ndim != 1 || weights->size != x->size)
            return em_error(
                EM_ERR_INVALID_VALUE,
                "The weights and list don't have the same "
                "length (%lld and %lld).",
                (long long)(weights->ndim == 1 ? weights->size : -1),
                (long long)x->size);
        if (weights->device != x->device)
            return em_error(EM_ERR_INVALID_VALUE,
                            "bincount: x and weights must be on one device");
    }
    if (!(on = em_arr_stream(x->device, s, "bincount")))
        return EM_ERR_INVALID_VALUE;
    if ((st = contiguous_as(x, -1, on, &c)) != EM_OK)
        return st;
    if (x->size > 0) {
        unsigned char a[8], b[8];
        st = extreme(&c, EM_RED_MIN, on, a);
        if (st == EM_OK)
            st = extreme(&c, EM_RED_MAX, on, b);
        if (st == EM_OK && host_to_i64(a, c.dtype) < 0)
            st = em_error(EM_ERR_INVALID_VALUE,
                          "'list' argument must have no negative elements "
                          "(bincount found %lld)",
                          (long long)host_to_i64(a, c.dtype));
        if (st == EM_OK && host_to_i64(b, c.dtype) + 1 > len)
            len = host_to_i64(b, c.dtype) + 1;
    }
    memset(&w, 0, sizeof w);
    if (st == EM_OK && weights)
        st = contiguous_as(weights, EM_FLOAT64, on, &w);
    if (st == EM_OK) {
        /* NumPy gives int64 zeros for an empty x, weights or not */
        st = em_array_empty(x->device,
                            weights && x->size > 0 ? EM_FLOAT64 : EM_INT64, 1,
                            &len, 'C', on, out);
        if (st == EM_OK && x->size == 0 && len > 0)
            st = em_memset_async(x->device, out->data, 0, (size_t)len * 8, on);
        else if (st == EM_OK && len > 0) {
            st = count(EM_GEN_HIST_BINCOUNT, &c, weights ? &w : NULL, NULL, len,
                       0, 0, 0, out, on);
            if (st != EM_OK)
                em_array_release(out);
        }
    }
    if (weights)
        em_array_release(&w);
    em_array_release(&c);
    return st;
}

em_status em_digitize(const em_array *x, const em_array *bins, int right,
                      em_array *out, em_stream *s)
{
    em_stream *on = NULL;
    em_array c, b;
    double *hb = NULL;
    int inc = 1, dec = 1;
    int64_t nb;
    em_status st;
    if (!x || !bins || !out)
        return em_error(EM_ERR_INVALID_VALUE, "digitize: NULL argument");
    if ((st = check_real(x, "digitize", "x")) != EM_OK ||
        (st = check_real(bins, "digitize", "bins")) != EM_OK)
        return st;
    if (bins->ndim != 1)
        return em_error(EM_ERR_INVALID_VALUE, "object too deep for desired "
                                              "array: digitize needs 1-d "
                                              "bins");
    if (bins->device != x->device)
        return em_error(EM_ERR_INVALID_VALUE,
                        "digitize: x and bins must be on one device");
    if (!(on = em_arr_stream(x->device, s, "digitize")))
        return EM_ERR_INVALID_VALUE;
    nb = bins->size;
    if ((st = contiguous_as(bins, EM_FLOAT64, on, &b)) != EM_OK)
        return st;
    /* NumPy's monotonicity check, on a host copy (bins are few). */
    if (nb > 0 && !(hb = malloc((size_t)nb * sizeof *hb)))
        st = em_error(EM_ERR_OUT_OF_MEMORY, "digitize: %lld bins",
                      (long long)nb);
    if (st == EM_OK && nb > 0)
        st = em_array_to_host(&b, hb, NULL, on);
    for (int64_t i = 1; st == EM_OK && i < nb; i++) {
        /* NaN compares as NumPy's sort order: after everything */
        int ge = hb[i] >= hb[i - 1] || isnan(hb[i]),
            le = hb[i] <= hb[i - 1] || isnan(hb[i - 1]);
        inc &= ge;
        dec &= le;
    }
    free(hb);
    if (st == EM_OK && !inc && !dec)
        st = em_error(EM_ERR_INVALID_VALUE,
                      "bins must be monotonically increasing or decreasing");
    if (st == EM_OK)
        st = contiguous_as(x, -1, on, &c);
    if (st != EM_OK) {
        em_array_release(&b);
        return st;
    }
    st = em_array_empty(x->device, EM_INT64, x->ndim, x->shape, 'C', on, out);
    if (st == EM_OK && x->size > 0) {
        em_gen_hist d;
        em_function *fn[2];
        em_device *dev = x->device;
        int64_t n = x->size, chunk;
        em_dim3 grid = {1, 1, 1}, block = {1, 1, 1};
        const void *xp = c.data, *bp = b.data;
        void *op = out->data;
        void *args[] = {&xp, &n, &chunk, &bp, &nb, &op};
        memset(&d, 0, sizeof d);
        d.op = EM_GEN_HIST_DIGITIZE;
        d.xdt = (uint8_t)c.dtype;
        /* all-equal bins are increasing for NumPy */
        d.flags = (uint8_t)((right ? EM_GEN_HIST_RIGHT : 0) |
                            (!inc ? EM_GEN_HIST_DECREASING : 0));
        st = em_gen_hist_functions(dev, &d, fn);
        if (st == EM_OK) {
            if (em_device_get_type(dev) == EM_DEVICE_CUDA) {
                int64_t tiles = (n + EM_GEN_HIST_BLOCK - 1) / EM_GEN_HIST_BLOCK,
                        cap = (int64_t)em_gen_device_units(dev) * 32;
                chunk = 0;
                grid.x = (unsigned)(tiles < cap ? tiles : cap);
                block.x = EM_GEN_HIST_BLOCK;
            } else {
                int64_t units = em_gen_device_units(dev);
                chunk = (n + units * 4 - 1) / (units * 4);
                if (chunk < 16384)
                    chunk = 16384;
                grid.x = (unsigned)((n + chunk - 1) / chunk);
            }
            st = em_launch(fn[0], grid, block, 0, on, args);
        }
        if (st != EM_OK)
            em_array_release(out);
    }
    em_array_release(&c);
    em_array_release(&b);
    return st;
}

em_status em_histogram_density(const em_array *hist, const em_array *edges,
                               em_array *out, em_stream *s)
{
    em_stream *on = NULL;
    em_array h, e;
    double *hv = NULL, *ev = NULL, sum = 0;
    int64_t nb;
    em_status st;
    if (!hist || !edges || !out)
        return em_error(EM_ERR_INVALID_VALUE, "histogram: NULL argument");
    if (hist->ndim != 1 || edges->ndim != 1 || edges->size != hist->size + 1)
        return em_error(EM_ERR_INVALID_VALUE,
                        "histogram density: %lld counts need %lld edges",
                        (long long)hist->size, (long long)hist->size + 1);
    if (!(on = em_arr_stream(hist->device, s, "histogram")))
        return EM_ERR_INVALID_VALUE;
    nb = hist->size;
    if ((st = contiguous_as(hist, EM_FLOAT64, on, &h)) != EM_OK)
        return st;
    if ((st = contiguous_as(edges, EM_FLOAT64, on, &e)) != EM_OK) {
        em_array_release(&h);
        return st;
    }
    hv = malloc((size_t)nb * sizeof *hv + 8);
    ev = malloc((size_t)(nb + 1) * sizeof *ev);
    if (!hv || !ev)
        st = em_error(EM_ERR_OUT_OF_MEMORY, "histogram density: %lld bins",
                      (long long)nb);
    if (st == EM_OK)
        st = em_array_to_host(&h, hv, NULL, on);
    if (st == EM_OK)
        st = em_array_to_host(&e, ev, NULL, on);
    if (st == EM_OK) {
        for (int64_t i = 0; i < nb; i++)
            sum += hv[i];
        /* NumPy's order: n / db / n.sum() */
        for (int64_t i = 0; i < nb; i++)
            hv[i] = hv[i] / (ev[i + 1] - ev[i]) / sum;
        st = upload_f64(hist->device, hv, nb, on, out);
    }
    free(hv);
    free(ev);
    em_array_release(&h);
    em_array_release(&e);
    return st;
}
