/* The sine and cosine integrals Si, Ci and their hyperbolic kin Shi, Chi
 * of real x, in double, for scipy.special.sici and shichi.
 *
 * Si and Ci: for |x| <= 4 their power series (A&S 5.2.14, 5.2.16), whose
 * alternating terms stay below 2 there; beyond, the continued fraction
 * of E1(i x) = -Ci(x) + i (Si(x) - pi/2) (A&S 5.1.22 in its even form
 * 1 / (z + 1 - 1 / (z + 3 - 4 / (z + 5 - ...))), times e^-z), by
 * Lentz's method in complex arithmetic written out on pairs.
 *
 * Shi and Chi: for |x| <= 45 their series, every term positive (A&S
 * 5.2.18, 5.2.19); beyond, Ei's asymptotic series e^x / x sum k! / x^k,
 * whose smallest term there is below 1e-18 (Shi and Chi differ from
 * Ei / 2 by E1(x) / 2 < e^-45), with e^x taken in two halves so that
 * the result stays finite until it is past the largest double (x ~
 * 717.05; SciPy's overflows from x ~ 710.5).
 *
 * SciPy's answers for real x: Si and Shi odd; Ci(-x) and Chi(-x) are
 * Ci(x) and Chi(x) (the real part of the complex value, as SciPy's real
 * loop returns); at 0 Ci = Chi = -inf; Si(+-inf) = +-pi/2, Ci(inf) = 0,
 * Ci(-inf) NaN; Shi(+-inf) = +-inf, Chi(+-inf) = +inf. */

#define EMBER_EULER 0.57721566490153286061

/* 1 / (re + i im) by Smith's scaling, finite where re^2 + im^2 is not
 * (x ~ 1e300 puts |z| at 1e300) */
__device__ void ember_crecip(double re, double im, double *or_, double *oi)
{
    double r, t;
    if (fabs(re) >= fabs(im)) {
        r = im / re;
        t = 1 / (re + im * r);
        *or_ = t;
        *oi = -r * t;
    } else {
        r = re / im;
        t = 1 / (im + re * r);
        *or_ = r * t;
        *oi = -t;
    }
}

/* The power series at ax > 0 of Si and of Ci less gamma + log ax (sgn =
 * -1), or of Shi and Chi less the same (sgn = 1): one running term t =
 * sgn^k ax^(2k+1) / (2k+1)! gives both, t / (2k+1) to the sine integral
 * and t (2k+1) / (2k ax) to the cosine integral. */
__device__ void ember_sici_series(double ax, double sgn, int kmax,
                                  double *s, double *c)
{
    double x2 = ax * ax, t = ax;
    int k;
    *s = ax;
    *c = 0;
    for (k = 1; k < kmax; k++) {
        t *= sgn * x2 / ((2 * k) * (2 * k + 1));
        *c += t * (2 * k + 1) / (ax * 2 * k);
        *s += t / (2 * k + 1);
        if (fabs(t) < 1e-18 * fabs(*s))
            break;
    }
}

__device__ void ember_sici(double x, double *si, double *ci)
{
    const double pi = 3.14159265358979323846, tiny = 1e-300;
    double inf = 1e308 * 10, nan = inf - inf, ax = fabs(x), t, s, c;
    double br, bi, cr, ci_, dr, di, hr, hi, ar, er, ei, qr, qi;
    int k;
    if (x != x) {
        *si = *ci = nan;
        return;
    }
    if (ax == inf) {
        *si = x > 0 ? pi / 2 : -pi / 2;
        *ci = x > 0 ? 0 : nan;
        return;
    }
    if (x == 0) {
        *si = x;
        *ci = -inf;
        return;
    }
    if (ax <= 4) {
        ember_sici_series(ax, -1, 40, &s, &c);
        *si = x < 0 ? -s : s;
        *ci = EMBER_EULER + log(ax) + c;
        return;
    }
    /* b = z + 1, z = i ax; Lentz: c = b (as 1 / tiny + 0), d = 1 / b */
    br = 1;
    bi = ax;
    ember_crecip(br, bi, &dr, &di);
    cr = 1 / tiny;
    ci_ = 0;
    hr = dr;
    hi = di;
    for (k = 1; k < 1000; k++) {
        ar = -(double)k * k;
        br += 2;
        /* d = 1 / (a d + b) */
        ember_crecip(ar * dr + br, ar * di + bi, &dr, &di);
        /* c = b + a / c */
        ember_crecip(cr, ci_, &qr, &qi);
        cr = br + ar * qr;
        ci_ = bi + ar * qi;
        /* h *= c d */
        er = cr * dr - ci_ * di;
        ei = cr * di + ci_ * dr;
        qr = hr * er - hi * ei;
        hi = hr * ei + hi * er;
        hr = qr;
        if (fabs(er - 1) + fabs(ei) < 1e-16)
            break;
    }
    /* E1(i ax) = h e^(-i ax) */
    c = cos(ax);
    s = sin(ax);
    er = hr * c + hi * s;
    ei = hi * c - hr * s;
    *ci = -er;
    t = pi / 2 + ei;
    *si = x < 0 ? -t : t;
}

__device__ void ember_shichi(double x, double *shi, double *chi)
{
    double inf = 1e308 * 10, nan = inf - inf, ax = fabs(x), t, s, c, h;
    int k;
    if (x != x) {
        *shi = *chi = nan;
        return;
    }
    if (ax == inf) {
        *shi = x;
        *chi = inf;
        return;
    }
    if (x == 0) {
        *shi = x;
        *chi = -inf;
        return;
    }
    if (ax <= 45) {
        ember_sici_series(ax, 1, 200, &s, &c);
        *shi = x < 0 ? -s : s;
        *chi = EMBER_EULER + log(ax) + c;
        return;
    }
    /* sum k! / x^k to its smallest term (k ~ x) or to 1e-18 */
    s = 1;
    t = 1;
    for (k = 1; k < 200; k++) {
        h = t * k / ax;
        if (h >= t || h < 1e-18)
            break;
        t = h;
        s += t;
    }
    h = exp(ax / 2);
    s = h * (h / (2 * ax) * s);
    *shi = x < 0 ? -s : s;
    *chi = s;
}
