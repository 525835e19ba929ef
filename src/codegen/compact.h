/* ember codegen: stream compaction under a byte mask (a[mask], nonzero,
 * select, partition) and the hash set behind unique.
 *
 * Compaction is two passes over fixed tiles of the mask, so the output's
 * length is known before it is allocated:
 *   `cc_count`  per-tile counts of the nonzero flag bytes (cuda: 16-byte
 *               loads, four tiles per block);
 *   `cc_scan`   one block: the exclusive scan of the counts into int64
 *               offsets, offs[nt] = the total (the caller's one small read);
 *   `cc_write`  each tile re-reads its flags (and data), orders its
 *               selected elements by a block-wide scan of per-thread flag
 *               counts, stages them in shared memory and writes them
 *               coalesced at the tile's offset.
 * What is written is the kind: the selected elements (ELEM), those and
 * then the rejected ones (PART), flat indices as int64 (INDEX), or the
 * C-order coordinates of an `ndim`-d mask as rows of an (ndim, total)
 * int64 array (COORDS). `cc_rows` (kind ROWS) copies whole rows of `elem`
 * bytes (moved as words of `word` bytes) picked by an int64 index list:
 * a mask over the leading dimensions of an array with long rows.
 *
 * The host source runs each tile on one thread (blocks of one thread);
 * its tiles are larger (EM_GEN_COMPACT_HOST_TILE).
 *
 * Hash set (kind HASH, elem = 4 or 8, the keys as unsigned integers):
 * `ch_insert` puts every key into an open-addressing table of 2^k slots
 * (linear probing, atomicCAS on an empty sentinel; the sentinel key itself
 * only sets a flag), counts the distinct keys it inserted and raises an
 * overflow flag when a probe runs past EM_GEN_HASH_MAX_PROBE slots or the
 * table gets over half full (then the caller falls back to sorting);
 * `ch_extract` copies the occupied slots out in any order (a cursor taken
 * by atomicAdd; the caller sorts the few distinct keys). With ndim = 1 a
 * 32-bit counter per slot counts each key (atomicAdd), for unique's
 * return_counts.
 */
#ifndef EMBER_CODEGEN_COMPACT_H
#define EMBER_CODEGEN_COMPACT_H

#include <stdint.h>

#include "ember/array.h"
#include "ember/runtime.h"

/* Bump when generated source changes meaning (it is in the cache key). */
#define EM_GEN_COMPACT_VERSION 1u

enum {
    EM_GEN_COMPACT_ELEM = 0,
    EM_GEN_COMPACT_PART = 1,
    EM_GEN_COMPACT_INDEX = 2,
    EM_GEN_COMPACT_COORDS = 3,
    EM_GEN_COMPACT_ROWS = 4,
    EM_GEN_COMPACT_HASH = 5
};

/* CUDA: 256 threads per block, each over `vec` flag bytes of a tile. */
#define EM_GEN_COMPACT_BLOCK 256
/* CUDA count kernel: tiles per block. */
#define EM_GEN_COMPACT_COUNT_TILES 4
#define EM_GEN_COMPACT_HOST_TILE 65536
#define EM_GEN_HASH_MAX_PROBE 256

typedef struct em_gen_compact {
    uint8_t kind;
    uint8_t elem; /* ELEM/PART: bytes per element (1, 2, 4, 8, 16);
                   * ROWS: the word size; HASH: key bytes (4, 8) */
    uint8_t ndim; /* COORDS: the mask's rank; HASH: 1 to count each key */
    uint8_t vec;  /* flag bytes per cuda thread (16, or 8 for 16-byte
                   * elements); 0 on the host */
    uint8_t pad[12];
} em_gen_compact;

/* The cuda tile of d (flags per tile) or the host tile. */
int64_t em_gen_compact_tile(const em_gen_compact *d, em_device_type target);

/* d with its vec filled for target (callers set kind, elem, ndim). */
void em_gen_compact_fill(em_gen_compact *d, em_device_type target);

em_status em_gen_compact_source(const em_gen_compact *d, em_device_type target,
                                char **out);

/* The compiled kernels of d on dev from the per-device table: count, scan,
 * write (ROWS: fn[0] only; HASH: insert, extract). Owned by the kernel
 * cache. */
em_status em_gen_compact_functions(em_device *dev, const em_gen_compact *d,
                                   em_function *fn[3]);

#endif
