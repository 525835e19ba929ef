"""sort and argsort with the Array API's keywords (descending=, stable=)
over ember's C sorts, which are always stable and ascending."""
import operator

from ember import _ember as _e
from ember._api.selection import take_along_axis
from ember._api._util import normalize_axis

_KINDS = ("quicksort", "quick", "mergesort", "merge", "heapsort", "heap",
          "stable")


def _kind_check(kind, order, fn):
    """NumPy's kind= and order=: every ember sort is stable, so any valid
    kind gives a stable sort."""
    if order is not None:
        raise ValueError(f"{fn}: order= applies to structured arrays, which "
                         "ember does not have")
    if kind is not None:
        if not isinstance(kind, str):
            raise TypeError(f"{fn}: kind must be a str or None")
        if kind not in _KINDS:
            raise ValueError("sort kind must be one of 'quick', 'heap', or "
                             f"'stable' (got '{kind}')")


def _c_sort(fn, indices):
    def run(a, axis=-1, kind=None, order=None, *, stable=None):
        _kind_check(kind, order, fn)
        axis = _axis(axis, fn)
        a = a if isinstance(a, _e.ndarray) else _e.asarray(a)
        return _e._sort(a, axis, indices)
    return run


_sort = _c_sort("sort", False)
_argsort = _c_sort("argsort", True)


def _nd_sort(a, axis=-1, kind=None, order=None, *, stable=None):
    """a.sort(axis=-1, kind=None, order=None): sort in place."""
    _kind_check(kind, order, "sort")
    axis = _axis(axis, "sort", allow_none=False)
    if not a.flags.writeable:
        raise ValueError("sort: the array is read-only")
    a[...] = _e._sort(a, axis, False)


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


def _axis(o, fn, allow_none=True):
    if o is None and allow_none:
        return None
    try:
        v = operator.index(o)
        return v if -2**31 <= v < 2**31 else 2**31 - 1   # the core's AxisError
    except TypeError:
        raise TypeError(f"{fn}: axis must be an int"
                        f"{' or None' if allow_none else ''}, not "
                        f"{type(o).__name__}") from None


def _kth_kind(kth):
    """(ndim or None, kind) of what NumPy makes of kth before reading it
    (np.asarray(kth)); None for a kind read from its items."""
    if isinstance(kth, _e.ndarray):
        return kth.ndim, kth.dtype.kind
    if isinstance(kth, bool):
        return None, "b"
    if isinstance(kth, (str, bytes)):
        return None, "U"    # NumPy reads a string as one, not a sequence
    try:
        view = memoryview(kth)
    except TypeError:
        return None, None
    f = view.format.lstrip("@=<>!")[:1] or "B"
    return view.ndim, "b" if f == "?" else "i" if f in "bBhHiIlLqQnN" else "f"


def _is_sequence(o):
    return (hasattr(type(o), "__getitem__") and hasattr(type(o), "__len__")
            and not isinstance(o, dict))


def _kth_check(kth, a, axis):
    """kth: an int or a sequence of ints, each within [-n, n) of the axis
    (None: the flattened array). A full sort satisfies every kth."""
    ndim, kind = _kth_kind(kth)
    if ndim is not None and ndim > 1:
        raise ValueError(f"kth must be scalar or 1-D, not {ndim}-D")
    if kind == "b":
        raise ValueError("Booleans unacceptable as partition index")
    if kind is not None and kind not in "iu":
        raise TypeError("Partition index must be integer")
    if axis is None or a.ndim == 0:
        n = a.size
    elif -a.ndim <= axis < a.ndim:
        n = a.shape[axis]
    else:
        return     # the sort names the bad axis
    items = list(kth) if ndim != 0 and _is_sequence(kth) else [kth]
    if not items and ndim is None:
        raise TypeError("Partition index must be integer")  # [] is float64
    for it in items:
        if isinstance(it, bool):
            raise ValueError("Booleans unacceptable as partition index")
        if (_is_sequence(it) and not isinstance(it, _e.ndarray)
                and _kth_kind(it)[0] is None):
            raise ValueError("kth must be scalar or 1-D")
        try:
            v = operator.index(it)
            if not -2**63 <= v < 2**63:
                raise TypeError
        except TypeError:
            raise TypeError("Partition index must be integer, not "
                            f"{type(it).__name__}") from None
        if not -n <= v < n:
            raise ValueError(f"kth(={v + n if v < 0 else v}) out of bounds "
                             f"({n})")


def _partition(fn, sort, a, kth, axis, order):
    if order is not None:
        raise ValueError(f"{fn}: order= applies to structured arrays, which "
                         "ember does not have")
    ax = _axis(axis, fn)
    a = a if isinstance(a, _e.ndarray) else _e.asarray(a)
    _kth_check(kth, a, ax)
    return sort(a, axis)


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """A partitioned copy: ember sorts fully, which satisfies every kth."""
    return _partition("partition", _sort, a, kth, axis, order)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """Indices that partition a: a full stable argsort."""
    return _partition("argpartition", _argsort, a, kth, axis, order)


def _nd_partition(a, kth, axis=-1, kind=None, order=None):
    """a.partition(kth, axis=-1): in place, by a full sort."""
    ax = _axis(axis, "partition", allow_none=False)
    _kth_check(kth, a, ax)
    if order is not None:
        raise ValueError("partition: order= applies to structured arrays, "
                         "which ember does not have")
    a.sort(axis=ax)


def lexsort(keys, axis=-1):
    """Indirect stable sort by several keys, the last primary: stable
    sorts by each key in turn, least significant first, each through the
    order so far."""
    ax = _axis(axis, "lexsort", allow_none=False)
    keys = list(keys)     # a 2-D array is a sequence of its rows
    if not keys:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    first = keys[0] if isinstance(keys[0], _e.ndarray) else _e.asarray(keys[0])
    idx = _argsort(first, ax)
    for k in keys[1:]:
        if not isinstance(k, _e.ndarray):
            k = _e.asarray(k, device=first.device)
        if k.shape != first.shape:
            raise ValueError("all keys need to be the same shape")
        order = _argsort(take_along_axis(k, idx, ax), ax)
        idx = take_along_axis(idx, order, ax)
    return idx


def searchsorted(a, v, side="left", sorter=None):
    """Insertion indices of v in the sorted a (sorter: indices that sort
    a)."""
    if side is None:
        side = "left"
    if not isinstance(side, str) or side not in ("left", "right"):
        raise ValueError(f"search side must be 'left' or 'right' (got {side!r})")
    a = a if isinstance(a, _e.ndarray) else _e.asarray(a)
    v = v if isinstance(v, _e.ndarray) else _e.asarray(v, device=a.device)
    if sorter is not None:
        if not isinstance(sorter, _e.ndarray):
            sorter = _e.asarray(sorter, device=a.device)
        if sorter.dtype.kind not in "iu":
            raise TypeError("searchsorted: sorter must hold integers, not "
                            f"{sorter.dtype.name}")
        if sorter.dtype.name != "int64":
            sorter = sorter.astype("int64")
    return _e._searchsorted(a, v, side == "right", sorter)
