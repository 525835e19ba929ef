"""KDTree with scipy.spatial.KDTree's queries, answered by brute force on
the device: for the sizes people query on a GPU, a blocked distance pass
and a per-row k-selection beat walking a tree (no divergent traversal,
one read of the points per block of queries), the choice cuML's brute
NearestNeighbors makes (CuPy's KDTree builds a tree). No tree is built;
leafsize is checked and kept. The radius queries are _ranges.py.

query() selects through ember.ml's kNN search (neighbors/_search.py:
blocks of scores, one matmul each for p = 2 on points centred at their
mean, and its top-k kernel), then recomputes the k chosen distances
pair by pair, so they are SciPy's values, not the matmul identity's
(which loses small distances between far-out points), and re-sorts them
by distance, then index. Within the few ulps where the identity's order
and the exact one differ near the k-th neighbour, the set kept may
differ from SciPy's tree."""
import math
import numbers

import numpy

import ember
from ember.scipy.spatial import _metrics, _ranges
from ember.scipy.spatial.distance import as_array, device_of

# values in a block of kNN scores; None: ember.ml's choice for the device
KNN_BUDGET = None


def _check_p(p):
    if not isinstance(p, numbers.Real) or not p >= 1:
        raise ValueError("Only p-norms with 1<=p<=infinity permitted")
    return float(p)


def _ks(k):
    """(the k's wanted, 1-based, as a list; whether k was one int)."""
    if isinstance(k, numbers.Integral):
        ks, single = [int(k)], True
    else:
        try:
            ks = [int(v) for v in k]
        except TypeError:
            raise TypeError(f"k must be an integer or a sequence of integers, "
                            f"not {type(k).__name__}") from None
        if any(not isinstance(v, numbers.Integral) for v in k):
            raise TypeError("k must be an integer or a sequence of integers")
        single = False
    if not ks or min(ks) < 1:
        raise ValueError(f"k must be at least 1 (got {k!r})")
    return ks, single


def _check_tree(tree, other, fn):
    if not isinstance(other, KDTree):
        raise TypeError(f"Argument 'other' has incorrect type (expected KDTree, "
                        f"got {type(other).__name__})")
    if other.m != tree.m:
        raise ValueError(f"Trees passed to {fn} have different dimensionality")


def _prepared(tree, p):
    """(the kNN search's view of the points for this p, the centre queries
    are shifted by), made once. For p = 2 the points are centred first:
    the matmul identity's rounding grows with the norms, and points far
    from the origin (1e6 + 1e-3 noise) would be ranked by it alone."""
    from ember.ml.metrics.pairwise import Prepared
    got = tree._prep.get(p)
    if got is None:
        m = {1.0: "manhattan", 2.0: "sqeuclidean",
             math.inf: "chebyshev"}.get(p, "minkowski")
        centre = tree.data.mean(axis=0, keepdims=True) if p == 2 else None
        pts = tree.data if centre is None else tree.data - centre
        got = tree._prep[p] = (Prepared(pts, m, p), centre)
    return got


class KDTree:
    """scipy.spatial.KDTree(data, leafsize=10, ...) over an ember array of n
    points of dimension m (kept as float64, as SciPy's). Queries answer as
    SciPy's tree; periodic boxes (boxsize) are not supported."""

    def __init__(self, data, leafsize=10, compact_nodes=True, copy_data=False,
                 balanced_tree=True, boxsize=None):
        if boxsize is not None:
            raise NotImplementedError("KDTree: periodic boundaries (boxsize) are "
                                      "not supported")
        d = as_array(data, device_of(data))
        if d.ndim != 2:
            raise ValueError("data must be of shape (n, m), where there are n points "
                             "of dimension m")
        d = d.astype(ember.float64, copy=copy_data or d.dtype != ember.float64)
        if d.size and not bool(ember.isfinite(d).all()):
            raise ValueError("data must be finite, check for nan or inf values")
        if leafsize < 1:
            raise ValueError("leafsize must be at least 1")
        self.data = d
        self.n, self.m = int(d.shape[0]), int(d.shape[1])
        self.leafsize = int(leafsize)
        if self.n:
            self.maxes, self.mins = d.max(axis=0), d.min(axis=0)
        else:
            self.maxes = self.mins = ember.empty((self.m,), dtype=ember.float64,
                                                 device=d.device)
        self._prep = {}

    def _points(self, x):
        q = as_array(x, self.data.device)
        if q.ndim == 0 or q.shape[-1] != self.m:
            raise ValueError(f"x must consist of vectors of length {self.m} but has "
                             f"shape {tuple(q.shape)}")
        q = q.astype(ember.float64, copy=False)
        if q.size and not bool(ember.isfinite(q).all()):
            raise ValueError("'x' must be finite, check for nan or inf values")
        return q

    def query(self, x, k=1, eps=0, p=2, distance_upper_bound=math.inf, workers=1):
        """(d, i): the distances to and indices of the k nearest points of
        each row of x (k an int: the k nearest, shape x.shape[:-1] + (k,),
        or x.shape[:-1] when k is 1; a list: those neighbours, 1-based).
        Neighbours missing (fewer than k points, or none closer than
        distance_upper_bound) are inf with index n. Exact for any eps."""
        p = _check_p(p)
        ks, single = _ks(k)
        q = self._points(x)
        lead = tuple(q.shape[:-1])
        Q = q.reshape((math.prod(lead), self.m))
        kmax = max(ks)
        d, i = self._nearest(Q, kmax, p, distance_upper_bound)
        cols = list(range(kmax)) if single else [v - 1 for v in ks]
        if single and kmax == 1:
            return d[:, 0].reshape(lead), i[:, 0].reshape(lead)
        if cols != list(range(kmax)):
            sel = ember.asarray(numpy.array(cols, dtype=numpy.int64), device=Q.device)
            d, i = d[:, sel], i[:, sel]
        return d.reshape(lead + (len(cols),)), i.reshape(lead + (len(cols),))

    def _nearest(self, Q, kmax, p, bound):
        """(nq, kmax) distances and indices, ascending, padded with inf and n."""
        dev, nq = Q.device, Q.shape[0]
        kk = min(kmax, self.n)
        d = ember.full((nq, kmax), math.inf, dtype=ember.float64, device=dev)
        i = ember.full((nq, kmax), self.n, dtype=ember.int64, device=dev)
        if nq == 0 or kk == 0:
            return d, i
        from ember.ml.neighbors import _search
        prep, centre = _prepared(self, p)
        _, ind = _search.kneighbors(prep, Q if centre is None else Q - centre, kk,
                                    want_dist=False, budget=KNN_BUDGET)
        # the chosen k, measured pair by pair, in p-th powers as SciPy compares
        diff = ember.abs(self.data[ind] - Q[:, None, :])
        if p == math.inf:
            S = diff.max(axis=2) if self.m else ember.zeros(ind.shape, dtype=ember.float64,
                                                             device=dev)
        else:
            S = (diff * diff if p == 2 else diff if p == 1 else diff ** p).sum(axis=2)
        # by distance, then index (the search kept index order among its ties)
        by_index = ember.argsort(ind, axis=1, kind="stable")
        S = ember.take_along_axis(S, by_index, axis=1)
        ind = ember.take_along_axis(ind, by_index, axis=1)
        order = ember.argsort(S, axis=1, kind="stable")
        S = ember.take_along_axis(S, order, axis=1)
        ind = ember.take_along_axis(ind, order, axis=1)
        if bound != math.inf:
            far = S >= (bound if p == math.inf else bound ** p)
            S = ember.where(far, math.inf, S)
            ind = ember.where(far, self.n, ind)
        d[:, :kk] = _metrics.root(S, p)
        i[:, :kk] = ind
        return d, i

    def query_ball_point(self, x, r, p=2.0, eps=0, workers=1, return_sorted=None,
                         return_length=False):
        """The indices of the points within r of each point of x: a list
        for one point, else a NumPy object array of lists of shape
        x.shape[:-1] (r broadcast against it); return_length gives the
        counts instead. Lists are in ascending index order whatever
        return_sorted asks (SciPy leaves them unordered when False)."""
        p = _check_p(p)
        q = self._points(x)
        lead = tuple(q.shape[:-1])
        Q = q.reshape((math.prod(lead), self.m))
        rr = r if isinstance(r, ember.ndarray) else ember.asarray(r, device=Q.device)
        rr = ember.broadcast_to(rr.astype(ember.float64), lead).reshape(-1)
        counts, lists = _ranges.ball(self.data, Q, rr, p, return_length)
        if return_length:
            return counts.reshape(lead) if lead else counts[0]
        if not lead:
            return lists[0]
        out = numpy.empty(len(lists), dtype=object)
        out[:] = lists
        return out.reshape(lead)

    def query_ball_tree(self, other, r, p=2.0, eps=0):
        """For each point of this tree, the list of indices of other's
        points within r (ascending)."""
        _check_tree(self, other, "query_ball_tree")
        p = _check_p(p)
        rr = ember.full((self.n,), float(r), dtype=ember.float64, device=self.data.device)
        return _ranges.ball(other.data, self.data, rr, p, False)[1]

    def query_pairs(self, r, p=2.0, eps=0, output_type="set"):
        """The pairs (i, j), i < j, of points within r of each other: a set
        of tuples, or an (npairs, 2) int64 array ordered by (i, j) for
        output_type='ndarray'."""
        if output_type not in ("set", "ndarray"):
            raise ValueError("Invalid output type")
        p = _check_p(p)
        pairs = _ranges.pairs(self.data, float(r), p)
        if output_type == "ndarray":
            return pairs
        return set(map(tuple, ember.asnumpy(pairs).tolist()))

    def count_neighbors(self, other, r, p=2.0, weights=None, cumulative=True):
        """The number of pairs (x from self, y from other) with
        distance(x, y) <= r, for a scalar r or each of a 1-D r; with
        weights (w_self, w_other), or one array when other is self, the
        sum of w_self[x] * w_other[y] over those pairs (float64). Not
        cumulative: the pairs with r[i-1] < distance <= r[i] (r sorted)."""
        _check_tree(self, other, "count_neighbors")
        p = _check_p(p)
        rh = numpy.asarray(ember.asnumpy(r) if isinstance(r, ember.ndarray) else r,
                           dtype=numpy.float64)
        if rh.ndim > 1:
            raise ValueError("r must be either a single value or a one-dimensional "
                             "array of values")
        flat = rh.reshape(-1)
        if not cumulative and (numpy.diff(flat) < 0).any():
            raise ValueError("r must be non-decreasing for non-cumulative counting.")
        w1, w2 = self._pair_weights(other, weights)
        res = _ranges.count(self.data, other.data, flat, p, w1, w2, cumulative)
        if rh.ndim == 0:
            return float(res[0]) if weights is not None else int(res[0])
        return ember.asarray(res, device=self.data.device)

    def _pair_weights(self, other, weights):
        """(w_self, w_other) as float64 arrays on the device (ones where
        None), with SciPy's checks."""
        if weights is None:
            return None, None
        if not isinstance(weights, tuple):
            if other is not self:
                raise ValueError("Two different trees are used. Specify weights for "
                                 "both in a tuple.")
            weights = (weights, weights)
        dev = self.data.device
        out = []
        for tree, w in zip((self, other), weights):
            if w is None:
                out.append(ember.ones((tree.n,), dtype=ember.float64, device=dev))
                continue
            w = as_array(w, dev).astype(ember.float64, copy=False).reshape(-1)
            if w.shape[0] != tree.n:
                raise ValueError("Number of weights differ from the number of data points")
            out.append(w)
        return out


def distance_matrix(x, y, p=2, threshold=1000000):
    """The (M, N) float64 matrix of Minkowski p-distances between the rows
    of x (M, K) and y (N, K), blocked on the device (threshold is accepted
    for SciPy's signature; the blocks bound memory here)."""
    dev = device_of(x, y)
    a = as_array(x, dev)
    b = as_array(y, a.device)
    if a.ndim != 2 or b.ndim != 2:
        raise ValueError(f"distance_matrix takes 2-D arrays, got shapes "
                         f"{tuple(a.shape)} and {tuple(b.shape)}")
    if a.shape[1] != b.shape[1]:
        raise ValueError(f"x contains {a.shape[1]}-dimensional vectors but y contains "
                         f"{b.shape[1]}-dimensional vectors")
    if p == 0:
        raise ZeroDivisionError("float division by zero")
    a, b = a.astype(ember.float64, copy=False), b.astype(ember.float64, copy=False)
    return _metrics.root(_metrics.power_sums(a, b, p), p)
