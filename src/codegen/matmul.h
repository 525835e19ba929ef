/* ember codegen: the product kernel (matmul, dot, tensordot, ...).
 *
 * One kernel computes C[batch, m, n] = sum_k A[batch, m, k] * B[batch, k,
 * n] over byte strides given at launch, for one dtype of A, B and C:
 *
 *   tile, cuda: a block of 256 threads computes a 64x64 tile of C, 16
 *     outputs per thread (rows ty + 16i, columns tx + 16j), stepping k by
 *     16 through shared memory; blocks stride over tiles and batches, so
 *     any extent fits the grid; tiles are loaded along each operand's
 *     contiguous axis (a variant per transposed operand);
 *   dot, cuda: m = n = 1 (vdot, vecdot, inner of vectors): a block of 256
 *     threads per output strides over k and reduces in shared memory;
 *   host: blocks of 32x32 outputs, k in panels of 64 packed into local
 *     buffers, an inner loop over the tile's row that the compiler
 *     vectorises (the dot kind is the same kernel: tiles shrink to fit).
 *
 * Accumulators: bool ors ands; integers multiply and add in unsigned 32-
 * or 64-bit arithmetic (wrap-around, as NumPy, with no undefined
 * behaviour), float16/bfloat16 in float, complex as (ac - bd, ad + bc).
 */
#ifndef EMBER_CODEGEN_MATMUL_H
#define EMBER_CODEGEN_MATMUL_H

#include <stdint.h>

#include "ember/array.h"

/* Bump when generated source changes meaning (it is in the cache key). */
#define EM_GEN_MATMUL_VERSION 1u

enum { EM_GEN_MM_TILE = 0, EM_GEN_MM_DOT = 1 };

typedef struct em_gen_matmul {
    uint8_t dtype;   /* A's, B's and C's */
    uint8_t kind;    /* EM_GEN_MM_TILE / _DOT (cuda; host ignores it) */
    uint8_t a_mfast; /* cuda tile: A is contiguous along m (transposed) */
    uint8_t b_kfast; /* cuda tile: B is contiguous along k (transposed) */
} em_gen_matmul;

/* The launch geometry, passed by value (the kernel declares the same
 * struct). Strides in bytes; batch axes outermost first. */
typedef struct em_gen_mm_geom {
    long long M, N, K, nbatch;
    long long am, ak, bk, bn, cm, cn;
    long long nbd;
    long long shape[EM_MAX_NDIM];
    long long sa[EM_MAX_NDIM], sb[EM_MAX_NDIM], sc[EM_MAX_NDIM];
} em_gen_mm_geom;

/* The kernel source (malloc'd), named `name`. */
em_status em_gen_matmul_source(const em_gen_matmul *d, em_device_type target,
                               const char *name, char **out);

/* Run the product on dev (A, B, C device pointers; g filled by the
 * caller): finds or compiles the kernel and launches it on s. Nothing to
 * do when M, N or nbatch is 0. */
em_status em_gen_matmul_run(em_device *dev, em_dtype dtype, const void *A,
                            const void *B, void *C, const em_gen_mm_geom *g,
                            em_stream *s);

#endif
