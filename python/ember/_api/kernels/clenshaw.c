/* A Chebyshev (basis 1) or Legendre (basis 2) series at one x by
 * Clenshaw's recurrence, in the order and grouping of NumPy's chebval and
 * legval, so values agree to rounding: c holds n rows of m columns, row k
 * the coefficient of T_k or P_k, and `col` picks this output's column.
 * One kernel for the evaluation instead of several launches a term. The
 * loop counter is k: i is the element index the kernel stores through. */
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
    } else {
        nd--;
        c0 = c[k * m + col] - (c1 * (T)(nd - 1)) / (T)nd;
        c1 = t + (c1 * x * (T)(2 * nd - 1)) / (T)nd;
    }
}
y = c0 + c1 * x;
