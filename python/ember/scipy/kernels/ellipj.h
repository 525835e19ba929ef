/* Jacobi's elliptic functions sn, cn, dn and the amplitude ph of u for
 * the parameter m, in double, for scipy.special.ellipj: the descending
 * Landen (arithmetic-geometric mean) transformation of Abramowitz and
 * Stegun 16.4. The means a_i, b_i and c_i = (a_(i-1) - b_(i-1)) / 2 run
 * from (1, sqrt(1 - m), sqrt(m)) until c_N / a_N is below 1e-16; then
 * phi_N = 2^N a_N u and phi_(i-1) = (phi_i + asin(c_i / a_i sin phi_i)) /
 * 2 down to the amplitude phi_0: sn = sin phi_0, cn = cos phi_0. dn is
 * sqrt(cn^2 + (1 - m) sn^2), a sum of two squares, rather than A&S's cn /
 * cos(phi_1 - phi_0), a quotient of two small numbers near u = K.
 *
 * SciPy's domain: NaN (all four) for m < 0, m > 1, an infinite or NaN u
 * or a NaN m. At m = 1 the limits in closed form: sn = tanh u, cn = dn =
 * sech u, ph = atan(sinh u) (SciPy overflows to NaN past |u| ~ 710;
 * these keep their limits 1, 0, 0, pi/2). */

__device__ void ember_ellipj(double u, double m, double *sn, double *cn,
                             double *dn, double *ph)
{
    double inf = 1e308 * 10, nan = inf - inf;
    double a = 1, b, c, t, phi, s, ratio[40];
    int n = 0, i;
    if (u != u || m != m || m < 0 || m > 1 || u == inf || u == -inf) {
        *sn = *cn = *dn = *ph = nan;
        return;
    }
    if (m == 1) {
        *sn = tanh(u);
        *cn = *dn = 1 / cosh(u);
        *ph = atan(sinh(u));
        return;
    }
    b = sqrt(1 - m);
    c = sqrt(m);
    while (c > 1e-16 * a && n < 39) {
        t = (a + b) / 2;
        c = (a - b) / 2;
        b = sqrt(a * b);
        a = t;
        ratio[++n] = c / a;
    }
    phi = ldexp(a * u, n);
    for (i = n; i >= 1; i--)
        phi = (phi + asin(ratio[i] * sin(phi))) / 2;
    s = sin(phi);
    t = cos(phi);
    *sn = s;
    *cn = t;
    *dn = sqrt(t * t + (1 - m) * s * s);
    *ph = phi;
}
