"""Non-negative least squares for LinearRegression(positive=True): Lawson
and Hanson's active-set method (scikit-learn calls SciPy's nnls, the same
method) on the normal equations.

G = X^T X and X^T y are formed once on the device; each step solves the
least-squares problem on the passive set (a sub-block of G, on the device)
and moves the p-long coefficient and gradient vectors to the host for the
set bookkeeping, as SciPy keeps them there. The solution of a full-rank
problem is unique, so it equals SciPy's to rounding; the normal equations
square X's condition number, as LinearRegression's own tall path does."""
import numpy as np

import ember


def nnls(Xc, y):
    """argmin ||y - Xc w|| subject to w >= 0, as an ember array on Xc's
    device (Xc: n x p, y: n)."""
    dev = Xc.device
    n, p = Xc.shape
    G = Xc.T @ Xc
    q = Xc.T @ y
    eps = float(ember.finfo(Xc.dtype).eps)
    scale = float(ember.abs(G).max()) if p else 0.0
    # SciPy's KKT tolerance, 10 max(m, n) eps, relative to the problem's size
    tol = 10 * max(n, p) * eps * max(scale, 1.0)
    w = np.zeros(p)
    passive = np.zeros(p, dtype=bool)
    g = ember.asnumpy(q).astype(np.float64)
    for _ in range(3 * p):
        free = np.flatnonzero(~passive)
        if free.size == 0 or g[free].max() <= tol:
            break
        passive[free[np.argmax(g[free])]] = True
        while True:
            idx = np.flatnonzero(passive)
            ii = ember.asarray(idx, device=dev)
            sub = ember.take(ember.take(G, ii, axis=0), ii, axis=1)
            s = ember.asnumpy(ember.linalg.solve(sub, ember.take(q, ii))).astype(np.float64)
            if s.min() > 0:
                w[:] = 0.0
                w[idx] = s
                break
            # step from w towards s until the first passive weight reaches zero
            wp = w[idx]
            neg = s <= 0
            ratio = wp[neg] / (wp[neg] - s[neg])
            alpha = ratio.min()
            w[idx] = wp + alpha * (s - wp)
            out = idx[neg][ratio == alpha]
            w[out] = 0.0
            passive[idx[w[idx] <= 0]] = False
            passive[out] = False
            w[~passive] = 0.0
            if not passive.any():
                break
        wd = ember.asarray(w, dtype=Xc.dtype, device=dev)
        g = ember.asnumpy(q - G @ wd).astype(np.float64)
    return ember.asarray(w, dtype=Xc.dtype, device=dev)
