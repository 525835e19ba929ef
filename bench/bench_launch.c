/* Launch cost from C on cuda:0: ember's em_launch against the driver's own
 * cuLaunchKernel, on the legacy default stream, the per-thread default
 * stream and a created non-blocking stream. This is the floor under the
 * Python launch figure in bench/run.py.
 *
 * Host time per launch is taken over batches of 200 launches with a sync
 * between batches, so the GPU's queue never fills and the GPU's own kernel
 * rate does not leak into the figure; the median batch is printed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ember/ember.h"
#include "backend/backend.h"
#include "backend/cuda_api.h"
#include "bench_time.h"

#define BATCH 200
#define BATCHES 101

static const char *src =
    "extern \"C\" __global__ void axpy4(const float *x, float *y, float a, int n)\n"
    "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = a * x[i] + y[i]; }\n";


typedef int (*launch_fn)(void *ctx);

static double median_ns(launch_fn fn, void *ctx, em_device *d)
{
    double per[BATCHES];
    for (int b = -3; b < BATCHES; b++) {
        double t0 = now_ns();
        for (int i = 0; i < BATCH; i++)
            if (fn(ctx))
                return -1;
        double t1 = now_ns();
        em_device_synchronize(d);
        if (b >= 0)
            per[b] = (t1 - t0) / BATCH;
    }
    qsort(per, BATCHES, sizeof per[0], cmp);
    return per[BATCHES / 2];
}

struct ctx {
    em_function *f;
    em_stream *s;
    CUstream raw;
    void **args;
};

static int via_ember(void *p)
{
    struct ctx *c = p;
    em_dim3 g = {4, 1, 1}, b = {256, 1, 1};
    return em_launch(c->f, g, b, 0, c->s, c->args) != EM_OK;
}

static int via_driver(void *p)
{
    struct ctx *c = p;
    return em_cuda_drv.cuLaunchKernel(*(CUfunction *)c->f->impl, 4, 1, 1, 256, 1, 1,
                                      0, c->raw, c->args, NULL) != CUDA_SUCCESS;
}

/* Driver calls per operation, counted by wrapping the loader's function
 * table: a driver call beyond the launch costs on the order of a
 * microsecond on a virtual machine, so the per-op figure should show one
 * cuLaunchKernel and little else. */
static struct em_cuda_driver real;
static long n_ctxget, n_ctxset, n_launch, n_squery, n_erecord, n_equery,
    n_swait, n_attr, n_other;
static CUresult w_ctxget(CUcontext *c) { n_ctxget++; return real.cuCtxGetCurrent(c); }
static CUresult w_ctxset(CUcontext c) { n_ctxset++; return real.cuCtxSetCurrent(c); }
static CUresult w_squery(CUstream s) { n_squery++; return real.cuStreamQuery(s); }
static CUresult w_erecord(CUevent e, CUstream s) { n_erecord++; return real.cuEventRecord(e, s); }
static CUresult w_equery(CUevent e) { n_equery++; return real.cuEventQuery(e); }
static CUresult w_swait(CUstream s, CUevent e, unsigned f) { n_swait++; return real.cuStreamWaitEvent(s, e, f); }
static CUresult w_attr(int *v, int a, CUfunction f) { n_attr++; return real.cuFuncGetAttribute(v, a, f); }
static CUresult w_memset(CUdeviceptr d, unsigned char v, size_t n, CUstream s) { n_other++; return real.cuMemsetD8Async(d, v, n, s); }
static CUresult w_memcpy(CUdeviceptr d, CUdeviceptr s_, size_t n, CUstream s) { n_other++; return real.cuMemcpyAsync(d, s_, n, s); }
static CUresult w_launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                         unsigned bx, unsigned by, unsigned bz, unsigned sh,
                         CUstream s, void **p, void **e)
{
    n_launch++;
    return real.cuLaunchKernel(f, gx, gy, gz, bx, by, bz, sh, s, p, e);
}

static void count_calls(const char *what, int (*fn)(void *), void *ctx)
{
    const int n = 1000;
    real = em_cuda_drv;
    em_cuda_drv.cuCtxGetCurrent = w_ctxget;
    em_cuda_drv.cuCtxSetCurrent = w_ctxset;
    em_cuda_drv.cuStreamQuery = w_squery;
    em_cuda_drv.cuEventRecord = w_erecord;
    em_cuda_drv.cuEventQuery = w_equery;
    em_cuda_drv.cuStreamWaitEvent = w_swait;
    em_cuda_drv.cuFuncGetAttribute = w_attr;
    em_cuda_drv.cuMemsetD8Async = w_memset;
    em_cuda_drv.cuMemcpyAsync = w_memcpy;
    em_cuda_drv.cuLaunchKernel = w_launch;
    n_ctxget = n_ctxset = n_launch = n_squery = n_erecord = n_equery = n_swait =
        n_attr = n_other = 0;
    for (int i = 0; i < n; i++)
        if (fn(ctx))
            break;
    em_cuda_drv = real;
    printf("  driver calls per %-22s launch %.2f ctxget %.2f ctxset %.2f "
           "streamquery %.2f eventrecord %.2f eventquery %.2f waitevent %.2f "
           "funcattr %.2f memset/memcpy %.2f\n", what, (double)n_launch / n,
           (double)n_ctxget / n, (double)n_ctxset / n, (double)n_squery / n,
           (double)n_erecord / n, (double)n_equery / n, (double)n_swait / n,
           (double)n_attr / n, (double)n_other / n);
}

/* The array path below the Python layer: a 1,000-element float32 add into
 * a fresh array (what `a + b` costs from C) and into a preallocated one,
 * and the allocation alone, so the per-op figure splits into launch,
 * pool and the ufunc's own work. */
struct arr_ctx {
    em_array a, b, out;
    em_device *d;
};

static int ufunc_new(void *p)
{
    struct arr_ctx *c = p;
    em_array r = {0};
    em_operand in[2] = {{.array = &c->a}, {.array = &c->b}};
    if (em_ufunc_apply(EM_OP_ADD, in, 2, &r, NULL, NULL) != EM_OK)
        return 1;
    em_array_release(&r);
    return 0;
}

static int ufunc_out(void *p)
{
    struct arr_ctx *c = p;
    em_operand in[2] = {{.array = &c->a}, {.array = &c->b}};
    return em_ufunc_apply(EM_OP_ADD, in, 2, &c->out, NULL, NULL) != EM_OK;
}

static int reduce_sum(void *p)
{
    struct arr_ctx *c = p;
    em_array r = {0};
    em_reduce_args none = {0};
    if (em_reduce(EM_RED_SUM, &c->a, &none, &r, NULL) != EM_OK)
        return 1;
    em_array_release(&r);
    return 0;
}

static int alloc_only(void *p)
{
    struct arr_ctx *c = p;
    em_array r = {0};
    int64_t n = 1000;
    if (em_array_empty(c->d, EM_FLOAT32, 1, &n, 'C', NULL, &r) != EM_OK)
        return 1;
    em_array_release(&r);
    return 0;
}

static void array_path(em_device *d)
{
    struct arr_ctx c = {.d = d};
    int64_t n = 1000;
    if (em_array_empty(d, EM_FLOAT32, 1, &n, 'C', NULL, &c.a) != EM_OK ||
        em_array_empty(d, EM_FLOAT32, 1, &n, 'C', NULL, &c.b) != EM_OK ||
        em_array_empty(d, EM_FLOAT32, 1, &n, 'C', NULL, &c.out) != EM_OK) {
        fprintf(stderr, "array setup: %s\n", em_last_error());
        return;
    }
    printf("  em_ufunc_apply add 1000, new out %8.0f\n", median_ns(ufunc_new, &c, d));
    printf("  em_ufunc_apply add 1000, out=    %8.0f\n", median_ns(ufunc_out, &c, d));
    printf("  em_array_empty + release 1000    %8.0f\n", median_ns(alloc_only, &c, d));
    count_calls("ufunc add, new out", ufunc_new, &c);
    count_calls("ufunc add, out=", ufunc_out, &c);
    {
        em_array r = {0};
        em_reduce_args none = {0};
        if (em_reduce(EM_RED_SUM, &c.a, &none, &r, NULL) == EM_OK) {
            em_array_release(&r);
            count_calls("sum 1000", reduce_sum, &c);
            printf("  em_reduce sum 1000, new out      %8.0f\n", median_ns(reduce_sum, &c, d));
        }
    }
    em_array_release(&c.a);
    em_array_release(&c.b);
    em_array_release(&c.out);
}

int main(void)
{
    em_device *d;
    em_module *m;
    em_function *f;
    em_stream *nb;
    void *x, *y;
    float a = 1.0f;
    int n = 1024;
    if (em_device_get(EM_DEVICE_CUDA, 0, &d) != EM_OK) {
        printf("SKIP: %s\n", em_last_error());
        return 0;
    }
    if (em_kernel_cache_get(d, src, 0, NULL, 0, 1, &m, NULL) != EM_OK ||
        em_module_get_function(m, "axpy4", &f) != EM_OK ||
        em_stream_create(d, EM_STREAM_NON_BLOCKING, &nb) != EM_OK ||
        em_malloc(d, 4096, NULL, &x) != EM_OK ||
        em_malloc(d, 4096, NULL, &y) != EM_OK) {
        fprintf(stderr, "setup: %s\n", em_last_error());
        return 1;
    }
    void *args[4] = {&x, &y, &a, &n};
    /* The raw CUfunction is the first member of the cuda backend's impl
     * (bench only; nothing above the backend may rely on this). */
    struct ctx c = {f, NULL, NULL, args};
    printf("launch cost, host ns per launch (median of %d batches of %d)\n",
           BATCHES, BATCH);
    printf("  em_launch, default stream        %8.0f\n", median_ns(via_ember, &c, d));
    c.s = nb;
    printf("  em_launch, non-blocking stream   %8.0f\n", median_ns(via_ember, &c, d));
    c.raw = NULL;
    printf("  cuLaunchKernel, legacy stream    %8.0f\n", median_ns(via_driver, &c, d));
    c.raw = (CUstream)0x2;   /* CU_STREAM_PER_THREAD */
    printf("  cuLaunchKernel, per-thread       %8.0f\n", median_ns(via_driver, &c, d));
    c.raw = (CUstream)em_stream_native(nb);
    printf("  cuLaunchKernel, non-blocking     %8.0f\n", median_ns(via_driver, &c, d));
    array_path(d);
    em_free(d, x, NULL);
    em_free(d, y, NULL);
    em_stream_destroy(nb);
    return 0;
}
