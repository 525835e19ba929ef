/* horner.c for complex values, kept as their real and imaginary parts
 * (ElementwiseKernel binds no complex dtype): the product is NumPy's
 * (ar xr - ai xi) + i (ar xi + ai xr) at every step. */
/* operation */
T ar = (T)0, ai = (T)0, t;
long long k, j;
for (k = n - 1; k >= 0; k--) {
    j = k * m + col;
    t = ar * xr - ai * xi + cr[j];
    ai = ar * xi + ai * xr + ci[j];
    ar = t;
}
yr = ar;
yi = ai;
