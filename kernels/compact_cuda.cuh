/* ember: the cuda compaction kernels (src/codegen/compact.c pastes them
 * after compact_common.cuh): cc_count counts each tile's selected flags,
 * cc_scan turns the counts into each tile's first output place, cc_write
 * writes a tile's selection there. */
extern "C" __global__ void __launch_bounds__(CC_BLOCK) cc_count(const unsigned char *m, long long n, long long nt, int *counts)
{
    __shared__ int part[CC_COUNT_TILES][CC_WARPS];
    const long long t0 = (long long)blockIdx.x * CC_COUNT_TILES;
    const int fast = !((unsigned long long)m & 15);
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    int c[CC_COUNT_TILES];
#pragma unroll
    for (int k = 0; k < CC_COUNT_TILES; k++) {
        const long long lo = (t0 + k) * CC_TILE + threadIdx.x * CC_VEC;
        c[k] = 0;
        if (fast && lo + CC_VEC <= n) {
#if CC_VEC == 16
            const uint4 q = *(const uint4 *)(m + lo);
            c[k] = __popc(cc_nz4(q.x) | cc_nz4(q.y) << 4 | cc_nz4(q.z) << 8 | cc_nz4(q.w) << 12);
#else
            const uint2 q = *(const uint2 *)(m + lo);
            c[k] = __popc(cc_nz4(q.x) | cc_nz4(q.y) << 4);
#endif
        } else {
            for (int j = 0; j < CC_VEC; j++)
                c[k] += lo + j < n && m[lo + j] != 0;
        }
        for (int o = 16; o > 0; o >>= 1)
            c[k] += __shfl_xor_sync(0xffffffffu, c[k], o);
        if (lane == 0)
            part[k][w] = c[k];
    }
    __syncthreads();
    if (threadIdx.x < CC_COUNT_TILES && t0 + threadIdx.x < nt) {
        int s = 0;
        for (int i = 0; i < CC_WARPS; i++)
            s += part[threadIdx.x][i];
        counts[t0 + threadIdx.x] = s;
    }
}
/* One block of 1,024 threads scans the per-tile counts in rounds of
 * 8,192: thread t sums counts [8t, 8t + 8) of the round (two 16-byte
 * loads; the next round's are in flight during this round's block scan),
 * and the round's offsets go out through shared memory, a warp writing
 * 256 consecutive bytes. Giving each thread one contiguous 1/1,024 of
 * all the counts instead made every warp access touch 32 lines, four
 * times slower (bench/README.md, 'compaction'). */
extern "C" __global__ void __launch_bounds__(1024) cc_scan(const int *counts, long long nt, long long *offs)
{
    __shared__ long long ws[32];
    __shared__ __align__(16) int st[8192];
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    const int vec = !((unsigned long long)counts & 15);
    long long carry = 0;
    int c[8], nx[8];
#define CC_LOAD(r, a) do { const long long i0 = (r) + 8ll * threadIdx.x; \
        if (vec && i0 + 8 <= nt) { \
            const int4 p = *(const int4 *)(counts + i0), q = *(const int4 *)(counts + i0 + 4); \
            a[0] = p.x; a[1] = p.y; a[2] = p.z; a[3] = p.w; \
            a[4] = q.x; a[5] = q.y; a[6] = q.z; a[7] = q.w; \
        } else { \
            for (int k = 0; k < 8; k++) a[k] = i0 + k < nt ? counts[i0 + k] : 0; \
        } } while (0)
    CC_LOAD(0ll, nx);
    for (long long r = 0; r < nt; r += 8192) {
        int s = 0;
#pragma unroll
        for (int k = 0; k < 8; k++) {
            c[k] = nx[k];
            s += c[k];
        }
        if (r + 8192 < nt)
            CC_LOAD(r + 8192, nx);
        long long v = s;
        for (int o = 1; o < 32; o <<= 1) {
            const long long y = __shfl_up_sync(0xffffffffu, v, o);
            if (lane >= o)
                v += y;
        }
        if (lane == 31)
            ws[w] = v;
        __syncthreads();
        if (w == 0) {
            long long u = ws[lane];
            for (int o = 1; o < 32; o <<= 1) {
                const long long y = __shfl_up_sync(0xffffffffu, u, o);
                if (lane >= o)
                    u += y;
            }
            ws[lane] = u;
        }
        __syncthreads();
        /* a round's own prefixes fit an int: 8,192 tiles of at most
         * 4,096 flags */
        int base = (int)(v - s + (w ? ws[w - 1] : 0));
        const long long total = ws[31];
        int o[8];
#pragma unroll
        for (int k = 0; k < 8; k++) {
            o[k] = base;
            base += c[k];
        }
        *(int4 *)(st + 8 * threadIdx.x) = make_int4(o[0], o[1], o[2], o[3]);
        *(int4 *)(st + 8 * threadIdx.x + 4) = make_int4(o[4], o[5], o[6], o[7]);
        __syncthreads();
#pragma unroll
        for (int k = 0; k < 8; k++) {
            const long long i = r + k * 1024 + threadIdx.x;
            if (i < nt)
                offs[i] = carry + st[k * 1024 + threadIdx.x];
        }
        carry += total;
        __syncthreads();
    }
#undef CC_LOAD
    if (threadIdx.x == 0)
        offs[nt] = carry;
}
/* Each thread owns CC_VEC consecutive flags of the tile (one 16- or
 * 8-byte load) and the matching elements (16-byte loads); a block-wide
 * scan of the per-thread counts places each selected element, which is
 * staged in shared memory so the tile goes out coalesced: writing
 * straight from registers would scatter every store instruction over the
 * warp's whole output span. (A variant that gave each thread every 256th
 * flag, ordered by warp ballots, was slower; bench/README.md,
 * 'compaction'.) */
struct cc_shape { long long s[CC_RANK]; };
extern "C" __global__ void __launch_bounds__(CC_BLOCK) cc_write(const unsigned char *m, const CC_X *x, long long n, const long long *offs, CC_STAGE *out, long long total, struct cc_shape g)
{
    __shared__ CC_STAGE stage[CC_TILE];
    __shared__ int ws[CC_WARPS];
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    const long long base = (long long)blockIdx.x * CC_TILE;
    const int mine = threadIdx.x * CC_VEC;
    const long long lo = base + mine;
    const int fast = lo + CC_VEC <= n && !(((unsigned long long)m | (unsigned long long)x) & 15);
    unsigned bits = 0;
    (void)g;
    (void)total;
    if (fast) {
#if CC_VEC == 16
        const uint4 q = *(const uint4 *)(m + lo);
        bits = cc_nz4(q.x) | cc_nz4(q.y) << 4 | cc_nz4(q.z) << 8 | cc_nz4(q.w) << 12;
#else
        const uint2 q = *(const uint2 *)(m + lo);
        bits = cc_nz4(q.x) | cc_nz4(q.y) << 4;
#endif
    } else {
        for (int j = 0; j < CC_VEC; j++)
            if (lo + j < n && m[lo + j] != 0)
                bits |= 1u << j;
    }
    const int c = __popc(bits);
    int v = c;
    for (int o = 1; o < 32; o <<= 1) {
        const int y = __shfl_up_sync(0xffffffffu, v, o);
        if (lane >= o)
            v += y;
    }
    if (lane == 31)
        ws[w] = v;
    __syncthreads();
    int before = 0, all = 0;
#pragma unroll
    for (int i = 0; i < CC_WARPS; i++) {
        before += i < w ? ws[i] : 0;
        all += ws[i];
    }
    int at = before + v - c;
#if CC_DATA
    /* Data is read only where a flag is set in the thread's span, so a
     * sparse mask reads little of it (a partition reads it all). */
    __align__(16) CC_WORD e[CC_VEC];
    if (bits || CC_READ_ALL) {
        if (fast) {
#pragma unroll
            for (int k = 0; k < CC_VLOADS; k++)
                ((uint4 *)e)[k] = ((const uint4 *)(x + lo))[k];
        } else {
            for (int j = 0; j < CC_VEC; j++)
                if (lo + j < n)
                    e[j] = x[lo + j];
        }
    }
#endif
#pragma unroll
    for (int j = 0; j < CC_VEC; j++) {
        if (bits >> j & 1u)
#if CC_DATA
            stage[at++] = e[j];
#else
            stage[at++] = lo + j;
#endif
#if CC_KIND == CC_PART
        else if (lo + j < n)
            stage[all + mine + j - at] = e[j];
#endif
    }
    __syncthreads();
    const long long off = offs[blockIdx.x];
#if CC_KIND == CC_ELEM || CC_KIND == CC_INDEX
    for (int i = threadIdx.x; i < all; i += CC_BLOCK)
        out[off + i] = stage[i];
#elif CC_KIND == CC_PART
    const int tn = n - base < CC_TILE ? (int)(n - base) : CC_TILE;
    for (int i = threadIdx.x; i < tn; i += CC_BLOCK)
        out[i < all ? off + i : total + (base - off) + (i - all)] = stage[i];
#else
    /* 32-bit division while the flat index fits (a 64-bit one costs
     * several times more), chosen once per block */
    const int narrow = n <= 0xffffffffll;
    for (int i = threadIdx.x; i < all; i += CC_BLOCK) {
        long long r = stage[i];
#if CC_RANK > 1
        cc_coords(out, total, off + i, r, narrow, g.s);
#else
        out[off + i] = r;
        (void)narrow;
#endif
    }
#endif
}
