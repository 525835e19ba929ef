/* ember: the CUDA radix sort's per-chunk digit histogram and stable
 * scatter, a warp per chunk.
 *
 * src/codegen/sort.c pastes this once per item width, replacing the
 * capitalised placeholders of the kernels' names and of the item type as
 * text: the host compiler and the runtime read kernel names and parameter
 * types from the source before preprocessing, and the host compiler's
 * launchers come after every copy.
 *
 * 8 warps to a block, each warp with its own shared counters (so no block
 * barrier). The histogram counts with shared atomics. The scatter reads
 * 32 consecutive keys at a time (coalesced); lanes holding the same digit
 * rank themselves by __match_any_sync, so equal digits keep their order
 * within a step, and steps go in order: the scatter stays stable. The
 * chunk loop bound is the same for every lane, so each __ballot_sync sees
 * the full warp. */
extern "C" __global__ void SRT_WHIST(const SRT_ITEM_T *u, const long long *p, long long n, long long chunk, long long nchunks, int shift, unsigned mask, long long rowlen, long long *counts)
{
    __shared__ unsigned h[8][256];
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    const long long c = (long long)blockIdx.x * 8 + w;
    if (c >= nchunks) return;
    for (int d = lane; d < 256; d += 32) h[w][d] = 0u;
    __syncwarp();
    {
        const long long lo = c * chunk;
        const long long hi = lo + chunk < n ? lo + chunk : n;
        for (long long i = lo + lane; i < hi; i += 32)
            atomicAdd(&h[w][SRT_DIGIT(i)], 1u);
    }
    __syncwarp();
    for (int d = lane; d < 256; d += 32)
        counts[c * 256 + d] = (long long)h[w][d];
}
extern "C" __global__ void SRT_WSCATTER(const SRT_ITEM_T *u, const long long *p, SRT_ITEM_T *u2, long long *p2, long long n, long long chunk, long long nchunks, int shift, unsigned mask, long long rowlen, const long long *counts)
{
    __shared__ long long o[8][256];
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    const long long c = (long long)blockIdx.x * 8 + w;
    long long lo, hi;
    if (c >= nchunks) return;
    for (int d = lane; d < 256; d += 32) o[w][d] = counts[c * 256 + d];
    __syncwarp();
    lo = c * chunk;
    hi = lo + chunk < n ? lo + chunk : n;
    for (long long base = lo; base < hi; base += 32) {
        const long long i = base + lane;
        const unsigned act = __ballot_sync(0xffffffffu, i < hi);
        if (i < hi) {
            const unsigned d = SRT_DIGIT(i);
            const unsigned peers = __match_any_sync(act, d);
            const int rank = __popc(peers & ((1u << lane) - 1u));
            const long long j = o[w][d] + rank;
            __syncwarp(act);
            if (rank == 0) o[w][d] = o[w][d] + __popc(peers);
            __syncwarp(act);
            u2[j] = u[i];
            if (p) p2[j] = p[i];
        }
    }
}
