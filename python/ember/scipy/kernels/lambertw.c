/* scipy.special.lambertw(z, k, tol), computed in double (lambertw.h);
 * the two outputs are the real and imaginary views of a complex128
 * array. */
/* operation */
double r_, i_;
ember_lambertw(zr, zi, k, tol, &r_, &i_);
wr = r_;
wi = i_;
