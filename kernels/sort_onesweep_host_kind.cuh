/* ember: the host radix sort's scatter and bucket kernels for one value
 * kind (src/codegen/sort_onesweep.c pastes it three times after
 * sort_onesweep_host.cuh, with SRT_VT the value type and SRT_VALS 1 with
 * values defined; it replaces the two capitalised name placeholders with
 * the kernels' names as text, since the host compiler and the runtime
 * read kernel names from the source before preprocessing).
 *
 * The scatter kernel: chunk c's stable scatter by the top digit. The
 * bucket kernel, after that pass: bucket (block) d sorts its keys
 * [counts[d], next start) by the lower digits alone, from ka into kb. One
 * thread owns a bucket, so every digit's counts come from one read and a
 * digit that all its keys share costs nothing. A large bucket first
 * splits by its highest lower digit (MSD) so that each part finishes its
 * LSD passes in cache. Its _lsd helper: LSD over digits [0, np) of keys
 * [s, e) of x (y the scratch), ending in y when to_y, else in x. */
/* The value type under names of these kernels' own: the host compiler's
 * launchers, written after all three kinds, name the parameter types. */
typedef SRT_VT SRT_KSCAT_vt;
typedef SRT_VT SRT_KBUCKET_vt;
extern "C" __global__ void SRT_KSCAT(const srt_raw *k, srt_raw *k2, const SRT_KSCAT_vt *v, SRT_KSCAT_vt *v2, long long n, long long chunk, int begin, int npass, unsigned lastmask, int desc, const long long *counts, const int *top)
{
    const long long c = blockIdx.x, lo = c * chunk;
    const long long hi = lo + chunk < n ? lo + chunk : n;
    SRT_TOP_DIGIT(*top);
    long long o[256];
    for (int d = 0; d < 256; d++) o[d] = counts[c * 256 + d];
    for (long long i = lo; i < hi; i++) {
        const srt_raw x = k[i];
        const long long j = o[SRT_DIG(x)]++;
        k2[j] = x;
        if (SRT_VALS) v2[j] = v ? v[i] : (SRT_KSCAT_vt)i;
    }
}
__device__ void SRT_KBUCKET_lsd(srt_raw *x, srt_raw *y, SRT_KBUCKET_vt *vx, SRT_KBUCKET_vt *vy, long long s, long long e, int begin, int np, int desc, int to_y)
{
    const unsigned mask = 0xffu;
    long long h[7][256];
    int in_y = 0;
    for (int p = 0; p < np; p++)
        for (int d = 0; d < 256; d++) h[p][d] = 0;
    for (long long i = s; i < e; i++) {
        const srt_img k = srt_key(x[i], desc);
        for (int p = 0; p < np; p++)
            h[p][(unsigned)(k >> (begin + 8 * p)) & mask]++;
    }
    for (int p = 0; p < np; p++) {
        const int shift = begin + 8 * p;
        srt_raw *ks = in_y ? y : x, *kd = in_y ? x : y;
        SRT_KBUCKET_vt *vs = in_y ? vy : vx, *vd = in_y ? vx : vy;
        long long o = s;
        if (h[p][SRT_DIG(ks[s])] == e - s) continue;
        for (int d = 0; d < 256; d++) {
            const long long c = h[p][d];
            h[p][d] = o;
            o += c;
        }
        for (long long i = s; i < e; i++) {
            const srt_raw k = ks[i];
            const long long j = h[p][SRT_DIG(k)]++;
            kd[j] = k;
            if (SRT_VALS) vd[j] = vs[i];
        }
        in_y = !in_y;
    }
    if (in_y != to_y) {
        srt_raw *ks = in_y ? y : x, *kd = in_y ? x : y;
        memcpy(kd + s, ks + s, (size_t)(e - s) * sizeof(srt_raw));
        if (SRT_VALS) memcpy((in_y ? vx : vy) + s, (in_y ? vy : vx) + s, (size_t)(e - s) * sizeof(SRT_KBUCKET_vt));
    }
}
extern "C" __global__ void SRT_KBUCKET(srt_raw *ka, srt_raw *kb, SRT_KBUCKET_vt *va, SRT_KBUCKET_vt *vb, long long n, const long long *counts, int begin, const int *top, int desc)
{
    const int b = blockIdx.x, np = *top;
    const long long s = counts[b], e = b < 255 ? counts[b + 1] : n;
    const int shift = begin + 8 * (np - 1);
    const unsigned mask = 0xffu;
    long long h[256], o;
    if (e <= s) return;
    if (np < 2 || e - s <= 32768) {
        SRT_KBUCKET_lsd(ka, kb, va, vb, s, e, begin, np, desc, 1);
        return;
    }
    for (int d = 0; d < 256; d++) h[d] = 0;
    for (long long i = s; i < e; i++) h[SRT_DIG(ka[i])]++;
    if (h[SRT_DIG(ka[s])] == e - s) {
        SRT_KBUCKET_lsd(ka, kb, va, vb, s, e, begin, np - 1, desc, 1);
        return;
    }
    o = s;
    for (int d = 0; d < 256; d++) {
        const long long c = h[d];
        h[d] = o;
        o += c;
    }
    for (long long i = s; i < e; i++) {
        const srt_raw k = ka[i];
        const long long j = h[SRT_DIG(k)]++;
        kb[j] = k;
        if (SRT_VALS) vb[j] = va[i];
    }
    /* h[d] is now the end of part d. */
    for (int d = 0; d < 256; d++) {
        const long long ps = d ? h[d - 1] : s;
        if (h[d] > ps)
            SRT_KBUCKET_lsd(kb, ka, vb, va, ps, h[d], begin, np - 1, desc, 0);
    }
}
