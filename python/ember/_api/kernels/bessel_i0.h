/* The modified Bessel function I0 by its power series,
 * sum_k ((x / 2)^k / k!)^2: every term is positive, so the sum is accurate
 * to a few ulps for the arguments a Kaiser window takes (|x| <= beta). */
__device__ double ember_bessel_i0(double x)
{
    double q = 0.25 * x * x, term = 1.0, sum = 1.0;
    int k;
    for (k = 1; k < 1000; k++) {
        term *= q / ((double)k * (double)k);
        sum += term;
        if (term < sum * 1e-17)
            break;
    }
    return sum;
}
