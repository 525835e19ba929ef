/* ember.scipy.signal's peak finding: find_peaks' plateaus, the
 * prominences and widths of peak_prominences and peak_widths (one thread
 * a peak, each walking its own stretch of x as SciPy's loops do, in
 * their order, so the bases and crossings are SciPy's), and find_peaks'
 * `distance` (one thread: the highest peak first, each kept peak
 * suppressing its neighbours, is a greedy order that is the algorithm). */

/* cand: the indices i in [1, n - 2] with x[i - 1] < x[i]. Each walks its
 * run of equal values; the run is a peak when the next different value
 * (or the last sample, which cannot be a peak) is smaller. */
extern "C" __global__ void em_peak_plateaus(const double *x, long long n,
                                            const long long *cand,
                                            long long m, long long *left,
                                            long long *right,
                                            unsigned char *is_peak)
{
    for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
         k < m; k += (long long)gridDim.x * blockDim.x) {
        long long i = cand[k], a = i + 1;
        while (a < n - 1 && x[a] == x[i])
            a++;
        is_peak[k] = x[a] < x[i];
        left[k] = i;
        right[k] = a - 1;
    }
}

/* Each peak's bases: the lowest points of x on either side before x
 * rises above the peak or the window of wlen (>= 2; else all of x)
 * ends; the prominence is the peak's height over the higher base. */
extern "C" __global__ void em_peak_prominences(const double *x, long long n,
                                               const long long *peaks,
                                               long long m, long long wlen,
                                               double *prom, long long *lb,
                                               long long *rb)
{
    for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
         k < m; k += (long long)gridDim.x * blockDim.x) {
        long long p = peaks[k], lo = 0, hi = n - 1, i;
        double xp = x[p], lmin = xp, rmin = xp;
        if (wlen >= 2) {
            lo = p - wlen / 2 > lo ? p - wlen / 2 : lo;
            hi = p + wlen / 2 < hi ? p + wlen / 2 : hi;
        }
        lb[k] = p;
        for (i = p; lo <= i && x[i] <= xp; i--)
            if (x[i] < lmin) {
                lmin = x[i];
                lb[k] = i;
            }
        rb[k] = p;
        for (i = p; i <= hi && x[i] <= xp; i++)
            if (x[i] < rmin) {
                rmin = x[i];
                rb[k] = i;
            }
        prom[k] = xp - (lmin > rmin ? lmin : rmin);
    }
}

/* Each peak's width at x[peak] - prominence * rel_height: the walk out
 * from the peak to the first sample at or below that height (within the
 * bases), then the linear interpolation back to the crossing. */
extern "C" __global__ void em_peak_widths(const double *x,
                                          const long long *peaks,
                                          long long m, double rel_height,
                                          const double *prom,
                                          const long long *lb,
                                          const long long *rb, double *width,
                                          double *wh, double *lip,
                                          double *rip)
{
    for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
         k < m; k += (long long)gridDim.x * blockDim.x) {
        long long p = peaks[k], i;
        double h = x[p] - prom[k] * rel_height, l, r;
        wh[k] = h;
        i = p;
        while (lb[k] < i && h < x[i])
            i--;
        l = (double)i;
        if (x[i] < h)
            l += (h - x[i]) / (x[i + 1] - x[i]);
        i = p;
        while (i < rb[k] && h < x[i])
            i++;
        r = (double)i;
        if (x[i] < h)
            r -= (h - x[i]) / (x[i - 1] - x[i]);
        width[k] = r - l;
        lip[k] = l;
        rip[k] = r;
    }
}

/* order: the peaks' positions by ascending height; from the highest, a
 * peak still kept removes the peaks closer than `distance` on both
 * sides. */
extern "C" __global__ void em_peak_distance(const long long *peaks,
                                            const long long *order,
                                            long long m, long long distance,
                                            unsigned char *keep)
{
    if (blockIdx.x != 0 || threadIdx.x != 0)
        return;
    for (long long k = 0; k < m; k++)
        keep[k] = 1;
    for (long long t = m - 1; t >= 0; t--) {
        long long j = order[t], k;
        if (!keep[j])
            continue;
        for (k = j - 1; k >= 0 && peaks[j] - peaks[k] < distance; k--)
            keep[k] = 0;
        for (k = j + 1; k < m && peaks[k] - peaks[j] < distance; k++)
            keep[k] = 0;
    }
}
