"""Facts about dtypes, as the Array API asks for them: isdtype, finfo and
iinfo. Their numbers are Python floats and ints (the standard's rule),
where NumPy gives scalars of the dtype."""
import sys

from ember import _ember as _e
from ember._api._util import real_dtype

# The standard's kind names -> the dtype.kind letters they cover.
KINDS = {
    "bool": "b", "signed integer": "i", "unsigned integer": "u",
    "integral": "iu", "real floating": "f", "complex floating": "c",
    "numeric": "iufc",
}


def dtype_arg(x):
    """The ember dtype x names (an array: its dtype). None is refused here:
    ember.dtype(None) is NumPy's default float, but a limit or a kind of
    nothing is a mistake."""
    if x is None:
        raise TypeError("data type None not understood (ember takes an ember "
                        "dtype, a name such as 'float32', a Python type, or a "
                        "NumPy dtype)")
    return _e.dtype(x)


def _of_kind(d, kind):
    """Whether dtype d is `kind`: a kind name or anything naming a dtype."""
    if isinstance(kind, str):
        letters = KINDS.get(kind)
        if letters is None:
            raise ValueError(
                f"unknown dtype kind '{kind}' (expected 'bool', 'signed integer', "
                "'unsigned integer', 'integral', 'real floating', 'complex "
                "floating' or 'numeric')")
        return d.kind in letters
    try:
        other = dtype_arg(kind)
    except (TypeError, ValueError):
        raise TypeError("kind must be a dtype, a kind name or a tuple of them "
                        f"(got {type(kind).__name__})") from None
    return other == d


def of_kind(d, kind):
    """Whether dtype d is `kind`, or one of a tuple of kinds."""
    if isinstance(kind, tuple):
        return any(_of_kind(d, k) for k in kind)
    return _of_kind(d, kind)


def isdtype(dtype, kind):
    """Whether dtype is of kind: a dtype, one of 'bool', 'signed integer',
    'unsigned integer', 'integral', 'real floating', 'complex floating',
    'numeric', or a tuple of these. float16 and bfloat16 are 'real
    floating'."""
    return of_kind(dtype_arg(dtype), kind)


class _Limits:
    """Read-only attributes set once, as NumPy's finfo and iinfo."""
    __slots__ = ()

    def __init__(self, **values):
        for k, v in values.items():
            object.__setattr__(self, k, v)

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} attributes are read-only")


# name -> (eps, max, smallest_normal, precision): IEEE and bfloat16 formats
# by their mantissa and exponent widths.
_FLOATS = {
    "float16": (2.0 ** -10, 65504.0, 2.0 ** -14, 3),
    "bfloat16": (2.0 ** -7, (2 - 2.0 ** -7) * 2.0 ** 127, 2.0 ** -126, 2),
    "float32": (2.0 ** -23, (2 - 2.0 ** -23) * 2.0 ** 127, 2.0 ** -126, 6),
    "float64": (sys.float_info.epsilon, sys.float_info.max, sys.float_info.min, 15),
}


class finfo_t(_Limits):
    """Limits of a floating-point dtype (ember.finfo)."""
    __slots__ = ("bits", "eps", "max", "min", "smallest_normal", "tiny",
                 "resolution", "precision", "dtype")

    def __repr__(self):
        return (f"finfo(resolution={self.resolution:g}, min={self.min:.5e}, "
                f"max={self.max:.5e}, dtype={self.dtype.name})")


class iinfo_t(_Limits):
    """Limits of an integer dtype (ember.iinfo)."""
    __slots__ = ("bits", "min", "max", "dtype", "kind")

    def __repr__(self):
        return f"iinfo(min={self.min}, max={self.max}, dtype={self.dtype.name})"


def finfo(type):
    """Limits of a floating dtype (complex: of its parts): bits, eps, max,
    min, smallest_normal, tiny, resolution, precision, dtype."""
    d = real_dtype(dtype_arg(type))
    if d.kind != "f":
        raise ValueError(f"data type {d.name} not inexact")
    eps, big, normal, precision = _FLOATS[d.name]
    return finfo_t(bits=8 * d.itemsize, eps=eps, max=big, min=-big,
                   smallest_normal=normal, tiny=normal,
                   resolution=10.0 ** -precision, precision=precision, dtype=d)


def iinfo(type):
    """Limits of an integer dtype: bits, min, max, dtype, kind."""
    d = dtype_arg(type)
    if d.kind not in "iu":
        raise ValueError(f"Invalid integer data type '{d.kind}'.")
    bits = 8 * d.itemsize
    lo, hi = (0, 2 ** bits - 1) if d.kind == "u" else (-2 ** (bits - 1), 2 ** (bits - 1) - 1)
    return iinfo_t(bits=bits, min=lo, max=hi, dtype=d, kind=d.kind)
