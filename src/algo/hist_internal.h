/* ember algorithms: what histogram.c shares with the other counting
 * files (histogram2d.c, histogram_bins.c). */
#ifndef EMBER_ALGO_HIST_INTERNAL_H
#define EMBER_ALGO_HIST_INTERNAL_H

#include "ember/histogram.h"

/* The dtype's name, for messages. */
const char *em_hist_dt_name(em_dtype d);

/* EM_ERR_TYPE "fn: arg of dtype D is not supported ..." unless x is a
 * valid array of a bool, integer or real floating dtype. */
em_status em_hist_check_real(const em_array *x, const char *fn,
                             const char *arg);

/* *c: a new reference to x's elements, C-contiguous and aligned, of
 * `want` (or, with want < 0, of x's dtype when the kernels load it, else
 * float32). */
em_status em_hist_contiguous(const em_array *x, int want, em_stream *on,
                             em_array *c);

/* The bins a CUDA block keeps in shared memory (with or without
 * weights). */
int64_t em_hist_shared_cap(int weighted);

/* CUDA blocks per SM for a counting kernel using shmem bytes of dynamic
 * shared memory per block: dflt (or $EMBER_HIST_BLOCKS_PER_SM), but
 * never more than an SM holds at once. */
int64_t em_hist_blocks_per_sm(em_device *dev, size_t shmem, int dflt);

/* CUDA blocks for a counting kernel over n elements in `tiles` tiles,
 * with shmem bytes of shared counters per block: per_sm a SM
 * (em_hist_blocks_per_sm's dflt), no more than the tiles, and at least
 * one per 2^30 elements so a block's 32-bit shared counters never wrap. */
int64_t em_hist_cuda_blocks(em_device *dev, int64_t n, int64_t tiles,
                            size_t shmem, int per_sm);

/* The host schedule of a pass over n elements: *chunk elements a block,
 * four blocks per device unit but at least `least` elements each; returns
 * the blocks. */
int64_t em_hist_host_chunks(em_device *dev, int64_t n, int64_t least,
                            int64_t *chunk);

/* A host count of n elements into nbins int64-sized counters: fn[0] over
 * the blocks of em_hist_host_chunks (fewer when their rows of private
 * counters would pass a bound). One block counts straight into the
 * output; more count into rows of a scratch array that fn[1] then adds
 * into it. args are fn[0]'s arguments, including chunk (set here) and at
 * args[out_arg] the address of a void * holding the output. */
em_status em_hist_host_count(em_device *dev, em_function *const fn[2],
                             void **args, int out_arg, int64_t n, int64_t nbins,
                             int64_t *chunk, em_stream *on);

/* The minimum and maximum of c (from em_hist_contiguous, n > 0) as
 * doubles, both NaN when c holds a NaN: one pass, one small read. */
em_status em_hist_data_range(const em_array *c, em_stream *on, double *lo,
                             double *hi);

/* EM_ERR_INVALID_VALUE as NumPy words it unless lo <= hi, both finite:
 * a `range` parameter given. */
em_status em_hist_check_range(double lo, double hi);

/* em_hist_data_range, then EM_ERR_INVALID_VALUE as NumPy words it unless
 * both ends are finite: the range when none is given. */
em_status em_hist_auto_range(const em_array *c, em_stream *on, double *lo,
                             double *hi);

/* em_histogram_bin_edges; with dd nonzero, as NumPy's histogramdd makes
 * them instead: the edges keep linspace's arithmetic type (float64 for a
 * given range or integer data, else x's float type) and collapsed edges
 * are not refused. */
em_status em_hist_edges(const em_array *x, int64_t bins, int has_range,
                        double lo, double hi, int dd, em_array *out,
                        em_hist_grid *grid, em_stream *s);

#endif
