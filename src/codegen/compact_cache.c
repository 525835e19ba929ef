/* ember codegen: compaction descriptor -> compiled kernels, per device.
 *
 * The same scheme as the other generators' tables: a fixed open-addressed
 * table per device keyed by the 16-byte descriptor, read without a lock
 * (the functions are published last with a release store), filled under a
 * mutex after a miss went through the kernel cache. A full table only
 * means misses stay misses.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/compact.h"

#define CT_SLOTS 256 /* a power of two */
#define CT_MAX_FILL (CT_SLOTS * 3 / 4)
#define CT_MAX_DEVICES 64

typedef struct ct_slot {
    uint64_t k[2];
    em_function *fn[3];
    int ready; /* published last (release) */
} ct_slot;

typedef struct ct_table {
    pthread_mutex_t lock;
    int count;
    ct_slot slots[CT_SLOTS];
} ct_table;

static ct_table *ct_tables[2][CT_MAX_DEVICES];

static ct_table *table_for(em_device *dev)
{
    int type = em_device_get_type(dev) == EM_DEVICE_CUDA,
        id = em_device_get_id(dev);
    ct_table *t, *expected = NULL;
    if (id < 0 || id >= CT_MAX_DEVICES)
        return NULL;
    t = __atomic_load_n(&ct_tables[type][id], __ATOMIC_ACQUIRE);
    if (t)
        return t;
    if (!(t = calloc(1, sizeof *t)))
        return NULL;
    pthread_mutex_init(&t->lock, NULL);
    if (!__atomic_compare_exchange_n(&ct_tables[type][id], &expected, t, 0,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        pthread_mutex_destroy(&t->lock);
        free(t);
        return expected;
    }
    return t;
}

static uint64_t key_hash(const uint64_t *k)
{
    uint64_t h = (k[0] ^ 0x9e3779b97f4a7c15ull) * 0xc2b2ae3d27d4eb4full;
    h = (h ^ k[1]) * 0xc2b2ae3d27d4eb4full;
    return h ^ (h >> 31);
}

static ct_slot *table_find(ct_table *t, const uint64_t *k)
{
    for (uint64_t i = key_hash(k), n = 0; n < CT_SLOTS; i++, n++) {
        ct_slot *s = &t->slots[i & (CT_SLOTS - 1)];
        if (!__atomic_load_n(&s->ready, __ATOMIC_ACQUIRE))
            return NULL;
        if (s->k[0] == k[0] && s->k[1] == k[1])
            return s;
    }
    return NULL;
}

static void table_insert(ct_table *t, const uint64_t *k, em_function *const *fn)
{
    pthread_mutex_lock(&t->lock);
    if (t->count < CT_MAX_FILL && !table_find(t, k)) {
        for (uint64_t i = key_hash(k);; i++) {
            ct_slot *s = &t->slots[i & (CT_SLOTS - 1)];
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

em_status em_gen_compact_functions(em_device *dev, const em_gen_compact *d,
                                   em_function *fn[3])
{
    static const char *const mask_names[3] = {"cc_count", "cc_scan",
                                              "cc_write"};
    static const char *const hash_names[2] = {"ch_insert", "ch_extract"};
    static const char *const host_opts[] = {"-O2"};
    uint64_t key[2];
    ct_table *t;
    ct_slot *hit;
    em_module *m = NULL;
    char *src = NULL;
    em_function *f[3] = {NULL, NULL, NULL};
    int cpu = em_device_get_type(dev) == EM_DEVICE_CPU, nf;
    const char *const *names;
    em_status st;

    _Static_assert(sizeof(em_gen_compact) == sizeof key,
                   "the descriptor is the key");
    memcpy(key, d, sizeof key);
    t = table_for(dev);
    if (t && (hit = table_find(t, key))) {
        memcpy(fn, hit->fn, sizeof hit->fn);
        return EM_OK;
    }
    if ((st = em_gen_compact_source(d, em_device_get_type(dev), &src)) != EM_OK)
        return st;
    st = em_kernel_cache_get(dev, src, 0, cpu ? host_opts : NULL, cpu ? 1 : 0,
                             EM_GEN_COMPACT_VERSION, &m, NULL);
    free(src);
    if (st != EM_OK)
        return st;
    if (d->kind == EM_GEN_COMPACT_ROWS) {
        static const char *const rows_name[1] = {"cc_rows"};
        names = rows_name;
        nf = 1;
    } else if (d->kind == EM_GEN_COMPACT_HASH) {
        names = hash_names;
        nf = 2;
    } else {
        names = mask_names;
        nf = 3;
    }
    for (int i = 0; i < nf && st == EM_OK; i++)
        st = em_module_get_function(m, names[i], &f[i]);
    if (st != EM_OK)
        return st;
    if (t)
        table_insert(t, key, f);
    memcpy(fn, f, sizeof f);
    return EM_OK;
}
