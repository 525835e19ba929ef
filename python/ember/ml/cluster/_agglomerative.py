"""AgglomerativeClustering (scikit-learn's, connectivity=None): the whole
tree by ember.scipy.cluster's kernels (_linkage.py: the nearest-neighbour
chain in one launch over the n x n dissimilarity matrix; single linkage
by Prim's in one launch, measuring from X as the tree grows), in
scikit-learn's children_ convention, and the labels of its cut as the
components of the first n - k merges."""
import numbers

import ember
from ember.ml import _validation as V
from ember.ml.base import BaseEstimator, ClusterMixin, fitted
from ember.ml.cluster._common import compress, hook, ranks_of_roots
from ember.scipy.cluster import _linkage

_LINKAGES = ("ward", "complete", "average", "single")
# scikit-learn's metric names (sklearn.metrics.pairwise._VALID_METRICS)
_SK_METRICS = ("euclidean", "l2", "l1", "manhattan", "cityblock", "braycurtis",
               "canberra", "chebyshev", "correlation", "cosine", "dice", "hamming",
               "jaccard", "mahalanobis", "matching", "minkowski", "rogerstanimoto",
               "russellrao", "seuclidean", "sokalsneath", "sqeuclidean", "yule",
               "wminkowski", "nan_euclidean", "haversine")
# scikit-learn hands SciPy its aliases' names
_SCIPY_NAME = {"l2": "euclidean", "l1": "cityblock", "manhattan": "cityblock"}
# the metrics ember.scipy.spatial.distance.cdist measures besides the
# kernel's own
_CDIST = ("braycurtis", "canberra", "correlation", "hamming", "jaccard", "minkowski")
# single linkage with these goes through scikit-learn's own spanning tree
# (its DistanceMetric names), which lists each merge's clusters in the
# order the tree reached them; every other case is SciPy's linkage, which
# lists the smaller cluster id first
_SK_TREE = ("euclidean", "cityblock", "chebyshev", "braycurtis", "canberra", "hamming",
            "jaccard", "minkowski")


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


def _dissimilarity(X, metric):
    """The n x n float64 matrix the merges are made on (a fresh one: the
    kernel overwrites it)."""
    if callable(metric) or metric == "precomputed":
        D = metric(X) if callable(metric) else X
        D = ember.asarray(D, device=X.device)
        if D.ndim != 2 or D.shape[0] != D.shape[1]:
            raise ValueError("Distance matrix should be square, got matrix of shape "
                             f"{tuple(D.shape)}")
        return _linkage.symmetric(D)
    name = _SCIPY_NAME.get(metric, metric)
    if name in _linkage.DIST_METRICS:
        return _linkage.distances(X, name)
    from ember.scipy.spatial.distance import cdist
    return _linkage.symmetric(cdist(X, X, name))


class AgglomerativeClustering(ClusterMixin, BaseEstimator):
    """Hierarchical clustering (scikit-learn's AgglomerativeClustering),
    connectivity=None: linkage ward (euclidean), complete, average or
    single, with a metric name, 'precomputed' or a callable."""

    labels_ = fitted()
    distances_ = fitted()
    children_ = fitted()

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
        if not callable(self.metric):
            V.check_option(self.metric, "metric", _SK_METRICS + ("precomputed",), est=self)
        if self.n_clusters is not None:
            V.check_scalar(self.n_clusters, "n_clusters", numbers.Integral, min_val=1,
                           est=self)
        if self.distance_threshold is not None:
            V.check_scalar(self.distance_threshold, "distance_threshold", numbers.Real,
                           min_val=0, est=self)
        if self.compute_full_tree != "auto" and not isinstance(self.compute_full_tree,
                                                               bool):
            raise ValueError("The 'compute_full_tree' parameter of "
                             "AgglomerativeClustering must be a str among {'auto'} or an "
                             f"instance of 'bool'. Got {self.compute_full_tree!r} instead.")
        if (self.n_clusters is None) == (self.distance_threshold is None):
            raise ValueError("Exactly one of n_clusters and distance_threshold has to "
                             "be set, and the other needs to be None.")
        if self.distance_threshold is not None and not self.compute_full_tree:
            raise ValueError("compute_full_tree must be True if distance_threshold "
                             "is set.")
        if self.linkage == "ward" and self.metric not in ("euclidean", "l2"):
            raise ValueError(f"{self.metric} was provided as metric. Ward can only "
                             "work with euclidean distances (i.e. 'euclidean' and 'l2').")
        if self.connectivity is not None:
            raise NotImplementedError("AgglomerativeClustering(connectivity=...): ember "
                                      "builds the unstructured tree only "
                                      "(connectivity=None)")
        m = self.metric
        if not (callable(m) or m == "precomputed" or _SCIPY_NAME.get(m, m) in
                tuple(_linkage.DIST_METRICS) + _CDIST):
            raise NotImplementedError(f"AgglomerativeClustering(metric={m!r}) is not "
                                      "supported by ember")

    def fit(self, X, y=None):
        self._check_params()
        X, _ = self._fit_input(X, ensure_min_samples=2)
        n = X.shape[0]
        if self.n_clusters is not None and self.n_clusters > n:
            raise ValueError("Cannot extract more clusters than samples: "
                             f"{self.n_clusters} clusters were given for a tree with "
                             f"{n} leaves.")
        metric = self.metric
        if metric == "cosine" and not bool((X != 0).any(axis=1).all()):
            raise ValueError("Cosine affinity cannot be used when X contains zero vectors")
        name = _SCIPY_NAME.get(metric, metric) if isinstance(metric, str) else None
        ordered = not (self.linkage == "single" and name in _SK_TREE)
        if self.linkage == "single" and name in _linkage.DIST_METRICS:
            # the spanning tree measures as it grows: no n x n matrix
            Z, u, v = _linkage.numbered(*_linkage.single_from_points(X, name),
                                        ordered=ordered)
        else:
            Z, u, v = _linkage.tree(_dissimilarity(X, metric), self.linkage,
                                    ordered=ordered)
        w = Z[:, 2]
        self.children_ = Z[:, :2].astype(ember.int64)
        if self.distance_threshold is not None:
            k = int((w >= self.distance_threshold).sum()) + 1
        else:
            k = self.n_clusters
        # scikit-learn cuts off the k - 1 highest clusters: what stays
        # joined is what the first n - k merges joined
        keep = n - k
        self.labels_ = forest_labels(n, u[:keep], v[:keep], X.device)
        self.n_clusters_ = k
        self.n_leaves_ = n
        self.n_connected_components_ = 1
        if self.distance_threshold is not None or self.compute_distances:
            self.distances_ = ember.ascontiguousarray(w)
        else:
            self.__dict__.pop("distances_", None)
        return self

    def fit_predict(self, X, y=None):
        return self.fit(X).labels_
