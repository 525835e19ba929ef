/* scipy.special.elliprg(x, y, z), computed in double (carlson.h). */
/* operation */
r = (T)ember_rg((double)x, (double)y, (double)z);
