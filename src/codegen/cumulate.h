/* ember codegen: the cumulate kernel (cumsum, cumprod, nancumsum,
 * nancumprod along one axis).
 *
 * Simple correct schedules: one thread per line (every position of the
 * other axes), walking the line in order, so each step rounds to the
 * accumulator type exactly as NumPy's sequential loop does (float16
 * sums included); on the host each block is one thread. On CUDA, few long
 * lines get a block each instead (a chunked shared-memory scan; float
 * sums then round in another order than NumPy's, within the usual
 * tolerance). The device-wide single-pass scan comes with the algorithms
 * issue.
 */
#ifndef EMBER_CODEGEN_CUMULATE_H
#define EMBER_CODEGEN_CUMULATE_H

#include <stdint.h>

#include "ember/linalg.h"

#define EM_GEN_CUMULATE_VERSION 1u

/* Schedules: a thread per line (every target), or on CUDA a block per
 * line for few long lines (not for 16-bit floats, whose NumPy results
 * depend on rounding every step in order). */
enum { EM_GEN_CUM_THREAD = 0, EM_GEN_CUM_BLOCK = 1 };

typedef struct em_gen_cumulate {
    uint8_t op;   /* em_cumulate_op */
    uint8_t in;   /* the input's dtype */
    uint8_t out;  /* the output's dtype, which is the accumulator's */
    uint8_t kind; /* EM_GEN_CUM_THREAD / _BLOCK (cuda; the host ignores it) */
} em_gen_cumulate;

/* Launch geometry (by value). The line's other axes, outermost first. */
typedef struct em_gen_cum_geom {
    long long nlines, len, sin, sout, nd;
    long long shape[EM_MAX_NDIM], si[EM_MAX_NDIM], so[EM_MAX_NDIM];
} em_gen_cum_geom;

em_status em_gen_cumulate_source(const em_gen_cumulate *d,
                                 em_device_type target, const char *name,
                                 char **out);

/* Find or compile and launch on s; nothing to do for no lines. */
em_status em_gen_cumulate_run(em_device *dev, const em_gen_cumulate *d,
                              const void *in, void *out,
                              const em_gen_cum_geom *g, em_stream *s);

#endif
