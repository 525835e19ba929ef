/* ember codegen: the reduction generator.
 *
 * The array layer reduces a 2-D view: M output elements (contiguous in
 * the result) by K reduced elements, element (m, k) at byte offset
 * m * sm + k * sk from the input's data pointer, k counting the reduced
 * elements in C order (argmin/argmax return it). A kernel is named by a
 * 16-byte descriptor (op, input dtype, compute type, result dtype,
 * schedule, vector width, index width) and reads a by-value geometry.
 *
 * Schedules (see include/ember/reduce.h):
 *   ROWS   one block per (row, split of the row); threads stride along the
 *          row, 16-byte vector loads when sk is the element size and
 *          every row start and split is aligned; shared-memory tree
 *          inside the block. Full reductions are ROWS with M = 1 and one
 *          split per block of a device-sized grid.
 *   WARP   one warp per row (short rows), eight rows per block.
 *   COLS   one thread per output element m (sm is the element size, so a
 *          warp's loads are coalesced), the reduced extent split over
 *          grid.y when there are too few columns to fill the device.
 *   FIN    combines S partials per output (a warp per output on cuda) and
 *          writes the result.
 * With S > 1 splits, a schedule writes accumulators (not results) to a
 * temporary, partial (s, m) at index s * M + m, and FIN finishes.
 *
 * On the host (each block one thread, no barriers or shuffles) ROWS runs
 * rows (or one split of a row) with eight independent accumulators in
 * sub-blocks combined pairwise, COLS walks tiles of up to 2048 columns
 * row by row (contiguous runs of the rows; at most 64 KiB of accumulators), and
 * WARP is ROWS. The generator launches nothing.
 */
#ifndef EMBER_CODEGEN_REDUCE_H
#define EMBER_CODEGEN_REDUCE_H

#include <stdint.h>

#include "ember/reduce.h"
#include "ember/runtime.h"

/* Bump when generated source changes meaning (it is in the cache key). */
#define EM_GEN_REDUCE_VERSION 9u

enum {
    EM_GEN_RED_ROWS = 0,
    EM_GEN_RED_WARP = 1,
    EM_GEN_RED_COLS = 2,
    EM_GEN_RED_FIN = 3
};

typedef struct em_gen_reduce {
    uint8_t op;      /* em_reduce_op */
    uint8_t in;      /* the input array's dtype */
    uint8_t compute; /* EM_INT64/UINT64/FLOAT32/FLOAT64/COMPLEX64/128 */
    uint8_t out;     /* the result's dtype */
    uint8_t sched;   /* EM_GEN_RED_* */
    uint8_t vec;     /* ROWS on cuda: elements per vector load, else 1 */
    uint8_t idx64;   /* 64-bit offsets and counters */
    uint8_t split;   /* 1: write accumulators to the partials (S > 1) */
    uint8_t pad[8];  /* zero */
} em_gen_reduce;

/* By-value geometry of every reduction kernel. */
typedef struct em_gen_reduce_geom {
    int64_t M, K;   /* outputs, reduced elements per output */
    int64_t sm, sk; /* byte strides */
    int64_t S;      /* splits of K (1: the kernel finishes) */
    int64_t chunk;  /* reduced elements per split (ROWS, COLS) */
    int64_t rows;   /* host ROWS without splits: rows per block */
    double count;   /* mean: divisor; var: N (both as NumPy counts) */
    double ddof;
} em_gen_reduce_geom;

/* Kernel source for d on a target (malloc'd); identifiers carry `name`. */
em_status em_gen_reduce_source(const em_gen_reduce *d, em_device_type target,
                               const char *name, char **out);

/* As em_gen_reduce_source on cuda, with `prelude` (the whole of
 * kernels/ewise_ops.h and what it adds) in place of the ops base, which
 * must define the kernel's extra parameters RD_EXTRA (", type name"...),
 * the element load RD_LD(T, p) (p: `in` plus a byte offset) and the
 * vector load RD_VLD(p, j) (vector j of p): how a fused group's value is
 * reduced without being stored (src/fuse/reduce.c). */
em_status em_gen_reduce_source_with(const em_gen_reduce *d,
                                    em_device_type target, const char *name,
                                    const char *prelude, char **out);

/* Size of the accumulator struct of d (for the partials buffer): an upper
 * bound the kernels' layout never exceeds. */
size_t em_gen_reduce_acc_size(const em_gen_reduce *d);

/* Compiler options for d's kernel on a target. */
const char *const *em_gen_reduce_options(const em_gen_reduce *d,
                                         em_device_type target, int *n);

/* The compiled kernel for d on dev (per-device table, no lock on hits). */
em_status em_gen_reduce_function(em_device *dev, const em_gen_reduce *d,
                                 em_function **out);

#endif
