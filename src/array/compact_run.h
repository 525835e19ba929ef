/* ember array: running the compaction and hash-set kernels that
 * src/codegen/compact.c generates (a[mask], nonzero, select, partition,
 * the rows a leading-axes mask picks, unique's hash set). Here rather than
 * in codegen/, which generates and caches kernels but launches none;
 * array/ (indexing) and algo/ (select, unique) both call it. */
#ifndef EMBER_ARRAY_COMPACT_RUN_H
#define EMBER_ARRAY_COMPACT_RUN_H

#include "codegen/compact.h"

/* One compaction in flight: em_compact_count runs the count and scan
 * passes and reads the total back (the one host synchronisation);
 * em_compact_write then fills an output the caller sized by it. */
typedef struct em_compact {
    em_device *dev;
    em_stream *on;
    em_gen_compact d;
    em_function *fn[3];
    const unsigned char *mask;
    int64_t n, nt, tile;
    em_array scratch; /* int32 counts, int64 offsets (nt + 1) */
    int64_t *offs;
    int64_t total;
} em_compact;

/* Counts the nonzero bytes of the C-contiguous mask of n flags for a
 * compaction of kind/elem/ndim; c->total is the number selected. */
em_status em_compact_count(em_compact *c, em_device *dev, int kind, int elem,
                           int ndim, const void *mask, int64_t n,
                           em_stream *on);

/* The write pass: x (ELEM/PART: n contiguous elements of d.elem bytes;
 * else NULL) into out (ELEM: c->total elements; PART: n; INDEX: c->total
 * int64; COORDS: ndim * c->total int64 with shape the mask's shape). */
em_status em_compact_write(em_compact *c, const void *x, void *out,
                           const int64_t *shape);

void em_compact_end(em_compact *c);

/* out[r] = src[idx[r]] for k rows of row_bytes bytes each (contiguous
 * source and output). */
em_status em_compact_rows(em_device *dev, const void *src, const int64_t *idx,
                          int64_t k, int64_t row_bytes, void *out,
                          em_stream *on);

/* The distinct values of n contiguous keys of dtype dt (4 or 8 bytes),
 * in no order, into a new 1-d array *out; with counts (n < 2^32), how
 * often each occurs, as int64 at the same places. *fell_back is set (and
 * nothing made) when the table overflowed; the caller then sorts. The
 * table has 2n slots up to 2^22 on cuda, 2^18 on the host;
 * $EMBER_TEST_HASH_SLOTS_LOG2 overrides, for tests of the fallback. */
em_status em_compact_hash_unique(em_device *dev, const void *keys, int64_t n,
                                 em_dtype dt, em_array *out, em_array *counts,
                                 int *fell_back, em_stream *on);

#endif
