/* NumPy's i0, the modified Bessel function of the first kind and order
 * 0, computed in double (bessel_i0.h) and stored in T. */
/* operation */
y = (T)ember_bessel_i0((double)x);
