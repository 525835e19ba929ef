/* ember.scipy.ndimage's 1-D passes (correlate1d and so gaussian_filter,
 * uniform_filter, sobel...; minimum and maximum filters), a block a tile
 * of a line at a time. The array is outer x n x inner, the filtered axis in
 * the middle; outputs are
 *   op 0: sum over j < L of w[j] x[o][i + j - shift][r], in SciPy's
 *         order where the window fits one chunk (the usual case), so
 *         sums that land on an integer truncate as SciPy's do: sym 1 (a
 *         symmetric odd window) the centre tap, then the pairs
 *         (x[j] + x[L-1-j]) w[j] from the outside in; sym -1
 *         (antisymmetric) the same with x[j] - x[L-1-j]; sym 0 the last
 *         tap, then j ascending. Longer windows: j ascending.
 *   op 1, 2: the minimum, maximum of those L values (w unread; a NaN
 *            wins, as in SciPy's comparisons),
 * the positions folded by the mode (ndindex.cuh), summed in double as
 * SciPy's line buffers are, whatever Tin (the input's type, or double)
 * and Tout (the output's) are.
 *
 * A block is BX x BY = 256 threads, BX a power of two up to 32 that covers
 * inner (1 for the last axis): its tile is BX consecutive r of TN = 8 BY
 * consecutive i. Shared memory holds the tile's input rows plus the
 * window's halo, (TN + cl - 1) x BX values (the fold and cval applied as
 * they are loaded, from coalesced reads: a warp reads 32 / BX rows of BX
 * consecutive elements), and cl weights; each thread sums 8 outputs
 * (i = ty + BY k) from shared loads that a warp takes in one pass (32
 * consecutive values). Windows longer than cl are summed cl taps at a
 * time, in the same order. The caller sizes cl so shared memory stays
 * within 48 KiB.
 *
 * Floor and what to expect (gaussian_filter of 4096^2 float32, sigma 4:
 * 33 taps, two passes; H200 at 4.1 TB/s): each pass reads and writes the
 * image once, 134 MB, 0.033 ms, so 0.065 ms for both. A pass is 553 M
 * multiply-adds in double (0.033 ms at 16.7 T a second) from 19 M
 * warp-wide shared loads (0.075 ms at one a clock an SM): about 0.08 ms a
 * pass, 0.17 ms for the filter (target 0.5), where the old kernel read
 * every tap from global memory and ran float32 -> float64 -> float32
 * conversions around each pass. */
#include "ndindex.cuh"

#define EM_F1_THREADS 256
#define EM_F1_CN 8

template <typename Tin, typename Tout>
__global__ void __launch_bounds__(EM_F1_THREADS)
em_filter1d_tile(const Tin *x, Tout *y, long long outer, long long n,
                 long long inner, const double *w, int L, long long shift,
                 int mode, double cval, int op, int cl, int sym)
{
    extern __shared__ double em_f1_smem[];
    double *ws = em_f1_smem;
    Tin *tile = (Tin *)(ws + cl);
    const int BX = blockDim.x, BY = blockDim.y, TN = BY * EM_F1_CN;
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * BX + tx;
    long long nti = (inner + BX - 1) / BX, ntn = (n + TN - 1) / TN;
    long long ntiles = outer * ntn * nti;
    for (long long t = blockIdx.x; t < ntiles; t += gridDim.x) {
        long long col = t % nti * BX + tx, nb = (t / nti) % ntn * TN;
        bool colok = col < inner;
        long long line = t / (nti * ntn) * n * inner + col;
        double acc[EM_F1_CN];
        for (int k = 0; k < EM_F1_CN; k++)
            acc[k] = 0;
        for (int c0 = 0; c0 < L; c0 += cl) {
            int nc = L - c0 < cl ? L - c0 : cl;
            int rows = TN + nc - 1;
            long long q0 = nb + c0 - shift;
            __syncthreads(); /* the last chunk's readers are done */
            if (op == 0)
                for (int e = tid; e < nc; e += EM_F1_THREADS)
                    ws[e] = w[c0 + e];
            for (int r = ty; r < rows; r += BY) {
                long long q = em_nd_index(q0 + r, n, mode);
                Tin v = 0;
                if (q < 0)
                    v = (Tin)cval; /* exact: the caller sees to it */
                else if (colok)
                    v = x[line + q * inner];
                tile[r * BX + tx] = v;
            }
            __syncthreads();
            /* output i = nb + ty + BY k reads tile row ty + BY k + jj,
             * BY k BX = 256 k values on */
            const Tin *s = tile + ty * BX + tx;
            if (op == 0 && nc == L) {
                int c = sym ? L / 2 : L - 1;
                double wc = ws[c];
                for (int k = 0; k < EM_F1_CN; k++)
                    acc[k] = (double)s[c * BX + k * EM_F1_THREADS] * wc;
                int top = sym ? c : L - 1;
                for (int jj = 0; jj < top; jj++, s += BX) {
                    double wj = ws[jj];
                    for (int k = 0; k < EM_F1_CN; k++) {
                        double a = (double)s[k * EM_F1_THREADS];
                        if (sym) {
                            /* tap L-1-jj, from tap jj where s is */
                            double b = (double)s[(L - 1 - 2 * jj) * BX +
                                                 k * EM_F1_THREADS];
                            acc[k] += (sym > 0 ? a + b : a - b) * wj;
                        } else {
                            acc[k] += a * wj;
                        }
                    }
                }
            } else if (op == 0) {
                for (int jj = 0; jj < nc; jj++, s += BX) {
                    double wj = ws[jj];
                    for (int k = 0; k < EM_F1_CN; k++)
                        acc[k] += wj * (double)s[k * EM_F1_THREADS];
                }
            } else {
                for (int jj = 0; jj < nc; jj++, s += BX)
                    for (int k = 0; k < EM_F1_CN; k++) {
                        double v = (double)s[k * EM_F1_THREADS];
                        if (c0 + jj == 0 ||
                            (op == 2 ? !(v <= acc[k]) : !(v >= acc[k])))
                            acc[k] = v;
                    }
            }
        }
        for (int k = 0; k < EM_F1_CN; k++) {
            long long i = nb + ty + (long long)BY * k;
            if (colok && i < n)
                y[line + i * inner] = (Tout)acc[k];
        }
    }
}
