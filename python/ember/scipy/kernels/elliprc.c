/* scipy.special.elliprc(x, y), computed in double (carlson.h). */
/* operation */
r = (T)ember_rc((double)x, (double)y);
