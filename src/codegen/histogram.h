/* ember codegen: histogram, bincount and digitize kernels.
 *
 * One descriptor (em_gen_hist, 8 bytes) names a module: the operation,
 * the input's dtype (loaded as its own C type and compared in double),
 * whether weights (contiguous float64) are summed instead of counting,
 * and, on cuda, whether the block's counters fit in shared memory.
 *
 * Counting ops (EVEN, UNIFORM, EDGES, BINCOUNT) have one kernel `hk`:
 *   hk(const X *x, const double *w, long long n, long long chunk,
 *      const double *edges, long long nbins, double lo, double hi,
 *      double norm, C *out)
 * with C unsigned long long (counts) or double (weights).
 * cuda: a grid-stride loop; with shared counters each block zeroes
 * nbins counters of dynamic shared memory (unsigned int, or double with
 * weights), counts with shared atomics and adds its nonzero counters to
 * out with global atomics (out zeroed by the caller); without, every
 * value is a global atomic. The caller keeps a block's elements below
 * 2^31 so a 32-bit shared counter cannot wrap.
 * host: block b counts [b*chunk, (b+1)*chunk) into its own row
 * out + b*nbins (zeroed by the kernel), with no atomics; a second kernel
 * `hm`(const C *rows, long long nrows, long long nbins, long long chunk,
 * C *out) sums the rows, `chunk` bins per block. One block writes out
 * directly.
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

#define EM_GEN_HIST_VERSION 1u
#define EM_GEN_HIST_BLOCK 256

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
};

typedef struct em_gen_hist {
    uint8_t op;
    uint8_t xdt;      /* em_dtype: bool, integers, float32, float64 */
    uint8_t weighted; /* counting ops: sum float64 weights */
    uint8_t shared;   /* cuda counting ops: counters in shared memory */
    uint8_t flags;    /* digitize: EM_GEN_HIST_RIGHT | _DECREASING */
    uint8_t pad[3];
} em_gen_hist;

/* Whether the kernels load dtype dt directly (others are cast first). */
int em_gen_hist_native(int dt);

em_status em_gen_hist_source(const em_gen_hist *d, em_device_type target,
                             char **out);

/* fn[0] = hk or hd; fn[1] = hm for host counting ops, else NULL. Owned
 * by the kernel cache. */
em_status em_gen_hist_functions(em_device *dev, const em_gen_hist *d,
                                em_function *fn[2]);

#endif
