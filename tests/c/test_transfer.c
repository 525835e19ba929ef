/* Host memory <-> arrays: round trips on the cpu device for contiguous,
 * strided, reversed and Fortran layouts; then, when a CUDA device exists,
 * the staged pageable pipeline (1 GiB each way, with its bandwidth
 * printed, not asserted) and copies between cpu and cuda arrays. Without a
 * GPU the cpu part still runs, and the test reports itself skipped (77)
 * if that part passed, unless EMBER_TEST_REQUIRE_GPU=1. */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include "check.h"
#include "array/array_internal.h"

#define SHAPE(...) ((const int64_t[]){__VA_ARGS__})

static em_device *cpu;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Element (i, j) of a 2-d layout in bytes at p. */
#define AT(T, p, st, i, j) (*(T *)(void *)((char *)(p) + (i) * (st)[0] + (j) * (st)[1]))

static void test_cpu_contiguous(em_device *d)
{
    int32_t host[24], back[24];
    em_array a;
    int i;
    for (i = 0; i < 24; i++)
        host[i] = i * 7 - 50;
    CHECK_OK(em_array_empty(d, EM_INT32, 3, SHAPE(2, 3, 4), 'C', NULL, &a));
    CHECK_OK(em_array_from_host(&a, host, NULL, NULL));
    memset(back, 0, sizeof back);
    CHECK_OK(em_array_to_host(&a, back, NULL, NULL));
    CHECK(memcmp(host, back, sizeof host) == 0);
    if (em_device_get_type(d) == EM_DEVICE_CPU)
        CHECK(memcmp(a.data, host, sizeof host) == 0);
    em_array_release(&a);

    /* An F-ordered array from C-ordered host memory, and back. */
    CHECK_OK(em_array_empty(d, EM_INT32, 2, SHAPE(4, 6), 'F', NULL, &a));
    CHECK_OK(em_array_from_host(&a, host, NULL, NULL));
    memset(back, 0, sizeof back);
    CHECK_OK(em_array_to_host(&a, back, NULL, NULL));
    CHECK(memcmp(host, back, sizeof host) == 0);
    if (em_device_get_type(d) == EM_DEVICE_CPU)
        CHECK(((int32_t *)(void *)a.data)[1] == host[6]);   /* (1, 0) */
    /* Fortran host strides into it: a plain block copy. */
    CHECK_OK(em_array_from_host(&a, host, SHAPE(4, 16), NULL));
    CHECK_OK(em_array_to_host(&a, back, NULL, NULL));
    CHECK(back[1] == host[4] && back[6] == host[1]);
    em_array_release(&a);

    /* 0-d and empty. */
    CHECK_OK(em_array_empty(d, EM_FLOAT64, 0, NULL, 'C', NULL, &a));
    {
        double x = 3.25, y = 0;
        CHECK_OK(em_array_from_host(&a, &x, NULL, NULL));
        CHECK_OK(em_array_to_host(&a, &y, NULL, NULL));
        CHECK(y == 3.25);
    }
    em_array_release(&a);
    CHECK_OK(em_array_empty(d, EM_FLOAT64, 2, SHAPE(0, 5), 'C', NULL, &a));
    CHECK_OK(em_array_from_host(&a, NULL, NULL, NULL));
    CHECK_OK(em_array_to_host(&a, NULL, NULL, NULL));
    em_array_release(&a);
}

static void test_cpu_strided(em_device *d)
{
    int64_t host[24], back[24];
    em_array a, v;
    int i, j, ok = 1;
    for (i = 0; i < 24; i++)
        host[i] = 1000 + i;
    /* host[:, ::2] of a (4, 6) int64: shape (4, 3), strides (48, 16). */
    CHECK_OK(em_array_empty(d, EM_INT64, 2, SHAPE(4, 3), 'C', NULL, &a));
    CHECK_OK(em_array_from_host(&a, host, SHAPE(48, 16), NULL));
    CHECK_OK(em_array_to_host(&a, back, NULL, NULL));
    for (i = 0; i < 4; i++)
        for (j = 0; j < 3; j++)
            ok &= back[i * 3 + j] == host[i * 6 + 2 * j];
    CHECK(ok);
    /* Out into a transposed host layout: a (3, 4) C buffer seen as (4, 3). */
    memset(back, 0, sizeof back);
    CHECK_OK(em_array_to_host(&a, back, SHAPE(8, 32), NULL));
    for (i = 0, ok = 1; i < 4; i++)
        for (j = 0; j < 3; j++)
            ok &= back[j * 4 + i] == host[i * 6 + 2 * j];
    CHECK(ok);
    /* Reversed rows and columns: the pointer is element (0, 0). */
    CHECK_OK(em_array_from_host(&a, &host[23], SHAPE(-48, -16), NULL));
    CHECK_OK(em_array_to_host(&a, back, NULL, NULL));
    for (i = 0, ok = 1; i < 4; i++)
        for (j = 0; j < 3; j++)
            ok &= back[i * 3 + j] == host[23 - i * 6 - 2 * j];
    CHECK(ok);
    /* A broadcast host row (stride 0). */
    CHECK_OK(em_array_from_host(&a, host, SHAPE(0, 8), NULL));
    CHECK_OK(em_array_to_host(&a, back, NULL, NULL));
    CHECK(back[0] == 1000 && back[5] == 1002 && back[11] == 1002);

    /* Into and out of a strided view of the array: only its elements. */
    {
        int64_t ones[6] = {1, 2, 3, 4, 5, 6}, all[12];
        CHECK_OK(em_array_from_host(&a, host, NULL, NULL));
        CHECK_OK(em_array_slice(&a, (const em_slice[]){{3, -1, -2}, {0, 3, 1}}, &v));
        CHECK(v.shape[0] == 2 && v.shape[1] == 3);
        /* On a GPU a strided array goes through the copy kernel. */
        CHECK_OK(em_array_from_host(&v, ones, NULL, NULL));
        CHECK_OK(em_array_to_host(&a, all, NULL, NULL));
        CHECK(all[9] == 1 && all[11] == 3 && all[3] == 4 && all[5] == 6);
        CHECK(all[0] == 1000 && all[6] == 1006);
        memset(back, 0, sizeof back);
        CHECK_OK(em_array_to_host(&v, back, NULL, NULL));
        CHECK(memcmp(back, ones, sizeof ones) == 0);
        em_array_release(&v);
    }
    em_array_release(&a);

    /* Bad input. */
    CHECK_OK(em_array_empty(d, EM_INT64, 1, SHAPE(3), 'C', NULL, &a));
    CHECK_STATUS(em_array_from_host(&a, NULL, NULL, NULL), EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_array_to_host(&a, NULL, NULL, NULL), EM_ERR_INVALID_VALUE);
    CHECK_OK(em_array_broadcast_to(&a, 2, SHAPE(2, 3), &v));
    CHECK_STATUS(em_array_from_host(&v, host, NULL, NULL), EM_ERR_INVALID_VALUE);
    CHECK_OK(em_array_to_host(&v, back, NULL, NULL));   /* reading is fine */
    em_array_release(&v);
    em_array_release(&a);
}

/* Past the size at which the host copy goes parallel, in a layout that
 * does not collapse to one block. */
static void test_cpu_large(void)
{
    const int64_t n = 1536, m = 2048;   /* 12 MiB of int32 */
    size_t bytes = (size_t)(n * m) * 4;
    int32_t *host = malloc(bytes), *back = malloc(bytes);
    em_array a;
    int64_t i, j;
    int ok = 1;
    if (!host || !back) {
        CHECK(!"malloc");
        free(host);
        free(back);
        return;
    }
    for (i = 0; i < n * m; i++)
        host[i] = (int32_t)(i * 2654435761u);
    /* a = host.T: shape (m, n), host strides (4, 4m). */
    CHECK_OK(em_array_empty(cpu, EM_INT32, 2, SHAPE(m, n), 'C', NULL, &a));
    CHECK_OK(em_array_from_host(&a, host, SHAPE(4, 4 * m), NULL));
    for (i = 0; i < m && ok; i += 97)
        for (j = 0; j < n; j += 89)
            ok &= ((int32_t *)(void *)a.data)[i * n + j] == host[j * m + i];
    CHECK(ok);
    memset(back, 0, bytes);
    CHECK_OK(em_array_to_host(&a, back, SHAPE(4, 4 * m), NULL));
    CHECK(memcmp(host, back, bytes) == 0);
    em_array_release(&a);
    free(host);
    free(back);
}

/* ---- the GPU part ------------------------------------------------------- */

static uint32_t pattern(uint64_t i) { return (uint32_t)(i * 2654435761u) ^ (uint32_t)(i >> 20); }

static void test_gpu_big(em_device *g)
{
    const int64_t n = (int64_t)1 << 28;   /* 1 GiB of uint32 */
    size_t bytes = (size_t)n * 4;
    uint32_t *host = malloc(bytes), *back = malloc(bytes);
    uint64_t sum = 0, sum_back = 0;
    em_array a;
    double t0, t1, t2;
    int64_t i;
    int ok = 1, rep;
    if (!host || !back) {
        printf("SKIP: 1 GiB test: out of host memory\n");
        free(host);
        free(back);
        return;
    }
    for (i = 0; i < n; i++) {
        host[i] = pattern((uint64_t)i);
        sum += host[i];
    }
    memset(back, 0, bytes);   /* touched, as a NumPy array written before is */
    CHECK_OK(em_array_empty(g, EM_UINT32, 1, &n, 'C', NULL, &a));
    /* The first run includes making the staging buffers. */
    for (rep = 0; rep < 3; rep++) {
        t0 = now_s();
        CHECK_OK(em_array_from_host(&a, host, NULL, NULL));
        t1 = now_s();
        CHECK_OK(em_device_synchronize(g));
        t2 = now_s();
        printf("1 GiB pageable H2D (run %d): %.1f GB/s (returned after %.1f ms, "
               "done after %.1f ms)\n", rep, (double)bytes / (t2 - t0) / 1e9,
               (t1 - t0) * 1e3, (t2 - t0) * 1e3);
    }
    for (rep = 0; rep < 3; rep++) {
        if (rep == 2)
            memset(back, 0, bytes);
        t0 = now_s();
        CHECK_OK(em_array_to_host(&a, back, NULL, NULL));
        t1 = now_s();
        printf("1 GiB pageable D2H (run %d): %.1f GB/s\n", rep,
               (double)bytes / (t1 - t0) / 1e9);
    }
    for (i = 0; i < n; i++)
        sum_back += back[i];
    for (i = 0; i < n; i += 4099)
        ok &= back[i] == pattern((uint64_t)i);
    ok &= back[n - 1] == pattern((uint64_t)n - 1);
    CHECK(ok);
    CHECK(sum == sum_back);
    CHECK(memcmp(host, back, bytes) == 0);
    printf("1 GiB checksum %llu, round trip %s\n", (unsigned long long)sum,
           sum == sum_back ? "equal" : "DIFFERENT");

    /* For comparison: the driver's own pageable path. */
    t0 = now_s();
    CHECK_OK(em_memcpy_async(g, a.data, host, bytes, NULL));
    CHECK_OK(em_device_synchronize(g));
    t1 = now_s();
    printf("1 GiB pageable H2D through the driver alone: %.1f GB/s\n",
           (double)bytes / (t1 - t0) / 1e9);
    em_array_release(&a);
    free(host);
    free(back);
}

static void test_gpu_copies(em_device *g)
{
    em_array c, d, c2, f;
    em_stream *s = NULL;
    int32_t *p;
    int i, ok = 1;

    /* cpu <-> cuda, contiguous: transfers, no kernel. */
    CHECK_OK(em_array_empty(cpu, EM_INT32, 2, SHAPE(300, 400), 'C', NULL, &c));
    CHECK_OK(em_array_empty(g, EM_INT32, 2, SHAPE(300, 400), 'C', NULL, &d));
    CHECK_OK(em_array_empty(cpu, EM_INT32, 2, SHAPE(300, 400), 'C', NULL, &c2));
    p = (int32_t *)(void *)c.data;
    for (i = 0; i < 120000; i++)
        p[i] = i ^ 0x5555;
    CHECK_OK(em_array_copy(&d, &c, NULL));
    memset(c2.data, 0, 480000);
    CHECK_OK(em_array_copy(&c2, &d, NULL));
    CHECK(memcmp(c.data, c2.data, 480000) == 0);

    /* On a created stream, which s then names for the cuda side. */
    CHECK_OK(em_stream_create(g, EM_STREAM_NON_BLOCKING, &s));
    memset(c2.data, 0, 480000);
    CHECK_OK(em_array_copy(&d, &c, s));
    CHECK_OK(em_array_copy(&c2, &d, s));
    CHECK(memcmp(c.data, c2.data, 480000) == 0);

    /* Strided host side: the transposed cpu array into an F-ordered one. */
    {
        em_array ct, df;
        CHECK_OK(em_array_transpose(&c, NULL, &ct));          /* (400, 300) */
        CHECK_OK(em_array_empty(g, EM_INT32, 2, SHAPE(400, 300), 'C', s, &df));
        CHECK_OK(em_array_copy(&df, &ct, s));                 /* packed on the host */
        memset(c2.data, 0, 480000);
        CHECK_OK(em_array_reshape_view(&c2, 2, SHAPE(400, 300), 'C', &f));
        CHECK_OK(em_array_copy(&f, &df, s));
        p = (int32_t *)(void *)f.data;
        for (i = 0; i < 120000; i += 7)
            ok &= p[i] == (((i % 300) * 400 + i / 300) ^ 0x5555);
        CHECK(ok);
        em_array_release(&f);
        em_array_release(&df);
        em_array_release(&ct);
    }

    /* Small transfers, and the wrong device's stream. */
    {
        float x[3] = {1.5f, -2.0f, 3.25f}, y[3] = {0};
        em_array sm;
        CHECK_OK(em_array_empty(g, EM_FLOAT32, 1, SHAPE(3), 'C', s, &sm));
        CHECK_OK(em_array_from_host(&sm, x, NULL, s));
        CHECK_OK(em_array_to_host(&sm, y, NULL, s));
        CHECK(memcmp(x, y, sizeof x) == 0);
        CHECK_STATUS(em_array_from_host(&c, x, NULL, s), EM_ERR_INVALID_VALUE);
        em_array_release(&sm);
    }
    CHECK_OK(em_stream_synchronize(s));
    em_array_release(&d);

    /* Through the copy kernel on the GPU: a cast, a broadcast, and a
     * non-contiguous cuda array on either side. */
    {
        em_array g64, back64, gt;
        double *q;
        CHECK_OK(em_array_empty(g, EM_FLOAT64, 2, SHAPE(300, 400), 'C', NULL, &g64));
        CHECK_OK(em_array_copy(&g64, &c, NULL));             /* int32 -> float64 */
        CHECK_OK(em_array_empty(cpu, EM_FLOAT64, 2, SHAPE(300, 400), 'C', NULL, &back64));
        CHECK_OK(em_array_copy(&back64, &g64, NULL));
        q = (double *)(void *)back64.data;
        p = (int32_t *)(void *)c.data;
        for (i = 0, ok = 1; i < 120000; i += 13)
            ok &= q[i] == (double)p[i];
        CHECK(ok);
        CHECK_OK(em_array_transpose(&g64, NULL, &gt));
        CHECK_OK(em_array_reshape_view(&back64, 2, SHAPE(400, 300), 'C', &f));
        CHECK_OK(em_array_copy(&f, &gt, NULL));              /* strided cuda source */
        q = (double *)(void *)f.data;
        for (i = 0, ok = 1; i < 120000; i += 11)
            ok &= q[i] == (double)p[(i % 300) * 400 + i / 300];
        CHECK(ok);
        em_array_release(&f);
        em_array_release(&gt);
        em_array_release(&back64);
        em_array_release(&g64);
    }
    CHECK_OK(em_stream_destroy(s));
    em_array_release(&c);
    em_array_release(&c2);
}

/* Several threads, each on its own stream, all wanting staging buffers at
 * once: more than the cache holds, so some wait for others'. */
#define XFER_THREADS 6

typedef struct xfer_arg {
    em_device *g;
    int id, ok;
} xfer_arg;

static void *xfer_thread(void *p)
{
    xfer_arg *x = p;
    const int64_t n = (int64_t)10 << 20;   /* 40 MiB of int32 */
    int32_t *h = malloc((size_t)n * 4), *b = malloc((size_t)n * 4);
    em_stream *s = NULL;
    em_array a;
    int64_t i;
    int r;
    x->ok = h && b && em_stream_create(x->g, EM_STREAM_NON_BLOCKING, &s) == EM_OK
            && em_array_empty(x->g, EM_INT32, 1, &n, 'C', s, &a) == EM_OK;
    for (r = 0; r < 3 && x->ok; r++) {
        for (i = 0; i < n; i++)
            h[i] = (int32_t)(i * 31 + x->id * 1000003 + r);
        x->ok = em_array_from_host(&a, h, NULL, s) == EM_OK
                && em_array_to_host(&a, b, NULL, s) == EM_OK
                && memcmp(h, b, (size_t)n * 4) == 0;
    }
    if (s) {
        em_array_release(&a);
        em_stream_destroy(s);
    }
    free(h);
    free(b);
    return NULL;
}

static void test_gpu_threads(em_device *g)
{
    pthread_t th[XFER_THREADS];
    xfer_arg args[XFER_THREADS];
    int i, started[XFER_THREADS];
    for (i = 0; i < XFER_THREADS; i++) {
        args[i].g = g;
        args[i].id = i;
        args[i].ok = 0;
        started[i] = pthread_create(&th[i], NULL, xfer_thread, &args[i]) == 0;
    }
    for (i = 0; i < XFER_THREADS; i++) {
        if (started[i])
            pthread_join(th[i], NULL);
        CHECK(started[i] && args[i].ok);
    }
}

static void test_two_gpus(void)
{
    em_device *g0, *g1;
    em_array a, b, h;
    int n = 0, i, ok = 1;
    const int64_t len = 5 * 1024 * 1024 + 3;   /* several staging chunks */
    if (em_device_count(EM_DEVICE_CUDA, &n) != EM_OK || n < 2) {
        printf("SKIP: cuda:0 -> cuda:1 copies: %d GPU(s)\n", n);
        return;
    }
    CHECK_OK(em_device_get(EM_DEVICE_CUDA, 0, &g0));
    CHECK_OK(em_device_get(EM_DEVICE_CUDA, 1, &g1));
    CHECK_OK(em_array_empty(cpu, EM_INT32, 1, &len, 'C', NULL, &h));
    for (i = 0; i < len; i++)
        ((int32_t *)(void *)h.data)[i] = i * 3;
    CHECK_OK(em_array_empty(g0, EM_INT32, 1, &len, 'C', NULL, &a));
    CHECK_OK(em_array_empty(g1, EM_INT32, 1, &len, 'C', NULL, &b));
    CHECK_OK(em_array_copy(&a, &h, NULL));
    CHECK_OK(em_array_copy(&b, &a, NULL));
    memset(h.data, 0, (size_t)len * 4);
    CHECK_OK(em_array_copy(&h, &b, NULL));
    for (i = 0; i < len; i++)
        ok &= ((int32_t *)(void *)h.data)[i] == i * 3;
    CHECK(ok);
    em_array_release(&a);
    em_array_release(&b);
    em_array_release(&h);
}

int main(void)
{
    const char *require = getenv("EMBER_TEST_REQUIRE_GPU");
    em_pool_stats st;
    em_device *g = NULL;
    int n = 0;
    CHECK_OK(em_device_get(EM_DEVICE_CPU, 0, &cpu));
    if (!cpu)
        return check_report("test_transfer");
    test_cpu_contiguous(cpu);
    test_cpu_strided(cpu);
    test_cpu_large();
    CHECK_OK(em_pool_get_stats(cpu, &st));
    CHECK(st.used_bytes == 0);

    if (em_device_count(EM_DEVICE_CUDA, &n) != EM_OK || n == 0) {
        if (require && strcmp(require, "1") == 0) {
            fprintf(stderr, "no GPU but EMBER_TEST_REQUIRE_GPU=1: %s\n",
                    em_backend_status(EM_DEVICE_CUDA));
            return 1;
        }
        if (check_failures)
            return check_report("test_transfer");
        check_report("test_transfer (cpu part)");
        printf("SKIP: GPU part: %s\n", em_backend_status(EM_DEVICE_CUDA));
        return 77;
    }
    CHECK_OK(em_device_get(EM_DEVICE_CUDA, 0, &g));
    if (g) {
        test_cpu_contiguous(g);
        test_cpu_strided(g);
        test_gpu_copies(g);
        test_gpu_threads(g);
        test_two_gpus();
        test_gpu_big(g);
    }
    em_arr_transfer_trim();
    return check_report("test_transfer");
}
