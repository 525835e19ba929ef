/* ember codegen: the scan kernels and the small generated kernels of the
 * algorithms built on them (transform, compaction).
 *
 * One generator, two schedules (bodies in kernels/scan_*.cuh). CUDA: a single
 * pass, a tile of EM_GEN_SCAN_BLOCK threads x 8 to 32 consecutive items
 * each, staged per warp through shared memory with 16-byte accesses, the
 * tile's index taken from an atomic counter (so a tile only waits on tiles
 * that already started), one status word per tile (flag and value packed
 * where they fit), a warp looking back over 32 predecessors at a time.
 * Host: blocks run one thread and cannot wait on each other, so three
 * kernels: chunk totals, a serial pass over them per row, the chunk scans
 * seeded with their prefix. Values may be tuples (a generated struct).
 *
 * Kernels are found in a per-device table by a 64-bit descriptor word and
 * the operator's expression (hashed once per call), see scan_table.c.
 */
#ifndef EMBER_CODEGEN_SCAN_H
#define EMBER_CODEGEN_SCAN_H

#include <stdint.h>

#include "ember/scan.h"

#define EM_GEN_SCAN_VERSION 2u
#define EM_GEN_SCAN_BLOCK 256
/* Elements per host chunk: large enough that the serial pass over chunk
 * totals costs nothing, small enough to spread a few million elements
 * over the pool. */
#define EM_GEN_SCAN_HOST_CHUNK 65536

enum {
    EM_GEN_SCAN_EXCLUSIVE = 1, /* else inclusive */
    EM_GEN_SCAN_INIT = 2,      /* an init value is combined in front */
    EM_GEN_SCAN_CONTIG = 4,    /* unit element strides (host fast path) */
    /* by key: a head flag per element (1 byte, row-major over the rows)
     * starts a new scan; init, if any, goes in front of every segment */
    EM_GEN_SCAN_SEGMENTED = 8,
    /* nancumsum/nancumprod: a NaN element counts as the neutral value
     * (add and mul of float and complex outputs only) */
    EM_GEN_SCAN_NAN = 16
};

/* Components of a tuple (zipped) value at most. */
#define EM_GEN_SCAN_MAXT 4

typedef struct em_gen_scan {
    uint8_t op;       /* em_par_builtin */
    uint8_t in, out;  /* dtypes; the operator works in out's value type */
    uint8_t flags;    /* EM_GEN_SCAN_* */
    const char *expr; /* EM_PAR_EXPR only; tuples: the ncomp expressions
                       * (over a0, b0, a1, ...) joined by '\x1f' */
    /* Tuples (ncomp >= 2; 0 otherwise): the components' input and output
     * dtypes (in and out unused). op: add/mul/min/max per component,
     * argmin/argmax over (value, index), or one expression each. */
    uint8_t ncomp;
    uint8_t tin[EM_GEN_SCAN_MAXT], tout[EM_GEN_SCAN_MAXT];
} em_gen_scan;

/* Rows of len elements; byte strides between rows and between elements. */
typedef struct em_gen_scan_geom {
    long long nrows, len, irs, ies, ors, oes, tile, ntiles;
} em_gen_scan_geom;

/* Whether op has a meaning for values of dtype dt (EM_ERR_TYPE naming fn
 * and the dtype otherwise). */
em_status em_gen_scan_check(em_par_builtin op, em_dtype dt, const char *fn);

/* The kernel source for a target (malloc'd). CUDA: one kernel `name`;
 * host: name_reduce, name_carry, name_scan. */
em_status em_gen_scan_source(const em_gen_scan *d, em_device_type target,
                             const char *name, char **out);

/* Items per thread of the CUDA tile for these dtypes (16, or 8 for
 * 16-byte ones); plain scans whose elements and values are at most 4
 * bytes take 32 instead (scan.c, wide_tile). */
int em_gen_scan_items(em_dtype in, em_dtype out);

/* Whether a tuple descriptor is meaningful (EM_ERR_TYPE / INVALID_VALUE
 * naming fn otherwise): 2..EM_GEN_SCAN_MAXT components, argmin/argmax on
 * two real components, per-component built-ins valid for each dtype. */
em_status em_gen_scan_tuple_check(const em_gen_scan *d, const char *fn);

/* Packs one init value per component (each of tout[k]'s storage) into
 * the kernel's init struct in buf (cap bytes); *size receives its size. */
em_status em_gen_scan_pack_init(const em_gen_scan *d,
                                const void *const *inits, void *buf,
                                size_t cap, size_t *size);

/* A scan of tuple values: ncomp contiguous inputs of n elements (dtypes
 * tin) into ncomp contiguous outputs (tout); init packed by
 * em_gen_scan_pack_init or NULL; heads as em_gen_scan_run_heads or NULL. */
em_status em_gen_scan_run_tuple(em_device *dev, const em_gen_scan *d,
                                const void *const *ins, void *const *outs,
                                long long n, const void *init,
                                const unsigned char *heads, em_stream *s);

/* Scan in -> out on s (temporaries from the pool on s). init: one value
 * of out's storage, or NULL. */
em_status em_gen_scan_run(em_device *dev, const em_gen_scan *d,
                          const void *in, void *out, long long nrows,
                          long long len, long long irs, long long ies,
                          long long ors, long long oes, const void *init,
                          em_stream *s);
/* The same with head flags (EM_GEN_SCAN_SEGMENTED; heads[0] of each row
 * must be 1). */
em_status em_gen_scan_run_heads(em_device *dev, const em_gen_scan *d,
                                const void *in, void *out, long long nrows,
                                long long len, long long irs, long long ies,
                                long long ors, long long oes, const void *init,
                                const unsigned char *heads, em_stream *s);

/* Transform: out[i] = expr(a[i], b[i], ...) over n contiguous elements
 * (inputs already of dtype in[k]), out of dtype out_dt. */
em_status em_gen_transform_run(em_device *dev, const char *expr, int nin,
                               const em_dtype *in, em_dtype out_dt,
                               const void *const *inputs, void *out,
                               long long n, em_stream *s);
em_status em_gen_transform_source(const char *expr, int nin,
                                  const em_dtype *in, em_dtype out_dt,
                                  em_device_type target, const char *name,
                                  char **out);

/* Compaction flags: flag[i] = pred(x[i]) (pred a C expression over `a`,
 * or mask[i] when pred is NULL) as int64 0/1, contiguous x; compaction
 * scatter: out[pos[i] - 1] = x[i] where selected (pos the inclusive scan
 * of the flags); with `partition`, rejected ones go to nsel + i - pos[i].
 * Only the sources remain (no caller launches them; tests compile them). */
em_status em_gen_flags_source(const char *pred, em_dtype dt,
                              em_device_type target, const char *name,
                              char **out);
em_status em_gen_scatter_source(em_dtype dt, int partition,
                                em_device_type target, const char *name,
                                char **out);

/* By key: heads[i] = (i == 0 || keys[i - 1] != keys[i]) over n
 * contiguous keys of dtype dt; with `tails`, out[i] = (i == n - 1 ||
 * in[i + 1]) over heads (bool). */
em_status em_gen_heads_run(em_device *dev, em_dtype dt, int tails,
                           const void *in, unsigned char *out, long long n,
                           em_stream *s);
em_status em_gen_heads_source(em_dtype dt, int tails, em_device_type target,
                              const char *name, char **out);

/* Segmented reduction helpers over m segments given by m + 1 int64
 * offsets into n values (clamped to [0, n]): gather 0 sets heads (bool,
 * zeroed by the caller) at each non-empty segment's start; gather 1 writes
 * out[i] = scan[end - 1], or *init (device memory) for an empty segment. */
em_status em_gen_segments_run(em_device *dev, em_dtype dt, int gather,
                              const int64_t *off, void *heads_or_scan,
                              void *out, const void *init, long long m,
                              long long n, em_stream *s);
em_status em_gen_segments_source(em_dtype dt, int gather,
                                 em_device_type target, const char *name,
                                 char **out);

/* ---- the per-device table (scan_table.c) ------------------------------ */

/* Writes the source for (word, expr) on target; kernels named from name. */
typedef em_status (*em_gen_scan_src_fn)(uint64_t word, const char *expr,
                                        em_device_type target,
                                        const char *name, char **out);

/* The kernels names[0..n) (at most 3) of the module for (word, expr) on
 * dev, generated by gen and compiled on a miss. A compile failure names
 * the expression. */
em_status em_gen_scan_table_get(em_device *dev, uint64_t word,
                                const char *expr, em_gen_scan_src_fn gen,
                                const char *name, const char *const *names,
                                int n, em_function **fns);

#endif
