/* scipy.special.ellipj(u, m): four outputs, computed in double
 * (ellipj.h). */
/* operation */
double sn_, cn_, dn_, ph_;
ember_ellipj((double)u, (double)m, &sn_, &cn_, &dn_, &ph_);
sn = (T)sn_;
cn = (T)cn_;
dn = (T)dn_;
ph = (T)ph_;
