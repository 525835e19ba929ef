/* ember C tests: radix sort, axis sorts, searchsorted and top_k on the
 * cpu device (EMBER_TEST_DEVICE=cuda:0 runs them on a GPU), and every
 * sort kernel the generator can produce compiled with NVRTC (no GPU
 * needed: PTX, and sm_90 machine code for the widest key and a rotating
 * sample of the others, sample.h) and with the host compiler. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "algo/sort_internal.h"
#include "check.h"
#include "sample.h"

static em_device *dev;
static int have_nvrtc = 1;

/* The host compiles here only ask whether the C builds (the value tests
 * below compile the optimised kernels). */
static const char *const o0[] = {"-O0"};

static void compile_all(em_device_type target)
{
    for (int dt = -1; dt < EM_DTYPE_COUNT; dt++) {
        char *src = NULL, *log = NULL;
        em_code *c = NULL;
        em_status st;
        CHECK_OK(em_gen_sort_source(dt, target, &src));
        if (!src)
            continue;
        /* machine code for sm_90, not only PTX: ptxas checks each kernel's
         * registers and shared memory (a tile too large for 48 KiB of
         * static shared memory passes as PTX). The widest key has the
         * largest tiles, so it always goes through ptxas; the others take
         * turns, and the rest compile to unoptimised PTX (does it build). */
        if (target == EM_DEVICE_CUDA &&
            (dt == EM_COMPLEX128 || sample_pick((unsigned)(dt + 1), 0, 0, 3)))
            st = em_compile_cuda(src, "sort.cu", NULL, 0, 90, EM_CODE_CUBIN,
                                 &c, &log);
        else if (target == EM_DEVICE_CUDA)
            st = em_compile_cuda(src, "sort.cu", sample_nvrtc_opts,
                                 SAMPLE_NVRTC_NOPTS, 90, EM_CODE_PTX, &c, &log);
        else
            st = em_compile_host(src, "sort.c", o0, 1, &c, &log);
        check_count++;
        if (st != EM_OK) {
            check_failures++;
            fprintf(stderr, "sort kernels for dtype %d (%s) failed: %s\n%s\n",
                    dt, target == EM_DEVICE_CUDA ? "nvrtc" : "cc",
                    em_last_error(), log ? log : "");
        }
        em_code_free(c);
        free(log);
        free(src);
    }
}

/* The merge-pass kernels for every key dtype with a comparator. */
static void compile_merge(em_device_type target)
{
    for (int dt = 0; dt < EM_DTYPE_COUNT; dt++) {
        int cplx = dt == EM_COMPLEX64 || dt == EM_COMPLEX128;
        char *src = NULL, *log = NULL;
        em_code *c = NULL;
        em_status st;
        CHECK_OK(em_srt_merge_source(
            (em_dtype)dt, cplx ? "a.re < b.re" : "a < b", target, &src));
        if (!src)
            continue;
        if (target == EM_DEVICE_CUDA)
            st = em_compile_cuda(src, "merge.cu", sample_nvrtc_opts,
                                 SAMPLE_NVRTC_NOPTS, 90, EM_CODE_PTX, &c, &log);
        else
            st = em_compile_host(src, "merge.c", o0, 1, &c, &log);
        check_count++;
        if (st != EM_OK) {
            check_failures++;
            fprintf(stderr, "merge kernel for dtype %d (%s) failed: %s\n%s\n",
                    dt, target == EM_DEVICE_CUDA ? "nvrtc" : "cc",
                    em_last_error(), log ? log : "");
        }
        em_code_free(c);
        free(log);
        free(src);
    }
}

static em_array up(em_dtype dt, int ndim, const int64_t *shape,
                   const void *host)
{
    em_array a = {0};
    CHECK_OK(em_array_empty(dev, dt, ndim, shape, 'C', NULL, &a));
    CHECK_OK(em_array_from_host(&a, host, NULL, NULL));
    return a;
}

static void down(const em_array *a, void *host)
{
    CHECK_OK(em_array_to_host(a, host, NULL, NULL));
}

static uint32_t rng_state = 12345;
static uint32_t rnd(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

/* Many duplicates, sizes around the chunk sizes: sorted, stable. */
static void test_pairs_i32(int64_t n, int descending)
{
    int32_t *k = malloc((size_t)n * 4 + 4), *ko = malloc((size_t)n * 4 + 4);
    int64_t *v = malloc((size_t)n * 8 + 8), *vo = malloc((size_t)n * 8 + 8);
    em_array a, b, ok = {0}, ov = {0};
    int bad = 0;
    for (int64_t i = 0; i < n; i++) {
        k[i] = (int32_t)(rnd() % 97) - 48;
        v[i] = i;
    }
    a = up(EM_INT32, 1, &n, k);
    b = up(EM_INT64, 1, &n, v);
    CHECK_OK(em_radix_sort(&a, &b, descending, 0, -1, &ok, &ov, NULL));
    down(&ok, ko);
    down(&ov, vo);
    for (int64_t i = 0; i < n; i++) {
        if (k[vo[i]] != ko[i])
            bad++;
        if (i && (descending ? ko[i - 1] < ko[i] : ko[i - 1] > ko[i]))
            bad++;
        if (i && ko[i - 1] == ko[i] && vo[i - 1] >= vo[i])
            bad++;
    }
    CHECK(bad == 0);
    if (bad)
        fprintf(stderr, "  n=%lld desc=%d: %d bad\n", (long long)n, descending,
                bad);
    em_array_release(&a);
    em_array_release(&b);
    em_array_release(&ok);
    em_array_release(&ov);
    free(k);
    free(ko);
    free(v);
    free(vo);
}

static void test_floats(void)
{
    float k[] = {3.0f,  NAN,      -0.0f, 0.0f, -INFINITY, 1.0f,
                 -0.0f, INFINITY, -2.5f, NAN,  0.0f};
    int64_t n = 11, idx[11];
    const int64_t want[] = {4, 8, 2, 3, 6, 10, 5, 0, 7, 1, 9};
    em_array a = up(EM_FLOAT32, 1, &n, k), o = {0};
    CHECK_OK(em_argsort(&a, -1, 0, &o, NULL));
    down(&o, idx);
    CHECK(!memcmp(idx, want, sizeof want));
    em_array_release(&o);
    /* descending: NaNs still last, ties in input order */
    {
        const int64_t wd[] = {7, 0, 5, 2, 3, 6, 10, 8, 4, 1, 9};
        int64_t v[11];
        float ko[11];
        em_array b, ok = {0}, ov = {0};
        for (int i = 0; i < 11; i++)
            v[i] = i;
        b = up(EM_INT64, 1, &n, v);
        CHECK_OK(em_radix_sort(&a, &b, 1, 0, -1, &ok, &ov, NULL));
        down(&ov, v);
        down(&ok, ko);
        CHECK(!memcmp(v, wd, sizeof wd));
        CHECK(signbit(ko[3]) && !signbit(ko[4]) && signbit(ko[5]));
        em_array_release(&b);
        em_array_release(&ok);
        em_array_release(&ov);
    }
    em_array_release(&a);
}

static void test_axis(void)
{
    int16_t x[3][5] = {{5, -1, 3, 3, 0}, {2, 2, 2, 1, 9}, {-7, 8, 0, -7, 1}};
    int16_t s0[3][5], s1[3][5];
    int64_t shape[2] = {3, 5}, i1[3][5];
    em_array a = up(EM_INT16, 2, shape, x), o = {0};
    CHECK_OK(em_sort(&a, 1, 0, &o, NULL));
    down(&o, s1);
    em_array_release(&o);
    CHECK(s1[0][0] == -1 && s1[0][4] == 5 && s1[1][0] == 1 && s1[2][0] == -7 &&
          s1[2][1] == -7 && s1[2][4] == 8);
    CHECK_OK(em_sort(&a, 0, 0, &o, NULL));
    down(&o, s0);
    em_array_release(&o);
    CHECK(s0[0][0] == -7 && s0[1][0] == 2 && s0[2][0] == 5 && s0[0][4] == 0 &&
          s0[2][4] == 9);
    CHECK_OK(em_argsort(&a, -1, 0, &o, NULL));
    down(&o, i1);
    em_array_release(&o);
    CHECK(i1[0][0] == 1 && i1[0][1] == 4 && i1[0][2] == 2 && i1[0][3] == 3 &&
          i1[2][0] == 0 && i1[2][1] == 3);
    CHECK_STATUS(em_sort(&a, 2, 0, &o, NULL), EM_ERR_AXIS);
    em_array_release(&a);
}

static void test_search(void)
{
    double h[] = {-1.0, 0.0, 0.0, 2.0, NAN};
    double nd[] = {-0.0, 2.0, 5.0, NAN, -3.0};
    int64_t n = 5, l[5], r[5];
    const int64_t wl[] = {1, 3, 4, 4, 0}, wr[] = {3, 4, 4, 5, 0};
    em_array a = up(EM_FLOAT64, 1, &n, h), b = up(EM_FLOAT64, 1, &n, nd);
    em_array o = {0};
    CHECK_OK(em_searchsorted(&a, &b, 0, NULL, &o, NULL));
    down(&o, l);
    em_array_release(&o);
    CHECK_OK(em_searchsorted(&a, &b, 1, NULL, &o, NULL));
    down(&o, r);
    em_array_release(&o);
    CHECK(!memcmp(l, wl, sizeof wl));
    CHECK(!memcmp(r, wr, sizeof wr));
    em_array_release(&a);
    em_array_release(&b);
}

static void test_top_k(void)
{
    uint8_t x[] = {4, 9, 1, 9, 0, 7};
    uint8_t v[3];
    int64_t n = 6, i[3];
    em_array a = up(EM_UINT8, 1, &n, x), ov = {0}, oi = {0};
    CHECK_OK(em_top_k(&a, 3, 1, &ov, &oi, NULL));
    down(&ov, v);
    down(&oi, i);
    CHECK(v[0] == 9 && v[1] == 9 && v[2] == 7 && i[0] == 1 && i[1] == 3 &&
          i[2] == 5);
    em_array_release(&ov);
    em_array_release(&oi);
    CHECK_STATUS(em_top_k(&a, 7, 1, &ov, &oi, NULL), EM_ERR_INVALID_VALUE);
    em_array_release(&a);
}

static void test_errors(void)
{
    int64_t n = 4, m = 3;
    em_array c = {0}, k = {0}, v = {0}, o1 = {0}, o2 = {0};
    CHECK_OK(em_array_empty(dev, EM_COMPLEX64, 1, &n, 'C', NULL, &c));
    CHECK_OK(em_array_empty(dev, EM_INT32, 1, &n, 'C', NULL, &k));
    CHECK_OK(em_array_empty(dev, EM_INT32, 1, &m, 'C', NULL, &v));
    CHECK_STATUS(em_radix_sort(&c, NULL, 0, 0, -1, &o1, NULL, NULL),
                 EM_ERR_TYPE);
    CHECK(strstr(em_last_error(), "complex64") != NULL);
    CHECK_STATUS(em_radix_sort(&k, &v, 0, 0, -1, &o1, &o2, NULL),
                 EM_ERR_INVALID_VALUE);
    CHECK(strstr(em_last_error(), "4") && strstr(em_last_error(), "3"));
    CHECK_STATUS(em_radix_sort(&k, NULL, 0, 0, 33, &o1, NULL, NULL),
                 EM_ERR_INVALID_VALUE);
    CHECK(o1.storage == NULL);
    em_array_release(&c);
    em_array_release(&k);
    em_array_release(&v);
}

/* ---- the raw-key sorts (radix_onesweep.c) against a reference -------- */

/* Key i of dtype dt as the reference orders it: the order-preserving
 * image (NaN largest, -0.0 as 0.0), flipped for descending, then bits
 * [b0, b1) only. */
static uint64_t ref_key(em_dtype dt, const void *keys, int64_t i, int desc,
                        int b0, int b1)
{
    uint64_t u = 0, ones;
    int bits = em_srt_key_bits(dt), nan = 0;
    switch (dt) {
    case EM_UINT8:
        u = ((const uint8_t *)keys)[i];
        break;
    case EM_INT16:
        u = (uint16_t)((const int16_t *)keys)[i] ^ 0x8000u;
        break;
    case EM_UINT32:
        u = ((const uint32_t *)keys)[i];
        break;
    case EM_INT64:
        u = (uint64_t)((const int64_t *)keys)[i] ^ (1ull << 63);
        break;
    case EM_FLOAT32: {
        float f = ((const float *)keys)[i];
        uint32_t b;
        if (f == 0.0f)
            f = 0.0f;
        memcpy(&b, &f, 4);
        nan = isnan(f);
        u = (b >> 31) ? (uint32_t)~b : (b | 0x80000000u);
        break;
    }
    case EM_FLOAT64: {
        double f = ((const double *)keys)[i];
        uint64_t b;
        if (f == 0.0)
            f = 0.0;
        memcpy(&b, &f, 8);
        nan = isnan(f);
        u = (b >> 63) ? ~b : (b | (1ull << 63));
        break;
    }
    default:
        break;
    }
    ones = bits == 64 ? ~0ull : (1ull << bits) - 1;
    if (desc)
        u = ~u & ones;
    if (nan)
        u = ones;
    u >>= b0;
    return b1 - b0 >= 64 ? u : u & ((1ull << (b1 - b0)) - 1);
}

static const uint64_t *ref_keys;
static int ref_cmp(const void *x, const void *y)
{
    int64_t i = *(const int64_t *)x, j = *(const int64_t *)y;
    if (ref_keys[i] != ref_keys[j])
        return ref_keys[i] < ref_keys[j] ? -1 : 1;
    return i < j ? -1 : i > j;
}

/* Random keys of dt (few distinct values when dup, with NaNs, infs and
 * signed zeros for floats; all equal when dup == 2). */
static void fill_keys(em_dtype dt, void *k, int64_t n, int dup)
{
    size_t sz = em_dtype_size(dt);
    for (int64_t i = 0; i < n; i++) {
        uint64_t r = (uint64_t)rnd() << 40 ^ (uint64_t)rnd() << 20 ^ rnd();
        if (dup == 2)
            r = 77;
        else if (dup == 3) /* few top bytes: large buckets on the host */
            r = (r % 3) << (8 * sz - 8) ^ (r & 0xffffff);
        else if (dup)
            r %= 13;
        if (dt == EM_FLOAT32 || dt == EM_FLOAT64) {
            static const double sp[] = {NAN,  -NAN, INFINITY, -INFINITY,
                                        -0.0, 0.0,  1e-300};
            double f = dup == 3 ? (double)(r % 100000) + 0.5
                       : dup    ? (double)r - 6.0
                                : ((double)(r % 2000001) - 1e6) / 7;
            if (dup != 2 && rnd() % 16 == 0)
                f = sp[rnd() % 7];
            if (dt == EM_FLOAT32)
                ((float *)k)[i] = (float)f;
            else
                ((double *)k)[i] = f;
        } else {
            memcpy((char *)k + i * sz, &r, sz);
        }
    }
    if (dt == EM_FLOAT32 && n > 3 && dup != 2) {
        uint32_t pay = 0x7fc01234u; /* a NaN payload must come back */
        memcpy((char *)k + 3 * sz, &pay, 4);
    }
}

/* em_radix_sort of n keys (values: 0 none, else their size in bytes) and
 * em_sort / em_argsort (1-D) against the reference, bit-exact. */
static void test_raw(em_dtype dt, int64_t n, int vsize, int desc, int b0,
                     int b1, int dup)
{
    size_t ks = em_dtype_size(dt);
    int bits = em_srt_key_bits(dt), bad = 0;
    int e1 = b1 < 0 ? bits : b1;
    char *k = malloc((size_t)n * ks + 8), *ko = malloc((size_t)n * ks + 8);
    char *v = malloc((size_t)n * 8 + 8), *vo = malloc((size_t)n * 8 + 8);
    int64_t *idx = malloc((size_t)n * 8 + 8), *ai = malloc((size_t)n * 8 + 8);
    uint64_t *rk = malloc((size_t)n * 8 + 8);
    em_dtype vdt = vsize == 4 ? EM_INT32 : vsize == 2 ? EM_INT16 : EM_INT64;
    em_array a, b = {0}, ok = {0}, ov = {0};
    fill_keys(dt, k, n, dup);
    for (int64_t i = 0; i < n; i++) {
        int64_t val = i * 3 + 1;
        memcpy(v + i * (vsize ? vsize : 8), &val, vsize ? (size_t)vsize : 8);
        rk[i] = ref_key(dt, k, i, desc, b0, e1);
        idx[i] = i;
    }
    ref_keys = rk;
    qsort(idx, (size_t)n, 8, ref_cmp);
    a = up(dt, 1, &n, k);
    if (vsize)
        b = up(vdt, 1, &n, v);
    CHECK_OK(em_radix_sort(&a, vsize ? &b : NULL, desc, b0, b1, &ok,
                           vsize ? &ov : NULL, NULL));
    down(&ok, ko);
    if (vsize)
        down(&ov, vo);
    for (int64_t i = 0; i < n; i++) {
        if (memcmp(ko + i * ks, k + idx[i] * ks, ks))
            bad++;
        if (vsize && memcmp(vo + i * vsize, v + idx[i] * vsize, (size_t)vsize))
            bad++;
    }
    if (!desc && b0 == 0 && e1 == bits) {
        em_array o = {0};
        CHECK_OK(em_argsort(&a, 0, 0, &o, NULL));
        down(&o, ai);
        em_array_release(&o);
        CHECK_OK(em_sort(&a, 0, 0, &o, NULL));
        down(&o, ko);
        em_array_release(&o);
        for (int64_t i = 0; i < n; i++)
            if (ai[i] != idx[i] || memcmp(ko + i * ks, k + idx[i] * ks, ks))
                bad++;
    }
    CHECK(bad == 0);
    if (bad)
        fprintf(stderr,
                "  raw sort %s n=%lld values=%d desc=%d bits [%d, %d) "
                "dup=%d: %d bad\n",
                em_dtype_get(dt)->name, (long long)n, vsize, desc, b0, b1, dup,
                bad);
    em_array_release(&a);
    em_array_release(&b);
    em_array_release(&ok);
    em_array_release(&ov);
    free(k);
    free(ko);
    free(v);
    free(vo);
    free(idx);
    free(ai);
    free(rk);
}

static void test_raw_all(void)
{
    /* Around the Onesweep tile (4096 keys) and many tiles + 1. */
    static const int64_t sizes[] = {0, 1, 2, 4095, 4096, 4097, 4096 * 37 + 1};
    static const em_dtype dts[] = {EM_UINT32,  EM_FLOAT32, EM_INT64,
                                   EM_FLOAT64, EM_UINT8,   EM_INT16};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (size_t d = 0; d < sizeof dts / sizeof *dts; d++) {
            test_raw(dts[d], sizes[s], 0, 0, 0, -1, (int)(s & 1));
            test_raw(dts[d], sizes[s], 8, (int)(d & 1), 0, -1, 1);
        }
    test_raw(EM_FLOAT32, 300001, 4, 1, 0, -1, 0);
    test_raw(EM_FLOAT64, 300001, 8, 0, 0, -1, 0);
    test_raw(EM_UINT32, 300001, 0, 0, 0, -1, 0);
    test_raw(EM_INT64, 100003, 4, 0, 0, -1, 0);
    test_raw(EM_UINT32, 300001, 8, 0, 0, -1, 3);
    test_raw(EM_INT64, 300001, 4, 1, 0, -1, 3);
    test_raw(EM_FLOAT32, 300001, 8, 0, 0, -1, 3);
    test_raw(EM_UINT32, 300001, 0, 0, 0, 28, 3);
    /* all-equal keys, 2-byte values (the permutation engine), bit ranges */
    test_raw(EM_INT64, 70001, 8, 0, 0, -1, 2);
    test_raw(EM_FLOAT32, 70001, 0, 1, 0, -1, 2);
    test_raw(EM_UINT32, 70001, 2, 0, 0, -1, 0);
    test_raw(EM_UINT32, 70001, 8, 0, 4, 20, 0);
    test_raw(EM_UINT32, 70001, 0, 1, 3, 5, 0);
    test_raw(EM_UINT32, 5000, 8, 0, 7, 7, 0);
    test_raw(EM_INT64, 70001, 8, 1, 40, 64, 0);
    test_raw(EM_INT64, 70001, 0, 0, 0, 9, 0);
}

int main(void)
{
    const char *spec = getenv("EMBER_TEST_DEVICE");
    const char *no_nvrtc = getenv("EMBER_TEST_NO_NVRTC");
    static const int64_t sizes[] = {0,   1,    2,    255,   256,
                                    257, 4095, 4097, 70001, 300000};
    if (em_device_parse(spec && *spec ? spec : "cpu", &dev) != EM_OK) {
        fprintf(stderr, "no device %s: %s\n", spec, em_last_error());
        return 77;
    }
    if (em_nvrtc_version() == 0) {
        have_nvrtc = 0;
        if (!(no_nvrtc && !strcmp(no_nvrtc, "1"))) {
            fprintf(stderr, "NVRTC not found; set EMBER_TEST_NO_NVRTC=1 on "
                            "machines without it\n");
            return 1;
        }
        printf("SKIP nvrtc parts: no NVRTC\n");
    }
    sample_seed("test_sort");
    if (have_nvrtc) {
        compile_all(EM_DEVICE_CUDA);
        compile_merge(EM_DEVICE_CUDA);
    }
    compile_all(EM_DEVICE_CPU);
    compile_merge(EM_DEVICE_CPU);
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        test_pairs_i32(sizes[i], 0);
        test_pairs_i32(sizes[i], 1);
    }
    test_floats();
    test_raw_all();
    test_axis();
    test_search();
    test_top_k();
    test_errors();
    CHECK_OK(em_device_synchronize(dev));
    return check_report("test_sort");
}
