/* ember C tests: memory allocated on a stream outlives the stream's
 * creator. em_stream_destroy only drops the creator's hold; each block
 * allocated on the stream keeps it alive until freed, so a free (or queued
 * work) after the destroy finds a live stream, never freed memory. Run on
 * the cpu device, where the stream is a worker thread whose teardown
 * joins it; under ASan a use after free here is a report, not luck. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "runtime/runtime.h"

#define CONTAINS(hay, needle) (strstr((hay), (needle)) != NULL)

static em_device *cpu(void)
{
    em_device *d = NULL;
    CHECK_OK(em_device_get(EM_DEVICE_CPU, 0, &d));
    return d;
}

static em_pool_stats stats(em_device *d)
{
    em_pool_stats s;
    memset(&s, 0, sizeof s);
    CHECK_OK(em_pool_get_stats(d, &s));
    return s;
}

/* Every raw allocation given back once the cache is emptied. */
static void check_balanced(em_device *d)
{
    uint64_t allocs = 0, frees = 0;
    em_pool_stats st;
    CHECK_OK(em_pool_free_all(d));
    st = stats(d);
    CHECK(st.used_bytes == 0);
    CHECK(st.total_bytes == 0);
    em_rt_pool_raw_counts(&allocs, &frees);
    CHECK(allocs == frees);
}

/* Work still runs on s: n bytes of m set to v there and read back. */
static void check_fill(em_device *d, void *m, unsigned char *host, size_t n,
                       int v, em_stream *s)
{
    int ok = 1;
    CHECK_OK(em_memset_async(d, m, v, n, s));
    CHECK_OK(em_memcpy_async(d, host, m, n, s));
    CHECK_OK(em_stream_synchronize(s));
    for (size_t i = 0; i < n; i++)
        ok &= host[i] == (unsigned char)v;
    CHECK(ok);
}

/* The plain case: allocate on s, destroy s, use and free the block on the
 * destroyed s. The freed block then serves the default stream. */
static void test_free_after_destroy(void)
{
    em_device *d = cpu();
    em_stream *s = NULL;
    unsigned char host[1000];
    void *a = NULL, *b = NULL;

    CHECK_OK(em_stream_create(d, EM_STREAM_DEFAULT, &s));
    CHECK_OK(em_malloc(d, 1000, s, &a));
    CHECK_OK(em_stream_destroy(s));
    /* The stream is alive for its block: work may still go on it. */
    check_fill(d, a, host, 1000, 7, s);
    CHECK_OK(em_free(d, a, s));
    /* s is gone now; its cached block went to the default stream. */
    CHECK_OK(em_malloc(d, 1000, NULL, &b));
    CHECK(b == a);
    CHECK_OK(em_free(d, b, NULL));
    check_balanced(d);
}

/* Several blocks: the stream lives until the last is freed, whichever
 * order they go in, and a block freed on another stream still lets go of
 * its allocation stream. */
static void test_several_blocks(void)
{
    em_device *d = cpu();
    em_stream *s = NULL, *t = NULL;
    void *p[5] = {0};
    int i;

    CHECK_OK(em_stream_create(d, EM_STREAM_NON_BLOCKING, &s));
    CHECK_OK(em_stream_create(d, EM_STREAM_DEFAULT, &t));
    for (i = 0; i < 5; i++)
        CHECK_OK(em_malloc(d, (size_t)(i + 1) * 4096, s, &p[i]));
    CHECK_OK(em_stream_destroy(s));
    CHECK_OK(em_free(d, p[3], s));
    CHECK_OK(em_free(d, p[0], t));      /* freed on t: s's hold goes too */
    CHECK_OK(em_free(d, p[4], NULL));
    CHECK_OK(em_stream_destroy(t));     /* t holds nothing now: torn down */
    CHECK_OK(em_memset_async(d, p[1], 0, 2 * 4096, s));
    CHECK_OK(em_free(d, p[1], s));
    CHECK_OK(em_free(d, p[2], s));      /* the last: s is torn down here */
    check_balanced(d);
}

/* Reuse from the cache counts as an allocation on the stream too. */
static void test_cached_reuse(void)
{
    em_device *d = cpu();
    em_stream *s = NULL;
    void *a = NULL, *b = NULL;

    CHECK_OK(em_stream_create(d, EM_STREAM_DEFAULT, &s));
    CHECK_OK(em_malloc(d, 512, s, &a));
    CHECK_OK(em_free(d, a, s));
    CHECK_OK(em_malloc(d, 512, s, &b));     /* a cache hit on s */
    CHECK(b == a);
    CHECK_OK(em_stream_destroy(s));
    CHECK_OK(em_free(d, b, s));
    check_balanced(d);
}

/* A second destroy while blocks keep the stream alive is an error, not a
 * second drop of a count that the blocks own. */
static void test_double_destroy(void)
{
    em_device *d = cpu();
    em_stream *s = NULL;
    void *a = NULL;

    CHECK_OK(em_stream_create(d, EM_STREAM_DEFAULT, &s));
    CHECK_OK(em_malloc(d, 64, s, &a));
    CHECK_OK(em_stream_destroy(s));
    CHECK_STATUS(em_stream_destroy(s), EM_ERR_INVALID_VALUE);
    CHECK(CONTAINS(em_last_error(), "destroyed already"));
    CHECK_OK(em_free(d, a, s));
    CHECK_STATUS(em_stream_destroy(em_stream_default(d)), EM_ERR_INVALID_VALUE);
    check_balanced(d);
}

/* An array's storage frees on its allocation stream when the last view
 * goes, which is the Python case: `r = k(x, stream=Stream())`. */
static void test_array_outlives_stream(void)
{
    em_device *d = cpu();
    em_stream *s = NULL;
    em_array a, v;
    int64_t shape[1] = {100};
    float one = 1.0f, host[100];
    int i, ok = 1;

    memset(&a, 0, sizeof a);
    memset(&v, 0, sizeof v);
    CHECK_OK(em_stream_create(d, EM_STREAM_DEFAULT, &s));
    CHECK_OK(em_array_empty(d, EM_FLOAT32, 1, shape, 'C', s, &a));
    em_array_retain(&a, &v);
    CHECK_OK(em_stream_destroy(s));
    CHECK_OK(em_array_fill(&v, &one, EM_FLOAT32, NULL));
    em_array_release(&a);
    CHECK_OK(em_array_to_host(&v, host, NULL, NULL));
    for (i = 0; i < 100; i++)
        ok &= host[i] == 1.0f;
    CHECK(ok);
    em_array_release(&v);
    check_balanced(d);
}

/* Threads freeing the blocks of one destroyed stream at once: exactly one
 * of them tears it down (ASan/TSan builds see any race). */
struct worker {
    em_device *d;
    em_stream *s;
    void *p[16];
};

static void *free_all(void *arg)
{
    struct worker *w = arg;
    int i;
    for (i = 0; i < 16; i++)
        if (em_free(w->d, w->p[i], w->s) != EM_OK)
            return (void *)1;
    return NULL;
}

static void test_threads(void)
{
    em_device *d = cpu();
    struct worker w[4];
    pthread_t th[4];
    em_stream *s = NULL;
    int round, i, j;

    for (round = 0; round < 20; round++) {
        CHECK_OK(em_stream_create(d, EM_STREAM_DEFAULT, &s));
        for (i = 0; i < 4; i++) {
            w[i].d = d;
            w[i].s = s;
            for (j = 0; j < 16; j++)
                CHECK_OK(em_malloc(d, (size_t)(j + 1) * 100, s, &w[i].p[j]));
        }
        CHECK_OK(em_stream_destroy(s));
        for (i = 0; i < 4; i++)
            CHECK(pthread_create(&th[i], NULL, free_all, &w[i]) == 0);
        for (i = 0; i < 4; i++) {
            void *r = (void *)1;
            pthread_join(th[i], &r);
            CHECK(r == NULL);
        }
    }
    check_balanced(d);
}

/* em_stream_adopt on cpu: the handle of a live stream gives that stream,
 * which stays alive while adopted whichever side lets go first; NULL the
 * default stream; any other pointer, or a stream torn down, an error. */
static void test_adopt(void)
{
    em_device *d = cpu();
    em_stream *s = NULL, *a = NULL, *b = NULL;
    unsigned char host[64];
    void *m = NULL;

    CHECK(em_stream_adopt(d, NULL, &a) == EM_OK && a == em_stream_default(d));
    em_stream_release(a);

    CHECK_OK(em_stream_create(d, EM_STREAM_NON_BLOCKING, &s));
    CHECK_OK(em_stream_adopt(d, em_stream_native(s), &a));
    CHECK(a == s);
    /* the creator lets go first: the adopter's handle still runs work */
    CHECK_OK(em_stream_destroy(s));
    CHECK_OK(em_malloc(d, 64, a, &m));
    check_fill(d, m, host, 64, 5, a);
    CHECK_OK(em_free(d, m, a));
    em_stream_release(a);

    /* the adopter lets go first */
    CHECK_OK(em_stream_create(d, EM_STREAM_DEFAULT, &s));
    CHECK_OK(em_stream_adopt(d, em_stream_native(s), &b));
    em_stream_release(b);
    CHECK_OK(em_stream_synchronize(s));
    CHECK_OK(em_stream_destroy(s));

    CHECK(em_stream_adopt(d, host, &b) == EM_ERR_INVALID_VALUE && b == NULL);
    CHECK(CONTAINS(em_last_error(), "not the handle of a live stream"));
    CHECK(em_stream_adopt(NULL, host, &b) == EM_ERR_INVALID_VALUE);
    check_balanced(d);
}

int main(void)
{
    setenv("EMBER_DEVICE", "cpu", 1);
    test_free_after_destroy();
    test_several_blocks();
    test_cached_reuse();
    test_double_destroy();
    test_array_outlives_stream();
    test_threads();
    test_adopt();
    return check_report("test_stream_lifetime");
}
