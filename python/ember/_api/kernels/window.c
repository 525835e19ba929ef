/* NumPy's symmetric windows, element i of M, from n = 1 - M + 2 i as NumPy
 * writes them (numpy/lib/_function_base_impl.py): kind 0 Bartlett, 1
 * Blackman, 2 Hamming, 3 Hann. One kernel instead of an arange and a
 * chain of ufuncs. */
/* operation */
const double pi = 3.141592653589793;
double n = (double)(1 - M + 2 * (long long)i), d = (double)(M - 1);
if (kind == 0)
    w = n <= 0 ? 1 + n / d : 1 - n / d;
else if (kind == 1)
    w = 0.42 + 0.5 * cos(pi * n / d) + 0.08 * cos(2.0 * pi * n / d);
else if (kind == 2)
    w = 0.54 + 0.46 * cos(pi * n / d);
else
    w = 0.5 + 0.5 * cos(pi * n / d);
