/* ember: the radix sort's per-chunk digit histogram and stable scatter
 * (a chunk is one thread), and the binary search of sorted images.
 *
 * src/codegen/sort.c pastes this once per item width, replacing the
 * capitalised placeholders of the kernels' names and of the item type as
 * text: the host compiler and the runtime read kernel names and parameter
 * types from the source before preprocessing, and the host compiler's
 * launchers come after every copy. */
extern "C" __global__ void SRT_HIST(const SRT_ITEM_T *u, const long long *p, long long n, long long chunk, long long nchunks, int shift, unsigned mask, long long rowlen, long long *counts)
{
    long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long h[256], lo, hi;
    if (c >= nchunks) return;
    for (int d = 0; d < 256; d++) h[d] = 0;
    lo = c * chunk; hi = lo + chunk < n ? lo + chunk : n;
    for (long long i = lo; i < hi; i++) h[SRT_DIGIT(i)]++;
    for (int d = 0; d < 256; d++) counts[c * 256 + d] = h[d];
}
extern "C" __global__ void SRT_SCATTER(const SRT_ITEM_T *u, const long long *p, SRT_ITEM_T *u2, long long *p2, long long n, long long chunk, long long nchunks, int shift, unsigned mask, long long rowlen, const long long *counts)
{
    long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long o[256], lo, hi;
    if (c >= nchunks) return;
    for (int d = 0; d < 256; d++) o[d] = counts[c * 256 + d];
    lo = c * chunk; hi = lo + chunk < n ? lo + chunk : n;
    for (long long i = lo; i < hi; i++) {
        long long j = o[SRT_DIGIT(i)]++;
        u2[j] = u[i];
        if (p) p2[j] = p[i];
    }
}
/* Lower (right = 0) or upper bound of each needle's image among the
 * sorted images. */
extern "C" __global__ void SRT_SEARCH(const SRT_ITEM_T *hay, long long n, const SRT_ITEM_T *nd, long long m, long long *out, int right)
{
    SRT_FOR(i, m) {
        const SRT_ITEM_T v = nd[i];
        long long lo = 0, hi = n;
        while (lo < hi) {
            long long mid = lo + ((hi - lo) >> 1);
            if (right ? hay[mid] <= v : hay[mid] < v) lo = mid + 1;
            else hi = mid;
        }
        out[i] = lo;
    }
}
