/* Scans: the generator's variants compile with NVRTC (PTX for sm_90, no
 * GPU needed) and cc: every (operator, dtype) plainly, the segmented, NaN
 * and helper kernels for a rotating sample (sample.h) that gives each
 * dtype and each variant its turn; on the cpu device, scans agree with a serial
 * loop across chunk boundaries, rows, exclusive/inclusive, init and a
 * non-commutative user operator; bad operators are refused. NVRTC missing
 * skips the compile part only with EMBER_TEST_NO_NVRTC=1. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "codegen/linalg_table.h"
#include "codegen/scan.h"
#include "sample.h"

/* One (operator, dtype) pair in VARIANT_EVERY also compiles segmented
 * and with NaN flags; one dtype in VARIANT_EVERY gets each helper kernel. */
enum { VARIANT_EVERY = 3 };

static const em_par_builtin ops[] = {EM_PAR_ADD, EM_PAR_MUL, EM_PAR_MIN,
                                     EM_PAR_MAX, EM_PAR_AND, EM_PAR_OR,
                                     EM_PAR_XOR, EM_PAR_EXPR};

static void compile_one(const em_gen_scan *d, em_device_type target)
{
    char *src = NULL, *log = NULL;
    em_code *c = NULL;
    em_status st = em_gen_scan_source(d, target, "sc", &src);
    CHECK_OK(st);
    if (st != EM_OK)
        return;
    if (target == EM_DEVICE_CUDA)
        st = em_compile_cuda(src, "scan.cu", sample_nvrtc_opts,
                             SAMPLE_NVRTC_NOPTS, 90, EM_CODE_PTX, &c, &log);
    else {
        static const char *const o0[] = {"-O0"};
        st = em_compile_host(src, "scan.c", o0, 1, &c, &log);
    }
    CHECK_OK(st);
    if (st != EM_OK)
        fprintf(stderr, "op %d %d->%d flags %d:\n%s\n", d->op, d->in, d->out,
                d->flags, log ? log : "");
    em_code_free(c);
    free(log);
    free(src);
}

/* Every (operator, value dtype) the generator accepts, with the flags
 * rotating, plus the widening conversions cumsum uses. */
static void test_compile_all(em_device_type target)
{
    int n = 0;
    for (int dt = 0; dt < EM_DTYPE_COUNT; dt++)
        for (size_t k = 0; k < sizeof ops / sizeof *ops; k++) {
            em_gen_scan d = {0};
            if (em_gen_scan_check(ops[k], (em_dtype)dt, "t") != EM_OK)
                continue;
            d.op = (uint8_t)ops[k];
            d.in = d.out = (uint8_t)dt;
            d.flags = (uint8_t)(n++ % 4);
            d.expr = ops[k] == EM_PAR_EXPR
                         ? (dt >= EM_COMPLEX64 ? "a" : "a * 2 + b")
                         : NULL;
            compile_one(&d, target);
            if (!sample_pick((unsigned)dt, (unsigned)k, 0, VARIANT_EVERY))
                continue;
            d.flags |= EM_GEN_SCAN_SEGMENTED;
            compile_one(&d, target);
            n++;
            if (ops[k] == EM_PAR_ADD || ops[k] == EM_PAR_MUL) {
                d.flags = EM_GEN_SCAN_NAN;
                compile_one(&d, target);
                n++;
            }
        }
    {
        static const int conv[][2] = {{EM_BOOL, EM_INT64},
                                      {EM_INT8, EM_INT64},
                                      {EM_INT32, EM_INT64},
                                      {EM_UINT16, EM_UINT64},
                                      {EM_FLOAT16, EM_FLOAT32},
                                      {EM_FLOAT64, EM_COMPLEX128},
                                      {EM_UINT8, EM_UINT32},
                                      {EM_INT8, EM_FLOAT32},
                                      {EM_BOOL, EM_INT16}};
        for (size_t k = 0; k < sizeof conv / sizeof *conv; k++) {
            em_gen_scan d = {0};
            d.op = EM_PAR_ADD;
            d.in = (uint8_t)conv[k][0];
            d.out = (uint8_t)conv[k][1];
            d.flags = (uint8_t)(k % 4);
            compile_one(&d, target);
        }
    }
    /* Tuple values: per-component built-ins over mixed dtypes, argmin
     * and argmax on (value, index), expressions over 2 to 4 components;
     * every flag combination the algorithms use. */
    {
        static const uint8_t dts[][4] = {
            {EM_FLOAT32, EM_INT64, EM_INT32, EM_FLOAT64},
            {EM_INT16, EM_FLOAT64, EM_BOOL, EM_UINT8},
            {EM_FLOAT16, EM_INT32, EM_COMPLEX64, EM_INT8},
            {EM_INT32, EM_INT64, EM_UINT64, EM_COMPLEX128}};
        static const em_par_builtin tops[] = {EM_PAR_ADD, EM_PAR_MUL,
                                              EM_PAR_MAX, EM_PAR_ARGMIN,
                                              EM_PAR_ARGMAX, EM_PAR_EXPR};
        static const uint8_t tflags[] = {0, EM_GEN_SCAN_INIT,
                                         EM_GEN_SCAN_EXCLUSIVE |
                                             EM_GEN_SCAN_INIT,
                                         EM_GEN_SCAN_SEGMENTED,
                                         EM_GEN_SCAN_SEGMENTED |
                                             EM_GEN_SCAN_EXCLUSIVE |
                                             EM_GEN_SCAN_INIT};
        int m = 0;
        for (size_t r = 0; r < sizeof dts / sizeof *dts; r++)
            for (size_t k = 0; k < sizeof tops / sizeof *tops; k++) {
                em_gen_scan d;
                memset(&d, 0, sizeof d);
                d.op = (uint8_t)tops[k];
                d.ncomp = tops[k] == EM_PAR_ARGMIN || tops[k] == EM_PAR_ARGMAX
                              ? 2
                              : (uint8_t)(2 + (r + k) % 3);
                for (int c = 0; c < d.ncomp; c++)
                    d.tin[c] = d.tout[c] = dts[r][c];
                if (tops[k] == EM_PAR_ARGMIN || tops[k] == EM_PAR_ARGMAX) {
                    if (em_gen_lt_type_of((em_dtype)d.tout[0])->cls == 'c' ||
                        em_gen_lt_type_of((em_dtype)d.tout[1])->cls == 'c')
                        continue;
                    d.tin[1] = EM_INT32;
                    d.tout[1] = EM_INT64;
                } else if (tops[k] != EM_PAR_EXPR) {
                    int ok = 1;
                    for (int c = 0; c < d.ncomp; c++)
                        ok &= em_gen_scan_check(tops[k], (em_dtype)d.tout[c],
                                                "t") == EM_OK;
                    if (!ok)
                        continue;
                    d.tin[0] = EM_INT8; /* a conversion on load */
                }
                d.expr = tops[k] == EM_PAR_EXPR
                             ? "a0\x1f"
                               "b1\x1f"
                               "a2\x1f"
                               "b3"
                             : NULL;
                d.flags = tflags[m++ % (int)sizeof tflags];
                compile_one(&d, target);
            }
    }
    /* The kernels around the scan, for every dtype. */
    for (int dt = 0; dt < EM_DTYPE_COUNT; dt++) {
        em_dtype two[2] = {(em_dtype)dt, (em_dtype)dt};
        for (int v = 0; v < 7; v++) {
            char *src = NULL, *log = NULL;
            em_code *c = NULL;
            em_status st;
            int cplx = dt >= EM_COMPLEX64;
            if (!sample_pick((unsigned)dt, (unsigned)v, 0, VARIANT_EVERY))
                continue;
            switch (v) {
            case 0:
                st = em_gen_transform_source(cplx ? "a" : "a + b", 2, two,
                                             (em_dtype)dt, target, "tr", &src);
                break;
            case 1:
                st = em_gen_flags_source(cplx ? "a.re > 0" : "a > 0",
                                         (em_dtype)dt, target, "tr", &src);
                break;
            case 2:
                st = em_gen_flags_source(NULL, (em_dtype)dt, target, "tr",
                                         &src);
                break;
            case 3:
            case 4:
                st = em_gen_scatter_source((em_dtype)dt, v == 4, target, "tr",
                                           &src);
                break;
            case 5:
                st = em_gen_heads_source((em_dtype)dt, 0, target, "tr", &src);
                break;
            default:
                st = em_gen_segments_source((em_dtype)dt, 1, target, "tr",
                                            &src);
            }
            CHECK_OK(st);
            if (st != EM_OK)
                continue;
            if (target == EM_DEVICE_CUDA)
                st = em_compile_cuda(src, "tr.cu", sample_nvrtc_opts,
                                     SAMPLE_NVRTC_NOPTS, 90, EM_CODE_PTX, &c,
                                     &log);
            else {
                static const char *const o0[] = {"-O0"};
                st = em_compile_host(src, "tr.c", o0, 1, &c, &log);
            }
            CHECK_OK(st);
            if (st != EM_OK)
                fprintf(stderr, "kernel %d dtype %d:\n%s\n", v, dt,
                        log ? log : "");
            n++;
            em_code_free(c);
            free(log);
            free(src);
        }
    }
    {
        char *src = NULL;
        em_code *c = NULL;
        CHECK_OK(em_gen_heads_source(EM_BOOL, 1, target, "tr", &src));
        if (target == EM_DEVICE_CUDA)
            CHECK_OK(em_compile_cuda(src, "tr.cu", sample_nvrtc_opts,
                                     SAMPLE_NVRTC_NOPTS, 90, EM_CODE_PTX, &c,
                                     NULL));
        em_code_free(c);
        free(src);
        c = NULL;
        src = NULL;
        CHECK_OK(em_gen_segments_source(EM_BOOL, 0, target, "tr", &src));
        if (target == EM_DEVICE_CUDA)
            CHECK_OK(em_compile_cuda(src, "tr.cu", sample_nvrtc_opts,
                                     SAMPLE_NVRTC_NOPTS, 90, EM_CODE_PTX, &c,
                                     NULL));
        em_code_free(c);
        free(src);
    }
    printf("compiled %d scan variants for %s\n", n + 6,
           target == EM_DEVICE_CUDA ? "cuda" : "cpu");
}

/* Composition of affine maps x -> m x + c mod 2^32, m in the high word
 * and c in the low one: associative and not commutative, so a scan that
 * combines out of order gives another answer. */
#define AFFINE                                                                \
    "(long long)(((((unsigned long long)a >> 32) * ((unsigned long long)b " \
    ">> 32)) << 32) | ((((unsigned long long)b >> 32) * ((unsigned long "   \
    "long)a & 0xffffffffull) + ((unsigned long long)b & 0xffffffffull)) & " \
    "0xffffffffull))"
static uint64_t affine(uint64_t a, uint64_t b)
{
    return (((a >> 32) * (b >> 32)) << 32) |
           (((b >> 32) * (a & 0xffffffffull) + (b & 0xffffffffull)) &
            0xffffffffull);
}

/* A flat scan of n int64 through the cpu device against a loop. */
static void check_flat(em_device *cpu, long long n, const em_par_op *op,
                       int exclusive, const int64_t *init)
{
    int64_t *h = malloc((size_t)(n ? n : 1) * 8),
            *r = malloc((size_t)(n ? n : 1) * 8);
    int64_t shape = n, acc = init ? *init : 0;
    em_array x = {0}, y = {0};
    int bad = 0;
    for (long long i = 0; i < n; i++)
        h[i] = op->kind == EM_PAR_ADD
                   ? (int64_t)((i * 7919) % 1000) - 500
                   : (int64_t)(((uint64_t)(i % 5 + 1) << 32) |
                               (uint64_t)((i * 7919) % 1000));
    CHECK_OK(em_array_empty(cpu, EM_INT64, 1, &shape, 'C', NULL, &x));
    CHECK_OK(em_array_from_host(&x, h, NULL, NULL));
    CHECK_OK(em_scan(&x, EM_SCAN_FLAT, op, exclusive, init, EM_INT64, &y,
                     NULL));
    CHECK_OK(em_array_to_host(&y, r, NULL, NULL));
    for (long long i = 0; i < n && !bad; i++) {
        int64_t want;
        uint64_t a = (uint64_t)acc, b = (uint64_t)h[i];
        uint64_t comb = op->kind == EM_PAR_ADD ? a + b : affine(a, b);
        if (exclusive) {
            want = acc;
            acc = (int64_t)comb;
        } else {
            acc = (i == 0 && !init) ? h[0] : (int64_t)comb;
            want = acc;
        }
        if (r[i] != want) {
            fprintf(stderr, "n %lld op %d excl %d: [%lld] = %lld, want %lld\n",
                    n, op->kind, exclusive, i, (long long)r[i],
                    (long long)want);
            bad = 1;
        }
    }
    CHECK(!bad);
    em_array_release(&x);
    em_array_release(&y);
    free(h);
    free(r);
}

/* Tuple values through the C API on the cpu device: affine maps (m, c)
 * composed in order (not commutative), a float argmin with its index,
 * and the errors for mismatched lengths and a wrong expression count. */
static void test_cpu_tuple(em_device *cpu)
{
    static const char *const aff2[] = {"a0 * b0", "b0 * a1 + b1"};
    const int64_t n = 70001, four = 4;
    int64_t *m = malloc((size_t)n * 8), *c = malloc((size_t)n * 8);
    int64_t *r0 = malloc((size_t)n * 8), *r1 = malloc((size_t)n * 8);
    float *f = malloc((size_t)n * 4);
    em_array xm = {0}, xc = {0}, xf = {0}, xs = {0}, out[2];
    const em_array *in[2];
    em_par_tuple_op op = {EM_PAR_EXPR, 2, aff2};
    em_dtype dts[2] = {EM_INT64, EM_INT64};
    int bad = 0;
    for (int64_t i = 0; i < n; i++) {
        m[i] = i % 3 - 1;
        c[i] = (i * 7919) % 1000 - 500;
        f[i] = (float)((i * 37) % 1001) - 300.0f;
    }
    f[5000] = f[60000] = -400.0f; /* a tie: the lower index wins */
    CHECK_OK(em_array_empty(cpu, EM_INT64, 1, &n, 'C', NULL, &xm));
    CHECK_OK(em_array_empty(cpu, EM_INT64, 1, &n, 'C', NULL, &xc));
    CHECK_OK(em_array_empty(cpu, EM_FLOAT32, 1, &n, 'C', NULL, &xf));
    CHECK_OK(em_array_from_host(&xm, m, NULL, NULL));
    CHECK_OK(em_array_from_host(&xc, c, NULL, NULL));
    CHECK_OK(em_array_from_host(&xf, f, NULL, NULL));
    in[0] = &xm;
    in[1] = &xc;
    CHECK_OK(em_scan_tuple(2, in, &op, 0, NULL, dts, out, NULL));
    CHECK_OK(em_array_to_host(&out[0], r0, NULL, NULL));
    CHECK_OK(em_array_to_host(&out[1], r1, NULL, NULL));
    {
        uint64_t am = (uint64_t)m[0], ac = (uint64_t)c[0];
        bad |= r0[0] != m[0] || r1[0] != c[0];
        for (int64_t i = 1; i < n; i++) {
            uint64_t bm = (uint64_t)m[i], bc = (uint64_t)c[i];
            ac = bm * ac + bc;
            am = am * bm;
            bad |= r0[i] != (int64_t)am || r1[i] != (int64_t)ac;
        }
    }
    CHECK(!bad);
    em_array_release(&out[0]);
    em_array_release(&out[1]);
    /* argmin over (value, position) */
    {
        em_par_tuple_op amin = {EM_PAR_ARGMIN, 0, NULL};
        int64_t best = 0;
        for (int64_t i = 1; i < n; i++)
            if (f[i] < f[best])
                best = i;
        for (int64_t i = 0; i < n; i++)
            m[i] = i;
        CHECK_OK(em_array_from_host(&xm, m, NULL, NULL));
        in[0] = &xf;
        in[1] = &xm;
        CHECK_OK(em_scan_tuple(2, in, &amin, 0, NULL, NULL, out, NULL));
        CHECK(out[0].dtype == EM_FLOAT32 && out[1].dtype == EM_INT64);
        CHECK_OK(em_array_to_host(&out[1], r1, NULL, NULL));
        CHECK(best == 5000 && r1[n - 1] == best);
        em_array_release(&out[0]);
        em_array_release(&out[1]);
    }
    /* errors */
    CHECK_OK(em_array_empty(cpu, EM_INT64, 1, &four, 'C', NULL, &xs));
    in[0] = &xc;
    in[1] = &xs;
    CHECK_STATUS(em_scan_tuple(2, in, &op, 0, NULL, NULL, out, NULL),
                 EM_ERR_INVALID_VALUE);
    CHECK(strstr(em_last_error(), "70001") && strstr(em_last_error(), " 4"));
    op.nexpr = 1;
    in[1] = &xm;
    CHECK_STATUS(em_scan_tuple(2, in, &op, 0, NULL, NULL, out, NULL),
                 EM_ERR_INVALID_VALUE);
    CHECK(strstr(em_last_error(), "1 expressions") != NULL);
    em_array_release(&xm);
    em_array_release(&xc);
    em_array_release(&xf);
    em_array_release(&xs);
    free(m);
    free(c);
    free(r0);
    free(r1);
    free(f);
}

static void test_cpu(void)
{
    em_device *cpu;
    em_par_op add = {EM_PAR_ADD, NULL}, aff = {EM_PAR_EXPR, AFFINE};
    const long long sizes[] = {0, 1, 2, 65535, 65536, 65537, 200003};
    const int64_t seven = 7;
    CHECK_OK(em_device_get(EM_DEVICE_CPU, 0, &cpu));
    test_cpu_tuple(cpu);
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        check_flat(cpu, sizes[k], &add, 0, NULL);
        check_flat(cpu, sizes[k], &add, 1, &seven);
        check_flat(cpu, sizes[k], &aff, 0, NULL);
        check_flat(cpu, sizes[k], &aff, 1, &seven);
        check_flat(cpu, sizes[k], &aff, 0, &seven);
    }
    /* Rows: a (3, 70000) int32 scanned along both axes, to int64. */
    {
        int64_t shape[2] = {3, 70000}, n = 3 * 70000;
        int32_t *h = malloc((size_t)n * 4);
        int64_t *r = malloc((size_t)n * 8);
        em_array x = {0}, y = {0};
        int bad = 0;
        for (int64_t i = 0; i < n; i++)
            h[i] = (int32_t)(i % 13) - 6;
        CHECK_OK(em_array_empty(cpu, EM_INT32, 2, shape, 'C', NULL, &x));
        CHECK_OK(em_array_from_host(&x, h, NULL, NULL));
        CHECK_OK(em_scan(&x, 1, &add, 0, NULL, EM_INT64, &y, NULL));
        CHECK_OK(em_array_to_host(&y, r, NULL, NULL));
        for (int row = 0; row < 3; row++) {
            int64_t acc = 0;
            for (int64_t j = 0; j < shape[1]; j++) {
                acc += h[row * shape[1] + j];
                bad |= r[row * shape[1] + j] != acc;
            }
        }
        CHECK(!bad);
        em_array_release(&y);
        CHECK_OK(em_scan(&x, 0, &add, 0, NULL, EM_INT64, &y, NULL));
        CHECK_OK(em_array_to_host(&y, r, NULL, NULL));
        for (int64_t j = 0; j < shape[1]; j++) {
            int64_t acc = 0;
            for (int row = 0; row < 3; row++) {
                acc += h[row * shape[1] + j];
                bad |= r[row * shape[1] + j] != acc;
            }
        }
        CHECK(!bad);
        em_array_release(&y);
        /* Bad operators and arguments. */
        {
            em_par_op bad_expr = {EM_PAR_EXPR, "a +* b"},
                      mn = {EM_PAR_XOR, NULL};
            em_array z = {0};
            CHECK_STATUS(em_scan(&x, 0, &bad_expr, 0, NULL, EM_INT64, &z, NULL),
                         EM_ERR_COMPILE);
            CHECK(strstr(em_last_error(), "a +* b") != NULL);
            CHECK_STATUS(em_scan(&x, 0, &mn, 0, NULL, EM_FLOAT32, &z, NULL),
                         EM_ERR_TYPE);
            CHECK_STATUS(em_scan(&x, 2, &add, 0, NULL, EM_INT64, &z, NULL),
                         EM_ERR_AXIS);
            CHECK_STATUS(em_scan(&x, 0, &add, 1, NULL, EM_INT64, &z, NULL),
                         EM_ERR_INVALID_VALUE);
        }
        em_array_release(&x);
        free(h);
        free(r);
    }
}

int main(void)
{
    int nvrtc = check_nvrtc("test_scan");
    if (nvrtc < 0)
        return 1;
    sample_seed("test_scan");
    test_cpu();
    if (nvrtc)
        test_compile_all(EM_DEVICE_CUDA);
    return check_report("test_scan");
}
