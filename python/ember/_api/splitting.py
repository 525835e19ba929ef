"""split, array_split, hsplit, vsplit, dsplit: lists of views (slices
along one axis), as NumPy's."""
import operator

from ember import _ember as _e
from ember._api._util import normalize_axis


def _one_int(o):
    """o as one integer, or None when it is something else (a sequence, an
    array of several elements: those have __index__ but refuse it)."""
    if isinstance(o, bool) or not hasattr(type(o), "__index__"):
        return None
    try:
        return operator.index(o)
    except TypeError:
        return None


def _split(ary, ios, axis, equal):
    a = ary if isinstance(ary, _e.ndarray) else _e.asarray(ary)
    axis = normalize_axis(operator.index(axis), a.ndim)
    length = a.shape[axis]
    n = _one_int(ios)
    if n is not None:
        if n <= 0:
            raise ValueError("number sections must be larger than 0.")
        if equal and length % n:
            raise ValueError("array split does not result in an equal division")
        each, extra = divmod(length, n)
        bounds = [0]
        for i in range(n):
            bounds.append(bounds[-1] + each + (i < extra))
    else:
        try:
            seq = list(ios)
        except TypeError:
            raise TypeError("indices_or_sections must be an integer or a "
                            "sequence of integers") from None
        # Each piece is a[prev:idx] with Python's slice clamping.
        bounds = [0] + [operator.index(i) for i in seq] + [length]
        bounds = [min(length, max(0, b + length) if b < 0 else b) for b in bounds]
    head = (slice(None),) * axis
    return [a[head + (slice(lo, hi),)] for lo, hi in zip(bounds, bounds[1:])]


def split(ary, indices_or_sections, axis=0):
    """Views of ary in equal sections (an error when they are not), or
    between the given indices."""
    return _split(ary, indices_or_sections, axis, True)


def array_split(ary, indices_or_sections, axis=0):
    """split, with sections of lengths differing by at most one."""
    return _split(ary, indices_or_sections, axis, False)


def _xsplit(name, need, ary, ios):
    a = ary if isinstance(ary, _e.ndarray) else _e.asarray(ary)
    if a.ndim < need:
        raise ValueError(f"{name} only works on arrays of {need} or more "
                         f"dimensions")
    axis = {"hsplit": 1 if a.ndim > 1 else 0, "vsplit": 0, "dsplit": 2}[name]
    return _split(a, ios, axis, True)


def hsplit(ary, indices_or_sections):
    return _xsplit("hsplit", 1, ary, indices_or_sections)


def vsplit(ary, indices_or_sections):
    return _xsplit("vsplit", 2, ary, indices_or_sections)


def dsplit(ary, indices_or_sections):
    return _xsplit("dsplit", 3, ary, indices_or_sections)
