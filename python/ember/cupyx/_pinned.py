"""cupyx's pinned-memory constructors (CuPy's memory guide names them):
NumPy arrays over page-locked host memory from ember's pinned allocator,
which copy to and from a device without a staging buffer. The memory
object is each array's base, so it lives as long as the array does."""
import operator

import numpy

from ember import _ember as _e

__all__ = ["empty_pinned", "empty_like_pinned", "zeros_pinned",
           "zeros_like_pinned"]


def _np_dtype(dtype):
    # ember's dtypes name NumPy's (str); NumPy's and Python's types pass
    return numpy.dtype(getattr(dtype, "str", dtype) if isinstance(dtype, _e.dtype)
                       else dtype)


def _shape(shape):
    if isinstance(shape, int) or hasattr(type(shape), "__index__"):
        shape = (shape,)
    shape = tuple(operator.index(d) for d in shape)
    if any(d < 0 for d in shape):
        raise ValueError(f"negative dimensions are not allowed: {shape}")
    return shape


def empty_pinned(shape, dtype=float, order="C"):
    """A new NumPy array of shape and dtype over pinned memory, its values
    not set (cupyx.empty_pinned)."""
    if order not in ("C", "F"):
        raise ValueError(f"order must be 'C' or 'F', not {order!r}")
    shape, dtype = _shape(shape), _np_dtype(dtype)
    n = dtype.itemsize
    for d in shape:
        n *= d
    mem = _e.alloc_pinned_memory(max(n, 1))
    return numpy.ndarray(shape, dtype=dtype, buffer=mem, order=order)


def _like(a, dtype, order, subok, shape):
    if subok is not None:
        raise TypeError("subok is not supported (cupyx does not take it "
                        "either)")
    if order not in ("C", "F", "A", "K"):
        raise ValueError(f"order must be 'C', 'F', 'A' or 'K', not {order!r}")
    flags = getattr(a, "flags", None)
    f_only = bool(flags is not None and flags.f_contiguous
                  and not flags.c_contiguous)
    if order in ("A", "K"):
        order = "F" if f_only else "C"
    return (a.shape if shape is None else shape,
            a.dtype if dtype is None else dtype, order)


def empty_like_pinned(a, dtype=None, order="K", subok=None, shape=None):
    """empty_pinned with a's shape and dtype (and its layout, for order
    'K' or 'A'), cupyx.empty_like_pinned."""
    return empty_pinned(*_like(a, dtype, order, subok, shape))


def zeros_pinned(shape, dtype=float, order="C"):
    """empty_pinned filled with zeros (cupyx.zeros_pinned)."""
    out = empty_pinned(shape, dtype, order)
    out[...] = 0
    return out


def zeros_like_pinned(a, dtype=None, order="K", subok=None, shape=None):
    """zeros_pinned with a's shape and dtype (cupyx.zeros_like_pinned)."""
    return zeros_pinned(*_like(a, dtype, order, subok, shape))
