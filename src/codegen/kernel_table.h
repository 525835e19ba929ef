/* ember codegen: the per-device tables from a kernel descriptor to its
 * loaded kernels, shared by every generator (ewise, reduce, gather,
 * histogram, compaction, scan, product and cumulate).
 *
 * The hot path of every generated op is a hit here, so a hit takes no
 * lock and builds no string: each device has a fixed open-addressed table
 * keyed by up to four descriptor words (plus, for user operators, the
 * operator's text, compared in full so that a hash collision never runs
 * another user's code). A slot's key and functions are written before its
 * ready flag is published with a release store; a reader that acquires
 * the flag sees both. Slots are never removed or reused. A miss asks the
 * family's loader (source generation and the kernel cache, memory, disk
 * or compiler) under no lock; a mutex serialises only the insert. A full
 * table still works: misses just stay misses (the kernel cache then
 * answers from memory).
 */
#ifndef EMBER_CODEGEN_KERNEL_TABLE_H
#define EMBER_CODEGEN_KERNEL_TABLE_H

#include <stdint.h>

#include "ember/runtime.h"

#define EM_GEN_KT_WORDS 4    /* descriptor words per key */
#define EM_GEN_KT_FNS 3      /* kernels per entry (one module's) */
#define EM_GEN_KT_DEVICES 64 /* device ids with a table; others compile */

typedef struct em_gen_kt em_gen_kt; /* one device's table */

/* A family's tables, one per device, made on first use: a static
 * initialised with EM_GEN_KTABLE(slots), slots a power of two. */
typedef struct em_gen_ktable {
    unsigned slots;
    em_gen_kt *dev[2][EM_GEN_KT_DEVICES]; /* [is cuda][device id] */
} em_gen_ktable;
/* clang-format off */
#define EM_GEN_KTABLE(n) {(n), {{NULL}}}
/* clang-format on */

/* The key: the descriptor's words (unused ones zero) and an optional
 * NUL-ended text (NULL for none; the table keeps its own copy). */
typedef struct em_gen_kkey {
    uint64_t w[EM_GEN_KT_WORDS];
    const char *text;
} em_gen_kkey;

/* Fills fn[0..EM_GEN_KT_FNS) (entries it does not need stay NULL) with the
 * kernels for the key on a miss; ctx is the caller's. */
typedef em_status (*em_gen_kt_load_fn)(const void *ctx, em_device *dev,
                                       em_function **fn);

/* The first n (at most EM_GEN_KT_FNS) kernels for key on dev: from the
 * table, or made by load and remembered. On failure fn is left as is and
 * load's status is returned. */
em_status em_gen_kt_get(em_gen_ktable *family, em_device *dev,
                        const em_gen_kkey *key, int n, em_function **fn,
                        em_gen_kt_load_fn load, const void *ctx);

/* The miss path most loaders share: compiles src (freed here, whatever
 * the outcome) through the kernel cache with opts under gen_version and
 * looks up the kernels names[0..n) of the module into fn. */
em_status em_gen_kt_compile(em_device *dev, char *src, const char *const *opts,
                            int n_opts, uint32_t gen_version,
                            const char *const *names, int n, em_function **fn);

#endif
