/* scipy.special.sici(x): Si and Ci, computed in double (sici.h). */
/* operation */
double si_, ci_;
ember_sici((double)x, &si_, &ci_);
si = (T)si_;
ci = (T)ci_;
