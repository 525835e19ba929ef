/* scipy.special.betaincinv(a, b, y), computed in double (incbetainv.h
 * over incbeta.h). */
/* operation */
x = (T)ember_incbetainv((double)a, (double)b, (double)y);
