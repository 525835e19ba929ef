"""DBSCAN over ember arrays with memory bounded by blocks of rows: the
eps-graph is never stored, each pass recomputes a block of distances (one
GEMM) against all rows."""
import numbers

import ember
from ember.ml import _validation as V
from ember.ml.base import BaseEstimator, ClusterMixin, fitted
from ember.ml.cluster._common import (compress, hook, ranks_of_roots, row_blocks,
                                      sample_weight_of, scatter_min, sq_dist_block,
                                      sq_norms)
from ember.ml.cluster._grid import MAX_DIM, grid_pairs

_METRICS = ("euclidean", "l2")
# Pairs within eps kept as two int32 arrays when there are at most this
# many (2 GiB): the rounds of the components then cost O(pairs) each instead
# of a pass over all n^2 distances. 10^6 points of issue 23's 3-D blobs at
# eps 0.3 make about 1.3e8 pairs.
EDGE_BUDGET = 1 << 28
_ALGORITHMS = ("auto", "ball_tree", "kd_tree", "brute")


class DBSCAN(ClusterMixin, BaseEstimator):
    """Density-based clustering (scikit-learn's DBSCAN). The labels equal
    scikit-learn's, border points included: clusters are numbered by their
    smallest core index and a border point takes the first of them among its
    core neighbours, which is the order of scikit-learn's expansion."""

    # scikit-learn takes a sparse X here; ember.ml makes it dense
    # (_sparse_input.py), so components_ is dense where scikit-learn's is sparse
    _accept_sparse = True

    labels_ = fitted()
    core_sample_indices_ = fitted()
    components_ = fitted()

    def __init__(self, eps=0.5, *, min_samples=5, metric="euclidean", metric_params=None,
                 algorithm="auto", leaf_size=30, p=None, n_jobs=None):
        self.eps = eps
        self.min_samples = min_samples
        self.metric = metric
        self.metric_params = metric_params
        self.algorithm = algorithm
        self.leaf_size = leaf_size
        self.p = p
        self.n_jobs = n_jobs

    def _check_params(self):
        V.check_scalar(self.eps, "eps", numbers.Real, min_val=0, include_boundaries="neither",
                       est=self)
        V.check_scalar(self.min_samples, "min_samples", numbers.Integral, min_val=1,
                       est=self)
        V.check_option(self.algorithm, "algorithm", _ALGORITHMS, est=self)
        V.check_scalar(self.leaf_size, "leaf_size", numbers.Integral, min_val=1, est=self)
        if not isinstance(self.metric, str) or self.metric not in _METRICS:
            raise NotImplementedError(f"DBSCAN(metric={self.metric!r}): ember's DBSCAN "
                                      "has metric='euclidean' only")
        if self.metric_params or self.p not in (None, 2):
            raise NotImplementedError("DBSCAN: metric_params and p are not supported "
                                      "(metric='euclidean' only)")

    def fit(self, X, y=None, sample_weight=None):
        self._check_params()
        X, _ = self._fit_input(X)
        w = sample_weight_of(sample_weight, X)
        n = X.shape[0]
        xx = sq_norms(X)
        eps2 = float(self.eps) ** 2
        blocks = row_blocks(n, n)
        pairs = None
        if X.shape[1] <= MAX_DIM and self.algorithm != "brute":
            pairs = grid_pairs(X, self.eps, EDGE_BUDGET)
        if pairs is not None:
            r, c = pairs
            counts = (ember.bincount(r, minlength=n) if sample_weight is None else
                      ember.bincount(r, weights=ember.take(w, c), minlength=n))
        else:
            counts, pairs = _neighbour_pass(X, xx, eps2, blocks,
                                            None if sample_weight is None else w)
        core = counts >= self.min_samples
        if pairs is not None:
            parent, m = _roots_by_edges(core, *pairs)
        else:
            parent, m = _roots_by_blocks(X, xx, eps2, blocks, core)
        root = ember.where(core, parent[:n], m)
        member = root < n
        idx = ember.arange(n, device=X.device)
        labels = ranks_of_roots(ember.where(member, root, idx), member)
        self.labels_ = labels
        core_idx = ember.nonzero(core)[0]
        self.core_sample_indices_ = core_idx
        self.components_ = ember.take(X, core_idx, axis=0)
        return self

    def fit_predict(self, X, y=None, sample_weight=None):
        return self.fit(X, sample_weight=sample_weight).labels_


def _near(X, xx, eps2, s, e):
    return sq_dist_block(X[s:e], xx[s:e], X, xx) <= eps2


def _neighbour_pass(X, xx, eps2, blocks, w):
    """Each row's neighbours within eps, itself included (their total weight
    when w is given), and the pairs (row, neighbour) as two int32 arrays
    while they fit EDGE_BUDGET (None past it): one pass over the distances."""
    n = X.shape[0]
    cnt = ember.empty(n, dtype=ember.int64, device=X.device)
    wc = None if w is None else ember.empty(n, dtype=w.dtype, device=X.device)
    rows, cols, total = [], [], 0
    for s, e in blocks:
        near = _near(X, xx, eps2, s, e)
        cnt[s:e] = near.sum(axis=1)
        if w is not None:
            wc[s:e] = (near.astype(w.dtype) * w[None, :]).sum(axis=1)
        if rows is not None:
            r, c = ember.nonzero(near)
            total += r.shape[0]
            if total > EDGE_BUDGET:
                rows = cols = None
            else:
                rows.append((r + s).astype(ember.int32))
                cols.append(c.astype(ember.int32))
    pairs = None if rows is None else (ember.concatenate(rows), ember.concatenate(cols))
    return (cnt if w is None else wc), pairs


def _sentinel_parents(core):
    # Non-core rows point at a sentinel row n that points at itself.
    n = core.shape[0]
    idx = ember.arange(n, device=core.device)
    return ember.concatenate([ember.where(core, idx, n),
                              ember.full(1, n, dtype=idx.dtype, device=core.device)])


def _roots_by_edges(core, r, c):
    """Roots of the core components and each row's smallest neighbouring
    core root, from the stored pairs (row r, neighbour c). The pairs are
    sorted by row once; each round is then a min by key over the pairs and
    a scatter over at most n rows."""
    n = core.shape[0]
    to_core = ember.take(core, c)
    r, c = r[to_core], c[to_core]
    r, c = ember.parallel.radix_sort(r, c)
    from_core = ember.take(core, r)
    rc, cc = r[from_core], c[from_core]
    parent = _sentinel_parents(core)
    if rc.shape[0]:
        rows = ember.parallel.unique_by_key(rc)
        while True:
            before = parent
            _, mn = ember.parallel.reduce_by_key(rc, ember.take(before, cc), op="min")
            parent = before.copy()
            scatter_min(parent, ember.take(before, rows), mn)
            parent[rows] = ember.minimum(ember.take(parent, rows), mn)
            parent = compress(parent)
            if bool((parent == before).all()):
                break
    m = ember.full(n, n, dtype=ember.int64, device=core.device)
    if r.shape[0]:
        rows, mn = ember.parallel.reduce_by_key(r, ember.take(parent, c), op="min")
        m[rows] = mn
    return parent, m


def _roots_by_blocks(X, xx, eps2, blocks, core):
    """The same as _roots_by_edges with the pairs recomputed block by block
    every round, for graphs too large to keep."""
    n = X.shape[0]
    parent = _sentinel_parents(core)
    idx = ember.arange(n, device=X.device)
    m = ember.empty(n, dtype=ember.int64, device=X.device)
    # Rounds of hooking each core point's root to the smallest root among
    # its core neighbours, then pointer jumping: every component that is
    # not finished merges with another each round, so about log2(n)
    # rounds. The round that changes nothing also gives each border point
    # its smallest neighbouring root.
    while True:
        before = parent
        parent = parent.copy()
        for s, e in blocks:
            near = _near(X, xx, eps2, s, e)
            near &= core[None, :]
            mb = ember.where(near, before[None, :n], n).min(axis=1)
            m[s:e] = mb
            rows = idx[s:e][core[s:e]]
            if rows.shape[0]:
                hook(parent, rows, ember.take(mb, rows - s))
        parent = compress(parent)
        if bool((parent == before).all()):
            break
    return parent, m
