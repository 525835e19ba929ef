/* A polynomial at one x by Horner's rule: c holds n rows of m columns,
 * row k the coefficient of x**k, and `col` picks this output's column
 * (the trailing dimensions of numpy.polynomial's coefficient arrays). The
 * accumulator starts at 0 and takes every step, 0 * x + c[n - 1] first,
 * as NumPy's loop does, so an infinite x gives NumPy's NaN. One kernel for
 * the whole evaluation instead of two ufunc launches a coefficient. */
/* operation */
T acc = (T)0;
long long k;
for (k = n - 1; k >= 0; k--)
    acc = acc * x + c[k * m + col];
y = acc;
