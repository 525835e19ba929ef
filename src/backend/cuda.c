/* ember cuda backend: the CUDA driver API behind struct em_backend_ops.
 *
 * Every device is driven through its primary context, the one the CUDA
 * runtime uses, so device pointers, streams and events interoperate with
 * CuPy, PyTorch and Numba in the same process.
 *
 * Making the context current: before each driver call we ask the driver
 * for the calling thread's current context (cuCtxGetCurrent, a
 * thread-local read inside libcuda, tens of nanoseconds) and switch only
 * when it differs. A cache of our own would be cheaper still, but CuPy,
 * PyTorch and Numba switch the current context on the same thread without
 * telling us, and a stale cache would send work, allocations and launches
 * to the wrong GPU.
 *
 * Sticky faults (an illegal address in a kernel and the like) kill the
 * context for the life of the process. The first one seen on a device is
 * remembered; later calls on that device report it at once without
 * touching the driver, so the process can still say what happened. Calls
 * that only release resources succeed quietly instead: the process is
 * going to restart anyway and teardown code should not fail.
 */
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "backend/backend.h"
#include "backend/cuda_api.h"

#define drv em_cuda_drv

struct cu_dev {
    CUdevice dev;
    CUcontext ctx;
    atomic_int fault;        /* the sticky CUresult, 0 while healthy */
};

/* The streams ember made, all devices', so that em_stream_adopt of one's
 * handle hands out that em_stream (kept alive while adopted) rather than
 * a second handle that its creator's destroy would leave dangling. */
struct cu_own {
    struct cu_own *next;
    em_stream *s;
};
static struct cu_own *own_streams;
static pthread_mutex_t own_lock = PTHREAD_MUTEX_INITIALIZER;

struct cu_fn {
    CUfunction fn;
    /* The dynamic shared memory this function may use without another
     * cuFuncSetAttribute; only grows, under dyn_shared_lock. */
    atomic_uint dyn_shared;
    /* Set once cuFuncSetAttribute allowed clusters past the portable 8
     * blocks; setting it twice is harmless, so no lock. */
    atomic_int nonportable;
    struct cu_fn *next;      /* the module's list, for freeing on unload */
};

struct cu_mod {
    CUmodule mod;
    _Atomic(struct cu_fn *) fns;
};

static pthread_mutex_t dyn_shared_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- errors ------------------------------------------------------------ */

/* Errors after which the context cannot be used again (cuda.h: "the
 * process must be terminated and relaunched"). */
static int is_sticky(CUresult r)
{
    switch (r) {
    case CUDA_ERROR_ECC_UNCORRECTABLE:
    case CUDA_ERROR_NVLINK_UNCORRECTABLE:
    case CUDA_ERROR_CONTAINED:
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_LAUNCH_TIMEOUT:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_TENSOR_MEMORY_LEAK:
    case CUDA_ERROR_MPS_CLIENT_TERMINATED:
    case CUDA_ERROR_EXTERNAL_DEVICE:
        return 1;
    default:
        return 0;
    }
}

static em_status fault_again(const em_device *d, int code, const char *what)
{
    return em_error_native(EM_ERR_DEVICE_FAULT, code, em_cuda_error_name(code),
                           "%s on cuda:%d refused: an earlier %s (%s) left "
                           "the CUDA context unusable; restart the process "
                           "to reset the device",
                           what, d->id, em_cuda_error_name(code),
                           em_cuda_error_string(code));
}

/* The one place a failed driver call becomes an em_status: "what" says
 * which call with which values. A sticky error marks the device. */
static em_status cu_fail(const em_device *d, CUresult r, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static em_status cu_fail(const em_device *d, CUresult r, const char *fmt, ...)
{
    char what[6144];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);

    const char *name = em_cuda_error_name(r);
    const char *desc = em_cuda_error_string(r);
    char where[32] = "";
    if (d)
        snprintf(where, sizeof where, " on cuda:%d", d->id);

    if (is_sticky(r)) {
        if (d && d->impl) {
            int none = 0;
            atomic_compare_exchange_strong(&((struct cu_dev *)d->impl)->fault,
                                           &none, r);
        }
        return em_error_native(EM_ERR_DEVICE_FAULT, r, name,
                               "%s%s: %s (%s): the CUDA context is unusable; "
                               "restart the process to reset the device",
                               what, where, name, desc);
    }
    em_status s = r == CUDA_ERROR_OUT_OF_MEMORY ? EM_ERR_OUT_OF_MEMORY
                                                : EM_ERR_CUDA;
    return em_error_native(s, r, name, "%s%s: %s (%s)", what, where, name,
                           desc);
}

#define CU_FAULT_CHECK(d, what) do { \
    int fault_ = atomic_load_explicit(&((struct cu_dev *)(d)->impl)->fault, \
                                      memory_order_relaxed); \
    if (fault_) \
        return fault_again((d), fault_, (what)); \
} while (0)

/* For releasing calls: after a fault, or while the driver shuts down at
 * exit, there is nothing left to release. */
#define CU_FAULT_RELEASE(d) do { \
    if (atomic_load_explicit(&((struct cu_dev *)(d)->impl)->fault, \
                             memory_order_relaxed)) \
        return EM_OK; \
} while (0)

static inline CUresult ctx_enter(const struct cu_dev *dv)
{
    CUcontext cur = NULL;
    if (drv.cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == dv->ctx)
        return CUDA_SUCCESS;
    return drv.cuCtxSetCurrent(dv->ctx);
}

/* Fault check and context switch, the prologue of every device call. */
#define CU_ENTER(d, what) do { \
    CU_FAULT_CHECK(d, what); \
    CUresult enter_r_ = ctx_enter((struct cu_dev *)(d)->impl); \
    if (enter_r_ != CUDA_SUCCESS) \
        return cu_fail((d), enter_r_, "cuCtxSetCurrent before %s", (what)); \
} while (0)

#define CU_ENTER_RELEASE(d, what) do { \
    CU_FAULT_RELEASE(d); \
    CUresult enter_r_ = ctx_enter((struct cu_dev *)(d)->impl); \
    if (enter_r_ == CUDA_ERROR_DEINITIALIZED) \
        return EM_OK; \
    if (enter_r_ != CUDA_SUCCESS) \
        return cu_fail((d), enter_r_, "cuCtxSetCurrent before %s", (what)); \
} while (0)

static inline CUstream stream_of(const em_stream *s)
{
    return s ? (CUstream)s->impl : NULL;
}

static inline CUdeviceptr dptr(const void *p)
{
    return (CUdeviceptr)(uintptr_t)p;
}

/* ---- devices ----------------------------------------------------------- */

static em_status cu_init(void)
{
    return em_cuda_init_driver();
}

static em_status cu_device_count(int *count)
{
    *count = 0;
    em_status st = em_cuda_init_driver();
    if (st != EM_OK)
        return st;
    CUresult r = drv.cuDeviceGetCount(count);
    if (r != CUDA_SUCCESS) {
        *count = 0;
        return cu_fail(NULL, r, "cuDeviceGetCount");
    }
    return EM_OK;
}

static em_status get_attr(CUdevice dev, int id, int attr, const char *label,
                          int *out, int required)
{
    int v = 0;
    CUresult r = drv.cuDeviceGetAttribute(&v, attr, dev);
    if (r != CUDA_SUCCESS) {
        if (!required) {
            /* Attributes such as the clock rates are being retired by
             * NVIDIA; a driver that drops one must not make the GPU
             * unusable. */
            *out = 0;
            return EM_OK;
        }
        return em_error_native(EM_ERR_CUDA, r, em_cuda_error_name(r),
                               "cuDeviceGetAttribute(%s) on cuda:%d: %s (%s)",
                               label, id, em_cuda_error_name(r),
                               em_cuda_error_string(r));
    }
    *out = v;
    return EM_OK;
}

static em_status cu_device_attribute(em_device *d, int attr, int *value)
{
    CUresult r = drv.cuDeviceGetAttribute(value, attr,
                                          ((struct cu_dev *)d->impl)->dev);
    if (r == CUDA_ERROR_INVALID_VALUE)
        return em_error(EM_ERR_INVALID_VALUE, "%d is not a device attribute "
                        "the driver knows", attr);
    if (r != CUDA_SUCCESS)
        return cu_fail(d, r, "cuDeviceGetAttribute(%d)", attr);
    return EM_OK;
}

static em_status cu_device_open(em_device *d)
{
    em_status st = em_cuda_init_driver();
    if (st != EM_OK)
        return st;

    CUdevice dev;
    CUresult r = drv.cuDeviceGet(&dev, d->id);
    if (r != CUDA_SUCCESS)
        return cu_fail(NULL, r, "cuDeviceGet(%d)", d->id);

    em_device_props p;
    memset(&p, 0, sizeof p);
    r = drv.cuDeviceGetName(p.name, (int)sizeof p.name, dev);
    if (r != CUDA_SUCCESS)
        return cu_fail(NULL, r, "cuDeviceGetName(cuda:%d)", d->id);
    p.name[sizeof p.name - 1] = 0;

    static const struct {
        int attr;
        const char *label;
        size_t offset;
        int required;
    } attrs[] = {
#define A(attr, field, req) \
    { CU_DEVICE_ATTRIBUTE_##attr, #attr, offsetof(em_device_props, field), req }
        A(COMPUTE_CAPABILITY_MAJOR, cc_major, 1),
        A(COMPUTE_CAPABILITY_MINOR, cc_minor, 1),
        A(MULTIPROCESSOR_COUNT, multiprocessor_count, 1),
        A(WARP_SIZE, warp_size, 1),
        A(MAX_THREADS_PER_BLOCK, max_threads_per_block, 1),
        A(MAX_BLOCK_DIM_X, max_block_dim[0], 1),
        A(MAX_BLOCK_DIM_Y, max_block_dim[1], 1),
        A(MAX_BLOCK_DIM_Z, max_block_dim[2], 1),
        A(MAX_GRID_DIM_X, max_grid_dim[0], 1),
        A(MAX_GRID_DIM_Y, max_grid_dim[1], 1),
        A(MAX_GRID_DIM_Z, max_grid_dim[2], 1),
        A(MAX_SHARED_MEMORY_PER_BLOCK, max_shared_per_block, 1),
        A(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, max_shared_per_block_optin, 1),
        A(MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, max_shared_per_multiprocessor,
          1),
        A(MAX_REGISTERS_PER_BLOCK, regs_per_block, 1),
        A(CLOCK_RATE, clock_rate_khz, 0),
        A(MEMORY_CLOCK_RATE, memory_clock_rate_khz, 0),
        A(GLOBAL_MEMORY_BUS_WIDTH, memory_bus_width, 0),
        A(L2_CACHE_SIZE, l2_cache_size, 0),
        A(PCI_BUS_ID, pci_bus_id, 0),
        A(PCI_DEVICE_ID, pci_device_id, 0),
        A(PCI_DOMAIN_ID, pci_domain_id, 0),
        A(UNIFIED_ADDRESSING, unified_addressing, 1),
#undef A
    };
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
        st = get_attr(dev, d->id, attrs[i].attr, attrs[i].label,
                      (int *)((char *)&p + attrs[i].offset),
                      attrs[i].required);
        if (st != EM_OK)
            return st;
    }
    size_t total = 0;
    r = drv.cuDeviceTotalMem_v2(&total, dev);
    if (r != CUDA_SUCCESS)
        return cu_fail(NULL, r, "cuDeviceTotalMem(cuda:%d)", d->id);
    p.total_memory = (int64_t)total;
    /* Optional: a driver without it leaves the UUID zero (unknown). */
    if (drv.cuDeviceGetUuid_v2)
        (void)drv.cuDeviceGetUuid_v2(p.uuid, dev);
    else if (drv.cuDeviceGetUuid)
        (void)drv.cuDeviceGetUuid(p.uuid, dev);

    struct cu_dev *dv = calloc(1, sizeof *dv);
    if (!dv)
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of host memory opening cuda:%d", d->id);
    dv->dev = dev;
    atomic_init(&dv->fault, 0);
    /* Retained for the life of the process: devices are never closed, and
     * releasing at exit would race with other libraries' teardown. */
    r = drv.cuDevicePrimaryCtxRetain(&dv->ctx, dev);
    if (r != CUDA_SUCCESS) {
        free(dv);
        return cu_fail(NULL, r, "cuDevicePrimaryCtxRetain(cuda:%d)", d->id);
    }
    d->impl = dv;
    d->props = p;
    d->arch = 10 * p.cc_major + p.cc_minor;
    return EM_OK;
}

static em_status cu_mem_info(em_device *d, size_t *free_b, size_t *total_b)
{
    CU_ENTER(d, "cuMemGetInfo");
    CUresult r = drv.cuMemGetInfo_v2(free_b, total_b);
    if (r != CUDA_SUCCESS)
        return cu_fail(d, r, "cuMemGetInfo");
    return EM_OK;
}

static em_status cu_synchronize(em_device *d)
{
    CU_ENTER(d, "cuCtxSynchronize");
    CUresult r = drv.cuCtxSynchronize();
    if (r != CUDA_SUCCESS)
        return cu_fail(d, r, "cuCtxSynchronize");
    return EM_OK;
}

/* ---- memory ------------------------------------------------------------ */

static em_status cu_mem_alloc(em_device *d, size_t n, void **p)
{
    CU_ENTER(d, "cuMemAlloc");
    CUdeviceptr ptr = 0;
    /* The driver refuses 0 bytes; one byte still gets a distinct,
     * 256-byte aligned address. */
    CUresult r = drv.cuMemAlloc_v2(&ptr, n ? n : 1);
    if (r == CUDA_ERROR_OUT_OF_MEMORY) {
        size_t free_b = 0, total_b = 0;
        if (drv.cuMemGetInfo_v2(&free_b, &total_b) != CUDA_SUCCESS)
            free_b = total_b = 0;
        return em_error_native(EM_ERR_OUT_OF_MEMORY, r, em_cuda_error_name(r),
                               "cuMemAlloc(%zu bytes) on cuda:%d: %s "
                               "(%zu of %zu bytes free)",
                               n, d->id, em_cuda_error_name(r), free_b,
                               total_b);
    }
    if (r != CUDA_SUCCESS)
        return cu_fail(d, r, "cuMemAlloc(%zu bytes)", n);
    *p = (void *)(uintptr_t)ptr;
    return EM_OK;
}

static em_status cu_mem_free(em_device *d, void *p)
{
    if (!p)
        return EM_OK;
    CU_ENTER_RELEASE(d, "cuMemFree");
    CUresult r = drv.cuMemFree_v2(dptr(p));
    if (r != CUDA_SUCCESS && r != CUDA_ERROR_DEINITIALIZED)
        return cu_fail(d, r, "cuMemFree(%p)", p);
    return EM_OK;
}

static em_status cu_memcpy_async(em_device *d, void *dst, const void *src,
                                 size_t n, em_stream *s)
{
    if (n == 0)
        return EM_OK;
    CU_ENTER(d, "cuMemcpyAsync");
    /* With unified addressing the driver tells host from device memory
     * and pinned from pageable itself. */
    CUresult r = drv.cuMemcpyAsync(dptr(dst), dptr(src), n, stream_of(s));
    if (r != CUDA_SUCCESS)
        return cu_fail(d, r, "cuMemcpyAsync(%p <- %p, %zu bytes)", dst, src,
                       n);
    return EM_OK;
}

static em_status cu_memset_async(em_device *d, void *dst, int value,
                                 size_t n, em_stream *s)
{
    if (n == 0)
        return EM_OK;
    CU_ENTER(d, "cuMemsetD8Async");
    CUresult r = drv.cuMemsetD8Async(dptr(dst), (unsigned char)value, n,
                                     stream_of(s));
    if (r != CUDA_SUCCESS)
        return cu_fail(d, r, "cuMemsetD8Async(%p, %d, %zu bytes)", dst, value,
                       n);
    return EM_OK;
}

/* ---- streams ----------------------------------------------------------- */

static em_status cu_stream_create(em_stream *s)
{
    if (s->is_default) {
        /* CUstream 0: the legacy default stream of the current context. */
        s->impl = NULL;
        return EM_OK;
    }
    CU_ENTER(s->dev, "cuStreamCreate");
    CUstream cs = NULL;
    unsigned flags = (s->flags & EM_STREAM_NON_BLOCKING)
                         ? CU_STREAM_NON_BLOCKING : CU_STREAM_DEFAULT;
    /* the runtime asked stream_priority_range first: a priority other
     * than 0 means the driver has cuStreamCreateWithPriority */
    CUresult r = s->priority
                     ? drv.cuStreamCreateWithPriority(&cs, flags, s->priority)
                     : drv.cuStreamCreate(&cs, flags);
    if (r != CUDA_SUCCESS)
        return cu_fail(s->dev, r, "cuStreamCreate(flags %u, priority %d)", flags,
                       s->priority);
    struct cu_own *o = malloc(sizeof *o);
    if (!o) {
        (void)drv.cuStreamDestroy_v2(cs);
        return em_error(EM_ERR_OUT_OF_MEMORY, "out of host memory creating a "
                        "stream on %s", s->dev->name);
    }
    s->impl = cs;
    o->s = s;
    pthread_mutex_lock(&own_lock);
    o->next = own_streams;
    own_streams = o;
    pthread_mutex_unlock(&own_lock);
    return EM_OK;
}

/* Drop s from own_streams (a stream ember made). */
static void own_forget(em_stream *s)
{
    struct cu_own *gone = NULL;
    pthread_mutex_lock(&own_lock);
    for (struct cu_own **p = &own_streams; *p; p = &(*p)->next)
        if ((*p)->s == s) {
            gone = *p;
            *p = gone->next;
            break;
        }
    pthread_mutex_unlock(&own_lock);
    free(gone);
}

static em_status cu_stream_priority_range(em_device *d, int *least, int *greatest)
{
    *least = *greatest = 0;
    if (!drv.cuCtxGetStreamPriorityRange || !drv.cuStreamCreateWithPriority)
        return EM_OK;
    CU_ENTER(d, "cuCtxGetStreamPriorityRange");
    CUresult r = drv.cuCtxGetStreamPriorityRange(least, greatest);
    if (r != CUDA_SUCCESS)
        return cu_fail(d, r, "cuCtxGetStreamPriorityRange");
    return EM_OK;
}

static em_status cu_stream_destroy(em_stream *s)
{
    if (!s->impl)
        return EM_OK;
    own_forget(s);
    CU_ENTER_RELEASE(s->dev, "cuStreamDestroy");
    CUresult r = drv.cuStreamDestroy_v2((CUstream)s->impl);
    if (r != CUDA_SUCCESS && r != CUDA_ERROR_DEINITIALIZED)
        return cu_fail(s->dev, r, "cuStreamDestroy");
    s->impl = NULL;
    return EM_OK;
}

/* One of ember's own streams' handle gives that stream. Any other
 * CUstream the driver must know and place in this device's context:
 * ember's launches on another context's stream would fail later, and
 * further from the line that caused it. */
static em_status cu_stream_adopt(em_stream *s, void *native, em_stream **same)
{
    CUstream cs = (CUstream)native;
    CUcontext ctx = NULL;
    unsigned flags = 0;
    int prio = 0;
    CUresult r;
    em_stream *mine = NULL;
    em_device *other = NULL;
    /* one of ember's own, with the adopter's reference */
    pthread_mutex_lock(&own_lock);
    for (struct cu_own *o = own_streams; o; o = o->next) {
        if (o->s->impl != native)
            continue;
        if (o->s->dev != s->dev)
            other = o->s->dev;
        else if (em_stream_try_ref(o->s))
            mine = o->s;
        break;
    }
    pthread_mutex_unlock(&own_lock);
    if (other)
        return em_error(EM_ERR_INVALID_VALUE, "the CUstream %p is a stream of "
                        "%s, not of %s", native, other->name, s->dev->name);
    if (mine) {
        *same = mine;
        return EM_OK;
    }
    CU_ENTER(s->dev, "cuStreamGetFlags");
    if (!drv.cuStreamGetFlags)
        return em_error(EM_ERR_NOT_SUPPORTED, "adopting a stream needs "
                        "cuStreamGetFlags, which this driver lacks");
    if ((r = drv.cuStreamGetFlags(cs, &flags)) != CUDA_SUCCESS)
        return em_error_native(EM_ERR_INVALID_VALUE, r, em_cuda_error_name(r),
                               "%p is not a CUstream the driver knows "
                               "(cuStreamGetFlags: %s)", native,
                               em_cuda_error_name(r));
    if (drv.cuStreamGetCtx && drv.cuStreamGetCtx(cs, &ctx) == CUDA_SUCCESS &&
        ctx && ctx != ((struct cu_dev *)s->dev->impl)->ctx)
        return em_error(EM_ERR_INVALID_VALUE,
                        "the CUstream %p belongs to another context than "
                        "%s's (another device, or a context of its own)",
                        native, s->dev->name);
    if (drv.cuStreamGetPriority && drv.cuStreamGetPriority(cs, &prio) != CUDA_SUCCESS)
        prio = 0;
    s->impl = native;
    s->flags = (flags & CU_STREAM_NON_BLOCKING) ? EM_STREAM_NON_BLOCKING
                                                : EM_STREAM_DEFAULT;
    s->priority = prio;
    return EM_OK;
}

static em_status cu_stream_synchronize(em_stream *s)
{
    CU_ENTER(s->dev, "cuStreamSynchronize");
    CUresult r = drv.cuStreamSynchronize(stream_of(s));
    if (r != CUDA_SUCCESS)
        return cu_fail(s->dev, r, "cuStreamSynchronize");
    return EM_OK;
}

/* ---- graphs ----------------------------------------------------------- */

typedef struct cu_graph { CUgraph graph; CUgraphExec exec; } cu_graph;

static em_status cu_capture_begin(em_stream *s)
{
    if (!drv.cuStreamBeginCapture_v2 || !drv.cuGraphInstantiateWithFlags ||
        !drv.cuGraphUpload)
        return em_error(EM_ERR_NOT_SUPPORTED, "graph capture on %s: the CUDA "
                        "driver has no cuStreamBeginCapture_v2, "
                        "cuGraphInstantiateWithFlags or cuGraphUpload (CUDA "
                        "11.4 or later is needed)", s->dev->name);
    CU_ENTER(s->dev, "cuStreamBeginCapture");
    CUresult r = drv.cuStreamBeginCapture_v2(stream_of(s),
                                             CU_STREAM_CAPTURE_MODE_RELAXED);
    if (r != CUDA_SUCCESS)
        return cu_fail(s->dev, r, "cuStreamBeginCapture");
    return EM_OK;
}

static em_status cu_capture_end(em_stream *s, void **graph)
{
    CUgraph g = NULL;
    cu_graph *cg;
    CU_ENTER(s->dev, "cuStreamEndCapture");
    CUresult r = drv.cuStreamEndCapture(stream_of(s), &g);
    if (!graph) {
        /* an aborted capture: what the driver says about it (invalidated
         * by the refused call, say) adds nothing to the refusal */
        if (r == CUDA_SUCCESS && g)
            drv.cuGraphDestroy(g);
        return EM_OK;
    }
    if (r != CUDA_SUCCESS)
        return cu_fail(s->dev, r, "cuStreamEndCapture");
    if (!(cg = calloc(1, sizeof *cg))) {
        drv.cuGraphDestroy(g);
        return em_error(EM_ERR_OUT_OF_MEMORY, "out of host memory ending a "
                        "capture on %s", s->dev->name);
    }
    cg->graph = g;
    r = drv.cuGraphInstantiateWithFlags(&cg->exec, g, 0);
    if (r != CUDA_SUCCESS) {
        drv.cuGraphDestroy(g);
        free(cg);
        return cu_fail(s->dev, r, "cuGraphInstantiateWithFlags");
    }
    *graph = cg;
    return EM_OK;
}

static em_status cu_graph_launch(em_device *d, void *graph, em_stream *s)
{
    CU_ENTER(d, "cuGraphLaunch");
    CUresult r = drv.cuGraphLaunch(((cu_graph *)graph)->exec, stream_of(s));
    if (r != CUDA_SUCCESS)
        return cu_fail(d, r, "cuGraphLaunch");
    return EM_OK;
}

static em_status cu_graph_upload(em_device *d, void *graph, em_stream *s)
{
    CU_ENTER(d, "cuGraphUpload");
    CUresult r = drv.cuGraphUpload(((cu_graph *)graph)->exec, stream_of(s));
    if (r != CUDA_SUCCESS)
        return cu_fail(d, r, "cuGraphUpload");
    return EM_OK;
}

static void cu_graph_destroy(em_device *d, void *graph)
{
    cu_graph *cg = graph;
    /* after a fault or at exit the driver has nothing left to free */
    if (!atomic_load_explicit(&((struct cu_dev *)d->impl)->fault,
                              memory_order_relaxed) &&
        ctx_enter(d->impl) == CUDA_SUCCESS) {
        drv.cuGraphExecDestroy(cg->exec);
        drv.cuGraphDestroy(cg->graph);
    }
    free(cg);
}

static em_status cu_stream_query(em_stream *s, int *done)
{
    CU_ENTER(s->dev, "cuStreamQuery");
    CUresult r = drv.cuStreamQuery(stream_of(s));
    if (r == CUDA_SUCCESS || r == CUDA_ERROR_NOT_READY) {
        *done = r == CUDA_SUCCESS;
        return EM_OK;
    }
    return cu_fail(s->dev, r, "cuStreamQuery");
}

static em_status cu_stream_wait_event(em_stream *s, em_event *e)
{
    CU_ENTER(s->dev, "cuStreamWaitEvent");
    CUresult r = drv.cuStreamWaitEvent(stream_of(s), (CUevent)e->impl, 0);
    if (r != CUDA_SUCCESS)
        return cu_fail(s->dev, r, "cuStreamWaitEvent");
    return EM_OK;
}

/* ---- events ------------------------------------------------------------ */

static em_status cu_event_create(em_event *e)
{
    CU_ENTER(e->dev, "cuEventCreate");
    unsigned flags = CU_EVENT_DEFAULT;
    if (e->flags & EM_EVENT_DISABLE_TIMING)
        flags |= CU_EVENT_DISABLE_TIMING;
    if (e->flags & EM_EVENT_BLOCKING_SYNC)
        flags |= CU_EVENT_BLOCKING_SYNC;
    CUevent ce = NULL;
    CUresult r = drv.cuEventCreate(&ce, flags);
    if (r != CUDA_SUCCESS)
        return cu_fail(e->dev, r, "cuEventCreate(flags %u)", flags);
    e->impl = ce;
    return EM_OK;
}

static em_status cu_event_destroy(em_event *e)
{
    if (!e->impl)
        return EM_OK;
    CU_ENTER_RELEASE(e->dev, "cuEventDestroy");
    CUresult r = drv.cuEventDestroy_v2((CUevent)e->impl);
    if (r != CUDA_SUCCESS && r != CUDA_ERROR_DEINITIALIZED)
        return cu_fail(e->dev, r, "cuEventDestroy");
    e->impl = NULL;
    return EM_OK;
}

static em_status cu_event_record(em_event *e, em_stream *s)
{
    CU_ENTER(e->dev, "cuEventRecord");
    CUresult r = drv.cuEventRecord((CUevent)e->impl, stream_of(s));
    if (r != CUDA_SUCCESS)
        return cu_fail(e->dev, r, "cuEventRecord");
    return EM_OK;
}

static em_status cu_event_synchronize(em_event *e)
{
    CU_ENTER(e->dev, "cuEventSynchronize");
    CUresult r = drv.cuEventSynchronize((CUevent)e->impl);
    if (r != CUDA_SUCCESS)
        return cu_fail(e->dev, r, "cuEventSynchronize");
    return EM_OK;
}

static em_status cu_event_query(em_event *e, int *done)
{
    CU_ENTER(e->dev, "cuEventQuery");
    CUresult r = drv.cuEventQuery((CUevent)e->impl);
    if (r == CUDA_SUCCESS || r == CUDA_ERROR_NOT_READY) {
        *done = r == CUDA_SUCCESS;
        return EM_OK;
    }
    return cu_fail(e->dev, r, "cuEventQuery");
}

static em_status cu_event_elapsed_ms(em_event *a, em_event *b, float *ms)
{
    if ((a->flags | b->flags) & EM_EVENT_DISABLE_TIMING)
        return em_error(EM_ERR_INVALID_VALUE,
                        "elapsed time needs two events created without "
                        "EM_EVENT_DISABLE_TIMING");
    CU_ENTER(a->dev, "cuEventElapsedTime");
    CUresult r = drv.cuEventElapsedTime(ms, (CUevent)a->impl,
                                        (CUevent)b->impl);
    if (r == CUDA_ERROR_NOT_READY)
        return em_error_native(EM_ERR_INVALID_VALUE, r, em_cuda_error_name(r),
                               "elapsed time: event not completed");
    if (r == CUDA_ERROR_INVALID_HANDLE)
        return em_error_native(EM_ERR_INVALID_VALUE, r, em_cuda_error_name(r),
                               "elapsed time: an event was never recorded "
                               "or is no longer valid");
    if (r != CUDA_SUCCESS)
        return cu_fail(a->dev, r, "cuEventElapsedTime");
    return EM_OK;
}

/* ---- compilation, modules, launches ------------------------------------ */

static em_status cu_compile(em_device *d, const char *source, const char *name,
                            const char *const *options, int n_options,
                            em_code **out, char **out_log)
{
    return em_cuda_nvrtc_compile(source, name, options, n_options, d->arch,
                                 EM_CODE_CUBIN, 1, out, out_log);
}

static em_status cu_module_load(em_module *m, const em_code *code)
{
    em_device *d = m->dev;
    if (!code || !code->data
        || (code->kind != EM_CODE_PTX && code->kind != EM_CODE_CUBIN))
        return em_error(EM_ERR_INVALID_VALUE,
                        "cuda:%d loads PTX or CUBIN code, not kind %d", d->id,
                        code ? (int)code->kind : -1);
    CU_ENTER(d, "cuModuleLoadData");

    struct cu_mod *cm = calloc(1, sizeof *cm);
    char *ptx = NULL;
    const void *image = code->data;
    if (cm && code->kind == EM_CODE_PTX) {
        /* The driver reads PTX up to its NUL; a copy makes sure there is
         * one whoever produced the code. */
        ptx = malloc(code->size + 1);
        if (ptx) {
            memcpy(ptx, code->data, code->size);
            ptx[code->size] = 0;
            image = ptx;
        }
    }
    if (!cm || (code->kind == EM_CODE_PTX && !ptx)) {
        free(cm);
        free(ptx);
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of host memory loading a module on cuda:%d",
                        d->id);
    }

    char jit_log[4096];
    jit_log[0] = 0;
    CUjit_option opts[2] = { CU_JIT_ERROR_LOG_BUFFER,
                             CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
    void *vals[2] = { jit_log, (void *)(uintptr_t)sizeof jit_log };
    CUmodule mod = NULL;
    CUresult r = drv.cuModuleLoadDataEx(&mod, image, 2, opts, vals);
    free(ptx);
    if (r != CUDA_SUCCESS) {
        free(cm);
        jit_log[sizeof jit_log - 1] = 0;
        return cu_fail(d, r, "cuModuleLoadData(%s, %zu bytes)%s%s",
                       code->kind == EM_CODE_PTX ? "PTX" : "CUBIN",
                       code->size, jit_log[0] ? ": " : "", jit_log);
    }
    cm->mod = mod;
    atomic_init(&cm->fns, NULL);
    m->impl = cm;
    return EM_OK;
}

static em_status cu_module_unload(em_module *m)
{
    struct cu_mod *cm = m->impl;
    if (!cm)
        return EM_OK;
    /* Function state is ours whatever the driver says: free it first.
     * It is reached through our own list, not m->functions, so the order
     * in which the runtime frees its handles does not matter. */
    struct cu_fn *fn = atomic_load(&cm->fns);
    while (fn) {
        struct cu_fn *next = fn->next;
        free(fn);
        fn = next;
    }
    CUmodule mod = cm->mod;
    free(cm);
    m->impl = NULL;

    CU_ENTER_RELEASE(m->dev, "cuModuleUnload");
    CUresult r = drv.cuModuleUnload(mod);
    if (r != CUDA_SUCCESS && r != CUDA_ERROR_DEINITIALIZED)
        return cu_fail(m->dev, r, "cuModuleUnload");
    return EM_OK;
}

/* Fill n_params, param_sizes and args_size from the driver's view of the
 * parameter layout. Drivers before 12.4 cannot say: n_params stays -1. */
static em_status param_info(em_function *f, CUfunction fn)
{
    em_device *d = f->module->dev;
    f->n_params = -1;
    f->param_sizes = NULL;
    f->args_size = 0;
    if (!drv.cuFuncGetParamInfo)
        return EM_OK;

    /* The driver answers CUDA_ERROR_INVALID_VALUE past the last parameter;
     * a kernel's parameters fit in 32 KiB, so this bound is never hit. */
    const size_t max_params = 32768;
    size_t n = 0, offset, size;
    for (;;) {
        CUresult r = drv.cuFuncGetParamInfo(fn, n, &offset, &size);
        if (r == CUDA_ERROR_INVALID_VALUE)
            break;
        if (r != CUDA_SUCCESS) {
            if (is_sticky(r))
                return cu_fail(d, r, "cuFuncGetParamInfo('%s')", f->name);
            return EM_OK;  /* unknown, as with an old driver */
        }
        if (++n >= max_params)
            return EM_OK;
    }
    size_t *sizes = NULL;
    size_t end = 0;
    if (n > 0) {
        sizes = malloc(n * sizeof *sizes);
        if (!sizes)
            return em_error(EM_ERR_OUT_OF_MEMORY,
                            "out of host memory for %zu parameter sizes", n);
    }
    for (size_t i = 0; i < n; i++) {
        CUresult r = drv.cuFuncGetParamInfo(fn, i, &offset, &size);
        if (r != CUDA_SUCCESS) {
            free(sizes);
            return cu_fail(d, r, "cuFuncGetParamInfo('%s', %zu)", f->name, i);
        }
        sizes[i] = size;
        /* The device layout already applies each type's alignment. */
        if (offset + size > end)
            end = offset + size;
    }
    f->n_params = (int)n;
    f->param_sizes = sizes;
    f->args_size = end;
    return EM_OK;
}

static em_status cu_module_get_global(em_module *m, const char *name, void **ptr,
                                      size_t *size)
{
    em_device *d = m->dev;
    struct cu_mod *cm = m->impl;
    CUdeviceptr p = 0;
    size_t n = 0;
    CUresult r;
    if (!cm)
        return em_error(EM_ERR_INVALID_VALUE,
                        "global '%s': the module is not loaded", name);
    CU_ENTER(d, "cuModuleGetGlobal");
    r = drv.cuModuleGetGlobal_v2(&p, &n, cm->mod, name);
    if (r == CUDA_ERROR_NOT_FOUND)
        return em_error_native(EM_ERR_NOT_FOUND, r, em_cuda_error_name(r),
                               "global variable '%s' not found in module", name);
    if (r != CUDA_SUCCESS)
        return cu_fail(d, r, "cuModuleGetGlobal('%s')", name);
    *ptr = (void *)(uintptr_t)p;
    *size = n;
    return EM_OK;
}

static em_status cu_module_get_function(em_function *f)
{
    em_module *m = f->module;
    em_device *d = m->dev;
    struct cu_mod *cm = m->impl;
    if (!cm)
        return em_error(EM_ERR_INVALID_VALUE,
                        "kernel '%s': the module is not loaded", f->name);
    CU_ENTER(d, "cuModuleGetFunction");

    CUfunction fn = NULL;
    CUresult r = drv.cuModuleGetFunction(&fn, cm->mod, f->name);
    if (r == CUDA_ERROR_NOT_FOUND)
        return em_error_native(EM_ERR_NOT_FOUND, r, em_cuda_error_name(r),
                               "kernel '%s' not found in module (is it "
                               "declared extern \"C\"?)", f->name);
    if (r != CUDA_SUCCESS)
        return cu_fail(d, r, "cuModuleGetFunction('%s')", f->name);

    int dyn = 0;
    r = drv.cuFuncGetAttribute(&dyn,
                               CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                               fn);
    if (r != CUDA_SUCCESS) {
        if (is_sticky(r))
            return cu_fail(d, r, "cuFuncGetAttribute('%s')", f->name);
        dyn = 0;   /* unknown: the first launch with any raises it */
    }

    struct cu_fn *cf = calloc(1, sizeof *cf);
    if (!cf)
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of host memory for kernel '%s'", f->name);
    cf->fn = fn;
    atomic_init(&cf->dyn_shared, dyn > 0 ? (unsigned)dyn : 0u);
    atomic_init(&cf->nonportable, 0);

    em_status st = param_info(f, fn);
    if (st != EM_OK) {
        free(cf);
        return st;
    }
    /* Push onto the module's list; get_function may run on several
     * threads at once. */
    struct cu_fn *head = atomic_load(&cm->fns);
    do {
        cf->next = head;
    } while (!atomic_compare_exchange_weak(&cm->fns, &head, cf));
    f->impl = cf;
    return EM_OK;
}

/* The slow path of a launch: the function needs more dynamic shared
 * memory than it has been allowed. The allowance only grows, under a
 * lock, so a thread raising it for a small launch cannot shrink it under
 * a concurrent large one. */
static em_status raise_dyn_shared(em_function *f, struct cu_fn *cf,
                                  unsigned shared)
{
    em_device *d = f->module->dev;
    em_status st = EM_OK;
    pthread_mutex_lock(&dyn_shared_lock);
    if (shared > atomic_load(&cf->dyn_shared)) {
        CUresult r = drv.cuFuncSetAttribute(
            cf->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            (int)shared);
        if (r == CUDA_SUCCESS)
            atomic_store(&cf->dyn_shared, shared);
        else if (r == CUDA_ERROR_INVALID_VALUE)
            st = em_error_native(EM_ERR_INVALID_VALUE, r,
                                 em_cuda_error_name(r),
                                 "kernel '%s' asks for %u bytes of dynamic "
                                 "shared memory; cuda:%d allows at most %d "
                                 "per block, less the kernel's static shared "
                                 "memory", f->name, shared, d->id,
                                 d->props.max_shared_per_block_optin);
        else
            st = cu_fail(d, r, "cuFuncSetAttribute('%s', max dynamic shared "
                         "%u bytes)", f->name, shared);
    }
    pthread_mutex_unlock(&dyn_shared_lock);
    return st;
}

/* Both launches check the dynamic shared memory the same way: it must fit
 * the driver's unsigned, and a size past what the function allows so far
 * raises its limit once. */
static inline em_status launch_shared(em_function *f, struct cu_fn *cf,
                                      size_t shared_bytes)
{
    if (shared_bytes > UINT_MAX)
        return em_error(EM_ERR_INVALID_VALUE,
                        "kernel '%s': %zu bytes of shared memory", f->name,
                        shared_bytes);
    if (shared_bytes > atomic_load_explicit(&cf->dyn_shared, memory_order_acquire))
        return raise_dyn_shared(f, cf, (unsigned)shared_bytes);
    return EM_OK;
}

/* The hot path: no allocation, no strings, no locks unless the failure or
 * the first large-shared-memory launch needs them. */
static em_status cu_launch(em_function *f, em_dim3 grid, em_dim3 block,
                           size_t shared_bytes, em_stream *s, void **args)
{
    em_device *d = f->module->dev;
    struct cu_fn *cf = f->impl;
    CU_ENTER(d, "cuLaunchKernel");
    em_status st = launch_shared(f, cf, shared_bytes);
    if (st != EM_OK)
        return st;
    unsigned shared = (unsigned)shared_bytes;
    CUresult r = drv.cuLaunchKernel(cf->fn, grid.x, grid.y, grid.z, block.x,
                                    block.y, block.z, shared, stream_of(s),
                                    args, NULL);
    if (r != CUDA_SUCCESS)
        return cu_fail(d, r,
                       "cuLaunchKernel('%s', grid %ux%ux%u, block %ux%ux%u, "
                       "%u shared bytes)",
                       f->name, grid.x, grid.y, grid.z, block.x, block.y,
                       block.z, shared);
    return EM_OK;
}

/* A grid whose blocks all run at once, for kernels that synchronise the
 * whole grid: the driver refuses one larger than the device holds. For
 * drivers without cuLaunchKernelEx. */
static em_status cu_launch_cooperative(em_function *f, em_dim3 grid,
                                       em_dim3 block, size_t shared_bytes,
                                       em_stream *s, void **args)
{
    em_device *d = f->module->dev;
    struct cu_fn *cf = f->impl;
    if (!drv.cuLaunchCooperativeKernel)
        return em_error(EM_ERR_NOT_SUPPORTED, "cooperative launch of '%s': "
                        "the CUDA driver has no cuLaunchCooperativeKernel",
                        f->name);
    CU_ENTER(d, "cuLaunchCooperativeKernel");
    em_status st = launch_shared(f, cf, shared_bytes);
    if (st != EM_OK)
        return st;
    unsigned shared = (unsigned)shared_bytes;
    CUresult r = drv.cuLaunchCooperativeKernel(cf->fn, grid.x, grid.y, grid.z,
                                               block.x, block.y, block.z,
                                               shared, stream_of(s), args);
    if (r != CUDA_SUCCESS)
        return cu_fail(d, r,
                       "cuLaunchCooperativeKernel('%s', grid %ux%ux%u, block "
                       "%ux%ux%u, %u shared bytes)",
                       f->name, grid.x, grid.y, grid.z, block.x, block.y,
                       block.z, shared);
    return EM_OK;
}

/* Clusters of more than the portable 8 blocks need the function's leave
 * (H100 runs 16); a GPU without them refuses the launch itself. */
static em_status allow_nonportable(em_function *f, struct cu_fn *cf)
{
    if (atomic_load_explicit(&cf->nonportable, memory_order_acquire))
        return EM_OK;
    CUresult r = drv.cuFuncSetAttribute(
        cf->fn, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1);
    if (r != CUDA_SUCCESS)
        return cu_fail(f->module->dev, r, "cuFuncSetAttribute('%s', non-portable "
                       "cluster size allowed)", f->name);
    atomic_store_explicit(&cf->nonportable, 1, memory_order_release);
    return EM_OK;
}

/* Thread block clusters and cooperative launches, through cuLaunchKernelEx
 * and its attributes; a driver without it still has cooperative launches
 * through cuLaunchCooperativeKernel. Never an ordinary launch. */
static em_status cu_launch_ex(em_function *f, const em_launch_config *c,
                              em_stream *s, void **args)
{
    em_device *d = f->module->dev;
    struct cu_fn *cf = f->impl;
    const em_dim3 g = c->grid, b = c->block, k = c->cluster;
    uint64_t cluster = (uint64_t)k.x * k.y * k.z;
    if (cluster > 1 && !drv.cuLaunchKernelEx)
        return em_error(EM_ERR_NOT_SUPPORTED, "cluster launch of '%s': the CUDA "
                        "driver has no cuLaunchKernelEx (CUDA 12 or newer)",
                        f->name);
    if (!drv.cuLaunchKernelEx)
        return cu_launch_cooperative(f, g, b, c->shared_bytes, s, args);
    /* The driver's answer would be a bare CUDA_ERROR_INVALID_VALUE. */
    if (cluster > 1 && d->props.cc_major < 9)
        return em_error(EM_ERR_NOT_SUPPORTED, "cluster launch of '%s': thread "
                        "block clusters need compute capability 9.0; cuda:%d is "
                        "%d.%d", f->name, d->id, d->props.cc_major,
                        d->props.cc_minor);
    CU_ENTER(d, "cuLaunchKernelEx");
    em_status st = launch_shared(f, cf, c->shared_bytes);
    if (st == EM_OK && cluster > 8)
        st = allow_nonportable(f, cf);
    if (st != EM_OK)
        return st;
    CUlaunchAttribute attrs[2];
    unsigned n = 0;
    memset(attrs, 0, sizeof attrs);
    if (cluster > 1) {
        attrs[n].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
        attrs[n].value.clusterDim.x = k.x;
        attrs[n].value.clusterDim.y = k.y;
        attrs[n].value.clusterDim.z = k.z;
        n++;
    }
    if (c->cooperative) {
        attrs[n].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
        attrs[n].value.cooperative = 1;
        n++;
    }
    const CUlaunchConfig cfg = {
        g.x, g.y, g.z, b.x, b.y, b.z, (unsigned)c->shared_bytes, stream_of(s),
        attrs, n,
    };
    CUresult r = drv.cuLaunchKernelEx(&cfg, cf->fn, args, NULL);
    if (r != CUDA_SUCCESS)
        return cu_fail(d, r,
                       "cuLaunchKernelEx('%s', grid %ux%ux%u, block %ux%ux%u, "
                       "cluster %ux%ux%u, %scooperative, %u shared bytes)",
                       f->name, g.x, g.y, g.z, b.x, b.y, b.z, k.x, k.y, k.z,
                       c->cooperative ? "" : "not ", (unsigned)c->shared_bytes);
    return EM_OK;
}

/* cuBLAS, cuFFT and cuSOLVER find their context as the CUDA runtime
 * does, current on the calling thread; ember's calls set it only around
 * its own driver calls. */
static em_status cu_enter(em_device *d)
{
    CU_ENTER(d, "a CUDA library call");
    return EM_OK;
}

static em_status cu_max_active_blocks(em_function *f, int block_threads,
                                      size_t dyn_shared, int *out)
{
    em_device *d = f->module->dev;
    struct cu_fn *cf = f->impl;
    if (!drv.cuOccupancyMaxActiveBlocksPerMultiprocessor)
        return em_error(EM_ERR_NOT_SUPPORTED, "occupancy of '%s': the CUDA "
                        "driver has no cuOccupancyMaxActiveBlocksPerMultiprocessor",
                        f->name);
    CU_ENTER(d, "cuOccupancyMaxActiveBlocksPerMultiprocessor");
    CUresult r = drv.cuOccupancyMaxActiveBlocksPerMultiprocessor(
        out, cf->fn, block_threads, dyn_shared);
    if (r != CUDA_SUCCESS)
        return cu_fail(d, r, "cuOccupancyMaxActiveBlocksPerMultiprocessor('%s', "
                       "%d threads, %zu shared bytes)", f->name, block_threads,
                       dyn_shared);
    return EM_OK;
}

/* ---- pinned host memory ------------------------------------------------ */

/* Pinned blocks are few and large, so a sorted array searched by bisection
 * is enough; it also answers for pointers inside a block, which is what a
 * copy routine wants to know. */
struct host_block {
    uintptr_t base;
    size_t size;
};

static pthread_mutex_t host_lock = PTHREAD_MUTEX_INITIALIZER;
static struct host_block *host_blocks;
static size_t host_n, host_cap;
static atomic_size_t host_count;   /* lets is_host_alloc skip the lock */

static pthread_once_t host_once = PTHREAD_ONCE_INIT;
static em_status host_status;
static char host_reason[768];
static CUcontext host_ctx;

static void host_ctx_once(void)
{
    CUdevice dev;
    CUresult r;
    host_status = em_cuda_init_driver();
    if (host_status != EM_OK) {
        snprintf(host_reason, sizeof host_reason, "%s", em_last_error());
        return;
    }
    /* Device 0's primary context: CU_MEMHOSTALLOC_PORTABLE makes the
     * memory pinned for every context, so which one allocates matters
     * only in that one must exist. */
    r = drv.cuDeviceGet(&dev, 0);
    if (r == CUDA_SUCCESS)
        r = drv.cuDevicePrimaryCtxRetain(&host_ctx, dev);
    if (r != CUDA_SUCCESS) {
        host_status = EM_ERR_UNAVAILABLE;
        snprintf(host_reason, sizeof host_reason,
                 "pinned host memory needs cuda:0's context: %s (%s)",
                 em_cuda_error_name(r), em_cuda_error_string(r));
    }
}

/* Index of the last block whose base is <= p, or -1. Caller holds
 * host_lock. */
static ptrdiff_t host_find(uintptr_t p)
{
    size_t lo = 0, hi = host_n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (host_blocks[mid].base <= p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (ptrdiff_t)lo - 1;
}

static int host_insert(uintptr_t base, size_t size)
{
    if (host_n == host_cap) {
        size_t cap = host_cap ? 2 * host_cap : 16;
        struct host_block *nb = realloc(host_blocks, cap * sizeof *nb);
        if (!nb)
            return 0;
        host_blocks = nb;
        host_cap = cap;
    }
    size_t at = (size_t)(host_find(base) + 1);
    memmove(&host_blocks[at + 1], &host_blocks[at],
            (host_n - at) * sizeof *host_blocks);
    host_blocks[at].base = base;
    host_blocks[at].size = size;
    host_n++;
    atomic_store(&host_count, host_n);
    return 1;
}

/* Run a driver call on device 0's context without disturbing the calling
 * thread's current context, which may belong to CuPy or PyTorch. */
static CUresult host_push(void)
{
    return drv.cuCtxPushCurrent_v2(host_ctx);
}

static void host_pop(void)
{
    CUcontext popped;
    (void)drv.cuCtxPopCurrent_v2(&popped);
}

em_status em_cuda_host_alloc(size_t n, void **p)
{
    pthread_once(&host_once, host_ctx_once);
    if (host_status != EM_OK)
        return em_error(EM_ERR_UNAVAILABLE, "%s", host_reason);

    size_t size = n ? n : 1;
    void *ptr = NULL;
    CUresult r = host_push();
    if (r != CUDA_SUCCESS)
        return cu_fail(NULL, r, "cuCtxPushCurrent before cuMemHostAlloc");
    r = drv.cuMemHostAlloc(&ptr, size, CU_MEMHOSTALLOC_PORTABLE);
    host_pop();
    if (r != CUDA_SUCCESS)
        return cu_fail(NULL, r, "cuMemHostAlloc(%zu bytes)", n);

    pthread_mutex_lock(&host_lock);
    int ok = host_insert((uintptr_t)ptr, size);
    pthread_mutex_unlock(&host_lock);
    if (!ok) {
        if (host_push() == CUDA_SUCCESS) {
            (void)drv.cuMemFreeHost(ptr);
            host_pop();
        }
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of host memory recording a pinned block");
    }
    *p = ptr;
    return EM_OK;
}

em_status em_cuda_host_free(void *p)
{
    if (!p)
        return EM_OK;
    uintptr_t u = (uintptr_t)p;
    pthread_mutex_lock(&host_lock);
    ptrdiff_t i = host_n ? host_find(u) : -1;
    int found = i >= 0 && host_blocks[i].base == u;
    if (found) {
        memmove(&host_blocks[i], &host_blocks[i + 1],
                (host_n - (size_t)i - 1) * sizeof *host_blocks);
        host_n--;
        atomic_store(&host_count, host_n);
    }
    pthread_mutex_unlock(&host_lock);
    if (!found)
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_cuda_host_free(%p): not the start of a pinned "
                        "block from em_cuda_host_alloc", p);

    CUresult r = host_push();
    if (r == CUDA_ERROR_DEINITIALIZED)
        return EM_OK;
    if (r != CUDA_SUCCESS)
        return cu_fail(NULL, r, "cuCtxPushCurrent before cuMemFreeHost");
    r = drv.cuMemFreeHost(p);
    host_pop();
    if (r != CUDA_SUCCESS && r != CUDA_ERROR_DEINITIALIZED)
        return cu_fail(NULL, r, "cuMemFreeHost(%p)", p);
    return EM_OK;
}

int em_cuda_is_host_alloc(const void *p)
{
    if (!p || atomic_load_explicit(&host_count, memory_order_acquire) == 0)
        return 0;
    uintptr_t u = (uintptr_t)p;
    pthread_mutex_lock(&host_lock);
    ptrdiff_t i = host_find(u);
    int in = i >= 0 && u - host_blocks[i].base < host_blocks[i].size;
    pthread_mutex_unlock(&host_lock);
    return in;
}

/* ---- foreign pointers -------------------------------------------------- */

/* An address handed over by another library (__cuda_array_interface__, a
 * raw int) may be host memory; taking it for device memory makes the
 * first copy or kernel fault the context for the whole process, so the
 * driver is asked. Device 0's primary context is pushed as host_push
 * does: with unified addressing any context answers for every device, and
 * the caller's current context (CuPy's, PyTorch's) stays as it was. */
em_status em_cuda_pointer_ordinal(const void *p, int *ordinal)
{
    int attrs[2] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                    CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL};
    unsigned mtype = 0;
    int ord = -1;
    void *data[2] = {&mtype, &ord};

    *ordinal = -1;
    if (!p)
        return EM_OK;
    pthread_once(&host_once, host_ctx_once);
    if (host_status != EM_OK)
        return EM_OK;           /* no usable driver: no device memory either */
    CUresult r = host_push();
    if (r != CUDA_SUCCESS)
        return cu_fail(NULL, r, "cuCtxPushCurrent before cuPointerGetAttributes");
    r = drv.cuPointerGetAttributes(2, attrs, data, dptr(p));
    host_pop();
    if (r != CUDA_SUCCESS)
        return cu_fail(NULL, r, "cuPointerGetAttributes(%p)", p);
    /* Pinned and registered host memory report HOST, memory the driver
     * never saw reports 0: both are host memory. Managed memory reports
     * DEVICE with the device it was allocated for. */
    if ((mtype == CU_MEMORYTYPE_DEVICE || mtype == CU_MEMORYTYPE_UNIFIED) &&
        ord >= 0)
        *ordinal = ord;
    return EM_OK;
}

/* ---- the table --------------------------------------------------------- */

const struct em_backend_ops em_cuda_backend = {
    .name = "cuda",
    .type = EM_DEVICE_CUDA,
    .code_kind = EM_CODE_CUBIN,
    .init = cu_init,
    .device_count = cu_device_count,
    .device_open = cu_device_open,
    .mem_info = cu_mem_info,
    .device_attribute = cu_device_attribute,
    .synchronize = cu_synchronize,
    .mem_alloc = cu_mem_alloc,
    .mem_free = cu_mem_free,
    .memcpy_async = cu_memcpy_async,
    .memset_async = cu_memset_async,
    .stream_create = cu_stream_create,
    .stream_priority_range = cu_stream_priority_range,
    .stream_destroy = cu_stream_destroy,
    .stream_adopt = cu_stream_adopt,
    .stream_synchronize = cu_stream_synchronize,
    .capture_begin = cu_capture_begin,
    .capture_end = cu_capture_end,
    .graph_launch = cu_graph_launch,
    .graph_upload = cu_graph_upload,
    .graph_destroy = cu_graph_destroy,
    .stream_query = cu_stream_query,
    .stream_wait_event = cu_stream_wait_event,
    .event_create = cu_event_create,
    .event_destroy = cu_event_destroy,
    .event_record = cu_event_record,
    .event_synchronize = cu_event_synchronize,
    .event_query = cu_event_query,
    .event_elapsed_ms = cu_event_elapsed_ms,
    .compile = cu_compile,
    .module_load = cu_module_load,
    .module_unload = cu_module_unload,
    .module_get_function = cu_module_get_function,
    .module_get_global = cu_module_get_global,
    .launch = cu_launch,
    .launch_ex = cu_launch_ex,
    .max_active_blocks = cu_max_active_blocks,
    .enter = cu_enter,
};
