/* ember codegen: the radix sort kernels (see src/algo/radix_sort.c for
 * the schedule).
 *
 * Two kinds of module per device: one generic (digit histograms, the scan
 * of digit counts, the stable scatter for 32- and 64-bit images, gathers
 * by item size) and one per key dtype (the order-preserving bit image).
 * Kernels are found by a 64-bit key in the shared per-device table
 * (linalg_table.c) under the family EM_GEN_FAMILY_SORT, so a repeated
 * call builds no source.
 */
#ifndef EMBER_CODEGEN_SORT_H
#define EMBER_CODEGEN_SORT_H

#include <stdint.h>

#include "ember/dtype.h"
#include "ember/runtime.h"

#define EM_GEN_SORT_VERSION 2u
/* Chosen away from the small family numbers in linalg_table.h. */
#define EM_GEN_FAMILY_SORT 0x5au

/* The generic module's kernels, and the per-dtype image kernels. */
typedef enum em_gen_sort_fn {
    EM_SRT_HIST32 = 0,
    EM_SRT_HIST64,
    EM_SRT_SCAN,
    EM_SRT_SCATTER32,
    EM_SRT_SCATTER64,
    EM_SRT_GATHER1,
    EM_SRT_GATHER2,
    EM_SRT_GATHER4,
    EM_SRT_GATHER8,
    EM_SRT_GATHER16,
    EM_SRT_ROWMOD,
    EM_SRT_SEARCH32,
    EM_SRT_SEARCH64,
    EM_SRT_GSUM,
    EM_SRT_GAPPLY,
    /* CUDA only: a warp per chunk */
    EM_SRT_WHIST32,
    EM_SRT_WHIST64,
    EM_SRT_WSCATTER32,
    EM_SRT_WSCATTER64,
    EM_SRT_GENERIC_COUNT,
    EM_SRT_IMAGE = 32, /* per dtype: the bit image of a key (or, for a
                          complex dtype, of one component) */
    EM_SRT_GROUP,      /* complex only: NumPy's NaN group of a key */
    EM_SRT_UNIMAGE,    /* ints and bool: images back to keys (keys-only
                          sorts); merge_sort.c uses the next two numbers */
    /* per dtype, moving raw keys (sort_onesweep.c). CUDA: */
    EM_SRT_UP = 40, /* every pass's digit histogram in one read, then
                       (its last block) each digit's first place */
    EM_SRT_OS0,     /* one Onesweep pass: keys only */
    EM_SRT_OS4,     /* ... with 4-byte values */
    EM_SRT_OS8,     /* ... with 8-byte values (or input positions) */
    /* host: */
    EM_SRT_KHIST,    /* per-chunk digit counts (of the top digit) */
    EM_SRT_KSCAT0,   /* per-chunk stable scatter: keys only */
    EM_SRT_KSCAT4,   /* ... with 4-byte values */
    EM_SRT_KSCAT8,   /* ... with 8-byte values (or input positions) */
    EM_SRT_KBUCKET0, /* per bucket of the top digit: LSD of the rest */
    EM_SRT_KBUCKET4,
    EM_SRT_KBUCKET8,
    EM_SRT_KTOP /* the top digit: the highest one keys differ in */
} em_gen_sort_fn;

/* Digits per pass and the radix. */
#define EM_SRT_BITS 8
#define EM_SRT_RADIX 256

/* Source of the generic module (dtype < 0) or of dtype's image module. */
em_status em_gen_sort_source(int dtype, em_device_type target, char **out);

/* The largest n the Onesweep status words (30-bit counts) take, and the
 * keys per thread of a pass over keys of dt (vals: with values); a tile
 * is 256 threads of them. */
#define EM_SRT_OS_MAX_N ((1ll << 30) - 1)
int em_gen_sort_os_items(em_dtype dt, int vals);

/* Whether a Onesweep sort of 4-byte keys over all 32 bits may let srt_up
 * choose its digits from the data (with values: vals); the kernels
 * extend srt_up's histogram area by EM_SRT_OS_ADAPT_WORDS words, the
 * last EM_SRT_OS_MAP_WORDS of them the top pass's map (a byte for each
 * value of the top 11 bits). */
int em_gen_sort_os_adapt(int vals);
#define EM_SRT_OS_MAP_WORDS 512
#define EM_SRT_OS_ADAPT_WORDS (2 * 128 + 2048 + EM_SRT_OS_MAP_WORDS)

/* Appends to a dtype's image module (after srt_key's prerequisites:
 * srt_raw, srt_img, SRT_IMG, SRT_ONES) the kernels that move raw keys:
 * Onesweep for CUDA, chunked LSD for the host (sort_onesweep.c). */
struct em_gen_buf;
void em_gen_sort_keys_source(struct em_gen_buf *b, em_dtype dt,
                             em_device_type target);

/* Appends body with each of the n placeholders ph[i] replaced by text[i]
 * as text (kernel names and parameter types, which the host compiler and
 * the runtime read from the source before preprocessing). */
void em_gen_sort_paste(struct em_gen_buf *b, const char *body, int n,
                       const char *const ph[], const char *const text[]);

/* The definition of SRT_FOR(i, n), the loop over a thread's share of
 * [0, n), for a target (shared with the merge kernels). */
const char *em_gen_sort_loop(em_device_type target);

/* The compiled kernel fn (for dtype when fn >= EM_SRT_IMAGE). */
em_status em_gen_sort_function(em_device *dev, em_gen_sort_fn fn,
                               em_dtype dtype, em_function **out);

#endif
