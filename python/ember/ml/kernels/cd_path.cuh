/* ember.ml's LassoCV and ElasticNetCV on both devices
 * (python/ember/ml/linear_model/_cv.py): one alpha of B coordinate-descent
 * problems on the covariance form (one a fold and l1_ratio), one thread a
 * problem. Each thread makes the sweeps of _cd.enet_cd in its order, on
 * its Gram matrix G (p x p), q = X^T y and the running G w, and stops by
 * the same rule: after a sweep whose largest change is at most tol times
 * the largest coefficient (or the last sweep), scikit-learn's duality gap
 * must reach tols[b] (tol |y|^2); the gap is also checked before the first
 * sweep, so a warm start that already meets it makes none. w and Gw carry
 * the coefficients from one alpha to the next (the path's warm start);
 * n_iter[b] gets the sweeps made. Sums of the gap are in double whatever
 * T is. One launch an alpha replaces about a dozen launches a coordinate
 * of the composition it stands for. */

#define EM_CDP_ABS(x) ((x) < 0 ? -(x) : (x))

template <typename T>
__device__ double em_cdp_gap(const T *q, const T *Gw, const T *w, int p, double yy,
                             double l1, double l2, int positive)
{
    double wq = 0, wGw = 0, w2 = 0, dn = 0, dn2 = 0, wl1 = 0;
    for (int k = 0; k < p; k++) {
        const double wk = (double)w[k];
        const double r = (double)q[k] - (double)Gw[k];
        wq += wk * (double)q[k];
        wGw += wk * (double)Gw[k];
        w2 += wk * wk;
        wl1 += EM_CDP_ABS(wk);
        dn2 += r * r;
        double a = r - l2 * wk;
        if (!positive)
            a = EM_CDP_ABS(a);
        if (k == 0 || a > dn)
            dn = a;
    }
    return em_cd_gap(yy - 2 * wq + wGw, yy - wq, w2, wl1, dn2, dn, l1, l2);
}

template <typename T>
__global__ void em_cd_path(const T *G, const T *q, const double *yy, T *w, T *Gw,
                           const double *l1s, const double *l2s, const double *tols, int B,
                           int p, int max_iter, double tol, int positive, int *n_iter)
{
    const int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= B)
        return;
    const long long pp = (long long)p * p;
    const T *Gb = G + b * pp;
    const T *qb = q + (long long)b * p;
    T *wb = w + (long long)b * p;
    T *Gwb = Gw + (long long)b * p;
    const double l1 = l1s[b], l2 = l2s[b], yb = yy[b], tb = tols[b];
    const T l1t = (T)l1, l2t = (T)l2;
    if (em_cdp_gap<T>(qb, Gwb, wb, p, yb, l1, l2, positive) <= tb) {
        n_iter[b] = 0;
        return;
    }
    for (int it = 0; it < max_iter; it++) {
        T dmax = 0, wmax = 0;
        for (int j = 0; j < p; j++) {
            const T *Gj = Gb + (long long)j * p;
            const T nj = Gj[j];
            if (nj == 0)
                continue; /* a constant feature stays at zero */
            const T wj = wb[j];
            const T tmp = qb[j] - Gwb[j] + nj * wj;
            T nw;
            if (positive) {
                const T m = tmp - l1t;
                nw = (m > 0 ? m : (T)0) / (nj + l2t);
            } else {
                const T m = EM_CDP_ABS(tmp) - l1t;
                nw = (m > 0 ? (tmp > 0 ? m : (tmp < 0 ? -m : (T)0)) : (T)0) / (nj + l2t);
            }
            const T d = nw - wj;
            if (d != 0)
                for (int k = 0; k < p; k++)
                    Gwb[k] += d * Gj[k];
            wb[j] = nw;
            const T ad = EM_CDP_ABS(d), aw = EM_CDP_ABS(nw);
            if (ad > dmax)
                dmax = ad;
            if (aw > wmax)
                wmax = aw;
        }
        if (wmax == 0 || (double)dmax / (double)wmax <= tol || it == max_iter - 1) {
            if (em_cdp_gap<T>(qb, Gwb, wb, p, yb, l1, l2, positive) <= tb) {
                n_iter[b] = it + 1;
                return;
            }
        }
    }
    n_iter[b] = max_iter;
}
