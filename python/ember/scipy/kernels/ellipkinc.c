/* scipy.special.ellipkinc(phi, m), computed in double (ellipinc.h). */
/* operation */
r = (T)ember_ellipkinc((double)phi, (double)m);
