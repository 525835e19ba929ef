/* ember random: rnd_fill_lanes, the lane layout of rnd_fill's word draws
 * on cuda. src/math/random.c pastes it after random_fill.cuh for PCG64
 * word draws (float32 normals stay on the staged runs, whose deferred
 * draws the warp collects from the stage) and launches it where the
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
 * float32 normals (the ziggurat of each 32-bit half) store a deferred
 * draw's raw bits in its place and note it in the lane's mask for the
 * segment; at the segment's end the warp queues the deferred elements'
 * indices in shared memory and, 32 at a time, reads each raw draw back
 * from out (the warp's own store, ordered by __syncwarp), finishes it
 * with rnd_zig_rest and stores it over the raw bits. About 1% of draws
 * are deferred, so a warp drains once every few segments, all lanes
 * busy. (Looking rnd_zk up only for the few abscissae past the least
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
#if RND_LANE_R > 16
#error "float32 normals note a segment's deferred draws in 32 bits"
#endif
/* Finish the queue's deferred draws, 32 at a time (all: to the last). */
__device__ __forceinline__ void rnd_lane_drain(long long *q, int *qn, RND_T *out,
                                               float fa, float fb,
                                               const unsigned long long *w,
                                               int lane, int all)
{
    __syncwarp();
    while (*qn >= 32 || (all && *qn > 0)) {
        const int n = *qn, take = n < 32 ? n : 32;
        if (lane < take) {
            const long long e = q[n - take + lane];
            const unsigned int r = (unsigned int)__float_as_int(out[e]);
            out[e] = (RND_T)(fa + fb * rnd_zig_rest(e, r, w));
        }
        __syncwarp();
        if (lane == 0)
            *qn = n - take;
        __syncwarp();
    }
}
#endif

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
    /* the ziggurat's first test in shared memory (as rnd_fill's), and the
     * warp's queue of deferred elements */
    __shared__ unsigned int zk[256];
    __shared__ float zw[256];
    __shared__ long long lq[RND_LANE_WARPS][RND_LQ];
    __shared__ int lqn[RND_LANE_WARPS];
    long long *const q = lq[threadIdx.x >> 5];
    int *const qn = lqn + (threadIdx.x >> 5);
    for (int t = threadIdx.x; t < 256; t += blockDim.x) {
        zk[t] = rnd_zk[t];
        zw[t] = rnd_zw[t];
    }
    if (lane == 0)
        *qn = 0;
    __syncthreads();
    /* loc and scale are scalars here (random.c keeps per-element ones on
     * the staged runs), converted once: converted for each element, as
     * RND_AFFINE does, this fill took 1.03 ms for 2^28 draws on the H200
     * where a probe with them built in took 0.60; the same floats */
    const float fa = (float)a, fb = (float)b;
#define RND_LANE_AFFINE(z) ((RND_T)(fa + fb * (z)))
#endif
    rnd_pcg_power(inc, 32, &hm, &ha);
    rnd_src_init(&src, w, (unsigned long long)(wid * seg + lane));
    (void)rnd_next(&src); /* the state that yields its first word */
    for (long long wb = wid * seg; wb < nw; wb += (T >> 5) * seg) {
        const int full = (wb + seg) * wpe <= n;
#if RND_KIND == 1 && RND_DIST == 4
        unsigned int rest = 0; /* bit 2r + h: word r's half h deferred */
#endif
#pragma unroll
        for (int r = 0; r < RND_LANE_R; r++) {
            const long long wd = wb + r * 32 + lane;
            const unsigned long long x = rnd_pcg_out(src.st);
            src.st = rnd_add128(rnd_mul128(hm, src.st), ha);
#if RND_KIND == 1 && RND_DIST == 4
            union {
                RND_T t[2];
                unsigned long long u;
            } two;
            const long long e = 2 * wd;
            unsigned int d = 0;
            const float z0 = rnd_zig_now((unsigned int)x, &d, 0, zk, zw),
                        z1 = rnd_zig_now((unsigned int)(x >> 32), &d, 1, zk, zw);
            two.t[0] = d & 1u ? z0 : RND_LANE_AFFINE(z0);
            two.t[1] = d & 2u ? z1 : RND_LANE_AFFINE(z1);
            if (full || e + 1 < n) {
                *(unsigned long long *)(out + e) = two.u;
            } else if (e < n) { /* the stream's last element */
                out[e] = two.t[0];
                d &= 1u;
            } else {
                d = 0;
            }
            rest |= d << (2 * r);
#elif RND_KIND == 1
            /* 32-bit draws: the pair as one 64-bit store */
            union {
                RND_T t[2];
                unsigned long long u;
            } two;
            const long long e = 2 * wd;
            RND_LANE_PAIR(e, x, two.t[0], two.t[1]);
            if (full || e + 1 < n)
                *(unsigned long long *)(out + e) = two.u;
            else if (e < n) /* the stream's last element */
                out[e] = two.t[0];
#else
            if (full || wd < n)
                out[wd] = RND_FROM_WORD(wd, x);
#endif
        }
#if RND_KIND == 1 && RND_DIST == 4
        {
            /* the segment's deferred elements to the queue, each lane's
             * in turn (a lane has one or two, a warp about ten); past the
             * queue's room a lane finishes its own at once */
            int n0 = *qn;
            while (__any_sync(0xffffffffu, rest != 0)) {
                const unsigned int m = __ballot_sync(0xffffffffu, rest != 0);
                if (rest) {
                    const int k = __ffs((int)rest) - 1,
                              at = n0 + __popc(m & ((1u << lane) - 1u));
                    const long long e = 2 * (wb + (k >> 1) * 32 + lane) + (k & 1);
                    if (at < RND_LQ) {
                        q[at] = e;
                    } else {
                        const unsigned int r0 = (unsigned int)__float_as_int(out[e]);
                        out[e] = RND_LANE_AFFINE(rnd_zig_rest(e, r0, w));
                    }
                    rest &= rest - 1u;
                }
                n0 += __popc(m);
            }
            __syncwarp();
            if (lane == 0)
                *qn = n0 < RND_LQ ? n0 : RND_LQ;
            rnd_lane_drain(q, qn, out, fa, fb, w, lane, 0);
        }
#endif
        src.st = rnd_add128(rnd_mul128(jm, src.st), ja);
    }
#if RND_KIND == 1 && RND_DIST == 4
    rnd_lane_drain(q, qn, out, fa, fb, w, lane, 1);
#endif
}
