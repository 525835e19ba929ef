/* scipy.special.elliprf(x, y, z), computed in double (carlson.h). */
/* operation */
r = (T)ember_rf((double)x, (double)y, (double)z);
