"""The distance metrics of scipy.spatial.distance as blocks: metric(A, B)
is the (len(A), len(B)) matrix of distances between their rows, float64.

Differences are taken pair by pair (SciPy's formulas, not the matmul
identity ||a||^2 - 2 a.b + ||b||^2, whose cancellation loses the small
distances between large points), as one broadcast expression and a
reduction over the features for a block of rows of A; blocks bound the
(rows, len(B), features) intermediate. cosine and correlation are a
matmul and norms, as SciPy's (their products are the formula)."""
import math

import ember
from ember.ml.metrics.pairwise import row_blocks

# values in one block's 3-D intermediate: 2^24 float64 is 128 MiB, a few
# temporaries of it per metric on a cpu host; a GPU affords more
_BLOCK = {"cpu": 1 << 24}
_GPU_BLOCK = 1 << 27
# values in one 2-D block of distances that a caller keeps a part of
# (pdist's upper triangle, the ball and pair counts): 32 MiB of float64
ROWS_BUDGET = 1 << 22

# SciPy's names and aliases (scipy.spatial.distance._METRICS' aka sets)
_ALIASES = {
    "braycurtis": ("braycurtis",),
    "canberra": ("canberra",),
    "chebyshev": ("chebyshev", "cheby", "cheb", "ch", "chebychev"),
    "cityblock": ("cityblock", "cblock", "cb", "c"),
    "correlation": ("correlation", "co"),
    "cosine": ("cosine", "cos"),
    "euclidean": ("euclidean", "euclid", "eu", "e"),
    "hamming": ("hamming", "matching", "hamm", "ha", "h"),
    "jaccard": ("jaccard", "jacc", "ja", "j"),
    "minkowski": ("minkowski", "mi", "m", "pnorm"),
    "sqeuclidean": ("sqeuclidean", "sqe", "sqeuclid"),
}
NAMES = {a: name for name, akas in _ALIASES.items() for a in akas}
# SciPy's other metrics: named, but not built here
NOT_BUILT = frozenset({
    "dice", "jensenshannon", "js", "mahalanobis", "mahal", "mah", "rogerstanimoto",
    "russellrao", "seuclidean", "se", "s", "sokalsneath", "yule", "sokalmichener",
    "kulczynski1"})


def resolve(metric):
    """The canonical name of a metric given as SciPy accepts it."""
    if callable(metric):
        raise NotImplementedError("a callable metric is not supported: it would run "
                                  "once per pair of rows on the host")
    if not isinstance(metric, str):
        raise TypeError("2nd argument metric must be a string identifier or a function.")
    m = metric.lower()
    if m in NAMES:
        return NAMES[m]
    if m in NOT_BUILT:
        raise NotImplementedError(f"metric {metric!r} is one of SciPy's but not built in "
                                  f"ember.scipy.spatial; it has {sorted(_ALIASES)}")
    raise ValueError(f"Unknown Distance Metric: {metric}")


def check_p(metric, p):
    """minkowski's p (2 when not given); other metrics take no p."""
    if p is None:
        return 2.0
    if metric != "minkowski":
        raise TypeError(f"metric {metric!r} takes no argument 'p'")
    if p <= 0:
        raise ValueError("p must be greater than 0")
    return p


def row_step(n_cols):
    """Rows a block of a caller's (rows, n_cols) distances may hold."""
    return max(1, ROWS_BUDGET // max(1, n_cols))


def _budget(dev):
    return _BLOCK.get(dev.type, _GPU_BLOCK)


def _blocks(A, B, per_pair, one):
    """one(rows of A) for blocks of rows of A, concatenated; per_pair is the
    intermediate values a pair costs."""
    dev = A.device
    if A.shape[0] == 0 or B.shape[0] == 0:
        return ember.empty((A.shape[0], B.shape[0]), dtype=ember.float64, device=dev)
    parts = [one(A[s]) for s in row_blocks(A.shape[0], B.shape[0] * max(1, per_pair),
                                            _budget(dev))]
    return parts[0] if len(parts) == 1 else ember.concatenate(parts, axis=0)


def power_sums(A, B, p):
    """sum |a - b|^p over the features (p = inf: the max), the quantity
    SciPy's trees compare with r^p."""
    K = A.shape[1]

    def one(Ab):
        d = Ab[:, None, :] - B[None, :, :]
        if p == 2:
            return (d * d).sum(axis=2)
        d = ember.abs(d)
        if p == math.inf:
            if K == 0:
                return ember.zeros(d.shape[:2], dtype=ember.float64, device=d.device)
            return d.max(axis=2)
        return d.sum(axis=2) if p == 1 else (d ** p).sum(axis=2)
    return _blocks(A, B, K, one)


def root(S, p):
    """Distances from power_sums."""
    if p in (1, math.inf):
        return S
    if p == 2:
        return ember.sqrt(S)
    return S ** (1.0 / p)


def _unit_rows(X):
    return X / ember.sqrt((X * X).sum(axis=1, keepdims=True))


def _cosine(A, B):
    # a zero row gives 0/0: NaN, as SciPy; rounding is clipped to [0, 2]
    return ember.clip(1.0 - _unit_rows(A) @ _unit_rows(B).T, 0.0, 2.0)


def _centered(X):
    return X - X.sum(axis=1, keepdims=True) / X.shape[1]


def _ratio_sum(A, B, num, den, zero):
    """sum(num) / sum(den) over the features per pair (braycurtis), or
    sum(num / den) with 0/0 terms counted as `zero` (canberra: 0)."""
    K = A.shape[1]

    def one(Ab):
        a, b = Ab[:, None, :], B[None, :, :]
        if zero is None:
            return num(a, b).sum(axis=2) / den(a, b).sum(axis=2)
        n, d = num(a, b), den(a, b)
        return ember.where(d == 0, zero, n / d).sum(axis=2)
    return _blocks(A, B, K, one)


def _mismatch(A, B, boolean):
    K = A.shape[1]

    def one(Ab):
        a, b = Ab[:, None, :], B[None, :, :]
        diff = (a != b).sum(axis=2)
        if not boolean:
            return diff / K
        either = ember.logical_or(a, b).sum(axis=2)
        return ember.where(either == 0, 0.0, diff / either)
    return _blocks(A, B, K, one)


def pairwise(A, B, metric, p=2.0):
    """The (len(A), len(B)) distances between rows, float64 (A and B float64
    already, or bool for jaccard)."""
    if metric == "minkowski":
        if p == 1:
            metric = "cityblock"
        elif p == 2:
            metric = "euclidean"
        elif p == math.inf:
            metric = "chebyshev"
        else:
            return root(power_sums(A, B, p), p)
    if metric == "euclidean":
        return ember.sqrt(power_sums(A, B, 2))
    if metric == "sqeuclidean":
        return power_sums(A, B, 2)
    if metric == "cityblock":
        return power_sums(A, B, 1)
    if metric == "chebyshev":
        return power_sums(A, B, math.inf)
    if metric in ("cosine", "correlation") and A.shape[1] == 0:
        # no features: 0/0, NaN as SciPy's (a matmul over nothing is 0)
        return ember.full((A.shape[0], B.shape[0]), math.nan, dtype=ember.float64,
                          device=A.device)
    if metric == "cosine":
        return _cosine(A, B)
    if metric == "correlation":
        return _cosine(_centered(A), _centered(B))
    if metric == "hamming":
        return _mismatch(A, B, False)
    if metric == "jaccard":
        return _mismatch(A, B, True)
    if metric == "canberra":
        return _ratio_sum(A, B, lambda a, b: ember.abs(a - b),
                          lambda a, b: ember.abs(a) + ember.abs(b), 0.0)
    if metric == "braycurtis":
        return _ratio_sum(A, B, lambda a, b: ember.abs(a - b),
                          lambda a, b: ember.abs(a + b), None)
    raise AssertionError(metric)
