/* scipy.special.ellipeinc(phi, m), computed in double (ellipinc.h). */
/* operation */
r = (T)ember_ellipeinc((double)phi, (double)m);
