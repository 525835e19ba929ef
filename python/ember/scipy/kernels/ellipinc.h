/* Legendre's incomplete elliptic integrals F(phi | m) and E(phi | m) of
 * the first and second kind, in double, over Carlson's R_F and R_D
 * (carlson.h), with SciPy's conventions (scipy.special.ellipkinc and
 * ellipeinc, the parameter m = k^2):
 *
 * - any real phi: phi = phi_r + n pi/2 with n even and |phi_r| <= pi/2
 *   (n from floor(phi / (pi/2)), rounded up to even, as SciPy's does, so
 *   that large phi reduce alike), F = F(phi_r) + n K(m), E = E(phi_r) +
 *   n E(m), F and E odd in phi_r;
 * - m < 0 as it is (1 - m sin^2 stays positive), m > 1 NaN (SciPy's,
 *   even where sin^2 phi <= 1 / m would give a real value), m = 1 F =
 *   asinh(tan phi) for |phi| < pi/2 and +inf beyond (SciPy's, for either
 *   sign of phi), E = sin phi_r + n;
 * - m = 0 returns phi itself, an infinite phi returns phi, m = -inf is
 *   F = 0 and E = +inf for a finite phi (NaN for F at an infinite one);
 *   NaN in, NaN out.
 *
 * Inside [0, pi/2], with s = sin phi, c = cos phi and delta^2 = 1 - m s^2
 * formed as c^2 + (1 - m) s^2 (no cancellation as m s^2 nears 1):
 * F = s R_F(c^2, delta^2, 1) (DLMF 19.25.5); E for m < 0 is s R_F(c^2,
 * delta^2, 1) - m/3 s^3 R_D(c^2, delta^2, 1), two positive terms, and for
 * 0 < m < 1 DLMF 19.25.9's (1 - m) s R_F(c^2, delta^2, 1) + m (1 - m) / 3
 * s^3 R_D(c^2, 1, delta^2) + m s c / delta, three positive terms where
 * the first form would subtract two large ones near phi = pi/2, m = 1. */

#define EMBER_PIO2 1.5707963267948966

/* phi's even multiple n of pi/2 and the rest phi - n pi/2 (SciPy's
 * reduction). */
__device__ double ember_ellip_reduce(double phi, double *n)
{
    double k = floor(phi / EMBER_PIO2);
    if (fmod(fabs(k), 2.0) == 1.0)
        k += 1;
    *n = k;
    return phi - k * EMBER_PIO2;
}

/* F(phi | m) for 0 <= phi <= pi/2 given as s = sin phi, c = cos phi. */
__device__ double ember_ellipf_base(double s, double c, double m)
{
    return s * ember_rf(c * c, c * c + (1 - m) * s * s, 1);
}

/* E(phi | m) for 0 <= phi <= pi/2 given as s = sin phi, c = cos phi. */
__device__ double ember_ellipe_base(double s, double c, double m)
{
    double c2 = c * c, m1 = 1 - m, d2 = c2 + m1 * s * s;
    if (m == 1)
        return s;
    if (m < 0)
        return s * ember_rf(c2, d2, 1) -
               m / 3 * s * s * s * ember_rd(c2, d2, 1);
    return m1 * s * ember_rf(c2, d2, 1) +
           m * m1 / 3 * s * s * s * ember_rd(c2, 1, d2) + m * s * c / sqrt(d2);
}

__device__ double ember_ellipkinc(double phi, double m)
{
    double inf = 1e308 * 10, nan = inf - inf, n, r, f;
    if (phi != phi || m != m || m > 1)
        return nan;
    if (phi == inf || phi == -inf)
        return m == -inf ? nan : phi;
    if (m == -inf)
        return 0;
    if (m == 0)
        return phi;
    if (m == 1)
        return fabs(phi) >= EMBER_PIO2 ? inf : asinh(tan(phi));
    r = ember_ellip_reduce(phi, &n);
    f = ember_ellipf_base(sin(fabs(r)), cos(fabs(r)), m);
    if (r < 0)
        f = -f;
    return n != 0 ? f + n * ember_ellipf_base(1, 0, m) : f;
}

__device__ double ember_ellipeinc(double phi, double m)
{
    double inf = 1e308 * 10, nan = inf - inf, n, r, e;
    if (phi != phi || m != m || m > 1)
        return nan;
    if (phi == inf || phi == -inf)
        return phi;
    if (m == -inf)
        return inf;
    if (m == 0)
        return phi;
    r = ember_ellip_reduce(phi, &n);
    e = ember_ellipe_base(sin(fabs(r)), cos(fabs(r)), m);
    if (r < 0)
        e = -e;
    return n != 0 ? e + n * ember_ellipe_base(1, 0, m) : e;
}
