/* ember random: the two bit generators as word sources that start
 * anywhere in their stream, so every thread begins at its own place.
 *   PCG64 (NumPy's default): a 128-bit LCG, output XSL-RR of the stepped
 *   state. A thread reaches word g by Brown's jump (the LCG's g-th power
 *   by squaring, log2 g steps).
 *   Philox4x64-10 (Salmon et al.): word g is lane g % 4 of the block of
 *   counter base + g / 4 (256-bit counter, carry included).
 * Both match NumPy's bit generators word for word.
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

#define RND_PCG 0
#define RND_PHILOX 1

typedef struct rnd_src {
    int gen, lane;
    rnd_u128 st, inc;                 /* PCG64 */
    unsigned long long ctr[4], key[2]; /* Philox: the next block's counter */
    unsigned long long buf[4];
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

/* A source at word g of the stream the state words s[] describe:
 * PCG64 s0..s3 = state hi, lo, increment hi, lo (the state before the
 * first word); Philox s0..s3 = the counter of the first word's block,
 * s4, s5 = the key. */
__device__ void rnd_src_init(rnd_src *s, int gen, const unsigned long long *w,
                             unsigned long long g)
{
    s->gen = gen;
    if (gen == RND_PCG) {
        rnd_u128 am = {0, 1}, aa = {0, 0};
        rnd_u128 m = {0x2360ED051FC65DA4ULL, 0x4385DF649FCCF645ULL};
        rnd_u128 a, one = {0, 1};
        s->st.hi = w[0];
        s->st.lo = w[1];
        s->inc.hi = w[2];
        s->inc.lo = w[3];
        a = s->inc;
        for (; g; g >>= 1) {
            if (g & 1) {
                am = rnd_mul128(am, m);
                aa = rnd_add128(rnd_mul128(aa, m), a);
            }
            a = rnd_mul128(rnd_add128(m, one), a);
            m = rnd_mul128(m, m);
        }
        s->st = rnd_add128(rnd_mul128(am, s->st), aa);
    } else {
        unsigned long long b = g >> 2;
        int carry;
        s->ctr[0] = w[0] + b;
        carry = s->ctr[0] < b;
        s->ctr[1] = w[1] + (unsigned long long)carry;
        carry = carry && s->ctr[1] == 0;
        s->ctr[2] = w[2] + (unsigned long long)carry;
        carry = carry && s->ctr[2] == 0;
        s->ctr[3] = w[3] + (unsigned long long)carry;
        s->key[0] = w[4];
        s->key[1] = w[5];
        rnd_philox(s->ctr, s->key, s->buf);
        s->lane = (int)(g & 3);
    }
}

/* s at a thread's next run. PCG64 moves the previous run's start by the
 * grid's stride, one multiply-add by that stride's LCG power (jm, ja,
 * which the host computes once a launch), unless `fresh` (the first run,
 * or one whose start was clamped to the stream's start); Philox starts
 * anew at word g, as cheap as the multiply-add. */
__device__ void rnd_src_seek(rnd_src *s, int fresh, int gen,
                             const unsigned long long *w, unsigned long long g,
                             rnd_u128 jm, rnd_u128 ja)
{
    if (!fresh && gen == RND_PCG)
        s->st = rnd_add128(rnd_mul128(jm, s->st), ja);
    else
        rnd_src_init(s, gen, w, g);
}

__device__ __forceinline__ unsigned long long rnd_next(rnd_src *s)
{
    if (s->gen == RND_PCG) {
        rnd_u128 m = {0x2360ED051FC65DA4ULL, 0x4385DF649FCCF645ULL};
        unsigned long long x;
        unsigned rot;
        s->st = rnd_add128(rnd_mul128(s->st, m), s->inc);
        rot = (unsigned)(s->st.hi >> 58);
        x = s->st.hi ^ s->st.lo;
        return (x >> rot) | (x << ((64u - rot) & 63u));
    }
    if (s->lane == 4) {
        if (++s->ctr[0] == 0 && ++s->ctr[1] == 0 && ++s->ctr[2] == 0)
            ++s->ctr[3];
        rnd_philox(s->ctr, s->key, s->buf);
        s->lane = 0;
    }
    return s->buf[s->lane++];
}
