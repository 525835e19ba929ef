/* ember random: rnd_fill writes n draws of one distribution (src/math/
 * random.c pastes it after random_bits.cuh, random_math.cuh and these
 * #defines):
 *   RND_CUDA   1 for the cuda backend, 0 for the host
 *   RND_DIST   the distribution, numbered as em_random_dist in
 *              include/ember/random.h
 *   RND_T      the element type written
 *   RND_F32    1 when RND_T is float: normals and exponentials are
 *              computed in single precision
 *   RND_VEC    (cuda) a 16-byte vector of RND_T, RND_VW its lanes
 * Thread t owns runs of consecutive elements, runs t, t+T, t+2T.. of
 * the output (T threads in the grid): on cuda RND_PER of them (64 bytes;
 * the `per` argument is the host's), which a warp writes out together
 * through shared memory (rnd_flush; the launch gives each thread RND_SV
 * 16-byte vectors of it), a PCG64 thread reaching each next run by the
 * stride's jump (jm, ja: the LCG's power for T runs' words); on the host
 * one run of `per` elements a thread. Word-stream draws take element
 * e's word from the stream at e (64-bit words) or at the e-th 32-bit half
 * (low half first, as NumPy's next_uint32; float32 normals too, a
 * ziggurat draw from each half, so elements 2k and 2k + 1 from word k),
 * after the buffered
 * words the caller passes (npre 64-bit words p0..p2, then, for 32-bit
 * draws, the half h32 when has32). A cuda run that needs neither the
 * buffered words nor the half is made without a test an element. Keyed draws (rejection methods) take attempt j of
 * element e from the Philox block of counter (e, j, 0, 0) under key
 * (s4, s5), so no result depends on the thread layout. A draw takes its
 * a and b from pa[e] and pb[e] where those are not NULL (for binomial, pa
 * holds n; for integers, pa the low end and pb the range).
 * RND_DIST 10 is the family of one-word transforms (lognormal through
 * geometric), and RND_DIST 20 that of the keyed integer draws (zipf,
 * logseries, hypergeometric, whose ngood << 32 | nbad is c0 or pa[e]'s
 * bits): one kernel per dtype serves a family, the distribution
 * chosen at run time by the `dist` argument, so adding one costs no
 * compile.
 */
#define RND_WORDS 2    /* per-element 64-bit words */
#define RND_KEYED 3    /* per-element attempts from keyed Philox blocks */
#if RND_DIST == 1 || RND_DIST == 3 || (RND_DIST == 4 && RND_F32)
#define RND_KIND 1 /* halves of words: element e from word e / 2 */
#elif RND_DIST == 0 || RND_DIST == 2 || RND_DIST == 4 || RND_DIST == 5 || \
    RND_DIST == 10
#define RND_KIND RND_WORDS
#else
#define RND_KIND RND_KEYED
#endif

#define RND_2M53 1.1102230246251565404e-16 /* 2^-53 */

/* (0, 1), never either end: the normal quantile and the logs need it. */
__device__ __forceinline__ double rnd_open(unsigned long long x)
{
    return ((double)(x >> 11) + 0.5) * RND_2M53;
}

/* Attempts past this many give NaN (gamma, float32 normals) or -1: only a
 * parameter the caller should have refused gets there. */
#define RND_MAX_ATTEMPTS 100000

#if RND_KIND == RND_KEYED
__device__ __forceinline__ void rnd_attempt(long long e, unsigned long long j,
                                            const unsigned long long *w,
                                            unsigned long long out[4])
{
    unsigned long long c[4] = {(unsigned long long)e, j, 0, 0};
    rnd_philox(c, w + 4, out);
}


/* Attempt j of Hormann's transformed rejection (PTRS, BTRS) for element
 * e: U uniform on (-1/2, 1/2), *v on (0, 1), *us = 1/2 - |U|, and the
 * candidate floor((2a/us + b) U + c) returned. */
__device__ double rnd_tr_attempt(long long e, unsigned long long j,
                                 const unsigned long long *w, double a,
                                 double b, double c, double *v, double *us)
{
    unsigned long long r[4];
    double u;
    rnd_attempt(e, j, w, r);
    u = rnd_open(r[0]) - 0.5;
    *v = rnd_open(r[1]);
    *us = 0.5 - (u < 0.0 ? -u : u);
    return floor((2.0 * a / *us + b) * u + c);
}

#if RND_DIST == 6
/* Gamma(shape), Marsaglia and Tsang's squeeze (shape >= 1); a shape
 * below 1 is Gamma(shape + 1) U^(1/shape). */
__device__ double rnd_value(long long e, const unsigned long long *w,
                            double shape, double scale,
                            unsigned long long c0, unsigned long long c1)
{
    double sh = shape < 1.0 ? shape + 1.0 : shape, d, c, res = 0.0 / 0.0;
    unsigned long long r[4];
    (void)c0;
    (void)c1;
    if (shape == 0.0 || shape != shape)
        return shape; /* 0, or NaN (NumPy's too) without the loop */
    d = sh - 1.0 / 3.0;
    c = 1.0 / sqrt(9.0 * d);
    for (unsigned long long j = 0; j < RND_MAX_ATTEMPTS; j++) {
        double x, v, u;
        rnd_attempt(e, j, w, r);
        x = rnd_ppnd(rnd_open(r[0]));
        v = 1.0 + c * x;
        if (v <= 0.0)
            continue;
        v = v * v * v;
        u = rnd_open(r[1]);
        if (u < 1.0 - 0.0331 * (x * x) * (x * x) ||
            rnd_log(u) < 0.5 * x * x + d * (1.0 - v + rnd_log(v))) {
            res = d * v;
            break;
        }
    }
    if (shape < 1.0) {
        rnd_attempt(e, 0, w, r);
        res = res * rnd_exp(rnd_log(rnd_open(r[2])) / shape);
    }
    return res * scale;
}
#elif RND_DIST == 7
/* Poisson(lam): inversion from one uniform below lam = 10, Hormann's
 * PTRS (transformed rejection with squeeze) above. */
__device__ long long rnd_value(long long e, const unsigned long long *w,
                               double lam, double b, unsigned long long c0,
                               unsigned long long c1)
{
    unsigned long long r[4];
    (void)b;
    (void)c0;
    (void)c1;
    if (lam == 0.0)
        return 0;
    if (lam < 10.0) {
        double u, p = rnd_exp(-lam), f;
        long long k = 0;
        rnd_attempt(e, 0, w, r);
        u = rnd_open(r[0]);
        f = p;
        while (u > f && k < 1000) {
            k++;
            p = p * lam / (double)k;
            f = f + p;
        }
        return k;
    } else {
        double slam = sqrt(lam), loglam = rnd_log(lam);
        double bb = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * bb;
        double inva = 1.1239 + 1.1328 / (bb - 3.4), vr = 0.9277 - 3.6224 / (bb - 2.0);
        for (unsigned long long j = 0; j < RND_MAX_ATTEMPTS; j++) {
            double v, us, k = rnd_tr_attempt(e, j, w, a, bb, lam + 0.43, &v, &us);
            if (us >= 0.07 && v <= vr)
                return (long long)k;
            if (k < 0.0 || (us < 0.013 && v > us))
                continue;
            if (rnd_log(v) + rnd_log(inva) - rnd_log(a / (us * us) + bb) <=
                -lam + k * loglam - rnd_loggam(k + 1.0))
                return (long long)k;
        }
        return -1;
    }
}
#elif RND_DIST == 8
/* Binomial(n = c0, p = b), for p <= 1/2 (the other half by symmetry):
 * inversion from one uniform while n p < 10, Hormann's BTRS above. */
__device__ long long rnd_value(long long e, const unsigned long long *w,
                               double a0, double p0, unsigned long long c0,
                               unsigned long long c1)
{
    long long n = (long long)c0, k = -1;
    int flip = p0 > 0.5;
    double p = flip ? 1.0 - p0 : p0, q = 1.0 - p, dn = (double)n;
    unsigned long long r[4];
    (void)a0;
    (void)c1;
    if (n == 0 || p == 0.0)
        k = 0;
    else if (dn * p < 10.0) {
        double u, pk = rnd_exp(dn * rnd_log1p(-p)), f = pk, ratio = p / q;
        rnd_attempt(e, 0, w, r);
        u = rnd_open(r[0]);
        k = 0;
        /* past the mean, stop once the remaining terms cannot matter */
        while (u > f && k < n && !((double)k > dn * p && pk < 1e-17)) {
            k++;
            pk = pk * ratio * ((dn - (double)k + 1.0) / (double)k);
            f = f + pk;
        }
    } else {
        double spq = sqrt(dn * p * q), bb = 1.15 + 2.53 * spq;
        double a = -0.0873 + 0.0248 * bb + 0.01 * p, c = dn * p + 0.5;
        double vr = 0.92 - 4.2 / bb, alpha = (2.83 + 5.1 / bb) * spq;
        double lpq = rnd_log(p / q), m = floor((dn + 1.0) * p);
        double h = rnd_loggam(m + 1.0) + rnd_loggam(dn - m + 1.0);
        for (unsigned long long j = 0; j < RND_MAX_ATTEMPTS; j++) {
            double v, us, kk = rnd_tr_attempt(e, j, w, a, bb, c, &v, &us);
            if (kk < 0.0 || kk > dn)
                continue;
            if (us >= 0.07 && v <= vr) {
                k = (long long)kk;
                break;
            }
            v = rnd_log(v * alpha / (a / (us * us) + bb));
            if (v <= h - rnd_loggam(kk + 1.0) - rnd_loggam(dn - kk + 1.0) +
                         (kk - m) * lpq) {
                k = (long long)kk;
                break;
            }
        }
    }
    return flip && k >= 0 ? n - k : k;
}
#elif RND_DIST == 9
/* low (c1) + an integer in [0, range) (range c0; 0 is 2^64) by Lemire's
 * multiply-shift, rejecting the few products that would bias it. */
__device__ unsigned long long rnd_value(long long e, const unsigned long long *w,
                                        double a, double b,
                                        unsigned long long range,
                                        unsigned long long low)
{
    unsigned long long r[4], t = range ? (0 - range) % range : 0;
    (void)a;
    (void)b;
    for (unsigned long long j = 0; j < RND_MAX_ATTEMPTS; j++) {
        rnd_attempt(e, j, w, r);
        for (int l = 0; l < 4; l++) {
            if (!range)
                return low + r[l];
            if (r[l] * range >= t)
                return low + __umul64hi(r[l], range);
        }
    }
    return low;
}
#elif RND_DIST == 23
/* von Mises(mu, kappa) on [-pi, pi]: Best and Fisher's rejection from the
 * wrapped Cauchy (s from rho = (r - sqrt(2r)) / (2 kappa), r = 1 + sqrt(1
 * + 4 kappa^2); s = 1/kappa + kappa below kappa = 1e-5, where rho
 * vanishes), attempt j from block (e, j): Z = cos(pi U), W = (1 + s Z) /
 * (s + Z), accepted by Y (2 - Y) >= V or log(Y / V) + 1 >= Y, Y = kappa
 * (s - W); the angle acos(W), negated by the attempt's third uniform below
 * 1/2, plus mu, reduced to [-pi, pi] by fmod (exact everywhere). As
 * NumPy's: a uniform angle below kappa = 1e-8 (mu does not matter to it),
 * a wrapped normal of variance 1/kappa above 1e6; NaN kappa gives NaN. */
#define RND_PI 3.14159265358979323846
__device__ double rnd_value(long long e, const unsigned long long *w,
                            double mu, double kappa, unsigned long long c0,
                            unsigned long long c1)
{
    unsigned long long r[4];
    double s, res, m;
    (void)c0;
    (void)c1;
    if (kappa != kappa)
        return kappa;
    rnd_attempt(e, 0, w, r);
    if (kappa < 1e-8)
        return RND_PI * (2.0 * rnd_open(r[0]) - 1.0);
    if (kappa > 1e6) {
        res = mu + sqrt(1.0 / kappa) * rnd_ppnd(rnd_open(r[0]));
    } else {
        if (kappa < 1e-5) {
            s = 1.0 / kappa + kappa;
        } else {
            const double rr = 1.0 + sqrt(1.0 + 4.0 * kappa * kappa),
                         rho = (rr - sqrt(2.0 * rr)) / (2.0 * kappa);
            s = (1.0 + rho * rho) / (2.0 * rho);
        }
        res = 0.0 / 0.0;
        for (unsigned long long j = 0; j < RND_MAX_ATTEMPTS; j++) {
            double u, z, wv, y, v, t, sn, cs;
            if (j)
                rnd_attempt(e, j, w, r);
            /* cos(pi u), u folded to [0, 1/4] (each fold exact) */
            u = rnd_open(r[0]);
            t = u > 0.5 ? 1.0 - u : u;
            if (t > 0.25) {
                rnd_sincospi_q(0.5 - t, &sn, &cs);
                z = sn;
            } else {
                rnd_sincospi_q(t, &sn, &cs);
                z = cs;
            }
            if (u > 0.5)
                z = -z;
            wv = (1.0 + s * z) / (s + z);
            y = kappa * (s - wv);
            v = rnd_open(r[1]);
            if (y * (2.0 - y) - v >= 0.0 ||
                rnd_log(y / v) + 1.0 - y >= 0.0) {
                res = rnd_acos(wv);
                if (rnd_open(r[2]) < 0.5)
                    res = -res;
                res = res + mu;
                break;
            }
        }
    }
    m = fmod(fabs(res) + RND_PI, 2.0 * RND_PI) - RND_PI;
    return res < 0.0 ? -m : m;
}
#elif RND_DIST == 20
#define RND_ZIPF 20
#define RND_LOGSERIES 21

__device__ __forceinline__ double rnd_pow(double x, double y)
{
    return rnd_exp(rnd_log(x) * y);
}

#define RND_HYPERGEOMETRIC 22

/* log(k!) */
__device__ __forceinline__ double rnd_logfact(double k)
{
    return rnd_loggam(k + 1.0);
}

/* The number of good items in a sample of nsample drawn without
 * replacement from ngood good and nbad bad ones (packed: ngood << 32 |
 * nbad). It draws the count of the scarcer kind in the smaller of the
 * sample and its complement (cs <= total / 2), then maps it back. Below
 * cs = 10, inversion of one uniform along the probability's recurrence
 * from k = 0 (at most 10 steps); above, Stadlober's ratio of uniforms
 * with the table-mountain hat (a = mean + 1/2, h = 2 sqrt(2/e) c + 3 -
 * 2 sqrt(3/e), c = sqrt(variance + 1/2)), its two squeezes from the
 * bounds U(4 - U) - 3 >= 2 log U >= U - 1/U on (0, 1], and candidates
 * refused only past the support, so the draw is exact. Attempt j reads
 * block (e, j). */
__device__ long long rnd_hypergeometric(long long e,
                                        const unsigned long long *w,
                                        unsigned long long packed,
                                        double nsample)
{
    const long long good = (long long)(packed >> 32),
                    bad = (long long)(packed & 0xFFFFFFFFULL),
                    tot = good + bad, n = (long long)nsample,
                    cs = n < tot - n ? n : tot - n,
                    mg = good < bad ? good : bad, big = tot - mg;
    const long long kmax = cs < mg ? cs : mg;
    unsigned long long r[4];
    long long k = -1;
    if (kmax <= 0) {
        k = 0;
    } else if (cs < 10) {
        /* P(0) = C(big, cs) / C(tot, cs); big >= cs, so it is not 0 */
        double p = 1.0, f, u;
        for (long long i = 0; i < cs; i++)
            p = p * ((double)(big - i) / (double)(tot - i));
        rnd_attempt(e, 0, w, r);
        u = rnd_open(r[0]);
        f = p;
        k = 0;
        while (u > f && k < kmax) {
            p = p * ((double)(mg - k) * (double)(cs - k)) /
                ((double)(k + 1) * (double)(big - cs + k + 1));
            k++;
            f = f + p;
        }
    } else {
        const double dt = (double)tot, dn = (double)cs, dm = (double)mg,
                     db = (double)big, p = dm / dt, q = db / dt,
                     var = (dt - dn) * dn * p * q / (dt - 1.0),
                     c = sqrt(var + 0.5),
                     h = 1.7155277699214135 * c + 0.8989161620588988,
                     a = dn * p + 0.5, top = (double)kmax + 1.0;
        /* the mode, in integers so that no rounding moves it */
        const double mode = (double)(((unsigned long long)(cs + 1) *
                                      (unsigned long long)(mg + 1)) /
                                     (unsigned long long)(tot + 2));
        const double g = rnd_logfact(mode) + rnd_logfact(dm - mode) +
                         rnd_logfact(dn - mode) + rnd_logfact(db - dn + mode);
        for (unsigned long long j = 0; j < RND_MAX_ATTEMPTS; j++) {
            double u, v, x, kk, t;
            rnd_attempt(e, j, w, r);
            u = rnd_open(r[0]);
            v = rnd_open(r[1]);
            x = a + h * (v - 0.5) / u;
            if (!(x >= 0.0 && x < top))
                continue;
            kk = floor(x);
            t = g - (rnd_logfact(kk) + rnd_logfact(dm - kk) +
                     rnd_logfact(dn - kk) + rnd_logfact(db - dn + kk));
            if (u * (4.0 - u) - 3.0 <= t) {
                k = (long long)kk;
                break;
            }
            if (u * (u - t) >= 1.0)
                continue;
            if (2.0 * rnd_log(u) <= t) {
                k = (long long)kk;
                break;
            }
        }
        if (k < 0)
            return -1;
    }
    if (good > bad)
        k = cs - k; /* the good are the plentiful kind */
    if (cs < n)
        k = good - k; /* the complement was drawn */
    return k;
}

/* Zipf(a) (a in c: NumPy's rejection from a uniform on (Umin, 1], so
 * no draw is rejected only for being past INT64_MAX) or logseries(p = a)
 * (Kemp's method, as NumPy's), attempt j from block (e, j). */
__device__ long long rnd_keyed_family(int dist, long long e,
                                      const unsigned long long *w, double a,
                                      double b, unsigned long long packed)
{
    unsigned long long r[4];
    if (dist == RND_HYPERGEOMETRIC)
        return rnd_hypergeometric(e, w, packed, b);
    if (dist == RND_ZIPF) {
        double am1, b, umin;
        if (a >= 1025.0)
            return 1; /* P(X > 1) < 3e-309, and b would overflow */
        am1 = a - 1.0;
        b = rnd_pow(2.0, am1);
        umin = rnd_pow(9223372036854775807.0, -am1);
        for (unsigned long long j = 0; j < RND_MAX_ATTEMPTS; j++) {
            double u01, u, v, x, t;
            rnd_attempt(e, j, w, r);
            u01 = rnd_open(r[0]);
            u = u01 * umin + (1.0 - u01);
            v = rnd_open(r[1]);
            x = floor(rnd_pow(u, -1.0 / am1));
            if (!(x < 9223372036854775808.0) || x < 1.0)
                continue;
            t = rnd_pow(1.0 + 1.0 / x, am1);
            if (v * x * (t - 1.0) / (b - 1.0) <= t / b)
                return (long long)x;
        }
        return -1;
    } else {
        double lr = rnd_log1p(-a);
        for (unsigned long long j = 0; j < RND_MAX_ATTEMPTS; j++) {
            double u, v, q, k;
            rnd_attempt(e, j, w, r);
            v = rnd_open(r[0]);
            if (v >= a)
                return 1;
            u = rnd_open(r[1]);
            q = -rnd_expm1(lr * u);
            if (v <= q * q) {
                k = floor(1.0 + rnd_log(v) / rnd_log(q));
                if (!(k >= 1.0))
                    continue;
                return k < 9223372036854775808.0 ? (long long)k
                                                 : 9223372036854775807LL;
            }
            return v >= q ? 1 : 2;
        }
        return -1;
    }
}
#endif
#endif /* RND_KEYED */

/* The value of word-stream element e from its word x; a and b per
 * element where the caller gave arrays (uniform: low and high - low, as
 * NumPy's; normal: loc and scale; exponential: scale). */
/* The standard exponential of word x: -log of ((x >> 11) + 1) 2^-53 in
 * (0, 1], so 0 <= E <= 53 log 2. */
__device__ __forceinline__ double rnd_stdexp(unsigned long long x)
{
    return -rnd_log(((double)(x >> 11) + 1.0) * RND_2M53);
}

#if RND_DIST == 10
/* em_random_dist codes of the one-word family (include/ember/random.h) */
#define RND_LOGNORMAL 10
#define RND_LAPLACE 11
#define RND_LOGISTIC 12
#define RND_GUMBEL 13
#define RND_RAYLEIGH 14
#define RND_WEIBULL 15
#define RND_PARETO 16
#define RND_POWER 17
#define RND_CAUCHY 18
#define RND_GEOMETRIC 19

/* tan(pi t) for t in (-1/2, 1/2): sin and cos of pi s, s = |t| folded to
 * [0, 1/4] (0.5 - |t| is exact there; rnd_sincospi_q), and cot for the
 * fold. */
__device__ double rnd_tanpi(double t)
{
    double s = t < 0.0 ? -t : t, sn, cs, r;
    int fold = s > 0.25;
    if (fold)
        s = 0.5 - s;
    rnd_sincospi_q(s, &sn, &cs);
    r = fold ? cs / sn : sn / cs;
    return t < 0.0 ? -r : r;
}

/* Draw `dist` of the family from word x, parameters a and b (as NumPy
 * names them: lognormal mean, sigma; laplace, logistic, gumbel loc,
 * scale; rayleigh scale in b; weibull, pareto, power a; geometric p in
 * a). Each is the inverse CDF (or NumPy's transform) of the word's open
 * uniform u or standard exponential E, in IEEE operations and ember's own
 * log and exp. */
__device__ double rnd_word_value(int dist, unsigned long long x, double a,
                                 double b)
{
    double u = rnd_open(x), e, r;
    switch (dist) {
    case RND_LOGNORMAL:
        return rnd_exp(a + b * rnd_ppnd(u));
    case RND_LAPLACE:
        return u < 0.5 ? a + b * rnd_log(u + u)
                       : a - b * rnd_log(2.0 - (u + u));
    case RND_LOGISTIC:
        return a + b * rnd_log(u / (1.0 - u));
    case RND_GUMBEL:
        return a - b * rnd_log(-rnd_log(u));
    case RND_RAYLEIGH:
        return b * sqrt(2.0 * rnd_stdexp(x));
    case RND_WEIBULL: /* E^(1/a), as NumPy's pow(E, 1/a) */
        if (a == 0.0)
            return 0.0;
        e = rnd_stdexp(x);
        r = 1.0 / a;
        if (e == 0.0)
            return r == 0.0 ? 1.0 : 0.0;
        return rnd_exp(rnd_log(e) * r);
    case RND_PARETO:
        return rnd_expm1(rnd_stdexp(x) / a);
    case RND_POWER: /* u^(1/a) */
        return rnd_exp(rnd_log(u) / a);
    case RND_CAUCHY:
        return rnd_tanpi(u - 0.5);
    default: /* RND_GEOMETRIC: the trials to the first success */
        if (a >= 1.0)
            return 1.0;
        return ceil(rnd_log(u) / rnd_log1p(-a));
    }
}

/* The family's value as RND_T: geometric's counts clamp to INT64_MAX, as
 * NumPy's do. */
__device__ __forceinline__ RND_T rnd_word_t(int dist, double v)
{
    if (dist == RND_GEOMETRIC)
        return (RND_T)(v >= 9223372036854775808.0 ? 9223372036854775807LL
                                                  : (long long)v);
    return (RND_T)v;
}
#endif

#define RND_A(e) (pa ? pa[e] : a)
#define RND_B(e) (pb ? pb[e] : b)
#if RND_DIST == 0 || RND_DIST == 1
#define RND_FROM_WORD(e, x) ((RND_T)(x))
#elif RND_DIST == 2
#define RND_FROM_WORD(e, x) \
    ((RND_T)(RND_A(e) + RND_B(e) * ((double)((x) >> 11) * RND_2M53)))
#elif RND_DIST == 3
#define RND_FROM_WORD(e, x) \
    ((RND_T)((float)((x) >> 8) * (1.0f / 16777216.0f)))
#elif RND_DIST == 4 && !RND_F32
#define RND_FROM_WORD(e, x) \
    ((RND_T)(RND_A(e) + RND_B(e) * rnd_ppnd(rnd_open(x))))
#elif RND_DIST == 5
#if RND_F32
/* float32: -log of ((w >> 40) + 1) 2^-24 in (0, 1], in single precision */
#define RND_FROM_WORD(e, x)                                                 \
    ((RND_T)(RND_B(e) *                                                     \
             (double)-rnd_logf(((float)((x) >> 40) + 1.0f) *                \
                               5.9604644775390625e-08f)))
#else
#define RND_FROM_WORD(e, x) ((RND_T)(RND_B(e) * rnd_stdexp(x)))
#endif
#elif RND_DIST == 10
#define RND_FROM_WORD(e, x) \
    rnd_word_t(dist, rnd_word_value(dist, x, RND_A(e), RND_B(e)))
#endif

#if RND_KIND == 1
/* Elements e (even) and e + 1 from word c's low and high halves (float32
 * normals: the ziggurat's draw of each); RND_FROM_HALF is one of them
 * (odd: the second). */
#if RND_DIST == 4
/* The float32 standard normal of element e from its 32-bit draw r, by
 * Marsaglia and Tsang's ziggurat (tables in random_ziggurat.cuh): r's low
 * 8 bits pick a layer, bit 8 the sign, the top 23 the abscissa, accepted
 * at once under the next layer's edge (about 99% of draws: a multiply and
 * a compare, rnd_zig_now). The rest (the wedges, and the tail past
 * RND_ZR) take their uniforms, and any new draw, from a hash of (e, the
 * attempt, the call's state), so that a draw depends on its element and
 * the call only, never on the threads; float arithmetic with ember's own
 * log and exp, the same on both devices. */
__device__ __forceinline__ unsigned long long rnd_zig_hash(long long e,
                                                           unsigned long long j,
                                                           unsigned long long key)
{
    unsigned long long z = (unsigned long long)e * 0x9E3779B97F4A7C15ULL +
                           j * 0xD1B54A32D192ED03ULL + key;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* (k + 1/2) 2^-24 in (0, 1) from the top 24 bits of x */
__device__ __forceinline__ float rnd_openf(unsigned long long x)
{
    return ((float)(unsigned int)(x >> 40) + 0.5f) * 5.9604644775390625e-08f;
}

__device__ float rnd_zig_rest_in(long long e, unsigned int r,
                                 const unsigned long long *w,
                                 const unsigned int *zk, const float *zw,
                                 const float *zf)
{
    const unsigned long long key = w[0] ^ (w[1] * 0xC2B2AE3D27D4EB4FULL) ^
                                   (w[2] << 1) ^ w[3];
    for (unsigned long long j = 0; j < RND_MAX_ATTEMPTS; j++) {
        const int i = (int)(r & 255u);
        const unsigned int a = r >> 9;
        const float s = (r & 256u) ? -1.0f : 1.0f, x = (float)a * zw[i];
        const unsigned long long h = rnd_zig_hash(e, 2 * j, key);
        if (a < zk[i])
            return s * x;
        if (i == 0) {
            /* the tail: R + t with t exponential of rate R, accepted
             * with probability exp(-t^2 / 2) */
            const float t = -rnd_logf(rnd_openf(h)) / RND_ZR,
                        y = -rnd_logf(rnd_openf(h << 24));
            if (y + y >= t * t)
                return s * (RND_ZR + t);
        } else if (zf[i] + rnd_openf(h) * (zf[i - 1] - zf[i]) <
                   rnd_expf(-0.5f * x * x)) {
            return s * x;
        }
        /* a new draw, as the ziggurat restarts */
        r = (unsigned int)rnd_zig_hash(e, 2 * j + 1, key);
    }
    return 0.0f / 0.0f; /* 10^5 rejections: not a draw's fate */
}

/* from the tables in global memory; the lane fill passes its block's
 * copies in shared memory, where the drain's lookups wait less */
__device__ __forceinline__ float rnd_zig_rest(long long e, unsigned int r,
                                              const unsigned long long *w)
{
    return rnd_zig_rest_in(e, r, w, rnd_zk, rnd_zw, rnd_zf);
}

/* The draw when taken at once; else r's bits, and bit k of *rest set,
 * for rnd_zig_rest once the run is staged (inside the run's unrolled loop
 * it would be inlined sixteen times). */
__device__ __forceinline__ float rnd_zig_now(unsigned int r, unsigned int *rest,
                                             int k, const unsigned int *zk,
                                             const float *zw)
{
    const int i = (int)(r & 255u);
    const unsigned int a = r >> 9;
    const float x = (float)a * zw[i];
    if (a >= zk[i]) {
        *rest |= 1u << k;
        return __int_as_float((int)r);
    }
    return (r & 256u) ? -x : x;
}

__device__ __forceinline__ float rnd_zig(long long e, unsigned int r,
                                         const unsigned long long *w)
{
    unsigned int rest = 0;
    const float z = rnd_zig_now(r, &rest, 0, rnd_zk, rnd_zw);
    return rest ? rnd_zig_rest(e, r, w) : z;
}

/* loc + scale z in float too: in double, the conversions there and back
 * cost more than the draw (they run at a quarter of float's rate) */
#define RND_AFFINE(e, z) ((RND_T)((float)RND_A(e) + (float)RND_B(e) * (z)))
#define RND_FROM_HALF(e, c, odd)                                            \
    RND_AFFINE(e, rnd_zig(e, (unsigned int)((odd) ? (c) >> 32 : (c)), w))
/* a run's elements k and k + 1 (rnd_rest: the run's deferred draws) */
#define RND_PAIR(e, c, v, k)                                                \
    do {                                                                    \
        (v)[k] = rnd_zig_now((unsigned int)(c), &rnd_rest, k, zk, zw);      \
        (v)[(k) + 1] = rnd_zig_now((unsigned int)((c) >> 32), &rnd_rest,    \
                                   (k) + 1, zk, zw);                        \
    } while (0)
/* loc + scale z of the run's draws taken at once */
#define RND_PAIRS_END(e0, v)                                                \
    do {                                                                    \
        _Pragma("unroll") for (int rnd_k = 0; rnd_k < RND_PER; rnd_k++)     \
            if (!(rnd_rest >> rnd_k & 1))                                   \
                (v)[rnd_k] = RND_AFFINE((e0) + rnd_k, (v)[rnd_k]);          \
    } while (0)
/* The deferred draws, about 1%: a lane's few would keep its warp in
 * rnd_zig_rest once a run, so they queue per warp in shared memory (the
 * element and its raw draw) and the warp computes them 32 at a time,
 * each lane one, writing them to out past the staged run's bits. */
#define RND_ZQ 64      /* a warp's queue */
#define RND_ZQ_WARPS 8 /* a block's warps (its 256 threads, random.c) */
struct rnd_zq {
    long long e[RND_ZQ];
    unsigned int r[RND_ZQ];
    int n;
};
__device__ __forceinline__ void rnd_zq_drain(struct rnd_zq *q, RND_T *out,
                                             const double *pa, double a,
                                             const double *pb, double b,
                                             const unsigned long long *w,
                                             int lane, unsigned int wmask,
                                             int all)
{
    const int wl = __popc(wmask);
    __syncwarp(wmask);
    while (q->n >= wl || (all && q->n > 0)) {
        const int n = q->n, take = n < wl ? n : wl;
        if (lane < take) {
            const long long e = q->e[n - take + lane];
            out[e] = RND_AFFINE(e, rnd_zig_rest(e, q->r[n - take + lane], w));
        }
        __syncwarp(wmask);
        if (lane == 0)
            q->n = n - take;
        __syncwarp(wmask);
    }
}
/* a lane's deferred draws of the staged run sv (elements e0..) to the
 * warp's queue; past its room, computed in place */
__device__ __forceinline__ void rnd_zq_put(struct rnd_zq *q, unsigned int rest,
                                           long long e0, RND_T *sv,
                                           const double *pa, double a,
                                           const double *pb, double b,
                                           const unsigned long long *w,
                                           int lane, unsigned int wmask)
{
    const int wl = __popc(wmask);
    int c = __popc(rest), at = c, total, n0;
    for (int d = 1; d < wl; d <<= 1) {
        const int o = __shfl_up_sync(wmask, at, d);
        if (lane >= d)
            at += o;
    }
    total = __shfl_sync(wmask, at, wl - 1);
    at -= c;
    n0 = q->n;
    if (n0 + total <= RND_ZQ) {
        for (; rest; rest &= rest - 1, at++) {
            const int k = __ffs((int)rest) - 1;
            q->e[n0 + at] = e0 + k;
            q->r[n0 + at] = (unsigned int)__float_as_int(sv[k]);
        }
    } else {
        for (; rest; rest &= rest - 1) {
            const int k = __ffs((int)rest) - 1;
            sv[k] = RND_AFFINE(e0 + k,
                               rnd_zig_rest(e0 + k,
                                            (unsigned int)__float_as_int(sv[k]),
                                            w));
        }
    }
    __syncwarp(wmask);
    if (lane == 0 && n0 + total <= RND_ZQ)
        q->n = n0 + total;
    __syncwarp(wmask);
}
#define RND_PAIRS_REST(e0, sv) \
    rnd_zq_put(zq, rnd_rest, e0, sv, pa, a, pb, b, w, lane, wmask)
#else
#define RND_FROM_HALF(e, c, odd) \
    RND_FROM_WORD(e, (unsigned int)((odd) ? (c) >> 32 : (c)))
#define RND_PAIR(e, c, v, k)                                                \
    do {                                                                    \
        (v)[k] = RND_FROM_HALF((e) + (k), c, 0);                            \
        (v)[(k) + 1] = RND_FROM_HALF((e) + (k) + 1, c, 1);                  \
    } while (0)
#define RND_PAIRS_END(e0, v) ((void)0)
#define RND_PAIRS_REST(e0, sv)
#endif
#endif

#if RND_CUDA
/* A cuda thread makes its run in groups of RND_GROUP elements (runs
 * start at multiples of it), each group's values by an unrolled loop into
 * a register array (indexed at run time it was local memory, whose
 * traffic the profiler showed as the fill's bottleneck). A warp's 32 runs
 * are neighbours in the output, so the group goes to the lane's slot of
 * the warp's piece of shared memory, and the warp writes the piece out
 * together (rnd_flush): each store instruction then covers 512 contiguous
 * bytes, where a thread storing its own run spread a store's lanes a run
 * apart and left each 32-byte sector to several stores (bench/README.md
 * has the measurements). A run is
 * RND_PV 16-byte vectors (64 bytes); a lane's slot is RND_SV vectors
 * apart, an odd number, so the lanes' writes fall in distinct banks. */
#define RND_GROUP 8
#define RND_PV 4
#define RND_SV (RND_PV + 1)
#define RND_PER (RND_PV * RND_VW)
/* nv vectors of v to the slot, from its element k0 on */
__device__ __forceinline__ void rnd_stage(RND_VEC *slot, long long k0,
                                          const RND_T *v, int nv)
{
#pragma unroll
    for (int k = 0; k < nv; k++)
        slot[k0 / RND_VW + k] = ((const RND_VEC *)v)[k];
}

/* The warp's 32 runs from its piece wsm to out, from element w0 on. */
__device__ __forceinline__ void rnd_flush(RND_T *out, const RND_VEC *wsm,
                                          long long w0, long long n, int vec,
                                          int lane)
{
    /* the warp's lanes: 32 but in a block of fewer threads */
    const int wl = blockDim.x - (threadIdx.x - lane) < 32
                       ? (int)(blockDim.x - (threadIdx.x - lane))
                       : 32;
    long long cnt = n - w0 < wl * RND_PER ? n - w0 : wl * RND_PER;
    __syncwarp();
    if (vec && cnt == 32 * RND_PER) {
        RND_VEC *o = (RND_VEC *)(out + w0);
#pragma unroll
        for (int c = 0; c < RND_PV; c++) {
            const int i = c * 32 + lane;
            o[i] = wsm[(i / RND_PV) * RND_SV + i % RND_PV];
        }
    } else {
        const RND_T *sv = (const RND_T *)wsm;
        for (int i = lane; i < cnt; i += wl)
            out[w0 + i] = sv[(i / RND_PER) * (RND_SV * RND_VW) + i % RND_PER];
    }
    __syncwarp();
}
/* for (e = e0; e < e1; e++) { ... RND_SET(value) ... } in groups */
#define RND_EACH(e, e0, e1)                                                 \
    for (long long rnd_b = (e0); rnd_b < (e1); rnd_b += RND_GROUP) {        \
        RND_T rnd_v[RND_GROUP];                                             \
        _Pragma("unroll") for (int rnd_k = 0; rnd_k < RND_GROUP; rnd_k++) { \
            const long long e = rnd_b + rnd_k;                              \
            if (e >= (e1))                                                  \
                break;
#define RND_SET(e, x) (rnd_v[rnd_k] = (x))
#define RND_EACH_END(e0)                                                    \
        }                                                                   \
        rnd_stage(slot, rnd_b - (e0), rnd_v, RND_GROUP / RND_VW);           \
    }
#else
/* the host: one element at a time, which its compiler does best */
#define RND_EACH(e, e0, e1) for (long long e = (e0); e < (e1); e++) {
#define RND_SET(e, x) (out[e] = (x))
#define RND_EACH_END(e0) }
#endif

/* Buffered word i (0..2) of the caller's, by value: an index into an
 * array would put the array in local memory. */
__device__ __forceinline__ unsigned long long rnd_pre(long long i,
                                                      unsigned long long p0,
                                                      unsigned long long p1,
                                                      unsigned long long p2)
{
    return i == 0 ? p0 : i == 1 ? p1 : p2;
}

extern "C" __global__ void rnd_fill(RND_T *out, long long n, long long per, unsigned long long s0, unsigned long long s1, unsigned long long s2, unsigned long long s3, unsigned long long s4, unsigned long long s5, int npre, unsigned long long p0, unsigned long long p1, unsigned long long p2, int has32, unsigned int h32, double a, double b, unsigned long long c0, unsigned long long c1, int vec, const double *pa, const double *pb, unsigned long long jm_hi, unsigned long long jm_lo, unsigned long long ja_hi, unsigned long long ja_lo, int dist)
{
    const unsigned long long w[6] = {s0, s1, s2, s3, s4, s5};
    const long long T = (long long)gridDim.x * blockDim.x;
#if RND_CUDA
    const long long run = RND_PER; /* rnd_flush's pieces are of such runs */
    (void)per;
#else
    const long long run = per;
#endif
    const long long runs = (n + run - 1) / run;
    (void)p0;
    (void)p1;
    (void)p2;
    (void)h32;
    (void)has32;
    (void)c0;
    (void)c1;
    (void)a;
    (void)b;
    (void)pa;
    (void)pb;
    (void)jm_hi;
    (void)jm_lo;
    (void)ja_hi;
    (void)ja_lo;
    (void)dist;
    (void)vec;
#if RND_KIND != RND_KEYED
    const rnd_u128 jm = {jm_hi, jm_lo}, ja = {ja_hi, ja_lo};
    rnd_src start;
    int fresh = 1;
#endif
#if RND_CUDA
    /* the warp's piece of shared memory, and this lane's slot in it; the
     * loop runs while the warp has a run (a lane past the end makes an
     * empty one), so that all its lanes reach rnd_flush */
    extern __shared__ RND_VEC rnd_sm[];
    const int lane = (int)(threadIdx.x & 31);
    RND_VEC *const wsm = rnd_sm + (threadIdx.x - lane) * RND_SV;
    RND_VEC *const slot = wsm + lane * RND_SV;
    /* the warp's lanes (all 32 but in a block of fewer threads) */
    const int wl = blockDim.x - (threadIdx.x - lane) < 32
                       ? (int)(blockDim.x - (threadIdx.x - lane))
                       : 32;
    const unsigned int wmask = wl == 32 ? 0xffffffffu : (1u << wl) - 1u;
    (void)slot;
    (void)wmask;
#if RND_KIND == 1 && RND_DIST == 4
    /* the ziggurat's first test in shared memory: a warp's 32 lanes look
     * up 32 layers at once, which from global memory took the L1 cache
     * eight passes a load */
    __shared__ struct rnd_zq rnd_zqs[RND_ZQ_WARPS];
    __shared__ unsigned int zk[256];
    __shared__ float zw[256];
    struct rnd_zq *const zq = rnd_zqs + threadIdx.x / 32;
    for (int t = threadIdx.x; t < 256; t += blockDim.x) {
        zk[t] = rnd_zk[t];
        zw[t] = rnd_zw[t];
    }
    if (lane == 0)
        zq->n = 0;
    __syncthreads();
#endif
#define RND_LIVE(q) ((q) - lane < runs)
#else
#define RND_LIVE(q) ((q) < runs)
#endif
    for (long long q = (long long)blockIdx.x * blockDim.x + threadIdx.x;
         RND_LIVE(q); q += T) {
        const long long e0 = q * run, e1 = e0 + run < n ? e0 + run : n;
#if RND_KIND == RND_KEYED
        /* rejection loops: compute, not stores, is their cost, so one
         * element at a time (an unrolled group would copy the loop 8 times) */
        for (long long e = e0; e < e1; e++) {
            /* per-element parameters where the caller gave arrays */
            double ea = pa ? pa[e] : a, eb = pb ? pb[e] : b;
            unsigned long long e0w = c0, e1w = c1;
#if RND_DIST == 8
            if (pa)
                e0w = (unsigned long long)(long long)ea;
#elif RND_DIST == 9
            if (pa)
                e1w = (unsigned long long)(long long)ea;
            if (pb)
                e0w = (unsigned long long)eb;
#endif
#if RND_DIST == 20
            (void)e0w;
            (void)e1w;
            out[e] = (RND_T)rnd_keyed_family(
                dist, e, w, ea, eb,
                pa ? (unsigned long long)__double_as_longlong(ea) : c0);
#else
            out[e] = (RND_T)rnd_value(e, w, ea, eb, e0w, e1w);
#endif
        }
#elif RND_KIND == RND_WORDS
        long long g = e0 - npre;
        rnd_src src;
        rnd_src_seek(&start, fresh, w, (unsigned long long)(g < 0 ? 0 : g),
                     jm, ja);
        fresh = g < 0;
        src = start;
#if RND_CUDA
        if (g >= 0 && e1 - e0 == RND_PER) {
            /* a whole run of the stream's words */
            RND_T v[RND_PER];
#pragma unroll
            for (int k = 0; k < RND_PER; k++) {
                const long long e = e0 + k;
                (void)e;
                v[k] = RND_FROM_WORD(e, rnd_next(&src));
            }
            rnd_stage(slot, 0, v, RND_PV);
        } else
#endif
        {
            RND_EACH(e, e0, e1)
                const unsigned long long x =
                    e < npre ? rnd_pre(e, p0, p1, p2) : rnd_next(&src);
                RND_SET(e, RND_FROM_WORD(e, x));
            RND_EACH_END(e0)
        }
#else
        /* the 32-bit stream: element e is half j = e - has32 of word
         * j / 2, low half first */
        long long j0 = e0 - has32, g = (j0 < 0 ? 0 : j0 >> 1) - npre;
        unsigned long long cur = 0;
        int have = 0;
        rnd_src src;
        rnd_src_seek(&start, fresh, w, (unsigned long long)(g < 0 ? 0 : g),
                     jm, ja);
        fresh = j0 < 0 || g < 0; /* a clamped start is off the stride */
        src = start;
#if RND_CUDA
        unsigned int rnd_rest = 0; /* float32 normals: draws deferred */
        if (!has32 && g >= 0 && e1 - e0 == RND_PER) {
            /* a whole run of the stream's words, two halves each */
            RND_T v[RND_PER];
#pragma unroll
            for (int k = 0; k < RND_PER; k += 2) {
                const unsigned long long c = rnd_next(&src);
                RND_PAIR(e0, c, v, k);
            }
            RND_PAIRS_END(e0, v);
            rnd_stage(slot, 0, v, RND_PV);
        } else
#endif
        {
            RND_EACH(e, e0, e1)
                unsigned long long c = h32; /* the buffered half: a low one */
                int odd = 0;
                if (e >= has32) {
                    long long j = e - has32;
                    if (!(j & 1) || !have) {
                        cur = (j >> 1) < npre ? rnd_pre(j >> 1, p0, p1, p2)
                                              : rnd_next(&src);
                        have = 1;
                    }
                    c = cur;
                    odd = (int)(j & 1);
                }
                RND_SET(e, RND_FROM_HALF(e, c, odd));
            RND_EACH_END(e0)
        }
#endif
#if RND_CUDA && RND_KIND == 1
        RND_PAIRS_REST(e0, (RND_T *)slot); /* every lane: warp shuffles */
        (void)rnd_rest;
#endif
#if RND_CUDA && RND_KIND != RND_KEYED
        rnd_flush(out, wsm, (q - lane) * run, n, vec, lane);
#endif
#if RND_CUDA && RND_KIND == 1 && RND_DIST == 4
        rnd_zq_drain(zq, out, pa, a, pb, b, w, lane, wmask, 0);
#endif
    }
#if RND_CUDA && RND_KIND == 1 && RND_DIST == 4
    rnd_zq_drain(zq, out, pa, a, pb, b, w, lane, wmask, 1);
#endif
}
