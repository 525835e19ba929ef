"""Pairwise distances and kernels as scikit-learn's sklearn.metrics.pairwise,
over ember arrays (docs/ml.md, "Neighbours and distances").

Euclidean distances are one matmul, ||x||^2 - 2 x.y + ||y||^2, clipped at 0
(with an exact 0 diagonal when Y is X, as scikit-learn); the metrics that
are not a product (manhattan, chebyshev, minkowski) are broadcast
|x - y| reductions over blocks of rows, so their 3-D intermediate stays
under BLOCK values. The *_block functions here are what the neighbours,
argmin and silhouette code reuse block by block: none of them ever holds a
whole n x m result unless the caller asked for it."""
import numbers

import ember
from ember.ml import _validation as V
from ember.ml.metrics._base import out

# values in one block's intermediate: 2^27 float64 is 1 GiB, small on a GPU
# and still a few blocks on a cpu host for the sizes
BLOCK = 1 << 27

_ALIASES = {"euclidean": "euclidean", "l2": "euclidean",
            "sqeuclidean": "sqeuclidean", "cosine": "cosine",
            "manhattan": "manhattan", "cityblock": "manhattan", "l1": "manhattan",
            "chebyshev": "chebyshev", "minkowski": "minkowski"}
METRICS = tuple(_ALIASES)
# scikit-learn's other metric names: NotImplementedError, not "unknown"
_NOT_BUILT = frozenset((
    "braycurtis", "canberra", "correlation", "dice", "hamming", "jaccard",
    "mahalanobis", "matching", "rogerstanimoto", "russellrao", "seuclidean",
    "sokalmichener", "sokalsneath", "yule", "nan_euclidean", "haversine",
    "wminkowski", "infinity", "p", "pyfunc"))


def row_blocks(n_rows, per_row, budget=BLOCK):
    """Slices of rows, each holding at most `budget` values when a row costs
    `per_row` of them (at least one row a block)."""
    step = max(1, budget // max(1, per_row))
    for s in range(0, n_rows, step):
        yield slice(s, min(n_rows, s + step))


def check_pairwise_arrays(X, Y=None, *, dtype=(ember.float64, ember.float32)):
    """(X, Y) as ember arrays of one float dtype on X's device: float32
    when both are, else float64 (scikit-learn's rule). Y is X when None."""
    Xa = V.check_array(X, dtype=dtype)
    if Y is None:
        return Xa, Xa
    Ya = V.check_array(Y, dtype=dtype, device=Xa.device, input_name="Y")
    if Xa.shape[1] != Ya.shape[1]:
        raise ValueError(f"Incompatible dimension for X and Y matrices: "
                         f"X.shape[1] == {Xa.shape[1]} while Y.shape[1] == "
                         f"{Ya.shape[1]}")
    if Xa.dtype != Ya.dtype:
        Xa, Ya = Xa.astype(ember.float64), Ya.astype(ember.float64)
    return Xa, Ya


def row_norms_sq(X):
    return (X * X).sum(axis=1)


def sq_euclidean_block(Xb, XXb, Y, YY):
    """Squared euclidean distances of the rows Xb (squared norms XXb) to
    every row of Y (YY): one GEMM, clipped at 0 where rounding made them
    negative. ember.ml.cluster's blocks use it too."""
    D = Xb @ Y.T
    D *= -2
    D += XXb.reshape(-1, 1)
    D += YY.reshape(1, -1)
    return ember.maximum(D, 0, out=D)


def _norms_arg(v, n, X, name):
    if v is None:
        return None
    a = V.to_ember(v, X.device, X.dtype).reshape(-1)
    if a.shape[0] != n:
        raise ValueError(f"Incompatible dimensions for {name[0]} of shape "
                         f"{(n, X.shape[1])} and {name} of shape {tuple(v.shape)}.")
    return a


def _reduce_block(Xb, Y, metric, p):
    """A non-product metric for a block of rows, in sub-blocks that bound the
    (rows, len(Y), features) difference array."""
    parts = []
    for s in row_blocks(Xb.shape[0], Y.shape[0] * max(1, Y.shape[1])):
        diff = ember.abs(Xb[s, None, :] - Y[None, :, :])
        if metric == "manhattan":
            parts.append(diff.sum(axis=2))
        elif metric == "chebyshev":
            parts.append(diff.max(axis=2) if Y.shape[1] else
                         ember.zeros((s.stop - s.start, Y.shape[0]), dtype=Y.dtype,
                                     device=Y.device))
        else:
            parts.append((diff ** p).sum(axis=2) ** (1.0 / p))
    return parts[0] if len(parts) == 1 else ember.concatenate(parts, axis=0)


def normalize_rows(X):
    """Rows scaled to unit l2 norm; zero rows stay zero (scikit-learn's
    normalize)."""
    n = ember.sqrt(row_norms_sq(X))
    n = ember.where(n == 0, ember.ones_like(n), n)
    return X / n.reshape(-1, 1)


class Prepared:
    """Y and what every block needs of it, computed once: its squared norms
    (euclidean) or unit rows (cosine). scores() ranks (smaller is nearer)
    with the least work a block allows, finish() turns the few scores a
    caller keeps into distances: a kNN search pays the norms of the
    queries, the clip and the square root for k values a row, not for all.
    'inner_product' (cuML's) ranks by the largest product and reports the
    product; 'precomputed' blocks are rows of a distance matrix."""

    def __init__(self, Y, metric, p=2, Y_norm_squared=None):
        self.metric, self.p = metric, p
        self.Y = Y
        # the product metrics' scores are Xb @ W.T (+ YY): the factor -2 or
        # -1 is in W once (an exact scaling) rather than a pass over every
        # block
        if metric in ("euclidean", "sqeuclidean"):
            self.YY = Y_norm_squared if Y_norm_squared is not None else row_norms_sq(Y)
            self.W = Y * -2
        elif metric == "cosine":
            self.W = normalize_rows(Y)
            self.W *= -1
        elif metric == "inner_product":
            self.W = -Y

    def parts(self, Xb):
        """(G, add): the scores are G + add[None, :] (add None: G alone), so
        a consumer that reads G once can add the row vector as it goes."""
        m = self.metric
        if m in ("euclidean", "sqeuclidean"):
            return Xb @ self.W.T, self.YY
        if m == "cosine":
            return normalize_rows(Xb) @ self.W.T, None
        if m == "inner_product":
            return Xb @ self.W.T, None
        if m == "precomputed":
            return Xb.copy(), None
        return _reduce_block(Xb, self.Y, m, self.p), None

    def scores(self, Xb):
        G, add = self.parts(Xb)
        if add is not None:
            G += add.reshape(1, -1)
        return G

    def finish(self, S, Xb, XXb=None):
        """Distances from scores of the rows Xb (S may be modified)."""
        m = self.metric
        if m in ("euclidean", "sqeuclidean"):
            S += (row_norms_sq(Xb) if XXb is None else XXb).reshape(-1, 1)
            S = ember.maximum(S, 0, out=S)
            return ember.sqrt(S, out=S) if m == "euclidean" else S
        if m == "cosine":
            S += 1
            return ember.clip(S, 0, 2, out=S)
        if m == "inner_product":
            S *= -1
        return S

    def block(self, Xb, XXb=None):
        """Distances of the rows Xb to every row of Y."""
        return self.finish(self.scores(Xb), Xb, XXb)


def resolve_metric(metric, p=None, fn="pairwise_distances"):
    """(canonical name, p): minkowski with p 1, 2 or inf is the named metric."""
    if callable(metric):
        raise NotImplementedError(f"{fn}: a callable metric is not supported "
                                  "(it would run per pair of samples on the host)")
    if isinstance(metric, str) and metric in _NOT_BUILT:
        raise NotImplementedError(f"{fn}: metric={metric!r} is one of scikit-learn's "
                                  f"but not built in ember.ml; it has "
                                  f"{sorted(_ALIASES)}")
    if not isinstance(metric, str) or metric not in _ALIASES:
        raise ValueError(f"Unknown metric {metric}. Valid metrics are "
                         f"{sorted(_ALIASES)}, or 'precomputed'.")
    m = _ALIASES[metric]
    if m == "minkowski":
        p = 2 if p is None else p
        if not isinstance(p, numbers.Real) or p <= 0:
            raise ValueError(f"p must be greater than 0, got {p!r}")
        m = {1: "manhattan", 2: "euclidean", float("inf"): "chebyshev"}.get(p, m)
    return m, p


def _distances(Xa, Ya, m, p, same):
    """The whole distance matrix (the caller asked for it), blocked only to
    bound the intermediates of the non-product metrics."""
    D = Prepared(Ya, m, p).block(Xa)
    return zero_self(D, 0, m) if same else D


def zero_self(D, start, metric):
    """Rows start.. of a matrix of X against itself with each row's distance
    to itself exactly 0, as scikit-learn's diagonal (the matmul metrics
    leave rounding noise there)."""
    if metric in ("euclidean", "sqeuclidean", "cosine"):
        r = ember.arange(D.shape[0], device=D.device)
        D[r, r + start] = 0
    return D


def pairwise_distances(X, Y=None, metric="euclidean", *, n_jobs=None,
                       force_all_finite=True, ensure_all_finite=None, **kwds):
    """Distances between the rows of X and the rows of Y (X itself if None)."""
    if metric == "precomputed":
        Xa = V.check_array(X, dtype=(ember.float64, ember.float32))
        if bool((Xa < 0).any()):
            raise ValueError("Negative values in data passed to precomputed "
                             "distance matrix.")
        return out(Xa, X)
    m, p = resolve_metric(metric, kwds.pop("p", None))
    if kwds:
        raise NotImplementedError(f"pairwise_distances: keyword arguments "
                                  f"{sorted(kwds)} are not supported")
    Xa, Ya = check_pairwise_arrays(X, Y)
    return out(_distances(Xa, Ya, m, p, Y is None), X, Y)


def pairwise_distances_chunked(X, Y=None, *, reduce_func=None, metric="euclidean",
                               n_jobs=None, working_memory=None, **kwds):
    """pairwise_distances a block of rows at a time: each chunk (or
    reduce_func(chunk, start) of it) is yielded before the next is
    computed, so only working_memory MiB (1024 by default, scikit-learn's)
    of distances exist at once."""
    m, p = resolve_metric(metric, kwds.pop("p", None), "pairwise_distances_chunked")
    if kwds:
        raise NotImplementedError(f"pairwise_distances_chunked: keyword arguments "
                                  f"{sorted(kwds)} are not supported")
    Xa, Ya = check_pairwise_arrays(X, Y)
    prep = Prepared(Ya, m, p)
    budget = int((1024 if working_memory is None else working_memory) * 2 ** 20
                 // Xa.dtype.itemsize)
    for s in row_blocks(Xa.shape[0], Ya.shape[0], budget):
        D = prep.block(Xa[s])
        if Y is None:
            zero_self(D, s.start, m)
        D = out(D, X, Y)
        yield D if reduce_func is None else reduce_func(D, s.start)


def euclidean_distances(X, Y=None, *, Y_norm_squared=None, squared=False,
                        X_norm_squared=None):
    Xa, Ya = check_pairwise_arrays(X, Y)
    XX = _norms_arg(X_norm_squared, Xa.shape[0], Xa, "X_norm_squared")
    YY = _norms_arg(Y_norm_squared, Ya.shape[0], Ya, "Y_norm_squared")
    if XX is None:
        XX = row_norms_sq(Xa)
    if YY is None:
        YY = XX if Y is None else row_norms_sq(Ya)
    D = sq_euclidean_block(Xa, XX, Ya, YY)
    if Y is None:
        ember.fill_diagonal(D, 0)
    if not squared:
        D = ember.sqrt(D, out=D)
    return out(D, X, Y)


def manhattan_distances(X, Y=None):
    Xa, Ya = check_pairwise_arrays(X, Y)
    return out(_reduce_block(Xa, Ya, "manhattan", 1), X, Y)


def cosine_similarity(X, Y=None, dense_output=True):
    Xa, Ya = check_pairwise_arrays(X, Y)
    Xn = normalize_rows(Xa)
    Yn = Xn if Y is None else normalize_rows(Ya)
    return out(Xn @ Yn.T, X, Y)


def cosine_distances(X, Y=None):
    Xa, Ya = check_pairwise_arrays(X, Y)
    return out(_distances(Xa, Ya, "cosine", None, Y is None), X, Y)


def linear_kernel(X, Y=None, dense_output=True):
    Xa, Ya = check_pairwise_arrays(X, Y)
    return out(Xa @ Ya.T, X, Y)


def rbf_kernel(X, Y=None, gamma=None):
    Xa, Ya = check_pairwise_arrays(X, Y)
    if gamma is None:
        gamma = 1.0 / Xa.shape[1]
    D = _distances(Xa, Ya, "sqeuclidean", None, Y is None)
    D *= -gamma
    return out(ember.exp(D, out=D), X, Y)


def pairwise_distances_argmin_min(X, Y, *, axis=1, metric="euclidean",
                                  metric_kwargs=None):
    """For each row of X the index of its nearest row of Y and the distance
    to it, a block of rows at a time (the first index among equal
    distances, as scikit-learn)."""
    Xa, Ya = check_pairwise_arrays(X, Y)
    if axis == 0:
        Xa, Ya = Ya, Xa
    kw = dict(metric_kwargs or {})
    m, p = resolve_metric(metric, kw.pop("p", None), "pairwise_distances_argmin_min")
    if kw:
        raise NotImplementedError(f"metric_kwargs {sorted(kw)} are not supported")
    from ember.ml.neighbors._search import top_k_rows
    prep = Prepared(Ya, m, p)
    idx, val = [], []
    # the neighbours' top-k with k=1: one read of each block's scores, the
    # distance finished for the one value a row keeps
    for s in row_blocks(Xa.shape[0], Ya.shape[0]):
        G, add = prep.parts(Xa[s])
        v, i = top_k_rows(G, 1, add)
        idx.append(i.reshape(-1))
        val.append(prep.finish(v, Xa[s]).reshape(-1))
    idx = idx[0] if len(idx) == 1 else ember.concatenate(idx)
    val = val[0] if len(val) == 1 else ember.concatenate(val)
    return out(idx.astype(ember.int64), X, Y), out(val, X, Y)


def pairwise_distances_argmin(X, Y, *, axis=1, metric="euclidean", metric_kwargs=None):
    return pairwise_distances_argmin_min(X, Y, axis=axis, metric=metric,
                                         metric_kwargs=metric_kwargs)[0]


__all__ = ["pairwise_distances", "euclidean_distances", "manhattan_distances",
           "cosine_similarity", "cosine_distances", "linear_kernel", "rbf_kernel",
           "pairwise_distances_argmin", "pairwise_distances_argmin_min",
           "pairwise_distances_chunked", "check_pairwise_arrays"]
