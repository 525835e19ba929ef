"""Helpers shared by the composite modules: where an argument's data goes,
and the fused kernels, built from the C snippets in _api/kernels/ on their
first call."""
import os

from ember import _ember as _e

_kernels = {}


def device_of(*args):
    """The device of the first ember array among args, else None (then
    ember puts new arrays on the current device)."""
    for a in args:
        if isinstance(a, _e.ndarray):
            return a.device
    return None


def as_array(a, device=None, dtype=None):
    """a as an ember array on `device` (a list of parameters or a NumPy
    array is uploaded there). An ember array on another device is a
    ValueError naming both: ember never moves data between devices
    silently."""
    if isinstance(a, _e.ndarray):
        if isinstance(device, str):   # 'cpu' names the Device a.device is
            device = _e.Device(device)
        if device is not None and a.device != device:
            raise ValueError(f"operands are on different devices: {a.device} "
                             f"and {device}")
        return a if dtype is None else a.astype(dtype, copy=False)
    return _e.asarray(a, dtype=dtype, device=device)


def normalize_axis(axis, ndim, what="axis"):
    """axis in [0, ndim), or NumPy's AxisError (an IndexError and a
    ValueError) naming it."""
    if not -ndim <= axis < ndim:
        import ember
        raise ember.AxisError(f"{what} {axis} is out of bounds for array of "
                              f"dimension {ndim}")
    return axis % ndim


def kernel(name, in_params, out_params, include=(), **kw):
    """The ElementwiseKernel whose operation is kernels/<name>.c, built once
    per process (device code lives in files, not in Python strings). The
    files named in `include` (helpers shared by several kernels) go first
    in its preamble."""
    k = _kernels.get(name)
    if k is None:
        here = os.path.join(os.path.dirname(__file__), "kernels")
        parts = []
        for f in tuple(include) + (name + ".c",):
            with open(os.path.join(here, f)) as fh:
                parts.append(fh.read())
        preamble, sep, body = parts[-1].partition("/* operation */")
        if not sep:
            preamble, body = "", parts[-1]
        k = _e.ElementwiseKernel(in_params, out_params, body, "ember_" + name,
                                 preamble="".join(parts[:-1]) + preamble, **kw)
        _kernels[name] = k
    return k


def real_dtype(t):
    """The real dtype of complex t's parts; any other dtype as it is."""
    t = _e.dtype(t)
    return {"complex64": _e.float32, "complex128": _e.float64}.get(t.name, t)
