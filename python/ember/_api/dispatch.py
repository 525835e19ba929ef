"""NEP 18 dispatch: numpy.foo(ember_array, ...) runs ember.foo, as CuPy's
ndarray.__array_function__ does. ember.ndarray.__array_function__ (a C
shim in _ext/array/ndarray.c) calls array_function here."""
import sys

from ember import _ember


# NumPy modules whose functions ember holds under another path: numpy.emath's
# functions say they are numpy.lib.scimath's.
_RENAMED = {"numpy.lib.scimath": "numpy.emath"}


def _ember_function(func):
    """ember's function answering NumPy's `func`, or None. numpy.linalg.norm
    is ember.linalg.norm; numpy.where is ember.where."""
    import ember
    mod = ember
    path = getattr(func, "__module__", None) or "numpy"
    for part in _RENAMED.get(path, path).split(".")[1:]:
        if part.startswith("_"):      # numpy._core.fromnumeric and the like
            continue
        mod = getattr(mod, part, None)
        if mod is None:
            return None
    found = getattr(mod, getattr(func, "__name__", ""), None)
    return found if callable(found) and found is not func else None


def array_function(self, func, types, args, kwargs):
    # Only ember arrays and NumPy's own arrays may take part: another
    # library's array type gets NotImplemented, so NumPy asks it next.
    nd = sys.modules.get("numpy")
    for t in types:
        if not (issubclass(t, _ember.ndarray) or
                (nd is not None and issubclass(t, nd.ndarray))):
            return NotImplemented
    fn = _ember_function(func)
    if fn is None:
        name = getattr(func, "__qualname__", getattr(func, "__name__", repr(func)))
        mod = getattr(func, "__module__", "numpy") or "numpy"
        raise TypeError(f"no implementation of {mod}.{name} for ember arrays "
                        "(ember has no function of that name; convert with "
                        "ember.asnumpy to run NumPy's on the host)")
    try:
        return fn(*args, **kwargs)
    except TypeError:
        # NumPy makes object or string arrays of None and str operands
        # (matplotlib's bar broadcasts hatch=None with the heights); ember
        # arrays hold numbers only, so such a call is NumPy's own, run on
        # zero-copy host views of cpu operands. A GPU operand would be a
        # silent copy to the host: the error says so instead.
        impl = getattr(func, "_implementation", None)
        leaves = list(_leaves(args, kwargs))
        if impl is None or not any(_object_like(v, nd) for v in leaves):
            raise
        gpu = [v.device for v in leaves
               if isinstance(v, _ember.ndarray) and v.device.type != "cpu"]
        if gpu:
            raise TypeError(
                f"{getattr(func, '__name__', func)}: an argument is None, str or "
                f"an object array, which ember arrays do not hold, so this is "
                f"NumPy's call on the host; an ember operand is on {gpu[0]}: "
                "pass ember.asnumpy() of it to copy it there") from None
    return impl(*args, **kwargs)


def _leaves(args, kwargs):
    """The arguments, with the items of list and tuple arguments."""
    stack = list(args) + list(kwargs.values())
    while stack:
        v = stack.pop()
        if isinstance(v, (list, tuple)):
            stack.extend(v)
        else:
            yield v


def _object_like(v, nd):
    """Whether NumPy keeps v in an object or string array."""
    if v is None or isinstance(v, (str, bytes)):
        return True
    return nd is not None and isinstance(v, nd.ndarray) and v.dtype.kind in "OSU"


def get_array_module(*args):
    """CuPy's get_array_module: the ember module when any argument is an
    ember array, else numpy (imported then, not at `import ember`)."""
    for a in args:
        if isinstance(a, _ember.ndarray):
            import ember
            return ember
    import numpy
    return numpy
