"""Argument readers shared by the shape, joining, matrix and creation
functions: NumPy's ways of passing an integer, axes and sizes, with the
errors its C raises."""
import operator

from ember._api._util import normalize_axis


def index(o, what):
    """o as an int through __index__ (a bool is refused, as NumPy does for
    an axis or an offset)."""
    if isinstance(o, bool) or not hasattr(type(o), "__index__"):
        raise TypeError(f"{what} must be an integer, not {type(o).__name__}")
    return operator.index(o)


def size(o, what):
    """A matrix extent: an int, not negative."""
    n = index(o, what)
    if n < 0:
        raise ValueError(f"negative dimensions are not allowed ({what}={n})")
    return n


def ints(o, what):
    """An int or a sequence of ints (a NumPy or ember array of them too) as
    a tuple."""
    if not isinstance(o, bool):
        try:
            return (operator.index(o),)
        except TypeError:
            pass    # an array of several elements refuses __index__
    try:
        return tuple(operator.index(v) for v in o)
    except TypeError:
        raise TypeError(f"{what} must be an int or a tuple of ints, not "
                        f"{type(o).__name__}") from None


def axes(o, ndim, what):
    """Distinct axes in [0, ndim) from an int or a sequence."""
    r = tuple(normalize_axis(a, ndim) for a in ints(o, what))
    if len(set(r)) != len(r):
        raise ValueError(f"repeated axis in `{what}` argument")
    return r


def no_like(like):
    if like is not None:
        raise NotImplementedError("like= is not supported by ember")
