/* ember C tests: the runtime layer (devices, current device and stream,
 * the memory pool, streams and events, modules and launches, the kernel
 * cache), on the cpu device so they run without a GPU.
 *
 * Kernel-cache scenarios that need a fresh in-memory cache run in child
 * processes of this same program (fork + exec, "--child PHASE"); the
 * parent never touches the kernel cache, so each child starts cold and
 * only the disk cache carries over. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "runtime/runtime.h"

#define CONTAINS(hay, needle) (strstr((hay), (needle)) != NULL)

static char self_path[PATH_MAX];
static char cache_dir[PATH_MAX];

/* ---- helpers ---------------------------------------------------------- */

static em_device *cpu(void)
{
    em_device *d = NULL;
    CHECK_OK(em_device_get(EM_DEVICE_CPU, 0, &d));
    return d;
}

/* Run this program as "--child phase" with extra environment; returns its
 * failed-check count (or 100 + signal/odd exit). */
static int run_child(const char *phase, const char *env_name, const char *env_value)
{
    pid_t pid;
    int status = 0;
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0)
        return 200;
    if (pid == 0) {
        if (env_name)
            setenv(env_name, env_value, 1);
        execl(self_path, self_path, "--child", phase, (char *)NULL);
        _exit(201);
    }
    if (waitpid(pid, &status, 0) != pid)
        return 202;
    if (!WIFEXITED(status))
        return 100 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    return WEXITSTATUS(status);
}

/* ---- devices ---------------------------------------------------------- */

static void test_devices(void)
{
    em_device *d = NULL, *e = NULL;
    em_device_props pr;
    size_t fr = 0, tot = 0;
    int n = -1, ncuda = -1;

    /* EMBER_DEVICE=cpu was set before the first call. */
    CHECK_OK(em_device_default(&d));
    CHECK(d != NULL);
    CHECK(em_device_get_type(d) == EM_DEVICE_CPU);
    CHECK(em_device_get_id(d) == 0);
    CHECK(!strcmp(em_device_name(d), "cpu"));
    CHECK(em_device_arch(d) >= 0);   /* a digest of the CPU on cpu */
    CHECK_OK(em_device_default(&e));
    CHECK(e == d);

    CHECK_OK(em_device_parse("cpu", &e));
    CHECK(e == d);
    CHECK_OK(em_device_parse("cpu:0", &e));
    CHECK(e == d);
    CHECK_OK(em_device_get(EM_DEVICE_CPU, 0, &e));
    CHECK(e == d);

    /* Host memory is on cpu, with or without a CUDA driver (test_cuda
     * checks device memory); so is a null pointer. */
    {
        void *h = malloc(32), *pm = NULL;
        e = NULL;
        CHECK_OK(em_pointer_device(h, &e));
        CHECK(e == d);
        CHECK_OK(em_malloc(d, 64, NULL, &pm));
        e = NULL;
        CHECK_OK(em_pointer_device(pm, &e));
        CHECK(e == d);
        e = NULL;
        CHECK_OK(em_pointer_device(NULL, &e));
        CHECK(e == d);
        CHECK_STATUS(em_pointer_device(h, NULL), EM_ERR_INVALID_VALUE);
        em_free(d, pm, NULL);
        free(h);
    }

    CHECK_STATUS(em_device_parse("tpu", &e), EM_ERR_INVALID_VALUE);
    CHECK(CONTAINS(em_last_error(), "tpu"));
    CHECK(e == NULL);
    CHECK_STATUS(em_device_parse("", &e), EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_device_parse("cuda:", &e), EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_device_parse("cuda:-1", &e), EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_device_parse("cuda:1x", &e), EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_device_parse("cpux", &e), EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_device_parse("cuda:99999999999", &e), EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_device_parse(NULL, &e), EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_device_parse("cpu:1", &e), EM_ERR_INVALID_VALUE);
    CHECK(CONTAINS(em_last_error(), "cpu:1"));
    CHECK_STATUS(em_device_get((em_device_type)7, 0, &e), EM_ERR_INVALID_VALUE);

    CHECK_OK(em_device_count(EM_DEVICE_CPU, &n));
    CHECK(n == 1);
    CHECK_OK(em_device_count(EM_DEVICE_CUDA, &ncuda));
    CHECK(ncuda >= 0);
    CHECK(!strcmp(em_backend_status(EM_DEVICE_CPU), "ok"));
    CHECK(em_backend_status(EM_DEVICE_CUDA)[0] != 0);
    if (ncuda == 0) {
        CHECK(strcmp(em_backend_status(EM_DEVICE_CUDA), "ok") != 0);
        CHECK_STATUS(em_device_parse("cuda:7", &e), EM_ERR_UNAVAILABLE);
        CHECK(CONTAINS(em_last_error(), em_backend_status(EM_DEVICE_CUDA)));
        CHECK_STATUS(em_device_parse("gpu", &e), EM_ERR_UNAVAILABLE);
    } else if (ncuda <= 7) {
        CHECK_STATUS(em_device_parse("cuda:7", &e), EM_ERR_INVALID_VALUE);
        CHECK(CONTAINS(em_last_error(), "cuda:7"));
    }

    memset(&pr, 0x5a, sizeof pr);
    CHECK_OK(em_device_get_props(d, &pr));
    CHECK(pr.name[0] != 0);
    CHECK(pr.cc_major == 0 && pr.cc_minor == 0);
    CHECK(pr.warp_size == 1);
    CHECK(pr.multiprocessor_count >= 1);
    CHECK(pr.max_threads_per_block >= 1);
    CHECK(pr.max_block_dim[0] >= 1 && pr.max_block_dim[1] >= 1 && pr.max_block_dim[2] >= 1);
    CHECK(pr.max_grid_dim[0] >= 1 && pr.max_grid_dim[1] >= 1 && pr.max_grid_dim[2] >= 1);
    CHECK(pr.total_memory > 0);
    CHECK_STATUS(em_device_get_props(NULL, &pr), EM_ERR_INVALID_VALUE);

    CHECK_OK(em_device_mem_info(d, &fr, &tot));
    CHECK(tot > 0 && fr <= tot);
    CHECK_OK(em_device_synchronize(d));
}

/* ---- current device and stream ---------------------------------------- */

struct thread_view {
    em_device *dev;
    em_stream *stream;
    em_status st;
};

static void *current_in_thread(void *arg)
{
    struct thread_view *v = arg;
    v->st = em_current_device(&v->dev);
    v->stream = em_current_stream();
    /* Changes here must not leak into the main thread. */
    em_set_current_stream((em_stream *)v);
    return NULL;
}

static void test_current(void)
{
    em_device *d = cpu(), *cur = NULL;
    em_stream *s = NULL;
    struct thread_view v = {0};
    pthread_t t;

    CHECK_OK(em_current_device(&cur));
    CHECK(cur == d);
    CHECK(em_current_stream() == NULL);
    CHECK_OK(em_stream_create(d, EM_STREAM_DEFAULT, &s));
    em_set_current_stream(s);
    CHECK(em_current_stream() == s);

    CHECK(pthread_create(&t, NULL, current_in_thread, &v) == 0);
    pthread_join(t, NULL);
    CHECK(v.st == EM_OK);
    CHECK(v.dev == d);
    CHECK(v.stream == NULL);
    CHECK(em_current_stream() == s);

    /* Setting the current device again keeps the stream (CuPy's current
     * stream is per device); another device would reset it. */
    em_set_current_device(d);
    CHECK(em_current_stream() == s);
    em_set_current_stream(s);
    /* Destroying the current stream clears it rather than leaving it
     * dangling. */
    CHECK_OK(em_stream_destroy(s));
    CHECK(em_current_stream() == NULL);
    CHECK_OK(em_current_device(&cur));
    CHECK(cur == d);
}

/* ---- streams and events ----------------------------------------------- */

static void test_streams(void)
{
    em_device *d = cpu();
    em_stream *s = NULL, *dflt = em_stream_default(d);
    em_event *a = NULL, *b = NULL, *nt = NULL, *bad = NULL;
    int done = -1;
    float ms = -1;
    void *buf = NULL;
    unsigned char host[64];

    CHECK(dflt != NULL);
    CHECK(em_stream_device(dflt) == d);
    CHECK(em_stream_default(NULL) == NULL);
    CHECK_STATUS(em_stream_destroy(dflt), EM_ERR_INVALID_VALUE);
    CHECK(CONTAINS(em_last_error(), "default stream"));
    CHECK_STATUS(em_stream_create(d, 0x80, &s), EM_ERR_INVALID_VALUE);
    CHECK(s == NULL);
    CHECK_OK(em_stream_create(d, EM_STREAM_NON_BLOCKING, &s));
    CHECK(em_stream_device(s) == d);
    (void)em_stream_native(s);

    CHECK_OK(em_event_create(d, EM_EVENT_DEFAULT, &a));
    CHECK_OK(em_event_create(d, EM_EVENT_DEFAULT, &b));
    CHECK_OK(em_event_create(d, EM_EVENT_DISABLE_TIMING | EM_EVENT_BLOCKING_SYNC, &nt));
    CHECK_STATUS(em_event_create(d, 0x40, &bad), EM_ERR_INVALID_VALUE);
    CHECK(bad == NULL);

    /* Never recorded: done, and waiting on it waits for nothing. */
    CHECK_OK(em_event_query(a, &done));
    CHECK(done == 1);
    CHECK_OK(em_event_synchronize(a));
    CHECK_OK(em_stream_wait_event(s, a));
    CHECK_STATUS(em_event_elapsed_ms(a, b, &ms), EM_ERR_INVALID_VALUE);
    CHECK(CONTAINS(em_last_error(), "never recorded"));

    CHECK_OK(em_malloc(d, 64, s, &buf));
    CHECK_OK(em_event_record(a, s));
    CHECK_OK(em_memset_async(d, buf, 7, 64, s));
    CHECK_OK(em_memcpy_async(d, host, buf, 64, s));
    CHECK_OK(em_event_record(b, s));
    CHECK_OK(em_event_record(nt, NULL));
    CHECK_OK(em_stream_wait_event(dflt, b));
    CHECK_OK(em_event_synchronize(b));
    CHECK_OK(em_event_query(b, &done));
    CHECK(done == 1);
    CHECK(host[0] == 7 && host[63] == 7);
    CHECK_OK(em_event_elapsed_ms(a, b, &ms));
    CHECK(ms >= 0);
    CHECK_STATUS(em_event_elapsed_ms(a, nt, &ms), EM_ERR_INVALID_VALUE);
    CHECK(CONTAINS(em_last_error(), "DISABLE_TIMING"));
    CHECK_OK(em_stream_synchronize(s));
    CHECK_OK(em_stream_query(s, &done));
    CHECK(done == 1);
    CHECK_OK(em_memcpy_async(d, host, buf, 0, NULL));   /* n 0: nothing */
    CHECK_STATUS(em_memcpy_async(d, NULL, buf, 4, NULL), EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_memset_async(d, NULL, 0, 4, NULL), EM_ERR_INVALID_VALUE);
    CHECK_OK(em_free(d, buf, s));

    CHECK_OK(em_event_destroy(a));
    CHECK_OK(em_event_destroy(b));
    CHECK_OK(em_event_destroy(nt));
    CHECK_OK(em_stream_destroy(s));
    CHECK_OK(em_pool_free_all(d));
}

/* ---- the pool --------------------------------------------------------- */

static em_pool_stats stats(em_device *d)
{
    em_pool_stats st;
    memset(&st, 0xff, sizeof st);
    CHECK_OK(em_pool_get_stats(d, &st));
    return st;
}

/* em_device_scratch: one zeroed block per device, outside the pool, the
 * same block on every call; on each CUDA device too when there is one. */
static void test_device_scratch(void)
{
    int ncuda = 0;
    em_device *ds[2] = {cpu(), NULL};
    void *p = NULL, *q = NULL;
    CHECK(em_device_scratch(NULL, &p) == EM_ERR_INVALID_VALUE);
    CHECK(em_device_scratch(cpu(), NULL) == EM_ERR_INVALID_VALUE);
    if (em_device_count(EM_DEVICE_CUDA, &ncuda) == EM_OK && ncuda > 0)
        CHECK_OK(em_device_get(EM_DEVICE_CUDA, 0, &ds[1]));
    for (int i = 0; i < 2 && ds[i]; i++) {
        em_pool_stats before = stats(ds[i]);
        unsigned char h[EM_DEVICE_SCRATCH_BYTES];
        int zero = 1;
        CHECK_OK(em_device_scratch(ds[i], &p));
        CHECK_OK(em_device_scratch(ds[i], &q));
        CHECK(p != NULL && p == q);
        CHECK(stats(ds[i]).used_bytes == before.used_bytes);
        memset(h, 0xab, sizeof h);
        CHECK_OK(em_memcpy_async(ds[i], h, p, sizeof h, NULL));
        CHECK_OK(em_device_synchronize(ds[i]));
        for (size_t k = 0; k < sizeof h; k++)
            zero &= h[k] == 0;
        CHECK(zero);
    }
}

static void test_pool_basics(void)
{
    em_device *d = cpu();
    em_pool_stats s0, st;
    void *p = NULL, *q = NULL, *z1 = NULL, *z2 = NULL, *big = NULL, *mid = NULL;
    unsigned char host[1000];
    int i, ok;

    CHECK_OK(em_pool_free_all(d));
    s0 = stats(d);
    CHECK(s0.used_bytes == 0 && s0.cached_bytes == 0 && s0.total_bytes == 0);
    CHECK(s0.limit_bytes == 0);

    CHECK_OK(em_malloc(d, 1000, NULL, &p));
    CHECK(p != NULL && ((uintptr_t)p % 256) == 0);
    st = stats(d);
    CHECK(st.used_bytes == 1024);
    CHECK(st.cached_bytes == 0);
    CHECK(st.total_bytes == 1024);
    CHECK(st.n_allocs == s0.n_allocs + 1);
    CHECK(st.n_hits == s0.n_hits);
    CHECK(st.peak_bytes >= 1024);

    /* The memory works. */
    CHECK_OK(em_memset_async(d, p, 3, 1000, NULL));
    CHECK_OK(em_memcpy_async(d, host, p, 1000, NULL));
    CHECK_OK(em_stream_synchronize(em_stream_default(d)));
    for (ok = 1, i = 0; i < 1000; i++)
        ok &= host[i] == 3;
    CHECK(ok);

    CHECK_OK(em_free(d, p, NULL));
    st = stats(d);
    CHECK(st.used_bytes == 0 && st.cached_bytes == 1024 && st.total_bytes == 1024);

    /* Same class, same stream: the same block back, from the cache. */
    CHECK_OK(em_malloc(d, 600, NULL, &q));
    CHECK(q == p);
    st = stats(d);
    CHECK(st.n_allocs == s0.n_allocs + 2);
    CHECK(st.n_hits == s0.n_hits + 1);
    CHECK(st.used_bytes == 1024 && st.cached_bytes == 0);

    /* Size 0: distinct, non-NULL, the smallest block. */
    CHECK_OK(em_malloc(d, 0, NULL, &z1));
    CHECK_OK(em_malloc(d, 0, NULL, &z2));
    CHECK(z1 && z2 && z1 != z2);
    st = stats(d);
    CHECK(st.used_bytes == 1024 + 2 * 512);

    /* Classes: 4097 -> 4608 (512 steps to 8 KiB); 1 MiB + 1 -> 1 MiB +
     * 128 KiB (eighths of a power of two). */
    CHECK_OK(em_malloc(d, 4097, NULL, &mid));
    CHECK_OK(em_malloc(d, (1u << 20) + 1, NULL, &big));
    st = stats(d);
    CHECK(st.used_bytes == 1024 + 1024 + 4608 + (1u << 20) + (1u << 17));
    CHECK(st.peak_bytes == st.used_bytes);
    CHECK(st.total_bytes == st.used_bytes + st.cached_bytes);

    CHECK_OK(em_free(d, q, NULL));
    CHECK_OK(em_free(d, z1, NULL));
    CHECK_OK(em_free(d, z2, NULL));
    CHECK_OK(em_free(d, mid, NULL));
    CHECK_OK(em_free(d, big, NULL));
    CHECK_OK(em_free(d, NULL, NULL));
    st = stats(d);
    CHECK(st.used_bytes == 0);
    CHECK(st.cached_bytes == st.total_bytes);
    CHECK(st.peak_bytes == 1024 + 1024 + 4608 + (1u << 20) + (1u << 17));

    /* Unknown and double frees. */
    CHECK_STATUS(em_free(d, (void *)(uintptr_t)0x1234500, NULL), EM_ERR_INVALID_VALUE);
    CHECK(CONTAINS(em_last_error(), "not allocated by the pool of cpu"));
    CHECK(CONTAINS(em_last_error(), "1234500"));
    CHECK_STATUS(em_free(d, q, NULL), EM_ERR_INVALID_VALUE);
    CHECK(CONTAINS(em_last_error(), "freed twice"));
    st = stats(d);
    CHECK(st.used_bytes == 0);

    CHECK_OK(em_pool_free_all(d));
    st = stats(d);
    CHECK(st.cached_bytes == 0 && st.total_bytes == 0 && st.used_bytes == 0);
    /* After free_all the block is gone, so a free of it is unknown. */
    CHECK_STATUS(em_free(d, q, NULL), EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_malloc(d, 16, NULL, NULL), EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_malloc(NULL, 16, NULL, &p), EM_ERR_INVALID_VALUE);
}

static void test_pool_streams(void)
{
    em_device *d = cpu();
    em_stream *s1 = NULL;
    em_pool_stats s0, st;
    void *a = NULL, *b = NULL, *c = NULL, *x = NULL, *y = NULL;

    CHECK_OK(em_pool_free_all(d));
    CHECK_OK(em_stream_create(d, EM_STREAM_DEFAULT, &s1));
    s0 = stats(d);

    /* Freed on s1: reused on s1 at once, not handed to the default stream. */
    CHECK_OK(em_malloc(d, 2048, s1, &a));
    CHECK_OK(em_free(d, a, s1));
    CHECK_OK(em_malloc(d, 2048, NULL, &b));
    CHECK(b != a);
    st = stats(d);
    CHECK(st.n_hits == s0.n_hits);
    CHECK_OK(em_malloc(d, 2048, s1, &c));
    CHECK(c == a);
    st = stats(d);
    CHECK(st.n_hits == s0.n_hits + 1);
    CHECK_OK(em_free(d, b, NULL));
    CHECK_OK(em_free(d, c, s1));

    /* Freed on s1, then s1 destroyed: the block goes to the default
     * stream (s1's work is done), not to whatever stream reuses s1's
     * address. */
    CHECK_OK(em_malloc(d, 3072, s1, &x));
    CHECK_OK(em_free(d, x, s1));
    CHECK_OK(em_stream_destroy(s1));
    CHECK_OK(em_malloc(d, 3072, NULL, &y));
    CHECK(y == x);
    CHECK_OK(em_free(d, y, NULL));
    st = stats(d);
    CHECK(st.used_bytes == 0 && st.total_bytes == st.cached_bytes);

    CHECK_OK(em_pool_free_all(d));
    st = stats(d);
    CHECK(st.total_bytes == 0);
}

static void test_pool_limit(void)
{
    em_device *d = cpu();
    em_pool_stats st;
    void *a = NULL, *b = NULL, *c = NULL;

    CHECK_OK(em_pool_free_all(d));
    CHECK_OK(em_pool_set_limit(d, 64 * 1024));
    CHECK(stats(d).limit_bytes == 64 * 1024);
    CHECK_OK(em_malloc(d, 32 * 1024, NULL, &a));
    CHECK_OK(em_malloc(d, 32 * 1024, NULL, &b));   /* exactly at the limit */
    CHECK_STATUS(em_malloc(d, 1, NULL, &c), EM_ERR_OUT_OF_MEMORY);
    CHECK(c == NULL);
    CHECK(CONTAINS(em_last_error(), "limit"));
    CHECK(CONTAINS(em_last_error(), "65536"));
    CHECK(CONTAINS(em_last_error(), "allocating 1 bytes on cpu"));
    CHECK(CONTAINS(em_last_error(), "in use: 65536 bytes"));

    /* A cached block in the way is released to make room. */
    CHECK_OK(em_free(d, b, NULL));
    CHECK_OK(em_malloc(d, 4096, NULL, &c));
    st = stats(d);
    CHECK(st.cached_bytes == 0);
    CHECK(st.used_bytes == 32 * 1024 + 4096);
    CHECK(st.total_bytes == st.used_bytes);

    CHECK_OK(em_free(d, a, NULL));
    CHECK_OK(em_free(d, c, NULL));
    CHECK_OK(em_pool_set_limit(d, 0));
    CHECK_OK(em_pool_free_all(d));
    CHECK(stats(d).total_bytes == 0);
    /* Larger than any device. */
    CHECK_STATUS(em_malloc(d, (size_t)1 << 62, NULL, &a), EM_ERR_OUT_OF_MEMORY);
    CHECK(CONTAINS(em_last_error(), "out of memory allocating"));
}

static void test_pool_injection(void)
{
    em_device *d = cpu();
    em_pool_stats st;
    uint64_t allocs0, frees0, allocs1, frees1;
    void *x = NULL, *y = NULL, *z = NULL;

    CHECK_OK(em_pool_free_all(d));
    em_rt_pool_raw_counts(&allocs0, &frees0);

    /* One failure: the pool empties its cache and the retry succeeds. */
    CHECK_OK(em_malloc(d, 8192, NULL, &x));
    CHECK_OK(em_free(d, x, NULL));
    CHECK(stats(d).cached_bytes == 8192);
    em_rt_pool_inject_alloc_failures(1, 1);
    CHECK_OK(em_malloc(d, 20000, NULL, &y));
    st = stats(d);
    CHECK(st.cached_bytes == 0);
    CHECK(st.used_bytes == st.total_bytes);
    CHECK_OK(em_free(d, y, NULL));

    /* Two failures: the first attempt and the retry; out of memory with
     * the figures, and nothing reserved or held afterwards. */
    CHECK_OK(em_malloc(d, 1000, NULL, &x));
    em_rt_pool_inject_alloc_failures(1, 2);
    CHECK_STATUS(em_malloc(d, 30000, NULL, &z), EM_ERR_OUT_OF_MEMORY);
    CHECK(z == NULL);
    CHECK(CONTAINS(em_last_error(), "out of memory allocating 30000 bytes on cpu"));
    CHECK(CONTAINS(em_last_error(), "in use: 1024 bytes"));
    CHECK(CONTAINS(em_last_error(), "cached: 0 bytes"));
    CHECK(CONTAINS(em_last_error(), "device free: "));
    CHECK(CONTAINS(em_last_error(), "limit: none"));
    st = stats(d);
    CHECK(st.used_bytes == 1024 && st.total_bytes == 1024 && st.cached_bytes == 0);

    /* A failure of a later attempt only. */
    em_rt_pool_inject_alloc_failures(2, 2);
    CHECK_OK(em_malloc(d, 40000, NULL, &y));      /* attempt 1 */
    CHECK_STATUS(em_malloc(d, 50000, NULL, &z), EM_ERR_OUT_OF_MEMORY); /* 2, 3 */
    CHECK_OK(em_malloc(d, 50000, NULL, &z));      /* 4 */
    em_rt_pool_inject_alloc_failures(0, 0);

    CHECK_OK(em_free(d, x, NULL));
    CHECK_OK(em_free(d, y, NULL));
    CHECK_OK(em_free(d, z, NULL));
    CHECK_OK(em_pool_free_all(d));
    st = stats(d);
    CHECK(st.total_bytes == 0 && st.used_bytes == 0);
    /* Every raw allocation made here was given back. */
    em_rt_pool_raw_counts(&allocs1, &frees1);
    CHECK(allocs1 - allocs0 == frees1 - frees0);
    CHECK(allocs1 - allocs0 == 5);
}

/* In a child: $EMBER_TEST_FAIL_ALLOC=1:2 makes the first allocation and
 * its retry fail. */
static void child_env_injection(void)
{
    em_device *d = cpu();
    void *p = NULL;
    uint64_t a, f;
    CHECK_STATUS(em_malloc(d, 777, NULL, &p), EM_ERR_OUT_OF_MEMORY);
    CHECK(CONTAINS(em_last_error(), "out of memory allocating 777 bytes on cpu"));
    CHECK_OK(em_malloc(d, 777, NULL, &p));
    CHECK_OK(em_free(d, p, NULL));
    CHECK_OK(em_pool_free_all(d));
    em_rt_pool_raw_counts(&a, &f);
    CHECK(a == 1 && f == 1);
}

/* Many threads allocating and freeing at once: the counts still add up. */
static void *pool_hammer(void *arg)
{
    em_device *d = arg;
    void *p[8];
    int i, k, bad = 0;
    for (i = 0; i < 2000; i++) {
        for (k = 0; k < 8; k++)
            bad |= em_malloc(d, (size_t)(256 << (k + i % 5)), NULL, &p[k]) != EM_OK;
        for (k = 0; k < 8; k++)
            bad |= em_free(d, p[k], NULL) != EM_OK;
    }
    return bad ? arg : NULL;
}

static void test_pool_threads(void)
{
    em_device *d = cpu();
    pthread_t t[4];
    void *r;
    int i;
    em_pool_stats st;
    for (i = 0; i < 4; i++)
        CHECK(pthread_create(&t[i], NULL, pool_hammer, d) == 0);
    for (i = 0; i < 4; i++) {
        pthread_join(t[i], &r);
        CHECK(r == NULL);
    }
    st = stats(d);
    CHECK(st.used_bytes == 0);
    CHECK(st.cached_bytes == st.total_bytes);
    CHECK_OK(em_pool_free_all(d));
    CHECK(stats(d).total_bytes == 0);
}

/* ---- modules and launches --------------------------------------------- */

static const char add_src[] =
    "extern \"C\" __global__ void add_k(float *x, int n, float k)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n)\n"
    "        x[i] += k;\n"
    "}\n";

/* x[i] = i, then f adds k on the default stream, launched with cluster and
 * cooperative through em_launch_ex unless both are the defaults; checks
 * every element. The grid is 8 blocks. */
static int run_add_ex(em_device *d, em_function *f, float k, em_dim3 cluster,
                      int cooperative)
{
    enum { N = 1000 };
    float host[N];
    void *x = NULL;
    int n = N, i, ok = 1;
    void *args[3];
    for (i = 0; i < N; i++)
        host[i] = (float)i;
    if (em_malloc(d, sizeof host, NULL, &x) != EM_OK)
        return 0;
    args[0] = &x;
    args[1] = &n;
    args[2] = &k;
    ok &= em_memcpy_async(d, x, host, sizeof host, NULL) == EM_OK;
    if (cluster.x == 1 && cluster.y == 1 && cluster.z == 1 && !cooperative) {
        ok &= em_launch(f, (em_dim3){(N + 127) / 128, 1, 1}, (em_dim3){128, 1, 1}, 0,
                        NULL, args) == EM_OK;
    } else {
        const em_launch_config cfg = {{(N + 127) / 128, 1, 1}, {128, 1, 1}, cluster, 0,
                                      cooperative};
        ok &= em_launch_ex(f, &cfg, NULL, args) == EM_OK;
    }
    ok &= em_memcpy_async(d, host, x, sizeof host, NULL) == EM_OK;
    ok &= em_stream_synchronize(em_stream_default(d)) == EM_OK;
    for (i = 0; i < N; i++)
        ok &= host[i] == (float)i + k;
    ok &= em_free(d, x, NULL) == EM_OK;
    if (!ok)
        fprintf(stderr, "run_add: %s\n", em_last_error());
    return ok;
}

static int run_add(em_device *d, em_function *f, float k)
{
    return run_add_ex(d, f, k, (em_dim3){1, 1, 1}, 0);
}

static void test_modules(void)
{
    em_device *d = cpu();
    em_device_props pr;
    em_code *code = NULL;
    em_module *m = NULL, *m2 = NULL;
    em_function *f = NULL, *g = NULL;
    char *log = NULL, msg[256];
    float k = 1;
    int n = 0;
    void *x = NULL;
    void *args[3] = {&x, &n, &k};
    em_status s;

    s = em_compile_host(add_src, "add.cu", NULL, 0, &code, &log);
    CHECK_OK(s);
    free(log);
    if (s != EM_OK)
        return;
    CHECK(code->kind == EM_CODE_HOST);
    CHECK_OK(em_module_load(d, code, &m));
    code->kind = EM_CODE_CUBIN;
    CHECK_STATUS(em_module_load(d, code, &m2), EM_ERR_INVALID_VALUE);
    CHECK(m2 == NULL);
    CHECK(CONTAINS(em_last_error(), "CUBIN"));
    code->kind = EM_CODE_LTOIR;
    CHECK_STATUS(em_module_load(d, code, &m2), EM_ERR_INVALID_VALUE);
    CHECK(m2 == NULL);
    CHECK(CONTAINS(em_last_error(), "LTO-IR cannot be loaded on cpu"));
    CHECK(CONTAINS(em_last_error(), "linked first"));
    em_code_free(code);
    if (!m)
        return;
    CHECK(em_module_device(m) == d);

    CHECK_OK(em_module_get_function(m, "add_k", &f));
    CHECK_OK(em_module_get_function(m, "add_k", &g));
    CHECK(f && f == g);
    CHECK_STATUS(em_module_get_function(m, "nope", &g), EM_ERR_NOT_FOUND);
    CHECK(g == NULL);
    CHECK(CONTAINS(em_last_error(), "nope"));
    if (!f) {
        em_module_unload(m);
        return;
    }
    CHECK(!strcmp(em_function_name(f), "add_k"));
    CHECK(em_function_param_count(f) == 3);
    CHECK(em_function_param_size(f, 0) == sizeof(float *));
    CHECK(em_function_param_size(f, 1) == sizeof(int));
    CHECK(em_function_param_size(f, 2) == sizeof(float));
    CHECK(em_function_param_size(f, 3) == (size_t)-1);
    CHECK(em_function_param_size(f, -1) == (size_t)-1);
    /* Loaded without its source: the kinds are unknown. */
    CHECK(em_function_param_kind(f, 0) == EM_PARAM_UNKNOWN);
    CHECK(em_function_param_type(f, 0) == NULL);

    CHECK(run_add(d, f, 2.5f));

    /* Invalid launches name the dimension and the device's limit. */
    CHECK_OK(em_device_get_props(d, &pr));
    CHECK_STATUS(em_launch(f, (em_dim3){0, 1, 1}, (em_dim3){1, 1, 1}, 0, NULL, args),
                 EM_ERR_INVALID_VALUE);
    CHECK(CONTAINS(em_last_error(), "grid.x is 0"));
    CHECK_STATUS(em_launch(f, (em_dim3){1, 1, 1}, (em_dim3){1, 0, 1}, 0, NULL, args),
                 EM_ERR_INVALID_VALUE);
    CHECK(CONTAINS(em_last_error(), "block.y is 0"));
    /* Cluster and cooperative launches are checked as any; on cpu, whose
     * kernels cannot see either, they run as ordinary ones. */
    CHECK_STATUS(em_launch_cooperative(f, (em_dim3){0, 1, 1}, (em_dim3){1, 1, 1}, 0, NULL,
                                       args), EM_ERR_INVALID_VALUE);
    CHECK(CONTAINS(em_last_error(), "grid.x is 0"));
    CHECK(run_add_ex(d, f, 1.5f, (em_dim3){1, 1, 1}, 1));
    CHECK(run_add_ex(d, f, 2.5f, (em_dim3){2, 1, 1}, 0));
    CHECK(run_add_ex(d, f, 3.5f, (em_dim3){8, 1, 1}, 1));
    {
        em_launch_config c = {{8, 1, 1}, {1, 1, 1}, {3, 1, 1}, 0, 0};
        CHECK_STATUS(em_launch_ex(f, &c, NULL, args), EM_ERR_INVALID_VALUE);
        CHECK(CONTAINS(em_last_error(), "cluster (3, 1, 1) does not divide grid (8, 1, 1)"));
        c.cluster = (em_dim3){2, 2, 1};
        CHECK_STATUS(em_launch_ex(f, &c, NULL, args), EM_ERR_INVALID_VALUE);
        CHECK(CONTAINS(em_last_error(), "cluster (2, 2, 1) does not divide grid"));
        c.cluster = (em_dim3){0, 1, 1};
        c.cooperative = 1;
        CHECK_STATUS(em_launch_ex(f, &c, NULL, args), EM_ERR_INVALID_VALUE);
        CHECK(CONTAINS(em_last_error(), "cluster (0, 1, 1)"));
        /* The grid's own checks come first. */
        c.grid = (em_dim3){0, 1, 1};
        c.cluster = (em_dim3){2, 1, 1};
        CHECK_STATUS(em_launch_ex(f, &c, NULL, args), EM_ERR_INVALID_VALUE);
        CHECK(CONTAINS(em_last_error(), "grid.x is 0"));
        /* Past CUDA's portable cluster size. */
        c.grid = (em_dim3){16, 1, 1};
        c.cluster = (em_dim3){16, 1, 1};
        c.cooperative = 0;
        CHECK_STATUS(em_launch_ex(f, &c, NULL, args), EM_ERR_INVALID_VALUE);
        CHECK(CONTAINS(em_last_error(), "16 blocks; cpu allows at most 8"));
        CHECK_STATUS(em_launch_ex(f, NULL, NULL, args), EM_ERR_INVALID_VALUE);
        CHECK(CONTAINS(em_last_error(), "cfg is NULL"));
    }
    {
        int nb = -1;
        CHECK_STATUS(em_function_max_active_blocks(f, 32, 0, &nb), EM_ERR_NOT_SUPPORTED);
        CHECK_STATUS(em_function_max_active_blocks(f, 0, 0, &nb), EM_ERR_INVALID_VALUE);
        CHECK(nb == -1);
    }
    if (pr.max_grid_dim[1] < INT32_MAX) {
        unsigned gy = (unsigned)pr.max_grid_dim[1] + 1;
        CHECK_STATUS(em_launch(f, (em_dim3){1, gy, 1}, (em_dim3){1, 1, 1}, 0, NULL, args),
                     EM_ERR_INVALID_VALUE);
        snprintf(msg, sizeof msg, "grid.y = %u; cpu allows at most %d", gy,
                 pr.max_grid_dim[1]);
        CHECK(CONTAINS(em_last_error(), msg));
    }
    {
        unsigned bz = (unsigned)pr.max_block_dim[2] + 1;
        CHECK_STATUS(em_launch(f, (em_dim3){1, 1, 1}, (em_dim3){1, 1, bz}, 0, NULL, args),
                     EM_ERR_INVALID_VALUE);
        CHECK(CONTAINS(em_last_error(), "block.z"));
    }
    {
        /* Too many threads is reported before a too-long axis. */
        unsigned bx = (unsigned)pr.max_threads_per_block * 2;
        CHECK_STATUS(em_launch(f, (em_dim3){1, 1, 1}, (em_dim3){bx, 1, 1}, 0, NULL, args),
                     EM_ERR_INVALID_VALUE);
        snprintf(msg, sizeof msg, "block (%u, 1, 1) has %u threads; cpu allows at "
                 "most %d per block", bx, bx, pr.max_threads_per_block);
        CHECK(CONTAINS(em_last_error(), msg));
        bx = (unsigned)pr.max_threads_per_block / 2 + 1;
        if ((int)bx <= pr.max_block_dim[0] && pr.max_block_dim[1] >= 2) {
            CHECK_STATUS(em_launch(f, (em_dim3){1, 1, 1}, (em_dim3){bx, 2, 1}, 0, NULL, args),
                         EM_ERR_INVALID_VALUE);
            CHECK(CONTAINS(em_last_error(), "threads"));
        }
    }
    {
        int lim = pr.max_shared_per_block_optin > pr.max_shared_per_block
                      ? pr.max_shared_per_block_optin : pr.max_shared_per_block;
        CHECK_STATUS(em_launch(f, (em_dim3){1, 1, 1}, (em_dim3){1, 1, 1},
                               (size_t)lim + 1, NULL, args), EM_ERR_INVALID_VALUE);
        CHECK(CONTAINS(em_last_error(), "shared memory"));
    }
    CHECK_STATUS(em_launch(f, (em_dim3){1, 1, 1}, (em_dim3){1, 1, 1}, 0, NULL, NULL),
                 EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_launch(NULL, (em_dim3){1, 1, 1}, (em_dim3){1, 1, 1}, 0, NULL, args),
                 EM_ERR_INVALID_VALUE);

    CHECK_OK(em_module_unload(m));
    CHECK_OK(em_pool_free_all(d));
}

/* ---- the kernel cache (children) -------------------------------------- */

static const char *const kc_opts[] = {"-O2", "-DUNUSED=1"};

static em_kernel_cache_stats kc_stats(void)
{
    em_kernel_cache_stats st;
    memset(&st, 0xff, sizeof st);
    em_kernel_cache_get_stats(&st);
    return st;
}

/* add_k from the kernel cache, with its parameter kinds read from the
 * source whether the module was compiled or loaded from disk. */
static em_function *kc_function(em_module *m)
{
    em_function *f = NULL;
    if (m)
        CHECK_OK(em_module_get_function(m, "add_k", &f));
    if (f) {
        CHECK(em_function_param_kind(f, 0) == EM_PARAM_POINTER);
        CHECK(em_function_param_kind(f, 1) == EM_PARAM_INT);
        CHECK(em_function_param_kind(f, 2) == EM_PARAM_FLOAT);
        CHECK(em_function_param_type(f, 0) && !strcmp(em_function_param_type(f, 0), "float *"));
    }
    return f;
}

/* Phase "compile": cold memory and disk: a compile, then a memory hit. */
static void child_kc_compile(void)
{
    em_device *d = cpu();
    em_kernel_cache_stats st = kc_stats();
    em_module *m = NULL, *m2 = NULL, *m3 = NULL;
    em_function *f;
    char *log = (char *)1;

    CHECK(st.memory_hits == 0 && st.disk_hits == 0 && st.compiles == 0 && st.entries == 0);
    CHECK_OK(em_kernel_cache_get(d, add_src, 0, kc_opts, 2, 1, &m, &log));
    CHECK(m != NULL);
    CHECK(log != NULL);   /* a fresh compile's log, maybe "" */
    free(log);
    st = kc_stats();
    CHECK(st.compiles == 1 && st.memory_hits == 0 && st.disk_hits == 0 && st.entries == 1);

    log = (char *)1;
    CHECK_OK(em_kernel_cache_get(d, add_src, 0, kc_opts, 2, 1, &m2, &log));
    CHECK(m2 == m);
    CHECK(log == NULL);
    st = kc_stats();
    CHECK(st.memory_hits == 1 && st.compiles == 1 && st.entries == 1);

    /* The caller's own hash of the source keys the same entry as ember's. */
    CHECK_OK(em_kernel_cache_get(d, add_src, em_hash64(add_src, strlen(add_src), 0),
                                 kc_opts, 2, 1, &m2, NULL));
    CHECK(m2 == m);
    CHECK(kc_stats().memory_hits == 2);

    f = kc_function(m);
    CHECK(f && run_add(d, f, 1.0f));

    /* Other options or another generator version: another entry. */
    CHECK_OK(em_kernel_cache_get(d, add_src, 0, kc_opts, 1, 1, &m3, NULL));
    CHECK(m3 && m3 != m);
    CHECK_OK(em_kernel_cache_get(d, add_src, 0, kc_opts, 2, 2, &m2, NULL));
    CHECK(m2 && m2 != m && m2 != m3);
    st = kc_stats();
    CHECK(st.compiles == 3 && st.entries == 3);

    /* Cached modules belong to the cache. */
    CHECK_STATUS(em_module_unload(m), EM_ERR_INVALID_VALUE);
    CHECK(CONTAINS(em_last_error(), "kernel cache"));

    /* A compile error is reported, with the log, and caches nothing. */
    log = NULL;
    CHECK_STATUS(em_kernel_cache_get(d, "extern \"C\" __global__ void bad(int *x) "
                                     "{ x[0] = undefined_name; }\n",
                                     0, NULL, 0, 1, &m2, &log), EM_ERR_COMPILE);
    CHECK(m2 == NULL);
    CHECK(log && CONTAINS(log, "undefined_name"));
    free(log);
    CHECK(kc_stats().entries == 3);
    CHECK_STATUS(em_kernel_cache_get(d, NULL, 0, NULL, 0, 1, &m2, NULL), EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_kernel_cache_get(d, add_src, 0, NULL, 1, 1, &m2, NULL),
                 EM_ERR_INVALID_VALUE);
}

/* Phase "disk": cold memory, warm disk. */
static void child_kc_disk(void)
{
    em_device *d = cpu();
    em_kernel_cache_stats st;
    em_module *m = NULL;
    em_function *f;
    char *log = (char *)1;
    CHECK_OK(em_kernel_cache_get(d, add_src, 0, kc_opts, 2, 1, &m, &log));
    CHECK(log == NULL);
    st = kc_stats();
    CHECK(st.disk_hits == 1 && st.compiles == 0 && st.memory_hits == 0 && st.entries == 1);
    f = kc_function(m);
    CHECK(f && run_add(d, f, 4.0f));
}

/* Phase "damaged": the entry on disk was truncated: recompiled, right. */
static void child_kc_damaged(void)
{
    em_device *d = cpu();
    em_kernel_cache_stats st;
    em_module *m = NULL;
    em_function *f;
    CHECK_OK(em_kernel_cache_get(d, add_src, 0, kc_opts, 2, 1, &m, NULL));
    st = kc_stats();
    CHECK(st.disk_hits == 0);
    CHECK(st.compiles + st.disk_rejects >= 1);
    CHECK(st.compiles == 1);
    f = kc_function(m);
    CHECK(f && run_add(d, f, -3.0f));
}

/* Truncate every entry in the cache directory to half its size. */
static int damage_entries(void)
{
    DIR *dir = opendir(cache_dir);
    struct dirent *e;
    int n = 0;
    char path[PATH_MAX + 300];
    struct stat st;
    if (!dir)
        return 0;
    while ((e = readdir(dir))) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 4, ".emk"))
            continue;
        snprintf(path, sizeof path, "%s/%s", cache_dir, e->d_name);
        if (stat(path, &st) == 0 && truncate(path, st.st_size / 2) == 0)
            n++;
    }
    closedir(dir);
    return n;
}

static void test_kernel_cache(void)
{
    uint64_t entries = 0, bytes = 0;
    CHECK(run_child("kc_compile", NULL, NULL) == 0);
    CHECK_OK(em_diskcache_usage(&entries, &bytes));
    CHECK(entries == 3 && bytes > 0);
    CHECK(run_child("kc_disk", NULL, NULL) == 0);
    CHECK(damage_entries() == 3);
    CHECK(run_child("kc_damaged", NULL, NULL) == 0);
    /* The recompile stored a good entry again. */
    CHECK(run_child("kc_disk", NULL, NULL) == 0);
}

/* ---- main ------------------------------------------------------------- */

static void remove_dir(const char *path)
{
    DIR *dir = opendir(path);
    struct dirent *e;
    char p[PATH_MAX + 300];
    if (!dir)
        return;
    while ((e = readdir(dir))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(p, sizeof p, "%s/%s", path, e->d_name);
        unlink(p);
    }
    closedir(dir);
    rmdir(path);
}

int main(int argc, char **argv)
{
    const char *tmp = getenv("TMPDIR");
    ssize_t n;
    int rc;

    if (argc == 3 && !strcmp(argv[1], "--child")) {
        if (!strcmp(argv[2], "kc_compile"))
            child_kc_compile();
        else if (!strcmp(argv[2], "kc_disk"))
            child_kc_disk();
        else if (!strcmp(argv[2], "kc_damaged"))
            child_kc_damaged();
        else if (!strcmp(argv[2], "env_injection"))
            child_env_injection();
        else
            return 99;
        if (check_failures)
            check_report(argv[2]);
        return check_failures > 90 ? 90 : check_failures;
    }

    /* The path to exec children by; under valgrind, readlink reports the
     * program, not valgrind. */
    n = readlink("/proc/self/exe", self_path, sizeof self_path - 1);
    if (n > 0)
        self_path[n] = 0;
    else
        snprintf(self_path, sizeof self_path, "%s", argv[0]);

    /* Before any ember call: both are read once. */
    setenv("EMBER_DEVICE", "cpu", 1);
    snprintf(cache_dir, sizeof cache_dir, "%s/ember-rt-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(cache_dir)) {
        perror("mkdtemp");
        return 1;
    }
    setenv("EMBER_CACHE_DIR", cache_dir, 1);

    test_devices();
    test_current();
    test_streams();
    test_device_scratch();
    test_pool_basics();
    test_pool_streams();
    test_pool_limit();
    test_pool_injection();
    CHECK(run_child("env_injection", "EMBER_TEST_FAIL_ALLOC", "1:2") == 0);
    test_pool_threads();
    test_modules();
    test_kernel_cache();

    rc = check_report("test_runtime");
    remove_dir(cache_dir);
    return rc;
}
