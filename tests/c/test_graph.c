/* ember C tests: graph capture and replay on the cpu device (the cpu
 * backend's recording; the same runtime paths serve cuda): copies and fills
 * replayed with new values, the refusals and their ending of the capture,
 * and the pool's lending of blocks to a graph. */
#include <string.h>

#include "check.h"
#include "runtime/runtime.h"

enum { N = 4096 };

static em_device *cpu(void)
{
    em_device *d = NULL;
    CHECK_OK(em_device_get(EM_DEVICE_CPU, 0, &d));
    return d;
}

static void put(em_device *d, void *dst, unsigned char v)
{
    unsigned char host[N];
    memset(host, v, sizeof host);
    CHECK_OK(em_memcpy_async(d, dst, host, N, NULL));
    CHECK_OK(em_device_synchronize(d));
}

static int all(em_device *d, const void *src, unsigned char v)
{
    unsigned char host[N];
    int ok = 1;
    CHECK_OK(em_device_synchronize(d));
    CHECK_OK(em_memcpy_async(d, host, src, N, NULL));
    for (int i = 0; i < N; i++)
        ok &= host[i] == v;
    return ok;
}

static void test_replay(em_device *d, em_stream *s)
{
    void *a, *b, *c;
    em_graph *g = NULL;
    CHECK_OK(em_malloc(d, N, NULL, &a));
    CHECK_OK(em_malloc(d, N, NULL, &b));
    CHECK_OK(em_malloc(d, N, NULL, &c));
    put(d, a, 7);
    put(d, b, 0);
    put(d, c, 0);
    CHECK_OK(em_stream_begin_capture(s));
    CHECK(em_stream_is_capturing(s) && em_device_is_capturing(d));
    CHECK_OK(em_memcpy_async(d, b, a, N, s));
    CHECK_OK(em_memcpy_async(d, c, b, N, s));
    CHECK_OK(em_memset_async(d, a, 9, N, s));
    CHECK_OK(em_stream_end_capture(s, &g));
    CHECK(!em_stream_is_capturing(s) && !em_device_is_capturing(d));
    CHECK(all(d, c, 0));            /* recorded, not run */
    CHECK_OK(em_graph_launch(g, s));
    CHECK_OK(em_stream_synchronize(s));
    CHECK(all(d, c, 7) && all(d, a, 9));
    put(d, a, 3);                   /* a new value in the captured buffer */
    CHECK_OK(em_graph_upload(g, s));
    CHECK_OK(em_graph_launch(g, NULL));   /* on the default stream */
    CHECK(all(d, c, 3));
    CHECK_OK(em_graph_destroy(g));
    CHECK_OK(em_free(d, a, NULL));
    CHECK_OK(em_free(d, b, NULL));
    CHECK_OK(em_free(d, c, NULL));
}

static void test_refusals(em_device *d, em_stream *s)
{
    void *a;
    unsigned char host[N];
    em_graph *g = NULL;
    CHECK_OK(em_malloc(d, N, NULL, &a));
    CHECK_STATUS(em_stream_begin_capture(em_stream_default(d)), EM_ERR_INVALID_VALUE);

    CHECK_OK(em_stream_begin_capture(s));
    CHECK_STATUS(em_stream_begin_capture(s), EM_ERR_CAPTURE);
    CHECK(strstr(em_last_error(), "capturing already") != NULL);
    CHECK_STATUS(em_stream_synchronize(s), EM_ERR_CAPTURE);
    CHECK(strstr(em_last_error(), "a synchronize of stream") != NULL);
    CHECK(!em_stream_is_capturing(s));
    CHECK_STATUS(em_stream_end_capture(s, &g), EM_ERR_CAPTURE);
    CHECK(g == NULL);

    CHECK_OK(em_stream_begin_capture(s));
    CHECK_STATUS(em_device_synchronize(d), EM_ERR_CAPTURE);
    CHECK(!em_stream_is_capturing(s));

    CHECK_OK(em_stream_begin_capture(s));
    CHECK_STATUS(em_memcpy_async(d, a, host, N, s), EM_ERR_CAPTURE);
    CHECK(strstr(em_last_error(), "from pageable host memory") != NULL);
    CHECK_OK(em_stream_begin_capture(s));
    CHECK_STATUS(em_memcpy_async(d, host, a, N, s), EM_ERR_CAPTURE);
    CHECK(strstr(em_last_error(), "a host read") != NULL);
    CHECK(!em_stream_is_capturing(s));

    /* usable after: work on s runs again */
    CHECK_OK(em_memset_async(d, a, 5, N, s));
    CHECK_OK(em_stream_synchronize(s));
    CHECK(all(d, a, 5));
    CHECK_OK(em_free(d, a, NULL));
}

static void test_pool_lending(em_device *d, em_stream *s)
{
    em_pool_stats st0, st1, st2;
    void *t, *keep, *fresh;
    em_graph *g = NULL;
    CHECK_OK(em_device_synchronize(d));
    CHECK_OK(em_pool_get_stats(d, &st0));
    CHECK_OK(em_stream_begin_capture(s));
    CHECK_OK(em_malloc(d, N, s, &t));
    CHECK_OK(em_memset_async(d, t, 1, N, s));
    CHECK_OK(em_free(d, t, s));     /* freed in the capture: the graph's */
    CHECK_STATUS(em_free(d, t, s), EM_ERR_INVALID_VALUE);   /* twice */
    CHECK_OK(em_malloc(d, N, s, &keep));
    CHECK_OK(em_memset_async(d, keep, 2, N, s));
    CHECK_OK(em_stream_end_capture(s, &g));
    CHECK_OK(em_free(d, keep, s));  /* after: still the graph's */
    CHECK_OK(em_pool_get_stats(d, &st1));
    CHECK(st1.used_bytes == st0.used_bytes + 2 * N);
    /* new work of the same size gets neither block */
    CHECK_OK(em_malloc(d, N, s, &fresh));
    CHECK(fresh != t && fresh != keep);
    CHECK_OK(em_free(d, fresh, s));
    CHECK_OK(em_graph_launch(g, s));
    CHECK_OK(em_graph_destroy(g));
    CHECK_OK(em_stream_synchronize(s));
    CHECK_OK(em_pool_get_stats(d, &st2));
    CHECK(st2.used_bytes == st0.used_bytes);
    CHECK(st2.cached_bytes >= st1.cached_bytes + 2 * N);
}

static const char add_src[] =
    "extern \"C\" __global__ void add_k(float *x, int n, float k)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n)\n"
    "        x[i] += k;\n"
    "}\n";

/* A launch replays with its packed arguments, and the module it came from
 * stays loaded, though unloaded by its user, until the graph goes. */
static void test_launch_keeps_module(em_device *d, em_stream *s)
{
    static const char *const o0[] = {"-O0"};
    enum { M = 64 };
    float host[M];
    em_code *c = NULL;
    char *log = NULL;
    em_module *m = NULL;
    em_function *f = NULL;
    em_graph *g = NULL;
    void *x = NULL;
    int n = M, ok = 1;
    float k = 2.5f;
    void *args[3] = {&x, &n, &k};
    CHECK_OK(em_compile_host(add_src, "add_k", o0, 1, &c, &log));
    free(log);
    if (!c)
        return;
    CHECK_OK(em_module_load(d, c, &m));
    em_code_free(c);
    CHECK_OK(em_module_get_function(m, "add_k", &f));
    CHECK_OK(em_malloc(d, sizeof host, NULL, &x));
    CHECK_OK(em_memset_async(d, x, 0, sizeof host, NULL));
    CHECK_OK(em_stream_begin_capture(s));
    CHECK_OK(em_launch(f, (em_dim3){2, 1, 1}, (em_dim3){32, 1, 1}, 0, s, args));
    CHECK_OK(em_stream_end_capture(s, &g));
    k = 100.0f;                     /* the captured value stays 2.5 */
    CHECK_OK(em_module_unload(m));  /* deferred: the graph uses it */
    CHECK_OK(em_graph_launch(g, s));
    CHECK_OK(em_graph_launch(g, s));
    CHECK_OK(em_stream_synchronize(s));
    CHECK_OK(em_memcpy_async(d, host, x, sizeof host, NULL));
    for (int i = 0; i < M; i++)
        ok &= host[i] == 5.0f;
    CHECK(ok);
    CHECK_OK(em_graph_destroy(g));  /* unloads the module now */
    CHECK_OK(em_free(d, x, NULL));
}

/* The runtime's paths, on d (cpu, and cuda:0 where a GPU works: a CUDA
 * graph of copies and fills, which needs no compiler). */
static void run_on(em_device *d)
{
    em_stream *s = NULL;
    CHECK_OK(em_stream_create(d, EM_STREAM_NON_BLOCKING, &s));
    test_replay(d, s);
    test_refusals(d, s);
    test_pool_lending(d, s);
    if (d->type == EM_DEVICE_CPU)
        test_launch_keeps_module(d, s);
    CHECK_OK(em_stream_destroy(s));
}

int main(void)
{
    em_device *gpu = NULL;
    int n = 0;
    run_on(cpu());
    if (em_device_count(EM_DEVICE_CUDA, &n) == EM_OK && n > 0 &&
        em_device_get(EM_DEVICE_CUDA, 0, &gpu) == EM_OK)
        run_on(gpu);
    return check_report("test_graph");
}
