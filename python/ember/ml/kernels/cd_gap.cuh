/* scikit-learn's duality gap of the elastic net (formulation A; B for
 * l1 == 0) from its sums: R2 = |R|^2, Ry = R.y, w2 = |w|^2, wl1 = |w|_1,
 * dn2 = |X^T R|^2 and dn the largest |X^T R - l2 w| (X^T R - l2 w with
 * positive). Pasted in front of cd_path.cuh and cd_fit.cuh, whose kernels
 * gather the sums their own way and share the formula. */
__device__ inline double em_cd_gap(double R2, double Ry, double w2, double wl1,
                                   double dn2, double dn, double l1, double l2)
{
    if (l1 == 0) {
        if (l2 == 0)
            return dn2;
        return R2 + 0.5 * l2 * w2 - Ry + dn2 / (2 * l2);
    }
    const double primal = 0.5 * (R2 + l2 * w2) + l1 * wl1;
    const double scale = dn > l1 ? l1 / dn : 1.0;
    const double dual = -0.5 * scale * scale * (R2 + l2 * w2) + scale * Ry;
    return primal - dual;
}

