"""NEP 13 dispatch: numpy.add(ember_array, ...) and numpy.add.reduce(...)
run ember's ufunc of the same name, as CuPy's ndarray.__array_ufunc__
does. Which ufunc answers is composition; the call itself is C."""
from ember import _ember as _e

_METHODS = ("reduce", "accumulate", "reduceat", "outer", "at")
# NumPy ufuncs that ember composes (two outputs, or a gufunc): the ember
# function of the same name takes the same arguments.
# NumPy ufuncs that ember holds as functions over other operations
_COMPOSED = ("modf", "frexp", "divmod", "matmul", "fabs", "bitwise_count", "matvec",
             "vecmat", "vecdot", "deg2rad", "degrees", "rad2deg", "radians")
_KEYWORDS = ("out", "where", "dtype", "casting")
_IGNORED = ("order", "subok", "signature")


def _ufunc(name):
    """ember's ufunc named `name` (or aliased so), or None."""
    if not isinstance(name, str) or name == "copy":
        return None
    for key in (name, "_sp_" + name):
        f = getattr(_e, key, None)
        if isinstance(f, _e.ufunc):
            return f
    return None


def array_ufunc(self, ufunc, method, *inputs, **kwargs):
    try:
        name = ufunc.__name__
    except Exception:
        return NotImplemented
    if method in _METHODS:
        f = _ufunc(name)
        return NotImplemented if f is None else getattr(f, method)(*inputs, **kwargs)
    if method != "__call__":
        return NotImplemented
    if name in _COMPOSED:
        import ember
        return getattr(ember, name)(*inputs, **kwargs)
    f = _ufunc(name)
    if f is None or len(inputs) != f.nin:
        return NotImplemented
    # A keyword ember does not know: NumPy decides.
    if any(k not in _KEYWORDS and k not in _IGNORED for k in kwargs):
        return NotImplemented
    # NumPy arrays among the inputs of a GPU operation stay a TypeError
    # (raised by the call), as in CuPy.
    return f(*inputs, **{k: v for k, v in kwargs.items() if k in _KEYWORDS})
