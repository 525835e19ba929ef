/* ember runtime: the kernel cache (compile once, then find).
 *
 * Key: (backend type, device arch, generator version, source hash,
 * options hash, code kind). In memory the key also holds the device,
 * since a loaded module belongs to one device (two GPUs of one arch share
 * disk entries, not modules).
 *
 * Memory: an open-addressing table of fixed-size keys under a rwlock; a
 * lookup hashes the options and (if the caller gave no hash) the source,
 * and compares the stored source and options to rule out a hash collision
 * but builds no string. Only a miss builds the disk identity and name.
 *
 * Disk: one em_diskcache entry per key, named "<backend><arch>-<16 hex of
 * the key hash>" (the file adds .emk), whose identity is the key fields,
 * the options (NUL-separated) and the source. Code from disk that fails to
 * load is counted as a reject and recompiled; the store overwrites it.
 *
 * Two threads that miss on one key at once both compile; the first insert
 * wins and the second unloads its module. That wastes a compile in a rare
 * race instead of holding a lock across the compiler. Modules stay until
 * exit.
 *
 * The cache is where a module and its source meet, so a module it hands
 * out carries the kernels' signatures read from that source (core/ksig.c),
 * whichever way the code came: compiled now or loaded from disk. They give
 * the module's functions their parameter kinds.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "runtime.h"
#include "core/ksig.h"
#include "core/fault.h"

#define KC_SEED 0x656d6265724b4331ull   /* "emberKC1" */

/* Serialized as is into the disk identity: fixed-width fields, no padding. */
struct kc_key {
    uint64_t source_hash;
    uint64_t options_hash;
    uint32_t gen_version;
    int32_t arch;
    int32_t device_type;
    int32_t code_kind;
};

struct kc_entry {
    uint64_t hash;              /* of key and device */
    struct kc_key key;
    const em_device *dev;
    char *source;
    char *options;              /* n_options NUL-terminated strings, end to end */
    size_t options_len;
    int n_options;
    em_module *module;
};

static pthread_rwlock_t kc_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct kc_entry **kc_slots;  /* open addressing, linear probing */
static size_t kc_cap;               /* a power of two, or 0 */
static size_t kc_count;
static struct {
    uint64_t memory_hits, disk_hits, compiles, disk_rejects;
} kc_stats;

static void kc_count_up(uint64_t *c) { __atomic_add_fetch(c, 1, __ATOMIC_RELAXED); }

void em_kernel_cache_get_stats(em_kernel_cache_stats *out)
{
    if (!out)
        return;
    out->memory_hits = __atomic_load_n(&kc_stats.memory_hits, __ATOMIC_RELAXED);
    out->disk_hits = __atomic_load_n(&kc_stats.disk_hits, __ATOMIC_RELAXED);
    out->compiles = __atomic_load_n(&kc_stats.compiles, __ATOMIC_RELAXED);
    out->disk_rejects = __atomic_load_n(&kc_stats.disk_rejects, __ATOMIC_RELAXED);
    pthread_rwlock_rdlock(&kc_lock);
    out->entries = kc_count;
    pthread_rwlock_unlock(&kc_lock);
}

static uint64_t kc_options_hash(const char *const *options, int n)
{
    uint64_t h = em_hash_combine(KC_SEED, (uint64_t)n);
    int i;
    for (i = 0; i < n; i++) {
        size_t len = strlen(options[i]);
        /* The length is in the hash too, so {"-DA", "B"} and {"-DAB"}
         * differ even before the strings are compared. */
        h = em_hash_combine(h, em_hash64(options[i], len, len));
    }
    return h;
}

/* The key without the device: names the disk entry. */
static uint64_t kc_key_hash(const struct kc_key *k)
{
    return em_hash64(k, sizeof *k, KC_SEED);
}

static int kc_matches(const struct kc_entry *e, uint64_t hash, const struct kc_key *k,
                      const em_device *d, const char *source,
                      const char *const *options, int n_options)
{
    const char *p;
    int i;
    if (e->hash != hash || e->dev != d || memcmp(&e->key, k, sizeof *k) ||
        e->n_options != n_options)
        return 0;
    /* Equal keys: rule out a collision of the 64-bit hashes. */
    for (i = 0, p = e->options; i < n_options; i++, p += strlen(p) + 1)
        if (strcmp(p, options[i]))
            return 0;
    return !strcmp(e->source, source);
}

/* Lock held (either mode). */
static struct kc_entry *kc_find(uint64_t hash, const struct kc_key *k, const em_device *d,
                                const char *source, const char *const *options,
                                int n_options)
{
    size_t i, mask;
    if (!kc_cap)
        return NULL;
    mask = kc_cap - 1;
    for (i = hash & mask; kc_slots[i]; i = (i + 1) & mask)
        if (kc_matches(kc_slots[i], hash, k, d, source, options, n_options))
            return kc_slots[i];
    return NULL;
}

/* Write lock held. Keeps the load at most 1/2 so probes stay short. */
static int kc_insert(struct kc_entry *e)
{
    size_t i, mask;
    if (2 * (kc_count + 1) > kc_cap) {
        size_t cap = kc_cap ? 2 * kc_cap : 64, j;
        struct kc_entry **slots = calloc(cap, sizeof *slots);
        if (!slots)
            return 0;
        for (j = 0; j < kc_cap; j++) {
            struct kc_entry *o = kc_slots[j];
            if (!o)
                continue;
            for (i = o->hash & (cap - 1); slots[i]; i = (i + 1) & (cap - 1))
                ;
            slots[i] = o;
        }
        free(kc_slots);
        kc_slots = slots;
        kc_cap = cap;
    }
    mask = kc_cap - 1;
    for (i = e->hash & mask; kc_slots[i]; i = (i + 1) & mask)
        ;
    kc_slots[i] = e;
    kc_count++;
    return 1;
}

/* ---- the slow path ---------------------------------------------------- */

static double kc_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void kc_entry_free(struct kc_entry *e)
{
    if (!e)
        return;
    free(e->source);
    free(e->options);
    free(e);
}

/* A new entry, holding copies of the source and options. */
static struct kc_entry *kc_entry_new(uint64_t hash, const struct kc_key *k,
                                     const em_device *d, const char *source,
                                     const char *const *options, int n_options)
{
    struct kc_entry *e = calloc(1, sizeof *e);
    size_t len = 0, at = 0;
    int i;
    if (!e)
        return NULL;
    for (i = 0; i < n_options; i++)
        len += strlen(options[i]) + 1;
    e->hash = hash;
    e->key = *k;
    e->dev = d;
    e->n_options = n_options;
    e->options_len = len;
    e->source = strdup(source);
    e->options = malloc(len ? len : 1);
    if (!e->source || !e->options) {
        kc_entry_free(e);
        return NULL;
    }
    for (i = 0; i < n_options; i++) {
        size_t l = strlen(options[i]) + 1;
        memcpy(e->options + at, options[i], l);
        at += l;
    }
    return e;
}

/* The disk identity: "EMK1", the key, the options and the source, each
 * string NUL-terminated so no two inputs give the same bytes. */
static void *kc_identity(const struct kc_entry *e, size_t *size)
{
    size_t src_len = strlen(e->source) + 1;
    size_t n = 4 + sizeof e->key + e->options_len + src_len;
    unsigned char *b = malloc(n), *p = b;
    if (!b)
        return NULL;
    memcpy(p, "EMK1", 4);
    p += 4;
    memcpy(p, &e->key, sizeof e->key);
    p += sizeof e->key;
    memcpy(p, e->options, e->options_len);
    p += e->options_len;
    memcpy(p, e->source, src_len);
    *size = n;
    return b;
}

/* The module from the disk cache, or NULL (a miss or a reject). */
static em_module *kc_from_disk(em_device *d, const char *name, const void *ident,
                               size_t ident_size)
{
    static char empty_log[1];
    void *payload = NULL;
    size_t size = 0;
    em_module *m = NULL;
    em_code code;
    em_status s = em_diskcache_load(name, ident, ident_size, &payload, &size);
    if (s != EM_OK) {
        if (s != EM_ERR_NOT_FOUND)
            em_log(EM_LOG_WARN, "kcache", "reading %s: %s", name, em_last_error());
        return NULL;
    }
    /* PTX must end in a NUL that the stored size leaves out. */
    if (d->ops->code_kind == EM_CODE_PTX) {
        void *p = realloc(payload, size + 1);
        if (!p) {
            free(payload);
            return NULL;
        }
        payload = p;
        ((char *)payload)[size] = 0;
    }
    code.kind = d->ops->code_kind;
    code.data = payload;
    code.size = size;
    code.log = empty_log;
    s = em_module_load(d, &code, &m);
    free(payload);
    if (s != EM_OK) {
        kc_count_up(&kc_stats.disk_rejects);
        em_log(EM_LOG_WARN, "kcache", "cached code %s failed to load on %s (%s); "
               "recompiling", name, d->name, em_last_error());
        return NULL;
    }
    return m;
}

static em_status kc_compile(em_device *d, struct kc_entry *e, const char *const *options,
                            const char *name, const void *ident, size_t ident_size,
                            em_module **out, char **out_log)
{
    em_code *code = NULL;
    char *log = NULL;
    double t0 = kc_now_ms();
    em_status s = em_fault_hit(EM_FAULT_COMPILE)
        ? em_error(EM_ERR_COMPILE, "injected failure of compile #%" PRIu64 " (%s)",
                   em_fault_attempts(EM_FAULT_COMPILE), name)
        : d->ops->compile(d, e->source, "ember_kernel", options, e->n_options, &code,
                          &log);
    kc_count_up(&kc_stats.compiles);
    if (!log && code && code->log)
        log = strdup(code->log);
    if (s != EM_OK) {
        if (out_log)
            *out_log = log;
        else
            free(log);
        em_code_free(code);
        return s;
    }
    em_log(EM_LOG_DEBUG, "kcache", "compiled %s for %s in %.1f ms", name, d->name,
           kc_now_ms() - t0);
    /* Load before storing, so code that does not load is never cached. */
    s = em_module_load(d, code, out);
    if (s != EM_OK) {
        em_code_free(code);
        free(log);
        return s;
    }
    if (em_diskcache_store(name, ident, ident_size, code->data, code->size) != EM_OK)
        em_log(EM_LOG_WARN, "kcache", "not cached on disk: %s", em_last_error());
    em_code_free(code);
    if (out_log)
        *out_log = log ? log : strdup("");
    else
        free(log);
    return EM_OK;
}

static em_status kc_miss(em_device *d, struct kc_entry *e, const char *const *options,
                         em_module **out, char **out_log)
{
    char name[64];
    size_t ident_size = 0;
    void *ident = kc_identity(e, &ident_size);
    em_module *m;
    em_status s = EM_OK;
    if (!ident)
        return em_error(EM_ERR_OUT_OF_MEMORY, "out of host memory in the kernel cache");
    snprintf(name, sizeof name, "%s%d-%016" PRIx64, d->ops->name, (int)e->key.arch,
             kc_key_hash(&e->key));
    m = kc_from_disk(d, name, ident, ident_size);
    if (m) {
        kc_count_up(&kc_stats.disk_hits);
        em_log(EM_LOG_DEBUG, "kcache", "disk hit %s for %s", name, d->name);
    } else {
        s = kc_compile(d, e, options, name, ident, ident_size, &m, out_log);
    }
    free(ident);
    *out = m;
    return s;
}

em_status em_kernel_cache_get(em_device *d, const char *source, uint64_t source_hash,
                              const char *const *options, int n_options,
                              uint32_t gen_version, em_module **out, char **out_log)
{
    struct kc_key key;
    struct kc_entry *e, *won;
    uint64_t hash;
    em_module *m = NULL;
    em_status s;
    int i;
    if (out_log)
        *out_log = NULL;
    if (!out)
        return em_error(EM_ERR_INVALID_VALUE, "em_kernel_cache_get: out is NULL");
    *out = NULL;
    if (!d || !source)
        return em_error(EM_ERR_INVALID_VALUE, "em_kernel_cache_get: %s is NULL",
                        d ? "source" : "device");
    if (n_options < 0 || (n_options > 0 && !options))
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_kernel_cache_get: %d options but options is NULL", n_options);
    for (i = 0; i < n_options; i++)
        if (!options[i])
            return em_error(EM_ERR_INVALID_VALUE, "em_kernel_cache_get: option %d is NULL", i);

    memset(&key, 0, sizeof key);
    key.source_hash = source_hash ? source_hash : em_hash64(source, strlen(source), 0);
    key.options_hash = kc_options_hash(options, n_options);
    key.gen_version = gen_version;
    key.arch = d->arch;
    key.device_type = (int32_t)d->type;
    key.code_kind = (int32_t)d->ops->code_kind;
    hash = em_hash_combine(kc_key_hash(&key), (uint64_t)d->type << 32 | (uint32_t)d->id);

    pthread_rwlock_rdlock(&kc_lock);
    e = kc_find(hash, &key, d, source, options, n_options);
    pthread_rwlock_unlock(&kc_lock);
    if (e) {
        kc_count_up(&kc_stats.memory_hits);
        if (em_log_enabled(EM_LOG_DEBUG))
            em_log(EM_LOG_DEBUG, "kcache", "memory hit for %s", d->name);
        *out = e->module;
        return EM_OK;
    }

    /* A compile, or a load from disk, may synchronize the device: a
     * kernel first met in a capture is compiled by a warm-up run. */
    if (d->capturing)
        return em_rt_capture_refuse(d, "compiling a kernel not yet in memory "
                                    "(run the work once before capturing it)");
    e = kc_entry_new(hash, &key, d, source, options, n_options);
    if (!e)
        return em_error(EM_ERR_OUT_OF_MEMORY, "out of host memory in the kernel cache");
    s = kc_miss(d, e, options, &m, out_log);
    if (s != EM_OK) {
        kc_entry_free(e);
        return s;
    }
    /* Before the module is shared. Only a lack of memory fails, and then
     * the kinds stay unknown: launches lose checks, not correctness. */
    if (em_ksig_parse(e->source, "kernel.cu", options, n_options, &m->sigs) != EM_OK)
        m->sigs = NULL;
    pthread_rwlock_wrlock(&kc_lock);
    won = kc_find(hash, &key, d, source, options, n_options);
    if (!won) {
        e->module = m;
        em_rt_module_set_cached(m);
        if (kc_insert(e))
            won = e;
    }
    pthread_rwlock_unlock(&kc_lock);
    if (won != e) {
        /* Lost a race to another compile of the same kernel, or no memory
         * to remember this one. */
        em_rt_module_unload_any(m);
        kc_entry_free(e);
        if (!won) {
            if (out_log) {
                free(*out_log);
                *out_log = NULL;
            }
            return em_error(EM_ERR_OUT_OF_MEMORY, "out of host memory in the kernel cache");
        }
    }
    *out = won->module;
    return EM_OK;
}
