/* The compaction generator: every kernel variant compiles with NVRTC (PTX
 * for sm_90, no GPU needed) and with the host C compiler, and on the cpu
 * device the drivers select, partition, index and count correctly against
 * a plain loop (the hash set too, including its overflow report). NVRTC
 * missing fails the test unless EMBER_TEST_NO_NVRTC=1 says so on purpose. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "array/compact_run.h"

static int have_nvrtc = 1;

static void compile_one(const em_gen_compact *d0, em_device_type target)
{
    em_gen_compact d = *d0;
    char *src = NULL, *log = NULL;
    em_code *c = NULL;
    em_status st;
    em_gen_compact_fill(&d, target);
    CHECK_OK(em_gen_compact_source(&d, target, &src));
    if (!src)
        return;
    if (target == EM_DEVICE_CUDA)
        st = em_compile_cuda(src, "compact.cu", NULL, 0, 90, EM_CODE_PTX, &c,
                             &log);
    else {
        static const char *const o0[] = {"-O0"};
        st = em_compile_host(src, "compact.c", o0, 1, &c, &log);
    }
    check_count++;
    if (st != EM_OK) {
        check_failures++;
        fprintf(stderr, "compaction kind %d elem %d rank %d (%s): %s\n%s\n",
                d.kind, d.elem, d.ndim,
                target == EM_DEVICE_CUDA ? "nvrtc" : "cc", em_last_error(),
                src);
    }
    em_code_free(c);
    free(log);
    free(src);
}

static void test_compile_all(void)
{
    static const int elems[] = {1, 2, 4, 8, 16};
    static const int ranks[] = {1, 2, 3, EM_MAX_NDIM};
    em_gen_compact d;
    for (int t = 0; t < 2; t++) {
        em_device_type target = t ? EM_DEVICE_CUDA : EM_DEVICE_CPU;
        if (target == EM_DEVICE_CUDA && !have_nvrtc)
            continue;
        memset(&d, 0, sizeof d);
        for (int k = EM_GEN_COMPACT_ELEM; k <= EM_GEN_COMPACT_PART; k++)
            for (int e = 0; e < 5; e++) {
                d.kind = (uint8_t)k;
                d.elem = (uint8_t)elems[e];
                d.ndim = 0;
                compile_one(&d, target);
            }
        d.kind = EM_GEN_COMPACT_INDEX;
        d.elem = 8;
        compile_one(&d, target);
        d.kind = EM_GEN_COMPACT_COORDS;
        for (int r = 0; r < 4; r++) {
            d.ndim = (uint8_t)ranks[r];
            compile_one(&d, target);
        }
        d.kind = EM_GEN_COMPACT_ROWS;
        d.ndim = 0;
        for (int e = 0; e < 5; e++) {
            d.elem = (uint8_t)elems[e];
            compile_one(&d, target);
        }
        d.kind = EM_GEN_COMPACT_HASH;
        d.elem = 4;
        compile_one(&d, target);
        d.elem = 8;
        compile_one(&d, target);
    }
    /* a bad descriptor is refused, not generated */
    {
        char *src = NULL;
        memset(&d, 0, sizeof d);
        d.kind = EM_GEN_COMPACT_ELEM;
        d.elem = 3;
        CHECK_STATUS(em_gen_compact_source(&d, EM_DEVICE_CPU, &src),
                     EM_ERR_INVALID_VALUE);
        CHECK(src == NULL);
    }
}

/* On cpu: select and partition of int32 under a pseudo-random mask of a
 * size past one host tile, against a loop. */
static void test_cpu_select(void)
{
    em_device *dev = NULL;
    em_compact c;
    const int64_t n = EM_GEN_COMPACT_HOST_TILE * 2 + 77;
    unsigned char *m = malloc((size_t)n);
    int32_t *x = malloc((size_t)n * 4), *want = malloc((size_t)n * 4);
    int32_t *got = malloc((size_t)n * 4);
    int64_t *idx = malloc((size_t)n * 8);
    int64_t k = 0;
    unsigned s = 12345;
    em_stream *on;
    CHECK_OK(em_device_get(EM_DEVICE_CPU, 0, &dev));
    if (!dev || !m || !x || !want || !got || !idx)
        goto out;
    on = em_stream_default(dev);
    for (int64_t i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u;
        m[i] = (unsigned char)((s >> 16) % 3 == 0 ? (s >> 20) % 5 + 1 : 0);
        x[i] = (int32_t)i * 7 - 3;
        if (m[i])
            want[k++] = x[i];
    }
    CHECK_OK(em_compact_count(&c, dev, EM_GEN_COMPACT_ELEM, 4, 0, m, n, on));
    CHECK(c.total == k);
    CHECK_OK(em_compact_write(&c, x, got, NULL));
    em_compact_end(&c);
    CHECK(!memcmp(got, want, (size_t)k * 4));
    /* partition: the rejected follow in order */
    for (int64_t i = 0, j = k; i < n; i++)
        if (!m[i])
            want[j++] = x[i];
    CHECK_OK(em_compact_count(&c, dev, EM_GEN_COMPACT_PART, 4, 0, m, n, on));
    CHECK_OK(em_compact_write(&c, x, got, NULL));
    em_compact_end(&c);
    CHECK(!memcmp(got, want, (size_t)n * 4));
    /* indices */
    CHECK_OK(em_compact_count(&c, dev, EM_GEN_COMPACT_INDEX, 8, 0, m, n, on));
    CHECK_OK(em_compact_write(&c, NULL, idx, NULL));
    em_compact_end(&c);
    {
        int ok = 1;
        for (int64_t i = 0, j = 0; i < n; i++)
            if (m[i] && idx[j++] != i)
                ok = 0;
        CHECK(ok);
    }
    /* the hash set: distinct values of x % 1000 */
    {
        em_array u, cts;
        int fb = 1;
        int64_t cnt = 0;
        for (int64_t i = 0; i < n; i++)
            x[i] = (int32_t)(i % 1000) - 500;
        x[5] = -1; /* the table's empty key is a value like any other */
        CHECK_OK(
            em_compact_hash_unique(dev, x, n, EM_INT32, &u, &cts, &fb, on));
        CHECK(!fb);
        if (!fb && u.storage) {
            char seen[1000] = {0};
            int ok = 1;
            cnt = u.shape[0];
            int64_t sum = 0;
            for (int64_t i = 0; i < cnt; i++) {
                int32_t v = ((int32_t *)u.data)[i];
                int64_t times = ((int64_t *)cts.data)[i];
                /* i % 1000 - 500 hits each value n / 1000 or one more
                 * times; x[5] moved one count from 5 - 500 to -1 */
                int64_t lo = n / 1000 - (v == -495),
                        hi = n / 1000 + 1 + (v == -1);
                if (v < -500 || v >= 500 || seen[v + 500]++ || times < lo ||
                    times > hi)
                    ok = 0;
                sum += times;
            }
            CHECK(ok);
            CHECK(cnt == 1000);
            CHECK(sum == n);
            em_array_release(&u);
            em_array_release(&cts);
        }
        /* a table too small: reported, nothing made */
        setenv("EMBER_TEST_HASH_SLOTS_LOG2", "6", 1);
        CHECK_OK(
            em_compact_hash_unique(dev, x, n, EM_INT32, &u, NULL, &fb, on));
        CHECK(fb);
        CHECK(u.storage == NULL);
        unsetenv("EMBER_TEST_HASH_SLOTS_LOG2");
    }
out:
    free(m);
    free(x);
    free(want);
    free(got);
    free(idx);
}

int main(void)
{
    if ((have_nvrtc = check_nvrtc("test_compact")) < 0)
        return 1;
    test_compile_all();
    test_cpu_select();
    return check_report("test_compact");
}
