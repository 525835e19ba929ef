/* ember runtime: the profiler's recording (ember/profile.h, profile.h).
 *
 * One process-wide profile at a time. Records go to one array under one
 * mutex: an uncontended lock costs tens of nanoseconds, far below the
 * launch it sits beside, and keeps the order calls returned in.
 *
 * Device times: each kernel, copy and fill gets two timing events around
 * it on its stream (from a per-device free list, so a long loop creates
 * none after the first few thousand). When the profile first touches a
 * device it waits for the device, records a reference event on the
 * default stream and waits for it: the host clock at that moment and the
 * events' elapsed times from the reference put device work on the host's
 * timeline. Durations come from the pair itself, not from two offsets, so
 * a float's rounding over a long profile moves a kernel but never
 * stretches it. Pending events are resolved as they complete once a few
 * thousand wait, which bounds the events a long profile holds. On the cpu
 * device an event reads the host clock when its stream reaches it, so the
 * same code gives host-clock times there.
 *
 * Work recorded into a graph capture runs later, at replay: it gets no
 * events (a capture refuses event records) and no device time.
 */
#define _GNU_SOURCE 1   /* syscall(SYS_gettid) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "runtime.h"
#include "profile.h"

int em_prof_on;

#define MAX_DEVS 64
#define MAX_STREAMS 64      /* per device; later streams share the last id */
#define MAX_DEPTH 64        /* open ranges per thread that are tracked */
#define RESOLVE_AFTER 4096  /* pending records before resolving completed ones */

/* A device the profiler has seen; the table and each entry's event list
 * outlive profiles (devices live as long as the process). */
struct pdev {
    em_device *d;
    em_event **free;        /* events ready for reuse */
    int n_free, cap_free;
    /* this profile's: */
    unsigned gen;           /* the profile these fields belong to */
    int timed;              /* 1 reference taken, -1 it failed: no times */
    em_event *ref;
    int64_t ref_ns;
    em_stream *streams[MAX_STREAMS];
    int n_streams;
};

/* What a record waits on until its device time is known. */
struct pend {
    struct pdev *pd;
    em_event *e0, *e1;
    /* a size the name ends with ("H2D 4.0 MiB"), formatted by
     * em_prof_stop: printf's %f costs more than the rest of a record */
    int sized;
    uint64_t size;
    /* timed by CUPTI: its correlation id (0: CUPTI saw no driver call) */
    int cupti;
    uint32_t corr;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct pdev devs[MAX_DEVS];
static int n_devs;
static em_prof_record *recs;
static struct pend *pends;
static size_t n_recs, cap_recs, first_pending;
static unsigned gen;        /* bumped by each start; 0 before the first */
static int cupti_on;        /* this profile's CUDA times come from CUPTI */
static em_prof_times times_how;
static int n_threads;

/* The calling thread's state: its number in the current profile, the
 * label for its next launch, the transfer its copies belong to, and its
 * stack of open ranges. */
static __thread struct {
    unsigned gen;
    int thread;
    long tid;
    const em_function *label_fn;
    /* two events taken for this thread's next operation on spare_pd's
     * device, with the lock already held for its record, so that an
     * operation takes the lock once */
    struct pdev *spare_pd;
    unsigned spare_gen;
    em_event *spare_e0, *spare_e1;
    const char *label_op, *label_detail;
    int xfer_dir;               /* 0 none, else EM_PROF_H2D/D2H below */
    uint64_t xfer_total, xfer_left;
    struct {
        unsigned gen;           /* 0: not recorded */
        size_t idx;
    } stack[MAX_DEPTH];
    int depth;
} tl;

enum { DIR_H2D = 1, DIR_D2H, DIR_D2D, DIR_PEER, DIR_H2H };
static const char *const dir_names[] = {"", "H2D", "D2H", "D2D", "peer", "H2H"};

static int64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* "512 B", "1.5 KiB", "4.0 MiB", "2.0 GiB" */
static void fmt_bytes(char *buf, size_t n, uint64_t b)
{
    static const char *const unit[] = {"KiB", "MiB", "GiB", "TiB"};
    double v = (double)b;
    int u = -1;
    if (b < 1024) {
        snprintf(buf, n, "%llu B", (unsigned long long)b);
        return;
    }
    while (v >= 1024.0 && u < 3) {
        v /= 1024.0;
        u++;
    }
    snprintf(buf, n, "%.1f %s", v, unit[u]);
}

/* dst = a + b + c, cut to n - 1 characters: without printf, which would
 * cost more than the rest of a launch's record. */
static void cat3(char *dst, size_t n, const char *a, const char *b, const char *c)
{
    const char *parts[3] = {a, b, c};
    size_t used = 0;
    for (int i = 0; i < 3; i++) {
        size_t len;
        if (!parts[i])
            continue;
        len = strlen(parts[i]);
        if (len > n - 1 - used)
            len = n - 1 - used;
        memcpy(dst + used, parts[i], len);
        used += len;
    }
    dst[used] = 0;
}

/* ---- under the lock ------------------------------------------------------ */

static void thread_join(void)
{
    if (tl.gen == gen)
        return;
    tl.gen = gen;
    tl.thread = n_threads++;
    if (!tl.tid)
        tl.tid = (long)syscall(SYS_gettid);
}

static struct pdev *pdev_of(em_device *d)
{
    struct pdev *pd = NULL;
    for (int i = 0; i < n_devs; i++)
        if (devs[i].d == d) {
            pd = &devs[i];
            break;
        }
    if (!pd) {
        if (n_devs == MAX_DEVS)
            return NULL;
        pd = &devs[n_devs++];
        pd->d = d;
    }
    if (pd->gen != gen) {
        pd->gen = gen;
        pd->timed = 0;
        pd->n_streams = 1;
        pd->streams[0] = d->default_stream;
    }
    return pd;
}

static int stream_id(struct pdev *pd, em_stream *s)
{
    if (!pd || !s)
        return 0;
    for (int i = 0; i < pd->n_streams; i++)
        if (pd->streams[i] == s)
            return i;
    if (pd->n_streams == MAX_STREAMS)
        return MAX_STREAMS - 1;
    pd->streams[pd->n_streams] = s;
    return pd->n_streams++;
}

static em_event *event_take(struct pdev *pd)
{
    em_event *e = NULL;
    if (pd->n_free > 0)
        return pd->free[--pd->n_free];
    if (em_event_create(pd->d, 0, &e) != EM_OK)
        return NULL;
    return e;
}

static void event_give(struct pdev *pd, em_event *e)
{
    if (!e)
        return;
    if (pd->n_free == pd->cap_free) {
        int cap = pd->cap_free ? 2 * pd->cap_free : 256;
        em_event **f = realloc(pd->free, (size_t)cap * sizeof *f);
        if (!f) {
            em_event_destroy(e);
            return;
        }
        pd->free = f;
        pd->cap_free = cap;
    }
    pd->free[pd->n_free++] = e;
}

/* The reference for pd's device times: the device idle, then an event on
 * the default stream, waited for; its host time is the middle of the
 * record and the wait. Once per device and profile. */
static void pdev_time_base(struct pdev *pd)
{
    em_device *d = pd->d;
    int64_t t0, t1;
    pd->timed = -1;
    if (!pd->ref && em_event_create(d, 0, &pd->ref) != EM_OK)
        return;
    if (d->ops->synchronize(d) != EM_OK)
        return;
    t0 = now_ns();
    if (d->ops->event_record(pd->ref, d->default_stream) != EM_OK ||
        d->ops->event_synchronize(pd->ref) != EM_OK)
        return;
    t1 = now_ns();
    pd->ref->recorded = 1;
    pd->ref_ns = t0 + (t1 - t0) / 2;
    pd->timed = 1;
}

static em_prof_record *append(struct pend **pe)
{
    em_prof_record *r;
    if (n_recs == cap_recs) {
        size_t cap = cap_recs ? 2 * cap_recs : 4096;
        em_prof_record *nr = realloc(recs, cap * sizeof *nr);
        struct pend *np;
        if (!nr)
            return NULL;
        recs = nr;
        if (!(np = realloc(pends, cap * sizeof *np)))
            return NULL;
        pends = np;
        cap_recs = cap;
    }
    r = &recs[n_recs];
    memset(r, 0, sizeof *r);
    r->dev_start = r->dev_end = -1;
    r->thread = tl.thread;
    r->tid = tl.tid;
    *pe = &pends[n_recs];
    memset(*pe, 0, sizeof **pe);
    n_recs++;
    return r;
}

/* Fill in record i's device times from its events, which must have
 * completed, and hand them back. */
static void resolve(size_t i)
{
    struct pend *p = &pends[i];
    em_prof_record *r = &recs[i];
    const struct em_backend_ops *ops;
    float off = 0, dur = 0;
    if (!p->e0)
        return;
    ops = p->pd->d->ops;
    if (ops->event_elapsed_ms(p->pd->ref, p->e0, &off) == EM_OK &&
        ops->event_elapsed_ms(p->e0, p->e1, &dur) == EM_OK) {
        r->dev_start = p->pd->ref_ns + (int64_t)((double)off * 1e6);
        r->dev_end = r->dev_start + (int64_t)((double)dur * 1e6);
    }
    event_give(p->pd, p->e0);
    event_give(p->pd, p->e1);
    p->e0 = p->e1 = NULL;
}

/* Resolve the oldest pending records whose work is done, without
 * waiting; stops at the first still running. */
static void resolve_ready(void)
{
    while (first_pending < n_recs) {
        struct pend *p = &pends[first_pending];
        int done = 0;
        if (p->e0 && (p->pd->d->ops->event_query(p->e1, &done) != EM_OK || !done))
            return;
        resolve(first_pending++);
    }
}

/* ---- timing an operation ------------------------------------------------ */

/* Events around one operation on a device's stream. */
struct span {
    unsigned gen;
    struct pdev *pd;
    em_event *e0, *e1;
    int stream;
    int host_sync;          /* the operation runs inside the call */
    int cupti;              /* CUPTI times it */
    int64_t t0;
};

/* Before the operation: its device's table entry, its stream's number and,
 * unless s is capturing, two events with the first recorded on s. The cpu
 * device's default stream runs each operation on the calling thread
 * before the call returns (backend/host.c), so there the call's own host
 * time is the device time and no event is needed: span_end does it all
 * under one lock. */
static void span_begin(struct span *sp, em_device *d, em_stream *s)
{
    int capture = em_rt_capture_of(s) != NULL || d->capturing != NULL;
    memset(sp, 0, sizeof *sp);
    if (d->type == EM_DEVICE_CPU && s->is_default && !capture) {
        sp->host_sync = 1;
        sp->gen = __atomic_load_n(&gen, __ATOMIC_RELAXED);
        sp->t0 = now_ns();
        return;
    }
    if (cupti_on && d->type == EM_DEVICE_CUDA && !capture) {
        sp->cupti = 1;
        sp->gen = __atomic_load_n(&gen, __ATOMIC_RELAXED);
        (void)em_prof_cupti_take();   /* an id left by an earlier call */
        sp->t0 = now_ns();
        return;
    }
    if (tl.spare_e0 && !capture && tl.spare_pd->d == d &&
        tl.spare_gen == __atomic_load_n(&gen, __ATOMIC_RELAXED)) {
        sp->gen = tl.spare_gen;
        sp->pd = tl.spare_pd;
        sp->e0 = tl.spare_e0;
        sp->e1 = tl.spare_e1;
        tl.spare_e0 = tl.spare_e1 = NULL;
        goto record;
    }
    pthread_mutex_lock(&lock);
    if (tl.spare_e0) {      /* another device's, or an ended profile's */
        event_give(tl.spare_pd, tl.spare_e0);
        event_give(tl.spare_pd, tl.spare_e1);
        tl.spare_e0 = tl.spare_e1 = NULL;
    }
    sp->gen = gen;
    sp->pd = pdev_of(d);
    if (sp->pd && !capture) {
        if (sp->pd->timed == 0)
            pdev_time_base(sp->pd);
        if (sp->pd->timed > 0 && (sp->e0 = event_take(sp->pd)) &&
            !(sp->e1 = event_take(sp->pd))) {
            event_give(sp->pd, sp->e0);
            sp->e0 = NULL;
        }
    }
    pthread_mutex_unlock(&lock);
record:
    if (sp->e0 && d->ops->event_record(sp->e0, s) != EM_OK) {
        pthread_mutex_lock(&lock);
        event_give(sp->pd, sp->e0);
        event_give(sp->pd, sp->e1);
        pthread_mutex_unlock(&lock);
        sp->e0 = sp->e1 = NULL;
    }
    sp->t0 = now_ns();
}

/* After it: the second event, then the record (dropped, events and all,
 * when the operation failed or the profile it began in has ended). */
static void span_end(struct span *sp, em_device *d, em_stream *s, em_status st,
                     em_prof_kind kind, const char *name, uint64_t bytes,
                     int sized, uint64_t size)
{
    /* first: the backend's call must be the last driver call read */
    uint32_t corr = sp->cupti ? em_prof_cupti_take() : 0;
    int64_t t1 = now_ns();
    struct pend *pe = NULL;
    em_prof_record *r = NULL;
    int timed = sp->e0 && st == EM_OK && d->ops->event_record(sp->e1, s) == EM_OK;
    pthread_mutex_lock(&lock);
    if (st == EM_OK && em_prof_on && sp->gen == gen) {
        thread_join();
        if (!sp->pd)
            sp->pd = pdev_of(d);
        sp->stream = sp->host_sync ? 0 : stream_id(sp->pd, s);
        r = append(&pe);
    }
    if (!r || !timed) {
        if (sp->pd) {
            event_give(sp->pd, sp->e0);
            event_give(sp->pd, sp->e1);
        }
        sp->e0 = sp->e1 = NULL;
    }
    if (r) {
        r->kind = kind;
        cat3(r->name, sizeof r->name, name, NULL, NULL);
        cat3(r->device, sizeof r->device, d->name, NULL, NULL);
        r->stream = sp->stream;
        r->bytes = bytes;
        r->host_start = sp->t0;
        r->host_end = t1;
        if (sp->host_sync) {
            r->dev_start = sp->t0;
            r->dev_end = t1;
        }
        pe->pd = sp->pd;
        pe->e0 = sp->e0;
        pe->e1 = sp->e1;
        pe->sized = sized;
        pe->size = size;
        pe->cupti = sp->cupti;
        pe->corr = corr;
        if (pe->e0) {
            sp->e0->recorded = sp->e1->recorded = 1;
            if (n_recs - first_pending > RESOLVE_AFTER)
                resolve_ready();
            /* the next operation's pair, while the lock is held */
            if (!tl.spare_e0 && (tl.spare_e0 = event_take(sp->pd)) &&
                !(tl.spare_e1 = event_take(sp->pd))) {
                event_give(sp->pd, tl.spare_e0);
                tl.spare_e0 = NULL;
            }
            tl.spare_pd = sp->pd;
            tl.spare_gen = gen;
        }
    }
    pthread_mutex_unlock(&lock);
}

/* A record of host time only (allocations, synchronizes). */
static void host_record(em_prof_kind kind, const char *name, em_device *d,
                        em_stream *s, uint64_t bytes, int sized, int64_t t0,
                        int64_t t1)
{
    struct pend *pe;
    em_prof_record *r;
    pthread_mutex_lock(&lock);
    if (em_prof_on) {
        thread_join();
        if ((r = append(&pe))) {
            struct pdev *pd = pdev_of(d);
            r->kind = kind;
            cat3(r->name, sizeof r->name, name, NULL, NULL);
            cat3(r->device, sizeof r->device, d->name, NULL, NULL);
            r->stream = stream_id(pd, s ? s : d->default_stream);
            r->bytes = bytes;
            r->host_start = t0;
            r->host_end = t1;
            pe->sized = sized;
            pe->size = bytes;
        }
    }
    pthread_mutex_unlock(&lock);
}

/* ---- the hooks ---------------------------------------------------------- */

em_status em_prof_launch(em_function *f, const em_launch_config *c,
                         em_stream *s, void **args, em_prof_launch_fn run)
{
    em_device *d = f->module->dev;
    char name[96];
    struct span sp;
    em_status st;
    if (tl.label_fn == f) {
        cat3(name, sizeof name, tl.label_op, tl.label_detail ? " " : NULL,
             tl.label_detail);
        tl.label_fn = NULL;
    } else {
        cat3(name, sizeof name, f->name, NULL, NULL);
    }
    span_begin(&sp, d, s);
    st = run(f, c, s, args);
    span_end(&sp, d, s, st, EM_PROF_KERNEL, name, 0, 0, 0);
    return st;
}

/* Where p points on d: 1 device memory (its CUDA ordinal in *ord), 0
 * host memory. On the cpu device, device memory is the pool's. */
static int on_device(em_device *d, const void *p, int *ord)
{
    *ord = -1;
    if (d->type == EM_DEVICE_CUDA)
        return em_cuda_pointer_ordinal(p, ord) == EM_OK && *ord >= 0;
    return em_rt_pool_owns(d, p);
}

static int copy_dir(em_device *d, void *dst, const void *src)
{
    int od, os, dd = on_device(d, dst, &od), sd = on_device(d, src, &os);
    if (dd && sd)
        return od != os ? DIR_PEER : DIR_D2D;
    return dd ? DIR_H2D : sd ? DIR_D2H : DIR_H2H;
}

/* The size a copy's name shows ("H2D 4.0 MiB"): the transfer's this
 * thread is in, when the copy is part of it, else the copy's own. */
static uint64_t copy_size(int dir, uint64_t bytes)
{
    if (tl.xfer_dir == dir && bytes <= tl.xfer_left) {
        if ((tl.xfer_left -= bytes) == 0)
            tl.xfer_dir = 0;
        return tl.xfer_total;
    }
    return bytes;
}

em_status em_prof_copy(em_device *d, void *dst, const void *src, size_t n,
                       em_stream *s)
{
    int dir = copy_dir(d, dst, src);
    uint64_t size = copy_size(dir, n);
    struct span sp;
    em_status st;
    span_begin(&sp, d, s);
    st = d->ops->memcpy_async(d, dst, src, n, s);
    span_end(&sp, d, s, st, EM_PROF_COPY, dir_names[dir], n, 1, size);
    return st;
}

em_status em_prof_fill(em_device *d, void *dst, int value, size_t n,
                       em_stream *s)
{
    struct span sp;
    em_status st;
    span_begin(&sp, d, s);
    st = d->ops->memset_async(d, dst, value, n, s);
    span_end(&sp, d, s, st, EM_PROF_FILL, "memset", n, 1, n);
    return st;
}

em_status em_prof_graph(em_device *d, void *graph, em_stream *s)
{
    struct span sp;
    em_status st;
    span_begin(&sp, d, s);
    st = d->ops->graph_launch(d, graph, s);
    span_end(&sp, d, s, st, EM_PROF_GRAPH, "graph replay", 0, 0, 0);
    return st;
}

void em_prof_alloc(em_device *d, size_t n, em_stream *s)
{
    int64_t t = now_ns();
    host_record(EM_PROF_ALLOC, "alloc", d, s, n, 1, t, t);
}

em_status em_prof_sync(em_device *d, em_stream *s)
{
    int64_t t0 = now_ns();
    em_status st = s ? d->ops->stream_synchronize(s) : d->ops->synchronize(d);
    host_record(EM_PROF_SYNC, s ? "synchronize stream" : "synchronize device",
                d, s, 0, 0, t0, now_ns());
    return st;
}

int64_t em_prof_transfer(em_device *d, int to_host, uint64_t nbytes)
{
    (void)d;
    tl.xfer_dir = to_host ? DIR_D2H : DIR_H2D;
    tl.xfer_total = tl.xfer_left = nbytes;
    return now_ns();
}

void em_prof_transfer_done(em_device *d, em_stream *s, int to_host,
                           uint64_t nbytes, int64_t t0)
{
    struct pend *pe;
    em_prof_record *r;
    int dir = to_host ? DIR_D2H : DIR_H2D;
    uint64_t size = copy_size(dir, nbytes);
    int64_t t1 = now_ns();
    /* a host copy on the calling thread: its device time is its host
     * time (the cpu device's clock) */
    pthread_mutex_lock(&lock);
    if (em_prof_on) {
        thread_join();
        if ((r = append(&pe))) {
            r->kind = EM_PROF_COPY;
            cat3(r->name, sizeof r->name, dir_names[dir], NULL, NULL);
            cat3(r->device, sizeof r->device, d->name, NULL, NULL);
            r->stream = stream_id(pdev_of(d), s ? s : d->default_stream);
            r->bytes = nbytes;
            r->host_start = r->dev_start = t0;
            r->host_end = r->dev_end = t1;
            pe->sized = 1;
            pe->size = size;
        }
    }
    pthread_mutex_unlock(&lock);
}

void em_prof_label(const em_function *f, const char *op, const char *detail)
{
    tl.label_fn = f;
    tl.label_op = op;
    tl.label_detail = detail;
}

/* ---- starting and stopping ---------------------------------------------- */

em_status em_prof_start(void) { return em_prof_start_with(EM_PROF_TIMES_EVENTS); }

em_prof_times em_prof_device_times(void) { return times_how; }

em_status em_prof_start_with(em_prof_times how)
{
    em_status st;
    pthread_mutex_lock(&lock);
    if (em_prof_on) {
        pthread_mutex_unlock(&lock);
        return em_error(EM_ERR_INVALID_VALUE, "a profile is already recording: "
                        "profiles cannot nest or overlap (one at a time per "
                        "process, whatever the thread)");
    }
    if (how == EM_PROF_TIMES_CUPTI && (st = em_prof_cupti_begin()) != EM_OK) {
        pthread_mutex_unlock(&lock);
        return st;
    }
    cupti_on = how == EM_PROF_TIMES_CUPTI;
    times_how = how;
    for (size_t i = first_pending; i < n_recs; i++)
        if (pends[i].e0)
            resolve(i);   /* only a cleared profile leaves none */
    n_recs = first_pending = 0;
    n_threads = 0;
    gen++;
    tl.label_fn = NULL;
    tl.xfer_dir = 0;
    __atomic_store_n(&em_prof_on, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&lock);
    return EM_OK;
}

em_status em_prof_stop(void)
{
    em_status st = EM_OK;
    int64_t t = now_ns();
    pthread_mutex_lock(&lock);
    if (!em_prof_on) {
        pthread_mutex_unlock(&lock);
        return em_error(EM_ERR_INVALID_VALUE, "no profile is recording");
    }
    __atomic_store_n(&em_prof_on, 0, __ATOMIC_RELEASE);
    /* Ranges still open end here. */
    for (size_t i = 0; i < n_recs; i++)
        if (recs[i].kind == EM_PROF_RANGE && recs[i].host_end < 0)
            recs[i].host_end = t;
    for (size_t i = first_pending; i < n_recs; i++) {
        struct pend *p = &pends[i];
        if (!p->e0)
            continue;
        em_status rc = p->pd->d->ops->event_synchronize(p->e1);
        if (rc != EM_OK && st == EM_OK)
            st = rc;   /* the backend's message names the failure */
        resolve(i);
    }
    first_pending = n_recs;
    if (cupti_on) {
        /* CUPTI's records are complete once the devices are idle */
        for (int i = 0; i < n_devs; i++)
            if (devs[i].gen == gen && devs[i].d->type == EM_DEVICE_CUDA)
                devs[i].d->ops->synchronize(devs[i].d);
        em_prof_cupti_end();
        em_prof_cupti_sort();
        for (size_t i = 0; i < n_recs; i++)
            if (pends[i].cupti && pends[i].corr &&
                !em_prof_cupti_times(pends[i].corr, &recs[i].dev_start,
                                     &recs[i].dev_end))
                recs[i].dev_start = recs[i].dev_end = -1;
        cupti_on = 0;
    }
    for (size_t i = 0; i < n_recs; i++)
        if (pends[i].sized) {
            char sz[32];
            fmt_bytes(sz, sizeof sz, pends[i].size);
            cat3(recs[i].name + strlen(recs[i].name),
                 sizeof recs[i].name - strlen(recs[i].name), " ", sz, NULL);
            pends[i].sized = 0;
        }
    pthread_mutex_unlock(&lock);
    return st;
}

size_t em_prof_count(void) { return n_recs; }

const em_prof_record *em_prof_records(void) { return n_recs ? recs : NULL; }

void em_prof_clear(void)
{
    pthread_mutex_lock(&lock);
    if (!em_prof_on) {
        for (size_t i = first_pending; i < n_recs; i++)
            resolve(i);
        n_recs = first_pending = 0;
        for (int i = 0; i < n_devs; i++) {
            while (devs[i].n_free > 0)
                em_event_destroy(devs[i].free[--devs[i].n_free]);
        }
    }
    pthread_mutex_unlock(&lock);
}

/* ---- ranges ------------------------------------------------------------- */

/* NVTX's two calls, bound on the first range when a tool asked for them;
 * state 0 unknown, 1 bound, -1 absent. */
static struct {
    int (*push)(const char *);
    int (*pop)(void);
} nvtx;
static int nvtx_state;
static pthread_once_t nvtx_once = PTHREAD_ONCE_INIT;

static void nvtx_bind(void)
{
    static const em_vendor_sym syms[] = {
        {"nvtxRangePushA", 0},
        {"nvtxRangePop", sizeof(void *)},
    };
    const char *tool = getenv("NVTX_INJECTION64_PATH");
    nvtx_state = -1;
    if (!tool || !*tool)
        return;
    /* NVTX's library (libnvtx3interop, or the older libnvToolsExt) loads
     * the tool's injection library itself on its first call; missing,
     * ranges stay ember's own. */
    if (em_vendor_bind(EM_VENDOR_NVTX, syms, 2, &nvtx) == EM_OK)
        nvtx_state = 1;
    else
        em_log(EM_LOG_INFO, "profile", "NVTX ranges off: %s", em_last_error());
}

int em_prof_nvtx_attached(void)
{
    pthread_once(&nvtx_once, nvtx_bind);
    return nvtx_state > 0;
}

void em_prof_range_push(const char *name)
{
    int i = tl.depth++;
    if (em_prof_nvtx_attached())
        nvtx.push(name ? name : "");
    if (i >= MAX_DEPTH)
        return;
    tl.stack[i].gen = 0;
    if (!em_prof_on)
        return;
    pthread_mutex_lock(&lock);
    if (em_prof_on) {
        struct pend *pe;
        em_prof_record *r;
        int depth = 0;
        thread_join();
        for (int k = 0; k < i; k++)
            depth += tl.stack[k].gen == gen;
        if ((r = append(&pe))) {
            r->kind = EM_PROF_RANGE;
            cat3(r->name, sizeof r->name, name, NULL, NULL);
            r->stream = -1;
            r->depth = depth;
            r->host_start = now_ns();
            r->host_end = -1;
            tl.stack[i].gen = gen;
            tl.stack[i].idx = n_recs - 1;
        }
    }
    pthread_mutex_unlock(&lock);
}

void em_prof_range_pop(void)
{
    int i;
    if (tl.depth == 0)
        return;
    i = --tl.depth;
    if (nvtx_state > 0)
        nvtx.pop();
    if (i >= MAX_DEPTH || tl.stack[i].gen == 0)
        return;
    pthread_mutex_lock(&lock);
    /* the profile it began in still holds the record (not restarted) */
    if (tl.stack[i].gen == gen && tl.stack[i].idx < n_recs &&
        recs[tl.stack[i].idx].host_end < 0)
        recs[tl.stack[i].idx].host_end = now_ns();
    pthread_mutex_unlock(&lock);
}
