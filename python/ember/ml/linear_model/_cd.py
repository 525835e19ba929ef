"""Lasso and ElasticNet by coordinate descent on scikit-learn's objective

    1/(2n) |y - X w|^2 + alpha l1_ratio |w|_1 + alpha (1 - l1_ratio)/2 |w|^2

with its stopping rule: a sweep over the features, and when the largest
coefficient change of a sweep falls to tol times the largest coefficient
(or on the last sweep), the duality gap, which must reach tol |y|^2.

A sweep is sequential over features, so the whole fit (every sweep and
gap until the rule stops it) is one launch of kernels/cd_fit.cuh
(_cd_kernel.py), one block a target, the block's threads sharing each
coordinate's work. Two forms, chosen by shape:
- n >= p (the covariance form): G = X^T X and q = X^T y are formed once
  (one matmul), the kernel keeps G w and a coordinate costs O(p);
- n < p (the residual form): the kernel keeps the residual R = y - X w and
  a coordinate costs O(n) (a dot and an axpy on a row of X^T).
Both make the same updates in the same order as scikit-learn's, so the
coefficients agree to rounding where both stop at the same sweep.
scikit-learn also screens out features proved zero (gap-safe rules);
ember does not, which changes when, not where, it converges.
selection='random' draws its features inside the kernel from a hash of
a seed taken from random_state: ember's own order, not scikit-learn's."""
import numbers
import warnings

import numpy as np

import ember
from ember._progress import progress
from ember.ml import _validation as V
from ember.ml.base import BaseEstimator, RegressorMixin
from ember.ml.exceptions import ConvergenceWarning
from ember.ml.linear_model import _cd_kernel
from ember.ml.linear_model._base import (LinearModel, MultiOutputTags, as_2d_target,
                                         center, check_sample_weight, require_y)


def _host(*xs):
    """Several 0-d device values read back in one sync."""
    return [float(v) for v in ember.asnumpy(ember.stack(list(xs)))]


class _Problem:
    """The data of one or more targets (yc: n, or n x k) in the chosen
    form, as kernels/cd_fit.cuh reads it: the covariance form's G (p x p;
    a given Gram matrix stands in) and Q = (X^T y)^T (k x p), or the
    residual form's X^T (p x n), its rows' squared norms and Y^T (k x n);
    and |y|^2 of each target in double. A path of alphas builds it once."""

    def __init__(self, Xc, yc, gram, G=None):
        self.gram = gram
        Y = yc[:, None] if yc.ndim == 1 else yc
        self.yy = ember.ascontiguousarray((Y * Y).sum(axis=0).astype(ember.float64))
        if gram:
            self.G = ember.ascontiguousarray(Xc.T @ Xc if G is None else G)
            self.Q = ember.ascontiguousarray((Xc.T @ Y).T)
        else:
            self.XT = ember.ascontiguousarray(Xc.T)
            self.norm2 = ember.ascontiguousarray((self.XT * self.XT).sum(axis=1))
            self.Y = ember.ascontiguousarray(Y.T)


def _seed(rng):
    """The kernel's seed of one fit: 0 (cyclic order) without rng, else a
    nonzero draw of it, so that each fit (each target set, each alpha of a
    path) visits its own random order."""
    return 0 if rng is None else int(rng.integers(1, 2**63, dtype=np.int64))


def enet_fit(P, W, l1, l2, max_iter, tol, positive, rng):
    """(gaps, n_iters) of P's targets, host arrays, the coefficients W
    (k x p, C order) updated in place by one launch; a gap is scikit-
    learn's unnormalised one. Warns for each target that did not reach
    tol |y|^2, with its gap, as scikit-learn does."""
    gaps, iters = _cd_kernel.fit(P, W, l1, l2, max_iter, tol, positive, _seed(rng))
    if (iters >= max_iter).any():
        yy = ember.asnumpy(P.yy)
        for g, it, t in zip(gaps, iters, tol * yy):
            if it >= max_iter and not g <= t:
                warnings.warn("Objective did not converge. You might want to increase "
                              f"the number of iterations. Duality gap: {g:.3e}, "
                              f"tolerance: {t:.3e}", ConvergenceWarning, stacklevel=3)
    return gaps, iters


def enet_cd(Xc, yc, w, l1, l2, max_iter, tol, positive, rng, gram, problem=None):
    """(w, gap, n_iter) for one target from the start w (a contiguous w is
    updated in place; the fit is the w returned); gap is scikit-learn's
    unnormalised one. A path of alphas passes the _Problem of (Xc, yc) it
    built once."""
    P = problem if problem is not None else _Problem(Xc, yc, gram)
    W = ember.ascontiguousarray(w.reshape(1, -1))
    gaps, iters = enet_fit(P, W, l1, l2, max_iter, tol, positive, rng)
    return W[0], float(gaps[0]), int(iters[0])


def _feature_rng(seed):
    """A host generator for the random order's seeds from scikit-learn's
    random_state forms."""
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
        # every target in one launch, a block each
        P = _Problem(Xc, Y, n >= p or G is not None, G)
        W = ember.ascontiguousarray(W0)
        # the launch holds every sweep: the bar can count targets only
        with progress(k, type(self).__name__ + ".fit", "target") as bar:
            gaps, iters = enet_fit(P, W, l1, l2, self.max_iter, self.tol, self.positive,
                                   rng)
            bar.update(k)
        gaps = gaps / n
        iters = [int(i) for i in iters]
        one = k == 1
        self._set_coef(W.T, Xo, yo if y.ndim == 2 else yo[None], one)
        self.dual_gap_ = float(gaps[0]) if one else gaps
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
