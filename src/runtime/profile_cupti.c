/* ember runtime: CUPTI's activity records as the source of a profile's
 * CUDA device times (profile.c's default where CUPTI can be used, or
 * asked for with device_times "cupti").
 *
 * CUPTI times kernels, copies and fills in the driver, with no events in
 * the stream. Each record carries the correlation id of the driver call
 * that issued it; a driver-API callback on the calls that issue work
 * (enabled only while a profile records, and only for those calls) keeps
 * the calling thread's last id, which profile.c reads
 * right after the backend's call, so ember's record and CUPTI's meet by
 * that id at stop. A graph replay's kernels all carry the replay's id:
 * its time is theirs from first start to last end. A timestamp callback
 * makes CUPTI stamp records with CLOCK_MONOTONIC, the profile's clock.
 *
 * libcupti is opened with dlopen (the toolkit's lib64 or extras/CUPTI/
 * lib64, pip's nvidia-cuda-cupti-cu12 or nvidia-cuda-cupti) and declared
 * here, not from its headers, so building needs none. The record layouts
 * read are the stable prefixes of CUpti_ActivityKernel4..10,
 * CUpti_ActivityMemcpy..6, CUpti_ActivityMemset..4 and
 * CUpti_ActivityMemcpyPtoP..4 (checked against CUDA 13.0's
 * cupti_activity.h: start at 16, end at 24, correlation id at 92, 44, 44
 * and 60). Only one CUPTI client can subscribe: under Nsight Systems the
 * subscription fails and the profile says why.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime.h"
#include "profile.h"

enum {
    KIND_MEMCPY = 1, KIND_MEMSET = 2, KIND_KERNEL = 3,
    KIND_CONCURRENT_KERNEL = 10, KIND_MEMCPY2 = 22,
    DOMAIN_DRIVER_API = 1, SITE_EXIT = 1, FLUSH_FORCED = 1,
    BUF_BYTES = 4 << 20
};

typedef int cupti_result;   /* CUptiResult: 0 is success */
typedef void (*callback_fn)(void *, int, unsigned, const void *);

static struct {
    cupti_result (*subscribe)(void **sub, callback_fn cb, void *user);
    cupti_result (*unsubscribe)(void *sub);
    cupti_result (*enable_domain)(uint32_t enable, void *sub, int domain);
    cupti_result (*enable_callback)(uint32_t enable, void *sub, int domain,
                                    uint32_t cbid);
    cupti_result (*register_callbacks)(void (*request)(uint8_t **, size_t *, size_t *),
                                       void (*complete)(void *, uint32_t, uint8_t *,
                                                        size_t, size_t));
    cupti_result (*enable)(int kind);
    cupti_result (*disable)(int kind);
    cupti_result (*flush_all)(uint32_t flag);
    cupti_result (*next_record)(uint8_t *buf, size_t valid, void **record);
    cupti_result (*result_string)(cupti_result r, const char **s);
} cu;

static const em_vendor_sym syms[] = {
    {"cuptiSubscribe", offsetof(__typeof__(cu), subscribe)},
    {"cuptiUnsubscribe", offsetof(__typeof__(cu), unsubscribe)},
    {"cuptiEnableDomain", offsetof(__typeof__(cu), enable_domain)},
    {"cuptiEnableCallback", offsetof(__typeof__(cu), enable_callback)},
    {"cuptiActivityRegisterCallbacks", offsetof(__typeof__(cu), register_callbacks)},
    {"cuptiActivityEnable", offsetof(__typeof__(cu), enable)},
    {"cuptiActivityDisable", offsetof(__typeof__(cu), disable)},
    {"cuptiActivityFlushAll", offsetof(__typeof__(cu), flush_all)},
    {"cuptiActivityGetNextRecord", offsetof(__typeof__(cu), next_record)},
    {"cuptiGetResultString", offsetof(__typeof__(cu), result_string)},
};
static em_vendor_lazy lib = EM_VENDOR_LAZY(EM_VENDOR_CUPTI, syms, &cu);

/* One timed activity: CUPTI's correlation id and CLOCK_MONOTONIC ns. */
struct act {
    uint32_t corr;
    int64_t start, end;
};

static pthread_mutex_t acts_lock = PTHREAD_MUTEX_INITIALIZER;
static struct act *acts;
static size_t n_acts, cap_acts;
static int64_t stamp_offset;   /* monotonic - CUPTI's clock: 0 when the
                                  timestamp callback took */
static void *subscriber;
static __thread uint32_t last_corr;

static const int kinds[] = {KIND_CONCURRENT_KERNEL, KIND_MEMCPY, KIND_MEMSET,
                            KIND_MEMCPY2};

/* The driver calls whose correlation id a record needs: the ones the cuda
 * backend makes for the operations profile.c times (launches, copies,
 * fills, graph launches), and their per-thread-stream twins. Only these
 * call back: with the whole driver domain enabled, every driver call
 * (each launch's cuCtxGetCurrent too) went through CUPTI's callback twice,
 * which was most of what a CUPTI profile cost a launch. Ids from CUDA
 * 13.0's cupti_driver_cbid.h (stable across versions: ids are only ever
 * added). */
static const uint32_t traced_calls[] = {
    307, 442,   /* cuLaunchKernel, _ptsz */
    652, 653,   /* cuLaunchKernelEx, _ptsz */
    477, 478,   /* cuLaunchCooperativeKernel, _ptsz */
    306, 418,   /* cuMemcpyAsync, _ptsz */
    319,        /* cuMemcpyPeerAsync */
    216, 428,   /* cuMemsetD8Async, _ptsz */
    514, 515,   /* cuGraphLaunch, _ptsz */
};

/* Callbacks on (enable 1) or off for traced_calls; 0 or CUPTI's error. */
static cupti_result trace_calls(uint32_t enable)
{
    for (size_t i = 0; i < sizeof traced_calls / sizeof *traced_calls; i++) {
        cupti_result r = cu.enable_callback(enable, subscriber, DOMAIN_DRIVER_API,
                                            traced_calls[i]);
        if (r != 0 && enable)
            return r;
    }
    return 0;
}

static int64_t mono_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static uint64_t stamp(void) { return (uint64_t)mono_ns(); }

/* The driver API's exit, on the calling thread: its correlation id. */
static void on_driver_call(void *user, int domain, unsigned cbid, const void *data)
{
    (void)user;
    (void)cbid;
    if (domain == DOMAIN_DRIVER_API && *(const int *)data == SITE_EXIT)
        last_corr = *(const uint32_t *)((const char *)data + 64);
}

static void buffer_requested(uint8_t **buf, size_t *size, size_t *max_records)
{
    *buf = aligned_alloc(8, BUF_BYTES);
    *size = *buf ? BUF_BYTES : 0;
    *max_records = 0;
}

static void keep(uint32_t corr, uint64_t start, uint64_t end)
{
    if (start == 0 && end == 0)   /* CUPTI could not time it */
        return;
    if (n_acts == cap_acts) {
        size_t cap = cap_acts ? 2 * cap_acts : 4096;
        struct act *a = realloc(acts, cap * sizeof *a);
        if (!a)
            return;
        acts = a;
        cap_acts = cap;
    }
    acts[n_acts].corr = corr;
    acts[n_acts].start = (int64_t)start + stamp_offset;
    acts[n_acts].end = (int64_t)end + stamp_offset;
    n_acts++;
}

/* CUPTI hands back a buffer of records (on its own thread, or inside
 * cuptiActivityFlushAll). */
static void buffer_completed(void *ctx, uint32_t stream, uint8_t *buf, size_t size,
                             size_t valid)
{
    void *rec = NULL;
    (void)ctx;
    (void)stream;
    (void)size;
    pthread_mutex_lock(&acts_lock);
    while (buf && cu.next_record(buf, valid, &rec) == 0) {
        const char *r = rec;
        int kind = *(const int *)r;
        size_t corr_at = kind == KIND_KERNEL || kind == KIND_CONCURRENT_KERNEL ? 92
                       : kind == KIND_MEMCPY || kind == KIND_MEMSET ? 44
                       : kind == KIND_MEMCPY2 ? 60 : 0;
        uint64_t start, end;
        uint32_t corr;
        if (!corr_at)
            continue;
        memcpy(&start, r + 16, 8);
        memcpy(&end, r + 24, 8);
        memcpy(&corr, r + corr_at, 4);
        keep(corr, start, end);
    }
    pthread_mutex_unlock(&acts_lock);
    free(buf);
}

static em_status cupti_error(cupti_result r, const char *call)
{
    const char *s = NULL;
    if (cu.result_string)
        cu.result_string(r, &s);
    return em_error(EM_ERR_UNAVAILABLE, "CUPTI: %s failed: %s (%d)%s", call,
                    s ? s : "unknown error", r,
                    r == 39 ? "; another CUPTI client (Nsight Systems, Nsight "
                              "Compute, a framework's profiler) holds it" : "");
}

/* The toolkit keeps CUPTI apart from its other libraries (CUDA 12's
 * extras/CUPTI/lib64); the vendor search looks there too. */
static void add_toolkit_dirs(void)
{
    const char *homes[] = {getenv("CUDA_HOME"), getenv("CUDA_PATH"), "/usr/local/cuda"};
    char dir[4096];
    for (size_t i = 0; i < sizeof homes / sizeof *homes; i++)
        if (homes[i] && *homes[i] &&
            snprintf(dir, sizeof dir, "%s/extras/CUPTI/lib64", homes[i]) < (int)sizeof dir)
            em_vendor_add_dir(dir);
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static em_status once_status;

/* Bind once; the timestamp callback must precede the first enable. */
static void setup(void)
{
    cupti_result (*set_stamp)(uint64_t (*)(void));
    cupti_result (*now)(uint64_t *);
    void *h = NULL;
    cupti_result r;
    add_toolkit_dirs();
    if ((once_status = em_vendor_ready(&lib)) != EM_OK)
        return;
    if ((r = cu.register_callbacks(buffer_requested, buffer_completed)) != 0) {
        once_status = cupti_error(r, "cuptiActivityRegisterCallbacks");
        return;
    }
    em_vendor_open(EM_VENDOR_CUPTI, &h);
    *(void **)&set_stamp = h ? dlsym(h, "cuptiActivityRegisterTimestampCallback") : NULL;
    if (set_stamp && set_stamp(stamp) == 0)
        return;
    /* an older CUPTI: its own clock, put on ours by one reading of each */
    *(void **)&now = h ? dlsym(h, "cuptiGetTimestamp") : NULL;
    if (now) {
        uint64_t c = 0;
        int64_t t0 = mono_ns(), t1;
        now(&c);
        t1 = mono_ns();
        stamp_offset = t0 + (t1 - t0) / 2 - (int64_t)c;
    }
}

em_status em_prof_cupti_begin(void)
{
    cupti_result r;
    size_t i;
    pthread_once(&once, setup);
    if (once_status != EM_OK)
        return em_error(once_status, "%s", em_last_error());
    pthread_mutex_lock(&acts_lock);
    n_acts = 0;
    pthread_mutex_unlock(&acts_lock);
    if ((r = cu.subscribe(&subscriber, on_driver_call, NULL)) != 0) {
        subscriber = NULL;
        return cupti_error(r, "cuptiSubscribe");
    }
    if ((r = trace_calls(1)) != 0) {
        cu.enable_domain(0, subscriber, DOMAIN_DRIVER_API);
        cu.unsubscribe(subscriber);
        subscriber = NULL;
        return cupti_error(r, "cuptiEnableCallback(driver API)");
    }
    for (i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if ((r = cu.enable(kinds[i])) != 0) {
            while (i-- > 0)
                cu.disable(kinds[i]);
            cu.enable_domain(0, subscriber, DOMAIN_DRIVER_API);
            cu.unsubscribe(subscriber);
            subscriber = NULL;
            return cupti_error(r, "cuptiActivityEnable");
        }
    return EM_OK;
}

uint32_t em_prof_cupti_take(void)
{
    uint32_t c = last_corr;
    last_corr = 0;
    return c;
}

void em_prof_cupti_end(void)
{
    if (!subscriber)
        return;
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        cu.disable(kinds[i]);
    cu.enable_domain(0, subscriber, DOMAIN_DRIVER_API);
    cu.unsubscribe(subscriber);
    subscriber = NULL;
    cu.flush_all(FLUSH_FORCED);
}

static int by_corr(const void *a, const void *b)
{
    uint32_t x = ((const struct act *)a)->corr, y = ((const struct act *)b)->corr;
    return x < y ? -1 : x > y;
}

void em_prof_cupti_sort(void)
{
    pthread_mutex_lock(&acts_lock);
    qsort(acts, n_acts, sizeof *acts, by_corr);
    pthread_mutex_unlock(&acts_lock);
}

int em_prof_cupti_times(uint32_t corr, int64_t *start, int64_t *end)
{
    size_t lo = 0, hi;
    int found = 0;
    /* CUPTI's thread may still be handing back a buffer it had */
    pthread_mutex_lock(&acts_lock);
    hi = n_acts;
    while (lo < hi) {   /* the first activity with this id */
        size_t mid = lo + (hi - lo) / 2;
        if (acts[mid].corr < corr)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < n_acts && acts[lo].corr == corr; lo++) {
        if (!found || acts[lo].start < *start)
            *start = acts[lo].start;
        if (!found || acts[lo].end > *end)
            *end = acts[lo].end;
        found = 1;
    }
    pthread_mutex_unlock(&acts_lock);
    return found;
}
