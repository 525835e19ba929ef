/* ember runtime: the stream-ordered caching memory pool, one per device.
 *
 * Sizes. A request is rounded up to a size class, and a freed block is
 * reused only for a request of the same class, so a cached block never
 * needs splitting or merging:
 *   - up to 4 KiB: multiples of 512 bytes (512 is the smallest block, also
 *     for size 0, so every allocation gets a distinct pointer);
 *   - above 4 KiB: 8 classes per power of two, i.e. for 2^k < n <= 2^(k+1)
 *     a multiple of 2^(k-3).
 * The waste is under 512 bytes for small blocks and under 1/8 (12.5%) of
 * the request above 4 KiB, and there are only 296 classes up to the 256 TiB
 * cap, so each stream's free lists are one fixed array indexed by class.
 *
 * Stream order. A block freed on stream S goes on S's free lists and is
 * handed at once only to a later allocation on S: work queued on S after
 * the allocation runs after the work queued before the free, with no
 * synchronisation. Allocations on other streams do not see it; they get a
 * fresh block. Cached blocks go back to the backend when the pool is
 * emptied (em_pool_free_all, a limit or an out-of-memory retry), always
 * after the device is synchronised; when S is destroyed its blocks move,
 * after S is synchronised, to the default stream's lists.
 *
 * Locking. One lock per device (pool_lock) guards the lists, the pointer
 * map and the statistics; it is never held across a backend call, so a
 * slow cuMemAlloc or a synchronisation does not stall other threads. A
 * fresh allocation reserves its bytes under the lock first, so concurrent
 * callers cannot overshoot the limit together.
 */
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ember/util.h"
#include "runtime.h"
#include "profile.h"
#include "core/fault.h"

#define POOL_SMALL_MAX 4096u
#define POOL_MAX_SHIFT 48       /* no device has 256 TiB; rounding stays exact */
#define POOL_NCLASS (8 + 8 * (POOL_MAX_SHIFT - 12))
#define POOL_ALIGN 256u

struct rt_block {
    void *ptr;
    size_t size;                /* rounded: what the backend gave */
    unsigned cls;
    int in_use;
    em_stream *owner;           /* in use and allocated on a created stream:
                                 * that stream, which it holds a reference
                                 * to, so a free on it stays valid after
                                 * em_stream_destroy */
    struct rt_block *hnext;     /* the pointer map's chain */
    struct rt_block *fnext;     /* a free list */
    /* Allocated or freed during a capture: the graph that holds it, and
     * the next in that graph's list; `held`: freed by its user while the
     * graph held it, so no list but the graph's has it (docs/graphs.md). */
    struct em_graph *graph;
    struct rt_block *gnext;
    int held;
};

/* One stream's free lists. */
struct rt_bins {
    em_stream *stream;
    struct rt_bins *next;
    struct rt_block *head[POOL_NCLASS];
};

struct em_pool {
    int lock;                   /* see pool_lock */
    struct rt_block **buckets;  /* ptr -> block, every block the pool holds */
    unsigned bucket_bits;
    size_t n_blocks;
    struct rt_bins *dflt;       /* the default stream's, looked up first */
    struct rt_bins *others;     /* other streams', most recently used first */
    size_t used, cached, total, peak, limit;
    uint64_t n_allocs, n_hits;
    struct em_graph *capturing; /* the device's capture, or NULL */
};

/* ---- the lock --------------------------------------------------------- */

/* A spin lock that yields: the critical sections are a few dozen
 * instructions and never call out, so a waiter does best to spin briefly,
 * and yielding after that keeps a preempted holder from stalling its
 * waiters. bench_pool found it faster than a pthread mutex, alone and
 * with 4 threads hammering one device (bench/README.md, 'pool'); what
 * remains under contention is the pool's shared cache lines moving
 * between cores. */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static void pool_lock_slow(struct em_pool *p);

static inline void pool_lock(struct em_pool *p)
{
    if (__atomic_exchange_n(&p->lock, 1, __ATOMIC_ACQUIRE) != 0)
        pool_lock_slow(p);
}

static inline void pool_unlock(struct em_pool *p)
{
    __atomic_store_n(&p->lock, 0, __ATOMIC_RELEASE);
}

static void pool_lock_slow(struct em_pool *p)
{
    unsigned spins = 0;
    do {
        while (__atomic_load_n(&p->lock, __ATOMIC_RELAXED)) {
            if (++spins < 128)
                cpu_relax();
            else
                sched_yield();
        }
    } while (__atomic_exchange_n(&p->lock, 1, __ATOMIC_ACQUIRE) != 0);
}

/* ---- size classes ----------------------------------------------------- */

static inline size_t pool_round(size_t n, unsigned *cls)
{
    size_t step, r;
    unsigned k;
    if (n <= POOL_SMALL_MAX) {
        r = n <= 512 ? 512 : (n + 511) & ~(size_t)511;
        *cls = (unsigned)(r >> 9) - 1;                  /* 0..7 */
        return r;
    }
    k = 63u - (unsigned)__builtin_clzll((unsigned long long)(n - 1)); /* 2^k < n <= 2^(k+1) */
    step = (size_t)1 << (k - 3);
    r = (n + step - 1) & ~(step - 1);
    /* r / step is 9..16 within (2^k, 2^(k+1)]. */
    *cls = 8 + (k - 12) * 8 + (unsigned)(r >> (k - 3)) - 9;
    return r;
}

/* ---- the pointer map (intrusive chains, so inserting never allocates) -- */

static inline size_t map_slot(const struct em_pool *p, const void *ptr)
{
    uint64_t h = ((uint64_t)(uintptr_t)ptr >> 8) * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> (64 - p->bucket_bits));
}

static struct rt_block *map_find(const struct em_pool *p, const void *ptr)
{
    struct rt_block *b = p->buckets[map_slot(p, ptr)];
    while (b && b->ptr != ptr)
        b = b->hnext;
    return b;
}

/* Grow at load factor 1; if the bigger table cannot be had the chains just
 * get longer, which is slower but still correct. */
static void map_grow(struct em_pool *p)
{
    unsigned bits = p->bucket_bits + 1;
    size_t n = (size_t)1 << bits, old_n = (size_t)1 << p->bucket_bits, i;
    struct rt_block **nb = calloc(n, sizeof *nb), **old = p->buckets;
    if (!nb)
        return;
    p->buckets = nb;
    p->bucket_bits = bits;
    for (i = 0; i < old_n; i++) {
        struct rt_block *b = old[i], *next;
        for (; b; b = next) {
            size_t j = map_slot(p, b->ptr);
            next = b->hnext;
            b->hnext = nb[j];
            nb[j] = b;
        }
    }
    free(old);
}

static void map_insert(struct em_pool *p, struct rt_block *b)
{
    size_t j;
    if (p->n_blocks >= ((size_t)1 << p->bucket_bits))
        map_grow(p);
    j = map_slot(p, b->ptr);
    b->hnext = p->buckets[j];
    p->buckets[j] = b;
    p->n_blocks++;
}

static void map_remove(struct em_pool *p, struct rt_block *b)
{
    struct rt_block **link = &p->buckets[map_slot(p, b->ptr)];
    while (*link && *link != b)
        link = &(*link)->hnext;
    if (*link) {
        *link = b->hnext;
        p->n_blocks--;
    }
}

/* ---- raw allocations, with failure injection for tests ---------------- */

static uint64_t rt_raw_allocs, rt_raw_frees;
static pthread_once_t rt_inject_once = PTHREAD_ONCE_INIT;

static void rt_inject_from_env(void)
{
    const char *v = em_knob_text(EM_KNOB_TEST_FAIL_ALLOC);
    unsigned long long first = 0, count = 1;
    if (!v)
        return;
    if (sscanf(v, "%llu:%llu", &first, &count) < 1 || first == 0) {
        em_log(EM_LOG_WARN, "pool", "EMBER_TEST_FAIL_ALLOC=%s is not N or N:COUNT; ignored", v);
        return;
    }
    em_fault_arm(EM_FAULT_DEVICE_ALLOC, first, count);
}

void em_rt_pool_inject_alloc_failures(uint64_t first, uint64_t count)
{
    /* Read the variable now so it cannot override this call later. */
    pthread_once(&rt_inject_once, rt_inject_from_env);
    em_fault_arm(EM_FAULT_DEVICE_ALLOC, first, count);
}

void em_rt_pool_raw_counts(uint64_t *allocs, uint64_t *frees)
{
    if (allocs)
        *allocs = __atomic_load_n(&rt_raw_allocs, __ATOMIC_RELAXED);
    if (frees)
        *frees = __atomic_load_n(&rt_raw_frees, __ATOMIC_RELAXED);
}

static em_status raw_alloc(em_device *d, size_t n, void **ptr)
{
    em_status s;
    pthread_once(&rt_inject_once, rt_inject_from_env);
    if (em_fault_hit(EM_FAULT_DEVICE_ALLOC))
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "injected failure of raw allocation #%" PRIu64
                        " (%zu bytes on %s)", em_fault_attempts(EM_FAULT_DEVICE_ALLOC),
                        n, d->name);
    s = d->ops->mem_alloc(d, n, ptr);
    if (s == EM_OK)
        __atomic_add_fetch(&rt_raw_allocs, 1, __ATOMIC_RELAXED);
    return s;
}

static void raw_free(em_device *d, void *ptr)
{
    if (d->ops->mem_free(d, ptr) != EM_OK)
        em_log(EM_LOG_WARN, "pool", "freeing %p on %s: %s", ptr, d->name,
               em_last_error());
    __atomic_add_fetch(&rt_raw_frees, 1, __ATOMIC_RELAXED);
}

/* ---- free lists ------------------------------------------------------- */

static inline struct rt_bins *bins_find(struct em_pool *p, const em_stream *s)
{
    struct rt_bins *b, **link;
    if (p->dflt->stream == s)
        return p->dflt;
    for (link = &p->others; (b = *link); link = &b->next) {
        if (b->stream == s) {
            if (link != &p->others) {   /* move to front: streams in use stay cheap */
                *link = b->next;
                b->next = p->others;
                p->others = b;
            }
            return b;
        }
    }
    return NULL;
}

/* Take every cached block off the lists and the map (lock held); the
 * caller gives them back to the backend after synchronising. */
static struct rt_block *pool_detach_cached(struct em_pool *p)
{
    struct rt_block *list = NULL;
    struct rt_bins *bins = p->dflt;
    while (bins) {
        unsigned c;
        for (c = 0; c < POOL_NCLASS; c++) {
            struct rt_block *b;
            while ((b = bins->head[c])) {
                bins->head[c] = b->fnext;
                map_remove(p, b);
                p->cached -= b->size;
                p->total -= b->size;
                b->fnext = list;
                list = b;
            }
        }
        bins = bins == p->dflt ? p->others : bins->next;
    }
    return list;
}

/* Give every cached block back to the backend. Blocks are detached before
 * the device is synchronised, so all work that may touch them (queued
 * before their em_free) has finished when they are released. */
static void pool_release_cached(em_device *d)
{
    struct em_pool *p = d->pool;
    struct rt_block *list, *next;
    /* The synchronize below would end a capture on d (CUDA refuses it):
     * while one runs, an allocation that finds no memory fails instead. */
    if (d->capturing)
        return;
    pool_lock(p);
    list = pool_detach_cached(p);
    pool_unlock(p);
    if (!list)
        return;
    if (d->ops->synchronize(d) != EM_OK)
        em_log(EM_LOG_WARN, "pool", "synchronizing %s before releasing cached "
               "blocks: %s", d->name, em_last_error());
    for (; list; list = next) {
        next = list->fnext;
        raw_free(d, list->ptr);
        free(list);
    }
}

/* ---- creation and statistics ------------------------------------------ */

/* The pool's limit from the environment: EMBER_GPU_MEMORY_LIMIT, or
 * CuPy's CUPY_GPU_MEMORY_LIMIT so a CuPy program's setting holds, as bytes
 * ("1073741824") or a percentage of the device's memory ("50%"). Every
 * device's pool reads it, the cpu device's too, so a program run there
 * meets the limit it will meet on a GPU. 0 (no limit) when neither is set;
 * a malformed value is an error, not ignored. */
static em_status pool_limit_from_env(em_device *d, size_t *limit)
{
    const char *name = em_knob_name(EM_KNOB_GPU_MEMORY_LIMIT),
               *v = em_knob_text(EM_KNOB_GPU_MEMORY_LIMIT);
    char *end;
    *limit = 0;
    if (!v || !*v) {
        name = "CUPY_GPU_MEMORY_LIMIT";
        v = getenv(name);
    }
    if (!v || !*v)
        return EM_OK;
    if (v[strlen(v) - 1] == '%') {
        double pct = strtod(v, &end);
        size_t avail = 0, total = 0;
        em_status st;
        if (end != v + strlen(v) - 1 || !(pct >= 0 && pct <= 100))
            goto bad;
        if ((st = d->ops->mem_info(d, &avail, &total)) != EM_OK)
            return st;
        /* 0% is no memory, as set_limit(fraction=0) is; 0 bytes is none */
        *limit = (size_t)((double)total * (pct / 100.0));
        if (!*limit)
            *limit = 1;
        return EM_OK;
    }
    if (*v < '0' || *v > '9')
        goto bad;
    {
        unsigned long long n = strtoull(v, &end, 10);
        if (*end)
            goto bad;
        *limit = (size_t)n;
    }
    return EM_OK;
bad:
    return em_error(EM_ERR_INVALID_VALUE,
                    "%s='%s' is not a memory limit for %s: give bytes "
                    "(1073741824) or a percentage of the device's memory "
                    "(50%%)",
                    name, v, d->name);
}

em_status em_rt_pool_create(em_device *d)
{
    size_t limit;
    em_status st = pool_limit_from_env(d, &limit);
    if (st != EM_OK)
        return st;
    struct em_pool *p = calloc(1, sizeof *p);
    if (p) {
        p->bucket_bits = 8;
        p->buckets = calloc((size_t)1 << p->bucket_bits, sizeof *p->buckets);
        p->dflt = calloc(1, sizeof *p->dflt);
    }
    if (!p || !p->buckets || !p->dflt) {
        if (p) {
            free(p->buckets);
            free(p->dflt);
        }
        free(p);
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of host memory creating the memory pool of %s", d->name);
    }
    p->dflt->stream = d->default_stream;
    p->limit = limit;
    d->pool = p;
    return EM_OK;
}

em_status em_pool_get_stats(em_device *d, em_pool_stats *out)
{
    struct em_pool *p;
    if (!d || !out)
        return em_error(EM_ERR_INVALID_VALUE, "em_pool_get_stats: %s is NULL",
                        d ? "out" : "device");
    p = d->pool;
    pool_lock(p);
    out->used_bytes = p->used;
    out->cached_bytes = p->cached;
    out->total_bytes = p->total;
    out->peak_bytes = p->peak;
    out->limit_bytes = p->limit;
    out->n_allocs = p->n_allocs;
    out->n_hits = p->n_hits;
    /* Counted here rather than kept up to date: a statistics call may walk
     * the lists, the alloc and free paths should not pay for a counter. */
    out->n_cached_blocks = 0;
    for (struct rt_bins *bins = p->dflt; bins;
         bins = bins == p->dflt ? p->others : bins->next)
        for (unsigned c = 0; c < POOL_NCLASS; c++)
            for (struct rt_block *b = bins->head[c]; b; b = b->fnext)
                out->n_cached_blocks++;
    pool_unlock(p);
    return EM_OK;
}

em_status em_pool_set_limit(em_device *d, size_t limit)
{
    if (!d)
        return em_error(EM_ERR_INVALID_VALUE, "em_pool_set_limit: device is NULL");
    pool_lock(d->pool);
    d->pool->limit = limit;
    pool_unlock(d->pool);
    return EM_OK;
}

em_status em_pool_free_all(em_device *d)
{
    if (!d)
        return em_error(EM_ERR_INVALID_VALUE, "em_pool_free_all: device is NULL");
    pool_release_cached(d);
    return EM_OK;
}

/* ---- allocation ------------------------------------------------------- */

static em_status pool_oom(em_device *d, size_t nbytes, const char *why)
{
    struct em_pool *p = d->pool;
    size_t f = 0, t = 0, used, cached, limit;
    char free_s[40], limit_s[40];
    int have_free = d->ops->mem_info(d, &f, &t) == EM_OK;
    pool_lock(p);
    used = p->used;
    cached = p->cached;
    limit = p->limit;
    pool_unlock(p);
    if (have_free)
        snprintf(free_s, sizeof free_s, "%zu bytes", f);
    else
        snprintf(free_s, sizeof free_s, "unknown");
    if (limit)
        snprintf(limit_s, sizeof limit_s, "%zu bytes", limit);
    else
        snprintf(limit_s, sizeof limit_s, "none");
    return em_error(EM_ERR_OUT_OF_MEMORY,
                    "out of memory allocating %zu bytes on %s%s (in use: %zu bytes, "
                    "cached: %zu bytes, device free: %s, limit: %s)",
                    nbytes, d->name, why, used, cached, free_s, limit_s);
}

static inline int over_limit(const struct em_pool *p, size_t size)
{
    return p->limit && (size > p->limit || p->total > p->limit - size);
}

/* Count size into total before the backend is asked, so that the limit
 * holds against concurrent callers; past the limit, empty the cache once
 * and look again. */
static em_status pool_reserve(em_device *d, size_t nbytes, size_t size)
{
    struct em_pool *p = d->pool;
    pool_lock(p);
    if (over_limit(p, size)) {
        pool_unlock(p);
        pool_release_cached(d);
        pool_lock(p);
        if (over_limit(p, size)) {
            pool_unlock(p);
            return pool_oom(d, nbytes, ": over the pool's limit");
        }
    }
    p->total += size;
    pool_unlock(p);
    return EM_OK;
}

static void pool_unreserve(struct em_pool *p, size_t size)
{
    pool_lock(p);
    p->total -= size;
    pool_unlock(p);
}

static void graph_take(struct em_pool *p, struct rt_block *b);

static em_status pool_alloc_fresh(em_device *d, em_stream *on, size_t nbytes,
                                  size_t size, unsigned cls, void **ptr)
{
    struct em_pool *p = d->pool;
    struct rt_block *b = malloc(sizeof *b);
    void *mem = NULL;
    em_status s;
    if (!b)
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of host memory allocating %zu bytes on %s", nbytes, d->name);
    if ((s = pool_reserve(d, nbytes, size)) != EM_OK)
        goto fail;
    s = raw_alloc(d, size, &mem);
    if (s == EM_ERR_OUT_OF_MEMORY) {
        pool_unreserve(p, size);
        pool_release_cached(d);
        if ((s = pool_reserve(d, nbytes, size)) != EM_OK)
            goto fail;
        s = raw_alloc(d, size, &mem);
        if (s == EM_ERR_OUT_OF_MEMORY) {
            pool_unreserve(p, size);
            s = pool_oom(d, nbytes, "");
            goto fail;
        }
    }
    if (s != EM_OK) {
        pool_unreserve(p, size);
        goto fail;
    }
    if ((uintptr_t)mem % POOL_ALIGN) {
        /* runtime.h promises 256-byte alignment; a backend that breaks it
         * is a bug to see at once, not a misaligned vector load later. */
        raw_free(d, mem);
        pool_unreserve(p, size);
        s = em_error(EM_ERR_INTERNAL, "the %s backend returned %p for %zu bytes, "
                     "not %u-byte aligned", d->ops->name, mem, size, POOL_ALIGN);
        goto fail;
    }
    b->ptr = mem;
    b->size = size;
    b->cls = cls;
    b->in_use = 1;
    b->owner = on->is_default ? NULL : on;
    b->fnext = NULL;
    em_rt_stream_retain(on);
    b->graph = NULL;
    b->held = 0;
    pool_lock(p);
    map_insert(p, b);
    if (p->capturing)
        graph_take(p, b);
    p->used += size;
    if (p->used > p->peak)
        p->peak = p->used;
    p->n_allocs++;
    pool_unlock(p);
    *ptr = mem;
    return EM_OK;
fail:
    free(b);
    return s;
}

em_status em_malloc(em_device *d, size_t nbytes, em_stream *stream, void **ptr)
{
    struct em_pool *p;
    struct rt_bins *bins;
    struct rt_block *b;
    em_stream *s;
    size_t size;
    unsigned cls;
    if (!d || !ptr)
        return em_error(EM_ERR_INVALID_VALUE, "em_malloc: %s is NULL", d ? "ptr" : "device");
    *ptr = NULL;
    if (!(s = em_rt_stream_for(d, stream, "em_malloc")))
        return EM_ERR_INVALID_VALUE;
    if (em_prof_on)
        em_prof_alloc(d, nbytes, s);
    if ((uint64_t)nbytes > ((uint64_t)1 << POOL_MAX_SHIFT))
        return pool_oom(d, nbytes, ": larger than any device");
    size = pool_round(nbytes, &cls);
    p = d->pool;
    pool_lock(p);
    bins = bins_find(p, s);
    if (bins && (b = bins->head[cls])) {
        bins->head[cls] = b->fnext;
        b->in_use = 1;
        b->owner = s->is_default ? NULL : s;
        if (p->capturing)
            graph_take(p, b);
        em_rt_stream_retain(s);
        p->cached -= size;
        p->used += size;
        if (p->used > p->peak)
            p->peak = p->used;
        p->n_allocs++;
        p->n_hits++;
        pool_unlock(p);
        *ptr = b->ptr;
        return EM_OK;
    }
    pool_unlock(p);
    return pool_alloc_fresh(d, s, nbytes, size, cls, ptr);
}

/* ---- graphs ----------------------------------------------------------- */

/* Nonzero if p points into a block of d's pool: at its start through the
 * map, inside it (a view's data) by a scan, which only a capture's copy
 * checks pay for. */
int em_rt_pool_owns(em_device *d, const void *p)
{
    struct em_pool *pl = d->pool;
    int found = 0;
    pool_lock(pl);
    if (map_find(pl, p))
        found = 1;
    else
        for (size_t i = 0; !found && i < ((size_t)1 << pl->bucket_bits); i++)
            for (struct rt_block *b = pl->buckets[i]; b; b = b->hnext)
                if ((const char *)p >= (const char *)b->ptr &&
                    (const char *)p < (const char *)b->ptr + b->size) {
                    found = 1;
                    break;
                }
    pool_unlock(pl);
    return found;
}

/* Under the lock: b becomes the capturing graph's. */
static void graph_take(struct em_pool *p, struct rt_block *b)
{
    b->graph = p->capturing;
    b->gnext = p->capturing->blocks;
    p->capturing->blocks = b;
}

void em_rt_pool_capture_start(em_device *d, struct em_graph *g)
{
    pool_lock(d->pool);
    d->pool->capturing = g;
    pool_unlock(d->pool);
}

void em_rt_pool_capture_stop(em_device *d)
{
    pool_lock(d->pool);
    d->pool->capturing = NULL;
    pool_unlock(d->pool);
}

void em_rt_pool_graph_release(em_device *d, struct em_graph *g, em_stream *on)
{
    struct em_pool *p = d->pool;
    struct rt_block *b, *next;
    struct rt_bins *bins;
    pool_lock(p);
    if (!(bins = bins_find(p, on)) && (bins = calloc(1, sizeof *bins))) {
        bins->stream = on;
        bins->next = p->others;
        p->others = bins;
    }
    for (b = g->blocks; b; b = next) {
        next = b->gnext;
        b->graph = NULL;
        b->gnext = NULL;
        /* A block still in its user's hands goes back as any other, at
         * its free; one freed while held is free now, unless a capture
         * running now may have recorded work on it. */
        if (!b->held)
            continue;
        if (p->capturing && p->capturing != g) {
            graph_take(p, b);
            continue;
        }
        if (!bins) {
            /* No host memory for `on`'s lists: the block cannot be
             * ordered after the graph's work, so it stays used (lost
             * until exit) rather than be handed out too early. */
            em_log(EM_LOG_WARN, "pool", "releasing a graph of %s: out of host "
                   "memory, %zu bytes stay allocated", d->name, b->size);
            continue;
        }
        b->held = 0;
        p->used -= b->size;
        b->fnext = bins->head[b->cls];
        bins->head[b->cls] = b;
        p->cached += b->size;
    }
    g->blocks = NULL;
    pool_unlock(p);
}

/* Wait for the work queued on s. An adopted foreign stream's native
 * handle may be gone when the last block allocated on it is freed (its
 * owner destroyed it once done with it), so for one the device's whole
 * work is waited for instead. */
static em_status sync_stream_of_blocks(em_stream *s)
{
    return s->external ? s->dev->ops->synchronize(s->dev)
                       : s->dev->ops->stream_synchronize(s);
}

/* No memory for a new stream's free lists: give the block straight back,
 * once the stream's work that may use it is done. */
static em_status pool_free_uncached(em_device *d, struct rt_block *b, em_stream *s)
{
    em_status st = sync_stream_of_blocks(s);
    raw_free(d, b->ptr);
    free(b);
    return st;
}

em_status em_free(em_device *d, void *ptr, em_stream *stream)
{
    struct em_pool *p;
    struct rt_bins *bins;
    struct rt_block *b;
    em_stream *s, *owner;
    em_status st = EM_OK;
    if (!ptr)
        return EM_OK;
    if (!d)
        return em_error(EM_ERR_INVALID_VALUE, "em_free: device is NULL");
    if (!(s = em_rt_stream_for(d, stream, "em_free")))
        return EM_ERR_INVALID_VALUE;
    p = d->pool;
    pool_lock(p);
    b = map_find(p, ptr);
    if (!b || !b->in_use) {
        pool_unlock(p);
        if (b)
            return em_error(EM_ERR_INVALID_VALUE,
                            "pointer %p was freed twice in the pool of %s", ptr, d->name);
        return em_error(EM_ERR_INVALID_VALUE,
                        "pointer %p was not allocated by the pool of %s", ptr, d->name);
    }
    owner = b->owner;
    b->owner = NULL;
    if (p->capturing && !b->graph)
        graph_take(p, b);
    if (b->graph) {
        /* The graph's work may use the block at every replay: it stays
         * the graph's, counted as used, until the graph is released. */
        b->in_use = 0;
        b->held = 1;
        pool_unlock(p);
        if (owner)
            em_rt_stream_release(owner);
        return EM_OK;
    }
    bins = bins_find(p, s);
    if (!bins && (bins = calloc(1, sizeof *bins))) {
        bins->stream = s;
        bins->next = p->others;
        p->others = bins;
    }
    p->used -= b->size;
    if (!bins) {
        map_remove(p, b);
        p->total -= b->size;
        pool_unlock(p);
        st = pool_free_uncached(d, b, s);
    } else {
        b->in_use = 0;
        b->fnext = bins->head[b->cls];
        bins->head[b->cls] = b;
        p->cached += b->size;
        pool_unlock(p);
    }
    /* Last, and without the lock: the block's stream may go with it, and
     * its teardown waits for the stream and takes the lock. */
    if (owner)
        em_rt_stream_release(owner);
    return st;
}

void em_rt_pool_forget_stream(em_stream *s)
{
    em_device *d = s->dev;
    struct em_pool *p = d->pool;
    struct rt_bins *bins, **link;
    unsigned c;
    pool_lock(p);
    for (link = &p->others; (bins = *link); link = &bins->next)
        if (bins->stream == s) {
            *link = bins->next;
            break;
        }
    pool_unlock(p);
    if (!bins)
        return;
    if (sync_stream_of_blocks(s) != EM_OK)
        em_log(EM_LOG_WARN, "pool", "synchronizing a stream of %s before destroying "
               "it: %s", d->name, em_last_error());
    pool_lock(p);
    for (c = 0; c < POOL_NCLASS; c++) {
        struct rt_block *b = bins->head[c];
        if (!b)
            continue;
        while (b->fnext)
            b = b->fnext;
        b->fnext = p->dflt->head[c];
        p->dflt->head[c] = bins->head[c];
    }
    pool_unlock(p);
    free(bins);
}
