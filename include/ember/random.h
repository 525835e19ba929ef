/* ember: random numbers (the math layer). One call fills an array with
 * draws of one distribution from a position in a counter-based or
 * jump-ahead bit generator's stream. Every thread computes its draws from
 * its place in the stream, so generation is parallel and the same seed
 * gives the same bits on the host and on a GPU.
 *
 * The stream is NumPy's for every generator: word k of a PCG64 stream is
 * what NumPy's PCG64 returns on its (k+1)-th next64 from the same state,
 * and likewise for PCG64DXSM and Philox4x64-10, so raw words and the uniform floats
 * built from them as NumPy builds them are NumPy's bit for bit. The
 * caller keeps the state and moves it past the words a fill used (the
 * Python layer does: python/ember/random/).
 */
#ifndef EMBER_RANDOM_H
#define EMBER_RANDOM_H

#include <stdint.h>

#include "ember/array.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum em_random_gen {
    EM_RANDOM_PCG64 = 0,  /* words: state hi, lo, increment hi, lo */
    EM_RANDOM_PHILOX = 1, /* words: counter of the first block (4), key (2) */
    EM_RANDOM_PCG64DXSM = 2 /* words as PCG64's: the same 128-bit LCG with
                               the 64-bit ("cheap") multiplier; word k is
                               the DXSM output of the state k steps on,
                               taken before the step (NumPy's order) */
} em_random_gen;

/* What a fill draws, and the output dtypes it accepts. "Word" draws use
 * one word of the stream per element, in order (NumPy's); "keyed" draws
 * use the Philox key in words[4..5] only: attempt j of element i reads
 * the block of counter (i, j, 0, 0), so rejection methods stay parallel
 * and identical on every device, though not NumPy's draws. */
typedef enum em_random_dist {
    EM_RANDOM_BITS64 = 0,      /* word: raw 64-bit words; uint64, int64 */
    EM_RANDOM_BITS32 = 1,      /* word: the 32-bit stream; uint32, int32 */
    EM_RANDOM_UNIFORM = 2,     /* word: a + b * (w >> 11) 2^-53; float64 */
    EM_RANDOM_UNIFORM32 = 3,   /* word: (w32 >> 8) 2^-24; float32 */
    EM_RANDOM_NORMAL = 4,      /* word: a + b * z (float64: AS241 of w;
                                  float32: a ziggurat draw a 32-bit half) */
    EM_RANDOM_EXPONENTIAL = 5, /* word: b * -log(u); float32, float64 */
    EM_RANDOM_GAMMA = 6,       /* keyed: shape a, scale b; float32/64 */
    EM_RANDOM_POISSON = 7,     /* keyed: lam a; int64 */
    EM_RANDOM_BINOMIAL = 8,    /* keyed: n c0, p b; int64 */
    EM_RANDOM_INTEGERS = 9,    /* keyed: c1 + [0, c0) (c0 = 0: 2^64), wrapped
                                  to the dtype; int32/64, uint32/64 */
    /* One-word transforms (word, float32/64 unless said; one kernel per
     * dtype serves all of them): */
    EM_RANDOM_LOGNORMAL = 10,  /* exp(a + b z), z as NORMAL's */
    EM_RANDOM_LAPLACE = 11,    /* loc a, scale b: inverse CDF of u */
    EM_RANDOM_LOGISTIC = 12,   /* a + b log(u / (1 - u)) */
    EM_RANDOM_GUMBEL = 13,     /* a - b log(-log u) */
    EM_RANDOM_RAYLEIGH = 14,   /* b sqrt(2 E), E as EXPONENTIAL's */
    EM_RANDOM_WEIBULL = 15,    /* E^(1/a) (a = 0: 0) */
    EM_RANDOM_PARETO = 16,     /* exp(E / a) - 1 */
    EM_RANDOM_POWER = 17,      /* u^(1/a) */
    EM_RANDOM_CAUCHY = 18,     /* tan(pi (u - 1/2)) */
    EM_RANDOM_GEOMETRIC = 19,  /* p a: ceil(log u / log1p(-p)), >= 1, to
                                  INT64_MAX; int64 */
    /* Keyed integer draws (int64; one kernel serves the three): */
    EM_RANDOM_ZIPF = 20,       /* a: NumPy's rejection method */
    EM_RANDOM_LOGSERIES = 21,  /* p a: Kemp's method, as NumPy's */
    EM_RANDOM_HYPERGEOMETRIC = 22, /* c0 (or the bits of pa[e], an int64
                                      viewed as float64) is ngood << 32 |
                                      nbad, each below 2^31; nsample b (or
                                      pb[e]), at most ngood + nbad:
                                      inversion where the smaller of
                                      nsample and its complement is below
                                      10, else Stadlober's ratio of
                                      uniforms */
    /* keyed, float64: */
    EM_RANDOM_VONMISES = 23,   /* mu a, kappa b: Best and Fisher's rejection
                                  (uniform below kappa 1e-8, a wrapped
                                  normal above 1e6, as NumPy's), in
                                  [-pi, pi] */
    EM_RANDOM_DIST_COUNT
} em_random_dist;

/* A place in a stream. The 32-bit stream is NumPy's next_uint32: the
 * low half of a word, then its high half. Before the generator's own
 * words come `npre` buffered 64-bit words pre[] (Philox's unread block
 * lanes), and, for 32-bit draws, the buffered half `half` when has32. */
typedef struct em_random_stream {
    em_random_gen gen;
    uint64_t words[6];
    int npre;
    uint64_t pre[3];
    int has32;
    uint32_t half;
} em_random_stream;

/* The distribution's parameters (see em_random_dist). pa and pb, when
 * not NULL, are per-element values (out->size float64 values each, C
 * order, on out's device) that replace a and b, for every distribution
 * with parameters (not the raw words or UNIFORM32): for binomial pa holds
 * n, for integers pa the low end and pb the range (integers, exact below
 * 2^53). */
typedef struct em_random_params {
    double a, b;
    uint64_t c0, c1;
    const em_array *pa, *pb;
} em_random_params;

/* Fills out (C-contiguous, writeable, of a dtype dist accepts) with
 * out->size draws, stream ordered on s (NULL: the current stream). A
 * wrong dtype is EM_ERR_TYPE and a non-contiguous or read-only out
 * EM_ERR_INVALID_VALUE, each naming what it got; parameter checks are the
 * caller's (a parameter the distribution cannot take gives NaN or -1). */
em_status em_random_fill(em_array *out, const em_random_stream *st,
                         em_random_dist dist, const em_random_params *p,
                         em_stream *s);

#ifdef __cplusplus
}
#endif
#endif
