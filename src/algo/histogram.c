/* ember algorithms: histograms, bincount and digitize (histogram.h).
 *
 * Inputs are brought to a layout the kernels read directly (contiguous,
 * of a dtype the generator loads natively: float16 and bfloat16 become
 * float32, exactly), then one generated kernel counts with per-block
 * privatized counters: see codegen/histogram.h for the schedules.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo/hist_internal.h"
#include "array/array_internal.h"
#include "codegen/ewise.h"
#include "codegen/histogram.h"
#include "ember/util.h"
#include "runtime/pinslot.h"

const char *em_hist_dt_name(em_dtype d)
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
em_status em_hist_contiguous(const em_array *x, int want, em_stream *on,
                             em_array *c)
{
    em_dtype dt = want >= 0                      ? (em_dtype)want
                  : em_gen_hist_native(x->dtype) ? x->dtype
                                                 : EM_FLOAT32;
    em_status st;
    /* aligned too: the kernels load whole (vectors of) elements */
    if (dt == x->dtype && (x->flags & EM_ARRAY_C_CONTIGUOUS) &&
        (x->flags & EM_ARRAY_ALIGNED)) {
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

em_status em_hist_check_real(const em_array *x, const char *fn, const char *arg)
{
    em_status st = em_arr_check(x, fn);
    if (st != EM_OK)
        return st;
    if (!is_real(x->dtype))
        return em_error(EM_ERR_TYPE,
                        "%s: %s of dtype %s is not supported "
                        "(only bool, integer and real floating "
                        "dtypes)",
                        fn, arg, em_hist_dt_name(x->dtype));
    return EM_OK;
}

/* The bins a CUDA block keeps in shared memory (with or without
 * weights). */
int64_t em_hist_shared_cap(int weighted)
{
    /* $EMBER_HIST_SHARED_KB (4 to 200) overrides the bytes per block, for
     * tuning on another GPU (bench/hist_tune.py); read once */
    int64_t b = (int64_t)em_knob_int(EM_KNOB_HIST_SHARED_KB,
                                     EM_GEN_HIST_SHARED_BYTES / 1024) * 1024;
    return b / (weighted ? 8 : 4);
}

/* bincount's counters: a pin slot's number picks a part of the scratch */
_Static_assert(EM_PIN_SLOT_BYTES * EM_PIN_SLOTS <= EM_DEVICE_SCRATCH_BYTES,
               "a scratch part per slot");

/* Wait for bincount's kernel to set pin[2] (see codegen/histogram.h),
 * then copy the extremes it left in pin[0..1] to mm. The flag comes
 * before the kernel adds up its blocks' counts, so the host builds the
 * result while the kernel ends, where a stream synchronisation waited
 * for the end and its report (microseconds a call; bench/README.md,
 * 'histogram'). Every few
 * thousand looks the stream is asked whether it is idle, so a kernel
 * that failed, and never set the flag, ends the wait with the stream's
 * error. */
static em_status await_extremes(volatile int64_t *pin, int64_t mm[2],
                                em_stream *on)
{
    em_status st = EM_OK;
    for (unsigned i = 1;
         !__atomic_load_n((int64_t *)&pin[2], __ATOMIC_ACQUIRE); i++) {
        int idle = 0;
        if (i % 4096)
            continue;
        if ((st = em_stream_query(on, &idle)) != EM_OK)
            return st;
        if (idle) {
            if (!__atomic_load_n((int64_t *)&pin[2], __ATOMIC_ACQUIRE))
                return em_error(EM_ERR_INTERNAL,
                                "bincount: the kernel ended without "
                                "reporting its extremes");
            break;
        }
    }
    mm[0] = pin[0];
    mm[1] = pin[1];
    return st;
}

/* CUDA blocks per SM for a count into nbins bins. Fewer blocks would
 * mean fewer global atomics when the blocks add their shared bins to the
 * output, but on the H100 four blocks of 512 were as fast or faster for
 * 256 to 8192 bins (bench/hist_tune.py; bench/README.md, 'histogram').
 * $EMBER_HIST_BLOCKS_PER_SM (1 to EM_GEN_HIST_BLOCKS_PER_SM)
 * overrides, for tuning on another GPU; read once. */
_Static_assert(EM_GEN_HIST_BLOCKS_PER_SM == 4,
               "EMBER_HIST_BLOCKS_PER_SM's range in core/knob.c");

int64_t em_hist_blocks_per_sm(em_device *dev, size_t shmem, int dflt)
{
    int e = em_knob_int(EM_KNOB_HIST_BLOCKS_PER_SM, dflt), fit;
    /* never more blocks than an SM holds at once: a grid-stride block
     * that must wait for another to finish doubles the time (1 KiB of
     * each block's shared memory is the driver's) */
    fit = (int)((size_t)em_gen_device_shared(dev, 0) / (shmem + 1024));
    return fit < 1 ? 1 : fit < e ? fit : e;
}

/* Launch the counting kernel of op over c (n elements) into outp: nbins
 * counters of 8 bytes, zeroed here. bincount: mm, the two int64 extremes
 * the kernel reduces and its counters, is outp + nbins (zeroed with it);
 * or with mmh (cuda, nbins within shared memory) a part of the device's
 * scratch, which the kernel leaves at zero, and the kernel zeroes outp
 * itself and reports in mmh (see codegen/histogram.h): no memset. Stream
 * ordered: no host synchronisation. */
static em_status count(int op, int flags, const em_array *c, const em_array *w,
                       const void *edges, int64_t nbins, double lo, double hi,
                       double norm, double eps, void *mm, void *outp,
                       void *mmh, em_stream *on)
{
    em_device *dev = c->device;
    int cuda = em_device_get_type(dev) == EM_DEVICE_CUDA;
    int64_t n = c->size;
    size_t extra = mm && !mmh ? 24 : 0;
    em_gen_hist d;
    em_function *fn[2];
    em_dim3 grid = {1, 1, 1}, block = {1, 1, 1};
    const void *xp = c->data, *wp = w ? w->data : NULL, *ep = edges;
    void *op_ = outp;
    int64_t sbins = 0, cshift = 0, chunk = 0;
    void *args[] = {&xp,     &wp,     &n,   &chunk, &ep,  &nbins,
                    &lo,     &hi,     &norm, &eps,  &sbins, &cshift,
                    &op_,    &mm,     &mmh};
    em_status st;

    if (n == 0) {
        if (mmh) { /* the extremes of nothing; done; scratch untouched */
            memset(mmh, 0, 16);
            __atomic_store_n((int64_t *)mmh + 2, 1, __ATOMIC_RELEASE);
            __atomic_store_n((int64_t *)mmh + 7, 1, __ATOMIC_RELEASE);
        }
        return em_memset_async(dev, outp, 0, (size_t)nbins * 8 + extra, on);
    }
    memset(&d, 0, sizeof d);
    d.op = (uint8_t)op;
    d.flags = (uint8_t)flags;
    d.xdt = (uint8_t)c->dtype;
    d.weighted = w != NULL;
    d.idx32 = nbins < (1ll << 31) - 1;
    if ((st = em_gen_hist_functions(dev, &d, fn)) != EM_OK)
        return st;
    if (cuda) {
        int64_t vec = w ? 1 : 16 / (int64_t)em_dtype_size(c->dtype),
                per = (int64_t)EM_GEN_HIST_BLOCK * vec * 2,
                tiles = (n + per - 1) / per,
                scap = em_hist_shared_cap(w != NULL);
        size_t shmem;
        sbins = nbins < scap ? nbins : scap;
        /* copies of each bin while they fit: fewer lanes share a bank */
        while (cshift < 5 && (sbins << (cshift + 1)) <= scap)
            cshift++;
        shmem = (size_t)(sbins << cshift) * (w ? 8 : 4);
        /* bincount: 2 blocks per SM, the fastest of 1, 2 and 4. Each
         * block adds its nonzero counts to the output with global
         * atomics, all at the end (bench/README.md, 'histogram'). */
        grid.x = (unsigned)em_hist_cuda_blocks(
            dev, n, tiles, shmem,
            op == EM_GEN_HIST_BINCOUNT ? 2 : EM_GEN_HIST_BLOCKS_PER_SM);
        block.x = EM_GEN_HIST_BLOCK;
        st = mmh ? EM_OK
                 : em_memset_async(dev, outp, 0, (size_t)nbins * 8 + extra,
                                   on);
        if (st == EM_OK)
            st = em_launch(fn[0], grid, block, shmem, on, args);
        return st;
    }
    if (extra && (st = em_memset_async(dev, mm, 0, extra, on)) != EM_OK)
        return st;
    return em_hist_host_count(dev, fn, args, 12, n, nbins, &chunk, on);
}

em_status em_histogram_even(const em_array *x, int64_t bins, double lower,
                            double upper, em_array *out, em_stream *s)
{
    em_stream *on = NULL;
    em_array c;
    em_status st;
    if (!x || !out)
        return em_error(EM_ERR_INVALID_VALUE, "histogram_even: NULL argument");
    if ((st = em_hist_check_real(x, "histogram_even", "x")) != EM_OK)
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
    if ((st = em_hist_contiguous(x, -1, on, &c)) != EM_OK)
        return st;
    st = em_array_empty(x->device, EM_INT64, 1, &bins, 'C', on, out);
    if (st == EM_OK) {
        st = count(EM_GEN_HIST_EVEN, 0, &c, NULL, NULL, bins, lower, upper,
                   (double)bins / (upper - lower), 0, NULL, out->data, NULL,
                   on);
        if (st != EM_OK)
            em_array_release(out);
    }
    em_array_release(&c);
    return st;
}

/* The minimum and maximum of c (n > 0) as doubles, both NaN when c
 * holds a NaN (as NumPy's a.min() and a.max()): one pass, one small
 * read. */
em_status em_hist_data_range(const em_array *c, em_stream *on, double *lo,
                             double *hi)
{
    em_device *dev = c->device;
    em_gen_hist d;
    em_function *fn[2];
    em_dim3 grid = {1, 1, 1}, block = {1, 1, 1};
    int64_t n = c->size, chunk = 0, three = 3;
    uint64_t mm[3];
    const void *xp = c->data;
    void *mp;
    em_array buf;
    em_status st;
    memset(&d, 0, sizeof d);
    d.op = EM_GEN_HIST_MINMAX;
    d.xdt = (uint8_t)c->dtype;
    if ((st = em_gen_hist_functions(dev, &d, fn)) != EM_OK)
        return st;
    if ((st = em_array_empty(dev, EM_UINT64, 1, &three, 'C', on, &buf)) !=
        EM_OK)
        return st;
    mp = buf.data;
    if (em_device_get_type(dev) == EM_DEVICE_CUDA) {
        int64_t tiles = (n + EM_GEN_HIST_BLOCK - 1) / EM_GEN_HIST_BLOCK,
                cap = (int64_t)em_gen_device_units(dev) * 8;
        grid.x = (unsigned)(tiles < cap ? tiles : cap);
        block.x = EM_GEN_HIST_BLOCK;
    } else {
        grid.x = (unsigned)em_hist_host_chunks(dev, n, 65536, &chunk);
    }
    {
        void *args[] = {&xp, &n, &chunk, &mp};
        st = em_memset_async(dev, buf.data, 0, sizeof mm, on);
        if (st == EM_OK)
            st = em_launch(fn[0], grid, block, 0, on, args);
    }
    if (st == EM_OK)
        st = em_read_small(dev, buf.data, mm, sizeof mm, on);
    em_array_release(&buf);
    if (st != EM_OK)
        return st;
    if (mm[2]) {
        *lo = *hi = NAN;
    } else {
        *lo = em_gen_hist_unkey(~mm[0]);
        *hi = em_gen_hist_unkey(mm[1]);
    }
    return EM_OK;
}

em_status em_hist_check_range(double lo, double hi)
{
    if (lo > hi)
        return em_error(EM_ERR_INVALID_VALUE,
                        "max must be larger than min in range parameter.");
    if (!isfinite(lo) || !isfinite(hi))
        return em_error(EM_ERR_INVALID_VALUE,
                        "supplied range of [%g, %g] is not finite", lo, hi);
    return EM_OK;
}

em_status em_hist_auto_range(const em_array *c, em_stream *on, double *lo,
                             double *hi)
{
    em_status st = em_hist_data_range(c, on, lo, hi);
    if (st == EM_OK && (!isfinite(*lo) || !isfinite(*hi)))
        st = em_error(EM_ERR_INVALID_VALUE,
                      "autodetected range of [%g, %g] is not finite", *lo, *hi);
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

/* The largest distance of edges v[0..nbins] from exact equal spacing
 * between v[0] and v[nbins], in bins. */
static double grid_dev(const double *v, int64_t nbins)
{
    double first = v[0], last = v[nbins], span = last - first, dev = 0;
    for (int64_t i = 0; i <= nbins; i++) {
        double g = first + span * ((double)i / (double)nbins),
               dd = fabs(v[i] - g);
        dev = dd > dev ? dd : dev;
    }
    return dev * ((double)nbins / span);
}

em_status em_hist_edges(const em_array *x, int64_t bins, int has_range,
                        double lo, double hi, int dd, em_array *out,
                        em_hist_grid *grid, em_stream *s)
{
    em_stream *on = NULL;
    em_dtype bt, at;
    double *v;
    em_array e64;
    em_status st;
    if (!x || !out)
        return em_error(EM_ERR_INVALID_VALUE, "histogram: NULL argument");
    if ((st = em_hist_check_real(x, "histogram", "a")) != EM_OK)
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
        if ((st = em_hist_check_range(lo, hi)) != EM_OK)
            return st;
    } else if (x->size == 0) {
        lo = 0;
        hi = 1;
    } else {
        em_array c;
        if ((st = em_hist_contiguous(x, -1, on, &c)) != EM_OK)
            return st;
        st = em_hist_auto_range(&c, on, &lo, &hi);
        em_array_release(&c);
        if (st != EM_OK)
            return st;
    }
    if (lo == hi) {
        lo = round_to(lo - 0.5, at);
        hi = round_to(hi + 0.5, at);
    }
    /* (bins + 1) * 8 bytes must not wrap around (bins = 2^63 - 1 made it
     * 0 and a small block took the writes: a fuzzer found it) */
    if ((uint64_t)bins >= SIZE_MAX / sizeof *v ||
        !(v = malloc((size_t)(bins + 1) * sizeof *v)))
        return em_error(EM_ERR_OUT_OF_MEMORY, "histogram: the edges of %lld "
                        "bins (%llu bytes of host memory)", (long long)bins,
                        (unsigned long long)bins * sizeof *v + sizeof *v);
    /* NumPy's linspace, each operation rounded to the arithmetic type:
     * i * step + start, then the exact stop. In float64 (a given range)
     * the roundings are no-ops: a loop without them, since the general
     * way cost host time that the GPU spent idle (bench/README.md,
     * 'histogram'). */
    if (at == EM_FLOAT64 && hi - lo != 0 && (hi - lo) / (double)bins != 0) {
        double step = (hi - lo) / (double)bins;
        for (int64_t i = 0; i < bins; i++)
            v[i] = (double)i * step + lo;
        v[bins] = hi;
    } else {
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
    /* histogramdd's linspace keeps its arithmetic type */
    if (dd)
        bt = at;
    /* as the device will hold them, in the bin dtype; NumPy refuses edges
     * that collapse there (histogram only) */
    if (bt == EM_FLOAT64) {
    } else if (bt == EM_FLOAT32) {
        for (int64_t i = 0; i <= bins; i++)
            v[i] = (double)(float)v[i];
    } else {
        for (int64_t i = 0; i <= bins; i++)
            v[i] = round_to(v[i], bt);
    }
    for (int64_t i = 0; !dd && i < bins; i++)
        if (!(v[i] < v[i + 1])) {
            free(v);
            return em_error(EM_ERR_INVALID_VALUE,
                            "Too many bins for data range. Cannot create %lld "
                            "finite-sized bins.",
                            (long long)bins);
        }
    if (grid) {
        grid->first = v[0];
        grid->last = v[bins];
        grid->dev = grid_dev(v, bins);
    }
    {
        int64_t ne = bins + 1;
        if (bt == EM_FLOAT32) { /* uploaded as they are: no cast kernel */
            float *f = malloc((size_t)ne * sizeof *f);
            if (!f) {
                free(v);
                return em_error(EM_ERR_OUT_OF_MEMORY,
                                "histogram: %lld bin edges", (long long)ne);
            }
            for (int64_t i = 0; i < ne; i++)
                f[i] = (float)v[i];
            free(v);
            st = em_array_empty(x->device, bt, 1, &ne, 'C', on, out);
            if (st == EM_OK &&
                (st = em_array_from_host(out, f, NULL, on)) != EM_OK)
                em_array_release(out);
            free(f);
            return st;
        }
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

em_status em_histogram_bin_edges(const em_array *x, int64_t bins, int has_range,
                                 double lo, double hi, em_array *out,
                                 em_hist_grid *grid, em_stream *s)
{
    return em_hist_edges(x, bins, has_range, lo, hi, 0, out, grid, s);
}

/* grid: NULL, or what the caller knows of uniform edges (no host read
 * then). */
static em_status by_edges(const em_array *x, const em_array *weights,
                          const em_array *edges, int uniform,
                          const em_hist_grid *grid, em_array *out, em_stream *s)
{
    em_stream *on = NULL;
    em_array c, w, e;
    int64_t nbins;
    em_hist_grid g = {0, 0, 0};
    int fp32;
    em_status st;
    if (!x || !edges || !out)
        return em_error(EM_ERR_INVALID_VALUE, "histogram: NULL argument");
    if ((st = em_hist_check_real(x, "histogram", "a")) != EM_OK ||
        (st = em_hist_check_real(edges, "histogram", "bins")) != EM_OK ||
        (weights &&
         (st = em_hist_check_real(weights, "histogram", "weights")) != EM_OK))
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
    if (uniform && grid) {
        g = *grid;
    } else {
        /* NumPy's monotonicity check and the uniform kernel's constants,
         * on a host copy (edges are few next to the data). */
        double *hv = malloc((size_t)(nbins + 1) * sizeof *hv);
        if (!hv)
            return em_error(EM_ERR_OUT_OF_MEMORY, "histogram: %lld edges",
                            (long long)nbins + 1);
        if ((st = em_hist_contiguous(edges, EM_FLOAT64, on, &e)) == EM_OK) {
            st = em_array_to_host(&e, hv, NULL, on);
            em_array_release(&e);
        }
        for (int64_t i = 0; st == EM_OK && i < nbins; i++)
            if (hv[i] > hv[i + 1])
                st = em_error(EM_ERR_INVALID_VALUE,
                              "`bins` must increase monotonically, when an "
                              "array (edge %lld is %g, edge %lld is %g)",
                              (long long)i, hv[i], (long long)i + 1, hv[i + 1]);
        if (st == EM_OK && uniform && hv[nbins] > hv[0]) {
            g.first = hv[0];
            g.last = hv[nbins];
            g.dev = grid_dev(hv, nbins);
        }
        free(hv);
        if (st != EM_OK)
            return st;
    }
    if (uniform &&
        !(g.last > g.first && isfinite((double)nbins / (g.last - g.first))))
        uniform = 0;
    memset(&w, 0, sizeof w);
    if ((st = em_hist_contiguous(x, -1, on, &c)) != EM_OK)
        return st;
    /* the uniform guess is computed in float for float32 data against
     * float32 edges (exact: float32, or float16/bfloat16 for such data) */
    fp32 = uniform && c.dtype == EM_FLOAT32 &&
           (edges->dtype == EM_FLOAT32 || edges->dtype == EM_FLOAT16 ||
            edges->dtype == EM_BFLOAT16);
    if ((st = em_hist_contiguous(edges, fp32 ? EM_FLOAT32 : EM_FLOAT64, on,
                                 &e)) != EM_OK) {
        em_array_release(&c);
        return st;
    }
    if (weights &&
        (st = em_hist_contiguous(weights, EM_FLOAT64, on, &w)) != EM_OK) {
        em_array_release(&c);
        em_array_release(&e);
        return st;
    }
    st = em_array_empty(x->device, weights ? EM_FLOAT64 : EM_INT64, 1, &nbins,
                        'C', on, out);
    if (st == EM_OK) {
        double norm = uniform ? (double)nbins / (g.last - g.first) : 0;
        st = count(uniform ? EM_GEN_HIST_UNIFORM : EM_GEN_HIST_EDGES,
                   fp32 ? EM_GEN_HIST_FP32 : 0, &c, weights ? &w : NULL, e.data,
                   nbins, g.first, g.last, norm,
                   uniform ? em_gen_hist_eps(nbins, g.dev, fp32) : 0, NULL,
                   out->data, NULL, on);
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
                               const em_array *edges, const em_hist_grid *grid,
                               em_array *out, em_stream *s)
{
    if (!grid)
        return em_error(EM_ERR_INVALID_VALUE, "histogram: NULL grid");
    return by_edges(x, weights, edges, 1, grid, out, s);
}

/* One bincount pass over c: *buf gets nbins counters (int64 bits, the
 * sums' float64 bits with weights), then x's two extremes and the
 * kernel's count of finished blocks (see codegen/histogram.h); with mmh
 * (and mmd, its part of the device scratch) the nbins counters alone. */
static em_status bincount_pass(const em_array *c, const em_array *w,
                               int64_t nbins, void *mmh, void *mmd,
                               em_stream *on, em_array *buf)
{
    int64_t total = mmh ? nbins : nbins + 3;
    em_status st;
    if (total < nbins)
        return em_error(EM_ERR_OVERFLOW, "bincount: %lld bins",
                        (long long)nbins);
    st = em_array_empty(c->device, EM_INT64, 1, &total, 'C', on, buf);
    if (st != EM_OK)
        return st;
    st = count(EM_GEN_HIST_BINCOUNT, 0, c, w, NULL, nbins, 0, 0, 0, 0,
               mmh ? mmd : (char *)buf->data + nbins * 8, buf->data, mmh, on);
    if (st != EM_OK)
        em_array_release(buf);
    return st;
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
                        em_hist_dt_name(x->dtype));
    if (x->ndim != 1)
        return em_error(EM_ERR_INVALID_VALUE,
                        "bincount: x must be 1-dimensional, not %d-"
                        "dimensional",
                        x->ndim);
    if (minlength < 0)
        return em_error(EM_ERR_INVALID_VALUE,
                        "'minlength' must not be negative");
    if (weights) {
        if ((st = em_hist_check_real(weights, "bincount", "weights")) != EM_OK)
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
    if ((st = em_hist_contiguous(x, -1, on, &c)) != EM_OK)
        return st;
    memset(&w, 0, sizeof w);
    if (weights &&
        (st = em_hist_contiguous(weights, EM_FLOAT64, on, &w)) != EM_OK) {
        em_array_release(&c);
        return st;
    }
    if (x->size == 0) {
        /* NumPy gives int64 zeros for an empty x, weights or not */
        st = em_array_empty(x->device, EM_INT64, 1, &len, 'C', on, out);
        if (st == EM_OK && len > 0 &&
            (st = em_memset_async(x->device, out->data, 0, (size_t)len * 8,
                                  on)) != EM_OK)
            em_array_release(out);
    } else {
        /* One pass counts the values below a bound that shared memory
         * holds while it reduces x's extremes, which the length needs
         * anyway (the one small read); the counts are final unless a
         * value was past the bound. */
        int64_t bound = em_hist_shared_cap(weights != NULL), mm[2] = {0, 0};
        /* On CUDA, with every bin in shared memory, the kernel zeroes its
         * output and keeps its counters in a part of the device's scratch
         * (no memset launch first; bench/README.md, 'histogram'), and
         * leaves the
         * extremes in a page-locked slot, which the host watches (see
         * await_extremes). The slot's number picks the scratch part. */
        void *pin = NULL, *mmd = NULL, *scratch = NULL;
        em_array buf;
        if (bound < minlength)
            bound = minlength;
        if (em_device_get_type(x->device) == EM_DEVICE_CUDA &&
            bound == em_hist_shared_cap(weights != NULL) &&
            em_device_scratch(x->device, &scratch) == EM_OK &&
            (pin = em_pin_take(1))) {
            mmd = (char *)scratch +
                  (size_t)em_pin_index(pin) * EM_PIN_SLOT_BYTES;
            /* the done flag and the scratch part's, which the kernel sets */
            __atomic_store_n((int64_t *)pin + 2, 0, __ATOMIC_RELEASE);
            __atomic_store_n((int64_t *)pin + 7, 0, __ATOMIC_RELEASE);
        }
        st = bincount_pass(&c, weights ? &w : NULL, bound, pin, mmd, on,
                           &buf);
        if (st == EM_OK) {
            if (!pin)
                st = em_read_small(x->device, (char *)buf.data + bound * 8,
                                   mm, sizeof mm, on);
            else
                st = await_extremes(pin, mm, on);
            if (st == EM_OK && mm[0] < 0)
                st = em_error(EM_ERR_INVALID_VALUE,
                              "'list' argument must have no negative "
                              "elements (bincount found %lld)",
                              (long long)mm[0]);
            if (st == EM_OK && mm[1] + 1 > len)
                len = mm[1] + 1;
            if (st == EM_OK && mm[1] >= bound) { /* count again, all of x */
                em_array_release(&buf);
                st = bincount_pass(&c, weights ? &w : NULL, len, NULL, NULL,
                                   on, &buf);
            }
            if (st == EM_OK) {
                em_slice head = {0, len, 1};
                em_array h;
                if ((st = em_array_slice(&buf, &head, &h)) == EM_OK) {
                    if (!weights)
                        *out = h;
                    else {
                        st = em_array_view_dtype(&h, EM_FLOAT64, out);
                        em_array_release(&h);
                    }
                }
            }
            em_array_release(&buf);
        }
        if (pin)
            em_pin_give(pin);
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
    if ((st = em_hist_check_real(x, "digitize", "x")) != EM_OK ||
        (st = em_hist_check_real(bins, "digitize", "bins")) != EM_OK)
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
    if ((st = em_hist_contiguous(bins, EM_FLOAT64, on, &b)) != EM_OK)
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
        st = em_hist_contiguous(x, -1, on, &c);
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
                grid.x = (unsigned)em_hist_host_chunks(dev, n, 16384, &chunk);
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
    if ((st = em_hist_contiguous(hist, EM_FLOAT64, on, &h)) != EM_OK)
        return st;
    if ((st = em_hist_contiguous(edges, EM_FLOAT64, on, &e)) != EM_OK) {
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
