/* scipy.special.shichi(x): Shi and Chi, computed in double (sici.h). */
/* operation */
double shi_, chi_;
ember_shichi((double)x, &shi_, &chi_);
shi = (T)shi_;
chi = (T)chi_;
