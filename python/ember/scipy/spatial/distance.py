"""ember.scipy.spatial.distance: cdist, pdist, squareform and the common
metrics of scipy.spatial.distance over ember arrays, computed on their
device (_metrics.py says how) with SciPy's results, float64 as SciPy's,
and its errors (docs/scipy.md, "spatial")."""
import numbers

import ember
from ember.scipy.spatial import _metrics

__all__ = ["cdist", "pdist", "squareform", "braycurtis", "canberra", "chebyshev",
           "cityblock", "correlation", "cosine", "euclidean", "hamming", "jaccard",
           "minkowski", "sqeuclidean"]


def device_of(*xs):
    for x in xs:
        if isinstance(x, ember.ndarray):
            return x.device
    return None


def as_array(x, device):
    a = x if isinstance(x, ember.ndarray) else ember.asarray(x, device=device)
    if a.dtype.kind not in "biuf":
        raise ValueError(f"Unsupported dtype {a.dtype}")
    return a


def _operand(a, metric):
    # jaccard is a metric of booleans (SciPy casts); the rest of doubles
    want = ember.bool_ if metric == "jaccard" else ember.float64
    return a if a.dtype == want else a.astype(want)


def _metric_args(metric, kwargs):
    m = _metrics.resolve(metric)
    kw = dict(kwargs)
    p = _metrics.check_p(m, kw.pop("p", None))
    w = kw.pop("w", None)
    if w is not None:
        raise NotImplementedError("weighted metrics (w=) are not supported")
    if kw:
        raise TypeError(f"{m}: unexpected keyword arguments {sorted(kw)}")
    return m, p


def _into(out, D):
    if out is None:
        return D
    if not isinstance(out, ember.ndarray):
        raise TypeError("out must be an ember.ndarray")
    if out.dtype != ember.float64:
        raise ValueError("wrong out dtype, expected float64")
    if tuple(out.shape) != tuple(D.shape):
        raise ValueError("Output array has incorrect shape.")
    if not out.flags.c_contiguous:
        raise ValueError("Output array must be C-contiguous")
    out[...] = D
    return out


def cdist(XA, XB, metric="euclidean", *, out=None, **kwargs):
    """Distances between each pair of rows of XA (mA, n) and XB (mB, n):
    an (mA, mB) float64 array on XA's device. Metrics: minkowski (with p),
    euclidean, sqeuclidean, cityblock, chebyshev, cosine, correlation,
    hamming, jaccard, canberra, braycurtis, under SciPy's names and
    aliases."""
    dev = device_of(XA, XB)
    A = as_array(XA, dev)
    B = as_array(XB, A.device)
    if A.ndim != 2:
        raise ValueError("XA must be a 2-dimensional array.")
    if B.ndim != 2:
        raise ValueError("XB must be a 2-dimensional array.")
    if A.shape[1] != B.shape[1]:
        raise ValueError("XA and XB must have the same number of columns "
                         "(i.e. feature dimension.)")
    m, p = _metric_args(metric, kwargs)
    D = _metrics.pairwise(_operand(A, m), _operand(B, m), m, p)
    return _into(out, D)


def pdist(X, metric="euclidean", *, out=None, **kwargs):
    """The condensed distances of the rows of X (m, n): the m(m-1)/2 pairs
    i < j in row-major order, float64. A block of rows i0..i1 is measured
    against the rows after i0 only, and its upper-triangle part kept."""
    A = as_array(X, device_of(X))
    if A.ndim != 2:
        raise ValueError(f"A 2-dimensional array must be passed. "
                         f"(Shape was {tuple(A.shape)}).")
    m, p = _metric_args(metric, kwargs)
    A = _operand(A, m)
    n = A.shape[0]
    parts = []
    step = _metrics.row_step(n)
    for s in range(0, max(0, n - 1), step):
        e = min(n - 1, s + step)
        D = _metrics.pairwise(A[s:e], A[s + 1:], m, p)
        # row s + a against column s + 1 + b: kept where b >= a
        r = ember.arange(e - s, device=A.device).reshape(-1, 1)
        c = ember.arange(n - s - 1, device=A.device).reshape(1, -1)
        parts.append(D[c >= r])
    if not parts:
        return _into(out, ember.empty((0,), dtype=ember.float64, device=A.device))
    return _into(out, parts[0] if len(parts) == 1 else ember.concatenate(parts))


def squareform(X, force="no", checks=True):
    """A condensed distance vector as the square symmetric matrix, or a
    square matrix (zero diagonal, symmetric when checks) as its condensed
    vector; the dtype is kept."""
    A = as_array(X, device_of(X))
    if force.lower() == "tomatrix" and A.ndim != 1:
        raise ValueError("Forcing 'tomatrix' but input X is not a distance vector.")
    if force.lower() == "tovector" and A.ndim != 2:
        raise ValueError("Forcing 'tovector' but input X is not a distance matrix.")
    if A.ndim == 1:
        k = A.shape[0]
        if k == 0:
            return ember.zeros((1, 1), dtype=A.dtype, device=A.device)
        d = int((1 + (1 + 8 * k) ** 0.5) / 2)
        if d * (d - 1) != 2 * k:
            raise ValueError("Incompatible vector size. It must be a binomial "
                             "coefficient n choose 2 for some integer n >= 2.")
        M = ember.zeros((d, d), dtype=A.dtype, device=A.device)
        i, j = ember.triu_indices_from(M, 1)
        M[i, j] = A
        M[j, i] = A
        return M
    if A.ndim == 2:
        if A.shape[0] != A.shape[1]:
            raise ValueError("The matrix argument must be square.")
        if checks:
            _is_distance_matrix(A)
        d = A.shape[0]
        if d <= 1:
            return ember.empty((0,), dtype=A.dtype, device=A.device)
        i, j = ember.triu_indices_from(A, 1)
        return A[i, j]
    raise ValueError(f"The first argument must be one or two dimensional array. "
                     f"A {A.ndim}-dimensional array is not permitted")


def _is_distance_matrix(A):
    if A.shape[0] and bool(ember.any(ember.diagonal(A) != 0)):
        raise ValueError("Distance matrix 'X' diagonal must be zero.")
    if bool(ember.any(A != A.T)):
        raise ValueError("Distance matrix 'X' must be symmetric.")


# ---- one pair of vectors --------------------------------------------------

def _pair(u, v, metric, p=2.0):
    dev = device_of(u, v)
    a, b = as_array(u, dev), as_array(v, dev)
    for x in (a, b):
        if x.ndim != 1:
            raise ValueError("Input vector should be 1-D.")
    if a.shape != b.shape:
        raise ValueError(f"operands could not be broadcast together with shapes "
                         f"{tuple(a.shape)} {tuple(b.shape)}")
    a, b = _operand(a, metric), _operand(b, metric)
    return _metrics.pairwise(a.reshape(1, -1), b.reshape(1, -1), metric, p)[0, 0]


def minkowski(u, v, p=2, w=None):
    """The Minkowski distance of two 1-D arrays (a 0-d float64 array)."""
    if w is not None:
        raise NotImplementedError("weighted metrics (w=) are not supported")
    if not isinstance(p, numbers.Real) or p <= 0:
        raise ValueError("p must be greater than 0")
    return _pair(u, v, "minkowski", p)


def _simple(name):
    def f(u, v, w=None):
        if w is not None:
            raise NotImplementedError("weighted metrics (w=) are not supported")
        return _pair(u, v, name)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"SciPy's {name} distance of two 1-D arrays, as a 0-d float64 "
                 f"array on their device.")
    return f


braycurtis = _simple("braycurtis")
canberra = _simple("canberra")
chebyshev = _simple("chebyshev")
cityblock = _simple("cityblock")
correlation = _simple("correlation")
cosine = _simple("cosine")
euclidean = _simple("euclidean")
hamming = _simple("hamming")
jaccard = _simple("jaccard")
sqeuclidean = _simple("sqeuclidean")
