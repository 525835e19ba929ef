/* ember codegen: the per-device kernel table of the scan family.
 *
 * As linalg_table.c, but a user's expression is part of the key: a slot
 * holds the descriptor word, the expression's hash and its own copy of the
 * expression, compared in full on a hit (a hash collision must never run
 * another user's operator). Reads take no lock; a slot's functions are
 * published last. A full table still works (misses stay misses).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/scan.h"
#include "ember/util.h"

#define ST_SLOTS 1024 /* a power of two */
#define ST_MAX_FILL (ST_SLOTS * 3 / 4)
#define ST_MAX_DEVICES 64

typedef struct st_slot {
    uint64_t word, hash;
    char *expr;            /* NULL for built-ins */
    em_function *fn[3];
    int ready;             /* published last (release) */
} st_slot;

typedef struct st_table {
    pthread_mutex_t lock;
    int count;
    st_slot slots[ST_SLOTS];
} st_table;

static st_table *st_tables[2][ST_MAX_DEVICES];

static st_table *table_for(em_device *dev)
{
    int type = em_device_get_type(dev) == EM_DEVICE_CUDA,
        id = em_device_get_id(dev);
    st_table *t, *expected = NULL;
    if (id < 0 || id >= ST_MAX_DEVICES)
        return NULL;
    t = __atomic_load_n(&st_tables[type][id], __ATOMIC_ACQUIRE);
    if (t)
        return t;
    t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    pthread_mutex_init(&t->lock, NULL);
    if (!__atomic_compare_exchange_n(&st_tables[type][id], &expected, t, 0,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        pthread_mutex_destroy(&t->lock);
        free(t);
        return expected;
    }
    return t;
}

static int same_key(const st_slot *s, uint64_t word, uint64_t hash,
                    const char *expr)
{
    if (s->word != word || s->hash != hash)
        return 0;
    if (!s->expr || !expr)
        return !s->expr && !expr;
    return !strcmp(s->expr, expr);
}

static st_slot *table_find(st_table *t, uint64_t word, uint64_t hash,
                           const char *expr)
{
    uint64_t h = em_hash_combine(hash, word);
    for (uint64_t i = h, n = 0; n < ST_SLOTS; i++, n++) {
        st_slot *s = &t->slots[i & (ST_SLOTS - 1)];
        if (!__atomic_load_n(&s->ready, __ATOMIC_ACQUIRE))
            return NULL;
        if (same_key(s, word, hash, expr))
            return s;
    }
    return NULL;
}

static void table_insert(st_table *t, uint64_t word, uint64_t hash,
                         const char *expr, em_function *const *fns, int n)
{
    char *copy = NULL;
    if (expr && !(copy = strdup(expr)))
        return;
    pthread_mutex_lock(&t->lock);
    if (t->count < ST_MAX_FILL && !table_find(t, word, hash, expr)) {
        for (uint64_t i = em_hash_combine(hash, word);; i++) {
            st_slot *s = &t->slots[i & (ST_SLOTS - 1)];
            if (s->ready)
                continue;
            s->word = word;
            s->hash = hash;
            s->expr = copy;
            copy = NULL;
            for (int k = 0; k < n; k++)
                s->fn[k] = fns[k];
            __atomic_store_n(&s->ready, 1, __ATOMIC_RELEASE);
            t->count++;
            break;
        }
    }
    pthread_mutex_unlock(&t->lock);
    free(copy);
}

em_status em_gen_scan_table_get(em_device *dev, uint64_t word,
                                const char *expr, em_gen_scan_src_fn gen,
                                const char *name, const char *const *names,
                                int n, em_function **fns)
{
    /* -fwrapv: a user's signed arithmetic wraps, as it does on the GPU.
     * -fmad=false: "a * b + 1.0" rounds twice, as NumPy and the host
     * (-ffp-contract=off) do, instead of becoming one fused multiply-add. */
    static const char *const host_opts[] = {"-O3", "-fwrapv"};
    static const char *const cuda_opts[] = {"--fmad=false"};
    uint64_t hash = expr ? em_hash64(expr, strlen(expr), 0x5ca9) : 0;
    st_table *t = table_for(dev);
    st_slot *hit;
    em_module *m = NULL;
    char *src = NULL;
    int cpu = em_device_get_type(dev) == EM_DEVICE_CPU;
    em_status st;

    if (t && (hit = table_find(t, word, hash, expr))) {
        for (int k = 0; k < n; k++)
            fns[k] = hit->fn[k];
        return EM_OK;
    }
    st = gen(word, expr, em_device_get_type(dev), name, &src);
    if (st != EM_OK)
        return st;
    st = em_kernel_cache_get(dev, src, 0, cpu ? host_opts : cuda_opts, cpu ? 2 : 1,
                             EM_GEN_SCAN_VERSION, &m, NULL);
    free(src);
    if (st != EM_OK) {
        if (st == EM_ERR_COMPILE && expr) {
            /* Copied first: em_error may reuse the message buffer. */
            char *log = strdup(em_last_error());
            st = em_error(EM_ERR_COMPILE,
                          "the operator expression '%s' does not compile: %s",
                          expr, log ? log : "(out of memory)");
            free(log);
        }
        return st;
    }
    for (int k = 0; k < n; k++)
        if ((st = em_module_get_function(m, names[k], &fns[k])) != EM_OK)
            return st;
    if (t)
        table_insert(t, word, hash, expr, fns, n);
    return EM_OK;
}
