/* ember: the host radix sort's digit counts (src/codegen/sort_onesweep.c
 * pastes it after sort_onesweep_key.cuh; sort_onesweep_host_kind.cuh
 * follows, once per value kind).
 *
 * The most significant digit first. Chunk c of [0, n) is a thread
 * (block c). The top digit is the highest one on which keys differ:
 * srt_khist for pass npass - 1 also records each chunk's OR and AND of
 * the images (vary), srt_ktop picks the top pass from them (*top), and
 * srt_khist for a lower pass `me` then runs only when it is the top
 * (*top == me). counts[c * 256 + d] as in sort.c's chunked kernels (the
 * generic module's scan turns them into positions). */
#define SRT_TOP_DIGIT(me) const int shift = begin + 8 * (me); const unsigned mask = (me) == npass - 1 ? lastmask : 0xffu
extern "C" __global__ void srt_khist(const srt_raw *k, long long n, long long chunk, int begin, int npass, unsigned lastmask, int desc, long long *counts, srt_img *vary, const int *top, int me)
{
    const long long c = blockIdx.x, lo = c * chunk;
    const long long hi = lo + chunk < n ? lo + chunk : n;
    SRT_TOP_DIGIT(me);
    long long h[256];
    srt_img o = 0, a = SRT_ONES;
    if (top && *top != me) return;
    for (int d = 0; d < 256; d++) h[d] = 0;
    if (vary) {
        for (long long i = lo; i < hi; i++) {
            const srt_img x = srt_key(k[i], desc);
            h[(unsigned)(x >> shift) & mask]++;
            o |= x;
            a &= x;
        }
        vary[2 * c] = o;
        vary[2 * c + 1] = a;
    } else {
        for (long long i = lo; i < hi; i++) h[SRT_DIG(k[i])]++;
    }
    for (int d = 0; d < 256; d++) counts[c * 256 + d] = h[d];
}
extern "C" __global__ void srt_ktop(const srt_img *vary, long long nchunks, int begin, int npass, unsigned lastmask, int *top)
{
    srt_img o = 0, a = SRT_ONES;
    int t = npass - 1;
    for (long long c = 0; c < nchunks; c++) {
        o |= vary[2 * c];
        a &= vary[2 * c + 1];
    }
    o ^= a;
    /* All keys alike: any pass is a stable copy; keep the counted one. */
    if (!(o >> begin)) { *top = t; return; }
    while (t > 0 && !((o >> (begin + 8 * t)) & (t == npass - 1 ? lastmask : 0xffu)))
        t--;
    *top = t;
}
