/* ember: cc_rows copies whole rows of `words` CC_WORDs, the rows named by
 * idx, to consecutive rows of out (src/codegen/compact.c pastes it after
 * compact_common.cuh). */
extern "C" __global__ void cc_rows(const CC_WORD *src, const long long *idx, CC_WORD *out, long long k, long long words, long long chunk)
{
#if CC_CUDA
    /* A thread per word, consecutive threads along a row and on to the
     * next, so loads and stores coalesce; 32-bit division when the word
     * count fits. */
    const long long tot = k * words;
    const long long step = (long long)gridDim.x * blockDim.x;
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    (void)chunk;
    if (tot <= 0xffffffffll) {
        const unsigned uw = (unsigned)words;
        for (; t < tot; t += step) {
            const unsigned r = (unsigned)t / uw;
            out[t] = src[idx[r] * words + ((unsigned)t - r * uw)];
        }
    } else {
        for (; t < tot; t += step) {
            const long long r = t / words;
            out[t] = src[idx[r] * words + (t - r * words)];
        }
    }
#else
    /* A chunk of rows per block of one thread. */
    const long long lo = (long long)blockIdx.x * chunk;
    const long long hi = k - lo < chunk ? k : lo + chunk;
    for (long long r = lo; r < hi; r++)
        for (long long c = 0; c < words; c++)
            out[r * words + c] = src[idx[r] * words + c];
#endif
}
