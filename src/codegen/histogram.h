/* ember codegen: histogram, bincount and digitize kernels.
 *
 * One descriptor (em_gen_hist, 8 bytes) names a module: the operation,
 * the input's dtype (loaded as its own C type), whether weights
 * (contiguous float64) are summed instead of counting, and whether bin
 * indices fit in 32 bits.
 *
 * Counting ops (EVEN, UNIFORM, EDGES, BINCOUNT) have one kernel `hk`:
 *   hk(const X *x, const double *w, long long n, long long chunk,
 *      const E *edges, long long nbins, double lo, double hi,
 *      double norm, double eps, long long sbins, long long cshift,
 *      C *out, long long *mm, long long *mmh)
 * with C unsigned long long (counts) or double (weights), E float for
 * UNIFORM with EM_GEN_HIST_FP32 (float32 data and float32 edges: the
 * guess is computed in float, as NumPy's) and double otherwise. EVEN counts [lo, hi) with bin (v - lo) * norm;
 * UNIFORM takes lo and hi as the first and last edge, norm as
 * nbins / (hi - lo) and eps as a bound on the guess's error plus the
 * edges' distance from exact equal spacing, in bins (see em_gen_hist_eps);
 * EDGES searches the edges; BINCOUNT counts values in [0, nbins) and
 * also reduces mm[0] = min(mm[0], min x), mm[1] = max(mm[1], max x)
 * (the caller zeroes mm, so a nonzero mm[0] is the smallest negative
 * value and mm[1] the largest value when it is positive). cuda, with
 * mmh (page-locked host memory) not NULL, and then sbins == nbins: mm is
 * 6 words that are zero before the kernel and again after it (a part of
 * em_device_scratch), and out is zeroed by the kernel, not the caller
 * (mm[3] and mm[4] count the parts claimed and zeroed). mm[2] counts
 * the blocks that have reduced their extremes, and the last copies mm[0]
 * and mm[1] to mmh and then sets mmh[2] to 1 (the host zeroes it) before
 * the blocks add their counts to out: when the host sees the flag the
 * extremes are there, with no copy, and the kernel may still be adding
 * (what reads out is stream-ordered behind it). mm[5] counts the blocks
 * past that; the last sets mm back to zero and then mmh[7] to 1.
 * cuda: blocks of EM_GEN_HIST_BLOCK threads, a grid of at most
 * EM_GEN_HIST_BLOCKS_PER_SM per SM looping over x (16-byte loads when
 * unweighted: x must be aligned to its itemsize). The first sbins bins
 * are counted in dynamic shared memory (sbins << cshift counters of 4
 * bytes, 8 with weights: 2^cshift copies of each bin), the rest with
 * global atomics; each block adds its counts to out (zeroed by the
 * caller). The caller keeps a block's share of x below 2^31 elements so
 * a 32-bit shared counter cannot wrap.
 * host: block b counts [b*chunk, (b+1)*chunk) into its own row
 * out + b*nbins (zeroed by the kernel), with no atomics (sbins and
 * cshift are ignored); a second kernel `hm`(const C *rows, long long
 * nrows, long long nbins, long long chunk, C *out) sums the rows, `chunk`
 * bins per block. One block writes out directly.
 *
 * 2D counts pairs: `hk`(const X *x, const X *y, const double *w,
 * long long n, long long chunk, const double *xe, long long nxe,
 * const double *ye, long long nye, long long sbins, C *out): the bin of
 * each coordinate is NumPy's histogramdd's (searchsorted 'right' among
 * the nxe edges, a value equal to the last edge in the last bin, outside
 * or NaN not counted), out[bx * (nye - 1) + by] (nbins = (nxe - 1) *
 * (nye - 1)). cuda: grid-stride, the first sbins bins in shared memory
 * (one copy), the rest global atomics, out zeroed by the caller; host:
 * rows per block summed by `hm`, as the other counting ops.
 *
 * MINMAX has one kernel `hx`(const X *x, long long n, long long chunk,
 * unsigned long long *mm): one pass over x (cuda: grid-stride; host: a
 * chunk per block) that folds into mm (zeroed by the caller) with
 * atomics: mm[0] = max(~key(v)), mm[1] = max(key(v)), mm[2] = 1 if a
 * value is NaN, where key maps (double)v + 0.0 to an unsigned integer of
 * the same order; so the minimum is unkey(~mm[0]) and the maximum
 * unkey(mm[1]) (see em_gen_hist_unkey).
 *
 * DIGITIZE has one kernel `hd`(const X *x, long long n, long long chunk,
 * const double *bins, long long nb, long long *out): a binary search per
 * element (cuda: grid-stride; host: a chunk per block).
 *
 * The unique and set kernels are one `hu` each, elementwise over n
 * (grid-stride on cuda, a chunk per block on the host):
 *   FLAGS   hu(const X *s, long long n, long long chunk, unsigned char *f)
 *           f[i] = i == 0 || s[i] != s[i-1] (NaNs equal with EQUAL_NAN);
 *           with DUP, f[i] = i + 1 < n && s[i] == s[i+1] (plain ==);
 *           with XOR, f[i] = s[i] differs from s[i-1] and s[i+1] (where
 *           they exist; plain !=).
 *   COUNTS  hu(const long long *p, long long k, long long n, long long
 *           chunk, long long *c): c[j] = (j + 1 < k ? p[j+1] : n) - p[j].
 *   INVERSE hu(const long long *perm, const long long *cs, long long n,
 *           long long chunk, long long *inv): inv[perm[i]] = cs[i] - 1.
 *   ISIN    hu(const X *x, const long long *j, const X *s, long long n,
 *           long long m, long long chunk, unsigned char *out):
 *           out[i] = j[i] < m && s[j[i]] == x[i] (negated with INVERT).
 *   QUANTILE hu(const X *s, long long n, long long rows, long long len,
 *           const double *q, long long chunk, double *out): s holds
 *           `rows` sorted rows of `len`; out[k * rows + r] is quantile
 *           q[k] of row r by NumPy's 'linear' method (with MEDIAN: the
 *           mean of the middle one or two), NaN when the row holds a NaN
 *           (sorted last) or is empty; n = rows * number of q.
 */
#ifndef EMBER_CODEGEN_HISTOGRAM_H
#define EMBER_CODEGEN_HISTOGRAM_H

#include <stdint.h>

#include "ember/histogram.h"
#include "ember/runtime.h"

#define EM_GEN_HIST_VERSION 2u
#define EM_GEN_HIST_BLOCK 512
/* Blocks per SM the counting kernel is built for (launch bounds), and the
 * shared memory one block may use: four blocks fill an SM's threads and
 * take 128 KiB of its shared memory, under the 48 KiB a block gets
 * without opting in. */
#define EM_GEN_HIST_BLOCKS_PER_SM 4
#define EM_GEN_HIST_SHARED_BYTES (32 * 1024)

enum {
    EM_GEN_HIST_EVEN = 0,    /* CUB: [lo, lo + nbins/norm), half-open */
    EM_GEN_HIST_UNIFORM = 1, /* NumPy equal bins: guess, correct by edges */
    EM_GEN_HIST_EDGES = 2,   /* NumPy edges: binary search */
    EM_GEN_HIST_BINCOUNT = 3,
    EM_GEN_HIST_DIGITIZE = 4,
    EM_GEN_UNIQ_FLAGS = 5,   /* unique: first-of-run flags of sorted s */
    EM_GEN_UNIQ_COUNTS = 6,  /* unique: run lengths from run starts */
    EM_GEN_UNIQ_INVERSE = 7, /* unique: inv[perm[i]] = cs[i] - 1 */
    EM_GEN_SET_ISIN = 8,     /* isin: x[i] == s[j[i]] */
    EM_GEN_QUANTILE = 9,     /* quantile/median of sorted rows */
    EM_GEN_HIST_MINMAX = 10, /* histogram's range: min, max, any NaN */
    EM_GEN_HIST_2D = 11,     /* histogram2d: two coordinates, edges each */
    EM_GEN_HIST_OP_COUNT
};

enum {
    EM_GEN_HIST_RIGHT = 1,      /* digitize: right=True */
    EM_GEN_HIST_DECREASING = 2, /* digitize: bins decrease */
    EM_GEN_UNIQ_EQUAL_NAN = 4,  /* flags: NaNs are one run */
    EM_GEN_UNIQ_DUP = 8,        /* flags: f[i] = s[i] == s[i+1] instead */
    EM_GEN_UNIQ_XOR = 32,       /* flags: s[i] differs from both sides */
    EM_GEN_SET_INVERT = 16,     /* isin: not in */
    EM_GEN_QUANT_MEDIAN = 64,   /* quantile: NumPy's median instead */
    EM_GEN_QUANT_NAN = 128,     /* quantile: nanquantile / nanmedian */
    EM_GEN_HIST_FP32 = 1,       /* UNIFORM over float32 with float32
                                   edges: the guess in float */
};

typedef struct em_gen_hist {
    uint8_t op;
    uint8_t xdt;      /* em_dtype: bool, integers, float32, float64 */
    uint8_t weighted; /* counting ops: sum float64 weights */
    uint8_t idx32;    /* counting ops: nbins < 2^31 (32-bit bin indices) */
    uint8_t flags;    /* digitize: EM_GEN_HIST_RIGHT | _DECREASING;
                         UNIFORM: EM_GEN_HIST_FP32 */
    uint8_t pad[3];
} em_gen_hist;

/* The UNIFORM kernel's eps for nbins bins whose edges lie at most `dev`
 * bins from exact equal spacing, for a guess computed in float (fp32
 * nonzero) or double: a fraction of the guess at least eps from a whole
 * number is then the edges' answer. Large bounds give 2 (always read the
 * edges). */
double em_gen_hist_eps(int64_t nbins, double dev, int fp32);

/* The double whose order-preserving key (see MINMAX) is k. */
double em_gen_hist_unkey(uint64_t k);

/* Whether the kernels load dtype dt directly (others are cast first). */
int em_gen_hist_native(int dt);

em_status em_gen_hist_source(const em_gen_hist *d, em_device_type target,
                             char **out);

/* fn[0] = hk, hd, hx or hu; fn[1] = hm for host counting ops, else NULL. Owned
 * by the kernel cache. */
em_status em_gen_hist_functions(em_device *dev, const em_gen_hist *d,
                                em_function *fn[2]);

#endif
