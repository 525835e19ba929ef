/* ember runtime: the profiler's recording (ember/profile.h, profile.h).
 *
 * One process-wide profile at a time. What a profiled operation costs on
 * the host is what bench/profiler_overhead.py measures, so the hot path
 * (a launch, copy or fill while a profile records) takes no lock, makes no
 * allocation in the steady state and builds no string:
 *
 * - Each host thread appends compact records to a buffer of its own.
 *   Names are kept as pointers to strings that outlive the profile (an
 *   operation's and a dtype's name, "H2D"), or as a copy where they may
 *   not (a kernel's own name: its module may be unloaded before the stop;
 *   a range's); device and stream are kept as pointers. em_prof_stop merges
 *   the threads' buffers in the order the calls returned and only then
 *   writes names, sizes ("H2D 4.0 MiB"), stream and thread numbers.
 * - Stop and the recording threads meet through one flag per thread
 *   (busy): a thread sets it, then tests em_prof_on, and clears it once
 *   its record is written; stop clears em_prof_on, then waits until no
 *   thread is busy. Both sides store then load with sequential
 *   consistency (Dekker's handshake), so one of them sees the other: a
 *   record is either complete before stop reads the buffers or dropped.
 *   This costs the hot path one locked instruction on a cache line that
 *   no other thread writes, where a shared mutex or counter would bounce
 *   between the cores of threads launching at once.
 *
 * Device times (ember/profile.h): on the cpu device's default stream the
 * call's own host time (the operation runs inside it, backend/host.c);
 * with CUPTI the driver's activity records (profile_cupti.c; the hot path
 * keeps the stream's CUPTI id and the kernel name's key, each from a
 * cache per thread, and stop pairs records and activities in each
 * stream's order, profile_match.c; a graph replay keeps its call's
 * correlation id); else a pair of timing events around the operation on
 * its stream. Events come from a stash per thread,
 * refilled in batches from a free list per device (under dev_lock, once
 * per STASH_BATCH / 2 operations), and are resolved at stop, or by the
 * thread itself, without waiting, once RESOLVE_AFTER of its records wait,
 * which bounds the events a long profile holds. When the profile first
 * touches a device it waits for the device, records a reference event on
 * the default stream and waits for it: the host clock at that moment and
 * the events' elapsed times from the reference put device work on the
 * host's timeline. Durations come from the pair itself, not from two
 * offsets, so a float's rounding over a long profile moves a kernel but
 * never stretches it. On the cpu device's created streams an event reads
 * the host clock when the stream's worker reaches it, so the same code
 * gives host-clock times there.
 *
 * Work recorded into a graph capture runs later, at replay: it gets no
 * events (a capture refuses event records) and no device time.
 */
#define _GNU_SOURCE 1   /* syscall(SYS_gettid) */
#include <pthread.h>
#include <sched.h>
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
#define RESOLVE_AFTER 65536 /* a thread's waiting records before it resolves */
#define STASH_BATCH 64      /* events a thread takes from its device at once */
#define FIRST_CAP 1024      /* records a thread's buffer starts with */

/* A device the profiler has seen; the table and each entry's free events
 * outlive profiles (devices live as long as the process). Under dev_lock;
 * a thread that found ref and ref_ns set for this profile may read them
 * after without it (they change only in the next profile). */
struct pdev {
    em_device *d;
    em_event **free;        /* events ready for reuse */
    int n_free, cap_free;
    unsigned gen;           /* the profile timed and ref belong to */
    int timed;              /* 1 reference taken, -1 it failed: no times */
    em_event *ref;
    int64_t ref_ns;
};

/* One operation as the hot path records it (96 bytes: a record is
 * written to memory no cache holds yet, so its size is much of its cost);
 * em_prof_stop turns it into an em_prof_record. */
struct hrec {
    int64_t host_start, host_end;
    em_device *d;           /* NULL for ranges */
    em_stream *s;           /* NULL: d's default stream */
    const char *op, *detail;/* the name "op detail"; op NULL: at own */
    union {
        struct {            /* WAITING: timing events on d's stream */
            em_event *e0, *e1;
        } ev;
        struct {            /* else: device times, -1 none (yet) */
            int64_t start, end;
        } dev;
    } u;
    uint64_t bytes, size;   /* size: what the name ends with, if sized */
    uint32_t corr;          /* BY_CUPTI: its stream's CUPTI id; BY_CORR: the
                               call's correlation id (0: none) */
    uint32_t own;           /* op NULL: the name's offset in tbuf names */
    uint32_t key;           /* BY_CUPTI kernels: em_prof_name_key of the
                               kernel's own name */
    uint8_t kind, sized, flags, depth;
};
_Static_assert(sizeof(struct hrec) <= 96, "a record fits in 96 bytes");

/* hrec flags: device times to come from its events, from CUPTI's records
 * in its stream's order, or from CUPTI's records of its correlation id. */
enum { WAITING = 1, BY_CUPTI = 2, BY_CORR = 4 };

/* A host thread's buffer. Linked into `threads` (under lock) on its first
 * record and freed by a stop after its thread has exited. recs, the stash
 * and pd are the thread's own while it is busy and a profile records;
 * stop and clear touch them only once no thread can be. */
struct tbuf {
    int busy;               /* see the handshake above */
    int dead;               /* its thread exited */
    struct tbuf *next;
    long tid;
    struct hrec *recs;
    size_t n, cap, first_pending;
    char *names;            /* names that had to be copied, NUL-ended */
    size_t n_names, cap_names;
    const char *last_name;  /* the last name copied, and where its copy is */
    uint32_t last_own;
    struct pdev *spd;       /* the device the stash's events belong to */
    em_event **stash;
    int n_stash, cap_stash;
    struct pdev *pd;        /* the last device timed, in profile pd_gen */
    unsigned pd_gen;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;     /* the profile */
static pthread_mutex_t dev_lock = PTHREAD_MUTEX_INITIALIZER; /* devs[] */
static struct pdev devs[MAX_DEVS];
static int n_devs;
/* Every thread's buffer. A new one is pushed at the head under
 * threads_lock, not lock, so a thread's first record never waits for a
 * stop (which holds lock while it waits for devices); stop reads the list
 * from the head it loads after clearing em_prof_on, as a buffer pushed
 * later cannot hold a record of the profile, and unlinks the buffers of
 * exited threads under both locks. */
static pthread_mutex_t threads_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tbuf *threads;
static em_prof_record *out;             /* the last profile's records */
static size_t n_out, cap_out;
static unsigned gen;        /* bumped by each start; 0 before the first */
static int cupti_on;        /* this profile's CUDA times come from CUPTI */
static int cupti_cb;        /* ... matched by a callback per call */
static em_prof_times times_how;
static pthread_key_t exit_key;
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;

/* The calling thread's buffer, the label for its next launch, the
 * transfer its copies belong to, and its stack of open ranges. The hooks
 * take its address once and pass it on: in a shared library each use of
 * a thread-local variable may be a call to __tls_get_addr. */
static __thread struct tstate {
    struct tbuf *tb;
    const em_function *label_fn;
    const char *label_op, *label_detail;
    int xfer_dir;               /* 0 none, else DIR_H2D/D2H below */
    uint64_t xfer_total, xfer_left;
    struct {
        unsigned gen;           /* 0: not recorded */
        size_t idx;             /* in the thread's buffer */
    } stack[MAX_DEPTH];
    int depth;
    /* CUPTI: the last stream's id (in profile sk_gen) and the last kernel
     * name's key, so a loop on one stream asks CUPTI once and hashes its
     * kernel's name once */
    const em_stream *sk_s;
    const void *sk_impl;
    unsigned sk_gen;
    uint32_t sk_id;
    const em_function *nk_f;
    const char *nk_name;
    uint32_t nk_key;
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

/* dst = a + b + c, cut to n - 1 characters. */
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

/* ---- threads' buffers ---------------------------------------------------- */

static void on_thread_exit(void *p)
{
    __atomic_store_n(&((struct tbuf *)p)->dead, 1, __ATOMIC_RELEASE);
}

static void make_exit_key(void)
{
    if (pthread_key_create(&exit_key, on_thread_exit) != 0)
        exit_key = (pthread_key_t)-1;
}

/* The hot path's helpers are inlined into each hook (HOT), their rare
 * branches kept out of line (COLD): a profiled launch then pays no calls
 * but the backend's and the clock's, and one lookup of the thread's
 * variables where a shared library reaches them through __tls_get_addr. */
#define HOT static inline __attribute__((always_inline))
#define COLD static __attribute__((noinline, cold))

/* The calling thread's buffer, made and linked on its first use; NULL
 * out of memory (the operation then goes unrecorded). */
COLD struct tbuf *tb_make(void)
{
    struct tbuf *tb;
    if (!(tb = calloc(1, sizeof *tb)))
        return NULL;
    tb->tid = (long)syscall(SYS_gettid);
    pthread_once(&exit_once, make_exit_key);
    if (exit_key != (pthread_key_t)-1)
        pthread_setspecific(exit_key, tb);
    pthread_mutex_lock(&threads_lock);
    tb->next = threads;
    __atomic_store_n(&threads, tb, __ATOMIC_SEQ_CST);
    pthread_mutex_unlock(&threads_lock);
    tl.tb = tb;
    return tb;
}

/* &tl, looked up once: hidden from the compiler, which would otherwise
 * look it up again (call __tls_get_addr) wherever it needs it, rather than
 * keep it across a call. */
HOT struct tstate *tstate(void)
{
    struct tstate *t = &tl;
    __asm__("" : "+r"(t));
    return t;
}

HOT struct tbuf *tb_get_in(struct tstate *t)
{
    struct tbuf *tb = t->tb;
    return tb ? tb : tb_make();
}

HOT struct tbuf *tb_get(void) { return tb_get_in(&tl); }

/* Enter the handshake: 1 when a profile records (leave with tb_leave),
 * 0 when none does (nothing to leave). */
HOT int tb_enter(struct tbuf *tb)
{
    __atomic_store_n(&tb->busy, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&em_prof_on, __ATOMIC_SEQ_CST))
        return 1;
    __atomic_store_n(&tb->busy, 0, __ATOMIC_RELEASE);
    return 0;
}

HOT void tb_leave(struct tbuf *tb)
{
    __atomic_store_n(&tb->busy, 0, __ATOMIC_RELEASE);
}

/* A new record at the end of tb's buffer, its fields unset but for the
 * device times (-1: none) and the name parts; NULL out of memory. */
COLD int tb_grow(struct tbuf *tb)
{
    size_t cap = tb->cap ? 2 * tb->cap : FIRST_CAP;
    struct hrec *nr = realloc(tb->recs, cap * sizeof *nr);
    if (!nr)
        return 0;
    tb->recs = nr;
    tb->cap = cap;
    return 1;
}

HOT struct hrec *tb_append(struct tbuf *tb)
{
    struct hrec *r;
    if (tb->n == tb->cap && !tb_grow(tb))
        return NULL;
    r = &tb->recs[tb->n++];
    r->u.dev.start = r->u.dev.end = -1;
    r->op = r->detail = NULL;
    r->bytes = r->size = 0;
    r->corr = r->own = r->key = 0;
    r->sized = r->flags = r->depth = 0;
    return r;
}

/* A name that may not outlive the call, copied (at most 95 characters)
 * to tb's names; out of memory it is "". A loop launching one kernel
 * copies its name once: the same string at the same address as the last
 * one copied shares that copy (compared, as a function freed and another
 * made at its address could have another name). */
static void own_name(struct tbuf *tb, struct hrec *r, const char *name)
{
    size_t len;
    if (!name)
        name = "";
    r->op = NULL;
    if (name == tb->last_name && tb->n_names &&
        !strncmp(tb->names + tb->last_own, name, 95)) {
        r->own = tb->last_own;
        return;
    }
    len = strnlen(name, 95);
    if (tb->cap_names - tb->n_names < len + 1) {
        size_t cap = tb->cap_names ? 2 * tb->cap_names : 16384;
        char *nn = realloc(tb->names, cap);
        if (!nn) {
            r->op = "";
            return;
        }
        tb->names = nn;
        tb->cap_names = cap;
    }
    memcpy(tb->names + tb->n_names, name, len);
    tb->names[tb->n_names + len] = 0;
    r->own = (uint32_t)tb->n_names;
    tb->last_name = name;
    tb->last_own = r->own;
    tb->n_names += len + 1;
}

/* ---- devices and their events (dev_lock) --------------------------------- */

static struct pdev *pdev_of(em_device *d)
{
    for (int i = 0; i < n_devs; i++)
        if (devs[i].d == d)
            return &devs[i];
    if (n_devs == MAX_DEVS)
        return NULL;
    devs[n_devs].d = d;
    return &devs[n_devs++];
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

/* Back to pd's free list, from any thread, at any time. */
static void event_give_locked(struct pdev *pd, em_event *e0, em_event *e1)
{
    pthread_mutex_lock(&dev_lock);
    event_give(pd, e0);
    event_give(pd, e1);
    pthread_mutex_unlock(&dev_lock);
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

/* d's entry with its reference taken in profile g; NULL when its events
 * cannot time (too many devices, or the reference failed). Busy. */
static struct pdev *tb_timed_dev(struct tbuf *tb, em_device *d, unsigned g)
{
    struct pdev *pd;
    if (tb->pd && tb->pd->d == d && tb->pd_gen == g)
        return tb->pd;
    pthread_mutex_lock(&dev_lock);
    if ((pd = pdev_of(d))) {
        if (pd->gen != g) {
            pd->gen = g;
            pd->timed = 0;
        }
        if (pd->timed == 0)
            pdev_time_base(pd);
        if (pd->timed < 0)
            pd = NULL;
    }
    pthread_mutex_unlock(&dev_lock);
    if (pd) {
        tb->pd = pd;
        tb->pd_gen = g;
    }
    return pd;
}

/* Hand tb's stash back to its device. */
static void stash_return(struct tbuf *tb)
{
    if (!tb->spd || !tb->n_stash)
        return;
    pthread_mutex_lock(&dev_lock);
    while (tb->n_stash > 0)
        event_give(tb->spd, tb->stash[--tb->n_stash]);
    pthread_mutex_unlock(&dev_lock);
}

static int stash_push(struct tbuf *tb, em_event *e)
{
    if (tb->n_stash == tb->cap_stash) {
        int cap = tb->cap_stash ? 2 * tb->cap_stash : STASH_BATCH;
        em_event **s = realloc(tb->stash, (size_t)cap * sizeof *s);
        if (!s)
            return 0;
        tb->stash = s;
        tb->cap_stash = cap;
    }
    tb->stash[tb->n_stash++] = e;
    return 1;
}

/* An event of pd's device from tb's stash, refilled from pd's free list
 * (and made new when that is short) STASH_BATCH at a time. Busy. */
static em_event *event_take(struct tbuf *tb, struct pdev *pd)
{
    if (tb->spd != pd) {
        stash_return(tb);
        tb->spd = pd;
    }
    if (tb->n_stash == 0) {
        int want = STASH_BATCH;
        pthread_mutex_lock(&dev_lock);
        while (want > 0 && pd->n_free > 0 && stash_push(tb, pd->free[pd->n_free - 1])) {
            pd->n_free--;
            want--;
        }
        pthread_mutex_unlock(&dev_lock);
        while (want-- > 0) {
            em_event *e = NULL;
            if (em_event_create(pd->d, 0, &e) != EM_OK)
                break;
            if (!stash_push(tb, e)) {
                em_event_destroy(e);
                break;
            }
        }
        if (tb->n_stash == 0)
            return NULL;
    }
    return tb->stash[--tb->n_stash];
}

/* Events back to tb's stash (or, another device's, to that device). Busy. */
static void event_put(struct tbuf *tb, struct pdev *pd, em_event *e0, em_event *e1)
{
    if (pd == tb->spd) {
        if (e0 && !stash_push(tb, e0))
            event_give_locked(pd, e0, NULL);
        if (e1 && !stash_push(tb, e1))
            event_give_locked(pd, e1, NULL);
        return;
    }
    if (pd)
        event_give_locked(pd, e0, e1);
}

/* The entry of a device whose events a record holds (made when they
 * were taken). */
static struct pdev *pdev_find(em_device *d)
{
    struct pdev *pd;
    pthread_mutex_lock(&dev_lock);
    pd = pdev_of(d);
    pthread_mutex_unlock(&dev_lock);
    return pd;
}

/* Fill in r's device times from its events, which must have completed,
 * and give the events back (to tb's stash when tb is not NULL). */
static void resolve(struct hrec *r, struct pdev *pd, struct tbuf *tb)
{
    const struct em_backend_ops *ops = pd->d->ops;
    em_event *e0 = r->u.ev.e0, *e1 = r->u.ev.e1;
    float off = 0, dur = 0;
    r->flags &= (uint8_t)~WAITING;
    r->u.dev.start = r->u.dev.end = -1;
    if (ops->event_elapsed_ms(pd->ref, e0, &off) == EM_OK &&
        ops->event_elapsed_ms(e0, e1, &dur) == EM_OK) {
        r->u.dev.start = pd->ref_ns + (int64_t)((double)off * 1e6);
        r->u.dev.end = r->u.dev.start + (int64_t)((double)dur * 1e6);
    }
    if (tb)
        event_put(tb, pd, e0, e1);
    else
        event_give_locked(pd, e0, e1);
}

/* Resolve tb's oldest waiting records whose work is done, without
 * waiting; stops at the first still running. Busy. */
static void tb_resolve_ready(struct tbuf *tb)
{
    struct pdev *pd = NULL;
    while (tb->first_pending < tb->n) {
        struct hrec *r = &tb->recs[tb->first_pending];
        int done = 0;
        if (r->flags & WAITING) {
            if (r->d->ops->event_query(r->u.ev.e1, &done) != EM_OK || !done)
                return;
            if (!pd || pd->d != r->d)
                pd = pdev_find(r->d);
            resolve(r, pd, tb);
        }
        tb->first_pending++;
    }
}

/* ---- timing an operation ------------------------------------------------ */

/* What span_begin found out for span_end. */
struct span {
    unsigned gen;           /* the profile it began in */
    struct pdev *pd;
    em_event *e0, *e1;      /* timing events, e0 recorded */
    struct tstate *t;       /* the calling thread's */
    int host_sync;          /* the operation runs inside the call */
    int cupti;              /* CUPTI times it: 0 no, else BY_CUPTI or BY_CORR */
    const em_function *fn; /* a launch's kernel, for its name's key */
    int64_t t0;
};

/* Before the operation. The cpu device's default stream runs it on the
 * calling thread before the call returns (backend/host.c), so there the
 * call's own host time is the device time; CUPTI needs only the stream's
 * id (or for a graph replay, by_corr, the call's correlation id), read
 * after it; a capture refuses event records; the rest get two events, the
 * first recorded on s now. */
HOT void span_begin(struct span *sp, struct tstate *t, em_device *d, em_stream *s,
                    int by_corr)
{
    int capture = em_rt_capture_of(s) != NULL || d->capturing != NULL;
    struct tbuf *tb;
    sp->t = t;
    sp->pd = NULL;
    sp->e0 = sp->e1 = NULL;
    sp->host_sync = sp->cupti = 0;
    sp->fn = NULL;
    sp->gen = __atomic_load_n(&gen, __ATOMIC_RELAXED);
    if (d->type == EM_DEVICE_CPU && s->is_default && !capture) {
        sp->host_sync = 1;
    } else if (__atomic_load_n(&cupti_on, __ATOMIC_RELAXED) &&
               d->type == EM_DEVICE_CUDA && !capture) {
        sp->cupti = by_corr || __atomic_load_n(&cupti_cb, __ATOMIC_RELAXED)
                  ? BY_CORR : BY_CUPTI;
        if (by_corr)
            em_prof_cupti_need_corr();    /* a graph replay's call is caught */
        if (sp->cupti == BY_CORR)
            (void)em_prof_cupti_take();   /* an id left by an earlier call */
    } else if (!capture && (tb = tb_get_in(t)) && tb_enter(tb)) {
        sp->gen = __atomic_load_n(&gen, __ATOMIC_RELAXED);
        if ((sp->pd = tb_timed_dev(tb, d, sp->gen)) &&
            (sp->e0 = event_take(tb, sp->pd)) && !(sp->e1 = event_take(tb, sp->pd))) {
            event_put(tb, sp->pd, sp->e0, NULL);
            sp->e0 = NULL;
        }
        tb_leave(tb);
        if (sp->e0 && d->ops->event_record(sp->e0, s) != EM_OK) {
            event_give_locked(sp->pd, sp->e0, sp->e1);
            sp->e0 = sp->e1 = NULL;
        }
    }
    sp->t0 = now_ns();
}

/* CUPTI's id of s, asked once per stream while a thread keeps launching
 * on it (the launch has just made d's context current). */
HOT uint32_t stream_key(struct tstate *t, em_device *d, em_stream *s, unsigned g)
{
    if (s == t->sk_s && s->impl == t->sk_impl && g == t->sk_gen)
        return t->sk_id;
    t->sk_id = em_prof_cupti_stream(d, s);
    t->sk_s = s;
    t->sk_impl = s->impl;
    t->sk_gen = g;
    return t->sk_id;
}

/* The key of f's name, hashed once per run of launches of f (f and its
 * name's copy both the same: a function freed and another made at its
 * address would need its name copied to the same address too). */
HOT uint32_t name_key(struct tstate *t, const em_function *f)
{
    if (f != t->nk_f || f->name != t->nk_name) {
        t->nk_f = f;
        t->nk_name = f->name;
        t->nk_key = em_prof_name_key(f->name);
    }
    return t->nk_key;
}

/* After it: the second event, then the record, named op + " " + detail
 * or, with op NULL, a copy of own (dropped, events and all, when the
 * operation failed or the profile it began in has ended). */
HOT void span_end(struct span *sp, em_device *d, em_stream *s, em_status st,
                     em_prof_kind kind, const char *op, const char *detail,
                     const char *own, uint64_t bytes, int sized, uint64_t size)
{
    /* first: the backend's call must be the last driver call read */
    uint32_t corr = sp->cupti == BY_CORR ? em_prof_cupti_take() : 0, key = 0;
    int64_t t1 = now_ns();
    int timed = sp->e0 && st == EM_OK && d->ops->event_record(sp->e1, s) == EM_OK;
    struct tbuf *tb = tb_get_in(sp->t);
    struct hrec *r = NULL;
    if (tb && tb_enter(tb)) {
        if (st == EM_OK && sp->gen == gen && (r = tb_append(tb))) {
            r->kind = (uint8_t)kind;
            if (op) {
                r->op = op;
                r->detail = detail;
            } else {
                own_name(tb, r, own);
            }
            r->d = d;
            r->s = s;
            r->bytes = bytes;
            r->sized = (uint8_t)sized;
            r->size = size;
            r->host_start = sp->t0;
            r->host_end = t1;
            if (sp->host_sync) {
                r->u.dev.start = sp->t0;
                r->u.dev.end = t1;
            }
            /* CUPTI's stream id and the name's key: outside the call's host
             * time, and while the stop waits for this thread, so CUPTI is
             * still there to ask */
            if (sp->cupti == BY_CUPTI) {
                corr = stream_key(sp->t, d, s, sp->gen);
                if (sp->fn)
                    key = name_key(sp->t, sp->fn);
            }
            r->flags = (uint8_t)sp->cupti;
            r->corr = corr;
            r->key = key;
            if (timed) {
                r->flags |= WAITING;
                r->u.ev.e0 = sp->e0;
                r->u.ev.e1 = sp->e1;
                sp->e0->recorded = sp->e1->recorded = 1;
                sp->e0 = sp->e1 = NULL;
                if (tb->n - tb->first_pending > RESOLVE_AFTER)
                    tb_resolve_ready(tb);
            }
        }
        if (sp->e0)
            event_put(tb, sp->pd, sp->e0, sp->e1);
        tb_leave(tb);
    } else if (sp->e0) {
        event_give_locked(sp->pd, sp->e0, sp->e1);
    }
}

/* A record of host time only (allocations, synchronizes, a cpu device's
 * transfer): dev_start/dev_end as given (-1: none). */
static void host_record(em_prof_kind kind, const char *name, em_device *d,
                        em_stream *s, uint64_t bytes, int sized, uint64_t size,
                        int64_t t0, int64_t t1, int64_t dev0, int64_t dev1)
{
    struct tbuf *tb = tb_get();
    struct hrec *r;
    if (!tb || !tb_enter(tb))
        return;
    if ((r = tb_append(tb))) {
        r->kind = (uint8_t)kind;
        r->op = name;
        r->d = d;
        r->s = s;
        r->bytes = bytes;
        r->sized = (uint8_t)sized;
        r->size = size;
        r->host_start = t0;
        r->host_end = t1;
        r->u.dev.start = dev0;
        r->u.dev.end = dev1;
    }
    tb_leave(tb);
}

/* ---- the hooks ---------------------------------------------------------- */

em_status em_prof_launch(em_function *f, const em_launch_config *c,
                         em_stream *s, void **args, em_prof_launch_fn run)
{
    em_device *d = f->module->dev;
    const char *op = NULL, *detail = NULL;
    struct tstate *t = tstate();
    struct span sp;
    em_status st;
    if (t->label_fn == f) {
        op = t->label_op;
        detail = t->label_detail;
        t->label_fn = NULL;
    }
    span_begin(&sp, t, d, s, 0);
    sp.fn = f;
    st = run(f, c, s, args);
    span_end(&sp, d, s, st, EM_PROF_KERNEL, op, detail, f->name, 0, 0, 0);
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
static uint64_t copy_size(struct tstate *t, int dir, uint64_t bytes)
{
    if (t->xfer_dir == dir && bytes <= t->xfer_left) {
        if ((t->xfer_left -= bytes) == 0)
            t->xfer_dir = 0;
        return t->xfer_total;
    }
    return bytes;
}

em_status em_prof_copy(em_device *d, void *dst, const void *src, size_t n,
                       em_stream *s)
{
    struct tstate *t = tstate();
    int dir = copy_dir(d, dst, src);
    uint64_t size = copy_size(t, dir, n);
    struct span sp;
    em_status st;
    span_begin(&sp, t, d, s, 0);
    st = d->ops->memcpy_async(d, dst, src, n, s);
    span_end(&sp, d, s, st, EM_PROF_COPY, dir_names[dir], NULL, NULL, n, 1, size);
    return st;
}

em_status em_prof_fill(em_device *d, void *dst, int value, size_t n,
                       em_stream *s)
{
    struct span sp;
    em_status st;
    span_begin(&sp, tstate(), d, s, 0);
    st = d->ops->memset_async(d, dst, value, n, s);
    span_end(&sp, d, s, st, EM_PROF_FILL, "memset", NULL, NULL, n, 1, n);
    return st;
}

em_status em_prof_graph(em_device *d, void *graph, em_stream *s)
{
    struct span sp;
    em_status st;
    span_begin(&sp, tstate(), d, s, 1);
    st = d->ops->graph_launch(d, graph, s);
    span_end(&sp, d, s, st, EM_PROF_GRAPH, "graph replay", NULL, NULL, 0, 0, 0);
    return st;
}

void em_prof_alloc(em_device *d, size_t n, em_stream *s)
{
    int64_t t = now_ns();
    host_record(EM_PROF_ALLOC, "alloc", d, s, n, 1, n, t, t, -1, -1);
}

em_status em_prof_sync(em_device *d, em_stream *s)
{
    int64_t t0 = now_ns();
    em_status st = s ? d->ops->stream_synchronize(s) : d->ops->synchronize(d);
    host_record(EM_PROF_SYNC, s ? "synchronize stream" : "synchronize device",
                d, s, 0, 0, 0, t0, now_ns(), -1, -1);
    return st;
}

int64_t em_prof_transfer(em_device *d, int to_host, uint64_t nbytes)
{
    (void)d;
    tl.xfer_dir = to_host ? DIR_D2H : DIR_H2D;
    tl.xfer_total = tl.xfer_left = nbytes;
    return now_ns();
}

/* A host copy on the calling thread: its device time is its host time
 * (the cpu device's clock). */
void em_prof_transfer_done(em_device *d, em_stream *s, int to_host,
                           uint64_t nbytes, int64_t t0)
{
    int dir = to_host ? DIR_D2H : DIR_H2D;
    uint64_t size = copy_size(&tl, dir, nbytes);
    int64_t t1 = now_ns();
    host_record(EM_PROF_COPY, dir_names[dir], d, s, nbytes, 1, size, t0, t1, t0, t1);
}

void em_prof_label(const em_function *f, const char *op, const char *detail)
{
    tl.label_fn = f;
    tl.label_op = op;
    tl.label_detail = detail;
}

/* ---- starting and stopping ---------------------------------------------- */

em_status em_prof_start(void) { return em_prof_start_with(EM_PROF_TIMES_AUTO); }

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
    if (how == EM_PROF_TIMES_AUTO) {
        /* CUPTI where a GPU is in use and CUPTI can be had: it costs the
         * launch far less than two event records */
        how = EM_PROF_TIMES_EVENTS;
        if (em_rt_backend_usable(EM_DEVICE_CUDA)) {
            if (em_prof_cupti_begin() == EM_OK)
                how = EM_PROF_TIMES_CUPTI;
            else
                em_log(EM_LOG_INFO, "profile", "device times from events: %s",
                       em_last_error());
        }
    } else if (how == EM_PROF_TIMES_CUPTI && (st = em_prof_cupti_begin()) != EM_OK) {
        pthread_mutex_unlock(&lock);
        return st;
    }
    __atomic_store_n(&cupti_cb, how == EM_PROF_TIMES_CUPTI && em_prof_cupti_by_callback(),
                     __ATOMIC_RELAXED);
    __atomic_store_n(&cupti_on, how == EM_PROF_TIMES_CUPTI, __ATOMIC_RELAXED);
    times_how = how;
    n_out = 0;
    __atomic_store_n(&gen, gen + 1, __ATOMIC_RELAXED);
    tl.label_fn = NULL;
    tl.xfer_dir = 0;
    __atomic_store_n(&em_prof_on, 1, __ATOMIC_SEQ_CST);
    pthread_mutex_unlock(&lock);
    return EM_OK;
}

/* Stream numbers of this stop's records: per device, 0 the default
 * stream, then the others in the order records first name them. */
static struct {
    em_device *d;
    em_stream *s[MAX_STREAMS];
    int n;
} sids[MAX_DEVS];
static int n_sids;

static int stream_number(em_device *d, em_stream *s)
{
    int i;
    if (!s || s == d->default_stream)
        return 0;
    for (i = 0; i < n_sids && sids[i].d != d; i++)
        ;
    if (i == n_sids) {
        if (n_sids == MAX_DEVS)
            return MAX_STREAMS - 1;
        sids[n_sids].d = d;
        sids[n_sids++].n = 1;
    }
    for (int k = 1; k < sids[i].n; k++)
        if (sids[i].s[k] == s)
            return k;
    if (sids[i].n == MAX_STREAMS)
        return MAX_STREAMS - 1;
    sids[i].s[sids[i].n] = s;
    return sids[i].n++;
}

/* The order records are listed in: when the call returned, ranges when
 * they began. */
static int64_t order_key(const struct hrec *r)
{
    return r->kind == EM_PROF_RANGE ? r->host_start : r->host_end;
}

/* r, of tb, as em_prof_record o (its names written out now). */
static void write_out(em_prof_record *o, const struct hrec *r,
                      const struct tbuf *tb, int thread)
{
    o->kind = (em_prof_kind)r->kind;
    if (r->op)
        cat3(o->name, sizeof o->name, r->op, r->detail ? " " : NULL, r->detail);
    else
        cat3(o->name, sizeof o->name, tb->names + r->own, NULL, NULL);
    if (r->sized) {
        char sz[32];
        size_t len = strlen(o->name);
        fmt_bytes(sz, sizeof sz, r->size);
        cat3(o->name + len, sizeof o->name - len, " ", sz, NULL);
    }
    cat3(o->device, sizeof o->device, r->d ? r->d->name : "", NULL, NULL);
    o->stream = r->kind == EM_PROF_RANGE ? -1 : stream_number(r->d, r->s);
    o->thread = thread;
    o->tid = tb->tid;
    o->depth = r->depth;
    o->bytes = r->bytes;
    o->host_start = r->host_start;
    o->host_end = r->host_end;
    o->dev_start = r->u.dev.start;
    o->dev_end = r->u.dev.end;
}

/* Merge the buffers from head on into out[], in order_key order (each
 * buffer is in that order already); threads are numbered by their first
 * record. Under lock, no thread busy. */
static em_status merge(struct tbuf *head)
{
    size_t total = 0;
    int n_tb = 0, numbered = 0;
    struct tbuf *tb;
    struct cursor {
        struct tbuf *tb;
        size_t at;
        int thread;
    } *cur;
    for (tb = head; tb; tb = tb->next)
        if (tb->n) {
            total += tb->n;
            n_tb++;
        }
    n_out = 0;
    n_sids = 0;
    if (!total)
        return EM_OK;
    if (total > cap_out) {
        em_prof_record *o = realloc(out, total * sizeof *o);
        if (!o)
            return em_error(EM_ERR_OUT_OF_MEMORY, "out of host memory for the "
                            "profile's %zu records", total);
        out = o;
        cap_out = total;
    }
    if (!(cur = calloc((size_t)n_tb, sizeof *cur)))
        return em_error(EM_ERR_OUT_OF_MEMORY, "out of host memory merging the "
                        "profile's records");
    n_tb = 0;
    for (tb = head; tb; tb = tb->next)
        if (tb->n) {
            cur[n_tb].tb = tb;
            cur[n_tb++].thread = -1;
        }
    while (n_out < total) {
        int best = -1;
        int64_t k = 0;
        for (int i = 0; i < n_tb; i++) {
            int64_t ki;
            if (cur[i].at == cur[i].tb->n)
                continue;
            ki = order_key(&cur[i].tb->recs[cur[i].at]);
            if (best < 0 || ki < k) {
                best = i;
                k = ki;
            }
        }
        if (cur[best].thread < 0)
            cur[best].thread = numbered++;
        write_out(&out[n_out++], &cur[best].tb->recs[cur[best].at++],
                  cur[best].tb, cur[best].thread);
    }
    free(cur);
    return EM_OK;
}

/* Device times from CUPTI for the records of the buffers from head on:
 * by correlation id first (graph replays; every record when matching by
 * callback), which sets those activities aside, then the rest in their
 * streams' order. Out of memory for the pairing, records keep no times.
 * Under lock, no thread busy, devices idle. */
static void cupti_times(struct tbuf *head)
{
    struct tbuf *tb;
    em_prof_call *calls;
    size_t n = 0, k = 0;
    const em_device *ctx_dev = NULL;
    uint32_t ctx_id = EM_PROF_NO_CONTEXT;
    em_prof_cupti_end();
    em_prof_cupti_sort();
    for (tb = head; tb; tb = tb->next)
        for (size_t i = 0; i < tb->n; i++) {
            struct hrec *r = &tb->recs[i];
            if ((r->flags & BY_CORR) &&
                (!r->corr || !em_prof_cupti_times(r->corr, &r->u.dev.start,
                                                  &r->u.dev.end)))
                r->u.dev.start = r->u.dev.end = -1;
            n += (r->flags & BY_CUPTI) != 0;
        }
    if (!n || !(calls = malloc(n * sizeof *calls)))
        return;
    for (tb = head; tb; tb = tb->next)
        for (size_t i = 0; i < tb->n; i++) {
            struct hrec *r = &tb->recs[i];
            if (!(r->flags & BY_CUPTI))
                continue;
            if (r->d != ctx_dev) {   /* records run in long stretches per device */
                ctx_dev = r->d;
                ctx_id = em_prof_cupti_context(r->d);
            }
            calls[k].context = ctx_id;
            calls[k].stream = r->corr;
            calls[k].kind = r->kind;
            calls[k].key = r->key;
            calls[k].bytes = r->bytes;
            calls[k].order = r->host_start;
            calls[k].tag = (size_t)(uintptr_t)r;
            k++;
        }
    em_prof_cupti_match(calls, n);
    for (k = 0; k < n; k++) {
        struct hrec *r = (struct hrec *)(uintptr_t)calls[k].tag;
        r->u.dev.start = calls[k].start;
        r->u.dev.end = calls[k].end;
    }
    free(calls);
}

em_status em_prof_stop(void)
{
    em_status st = EM_OK, rc;
    int64_t t = now_ns();
    struct tbuf *tb, *head, **link;
    em_device *synced[MAX_DEVS];
    int n_synced = 0;
    pthread_mutex_lock(&lock);
    if (!em_prof_on) {
        pthread_mutex_unlock(&lock);
        return em_error(EM_ERR_INVALID_VALUE, "no profile is recording");
    }
    __atomic_store_n(&em_prof_on, 0, __ATOMIC_SEQ_CST);
    head = __atomic_load_n(&threads, __ATOMIC_SEQ_CST);
    /* the handshake: after this no thread writes its buffer */
    for (tb = head; tb; tb = tb->next)
        while (__atomic_load_n(&tb->busy, __ATOMIC_SEQ_CST))
            sched_yield();
    /* Wait once for each device whose work is timed by events or CUPTI:
     * then every event has completed and CUPTI holds every record. */
    for (tb = head; tb; tb = tb->next)
        for (size_t i = 0; i < tb->n; i++) {
            struct hrec *r = &tb->recs[i];
            int k;
            if (r->kind == EM_PROF_RANGE && r->host_end < 0)
                r->host_end = t;   /* ranges still open end here */
            if (!(r->flags & (WAITING | BY_CUPTI | BY_CORR)))
                continue;
            for (k = 0; k < n_synced && synced[k] != r->d; k++)
                ;
            if (k == n_synced && n_synced < MAX_DEVS) {
                synced[n_synced++] = r->d;
                rc = r->d->ops->synchronize(r->d);
                if (rc != EM_OK && st == EM_OK)
                    st = rc;   /* the backend's message names the failure */
            }
        }
    for (tb = head; tb; tb = tb->next) {
        struct pdev *pd = NULL;
        for (size_t i = 0; i < tb->n; i++) {
            struct hrec *r = &tb->recs[i];
            if (!(r->flags & WAITING))
                continue;
            if (!pd || pd->d != r->d)
                pd = pdev_find(r->d);
            resolve(r, pd, NULL);
        }
    }
    if (cupti_on) {
        cupti_times(head);
        __atomic_store_n(&cupti_on, 0, __ATOMIC_RELAXED);
    }
    if ((rc = merge(head)) != EM_OK && st == EM_OK)
        st = rc;
    /* empty the buffers; free those of threads that have exited */
    pthread_mutex_lock(&threads_lock);
    for (link = &threads; (tb = *link);) {
        tb->n = tb->first_pending = tb->n_names = 0;
        if (__atomic_load_n(&tb->dead, __ATOMIC_ACQUIRE)) {
            *link = tb->next;
            stash_return(tb);
            free(tb->stash);
            free(tb->names);
            free(tb->recs);
            free(tb);
        } else {
            link = &tb->next;
        }
    }
    pthread_mutex_unlock(&threads_lock);
    pthread_mutex_unlock(&lock);
    return st;
}

size_t em_prof_count(void) { return n_out; }

const em_prof_record *em_prof_records(void) { return n_out ? out : NULL; }

void em_prof_clear(void)
{
    pthread_mutex_lock(&lock);
    if (!em_prof_on) {
        n_out = 0;
        for (struct tbuf *tb = __atomic_load_n(&threads, __ATOMIC_SEQ_CST); tb;
             tb = tb->next)
            stash_return(tb);
        pthread_mutex_lock(&dev_lock);
        for (int i = 0; i < n_devs; i++)
            while (devs[i].n_free > 0)
                em_event_destroy(devs[i].free[--devs[i].n_free]);
        pthread_mutex_unlock(&dev_lock);
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
    struct tbuf *tb;
    struct hrec *r;
    if (em_prof_nvtx_attached())
        nvtx.push(name ? name : "");
    if (i >= MAX_DEPTH)
        return;
    tl.stack[i].gen = 0;
    if (!em_prof_on || !(tb = tb_get()) || !tb_enter(tb))
        return;
    if ((r = tb_append(tb))) {
        unsigned g = __atomic_load_n(&gen, __ATOMIC_RELAXED);
        int depth = 0;
        for (int k = 0; k < i; k++)
            depth += tl.stack[k].gen == g;
        r->kind = EM_PROF_RANGE;
        own_name(tb, r, name);
        r->d = NULL;
        r->s = NULL;
        r->depth = (uint8_t)(depth < 255 ? depth : 255);
        r->host_start = now_ns();
        r->host_end = -1;
        tl.stack[i].gen = g;
        tl.stack[i].idx = tb->n - 1;
    }
    tb_leave(tb);
}

void em_prof_range_pop(void)
{
    struct tbuf *tb = tl.tb;
    int i;
    if (tl.depth == 0)
        return;
    i = --tl.depth;
    if (nvtx_state > 0)
        nvtx.pop();
    if (i >= MAX_DEPTH || tl.stack[i].gen == 0 || !tb || !tb_enter(tb))
        return;
    /* the profile it began in still holds the record (not stopped) */
    if (tl.stack[i].gen == __atomic_load_n(&gen, __ATOMIC_RELAXED) &&
        tl.stack[i].idx < tb->n && tb->recs[tl.stack[i].idx].host_end < 0)
        tb->recs[tl.stack[i].idx].host_end = now_ns();
    tb_leave(tb);
}
