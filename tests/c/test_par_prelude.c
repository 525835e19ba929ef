/* User operators that bring C definitions (a Python device function's
 * translation, "DEFS" EM_PAR_PRELUDE_SEP "EXPR"): every kernel family
 * that pastes them compiles with NVRTC (PTX for sm_90, no GPU needed) with
 * the translator's real prelude in front, and with cc, each dtype plainly
 * and the flag variants by a rotating sample (sample.h); on the cpu device a scan and a transform use them, and two operators
 * whose expressions are equal but whose definitions differ get different
 * kernels (the definitions are part of the cache key). NVRTC missing skips
 * the compile part only with EMBER_TEST_NO_NVRTC=1. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "codegen/linalg_table.h"
#include "codegen/scan.h"
#include "sample.h"

/* python/ember/jit/prelude.h, found from this file's path (the translator
 * pastes it in front of every device function); "" when not found. */
static char *jit_prelude(void)
{
    const char *me = __FILE__, *cut = strstr(me, "tests/c/");
    char path[4096];
    FILE *f;
    long n;
    char *s;
    if (!cut || (size_t)(cut - me) + 40 > sizeof path)
        return calloc(1, 1);
    snprintf(path, sizeof path, "%.*spython/ember/jit/prelude.h",
             (int)(cut - me), me);
    if (!(f = fopen(path, "rb")))
        return calloc(1, 1);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n)
        n = 0;
    if (s)
        s[n] = 0;
    fclose(f);
    return s;
}

/* An operator in the translator's form: its prelude, #line directives
 * into the Python file, a __device__ function, then the expression. */
static char *with_defs(const char *prelude, const char *body,
                       const char *expr)
{
    static const char fmt[] =
        "%s\n#line 4 \"op.py\"\n"
        "__device__ double devop_f(double a, double b)\n{\n"
        "#line 5 \"op.py\"\n    return %s;\n}\n"
        "\x1e%s";
    size_t len = strlen(prelude) + strlen(body) + strlen(expr) + sizeof fmt;
    char *s = malloc(len);
    if (s)
        snprintf(s, len, fmt, prelude, body, expr);
    return s;
}

static void compile_src(const char *src, em_device_type target,
                        const char *what)
{
    em_code *c = NULL;
    char *log = NULL;
    em_status st;
    if (target == EM_DEVICE_CUDA)
        st = em_compile_cuda(src, "prelude.cu", sample_nvrtc_opts,
                             SAMPLE_NVRTC_NOPTS, 90, EM_CODE_PTX, &c, &log);
    else {
        static const char *const o0[] = {"-O0"};
        st = em_compile_host(src, "prelude.c", o0, 1, &c, &log);
    }
    CHECK_OK(st);
    if (st != EM_OK)
        fprintf(stderr, "%s:\n%s\n", what, log ? log : "");
    em_code_free(c);
    free(log);
}

/* Every generator that pastes an operator, with definitions in front. */
static void test_compile(const char *op, const char *pred,
                         const char *tup, em_device_type target)
{
    static const em_dtype dts[] = {EM_BOOL, EM_INT8,   EM_UINT16,
                                   EM_INT32, EM_INT64, EM_UINT64,
                                   EM_FLOAT32, EM_FLOAT64};
    char *src = NULL, *joined;
    const char *e2 = "devop_f(a1, b1)";
    size_t n = sizeof dts / sizeof *dts;
    for (size_t k = 0; k < n; k++) {
        em_gen_scan d = {0};
        d.op = EM_PAR_EXPR;
        d.in = d.out = (uint8_t)dts[k];
        d.expr = op;
        for (int fl = 0, j = 0; fl < 16; fl += k % 2 ? 3 : 5, j++) {
            /* The 26 kB prelude makes each compile dear: one dtype in
             * three gets each flag set beyond the plain scan. */
            if (j && !sample_pick((unsigned)k, (unsigned)j, 0, 3))
                continue;
            d.flags = (uint8_t)(fl & 15 & ~EM_GEN_SCAN_NAN);
            CHECK_OK(em_gen_scan_source(&d, target, "sc", &src));
            if (src) {
                /* the definitions come first, the expression is pasted */
                CHECK(strstr(src, "devop_f(double a") != NULL);
                CHECK(strchr(src, '\x1e') == NULL);
                compile_src(src, target, "scan");
            }
            free(src);
            src = NULL;
        }
        if (sample_pick((unsigned)k, 0, 0, 2)) {
            em_dtype two[2] = {dts[k], dts[k]};
            CHECK_OK(em_gen_transform_source(op, 2, two, dts[k], target, "tr",
                                             &src));
            if (src)
                compile_src(src, target, "transform");
            free(src);
            src = NULL;
        } else {
            CHECK_OK(em_gen_flags_source(pred, dts[k], target, "tr", &src));
            if (src)
                compile_src(src, target, "flags");
            free(src);
            src = NULL;
        }
    }
    /* tuple values: the first expression carries the definitions */
    joined = malloc(strlen(tup) + strlen(e2) + 2);
    if (joined) {
        em_gen_scan d = {0};
        sprintf(joined, "%s\x1f%s", tup, e2);
        d.op = EM_PAR_EXPR;
        d.ncomp = 2;
        d.tin[0] = d.tout[0] = EM_FLOAT32;
        d.tin[1] = d.tout[1] = EM_INT64;
        d.expr = joined;
        for (int fl = 0; fl < 16; fl += 4) {
            d.flags = (uint8_t)(fl & ~EM_GEN_SCAN_NAN);
            CHECK_OK(em_gen_scan_source(&d, target, "sc", &src));
            if (src)
                compile_src(src, target, "tuple scan");
            free(src);
            src = NULL;
        }
    }
    free(joined);
}

/* A scan and a transform on the cpu device through the public API; the
 * same expression over other definitions must not reuse the kernel. */
static void test_cpu(const char *prelude)
{
    const int64_t n = 100003;
    char *mx = with_defs(prelude, "a > b ? a : b", "devop_f(a, b)"),
         *mn = with_defs(prelude, "a < b ? a : b", "devop_f(a, b)");
    em_par_op opx = {EM_PAR_EXPR, mx}, opn = {EM_PAR_EXPR, mn};
    double *h = malloc((size_t)n * 8), *r = malloc((size_t)n * 8);
    em_array x = {0}, y = {0}, z = {0};
    em_device *cpu;
    int bad = 0;
    CHECK_OK(em_device_get(EM_DEVICE_CPU, 0, &cpu));
    for (int64_t i = 0; i < n; i++)
        h[i] = (double)((i * 7919) % 100003) - 50000.0;
    CHECK_OK(em_array_empty(cpu, EM_FLOAT64, 1, &n, 'C', NULL, &x));
    CHECK_OK(em_array_from_host(&x, h, NULL, NULL));
    for (int w = 0; w < 2; w++) {
        CHECK_OK(em_scan(&x, EM_SCAN_FLAT, w ? &opn : &opx, 0, NULL,
                         EM_FLOAT64, &y, NULL));
        CHECK_OK(em_array_to_host(&y, r, NULL, NULL));
        for (int64_t i = 0; i < n && !bad; i++) {
            double want = h[i];
            if (i)
                want = w ? (r[i - 1] < h[i] ? r[i - 1] : h[i])
                         : (r[i - 1] > h[i] ? r[i - 1] : h[i]);
            bad = r[i] != want;
        }
        CHECK(!bad);
        em_array_release(&y);
    }
    {
        const em_array *in[2] = {&x, &x};
        CHECK_OK(em_par_transform(mn, 2, in, EM_FLOAT64, &z, NULL));
        CHECK_OK(em_array_to_host(&z, r, NULL, NULL));
        for (int64_t i = 0; i < n && !bad; i++)
            bad = r[i] != h[i];
        CHECK(!bad);
        em_array_release(&z);
    }
    em_array_release(&x);
    free(h);
    free(r);
    free(mx);
    free(mn);
}

int main(void)
{
    int nvrtc = check_nvrtc("test_par_prelude");
    char *prelude = jit_prelude(), *op, *pred, *tup;
    if (nvrtc < 0)
        return 1;
    sample_seed("test_par_prelude");
    CHECK(prelude && prelude[0]);
    if (!prelude)
        return 1;
    op = with_defs(prelude, "(fabs(a) > fabs(b)) ? a : b", "devop_f(a, b)");
    pred = with_defs(prelude, "a > b", "devop_f(a, 0.5)");
    tup = with_defs(prelude, "a + b", "devop_f(a0, b0)");
    test_cpu(prelude);
    test_compile(op, pred, tup, EM_DEVICE_CPU);
    if (nvrtc > 0)
        test_compile(op, pred, tup, EM_DEVICE_CUDA);
    free(op);
    free(pred);
    free(tup);
    free(prelude);
    return check_report("test_par_prelude");
}
