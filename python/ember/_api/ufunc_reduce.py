"""ember.reduce (also ember.cuda.reduce): a reduction from a binary scalar
Python function, with Numba's spelling:

    @ember.reduce
    def vmax(a, b):
        return a if a > b else b

    vmax(arr, size=None, res=None, init=0, stream=0)   # numba.cuda.reduce
    vmax.reduce(arr, axis=0, initial=None, keepdims=False, out=None)

The function is translated per dtype by ember.jit.translate_device and
becomes reduce_expr `f(a, b)` of two ReductionKernels: one plain, one
combining `initial` once after the reduction (an identity would enter
once per partial)."""
import operator

from ember import _ember as _e
from ember._api.vectorize import (check_supported, code, finish, operands,
                                  scalar_dtype, stream_arg, translate)


def _axes(axis):
    """axis as the kernels take it: None (all), an int or a tuple."""
    if axis is None or isinstance(axis, int):
        return axis
    return tuple(operator.index(a) for a in axis)


class Reduce:
    """A reduction made by ember.reduce from a binary function:
    f(arr, size=None, res=None, init=0, stream=0) as numba.cuda.reduce,
    f.reduce(array, axis=0, ...) as a ufunc's."""

    def __init__(self, f):
        name = getattr(f, "__name__", None)
        if not callable(f) or name is None:
            raise TypeError("ember.reduce decorates a binary Python function")
        self.py_func = f
        self.__name__ = name
        self._kernels = {}

    def _kernels_for(self, dt):
        ks = self._kernels.get(dt.name)
        if ks is not None:
            return ks
        check_supported("reduce", self.__name__, dt)
        src, cname, rcode = translate(self.py_func, [code(dt)] * 2)
        if rcode == "none":
            raise TypeError(f"reduce '{self.__name__}': the function returns "
                            "nothing")
        red = f"(T){cname}(a, b)"
        RK = _e.ReductionKernel
        ks = self._kernels[dt.name] = (
            RK("T x", "T y", "x", red, "y = a", name="ember_reduce",
               preamble=src),
            RK("T x, T init", "T y", "x", red, f"y = (T){cname}(init, a)",
               name="ember_reduce", preamble=src))
        return ks

    def _run(self, x, axis, keepdims, initial, out, stream):
        (x,), _, _, host_only, _ = operands((x,), False)
        plain, with_init = self._kernels_for(x.dtype)
        if initial is None:
            return plain(x, axis=axis, keepdims=keepdims, out=out,
                         stream=stream), host_only
        if scalar_dtype(initial) is None:
            raise TypeError("initial must be a scalar")
        axes = range(x.ndim) if axis is None else \
            [axis] if isinstance(axis, int) else axis
        axes = {a + x.ndim if a < 0 else a for a in axes}
        if any(x.shape[a] == 0 for a in axes if 0 <= a < x.ndim):
            # nothing to combine: `initial` everywhere, as NumPy
            shape = tuple(1 if a in axes else n for a, n in enumerate(x.shape)
                          if keepdims or a not in axes)
            if out is None:
                out = _e.empty(shape, dtype=x.dtype, device=x.device)
            out.fill(initial)
            return out, host_only
        return with_init(x, initial, axis=axis, keepdims=keepdims, out=out,
                         stream=stream), host_only

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False,
               initial=None):
        """As NumPy's ufunc.reduce (axis=None: all axes)."""
        axis = _axes(axis)
        if dtype is not None:
            raise NotImplementedError("reduce(dtype=) is not supported: the "
                                      "reduction runs in the array's dtype")
        if out is not None and not isinstance(out, _e.ndarray):
            raise TypeError("out must be an ember ndarray")
        r, host_only = self._run(array, axis, bool(keepdims), initial, out,
                                 None)
        return finish(r, host_only and out is None, False)

    def __call__(self, arr, size=None, res=None, init=None, stream=0):
        """Numba's Reduce.__call__: the whole of arr[:size] to one value,
        returned, or stored in res[0]."""
        stream = stream_arg(stream)
        if size is not None:
            arr = arr[:size]
        if len(arr) == 0:
            # Numba gives init (0 by default) for an empty array
            item = 0 if init is None else init
        else:
            r, _ = self._run(arr, None, False, init, None, stream)
            item = r.get()[()]
        if res is None:
            return item
        res[0] = item
        return None

    def __repr__(self):
        return f"<ember.reduce '{self.__name__}'>"


def reduce(func):
    """A reduction from a binary scalar function, as numba.cuda.reduce:
    f(arr) reduces all of arr, f.reduce(arr, axis=0, initial=None,
    keepdims=False, out=None) as a ufunc's reduce."""
    return Reduce(func)
