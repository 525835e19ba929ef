/* ember random: the elementary functions the distributions need, written
 * with + - * / sqrt and floor only, so that a draw is the same bits on the
 * host and on the GPU (libm and CUDA's math library differ in the last
 * bit). The module is compiled without contraction (-ffp-contract=off on
 * the host, --fmad=false for NVRTC), so no product is fused by accident.
 * Accurate to about an ulp; none of these is correctly rounded, and none
 * needs to be: only identity across devices is promised.
 */

/* The end of rnd_log and rnd_logf (fdlibm's scheme), in type T, from x's
 * exponent ex and mantissa m in [1, 2): m moves to [sqrt(1/2), sqrt(2))
 * (SQRT2), then log(m) = 2 atanh(s), s = (m-1)/(m+1), where R, the
 * remainder of the odd series, is an expression in z = s^2 and w = z^2;
 * log(2) is split into LN2HI + LN2LO so that ex log(2) loses nothing. */
#define RND_LOG_TAIL(T, SQRT2, R, LN2HI, LN2LO)                               \
    if (m > SQRT2) {                                                          \
        m = m * (T)0.5;                                                       \
        ex = ex + 1;                                                          \
    }                                                                         \
    f = m - (T)1;                                                             \
    s = f / ((T)2 + f);                                                       \
    z = s * s;                                                                \
    w = z * z;                                                                \
    r = R;                                                                    \
    hfsq = (T)0.5 * f * f;                                                    \
    k = (T)ex;                                                                \
    return k * LN2HI - ((hfsq - (s * (hfsq + r) + k * LN2LO)) - f)

/* log(x) for finite x > 0: x = 2^e m with m in [sqrt(1/2), sqrt(2)), then
 * log(m) = 2 atanh(s), s = (m-1)/(m+1), by the odd series in s (fdlibm's
 * published coefficients for the remainder). */
__device__ double rnd_log(double x)
{
    long long bits, ex;
    double m, f, s, z, w, r, hfsq, k;
    int scale = 0;
    if (!(x > 0.0))
        return x == 0.0 ? -1.0 / 0.0 : 0.0 / 0.0;
    if (x < 2.2250738585072014e-308) { /* subnormal: lift it first */
        x = x * 18014398509481984.0; /* 2^54 */
        scale = -54;
    }
    bits = __double_as_longlong(x);
    ex = ((bits >> 52) & 0x7ff) - 1023 + scale;
    m = __longlong_as_double((bits & 0x000fffffffffffffLL) |
                             0x3ff0000000000000LL);
    RND_LOG_TAIL(double, 1.4142135623730951,
                 w * (3.999999999940941908e-01 +
                      w * (2.222219843214978396e-01 +
                           w * 1.531383769920937332e-01)) +
                 z * (6.666666666666735130e-01 +
                      w * (2.857142874366239149e-01 +
                           w * (1.818357216161805012e-01 +
                                w * 1.479819860511658591e-01))),
                 6.93147180369123816490e-01, 1.90821492927058770002e-10);
}

/* log(1 + x) without losing x's digits when x is small: the rounding of
 * u = 1 + x is undone by scaling with x / (u - 1) (Goldberg's method). */
__device__ double rnd_log1p(double x)
{
    double u = 1.0 + x;
    if (u == 1.0)
        return x;
    return rnd_log(u) * (x / (u - 1.0));
}

/* exp(x): x = k ln2 + r with |r| <= ln2/2 (ln2 split in two so k ln2 is
 * exact), exp(r) by its Taylor series to r^13 (error below 2^-60 there),
 * then 2^k applied as two exact powers so a subnormal result rounds
 * once. */
__device__ double rnd_exp(double x)
{
    double k, r, p;
    long long ik, k1, k2;
    if (x != x)
        return x;
    if (x > 709.782712893384)
        return 1.0 / 0.0;
    if (x < -745.2)
        return 0.0;
    k = floor(x * 1.4426950408889634 + 0.5);
    r = (x - k * 6.93147180369123816490e-01) - k * 1.90821492927058770002e-10;
    p = 1.0 / 6227020800.0;
    p = p * r + 1.0 / 479001600.0;
    p = p * r + 1.0 / 39916800.0;
    p = p * r + 1.0 / 3628800.0;
    p = p * r + 1.0 / 362880.0;
    p = p * r + 1.0 / 40320.0;
    p = p * r + 1.0 / 5040.0;
    p = p * r + 1.0 / 720.0;
    p = p * r + 1.0 / 120.0;
    p = p * r + 1.0 / 24.0;
    p = p * r + 1.0 / 6.0;
    p = p * r + 0.5;
    p = p * r + 1.0;
    p = p * r + 1.0;
    ik = (long long)k;
    k1 = ik / 2;
    k2 = ik - k1;
    return p * __longlong_as_double((k1 + 1023) << 52) *
           __longlong_as_double((k2 + 1023) << 52);
}

/* exp(x) - 1 without losing x's digits near 0: Kahan's method, which
 * undoes the rounding of u = exp(x) with x / log(u). */
__device__ double rnd_expm1(double x)
{
    double u, um1;
    if (x != x || x > 709.782712893384)
        return x > 0.0 ? 1.0 / 0.0 : x;
    u = rnd_exp(x);
    if (u == 1.0)
        return x;
    um1 = u - 1.0;
    if (um1 == -1.0)
        return -1.0;
    return um1 * x / rnd_log(u);
}

/* log(Gamma(x)) for x >= 1 (the discrete distributions' log k!): shifted
 * up to x >= 8, then Stirling's series with four terms. */
__device__ double rnd_loggam(double x)
{
    double shift = 0.0, z, z2;
    while (x < 8.0) {
        shift = shift + rnd_log(x);
        x = x + 1.0;
    }
    z = 1.0 / x;
    z2 = z * z;
    return (x - 0.5) * rnd_log(x) - x + 0.91893853320467274178 +
           z * (1.0 / 12.0 -
                z2 * (1.0 / 360.0 - z2 * (1.0 / 1260.0 - z2 / 1680.0))) -
           shift;
}

/* c7 r^7 + ... + c0 by Horner's rule. */
__device__ __forceinline__ double rnd_poly7(double r, double c7, double c6,
                                           double c5, double c4, double c3,
                                           double c2, double c1, double c0)
{
    return ((((((c7 * r + c6) * r + c5) * r + c4) * r + c3) * r + c2) * r +
            c1) * r + c0;
}

/* sin and cos of pi s for s in [0, 1/4], by their Taylor series to x^17
 * and x^18 (terms below 1e-19 past those). */
__device__ __forceinline__ void rnd_sincospi_q(double s, double *sn,
                                               double *cs)
{
    const double x = s * 3.14159265358979323846, x2 = x * x;
    double p = rnd_poly7(x2, -1.0 / 355687428096000.0, 1.0 / 1307674368000.0,
                         -1.0 / 6227020800.0, 1.0 / 39916800.0,
                         -1.0 / 362880.0, 1.0 / 5040.0, -1.0 / 120.0,
                         1.0 / 6.0);
    *sn = (1.0 - p * x2) * x;
    p = rnd_poly7(x2, 1.0 / 6402373705728000.0, -1.0 / 20922789888000.0,
                  1.0 / 87178291200.0, -1.0 / 479001600.0, 1.0 / 3628800.0,
                  -1.0 / 40320.0, 1.0 / 720.0, -1.0 / 24.0);
    *cs = 1.0 - (p * x2 + 0.5) * x2;
}

/* atan(x) for x >= 0 (+inf included): past 1 as pi/2 - atan(1/x), past
 * tan(pi/8) as pi/4 + atan((x - 1)/(x + 1)), then halved once more by
 * atan(y) = 2 atan(y / (1 + sqrt(1 + y^2))) to |z| < 0.2, where the odd
 * series to z^23 leaves less than 1e-17. */
__device__ double rnd_atan(double x)
{
    double off = 0.0, sg = 1.0, z, z2, p;
    if (x > 1.0) {
        off = 1.5707963267948966;
        sg = -1.0;
        x = 1.0 / x;
    }
    if (x > 0.41421356237309503) {
        off = off + sg * 0.78539816339744831;
        x = (x - 1.0) / (x + 1.0);
    }
    z = x / (1.0 + sqrt(1.0 + x * x));
    z2 = z * z;
    p = rnd_poly7(z2, -1.0 / 23.0, 1.0 / 21.0, -1.0 / 19.0, 1.0 / 17.0,
                  -1.0 / 15.0, 1.0 / 13.0, -1.0 / 11.0, 1.0 / 9.0);
    p = ((((p * z2 - 1.0 / 7.0) * z2 + 1.0 / 5.0) * z2 - 1.0 / 3.0) * z2 +
         1.0) * z;
    return off + sg * (p + p);
}

/* acos(w) for w in [-1, 1] (a rounding past either end: the end), as
 * 2 atan(sqrt((1 - w) / (1 + w))): 1 - w is exact near 1 and 1 + w near
 * -1, where acos is steepest. */
__device__ __forceinline__ double rnd_acos(double w)
{
    if (w >= 1.0)
        return 0.0;
    if (w <= -1.0)
        return 3.14159265358979323846;
    return 2.0 * rnd_atan(sqrt((1.0 - w) / (1.0 + w)));
}

/* The standard normal quantile of p in (0, 1): Wichura's AS241 (PPND16),
 * relative error about 1e-16. */
__device__ double rnd_ppnd(double p)
{
    double q = p - 0.5, r, num, den, x;
    if (q <= 0.425 && q >= -0.425) {
        r = 0.180625 - q * q;
        num = rnd_poly7(r, 2.5090809287301226727e+3, 3.3430575583588128105e+4,
                        6.7265770927008700853e+4, 4.5921953931549871457e+4,
                        1.3731693765509461125e+4, 1.9715909503065514427e+3,
                        1.3314166789178437745e+2, 3.3871328727963666080e+0);
        den = rnd_poly7(r, 5.2264952788528545610e+3, 2.8729085735721942674e+4,
                        3.9307895800092710610e+4, 2.1213794301586595867e+4,
                        5.3941960214247511077e+3, 6.8718700749205790830e+2,
                        4.2313330701600911252e+1, 1.0);
        return num * q / den;
    }
    r = q < 0.0 ? p : 1.0 - p;
    r = sqrt(-rnd_log(r));
    if (r <= 5.0) {
        r = r - 1.6;
        num = rnd_poly7(r, 7.74545014278341407640e-4, 2.27238449892691845833e-2,
                        2.41780725177450611770e-1, 1.27045825245236838258e+0,
                        3.64784832476320460504e+0, 5.76949722146069140550e+0,
                        4.63033784615654529590e+0, 1.42343711074968357734e+0);
        den = rnd_poly7(r, 1.05075007164441684324e-9, 5.47593808499534494600e-4,
                        1.51986665636164571966e-2, 1.48103976427480074590e-1,
                        6.89767334985100004550e-1, 1.67638483018380384940e+0,
                        2.05319162663775882187e+0, 1.0);
    } else {
        r = r - 5.0;
        num = rnd_poly7(r, 2.01033439929228813265e-7, 2.71155556874348757815e-5,
                        1.24266094738807843860e-3, 2.65321895265761230930e-2,
                        2.96560571828504891230e-1, 1.78482653991729133580e+0,
                        5.46378491116411436990e+0, 6.65790464350110377720e+0);
        den = rnd_poly7(r, 2.04426310338993978564e-15, 1.42151175831644588870e-7,
                        1.84631831751005468180e-5, 7.86869131145613259100e-4,
                        1.48753612908506148525e-2, 1.36929880922735805310e-1,
                        5.99832206555887937690e-1, 1.0);
    }
    x = num / den;
    return q < 0.0 ? -x : x;
}

/* Single precision, for float32 normals and exponentials: float
 * arithmetic runs at twice the double rate or more (64 times on the H100
 * and H200, whose float32 normal fill was bound by double arithmetic),
 * and a float32 result needs no more. */

/* log(x) for a normal float x > 0 (the callers' x is at least 2^-24), as
 * rnd_log with fdlibm's single-precision coefficients. */
__device__ __forceinline__ float rnd_logf(float x)
{
    int bits = __float_as_int(x), ex = ((bits >> 23) & 0xff) - 127;
    float m = __int_as_float((bits & 0x007fffff) | 0x3f800000), f, s, z, w,
          r, hfsq, k;
    RND_LOG_TAIL(float, 1.41421356f,
                 z * (6.6666662693e-01f + w * 2.8498786688e-01f) +
                 w * (4.0000972152e-01f + w * 2.4279078841e-01f),
                 6.9313812256e-01f, 9.0580006145e-06f);
}

/* exp(x) for float x in [-87, 0]: x = k ln2 + r, |r| <= ln2/2 (ln2 split
 * as rnd_logf's, so k ln2 loses nothing), e^r by its Taylor series to
 * r^7, then 2^k by the exponent bits. */
__device__ __forceinline__ float rnd_expf(float x)
{
    const float k = rintf(x * 1.44269502f);
    const float r = (x - k * 6.9313812256e-01f) - k * 9.0580006145e-06f;
    const float p =
        1.0f + r * (1.0f + r * (0.5f + r * (1.6666667163e-01f +
                                          r * (4.1666667908e-02f +
                                               r * (8.3333337680e-03f +
                                                    r * (1.3888889225e-03f +
                                                         r * 1.9841270114e-04f))))));
    return p * __int_as_float(((int)k + 127) << 23);
}
