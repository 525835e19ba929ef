"""Type questions: isscalar and real_if_close."""
import sys

from ember import _ember as _e
from ember._api.dtype_info import finfo, isdtype

_PY_SCALARS = (int, float, complex, bool, bytes, str, memoryview)


def isscalar(element):
    """NumPy's isscalar: Python and NumPy scalars and numbers.Number
    instances; arrays (0-d ones too) are not scalars."""
    if isinstance(element, _PY_SCALARS):
        return True
    np = sys.modules.get("numpy")          # a NumPy scalar implies NumPy loaded
    if np is not None and isinstance(element, np.generic):
        return True
    if isinstance(element, _e.ndarray):
        return False
    import numbers
    return isinstance(element, numbers.Number)


def real_if_close(a, tol=100):
    """a.real when every imaginary part is below tol machine epsilons (tol
    > 1) or below tol itself; else a. One reduction and a one-byte read."""
    a = a if isinstance(a, _e.ndarray) else _e.asarray(a)
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = finfo(a.dtype).eps * tol
    if bool(_e.all(_e.abs(a.imag) < tol)):
        return a.real
    return a


def _arr(a):
    return a if isinstance(a, _e.ndarray) else _e.asarray(a)


def ndim(a):
    """The number of axes of a (ember and NumPy arrays without a copy)."""
    return a.ndim if hasattr(a, "ndim") and hasattr(a, "shape") else _arr(a).ndim


def shape(a):
    return tuple(a.shape) if hasattr(a, "ndim") and hasattr(a, "shape") \
        else _arr(a).shape


def size(a, axis=None):
    """The number of elements, or the extent of `axis` (an int or a tuple)."""
    s = shape(a)
    if axis is None:
        n = 1
        for d in s:
            n *= d
        return n
    axes = axis if isinstance(axis, tuple) else (axis,)
    n = 1
    for ax in axes:
        if not -len(s) <= ax < len(s):
            import ember
            raise ember.AxisError(f"axis {ax} is out of bounds for array of "
                                  f"dimension {len(s)}")
        n *= s[ax]
    return n


def isfortran(a):
    """Whether a is Fortran-contiguous and not also C-contiguous (NumPy's
    isfortran: False for one-dimensional arrays)."""
    if not isinstance(a, _e.ndarray):
        import numpy as np
        return np.isfortran(a)
    f = a.flags
    return bool(f.f_contiguous and not f.c_contiguous)


def iscomplexobj(x):
    """Whether x's dtype is complex (not whether any value has an imaginary
    part)."""
    dt = getattr(x, "dtype", None)
    if dt is None:
        if isinstance(x, complex):
            return True
        dt = _arr(x).dtype
    return isdtype(dt, "complex floating")


def isrealobj(x):
    return not iscomplexobj(x)


def iscomplex(x):
    """Elementwise: a nonzero imaginary part (False for real dtypes)."""
    a = _arr(x)
    if a.dtype.kind == "c":
        return _e.not_equal(a.imag, 0)
    return _e.zeros(a.shape, dtype=_e.bool_, device=a.device)


def isreal(x):
    """Elementwise: a zero imaginary part (True for real dtypes)."""
    a = _arr(x)
    if a.dtype.kind == "c":
        return _e.equal(a.imag, 0)
    return _e.ones(a.shape, dtype=_e.bool_, device=a.device)
