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
 * segment (1.5% of draws, a warp's segment ~15). On cuda random.c
 * runs them in two passes (random_normal_lanes.cuh): this fill, which
 * stores each lane's mask and nothing more, and a second kernel that
 * finishes the masks' draws, all lanes busy. Queued per warp and
 * finished inside the fill they cost 0.15 ms of its 0.48 (2^28 on the
 * H200; bench/README.md). rnd_fill_lanes itself lets each lane finish
 * its own at the segment's end, the simple form the tests compare
 * against the host's. The first test's table is one 8-byte row a layer
 * ({bound, width}) in RND_ZC copies, lane l reading copy l % RND_ZC: a warp's
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
#define RND_ZC 16 /* copies of the first test's table */
#if RND_LANE_R > 16
#error "float32 normals note a segment's deferred draws in 32 bits"
#endif
/* Element value of 32-bit draw r by the ziggurat's first test
 * (rnd_zig_now's), fa + fb z (unit, a constant: fb is 1, so fa + z,
 * the same float), from the packed table zb (its rows RND_ZC
 * 8 bytes apart), the lane's copy zo bytes into a row; deferred, r's
 * bits, and `bit` set in *rest. Written for few instructions: the fill
 * is near the SM's issue rate (the row's offset and the copy's have no
 * bit in common, so one LOP3 joins them, and the shared table's base is
 * the load's constant offset). */
__device__ __forceinline__ float rnd_lane_zig(unsigned int r, unsigned int *rest,
                                              unsigned int bit, const char *zb,
                                              unsigned int zo, const int unit,
                                              float fa, float fb)
{
    const uint2 t =
        *(const uint2 *)(zb + (((r & 255u) * (8u * RND_ZC)) | zo));
    const unsigned int a = r >> 9;
    const float x = (float)a * __uint_as_float(t.y);
    const float z = (r & 256u) ? -x : x;
    const float v = fa + (unit ? z : fb * z);
    const int d = a >= t.x;
    *rest |= d ? bit : 0u;
    return d ? __int_as_float((int)r) : v;
}

/* The first test's packed table in RND_ZC copies, copy c of row i at
 * i RND_ZC + c, to the block's shared zrows[256 RND_ZC]. */
__device__ __forceinline__ void rnd_lane_ztable(uint2 *zrows)
{
    for (int t = threadIdx.x; t < 256 * RND_ZC; t += blockDim.x)
        zrows[t] = make_uint2(rnd_zk[t / RND_ZC],
                              __float_as_uint(rnd_zw[t / RND_ZC]));
    __syncthreads();
}

/* Element e's deferred draw finished: its raw bits, stored in out by the
 * first pass, read back and replaced by loc + scale z. */
__device__ __forceinline__ void rnd_lane_finish(RND_T *out, long long e,
                                                float fa, float fb,
                                                const unsigned long long *w)
{
    const unsigned int r = (unsigned int)__float_as_int(out[e]);
    out[e] = (RND_T)(fa + fb * rnd_zig_rest(e, r, w));
}

/* The element of bit k of the deferred-draw mask of lane `lane` in the
 * segment from word wb: word wb + 32 (k / 2) + lane, half k % 2. */
#define RND_LANE_ELEM(wb, lane, k) \
    (2 * ((wb) + ((k) >> 1) * 32 + (lane)) + ((k) & 1))
#endif

/* The lane's words of the segment from word wb: word wb + 32 r + lane
 * for r < RND_LANE_R, *st the state that yields the first, moved on by
 * the 32-word power (hm, ha) a word (a, b, pa, pb: rnd_fill's parameters,
 * which RND_FROM_WORD reads, and dist; zt, fa, fb: float32 normals' table and
 * scalar loc and scale). `whole` and `unit` (constants where it is
 * called): the segment lies inside the output, so no element is tested;
 * float32 normals' scale is 1, so not multiplied (fb z is z).
 * Returns float32 normals' deferred draws, bit 2r + h for word r's half
 * h (0 for the rest). */
__device__ __forceinline__ unsigned int rnd_lane_seg(RND_T *out, long long n,
                                                     long long wb, int lane,
                                                     rnd_u128 *st, rnd_u128 hm,
                                                     rnd_u128 ha, const int whole,
                                                     const int unit,
                                                     const void *zt, float fa,
                                                     float fb, double a, double b,
                                                     const double *pa,
                                                     const double *pb, int dist)
{
    unsigned int rest = 0;
    (void)unit;
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
        /* the pair's bits in rest, set by a predicated OR each (a
         * constant bit: the loop is unrolled) */
        const unsigned int b0 = 1u << (2 * r);
        two.t[0] = rnd_lane_zig((unsigned int)x, &rest, b0, (const char *)zt,
                                (unsigned int)(lane & (RND_ZC - 1)) * 8u, unit,
                                fa, fb);
        two.t[1] = rnd_lane_zig((unsigned int)(x >> 32), &rest, b0 << 1,
                                (const char *)zt,
                                (unsigned int)(lane & (RND_ZC - 1)) * 8u, unit,
                                fa, fb);
#else
        RND_LANE_PAIR(e, x, two.t[0], two.t[1]);
#endif
        if (whole || e + 1 < n) {
            *(unsigned long long *)(out + e) = two.u;
        } else if (e < n) { /* the stream's last element */
            out[e] = two.t[0];
#if RND_DIST == 4
            rest &= ~(b0 << 1);
#endif
        }
#if RND_DIST == 4
        else {
            rest &= ~(3u * b0);
        }
#endif
#else
        if (whole || wd < n)
            out[wd] = RND_FROM_WORD(wd, x);
#endif
    }
    return rest;
}

/* The lane fill (rnd_fill's parameters; see rnd_fill_lanes). Float32
 * normals: zrows the block's shared table (rnd_lane_ztable), and a
 * segment's deferred draws either finished by each lane at the segment's
 * end (two_pass 0, a constant: the divergent slow path inside the fill)
 * or their masks stored for rnd_normal_finish, lane l of segment s at
 * defer[32 s + l] (two_pass 1, random_normal_lanes.cuh). */
__device__ __forceinline__ void
rnd_lanes_run(RND_T *out, long long n, unsigned long long s0,
              unsigned long long s1, unsigned long long s2,
              unsigned long long s3, double a, double b, const double *pa,
              const double *pb, unsigned long long jm_hi,
              unsigned long long jm_lo, unsigned long long ja_hi,
              unsigned long long ja_lo, int dist, const void *zt,
              unsigned int *defer, const int two_pass)
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
    float fa = 0.0f, fb = 1.0f;
    (void)defer;
    (void)two_pass;
#if RND_KIND == 1 && RND_DIST == 4
    /* loc and scale are scalars here (random.c keeps per-element ones on
     * the staged runs), converted once: converted for each element, as
     * RND_AFFINE does, this fill took 1.03 ms for 2^28 draws on the H200
     * where a probe with them built in took 0.60; the same floats */
    fa = (float)a;
    fb = (float)b;
    const int unit = fb == 1.0f;
#endif
    rnd_pcg_power(inc, 32, &hm, &ha);
    rnd_src_init(&src, w, (unsigned long long)(wid * seg + lane));
    (void)rnd_next(&src); /* the state that yields its first word */
    /* sg: the segment's number, wb / seg */
    for (long long wb = wid * seg, sg = wid; wb < nw;
         wb += (T >> 5) * seg, sg += T >> 5) {
#define RND_LANE_SEG(whole, unit)                                           \
    rnd_lane_seg(out, n, wb, lane, &src.st, hm, ha, whole, unit, zt, fa, fb, a, \
                 b, pa, pb, dist)
        const int inside = (wb + seg) * wpe <= n;
#if RND_KIND == 1 && RND_DIST == 4
        /* standard normals (scale 1) a multiply an element fewer: the
         * fill is near the SM's issue rate */
        const unsigned int rest = !inside  ? RND_LANE_SEG(0, 0)
                                  : unit ? RND_LANE_SEG(1, 1)
                                         : RND_LANE_SEG(1, 0);
#else
        const unsigned int rest =
            inside ? RND_LANE_SEG(1, 0) : RND_LANE_SEG(0, 0);
#endif
#undef RND_LANE_SEG
        (void)rest;
        (void)sg;
#if RND_KIND == 1 && RND_DIST == 4
        if (two_pass) {
            defer[sg * 32 + lane] = rest;
        } else {
            for (unsigned int left = rest; left; left &= left - 1u) {
                const int k = __ffs((int)left) - 1;
                rnd_lane_finish(out, RND_LANE_ELEM(wb, lane, k), fa, fb, w);
            }
        }
#endif
        src.st = rnd_madd128(jm, src.st, ja);
    }
}

/* rnd_fill's parameter list, which both lane kernels take (random.c
 * passes one argument array), and the ones the lane layout leaves unused */
#define RND_LANE_PARAMS RND_T *out, long long n, long long per, unsigned long long s0, unsigned long long s1, unsigned long long s2, unsigned long long s3, unsigned long long s4, unsigned long long s5, int npre, unsigned long long p0, unsigned long long p1, unsigned long long p2, int has32, unsigned int h32, double a, double b, unsigned long long c0, unsigned long long c1, int vec, const double *pa, const double *pb, unsigned long long jm_hi, unsigned long long jm_lo, unsigned long long ja_hi, unsigned long long ja_lo, int dist
#define RND_LANE_UNUSED (void)per, (void)s4, (void)s5, (void)npre, (void)p0, (void)p1, \
    (void)p2, (void)has32, (void)h32, (void)c0, (void)c1, (void)vec

/* The lane fill as one kernel (float32 normals finish their deferred
 * draws inside it, each lane its own: the simple form, which the tests
 * compare; src/math/random.c launches random_normal_lanes.cuh's two
 * passes for them). */
extern "C" __global__ void rnd_fill_lanes(RND_LANE_PARAMS)
{
    const void *zt = 0;
    RND_LANE_UNUSED;
#if RND_KIND == 1 && RND_DIST == 4
    __shared__ uint2 zrows[256 * RND_ZC];
    rnd_lane_ztable(zrows);
    zt = zrows;
#endif
    rnd_lanes_run(out, n, s0, s1, s2, s3, a, b, pa, pb, jm_hi, jm_lo, ja_hi,
                  ja_lo, dist, zt, 0, 0);
}
