/* ember codegen: histogram descriptor -> compiled kernels, per device.
 *
 * As gather_cache.c: a fixed open-addressed table per device keyed by
 * the 8-byte descriptor, read without a lock (published with a release
 * store), filled under a mutex after a miss went through the kernel
 * cache. A full table only means misses stay misses.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/histogram.h"

#define HT_SLOTS 256 /* a power of two */
#define HT_MAX_FILL (HT_SLOTS * 3 / 4)
#define HT_MAX_DEVICES 64

typedef struct ht_slot {
    uint64_t k;
    em_function *fn[2];
    int ready; /* published last (release) */
} ht_slot;

typedef struct ht_table {
    pthread_mutex_t lock;
    int count;
    ht_slot slots[HT_SLOTS];
} ht_table;

static ht_table *ht_tables[2][HT_MAX_DEVICES];

static ht_table *table_for(em_device *dev)
{
    int type = em_device_get_type(dev) == EM_DEVICE_CUDA,
        id = em_device_get_id(dev);
    ht_table *t, *expected = NULL;
    if (id < 0 || id >= HT_MAX_DEVICES)
        return NULL;
    t = __atomic_load_n(&ht_tables[type][id], __ATOMIC_ACQUIRE);
    if (t)
        return t;
    if (!(t = calloc(1, sizeof *t)))
        return NULL;
    pthread_mutex_init(&t->lock, NULL);
    if (!__atomic_compare_exchange_n(&ht_tables[type][id], &expected, t, 0,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        pthread_mutex_destroy(&t->lock);
        free(t);
        return expected;
    }
    return t;
}

static uint64_t key_hash(uint64_t k)
{
    k = (k ^ 0x9e3779b97f4a7c15ull) * 0xc2b2ae3d27d4eb4full;
    return k ^ (k >> 31);
}

static ht_slot *table_find(ht_table *t, uint64_t k)
{
    for (uint64_t i = key_hash(k), n = 0; n < HT_SLOTS; i++, n++) {
        ht_slot *s = &t->slots[i & (HT_SLOTS - 1)];
        if (!__atomic_load_n(&s->ready, __ATOMIC_ACQUIRE))
            return NULL;
        if (s->k == k)
            return s;
    }
    return NULL;
}

static void table_insert(ht_table *t, uint64_t k, em_function *const *fn)
{
    pthread_mutex_lock(&t->lock);
    if (t->count < HT_MAX_FILL && !table_find(t, k)) {
        for (uint64_t i = key_hash(k);; i++) {
            ht_slot *s = &t->slots[i & (HT_SLOTS - 1)];
            if (s->ready)
                continue;
            s->k = k;
            memcpy(s->fn, fn, sizeof s->fn);
            __atomic_store_n(&s->ready, 1, __ATOMIC_RELEASE);
            t->count++;
            break;
        }
    }
    pthread_mutex_unlock(&t->lock);
}

em_status em_gen_hist_functions(em_device *dev, const em_gen_hist *d,
                                em_function *fn[2])
{
    static const char *const host_opts[] = {"-O2"};
    /* NumPy's quantile interpolation a + diff * t rounds twice: no fused
     * multiply-add (the host has -ffp-contract=off). */
    static const char *const cuda_opts[] = {"--fmad=false"};
    uint64_t key;
    ht_table *t;
    ht_slot *hit;
    em_module *m = NULL;
    char *src = NULL;
    em_function *f[2] = {NULL, NULL};
    int cpu = em_device_get_type(dev) == EM_DEVICE_CPU;
    em_status st;

    _Static_assert(sizeof(em_gen_hist) == sizeof key,
                   "the descriptor is the key");
    memcpy(&key, d, sizeof key);
    t = table_for(dev);
    if (t && (hit = table_find(t, key))) {
        memcpy(fn, hit->fn, sizeof hit->fn);
        return EM_OK;
    }
    if ((st = em_gen_hist_source(d, em_device_get_type(dev), &src)) != EM_OK)
        return st;
    st = em_kernel_cache_get(dev, src, 0, cpu ? host_opts : cuda_opts, 1,
                             EM_GEN_HIST_VERSION, &m, NULL);
    free(src);
    if (st != EM_OK)
        return st;
    if (d->op == EM_GEN_HIST_MINMAX) {
        st = em_module_get_function(m, "hx", &f[0]);
    } else if (d->op >= EM_GEN_UNIQ_FLAGS && d->op <= EM_GEN_QUANTILE) {
        st = em_module_get_function(m, "hu", &f[0]);
    } else if (d->op == EM_GEN_HIST_DIGITIZE) {
        st = em_module_get_function(m, "hd", &f[0]);
    } else {
        st = em_module_get_function(m, "hk", &f[0]);
        if (st == EM_OK && cpu)
            st = em_module_get_function(m, "hm", &f[1]);
    }
    if (st != EM_OK)
        return st;
    if (t)
        table_insert(t, key, f);
    memcpy(fn, f, sizeof f);
    return EM_OK;
}
