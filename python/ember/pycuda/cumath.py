"""PyCUDA's ``pycuda.cumath``: elementwise math on arrays through ember's
ufuncs; stream= makes that stream current for the call."""
import ember

_NAMES = ("fabs", "ceil", "floor", "exp", "log", "log10", "sqrt", "sin",
          "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh")
_EMBER = {"fabs": "abs", "asin": "arcsin", "acos": "arccos", "atan": "arctan"}


def _make(name):
    f = getattr(ember, _EMBER.get(name, name))

    def op(array, stream=None, out=None):
        if stream is not None:
            with stream._s:
                return f(array) if out is None else f(array, out=out)
        return f(array) if out is None else f(array, out=out)
    op.__name__ = name
    op.__doc__ = "%s(array, stream=None, out=None): ember.%s." % (
        name, _EMBER.get(name, name))
    return op


for _n in _NAMES:
    globals()[_n] = _make(_n)

__all__ = list(_NAMES)
