"""Argument handling shared by Generator and RandomState: sizes, dtypes,
out= arrays and scalar parameters, with NumPy's errors."""
import operator

import numpy as _np

import ember


def shape_of(size):
    """size as a shape tuple (None: a 0-d result)."""
    if size is None:
        return ()
    try:
        return (operator.index(size),)
    except TypeError:
        return tuple(operator.index(s) for s in size)


def norm_dtype(dtype):
    try:
        return _np.dtype(dtype)
    except TypeError:
        return _np.dtype(str(dtype))


def is_array(x):
    return isinstance(x, (ember.ndarray, _np.ndarray)) and x.ndim > 0 or \
        isinstance(x, (list, tuple))


def scalar(x, name):
    """A float parameter; arrays are the callers' (is_array) business."""
    try:
        return float(x)
    except TypeError:
        raise TypeError(f"{name} must be a real number, not "
                        f"{type(x).__name__}") from None


def host(x, dtype=None):
    """A NumPy copy of x (parameters checked on the host)."""
    if isinstance(x, ember.ndarray):
        x = ember.asnumpy(x)
    return _np.asarray(x, dtype=dtype)


def out_array(size, dtype, out, fname):
    """The array a draw fills: out (checked as NumPy checks it) or a new
    one of size's shape on the current device."""
    if out is None:
        return ember.empty(shape_of(size), dtype=dtype)
    if not isinstance(out, ember.ndarray):
        raise TypeError(f"{fname}: out must be an ember.ndarray, not "
                        f"{type(out).__name__}")
    if _np.dtype(str(out.dtype)) != dtype:
        raise TypeError("Supplied output array has the wrong type. Expected "
                        f"{dtype}, got {out.dtype}")
    flags = out.flags  # one flags object (each costs microseconds)
    if not (flags.c_contiguous and flags.writeable):
        raise ValueError("Supplied output array must be contiguous, "
                         "writable, aligned, and in machine byte-order.")
    if size is not None and shape_of(size) != tuple(out.shape):
        raise ValueError("size must match out.shape when used together")
    return out


def check(cond, msg):
    if not cond:
        raise ValueError(msg)
