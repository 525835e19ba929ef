/* Reductions: em_reduce against values computed here (naively, in double)
 * on the cpu device (EMBER_TEST_DEVICE=cuda:0 runs the same checks on a
 * GPU), the error cases, and the generator's kernels compiled with NVRTC
 * to PTX for sm_90 and with the host compiler: every op x input dtype in
 * the row schedule, and every other schedule x index width x vector width
 * for a rotating sample of the dtypes (sample.h). NVRTC missing fails the
 * test unless EMBER_TEST_NO_NVRTC=1. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "array/reduce_internal.h"
#include "check.h"
#include "codegen/reduce.h"
#include "ember/reduce.h"
#include "sample.h"

static em_device *dev;

static em_array from_host(em_dtype dt, int nd, const int64_t *shape,
                          const void *data)
{
    em_array a;
    memset(&a, 0, sizeof a);
    CHECK_OK(em_array_empty(dev, dt, nd, shape, 'C', NULL, &a));
    CHECK_OK(em_array_from_host(&a, data, NULL, NULL));
    return a;
}

static void to_host(const em_array *a, void *dst)
{
    CHECK_OK(em_array_to_host(a, dst, NULL, NULL));
}

static int close_to(double a, double b, double rtol)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return fabs(a - b) <= rtol * fabs(b) + 1e-12;
}

/* Sums, means, min/max, argmax of a long float32 vector (several blocks
 * and the pairwise path), and float32 accuracy. */
static void test_full_f32(void)
{
    const int64_t n = (1 << 20) + 3;
    float *x = malloc((size_t)n * sizeof *x);
    double sum = 0, mx = -1e30, mn = 1e30;
    int64_t amax = 0, amin = 0;
    em_array a, out;
    em_reduce_args ra;
    float f;
    int64_t i64;
    for (int64_t i = 0; i < n; i++) {
        x[i] = (float)((i * 7919) % 1000) * 0.001f + 0.1f;
        sum += x[i];
        if (x[i] > mx) {
            mx = x[i];
            amax = i;
        }
        if (x[i] < mn) {
            mn = x[i];
            amin = i;
        }
    }
    a = from_host(EM_FLOAT32, 1, &n, x);
    memset(&ra, 0, sizeof ra);
    memset(&out, 0, sizeof out);
    CHECK_OK(em_reduce(EM_RED_SUM, &a, &ra, &out, NULL));
    CHECK(out.ndim == 0 && out.dtype == EM_FLOAT32);
    to_host(&out, &f);
    CHECK(close_to(f, sum, 1e-6));
    em_array_release(&out);
    CHECK_OK(em_reduce(EM_RED_MEAN, &a, &ra, &out, NULL));
    to_host(&out, &f);
    CHECK(close_to(f, sum / (double)n, 1e-6));
    em_array_release(&out);
    CHECK_OK(em_reduce(EM_RED_MAX, &a, &ra, &out, NULL));
    to_host(&out, &f);
    CHECK(f == (float)mx);
    em_array_release(&out);
    CHECK_OK(em_reduce(EM_RED_ARGMAX, &a, &ra, &out, NULL));
    CHECK(out.dtype == EM_INT64);
    to_host(&out, &i64);
    CHECK(i64 == amax);
    em_array_release(&out);
    CHECK_OK(em_reduce(EM_RED_ARGMIN, &a, &ra, &out, NULL));
    to_host(&out, &i64);
    CHECK(i64 == amin);
    em_array_release(&out);
    /* A NaN: max is NaN and argmax points at the first one. */
    x[5000] = NAN;
    x[9000] = NAN;
    em_array_release(&a);
    a = from_host(EM_FLOAT32, 1, &n, x);
    CHECK_OK(em_reduce(EM_RED_ARGMAX, &a, &ra, &out, NULL));
    to_host(&out, &i64);
    CHECK(i64 == 5000);
    em_array_release(&out);
    CHECK_OK(em_reduce(EM_RED_NANMAX, &a, &ra, &out, NULL));
    to_host(&out, &f);
    CHECK(f == (float)mx);
    em_array_release(&out);
    CHECK_OK(em_reduce(EM_RED_MIN, &a, &ra, &out, NULL));
    to_host(&out, &f);
    CHECK(isnan(f));
    em_array_release(&out);
    em_array_release(&a);
    free(x);
}

/* Row and column sums, var with ddof, int8 sums in int64, keepdims. */
static void test_axes(void)
{
    enum { R = 37, Cn = 1001 };
    static float m[R][Cn];
    static int8_t b[R][Cn];
    float rows[R], cols[Cn], var[Cn];
    int64_t shape[2] = {R, Cn}, isum[R];
    em_array a, ai, out;
    em_reduce_args ra;
    int ax;
    for (int i = 0; i < R; i++)
        for (int j = 0; j < Cn; j++) {
            m[i][j] = (float)((i * 31 + j * 17) % 97) - 40.0f;
            b[i][j] = (int8_t)((i * 31 + j * 17) % 251 - 125);
        }
    a = from_host(EM_FLOAT32, 2, shape, m);
    ai = from_host(EM_INT8, 2, shape, b);
    memset(&ra, 0, sizeof ra);
    memset(&out, 0, sizeof out);
    ra.axes = &ax;
    ra.naxes = 1;
    ax = 1;
    CHECK_OK(em_reduce(EM_RED_SUM, &a, &ra, &out, NULL));
    CHECK(out.ndim == 1 && out.shape[0] == R);
    to_host(&out, rows);
    for (int i = 0; i < R; i++) {
        double s = 0;
        for (int j = 0; j < Cn; j++)
            s += m[i][j];
        CHECK(close_to(rows[i], s, 1e-6));
    }
    em_array_release(&out);
    CHECK_OK(em_reduce(EM_RED_SUM, &ai, &ra, &out, NULL));
    CHECK(out.dtype == EM_INT64);
    to_host(&out, isum);
    for (int i = 0; i < R; i++) {
        int64_t s = 0;
        for (int j = 0; j < Cn; j++)
            s += b[i][j];
        CHECK(isum[i] == s);
    }
    em_array_release(&out);
    ax = -2;
    ra.keepdims = 1;
    CHECK_OK(em_reduce(EM_RED_SUM, &a, &ra, &out, NULL));
    CHECK(out.ndim == 2 && out.shape[0] == 1 && out.shape[1] == Cn);
    to_host(&out, cols);
    for (int j = 0; j < Cn; j++) {
        double s = 0;
        for (int i = 0; i < R; i++)
            s += m[i][j];
        CHECK(close_to(cols[j], s, 1e-6));
    }
    em_array_release(&out);
    ra.keepdims = 0;
    ra.ddof = 1;
    CHECK_OK(em_reduce(EM_RED_VAR, &a, &ra, &out, NULL));
    to_host(&out, var);
    for (int j = 0; j < Cn; j++) {
        double s = 0, q = 0;
        for (int i = 0; i < R; i++)
            s += m[i][j];
        s /= R;
        for (int i = 0; i < R; i++)
            q += (m[i][j] - s) * (m[i][j] - s);
        CHECK(close_to(var[j], q / (R - 1), 1e-5));
    }
    em_array_release(&out);
    em_array_release(&a);
    em_array_release(&ai);
}

static void test_errors(void)
{
    int64_t shape[2] = {0, 3}, one = 4;
    float x[4] = {NAN, NAN, NAN, NAN};
    em_array a, b, out;
    em_reduce_args ra;
    int ax[2] = {0, 0};
    memset(&a, 0, sizeof a);
    memset(&out, 0, sizeof out);
    memset(&ra, 0, sizeof ra);
    CHECK_OK(em_array_empty(dev, EM_FLOAT32, 2, shape, 'C', NULL, &a));
    CHECK_STATUS(em_reduce(EM_RED_MIN, &a, &ra, &out, NULL),
                 EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_reduce(EM_RED_ARGMAX, &a, &ra, &out, NULL),
                 EM_ERR_INVALID_VALUE);
    CHECK_OK(em_reduce(EM_RED_SUM, &a, &ra, &out, NULL));
    em_array_release(&out);
    ra.axes = ax;
    ra.naxes = 1;
    ax[0] = 1; /* min over the non-empty axis of a (0, 3) array: fine */
    CHECK_OK(em_reduce(EM_RED_MIN, &a, &ra, &out, NULL));
    CHECK(out.ndim == 1 && out.shape[0] == 0);
    em_array_release(&out);
    ax[0] = 2;
    CHECK_STATUS(em_reduce(EM_RED_SUM, &a, &ra, &out, NULL), EM_ERR_AXIS);
    CHECK(strstr(em_last_error(), "axis 2 is out of bounds for array of "
                                  "dimension 2") != NULL);
    ax[0] = -3;
    CHECK_STATUS(em_reduce(EM_RED_SUM, &a, &ra, &out, NULL), EM_ERR_AXIS);
    ax[0] = 1;
    ax[1] = -1;
    ra.naxes = 2;
    CHECK_STATUS(em_reduce(EM_RED_SUM, &a, &ra, &out, NULL),
                 EM_ERR_INVALID_VALUE);
    em_array_release(&a);
    memset(&ra, 0, sizeof ra);
    b = from_host(EM_FLOAT32, 1, &one, x);
    CHECK_STATUS(em_reduce(EM_RED_NANARGMIN, &b, &ra, &out, NULL),
                 EM_ERR_INVALID_VALUE);
    CHECK(strstr(em_last_error(), "All-NaN") != NULL);
    ra.has_dtype = 1;
    ra.dtype = EM_FLOAT32;
    CHECK_STATUS(em_reduce(EM_RED_MAX, &b, &ra, &out, NULL), EM_ERR_TYPE);
    /* out= of a dtype the result cannot be cast to (same_kind). */
    ra.has_dtype = 0;
    {
        int64_t z = 0;
        em_array o;
        memset(&o, 0, sizeof o);
        CHECK_OK(em_array_empty(dev, EM_INT32, 0, &z, 'C', NULL, &o));
        CHECK_STATUS(em_reduce(EM_RED_SUM, &b, &ra, &o, NULL), EM_ERR_TYPE);
        em_array_release(&o);
    }
    em_array_release(&b);
}

/* ---- every kernel compiles ---------------------------------------------- */

static int have_nvrtc = 1;

/* One input dtype in SCHED_EVERY gets each schedule but the first. */
enum { SCHED_EVERY = 4 };

typedef struct prog {
    char *src;
    size_t len;
    int n;
} prog;

static void prog_add(prog *p, const em_gen_reduce *d, em_device_type t)
{
    char name[32], *s = NULL;
    size_t l;
    snprintf(name, sizeof name, "k%d", p->n);
    CHECK_OK(em_gen_reduce_source(d, t, name, &s));
    if (!s)
        return;
    l = strlen(s);
    p->src = realloc(p->src, p->len + l + 1);
    memcpy(p->src + p->len, s, l + 1);
    p->len += l;
    p->n++;
    free(s);
}

static void prog_compile(prog *p, em_device_type t, const char *what)
{
    em_code *c = NULL;
    char *log = NULL;
    em_status st;
    if (!p->n)
        return;
    if (t == EM_DEVICE_CUDA) {
        st = em_compile_cuda(p->src, what, sample_nvrtc_opts,
                             SAMPLE_NVRTC_NOPTS, 90, EM_CODE_PTX, &c, &log);
    } else {
        static const char *const o0[] = {"-O0"};
        st = em_compile_host(p->src, what, o0, 1, &c, &log);
    }
    check_count++;
    if (st != EM_OK) {
        check_failures++;
        fprintf(stderr, "%s (%s, %d kernels) failed: %s\n%s\n", what,
                t == EM_DEVICE_CUDA ? "nvrtc" : "cc", p->n, em_last_error(),
                log ? log : "");
    }
    em_code_free(c);
    free(log);
    free(p->src);
    memset(p, 0, sizeof *p);
}

static void test_all_kernels(em_device_type t)
{
    for (int op = 0; op < EM_RED_OP_COUNT; op++) {
        prog p = {0};
        for (int in = 0; in < EM_DTYPE_COUNT; in++) {
            em_gen_reduce d;
            em_dtype R, C;
            size_t size = em_dtype_size((em_dtype)in);
            if (em_red_resolve((em_reduce_op)op, (em_dtype)in, NULL, &R, &C) !=
                EM_OK)
                continue;
            memset(&d, 0, sizeof d);
            d.op = (uint8_t)op;
            d.in = (uint8_t)in;
            d.compute = (uint8_t)C;
            d.out = (uint8_t)R;
            for (int sched = 0; sched <= EM_GEN_RED_FIN; sched++)
                for (int split = 0; split < 2; split++) {
                    if (split &&
                        (sched == EM_GEN_RED_WARP || sched == EM_GEN_RED_FIN))
                        continue;
                    if ((sched || split) &&
                        !sample_pick((unsigned)in, (unsigned)op,
                                     (unsigned)(sched * 2 + split),
                                     SCHED_EVERY))
                        continue;
                    d.sched = (uint8_t)sched;
                    d.split = (uint8_t)split;
                    d.vec = 1;
                    d.idx64 = (uint8_t)(t == EM_DEVICE_CPU || split);
                    prog_add(&p, &d, t);
                    if (t == EM_DEVICE_CUDA && sched == EM_GEN_RED_ROWS &&
                        size < 16) {
                        d.vec = (uint8_t)(16 / size);
                        d.idx64 = (uint8_t)!split;
                        prog_add(&p, &d, t);
                    }
                }
        }
        prog_compile(&p, t, em_reduce_name((em_reduce_op)op));
    }
}

int main(void)
{
    const char *spec = getenv("EMBER_TEST_DEVICE");
    if (em_device_parse(spec && *spec ? spec : "cpu", &dev) != EM_OK) {
        fprintf(stderr, "no device %s: %s\n", spec, em_last_error());
        return 77;
    }
    test_full_f32();
    test_axes();
    test_errors();
    if ((have_nvrtc = check_nvrtc("test_reduce")) < 0)
        return 1;
    sample_seed("test_reduce");
    if (have_nvrtc)
        test_all_kernels(EM_DEVICE_CUDA);
    test_all_kernels(EM_DEVICE_CPU);
    CHECK_OK(em_device_synchronize(dev));
    return check_report("test_reduce");
}
