/* ember codegen: descriptor -> compiled elementwise kernel, per device.
 *
 * The hot path of every ufunc call. Each device has a fixed open-addressed
 * table keyed by the 16-byte descriptor. Readers take no lock: a slot's
 * key words are written before its function pointer is published with a
 * release store, and a reader that acquires a non-NULL pointer sees the
 * key. Slots are never removed or reused. A miss generates the source and
 * goes through the kernel cache (memory, disk, compiler) under no lock; a
 * mutex serialises only the insert. A full table still works: misses just
 * stay misses (the kernel cache then answers from memory).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/ewise.h"

#define EW_SLOTS 4096 /* a power of two */
#define EW_MAX_FILL (EW_SLOTS * 3 / 4)
#define EW_MAX_DEVICES 64

typedef struct ew_slot {
    uint64_t k0, k1;
    em_function *fn; /* published last (release) */
} ew_slot;

typedef struct ew_table {
    pthread_mutex_t lock;
    int count;
    int units; /* SMs (cuda) or cores (cpu), for grid sizes */
    ew_slot slots[EW_SLOTS];
} ew_table;

static ew_table *ew_tables[2][EW_MAX_DEVICES];

static ew_table *table_for(em_device *dev)
{
    int type = em_device_get_type(dev) == EM_DEVICE_CUDA,
        id = em_device_get_id(dev);
    ew_table *t, *expected = NULL;
    if (id < 0 || id >= EW_MAX_DEVICES)
        return NULL;
    t = __atomic_load_n(&ew_tables[type][id], __ATOMIC_ACQUIRE);
    if (t)
        return t;
    t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    pthread_mutex_init(&t->lock, NULL);
    {
        em_device_props p;
        t->units =
            em_device_get_props(dev, &p) == EM_OK ? p.multiprocessor_count : 1;
    }
    if (!__atomic_compare_exchange_n(&ew_tables[type][id], &expected, t, 0,
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

static em_function *table_find(ew_table *t, uint64_t k0, uint64_t k1)
{
    for (uint64_t i = key_hash(k0, k1), n = 0; n < EW_SLOTS; i++, n++) {
        ew_slot *s = &t->slots[i & (EW_SLOTS - 1)];
        em_function *fn = __atomic_load_n(&s->fn, __ATOMIC_ACQUIRE);
        if (!fn)
            return NULL;
        if (s->k0 == k0 && s->k1 == k1)
            return fn;
    }
    return NULL;
}

static void table_insert(ew_table *t, uint64_t k0, uint64_t k1, em_function *fn)
{
    pthread_mutex_lock(&t->lock);
    if (t->count < EW_MAX_FILL && !table_find(t, k0, k1)) {
        for (uint64_t i = key_hash(k0, k1);; i++) {
            ew_slot *s = &t->slots[i & (EW_SLOTS - 1)];
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

int em_gen_device_units(em_device *dev)
{
    ew_table *t = table_for(dev);
    return t && t->units > 0 ? t->units : 1;
}

em_status em_gen_ewise_function(em_device *dev, const em_gen_ewise *d,
                                em_function **out)
{
    uint64_t key[2];
    ew_table *t;
    em_function *fn;
    em_module *m = NULL;
    char *src = NULL;
    const char *const *opts;
    int n_opts;
    em_status st;

    _Static_assert(sizeof(em_gen_ewise) == sizeof key,
                   "the descriptor is the key");
    memcpy(key, d, sizeof key);
    t = table_for(dev);
    if (t && (fn = table_find(t, key[0], key[1]))) {
        *out = fn;
        return EM_OK;
    }
    st = em_gen_ewise_source(d, em_device_get_type(dev), "ew", &src);
    if (st != EM_OK)
        return st;
    opts = em_gen_ewise_options(em_device_get_type(dev), &n_opts);
    st = em_kernel_cache_get(dev, src, 0, opts, n_opts, EM_GEN_EWISE_VERSION,
                             &m, NULL);
    free(src);
    if (st != EM_OK)
        return st;
    st = em_module_get_function(m, "ew", &fn);
    if (st != EM_OK)
        return st;
    if (t)
        table_insert(t, key[0], key[1], fn);
    *out = fn;
    return EM_OK;
}
