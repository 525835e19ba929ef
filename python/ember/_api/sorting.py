"""sort and argsort with the Array API's keywords (descending=, stable=)
over ember's C sorts, which are always stable and ascending."""
from ember import _ember as _e
from ember._api._util import normalize_axis

_sort = _e.sort
_argsort = _e.argsort


def sort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    """NumPy's sort(a, axis, kind, order, *, stable); the Array API's
    descending=True gives the reverse order, equal elements keeping their
    order (NaNs first, as the reverse of ascending's NaNs last)."""
    if not descending:
        return _sort(a, axis, kind, order, stable=stable)
    a = a if isinstance(a, _e.ndarray) else _e.asarray(a)
    r = _sort(a, axis, kind, order, stable=stable)
    if axis is None or r.ndim == 0:
        return _e.flip(r) if r.ndim else r
    return _e.ascontiguousarray(_e.flip(r, axis=axis))


def argsort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    """Indices that sort a; with descending=True, stably in reverse: the
    ascending stable sort of a reversed, read backwards, with the
    positions mapped back (n - 1 - j)."""
    if not descending:
        return _argsort(a, axis, kind, order, stable=stable)
    a = a if isinstance(a, _e.ndarray) else _e.asarray(a)
    if axis is None:
        a, axis = _e.ravel(a), 0
    if a.ndim == 0:
        return _argsort(a, axis, kind, order, stable=stable)
    ax = normalize_axis(axis, a.ndim)
    n = a.shape[ax]
    idx = _argsort(_e.flip(a, axis=ax), ax, kind, order, stable=stable)
    return (n - 1) - _e.flip(idx, axis=ax)
