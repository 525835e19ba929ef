/* Histogram, bincount and digitize kernels: every op compiles with NVRTC
 * (PTX for sm_90, no GPU needed) and with the host compiler, the variant
 * classes by a rotating sample (sample.h) that gives each op and each
 * dtype every class in turn; on cpu the C API agrees with hand-computed
 * results and refuses bad input with the right status. NVRTC missing
 * fails the test unless EMBER_TEST_NO_NVRTC=1. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "codegen/histogram.h"
#include "sample.h"

static const int dtypes[] = {EM_BOOL,   EM_INT8,    EM_INT16,  EM_INT32,
                             EM_INT64,  EM_UINT8,   EM_UINT16, EM_UINT32,
                             EM_UINT64, EM_FLOAT32, EM_FLOAT64};
#define NDT ((int)(sizeof dtypes / sizeof *dtypes))

static void compile_one(const em_gen_hist *d, em_device_type target)
{
    char *src = NULL, *log = NULL;
    em_code *c = NULL;
    em_status st;
    static const char *const o0[] = {"-O0"};
    CHECK_OK(em_gen_hist_source(d, target, &src));
    if (!src)
        return;
    if (target == EM_DEVICE_CUDA)
        st = em_compile_cuda(src, "hist", sample_nvrtc_opts,
                             SAMPLE_NVRTC_NOPTS, 90, EM_CODE_PTX, &c, &log);
    else
        st = em_compile_host(src, "hist", o0, 1, &c, &log);
    check_count++;
    if (st != EM_OK) {
        check_failures++;
        fprintf(stderr, "compile (%s) failed: %s\n%s\n%s\n",
                target == EM_DEVICE_CUDA ? "nvrtc" : "cc", em_last_error(),
                log ? log : "", src);
    }
    em_code_free(c);
    free(log);
    free(src);
}

/* One op in VARIANT_EVERY gets each (weighted, idx32, flags) class beyond
 * the plain one; one dtype in VARIANT_EVERY gets each non-counting op. */
enum { VARIANT_EVERY = 3 };

/* Every op plainly and a sample of its (weighted, idx32, flags) classes,
 * for two dtypes, and every dtype of every counting op for the loads (the
 * cuda kernel's vector unpacking differs by dtype). */
static void test_compile(em_device_type target)
{
    em_gen_hist d;
    int cuda = target == EM_DEVICE_CUDA;
    for (int op = 0; op < EM_GEN_HIST_OP_COUNT; op++)
        for (int k = 0; k < 2; k++)
            for (int v = 0; v < 4; v++) {
                if (v && !sample_pick((unsigned)op, (unsigned)k, (unsigned)v,
                                      VARIANT_EVERY))
                    continue;
                memset(&d, 0, sizeof d);
                d.op = (uint8_t)op;
                d.xdt = (uint8_t)(k ? EM_FLOAT32 : EM_INT64);
                if (op == EM_GEN_HIST_DIGITIZE) {
                    d.flags = (uint8_t)v;
                } else {
                    d.weighted = (uint8_t)(v & 1);
                    d.idx32 = (uint8_t)(v >> 1);
                }
                compile_one(&d, target);
            }
    /* the float guess of UNIFORM over float32 with float32 edges */
    for (int v = 0; v < 4; v++) {
        memset(&d, 0, sizeof d);
        d.op = EM_GEN_HIST_UNIFORM;
        d.xdt = EM_FLOAT32;
        d.flags = EM_GEN_HIST_FP32;
        d.weighted = (uint8_t)(v & 1);
        d.idx32 = (uint8_t)(v >> 1);
        compile_one(&d, target);
    }
    for (int op = EM_GEN_UNIQ_FLAGS; op < EM_GEN_HIST_OP_COUNT; op++)
        for (int v = 0; v < 4; v++) {
            static const int fl[] = {0, EM_GEN_UNIQ_EQUAL_NAN, EM_GEN_UNIQ_DUP,
                                     EM_GEN_UNIQ_XOR};
            memset(&d, 0, sizeof d);
            d.op = (uint8_t)op;
            d.xdt = (uint8_t)(v & 1 ? EM_FLOAT64 : EM_INT64);
            d.flags =
                (uint8_t)(op == EM_GEN_UNIQ_FLAGS          ? fl[v]
                          : op == EM_GEN_SET_ISIN && v > 1 ? EM_GEN_SET_INVERT
                          : op == EM_GEN_QUANTILE
                              ? (v > 1 ? EM_GEN_QUANT_MEDIAN : 0) |
                                    (v & 1 ? EM_GEN_QUANT_NAN : 0)
                              : 0);
            compile_one(&d, target);
        }
    for (int i = 0; i < NDT; i++) {
        for (int op = 0; op <= EM_GEN_HIST_BINCOUNT; op++)
            for (int wt = 0; wt < 2; wt++) {
                memset(&d, 0, sizeof d);
                d.op = (uint8_t)op;
                d.xdt = (uint8_t)dtypes[i];
                d.idx32 = 1;
                d.weighted = (uint8_t)wt;
                /* the weighted loop does not depend on the dtype's width;
                 * the host's loop not on the op */
                if (cuda ? !wt || op == EM_GEN_HIST_UNIFORM
                         : !wt && op == i % (EM_GEN_HIST_BINCOUNT + 1))
                    compile_one(&d, target);
            }
        memset(&d, 0, sizeof d);
        d.xdt = (uint8_t)dtypes[i];
        d.op = EM_GEN_HIST_MINMAX;
        if (sample_pick((unsigned)i, 0, 0, VARIANT_EVERY))
            compile_one(&d, target);
        d.op = EM_GEN_HIST_2D;
        if (cuda && sample_pick((unsigned)i, 1, 0, VARIANT_EVERY))
            compile_one(&d, target);
        d.op = EM_GEN_HIST_DIGITIZE;
        if (sample_pick((unsigned)i, 2, 0, VARIANT_EVERY))
            compile_one(&d, target);
        d.op = EM_GEN_UNIQ_FLAGS;
        d.flags = EM_GEN_UNIQ_EQUAL_NAN;
        if (sample_pick((unsigned)i, 3, 0, VARIANT_EVERY))
            compile_one(&d, target);
        d.op = EM_GEN_SET_ISIN;
        d.flags = 0;
        if (sample_pick((unsigned)i, 4, 0, VARIANT_EVERY))
            compile_one(&d, target);
        d.op = EM_GEN_QUANTILE;
        if (sample_pick((unsigned)i, 5, 0, VARIANT_EVERY))
            compile_one(&d, target);
    }
}

static void test_bad_desc(void)
{
    em_gen_hist d;
    char *src = NULL;
    memset(&d, 0, sizeof d);
    d.op = EM_GEN_HIST_OP_COUNT;
    CHECK_STATUS(em_gen_hist_source(&d, EM_DEVICE_CPU, &src),
                 EM_ERR_INVALID_VALUE);
    d.op = 0;
    d.xdt = EM_COMPLEX64;
    CHECK_STATUS(em_gen_hist_source(&d, EM_DEVICE_CPU, &src),
                 EM_ERR_INVALID_VALUE);
    CHECK(src == NULL);
}

static em_array host_array(em_device *dev, em_dtype dt, int64_t n,
                           const void *v)
{
    em_array a;
    memset(&a, 0, sizeof a);
    CHECK_OK(em_array_empty(dev, dt, 1, &n, 'C', NULL, &a));
    if (n > 0)
        CHECK_OK(em_array_from_host(&a, v, NULL, NULL));
    return a;
}

static void read_i64(em_array *a, int64_t *out)
{
    CHECK_OK(em_array_to_host(a, out, NULL, NULL));
}

static void test_cpu(void)
{
    em_device *cpu;
    em_array x, e, w, r;
    int64_t got[16];
    double gd[16];
    CHECK_OK(em_device_get(EM_DEVICE_CPU, 0, &cpu));

    /* CUB's even bins: [0, 4) in 4 bins, upper excluded, NaN skipped */
    {
        const float v[] = {0.0f, 0.5f, 1.0f, 3.999f, 4.0f, -0.1f, NAN, 2.0f};
        const int64_t want[] = {2, 1, 1, 1};
        x = host_array(cpu, EM_FLOAT32, 8, v);
        CHECK_OK(em_histogram_even(&x, 4, 0.0, 4.0, &r, NULL));
        read_i64(&r, got);
        CHECK(!memcmp(got, want, sizeof want));
        em_array_release(&r);
        CHECK_STATUS(em_histogram_even(&x, 0, 0.0, 1.0, &r, NULL),
                     EM_ERR_INVALID_VALUE);
        CHECK_STATUS(em_histogram_even(&x, 3, 1.0, 1.0, &r, NULL),
                     EM_ERR_INVALID_VALUE);
        /* NumPy's edges: the last bin is closed, duplicates are empty */
        {
            const double ev[] = {0.0, 1.0, 1.0, 4.0};
            const int64_t want2[] = {2, 0, 4};
            e = host_array(cpu, EM_FLOAT64, 4, ev);
            CHECK_OK(em_histogram_edges(&x, NULL, &e, 0, &r, NULL));
            read_i64(&r, got);
            CHECK(!memcmp(got, want2, sizeof want2));
            em_array_release(&r);
            em_array_release(&e);
        }
        em_array_release(&x);
    }
    /* bincount with weights; negative values refused */
    {
        const int v[] = {1, 3, 3, 0};
        const double wv[] = {0.5, 1.0, 2.0, 4.0};
        const int neg[] = {1, -1};
        x = host_array(cpu, EM_INT32, 4, v);
        CHECK_OK(em_bincount(&x, NULL, 6, &r, NULL));
        CHECK(r.size == 6);
        read_i64(&r, got);
        CHECK(got[0] == 1 && got[1] == 1 && got[2] == 0 && got[3] == 2 &&
              got[5] == 0);
        em_array_release(&r);
        w = host_array(cpu, EM_FLOAT64, 4, wv);
        CHECK_OK(em_bincount(&x, &w, 0, &r, NULL));
        CHECK(r.size == 4 && r.dtype == EM_FLOAT64);
        CHECK_OK(em_array_to_host(&r, gd, NULL, NULL));
        CHECK(gd[0] == 4.0 && gd[1] == 0.5 && gd[2] == 0 && gd[3] == 3.0);
        em_array_release(&r);
        em_array_release(&w);
        em_array_release(&x);
        x = host_array(cpu, EM_INT32, 2, neg);
        CHECK_STATUS(em_bincount(&x, NULL, 0, &r, NULL), EM_ERR_INVALID_VALUE);
        em_array_release(&x);
        x = host_array(cpu, EM_FLOAT64, 4, wv);
        CHECK_STATUS(em_bincount(&x, NULL, 0, &r, NULL), EM_ERR_TYPE);
        em_array_release(&x);
    }
    /* bincount past the shared-memory bound: a second pass counts all */
    {
        const int v[] = {9000, 1, 9000};
        int64_t *big = calloc(9001, sizeof *big);
        x = host_array(cpu, EM_INT32, 3, v);
        CHECK_OK(em_bincount(&x, NULL, 0, &r, NULL));
        CHECK(r.size == 9001);
        if (big && r.size == 9001) {
            read_i64(&r, big);
            CHECK(big[9000] == 2 && big[1] == 1 && big[0] == 0);
        }
        free(big);
        em_array_release(&r);
        em_array_release(&x);
    }
    /* histogram2d: a value on the last edge is in the last bin; NaN and
     * values outside are not counted; lengths must match */
    {
        const double xv[] = {0.0, 0.5, 1.0, 2.0, NAN},
                     yv[] = {0.0, 1.0, 1.0, 0.5, 0.0};
        em_hist_axis ax[2];
        em_array y, xe, ye;
        memset(ax, 0, sizeof ax);
        ax[0].count = 2;
        ax[1].count = 1;
        ax[0].has_range = ax[1].has_range = 1;
        ax[0].hi = ax[1].hi = 1.0;
        x = host_array(cpu, EM_FLOAT64, 5, xv);
        y = host_array(cpu, EM_FLOAT64, 5, yv);
        CHECK_OK(em_histogram2d(&x, &y, NULL, ax, 0, &r, &xe, &ye, NULL));
        CHECK(r.ndim == 2 && r.shape[0] == 2 && r.shape[1] == 1 &&
              r.dtype == EM_FLOAT64 && xe.size == 3 && ye.size == 2);
        CHECK_OK(em_array_to_host(&r, gd, NULL, NULL));
        CHECK(gd[0] == 1.0 && gd[1] == 2.0);
        em_array_release(&r);
        em_array_release(&xe);
        em_array_release(&ye);
        em_array_release(&y);
        y = host_array(cpu, EM_FLOAT64, 4, yv);
        CHECK_STATUS(em_histogram2d(&x, &y, NULL, ax, 0, &r, &xe, &ye, NULL),
                     EM_ERR_INVALID_VALUE);
        em_array_release(&y);
        em_array_release(&x);
    }
    /* digitize, increasing and decreasing, right or not */
    {
        const double v[] = {-1.0, 0.0, 0.5, 1.0, 2.0, NAN};
        const double inc[] = {0.0, 1.0}, dec[] = {1.0, 0.0},
                     bad[] = {0.0, 2.0, 1.0};
        const int64_t w0[] = {0, 1, 1, 2, 2, 2}, w1[] = {0, 0, 1, 1, 2, 2},
                      w2[] = {2, 1, 1, 0, 0, 0};
        x = host_array(cpu, EM_FLOAT64, 6, v);
        e = host_array(cpu, EM_FLOAT64, 2, inc);
        CHECK_OK(em_digitize(&x, &e, 0, &r, NULL));
        read_i64(&r, got);
        CHECK(!memcmp(got, w0, sizeof w0));
        em_array_release(&r);
        CHECK_OK(em_digitize(&x, &e, 1, &r, NULL));
        read_i64(&r, got);
        CHECK(!memcmp(got, w1, sizeof w1));
        em_array_release(&r);
        em_array_release(&e);
        e = host_array(cpu, EM_FLOAT64, 2, dec);
        CHECK_OK(em_digitize(&x, &e, 0, &r, NULL));
        read_i64(&r, got);
        CHECK(!memcmp(got, w2, sizeof w2));
        em_array_release(&r);
        em_array_release(&e);
        e = host_array(cpu, EM_FLOAT64, 3, bad);
        CHECK_STATUS(em_digitize(&x, &e, 0, &r, NULL), EM_ERR_INVALID_VALUE);
        em_array_release(&e);
        em_array_release(&x);
    }
    /* unique with all parts, and isin */
    {
        const int v[] = {3, 1, 3, 2, 1, 3};
        const int64_t wv[] = {1, 2, 3}, wi[] = {1, 3, 0},
                      winv[] = {2, 0, 2, 1, 0, 2}, wc[] = {2, 1, 3};
        int got32[8];
        unsigned char in[6];
        em_array idx, inv, cnt;
        x = host_array(cpu, EM_INT32, 6, v);
        CHECK_OK(em_unique(&x, 1, &r, &idx, &inv, &cnt, NULL));
        CHECK(r.size == 3 && r.dtype == EM_INT32);
        CHECK_OK(em_array_to_host(&r, got32, NULL, NULL));
        CHECK(got32[0] == wv[0] && got32[1] == wv[1] && got32[2] == wv[2]);
        read_i64(&idx, got);
        CHECK(!memcmp(got, wi, sizeof wi));
        read_i64(&inv, got);
        CHECK(!memcmp(got, winv, sizeof winv));
        read_i64(&cnt, got);
        CHECK(!memcmp(got, wc, sizeof wc));
        em_array_release(&idx);
        em_array_release(&inv);
        em_array_release(&cnt);
        /* isin(x, unique(x)[1:]) */
        {
            em_array tail;
            em_slice sl = {1, 3, 1};
            CHECK_OK(em_array_slice(&r, &sl, &tail));
            CHECK_OK(em_isin(&x, &tail, 0, &e, NULL));
            CHECK_OK(em_array_to_host(&e, in, NULL, NULL));
            CHECK(in[0] && !in[1] && in[2] && in[3] && !in[4] && in[5]);
            em_array_release(&e);
            em_array_release(&tail);
        }
        em_array_release(&r);
        em_array_release(&x);
    }
    /* median and quantile along an axis */
    {
        const double v[] = {4, 1, 3, 2, NAN, 6};
        const int64_t shp[2] = {2, 3};
        const double q[] = {0.0, 0.5};
        const int ax = 1;
        em_array x2;
        x = host_array(cpu, EM_FLOAT64, 6, v);
        CHECK_OK(em_array_reshape_view(&x, 2, shp, 'C', &x2));
        CHECK_OK(em_quantile(&x2, NULL, 0, NULL, &ax, 1, 0, 1, 0, EM_FLOAT64,
                             &r, NULL));
        CHECK_OK(em_array_to_host(&r, gd, NULL, NULL));
        CHECK(r.size == 2 && gd[0] == 3.0 && isnan(gd[1]));
        em_array_release(&r);
        CHECK_OK(em_quantile(&x2, q, 1, (const int64_t[]){2}, &ax, 1, 0, 0, 1,
                             EM_FLOAT64, &r, NULL));
        CHECK_OK(em_array_to_host(&r, gd, NULL, NULL));
        CHECK(r.ndim == 2 && gd[0] == 1.0 && gd[1] == 2.0 && gd[2] == 3.0 &&
              gd[3] == 4.0);
        em_array_release(&r);
        CHECK_STATUS(em_quantile(&x2, (const double[]){1.5}, 0, NULL, NULL, 0,
                                 0, 0, 0, EM_FLOAT64, &r, NULL),
                     EM_ERR_INVALID_VALUE);
        em_array_release(&x2);
        em_array_release(&x);
    }
    CHECK_OK(em_device_synchronize(cpu));
}

int main(void)
{
    int nvrtc = check_nvrtc("test_histogram");
    if (nvrtc < 0)
        return 1;
    sample_seed("test_histogram");
    test_bad_desc();
    if (nvrtc)
        test_compile(EM_DEVICE_CUDA);
    test_compile(EM_DEVICE_CPU);
    test_cpu();
    return check_report("test_histogram");
}
