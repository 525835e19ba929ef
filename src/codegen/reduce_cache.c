/* ember codegen: descriptor -> compiled reduction kernel, per device.
 *
 * The same structure as the elementwise table (ewise_cache.c): a fixed
 * open-addressed table per device keyed by the 16-byte descriptor, read
 * without a lock (the function pointer is published last with a release
 * store), a mutex only around inserts, never removed. A miss generates
 * source and asks the kernel cache; a full table only means misses stay
 * misses.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/reduce.h"

#define RD_SLOTS 4096 /* a power of two */
#define RD_MAX_FILL (RD_SLOTS * 3 / 4)
#define RD_MAX_DEVICES 64

typedef struct rd_slot {
    uint64_t k0, k1;
    em_function *fn; /* published last (release) */
} rd_slot;

typedef struct rd_table {
    pthread_mutex_t lock;
    int count;
    rd_slot slots[RD_SLOTS];
} rd_table;

static rd_table *rd_tables[2][RD_MAX_DEVICES];

static rd_table *table_for(em_device *dev)
{
    int type = em_device_get_type(dev) == EM_DEVICE_CUDA,
        id = em_device_get_id(dev);
    rd_table *t, *expected = NULL;
    if (id < 0 || id >= RD_MAX_DEVICES)
        return NULL;
    t = __atomic_load_n(&rd_tables[type][id], __ATOMIC_ACQUIRE);
    if (t)
        return t;
    t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    pthread_mutex_init(&t->lock, NULL);
    if (!__atomic_compare_exchange_n(&rd_tables[type][id], &expected, t, 0,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        pthread_mutex_destroy(&t->lock);
        free(t);
        return expected;
    }
    return t;
}

static uint64_t key_hash(uint64_t k0, uint64_t k1)
{
    uint64_t h = k0 * 0x9e3779b97f4a7c15ull ^
                 (k1 + 0x632be59bd9b4e019ull) * 0xc2b2ae3d27d4eb4full;
    return h ^ (h >> 31);
}

static em_function *table_find(rd_table *t, uint64_t k0, uint64_t k1)
{
    for (uint64_t i = key_hash(k0, k1), n = 0; n < RD_SLOTS; i++, n++) {
        rd_slot *s = &t->slots[i & (RD_SLOTS - 1)];
        em_function *fn = __atomic_load_n(&s->fn, __ATOMIC_ACQUIRE);
        if (!fn)
            return NULL;
        if (s->k0 == k0 && s->k1 == k1)
            return fn;
    }
    return NULL;
}

static void table_insert(rd_table *t, uint64_t k0, uint64_t k1, em_function *fn)
{
    pthread_mutex_lock(&t->lock);
    if (t->count < RD_MAX_FILL && !table_find(t, k0, k1)) {
        for (uint64_t i = key_hash(k0, k1);; i++) {
            rd_slot *s = &t->slots[i & (RD_SLOTS - 1)];
            if (s->fn)
                continue;
            s->k0 = k0;
            s->k1 = k1;
            __atomic_store_n(&s->fn, fn, __ATOMIC_RELEASE);
            t->count++;
            break;
        }
    }
    pthread_mutex_unlock(&t->lock);
}

em_status em_gen_reduce_function(em_device *dev, const em_gen_reduce *d,
                                 em_function **out)
{
    uint64_t key[2];
    rd_table *t;
    em_function *fn;
    em_module *m = NULL;
    char *src = NULL;
    const char *const *opts;
    int n_opts;
    em_status st;

    _Static_assert(sizeof(em_gen_reduce) == sizeof key,
                   "the descriptor is the key");
    memcpy(key, d, sizeof key);
    t = table_for(dev);
    if (t && (fn = table_find(t, key[0], key[1]))) {
        *out = fn;
        return EM_OK;
    }
    st = em_gen_reduce_source(d, em_device_get_type(dev), "rd", &src);
    if (st != EM_OK)
        return st;
    opts = em_gen_reduce_options(d, em_device_get_type(dev), &n_opts);
    st = em_kernel_cache_get(dev, src, 0, opts, n_opts, EM_GEN_REDUCE_VERSION,
                             &m, NULL);
    free(src);
    if (st != EM_OK)
        return st;
    st = em_module_get_function(m, "rd", &fn);
    if (st != EM_OK)
        return st;
    if (t)
        table_insert(t, key[0], key[1], fn);
    *out = fn;
    return EM_OK;
}
