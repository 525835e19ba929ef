/* NumPy's nan_to_num for one float32/float64: NaN becomes nan, then +inf
 * hi and -inf lo, in that order (a nan= of inf is replaced again, as
 * NumPy's three masked copies do). */
/* operation */
T v = isnan(x) ? nan : x;
y = isinf(v) ? (v > 0 ? hi : lo) : v;
