"""IncrementalPCA: PCA fitted batch by batch (Ross et al.'s incremental
SVD, as scikit-learn), so X need not fit at once; each batch is one SVD of
a (k + batch + 1) x p matrix."""
import numbers

import ember
from ember import linalg as la
from ember.ml import _validation as V
from ember.ml.decomposition import _svd
from ember.ml.decomposition._pca import _BasePCA
from ember.ml.base import fitted


def batches(n, size, min_size):
    """scikit-learn's gen_batches: slices of `size`, the last batch
    absorbing a remainder shorter than min_size."""
    start = 0
    for _ in range(n // size):
        end = start + size
        if end + min_size > n:
            continue
        yield slice(start, end)
        start = end
    if start < n:
        yield slice(start, n)


class IncrementalPCA(_BasePCA):
    """sklearn.decomposition.IncrementalPCA on ember arrays."""

    var_ = fitted()

    def __init__(self, n_components=None, *, whiten=False, copy=True, batch_size=None):
        self.n_components = n_components
        self.whiten = whiten
        self.copy = copy
        self.batch_size = batch_size

    def fit(self, X, y=None):
        for k in ("components_", "n_samples_seen_", "mean_", "var_"):
            self.__dict__.pop(k, None)
        X, _ = self._fit_input(X)
        n, p = X.shape
        size = 5 * p if self.batch_size is None else self.batch_size
        V.check_scalar(size, "batch_size", numbers.Integral, min_val=1, est=self)
        for sl in batches(n, size, self.n_components or 0):
            self._partial(X[sl])
        return self

    def partial_fit(self, X, y=None, check_input=True):
        first = "components_" not in self.__dict__
        if first:
            X, _ = self._fit_input(X)
        else:
            X = self._predict_input(X)
        self._partial(X)
        return self

    def _partial(self, X):
        n, p = X.shape
        first = "components_" not in self.__dict__
        nc = self.n_components
        if nc is None:
            nc = min(n, p) if first else self.n_components_
        elif not 1 <= nc <= p:
            raise ValueError(f"n_components={nc!r} invalid for n_features={p}, need "
                             f"more rows than columns for IncrementalPCA processing")
        elif nc > n:
            raise ValueError(f"n_components={nc!r} must be less or equal to the batch "
                             f"number of samples {n}")
        if not first and self.n_components_ != nc:
            raise ValueError(f"Number of input features has changed from "
                             f"{self.n_components_} to {nc} between calls to "
                             "partial_fit! Try setting n_components to a fixed value.")
        seen = 0 if first else self.n_samples_seen_
        last_mean = ember.zeros(p, dtype=X.dtype, device=X.device) if first else \
            self._dev("mean_")
        last_var = ember.zeros(p, dtype=X.dtype, device=X.device) if first else \
            self._dev("var_")
        # running mean and variance (Chan, Golub and LeVeque's pairwise update)
        total = seen + n
        bmean = X.mean(axis=0)
        bsq = ((X - bmean) ** 2).sum(axis=0)
        mean = (last_mean * seen + bmean * n) / total
        delta = bmean - last_mean
        var = (last_var * seen + bsq + delta * delta * (seen * n / total)) / total
        Xc = X - bmean
        if not first:
            corr = ((seen / total) * n) ** 0.5 * (last_mean - bmean)
            Xc = ember.concatenate([self._dev("singular_values_")[:, None] *
                                    self._dev("components_"), Xc, corr[None, :]])
        U, S, Vt = la.svd(Xc, full_matrices=False)
        U, Vt = _svd.flip_rows(U, Vt)
        ev = S * S / (total - 1)
        ratio = S * S / (var * total).sum()
        self.n_samples_seen_ = total
        self.n_components_ = nc
        self.components_ = ember.ascontiguousarray(Vt[:nc])
        self.singular_values_ = S[:nc]
        self.mean_ = mean
        self.var_ = var
        self.explained_variance_ = ev[:nc]
        self.explained_variance_ratio_ = ratio[:nc]
        self.noise_variance_ = float(ev[nc:].mean()) if nc not in (n, p) else 0.0
