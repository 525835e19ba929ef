/* The regularized incomplete beta function I_x(a, b) in double, for
 * ember.scipy.special's three-argument functions (ElementwiseKernels:
 * ember's ufuncs take two inputs). Lentz's method on the continued
 * fraction of I_x(a, b) (Abramowitz and Stegun 26.5.8) where x < (a + 1)
 * / (a + b + 2), else 1 - I_(1-x)(b, a); the prefactor x^a (1-x)^b /
 * (a B(a, b)) from pow and tgamma while they stay in range (each to an
 * ulp or so), else as one exponential of logarithms. SciPy's answers at
 * the ends: NaN outside a, b >= 0 (and at a = b = 0) and 0 <= x <= 1; a
 * = 0 is 1 past x = 0, b = 0 is 0 before x = 1. */
/* log B(a, b) for a, b > 0. Where the larger argument b is 10 or more,
 * lgamma(b) - lgamma(a + b) comes from Stirling's series, whose large
 * terms cancel in closed form: the plain difference loses lgamma's size in
 * digits (lgamma(1e4) is 8.2e4 where log B(2, 1e4) is -18.4, 5e-13 of it
 * lost, more through CUDA's lgamma). ember_stirling_w is lgamma(x) less
 * (x - 1/2) log x - x + log(2 pi) / 2, to 3e-17 for x >= 10. */
__device__ double ember_stirling_w(double x)
{
    double r = 1 / x, r2 = r * r;
    return r * (1.0 / 12 - r2 * (1.0 / 360 - r2 * (1.0 / 1260 - r2 *
           (1.0 / 1680 - r2 * (1.0 / 1188 - r2 * (691.0 / 360360 -
           r2 * (1.0 / 156)))))));
}

__device__ double ember_lbeta(double a, double b)
{
    double t, c;
    if (a > b) {
        t = a;
        a = b;
        b = t;
    }
    if (!(b >= 10))
        return lgamma(a) + lgamma(b) - lgamma(a + b);
    c = a + b;
    return lgamma(a) + (b - 0.5) * log1p(-a / c) - a * log(c) + a +
           (ember_stirling_w(b) - ember_stirling_w(c));
}

__device__ double ember_incbeta_cf(double a, double b, double x, double y)
{
    const double tiny = 1e-300;
    double c = 1, d, h, aa, del, f, px, py, g;
    int m;
    px = pow(x, a);
    py = pow(y, b);
    g = a + b < 170 ? tgamma(a + b) / (tgamma(a) * tgamma(b)) : 0;
    if (g > 0 && px > 1e-290 && py > 1e-290 && g < 1e290 &&
        px * py < 1e290 / g)
        f = px * py * g / a;
    else
        f = exp(a * log(x) + b * (y < 0.5 ? log(y) : log1p(-x)) -
                ember_lbeta(a, b)) / a;
    d = 1 - (a + b) * x / (a + 1);
    if (fabs(d) < tiny)
        d = tiny;
    d = 1 / d;
    h = d;
    for (m = 1; m < 10000; m++) {
        aa = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
        d = 1 + aa * d;
        if (fabs(d) < tiny)
            d = tiny;
        c = 1 + aa / c;
        if (fabs(c) < tiny)
            c = tiny;
        d = 1 / d;
        h *= d * c;
        aa = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
        d = 1 + aa * d;
        if (fabs(d) < tiny)
            d = tiny;
        c = 1 + aa / c;
        if (fabs(c) < tiny)
            c = tiny;
        d = 1 / d;
        del = d * c;
        h *= del;
        if (fabs(del - 1) < 1e-16)
            break;
    }
    return f * h;
}

__device__ double ember_incbeta(double a, double b, double x)
{
    double inf = 1e308 * 10, nan = inf - inf;
    if (a != a || b != b || x != x || a < 0 || b < 0 || x < 0 || x > 1 ||
        (a == 0 && b == 0))
        return nan;
    if (a == inf && b == inf)
        return nan;
    if (a == 0)
        return x > 0 ? 1 : 0;
    if (b == 0)
        return x < 1 ? 0 : 1;
    if (x == 0 || x == 1)
        return x;
    if (a == inf)
        return b == a ? nan : 0;
    if (b == inf)
        return 1;
    /* a tiny b puts I's mass at x = 1, where 1 - I_(1-x)(b, a) would
     * cancel: its fraction converges there unflipped */
    if (x < (a + 1) / (a + b + 2) || (b < 0.05 && a >= 1))
        return ember_incbeta_cf(a, b, x, 1 - x);
    return 1 - ember_incbeta_cf(b, a, 1 - x, x);
}
