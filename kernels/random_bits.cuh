/* ember random: the two bit generators as word sources that start
 * anywhere in their stream, so every thread begins at its own place.
 *   PCG64 (NumPy's default): a 128-bit LCG, output XSL-RR of the stepped
 *   state. A thread reaches word g by Brown's jump (the LCG's g-th power
 *   by squaring, log2 g steps).
 *   Philox4x64-10 (Salmon et al.): word g is lane g % 4 of the block of
 *   counter base + g / 4 (256-bit counter, carry included).
 *   PCG64DXSM (NumPy's): the same LCG with the 64-bit multiplier, and
 *   the DXSM output of the state before its step; jumped as PCG64.
 * All match NumPy's bit generators word for word.
 */
typedef struct rnd_u128 {
    unsigned long long hi, lo;
} rnd_u128;

__device__ __forceinline__ rnd_u128 rnd_mul128(rnd_u128 a, rnd_u128 b)
{
    rnd_u128 r;
    r.lo = a.lo * b.lo;
    r.hi = __umul64hi(a.lo, b.lo) + a.hi * b.lo + a.lo * b.hi;
    return r;
}

__device__ __forceinline__ rnd_u128 rnd_add128(rnd_u128 a, rnd_u128 b)
{
    rnd_u128 r;
    r.lo = a.lo + b.lo;
    r.hi = a.hi + b.hi + (r.lo < a.lo);
    return r;
}

/* m s + a (mod 2^128), an LCG step or a power of one. Where the
 * compiler has 128-bit integers (the host's C++ compiler, nvcc, and
 * NVRTC given --device-int128, as src/math/random.c gives it), theirs: on sm_90 ~16 instructions, 32-bit wide
 * multiply-adds through the carry flag, where the 64-bit form compiled
 * to ~26, its carries found by comparisons (and a chain of PTX's 32-bit
 * mad.cc to ~30); the lane fills (random_lanes.cuh) take one step a word
 * and are near the SM's issue rate. */
__device__ __forceinline__ rnd_u128 rnd_madd128(rnd_u128 m, rnd_u128 s,
                                                rnd_u128 a)
{
#if defined(__SIZEOF_INT128__) || defined(__CUDACC_RTC_INT128__)
    typedef unsigned __int128 u128;
    const u128 r = (((u128)m.hi << 64) | m.lo) * (((u128)s.hi << 64) | s.lo) +
                   (((u128)a.hi << 64) | a.lo);
    rnd_u128 o;
    o.hi = (unsigned long long)(r >> 64);
    o.lo = (unsigned long long)r;
    return o;
#else
    return rnd_add128(rnd_mul128(m, s), a);
#endif
}

#define RND_PCG 0
#define RND_PHILOX 1
#define RND_DXSM 2
/* the LCG's multiplier: PCG64's, or PCG64DXSM's 64-bit one */
#if RND_GEN == RND_DXSM
#define RND_LCG_MHI 0ULL
#define RND_LCG_MLO 0xDA942042E4DD58B5ULL
#else
#define RND_LCG_MHI 0x2360ED051FC65DA4ULL
#define RND_LCG_MLO 0x4385DF649FCCF645ULL
#endif

/* RND_GEN, the generator a kernel reads (src/math/random.c defines it),
 * is fixed at compile time: a source holds one generator's state, all in
 * registers (an array indexed at run time, or a run-time choice between
 * the two states, would put it on the stack, in local memory, which the
 * profiler showed as the fill's bottleneck). */
typedef struct rnd_src {
#if RND_GEN != RND_PHILOX
    rnd_u128 st, inc;
#else
    unsigned long long c0, c1, c2, c3, k0, k1; /* the next block's counter, key */
    unsigned long long b0, b1, b2, b3; /* the block's words not yet taken */
    int left;                          /* how many of them */
#endif
} rnd_src;

__device__ __forceinline__ void rnd_philox(const unsigned long long c[4],
                                           const unsigned long long k[2],
                                           unsigned long long out[4])
{
    unsigned long long x0 = c[0], x1 = c[1], x2 = c[2], x3 = c[3];
    unsigned long long k0 = k[0], k1 = k[1];
    for (int r = 0; r < 10; r++) {
        unsigned long long h0 = __umul64hi(0xD2E7470EE14C6C93ULL, x0);
        unsigned long long l0 = 0xD2E7470EE14C6C93ULL * x0;
        unsigned long long h1 = __umul64hi(0xCA5A826395121157ULL, x2);
        unsigned long long l1 = 0xCA5A826395121157ULL * x2;
        x0 = h1 ^ x1 ^ k0;
        x1 = l1;
        x2 = h0 ^ x3 ^ k1;
        x3 = l0;
        k0 += 0x9E3779B97F4A7C15ULL;
        k1 += 0xBB67AE8584CAA73BULL;
    }
    out[0] = x0;
    out[1] = x1;
    out[2] = x2;
    out[3] = x3;
}

#if RND_GEN == RND_PHILOX
/* The block of s's counter into its buffer, and the counter moved on. */
__device__ __forceinline__ void rnd_philox_block(rnd_src *s)
{
    const unsigned long long c[4] = {s->c0, s->c1, s->c2, s->c3},
                             k[2] = {s->k0, s->k1};
    unsigned long long o[4];
    rnd_philox(c, k, o);
    s->b0 = o[0];
    s->b1 = o[1];
    s->b2 = o[2];
    s->b3 = o[3];
    s->left = 4;
    if (++s->c0 == 0 && ++s->c1 == 0 && ++s->c2 == 0)
        ++s->c3;
}
#endif

#if RND_GEN != RND_PHILOX
/* The LCG's g-th power for increment inc: g steps are st -> am st + aa. */
__device__ __forceinline__ void rnd_pcg_power(rnd_u128 inc,
                                              unsigned long long g,
                                              rnd_u128 *am, rnd_u128 *aa)
{
    rnd_u128 m = {RND_LCG_MHI, RND_LCG_MLO};
    rnd_u128 a = inc, one = {0, 1};
    am->hi = 0;
    am->lo = 1;
    aa->hi = aa->lo = 0;
    for (; g; g >>= 1) {
        if (g & 1) {
            *am = rnd_mul128(*am, m);
            *aa = rnd_add128(rnd_mul128(*aa, m), a);
        }
        a = rnd_mul128(rnd_add128(m, one), a);
        m = rnd_mul128(m, m);
    }
}

/* The word of a stepped state (XSL-RR), apart from the step, for the
 * fills that move a state by powers rather than single steps. */
__device__ __forceinline__ unsigned long long rnd_pcg_out(rnd_u128 st)
{
    const unsigned rot = (unsigned)(st.hi >> 58);
    const unsigned long long x = st.hi ^ st.lo;
#ifdef __CUDA_ARCH__
    /* the rotation as two funnel shifts of the halves, swapped first for
     * a rotation of 32 or more (the 64-bit form compiled to ten
     * instructions) */
    unsigned int lo = (unsigned int)x, hi = (unsigned int)(x >> 32), t;
    if ((long long)st.hi < 0) { /* rot & 32, tested by one compare */
        t = lo;
        lo = hi;
        hi = t;
    }
    return ((unsigned long long)__funnelshift_r(hi, lo, rot) << 32) |
           __funnelshift_r(lo, hi, rot);
#else
    return (x >> rot) | (x << ((64u - rot) & 63u));
#endif
}

/* PCG64DXSM's word of a state (before the state's step): the high half
 * xorshifted, multiplied, xorshifted again, times the odd low half. */
__device__ __forceinline__ unsigned long long rnd_dxsm_out(rnd_u128 st)
{
    unsigned long long hi = st.hi;
    hi ^= hi >> 32;
    hi *= 0xDA942042E4DD58B5ULL;
    hi ^= hi >> 48;
    return hi * (st.lo | 1ULL);
}
#endif

/* A source at word g of the stream the state words w[] describe:
 * PCG64 w0..w3 = state hi, lo, increment hi, lo (the state before the
 * first word); Philox w0..w3 = the counter of the first word's block,
 * w4, w5 = the key. */
__device__ __forceinline__ void rnd_src_init(rnd_src *s,
                                             const unsigned long long *w,
                                             unsigned long long g)
{
#if RND_GEN != RND_PHILOX
    rnd_u128 am, aa;
    s->st.hi = w[0];
    s->st.lo = w[1];
    s->inc.hi = w[2];
    s->inc.lo = w[3];
    rnd_pcg_power(s->inc, g, &am, &aa);
    s->st = rnd_add128(rnd_mul128(am, s->st), aa);
#else
    unsigned long long b = g >> 2;
    int carry, skip = (int)(g & 3);
    s->c0 = w[0] + b;
    carry = s->c0 < b;
    s->c1 = w[1] + (unsigned long long)carry;
    carry = carry && s->c1 == 0;
    s->c2 = w[2] + (unsigned long long)carry;
    carry = carry && s->c2 == 0;
    s->c3 = w[3] + (unsigned long long)carry;
    s->k0 = w[4];
    s->k1 = w[5];
    rnd_philox_block(s);
    /* the block's first g % 4 words belong to earlier elements */
    for (; skip; skip--) {
        s->b0 = s->b1;
        s->b1 = s->b2;
        s->b2 = s->b3;
        s->left--;
    }
#endif
}

/* s at a thread's next run. PCG64 moves the previous run's start by the
 * grid's stride, one multiply-add by that stride's LCG power (jm, ja,
 * which the host computes once a launch), unless `fresh` (the first run,
 * or one whose start was clamped to the stream's start); Philox starts
 * anew at word g, as cheap as the multiply-add. */
__device__ __forceinline__ void rnd_src_seek(rnd_src *s, int fresh,
                                             const unsigned long long *w,
                                             unsigned long long g,
                                             rnd_u128 jm, rnd_u128 ja)
{
#if RND_GEN != RND_PHILOX
    if (!fresh) {
        s->st = rnd_madd128(jm, s->st, ja);
        return;
    }
#else
    (void)fresh;
    (void)jm;
    (void)ja;
#endif
    rnd_src_init(s, w, g);
}

__device__ __forceinline__ unsigned long long rnd_next(rnd_src *s)
{
#if RND_GEN == RND_DXSM
    const rnd_u128 m = {RND_LCG_MHI, RND_LCG_MLO};
    const unsigned long long x = rnd_dxsm_out(s->st);
    s->st = rnd_madd128(m, s->st, s->inc);
    return x;
#elif RND_GEN == RND_PCG
    rnd_u128 m = {0x2360ED051FC65DA4ULL, 0x4385DF649FCCF645ULL};
    s->st = rnd_madd128(m, s->st, s->inc);
    return rnd_pcg_out(s->st);
#else
    unsigned long long x;
    if (s->left == 0)
        rnd_philox_block(s);
    x = s->b0;
    s->b0 = s->b1;
    s->b1 = s->b2;
    s->b2 = s->b3;
    s->left--;
    return x;
#endif
}
