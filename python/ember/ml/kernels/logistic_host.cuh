/* ember.ml's LogisticRegression on cpu: the loss and its gradient at one
 * parameter vector in one pass over X (binary here, multinomial below)
 * (python/ember/ml/linear_model/_logistic.py). The composition reads X
 * twice (the scores X w, then the gradient R^T X) with about ten
 * elementwise passes between; here each block takes a contiguous run of
 * rpb rows, EM_LGH_R rows at a time: their scores z = x.w + b, then per
 * row (s its weight, 1 without sample_weight)
 *     loss = s (max(z, 0) + log1p(e^-|z|) - y z)
 *     r    = s (sigmoid(z) - y)
 * and r x added to the block's gradient while the rows are still in L1.
 * part[blockIdx] (p + 2 doubles) gets the gradient of the coefficients,
 * the intercept's (sum of r) and the loss; the caller adds the blocks'
 * rows in a fixed order, so a fit is bit-equal to itself whatever the
 * thread count. Sums are in double whatever T is; the scores in T, as the
 * BLAS's product is. No barrier, so the host runs the blocks as plain
 * loops on its thread pool. */

#define EM_LGH_R 4 /* em_lgh_math's four lanes */
/* rows a chunk: its scores are all computed before the math, so the loads
 * of X are not held up behind the math's dependent steps, and the chunk
 * (16 KiB of 64 doubles) is still in L1 for the gradient */
#define EM_LGH_CH 32
/* rows ahead to prefetch: with the hardware's prefetcher alone the dot
 * products waited on X (6.0 -> 3.2 ms a pass over 10^5 x 64 float64) */
#define EM_LGH_PF 16

/* 4 lanes of T and of double (GCC's vector extensions; this file is built
 * by the host compiler only), loads at T's alignment */
template <typename T>
struct em_lgh_vec {
    typedef T v __attribute__((vector_size(4 * sizeof(T)), aligned(sizeof(T))));
};
typedef double em_lgh_vd __attribute__((vector_size(32), aligned(8)));

typedef long long em_lgh_vi __attribute__((vector_size(32)));

#pragma GCC push_options
#pragma GCC optimize("fp-contract=fast")

/* e^x for x <= 0, four lanes at once (x below -708 taken as -708, whose
 * e^x, 3e-308, is 0 to the loss and the residual): 2^n e^r with n the
 * nearest integer to x / ln 2 (by adding 1.5 * 2^52, whose low bits are
 * then n), r reduced in two parts of ln 2, e^r by Taylor to r^12 as the
 * prelude's scalar __em_exp; 2^n built in the exponent field. */
static inline em_lgh_vd em_lgh_exp(em_lgh_vd x)
{
    x = x < -708.0 ? (em_lgh_vd){-708.0, -708.0, -708.0, -708.0} : x;
    const double big = 6755399441055744.0; /* 1.5 * 2^52 */
    em_lgh_vd kf = x * 1.4426950408889634 + big;
    const em_lgh_vi bits = (em_lgh_vi)kf;
    kf = kf - big;
    const em_lgh_vd r = (x - kf * 6.93147180369123816490e-01) - kf * 1.90821492927058770002e-10;
    em_lgh_vd p = 1.0 / 479001600 + r * 0.0;
    const double c[12] = {1.0 / 39916800, 1.0 / 3628800, 1.0 / 362880, 1.0 / 40320,
                          1.0 / 5040, 1.0 / 720, 1.0 / 120, 1.0 / 24, 1.0 / 6, 0.5, 1.0, 1.0};
#pragma GCC unroll 12
    for (int k = 0; k < 12; k++)
        p = c[k] + r * p;
    const em_lgh_vi sc = (bits + 1023) << 52;
    return p * (em_lgh_vd)sc;
}

/* log1p(e) for 0 <= e <= 1, four lanes: 2 atanh(t), t = e / (2 + e) <=
 * 1/3, by its series to t^35 (the next term is below 1e-18 of the sum),
 * its even and odd halves in s^2 = t^4 side by side; correct to a few
 * ulp, as glibc's is. */
static inline em_lgh_vd em_lgh_log1p(em_lgh_vd e)
{
    const em_lgh_vd t = e / (2.0 + e), s = t * t, s2 = s * s;
    em_lgh_vd ev = 1.0 / 33 + s2 * 0.0, od = 1.0 / 35 + s2 * 0.0;
#pragma GCC unroll 8
    for (int k = 7; k >= 0; k--) {
        ev = 1.0 / (4 * k + 1) + s2 * ev;
        od = 1.0 / (4 * k + 3) + s2 * od;
    }
    return 2.0 * t * (ev + s * od);
}

/* for four scores z: e^-|z|, log1p of it, and sigmoid(z) without
 * overflow on either side. glibc's exp and log1p as calls a row took
 * more than half of a pass. */
static inline void em_lgh_math(em_lgh_vd z, em_lgh_vd *l, em_lgh_vd *sig)
{
    const em_lgh_vd a = z < 0.0 ? -z : z;
    const em_lgh_vd e = em_lgh_exp(-a);
    *l = em_lgh_log1p(e);
    const em_lgh_vd one = {1.0, 1.0, 1.0, 1.0};
    *sig = (z >= 0.0 ? one : e) / (1.0 + e);
}

#pragma GCC pop_options

/* The scores x.w + b of the chunk's rows i0..i0+3 (xc: m rows of p
 * features) into z[0..3], in four independent vector sums; a short last
 * group repeats its first row, whose score is not used. prefetch: ask
 * for the rows' next lines (the first pass over a chunk). */
template <typename T>
static inline void em_lgh_scores(const T *xc, int i0, int m, int p, const T *w,
                                 T b, int prefetch, double *z)
{
    typedef typename em_lgh_vec<T>::v V;
    const int pv = p & ~3;
    const T *x[EM_LGH_R];
    for (int i = 0; i < EM_LGH_R; i++)
        x[i] = xc + (i0 + (i0 + i < m ? i : 0)) * (long long)p;
    V a[EM_LGH_R] = {};
    for (int f = 0; f < pv; f += 4) {
        const V wv = *(const V *)(w + f);
#pragma GCC unroll 4
        for (int i = 0; i < EM_LGH_R; i++) {
            if (prefetch)
                __builtin_prefetch(x[i] + f + EM_LGH_PF * p);
            a[i] += *(const V *)(x[i] + f) * wv;
        }
    }
    for (int i = 0; i < EM_LGH_R; i++) {
        T t = (a[i][0] + a[i][1]) + (a[i][2] + a[i][3]);
        for (int f = pv; f < p; f++)
            t += x[i][f] * w[f];
        z[i] = (double)(t + b);
    }
}

/* g[f] += sum_i r[i] x_i[f] over the chunk's rows i0..i0+3 (still in L1),
 * in double; a short last group repeats its first row, whose r is 0. */
template <typename T>
static inline void em_lgh_accumulate(const T *xc, int i0, int m, int p,
                                     const double *r, double *g)
{
    typedef typename em_lgh_vec<T>::v V;
    const int pv = p & ~3;
    const T *x[EM_LGH_R];
    for (int i = 0; i < EM_LGH_R; i++)
        x[i] = xc + (i0 + (i0 + i < m ? i : 0)) * (long long)p;
    for (int f = 0; f < pv; f += 4) {
        em_lgh_vd gv = *(em_lgh_vd *)(g + f);
#pragma GCC unroll 4
        for (int i = 0; i < EM_LGH_R; i++)
            gv += r[i] * __builtin_convertvector(*(const V *)(x[i] + f), em_lgh_vd);
        *(em_lgh_vd *)(g + f) = gv;
    }
    for (int f = pv; f < p; f++)
        for (int i = 0; i < EM_LGH_R; i++)
            g[f] += r[i] * (double)x[i][f];
}

template <typename T>
__global__ void em_logistic_host(const T *X, const T *y, const T *sw, int has_sw,
                                 const T *wb, int fi, long long n, int p, long long rpb,
                                 double *part)
{
    const long long s = (long long)blockIdx.x * rpb;
    const long long e = s + rpb < n ? s + rpb : n;
    double *g = part + (long long)blockIdx.x * (p + 2);
    for (int f = 0; f < p + 2; f++)
        g[f] = 0;
    const T b = fi ? wb[p] : (T)0;
    double loss = 0, gb = 0;
    for (long long c0 = s; c0 < e; c0 += EM_LGH_CH) {
        const int m = e - c0 < EM_LGH_CH ? (int)(e - c0) : EM_LGH_CH;
        const T *xc = X + c0 * p;
        double zc[EM_LGH_CH + EM_LGH_R], rr[EM_LGH_CH + EM_LGH_R];
        for (int i0 = 0; i0 < m; i0 += EM_LGH_R)
            em_lgh_scores(xc, i0, m, p, wb, b, 1, zc + i0);
        /* the loss and residuals, four lanes at a time */
        for (int i0 = 0; i0 < m; i0 += EM_LGH_R) {
            const em_lgh_vd zv = *(const em_lgh_vd *)(zc + i0);
            em_lgh_vd lv, sg;
            em_lgh_math(zv, &lv, &sg);
            for (int i = 0; i < EM_LGH_R; i++) {
                const long long r = c0 + i0 + i;
                if (i0 + i >= m) {
                    rr[i0 + i] = 0;
                    continue;
                }
                const double yr = y[r], sr = has_sw ? (double)sw[r] : 1.0;
                loss += sr * ((zv[i] > 0 ? zv[i] : 0.0) + lv[i] - yr * zv[i]);
                rr[i0 + i] = sr * (sg[i] - yr);
                gb += rr[i0 + i];
            }
        }
        /* g += sum_i r_i x_i over the chunk (still in L1), four rows at
         * a time; a short group's repeated rows have r = 0 */
        for (int i0 = 0; i0 < m; i0 += EM_LGH_R)
            em_lgh_accumulate(xc, i0, m, p, rr + i0, g);
    }
    g[p] = gb;
    g[p + 1] = loss;
}

/* The multinomial loss (softmax over K classes, scikit-learn >= 1.5) the
 * same way: per row z_c = x.W_c + b_c, loss = s (log sum_c e^z_c - z_y),
 * r_c = s (softmax(z)_c - [c == y]), and part[blockIdx] gets the K x p
 * gradient of W, the K of the intercepts and the loss. Each chunk's rows
 * are scored class by class (the chunk stays in L1), the softmax runs
 * four rows a lane, and the gradient is added class by class. The log of
 * the sum s in [1, K] is e ln 2 + log1p(m - 1) from its exponent e and
 * mantissa m. K <= EM_LGH_KMAX. */
#define EM_LGH_KMAX 64

#pragma GCC push_options
#pragma GCC optimize("fp-contract=fast")

/* log(s) for s >= 1 (finite), four lanes */
static inline em_lgh_vd em_lgh_log(em_lgh_vd s)
{
    const em_lgh_vi bits = (em_lgh_vi)s;
    const em_lgh_vi e = (bits >> 52) - 1023;
    const em_lgh_vi mb = (bits & 0x000fffffffffffffLL) | 0x3ff0000000000000LL;
    const em_lgh_vd m = (em_lgh_vd)mb;
    return __builtin_convertvector(e, em_lgh_vd) * 6.93147180559945286227e-01 +
           em_lgh_log1p(m - 1.0);
}

#pragma GCC pop_options

template <typename T>
__global__ void em_logistic_multi_host(const T *X, const long long *codes, const T *sw,
                                       int has_sw, const T *wb, int fi, long long n, int p,
                                       int K, long long rpb, double *part)
{
    const long long s = (long long)blockIdx.x * rpb;
    const long long e = s + rpb < n ? s + rpb : n;
    const int row = K * (p + 1) + 1;
    double *g = part + (long long)blockIdx.x * row;
    for (int f = 0; f < row; f++)
        g[f] = 0;
    double *gb = g + (long long)K * p;
    double loss = 0;
    /* scores, then residuals, of class c for the chunk's row i at
     * zc[c * CH4 + i] */
    enum { CH4 = EM_LGH_CH + EM_LGH_R };
    double zc[EM_LGH_KMAX * CH4];
    for (long long c0 = s; c0 < e; c0 += EM_LGH_CH) {
        const int m = e - c0 < EM_LGH_CH ? (int)(e - c0) : EM_LGH_CH;
        const T *xc = X + c0 * p;
        for (int c = 0; c < K; c++) {
            const T *w = wb + (long long)c * p;
            const T b = fi ? wb[(long long)K * p + c] : (T)0;
            for (int i0 = 0; i0 < m; i0 += EM_LGH_R)
                em_lgh_scores(xc, i0, m, p, w, b, c == 0, zc + c * CH4 + i0);
        }
        /* the softmax four rows a lane: the largest score, the sum of
         * e^(z - max), the loss and the residuals in place of the scores */
        for (int i0 = 0; i0 < m; i0 += EM_LGH_R) {
            em_lgh_vd mx = *(const em_lgh_vd *)(zc + i0);
            for (int c = 1; c < K; c++) {
                const em_lgh_vd z = *(const em_lgh_vd *)(zc + c * CH4 + i0);
                mx = z > mx ? z : mx;
            }
            double zy[EM_LGH_R];
            for (int i = 0; i < EM_LGH_R && i0 + i < m; i++)
                zy[i] = zc[codes[c0 + i0 + i] * CH4 + i0 + i];
            em_lgh_vd sum = {0, 0, 0, 0};
            for (int c = 0; c < K; c++) {
                em_lgh_vd *z = (em_lgh_vd *)(zc + c * CH4 + i0);
                *z = em_lgh_exp(*z - mx);
                sum += *z;
            }
            const em_lgh_vd lse = mx + em_lgh_log(sum);
            for (int i = 0; i < EM_LGH_R && i0 + i < m; i++) {
                const long long r = c0 + i0 + i;
                const int y = (int)codes[r];
                const double sr = has_sw ? (double)sw[r] : 1.0;
                loss += sr * (lse[i] - zy[i]);
                for (int c = 0; c < K; c++) {
                    double *q = zc + c * CH4 + i0 + i;
                    *q = sr * (*q / sum[i] - (c == y ? 1.0 : 0.0));
                    gb[c] += *q;
                }
            }
            for (int i = m - i0; i < EM_LGH_R; i++)
                for (int c = 0; c < K; c++)
                    zc[c * CH4 + i0 + i] = 0;
        }
        for (int c = 0; c < K; c++) {
            double *gc = g + (long long)c * p;
            const double *rc = zc + c * CH4;
            for (int i0 = 0; i0 < m; i0 += EM_LGH_R)
                em_lgh_accumulate(xc, i0, m, p, rc + i0, gc);
        }
    }
    g[row - 1] = loss;
}
