/* clenshaw.c for complex values kept as real and imaginary parts
 * (ElementwiseKernel binds no complex dtype); products by x are NumPy's
 * complex products, the Legendre scalings are by real integers. */
/* operation */
T ar, ai, br, bi, tr, ti, pr, pim;
long long k, j, nd = n;
if (n == 1) {
    ar = cr[col]; ai = ci[col];
    br = (T)0; bi = (T)0;
} else {
    ar = cr[(n - 2) * m + col]; ai = ci[(n - 2) * m + col];
    br = cr[(n - 1) * m + col]; bi = ci[(n - 1) * m + col];
}
for (k = n - 3; k >= 0; k--) {
    j = k * m + col;
    tr = ar; ti = ai;
    if (basis == 1) {
        ar = cr[j] - br; ai = ci[j] - bi;
        /* c1 * (2x) */
        pr = br * ((T)2 * xr) - bi * ((T)2 * xi);
        pim = br * ((T)2 * xi) + bi * ((T)2 * xr);
        br = tr + pr; bi = ti + pim;
    } else {
        nd--;
        ar = cr[j] - (br * (T)(nd - 1)) / (T)nd;
        ai = ci[j] - (bi * (T)(nd - 1)) / (T)nd;
        pr = br * xr - bi * xi;
        pim = br * xi + bi * xr;
        br = tr + (pr * (T)(2 * nd - 1)) / (T)nd;
        bi = ti + (pim * (T)(2 * nd - 1)) / (T)nd;
    }
}
yr = ar + (br * xr - bi * xi);
yi = ai + (br * xi + bi * xr);
