/* Carlson's symmetric elliptic integrals R_F, R_D, R_C, R_J and R_G of
 * real arguments, in double, for ember.scipy.special's elliprf ...
 * elliprg and the Legendre integrals over them (ellipinc.h).
 *
 * R_F, R_D, R_C and R_J by Carlson's duplication theorem (Carlson 1995,
 * "Numerical computation of real or complex elliptic integrals"; DLMF
 * 19.36): each step maps the arguments to (a + lambda) / 4, which draws
 * them together by a factor 4, until every argument is within 1e-3 of
 * their weighted mean A, where the degree-5 Taylor polynomial in the
 * relative deviations leaves an error of order 1e-3^6. R_J's steps add R_C
 * terms in Carlson's 1979 alpha/beta form, whose two arguments are sums of
 * positive terms (the e_m form's 1 + e_m cancels as p goes to 0).
 *
 * Arguments whose largest is outside 1e-60 .. 1e60 are first scaled by
 * a power of 4 (the integrals are homogeneous: R_F and R_C of degree
 * -1/2, R_D and R_J -3/2, R_G +1/2), so that lambda's products and R_J's
 * cubes stay in range; SciPy's library overflows there instead (R_F of
 * three 1e308 is NaN in SciPy 1.17, 1e-154 here).
 *
 * SciPy's answers outside the domain: NaN for a NaN or a negative
 * argument (R_J's and R_C's last argument may be negative: Cauchy's
 * principal value); an infinite argument makes R_F, R_D, R_C and R_J 0
 * and R_G infinite, except R_C(inf, y < 0), which is NaN; R_F, R_D and R_J
 * are infinite where two of x, y, z are 0 (R_D also where z is),
 * R_C is NaN at y = 0 and R_J at p = 0. */

#define EMBER_CARLSON_TOL 1e-3

/* The exponent k of the power of 4 that brings the largest argument mx
 * back to about 2^200 (or up to 2^-200), 0 where mx is within that range:
 * scaling no further keeps the smaller arguments from underflowing. */
__device__ int ember_carlson_scale(double mx)
{
    int e;
    if (mx > 1e-60 && mx < 1e60)
        return 0;
    frexp(mx, &e);
    return mx > 1 ? (e - 200) / 2 : (e + 200) / 2;
}

/* SciPy's library counts a subnormal x, y or z of R_F, R_D and R_J and
 * R_C's y as 0 (R_F(0, 1e-310, 1) is infinite there, as R_F(0, 0, 1);
 * a negative one is still negative, so NaN); so does ember, and R_J's p
 * likewise (NaN, as at p = 0; SciPy's answers for a subnormal p vary).
 * R_C's x and R_G's arguments are taken as they are, as SciPy's. */
__device__ double ember_carlson_flush(double a)
{
    return fabs(a) < 2.2250738585072014e-308 ? 0 : a;
}

__device__ double ember_max3(double a, double b, double c)
{
    double m = a > b ? a : b;
    return m > c ? m : c;
}

/* R_F of arguments >= 0 in range, at most one of them 0. */
__device__ double ember_rf_dup(double x, double y, double z)
{
    double a, dx, dy, dz, sx, sy, sz, lam, e2, e3;
    int n;
    for (n = 0; n < 100; n++) {
        a = (x + y + z) / 3;
        dx = (a - x) / a;
        dy = (a - y) / a;
        dz = (a - z) / a;
        if (ember_max3(fabs(dx), fabs(dy), fabs(dz)) < EMBER_CARLSON_TOL)
            break;
        sx = sqrt(x);
        sy = sqrt(y);
        sz = sqrt(z);
        lam = sx * (sy + sz) + sy * sz;
        x = (x + lam) / 4;
        y = (y + lam) / 4;
        z = (z + lam) / 4;
    }
    /* the deviations sum to 0: the third from the other two */
    dz = -(dx + dy);
    e2 = dx * dy - dz * dz;
    e3 = dx * dy * dz;
    return (1 - e2 / 10 + e3 / 14 + e2 * e2 / 24 - 3 * e2 * e3 / 44) /
           sqrt(a);
}

__device__ double ember_rf(double x, double y, double z)
{
    double inf = 1e308 * 10, nan = inf - inf;
    int k;
    if (x != x || y != y || z != z || x < 0 || y < 0 || z < 0)
        return nan;
    x = ember_carlson_flush(x);
    y = ember_carlson_flush(y);
    z = ember_carlson_flush(z);
    if (x == inf || y == inf || z == inf)
        return 0;
    k = ember_carlson_scale(ember_max3(x, y, z));
    x = ldexp(x, -2 * k);
    y = ldexp(y, -2 * k);
    z = ldexp(z, -2 * k);
    if ((x == 0) + (y == 0) + (z == 0) >= 2)
        return inf;
    return ldexp(ember_rf_dup(x, y, z), -k);
}

/* R_D of arguments >= 0 in range, z > 0, x or y > 0: the steps' terms
 * 4^-m / (sqrt(z_m) (z_m + lambda_m)), then the polynomial in the
 * deviations (z counted three times in the mean, as R_J(x, y, z, z)). */
__device__ double ember_rd_dup(double x, double y, double z)
{
    double a, dx, dy, dz, sx, sy, sz, lam, sum = 0, fac = 1;
    double xy, z2, e2, e3, e4, e5;
    int n;
    for (n = 0; n < 100; n++) {
        a = (x + y + 3 * z) / 5;
        dx = (a - x) / a;
        dy = (a - y) / a;
        dz = (a - z) / a;
        if (ember_max3(fabs(dx), fabs(dy), fabs(dz)) < EMBER_CARLSON_TOL)
            break;
        sx = sqrt(x);
        sy = sqrt(y);
        sz = sqrt(z);
        lam = sx * (sy + sz) + sy * sz;
        sum += fac / (sz * (z + lam));
        fac /= 4;
        x = (x + lam) / 4;
        y = (y + lam) / 4;
        z = (z + lam) / 4;
    }
    dz = -(dx + dy) / 3;
    xy = dx * dy;
    z2 = dz * dz;
    e2 = xy - 6 * z2;
    e3 = (3 * xy - 8 * z2) * dz;
    e4 = 3 * (xy - z2) * z2;
    e5 = xy * z2 * dz;
    return 3 * sum + fac * (1 - 3 * e2 / 14 + e3 / 6 + 9 * e2 * e2 / 88 -
                            3 * e4 / 22 - 9 * e2 * e3 / 52 + 3 * e5 / 26) /
                     (a * sqrt(a));
}

__device__ double ember_rd(double x, double y, double z)
{
    double inf = 1e308 * 10, nan = inf - inf;
    int k;
    if (x != x || y != y || z != z || x < 0 || y < 0 || z < 0)
        return nan;
    x = ember_carlson_flush(x);
    y = ember_carlson_flush(y);
    z = ember_carlson_flush(z);
    if (z == 0)
        return inf;
    if (x == inf || y == inf || z == inf)
        return 0;
    k = ember_carlson_scale(ember_max3(x, y, z));
    x = ldexp(x, -2 * k);
    y = ldexp(y, -2 * k);
    z = ldexp(z, -2 * k);
    if (z == 0 || (x == 0 && y == 0))
        return inf;
    return ldexp(ember_rd_dup(x, y, z), -3 * k);
}

/* R_C of x >= 0, y > 0 in range: its series in s = (y - A) / A to s^7
 * (Carlson 1995, (2.49)). */
__device__ double ember_rc_dup(double x, double y)
{
    double a, s, lam;
    int n;
    for (n = 0; n < 100; n++) {
        a = (x + 2 * y) / 3;
        s = (y - a) / a;
        if (fabs(s) < EMBER_CARLSON_TOL)
            break;
        lam = 2 * sqrt(x) * sqrt(y) + y;
        x = (x + lam) / 4;
        y = (y + lam) / 4;
    }
    return (1 + s * s * (3.0 / 10 + s * (1.0 / 7 + s * (3.0 / 8 + s *
            (9.0 / 22 + s * (159.0 / 208 + s * (9.0 / 8))))))) / sqrt(a);
}

__device__ double ember_rc(double x, double y)
{
    double inf = 1e308 * 10, nan = inf - inf, w = 1;
    int k;
    /* SciPy's order of the edge cases: y = 0 is NaN, an infinite x is 0
     * unless y < 0 (even for a NaN y), y = -inf is 0 for any x */
    y = ember_carlson_flush(y);
    if (y == 0)
        return nan;
    if (x == inf)
        return y < 0 ? nan : 0;
    if (y == -inf && x == x)
        return 0;
    if (x != x || y != y || x < 0)
        return nan;
    if (y == inf)
        return 0;
    if (y < 0) {
        /* Cauchy's principal value, DLMF 19.2.20: R_C(x, y) = sqrt(x / (x
         * - y)) R_C(x - y, -y), all of it positive */
        if (x == 0)
            return 0;
        w = sqrt(x) / sqrt(x - y);
        x -= y;
        y = -y;
    }
    k = ember_carlson_scale(x > y ? x : y);
    x = ldexp(x, -2 * k);
    y = ldexp(y, -2 * k);
    if (y == 0)
        return nan;
    return w * ldexp(ember_rc_dup(x, y), -k);
}

/* R_J of x, y, z >= 0 (at most one 0) and p > 0, in range. */
__device__ double ember_rj_dup(double x, double y, double z, double p)
{
    double a, dx, dy, dz, dp, sx, sy, sz, lam, al, be, sum = 0, fac = 1;
    double xyz, p2, e2, e3, e4, e5;
    int n;
    for (n = 0; n < 100; n++) {
        a = (x + y + z + 2 * p) / 5;
        dx = (a - x) / a;
        dy = (a - y) / a;
        dz = (a - z) / a;
        dp = (a - p) / a;
        if (ember_max3(fabs(dx), fabs(dy), fabs(dz)) < EMBER_CARLSON_TOL &&
            fabs(dp) < EMBER_CARLSON_TOL)
            break;
        sx = sqrt(x);
        sy = sqrt(y);
        sz = sqrt(z);
        lam = sx * (sy + sz) + sy * sz;
        al = p * (sx + sy + sz) + sx * sy * sz;
        be = p * (p + lam) * (p + lam);
        sum += fac * ember_rc_dup(al * al, be);
        fac /= 4;
        x = (x + lam) / 4;
        y = (y + lam) / 4;
        z = (z + lam) / 4;
        p = (p + lam) / 4;
    }
    dp = -(dx + dy + dz) / 2;
    xyz = dx * dy * dz;
    p2 = dp * dp;
    e2 = dx * dy + dx * dz + dy * dz - 3 * p2;
    e3 = xyz + 2 * e2 * dp + 4 * p2 * dp;
    e4 = (2 * xyz + e2 * dp + 3 * p2 * dp) * dp;
    e5 = xyz * p2;
    return 3 * sum + fac * (1 - 3 * e2 / 14 + e3 / 6 + 9 * e2 * e2 / 88 -
                            3 * e4 / 22 - 9 * e2 * e3 / 52 + 3 * e5 / 26) /
                     (a * sqrt(a));
}

__device__ double ember_rj(double x, double y, double z, double p)
{
    double inf = 1e308 * 10, nan = inf - inf, t, q, xz, pq;
    int k, big;
    if (x != x || y != y || z != z || x < 0 || y < 0 || z < 0)
        return nan;
    x = ember_carlson_flush(x);
    y = ember_carlson_flush(y);
    z = ember_carlson_flush(z);
    p = ember_carlson_flush(p);
    /* SciPy's order: p = 0 is NaN unless x, y or z is infinite; two zeros
     * among x, y, z make it infinite, even beside an infinite argument or
     * a NaN p */
    big = x == inf || y == inf || z == inf;
    if (p == 0)
        return big ? 0 : nan;
    if ((x == 0) + (y == 0) + (z == 0) >= 2)
        return inf;
    if (big || p == inf || p == -inf)
        return 0;
    if (p != p)
        return nan;
    k = ember_carlson_scale(ember_max3(x, y, z) > fabs(p) ?
                            ember_max3(x, y, z) : fabs(p));
    x = ldexp(x, -2 * k);
    y = ldexp(y, -2 * k);
    z = ldexp(z, -2 * k);
    p = ldexp(p, -2 * k);
    if ((x == 0) + (y == 0) + (z == 0) >= 2)
        return inf;
    if (p == 0)
        return nan;
    if (p > 0)
        return ldexp(ember_rj_dup(x, y, z, p), -3 * k);
    /* Cauchy's principal value for p < 0 (DLMF 19.20.14) from R_J at a
     * q > 0: with y the middle argument, q - y >= 0 and every term's
     * arguments are positive */
    if (x > y) { t = x; x = y; y = t; }
    if (y > z) { t = y; y = z; z = t; }
    if (x > y) { t = x; x = y; y = t; }
    q = y + (z - y) * (y - x) / (y - p);
    xz = x * z;
    pq = -p * q;
    t = (q - y) * ember_rj_dup(x, y, z, q) - 3 * ember_rf_dup(x, y, z);
    if (x > 0)
        t += 3 * sqrt(x) * sqrt(y) * sqrt(z) / sqrt(xz + pq) *
             ember_rc_dup(xz + pq, pq);
    return ldexp(t / (y - p), -3 * k);
}

/* R_G from R_F and R_D (DLMF 19.21.10) with z the middle argument, so
 * that -(x - z)(y - z) >= 0 and the three terms add without cancelling. */
__device__ double ember_rg(double x, double y, double z)
{
    double inf = 1e308 * 10, nan = inf - inf, t;
    int k;
    if (x != x || y != y || z != z || x < 0 || y < 0 || z < 0)
        return nan;
    if (x == inf || y == inf || z == inf)
        return inf;
    if (x > y) { t = x; x = y; y = t; }
    if (y > z) { t = y; y = z; z = t; }
    if (x > y) { t = x; x = y; y = t; }
    /* now x <= y <= z: y is the middle one */
    k = ember_carlson_scale(z);
    x = ldexp(x, -2 * k);
    y = ldexp(y, -2 * k);
    z = ldexp(z, -2 * k);
    /* R_G(0, 0, z) = sqrt(z) / 2, and a middle argument below 1e-30 z
     * changes that by under 1e-28 (R_D's terms would overflow first) */
    if (y <= 1e-30 * z)
        return ldexp(sqrt(z) / 2, k);
    t = y * ember_rf_dup(x, z, y) +
        (y - x) * (z - y) * ember_rd_dup(x, z, y) / 3 +
        sqrt(x) * sqrt(z) / sqrt(y);
    return ldexp(t / 2, k);
}
