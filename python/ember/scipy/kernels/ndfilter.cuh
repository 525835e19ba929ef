/* ember.scipy.ndimage's N-dimensional filters, in float64 as SciPy
 * computes them (its line buffers are double whatever the array's type),
 * one thread an output element (grid-stride); the 1-D passes are
 * ndfilter1d.cuh's. */
#include "ndindex.cuh"

/* y = the correlation of x (d0 x d1 x d2) with weights w (k0 x k1 x k2)
 * placed at shift (s0, s1, s2): y[a][b][c] = sum w[u][v][t]
 * x[a + u - s0][b + v - s1][c + t - s2]. */
extern "C" __global__ void em_correlate3d(const double *x, double *y,
                                          long long d0, long long d1,
                                          long long d2, const double *w,
                                          long long k0, long long k1,
                                          long long k2, long long s0,
                                          long long s1, long long s2,
                                          int mode, double cval)
{
    long long total = d0 * d1 * d2;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;
         e < total; e += (long long)gridDim.x * blockDim.x) {
        long long c = e % d2, b = (e / d2) % d1, a = e / (d1 * d2);
        double acc = 0;
        for (long long u = 0; u < k0; u++) {
            long long p = em_nd_index(a + u - s0, d0, mode);
            for (long long v = 0; v < k1; v++) {
                long long q = em_nd_index(b + v - s1, d1, mode);
                for (long long t = 0; t < k2; t++) {
                    double wt = w[(u * k1 + v) * k2 + t];
                    long long s = em_nd_index(c + t - s2, d2, mode);
                    if (wt == 0)
                        continue;
                    acc += wt * (p < 0 || q < 0 || s < 0
                                     ? cval
                                     : x[(p * d1 + q) * d2 + s]);
                }
            }
        }
        y[e] = acc;
    }
}

/* The rank-th smallest (0-based) of the values under a footprint: its
 * noff elements' offsets off[] (triples, already less the origin's
 * shift) around each output element of x (d0 x d1 x d2). At most
 * EM_RANK_MAX elements, selected in a private buffer by quickselect. */
#define EM_RANK_MAX 343
extern "C" __global__ void em_rank3d(const double *x, double *y,
                                     long long d0, long long d1, long long d2,
                                     const long long *off, int noff, int rank,
                                     int mode, double cval)
{
    double buf[EM_RANK_MAX];
    long long total = d0 * d1 * d2;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;
         e < total; e += (long long)gridDim.x * blockDim.x) {
        long long c = e % d2, b = (e / d2) % d1, a = e / (d1 * d2);
        int lo = 0, hi = noff - 1;
        for (int k = 0; k < noff; k++) {
            long long p = em_nd_index(a + off[3 * k], d0, mode),
                      q = em_nd_index(b + off[3 * k + 1], d1, mode),
                      s = em_nd_index(c + off[3 * k + 2], d2, mode);
            buf[k] = p < 0 || q < 0 || s < 0 ? cval : x[(p * d1 + q) * d2 + s];
        }
        while (lo < hi) {
            double pivot = buf[(lo + hi) / 2];
            int i = lo, j = hi;
            while (i <= j) {
                while (buf[i] < pivot)
                    i++;
                while (buf[j] > pivot)
                    j--;
                if (i <= j) {
                    double t = buf[i];
                    buf[i] = buf[j];
                    buf[j] = t;
                    i++;
                    j--;
                }
            }
            if (rank <= j)
                hi = j;
            else if (rank >= i)
                lo = i;
            else
                break;
        }
        y[e] = buf[rank];
    }
}

/* The minimum (ismax 0) or maximum (1) over the footprint's offsets of
 * x - sv[k] (minimum) or x + sv[k] (maximum): minimum_filter and
 * maximum_filter with a footprint (sv all 0) and grey erosion and dilation
 * with a structure, one thread an output. As SciPy's, the first offset's
 * value starts and a later one replaces it only where strictly smaller
 * (larger), so a NaN counts only as the first. */
extern "C" __global__ void em_minmax3d(const double *x, double *y,
                                       long long d0, long long d1,
                                       long long d2, const long long *off,
                                       const double *sv, int noff,
                                       int ismax, int mode, double cval)
{
    long long total = d0 * d1 * d2;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;
         e < total; e += (long long)gridDim.x * blockDim.x) {
        long long c = e % d2, b = (e / d2) % d1, a = e / (d1 * d2);
        double acc = 0;
        for (int k = 0; k < noff; k++) {
            long long p = em_nd_index(a + off[3 * k], d0, mode),
                      q = em_nd_index(b + off[3 * k + 1], d1, mode),
                      s = em_nd_index(c + off[3 * k + 2], d2, mode);
            double v = p < 0 || q < 0 || s < 0 ? cval
                                                : x[(p * d1 + q) * d2 + s];
            v = ismax ? v + sv[k] : v - sv[k];
            if (k == 0 || (ismax ? v > acc : v < acc))
                acc = v;
        }
        y[e] = acc;
    }
}

/* One axis of the exact Euclidean distance transform (Felzenszwalb and
 * Huttenlocher's lower envelope of parabolas), one thread a line of the
 * outer x n x inner array: out[i] = min_j f[j] + w2 (i - j)^2 over the
 * line's finite f[j] (+inf where there is none). v (n ints) and z (n + 1
 * doubles) a line are scratch. With ncomp > 0 the nearest site's
 * coordinates follow: iout[c][i] = iin[c][j] for the j that gave out[i],
 * c < ncomp, each component `size` elements on (so after every axis's
 * pass each element holds the coordinates of its nearest zero). */
extern "C" __global__ void em_edt_pass(const double *f, double *out,
                                       long long outer, long long n,
                                       long long inner, double w2, int *v,
                                       double *z, const int *iin, int *iout,
                                       int ncomp, long long size)
{
    long long lines = outer * inner;
    for (long long l = (long long)blockIdx.x * blockDim.x + threadIdx.x;
         l < lines; l += (long long)gridDim.x * blockDim.x) {
        const long long base = em_nd_line_start(l, n, inner);
        const double *fl = f + base;
        double *ol = out + base;
        int *vl = v + l * n;
        double *zl = z + l * (n + 1);
        long long k = -1;
        for (long long q = 0; q < n; q++) {
            double fq = fl[q * inner], s;
            if (!(fq < 1.0e308))
                continue; /* no site here */
            for (;;) {
                if (k < 0) {
                    s = -1.0e308;
                    break;
                }
                long long p = vl[k];
                s = ((fq + w2 * (double)q * q) -
                     (fl[p * inner] + w2 * (double)p * p)) /
                    (2.0 * w2 * (double)(q - p));
                if (s > zl[k])
                    break;
                k--;
            }
            k++;
            vl[k] = (int)q;
            zl[k] = s;
            zl[k + 1] = 1.0e308;
        }
        if (k < 0) {
            for (long long q = 0; q < n; q++)
                ol[q * inner] = 1.0 / 0.0;
            continue;
        }
        long long j = 0;
        for (long long q = 0; q < n; q++) {
            while (j < k && zl[j + 1] < (double)q)
                j++;
            double d = (double)(q - vl[j]);
            ol[q * inner] = w2 * d * d + fl[vl[j] * inner];
            for (int c = 0; c < ncomp; c++)
                iout[c * size + base + q * inner] =
                    iin[c * size + base + (long long)vl[j] * inner];
        }
    }
}

/* ember.scipy.ndimage.distance_transform_bf: each foreground element's
 * distance to every border element (background touching the foreground),
 * one thread an element. The border elements are taken last to first,
 * the order of SciPy's list, and a nearer one replaces the best only
 * where strictly nearer, so ties pick SciPy's element. metric 1:
 * Euclidean (sampling per axis, dist a double), 2: taxicab, 3:
 * chessboard (dist an unsigned int; UINT_MAX, DBL_MAX's root for no
 * border, and index 0, as SciPy's). */
extern "C" __global__ void em_dist_bf(const signed char *kind,
                                      const long long *dims, int ndim,
                                      long long n, const long long *bc,
                                      long long nb, const double *samp,
                                      int has_samp, int metric, double *dd,
                                      unsigned int *du, int *ft, int want_d,
                                      int want_f)
{
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;
         e < n; e += (long long)gridDim.x * blockDim.x) {
        long long c[16], rem = e;
        for (int d = ndim - 1; d >= 0; d--) {
            c[d] = rem % dims[d];
            rem /= dims[d];
        }
        long long best = 0;
        if (kind[e] <= 0) {
            if (want_d) {
                if (metric == 1)
                    dd[e] = 0.0;
                else
                    du[e] = 0;
            }
            if (want_f)
                ft[e] = (int)e;
            continue;
        }
        if (metric == 1) {
            double dist = 1.7976931348623157e308;
            for (long long k = nb - 1; k >= 0; k--) {
                double s = 0.0;
                for (int d = 0; d < ndim; d++) {
                    double t = (double)(c[d] - bc[k * (ndim + 1) + d]);
                    if (has_samp)
                        t *= samp[d];
                    s += t * t;
                }
                if (s < dist) {
                    dist = s;
                    best = bc[k * (ndim + 1) + ndim];
                }
            }
            if (want_d)
                dd[e] = sqrt(dist);
        } else {
            unsigned int dist = 0xffffffffu;
            for (long long k = nb - 1; k >= 0; k--) {
                unsigned int s = 0;
                for (int d = 0; d < ndim; d++) {
                    long long t = c[d] - bc[k * (ndim + 1) + d];
                    if (t < 0)
                        t = -t;
                    if (metric == 2)
                        s += (unsigned int)t;
                    else if ((unsigned int)t > s)
                        s = (unsigned int)t;
                }
                if (s < dist) {
                    dist = s;
                    best = bc[k * (ndim + 1) + ndim];
                }
            }
            if (want_d)
                du[e] = dist;
        }
        if (want_f)
            ft[e] = (int)best;
    }
}
