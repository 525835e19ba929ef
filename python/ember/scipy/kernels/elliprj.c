/* scipy.special.elliprj(x, y, z, p), computed in double (carlson.h). */
/* operation */
r = (T)ember_rj((double)x, (double)y, (double)z, (double)p);
