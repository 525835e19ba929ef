/* clenshaw.c for complex values kept as real and imaginary parts
 * (ElementwiseKernel binds no complex dtype); products by x (or by
 * 2x, 2n - 1 - x, 1 - x) are NumPy's complex products, the other
 * scalings are by real integers. */
/* operation */
T ar, ai, br, bi, tr, ti, pr, pim, ur, ui, s;
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
    if (basis == 1 || basis == 3) {
        if (basis == 1) {
            ar = cr[j] - br; ai = ci[j] - bi;
        } else {
            nd--;
            s = (T)(2 * (nd - 1));
            ar = cr[j] - br * s; ai = ci[j] - bi * s;
        }
        /* c1 * (2x) */
        pr = br * ((T)2 * xr) - bi * ((T)2 * xi);
        pim = br * ((T)2 * xi) + bi * ((T)2 * xr);
        br = tr + pr; bi = ti + pim;
    } else if (basis == 4) {
        nd--;
        s = (T)(nd - 1);
        ar = cr[j] - br * s; ai = ci[j] - bi * s;
        pr = br * xr - bi * xi;
        pim = br * xi + bi * xr;
        br = tr + pr; bi = ti + pim;
    } else if (basis == 2) {
        nd--;
        ar = cr[j] - (br * (T)(nd - 1)) / (T)nd;
        ai = ci[j] - (bi * (T)(nd - 1)) / (T)nd;
        pr = br * xr - bi * xi;
        pim = br * xi + bi * xr;
        br = tr + (pr * (T)(2 * nd - 1)) / (T)nd;
        bi = ti + (pim * (T)(2 * nd - 1)) / (T)nd;
    } else {
        nd--;
        ar = cr[j] - (br * (T)(nd - 1)) / (T)nd;
        ai = ci[j] - (bi * (T)(nd - 1)) / (T)nd;
        /* c1 * ((2 nd - 1) - x) */
        ur = (T)(2 * nd - 1) - xr; ui = -xi;
        pr = br * ur - bi * ui;
        pim = br * ui + bi * ur;
        br = tr + pr / (T)nd;
        bi = ti + pim / (T)nd;
    }
}
/* the last step's B_1: x, 2x for H, 1 - x for L */
if (basis == 3) {
    ur = (T)2 * xr; ui = (T)2 * xi;
} else if (basis == 5) {
    ur = (T)1 - xr; ui = -xi;
} else {
    ur = xr; ui = xi;
}
yr = ar + (br * ur - bi * ui);
yi = ai + (br * ui + bi * ur);
