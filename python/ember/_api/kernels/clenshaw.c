/* A series at one x by Clenshaw's recurrence, `basis` picking the basis:
 * 1 Chebyshev T_k, 2 Legendre P_k, 3 Hermite H_k, 4 HermiteE He_k,
 * 5 Laguerre L_k; each in the order and grouping of NumPy's chebval,
 * legval, hermval, hermeval and lagval, so values agree to rounding: c
 * holds n rows of m columns, row k the coefficient of B_k, and `col`
 * picks this output's column. One kernel for the evaluation instead of
 * several launches a term. The loop counter is k: i is the element index
 * the kernel stores through. */
/* operation */
T c0, c1, t, x2 = (T)2 * x;
long long k, nd = n;
if (n == 1) {
    c0 = c[col];
    c1 = (T)0;
} else {
    c0 = c[(n - 2) * m + col];
    c1 = c[(n - 1) * m + col];
}
for (k = n - 3; k >= 0; k--) {
    t = c0;
    if (basis == 1) {
        c0 = c[k * m + col] - c1;
        c1 = t + c1 * x2;
    } else if (basis == 2) {
        nd--;
        c0 = c[k * m + col] - (c1 * (T)(nd - 1)) / (T)nd;
        c1 = t + (c1 * x * (T)(2 * nd - 1)) / (T)nd;
    } else if (basis == 3) {
        nd--;
        c0 = c[k * m + col] - c1 * (T)(2 * (nd - 1));
        c1 = t + c1 * x2;
    } else if (basis == 4) {
        nd--;
        c0 = c[k * m + col] - c1 * (T)(nd - 1);
        c1 = t + c1 * x;
    } else {
        nd--;
        c0 = c[k * m + col] - (c1 * (T)(nd - 1)) / (T)nd;
        c1 = t + (c1 * ((T)(2 * nd - 1) - x)) / (T)nd;
    }
}
/* the last step's B_1: x, 2x for H, 1 - x for L */
if (basis == 3)
    y = c0 + c1 * x2;
else if (basis == 5)
    y = c0 + c1 * ((T)1 - x);
else
    y = c0 + c1 * x;
