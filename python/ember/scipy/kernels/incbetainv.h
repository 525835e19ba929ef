/* The inverse in x of the regularized incomplete beta function I_x(a, b)
 * (incbeta.h), in double. The start is Abramowitz and Stegun 26.5.22
 * (the normal quantile through Hastings' rational approximation 26.2.22,
 * then x = a / (a + b e^(2w))) for a, b >= 1; below that the two tails'
 * leading terms, I ~ x^a / (a B) and 1 - I ~ (1-x)^b / (b B) with B
 * weighed as their sum at x = a / (a + b). Then Newton's iteration with
 * the derivative x^(a-1) (1-x)^(b-1) / B. SciPy's edges: NaN for a or b
 * <= 0 or both infinite, y outside [0, 1]; 0 and 1 at y = 0 and 1; 1
 * for an infinite a, 0 for an infinite b. */
/* Newton's iteration on log I_x = log y in log x (I's left tail is
 * linear there, I ~ c x^a), from x inside the bracket (lo, hi) that each
 * residual narrows (a step outside halves it instead). */
__device__ double ember_incbetainv_newton(double a, double b, double y,
                                          double x, double lo, double hi)
{
    double f, d, t, s, r;
    double lbeta = ember_lbeta(a, b);
    int k;
    if (!(x > lo && x < hi))
        x = 0.5 * (lo + hi);
    for (k = 0; k < 300; k++) {
        f = ember_incbeta(a, b, x);
        if (f == y)
            break;
        if (f > y)
            hi = x;
        else
            lo = x;
        d = exp((a - 1) * log(x) + (b - 1) * log1p(-x) - lbeta);
        r = log(f / y);
        t = x * exp(-r * f / (x * d));
        /* a step out of the bracket, or a crawl far from the root (I flat
         * where b is tiny), halves the bracket instead */
        if (!(t > lo && t < hi) ||
            (fabs(r) > 0.1 && fabs(t - x) < 1e-3 * (hi - lo)))
            t = lo == 0 ? 0.0625 * x : 0.5 * (lo + hi);
        s = fabs(t - x);
        x = t;
        if ((s <= 1e-14 * x && fabs(r) < 1e-6) || hi - lo <= 4e-16 * hi)
            break;
    }
    return x;
}

/* I_x(a, b) = y where the root is at most 1/2 (y <= I_(1/2)) or the
 * target is (y < 1/2: 1 - y would lose y's digits), else 1 - x for
 * I_(1-x)(b, a) = 1 - y (1 - y exact there): each solve keeps its
 * target's digits and, where it can, its root's */
__device__ double ember_incbetainv(double a, double b, double y)
{
    double inf = 1e308 * 10, nan = inf - inf;
    double x, t, u, w, h, lab, r, m, lbeta;
    if (a != a || b != b || y != y || a <= 0 || b <= 0 || y < 0 || y > 1 ||
        (a == inf && b == inf))
        return nan;
    if (y == 0 || y == 1)
        return y;
    if (a == inf)
        return 1;
    if (b == inf)
        return 0;
    lbeta = ember_lbeta(a, b);
    if (a >= 1 && b >= 1) {
        r = y < 0.5 ? y : 1 - y;
        t = sqrt(-2 * log(r));
        u = (2.30753 + t * 0.27061) / (1 + t * (0.99229 + t * 0.04481)) - t;
        if (y < 0.5)
            u = -u;
        lab = (u * u - 3) / 6;
        h = 2 / (1 / (2 * a - 1) + 1 / (2 * b - 1));
        w = u * sqrt(lab + h) / h - (1 / (2 * b - 1) - 1 / (2 * a - 1)) *
                                        (lab + 5.0 / 6 - 2 / (3 * h));
        x = 2 * w < 700 ? a / (a + b * exp(2 * w)) : 0;
    } else {
        t = exp(a * log(a / (a + b)) - lbeta) / a;
        u = exp(b * log(b / (a + b)) - lbeta) / b;
        /* the tails' terms carry B: x^a = y a B */
        if (y < t / (t + u))
            x = exp((log(y * a) + lbeta) / a);
        else
            x = -expm1((log((1 - y) * b) + lbeta) / b);
    }
    m = ember_incbeta(a, b, 0.5);
    if (y <= m)
        return ember_incbetainv_newton(a, b, y, x, 0, 0.5);
    if (y < 0.5)
        return ember_incbetainv_newton(a, b, y, x, 0.5, 1);
    return 1 - ember_incbetainv_newton(b, a, 1 - y, 1 - x, 0, 0.5);
}
