/* ember runtime: CUPTI's activity records as the source of a profile's
 * CUDA device times (profile.c's default where CUPTI can be used, or
 * asked for with device_times "cupti").
 *
 * CUPTI times kernels, copies and fills in the driver, with no events in
 * the stream. Each record carries its device, its stream's id and the
 * correlation id of the driver call that issued it. ember's records of
 * launches, copies and fills keep their stream's CUPTI id, and at stop
 * profile_match.c pairs them with CUPTI's records stream by stream, in the
 * order the work ran: no CUPTI call on the launch path. A graph replay's
 * kernels may run on the graph's own streams; they all carry the
 * replay's correlation id, which a driver-API callback on cuGraphLaunch
 * alone (enabled only while a profile records) keeps for profile.c to
 * read right after the call: the replay's time is theirs from first start
 * to last end. With EMBER_PROFILE_CUPTI_MATCH=callback the callback is on
 * every call that issues work and every record is matched by its id, as
 * before the matching by order (a comparison for
 * bench/profiler_overhead.py). A timestamp callback makes CUPTI stamp
 * records with CLOCK_MONOTONIC, the profile's clock.
 *
 * EMBER_PROFILE_CUPTI_VARIANT (read once, at the first CUPTI start) runs
 * CUPTI otherwise, for bench/profiler_overhead.py to weigh what each part
 * costs a launch; '+' joins them. Unset (or "default") is nocallback.
 *   callback     the driver-API subscription made at the start;
 *   nocallback   no driver-API subscription until the profile's first
 *                graph replay (em_prof_cupti_need_corr), as a subscriber
 *                may make the driver look for callbacks on every call;
 *   notimestamp  no timestamp callback: CUPTI stamps records with its own
 *                clock, read against CLOCK_MONOTONIC at the start and at
 *                the stop, and records are moved onto CLOCK_MONOTONIC at
 *                the stop by the offset between the readings, interpolated
 *                (so CUPTI never calls into ember to stamp a record);
 *   kernel       CUPTI_ACTIVITY_KIND_KERNEL, not CONCURRENT_KERNEL (a
 *                comparison only: CUPTI then serializes all kernels);
 *   nocopy       kernel activity only: copies and fills get no device
 *                times (a comparison of what enabling their kinds costs).
 * With EMBER_PROFILE_CUPTI_MATCH=callback the subscription is made at the
 * start whatever the variant, as every launch needs it.
 *
 * libcupti is opened with dlopen (the toolkit's lib64 or extras/CUPTI/
 * lib64, pip's nvidia-cuda-cupti-cu12 or nvidia-cuda-cupti) and declared
 * here, not from its headers, so building needs none. The record layouts
 * read are the stable prefixes of CUpti_ActivityKernel4..10,
 * CUpti_ActivityMemcpy..6, CUpti_ActivityMemset..4 and
 * CUpti_ActivityMemcpyPtoP..4 (checked against CUDA 13.0's
 * cupti_activity.h; see the offsets in buffer_completed). Only one CUPTI
 * client can subscribe: under Nsight Systems the subscription fails and
 * the profile says why.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ember/util.h"
#include "runtime.h"
#include "profile.h"
#include "backend/cuda_api.h"

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
    cupti_result (*stream_id)(void *ctx, void *stream, uint8_t per_thread,
                              uint32_t *id);
    cupti_result (*context_id)(void *ctx, uint32_t *id);
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
    {"cuptiGetStreamIdEx", offsetof(__typeof__(cu), stream_id)},
    {"cuptiGetContextId", offsetof(__typeof__(cu), context_id)},
};
static em_vendor_lazy lib = EM_VENDOR_LAZY(EM_VENDOR_CUPTI, syms, &cu);

/* EMBER_PROFILE_CUPTI_VARIANT's parts (header comment); set once, in
 * setup. */
enum { V_LAZY_CALLS = 1, V_OWN_CLOCK = 2, V_KERNEL = 4, V_NO_COPIES = 8 };
static const struct {
    const char *name, *alias;
    unsigned bit;
} variant_names[] = {
    {"default", "default", V_LAZY_CALLS},
    {"callback", "cb", 0},
    {"nocallback", "nocb", V_LAZY_CALLS},
    {"notimestamp", "nots", V_OWN_CLOCK},
    {"kernel", "kernel", V_KERNEL},
    {"nocopy", "nocopy", V_NO_COPIES},
};
static unsigned variant;

/* CUPTI's clock read against CLOCK_MONOTONIC (ns). */
struct clock_pair {
    int64_t mono, cupti;
};

/* The timed activities, under acts_lock: as CUPTI stamped them until
 * `converted`, then on CLOCK_MONOTONIC. Where the timestamp callback took
 * (`stamped`, set once in setup) CUPTI's clock is CLOCK_MONOTONIC; else
 * the stop moves each time by the offset between the clocks, read at the
 * start (clock0) and at the stop (clock1) and interpolated between. */
static pthread_mutex_t acts_lock = PTHREAD_MUTEX_INITIALIZER;
static em_prof_act *acts;
static size_t n_acts, cap_acts;
static int stamped;
static int converted;
static struct clock_pair clock0, clock1;
static cupti_result (*cupti_now)(uint64_t *);   /* cuptiGetTimestamp */

/* The profile's subscription and enabled kinds, under sub_lock: made at
 * the start, or with nocallback at the first graph replay (sub_done, read
 * without the lock, says none is to be made now). */
static pthread_mutex_t sub_lock = PTHREAD_MUTEX_INITIALIZER;
static void *subscriber;
static int recording;          /* between a start that worked and its end */
static int sub_done;
static int on_kinds[4], n_on_kinds;

static int by_callback;        /* this profile matches every record by id */
static int warned;             /* this profile said a stream has no id */
static int graph_ids;          /* kernel records carry graphId (CUPTI 11.0+) */
static __thread uint32_t last_corr;

/* The driver calls whose correlation id a record needs: graph launches
 * and, matching by callback, also the calls the cuda backend makes for
 * the other operations profile.c times (launches, copies, fills), with
 * their per-thread-stream twins. Only these call back: with the whole
 * driver domain enabled, every driver call (each launch's cuCtxGetCurrent
 * too) went through CUPTI's callback twice. Ids from CUDA 13.0's
 * cupti_driver_cbid.h (stable across versions: ids are only ever added). */
static const uint32_t traced_calls[] = {
    514, 515,   /* cuGraphLaunch, _ptsz: the graph calls come first */
    307, 442,   /* cuLaunchKernel, _ptsz */
    652, 653,   /* cuLaunchKernelEx, _ptsz */
    477, 478,   /* cuLaunchCooperativeKernel, _ptsz */
    306, 418,   /* cuMemcpyAsync, _ptsz */
    319,        /* cuMemcpyPeerAsync */
    216, 428,   /* cuMemsetD8Async, _ptsz */
};
enum { GRAPH_CALLS = 2 };

/* Callbacks on (enable 1) or off for the calls this profile traces; 0 or
 * CUPTI's error. */
static cupti_result trace_calls(uint32_t enable)
{
    size_t n = by_callback ? sizeof traced_calls / sizeof *traced_calls : GRAPH_CALLS;
    for (size_t i = 0; i < n; i++) {
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

/* CUPTI's record buffers. CUPTI asks for one on the thread whose record
 * needs it, a launching thread, and unless told they come zeroed it zeroes
 * the buffer there: 4 MiB written, and a fresh allocation's pages faulted
 * in, inside the first launch of each profile (a buffer holds about
 * 19,000 kernel records, so about 1% of a loop of 10,000 small launches).
 * So buffers are zeroed ahead of need: em_prof_cupti_begin keeps SPARE of
 * them ready, buffer_completed zeroes each one CUPTI hands back (on
 * CUPTI's thread, or in the stop's flush) and keeps it for the next
 * request, at most KEEP, and CUPTI is told they come zeroed. */
enum { SPARE = 2, KEEP = 4 };
static pthread_mutex_t spare_lock = PTHREAD_MUTEX_INITIALIZER;
static uint8_t *spare[KEEP];
static int n_spare;

static uint8_t *zeroed_buffer(void)
{
    uint8_t *b = aligned_alloc(8, BUF_BYTES);
    if (b)
        memset(b, 0, BUF_BYTES);
    return b;
}

/* b (zeroed) for a later request; freed when KEEP are kept. */
static void spare_put(uint8_t *b)
{
    pthread_mutex_lock(&spare_lock);
    if (n_spare < KEEP) {
        spare[n_spare++] = b;
        b = NULL;
    }
    pthread_mutex_unlock(&spare_lock);
    free(b);
}

static void spare_fill(void)
{
    int n;
    pthread_mutex_lock(&spare_lock);
    n = SPARE - n_spare;
    pthread_mutex_unlock(&spare_lock);
    while (n-- > 0) {
        uint8_t *b = zeroed_buffer();
        if (!b)
            break;
        spare_put(b);
    }
}

static void buffer_requested(uint8_t **buf, size_t *size, size_t *max_records)
{
    uint8_t *b = NULL;
    pthread_mutex_lock(&spare_lock);
    if (n_spare > 0)
        b = spare[--n_spare];
    pthread_mutex_unlock(&spare_lock);
    *buf = b ? b : zeroed_buffer();
    *size = *buf ? BUF_BYTES : 0;
    *max_records = 0;
}

/* t (CUPTI's clock) on CLOCK_MONOTONIC, from the start's and the stop's
 * readings. Under acts_lock, clock1 read. */
static int64_t to_mono(int64_t t)
{
    int64_t off0 = clock0.mono - clock0.cupti, off1 = clock1.mono - clock1.cupti;
    int64_t span = clock1.cupti - clock0.cupti;
    if (stamped)
        return t;
    if (span <= 0)
        return t + off0;
    return t + off0 + (int64_t)((double)(off1 - off0) *
                                ((double)(t - clock0.cupti) / (double)span));
}

/* One more activity, its times as CUPTI gave them (on CLOCK_MONOTONIC once
 * converted: a buffer handed back after the stop's conversion). Under
 * acts_lock. */
static void keep(const em_prof_act *a)
{
    if (a->start == 0 && a->end == 0)   /* CUPTI could not time it */
        return;
    if (n_acts == cap_acts) {
        size_t cap = cap_acts ? 2 * cap_acts : 4096;
        em_prof_act *na = realloc(acts, cap * sizeof *na);
        if (!na)
            return;
        acts = na;
        cap_acts = cap;
    }
    acts[n_acts] = *a;
    if (converted) {
        acts[n_acts].start = to_mono(a->start);
        acts[n_acts].end = to_mono(a->end);
    }
    n_acts++;
}

static uint32_t u32_at(const char *r, size_t at)
{
    uint32_t v;
    memcpy(&v, r + at, 4);
    return v;
}

static uint64_t u64_at(const char *r, size_t at)
{
    uint64_t v;
    memcpy(&v, r + at, 8);
    return v;
}

/* CUPTI hands back a buffer of records (on its own thread, or inside
 * cuptiActivityFlushAll). Offsets: every kind has start at 16 and end at
 * 24; kernels contextId 44, streamId 48, correlationId 92 and the
 * name's pointer at 104; copies, fills and peer copies bytes at 8,
 * contextId 36, streamId 40 and correlationId 44 (peer copies 60). From
 * CUDA 11.0 (CUpti_ActivityKernel5 on) a kernel's graphId is at 156,
 * nonzero for a graph's kernel: set aside from the pairing by order even
 * where its replay's correlation id was not caught. A kernel's name is
 * one string shared by its records while the buffer is read: its key is
 * computed once per kernel and buffer. */
static void buffer_completed(void *ctx, uint32_t stream, uint8_t *buf, size_t size,
                             size_t valid)
{
    void *rec = NULL;
    const char *last_name = NULL;
    uint32_t last_key = 0;
    (void)ctx;
    (void)stream;
    pthread_mutex_lock(&acts_lock);
    while (buf && cu.next_record(buf, valid, &rec) == 0) {
        const char *r = rec;
        int kind = *(const int *)r;
        em_prof_act a;
        a.start = (int64_t)u64_at(r, 16);
        a.end = (int64_t)u64_at(r, 24);
        a.key = 0;
        a.taken = 0;
        if (kind == KIND_KERNEL || kind == KIND_CONCURRENT_KERNEL) {
            const char *name;
            memcpy(&name, r + 104, sizeof name);
            if (name != last_name) {
                last_name = name;
                last_key = name ? em_prof_name_key(name) : 0;
            }
            a.kind = EM_PROF_KERNEL;
            a.key = last_key;
            a.bytes = 0;
            a.context = u32_at(r, 44);
            a.stream = u32_at(r, 48);
            a.corr = u32_at(r, 92);
            a.taken = graph_ids && u32_at(r, 156) != 0;
        } else if (kind == KIND_MEMCPY || kind == KIND_MEMSET || kind == KIND_MEMCPY2) {
            a.kind = kind == KIND_MEMSET ? EM_PROF_FILL : EM_PROF_COPY;
            a.bytes = u64_at(r, 8);
            a.context = u32_at(r, 36);
            a.stream = u32_at(r, 40);
            a.corr = u32_at(r, kind == KIND_MEMCPY2 ? 60 : 44);
        } else {
            continue;
        }
        keep(&a);
    }
    pthread_mutex_unlock(&acts_lock);
    if (buf && size == BUF_BYTES) {
        memset(buf, 0, size);
        spare_put(buf);
    } else {
        free(buf);
    }
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

/* EMBER_PROFILE_CUPTI_VARIANT's parts into `variant`; an unknown part is
 * said and left out. */
static void read_variant(void)
{
    const char *v = em_knob_text(EM_KNOB_PROFILE_CUPTI_VARIANT);
    const size_t n = sizeof variant_names / sizeof *variant_names;
    /* the default is nocallback: on the H200 it cost a launch 0.09-0.22 us
     * less than subscribing at the start (bench/README.md, 2026-11-29) */
    if (!v || !*v)
        variant = V_LAZY_CALLS;
    while (v && *v) {
        size_t len = strcspn(v, "+,"), i;
        for (i = 0; i < n; i++)
            if ((strlen(variant_names[i].name) == len &&
                 !strncmp(v, variant_names[i].name, len)) ||
                (strlen(variant_names[i].alias) == len &&
                 !strncmp(v, variant_names[i].alias, len)))
                break;
        if (i < n)
            variant |= variant_names[i].bit;
        else if (len)
            em_log(EM_LOG_WARN, "profile", "EMBER_PROFILE_CUPTI_VARIANT: '%.*s' "
                   "is none of default, callback (cb), nocallback (nocb), notimestamp (nots), "
                   "kernel, nocopy; left out", (int)len, v);
        v += len;
        if (*v)
            v++;
    }
}

/* CUPTI's clock against CLOCK_MONOTONIC: the narrowest of a few
 * brackets, CUPTI's reading taken for the bracket's middle; {0, 0} (no
 * offset) where CUPTI cannot be read. */
static struct clock_pair read_clocks(void)
{
    struct clock_pair p = {0, 0};
    int64_t best = -1;
    for (int i = 0; cupti_now && i < 5; i++) {
        uint64_t c = 0;
        int64_t t0 = mono_ns(), t1;
        if (cupti_now(&c) != 0)
            break;
        t1 = mono_ns();
        if (best < 0 || t1 - t0 < best) {
            best = t1 - t0;
            p.mono = t0 + (t1 - t0) / 2;
            p.cupti = (int64_t)c;
        }
    }
    return p;
}

/* Bind once; the timestamp callback must precede the first enable. */
static void setup(void)
{
    cupti_result (*set_stamp)(uint64_t (*)(void));
    cupti_result (*set_attr)(int attr, size_t *size, void *value);
    cupti_result (*version)(uint32_t *v);
    void *h = NULL;
    cupti_result r;
    char parts[96] = "";
    add_toolkit_dirs();
    if ((once_status = em_vendor_ready(&lib)) != EM_OK)
        return;
    read_variant();
    em_vendor_open(EM_VENDOR_CUPTI, &h);
    *(void **)&version = h ? dlsym(h, "cuptiGetVersion") : NULL;
    if (version) {
        uint32_t v = 0;
        graph_ids = version(&v) == 0 && v >= 13;   /* 13: CUDA 11.0 */
    }
    /* CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER (5): our buffers come
     * zeroed. Refused (an old CUPTI), CUPTI zeroes them itself, pages
     * already faulted in. */
    *(void **)&set_attr = h ? dlsym(h, "cuptiActivitySetAttribute") : NULL;
    if (set_attr) {
        uint8_t yes = 1;
        size_t n = sizeof yes;
        (void)set_attr(5, &n, &yes);
    }
    if ((r = cu.register_callbacks(buffer_requested, buffer_completed)) != 0) {
        once_status = cupti_error(r, "cuptiActivityRegisterCallbacks");
        return;
    }
    /* CLOCK_MONOTONIC stamped by CUPTI through our callback; else (an
     * older CUPTI, or notimestamp) CUPTI's own clock, put on ours at the
     * stop. notimestamp without cuptiGetTimestamp keeps the callback. */
    *(void **)&cupti_now = h ? dlsym(h, "cuptiGetTimestamp") : NULL;
    *(void **)&set_stamp = h ? dlsym(h, "cuptiActivityRegisterTimestampCallback") : NULL;
    if (!(variant & V_OWN_CLOCK) || !cupti_now)
        stamped = set_stamp && set_stamp(stamp) == 0;
    for (size_t i = 1; i < sizeof variant_names / sizeof *variant_names; i++)
        if ((variant & variant_names[i].bit) &&
            !(variant_names[i].bit == V_OWN_CLOCK && stamped))
            snprintf(parts + strlen(parts), sizeof parts - strlen(parts), "%s%s",
                     *parts ? "+" : "", variant_names[i].name);
    em_log(EM_LOG_INFO, "profile", "CUPTI variant: %s (%s activity%s; driver-API "
           "callbacks %s; records stamped %s)", *parts ? parts : "default",
           variant & V_KERNEL ? "KERNEL" : "CONCURRENT_KERNEL",
           variant & V_NO_COPIES ? " only" : ", copies and fills",
           variant & V_LAZY_CALLS ? "from the first graph replay (from the start "
                                    "when matching by callback)" : "from the start",
           stamped ? "with CLOCK_MONOTONIC by callback"
                   : "with CUPTI's clock, converted at the stop");
}

/* EMBER_PROFILE_CUPTI_MATCH=callback: match by a callback on every call
 * that issues work (the earlier design), to measure against; read at each
 * start. */
static int match_env(void)
{
    const char *v = em_knob_text(EM_KNOB_PROFILE_CUPTI_MATCH);
    return v && !strcmp(v, "callback");
}

/* Subscribe to the driver calls this profile traces; EM_OK, or CUPTI's
 * error with nothing left subscribed. Under sub_lock. */
static em_status subscribe_calls(void)
{
    cupti_result r;
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
    return EM_OK;
}

/* Under sub_lock. */
static void unsubscribe_calls(void)
{
    if (!subscriber)
        return;
    cu.enable_domain(0, subscriber, DOMAIN_DRIVER_API);
    cu.unsubscribe(subscriber);
    subscriber = NULL;
}

em_status em_prof_cupti_begin(void)
{
    cupti_result r;
    em_status st;
    struct clock_pair c0;
    int lazy, i;
    pthread_once(&once, setup);
    if (once_status != EM_OK)
        return em_error(once_status, "%s", em_last_error());
    pthread_mutex_lock(&acts_lock);
    n_acts = 0;
    converted = 0;
    pthread_mutex_unlock(&acts_lock);
    by_callback = match_env();
    __atomic_store_n(&warned, 0, __ATOMIC_RELAXED);
    pthread_mutex_lock(&sub_lock);
    lazy = (variant & V_LAZY_CALLS) && !by_callback;
    if (!lazy && (st = subscribe_calls()) != EM_OK) {
        pthread_mutex_unlock(&sub_lock);
        return st;
    }
    n_on_kinds = 0;
    on_kinds[n_on_kinds++] = variant & V_KERNEL ? KIND_KERNEL : KIND_CONCURRENT_KERNEL;
    if (!(variant & V_NO_COPIES)) {
        on_kinds[n_on_kinds++] = KIND_MEMCPY;
        on_kinds[n_on_kinds++] = KIND_MEMSET;
        on_kinds[n_on_kinds++] = KIND_MEMCPY2;
    }
    for (i = 0; i < n_on_kinds; i++)
        if ((r = cu.enable(on_kinds[i])) != 0) {
            while (i-- > 0)
                cu.disable(on_kinds[i]);
            n_on_kinds = 0;
            unsubscribe_calls();
            pthread_mutex_unlock(&sub_lock);
            return cupti_error(r, "cuptiActivityEnable");
        }
    recording = 1;
    __atomic_store_n(&sub_done, !lazy, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&sub_lock);
    /* the clocks read with CUPTI enabled, as at the stop; records kept
     * meanwhile wait, raw, for the stop's conversion */
    c0 = stamped ? (struct clock_pair){0, 0} : read_clocks();
    pthread_mutex_lock(&acts_lock);
    clock0 = clock1 = c0;
    pthread_mutex_unlock(&acts_lock);
    spare_fill();
    return EM_OK;
}

/* Where the subscription waits for the first graph replay (nocallback),
 * it is made on the thread that is about to launch one, so that this call
 * and later ones are caught; a graph replay when it failed gets no
 * device time. A thread racing the stop finds the profile ended and
 * subscribes nothing. */
static void __attribute__((noinline, cold)) subscribe_late(void)
{
    em_status st = EM_OK;
    pthread_mutex_lock(&sub_lock);
    if (recording && !subscriber && !__atomic_load_n(&sub_done, __ATOMIC_RELAXED)) {
        st = subscribe_calls();
        __atomic_store_n(&sub_done, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&sub_lock);
    if (st != EM_OK)
        em_log(EM_LOG_WARN, "profile", "graph replays get no device times: %s",
               em_last_error());
}

void em_prof_cupti_need_corr(void)
{
    if (!__atomic_load_n(&sub_done, __ATOMIC_ACQUIRE))
        subscribe_late();
}

uint32_t em_prof_cupti_take(void)
{
    uint32_t c = last_corr;
    last_corr = 0;
    return c;
}

int em_prof_cupti_by_callback(void) { return by_callback; }

/* The CUPTI context id of each device a profile has asked a stream's id
 * on (a device keeps its one context, the primary one, for the process). */
enum { MAX_CTX = 64 };
static pthread_mutex_t ctx_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    const em_device *d;
    uint32_t id;
} ctx_ids[MAX_CTX];
static int n_ctx_ids;

static void learn_context(const em_device *d, CUcontext ctx)
{
    uint32_t id;
    int i;
    if (!ctx || cu.context_id(ctx, &id) != 0)
        return;
    pthread_mutex_lock(&ctx_lock);
    for (i = 0; i < n_ctx_ids && ctx_ids[i].d != d; i++)
        ;
    if (i < MAX_CTX) {
        ctx_ids[i].d = d;
        ctx_ids[i].id = id;
        if (i == n_ctx_ids)
            n_ctx_ids++;
    }
    pthread_mutex_unlock(&ctx_lock);
}

uint32_t em_prof_cupti_context(const em_device *d)
{
    uint32_t id = EM_PROF_NO_CONTEXT;
    pthread_mutex_lock(&ctx_lock);
    for (int i = 0; i < n_ctx_ids; i++)
        if (ctx_ids[i].d == d)
            id = ctx_ids[i].id;
    pthread_mutex_unlock(&ctx_lock);
    return id;
}

uint32_t em_prof_cupti_stream(em_device *d, em_stream *s)
{
    CUcontext ctx = NULL;
    uint32_t id = EM_PROF_NO_STREAM;
    cupti_result r;
    /* the context the launch just used: d's; with it CUPTI knows which
     * context's default stream a NULL stream is */
    if (em_cuda_drv.cuCtxGetCurrent && em_cuda_drv.cuCtxGetCurrent(&ctx) != CUDA_SUCCESS)
        ctx = NULL;
    learn_context(d, ctx);
    if ((r = cu.stream_id(ctx, s ? s->impl : NULL, 0, &id)) != 0) {
        /* its work goes without device times; say why, once a profile */
        const char *why = NULL;
        if (__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
            return EM_PROF_NO_STREAM;
        if (cu.result_string)
            cu.result_string(r, &why);
        em_log(EM_LOG_WARN, "profile", "CUPTI gives no id for %s's %s stream "
               "(%s, %d): its work gets device times only where one stream "
               "of CUPTI's records is left over for it", d->name,
               s && !s->is_default ? "a created" : "the default",
               why ? why : "unknown error", r);
        return EM_PROF_NO_STREAM;
    }
    return id;
}

void em_prof_cupti_end(void)
{
    struct clock_pair c1;
    pthread_mutex_lock(&sub_lock);
    if (!recording) {
        pthread_mutex_unlock(&sub_lock);
        return;
    }
    recording = 0;
    __atomic_store_n(&sub_done, 1, __ATOMIC_RELEASE);
    /* the devices are idle: every record is older than this reading */
    c1 = stamped ? (struct clock_pair){0, 0} : read_clocks();
    for (int i = 0; i < n_on_kinds; i++)
        cu.disable(on_kinds[i]);
    n_on_kinds = 0;
    unsubscribe_calls();
    pthread_mutex_unlock(&sub_lock);
    cu.flush_all(FLUSH_FORCED);
    /* every record CUPTI had is kept: onto CLOCK_MONOTONIC (a buffer
     * handed back later is converted as it is kept) */
    pthread_mutex_lock(&acts_lock);
    clock1 = c1.cupti > clock0.cupti ? c1 : clock0;
    if (!stamped)
        for (size_t i = 0; i < n_acts; i++) {
            acts[i].start = to_mono(acts[i].start);
            acts[i].end = to_mono(acts[i].end);
        }
    converted = 1;
    pthread_mutex_unlock(&acts_lock);
}

static int by_corr(const void *a, const void *b)
{
    uint32_t x = ((const em_prof_act *)a)->corr, y = ((const em_prof_act *)b)->corr;
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
        acts[lo].taken = 1;   /* not matched by order */
    }
    pthread_mutex_unlock(&acts_lock);
    return found;
}

size_t em_prof_cupti_match(em_prof_call *calls, size_t n_calls)
{
    size_t n;
    pthread_mutex_lock(&acts_lock);
    n = em_prof_match(calls, n_calls, acts, n_acts);
    pthread_mutex_unlock(&acts_lock);
    return n;
}
