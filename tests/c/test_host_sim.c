/* Tests of the block simulator: CUDA kernels whose threads cooperate,
 * run on the host backend (device `cpu`) as one fiber per thread. Driven
 * through the backend's ops table, as test_host.c is. The kernels share
 * one module, so the file compiles little. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/backend.h"
#include "check.h"

static const struct em_backend_ops *ops = &em_host_backend;
static em_device dev;
static em_stream dstream;

typedef struct loaded {
    em_module m;
    em_function *fns[16];
} loaded;

static void code_free(em_code *c)
{
    if (c) {
        free(c->data);
        free(c->log);
        free(c);
    }
}

static int build(const char *src, const char *name, loaded *l)
{
    em_code *code = NULL;
    char *log = NULL;
    em_status st = ops->compile(&dev, src, name, NULL, 0, &code, &log);
    if (st != EM_OK) {
        fprintf(stderr, "compile %s: %s\n%s\n", name, em_last_error(),
                log ? log : "");
        free(log);
        CHECK(0);
        return 0;
    }
    free(log);
    memset(l, 0, sizeof *l);
    l->m.dev = &dev;
    l->m.functions = l->fns;
    st = ops->module_load(&l->m, code);
    code_free(code);
    CHECK_OK(st);
    return st == EM_OK;
}

static em_function *fn(loaded *l, const char *name)
{
    em_function *f = calloc(1, sizeof *f);
    f->module = &l->m;
    f->name = strdup(name);
    f->n_params = -1;
    if (ops->module_get_function(f) != EM_OK) {
        fprintf(stderr, "kernel %s: %s\n", name, em_last_error());
        CHECK(0);
        free(f->name);
        free(f);
        return NULL;
    }
    l->fns[l->m.n_functions++] = f;
    return f;
}

static void unload(loaded *l)
{
    CHECK_OK(ops->module_unload(&l->m));
    for (int i = 0; i < l->m.n_functions; i++) {
        free(l->fns[i]->param_sizes);
        free(l->fns[i]->name);
        free(l->fns[i]);
    }
    l->m.n_functions = 0;
}

static em_dim3 d3(unsigned x, unsigned y, unsigned z)
{
    em_dim3 d = {x, y, z};
    return d;
}

static void *dev_alloc(size_t n)
{
    void *p = NULL;
    CHECK_OK(ops->mem_alloc(&dev, n, &p));
    return p;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static const char sim_src[] =
    "extern __shared__ double file_scope_dyn[];\n"
    "extern \"C\" __global__ void block_sum(const int *x, long long *out, int n)\n"
    "{\n"
    "    __shared__ long long s[256];\n"
    "    unsigned t = threadIdx.x;\n"
    "    int i = blockIdx.x * blockDim.x + t;\n"
    "    s[t] = i < n ? x[i] : 0;\n"
    "    __syncthreads();\n"
    "    for (unsigned w = blockDim.x / 2; w > 0; w >>= 1) {\n"
    "        if (t < w) s[t] += s[t + w];\n"
    "        __syncthreads();\n"
    "    }\n"
    "    if (t == 0) out[blockIdx.x] = s[0];\n"
    "}\n"
    "extern \"C\" __global__ void warp_ops(const int *x, int *out)\n"
    "{\n"
    "    unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;\n"
    "    int v = x[g], *o = out + g * 16, s = v, sc = v, b = v;\n"
    "    for (int off = 16; off > 0; off >>= 1)\n"
    "        s += __shfl_down_sync(0xffffffffu, s, off);\n"
    "    o[0] = s;\n"
    "    for (int d = 1; d < 32; d <<= 1) {\n"
    "        int y = __shfl_up_sync(0xffffffffu, sc, d);\n"
    "        if ((int)(t & 31) >= d) sc += y;\n"
    "    }\n"
    "    o[1] = sc;\n"
    "    for (int m = 1; m < 32; m <<= 1)\n"
    "        b += __shfl_xor_sync(0xffffffffu, b, m);\n"
    "    o[2] = b;\n"
    "    o[3] = __shfl_sync(0xffffffffu, v, 3, 16);\n"
    "    o[4] = (int)__ballot_sync(0xffffffffu, v & 1);\n"
    "    o[5] = __all_sync(0xffffffffu, v >= 0);\n"
    "    o[6] = __any_sync(0xffffffffu, v > 90);\n"
    "    o[7] = __syncthreads_count(v & 1);\n"
    "    o[8] = __syncthreads_and(v >= 0);\n"
    "    o[9] = __syncthreads_or(v > 95);\n"
    "    o[10] = (int)__match_any_sync(0xffffffffu, v % 4);\n"
    "    o[11] = __reduce_add_sync(0xffffffffu, v);\n"
    "    o[12] = warpSize;\n"
    "    o[13] = (int)__activemask();\n"
    "    __syncwarp();\n"
    "    double d = __shfl_down_sync(0xffffffffu, (double)v * 0.5, 1);\n"
    "    o[14] = (int)(d * 2);\n"
    "    long long ll = __shfl_xor_sync(0xffffffffu, (long long)v << 33, 1);\n"
    "    o[15] = (int)(ll >> 33);\n"
    "}\n"
    "extern \"C\" __global__ void coords(unsigned *out)\n"
    "{\n"
    "    unsigned lin = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);\n"
    "    unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);\n"
    "    unsigned *o = out + (b * blockDim.x * blockDim.y * blockDim.z + lin) * 4;\n"
    "    __syncthreads();\n"
    "    __syncwarp(0xffffffffu);\n"
    "    __syncthreads();\n"
    "    o[0] = threadIdx.x; o[1] = threadIdx.y; o[2] = threadIdx.z;\n"
    "    o[3] = blockIdx.x + 100 * blockIdx.y + 10000 * blockIdx.z;\n"
    "}\n"
    "extern \"C\" __global__ void early(int *out, int n)\n"
    "{\n"
    "    __shared__ int s[128];\n"
    "    int t = threadIdx.x;\n"
    "    if (t >= n) return;\n"
    "    s[t] = t;\n"
    "    __syncthreads();\n"
    "    out[t] = s[n - 1 - t];\n"
    "    out[128 + t] = (int)__ballot_sync(0xffffffffu, 1);\n"
    "    out[256 + t] = __shfl_down_sync(0xffffffffu, t, 1);\n"
    "}\n"
    "extern \"C\" __global__ void dyn(const float *x, float *out, int *alias)\n"
    "{\n"
    "    extern __shared__ float buf[];\n"
    "    extern __shared__ __align__(16) int ibuf[];\n"
    "    extern /* a comment */ __shared__ char cbuf[];\n"
    "    unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;\n"
    "    buf[t] = x[g];\n"
    "    buf[blockDim.x + t] = 2 * x[g];\n"
    "    __syncthreads();\n"
    "    out[g] = buf[blockDim.x - 1 - t] + buf[blockDim.x + t];\n"
    "    if (t == 0) alias[blockIdx.x] = (void *)ibuf == (void *)buf &&\n"
    "        (void *)file_scope_dyn == (void *)buf && (void *)cbuf == (void *)buf;\n"
    "}\n"
    "extern \"C\" __global__ void barriers(int *p, int k)\n"
    "{\n"
    "    __shared__ int s[1024];\n"
    "    for (int i = 0; i < k; i++) {\n"
    "        s[threadIdx.x] = i + threadIdx.x;\n"
    "        __syncthreads();\n"
    "    }\n"
    "    if (threadIdx.x == 0) p[blockIdx.x] = s[blockDim.x - 1];\n"
    "}\n"
    "extern \"C\" __global__ void divergent(int *p)\n"
    "{\n"
    "    if (threadIdx.x < 16) { __syncthreads(); p[0] = 1; }\n"
    "    else { __syncthreads(); p[1] = 1; }\n"
    "}\n"
    "extern \"C\" __global__ void stuck(int *p)\n"
    "{\n"
    "    int v = threadIdx.x;\n"
    "    if (threadIdx.x < 16) v = __shfl_down_sync(0xffffffffu, v, 1);\n"
    "    __syncthreads();\n"
    "    p[threadIdx.x] = v;\n"
    "}\n"
    "extern \"C\" __global__ void deep(int *p, int i)\n"
    "{\n"
    "    volatile char big[4 << 20];\n"
    "    big[i] = 1;\n"
    "    big[i + 1] = 2;\n"
    "    __syncthreads();\n"
    "    p[threadIdx.x] = big[i] + big[i + 1];\n"
    "}\n"
    "__device__ int down(int d)\n"
    "{\n"
    "    volatile char buf[8192];\n"
    "    buf[d & 8191] = (char)d;\n"
    "    if (d == 0) return buf[0];\n"
    "    return down(d - 1) ^ buf[(d * 7) & 8191];\n"
    "}\n"
    "extern \"C\" __global__ void recurse(int *p, int d)\n"
    "{\n"
    "    __syncthreads();\n"
    "    p[threadIdx.x] = down(d);\n"
    "}\n"
    "extern \"C\" __global__ void amask(unsigned *out)\n"
    "{\n"
    "    unsigned lane = threadIdx.x & 31, m = 0;\n"
    "    if (lane < 10)\n"
    "        m = __activemask();\n"
    "    else if (lane < 20)\n"
    "        m = __activemask();\n"
    "    __syncthreads();\n"
    "    out[threadIdx.x] = m;\n"
    "    out[64 + threadIdx.x] = __activemask();\n"
    "    if (lane == 3) return;\n"
    "    out[128 + threadIdx.x] = __activemask();\n"
    "}\n";

static void test_block_sum(loaded *l)
{
    em_function *f = fn(l, "block_sum");
    /* Sizes around the block and many blocks at once (every pool thread). */
    static const int sizes[] = {1, 255, 256, 257, 1 << 20};
    int *x;
    long long *out;
    if (!f)
        return;
    x = dev_alloc(sizeof(int) << 20);
    out = dev_alloc(sizeof(long long) * 4096);
    for (int i = 0; i < 1 << 20; i++)
        x[i] = (int)((i * 2654435761u) >> 20) - 2048;
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        int n = sizes[k], nb = (n + 255) / 256, bad = 0;
        void *args[] = {&x, &out, &n};
        CHECK_OK(ops->launch(f, d3((unsigned)nb, 1, 1), d3(256, 1, 1), 0,
                             &dstream, args));
        for (int b = 0; b < nb; b++) {
            long long want = 0;
            for (int i = b * 256; i < n && i < b * 256 + 256; i++)
                want += x[i];
            bad += out[b] != want;
        }
        CHECK(bad == 0);
    }
    ops->mem_free(&dev, x);
    ops->mem_free(&dev, out);
}

static void test_warp_ops(loaded *l)
{
    enum { NB = 3, BT = 64, N = NB * BT };
    em_function *f = fn(l, "warp_ops");
    int *x, *out, bad[16] = {0};
    if (!f)
        return;
    x = dev_alloc(N * sizeof(int));
    out = dev_alloc(N * 16 * sizeof(int));
    for (int i = 0; i < N; i++)
        x[i] = (i * 37 + 11) % 97;
    x[5] = 99;   /* one lane above 95 in block 0 */
    {
        void *args[] = {&x, &out};
        CHECK_OK(ops->launch(f, d3(NB, 1, 1), d3(BT, 1, 1), 0, &dstream, args));
    }
    for (int g = 0; g < N; g++) {
        int lane = g & 31, w0 = g & ~31, b0 = g / BT * BT, *o = out + g * 16;
        int s = 0, sc = 0, tot = 0, cnt = 0, all = 1, or95 = 0, any90 = 0;
        unsigned ballot = 0, match = 0;
        for (int k = 0; k < 32; k++) {
            tot += x[w0 + k];
            if (k <= lane)
                sc += x[w0 + k];
            ballot |= (unsigned)(x[w0 + k] & 1) << k;
            any90 |= x[w0 + k] > 90;
            if (x[w0 + k] % 4 == x[g] % 4)
                match |= 1u << k;
        }
        for (int k = 0; k < BT; k++) {
            cnt += x[b0 + k] & 1;
            all &= x[b0 + k] >= 0;
            or95 |= x[b0 + k] > 95;
        }
        /* The down-shuffle tree: each step adds the value `off` lanes up,
         * or the lane's own when that lies past the warp. */
        {
            int v[32];
            for (int k = 0; k < 32; k++)
                v[k] = x[w0 + k];
            for (int off = 16; off > 0; off >>= 1) {
                int nv[32];
                for (int k = 0; k < 32; k++)
                    nv[k] = v[k] + (k + off < 32 ? v[k + off] : v[k]);
                memcpy(v, nv, sizeof v);
            }
            s = v[lane];
        }
        bad[0] += o[0] != s;
        bad[1] += o[1] != sc;
        bad[2] += o[2] != tot;
        bad[3] += o[3] != x[w0 + (lane & 16) + 3];
        bad[4] += (unsigned)o[4] != ballot;
        bad[5] += o[5] != 1;
        bad[6] += o[6] != any90;
        bad[7] += o[7] != cnt;
        bad[8] += o[8] != all;
        bad[9] += o[9] != or95;
        bad[10] += (unsigned)o[10] != match;
        bad[11] += o[11] != tot;
        bad[12] += o[12] != 32;
        bad[13] += (unsigned)o[13] != 0xffffffffu;
        bad[14] += o[14] != (lane < 31 ? x[g + 1] : x[g]);
        bad[15] += o[15] != x[g ^ 1];
    }
    for (int k = 0; k < 16; k++) {
        if (bad[k])
            fprintf(stderr, "warp_ops: result %d wrong for %d threads\n", k, bad[k]);
        CHECK(bad[k] == 0);
    }
    CHECK(out[5 * 16 + 9] == 1 && out[BT * 16 + 9] == 0);
    ops->mem_free(&dev, x);
    ops->mem_free(&dev, out);
}

static void test_coords(loaded *l)
{
    em_function *f = fn(l, "coords");
    unsigned *out;
    int bad = 0;
    if (!f)
        return;
    out = dev_alloc(4 * 24 * 12 * sizeof(unsigned));
    {
        void *args[] = {&out};
        CHECK_OK(ops->launch(f, d3(3, 2, 2), d3(4, 3, 2), 0, &dstream, args));
    }
    for (unsigned bz = 0; bz < 2; bz++)
        for (unsigned by = 0; by < 2; by++)
            for (unsigned bx = 0; bx < 3; bx++)
                for (unsigned t = 0; t < 24; t++) {
                    unsigned b = bx + 3 * (by + 2 * bz), *o = out + (b * 24 + t) * 4;
                    bad += o[0] != t % 4 || o[1] != t / 4 % 3 || o[2] != t / 12 ||
                           o[3] != bx + 100 * by + 10000 * bz;
                }
    CHECK(bad == 0);
    ops->mem_free(&dev, out);
}

static void test_early_return(loaded *l)
{
    em_function *f = fn(l, "early");
    int *out, n = 40, bad = 0;
    if (!f)
        return;
    out = dev_alloc(384 * sizeof(int));
    memset(out, 0xff, 384 * sizeof(int));
    {
        void *args[] = {&out, &n};
        CHECK_OK(ops->launch(f, d3(1, 1, 1), d3(128, 1, 1), 0, &dstream, args));
    }
    for (int t = 0; t < 128; t++) {
        if (t < n) {
            /* Warp 1 has lanes 0..7 left: the ballot names only them, and
             * lane 7's down-shuffle reads a lane that returned: its own. */
            unsigned want_mask = t < 32 ? 0xffffffffu : 0xffu;
            int want_down = t == 31 || t == n - 1 ? t : t + 1;
            bad += out[t] != n - 1 - t || (unsigned)out[128 + t] != want_mask ||
                   out[256 + t] != want_down;
        } else {
            bad += out[t] != -1;
        }
    }
    CHECK(bad == 0);
    ops->mem_free(&dev, out);
}

/* __activemask names the lanes that reach it together. */
static void test_activemask(loaded *l)
{
    em_function *f = fn(l, "amask");
    unsigned *out;
    int bad = 0;
    if (!f)
        return;
    out = dev_alloc(192 * sizeof(unsigned));
    {
        void *args[] = {&out};
        CHECK_OK(ops->launch(f, d3(1, 1, 1), d3(48, 1, 1), 0, &dstream, args));
    }
    for (unsigned t = 0; t < 48; t++) {
        unsigned lane = t & 31, all = t < 32 ? 0xffffffffu : 0xffffu;
        unsigned want = lane < 10 ? 0x3ffu : lane < 20 ? 0xffc00u : 0;
        bad += out[t] != (want & all) || out[64 + t] != all;
        if (lane != 3)
            bad += out[128 + t] != (all & ~8u);
    }
    CHECK(bad == 0);
    ops->mem_free(&dev, out);
}

static void test_dynamic_shared(loaded *l)
{
    em_function *f = fn(l, "dyn");
    enum { NB = 5, BT = 96 };
    float *x, *out;
    int *alias, bad = 0;
    if (!f)
        return;
    x = dev_alloc(NB * BT * sizeof(float));
    out = dev_alloc(NB * BT * sizeof(float));
    alias = dev_alloc(NB * sizeof(int));
    for (int i = 0; i < NB * BT; i++)
        x[i] = (float)i * 0.25f;
    {
        void *args[] = {&x, &out, &alias};
        CHECK_OK(ops->launch(f, d3(NB, 1, 1), d3(BT, 1, 1), 2 * BT * sizeof(float),
                             &dstream, args));
    }
    for (int b = 0; b < NB; b++) {
        bad += alias[b] != 1;
        for (int t = 0; t < BT; t++)
            bad += out[b * BT + t] != x[b * BT + BT - 1 - t] + 2 * x[b * BT + t];
    }
    CHECK(bad == 0);
    ops->mem_free(&dev, x);
    ops->mem_free(&dev, out);
    ops->mem_free(&dev, alias);
}

static void test_failures(loaded *l)
{
    em_function *div = fn(l, "divergent"), *stuck = fn(l, "stuck"),
                *deep = fn(l, "deep"), *rec = fn(l, "recurse"),
                *sum = fn(l, "block_sum");
    int *p = dev_alloc(64 * sizeof(int)), i = 12345;
    void *args[] = {&p, &i};
    em_stream s;
    if (!div || !stuck || !deep || !rec || !sum)
        return;
    /* Threads at different __syncthreads: reported, never a hang. */
    CHECK_STATUS(ops->launch(div, d3(4, 1, 1), d3(32, 1, 1), 0, &dstream, args),
                 EM_ERR_INVALID_VALUE);
    CHECK(strstr(em_last_error(), "kernel 'divergent'") != NULL);
    CHECK(strstr(em_last_error(), "different __syncthreads") != NULL);
    CHECK(strstr(em_last_error(), "line 93") != NULL);
    CHECK(strstr(em_last_error(), "line 94") != NULL);
    /* Half a warp in a full-mask shuffle, half at __syncthreads. */
    CHECK_STATUS(ops->launch(stuck, d3(1, 1, 1), d3(32, 1, 1), 0, &dstream, args),
                 EM_ERR_INVALID_VALUE);
    CHECK(strstr(em_last_error(), "different barriers") != NULL);
    CHECK(strstr(em_last_error(), "mask 0xffffffff") != NULL);
    CHECK(strstr(em_last_error(), "__syncthreads (line 100") != NULL);
    /* A 4 MiB local array: the compiler's frame sizes size the stacks. */
    CHECK_OK(ops->launch(deep, d3(2, 1, 1), d3(4, 1, 1), 0, &dstream, args));
    CHECK(p[0] == 3 && p[3] == 3);
    /* Recursion that outgrows the stack (the module's, sized for deep's
     * 4 MiB): the guard page. */
    i = 10;
    CHECK_OK(ops->launch(rec, d3(2, 1, 1), d3(4, 1, 1), 0, &dstream, args));
    CHECK(p[0] == p[3]);
    i = 4000;
    CHECK_STATUS(ops->launch(rec, d3(2, 1, 1), d3(4, 1, 1), 0, &dstream, args),
                 EM_ERR_INVALID_VALUE);
    CHECK(strstr(em_last_error(), "kernel 'recurse'") != NULL);
    CHECK(strstr(em_last_error(), "overflowed its stack") != NULL);
    CHECK(strstr(em_last_error(), "EMBER_SIM_STACK") != NULL);
    /* The simulator and the pool still work afterwards. */
    test_block_sum(l);
    /* On a stream, the failure is the stream's, reported when synchronized. */
    memset(&s, 0, sizeof s);
    s.dev = &dev;
    CHECK_OK(ops->stream_create(&s));
    CHECK_OK(ops->launch(div, d3(2, 1, 1), d3(64, 1, 1), 0, &s, args));
    CHECK_STATUS(ops->stream_synchronize(&s), EM_ERR_INVALID_VALUE);
    CHECK(strstr(em_last_error(), "different __syncthreads") != NULL);
    CHECK_OK(ops->stream_destroy(&s));
    ops->mem_free(&dev, p);
}

/* Cooperative launches from several threads at once share the pool; each
 * OS thread has its own fibers. */
typedef struct conc_arg {
    em_function *f;
    int seed, bad;
} conc_arg;

static void *conc_main(void *p)
{
    conc_arg *a = p;
    int n = 256 * 37 + 5, nb = (n + 255) / 256;
    int *x = NULL;
    long long *out = NULL;
    void *args[] = {&x, &out, &n};
    if (ops->mem_alloc(&dev, (size_t)n * sizeof *x, (void **)&x) != EM_OK ||
        ops->mem_alloc(&dev, (size_t)nb * sizeof *out, (void **)&out) != EM_OK) {
        a->bad = -1;
        return NULL;
    }
    for (int r = 0; r < 20; r++) {
        for (int i = 0; i < n; i++)
            x[i] = (i * 31 + a->seed * 7 + r) % 1001 - 500;
        if (ops->launch(a->f, d3((unsigned)nb, 1, 1), d3(256, 1, 1), 0, &dstream,
                        args) != EM_OK) {
            a->bad++;
            continue;
        }
        for (int b = 0; b < nb; b++) {
            long long want = 0;
            for (int i = b * 256; i < n && i < b * 256 + 256; i++)
                want += x[i];
            a->bad += out[b] != want;
        }
    }
    ops->mem_free(&dev, x);
    ops->mem_free(&dev, out);
    return NULL;
}

static void test_concurrent(loaded *l)
{
    em_function *f = fn(l, "block_sum");
    pthread_t th[4];
    conc_arg a[4];
    if (!f)
        return;
    for (int k = 0; k < 4; k++) {
        a[k].f = f;
        a[k].seed = k;
        a[k].bad = 0;
        CHECK(pthread_create(&th[k], NULL, conc_main, &a[k]) == 0);
    }
    for (int k = 0; k < 4; k++) {
        pthread_join(th[k], NULL);
        CHECK(a[k].bad == 0);
    }
}

/* Prints what a barrier costs; checks only the result. */
static void test_barrier_cost(loaded *l)
{
    em_function *f = fn(l, "barriers");
    int *p = dev_alloc(64 * sizeof(int)), k = 2000;
    void *args[] = {&p, &k};
    double t0, t1;
    if (!f)
        return;
    CHECK_OK(ops->launch(f, d3(1, 1, 1), d3(256, 1, 1), 0, &dstream, args));
    t0 = now_s();
    CHECK_OK(ops->launch(f, d3(1, 1, 1), d3(256, 1, 1), 0, &dstream, args));
    t1 = now_s();
    CHECK(p[0] == k - 1 + 255);
    printf("one __syncthreads of a 256-thread block: %.2f us\n",
           (t1 - t0) / k * 1e6);
    k = 10;
    CHECK_OK(ops->launch(f, d3(64, 1, 1), d3(1024, 1, 1), 0, &dstream, args));
    for (int b = 0; b < 64; b++)
        CHECK(p[b] == k - 1 + 1023);
    k = 3;
    CHECK_OK(ops->launch(f, d3(1, 1, 1), d3(1, 1, 1), 0, &dstream, args));
    CHECK(p[0] == 2);
    ops->mem_free(&dev, p);
}

/* The kernels here are CUDA C: NVRTC takes them as they are (to PTX, where
 * NVRTC is installed; no GPU needed). */
static void test_nvrtc(void)
{
    em_code *code = NULL;
    char *log = NULL;
    if (em_nvrtc_version() <= 0) {
        printf("NVRTC not found: the kernels were not compiled for a GPU\n");
        return;
    }
    CHECK_OK(em_compile_cuda(sim_src, "sim.cu", NULL, 0, 90, EM_CODE_PTX, &code,
                             &log));
    if (log && *log && !code)
        fprintf(stderr, "%s\n", log);
    CHECK(code && code->size > 0 && strstr(code->data, ".entry warp_ops") != NULL);
    em_code_free(code);
    free(log);
}

/* Constructs the simulator does not have are refused at compile time. */
static void test_refused(void)
{
    em_code *code = NULL;
    CHECK_STATUS(ops->compile(&dev, "__global__ void k(int *p)\n"
                              "{ p[0] = __any(p[0]); }\n", "any.cu", NULL, 0,
                              &code, NULL),
                 EM_ERR_NOT_SUPPORTED);
    CHECK(strstr(em_last_error(), "'__any' at any.cu:2") != NULL);
    CHECK(code == NULL);
}

int main(void)
{
    loaded l;
    dev.ops = ops;
    dev.type = EM_DEVICE_CPU;
    snprintf(dev.name, sizeof dev.name, "cpu");
    CHECK_OK(ops->init());
    CHECK_OK(ops->device_open(&dev));
    dstream.dev = &dev;
    dstream.is_default = 1;
    CHECK_OK(ops->stream_create(&dstream));
    dev.default_stream = &dstream;

    if (build(sim_src, "sim.cu", &l)) {
        test_block_sum(&l);
        test_warp_ops(&l);
        test_coords(&l);
        test_early_return(&l);
        test_activemask(&l);
        test_dynamic_shared(&l);
        test_failures(&l);
        test_concurrent(&l);
        test_barrier_cost(&l);
        unload(&l);
    }
    test_refused();
    test_nvrtc();

    CHECK_OK(ops->stream_destroy(&dstream));
    return check_report("test_host_sim");
}
