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

/* RND_GEN, the generator a kernel reads (src/math/random.c defines it),
 * is fixed at compile time: a source holds one generator's state, all in
 * registers (an array indexed at run time, or a run-time choice between
 * the two states, would put it on the stack, in local memory, which the
 * profiler showed as the fill's bottleneck). */
typedef struct rnd_src {
#if RND_GEN == RND_PCG
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

#if RND_GEN == RND_PCG
/* The LCG's 2^k-step powers without the increment (pcg jumps, written by
 * tools/gen_pcg_jumps.py, which says what they are; do not edit): 2^k
 * steps take s to A s + inc S, row k = A hi, lo, S hi, lo. In constant
 * memory: a warp's lanes read row k together. */
__constant__ const unsigned long long rnd_pcg_jump[64][4] = {
    {0x2360ED051FC65DA4ULL, 0x4385DF649FCCF645ULL, 0x0000000000000000ULL, 0x0000000000000001ULL},
    {0x17BCE35BDF69743CULL, 0x529ED9EB20E0AE99ULL, 0x2360ED051FC65DA4ULL, 0x4385DF649FCCF646ULL},
    {0xF4DD417327DB7A9BULL, 0xD194DFBE42D45771ULL, 0x610E11A14B07E063ULL, 0x817FA187ADEFBA1CULL},
    {0x6347AF777A7898F6ULL, 0xD1A2D6F33505FFE1ULL, 0x22AB9B110B39425CULL, 0x292967D144306478ULL},
    {0xB6A4239F3B315F84ULL, 0xF6EF6D3D288C03C1ULL, 0x6ED699DB168FB143ULL, 0xA9072151352439F0ULL},
    {0x2C82901AD1CB0CD1ULL, 0x82B631BA6B261781ULL, 0x8B144946FE438D94ULL, 0xE2DEEA36E161B7E0ULL},
    {0xDAB03F988288676EULL, 0xE49E66C4D2746F01ULL, 0xDB8761D6953B44B4ULL, 0xDF08A33A26647FC0ULL},
    {0x602167331D86CF56ULL, 0x84FE009A6D09DE01ULL, 0x8C092058667B980DULL, 0x6F07A26F432D3F80ULL},
    {0x61ECB5C24D95B058ULL, 0xF04C80A23697BC01ULL, 0x199CAE2243BD8562ULL, 0xFCA794C07EEB7F00ULL},
    {0x4A5C31E0654C28AAULL, 0x60474E83BF3F7801ULL, 0x87D1E4CE03F09ACAULL, 0x27636E67D81AFE00ULL},
    {0xAE4F079D54FBECE1ULL, 0x478331D3C6BEF001ULL, 0x81417387E08BB69AULL, 0xD185D642D945FC00ULL},
    {0x101B8CB830C7CB92ULL, 0x7FF1ED50AE7DE001ULL, 0xE093F57A0DDA0F13ULL, 0x437E6F1056CBF800ULL},
    {0xF54A27FC056B00E7ULL, 0x563F3505E0FBC001ULL, 0x3A0EC29F30EE08F0ULL, 0xEA79AE3B3E97F000ULL},
    {0xDF8A6FC1A833D201ULL, 0xF98D719DD1F78001ULL, 0xB3716586D218CCA0ULL, 0x8022CC60C12FE000ULL},
    {0x5480A5015F101A4EULL, 0xA7E3F183E3EF0001ULL, 0x25E1DE6CC7A9C89BULL, 0x91C4D46A925FC000ULL},
    {0xA498509E76E5D792ULL, 0x5F539C28C7DE0001ULL, 0x4BC96EBFE12BF7D0ULL, 0x3D92777964BF8000ULL},
    {0x0798A3D8B10DC72EULL, 0x60121CD58FBC0001ULL, 0x5D57B94AFAF08E76ULL, 0x63A72983C97F0000ULL},
    {0x1647D1E78EC02E66ULL, 0x5FAFCBBB1F780001ULL, 0x26D2394F2DC26B7EULL, 0x6C4F3D4B92FE0000ULL},
    {0xA7C982285E72BF8CULL, 0x0C8DDFB63EF00001ULL, 0x092ACAF128CBA5F3ULL, 0x846223A725FC0000ULL},
    {0x3EB78EE8FB8C56DBULL, 0xC5D4E06C7DE00001ULL, 0xB9FF6D21BD6EDB42ULL, 0x75D2EB8E4BF80000ULL},
    {0x72D03B6F4681F2F9ULL, 0xFE8E44D8FBC00001ULL, 0x72F64944EB196FF8ULL, 0x8FE0681C97F00000ULL},
    {0xEA85F81E4F502C9BULL, 0xC8AE99B1F7800001ULL, 0xD2A8477E4DBBA5EFULL, 0x30AB14392FE00000ULL},
    {0x629C320DB08B00C6ULL, 0xBFA57363EF000001ULL, 0x3FEE0D4F29496552ULL, 0xA4FF38725FC00000ULL},
    {0xC5C4B9CE268D074AULL, 0x386BE6C7DE000001ULL, 0x90C0589DB5533C56ULL, 0x58A2B0E4BF800000ULL},
    {0xF30BBBBED1596187ULL, 0x555BCD8FBC000001ULL, 0xC96AD9DD31689E70ULL, 0xEBD661C97F000000ULL},
    {0x4A1000FB26C9EEDAULL, 0x3CC79B1F78000001ULL, 0x8EB88B115BDCCBF2ULL, 0xC1F0C392FE000000ULL},
    {0x89FB5307F6BF8CE2ULL, 0xC1CF363EF0000001ULL, 0xE5D914DD8BFF9429ULL, 0x2CF18725FC000000ULL},
    {0x830B7B3358A5D67EULL, 0xA49E6C7DE0000001ULL, 0x24E6DD9DE9D51960ULL, 0xFE230E4BF8000000ULL},
    {0xFD8A51DA91A69FE1ULL, 0xCD3CD8FBC0000001ULL, 0x7641328320F1F6FCULL, 0x8D461C97F0000000ULL},
    {0x901A48B642B90B55ULL, 0xAA79B1F780000001ULL, 0x8B038003A682FEE3ULL, 0x5E8C392FE0000000ULL},
    {0x118CDEFDF32144F3ULL, 0x94F363EF00000001ULL, 0xF0855AFE5B82416FULL, 0xCD18725FC0000000ULL},
    {0x0A88C0A91CFF4308ULL, 0x29E6C7DE00000001ULL, 0xFCD399E4D0F59183ULL, 0xDA30E4BF80000000ULL},
    {0x433BEF4314F16A94ULL, 0x53CD8FBC00000001ULL, 0xD74683C909AF5D98ULL, 0xB461C97F00000000ULL},
    {0xC294B02995AE6738ULL, 0xA79B1F7800000001ULL, 0x98E84A87B26FA575ULL, 0x68C392FE00000000ULL},
    {0x913575E0DA8B16B1ULL, 0x4F363EF000000001ULL, 0x7A2DB8A5E122F3FAULL, 0xD18725FC00000000ULL},
    {0x2F61B9F871CF4E62ULL, 0x9E6C7DE000000001ULL, 0x0D50BDA5B3548C35ULL, 0xA30E4BF800000000ULL},
    {0x78D26CCBD68320C5ULL, 0x3CD8FBC000000001ULL, 0x3A7C9CB32AE3A96BULL, 0x461C97F000000000ULL},
    {0x8B7EBD037898518AULL, 0x79B1F78000000001ULL, 0xD4953F0566B196D6ULL, 0x8C392FE000000000ULL},
    {0x0B5507B61F78E314ULL, 0xF363EF0000000001ULL, 0x29169487110C3DADULL, 0x18725FC000000000ULL},
    {0x4F884628F812C629ULL, 0xE6C7DE0000000001ULL, 0x5DBD82FF30BCBB5AULL, 0x30E4BF8000000000ULL},
    {0xBE896744D4A98C53ULL, 0xCD8FBC0000000001ULL, 0x48BC6DC29C0A76B4ULL, 0x61C97F0000000000ULL},
    {0xDAF63A553B6318A7ULL, 0x9B1F780000000001ULL, 0xBE7E7A962258ED68ULL, 0xC392FE0000000000ULL},
    {0x2D7A23D8BF06314FULL, 0x363EF00000000001ULL, 0xF113716FEDC1DAD1ULL, 0x8725FC0000000000ULL},
    {0x392B046A9F0C629EULL, 0x6C7DE00000000001ULL, 0xB280D3EE7FC3B5A3ULL, 0x0E4BF80000000000ULL},
    {0xEB30FBB9C218C53CULL, 0xD8FBC00000000001ULL, 0xA6696C1790876B46ULL, 0x1C97F00000000000ULL},
    {0xB9CDC30594318A79ULL, 0xB1F7800000000001ULL, 0x5271E919650ED68CULL, 0x392FE00000000000ULL},
    {0x014AB453686314F3ULL, 0x63EF000000000001ULL, 0xBB6015DBDA1DAD18ULL, 0x725FC00000000000ULL},
    {0x395221C7D0C629E6ULL, 0xC7DE000000000001ULL, 0xD0B13A5BF43B5A30ULL, 0xE4BF800000000000ULL},
    {0x4D972813A18C53CDULL, 0x8FBC000000000001ULL, 0x0926AF48E876B461ULL, 0xC97F000000000000ULL},
    {0x06F9E2374318A79BULL, 0x1F78000000000001ULL, 0xB15E48D5D0ED68C3ULL, 0x92FE000000000000ULL},
    {0xBD220CAE86314F36ULL, 0x3EF0000000000001ULL, 0xDF003ABBA1DAD187ULL, 0x25FC000000000000ULL},
    {0x36FD3A5D0C629E6CULL, 0x7DE0000000000001ULL, 0xAF0F19B743B5A30EULL, 0x4BF8000000000000ULL},
    {0x60DEF8BA18C53CD8ULL, 0xFBC0000000000001ULL, 0x2258C46E876B461CULL, 0x97F0000000000000ULL},
    {0x8D500174318A79B1ULL, 0xF780000000000001ULL, 0x559BCCDD0ED68C39ULL, 0x2FE0000000000000ULL},
    {0x48E842E86314F363ULL, 0xEF00000000000001ULL, 0xEEE0A9BA1DAD1872ULL, 0x5FC0000000000000ULL},
    {0x4AF185D0C629E6C7ULL, 0xDE00000000000001ULL, 0xEC6593743B5A30E4ULL, 0xBF80000000000000ULL},
    {0x7A670BA18C53CD8FULL, 0xBC00000000000001ULL, 0x135C26E876B461C9ULL, 0x7F00000000000000ULL},
    {0x86DE174318A79B1FULL, 0x7800000000000001ULL, 0x10FC4DD0ED68C392ULL, 0xFE00000000000000ULL},
    {0x55FC2E86314F363EULL, 0xF000000000000001ULL, 0xCB089BA1DAD18725ULL, 0xFC00000000000000ULL},
    {0xCCF85D0C629E6C7DULL, 0xE000000000000001ULL, 0x3A513743B5A30E4BULL, 0xF800000000000000ULL},
    {0x1DF0BA18C53CD8FBULL, 0xC000000000000001ULL, 0x05A26E876B461C97ULL, 0xF000000000000000ULL},
    {0x4BE174318A79B1F7ULL, 0x8000000000000001ULL, 0x4F44DD0ED68C392FULL, 0xE000000000000000ULL},
    {0xD7C2E86314F363EFULL, 0x0000000000000001ULL, 0xAE89BA1DAD18725FULL, 0xC000000000000000ULL},
    {0xAF85D0C629E6C7DEULL, 0x0000000000000001ULL, 0x9D13743B5A30E4BFULL, 0x8000000000000000ULL},
};
/* end of pcg jumps */

/* The LCG's g-th power for increment inc: g steps are st -> am st + aa.
 * From the table, two multiplies a set bit of g and one at the end, where
 * squaring as it went cost four a bit of g's length (a thread's seek was
 * about a tenth of a uniform fill's multiplies). k runs the same in every
 * lane, so a warp reads one row at a time, and a bit that no lane has
 * costs a warp only the test. */
__device__ __forceinline__ void rnd_pcg_power(rnd_u128 inc,
                                              unsigned long long g,
                                              rnd_u128 *am, rnd_u128 *aa)
{
    rnd_u128 m = {0, 1}, s = {0, 0};
    for (int k = 0; k < 64 && (g >> k) != 0; k++) {
        if ((g >> k) & 1) {
            const rnd_u128 ak = {rnd_pcg_jump[k][0], rnd_pcg_jump[k][1]},
                           sk = {rnd_pcg_jump[k][2], rnd_pcg_jump[k][3]};
            /* S for g' + 2^k steps: S_k + A_k S_g' */
            s = rnd_add128(rnd_mul128(ak, s), sk);
            m = rnd_mul128(ak, m);
        }
    }
    *am = m;
    *aa = rnd_mul128(s, inc);
}

/* The word of a stepped state (XSL-RR), apart from the step, for the
 * fills that move a state by powers rather than single steps. */
__device__ __forceinline__ unsigned long long rnd_pcg_out(rnd_u128 st)
{
    const unsigned rot = (unsigned)(st.hi >> 58);
    const unsigned long long x = st.hi ^ st.lo;
    return (x >> rot) | (x << ((64u - rot) & 63u));
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
#if RND_GEN == RND_PCG
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
#if RND_GEN == RND_PCG
    if (!fresh) {
        s->st = rnd_add128(rnd_mul128(jm, s->st), ja);
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
#if RND_GEN == RND_PCG
    rnd_u128 m = {0x2360ED051FC65DA4ULL, 0x4385DF649FCCF645ULL};
    s->st = rnd_add128(rnd_mul128(s->st, m), s->inc);
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
