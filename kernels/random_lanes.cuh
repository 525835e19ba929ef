/* ember random: rnd_fill_lanes, the lane layout of rnd_fill's word draws
 * on cuda. src/math/random.c pastes it after random_fill.cuh for PCG64
 * word draws, float32 normals included, and launches it where the
 * stream starts on a word at element 0 and the output is aligned.
 *
 * A warp's segment is 32 RND_LANE_R words of the stream, and lane l takes
 * its words l, l + 32, ..., each by one multiply-add (the LCG's 32-word
 * power) from the last, storing its element or pair of elements at once:
 * a warp's store covers 32 adjacent words' elements, so nothing is
 * staged. The next segment is (jm, ja) away, past the grid's other warps'
 * segments. Its own kernel, so that its registers are its own and not
 * rnd_fill's; its parameters are rnd_fill's, so one argument list serves
 * both.
 *
 * The segment's loop is made twice (rnd_lane_seg with `whole` a
 * constant): a segment wholly inside the output stores without a test an
 * element, and only the stream's last segment tests each. The fills are
 * bound by the SM's issue rate, so every instruction a word counts: at
 * the store's own time (0.25 ms for 2^28 float32 on the H200) an SM has
 * ~62 issue slots a warp-word; the uniform fill takes ~32 (0.258 ms), the
 * normal ~56 (0.483 ms; bench/README.md).
 *
 * float32 normals (the ziggurat of each 32-bit half) store a deferred
 * draw's raw bits in its place and note it in the lane's mask for the
 * segment; at the segment's end the warp queues the deferred elements'
 * indices in shared memory and, 32 at a time, reads each raw draw back
 * from out (the warp's own store, ordered by __syncwarp), finishes it
 * with rnd_zig_rest_in over the block's shared copy of the tables and
 * stores it over the raw bits. About 1% of draws
 * are deferred, so a warp drains once every few segments, all lanes
 * busy. The first test's table is one 8-byte row a layer ({bound,
 * width}) in RND_ZC copies, lane l reading copy l % RND_ZC: a warp's
 * 32 random layers then fall in distinct banks (two lanes a bank pair,
 * in the two halves of the warp that a 64-bit load serves apart), where
 * one copy of two 4-byte tables took two loads of ~3.5 bank passes each
 * a draw. (Looking rnd_zk up only for the few abscissae past the least
 * of its bounds was slower on the H200, 0.65 ms against 0.60 for 2^28
 * draws.) */
#if RND_KIND == 1
/* the pair from word c: elements e and e + 1 */
#define RND_LANE_PAIR(e, c, v0, v1)                                         \
    do {                                                                    \
        (v0) = RND_FROM_HALF(e, c, 0);                                      \
        (v1) = RND_FROM_HALF((e) + 1, c, 1);                                \
    } while (0)
#endif

#if RND_KIND == 1 && RND_DIST == 4
#ifndef RND_LQ
#define RND_LQ 128 /* a warp's queue of deferred elements (a test sets fewer) */
#endif
#define RND_LANE_WARPS 8 /* a block's warps at most (random.c's 256 threads) */
#define RND_ZC 16        /* copies of the first test's table */
#if RND_LANE_R > 16
#error "float32 normals note a segment's deferred draws in 32 bits"
#endif
/* Element value of 32-bit draw r by the ziggurat's first test
 * (rnd_zig_now's), fa + fb z, from the lane's copy zb of the packed
 * table (its rows RND_ZC 8 bytes apart); deferred, r's bits, and `bit`
 * set in *rest. Written for few instructions: the fill is near the SM's
 * issue rate. */
__device__ __forceinline__ float rnd_lane_zig(unsigned int r, unsigned int *rest,
                                              unsigned int bit, const char *zb,
                                              float fa, float fb)
{
    const uint2 t = *(const uint2 *)(zb + (r & 255u) * (8u * RND_ZC));
    const unsigned int a = r >> 9;
    const float x = (float)a * __uint_as_float(t.y);
    const float v = fa + fb * ((r & 256u) ? -x : x);
    const int d = a >= t.x;
    *rest |= d ? bit : 0u;
    return d ? __int_as_float((int)r) : v;
}

/* The ziggurat's tables as rnd_zig_rest_in reads them, the block's copy
 * in shared memory: from global memory a third of the drain's lookups
 * missed L1 (Nsight Compute, session 17). */
struct rnd_lane_zt {
    unsigned int k[256];
    float w[256], f[256];
};

/* Finish the queue's deferred draws, 32 at a time (all: to the last),
 * from the block's copy of the tables. With them the H200 filled 2^28 in
 * 0.455 ms, without (timing only) in 0.33: this, the queueing and their
 * bits are the normals' cost over the uniforms'. Tried and slower: a
 * lane's last deferred draw's bits kept in a register for the queue
 * (0.51 ms, session 16), two draws a lane a round with both read-backs
 * issued first (0.476 against 0.459: its registers, 68, or 63 under
 * launch bounds, cost more than the waits it saved; session 17). */
__device__ __forceinline__ void rnd_lane_drain(long long *q, int *qn, RND_T *out,
                                               float fa, float fb,
                                               const unsigned long long *w,
                                               const struct rnd_lane_zt *zt,
                                               int lane, int all)
{
    __syncwarp();
    while (*qn >= 32 || (all && *qn > 0)) {
        const int n = *qn, take = n < 32 ? n : 32;
        if (lane < take) {
            const long long e = q[n - take + lane];
            const unsigned int r = (unsigned int)__float_as_int(out[e]);
            out[e] = (RND_T)(fa + fb * rnd_zig_rest_in(e, r, w, zt->k, zt->w,
                                                       zt->f));
        }
        __syncwarp();
        if (lane == 0)
            *qn = n - take;
        __syncwarp();
    }
}
#define RND_LANE_AFFINE(z) ((RND_T)(fa + fb * (z)))
#endif

/* The lane's words of the segment from word wb: word wb + 32 r + lane
 * for r < RND_LANE_R, *st the state that yields the first, moved on by
 * the 32-word power (hm, ha) a word (a, b, pa, pb: rnd_fill's parameters,
 * which RND_FROM_WORD reads, and dist; zt, fa, fb: float32 normals' table and
 * scalar loc and scale). `whole` (a constant where it is
 * called): the segment lies inside the output, so no element is tested.
 * Returns float32 normals' deferred draws, bit 2r + h for word r's half
 * h (0 for the rest). */
__device__ __forceinline__ unsigned int rnd_lane_seg(RND_T *out, long long n,
                                                     long long wb, int lane,
                                                     rnd_u128 *st, rnd_u128 hm,
                                                     rnd_u128 ha, const int whole,
                                                     const void *zt, float fa,
                                                     float fb, double a, double b,
                                                     const double *pa,
                                                     const double *pb, int dist)
{
    unsigned int rest = 0;
    (void)zt;
    (void)fa;
    (void)fb;
    (void)a;
    (void)b;
    (void)pa;
    (void)pb;
    (void)dist;
#pragma unroll
    for (int r = 0; r < RND_LANE_R; r++) {
        const long long wd = wb + r * 32 + lane;
        const unsigned long long x = rnd_pcg_out(*st);
        *st = rnd_madd128(hm, *st, ha);
#if RND_KIND == 1
        /* two 32-bit draws: the pair as one 64-bit store */
        union {
            RND_T t[2];
            unsigned long long u;
        } two;
        const long long e = 2 * wd;
#if RND_DIST == 4
        unsigned int d = 0;
        two.t[0] = rnd_lane_zig((unsigned int)x, &d, 1u, (const char *)zt, fa, fb);
        two.t[1] = rnd_lane_zig((unsigned int)(x >> 32), &d, 2u,
                                (const char *)zt, fa, fb);
#else
        RND_LANE_PAIR(e, x, two.t[0], two.t[1]);
#endif
        if (whole || e + 1 < n) {
            *(unsigned long long *)(out + e) = two.u;
        } else if (e < n) { /* the stream's last element */
            out[e] = two.t[0];
#if RND_DIST == 4
            d &= 1u;
#endif
        }
#if RND_DIST == 4
        else {
            d = 0;
        }
        rest |= d << (2 * r);
#endif
#else
        if (whole || wd < n)
            out[wd] = RND_FROM_WORD(wd, x);
#endif
    }
    return rest;
}

extern "C" __global__ void rnd_fill_lanes(RND_T *out, long long n, long long per, unsigned long long s0, unsigned long long s1, unsigned long long s2, unsigned long long s3, unsigned long long s4, unsigned long long s5, int npre, unsigned long long p0, unsigned long long p1, unsigned long long p2, int has32, unsigned int h32, double a, double b, unsigned long long c0, unsigned long long c1, int vec, const double *pa, const double *pb, unsigned long long jm_hi, unsigned long long jm_lo, unsigned long long ja_hi, unsigned long long ja_lo, int dist)
{
    const unsigned long long w[4] = {s0, s1, s2, s3};
    const long long T = (long long)gridDim.x * blockDim.x;
    const int lane = (int)(threadIdx.x & 31);
    const rnd_u128 jm = {jm_hi, jm_lo}, ja = {ja_hi, ja_lo};
    const rnd_u128 inc = {s2, s3};
    const long long wpe = RND_KIND == 1 ? 2 : 1; /* elements a word */
    const long long nw = (n + wpe - 1) / wpe, seg = 32LL * RND_LANE_R;
    const long long wid = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    rnd_u128 hm, ha;
    rnd_src src;
    const void *zt = 0;
    float fa = 0.0f, fb = 1.0f;
    (void)per;
    (void)s4;
    (void)s5;
    (void)npre;
    (void)p0;
    (void)p1;
    (void)p2;
    (void)has32;
    (void)h32;
    (void)c0;
    (void)c1;
    (void)vec;
    (void)a;
    (void)b;
    (void)pa;
    (void)pb;
    (void)dist;
#if RND_KIND == 1 && RND_DIST == 4
    /* the first test's packed table in RND_ZC copies (copy c of row i at
     * i RND_ZC + c), and the warp's queue of deferred elements */
    __shared__ uint2 zrows[256 * RND_ZC];
    __shared__ long long lq[RND_LANE_WARPS][RND_LQ];
    __shared__ int lqn[RND_LANE_WARPS];
    __shared__ struct rnd_lane_zt ztab;
    long long *const q = lq[threadIdx.x >> 5];
    int *const qn = lqn + (threadIdx.x >> 5);
    /* a thread a row, its copies stored after one load (random.c's
     * blocks have 256 threads): loaded a copy at a time, the rows' 16
     * loads waited on each other at the start of every block */
    for (int i = threadIdx.x; i < 256; i += blockDim.x) {
        const uint2 row = make_uint2(rnd_zk[i], __float_as_uint(rnd_zw[i]));
        for (int c = 0; c < RND_ZC; c++)
            zrows[i * RND_ZC + c] = row;
        ztab.k[i] = row.x;
        ztab.w[i] = rnd_zw[i];
        ztab.f[i] = rnd_zf[i];
    }
    if (lane == 0)
        *qn = 0;
    __syncthreads();
    zt = zrows + (lane & (RND_ZC - 1));
    /* loc and scale are scalars here (random.c keeps per-element ones on
     * the staged runs), converted once: converted for each element, as
     * RND_AFFINE does, this fill took 1.03 ms for 2^28 draws on the H200
     * where a probe with them built in took 0.60; the same floats */
    fa = (float)a;
    fb = (float)b;
#endif
    rnd_pcg_power(inc, 32, &hm, &ha);
    rnd_src_init(&src, w, (unsigned long long)(wid * seg + lane));
    (void)rnd_next(&src); /* the state that yields its first word */
    for (long long wb = wid * seg; wb < nw; wb += (T >> 5) * seg) {
        const unsigned int rest =
            (wb + seg) * wpe <= n
                ? rnd_lane_seg(out, n, wb, lane, &src.st, hm, ha, 1, zt, fa, fb,
                               a, b, pa, pb, dist)
                : rnd_lane_seg(out, n, wb, lane, &src.st, hm, ha, 0, zt, fa, fb,
                               a, b, pa, pb, dist);
        (void)rest;
#if RND_KIND == 1 && RND_DIST == 4
        {
            /* the segment's deferred elements to the queue, each lane's
             * in turn (a lane has one or two, a warp about ten); past the
             * queue's room a lane finishes its own at once */
            unsigned int left = rest;
            int n0 = *qn;
            while (__any_sync(0xffffffffu, left != 0)) {
                const unsigned int m = __ballot_sync(0xffffffffu, left != 0);
                if (left) {
                    const int k = __ffs((int)left) - 1,
                              at = n0 + __popc(m & ((1u << lane) - 1u));
                    const long long e = 2 * (wb + (k >> 1) * 32 + lane) + (k & 1);
                    if (at < RND_LQ) {
                        q[at] = e;
                    } else {
                        const unsigned int r0 = (unsigned int)__float_as_int(out[e]);
                        out[e] = RND_LANE_AFFINE(
                            rnd_zig_rest_in(e, r0, w, ztab.k, ztab.w, ztab.f));
                    }
                    left &= left - 1u;
                }
                n0 += __popc(m);
            }
            __syncwarp();
            if (lane == 0)
                *qn = n0 < RND_LQ ? n0 : RND_LQ;
            rnd_lane_drain(q, qn, out, fa, fb, w, &ztab, lane, 0);
        }
#endif
        src.st = rnd_madd128(jm, src.st, ja);
    }
#if RND_KIND == 1 && RND_DIST == 4
    rnd_lane_drain(q, qn, out, fa, fb, w, &ztab, lane, 1);
#endif
}
