"""PCA as scikit-learn computes it: its solver choice ('auto' picks
'covariance_eigh' for tall data), its sign rule and its attributes."""
import math
import numbers

import numpy as np

import ember
from ember import linalg as la
from ember.ml import _validation as V
from ember.ml._random import check_random_state, numpy_random_state
from ember.ml.base import BaseEstimator, TransformerMixin, fitted
from ember.ml.decomposition import _svd
from ember.ml.decomposition._mle import infer_dimension

_SOLVERS = ("auto", "full", "covariance_eigh", "arpack", "randomized")


class _BasePCA(TransformerMixin, BaseEstimator):
    components_ = fitted()
    explained_variance_ = fitted()
    explained_variance_ratio_ = fitted()
    singular_values_ = fitted()
    mean_ = fitted()

    def transform(self, X):
        X = self._predict_input(X)
        Xt = (X - self._dev("mean_").astype(X.dtype)) @ \
            self._dev("components_").astype(X.dtype).T
        if getattr(self, "whiten", False):
            Xt = Xt / ember.sqrt(self._dev("explained_variance_").astype(X.dtype))
        return self._out(Xt)

    def inverse_transform(self, X):
        V.check_is_fitted(self)
        X = V.check_array(X, device=self._device, estimator=self)
        comp = self._dev("components_").astype(X.dtype)
        if getattr(self, "whiten", False):
            comp = ember.sqrt(self._dev("explained_variance_").astype(X.dtype))[:, None] * comp
        return self._out(X @ comp + self._dev("mean_").astype(X.dtype))

    def get_covariance(self):
        return self._out(self._covariance())

    def _covariance(self):
        V.check_is_fitted(self)
        comp = self._dev("components_")
        ev = self._dev("explained_variance_")
        if getattr(self, "whiten", False):
            comp = comp * ember.sqrt(ev)[:, None]
        ev = ember.maximum(ev - self.noise_variance_, 0.0)
        cov = (comp.T * ev) @ comp
        p = cov.shape[0]
        return cov + self.noise_variance_ * ember.eye(p, dtype=cov.dtype, device=cov.device)

    def get_precision(self):
        return self._out(self._precision())

    def _precision(self):
        """The model covariance's inverse by the matrix inversion lemma (a
        k x k inverse), as scikit-learn's get_precision."""
        V.check_is_fitted(self)
        comp = self._dev("components_")
        p = comp.shape[1]
        nv = float(self.noise_variance_)
        if self.n_components_ == 0:
            return ember.eye(p, dtype=comp.dtype, device=comp.device) / nv
        if nv == 0.0:
            return la.inv(self._covariance())
        ev = self._dev("explained_variance_")
        if getattr(self, "whiten", False):
            comp = comp * ember.sqrt(ev)[:, None]
        ev_diff = ember.where(ev > nv, ev - nv, 0.0)
        inner = comp @ comp.T / nv + ember.diag(1.0 / ev_diff)
        prec = comp.T @ la.inv(inner) @ comp / -(nv * nv)
        return prec + ember.eye(p, dtype=prec.dtype, device=prec.device) / nv

    def get_feature_names_out(self, input_features=None):
        import numpy as np
        V.check_is_fitted(self)
        name = type(self).__name__.lower()
        return np.asarray([f"{name}{i}" for i in range(self.n_components_)], dtype=object)


class PCA(_BasePCA):
    """sklearn.decomposition.PCA on ember arrays."""

    def __init__(self, n_components=None, *, copy=True, whiten=False, svd_solver="auto",
                 tol=0.0, iterated_power="auto", n_oversamples=10,
                 power_iteration_normalizer="auto", random_state=None):
        self.n_components = n_components
        self.copy = copy
        self.whiten = whiten
        self.svd_solver = svd_solver
        self.tol = tol
        self.iterated_power = iterated_power
        self.n_oversamples = n_oversamples
        self.power_iteration_normalizer = power_iteration_normalizer
        self.random_state = random_state

    def _check_params(self):
        V.check_option(self.svd_solver, "svd_solver", _SOLVERS, self)
        V.check_option(self.power_iteration_normalizer, "power_iteration_normalizer",
                       ("auto", "QR", "LU", "none"), self)
        nc = self.n_components
        if isinstance(nc, str) and nc == "mle":
            return
        if nc is not None and (isinstance(nc, bool) or not isinstance(nc, numbers.Real)
                               or nc < 0):
            raise ValueError("The 'n_components' parameter of PCA must be an int in "
                             "the range [0, inf), a float in the range (0.0, 1.0), a "
                             f"str among {{'mle'}} or None. Got {nc!r} instead.")
        if isinstance(nc, float) and not nc.is_integer() and nc >= 1:
            raise ValueError(f"n_components={nc} must be of type int when greater "
                             "than or equal to 1")

    def fit(self, X, y=None):
        self._fit(X, want_u=False)
        return self

    def fit_transform(self, X, y=None):
        U, S, Xc = self._fit(X, want_u=True)
        k = self.n_components_
        if U is not None:
            # U S is X's projection without another pass over X
            Xt = U[:, :k] * S[:k]
            if self.whiten:
                Xt = Xt / ember.sqrt(self._dev("explained_variance_")).astype(Xt.dtype)
            return self._out(Xt.astype(Xc.dtype))
        return self.transform(X)

    def score_samples(self, X):
        """Each row's log-likelihood under the probabilistic PCA model
        (Tipping and Bishop), as scikit-learn's."""
        return self._out(self._score_rows(X))

    def score(self, X, y=None):
        """The mean log-likelihood of the rows of X."""
        return float(self._score_rows(X).mean())

    def _score_rows(self, X):
        X = self._predict_input(X)
        Xr = X - self._dev("mean_").astype(X.dtype)
        prec = self._precision().astype(X.dtype)
        sign, logdet = la.slogdet(prec)
        logdet = float(logdet) if float(sign) > 0 else -math.inf
        p = X.shape[1]
        return -0.5 * (Xr * (Xr @ prec)).sum(axis=1) - 0.5 * (p * math.log(2.0 * math.pi)
                                                             - logdet)

    def _fit(self, X, want_u):
        self._check_params()
        X, _ = self._fit_input(X, ensure_min_samples=2)
        n, p = X.shape
        nc = min(n, p) if self.n_components is None else self.n_components
        solver = self.svd_solver
        if solver == "auto":
            if p <= 1000 and n >= 10 * p:
                solver = "covariance_eigh"
            elif max(n, p) <= 500 or nc == "mle":
                solver = "full"
            elif 1 <= nc < 0.8 * min(n, p):
                solver = "randomized"
            else:
                solver = "full"
        self._fit_svd_solver = solver
        if solver in ("full", "covariance_eigh"):
            if nc == "mle":
                if n < p:
                    raise ValueError("n_components='mle' is only supported if "
                                     "n_samples >= n_features")
            elif not 0 <= nc <= min(n, p):
                raise ValueError(f"n_components={nc} must be between 0 and "
                                 f"min(n_samples, n_features)={min(n, p)} with "
                                 f"svd_solver={solver!r}")
            return self._fit_full(X, nc, solver, want_u)
        if isinstance(nc, str):
            raise ValueError(f"n_components={nc!r} cannot be a string with "
                             f"svd_solver='{solver}'")
        if not 1 <= nc <= min(n, p) or isinstance(nc, float) and not nc.is_integer():
            raise ValueError(f"n_components={nc!r} must be between 1 and "
                             f"min(n_samples, n_features)={min(n, p)!r} with "
                             f"svd_solver='{solver}'")
        if solver == "arpack" and nc == min(n, p):
            raise ValueError(f"n_components={nc!r} must be strictly less than "
                             f"min(n_samples, n_features)={min(n, p)!r} with "
                             f"svd_solver='{solver}'")
        return self._fit_truncated(X, int(nc), solver)

    def _fit_full(self, X, nc, solver, want_u):
        n, p = X.shape
        mean = X.mean(axis=0)
        U = None
        if solver == "full":
            Xc = X - mean
            U, S, Vt = _svd.thin_svd(Xc, compute_u=want_u)
            ev = S * S / (n - 1)
        else:
            # scikit-learn's covariance route: X^T X less n mean mean^T, so
            # no centred copy of X is made
            C = X.T @ X - n * (mean[:, None] * mean[None, :])
            C = C / (n - 1)
            w, vecs = la.eigh(C)
            ev = ember.maximum(ember.flip(w, axis=0), 0.0)
            Vt = ember.flip(vecs, axis=1).T
            S = ember.sqrt(ev * (n - 1))
            Xc = X
        U, Vt = _svd.flip_rows(U, Vt)
        ratio = ev / ev.sum()
        # a chosen count is NumPy's integer, as scikit-learn's argmax and
        # searchsorted give it ("label %d" % n_components_ and the like)
        if nc == "mle":
            nc = np.int64(infer_dimension(ember.asnumpy(ev), n))
        elif isinstance(nc, float) and 0 < nc < 1.0:
            csum = ember.cumsum(ratio)
            nc = np.int64(int(ember.searchsorted(
                csum, ember.asarray(nc, dtype=csum.dtype, device=csum.device),
                side="right")) + 1)
        else:
            nc = int(nc)
        self.noise_variance_ = float(ev[int(nc):].mean()) if nc < min(n, p) else 0.0
        self._store(n, nc, Vt, ev, ratio, S, mean)
        return U, S, Xc

    def _fit_truncated(self, X, nc, solver):
        n, p = X.shape
        mean = X.mean(axis=0)
        Xc = X - mean
        if solver == "arpack":
            # ARPACK's Lanczos converges to the exact top singular triplets;
            # the exact thin SVD gives them directly
            U, S, Vt = _svd.thin_svd(Xc)
            U, S, Vt = U[:, :nc], S[:nc], Vt[:nc]
        else:
            # scikit-learn's Gaussian sketch for the same random_state
            rng = numpy_random_state(self.random_state)
            if rng is None:
                rng = check_random_state(self.random_state, X.device)
            it = _svd.auto_iterations(self.iterated_power, nc, X.shape)
            U, S, Vt = _svd.randomized_svd(Xc, nc, self.n_oversamples, it, rng)
        U, Vt = _svd.flip_rows(U, Vt)
        ev = S * S / (n - 1)
        total = float((Xc * Xc).sum()) / (n - 1)
        ratio = ev / total
        if nc < min(n, p):
            self.noise_variance_ = (total - float(ev.sum())) / (min(n, p) - nc)
        else:
            self.noise_variance_ = 0.0
        self._store(n, nc, Vt, ev, ratio, S, mean)
        return U, S, Xc

    def _store(self, n, nc, Vt, ev, ratio, S, mean):
        self.n_samples_ = n
        self.n_components_ = nc
        self.components_ = ember.ascontiguousarray(Vt[:nc])
        self.explained_variance_ = ember.ascontiguousarray(ev[:nc])
        self.explained_variance_ratio_ = ember.ascontiguousarray(ratio[:nc])
        self.singular_values_ = ember.ascontiguousarray(S[:nc])
        self.mean_ = mean
