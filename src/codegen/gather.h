/* ember codegen: gather/scatter and mask-compaction kernels.
 *
 * Gather/scatter (em_gen_gather, 32 bytes): direction, element size,
 * index-space rank R, number of index arrays K, mode, and each index
 * array's dtype. The kernel walks the index space (grid-stride on cuda,
 * a chunk per block on the host), divides each linear index into
 * coordinates, adds up the value, source and index-array offsets, loads
 * each index, normalises it by the mode, and moves one element as bytes.
 * An index out of range in raise mode is recorded in err[0..2] (flag by
 * atomicCAS, then which index array and the raw value) and the element is
 * skipped; the caller reads err back.
 *
 * Compaction (em_gen_gather with op EM_GEN_COMPACT and R = the mask's
 * rank): one module with three kernels over a C-contiguous bool mask:
 * `<name>_count` (per-block counts; cuda counts 256-element tiles with
 * __syncthreads_count), `<name>_scan` (one thread: exclusive scan of the
 * counts and the total) and `<name>_write` (each block writes the C-order
 * coordinates of its true elements at its offset; cuda orders a tile by a
 * warp ballot and a shared scan of the eight warp counts). The host source
 * uses plain loops, since the host backend runs a block's threads one
 * after another.
 *
 * Where (EM_GEN_WHERE, R = the broadcast rank, elem = the result's
 * size; idx[0] / idx[1] nonzero when x / y is a scalar passed by value):
 * out = cond ? x : y over four strided operands (out, a bool cond, x, y),
 * moving bytes, for operands already of the result's dtype.
 *
 * Every kernel uses 64-bit indices: gathers move elements of arbitrary
 * strided layouts, where 32-bit spans would need a check per call.
 */
#ifndef EMBER_CODEGEN_GATHER_H
#define EMBER_CODEGEN_GATHER_H

#include <stdint.h>

#include "ember/index.h"

/* Bump when generated source changes meaning (it is in the cache key). */
#define EM_GEN_GATHER_VERSION 1u

enum {
    EM_GEN_GATHER = 0,
    EM_GEN_SCATTER = 1,
    EM_GEN_COMPACT = 2,
    EM_GEN_WHERE = 3
};

/* CUDA block size of every kernel here (the compaction's tile). */
#define EM_GEN_GATHER_BLOCK 256
/* Most blocks of a compaction (its scan runs on one thread). */
#define EM_GEN_COMPACT_MAX_BLOCKS 1024

#define EM_GEN_GATHER_MAX_IDX 24

typedef struct em_gen_gather {
    uint8_t op;   /* EM_GEN_GATHER / _SCATTER / _COMPACT */
    uint8_t elem; /* bytes per element: 1, 2, 4, 8, 16 */
    uint8_t ndim; /* R (compact: the mask's rank) */
    uint8_t nidx; /* K */
    uint8_t mode; /* em_index_mode (where: 0) */
    uint8_t pad[3];
    uint8_t idx[EM_GEN_GATHER_MAX_IDX]; /* each index array's em_dtype */
} em_gen_gather;

/* The kernel parameters' by-value geometry, in 64-bit words:
 * n, shape[R], vst[R], sst[R], ist[K][R], ext[K], st[K]
 * (where: n, shape[R], st[4][R]). */
#define EM_GEN_GATHER_MAX_WORDS 480
static inline int em_gen_gather_words(int r, int k)
{
    return 1 + 3 * r + k * r + 2 * k;
}

em_status em_gen_gather_source(const em_gen_gather *d, em_device_type target,
                               const char *name, char **out);

/* The compiled kernels of d on dev: fn[0] for a gather/scatter; count,
 * scan and write for a compaction. Owned by the kernel cache. */
em_status em_gen_gather_functions(em_device *dev, const em_gen_gather *d,
                                  em_function *fn[3]);

#endif
