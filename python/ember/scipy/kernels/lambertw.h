/* The Lambert W function, branch k, of complex z = zr + i zi in double
 * (scipy.special.lambertw), after Corless, Gonnet, Hare, Jeffrey and
 * Knuth, "On the Lambert W function" (1996): Halley's iteration on
 * w e^w = z from the series at the branch point -1/e in p = +-sqrt(2 (e z
 * + 1)), -1 + p - p^2/3 + 11/72 p^3 (the sign picks the branch: + for k =
 * 0, - for k = -1 from z's upper side and k = 1 from its lower side, the
 * real axis's zero as SciPy signs it), from the asymptotic L1 - L2 + L2 /
 * L1 (L1 = log z + 2 pi i k, L2 = log L1) elsewhere, and near 0 on the
 * principal branch from the Pade form z (2 + z) / (2 + 3 z) or log(1 +
 * z). The iteration stops when a step is below tol relative to w. */
struct ember_cx { double r, i; };

__device__ ember_cx ember_cx_make(double r, double i)
{
    ember_cx c;
    c.r = r;
    c.i = i;
    return c;
}

__device__ ember_cx ember_cx_mul(ember_cx a, ember_cx b)
{
    return ember_cx_make(a.r * b.r - a.i * b.i, a.r * b.i + a.i * b.r);
}

/* Smith's division, free of the overflow of |b|^2 */
__device__ ember_cx ember_cx_div(ember_cx a, ember_cx b)
{
    double t, d;
    if (fabs(b.r) >= fabs(b.i)) {
        t = b.i / b.r;
        d = b.r + b.i * t;
        return ember_cx_make((a.r + a.i * t) / d, (a.i - a.r * t) / d);
    }
    t = b.r / b.i;
    d = b.r * t + b.i;
    return ember_cx_make((a.r * t + a.i) / d, (a.i * t - a.r) / d);
}

__device__ ember_cx ember_cx_log(ember_cx a)
{
    return ember_cx_make(log(hypot(a.r, a.i)), atan2(a.i, a.r));
}

__device__ ember_cx ember_cx_exp(ember_cx a)
{
    double m = exp(a.r);
    return ember_cx_make(m * cos(a.i), m * sin(a.i));
}

__device__ ember_cx ember_cx_sqrt(ember_cx a)
{
    double m = sqrt(0.5 * (hypot(a.r, a.i) + fabs(a.r)));
    if (m == 0)
        return ember_cx_make(0, 0);
    if (a.r >= 0)
        return ember_cx_make(m, 0.5 * a.i / m);
    return ember_cx_make(0.5 * fabs(a.i) / m, a.i < 0 ? -m : m);
}

__device__ ember_cx ember_lambertw_start(ember_cx z, long long k)
{
    const double pi = 3.14159265358979323846;
    /* z + 1/e with 1/e in two parts, so the branch point cancels
     * exactly */
    ember_cx d = ember_cx_make(z.r + 0.36787944117144233 -
                               1.2428753672788363e-17, z.i);
    ember_cx p, w, l1, l2;
    /* SciPy's sides: k = -1 takes the real branch at either zero, k = 1
     * at -0 only */
    int up = z.i >= 0, down = z.i < 0 || (z.i == 0 && signbit(z.i));
    double near = hypot(d.r, d.i) < 0.3;
    if (near && (k == 0 || (k == -1 && up) || (k == 1 && down))) {
        p = ember_cx_sqrt(ember_cx_make(2 * 2.718281828459045 * d.r,
                                        2 * 2.718281828459045 * d.i));
        if (k != 0)
            p = ember_cx_make(-p.r, -p.i);
        /* -1 + p - p^2/3 + 11/72 p^3 by Horner */
        w = ember_cx_make(11.0 / 72 * p.r - 1.0 / 3, 11.0 / 72 * p.i);
        w = ember_cx_mul(w, p);
        w = ember_cx_mul(ember_cx_make(w.r + 1, w.i), p);
        return ember_cx_make(w.r - 1, w.i);
    }
    if (k == 0 && hypot(z.r, z.i) < 0.5)
        return ember_cx_div(ember_cx_mul(z, ember_cx_make(2 + z.r, z.i)),
                            ember_cx_make(2 + 3 * z.r, 3 * z.i));
    /* log(1 + z) follows W_0 wherever 1 + z keeps clear of 0 */
    if (k == 0 && hypot(z.r, z.i) < 3 && hypot(1 + z.r, z.i) >= 0.5)
        return ember_cx_log(ember_cx_make(1 + z.r, z.i));
    /* the real lower branch on (-1/e, 0): the real asymptotic form */
    if (z.i == 0 && z.r < 0 && d.r > 0 &&
        ((k == -1 && up) || (k == 1 && down))) {
        double a = log(-z.r), b = log(-a);
        return ember_cx_make(a - b + b / a, 0);
    }
    l1 = ember_cx_log(z);
    l1.i += 2 * pi * (double)k;
    l2 = ember_cx_log(l1);
    w = ember_cx_div(l2, l1);
    return ember_cx_make(l1.r - l2.r + w.r, l1.i - l2.i + w.i);
}

__device__ void ember_lambertw(double zr, double zi, long long k, double tol,
                               double *wr, double *wi)
{
    const double pi = 3.14159265358979323846;
    double inf = 1e308 * 10;
    ember_cx z = ember_cx_make(zr, zi), w, ew, f, wp1, den, s;
    int n;
    if (zr != zr || zi != zi) {
        *wr = zr;
        *wi = zi;
        return;
    }
    /* SciPy's: z + 2 pi k i at +inf, -z + (2 k + 1) pi i at -inf */
    if (zr == inf || zr == -inf) {
        *wr = inf;
        *wi = (zr < 0 ? pi - zi : zi) + 2 * pi * (double)k;
        return;
    }
    if (zi == inf || zi == -inf) {
        *wr = inf;
        *wi = atan2(zi, zr) + 2 * pi * (double)k;
        return;
    }
    if (zr == 0 && zi == 0) {
        *wr = k == 0 ? zr : -inf;
        *wi = k == 0 ? zi : 0;
        return;
    }
    w = ember_lambertw_start(z, k);
    for (n = 0; n < 100; n++) {
        ew = ember_cx_exp(w);
        f = ember_cx_mul(w, ew);
        f = ember_cx_make(f.r - z.r, f.i - z.i);
        if (f.r == 0 && f.i == 0)
            break;
        wp1 = ember_cx_make(w.r + 1, w.i);
        /* e^w (w + 1) - (w + 2) f / (2 (w + 1)) */
        den = ember_cx_div(ember_cx_mul(ember_cx_make(w.r + 2, w.i), f),
                           ember_cx_make(2 * wp1.r, 2 * wp1.i));
        s = ember_cx_mul(ew, wp1);
        den = ember_cx_make(s.r - den.r, s.i - den.i);
        s = ember_cx_div(f, den);
        if (s.r != s.r || s.i != s.i)
            break;
        w = ember_cx_make(w.r - s.r, w.i - s.i);
        if (hypot(s.r, s.i) <= tol * hypot(w.r, w.i))
            break;
    }
    *wr = w.r;
    *wi = w.i;
}
