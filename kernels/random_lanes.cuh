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
 * both. */
#if RND_KIND == 1
/* the pair from word c: elements e and e + 1 */
#define RND_LANE_PAIR(e, c, v0, v1)                                         \
    do {                                                                    \
        (v0) = RND_FROM_HALF(e, c, 0);                                      \
        (v1) = RND_FROM_HALF((e) + 1, c, 1);                                \
    } while (0)
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
    rnd_pcg_power(inc, 32, &hm, &ha);
    rnd_src_init(&src, w, (unsigned long long)(wid * seg + lane));
    (void)rnd_next(&src); /* the state that yields its first word */
    for (long long wb = wid * seg; wb < nw; wb += (T >> 5) * seg) {
        const int full = (wb + seg) * wpe <= n;
#pragma unroll
        for (int r = 0; r < RND_LANE_R; r++) {
            const long long wd = wb + r * 32 + lane;
            const unsigned long long x = rnd_pcg_out(src.st);
            src.st = rnd_add128(rnd_mul128(hm, src.st), ha);
#if RND_KIND == 1
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
        src.st = rnd_add128(rnd_mul128(jm, src.st), ja);
    }
}
