/* ember.scipy.signal.lfilter: the IIR/FIR filter b/a along one axis, one
 * thread a line (the recursion is sequential along it), as the direct
 * form II transposed with the coefficients divided by a[0]:
 *   y[n] = b[0] x[n] + z[0]
 *   z[i] = b[i + 1] x[n] + z[i + 1] - a[i + 1] y[n]   (i < m - 1)
 * m = max(len(a), len(b)) coefficients (both padded with zeros), at most
 * EM_LF_MAX. The array is seen as lines (ndindex.cuh); zi/zf hold each
 * line's m - 1 state values when has_z (else they are not read). */
#include "ndindex.cuh"

#define EM_LF_MAX 64
extern "C" __global__ void em_lfilter(const double *b, const double *a, int m,
                                      const double *x, double *y,
                                      long long outer, long long n,
                                      long long inner, const double *zi,
                                      double *zf, int has_z)
{
    double z[EM_LF_MAX];
    long long lines = outer * inner;
    for (long long l = (long long)blockIdx.x * blockDim.x + threadIdx.x;
         l < lines; l += (long long)gridDim.x * blockDim.x) {
        const double *xs = x + em_nd_line_start(l, n, inner);
        double *ys = y + em_nd_line_start(l, n, inner);
        for (int i = 0; i < m - 1; i++)
            z[i] = has_z ? zi[l * (m - 1) + i] : 0.0;
        for (long long t = 0; t < n; t++) {
            double xv = xs[t * inner], yv = b[0] * xv + (m > 1 ? z[0] : 0.0);
            for (int i = 0; i < m - 1; i++)
                z[i] = b[i + 1] * xv + (i + 1 < m - 1 ? z[i + 1] : 0.0) -
                       a[i + 1] * yv;
            ys[t * inner] = yv;
        }
        if (has_z)
            for (int i = 0; i < m - 1; i++)
                zf[l * (m - 1) + i] = z[i];
    }
}
