"""Matrices: eye and identity (a zero fill and a strided fill of the
diagonal), tri, tril and triu (one C entry each over include/ember/
manip.h's triangle kernels), diag, diagflat and trace (over the diagonal
view)."""
from ember import _ember as _e
from ember._api._axes import index, no_like, size
from ember._api._util import as_array


def _clamp(k, lo, hi):
    # an offset past the matrix means all or nothing: clamped, it fits int64
    # whatever its size (the Array API suite passes 2**63), as NumPy allows
    return max(lo, min(k, hi))


def eye(N, M=None, k=0, dtype=None, order="C", *, device=None, like=None):
    no_like(like)
    n = size(N, "N")
    m = n if M is None else size(M, "M")
    k = _clamp(index(k, "k"), -n, m)
    if order is None:
        order = "C"
    if order not in ("C", "F"):
        raise ValueError("order must be 'C' or 'F'")
    if order == "F":
        return eye(m, n, -k, dtype, device=device).T
    r = _e.zeros((n, m), dtype=dtype, device=device)
    count = min(n, m - k) if k >= 0 else min(n + k, m)
    if count > 0:
        start = k if k >= 0 else -k * m
        r.reshape(-1)[start:start + count * (m + 1):m + 1] = 1
    return r


def identity(n, dtype=None, *, device=None, like=None):
    no_like(like)
    return eye(size(n, "n"), dtype=dtype, device=device)


def tri(N, M=None, k=0, dtype=None, *, device=None, like=None):
    no_like(like)
    n = size(N, "N")
    m = n if M is None else size(M, "M")
    return _e._tri(n, m, _clamp(index(k, "k"), -n, m),
                   _e.float64 if dtype is None else dtype, device)


def _triangle(fname, m, k, upper):
    k = index(k, "k")
    a = as_array(m)
    if a.ndim == 0:
        raise ValueError(f"{fname}: the input must have at least 1 dimension")
    if a.ndim == 1:      # NumPy broadcasts a 1-D input against its (n, n) mask
        a = _e.broadcast_to(a, (a.shape[0], a.shape[0]))
    return _e._tril(a, _clamp(k, -a.shape[-2], a.shape[-1]), upper)


def tril(m, k=0):
    return _triangle("tril", m, k, False)


def triu(m, k=0):
    return _triangle("triu", m, k, True)


def _diag(a, k):
    if a.ndim == 2:
        return a.diagonal(k).copy()
    if a.ndim != 1:
        raise ValueError("Input must be 1- or 2-d.")
    n = a.shape[0] + abs(k)
    r = _e.zeros((n, n), dtype=a.dtype, device=a.device)
    start = k if k >= 0 else -k * n
    r.reshape(-1)[start:start + a.shape[0] * (n + 1):n + 1] = a
    return r


def diag(v, k=0):
    return _diag(as_array(v), index(k, "k"))


def diagflat(v, k=0):
    return _diag(as_array(v).ravel(), index(k, "k"))


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """The sum of the diagonal view along its last axis: one reduction (the
    ndarray method a.trace comes here too)."""
    return as_array(a).diagonal(offset, axis1, axis2).sum(axis=-1, dtype=dtype, out=out)
