"""Numba's CPU decorators spelled on ember: `ember.jit(f)`, `ember.njit`,
`@ember.jit(nopython=True)`, `@ember.jit("float64(float64)")`.

ember compiles Python functions only as kernels and device functions; on
the host a decorated function runs as the Python it is (Numba's results,
not its speed). What the decorator is for in Numba's CUDA examples is the
reuse: the same function called on the host and, through `.py_func`, from
an ember.cuda.jit kernel, where it is compiled as a device function."""
import functools

_OPTIONS = frozenset({"nopython", "nogil", "cache", "parallel", "fastmath", "error_model",
                      "boundscheck", "inline", "forceobj", "looplift", "locals",
                      "debug", "no_cpython_wrapper", "no_cfunc_wrapper", "target"})


class HostFunction:
    """A function decorated with ember.jit/njit: callable on the host, and a
    device function inside kernels (it has Numba's .py_func)."""

    def __init__(self, py_func, signatures=()):
        self.py_func = py_func
        self.signatures = list(signatures)
        functools.update_wrapper(self, py_func)

    def __call__(self, *args, **kwargs):
        return self.py_func(*args, **kwargs)

    def __repr__(self):
        return "<ember.jit function %s>" % getattr(self.py_func, "__qualname__", "?")


def jit(signature_or_function=None, **options):
    """Numba's numba.jit/njit: see the module's docstring."""
    bad = sorted(set(options) - _OPTIONS)
    if bad:
        raise TypeError("jit() got unexpected keyword argument%s %s"
                        % ("s" if len(bad) > 1 else "", ", ".join(map(repr, bad))))
    if callable(signature_or_function) and not isinstance(signature_or_function, str):
        return HostFunction(signature_or_function)
    sigs = signature_or_function
    if sigs is None:
        sigs = ()
    elif not isinstance(sigs, list):
        sigs = [sigs]
    return lambda f: HostFunction(f, sigs)


njit = jit
