/* ember: the generic kernels of the chunked radix sort (one module for
 * every dtype; src/codegen/sort.c pastes this after SRT_FOR and SRT_CUDA,
 * then the per-width kernels of sort_radix_chunk.cuh, sort_radix_warp.cuh
 * (cuda) and sort_radix_gather.cuh).
 *
 * The histogram and scatter keep each chunk's keys in order, which makes a
 * pass stable with no inter-block waiting: on the host a chunk is one
 * thread walking it; on CUDA one warp (coalesced reads, lanes of equal
 * digit ranked by __match_any_sync). */
typedef unsigned int srt_u32;
typedef unsigned long long srt_u64;
typedef struct { srt_u64 a, b; } srt_x16;
/* The digit of element i: of the image, or (rowlen > 0) of the row
 * that the element's original flat index p[i] lies in. */
#define SRT_DIGIT(i) (rowlen > 0 ? (unsigned)(((srt_u64)(p[i] / rowlen)) >> shift) & mask : (unsigned)(u[i] >> shift) & mask)
/* After a row sort every element stays in its row: the index along the
 * row is the flat index less the row's start. */
extern "C" __global__ void srt_rowmod(const long long *p, long long *out, long long n, long long rowlen)
{
    SRT_FOR(i, n)
        out[i] = p[i] - (i / rowlen) * rowlen;
}
/* The counts are chunk-major (counts[c * 256 + d]); the scan turns them
 * into each (chunk, digit)'s first output position: digits in order, and
 * within a digit, chunks in order. On CUDA a thread per digit with a
 * barrier; on the host one thread walking the counts in order (it runs a
 * block's threads one after another without barriers). */
extern "C" __global__ void srt_scan(long long *counts, long long nchunks)
{
#if SRT_CUDA
    __shared__ long long tot[256];
    const int d = threadIdx.x;
    long long s = 0;
    for (long long c = 0; c < nchunks; c++) {
        long long v = counts[c * 256 + d];
        counts[c * 256 + d] = s;
        s += v;
    }
    tot[d] = s;
    __syncthreads();
    if (d == 0) {
        long long a = 0;
        for (int k = 0; k < 256; k++) {
            long long v = tot[k];
            tot[k] = a;
            a += v;
        }
    }
    __syncthreads();
    s = tot[d];
    for (long long c = 0; c < nchunks; c++)
        counts[c * 256 + d] += s;
#else
    long long s = 0;
    for (int d = 0; d < 256; d++)
        for (long long c = 0; c < nchunks; c++) {
            long long v = counts[c * 256 + d];
            counts[c * 256 + d] = s;
            s += v;
        }
#endif
}
/* The scan of digit counts in three steps that need no barrier: per
 * group of 64 chunks, per digit (a thread each), the group's sum; the
 * scan of the group sums (srt_scan over groups); then each group's
 * chunks get their positions from their group's start. */
extern "C" __global__ void srt_gsum(const long long *counts, long long nchunks, long long *part)
{
    const int d = threadIdx.x;
    const long long g = blockIdx.x, c1 = (g + 1) * 64 < nchunks ? (g + 1) * 64 : nchunks;
    long long s = 0;
    for (long long c = g * 64; c < c1; c++) s += counts[c * 256 + d];
    part[g * 256 + d] = s;
}
extern "C" __global__ void srt_gapply(long long *counts, long long nchunks, const long long *part)
{
    const int d = threadIdx.x;
    const long long g = blockIdx.x, c1 = (g + 1) * 64 < nchunks ? (g + 1) * 64 : nchunks;
    long long s = part[g * 256 + d];
    for (long long c = g * 64; c < c1; c++) {
        const long long v = counts[c * 256 + d];
        counts[c * 256 + d] = s;
        s += v;
    }
}
