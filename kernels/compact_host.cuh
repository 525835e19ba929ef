/* ember: the host compaction kernels (src/codegen/compact.c pastes them
 * after compact_common.cuh). One tile of CC_HOST_TILE flags per block of
 * one thread: cc_count counts a tile's selected flags, cc_scan (one
 * block) turns the counts into each tile's first output place, cc_write
 * writes a tile's selection there. */
extern "C" __global__ void cc_count(const unsigned char *m, long long n, long long nt, int *counts)
{
    const long long lo = (long long)blockIdx.x * CC_HOST_TILE;
    const long long hi = n - lo < CC_HOST_TILE ? n : lo + CC_HOST_TILE;
    int c = 0;
    (void)nt;
    for (long long i = lo; i < hi; i++)
        c += m[i] != 0;
    counts[blockIdx.x] = c;
}
extern "C" __global__ void cc_scan(const int *counts, long long nt, long long *offs)
{
    long long s = 0;
    for (long long i = 0; i < nt; i++) {
        offs[i] = s;
        s += counts[i];
    }
    offs[nt] = s;
}
struct cc_shape { long long s[CC_RANK]; };
extern "C" __global__ void cc_write(const unsigned char *m, const CC_X *x, long long n, const long long *offs, CC_STAGE *out, long long total, struct cc_shape g)
{
    const long long lo = (long long)blockIdx.x * CC_HOST_TILE;
    const long long hi = n - lo < CC_HOST_TILE ? n : lo + CC_HOST_TILE;
    /* Branch-free: every element is stored at the cursor, which moves on
     * only past selected ones; the loop stops once the tile's last
     * selected element is out, so no store lands in the next tile's
     * output. */
    long long at = offs[blockIdx.x];
    const long long end = offs[blockIdx.x + 1];
    (void)g;
    (void)total;
    (void)x;
#if CC_KIND == CC_ELEM
    for (long long i = lo; i < hi && at < end; i++) {
        out[at] = x[i];
        at += m[i] != 0;
    }
#elif CC_KIND == CC_PART
    /* The rejected elements go, in order, after the selected ones. */
    long long rj = total + lo - at, i = lo;
    const long long rend = total + hi - end;
    for (; i < hi && at < end && rj < rend; i++) {
        const int f = m[i] != 0;
        out[at] = x[i];
        out[rj] = x[i];
        at += f;
        rj += !f;
    }
    for (; i < hi; i++) {
        if (m[i])
            out[at++] = x[i];
        else
            out[rj++] = x[i];
    }
#elif CC_KIND == CC_INDEX || CC_RANK == 1
    for (long long i = lo; i < hi && at < end; i++) {
        out[at] = i;
        at += m[i] != 0;
    }
#else
    const int narrow = n <= 0xffffffffll;
    for (long long i = lo; i < hi; i++) {
        if (!m[i])
            continue;
        long long r = i;
        cc_coords(out, total, at, r, narrow, g.s);
        at++;
    }
#endif
}
