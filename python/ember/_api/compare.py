"""Whole-array comparisons: isclose, allclose, array_equal, array_equiv.
isclose is NumPy's formula in NumPy's dtypes; for float32/float64 it is
one fused kernel (kernels/isclose.c), for float16/bfloat16 and complex
(which ElementwiseKernel computes differently or not at all) NumPy's own
ufunc chain over ember's ufuncs."""
from ember import _ember as _e
from ember._api._util import as_array, device_of, kernel

_FUSED = None          # the dtypes the fused kernel computes in
_binders = {}          # (dtype, device) -> zero-size array binding a type


def _is_number(o):
    return isinstance(o, (int, float, complex))


def _operand(o, dev):
    """Python numbers stay themselves (weak, as in NumPy); anything else is
    an array on `dev`. NumPy scalars become 0-d arrays (strong)."""
    return o if _is_number(o) else as_array(o, dev)


def _binder(dtype, dev):
    key = (str(dtype), dev)
    b = _binders.get(key)
    if b is None:
        b = _binders[key] = _e.empty((0,), dtype=dtype, device=dev)
    return b


def _isclose_ufuncs(x, y, rtol, atol, equal_nan):
    """NumPy's isclose step for step (each step rounded in its dtype)."""
    r = (_e.less_equal(_e.absolute(x - y), atol + rtol * _e.absolute(y))
         & _e.isfinite(y)) | (x == y)
    if equal_nan:
        r = r | (_e.isnan(x) & _e.isnan(y))
    return r


def _isclose_array(a, b, rtol, atol, equal_nan):
    global _FUSED
    dev = device_of(a, b, rtol, atol)
    x, y = _operand(a, dev), _operand(b, dev)
    rtol, atol = _operand(rtol, dev), _operand(atol, dev)
    if isinstance(y, _e.ndarray):
        dt = _e.result_type(y, 1.0)
        if dt != y.dtype:
            y = y.astype(dt)
    elif isinstance(y, int):
        y = float(y)
    if not isinstance(x, _e.ndarray) and not isinstance(y, _e.ndarray):
        # Scalars alone: a 0-d result on the current device.
        x = _e.asarray(x)
        dev = x.device
    dev = dev if dev is not None else device_of(x, y)
    d1 = _e.result_type(x, y)
    d2 = _e.result_type(rtol, y)
    d3 = _e.result_type(atol, d2)
    if _FUSED is None:
        _FUSED = (_e.dtype("float32"), _e.dtype("float64"))
    if d1 in _FUSED and d2 in _FUSED and d3 in _FUSED:
        k = kernel("isclose", "X x, Y y, R rtol, A atol, raw D1 t1, raw D2 t2, "
                   "raw D3 t3, bool equal_nan", "bool out")
        return k(x, y, rtol, atol, _binder(d1, dev), _binder(d2, dev),
                 _binder(d3, dev), bool(equal_nan))
    return _isclose_ufuncs(x, y, rtol, atol, equal_nan)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """|a - b| <= atol + rtol * |b| elementwise (b the reference),
    infinities equal only to themselves."""
    return _isclose_array(a, b, rtol, atol, equal_nan)[()]


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether isclose holds everywhere (a Python bool)."""
    return bool(_e.all(_isclose_array(a, b, rtol, atol, equal_nan)))


def _two_arrays(a, b):
    """Both as arrays, or None when either cannot be one (NumPy's
    array_equal and array_equiv answer False then)."""
    try:
        dev = device_of(a, b)
        return as_array(a, dev), as_array(b, dev)
    except (TypeError, ValueError):
        return None


def _all_equal(x, y, equal_nan):
    eq = x == y
    if equal_nan and (x.dtype.kind in "fc" or y.dtype.kind in "fc"):
        eq = eq | (_e.isnan(x) & _e.isnan(y))
    return bool(_e.all(eq))


def array_equal(a1, a2, equal_nan=False):
    """Same shape and elements (a Python bool)."""
    xy = _two_arrays(a1, a2)
    if xy is None or xy[0].shape != xy[1].shape:
        return False
    return _all_equal(xy[0], xy[1], equal_nan)


def array_equiv(a1, a2):
    """Broadcastable and equal everywhere (a Python bool)."""
    xy = _two_arrays(a1, a2)
    if xy is None:
        return False
    x, y = xy
    for p, q in zip(reversed(x.shape), reversed(y.shape)):
        if p != q and p != 1 and q != 1:
            return False
    return _all_equal(x, y, False)
