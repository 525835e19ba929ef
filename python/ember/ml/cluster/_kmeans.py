"""KMeans: scikit-learn's estimator over ember arrays (Lloyd's algorithm,
k-means++ or random seeding, n_init restarts, sample weights)."""
import numbers

import ember
from ember._progress import progress
from ember.ml import _validation as V
from ember.ml._random import check_random_state, numpy_random_state
from ember.ml.base import BaseEstimator, ClusterMixin, TransformerMixin, fitted
from ember.ml.cluster import _kmeans_steps as S
from ember.ml.cluster._common import (row_blocks, sample_weight_of,
                                      sq_dist_block, sq_norms)

# cuML's names of its seeding (k-means||, the parallel oversampling
# k-means++): ember seeds those by k-means++ as scikit-learn does, the
# same D^2-weighted choice made one center at a time
_CUML_PLUSPLUS = ("k-means||", "scalable-k-means++")


def _same_clustering(a, b, k):
    """Whether labels a map onto labels b by a function (each cluster of a
    inside one cluster of b): scikit-learn's _is_same_clustering, from the
    k x k table of label pairs (one bincount)."""
    pairs = ember.bincount(a.astype(ember.int64) * k + b.astype(ember.int64),
                           minlength=k * k).reshape(k, k)
    return bool(((pairs > 0).sum(axis=1) <= 1).all())


class _KMeansBase(ClusterMixin, TransformerMixin, BaseEstimator):
    """What KMeans and MiniBatchKMeans share: parameter checks, seeding,
    predict, transform and score."""

    # scikit-learn takes a sparse X here; ember.ml makes it dense (_sparse_input.py)
    _accept_sparse = True

    cluster_centers_ = fitted()
    labels_ = fitted()

    def _check_common(self, X, auto_random):
        V.check_scalar(self.n_clusters, "n_clusters", numbers.Integral, min_val=1,
                       est=self)
        V.check_scalar(self.max_iter, "max_iter", numbers.Integral, min_val=1, est=self)
        V.check_scalar(self.tol, "tol", numbers.Real, min_val=0, est=self)
        init = self.init
        if isinstance(init, str):
            V.check_option(init, "init", ("k-means++", "random") + _CUML_PLUSPLUS,
                           est=self)
        elif callable(init):
            raise NotImplementedError("init as a callable is not supported by ember's "
                                      f"{type(self).__name__}; pass 'k-means++', "
                                      "'random' or an array of centers")
        if self.n_init == "auto":
            n_init = 1 if not (isinstance(init, str) and init == "random") else auto_random
        else:
            n_init = V.check_scalar(self.n_init, "n_init", numbers.Integral, min_val=1,
                                    est=self)
        n = X.shape[0]
        if n < self.n_clusters:
            raise ValueError(f"n_samples={n} should be >= n_clusters={self.n_clusters}.")
        if not isinstance(init, str):
            C = V.check_array(init, dtype=X.dtype, device=X.device, input_name="init")
            if C.shape[0] != self.n_clusters:
                raise ValueError(f"The shape of the initial centers {tuple(C.shape)} "
                                 "does not match the number of clusters "
                                 f"{self.n_clusters}.")
            if C.shape[1] != X.shape[1]:
                raise ValueError(f"The shape of the initial centers {tuple(C.shape)} "
                                 "does not match the number of features of the data "
                                 f"{X.shape[1]}.")
            n_init = 1
            self._init_array = C
        return n_init

    def _init_centers(self, X, xx, w, rng, n_rows=None):
        """The starting centers from init (X already centered when it is)."""
        k = self.n_clusters
        if not isinstance(self.init, str):
            return self._init_array
        if self.init in ("k-means++",) + _CUML_PLUSPLUS:
            idx = S.kmeans_plusplus(X, k, xx, w, rng)
        else:
            idx = S.random_rows(X.shape[0], k, rng, X.device, w)
        return ember.take(X, idx, axis=0)

    def _predict_labels(self, X):
        return S.assign(X, self._dev("cluster_centers_"))[0]

    def predict(self, X):
        """The index of the nearest center of each row (int32)."""
        X = self._predict_input(X)
        return self._out(self._predict_labels(X).astype(ember.int32))

    def get_feature_names_out(self, input_features=None):
        """scikit-learn's names of the distances transform gives: kmeans0, ..."""
        import numpy as np
        V.check_is_fitted(self)
        name = type(self).__name__.lower()
        return np.asarray([f"{name}{i}" for i in range(self.n_clusters)], dtype=object)

    def transform(self, X):
        """Euclidean distances of each row to each center (n x k)."""
        X = self._predict_input(X)
        C = self._dev("cluster_centers_").astype(X.dtype)
        xx, cc = sq_norms(X), sq_norms(C)
        out = ember.empty((X.shape[0], C.shape[0]), dtype=X.dtype, device=X.device)
        for s, e in row_blocks(X.shape[0], C.shape[0]):
            out[s:e] = ember.sqrt(sq_dist_block(X[s:e], xx[s:e], C, cc))
        return self._out(out)

    def fit_transform(self, X, y=None, sample_weight=None):
        return self.fit(X, sample_weight=sample_weight).transform(X)

    def fit_predict(self, X, y=None, sample_weight=None):
        return self.fit(X, sample_weight=sample_weight).labels_

    def score(self, X, y=None, sample_weight=None):
        """Minus the inertia of X on the fitted centers."""
        X = self._predict_input(X)
        w = sample_weight_of(sample_weight, X)
        C = self._dev("cluster_centers_").astype(X.dtype)
        return -S.as_host_float(S.inertia(X, C, self._predict_labels(X), w))


class KMeans(_KMeansBase):
    """K-means clustering (scikit-learn's KMeans). algorithm='elkan' is
    accepted and runs Lloyd's iterations (the same fixpoint)."""

    def __init__(self, n_clusters=8, *, init="k-means++", n_init="auto", max_iter=300,
                 tol=1e-4, verbose=0, random_state=None, copy_x=True, algorithm="lloyd"):
        self.n_clusters = n_clusters
        self.init = init
        self.n_init = n_init
        self.max_iter = max_iter
        self.tol = tol
        self.verbose = verbose
        self.random_state = random_state
        self.copy_x = copy_x
        self.algorithm = algorithm

    def fit(self, X, y=None, sample_weight=None):
        X, _ = self._fit_input(X)
        V.check_option(self.algorithm, "algorithm", ("lloyd", "elkan"), est=self)
        n_init = self._check_common(X, auto_random=10)
        w = sample_weight_of(sample_weight, X)
        # scikit-learn's RandomState and its draws in its order (one
        # RandomState for all n_init seedings), so a random_state seeds the
        # same centers as scikit-learn's; an ember Generator draws its own
        rng = numpy_random_state(self.random_state)
        if rng is None:
            rng = check_random_state(self.random_state, X.device)
        # Centered data keeps the GEMM expansion of the distances accurate
        # (scikit-learn centers too); the mean goes back on at the end.
        mean = X.mean(axis=0)
        Xc = X - mean[None, :]
        # the row norms are k-means++'s alone (a pass over X otherwise wasted)
        xx = sq_norms(Xc) if isinstance(self.init, str) and self.init != "random" \
            else None
        tol = S.tolerance(X, self.tol)
        best = None
        # counts max_iter for each init: one that converges early skips ahead
        bar = progress(n_init * self.max_iter, "KMeans.fit", "iter")
        with bar:
            for i in range(n_init):
                C0 = self._init_centers(Xc, xx, w, rng)
                if not isinstance(self.init, str):
                    C0 = C0 - mean[None, :]
                labels, C, n_iter = S.lloyd(Xc, w, C0, self.max_iter, tol,
                                           unit=sample_weight is None, tick=bar.update)
                inert = S.as_host_float(S.inertia(Xc, C, labels, w))
                # scikit-learn keeps the earlier of two runs that found the
                # same partition, even where the later one's inertia is a
                # little lower (a run stopped by tol before converging)
                if best is None or (inert < best[0] and not _same_clustering(
                        labels, best[1], self.n_clusters)):
                    best = (inert, labels, C, n_iter)
                bar.update(self.max_iter - n_iter)
        inert, labels, C, n_iter = best
        self.__dict__.pop("_init_array", None)
        self.cluster_centers_ = C + mean[None, :]
        self.labels_ = labels.astype(ember.int32)
        self.inertia_ = inert
        self.n_iter_ = n_iter
        self._n_features_out = self.n_clusters
        return self
