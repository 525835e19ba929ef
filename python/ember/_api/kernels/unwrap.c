/* unwrap's correction for one difference dd, as NumPy computes it in T:
 * ddmod = mod(dd - lo, period) + lo (NumPy's floored float remainder),
 * hi where ddmod lands on lo for a positive jump and the boundary is
 * ambiguous, then ddmod - dd, or 0 where |dd| < discont. One kernel for
 * about ten ufunc launches. fmod and fabs are exact, so computing them in
 * double rounds nothing for float32. */
/* operation */
T m = (T)fmod((double)(dd - lo), (double)period), ddmod, c;
if (m != 0) {
    if ((period < 0) != (m < 0))
        m += period;
} else {
    m = (T)copysign(0.0, (double)period);
}
ddmod = m + lo;
if (amb && ddmod == lo && dd > 0)
    ddmod = hi;
c = ddmod - dd;
corr = fabs((double)dd) < (double)discont ? (T)0 : c;
