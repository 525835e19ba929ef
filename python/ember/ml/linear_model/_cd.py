"""Lasso and ElasticNet by coordinate descent on scikit-learn's objective

    1/(2n) |y - X w|^2 + alpha l1_ratio |w|_1 + alpha (1 - l1_ratio)/2 |w|^2

with its stopping rule: a sweep over the features, and when the largest
coefficient change of a sweep falls to tol times the largest coefficient,
the duality gap, which must reach tol |y|^2.

A sweep is sequential over features; each coordinate update is a handful
of device operations on 0-d arrays and one vector update, with no sync.
Two forms, chosen by shape:
- n >= p (the covariance form): G = X^T X and q = X^T y are formed once
  (one matmul), the sweep keeps G w and costs O(p) per coordinate;
- n < p (the residual form): the sweep keeps the residual R = y - X w and
  costs O(n) per coordinate (a dot and an axpy on a row of X^T).
One sync a sweep reads the change and the size of w; the gap costs one more
when it is due. Both forms make the same updates in the same order as
scikit-learn's, so the coefficients agree to rounding where both stop at
the same sweep. scikit-learn also screens out features proved zero
(gap-safe rules); ember does not, which changes when, not where, it
converges."""
import numbers
import warnings

import numpy as np

import ember
from ember._progress import progress
from ember.ml import _validation as V
from ember.ml.base import BaseEstimator, RegressorMixin
from ember.ml.exceptions import ConvergenceWarning
from ember.ml.linear_model._base import (LinearModel, MultiOutputTags, as_2d_target,
                                         center, check_sample_weight, require_y)


def _host(*xs):
    """Several 0-d device values read back in one sync."""
    return [float(v) for v in ember.asnumpy(ember.stack(list(xs)))]


class _Problem:
    """One target's data in the chosen form: the quantities a sweep and the
    gap need, and the sweep itself."""

    def __init__(self, Xc, yc, gram, G=None):
        self.gram = gram
        self.yy = yc @ yc
        if gram:
            self.G = Xc.T @ Xc if G is None else G
            self.q = Xc.T @ yc
            self.norm2 = ember.diagonal(self.G).copy()
        else:
            self.XT = ember.ascontiguousarray(Xc.T)
            self.y = yc
            self.norm2 = (self.XT * self.XT).sum(axis=1)

    def start(self, w):
        if self.gram:
            self.Gw = self.G @ w
        else:
            self.R = self.y - self.XT.T @ w

    def sweep(self, w, order, l1, l2, positive):
        dt = w.dtype
        l1 = ember.asarray(l1, dtype=dt, device=w.device)
        for j in order:
            wj = w[j]
            nj = self.norm2[j]
            if self.gram:
                tmp = self.q[j] - self.Gw[j] + nj * wj
            else:
                tmp = self.XT[j] @ self.R + nj * wj
            if positive:
                new = ember.maximum(tmp - l1, 0) / (nj + l2)
            else:
                new = ember.sign(tmp) * ember.maximum(ember.abs(tmp) - l1, 0) / (nj + l2)
            delta = new - wj
            if self.gram:
                self.Gw += delta * self.G[j]
            else:
                self.R -= delta * self.XT[j]
            w[j] = new

    def gap(self, w, l1, l2, positive):
        """scikit-learn's duality gap (formulation A; B for l1 == 0)."""
        if self.gram:
            wq = w @ self.q
            R2 = self.yy - 2 * wq + w @ self.Gw
            Ry = self.yy - wq
            XtR = self.q - self.Gw
        else:
            R2 = self.R @ self.R
            Ry = self.R @ self.y
            XtR = self.XT @ self.R
        w2 = w @ w
        if l1 == 0:
            R2, Ry, w2, dn = _host(R2, Ry, w2, XtR @ XtR)
            if l2 == 0:
                return dn
            return R2 + 0.5 * l2 * w2 - Ry + dn / (2 * l2)
        XtA = XtR - l2 * w
        dn = XtA.max() if positive else ember.abs(XtA).max()
        R2, Ry, w2, dn, wl1 = _host(R2, Ry, w2, dn, ember.abs(w).sum())
        primal = 0.5 * (R2 + l2 * w2) + l1 * wl1
        scale = l1 / dn if dn > l1 else 1.0
        dual = -0.5 * scale ** 2 * (R2 + l2 * w2) + scale * Ry
        return primal - dual


def enet_cd(Xc, yc, w, l1, l2, max_iter, tol, positive, rng, gram, tick=None,
            problem=None):
    """(w, gap, n_iter) for one target, w updated in place; gap is scikit-
    learn's unnormalised one. tick() after each sweep (a progress bar's).
    A path of alphas passes the _Problem of (Xc, yc) it built once."""
    P = problem if problem is not None else _Problem(Xc, yc, gram)
    P.start(w)
    d_tol, tol = tol, tol * float(P.yy)
    live = np.flatnonzero(ember.asnumpy(P.norm2) != 0)
    zero = np.flatnonzero(ember.asnumpy(P.norm2) == 0)
    if zero.size:
        w[ember.asarray(zero, device=w.device)] = 0
        P.start(w)
    gap = P.gap(w, l1, l2, positive)
    if gap <= tol:
        return w, gap, 0
    for it in range(max_iter):
        w_old = w.copy()
        order = live if rng is None else live[rng.integers(0, live.size, live.size)]
        P.sweep(w, order.tolist(), l1, l2, positive)
        d_max, w_max = _host(ember.abs(w - w_old).max(), ember.abs(w).max())
        if tick is not None:
            tick()
        if w_max == 0 or d_max / w_max <= d_tol or it == max_iter - 1:
            gap = P.gap(w, l1, l2, positive)
            if gap <= tol:
                return w, gap, it + 1
    warnings.warn("Objective did not converge. You might want to increase the "
                  f"number of iterations. Duality gap: {gap:.3e}, tolerance: "
                  f"{tol:.3e}", ConvergenceWarning)
    return w, gap, max_iter


def _feature_rng(seed):
    """A host generator for the order of features (p small ints a sweep)
    from scikit-learn's random_state forms."""
    if isinstance(seed, (np.random.RandomState, np.random.Generator)):
        seed = int(seed.integers(2**31) if hasattr(seed, "integers")
                   else seed.randint(2**31))
    elif not isinstance(seed, (numbers.Integral, type(None))):
        seed = None  # an ember Generator: its stream is for device draws
    return np.random.default_rng(seed)


class ElasticNet(MultiOutputTags, RegressorMixin, LinearModel, BaseEstimator):
    """scikit-learn's ElasticNet (coordinate descent; a precompute array is
    checked as scikit-learn checks it and stands in for X^T X)."""

    def __init__(self, alpha=1.0, *, l1_ratio=0.5, fit_intercept=True,
                 precompute=False, max_iter=1000, copy_X=True, tol=1e-4,
                 warm_start=False, positive=False, random_state=None,
                 selection="cyclic"):
        self.alpha = alpha
        self.l1_ratio = l1_ratio
        self.fit_intercept = fit_intercept
        self.precompute = precompute
        self.max_iter = max_iter
        self.copy_X = copy_X
        self.tol = tol
        self.warm_start = warm_start
        self.positive = positive
        self.random_state = random_state
        self.selection = selection

    def _check_params(self):
        V.check_scalar(self.alpha, "alpha", numbers.Real, min_val=0, est=self)
        V.check_scalar(self.l1_ratio, "l1_ratio", numbers.Real, min_val=0, max_val=1,
                       est=self)
        V.check_scalar(self.max_iter, "max_iter", numbers.Integral, min_val=1, est=self)
        V.check_scalar(self.tol, "tol", numbers.Real, min_val=0, est=self)
        V.check_option(self.selection, "selection", ("cyclic", "random"), self)
        pre = self.precompute
        if isinstance(pre, str) and pre != "auto":
            raise ValueError("The 'precompute' parameter of "
                             f"{type(self).__name__} must be an instance of 'bool', an "
                             "array-like or a str among {'auto'}. "
                             f"Got {pre!r} instead.")

    def _user_gram(self, Xc, Xo):
        """The Gram matrix given as precompute, checked as scikit-learn checks
        it (one element against the centred, weight-scaled X), or None:
        not given, or X's offsets moved it (scikit-learn's warning)."""
        pre = self.precompute
        if isinstance(pre, (bool, np.bool_, str)):
            return None
        if self.fit_intercept and not np.allclose(ember.asnumpy(Xo), 0):
            warnings.warn("Gram matrix was provided but X was centered to fit "
                          "intercept: recomputing Gram matrix.", UserWarning, stacklevel=3)
            return None
        G = V.check_array(pre, dtype=Xc.dtype, device=Xc.device, estimator=self)
        p = Xc.shape[1]
        if G.shape != (p, p):
            raise ValueError(f"precompute has shape {G.shape}, but X has {p} features: "
                             f"the Gram matrix must be ({p}, {p})")
        f1 = p // 2
        f2 = min(f1 + 1, p - 1)
        want, got = _host(Xc[:, f1] @ Xc[:, f2], G[f1, f2])
        rtol = 1e-4 if Xc.dtype == ember.float32 else 1e-7
        if not np.isclose(want, got, rtol=rtol):
            raise ValueError("Gram matrix passed in via 'precompute' parameter did not "
                             "pass validation when a single element was checked - "
                             "please check that it was computed properly. For element "
                             f"({f1},{f2}) we computed {want} but the user-supplied value "
                             f"was {got}.")
        return G

    def fit(self, X, y, sample_weight=None, check_input=True):
        self._check_params()
        require_y(self, y)
        X, y = self._fit_input(X, y, y_numeric=True, multi_output=True)
        if y.dtype != X.dtype:
            y = y.astype(X.dtype)
        n, p = X.shape
        sw = check_sample_weight(sample_weight, X)
        if sw is not None:
            # scikit-learn's objective averages with weights summing to n
            sw = sw * (n / sw.sum())
        if self.alpha == 0:
            warnings.warn("With alpha=0, this algorithm does not converge well. "
                          "You are advised to use the LinearRegression estimator",
                          stacklevel=2)
        Xc, yc, Xo, yo = center(X, y, sw, self.fit_intercept)
        G = self._user_gram(Xc, Xo)
        Y = as_2d_target(yc)
        k = Y.shape[1]
        prev = self.__dict__.get("coef_") if self.warm_start else None
        if prev is not None:
            W0 = ember.asarray(prev, device=X.device).astype(X.dtype).reshape(k, p)
        else:
            W0 = ember.zeros((k, p), dtype=X.dtype, device=X.device)
        l1 = float(self.alpha * self.l1_ratio * n)
        l2 = float(self.alpha * (1 - self.l1_ratio) * n)
        rng = _feature_rng(self.random_state) if self.selection == "random" else None
        cols, gaps, iters = [], [], []
        # max_iter sweeps a target; one that converges early skips ahead
        with progress(k * self.max_iter, type(self).__name__ + ".fit", "sweep") as bar:
            for t in range(k):
                w = W0[t].copy()
                yt = Y[:, t].copy()
                w, gap, it = enet_cd(Xc, yt, w, l1, l2, self.max_iter,
                                     self.tol, self.positive, rng, gram=n >= p,
                                     tick=bar.update,
                                     problem=None if G is None else _Problem(Xc, yt,
                                                                             True, G))
                bar.update(self.max_iter - it)
                cols.append(w)
                gaps.append(gap / n)
                iters.append(it)
        W = ember.stack(cols, axis=1)
        one = k == 1
        self._set_coef(W, Xo, yo if y.ndim == 2 else yo[None], one)
        self.dual_gap_ = gaps[0] if one else np.asarray(gaps)
        self.n_iter_ = iters[0] if one else iters
        return self


class Lasso(ElasticNet):
    """scikit-learn's Lasso: ElasticNet with l1_ratio 1."""

    def __init__(self, alpha=1.0, *, fit_intercept=True, precompute=False, copy_X=True,
                 max_iter=1000, tol=1e-4, warm_start=False, positive=False,
                 random_state=None, selection="cyclic"):
        super().__init__(alpha, l1_ratio=1.0, fit_intercept=fit_intercept,
                         precompute=precompute, max_iter=max_iter, copy_X=copy_X,
                         tol=tol, warm_start=warm_start, positive=positive,
                         random_state=random_state, selection=selection)
