"""Ridge and RidgeClassifier: the closed form of scikit-learn's Ridge.

The solver names are accepted as scikit-learn's; the arithmetic is one of
two closed forms of the same minimiser, so the iterative ones ('lsqr',
'sparse_cg', 'sag', 'saga') give scikit-learn's solution to rounding
rather than to their tolerance: 'svd' is the SVD of centred X, every other
name the Cholesky route (X^T X + alpha I for n >= p, the kernel form
X X^T + alpha I for wide X, as scikit-learn's 'cholesky')."""
import numbers

import ember
from ember.ml import _validation as V
from ember.ml.base import BaseEstimator, ClassifierMixin, RegressorMixin
from ember.ml.linear_model._base import (LinearClassifierMixin, LinearModel,
                                         MultiOutputTags, as_2d_target, center,
                                         check_sample_weight, classifier_fit, require_y)
from ember.ml.linear_model._linear import normal_solve

_SOLVERS = ("auto", "svd", "cholesky", "lsqr", "sparse_cg", "sag", "saga", "lbfgs")


def _alphas(alpha, k, est):
    """alpha as one float per target."""
    if isinstance(alpha, numbers.Real) and not isinstance(alpha, bool):
        V.check_scalar(alpha, "alpha", numbers.Real, min_val=0, est=est)
        return [float(alpha)] * k
    import numpy as np
    a = np.asarray(ember.asnumpy(alpha) if isinstance(alpha, ember.ndarray) else alpha,
                   dtype=float).reshape(-1)
    if (a < 0).any():
        raise ValueError("alpha must be non-negative")
    if a.size == 1:
        return [float(a[0])] * k
    if a.size != k:
        raise ValueError(f"Number of targets and number of penalties do not "
                         f"correspond: {k} != {a.size}")
    return [float(v) for v in a]


def ridge_solve(Xc, Y, alphas, solver):
    """W (p x k) minimising |Y - Xc W|^2 + alpha_j |W_j|^2 per target j."""
    n, p = Xc.shape
    if solver == "svd":
        U, s, Vt = ember.linalg.svd(Xc, full_matrices=False)
        UtY = U.T @ Y
        cols = [Vt.T @ (UtY[:, j] * (s / (s * s + a))) for j, a in enumerate(alphas)]
        return ember.stack(cols, axis=1)
    groups = {}
    for j, a in enumerate(alphas):
        groups.setdefault(a, []).append(j)
    W = [None] * Y.shape[1]
    for a, js in groups.items():
        Yj = Y if len(js) == Y.shape[1] else Y[:, ember.asarray(js, device=Y.device)]
        if n >= p:
            reg = ember.full((p,), a, dtype=Xc.dtype, device=Xc.device)
            Wj, _ = normal_solve(Xc, Yj, reg)
            if Wj is None:  # singular X^T X + alpha I: alpha 0 on rank-deficient X
                Wj = ember.linalg.lstsq(Xc, Yj)[0] if a == 0 else \
                    ember.linalg.solve(Xc.T @ Xc + a * ember.eye(p, dtype=Xc.dtype,
                                                                 device=Xc.device),
                                       Xc.T @ Yj)
        else:
            K = Xc @ Xc.T + a * ember.eye(n, dtype=Xc.dtype, device=Xc.device)
            Wj = Xc.T @ ember.linalg.solve(K, Yj)
        for i, j in enumerate(js):
            W[j] = Wj[:, i]
    return ember.stack(W, axis=1)


class _RidgeBase(BaseEstimator):
    def __init__(self, alpha=1.0, *, fit_intercept=True, copy_X=True, max_iter=None,
                 tol=1e-4, solver="auto", positive=False, random_state=None):
        self.alpha = alpha
        self.fit_intercept = fit_intercept
        self.copy_X = copy_X
        self.max_iter = max_iter
        self.tol = tol
        self.solver = solver
        self.positive = positive
        self.random_state = random_state

    def _solve(self, X, Y, sw):
        V.check_option(self.solver, "solver", _SOLVERS, self)
        if self.positive or self.solver == "lbfgs":
            raise NotImplementedError("Ridge(positive=True) / solver='lbfgs' "
                                      "(non-negative ridge) is not built in ember.ml")
        Xc, Yc, Xo, yo = center(X, Y, sw, self.fit_intercept)
        alphas = _alphas(self.alpha, Yc.shape[1], self)
        self.solver_ = "svd" if self.solver == "svd" else "cholesky"
        self.n_iter_ = None
        return ridge_solve(Xc, Yc, alphas, self.solver_), Xo, yo


class Ridge(MultiOutputTags, RegressorMixin, LinearModel, _RidgeBase):
    """scikit-learn's Ridge (positive=True is not built)."""

    def fit(self, X, y, sample_weight=None):
        require_y(self, y)
        X, y = self._fit_input(X, y, y_numeric=True, multi_output=True)
        if y.dtype != X.dtype:
            y = y.astype(X.dtype)
        sw = check_sample_weight(sample_weight, X)
        W, Xo, yo = self._solve(X, as_2d_target(y), sw)
        self._set_coef(W, Xo, yo, y.ndim == 1)
        return self


class RidgeClassifier(ClassifierMixin, LinearClassifierMixin, _RidgeBase):
    """scikit-learn's RidgeClassifier: ridge regression on targets of -1 and
    1 per class (one column for two classes)."""

    def __init__(self, alpha=1.0, *, fit_intercept=True, copy_X=True, max_iter=None,
                 tol=1e-4, class_weight=None, solver="auto", positive=False,
                 random_state=None):
        super().__init__(alpha, fit_intercept=fit_intercept, copy_X=copy_X,
                         max_iter=max_iter, tol=tol, solver=solver, positive=positive,
                         random_state=random_state)
        self.class_weight = class_weight

    def fit(self, X, y, sample_weight=None):
        X, _ = self._fit_input(X)
        classes, codes, sw = classifier_fit(self, X, y, sample_weight)
        k = len(classes)
        ks = ember.arange(k, device=X.device)
        Y = (codes[:, None] == ks[None, :]).astype(X.dtype) * 2 - 1
        if k == 2:
            Y = Y[:, 1:]
        W, Xo, yo = self._solve(X, Y, sw)
        coef = W.T
        # scikit-learn 1.9 gives a binary RidgeClassifier a 1-D coef_
        self.coef_ = ember.ascontiguousarray(coef[0] if k == 2 else coef)
        self.intercept_ = (yo - coef @ Xo) if self.fit_intercept else ember.zeros(
            (coef.shape[0],), dtype=X.dtype, device=X.device)
        return self
