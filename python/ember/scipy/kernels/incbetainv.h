/* The inverse in x of the regularized incomplete beta function I_x(a, b)
 * (incbeta.h), in double. The start is Abramowitz and Stegun 26.5.22
 * (the normal quantile through Hastings' rational approximation 26.2.22,
 * then x = a / (a + b e^(2w))) for a, b >= 1; below that the two tails'
 * leading terms, I ~ x^a / (a B) and 1 - I ~ (1-x)^b / (b B) with B
 * weighed as their sum at x = a / (a + b). Then Newton's iteration with
 * the derivative x^(a-1) (1-x)^(b-1) / B. SciPy's edges: NaN for a or b <= 0 or both infinite, y outside [0, 1];
 * 0 and 1 at y = 0 and 1; 1 for an infinite a, 0 for an infinite b. */
/* Newton's iteration on log I_x = log y in log x (I's left tail is
 * linear there, I ~ c x^a), from x inside the bracket (0, 1) that each
 * residual narrows (a step outside halves it instead). */
__device__ double ember_incbetainv_newton(double a, double b, double y,
                                          double x)
{
    double lo = 0, hi = 1, f, d, t, s;
    double lbeta = lgamma(a) + lgamma(b) - lgamma(a + b);
    int k;
    for (k = 0; k < 300; k++) {
        f = ember_incbeta(a, b, x);
        if (f == y)
            break;
        if (f > y)
            hi = x;
        else
            lo = x;
        d = exp((a - 1) * log(x) + (b - 1) * log1p(-x) - lbeta);
        t = x * exp(-log(f / y) * f / (x * d));
        if (!(t > lo && t < hi))
            t = lo == 0 ? 0.0625 * x : 0.5 * (lo + hi);
        s = fabs(t - x);
        x = t;
        if (s <= 1e-14 * x || hi - lo <= 1e-16 * hi)
            break;
    }
    return x;
}

/* I_x(a, b) = y for y <= 1/2, else 1 - x for I_(1-x)(b, a) = 1 - y, so
 * each solves the tail it computes to full relative accuracy */
__device__ double ember_incbetainv(double a, double b, double y)
{
    double inf = 1e308 * 10, nan = inf - inf;
    double x, t, u, w, h, lab, r, lbeta;
    if (a != a || b != b || y != y || a <= 0 || b <= 0 || y < 0 || y > 1 ||
        (a == inf && b == inf))
        return nan;
    if (y == 0 || y == 1)
        return y;
    if (a == inf)
        return 1;
    if (b == inf)
        return 0;
    lbeta = lgamma(a) + lgamma(b) - lgamma(a + b);
    if (a >= 1 && b >= 1) {
        r = y < 0.5 ? y : 1 - y;
        t = sqrt(-2 * log(r));
        u = (2.30753 + t * 0.27061) / (1 + t * (0.99229 + t * 0.04481)) - t;
        if (y < 0.5)
            u = -u;
        lab = (u * u - 3) / 6;
        h = 2 / (1 / (2 * a - 1) + 1 / (2 * b - 1));
        w = u * sqrt(lab + h) / h -
            (1 / (2 * b - 1) - 1 / (2 * a - 1)) * (lab + 5.0 / 6 - 2 / (3 * h));
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
    if (!(x > 0 && x < 1))
        x = 0.5;
    if (y <= 0.5)
        return ember_incbetainv_newton(a, b, y, x);
    return 1 - ember_incbetainv_newton(b, a, 1 - y, 1 - x);
}
