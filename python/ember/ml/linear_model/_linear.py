"""LinearRegression: ordinary least squares on centred data.

Tall, well-conditioned X (n >= p) takes the normal equations: one X^T X
matmul, a p x p Cholesky as the conditioning check and a p x p solve, then
one step of iterative refinement (r = y - X w, w += G^-1 X^T r) that
brings the error from eps * cond(X)^2 back near the backward-stable
solver's. Where the Cholesky factor says cond(X) is large (its diagonal
ratio below max(eps^(1/4), 10 tol)), or X is wide, ember.linalg.lstsq
(SVD-based, as scikit-learn's gelsd) with scikit-learn's cut (singular
values below tol times the largest are zero) gives the minimum-norm
solution that scikit-learn gives for rank-deficient X. The diagonal ratio
bounds cond(X) from below only, so a rare X built to hide its
conditioning from Cholesky (Kahan's matrix) can keep a direction that
scikit-learn cuts."""
import ember
from ember.ml.base import BaseEstimator, RegressorMixin, fitted
from ember.ml.linear_model._base import (LinearModel, MultiOutputTags, as_2d_target,
                                         center, check_sample_weight, require_y)
from ember.ml.linear_model._nnls import nnls


def normal_solve(Xc, Yc, reg=None, tol=0.0):
    """W (p x k) solving (Xc^T Xc + diag(reg)) W = Xc^T Yc through a Cholesky
    check and one refinement step, or None when the Gram matrix is too
    ill-conditioned for the normal equations in this dtype. Also returns
    the Gram matrix."""
    G = Xc.T @ Xc
    if reg is not None:
        G = G + ember.diag(reg)
    eps = float(ember.finfo(Xc.dtype).eps)
    try:
        L = ember.linalg.cholesky(G)
    except Exception:  # LinAlgError: not positive definite
        return None, G
    d = ember.diagonal(L)
    lo_hi = ember.asnumpy(ember.stack([ember.min(d), ember.max(d)]))
    # diag(L)'s ratio bounds sigma_min/sigma_max of X from above; NaN
    # (cuSOLVER's not-positive-definite) fails too
    if not (lo_hi[0] > max(eps ** 0.25, 10 * tol) * lo_hi[1]):
        return None, G
    B = Xc.T @ Yc
    W = ember.linalg.solve(G, B)
    R = Xc.T @ (Yc - Xc @ W)
    if reg is not None:
        R = R - ember.diag(reg) @ W
    return W + ember.linalg.solve(G, R), G


class LinearRegression(MultiOutputTags, RegressorMixin, LinearModel, BaseEstimator):
    """scikit-learn's LinearRegression (positive=True: non-negative least
    squares by Lawson and Hanson's active set, as scikit-learn's)."""

    singular_ = fitted()

    def __init__(self, *, fit_intercept=True, copy_X=True, tol=1e-6, n_jobs=None,
                 positive=False):
        self.fit_intercept = fit_intercept
        self.copy_X = copy_X
        self.tol = tol
        self.n_jobs = n_jobs
        self.positive = positive

    def fit(self, X, y, sample_weight=None):
        require_y(self, y)
        X, y = self._fit_input(X, y, y_numeric=True, multi_output=True)
        if y.dtype != X.dtype:
            y = y.astype(X.dtype)
        sw = check_sample_weight(sample_weight, X)
        Xc, yc, Xo, yo = center(X, y, sw, self.fit_intercept)
        Y = as_2d_target(yc)
        n, p = Xc.shape
        if self.positive:
            # scikit-learn sets neither rank_ nor singular_ here
            W = ember.stack([nnls(Xc, Y[:, t]) for t in range(Y.shape[1])], axis=1)
            for name in ("rank_", "singular_", "_gram"):
                self.__dict__.pop(name, None)
            self._set_coef(W, Xo, yo, y.ndim == 1)
            return self
        W, G = normal_solve(Xc, Y, tol=self.tol) if n >= p else (None, None)
        if W is not None:
            self._gram = G
            self.rank_ = p
            self.__dict__.pop("singular_", None)
        else:
            # scikit-learn's cut: singular values below tol times the largest
            W, _, self.rank_, s = ember.linalg.lstsq(Xc, Y, rcond=self.tol)
            self._gram = None
            self.singular_ = s
        self._set_coef(W, Xo, yo, y.ndim == 1)
        return self

    def __getattr__(self, name):
        # singular_ of the normal-equations path, computed on first use: the
        # fit itself does not pay for a p x p eigendecomposition.
        if name == "singular_" and self.__dict__.get("_gram") is not None:
            ev = ember.linalg.eigvalsh(self.__dict__["_gram"])
            self.singular_ = ember.sqrt(ember.maximum(ev, 0))[::-1].copy()
            return self.singular_
        raise AttributeError(f"{type(self).__name__!r} object has no attribute "
                             f"{name!r}")

