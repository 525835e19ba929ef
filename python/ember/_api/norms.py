"""ember.linalg.norm, as numpy.linalg.norm, from ember's ufuncs and
reductions; the spectral (2, -2) and nuclear ('nuc') matrix norms from the
singular values (ember.linalg.svdvals, LAPACK)."""
import operator

from ember import _ember as _e
from ember._api._util import normalize_axis

_INF = float("inf")


def _axes(axis, ndim, ord):
    """(axes or None for all, whether a matrix norm)."""
    if axis is None:
        if ord is not None and ndim not in (1, 2):
            raise ValueError("Improper number of dimensions to norm.")
        matrix = ord is not None and ndim == 2
        return ((0, 1) if matrix else None), matrix
    if isinstance(axis, (tuple, list)):
        if len(axis) not in (1, 2):
            raise ValueError("Improper number of dimensions to norm.")
        axes = tuple(normalize_axis(operator.index(a), ndim) for a in axis)
        if len(axes) == 2 and axes[0] == axes[1]:
            raise ValueError("Duplicate axes given.")
        return axes, len(axes) == 2
    try:
        axis = operator.index(axis)
    except TypeError:
        raise TypeError("'axis' must be None, an integer or a tuple of "
                        "integers") from None
    return (normalize_axis(axis, ndim),), False


def _vector(x, p, axes, keepdims):
    if p == 2.0:
        a = x * x if x.dtype.kind != "c" else _e.square(_e.absolute(x))
        return _e.sqrt(_e.sum(a, axis=axes, keepdims=keepdims))
    a = _e.absolute(x)
    if p == _INF:
        return _e.max(a, axis=axes, keepdims=keepdims)
    if p == -_INF:
        return _e.min(a, axis=axes, keepdims=keepdims)
    if p == 0.0:
        # The count of nonzeros, in the real dtype of x.
        return _e.count_nonzero(a, axis=axes, keepdims=keepdims).astype(a.dtype)
    if p == 1.0:
        return _e.sum(a, axis=axes, keepdims=keepdims)
    return _e.sum(a ** p, axis=axes, keepdims=keepdims) ** (1.0 / p)


def _matrix(x, p, row, col, keepdims):
    """ord 1/-1: the max/min over columns of the column sums; inf/-inf:
    of the row sums."""
    first, second = (row, col) if p in (1.0, -1.0) else (col, row)
    if not keepdims and second > first:
        second -= 1
    t = _e.sum(_e.absolute(x), axis=first, keepdims=keepdims)
    return (_e.max if p > 0 else _e.min)(t, axis=second, keepdims=keepdims)


def _svd_norm(x, row, col, op, keepdims):
    """op (max, min or sum) of the singular values of the matrices over
    axes row and col, as NumPy's _multi_svd_norm."""
    from ember._api.linalg import svdvals
    y = _e.moveaxis(x, (row, col), (-2, -1))
    r = op(svdvals(y), axis=-1)
    if keepdims:
        shape = list(x.shape)
        shape[row] = shape[col] = 1
        r = r.reshape(tuple(shape))
    return r


def norm(x, ord=None, axis=None, keepdims=False):
    """Vector and matrix norms, as numpy.linalg.norm."""
    x = x if isinstance(x, _e.ndarray) else _e.asarray(x)
    if x.dtype.kind not in "fc":
        x = x.astype(_e.float64)          # as NumPy: integers and bools
    keepdims = bool(keepdims)
    axes, matrix = _axes(axis, x.ndim, ord)
    if ord is None:
        return _vector(x, 2.0, axes, keepdims)
    if isinstance(ord, str):
        if ord == "fro" and matrix:
            return _vector(x, 2.0, axes, keepdims)
        if ord == "nuc" and matrix:
            return _svd_norm(x, axes[0], axes[1], _e.sum, keepdims)
        raise ValueError("Invalid norm order for matrices." if matrix else
                         "Invalid norm order 'fro' or 'nuc' for vectors")
    p = float(ord)
    if not matrix:
        return _vector(x, p, axes, keepdims)
    if p in (2.0, -2.0):
        return _svd_norm(x, axes[0], axes[1], _e.max if p > 0 else _e.min,
                         keepdims)
    if p not in (1.0, -1.0, _INF, -_INF):
        raise ValueError("Invalid norm order for matrices.")
    return _matrix(x, p, axes[0], axes[1], keepdims)
