/* scipy.special.betainc(a, b, x), computed in double (incbeta.h). */
/* operation */
y = (T)ember_incbeta((double)a, (double)b, (double)x);
