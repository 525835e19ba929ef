/* scipy.special.betaln(a, b) = log|B(a, b)| in double: incbeta.h's
 * ember_lbeta for positive arguments (no digits lost to lgamma's size
 * where one is large), the gammas' logarithms elsewhere. */
/* operation */
double da = (double)a, db = (double)b;
y = (T)(da > 0 && db > 0 ? ember_lbeta(da, db)
                         : lgamma(da) + lgamma(db) - lgamma(da + db));
