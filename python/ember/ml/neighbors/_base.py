"""What NearestNeighbors, KNeighborsClassifier and KNeighborsRegressor share:
parameter checks, fit (the training rows kept on their device), and the
kneighbors / kneighbors_graph / radius_neighbors queries.

Every algorithm name is accepted; all of them run the brute force of
_search.py ('ball_tree' and 'kd_tree' give the same neighbours as
scikit-learn's trees, found the same way as 'brute')."""
import numbers

import ember
from ember.ml import _sparse_input as S
from ember.ml import _validation as V
from ember.ml.metrics.pairwise import Prepared, resolve_metric
from ember.ml.neighbors import _search

_ALGORITHMS = ("auto", "ball_tree", "kd_tree", "brute")
_EXTRA_METRICS = ("precomputed", "inner_product")


class NeighborsBase:
    """Mixed into BaseEstimator subclasses whose __init__ sets n_neighbors
    (or not), algorithm, leaf_size, metric, p, metric_params, n_jobs."""

    # scikit-learn takes a sparse X here; ember.ml makes it dense (_sparse_input.py)
    _accept_sparse = True

    def _check_params(self):
        if getattr(self, "n_neighbors", None) is not None:
            V.check_scalar(self.n_neighbors, "n_neighbors", numbers.Integral,
                           min_val=1, est=self)
        if hasattr(self, "radius") and self.radius is not None:
            V.check_scalar(self.radius, "radius", numbers.Real, min_val=0, est=self)
        V.check_option(self.algorithm, "algorithm", _ALGORITHMS, est=self)
        V.check_scalar(self.leaf_size, "leaf_size", numbers.Integral, min_val=1,
                       est=self)
        if self.p is not None:
            V.check_scalar(self.p, "p", numbers.Real, min_val=0,
                           include_boundaries="right", est=self)
        params = dict(self.metric_params or {})
        p = params.pop("p", self.p)
        if params:
            raise NotImplementedError(f"metric_params {sorted(params)} are not "
                                      "supported")
        if self.metric in _EXTRA_METRICS:
            self._metric, self._p = self.metric, None
            self.effective_metric_, self.effective_metric_params_ = self.metric, {}
            return
        self._metric, self._p = resolve_metric(self.metric, p, type(self).__name__)
        eff, eff_params = self.metric, {}
        if self.metric == "minkowski":
            eff = {"euclidean": "euclidean", "manhattan": "manhattan",
                   "chebyshev": "chebyshev"}.get(self._metric, "minkowski")
            if eff == "minkowski":
                eff_params = {"p": p}
        self.effective_metric_, self.effective_metric_params_ = eff, eff_params

    def _fit_rows(self, X, y=None, **kw):
        """Checked X (and y) kept for the queries."""
        self._check_params()
        self._graph_min = None
        if self._metric == "precomputed" and S.is_sparse(X):
            D, self._graph_min = self._graph_dense(X, None)
            Xa, ya = self._fit_input(D, y, allow_nan=True, **kw)
            self._output_kind = V.input_kind(X)
        else:
            Xa, ya = self._fit_input(X, y, **kw)
        if self._metric == "precomputed" and Xa.shape[0] != Xa.shape[1]:
            raise ValueError(f"Precomputed matrix must be square. Input is a "
                             f"{Xa.shape[0]}x{Xa.shape[1]} matrix.")
        self._fit_X = Xa
        self.n_samples_fit_ = Xa.shape[0]
        # the training rows' norms (and scaled copy) once, at fit, so a
        # query does not change the estimator; a pickle leaves them out
        self._prep = Prepared(Xa, self._metric, self._p)
        return Xa, ya

    def _graph_dense(self, G, device):
        """A sparse precomputed graph (scikit-learn's KNeighborsTransformer
        output) as a dense distance matrix, the pairs it leaves out at
        infinity so they are never among the neighbours found; and the
        fewest pairs a row of it holds."""
        rows = S.stored_per_row(G)
        D = S.densify(G, device, fill=float("inf"))
        if bool(ember.isnan(D).any()):
            raise ValueError("Input X contains NaN.")
        if bool((D < 0).any()):
            raise ValueError("Negative values in data passed to precomputed "
                             "distance matrix.")
        return D, int(rows.min()) if rows.size else 0

    def __getstate__(self):
        state = super().__getstate__()
        state.pop("_prep", None)
        return state

    def __setstate__(self, state):
        super().__setstate__(state)
        if "_fit_X" in state:
            self._prep = Prepared(self._fit_X, self._metric, self._p)

    def _need_y(self, y):
        if y is None:
            raise ValueError(f"{type(self).__name__} requires y to be passed, but "
                             "the target y is None")

    def _queries(self, X):
        """The checked queries, whether they are the training rows, and the
        fewest pairs a row holds where they are a sparse graph (else None)."""
        if X is None:
            V.check_is_fitted(self)
            return self._fit_X, True, getattr(self, "_graph_min", None)
        have = None
        if getattr(self, "_metric", None) == "precomputed" and S.is_sparse(X):
            V.check_is_fitted(self)
            D, have = self._graph_dense(X, self._device)
            Q = self._predict_input(D, allow_nan=True)
        else:
            Q = self._predict_input(X)
        if self._metric == "precomputed" and Q.shape[1] != self.n_samples_fit_:
            raise ValueError(f"Precomputed metric requires shape (n_queries, "
                             f"n_indexed). Got ({Q.shape[0]}, {Q.shape[1]}) for "
                             f"{self.n_samples_fit_} indexed.")
        return Q, False, have

    def _kneighbors(self, X=None, n_neighbors=None, return_distance=True):
        """(distances, indices) as ember arrays, or indices alone."""
        if n_neighbors is None:
            n_neighbors = self.n_neighbors
        if not isinstance(n_neighbors, numbers.Integral) or isinstance(n_neighbors, bool):
            raise TypeError(f"n_neighbors does not take {type(n_neighbors)} value, "
                            "enter integer value")
        if n_neighbors <= 0:
            raise ValueError(f"Expected n_neighbors > 0. Got {n_neighbors}")
        Q, is_train, have = self._queries(X)
        need = n_neighbors + 1 if is_train else n_neighbors
        if have is not None and have < need:
            raise ValueError(f"{need} neighbors per samples are required, "
                             f"but some samples have only {have} neighbors in "
                             "precomputed graph matrix. Decrease number of neighbors "
                             "used or recompute the graph with more neighbors.")
        if need > self.n_samples_fit_:
            rel = "<" if is_train else "<="
            raise ValueError(f"Expected n_neighbors {rel} n_samples_fit, but "
                             f"n_neighbors = {n_neighbors}, n_samples_fit = "
                             f"{self.n_samples_fit_}, n_samples = {Q.shape[0]}")
        dist, ind = _search.kneighbors(self._prep, Q, int(n_neighbors),
                                       exclude_self=is_train)
        return (dist, ind) if return_distance else ind

    def kneighbors(self, X=None, n_neighbors=None, return_distance=True):
        """The n_neighbors nearest training rows of each row of X, nearest
        first (X=None: of each training row, itself excluded)."""
        r = self._kneighbors(X, n_neighbors, return_distance)
        if return_distance:
            return self._out(r[0]), self._out(r[1])
        return self._out(r)

    def _graph(self, indptr, indices, data, n_rows):
        from ember.scipy.sparse import csr_matrix
        g = csr_matrix((data, indices, indptr), shape=(n_rows, self.n_samples_fit_))
        want = V.output(self, ember.zeros(1, device=indptr.device))
        return g if isinstance(want, ember.ndarray) else g.get()

    def kneighbors_graph(self, X=None, n_neighbors=None, mode="connectivity"):
        """A CSR matrix (n_queries, n_samples_fit): an ember csr_matrix after
        an ember fit, a SciPy one after a NumPy fit."""
        V.check_option(mode, "mode", ("connectivity", "distance"))
        if n_neighbors is None:
            n_neighbors = self.n_neighbors
        dist, ind = self._kneighbors(X, n_neighbors, True)
        n, k = ind.shape
        data = dist.reshape(-1) if mode == "distance" else \
            ember.ones(n * k, dtype=ember.float64, device=ind.device)
        indptr = ember.arange(0, n * k + 1, k, dtype=ember.int64, device=ind.device)
        return self._graph(indptr, ind.reshape(-1), data, n)

    def _radius(self, X, radius, sort_results):
        if radius is None:
            radius = self.radius
        Q, is_train, _ = self._queries(X)
        return _search.radius_neighbors(self._prep, Q, radius,
                                        exclude_self=is_train,
                                        sort_results=sort_results)

    def radius_neighbors(self, X=None, radius=None, return_distance=True,
                         sort_results=False):
        """Per query, the training rows within radius: NumPy object arrays
        of arrays as scikit-learn's (ember arrays inside after an ember
        fit); the search is blocked on the device, only the split into
        rows happens on the host."""
        if sort_results and not return_distance:
            raise ValueError("return_distance must be True if sort_results is True.")
        import numpy as np
        indptr, ind, dist = self._radius(X, radius, sort_results)
        cuts = ember.asnumpy(indptr)[1:-1]

        def rows(a):
            parts = np.split(ember.asnumpy(a), cuts)
            o = np.empty(len(parts), dtype=object)
            if isinstance(V.output(self, a), ember.ndarray):
                parts = [ember.asarray(p, device=a.device) for p in parts]
            o[:] = parts
            return o
        if return_distance:
            return rows(dist), rows(ind)
        return rows(ind)

    def radius_neighbors_graph(self, X=None, radius=None, mode="connectivity",
                               sort_results=False):
        V.check_option(mode, "mode", ("connectivity", "distance"))
        indptr, ind, dist = self._radius(X, radius, sort_results)
        data = dist if mode == "distance" else \
            ember.ones(ind.shape[0], dtype=ember.float64, device=ind.device)
        return self._graph(indptr, ind, data, indptr.shape[0] - 1)


class KNeighborsBase(NeighborsBase):
    """The parameters of KNeighborsClassifier and KNeighborsRegressor."""

    def __init__(self, n_neighbors=5, *, weights="uniform", algorithm="auto",
                 leaf_size=30, p=2, metric="minkowski", metric_params=None,
                 n_jobs=None):
        self.n_neighbors = n_neighbors
        self.weights = weights
        self.algorithm = algorithm
        self.leaf_size = leaf_size
        self.p = p
        self.metric = metric
        self.metric_params = metric_params
        self.n_jobs = n_jobs


def check_weights(weights, est):
    if weights in ("uniform", "distance", None) or callable(weights):
        return weights
    raise ValueError(f"The 'weights' parameter of {type(est).__name__} must be a str "
                     f"among {{'distance', 'uniform'}}, a callable or None. Got "
                     f"{weights!r} instead.")


def neighbor_weights(dist, weights):
    """Per-neighbour weights (None for uniform): 1/d, where a row with a
    zero distance weighs its zero-distance neighbours 1 and the rest 0, as
    scikit-learn."""
    if weights in (None, "uniform"):
        return None
    if callable(weights):
        return V.to_ember(weights(dist), dist.device)
    zero = dist == 0
    hit = zero.any(axis=1, keepdims=True)
    inv = 1.0 / ember.where(zero, ember.ones_like(dist), dist)
    return ember.where(hit, zero.astype(dist.dtype), inv)
