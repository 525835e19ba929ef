/* Products and cumulative sums: the matmul and cumulate generators'
 * kernels compile with NVRTC (PTX for sm_90, no GPU needed) and with the
 * host compiler, every dtype in the first variant and the other variants
 * for a rotating sample of dtypes (sample.h); results on the test device
 * against hand-computed values; bad input is refused with the right status. NVRTC
 * missing fails the test unless EMBER_TEST_NO_NVRTC=1 says so. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "codegen/cumulate.h"
#include "codegen/matmul.h"
#include "sample.h"

static em_device *dev;
static int have_nvrtc = 1;

/* One dtype in VARIANT_EVERY gets each variant beyond the first. */
enum { VARIANT_EVERY = 3 };

static void compile_one(const char *src, em_device_type target,
                        const char *what)
{
    em_code *c = NULL;
    char *log = NULL;
    em_status st;
    if (target == EM_DEVICE_CUDA) {
        st = em_compile_cuda(src, what, sample_nvrtc_opts, SAMPLE_NVRTC_NOPTS,
                             90, EM_CODE_PTX, &c, &log);
    } else {
        static const char *const o0[] = {"-O0"};
        st = em_compile_host(src, what, o0, 1, &c, &log);
    }
    check_count++;
    if (st != EM_OK) {
        check_failures++;
        fprintf(stderr, "%s (%s) failed: %s\n%s\n", what,
                target == EM_DEVICE_CUDA ? "nvrtc" : "cc", em_last_error(),
                log ? log : "");
    }
    em_code_free(c);
    free(log);
}

static void test_compile_all(void)
{
    int n = 0;
    for (int t = 0; t < 2; t++) {
        em_device_type target = t ? EM_DEVICE_CUDA : EM_DEVICE_CPU;
        if (target == EM_DEVICE_CUDA && !have_nvrtc)
            continue;
        /* variants: 0 dot, 1..4 tiles with the four load orders */
        for (int dt = 0; dt < EM_DTYPE_COUNT; dt++)
            for (int v = 0; v < 5; v++) {
                em_gen_matmul d = {(uint8_t)dt, (uint8_t)(v == 0),
                                   (uint8_t)(v > 0 && ((v - 1) & 1)),
                                   (uint8_t)(v > 0 && ((v - 1) & 2))};
                char *src = NULL, what[64];
                if (target == EM_DEVICE_CPU && v != 1)
                    continue; /* the host has one kernel for all */
                if (v != 1 && !sample_pick((unsigned)dt, (unsigned)v, 0,
                                           VARIANT_EVERY))
                    continue;
                snprintf(what, sizeof what, "matmul_%s_%d.cu",
                         em_dtype_get((em_dtype)dt)->name, v);
                CHECK_OK(em_gen_matmul_source(&d, target, "mm", &src));
                if (src)
                    compile_one(src, target, what);
                free(src);
                n++;
            }
        /* Every op on every dtype, and every input dtype into each
         * default accumulator and into float16 (the per-step rounding). */
        for (int op = 0; op < EM_CUM_OP_COUNT; op++)
            for (int in = 0; in < EM_DTYPE_COUNT; in++) {
                em_dtype outs[3] = {
                    (em_dtype)in,
                    em_cumulate_dtype((em_cumulate_op)op, (em_dtype)in),
                    EM_FLOAT16};
                for (int k = 0; k < 4; k++) {
                    /* k = 3: the CUDA block-per-line schedule */
                    em_gen_cumulate d = {(uint8_t)op, (uint8_t)in,
                                         (uint8_t)outs[k < 3 ? k : 1],
                                         (uint8_t)(k == 3)};
                    char *src = NULL, what[64];
                    if (k == 1 && outs[1] == outs[0])
                        continue;
                    if (k == 3 && target != EM_DEVICE_CUDA)
                        continue;
                    if (k == 2 && (op != EM_CUM_SUM || in == EM_FLOAT16))
                        continue;
                    if (k && !sample_pick((unsigned)in, (unsigned)op,
                                          (unsigned)k, VARIANT_EVERY))
                        continue;
                    snprintf(what, sizeof what, "cum_%d_%d_%d_%d.cu", op, in,
                             (int)d.out, d.kind);
                    CHECK_OK(em_gen_cumulate_source(&d, target, "cum", &src));
                    if (src)
                        compile_one(src, target, what);
                    free(src);
                    n++;
                }
            }
    }
    printf("compiled %d product and cumulate kernels\n", n);
}

/* ---- values ----------------------------------------------------------- */

static em_array mk(em_dtype dt, int nd, const int64_t *shape, const void *host)
{
    em_array a;
    memset(&a, 0, sizeof a);
    CHECK_OK(em_array_empty(dev, dt, nd, shape, 'C', NULL, &a));
    if (host && a.storage && a.size)
        CHECK_OK(em_array_from_host(&a, host, NULL, NULL));
    return a;
}

static void fetch(const em_array *a, void *host)
{
    if (a->storage && a->size)
        CHECK_OK(em_array_to_host(a, host, NULL, NULL));
}

static void test_matmul_int(void)
{
    int32_t av[6] = {1, 2, 3, 4, 5, 6}, bv[6] = {7, 8, 9, 10, 11, 12};
    int32_t want[4] = {58, 64, 139, 154}, got[4] = {0};
    int64_t sa[2] = {2, 3}, sb[2] = {3, 2};
    em_array a = mk(EM_INT32, 2, sa, av), b = mk(EM_INT32, 2, sb, bv), c = {0},
             at = {0}, v = {0};
    CHECK_OK(em_matmul(&a, &b, NULL, &c, NULL));
    CHECK(c.ndim == 2 && c.shape[0] == 2 && c.shape[1] == 2 &&
          c.dtype == EM_INT32);
    fetch(&c, got);
    CHECK(!memcmp(got, want, sizeof want));
    em_array_release(&c);

    /* a.T @ a.T.T, with a transposed (strided) operand: (3,2) @ (2,3) */
    {
        int32_t w2[9], g2[9];
        CHECK_OK(em_array_transpose(&a, NULL, &at));
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                w2[i * 3 + j] = av[0 * 3 + i] * av[0 * 3 + j] +
                                av[1 * 3 + i] * av[1 * 3 + j];
        CHECK_OK(em_matmul(&at, &a, NULL, &c, NULL));
        fetch(&c, g2);
        CHECK(!memcmp(g2, w2, sizeof w2));
        em_array_release(&c);
    }

    /* 1-D @ 2-D and 2-D @ 1-D drop the promoted axis. */
    {
        int64_t n3 = 3;
        int32_t vv[3] = {1, 0, -1}, g1[2];
        v = mk(EM_INT32, 1, &n3, vv);
        CHECK_OK(em_matmul(&a, &v, NULL, &c, NULL));
        CHECK(c.ndim == 1 && c.shape[0] == 2);
        fetch(&c, g1);
        CHECK(g1[0] == -2 && g1[1] == -2);
        em_array_release(&c);
        CHECK_OK(em_matmul(&v, &b, NULL, &c, NULL));
        CHECK(c.ndim == 1 && c.shape[0] == 2);
        fetch(&c, g1);
        CHECK(g1[0] == -4 && g1[1] == -4);
        em_array_release(&c);
        /* 1-D @ 1-D: 0-d */
        CHECK_OK(em_matmul(&v, &v, NULL, &c, NULL));
        CHECK(c.ndim == 0);
        fetch(&c, g1);
        CHECK(g1[0] == 2);
        em_array_release(&c);
        /* errors: core mismatch, 0-d */
        CHECK_STATUS(em_matmul(&a, &a, NULL, &c, NULL), EM_ERR_INVALID_VALUE);
        CHECK(strstr(em_last_error(), "(2, 3)") != NULL);
        CHECK(c.storage == NULL);
    }
    em_array_release(&a);
    em_array_release(&b);
    em_array_release(&at);
    em_array_release(&v);
}

static void test_matmul_types(void)
{
    int64_t s22[2] = {2, 2};
    /* int8 wraps: 100*2 + 100*2 = 400 -> -112 */
    {
        int8_t av[4] = {100, 100, 1, 1}, bv[4] = {2, 0, 2, 0}, g[4];
        em_array a = mk(EM_INT8, 2, s22, av), b = mk(EM_INT8, 2, s22, bv),
                 c = {0};
        CHECK_OK(em_matmul(&a, &b, NULL, &c, NULL));
        CHECK(c.dtype == EM_INT8);
        fetch(&c, g);
        CHECK(g[0] == (int8_t)-112 && g[1] == 0 && g[2] == 4 && g[3] == 0);
        em_array_release(&a);
        em_array_release(&b);
        em_array_release(&c);
    }
    /* bool: or of ands */
    {
        unsigned char av[4] = {1, 0, 0, 0}, bv[4] = {1, 1, 0, 1}, g[4];
        em_array a = mk(EM_BOOL, 2, s22, av), b = mk(EM_BOOL, 2, s22, bv),
                 c = {0};
        CHECK_OK(em_matmul(&a, &b, NULL, &c, NULL));
        CHECK(c.dtype == EM_BOOL);
        fetch(&c, g);
        CHECK(g[0] == 1 && g[1] == 1 && g[2] == 0 && g[3] == 0);
        em_array_release(&a);
        em_array_release(&b);
        em_array_release(&c);
    }
    /* complex128: (1+2i)(3+4i) = -5+10i */
    {
        double av[2] = {1, 2}, bv[2] = {3, 4}, g[2];
        int64_t s11[2] = {1, 1};
        em_array a = mk(EM_COMPLEX128, 2, s11, av),
                 b = mk(EM_COMPLEX128, 2, s11, bv), c = {0};
        CHECK_OK(em_matmul(&a, &b, NULL, &c, NULL));
        fetch(&c, g);
        CHECK(g[0] == -5 && g[1] == 10);
        em_array_release(&c);
        /* vdot conjugates the first: (1-2i)(3+4i) = 11-2i */
        CHECK_OK(em_vdot(&a, &b, &c, NULL));
        CHECK(c.ndim == 0);
        fetch(&c, g);
        CHECK(g[0] == 11 && g[1] == -2);
        em_array_release(&a);
        em_array_release(&b);
        em_array_release(&c);
    }
    /* mixed int8 and float32 promote to float32; k = 0 gives zeros */
    {
        int64_t s20[2] = {2, 0}, s03[2] = {0, 3};
        float g[6] = {1, 1, 1, 1, 1, 1};
        em_array a = mk(EM_INT8, 2, s20, NULL),
                 b = mk(EM_FLOAT32, 2, s03, NULL), c = {0};
        CHECK_OK(em_matmul(&a, &b, NULL, &c, NULL));
        CHECK(c.dtype == EM_FLOAT32 && c.shape[0] == 2 && c.shape[1] == 3);
        fetch(&c, g);
        for (int i = 0; i < 6; i++)
            CHECK(g[i] == 0.0f);
        em_array_release(&a);
        em_array_release(&b);
        em_array_release(&c);
    }
}

/* A batch broadcast against a matrix, with sizes that are not tile
 * multiples, checked against a plain loop. */
static void test_matmul_batch(void)
{
    enum { B = 3, M = 37, K = 53, N = 29 };
    int64_t sa[3] = {B, M, K}, sb[2] = {K, N};
    double *av = malloc(sizeof(double) * B * M * K),
           *bv = malloc(sizeof(double) * K * N),
           *g = malloc(sizeof(double) * B * M * N);
    em_array a, b, c = {0};
    double err = 0;
    for (int i = 0; i < B * M * K; i++)
        av[i] = (double)((i * 7) % 11) - 5;
    for (int i = 0; i < K * N; i++)
        bv[i] = (double)((i * 5) % 13) - 6;
    a = mk(EM_FLOAT64, 3, sa, av);
    b = mk(EM_FLOAT64, 2, sb, bv);
    CHECK_OK(em_matmul(&a, &b, NULL, &c, NULL));
    CHECK(c.ndim == 3 && c.shape[0] == B && c.shape[1] == M && c.shape[2] == N);
    fetch(&c, g);
    for (int z = 0; z < B; z++)
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                double w = 0;
                for (int k = 0; k < K; k++)
                    w += av[(z * M + i) * K + k] * bv[k * N + j];
                err = fmax(err, fabs(w - g[(z * M + i) * N + j]));
            }
    CHECK(err == 0); /* small integers: exact */
    em_array_release(&a);
    em_array_release(&b);
    em_array_release(&c);
    free(av);
    free(bv);
    free(g);
}

static void test_dot_family(void)
{
    int64_t s23[2] = {2, 3}, s3 = 3, s2 = 2;
    int64_t av[6] = {1, 2, 3, 4, 5, 6}, bv[3] = {1, 1, 2}, g[6];
    em_array a = mk(EM_INT64, 2, s23, av), v = mk(EM_INT64, 1, &s3, bv),
             w = mk(EM_INT64, 1, &s2, bv), c = {0};
    CHECK_OK(em_dot(&a, &v, &c, NULL));
    fetch(&c, g);
    CHECK(c.ndim == 1 && g[0] == 9 && g[1] == 21);
    em_array_release(&c);
    CHECK_OK(em_inner(&a, &a, &c, NULL));
    fetch(&c, g);
    CHECK(c.ndim == 2 && g[0] == 14 && g[1] == 32 && g[3] == 77);
    em_array_release(&c);
    CHECK_OK(em_outer(&w, &v, &c, NULL));
    fetch(&c, g);
    CHECK(c.ndim == 2 && c.shape[0] == 2 && c.shape[1] == 3 && g[2] == 2 &&
          g[5] == 2);
    em_array_release(&c);
    CHECK_STATUS(em_dot(&a, &w, &c, NULL), EM_ERR_INVALID_VALUE);
    CHECK(strstr(em_last_error(), "not aligned") != NULL);
    /* tensordot over both axes of a with itself: sum of squares = 91 */
    {
        int ax[2] = {0, 1};
        CHECK_OK(em_tensordot(&a, &a, 2, ax, ax, &c, NULL));
        fetch(&c, g);
        CHECK(c.ndim == 0 && g[0] == 91);
        em_array_release(&c);
        ax[0] = 2;
        CHECK_STATUS(em_tensordot(&a, &a, 1, ax, ax, &c, NULL), EM_ERR_AXIS);
    }
    CHECK_OK(em_vecdot(&a, &v, -1, &c, NULL));
    fetch(&c, g);
    CHECK(c.ndim == 1 && g[0] == 9 && g[1] == 21);
    em_array_release(&c);
    em_array_release(&a);
    em_array_release(&v);
    em_array_release(&w);
}

static void test_cumulate(void)
{
    int64_t s23[2] = {2, 3};
    int32_t av[6] = {1, 2, 3, 4, 5, 6};
    int64_t g[6];
    em_array a = mk(EM_INT32, 2, s23, av), c = {0};
    CHECK_OK(em_cumulate(EM_CUM_SUM, &a, 1, 0, 0, EM_BOOL, &c, NULL));
    CHECK(c.dtype == EM_INT64);
    fetch(&c, g);
    CHECK(g[0] == 1 && g[1] == 3 && g[2] == 6 && g[3] == 4 && g[5] == 15);
    em_array_release(&c);
    CHECK_OK(em_cumulate(EM_CUM_PROD, &a, 0, 0, 0, EM_BOOL, &c, NULL));
    fetch(&c, g);
    CHECK(g[0] == 1 && g[3] == 4 && g[4] == 10 && g[5] == 18);
    em_array_release(&c);
    CHECK_OK(em_cumulate(EM_CUM_SUM, &a, 0, 1, 0, EM_BOOL, &c, NULL));
    fetch(&c, g);
    CHECK(c.ndim == 1 && c.shape[0] == 6 && g[5] == 21);
    em_array_release(&c);
    CHECK_STATUS(em_cumulate(EM_CUM_SUM, &a, 2, 0, 0, EM_BOOL, &c, NULL),
                 EM_ERR_AXIS);
    /* nancumsum and float16 per-step rounding: 2048 + 1 stays 2048 */
    {
        double fv[4] = {1, NAN, 2, -0.0};
        double fg[4];
        int64_t n4 = 4;
        em_array f = mk(EM_FLOAT64, 1, &n4, fv);
        CHECK_OK(em_cumulate(EM_CUM_NANSUM, &f, 0, 0, 0, EM_BOOL, &c, NULL));
        fetch(&c, fg);
        CHECK(fg[0] == 1 && fg[1] == 1 && fg[2] == 3 && fg[3] == 3);
        em_array_release(&c);
        em_array_release(&f);
    }
    {
        uint16_t hv[3] = {0x6800 /* 2048 */, 0x3c00 /* 1 */, 0x3c00}, hg[3];
        int64_t n3 = 3;
        em_array h = mk(EM_FLOAT16, 1, &n3, hv);
        CHECK_OK(em_cumulate(EM_CUM_SUM, &h, 0, 0, 0, EM_BOOL, &c, NULL));
        CHECK(c.dtype == EM_FLOAT16);
        fetch(&c, hg);
        CHECK(hg[0] == 0x6800 && hg[1] == 0x6800 && hg[2] == 0x6800);
        em_array_release(&c);
        em_array_release(&h);
    }
    em_array_release(&a);
}

int main(void)
{
    const char *spec = getenv("EMBER_TEST_DEVICE");
    if ((have_nvrtc = check_nvrtc("test_linalg")) < 0)
        return 1;
    if (em_device_parse(spec && *spec ? spec : "cpu", &dev) != EM_OK) {
        fprintf(stderr, "test_linalg: device %s: %s\n", spec, em_last_error());
        return spec ? 77 : 1;
    }
    em_set_current_device(dev);
    printf("test_linalg on %s\n", em_device_name(dev));
    sample_seed("test_linalg");
    test_compile_all();
    test_matmul_int();
    test_matmul_types();
    test_matmul_batch();
    test_dot_family();
    test_cumulate();
    CHECK_OK(em_device_synchronize(dev));
    return check_report("test_linalg");
}
