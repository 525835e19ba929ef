/* ember codegen: gather descriptor -> compiled kernels, per device.
 *
 * As ewise_cache.c: a fixed open-addressed table per device keyed by the
 * 32-byte descriptor, read without a lock (the functions are published
 * last with a release store), filled under a mutex after a miss went
 * through the kernel cache. A full table only means misses stay misses.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/gather.h"

#define GT_SLOTS 1024 /* a power of two */
#define GT_MAX_FILL (GT_SLOTS * 3 / 4)
#define GT_MAX_DEVICES 64

typedef struct gt_slot {
    uint64_t k[4];
    em_function *fn[3];
    int ready; /* published last (release) */
} gt_slot;

typedef struct gt_table {
    pthread_mutex_t lock;
    int count;
    gt_slot slots[GT_SLOTS];
} gt_table;

static gt_table *gt_tables[2][GT_MAX_DEVICES];

static gt_table *table_for(em_device *dev)
{
    int type = em_device_get_type(dev) == EM_DEVICE_CUDA,
        id = em_device_get_id(dev);
    gt_table *t, *expected = NULL;
    if (id < 0 || id >= GT_MAX_DEVICES)
        return NULL;
    t = __atomic_load_n(&gt_tables[type][id], __ATOMIC_ACQUIRE);
    if (t)
        return t;
    if (!(t = calloc(1, sizeof *t)))
        return NULL;
    pthread_mutex_init(&t->lock, NULL);
    if (!__atomic_compare_exchange_n(&gt_tables[type][id], &expected, t, 0,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        pthread_mutex_destroy(&t->lock);
        free(t);
        return expected;
    }
    return t;
}

static uint64_t key_hash(const uint64_t *k)
{
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 4; i++)
        h = (h ^ k[i]) * 0xc2b2ae3d27d4eb4full;
    return h ^ (h >> 31);
}

static gt_slot *table_find(gt_table *t, const uint64_t *k)
{
    for (uint64_t i = key_hash(k), n = 0; n < GT_SLOTS; i++, n++) {
        gt_slot *s = &t->slots[i & (GT_SLOTS - 1)];
        if (!__atomic_load_n(&s->ready, __ATOMIC_ACQUIRE))
            return NULL;
        if (!memcmp(s->k, k, sizeof s->k))
            return s;
    }
    return NULL;
}

static void table_insert(gt_table *t, const uint64_t *k, em_function *const *fn)
{
    pthread_mutex_lock(&t->lock);
    if (t->count < GT_MAX_FILL && !table_find(t, k)) {
        for (uint64_t i = key_hash(k);; i++) {
            gt_slot *s = &t->slots[i & (GT_SLOTS - 1)];
            if (s->ready)
                continue;
            memcpy(s->k, k, sizeof s->k);
            memcpy(s->fn, fn, sizeof s->fn);
            __atomic_store_n(&s->ready, 1, __ATOMIC_RELEASE);
            t->count++;
            break;
        }
    }
    pthread_mutex_unlock(&t->lock);
}

em_status em_gen_gather_functions(em_device *dev, const em_gen_gather *d,
                                  em_function *fn[3])
{
    static const char *const compact_names[3] = {"gc_count", "gc_scan",
                                                 "gc_write"};
    uint64_t key[4];
    gt_table *t;
    gt_slot *hit;
    em_module *m = NULL;
    char *src = NULL;
    em_function *f[3] = {NULL, NULL, NULL};
    static const char *const host_opts[] = {"-O2"};
    int cpu = em_device_get_type(dev) == EM_DEVICE_CPU;
    em_status st;

    _Static_assert(sizeof(em_gen_gather) == sizeof key,
                   "the descriptor is the key");
    memcpy(key, d, sizeof key);
    t = table_for(dev);
    if (t && (hit = table_find(t, key))) {
        memcpy(fn, hit->fn, sizeof hit->fn);
        return EM_OK;
    }
    st = em_gen_gather_source(d, em_device_get_type(dev),
                              d->op == EM_GEN_COMPACT ? "gc"
                              : d->op == EM_GEN_WHERE ? "gw"
                                                      : "gg",
                              &src);
    if (st != EM_OK)
        return st;
    st = em_kernel_cache_get(dev, src, 0, cpu ? host_opts : NULL, cpu ? 1 : 0,
                             EM_GEN_GATHER_VERSION, &m, NULL);
    free(src);
    if (st != EM_OK)
        return st;
    if (d->op == EM_GEN_COMPACT) {
        for (int i = 0; i < 3 && st == EM_OK; i++)
            st = em_module_get_function(m, compact_names[i], &f[i]);
    } else {
        st = em_module_get_function(m, d->op == EM_GEN_WHERE ? "gw" : "gg",
                                    &f[0]);
    }
    if (st != EM_OK)
        return st;
    if (t)
        table_insert(t, key, f);
    memcpy(fn, f, sizeof f);
    return EM_OK;
}
