/* ember host backend: the CPU as a device.
 *
 * Memory is ordinary aligned host memory. The default stream runs each
 * operation on the calling thread, after the blocking streams have drained
 * (CUDA's legacy default stream). A created stream is a queue with one
 * worker thread that runs its operations in order; launches from any
 * stream spread their blocks over the shared pool (threadpool.c). Modules
 * are shared objects made by host_compile.c and opened with dlopen. A
 * kernel whose threads cooperate has a simulator launcher instead of the
 * plain one, and each of its blocks runs as fibers (host_sim.c); plain
 * kernels keep the loop over threads and pay nothing for that.
 */
#define _GNU_SOURCE 1   /* mkstemps */
#include <dlfcn.h>
#include <link.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend/backend.h"
#include "backend/cuda_api.h" /* CUDA's attribute numbers, which cpu answers */
#include "backend/host_sim.h"
#include "backend/host_names.h"
#include "backend/threadpool.h"

/* The launcher every kernel gets (see host_compile.c): runs all threads of
 * blocks [begin, end). dims = grid xyz, block xyz. */
typedef void (*host_blocks_fn)(void **args, const unsigned *dims,
                               unsigned long long begin,
                               unsigned long long end);

typedef struct host_stream host_stream;

typedef struct host_device {
    pthread_mutex_t lock;      /* guards the stream list */
    host_stream *streams;      /* created streams, newest first */
    int busy_blocking;         /* atomic: blocking streams with queued work */
    int busy;                  /* atomic: streams with queued work */
} host_device;

typedef struct host_event {
    pthread_mutex_t lock;
    pthread_cond_t done;       /* `completed` advanced */
    uint64_t issued;           /* records enqueued so far */
    uint64_t completed;        /* the highest record reached */
    struct timespec when;      /* when `completed` was reached */
    int refs;                  /* the handle, plus queued ops that use it */
} host_event;

enum { OP_LAUNCH, OP_COPY, OP_SET, OP_RECORD, OP_WAIT, OP_GRAPH, OP_CALL };

typedef struct host_graph host_graph;

typedef struct host_op {
    struct host_op *next;
    int kind;
    union {
        struct {
            host_blocks_fn run;
            em_sim_blocks_fn sim;
            const char *name;
            size_t stack_need;
            unsigned dims[6];
            void **argv;       /* into this op's allocation */
        } launch;
        struct { void *dst; const void *src; size_t n; } copy;
        struct { void *dst; int value; size_t n; } set;
        struct { host_event *ev; uint64_t gen; } event;
        host_graph *graph;     /* a reference held until it has run */
        struct { em_status (*fn)(void *); void *ctx; } call; /* ctx: in the op */
    } u;
} host_op;

/* A captured graph: the ops a capturing stream was given, kept, run in
 * order by each replay (no re-dispatch: the launches keep their packed
 * arguments). `refs`: the handle, plus each queued replay. */
struct host_graph {
    host_op *head, *tail;
    int refs;
};

struct host_stream {
    host_stream *next;         /* in the device's list */
    host_device *hd;
    em_stream *owner;          /* the em_stream it was made for */
    int blocking;
    pthread_mutex_t lock;
    pthread_cond_t work;       /* an op was queued, or stop */
    pthread_cond_t drained;    /* `completed` advanced */
    host_op *head, *tail;
    uint64_t enqueued, completed;
    int stop;
    host_graph *cap;           /* capturing: ops go here, not to the queue */
    em_status err;             /* the first asynchronous failure, sticky */
    int err_reported;
    char errmsg[1024];
    pthread_t thread;
};

typedef struct host_function {
    host_blocks_fn run;        /* the plain launcher, or NULL */
    em_sim_blocks_fn sim;      /* the simulator's, or NULL */
    size_t stack_need;         /* its module's large frames, or 0 */
    int n_params;
    size_t *offsets;           /* of each value in a queued launch's copy */
    size_t buf_size;
} host_function;

/* ---- raw memory --------------------------------------------------------- */

/* Every live allocation, sorted by address, so that a copy can tell the
 * device's memory from a caller's pageable buffer. The runtime's pool
 * makes allocations rare, so a sorted array is enough. */
typedef struct range { uintptr_t base; size_t size; } range;

static struct {
    pthread_mutex_t lock;
    range *r;
    size_t n, cap;
} allocs = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Index of the first range with base > p. */
static size_t range_upper(uintptr_t p)
{
    size_t lo = 0, hi = allocs.n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (allocs.r[mid].base <= p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int is_device_memory(const void *p)
{
    uintptr_t a = (uintptr_t)p;
    size_t i;
    int found = 0;
    pthread_mutex_lock(&allocs.lock);
    i = range_upper(a);
    if (i > 0) {
        const range *r = &allocs.r[i - 1];
        found = a - r->base < (r->size ? r->size : 1);
    }
    pthread_mutex_unlock(&allocs.lock);
    return found;
}

static em_status host_mem_alloc(em_device *d, size_t n, void **p)
{
    void *q = NULL;
    int rc;
    size_t i;
    (void)d;
    if (!p)
        return em_error(EM_ERR_INVALID_VALUE, "cpu mem_alloc: p is NULL");
    /* No object may exceed PTRDIFF_MAX; saying so here also spares
     * sanitizer allocators, which abort on such requests. */
    if (n > (size_t)PTRDIFF_MAX - 256)
        return em_error(EM_ERR_OUT_OF_MEMORY, "cpu: cannot allocate %zu bytes "
                        "of host memory (more than any address space holds)", n);
    /* Size 0 still gets its own byte, so that pointers stay distinct. */
    rc = posix_memalign(&q, 256, n ? n : 1);
    if (rc)
        return em_error_native(EM_ERR_OUT_OF_MEMORY, rc, "errno",
                               "cpu: cannot allocate %zu bytes of host memory "
                               "(posix_memalign: %s)", n, strerror(rc));
    pthread_mutex_lock(&allocs.lock);
    if (allocs.n == allocs.cap) {
        size_t cap = allocs.cap ? allocs.cap * 2 : 64;
        range *r = realloc(allocs.r, cap * sizeof *r);
        if (!r) {
            pthread_mutex_unlock(&allocs.lock);
            free(q);
            return em_error(EM_ERR_OUT_OF_MEMORY, "cpu: cannot allocate %zu "
                            "bytes: the allocation table cannot grow", n);
        }
        allocs.r = r;
        allocs.cap = cap;
    }
    i = range_upper((uintptr_t)q);
    memmove(&allocs.r[i + 1], &allocs.r[i], (allocs.n - i) * sizeof *allocs.r);
    allocs.r[i].base = (uintptr_t)q;
    allocs.r[i].size = n;
    allocs.n++;
    pthread_mutex_unlock(&allocs.lock);
    *p = q;
    return EM_OK;
}

static em_status host_mem_free(em_device *d, void *p)
{
    size_t i;
    (void)d;
    if (!p)
        return EM_OK;
    pthread_mutex_lock(&allocs.lock);
    i = range_upper((uintptr_t)p);
    if (i == 0 || allocs.r[i - 1].base != (uintptr_t)p) {
        pthread_mutex_unlock(&allocs.lock);
        return em_error(EM_ERR_INVALID_VALUE, "cpu mem_free(%p): not an "
                        "allocation of the cpu device, or already freed", p);
    }
    memmove(&allocs.r[i - 1], &allocs.r[i], (allocs.n - i) * sizeof *allocs.r);
    allocs.n--;
    pthread_mutex_unlock(&allocs.lock);
    free(p);
    return EM_OK;
}

/* Large copies and fills are split over the pool: one core cannot reach
 * the memory bandwidth of a many-core machine. */
#define PAR_BYTES_MIN ((size_t)8 << 20)
#define PAR_CHUNK_MIN ((size_t)2 << 20)

typedef struct bulk {
    void *dst;
    const void *src;
    int value;
    size_t n, chunk;
} bulk;

static void bulk_task(void *ctx, size_t t)
{
    const bulk *b = ctx;
    size_t off = t * b->chunk, len = b->n - off < b->chunk ? b->n - off : b->chunk;
    if (b->src)
        memcpy((char *)b->dst + off, (const char *)b->src + off, len);
    else
        memset((char *)b->dst + off, b->value, len);
}

static void bulk_run(void *dst, const void *src, int value, size_t n)
{
    bulk b = {dst, src, value, n, 0};
    size_t tasks;
    uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
    int overlap = src && d < s + n && s < d + n;
    if (n < PAR_BYTES_MIN || overlap) {
        if (!src)
            memset(dst, value, n);
        else if (dst != src)
            memmove(dst, src, n);
        return;
    }
    tasks = (size_t)em_host_thread_count();
    if (tasks > n / PAR_CHUNK_MIN)
        tasks = n / PAR_CHUNK_MIN;
    b.chunk = ((n + tasks - 1) / tasks + 4095) & ~(size_t)4095;
    em_host_parallel_for((n + b.chunk - 1) / b.chunk, bulk_task, &b);
}

/* ---- grids -------------------------------------------------------------- */

/* A task should cover about this many kernel threads, so that waking pool
 * threads costs little against the work. */
#define THREADS_PER_TASK 4096

typedef struct grid {
    host_blocks_fn run;
    em_sim_blocks_fn sim;
    em_sim_launch *launch;
    void **argv;
    const unsigned *dims;
    unsigned long long n_blocks, per_task;
} grid;

static void grid_task(void *ctx, size_t t)
{
    const grid *g = ctx;
    unsigned long long b0 = (unsigned long long)t * g->per_task;
    unsigned long long b1 = g->n_blocks - b0 < g->per_task ? g->n_blocks
                                                           : b0 + g->per_task;
    if (g->sim)
        g->sim(g->launch, &em_host_sim_ops, g->argv, g->dims, b0, b1);
    else
        g->run(g->argv, g->dims, b0, b1);
}

/* Run the grid: with the plain launcher run, or with the simulator's sim
 * (then a failure of any block, reported by the pool thread that ran it,
 * becomes this thread's error). name is the kernel's, for messages. */
static em_status grid_run(host_blocks_fn run, em_sim_blocks_fn sim,
                          const char *name, size_t stack_need, void **argv,
                          const unsigned *dims)
{
    em_sim_launch launch;
    grid g = {run, sim, NULL, argv, dims, 0, 0};
    unsigned long long threads = (unsigned long long)dims[3] * dims[4] * dims[5];
    unsigned long long min_blocks, tasks, max_tasks;

    g.n_blocks = (unsigned long long)dims[0] * dims[1] * dims[2];
    if (g.n_blocks == 0 || threads == 0)
        return EM_OK;
    /* Generated host kernels run one thread per block over a chunk their
     * generator sized to the work (and to the core count), so a block of
     * one thread is a unit of real work: without this, every such grid
     * ran on the calling thread alone. */
    min_blocks = threads == 1 ? 1 : (THREADS_PER_TASK + threads - 1) / threads;
    tasks = (g.n_blocks + min_blocks - 1) / min_blocks;
    if (sim) {
        memset(&launch, 0, sizeof launch);
        launch.kernel = name;
        launch.stack_need = stack_need;
        g.launch = &launch;
    }
    if (tasks <= 1) {
        g.per_task = g.n_blocks;
        grid_task(&g, 0);
        return sim ? em_host_sim_result(&launch) : EM_OK;
    }
    /* Several tasks per thread even out blocks of uneven cost. */
    max_tasks = 8ull * (unsigned long long)em_host_thread_count();
    if (tasks > max_tasks)
        tasks = max_tasks;
    g.per_task = (g.n_blocks + tasks - 1) / tasks;
    tasks = (g.n_blocks + g.per_task - 1) / g.per_task;
    em_status st = em_host_parallel_for((size_t)tasks, grid_task, &g);
    if (st == EM_OK && sim)
        st = em_host_sim_result(&launch);
    return st;
}

/* ---- events ------------------------------------------------------------- */

static void event_release(host_event *ev)
{
    int left;
    pthread_mutex_lock(&ev->lock);
    left = --ev->refs;
    pthread_mutex_unlock(&ev->lock);
    if (left == 0) {
        pthread_mutex_destroy(&ev->lock);
        pthread_cond_destroy(&ev->done);
        free(ev);
    }
}

/* Mark record `gen` reached now. Records of one event on two streams may
 * finish out of order; the later record's time is the one kept. */
static void event_complete(host_event *ev, uint64_t gen)
{
    pthread_mutex_lock(&ev->lock);
    if (gen > ev->completed) {
        ev->completed = gen;
        clock_gettime(CLOCK_MONOTONIC, &ev->when);
        pthread_cond_broadcast(&ev->done);
    }
    pthread_mutex_unlock(&ev->lock);
}

static void event_wait(host_event *ev, uint64_t gen)
{
    pthread_mutex_lock(&ev->lock);
    while (ev->completed < gen)
        pthread_cond_wait(&ev->done, &ev->lock);
    pthread_mutex_unlock(&ev->lock);
}

/* ---- streams ------------------------------------------------------------ */

/* The queue of s, or NULL for the default stream (run inline). */
static host_stream *queue_of(em_stream *s)
{
    return s && !s->is_default ? s->impl : NULL;
}

static host_device *device_of(em_device *d) { return d ? d->impl : NULL; }

/* Wait for the work queued on hs so far (not for work queued later by
 * other threads, which could go on for ever). */
static void queue_drain(host_stream *hs)
{
    uint64_t target;
    pthread_mutex_lock(&hs->lock);
    target = hs->enqueued;
    while (hs->completed < target)
        pthread_cond_wait(&hs->drained, &hs->lock);
    pthread_mutex_unlock(&hs->lock);
}

/* The sticky error of hs, or EM_OK. It stays: every later synchronize
 * reports it again, so a synchronize made inside ember (the memory pool
 * makes some) cannot swallow it before the program sees it. */
static em_status queue_error(host_stream *hs)
{
    em_status st;
    char msg[sizeof hs->errmsg];
    pthread_mutex_lock(&hs->lock);
    st = hs->err;
    memcpy(msg, hs->errmsg, sizeof msg);
    if (st != EM_OK)
        hs->err_reported = 1;
    pthread_mutex_unlock(&hs->lock);
    if (st != EM_OK)
        return em_error(st, "asynchronous failure on a cpu stream: %s", msg);
    return EM_OK;
}

/* What the legacy default stream does before each operation: wait for
 * every blocking stream to drain. One atomic load when none has work. */
static void wait_blocking_streams(host_device *hd)
{
    if (!hd || __atomic_load_n(&hd->busy_blocking, __ATOMIC_ACQUIRE) == 0)
        return;
    pthread_mutex_lock(&hd->lock);
    for (host_stream *hs = hd->streams; hs; hs = hs->next)
        if (hs->blocking)
            queue_drain(hs);
    pthread_mutex_unlock(&hd->lock);
}

static void graph_release(host_graph *g)
{
    host_op *op, *next;
    if (__atomic_sub_fetch(&g->refs, 1, __ATOMIC_ACQ_REL) != 0)
        return;
    for (op = g->head; op; op = next) {
        next = op->next;
        free(op);
    }
    free(g);
}

static em_status op_run(host_op *op);

static em_status graph_run(host_graph *g)
{
    em_status st = EM_OK;
    for (host_op *op = g->head; op && st == EM_OK; op = op->next)
        st = op_run(op);
    return st;
}

static em_status op_run(host_op *op)
{
    switch (op->kind) {
    case OP_LAUNCH:
        return grid_run(op->u.launch.run, op->u.launch.sim, op->u.launch.name,
                        op->u.launch.stack_need, op->u.launch.argv,
                        op->u.launch.dims);
    case OP_COPY:
        bulk_run(op->u.copy.dst, op->u.copy.src, 0, op->u.copy.n);
        return EM_OK;
    case OP_SET:
        bulk_run(op->u.set.dst, NULL, op->u.set.value, op->u.set.n);
        return EM_OK;
    case OP_RECORD:
        event_complete(op->u.event.ev, op->u.event.gen);
        event_release(op->u.event.ev);
        return EM_OK;
    case OP_WAIT:
        event_wait(op->u.event.ev, op->u.event.gen);
        event_release(op->u.event.ev);
        return EM_OK;
    case OP_CALL:
        return op->u.call.fn(op->u.call.ctx);
    case OP_GRAPH: {
        em_status st = graph_run(op->u.graph);
        graph_release(op->u.graph);
        return st;
    }
    default:
        return em_error(EM_ERR_INTERNAL, "cpu stream: unknown operation %d",
                        op->kind);
    }
}

/* The stream whose queue the calling thread runs, if it is a worker. */
static __thread host_stream *own_queue;

static void *stream_main(void *arg)
{
    host_stream *hs = arg;
    own_queue = hs;
    pthread_mutex_lock(&hs->lock);
    for (;;) {
        host_op *op;
        em_status st;
        while (!hs->head && !hs->stop)
            pthread_cond_wait(&hs->work, &hs->lock);
        if (!hs->head)
            break;   /* stopping, and everything queued has run */
        op = hs->head;
        hs->head = op->next;
        if (!hs->head)
            hs->tail = NULL;
        pthread_mutex_unlock(&hs->lock);
        st = op_run(op);
        free(op);
        pthread_mutex_lock(&hs->lock);
        if (st != EM_OK && hs->err == EM_OK) {
            hs->err = st;
            snprintf(hs->errmsg, sizeof hs->errmsg, "%s", em_last_error());
        }
        hs->completed++;
        if (hs->completed == hs->enqueued) {
            if (hs->blocking)
                __atomic_sub_fetch(&hs->hd->busy_blocking, 1, __ATOMIC_RELEASE);
            __atomic_sub_fetch(&hs->hd->busy, 1, __ATOMIC_RELEASE);
        }
        pthread_cond_broadcast(&hs->drained);
    }
    pthread_mutex_unlock(&hs->lock);
    return NULL;
}

static void enqueue(host_stream *hs, host_op *op)
{
    op->next = NULL;
    pthread_mutex_lock(&hs->lock);
    if (hs->completed == hs->enqueued) {
        if (hs->blocking)
            __atomic_add_fetch(&hs->hd->busy_blocking, 1, __ATOMIC_RELAXED);
        __atomic_add_fetch(&hs->hd->busy, 1, __ATOMIC_RELAXED);
    }
    hs->enqueued++;
    if (hs->tail)
        hs->tail->next = op;
    else
        hs->head = op;
    hs->tail = op;
    pthread_cond_signal(&hs->work);
    pthread_mutex_unlock(&hs->lock);
}

/* Queue op on hs, or keep it in the graph hs is capturing. */
static void submit(host_stream *hs, host_op *op)
{
    host_graph *g = hs->cap;
    if (!g) {
        enqueue(hs, op);
        return;
    }
    op->next = NULL;
    if (g->tail)
        g->tail->next = op;
    else
        g->head = op;
    g->tail = op;
}

static em_status new_op(int kind, size_t extra, host_op **out)
{
    host_op *op = calloc(1, sizeof *op + extra);
    if (!op)
        return em_error(EM_ERR_OUT_OF_MEMORY, "cpu stream: cannot allocate "
                        "%zu bytes to queue an operation", sizeof *op + extra);
    op->kind = kind;
    *out = op;
    return EM_OK;
}

/* The pool's workers run the streams' work as it comes: one priority. */
static em_status host_stream_priority_range(em_device *d, int *least, int *greatest)
{
    *least = *greatest = 0;
    return EM_OK;
}

static em_status host_stream_create(em_stream *s)
{
    host_device *hd = device_of(s->dev);
    host_stream *hs;
    sigset_t all, old;
    int rc;
    if (s->is_default) {
        s->impl = NULL;
        return EM_OK;
    }
    if (!hd)
        return em_error(EM_ERR_INVALID_VALUE, "cpu stream_create: the device "
                        "is not open");
    hs = calloc(1, sizeof *hs);
    if (!hs)
        return em_error(EM_ERR_OUT_OF_MEMORY, "cpu stream_create: cannot "
                        "allocate %zu bytes", sizeof *hs);
    hs->hd = hd;
    hs->owner = s;
    hs->blocking = !(s->flags & EM_STREAM_NON_BLOCKING);
    pthread_mutex_init(&hs->lock, NULL);
    pthread_cond_init(&hs->work, NULL);
    pthread_cond_init(&hs->drained, NULL);
    /* The worker takes no signals: they belong to the program's threads. */
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    rc = pthread_create(&hs->thread, NULL, stream_main, hs);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc) {
        pthread_mutex_destroy(&hs->lock);
        pthread_cond_destroy(&hs->work);
        pthread_cond_destroy(&hs->drained);
        free(hs);
        return em_error_native(rc == EAGAIN ? EM_ERR_OUT_OF_MEMORY
                                            : EM_ERR_INTERNAL,
                               rc, "errno", "cpu stream_create: cannot start "
                               "its thread: %s", strerror(rc));
    }
    pthread_mutex_lock(&hd->lock);
    hs->next = hd->streams;
    hd->streams = hs;
    pthread_mutex_unlock(&hd->lock);
    s->impl = hs;
    return EM_OK;
}

/* A cpu stream's native handle is its queue: only the device's own. */
static em_status host_stream_adopt(em_stream *s, void *native, em_stream **same)
{
    host_device *hd = device_of(s->dev);
    em_stream *found = NULL;
    if (!hd)
        return em_error(EM_ERR_INVALID_VALUE, "cpu stream_adopt: the device "
                        "is not open");
    pthread_mutex_lock(&hd->lock);
    for (host_stream *hs = hd->streams; hs; hs = hs->next)
        if (hs == native) {
            if (em_stream_try_ref(hs->owner))
                found = hs->owner;
            break;
        }
    pthread_mutex_unlock(&hd->lock);
    if (!found)
        return em_error(EM_ERR_INVALID_VALUE,
                        "%p is not the handle of a live stream of %s (the cpu "
                        "device adopts only its own streams)",
                        native, s->dev->name);
    *same = found;
    return EM_OK;
}

static em_status host_stream_destroy(em_stream *s)
{
    host_stream *hs = queue_of(s);
    host_device *hd;
    if (!hs)
        return EM_OK;
    hd = hs->hd;
    /* The worker runs what is queued before it sees `stop`. */
    pthread_mutex_lock(&hs->lock);
    hs->stop = 1;
    pthread_cond_signal(&hs->work);
    pthread_mutex_unlock(&hs->lock);
    pthread_join(hs->thread, NULL);
    pthread_mutex_lock(&hd->lock);
    for (host_stream **p = &hd->streams; *p; p = &(*p)->next)
        if (*p == hs) {
            *p = hs->next;
            break;
        }
    pthread_mutex_unlock(&hd->lock);
    if (hs->err != EM_OK && !hs->err_reported)
        em_log(EM_LOG_WARN, "host", "a cpu stream was destroyed with an "
               "unreported failure: %s", hs->errmsg);
    pthread_mutex_destroy(&hs->lock);
    pthread_cond_destroy(&hs->work);
    pthread_cond_destroy(&hs->drained);
    free(hs);
    s->impl = NULL;
    return EM_OK;
}

static em_status host_stream_synchronize(em_stream *s)
{
    host_stream *hs = queue_of(s);
    if (!hs) {
        /* The default stream's own work is done; what it would wait for
         * before its next operation is the blocking streams' work. */
        wait_blocking_streams(s ? device_of(s->dev) : NULL);
        return EM_OK;
    }
    queue_drain(hs);
    return queue_error(hs);
}

static em_status host_stream_query(em_stream *s, int *done)
{
    host_stream *hs = queue_of(s);
    if (!done)
        return em_error(EM_ERR_INVALID_VALUE, "cpu stream_query: done is NULL");
    *done = 1;
    if (!hs)
        return EM_OK;
    pthread_mutex_lock(&hs->lock);
    *done = hs->completed == hs->enqueued;
    pthread_mutex_unlock(&hs->lock);
    return *done ? queue_error(hs) : EM_OK;
}

/* A record or wait queued on hs. The op holds a reference to the event
 * until the worker has run it; a record issues the event's next
 * generation only once its op exists, so a failed call leaves the event
 * as it was. */
static em_status enqueue_event_op(host_stream *hs, int kind, host_event *ev,
                                  uint64_t gen)
{
    host_op *op = NULL;
    em_status st = new_op(kind, 0, &op);
    if (st != EM_OK)
        return st;
    pthread_mutex_lock(&ev->lock);
    if (kind == OP_RECORD)
        gen = ++ev->issued;
    ev->refs++;
    pthread_mutex_unlock(&ev->lock);
    op->u.event.ev = ev;
    op->u.event.gen = gen;
    enqueue(hs, op);
    return EM_OK;
}

static em_status host_stream_wait_event(em_stream *s, em_event *e)
{
    host_stream *hs = queue_of(s);
    host_event *ev = e ? e->impl : NULL;
    uint64_t gen;
    if (!ev)
        return em_error(EM_ERR_INVALID_VALUE, "cpu stream_wait_event: event "
                        "is NULL or not created");
    pthread_mutex_lock(&ev->lock);
    gen = ev->issued;      /* the record the wait refers to: the latest */
    pthread_mutex_unlock(&ev->lock);
    if (!hs) {
        event_wait(ev, gen);
        return EM_OK;
    }
    return enqueue_event_op(hs, OP_WAIT, ev, gen);
}

/* ---- memory operations on streams --------------------------------------- */

/* A copy of src to dst (src NULL: a fill with value) of n bytes on s:
 * done at once on the default stream, after the queue drains when a
 * caller's own (pageable) buffer is involved, which may be reused as soon
 * as the call returns (as CUDA does), else queued. */
static em_status bulk_async(em_device *d, void *dst, const void *src,
                            int value, size_t n, em_stream *s)
{
    host_stream *hs = queue_of(s);
    host_op *op = NULL;
    em_status st;
    if (!hs) {
        wait_blocking_streams(device_of(d));
        bulk_run(dst, src, value, n);
        return EM_OK;
    }
    if (!hs->cap && (!is_device_memory(dst) || (src && !is_device_memory(src)))) {
        queue_drain(hs);
        bulk_run(dst, src, value, n);
        return EM_OK;
    }
    st = new_op(src ? OP_COPY : OP_SET, 0, &op);
    if (st != EM_OK)
        return st;
    if (src) {
        op->u.copy.dst = dst;
        op->u.copy.src = src;
        op->u.copy.n = n;
    } else {
        op->u.set.dst = dst;
        op->u.set.value = value;
        op->u.set.n = n;
    }
    submit(hs, op);
    return EM_OK;
}

static em_status host_memcpy_async(em_device *d, void *dst, const void *src,
                                   size_t n, em_stream *s)
{
    if (n == 0)
        return EM_OK;
    if (!dst || !src)
        return em_error(EM_ERR_INVALID_VALUE, "cpu memcpy of %zu bytes from %p "
                        "to %p: NULL pointer", n, src, dst);
    return bulk_async(d, dst, src, 0, n, s);
}

static em_status host_memset_async(em_device *d, void *dst, int value,
                                   size_t n, em_stream *s)
{
    if (n == 0)
        return EM_OK;
    if (!dst)
        return em_error(EM_ERR_INVALID_VALUE, "cpu memset of %zu bytes: NULL "
                        "pointer", n);
    return bulk_async(d, dst, NULL, value, n, s);
}

/* ---- events ------------------------------------------------------------- */

static em_status host_event_create(em_event *e)
{
    host_event *ev = calloc(1, sizeof *ev);
    if (!ev)
        return em_error(EM_ERR_OUT_OF_MEMORY, "cpu event_create: cannot "
                        "allocate %zu bytes", sizeof *ev);
    pthread_mutex_init(&ev->lock, NULL);
    pthread_cond_init(&ev->done, NULL);
    ev->refs = 1;
    e->impl = ev;
    return EM_OK;
}

/* Queued records and waits hold their own references, so destroying an
 * event with work pending is safe, as in CUDA. */
static em_status host_event_destroy(em_event *e)
{
    if (e && e->impl) {
        event_release(e->impl);
        e->impl = NULL;
    }
    return EM_OK;
}

static em_status host_event_record(em_event *e, em_stream *s)
{
    host_event *ev = e ? e->impl : NULL;
    host_stream *hs = queue_of(s);
    uint64_t gen;
    if (!ev)
        return em_error(EM_ERR_INVALID_VALUE, "cpu event_record: event is "
                        "NULL or not created");
    if (!hs) {
        wait_blocking_streams(device_of(s ? s->dev : e->dev));
        pthread_mutex_lock(&ev->lock);
        gen = ++ev->issued;
        pthread_mutex_unlock(&ev->lock);
        event_complete(ev, gen);
        return EM_OK;
    }
    return enqueue_event_op(hs, OP_RECORD, ev, 0);
}

static em_status host_event_synchronize(em_event *e)
{
    host_event *ev = e ? e->impl : NULL;
    uint64_t gen;
    if (!ev)
        return em_error(EM_ERR_INVALID_VALUE, "cpu event_synchronize: event "
                        "is NULL or not created");
    pthread_mutex_lock(&ev->lock);
    gen = ev->issued;
    pthread_mutex_unlock(&ev->lock);
    event_wait(ev, gen);
    return EM_OK;
}

static em_status host_event_query(em_event *e, int *done)
{
    host_event *ev = e ? e->impl : NULL;
    if (!ev || !done)
        return em_error(EM_ERR_INVALID_VALUE, "cpu event_query: event or done "
                        "is NULL");
    pthread_mutex_lock(&ev->lock);
    *done = ev->completed >= ev->issued;
    pthread_mutex_unlock(&ev->lock);
    return EM_OK;
}

/* The completion time of ev's latest record, or an error naming `which`. */
static em_status event_time(em_event *e, const char *which, struct timespec *t)
{
    host_event *ev = e ? e->impl : NULL;
    uint64_t issued, completed;
    if (!ev)
        return em_error(EM_ERR_INVALID_VALUE, "cpu event_elapsed_ms: %s event "
                        "is NULL or not created", which);
    if (e->flags & EM_EVENT_DISABLE_TIMING)
        return em_error(EM_ERR_INVALID_VALUE, "cpu event_elapsed_ms: the %s "
                        "event was created with EM_EVENT_DISABLE_TIMING", which);
    pthread_mutex_lock(&ev->lock);
    issued = ev->issued;
    completed = ev->completed;
    *t = ev->when;
    pthread_mutex_unlock(&ev->lock);
    if (issued == 0)
        return em_error(EM_ERR_INVALID_VALUE, "cpu event_elapsed_ms: the %s "
                        "event has never been recorded", which);
    if (completed < issued)
        return em_error(EM_ERR_INVALID_VALUE, "cpu event_elapsed_ms: the %s "
                        "event has not completed yet (synchronize it first)",
                        which);
    return EM_OK;
}

static em_status host_event_elapsed_ms(em_event *a, em_event *b, float *ms)
{
    struct timespec ta = {0, 0}, tb = {0, 0};  /* gcc -O3 cannot see event_time sets them */
    em_status st;
    if (!ms)
        return em_error(EM_ERR_INVALID_VALUE, "cpu event_elapsed_ms: ms is NULL");
    if ((st = event_time(a, "start", &ta)) != EM_OK ||
        (st = event_time(b, "end", &tb)) != EM_OK)
        return st;
    *ms = (float)((double)(tb.tv_sec - ta.tv_sec) * 1e3 +
                  (double)(tb.tv_nsec - ta.tv_nsec) * 1e-6);
    return EM_OK;
}

/* ---- the device --------------------------------------------------------- */

static em_status host_init(void) { return EM_OK; }

static em_status host_device_count(int *count)
{
    if (!count)
        return em_error(EM_ERR_INVALID_VALUE, "cpu device_count: count is NULL");
    *count = 1;
    return EM_OK;
}

/* The value of the first /proc/cpuinfo line whose key is `key`. */
static int cpuinfo_value(const char *key, char *out, size_t n)
{
    FILE *f = fopen("/proc/cpuinfo", "re");
    char line[512];
    size_t kl = strlen(key);
    int found = 0;
    if (!f)
        return 0;
    while (!found && fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':'), *v, *end;
        if (strncmp(line, key, kl) || !colon)
            continue;
        for (char *p = line + kl; p < colon; p++)
            if (*p != ' ' && *p != '\t')
                goto next;
        v = colon + 1;
        while (*v == ' ' || *v == '\t')
            v++;
        end = v + strlen(v);
        while (end > v && (end[-1] == '\n' || end[-1] == ' '))
            *--end = 0;
        if (*v) {
            snprintf(out, n, "%s", v);
            found = 1;
        }
    next:;
    }
    fclose(f);
    return found;
}

/* MemAvailable and MemTotal from /proc/meminfo, in bytes; 0 if absent. */
static void meminfo(size_t *avail, size_t *total)
{
    FILE *f = fopen("/proc/meminfo", "re");
    char line[256];
    unsigned long long kb;
    *avail = *total = 0;
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
            *total = (size_t)kb * 1024;
        else if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
            *avail = (size_t)kb * 1024;
    }
    fclose(f);
}

static em_status host_mem_info(em_device *d, size_t *free_b, size_t *total_b)
{
    size_t avail, total;
    long page = sysconf(_SC_PAGESIZE);
    (void)d;
    meminfo(&avail, &total);
    if (!total && page > 0)
        total = (size_t)sysconf(_SC_PHYS_PAGES) * (size_t)page;
    if (!avail && page > 0)
        avail = (size_t)sysconf(_SC_AVPHYS_PAGES) * (size_t)page;
    if (free_b)
        *free_b = avail;
    if (total_b)
        *total_b = total;
    return EM_OK;
}

/* CUDA's device attributes on the cpu device: those its props hold (the
 * limits of the blocks and grids it runs, its cores, cache, clock), 0 for
 * the rest, which name GPU features it has not. */
static em_status host_device_attribute(em_device *d, int attr, int *value)
{
    const em_device_props *p = &d->props;
    if (attr < 1 || attr > CU_DEVICE_ATTRIBUTE_ONLY_PARTIAL_HOST_NATIVE_ATOMIC_SUPPORTED)
        return em_error(EM_ERR_INVALID_VALUE, "%d is not a CUDA device "
                        "attribute", attr);
    switch (attr) {
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *value = p->max_threads_per_block; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X: *value = p->max_block_dim[0]; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y: *value = p->max_block_dim[1]; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: *value = p->max_block_dim[2]; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: *value = p->max_grid_dim[0]; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y: *value = p->max_grid_dim[1]; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: *value = p->max_grid_dim[2]; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK: *value = p->max_shared_per_block; break;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE: *value = p->warp_size; break;
    case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK: *value = p->regs_per_block; break;
    case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: *value = p->clock_rate_khz; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *value = p->multiprocessor_count; break;
    case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID: *value = p->pci_bus_id; break;
    case CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID: *value = p->pci_device_id; break;
    case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: *value = p->memory_clock_rate_khz; break;
    case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH: *value = p->memory_bus_width; break;
    case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: *value = p->l2_cache_size; break;
    case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING: *value = p->unified_addressing; break;
    case CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID: *value = p->pci_domain_id; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *value = p->cc_major; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *value = p->cc_minor; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR:
        *value = p->max_shared_per_multiprocessor;
        break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
        *value = p->max_shared_per_block_optin;
        break;
    default: *value = 0;
    }
    return EM_OK;
}

static em_status host_device_open(em_device *d)
{
    em_device_props *p = &d->props;
    host_device *hd;
    char mhz[64];
    long page = sysconf(_SC_PAGESIZE), pages = sysconf(_SC_PHYS_PAGES);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
#ifdef _SC_LEVEL2_CACHE_SIZE
    long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
#else
    long l2 = 0;
#endif

    hd = calloc(1, sizeof *hd);
    if (!hd)
        return em_error(EM_ERR_OUT_OF_MEMORY, "cpu device_open: cannot "
                        "allocate %zu bytes", sizeof *hd);
    pthread_mutex_init(&hd->lock, NULL);

    memset(p, 0, sizeof *p);
    if (!cpuinfo_value("model name", p->name, sizeof p->name))
        snprintf(p->name, sizeof p->name, "cpu");
    p->cc_major = p->cc_minor = 0;
    p->multiprocessor_count = cores > 0 ? (int)cores : 1;
    p->warp_size = 1;
    /* The same limits as a CUDA device, so that launch configurations
     * written for a GPU are valid here unchanged. */
    p->max_threads_per_block = 1024;
    p->max_block_dim[0] = 1024;
    p->max_block_dim[1] = 1024;
    p->max_block_dim[2] = 64;
    p->max_grid_dim[0] = 2147483647;
    p->max_grid_dim[1] = 65535;
    p->max_grid_dim[2] = 65535;
    p->max_shared_per_block = 48 * 1024;
    p->max_shared_per_block_optin = 48 * 1024;
    p->max_shared_per_multiprocessor = 48 * 1024;
    p->regs_per_block = 65536;
    if (cpuinfo_value("cpu MHz", mhz, sizeof mhz))
        p->clock_rate_khz = (int)(strtod(mhz, NULL) * 1000.0);
    p->l2_cache_size = l2 > 0 && l2 < INT32_MAX ? (int)l2 : 0;
    p->unified_addressing = 1;
    p->total_memory = page > 0 && pages > 0 ? (int64_t)page * pages : 0;
    d->arch = em_host_cpu_arch();
    d->impl = hd;
    return EM_OK;
}

/* Wait for every stream of d; with report_errors, also report the first
 * sticky failure found. */
static em_status device_drain(em_device *d, int report_errors)
{
    host_device *hd = device_of(d);
    em_status first = EM_OK;
    if (!hd)
        return EM_OK;
    pthread_mutex_lock(&hd->lock);
    for (host_stream *hs = hd->streams; hs; hs = hs->next) {
        queue_drain(hs);
        if (report_errors) {
            if (first == EM_OK)
                first = queue_error(hs);
        }
    }
    pthread_mutex_unlock(&hd->lock);
    return first;
}

static em_status host_synchronize(em_device *d) { return device_drain(d, 1); }

/* em_device_settle_foreign: drain every queue with work but the calling
 * worker's own (its later ops cannot run before it returns). */
static void host_settle_foreign(em_device *d)
{
    host_device *hd = device_of(d);
    if (!hd || __atomic_load_n(&hd->busy, __ATOMIC_ACQUIRE) == 0)
        return;
    pthread_mutex_lock(&hd->lock);
    for (host_stream *hs = hd->streams; hs; hs = hs->next)
        if (hs != own_queue)
            queue_drain(hs);
    pthread_mutex_unlock(&hd->lock);
}

/* ---- modules ------------------------------------------------------------ */

static em_status host_module_load(em_module *m, const em_code *code)
{
    static const unsigned char elf[4] = {0x7f, 'E', 'L', 'F'};
    char path[4096];
    const char *tmp = getenv("TMPDIR");
    const char *p;
    size_t left;
    void *h;
    int fd;

    if (!code || !code->data || code->size < 4)
        return em_error(EM_ERR_INVALID_VALUE, "cpu module_load: no code");
    if (code->kind != EM_CODE_HOST)
        return em_error(EM_ERR_INVALID_VALUE, "cpu module_load: code of kind "
                        "%d is not a host shared object (EM_CODE_HOST)",
                        (int)code->kind);
    if (memcmp(code->data, elf, 4))
        return em_error(EM_ERR_INVALID_VALUE, "cpu module_load: the code "
                        "(%zu bytes) is not an ELF shared object", code->size);
    if (!tmp || !*tmp)
        tmp = "/tmp";
    if (snprintf(path, sizeof path, "%s/ember-mod-XXXXXX.so", tmp) >=
        (int)sizeof path)
        return em_error(EM_ERR_INVALID_VALUE, "TMPDIR is too long: %s", tmp);
    fd = mkostemps(path, 3, O_CLOEXEC);
    if (fd < 0)
        return em_error_native(EM_ERR_IO, errno, "errno", "cpu module_load: "
                               "cannot create a file in %s: %s", tmp,
                               strerror(errno));
    for (p = code->data, left = code->size; left;) {
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = errno;
            close(fd);
            unlink(path);
            return em_error_native(EM_ERR_IO, e, "errno", "cpu module_load: "
                                   "cannot write %s: %s", path, strerror(e));
        }
        p += w;
        left -= (size_t)w;
    }
    if (close(fd)) {
        int e = errno;
        unlink(path);
        return em_error_native(EM_ERR_IO, e, "errno", "cpu module_load: "
                               "cannot write %s: %s", path, strerror(e));
    }
    h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    unlink(path);   /* the mapping stays; no file is left behind */
    if (!h) {
        const char *why = dlerror();
        return em_error(EM_ERR_IO, "cpu module_load: dlopen: %s%s",
                        why ? why : "unknown error",
                        why && strstr(why, "map segment")
                            ? " (is the temporary directory mounted noexec? "
                              "set TMPDIR to another one)" : "");
    }
    m->impl = h;
    return EM_OK;
}

static em_status host_module_unload(em_module *m)
{
    if (!m || !m->impl)
        return EM_OK;
    /* Queued launches may still run this module's code: let them finish
     * before it is unmapped. */
    device_drain(m->dev, 0);
    for (int i = 0; i < m->n_functions; i++) {
        em_function *f = m->functions ? m->functions[i] : NULL;
        if (f && f->impl) {
            host_function *hf = f->impl;
            free(hf->offsets);
            free(hf);
            f->impl = NULL;
        }
    }
    if (dlclose(m->impl)) {
        const char *why = dlerror();
        m->impl = NULL;
        return em_error(EM_ERR_INTERNAL, "cpu module_unload: dlclose: %s",
                        why ? why : "unknown error");
    }
    m->impl = NULL;
    return EM_OK;
}

static void *module_symbol(void *h, const char *prefix, const char *kernel)
{
    char sym[512];
    if (snprintf(sym, sizeof sym, "%s%s", prefix, kernel) >= (int)sizeof sym)
        return NULL;
    return dlsym(h, sym);
}

static em_status host_module_get_function(em_function *f)
{
    void *h = f->module ? f->module->impl : NULL;
    void *run = NULL, *sim = NULL;
    const int *np = NULL;
    const size_t *ps = NULL;
    const char *names;
    host_function *hf;
    size_t off = 0, buf = 0;
    char sym[480];
    int n;

    if (!h || !f->name)
        return em_error(EM_ERR_INVALID_VALUE, "cpu module_get_function: no "
                        "module or no name");
    /* A name expression of a C++ module ("axpy<float>") has its launcher
     * under an encoded name (host_names.h). */
    if (em_host_kernel_symbol(f->name, sym, sizeof sym)) {
        /* A cooperative module has only the simulator's launchers. */
        sim = module_symbol(h, EM_SIM_SYMBOL, sym);
        if (!sim)
            run = module_symbol(h, "__em_blocks_", sym);
        np = module_symbol(h, "__em_nparams_", sym);
        ps = module_symbol(h, "__em_psizes_", sym);
    }
    if ((!run && !sim) || !np || !ps) {
        names = dlsym(h, "__em_kernel_names");
        return em_error(EM_ERR_NOT_FOUND, "kernel '%s' not found in module "
                        "(kernels: %s)", f->name,
                        !names ? "unknown" : *names ? names : "none");
    }
    n = *np;
    hf = calloc(1, sizeof *hf);
    f->param_sizes = malloc((size_t)(n > 0 ? n : 1) * sizeof *f->param_sizes);
    if (hf)
        hf->offsets = malloc((size_t)(n > 0 ? n : 1) * sizeof *hf->offsets);
    if (!hf || !f->param_sizes || !hf->offsets) {
        if (hf)
            free(hf->offsets);
        free(hf);
        free(f->param_sizes);
        f->param_sizes = NULL;
        return em_error(EM_ERR_OUT_OF_MEMORY, "cpu module_get_function('%s'): "
                        "out of memory", f->name);
    }
    for (int i = 0; i < n; i++) {
        size_t sz = ps[i];
        /* args_size packs as the brief of the runtime says: natural
         * alignment capped at 8. The queue's own copy aligns up to 16, so
         * a by-value float4 or double2 is read with its real alignment. */
        size_t a8 = sz >= 8 ? 8 : sz >= 4 ? 4 : sz >= 2 ? 2 : 1;
        size_t a16 = sz >= 16 ? 16 : a8;
        off = (off + a8 - 1) & ~(a8 - 1);
        off += sz;
        buf = (buf + a16 - 1) & ~(a16 - 1);
        hf->offsets[i] = buf;
        buf += sz;
        f->param_sizes[i] = sz;
    }
    /* Object to function pointers. */
    memcpy(&hf->run, &run, sizeof run);
    memcpy(&hf->sim, &sim, sizeof sim);
    if (sim) {
        const unsigned long long *need = dlsym(h, "__em_sim_stack_need");
        hf->stack_need = need ? (size_t)*need : 0;
    }
    hf->n_params = n;
    hf->buf_size = buf;
    f->n_params = n;
    f->args_size = off;
    f->impl = hf;
    return EM_OK;
}

/* A __device__ or __constant__ variable of a C++ module: the prelude makes
 * them visible (kernels/host_prelude.h), so the shared object's dynamic
 * symbol table has each one with its size. Functions, thread-locals
 * (__shared__) and the launchers' own symbols are not variables here. */
static em_status host_module_get_global(em_module *m, const char *name, void **ptr,
                                        size_t *size)
{
    void *h = m ? m->impl : NULL, *p;
    const ElfW(Sym) *sym = NULL;
    Dl_info info;

    if (!h)
        return em_error(EM_ERR_INVALID_VALUE, "cpu module_get_global('%s'): the "
                        "module is not loaded", name);
    p = strncmp(name, "__em_", 5) ? dlsym(h, name) : NULL;
    if (!p || !dladdr1(p, &info, (void **)&sym, RTLD_DL_SYMENT) || !sym ||
        (sym->st_info & 0xf) != STT_OBJECT)   /* ST_TYPE: the low nibble */
        return em_error(EM_ERR_NOT_FOUND, "global variable '%s' not found in "
                        "module (a __device__ or __constant__ variable at "
                        "namespace scope, not static)", name);
    *ptr = p;
    *size = (size_t)sym->st_size;
    return EM_OK;
}

/* ---- launches ----------------------------------------------------------- */

static em_status host_launch(em_function *f, em_dim3 grid_dim, em_dim3 block,
                             size_t shared_bytes, em_stream *s, void **args)
{
    host_function *hf = f ? f->impl : NULL;
    host_stream *hs = queue_of(s);
    unsigned dims[6] = {grid_dim.x, grid_dim.y, grid_dim.z,
                        block.x, block.y, block.z};
    host_op *op = NULL;
    size_t head;
    char *store;
    em_status st;

    /* Dynamic shared memory is the module's own per-thread storage of
     * the largest size em_launch allows (kernels/host_prelude.h). */
    (void)shared_bytes;
    if (!hf)
        return em_error(EM_ERR_INVALID_VALUE, "cpu launch: function not loaded");
    if (hf->n_params > 0 && !args)
        return em_error(EM_ERR_INVALID_VALUE, "cpu launch of '%s': %d "
                        "parameters but args is NULL", f->name, hf->n_params);
    for (int i = 0; i < hf->n_params; i++)
        if (!args[i])
            return em_error(EM_ERR_INVALID_VALUE, "cpu launch of '%s': "
                            "args[%d] is NULL", f->name, i);
    if (!hs) {
        wait_blocking_streams(device_of(f->module ? f->module->dev : NULL));
        return grid_run(hf->run, hf->sim, f->name, hf->stack_need, args, dims);
    }
    /* A queued launch keeps copies of the argument values: the caller's
     * may be gone by the time it runs. */
    head = (sizeof(host_op) + (size_t)hf->n_params * sizeof(void *) + 15) &
           ~(size_t)15;
    st = new_op(OP_LAUNCH, head - sizeof(host_op) + hf->buf_size, &op);
    if (st != EM_OK)
        return st;
    op->u.launch.run = hf->run;
    op->u.launch.sim = hf->sim;
    op->u.launch.name = f->name;
    op->u.launch.stack_need = hf->stack_need;
    memcpy(op->u.launch.dims, dims, sizeof dims);
    op->u.launch.argv = (void **)(op + 1);
    store = (char *)op + head;
    for (int i = 0; i < hf->n_params; i++) {
        memcpy(store + hf->offsets[i], args[i], f->param_sizes[i]);
        op->u.launch.argv[i] = store + hf->offsets[i];
    }
    submit(hs, op);
    return EM_OK;
}

static em_status host_host_call(em_stream *s, em_status (*fn)(void *),
                                const void *ctx, size_t n)
{
    host_stream *hs = queue_of(s);
    host_op *op = NULL;
    em_status st;
    if (!hs) {
        wait_blocking_streams(device_of(s->dev));
        return fn((void *)ctx);
    }
    /* the copy's alignment: any type a caller's context holds */
    if ((st = new_op(OP_CALL, 16 + n, &op)) != EM_OK)
        return st;
    op->u.call.fn = fn;
    op->u.call.ctx = (char *)op + ((sizeof *op + 15) & ~(size_t)15);
    memcpy(op->u.call.ctx, ctx, n);
    submit(hs, op);
    return EM_OK;
}

/* ---- graphs ------------------------------------------------------------- */

static em_status host_capture_begin(em_stream *s)
{
    host_stream *hs = queue_of(s);
    host_graph *g;
    if (!hs)
        return em_error(EM_ERR_INVALID_VALUE, "cpu capture: the default stream "
                        "cannot capture");
    if (!(g = calloc(1, sizeof *g)))
        return em_error(EM_ERR_OUT_OF_MEMORY, "cpu capture: cannot allocate "
                        "%zu bytes", sizeof *g);
    g->refs = 1;
    hs->cap = g;
    return EM_OK;
}

static em_status host_capture_end(em_stream *s, void **graph)
{
    host_stream *hs = queue_of(s);
    host_graph *g = hs ? hs->cap : NULL;
    if (!g)
        return em_error(EM_ERR_INVALID_VALUE, "cpu capture: the stream is not "
                        "capturing");
    hs->cap = NULL;
    if (graph)
        *graph = g;
    else
        graph_release(g);
    return EM_OK;
}

static em_status host_graph_launch(em_device *d, void *graph, em_stream *s)
{
    host_stream *hs = queue_of(s);
    host_graph *g = graph;
    host_op *op = NULL;
    em_status st;
    if (!hs) {
        wait_blocking_streams(device_of(d));
        return graph_run(g);
    }
    if ((st = new_op(OP_GRAPH, 0, &op)) != EM_OK)
        return st;
    __atomic_add_fetch(&g->refs, 1, __ATOMIC_RELAXED);
    op->u.graph = g;
    enqueue(hs, op);
    return EM_OK;
}

/* The ops are already in the form a replay runs. */
static em_status host_graph_upload(em_device *d, void *graph, em_stream *s)
{
    (void)d, (void)graph, (void)s;
    return EM_OK;
}

static void host_graph_destroy(em_device *d, void *graph)
{
    (void)d;
    graph_release(graph);
}

/* A kernel built for cpu has no cluster or grid-group API (the host
 * prelude has no cooperative_groups::this_cluster or this_grid), so it
 * cannot tell a cluster or cooperative launch from an ordinary one: run it
 * as one. Clusters keep to CUDA's portable size, so what runs here also
 * launches on any GPU that has clusters. */
static em_status host_launch_ex(em_function *f, const em_launch_config *c,
                                em_stream *s, void **args)
{
    enum { PORTABLE_CLUSTER = 8 };
    uint64_t blocks = (uint64_t)c->cluster.x * c->cluster.y * c->cluster.z;
    if (blocks > PORTABLE_CLUSTER)
        return em_error(EM_ERR_INVALID_VALUE, "cpu launch of '%s': cluster "
                        "(%u, %u, %u) has %llu blocks; cpu allows at most %d "
                        "(CUDA's portable cluster size)", f->name, c->cluster.x,
                        c->cluster.y, c->cluster.z, (unsigned long long)blocks,
                        PORTABLE_CLUSTER);
    return host_launch(f, c->grid, c->block, c->shared_bytes, s, args);
}

static em_status host_compile(em_device *d, const char *source,
                              const char *name, const char *const *options,
                              int n_options, em_code **out, char **out_log)
{
    (void)d;
    return em_compile_host(source, name, options, n_options, out, out_log);
}

const struct em_backend_ops em_host_backend = {
    .name = "host",
    .type = EM_DEVICE_CPU,
    .code_kind = EM_CODE_HOST,
    .init = host_init,
    .device_count = host_device_count,
    .device_open = host_device_open,
    .mem_info = host_mem_info,
    .device_attribute = host_device_attribute,
    .synchronize = host_synchronize,
    .mem_alloc = host_mem_alloc,
    .mem_free = host_mem_free,
    .memcpy_async = host_memcpy_async,
    .memset_async = host_memset_async,
    .stream_create = host_stream_create,
    .stream_priority_range = host_stream_priority_range,
    .stream_destroy = host_stream_destroy,
    .stream_adopt = host_stream_adopt,
    .stream_synchronize = host_stream_synchronize,
    .stream_query = host_stream_query,
    .stream_wait_event = host_stream_wait_event,
    .event_create = host_event_create,
    .event_destroy = host_event_destroy,
    .event_record = host_event_record,
    .event_synchronize = host_event_synchronize,
    .event_query = host_event_query,
    .event_elapsed_ms = host_event_elapsed_ms,
    .compile = host_compile,
    .module_load = host_module_load,
    .module_unload = host_module_unload,
    .module_get_function = host_module_get_function,
    .module_get_global = host_module_get_global,
    .launch = host_launch,
    .launch_ex = host_launch_ex,
    .capture_begin = host_capture_begin,
    .capture_end = host_capture_end,
    .graph_launch = host_graph_launch,
    .graph_upload = host_graph_upload,
    .graph_destroy = host_graph_destroy,
    .host_call = host_host_call,
    .settle_foreign = host_settle_foreign,
};
