/* A create / compile / load / launch / destroy loop on the cpu device,
 * through the public API only. `make valgrind` runs it under valgrind, so
 * every handle made here must come back with nothing definitely lost:
 * streams and their threads, events, modules (dlopen'd shared objects),
 * compiled code and logs, pool memory. */
#include <stdlib.h>
#include <string.h>
#include "check.h"

#define ITERATIONS 50
#define N 5000

static const char *src =
    "extern \"C\" __global__ void axpy(float a, const float *x, float *y, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) y[i] = a * x[i] + y[i];\n"
    "}\n";

static int one_round(em_device *d, int it, float *hx, float *hy)
{
    em_code *code = NULL;
    char *log = NULL;
    em_module *m = NULL;
    em_function *f = NULL;
    em_stream *s = NULL;
    em_event *e0 = NULL, *e1 = NULL;
    float *x = NULL, *y = NULL, a = (float)it, ms = -1;
    int n = N, before = check_failures;
    void *args[4];
    em_dim3 grid = {(N + 127) / 128, 1, 1}, block = {128, 1, 1};

    CHECK_OK(em_compile_host(src, "axpy.cu", NULL, 0, &code, &log));
    if (!code)
        goto out;
    CHECK_OK(em_module_load(d, code, &m));
    if (!m)
        goto out;
    CHECK_OK(em_module_get_function(m, "axpy", &f));
    CHECK_OK(em_stream_create(d, it % 2 ? EM_STREAM_NON_BLOCKING : EM_STREAM_DEFAULT, &s));
    CHECK_OK(em_event_create(d, EM_EVENT_DEFAULT, &e0));
    CHECK_OK(em_event_create(d, EM_EVENT_DEFAULT, &e1));
    if (!f || !s || !e0 || !e1)
        goto out;
    CHECK_OK(em_malloc(d, N * sizeof(float), s, (void **)&x));
    CHECK_OK(em_malloc(d, N * sizeof(float), s, (void **)&y));
    if (!x || !y)
        goto out;
    for (int i = 0; i < N; i++) {
        hx[i] = (float)i;
        hy[i] = 1.0f;
    }
    CHECK_OK(em_memcpy_async(d, x, hx, N * sizeof(float), s));
    CHECK_OK(em_memcpy_async(d, y, hy, N * sizeof(float), s));
    CHECK_OK(em_event_record(e0, s));
    args[0] = &a;
    args[1] = &x;
    args[2] = &y;
    args[3] = &n;
    CHECK_OK(em_launch(f, grid, block, 0, s, args));
    CHECK_OK(em_event_record(e1, s));
    memset(hy, 0, N * sizeof(float));
    CHECK_OK(em_memcpy_async(d, hy, y, N * sizeof(float), s));
    CHECK_OK(em_stream_synchronize(s));
    CHECK_OK(em_event_elapsed_ms(e0, e1, &ms));
    CHECK(ms >= 0);
    {
        int ok = 1;
        for (int i = 0; i < N; i++)
            ok &= hy[i] == (float)it * (float)i + 1.0f;
        CHECK(ok);
    }
out:
    if (x)
        CHECK_OK(em_free(d, x, s));
    if (y)
        CHECK_OK(em_free(d, y, s));
    if (e0)
        CHECK_OK(em_event_destroy(e0));
    if (e1)
        CHECK_OK(em_event_destroy(e1));
    if (s)
        CHECK_OK(em_stream_destroy(s));
    if (m)
        CHECK_OK(em_module_unload(m));
    em_code_free(code);
    free(log);
    return check_failures == before;
}

int main(void)
{
    em_device *d = NULL;
    float *hx = malloc(N * sizeof(float)), *hy = malloc(N * sizeof(float));
    CHECK_OK(em_device_parse("cpu", &d));
    CHECK(hx && hy);
    if (d && hx && hy)
        for (int it = 0; it < ITERATIONS; it++)
            if (!one_round(d, it, hx, hy))
                break;   /* one failing round says enough */
    if (d)
        CHECK_OK(em_pool_free_all(d));
    free(hx);
    free(hy);
    return check_report("test_leakloop");
}
