"""AgglomerativeClustering with single linkage: the dendrogram of single
linkage is the minimum spanning tree with its edges in increasing order, so
cutting it into k clusters is dropping the k-1 longest edges of the tree
and labelling the components that remain."""
import numbers

import ember
from ember.ml import _validation as V
from ember.ml.base import BaseEstimator, ClusterMixin, fitted
from ember.ml.cluster._common import compress, hook, ranks_of_roots

_LINKAGES = ("ward", "complete", "average", "single")


def minimum_spanning_tree(X):
    """Prim's algorithm from row 0: n-1 steps, each a whole-array update of
    the distances to the tree and an argmin (one host sync a step). Returns
    the edges (u, v) and their euclidean lengths in the order they were
    added."""
    n = X.shape[0]
    dev = X.device
    inf = ember.asarray(float("inf"), dtype=X.dtype, device=dev)
    d = ember.full(n, float("inf"), dtype=X.dtype, device=dev)
    src = ember.zeros(n, dtype=ember.int64, device=dev)
    intree = ember.zeros(n, dtype=ember.bool_, device=dev)
    order = []
    cur = 0
    for _ in range(n - 1):
        intree[cur] = True
        diff = X - X[cur:cur + 1]
        dc = (diff * diff).sum(axis=1)
        better = (dc < d) & ~intree
        d = ember.where(better, dc, d)
        src = ember.where(better, cur, src)
        cur = int(ember.argmin(ember.where(intree, inf, d)))
        order.append(cur)
    v = ember.asarray(order, device=dev).astype(ember.int64)
    return ember.take(src, v), v, ember.sqrt(ember.take(d, v))


def forest_labels(n, u, v, dev):
    """Component labels of the graph on n nodes with edges (u, v), numbered
    by their smallest node."""
    parent = ember.arange(n, device=dev)
    if u.shape[0]:
        while True:
            before = parent
            parent = parent.copy()
            hook(parent, u, ember.take(before, v))
            hook(parent, v, ember.take(before, u))
            parent = compress(parent)
            if bool((parent == before).all()):
                break
    return ranks_of_roots(parent, ember.ones(n, dtype=ember.bool_, device=dev))


class AgglomerativeClustering(ClusterMixin, BaseEstimator):
    """Hierarchical clustering (scikit-learn's AgglomerativeClustering) with
    linkage='single' and the euclidean metric."""

    labels_ = fitted()
    distances_ = fitted()

    def __init__(self, n_clusters=2, *, metric="euclidean", memory=None,
                 connectivity=None, compute_full_tree="auto", linkage="ward",
                 distance_threshold=None, compute_distances=False):
        self.n_clusters = n_clusters
        self.metric = metric
        self.memory = memory
        self.connectivity = connectivity
        self.compute_full_tree = compute_full_tree
        self.linkage = linkage
        self.distance_threshold = distance_threshold
        self.compute_distances = compute_distances

    def _check_params(self):
        V.check_option(self.linkage, "linkage", _LINKAGES, est=self)
        if self.linkage != "single":
            raise NotImplementedError(f"AgglomerativeClustering(linkage={self.linkage!r}): "
                                      "ember builds linkage='single' only")
        if self.metric not in ("euclidean", "l2"):
            raise NotImplementedError(f"AgglomerativeClustering(metric={self.metric!r}): "
                                      "ember builds metric='euclidean' only")
        if self.connectivity is not None:
            raise NotImplementedError("AgglomerativeClustering: connectivity is not "
                                      "supported by ember")
        if self.n_clusters is not None:
            V.check_scalar(self.n_clusters, "n_clusters", numbers.Integral, min_val=1,
                           est=self)
        if (self.n_clusters is None) == (self.distance_threshold is None):
            raise ValueError("Exactly one of n_clusters and distance_threshold has to "
                             "be set, and the other needs to be None.")
        if self.distance_threshold is not None:
            V.check_scalar(self.distance_threshold, "distance_threshold", numbers.Real,
                           min_val=0, est=self)
            if not self.compute_full_tree:
                raise ValueError("compute_full_tree must be True if distance_threshold "
                                 "is set.")

    def fit(self, X, y=None):
        self._check_params()
        X, _ = self._fit_input(X, ensure_min_samples=2)
        n = X.shape[0]
        u, v, w = minimum_spanning_tree(X)
        # The merges of single linkage are the tree's edges by length (a
        # stable sort, so equal lengths keep the order they were added in).
        order = ember.argsort(w, kind="stable")
        u, v, w = ember.take(u, order), ember.take(v, order), ember.take(w, order)
        if self.distance_threshold is not None:
            k = int((w >= self.distance_threshold).sum()) + 1
        else:
            k = self.n_clusters
            if k > n:
                raise ValueError("Cannot extract more clusters than samples: "
                                 f"{k} clusters were given for a tree with {n} leaves.")
        keep = n - k
        self.labels_ = forest_labels(n, u[:keep], v[:keep], X.device)
        self.n_clusters_ = k
        self.n_leaves_ = n
        self.n_connected_components_ = 1
        if self.distance_threshold is not None or self.compute_distances:
            self.distances_ = w
        return self

    def fit_predict(self, X, y=None):
        return self.fit(X).labels_
