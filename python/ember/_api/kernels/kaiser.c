/* NumPy's Kaiser window, element i of M (I0 from bessel_i0.h). */
/* operation */
double alpha = (M - 1) / 2.0, t = ((double)(long long)i - alpha) / alpha;
w = ember_bessel_i0(beta * sqrt(1 - t * t)) / ember_bessel_i0(beta);
