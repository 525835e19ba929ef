/* Tests of the host backend (device `cpu`), driven through its ops table
 * directly: the handles the runtime would allocate are made here. */
#include <dirent.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/backend.h"
#include "backend/threadpool.h"
#include "check.h"

static const struct em_backend_ops *ops = &em_host_backend;
static em_device dev;
static em_stream dstream;   /* the default stream */

static void code_free(em_code *c)
{
    if (c) {
        free(c->data);
        free(c->log);
        free(c);
    }
}

/* A loaded module with the functions fetched from it, as the runtime
 * keeps them. */
typedef struct loaded {
    em_module m;
    em_function *fns[8];
} loaded;

static em_status load(const em_code *code, loaded *l)
{
    memset(l, 0, sizeof *l);
    l->m.dev = &dev;
    l->m.functions = l->fns;
    return ops->module_load(&l->m, code);
}

static em_status get_fn(loaded *l, const char *name, em_function **out)
{
    em_function *f = calloc(1, sizeof *f);
    em_status st;
    f->module = &l->m;
    f->name = strdup(name);
    f->n_params = -1;
    st = ops->module_get_function(f);
    if (st != EM_OK) {
        free(f->name);
        free(f);
        *out = NULL;
        return st;
    }
    l->fns[l->m.n_functions++] = f;
    *out = f;
    return EM_OK;
}

/* What the runtime does on unload: the backend first, then its own. */
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

static em_status compile(const char *src, const char *name, const char *const *opts,
                         int n_opts, em_code **code, char **log)
{
    return ops->compile(&dev, src, name, opts, n_opts, code, log);
}

/* Compile and load, with failures reported; returns 0 on failure. */
static int build(const char *src, const char *name, loaded *l)
{
    em_code *code = NULL;
    char *log = NULL;
    em_status st = compile(src, name, NULL, 0, &code, &log);
    if (st != EM_OK) {
        fprintf(stderr, "compile %s: %s\n%s\n", name, em_last_error(),
                log ? log : "");
        free(log);
        CHECK(0);
        return 0;
    }
    free(log);
    st = load(code, l);
    code_free(code);
    CHECK_OK(st);
    return st == EM_OK;
}

static em_dim3 dim3_of(unsigned x, unsigned y, unsigned z)
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

/* ---- device and memory -------------------------------------------------- */

static void test_device(void)
{
    size_t free_b = 0, total_b = 0;
    int count = 0;
    CHECK_OK(ops->device_count(&count));
    CHECK(count == 1);
    /* The CPU's digest: the same on every call, nonzero on Linux. */
    CHECK(dev.arch == em_host_cpu_arch() && dev.arch >= 0);
#ifdef __linux__
    CHECK(dev.arch != 0);
#endif
    CHECK(dev.props.name[0] != 0);
    CHECK(dev.props.warp_size == 1);
    CHECK(dev.props.multiprocessor_count >= 1);
    CHECK(dev.props.max_threads_per_block == 1024);
    CHECK(dev.props.max_block_dim[2] == 64);
    CHECK(dev.props.max_grid_dim[0] == 2147483647);
    CHECK(dev.props.max_shared_per_block == 48 * 1024);
    CHECK(dev.props.total_memory > 0);
    CHECK_OK(ops->mem_info(&dev, &free_b, &total_b));
    CHECK(total_b > 0 && free_b > 0 && free_b <= total_b);
    printf("device: %s, %d cores, %d pool threads\n", dev.props.name,
           dev.props.multiprocessor_count, em_host_thread_count());
}

static void test_memory(void)
{
    void *a = NULL, *b = NULL, *big = NULL;
    int x;
    CHECK_OK(ops->mem_alloc(&dev, 0, &a));
    CHECK_OK(ops->mem_alloc(&dev, 0, &b));
    CHECK(a && b && a != b);
    CHECK(((uintptr_t)a & 255) == 0 && ((uintptr_t)b & 255) == 0);
    CHECK_OK(ops->mem_free(&dev, a));
    CHECK_OK(ops->mem_free(&dev, b));
    CHECK_OK(ops->mem_free(&dev, NULL));
    CHECK_STATUS(ops->mem_free(&dev, &x), EM_ERR_INVALID_VALUE);
    CHECK_STATUS(ops->mem_alloc(&dev, SIZE_MAX - 4096, &big), EM_ERR_OUT_OF_MEMORY);
    CHECK(strstr(em_last_error(), "18446744073709547519") != NULL);

    /* Default-stream copies and fills, small and large (parallel). */
    for (size_t n = 1000; n <= ((size_t)24 << 20); n *= 4000) {
        unsigned char *p = dev_alloc(n), *q = dev_alloc(n);
        int ok = 1;
        CHECK_OK(ops->memset_async(&dev, p, 0xab, n, &dstream));
        CHECK_OK(ops->memcpy_async(&dev, q, p, n, &dstream));
        for (size_t i = 0; i < n; i++)
            ok &= q[i] == 0xab;
        CHECK(ok);
        CHECK_OK(ops->mem_free(&dev, p));
        CHECK_OK(ops->mem_free(&dev, q));
    }
}

/* ---- kernels ------------------------------------------------------------ */

static const char *vadd_src =
    "extern \"C\" __global__ void vadd(const float *__restrict__ a,\n"
    "                                  const float *__restrict__ b,\n"
    "                                  float *c, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) c[i] = a[i] + b[i];\n"
    "}\n";

static void test_vadd(void)
{
    loaded l;
    em_function *f;
    int n = 1 << 20, ok = 1;
    float *a, *b, *c;
    void *args[4];
    if (!build(vadd_src, "vadd.cu", &l))
        return;
    CHECK_OK(get_fn(&l, "vadd", &f));
    if (!f) {
        unload(&l);
        return;
    }
    CHECK(f->n_params == 4);
    CHECK(f->param_sizes[0] == sizeof(void *) && f->param_sizes[1] == sizeof(void *) &&
          f->param_sizes[2] == sizeof(void *) && f->param_sizes[3] == sizeof(int));
    CHECK(f->args_size == 3 * sizeof(void *) + sizeof(int));
    a = dev_alloc((size_t)n * 4);
    b = dev_alloc((size_t)n * 4);
    c = dev_alloc((size_t)n * 4);
    for (int i = 0; i < n; i++) {
        a[i] = (float)i * 0.5f;
        b[i] = (float)(n - i) * 0.25f;
        c[i] = -1.0f;
    }
    args[0] = &a;
    args[1] = &b;
    args[2] = &c;
    args[3] = &n;
    /* One block more than needed: the bound check must hold. */
    CHECK_OK(ops->launch(f, dim3_of((unsigned)(n / 256 + 1), 1, 1),
                         dim3_of(256, 1, 1), 0, &dstream, args));
    for (int i = 0; i < n; i++)
        ok &= c[i] == a[i] + b[i];
    CHECK(ok);
    ops->mem_free(&dev, a);
    ops->mem_free(&dev, b);
    ops->mem_free(&dev, c);
    unload(&l);
}

/* Every thread writes who it is; a 3-D grid of 3-D blocks. */
static const char *index_src =
    "extern \"C\" {\n"
    "__device__ __forceinline__ unsigned linear(uint3 v, dim3 d)\n"
    "{ return (v.z * d.y + v.y) * d.x + v.x; }\n"
    "__global__ void __launch_bounds__(256, 2)\n"
    "who(unsigned *out, unsigned long long tag)\n"
    "{\n"
    "    unsigned b = linear(blockIdx, gridDim), t = linear(threadIdx, blockDim);\n"
    "    unsigned i = b * (blockDim.x * blockDim.y * blockDim.z) + t;\n"
    "    out[4 * i + 0] = blockIdx.x | blockIdx.y << 8 | blockIdx.z << 16;\n"
    "    out[4 * i + 1] = threadIdx.x | threadIdx.y << 8 | threadIdx.z << 16;\n"
    "    out[4 * i + 2] = gridDim.x | gridDim.y << 8 | gridDim.z << 16;\n"
    "    out[4 * i + 3] = blockDim.x | blockDim.y << 8 | blockDim.z << 16 |\n"
    "                     (unsigned)(tag >> 40) << 24;\n"
    "}\n"
    "}\n";

static void test_indexing(void)
{
    const unsigned G[3] = {5, 3, 2}, B[3] = {4, 3, 2};
    unsigned nthreads = G[0] * G[1] * G[2] * B[0] * B[1] * B[2];
    unsigned long long tag = 0x5Bull << 40;
    loaded l;
    em_function *f;
    unsigned *out;
    void *args[2];
    int ok = 1;
    if (!build(index_src, "index.cu", &l))
        return;
    CHECK_OK(get_fn(&l, "who", &f));
    if (!f) {
        unload(&l);
        return;
    }
    CHECK(f->n_params == 2 && f->param_sizes[1] == 8);
    out = dev_alloc(nthreads * 16);
    memset(out, 0xff, nthreads * 16);
    args[0] = &out;
    args[1] = &tag;
    CHECK_OK(ops->launch(f, dim3_of(G[0], G[1], G[2]), dim3_of(B[0], B[1], B[2]),
                         0, &dstream, args));
    for (unsigned bz = 0; bz < G[2]; bz++)
        for (unsigned by = 0; by < G[1]; by++)
            for (unsigned bx = 0; bx < G[0]; bx++)
                for (unsigned tz = 0; tz < B[2]; tz++)
                    for (unsigned ty = 0; ty < B[1]; ty++)
                        for (unsigned tx = 0; tx < B[0]; tx++) {
                            unsigned b = (bz * G[1] + by) * G[0] + bx;
                            unsigned t = (tz * B[1] + ty) * B[0] + tx;
                            unsigned i = b * B[0] * B[1] * B[2] + t;
                            ok &= out[4 * i] == (bx | by << 8 | bz << 16);
                            ok &= out[4 * i + 1] == (tx | ty << 8 | tz << 16);
                            ok &= out[4 * i + 2] == (G[0] | G[1] << 8 | G[2] << 16);
                            ok &= out[4 * i + 3] ==
                                  (B[0] | B[1] << 8 | B[2] << 16 | 0x5Bu << 24);
                        }
    CHECK(ok);
    ops->mem_free(&dev, out);
    unload(&l);
}

static const char *atomic_src =
    "/* __syncthreads() in a comment or \"__syncthreads\" in a string is fine */\n"
    "__device__ int weight(unsigned i) { return (int)(i % 7u) - 2; }\n"
    "extern \"C\" __global__ void sums(int *isum, unsigned long long *usum,\n"
    "                                 float *fsum, double *dsum, int *imax,\n"
    "                                 unsigned *bits, int *cas, int n)\n"
    "{\n"
    "    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i >= (unsigned)n) return;\n"
    "    atomicAdd(isum, weight(i));\n"
    "    atomicAdd(usum, (unsigned long long)i);\n"
    "    atomicAdd(fsum, 1.0f);\n"
    "    atomicAdd(dsum, 0.5);\n"
    "    atomicMax(imax, (int)(i * 37u % 1000003u));\n"
    "    atomicOr(bits, 1u << (i % 32u));\n"
    "    atomicCAS(cas, -1, (int)i);  /* exactly one thread wins */\n"
    "    atomicSub(isum + 1, 1);\n"
    "    atomicMin(imax + 1, min((int)i, 5) - max(3, (int)i));\n"
    "}\n";

static void test_atomics(void)
{
    loaded l;
    em_function *f;
    int n = 300000, *isum, *imax, *cas;
    unsigned long long *usum;
    float *fsum;
    double *dsum;
    unsigned *bits;
    long long want_i = 0;
    int want_max = 0;
    void *args[8];
    if (!build(atomic_src, "atomics.cu", &l))
        return;
    CHECK_OK(get_fn(&l, "sums", &f));
    if (!f) {
        unload(&l);
        return;
    }
    CHECK(f->n_params == 8);
    isum = dev_alloc(8);
    usum = dev_alloc(8);
    fsum = dev_alloc(4);
    dsum = dev_alloc(8);
    imax = dev_alloc(8);
    bits = dev_alloc(4);
    cas = dev_alloc(4);
    isum[0] = isum[1] = 0;
    *usum = 0;
    *fsum = 0;
    *dsum = 0;
    imax[0] = -1;
    imax[1] = 1000;
    *bits = 0;
    *cas = -1;
    args[0] = &isum; args[1] = &usum; args[2] = &fsum; args[3] = &dsum;
    args[4] = &imax; args[5] = &bits; args[6] = &cas; args[7] = &n;
    CHECK_OK(ops->launch(f, dim3_of((unsigned)(n + 127) / 128, 1, 1),
                         dim3_of(128, 1, 1), 0, &dstream, args));
    for (int i = 0; i < n; i++) {
        want_i += (i % 7) - 2;
        if ((int)((unsigned)i * 37u % 1000003u) > want_max)
            want_max = (int)((unsigned)i * 37u % 1000003u);
    }
    CHECK(isum[0] == want_i);
    CHECK(isum[1] == -n);
    CHECK(*usum == (unsigned long long)n * (n - 1) / 2);
    CHECK(*fsum == (float)n);         /* integers below 2^24 add exactly */
    CHECK(*dsum == 0.5 * n);
    CHECK(imax[0] == want_max);
    CHECK(imax[1] == 5 - (n - 1));
    CHECK(*bits == 0xffffffffu);
    CHECK(*cas >= 0 && *cas < n);
    ops->mem_free(&dev, isum);
    ops->mem_free(&dev, usum);
    ops->mem_free(&dev, fsum);
    ops->mem_free(&dev, dsum);
    ops->mem_free(&dev, imax);
    ops->mem_free(&dev, bits);
    ops->mem_free(&dev, cas);
    unload(&l);
}

/* Parameter forms, options, declarations before definitions, shared
 * arrays, kernels without parameters, by-value vectors on a queue. */
static const char *params_src =
    "struct pair { int a; double b; };\n"
    "__global__ void later(int *p);\n"
    "extern \"C\" __global__ void none() { }\n"
    "extern \"C\" __global__ void voidp(void) { }\n"
    "extern \"C\" __global__ void many(float **pp, unsigned long long x,\n"
    "    const int\n  n, /* a comment, with commas */ struct pair s,\n"
    "    float4 v, char c, double arr[], float *const q)\n"
    "{\n"
    "    __shared__ float tile[4];\n"
    "    tile[threadIdx.x] = v.x + v.y + v.z + v.w;\n"
    "    if (threadIdx.x == 0 && blockIdx.x == 0) {\n"
    "        pp[0][0] = tile[0] * SCALE;\n"
    "        arr[0] = s.b + s.a + (double)x + n + c;\n"
    "        q[0] = rsqrtf(4.0f) + (float)warpSize + min(2.5f, 3) + max(0u, 1);\n"
    "    }\n"
    "}\n"
    "__global__ void later(int *p) { p[threadIdx.x] = (int)threadIdx.x; }\n";

static void test_params(void)
{
    static const char *const opts[] = {"--use_fast_math", "-DSCALE=3",
                                       "-arch=sm_90", "--std=c++17", "-O3",
                                       "-default-device", "-fmad=false"};
    em_code *code = NULL;
    char *log = NULL;
    loaded l;
    em_function *f, *g;
    em_stream s = {0};
    float *buf, *q, **pp;
    double *arr;
    int *p;
    struct { int a; double b; } pair = {2, 0.5};
    struct { float x, y, z, w; } __attribute__((aligned(16))) v = {1, 2, 3, 4};
    unsigned long long x = 10;
    int n = 7;
    char c = 1;
    void *args[8];

    CHECK_OK(compile(params_src, "params.cu", opts, 7, &code, &log));
    CHECK(code && code->kind == EM_CODE_HOST && code->size > 0);
    CHECK(log != NULL);
    free(log);
    if (!code)
        return;
    CHECK_OK(load(code, &l));
    code_free(code);
    CHECK_OK(get_fn(&l, "none", &f));
    CHECK(f && f->n_params == 0 && f->args_size == 0);
    CHECK_OK(get_fn(&l, "voidp", &f));
    CHECK(f && f->n_params == 0);
    if (f)
        CHECK_OK(ops->launch(f, dim3_of(2, 1, 1), dim3_of(1, 1, 1), 0, &dstream, NULL));
    CHECK_OK(get_fn(&l, "later", &g));
    CHECK(g && g->n_params == 1);
    CHECK_OK(get_fn(&l, "many", &f));
    if (!f) {
        unload(&l);
        return;
    }
    CHECK(f->n_params == 8);
    CHECK(f->param_sizes[0] == 8 && f->param_sizes[1] == 8 &&
          f->param_sizes[2] == 4 && f->param_sizes[3] == 16 &&
          f->param_sizes[4] == 16 && f->param_sizes[5] == 1 &&
          f->param_sizes[6] == 8 && f->param_sizes[7] == 8);
    /* 8 + 8 + 4 (+4 pad) + 16 + 16 + 1 (+7 pad) + 8 + 8 */
    CHECK(f->args_size == 80);

    buf = dev_alloc(16);
    q = dev_alloc(4);
    arr = dev_alloc(8);
    pp = dev_alloc(8);
    pp[0] = buf;
    args[0] = &pp; args[1] = &x; args[2] = &n; args[3] = &pair;
    args[4] = &v; args[5] = &c; args[6] = &arr; args[7] = &q;
    s.dev = &dev;
    s.flags = EM_STREAM_NON_BLOCKING;
    CHECK_OK(ops->stream_create(&s));
    CHECK_OK(ops->launch(f, dim3_of(3, 1, 1), dim3_of(4, 1, 1), 0, &s, args));
    /* The queued launch copied the values: changing them now is harmless. */
    v.x = 100;
    pair.b = 100;
    x = 0;
    CHECK_OK(ops->stream_synchronize(&s));
    CHECK(buf[0] == 30.0f);
    CHECK(arr[0] == 0.5 + 2 + 10 + 7 + 1);
    CHECK(q[0] == 5.0f);
    p = dev_alloc(64);
    args[0] = &p;
    CHECK_OK(ops->launch(g, dim3_of(1, 1, 1), dim3_of(16, 1, 1), 0, &s, args));
    CHECK_OK(ops->stream_synchronize(&s));
    CHECK(p[0] == 0 && p[15] == 15);
    CHECK_OK(ops->stream_destroy(&s));
    ops->mem_free(&dev, buf);
    ops->mem_free(&dev, q);
    ops->mem_free(&dev, arr);
    ops->mem_free(&dev, pp);
    ops->mem_free(&dev, p);
    unload(&l);
}

/* The front end must find kernels through extern "C" blocks, comments,
 * literals and directives without touching what the C compiler sees. */
static const char *lex_src =
    "#define OPEN { // a directive with a comment\n"
    "__global__ void zeroth(int *p) { p[3] = 1; }\n"
    "#define GREETING \"extern \\\"C\\\" __global__ void fake(int x) {}\"\n"
    "/*/ a comment that does not end at its own slash: __global__ void no(int a) { } */\n"
    "extern \"C\" {\n"
    "  struct s { int v; };\n"
    "  __device__ int twice(int v) { if (v) { return 2 * v; } return 0; }\n"
    "  __global__ void first(int *p) { p[0] = twice(21) + (GREETING[0] == 'e'); }\n"
    "}\n"
    "// __global__ void commented(int x) { }\n"
    "extern \"C\"\n"
    "{\n"
    "  __global__ void second(int *p, char q) { p[1] = q == '\"' ? 7 : 0; }\n"
    "}\n"
    "extern \"C\" __global__ void third(int *p) { const char *t = \"}{\"; p[2] = t[0]; }\n";

static void test_lexing(void)
{
    loaded l;
    em_function *f1, *f2, *f3, *nf;
    int *p;
    char q = '"';
    void *args[2];
    if (!build(lex_src, "lex.cu", &l))
        return;
    CHECK_OK(get_fn(&l, "first", &f1));
    CHECK_OK(get_fn(&l, "second", &f2));
    CHECK_OK(get_fn(&l, "third", &f3));
    CHECK_STATUS(get_fn(&l, "fake", &nf), EM_ERR_NOT_FOUND);
    CHECK_STATUS(get_fn(&l, "no", &nf), EM_ERR_NOT_FOUND);
    CHECK_STATUS(get_fn(&l, "commented", &nf), EM_ERR_NOT_FOUND);
    CHECK(strstr(em_last_error(), "kernels: zeroth, first, second, third") != NULL);
    if (f1 && f2 && f3) {
        p = dev_alloc(16);
        args[0] = &p;
        args[1] = &q;
        CHECK_OK(ops->launch(f1, dim3_of(1, 1, 1), dim3_of(1, 1, 1), 0, &dstream, args));
        CHECK_OK(ops->launch(f2, dim3_of(1, 1, 1), dim3_of(1, 1, 1), 0, &dstream, args));
        CHECK_OK(ops->launch(f3, dim3_of(1, 1, 1), dim3_of(1, 1, 1), 0, &dstream, args));
        CHECK(p[0] == 43 && p[1] == 7 && p[2] == '}');
        ops->mem_free(&dev, p);
    }
    unload(&l);
}

/* ---- failures ----------------------------------------------------------- */

static void test_errors(void)
{
    em_code *code = NULL;
    char *log = NULL;
    const char *old_cc;
    loaded l;
    em_function *f;

    /* A syntax error on the user's line 3. */
    CHECK_STATUS(compile("extern \"C\" __global__ void k(int *p)\n{\n"
                         "    p[0] = 1 +;\n}\n", "bad.cu", NULL, 0, &code, &log),
                 EM_ERR_COMPILE);
    CHECK(code == NULL);
    CHECK(log && strstr(log, "bad.cu:3") != NULL);
    CHECK(strstr(em_last_error(), "bad.cu:3") != NULL);
    free(log);
    log = NULL;

    /* Cooperative constructs compile for the block simulator (its own
     * tests are test_host_sim.c); the warp operations without a mask,
     * gone since CUDA 9, are refused before the compiler runs. */
    CHECK_OK(compile("extern \"C\" __global__ void k(float *p)\n{\n"
                     "    p[threadIdx.x] = 1;\n    __syncthreads();\n}\n",
                     "sync.cu", NULL, 0, &code, &log));
    code_free(code);
    code = NULL;
    free(log);
    log = NULL;
    CHECK_STATUS(compile("__global__ void k(float *p)\n"
                         "{ p[0] = __shfl_down(p[0], 1); }\n",
                         "shfl.cu", NULL, 0, &code, &log),
                 EM_ERR_NOT_SUPPORTED);
    CHECK(strstr(em_last_error(), "'__shfl_down'") != NULL);
    CHECK(strstr(em_last_error(), "shfl.cu:2") != NULL);
    CHECK(strstr(em_last_error(), "simulator") != NULL);
    CHECK(log == NULL);

    /* An absent kernel is named, with the ones that exist. */
    if (build(vadd_src, "vadd.cu", &l)) {
        CHECK_STATUS(get_fn(&l, "vsub", &f), EM_ERR_NOT_FOUND);
        CHECK(strstr(em_last_error(), "'vsub'") != NULL);
        CHECK(strstr(em_last_error(), "kernels: vadd") != NULL);
        CHECK_STATUS(get_fn(&l, "bad name", &f), EM_ERR_NOT_FOUND);
        unload(&l);
    }

    /* Code of another kind, or garbage, is refused by the loader. */
    {
        em_code junk = {EM_CODE_PTX, "not code", 8, NULL};
        memset(&l, 0, sizeof l);
        l.m.dev = &dev;
        CHECK_STATUS(ops->module_load(&l.m, &junk), EM_ERR_INVALID_VALUE);
        junk.kind = EM_CODE_HOST;
        CHECK_STATUS(ops->module_load(&l.m, &junk), EM_ERR_INVALID_VALUE);
    }

    /* A missing compiler. */
    old_cc = getenv("EMBER_CC");
    setenv("EMBER_CC", "/nonexistent/ember-cc -m64", 1);
    CHECK_STATUS(compile(vadd_src, "vadd.cu", NULL, 0, &code, &log),
                 EM_ERR_UNAVAILABLE);
    CHECK(strstr(em_last_error(), "/nonexistent/ember-cc") != NULL);
    CHECK(strstr(em_last_error(), "EMBER_CC") != NULL);
    CHECK(code == NULL && log == NULL);
    free(log);
    log = NULL;
    /* EMBER_CC with arguments. */
    setenv("EMBER_CC", "cc  -DSCALE=2 ", 1);
    CHECK_OK(compile("__global__ void k(int *p) { p[0] = SCALE; }\n", "cc.cu",
                     NULL, 0, &code, NULL));
    code_free(code);
    code = NULL;
    if (old_cc)
        setenv("EMBER_CC", old_cc, 1);
    else
        unsetenv("EMBER_CC");
}

/* ---- streams and events ------------------------------------------------- */

/* Each thread spins a while before writing, so that work queued behind it
 * is observably ordered. */
static const char *slow_src =
    "extern \"C\" __global__ void slow_fill(int *p, int v, int spins)\n"
    "{\n"
    "    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    volatile int k = 0;\n"
    "    for (int s = 0; s < spins; s++) k++;\n"
    "    p[i] = v + k - spins;\n"
    "}\n"
    "extern \"C\" __global__ void add(int *p, int v)\n"
    "{ p[blockIdx.x * blockDim.x + threadIdx.x] += v; }\n";

static void test_streams(void)
{
    loaded l;
    em_function *slow, *add;
    em_stream s = {0}, s2 = {0};
    em_event e0 = {0}, e1 = {0}, enot = {0}, etiming = {0};
    const int n = 1 << 16;
    int *a, *b, v = 5, spins = 2000, done = -1, ok = 1;
    int local[4] = {1, 2, 3, 4};
    float ms = -1;
    void *args[3];

    if (!build(slow_src, "slow.cu", &l))
        return;
    CHECK_OK(get_fn(&l, "slow_fill", &slow));
    CHECK_OK(get_fn(&l, "add", &add));
    if (!slow || !add) {
        unload(&l);
        return;
    }
    a = dev_alloc((size_t)n * 4);
    b = dev_alloc((size_t)n * 4);
    s.dev = s2.dev = &dev;
    CHECK_OK(ops->stream_create(&s));          /* blocking */
    s2.flags = EM_STREAM_NON_BLOCKING;
    CHECK_OK(ops->stream_create(&s2));
    e0.dev = e1.dev = enot.dev = etiming.dev = &dev;
    etiming.flags = EM_EVENT_DISABLE_TIMING;
    CHECK_OK(ops->event_create(&e0));
    CHECK_OK(ops->event_create(&e1));
    CHECK_OK(ops->event_create(&enot));
    CHECK_OK(ops->event_create(&etiming));

    /* Never recorded: complete, but without a time. */
    CHECK_OK(ops->event_query(&enot, &done));
    CHECK(done == 1);
    CHECK_STATUS(ops->event_elapsed_ms(&enot, &e0, &ms), EM_ERR_INVALID_VALUE);
    CHECK(strstr(em_last_error(), "never been recorded") != NULL);

    /* memset + launch + copy + records, all queued on s. */
    CHECK_OK(ops->memset_async(&dev, a, 0, (size_t)n * 4, &s));
    CHECK_OK(ops->event_record(&e0, &s));
    args[0] = &a;
    args[1] = &v;
    args[2] = &spins;
    CHECK_OK(ops->launch(slow, dim3_of(n / 64, 1, 1), dim3_of(64, 1, 1), 0, &s, args));
    v = 1000;   /* the queued launch holds its own copy of v */
    CHECK_OK(ops->memcpy_async(&dev, b, a, (size_t)n * 4, &s));
    CHECK_OK(ops->event_record(&e1, &s));
    CHECK_OK(ops->event_record(&etiming, &s));
    CHECK_OK(ops->stream_synchronize(&s));
    CHECK_OK(ops->stream_query(&s, &done));
    CHECK(done == 1);
    CHECK_OK(ops->event_query(&e1, &done));
    CHECK(done == 1);
    for (int i = 0; i < n; i++)
        ok &= a[i] == 5 && b[i] == 5;
    CHECK(ok);
    CHECK_OK(ops->event_elapsed_ms(&e0, &e1, &ms));
    CHECK(ms >= 0);
    CHECK_STATUS(ops->event_elapsed_ms(&e0, &etiming, &ms), EM_ERR_INVALID_VALUE);
    CHECK(strstr(em_last_error(), "DISABLE_TIMING") != NULL);

    /* The default stream waits for blocking streams: a default-stream
     * copy right after a slow queued fill sees the fill. */
    v = 7;
    spins = 20000;
    CHECK_OK(ops->launch(slow, dim3_of(n / 64, 1, 1), dim3_of(64, 1, 1), 0, &s, args));
    CHECK_OK(ops->memcpy_async(&dev, b, a, (size_t)n * 4, &dstream));
    ok = 1;
    for (int i = 0; i < n; i++)
        ok &= b[i] == 7;
    CHECK(ok);

    /* Cross-stream order through an event: s2 waits for s. */
    v = 9;
    CHECK_OK(ops->launch(slow, dim3_of(n / 64, 1, 1), dim3_of(64, 1, 1), 0, &s, args));
    CHECK_OK(ops->event_record(&e1, &s));
    CHECK_OK(ops->stream_wait_event(&s2, &e1));
    v = 1;
    args[1] = &v;
    CHECK_OK(ops->launch(add, dim3_of(n / 64, 1, 1), dim3_of(64, 1, 1), 0, &s2, args));
    CHECK_OK(ops->memcpy_async(&dev, b, a, (size_t)n * 4, &s2));
    CHECK_OK(ops->stream_synchronize(&s2));
    ok = 1;
    for (int i = 0; i < n; i++)
        ok &= b[i] == 10;
    CHECK(ok);
    CHECK_OK(ops->event_synchronize(&e1));

    /* A copy from the caller's own buffer completes before the call
     * returns, so the buffer may be changed at once. */
    CHECK_OK(ops->memcpy_async(&dev, a, local, sizeof local, &s2));
    local[0] = 99;
    CHECK_OK(ops->stream_synchronize(&s2));
    CHECK(a[0] == 1 && a[3] == 4);

    /* Destroying an event with a record still queued is safe. */
    {
        em_event tmp = {0};
        tmp.dev = &dev;
        CHECK_OK(ops->event_create(&tmp));
        CHECK_OK(ops->launch(slow, dim3_of(n / 64, 1, 1), dim3_of(64, 1, 1), 0, &s, args));
        CHECK_OK(ops->event_record(&tmp, &s));
        CHECK_OK(ops->event_destroy(&tmp));
        CHECK_OK(ops->synchronize(&dev));
    }

    CHECK_OK(ops->event_destroy(&e0));
    CHECK_OK(ops->event_destroy(&e1));
    CHECK_OK(ops->event_destroy(&enot));
    CHECK_OK(ops->event_destroy(&etiming));
    /* Destroy with work queued: it runs first. */
    v = 3;
    CHECK_OK(ops->launch(slow, dim3_of(n / 64, 1, 1), dim3_of(64, 1, 1), 0, &s2, args));
    CHECK_OK(ops->stream_destroy(&s2));
    CHECK(a[n - 1] == 3);
    CHECK_OK(ops->stream_destroy(&s));
    ops->mem_free(&dev, a);
    ops->mem_free(&dev, b);
    unload(&l);
}

/* Launches from several threads at once share the pool. */
typedef struct race {
    em_function *f;
    int *p;
    int v;
    em_status st;
} race;

static void *race_main(void *arg)
{
    race *r = arg;
    em_stream s = {0};
    void *args[2] = {&r->p, &r->v};
    s.dev = &dev;
    r->st = ops->stream_create(&s);
    for (int k = 0; k < 20 && r->st == EM_OK; k++)
        r->st = ops->launch(r->f, dim3_of(256, 1, 1), dim3_of(64, 1, 1), 0, &s, args);
    if (r->st == EM_OK)
        r->st = ops->stream_synchronize(&s);
    ops->stream_destroy(&s);
    return NULL;
}

static void test_concurrent(void)
{
    loaded l;
    em_function *add;
    race r[4];
    pthread_t t[4];
    if (!build(slow_src, "slow.cu", &l))
        return;
    CHECK_OK(get_fn(&l, "add", &add));
    for (int i = 0; i < 4; i++) {
        r[i].f = add;
        r[i].p = dev_alloc(256 * 64 * 4);
        memset(r[i].p, 0, 256 * 64 * 4);
        r[i].v = i + 1;
        pthread_create(&t[i], NULL, race_main, &r[i]);
    }
    for (int i = 0; i < 4; i++) {
        int ok = 1;
        pthread_join(t[i], NULL);
        CHECK_OK(r[i].st);
        for (int j = 0; j < 256 * 64; j++)
            ok &= r[i].p[j] == 20 * (i + 1);
        CHECK(ok);
        ops->mem_free(&dev, r[i].p);
    }
    unload(&l);
}

/* ---- no leaks over many loads ------------------------------------------- */

static int fd_count(void)
{
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    int n = 0;
    if (!d)
        return -1;
    while ((e = readdir(d)))
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

static void test_load_loop(void)
{
    em_code *code = NULL;
    int before, after, n = 4096, ok = 1;
    float *a, *b, *c;
    void *args[4];
    if (compile(vadd_src, "vadd.cu", NULL, 0, &code, NULL) != EM_OK) {
        CHECK(0);
        return;
    }
    a = dev_alloc((size_t)n * 4);
    b = dev_alloc((size_t)n * 4);
    c = dev_alloc((size_t)n * 4);
    for (int i = 0; i < n; i++) {
        a[i] = (float)i;
        b[i] = 1;
    }
    args[0] = &a; args[1] = &b; args[2] = &c; args[3] = &n;
    before = fd_count();
    for (int it = 0; it < 200; it++) {
        loaded l;
        em_function *f = NULL;
        em_stream s = {0};
        s.dev = &dev;
        if (load(code, &l) != EM_OK || get_fn(&l, "vadd", &f) != EM_OK ||
            ops->stream_create(&s) != EM_OK) {
            fprintf(stderr, "iteration %d: %s\n", it, em_last_error());
            ok = 0;
            break;
        }
        c[0] = -1;
        ok &= ops->launch(f, dim3_of(n / 128, 1, 1), dim3_of(128, 1, 1), 0,
                          it % 2 ? &s : &dstream, args) == EM_OK;
        ok &= ops->stream_destroy(&s) == EM_OK;
        ok &= c[0] == 1 && c[n - 1] == (float)n;
        unload(&l);
    }
    after = fd_count();
    CHECK(ok);
    CHECK(before > 0 && after == before);
    code_free(code);
    ops->mem_free(&dev, a);
    ops->mem_free(&dev, b);
    ops->mem_free(&dev, c);
}

int main(void)
{
    dev.ops = ops;
    dev.type = EM_DEVICE_CPU;
    snprintf(dev.name, sizeof dev.name, "cpu");
    CHECK_OK(ops->init());
    CHECK_OK(ops->device_open(&dev));
    dstream.dev = &dev;
    dstream.is_default = 1;
    CHECK_OK(ops->stream_create(&dstream));
    dev.default_stream = &dstream;

    test_device();
    test_memory();
    test_vadd();
    test_indexing();
    test_atomics();
    test_params();
    test_lexing();
    test_errors();
    test_streams();
    test_concurrent();
    test_load_loop();

    CHECK_OK(ops->stream_destroy(&dstream));
    return check_report("test_host");
}
