"""NumPy's functions defined for real numbers only (a complex argument is
a TypeError): fabs, and isposinf/isneginf, each one fused expression."""
from ember import _ember as _e

# fabs's loops are NumPy's e->e, f->f, d->d: an integer or bool argument
# goes to the first float type it casts to safely
_FABS = {"b": "e", "?": "e", "B": "e", "h": "f", "H": "f"}


def fabs(x, /, out=None, *, where=True, dtype=None):
    """|x| as a float, as numpy.fabs (float16 for bools and 8-bit
    integers, float32 for 16-bit, float64 for wider)."""
    x = x if isinstance(x, _e.ndarray) else _e.asarray(x)
    k = x.dtype.kind
    if k == "c" or (dtype is not None and _e.dtype(dtype).kind not in "f"):
        raise TypeError("ufunc 'fabs' not supported for the input types, and the "
                        "inputs could not be safely coerced to any supported types "
                        "according to the casting rule ''safe''")
    if dtype is None:
        dtype = x.dtype if k == "f" else _FABS.get(x.dtype.char, "d")
    kw = {} if where is True else {"where": where}
    return _e.absolute(x, out=out, dtype=dtype, **kw)


def _sign_test(x, out, negative):
    x = x if isinstance(x, _e.ndarray) else _e.asarray(x)
    if x.dtype.kind == "c":
        raise TypeError(f"This operation is not supported for {x.dtype} values "
                        "because it would be ambiguous.")
    s = _e.signbit(x)
    return _e.logical_and(_e.isinf(x), s if negative else ~s, out=out)


def isposinf(x, out=None):
    """x == +inf elementwise (False for every integer)."""
    return _sign_test(x, out, False)


def isneginf(x, out=None):
    """x == -inf elementwise (False for every integer)."""
    return _sign_test(x, out, True)
