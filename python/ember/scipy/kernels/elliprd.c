/* scipy.special.elliprd(x, y, z), computed in double (carlson.h). */
/* operation */
r = (T)ember_rd((double)x, (double)y, (double)z);
