/* NumPy's isclose for one pair, in NumPy's dtypes: D1 = result_type(x, y)
 * for x - y and x == y, D2 = result_type(rtol, y) for rtol * |y|, D3 =
 * result_type(atol, D2) for the sum (the raw zero-size parameters t1..t3
 * only bind those names). Widening to the compare's common type is exact,
 * so this is NumPy's
 *   (|x - y| <= atol + rtol * |y|) & isfinite(y) | (x == y)
 * plus isnan(x) & isnan(y) with equal_nan, in one kernel instead of eight
 * ufunc launches. Only float32/float64 are bound here: the 16-bit floats
 * are computed in float by ElementwiseKernel, where NumPy rounds each step. */
/* operation */
D1 a = (D1)x, b = (D1)y, d = a - b;
D2 yb = (D2)y;
D3 tol = (D3)atol + (D3)((D2)rtol * (yb < 0 ? -yb : yb));
bool r = ((d < 0 ? -d : d) <= tol && isfinite(yb)) || a == b;
out = r || (equal_nan && isnan(a) && isnan(b));
