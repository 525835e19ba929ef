"""TruncatedSVD: the top singular triplets of X uncentred (latent semantic
analysis), randomized by default as in scikit-learn."""
import numbers

import ember
from ember.ml import _validation as V
from ember.ml._random import check_random_state, numpy_random_state
from ember.ml.base import BaseEstimator, TransformerMixin, fitted
from ember.ml.decomposition import _svd


class TruncatedSVD(TransformerMixin, BaseEstimator):
    """sklearn.decomposition.TruncatedSVD on dense ember arrays."""

    # scikit-learn takes a sparse X here; ember.ml makes it dense (_sparse_input.py)
    _accept_sparse = True

    components_ = fitted()
    explained_variance_ = fitted()
    explained_variance_ratio_ = fitted()
    singular_values_ = fitted()

    def __init__(self, n_components=2, *, algorithm="randomized", n_iter=5,
                 n_oversamples=10, power_iteration_normalizer="auto",
                 random_state=None, tol=0.0):
        self.n_components = n_components
        self.algorithm = algorithm
        self.n_iter = n_iter
        self.n_oversamples = n_oversamples
        self.power_iteration_normalizer = power_iteration_normalizer
        self.random_state = random_state
        self.tol = tol

    def fit(self, X, y=None):
        self.fit_transform(X)
        return self

    def fit_transform(self, X, y=None):
        V.check_option(self.algorithm, "algorithm", ("arpack", "randomized"), self)
        if isinstance(self.n_components, bool) or not isinstance(self.n_components,
                                                                 numbers.Integral):
            raise ValueError("The 'n_components' parameter of TruncatedSVD must be "
                             f"an int in the range [1, inf). Got {self.n_components!r} "
                             "instead.")
        V.check_scalar(self.n_components, "n_components", numbers.Integral, min_val=1,
                       est=self)
        X, _ = self._fit_input(X, ensure_min_features=2)
        k = int(self.n_components)
        n, p = X.shape
        if self.algorithm == "arpack":
            if k >= p:
                raise ValueError(f"n_components must be < n_features; got {k} >= {p}")
            U, S, Vt = _svd.thin_svd(X)
            U, S, Vt = U[:, :k], S[:k], Vt[:k]
        else:
            if k > p:
                raise ValueError(f"n_components({k}) must be <= n_features({p}).")
            # scikit-learn's Gaussian sketch for the same random_state
            rng = numpy_random_state(self.random_state)
            if rng is None:
                rng = check_random_state(self.random_state, X.device)
            U, S, Vt = _svd.randomized_svd(X, k, self.n_oversamples, self.n_iter, rng)
        U, Vt = _svd.flip_rows(U, Vt)
        self.components_ = ember.ascontiguousarray(Vt)
        Xt = U * S
        ev = Xt.var(axis=0)
        self.explained_variance_ = ev
        self.explained_variance_ratio_ = ev / X.var(axis=0).sum()
        self.singular_values_ = S
        return self._out(Xt)

    def get_feature_names_out(self, input_features=None):
        """scikit-learn's names of the components: truncatedsvd0, ..."""
        import numpy as np
        V.check_is_fitted(self)
        return np.asarray([f"truncatedsvd{i}" for i in range(self.components_.shape[0])],
                          dtype=object)

    def transform(self, X):
        X = self._predict_input(X)
        return self._out(X @ self._dev("components_").astype(X.dtype).T)

    def inverse_transform(self, X):
        V.check_is_fitted(self)
        X = V.check_array(X, device=self._device, estimator=self)
        return self._out(X @ self._dev("components_").astype(X.dtype))
