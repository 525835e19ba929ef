/* ember codegen: the per-device kernel tables (see kernel_table.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/kernel_table.h"

typedef struct kt_slot {
    uint64_t w[EM_GEN_KT_WORDS];
    char *text; /* the table's copy; NULL when the key has none */
    em_function *fn[EM_GEN_KT_FNS];
    int ready; /* published last (release) */
} kt_slot;

struct em_gen_kt {
    pthread_mutex_t lock;
    unsigned mask; /* slots - 1 */
    unsigned count, max_fill;
    kt_slot slots[];
};

static em_gen_kt *table_for(em_gen_ktable *family, em_device *dev)
{
    int type = em_device_get_type(dev) == EM_DEVICE_CUDA,
        id = em_device_get_id(dev);
    em_gen_kt *t, *expected = NULL;
    if (id < 0 || id >= EM_GEN_KT_DEVICES)
        return NULL;
    t = __atomic_load_n(&family->dev[type][id], __ATOMIC_ACQUIRE);
    if (t)
        return t;
    t = calloc(1, sizeof *t + family->slots * sizeof(kt_slot));
    if (!t)
        return NULL;
    pthread_mutex_init(&t->lock, NULL);
    t->mask = family->slots - 1;
    t->max_fill = family->slots * 3 / 4;
    if (!__atomic_compare_exchange_n(&family->dev[type][id], &expected, t, 0,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        pthread_mutex_destroy(&t->lock);
        free(t);
        return expected;
    }
    return t;
}

/* The text is not hashed: callers with a text put its hash in a word. */
static uint64_t key_hash(const em_gen_kkey *k)
{
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < EM_GEN_KT_WORDS; i++)
        h = (h ^ k->w[i]) * 0xc2b2ae3d27d4eb4full;
    return h ^ (h >> 31);
}

static int same_key(const kt_slot *s, const em_gen_kkey *k)
{
    if (memcmp(s->w, k->w, sizeof s->w))
        return 0;
    if (!s->text || !k->text)
        return !s->text && !k->text;
    return !strcmp(s->text, k->text);
}

static kt_slot *table_find(em_gen_kt *t, const em_gen_kkey *k, uint64_t h)
{
    for (uint64_t i = h, n = 0; n <= t->mask; i++, n++) {
        kt_slot *s = &t->slots[i & t->mask];
        if (!__atomic_load_n(&s->ready, __ATOMIC_ACQUIRE))
            return NULL;
        if (same_key(s, k))
            return s;
    }
    return NULL;
}

static void table_insert(em_gen_kt *t, const em_gen_kkey *k, uint64_t h,
                         em_function *const *fn)
{
    char *copy = NULL;
    if (k->text && !(copy = strdup(k->text)))
        return; /* not remembered: the next call loads again */
    pthread_mutex_lock(&t->lock);
    if (t->count < t->max_fill && !table_find(t, k, h)) {
        for (uint64_t i = h;; i++) {
            kt_slot *s = &t->slots[i & t->mask];
            if (s->ready)
                continue;
            memcpy(s->w, k->w, sizeof s->w);
            s->text = copy;
            copy = NULL;
            memcpy(s->fn, fn, sizeof s->fn);
            __atomic_store_n(&s->ready, 1, __ATOMIC_RELEASE);
            t->count++;
            break;
        }
    }
    pthread_mutex_unlock(&t->lock);
    free(copy);
}

em_status em_gen_kt_get(em_gen_ktable *family, em_device *dev,
                        const em_gen_kkey *key, int n, em_function **fn,
                        em_gen_kt_load_fn load, const void *ctx)
{
    em_gen_kt *t = table_for(family, dev);
    uint64_t h = key_hash(key);
    em_function *f[EM_GEN_KT_FNS] = {NULL, NULL, NULL};
    kt_slot *hit;
    em_status st;

    if (t && (hit = table_find(t, key, h))) {
        memcpy(fn, hit->fn, (size_t)n * sizeof *fn);
        return EM_OK;
    }
    if ((st = load(ctx, dev, f)) != EM_OK)
        return st;
    if (t)
        table_insert(t, key, h, f);
    memcpy(fn, f, (size_t)n * sizeof *fn);
    return EM_OK;
}

em_status em_gen_kt_compile(em_device *dev, char *src, const char *const *opts,
                            int n_opts, uint32_t gen_version,
                            const char *const *names, int n, em_function **fn)
{
    em_module *m = NULL;
    em_status st =
        em_kernel_cache_get(dev, src, 0, opts, n_opts, gen_version, &m, NULL);
    free(src);
    for (int i = 0; i < n && st == EM_OK; i++)
        st = em_module_get_function(m, names[i], &fn[i]);
    return st;
}
