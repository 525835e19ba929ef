"""ember.scipy.cluster.hierarchy: SciPy's linkage (the reducible methods),
fcluster and leaves_list over ember arrays, on the input's device, with
SciPy's linkage matrix Z ((n - 1) x 4 float64: the two cluster ids, the
distance, the size), its numbering and its errors. The merges are
_linkage.py's kernels (one launch for the whole tree)."""
import numbers

import ember
from ember.scipy.cluster import _linkage
from ember.scipy.spatial import _metrics

__all__ = ["linkage", "single", "complete", "average", "weighted", "ward", "centroid",
           "median", "fcluster", "fclusterdata", "inconsistent", "leaves_list",
           "is_valid_linkage", "is_valid_im"]

_METHODS = ("single", "complete", "average", "centroid", "median", "ward", "weighted")
_EUCLIDEAN_METHODS = ("centroid", "median", "ward")


def _device_of(x):
    return x.device if isinstance(x, ember.ndarray) else None


_NOT_FINITE = "The condensed distance matrix must contain only finite values."


def _observations(y):
    y = ember.asarray(y, device=_device_of(y))
    if y.dtype.kind not in "biuf":
        raise ValueError(f"Unsupported dtype {y.dtype}")
    return y.astype(ember.float64, copy=False)


def _square(y, method, metric, check=True):
    """The n x n float64 dissimilarities of y: a condensed distance vector,
    or observations measured with metric; None where single linkage
    measures the observations itself."""
    y = _observations(y)
    if check and method in _EUCLIDEAN_METHODS and metric != "euclidean" and y.ndim == 2:
        raise ValueError(f"`method={method}` requires the distance metric to be "
                         "Euclidean")
    if y.ndim == 1:
        k = y.shape[0]
        d = int((1 + (1 + 8 * k) ** 0.5) / 2)
        if d * (d - 1) != 2 * k:
            raise ValueError("Length n of condensed distance matrix 'y' must be a "
                             "binomial coefficient, i.e. there must be a k such that "
                             "(k \\choose 2)=n)!")
        if k == 0:
            raise ValueError("The number of observations cannot be determined on an "
                             "empty distance matrix.")
        from ember.scipy.spatial.distance import squareform
        return ember.ascontiguousarray(squareform(y, checks=False))
    if y.ndim != 2:
        raise ValueError("`y` must be 1 or 2 dimensional.")
    if y.shape[0] < 2:
        raise ValueError("The number of observations cannot be determined on an "
                         "empty distance matrix.")
    name = _metrics.resolve(metric)
    if name in _linkage.DIST_METRICS:
        return None if method == "single" else _linkage.distances(y, name)
    from ember.scipy.spatial.distance import cdist
    return _linkage.symmetric(cdist(y, y, metric))


def linkage(y, method="single", metric="euclidean", optimal_ordering=False):
    """SciPy's hierarchical clustering of y (a condensed distance vector or
    an n x m observation matrix measured with metric): Z on y's device.
    Methods single, complete, average, weighted and ward; centroid and
    median raise NotImplementedError, as does optimal_ordering."""
    return _linkage_of(y, method, metric, optimal_ordering, True)


def _linkage_of(y, method, metric, optimal_ordering, check):
    if method not in _METHODS:
        raise ValueError(f"Invalid method: {method}")
    if method in ("centroid", "median"):
        raise NotImplementedError(f"linkage(method={method!r}): ember builds the "
                                  "reducible methods only (single, complete, average, "
                                  "weighted, ward)")
    if optimal_ordering:
        raise NotImplementedError("linkage(optimal_ordering=True) is not supported by "
                                  "ember")
    D = _square(y, method, metric, check)
    if D is None:
        # single linkage of observations: the spanning tree measures as it
        # grows, with no n x n matrix; a non-finite distance on it (the
        # only ones it sees) is SciPy's error
        zx, zy, zd = _linkage.single_from_points(_observations(y),
                                                 _metrics.resolve(metric))
        if not bool(ember.isfinite(zd).all()):
            raise ValueError(_NOT_FINITE)
        return _linkage.numbered(zx, zy, zd)[0]
    if not bool(ember.isfinite(D).all()):
        raise ValueError(_NOT_FINITE)
    return _linkage.tree(D, method)[0]


def _method(name):
    def f(y):
        return linkage(y, method=name, metric="euclidean")
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"linkage(y, method={name!r}, metric='euclidean')"
    return f


single = _method("single")
complete = _method("complete")
average = _method("average")
weighted = _method("weighted")
ward = _method("ward")
centroid = _method("centroid")
median = _method("median")


def _check_four_columns(X, kind, name, doubles):
    """The checks SciPy's is_valid_linkage and is_valid_im share: float64,
    two-dimensional, 4 columns, in SciPy's words (doubles: its dtype
    message's tail, which differs between the two)."""
    if X.dtype != ember.float64:
        raise TypeError(f"{kind} '{name}' must contain doubles{doubles}.")
    if X.ndim != 2:
        raise ValueError(f"{kind} '{name}' must have shape=2 (i.e. be "
                         "two-dimensional).")
    if X.shape[1] != 4:
        raise ValueError(f"{kind} '{name}' must have 4 columns.")


def _check_linkage(Z, name="Z"):
    """SciPy's is_valid_linkage(Z, throw=True): ValueError or TypeError
    naming what is wrong. The content checks are one device read."""
    _check_four_columns(Z, "Linkage matrix", name, "")
    m = Z.shape[0]
    if m == 0:
        raise ValueError("Linkage must be computed on at least two observations.")
    if m < 2:
        return
    dev = Z.device
    ids = Z[:, :2]
    formed = ember.arange(m + 1, 2 * m + 1, device=dev).astype(ember.float64)
    used = ember.unique(ids.reshape(-1)).shape[0]
    bad = ember.stack([(ids < 0).any(), (Z[:, 2] < 0).any(), (Z[:, 3] < 0).any(),
                       (Z[:, 3] > m + 1).any(), (ids.max(axis=1) >= formed).any(),
                       (ember.floor(ids) != ids).any()])
    flags = [bool(b) for b in ember.asnumpy(bad)] + [used < 2 * m]
    # the last but one is ember's own: the kernels index with the ids
    # (SciPy's casts NaN or 2.5 to some integer)
    for bad, what in zip(flags, ("contains negative indices.",
                                 "contains negative distances.",
                                 "contains negative counts.",
                                 "contains excessive observations in a cluster",
                                 "uses non-singleton cluster before it is formed.",
                                 "contains cluster ids that are not integers.",
                                 "uses the same cluster more than once.")):
        if bad:
            raise ValueError(f"Linkage '{name}' {what}")


def _is_valid(check, X, warning, throw, name):
    """SciPy's is_valid_* around a _check_*: its error raised with throw,
    else warned with warning, and False."""
    X = ember.asarray(X, device=_device_of(X))
    try:
        check(X, name)
    except (TypeError, ValueError) as e:
        if throw:
            raise
        if warning:
            import warnings
            warnings.warn(str(e), stacklevel=3)
        return False
    return True


def is_valid_linkage(Z, warning=False, throw=False, name=None):
    """Whether Z is a valid linkage matrix (SciPy's checks)."""
    return _is_valid(_check_linkage, Z, warning, throw, name or "Z")


def leaves_list(Z):
    """The leaf ids of Z left to right (int32), SciPy's leaves_list."""
    Z = ember.ascontiguousarray(ember.asarray(Z, device=_device_of(Z)))
    _check_linkage(Z)
    return _linkage.leaves(Z)


def _linkage_arg(Z):
    Z = ember.asarray(Z, device=_device_of(Z))
    Z = ember.ascontiguousarray(Z.astype(ember.float64, copy=False))
    _check_linkage(Z)
    return Z


def _check_im(R, name="R"):
    """SciPy's is_valid_im(R, throw=True)."""
    _check_four_columns(R, "Inconsistency matrix", name, " (double)")
    if R.shape[0] < 1:
        raise ValueError(f"Inconsistency matrix '{name}' must have at least one row.")
    bad = ember.asnumpy(ember.stack([(R[:, c] < 0).any() for c in range(3)]))
    for b, what in zip(bad, ("link height means", "link height standard deviations",
                             "link counts")):
        if b:
            raise ValueError(f"Inconsistency matrix '{name}' contains negative {what}.")


def is_valid_im(R, warning=False, throw=False, name=None):
    """Whether R is a valid inconsistency matrix (SciPy's checks)."""
    return _is_valid(_check_im, R, warning, throw, name or "R")


def inconsistent(Z, d=2):
    """SciPy's inconsistency statistics of each link of Z over the links up
    to d - 1 levels below it: (n - 1) x 4 float64 (mean, standard
    deviation, count, coefficient), a device thread a link."""
    Z = _linkage_arg(Z)
    if d != int(d) or d < 0:
        raise ValueError("The second argument d must be a nonnegative integer value.")
    return _linkage.inconsistent(Z, int(d))


def fcluster(Z, t, criterion="inconsistent", depth=2, R=None, monocrit=None):
    """SciPy's flat clusters of Z (int32, numbered from 1, in SciPy's order)
    by criterion 'inconsistent' (R's coefficients, R = inconsistent(Z,
    depth) unless given, <= t), 'distance' (cophenetic distance <= t),
    'maxclust' (at most t clusters), 'monocrit' or 'maxclust_monocrit'
    (monocrit's values per cluster)."""
    Z = _linkage_arg(Z)
    if criterion == "inconsistent":
        if R is None:
            R = inconsistent(Z, depth)
        else:
            R = ember.ascontiguousarray(ember.asarray(R, device=Z.device))
            _check_im(R)
            if R.shape[0] != Z.shape[0]:
                raise ValueError(f"Inconsistency matrix 'R' has {R.shape[0]} rows; the "
                                 f"linkage matrix has {Z.shape[0]}.")
        return _linkage.flat(Z, _linkage.max_dists(Z, R, 3), cut=float(t))
    if criterion not in ("distance", "maxclust", "monocrit", "maxclust_monocrit"):
        raise ValueError(f"Invalid cluster formation criterion: {criterion}")
    if criterion in ("monocrit", "maxclust_monocrit"):
        if monocrit is None:
            raise ValueError(f"fcluster(criterion={criterion!r}) needs monocrit")
        MC = ember.ascontiguousarray(ember.asarray(monocrit, device=Z.device)
                                     .astype(ember.float64, copy=False))
        if MC.shape != (Z.shape[0],):
            raise ValueError(f"monocrit must have shape ({Z.shape[0]},), got "
                             f"{tuple(MC.shape)}")
    else:
        MC = _linkage.max_dists(Z)
    if criterion.startswith("maxclust"):
        maxc = int(t)
        if maxc <= 0:
            # SciPy's bisection then reads past MC's end and answers
            # whatever lies there (it differs from run to run)
            raise ValueError(f"fcluster: criterion {criterion!r} needs t >= 1 "
                             f"clusters, got {t!r}")
        return _linkage.flat(Z, MC, maxclust=maxc)
    return _linkage.flat(Z, MC, cut=float(t))


def fclusterdata(X, t, criterion="inconsistent", metric="euclidean", depth=2,
                 method="single", R=None):
    """SciPy's fclusterdata: fcluster of the linkage of X's condensed
    distances under metric (so ward takes any metric here, as SciPy's)."""
    X = _observations(X)
    if X.ndim != 2:
        raise TypeError("The observation matrix X must be an n by m array.")
    Z = _linkage_of(X, method, metric, False, False)
    return fcluster(Z, t, criterion=criterion, depth=depth, R=R)
