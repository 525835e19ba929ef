/* NumPy's round at 10**-decimals for one float32/float64: scale by f =
 * 10**|decimals| (multiply when decimals > 0, divide otherwise), round
 * half to even, scale back the other way. Each step is rounded to T, as
 * NumPy's three ufunc calls round it; there is no sum for a fused
 * multiply-add to contract. */
/* operation */
T s = up ? (T)(x * f) : (T)(x / f);
s = (T)rint(s);
y = up ? (T)(s / f) : (T)(s * f);
