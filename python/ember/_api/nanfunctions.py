"""nanmin, nanmax, nanmean, nanvar and nanstd with NumPy's RuntimeWarnings
for all-NaN (or empty) slices, and ptp. The reductions are the
extension's (_nanmin, ... over em_reduce); the warning check reads one
value back, so it lives here, off the C reduction path."""
import operator
import warnings

from ember import _ember as _e

_ALL_NAN = "All-NaN slice encountered"


def _axis_arg(args, kw):
    return args[0] if args else kw.get("axis")


def _reduced(a, axis):
    """Elements reduced into each output: the product of the axes'
    extents (the reduction has already refused bad axes)."""
    if axis is None:
        return a.size
    k = 1
    for ax in axis if isinstance(axis, (tuple, list)) else (axis,):
        ax = operator.index(ax)
        k *= a.shape[ax]
    return k


def _any_nan(r):
    return r.size > 0 and r.dtype.kind in "fc" and bool(_e.isnan(r).any())


def _nan(name, msg, a, args, kw):
    r = getattr(_e, "_" + name)(a, *args, **kw)
    if not isinstance(a, _e.ndarray):
        a = _e.asarray(a, device=r.device)
    axis = _axis_arg(args, kw)
    k = _reduced(a, axis)
    nan = r.size > 0 if k == 0 else _any_nan(r)
    if nan and k and name not in ("nanmin", "nanmax"):
        # nanmean and nanvar give NaN for inf - inf too: only an all-NaN
        # slice (nanmax NaN there) warns
        nan = _any_nan(_e._nanmax(a, axis=axis))
    if nan:
        warnings.warn(msg, RuntimeWarning, stacklevel=3)
    return r


def nanmin(a, *args, **kw):
    return _nan("nanmin", _ALL_NAN, a, args, kw)


def nanmax(a, *args, **kw):
    return _nan("nanmax", _ALL_NAN, a, args, kw)


def nanmean(a, *args, **kw):
    return _nan("nanmean", "Mean of empty slice", a, args, kw)


def nanvar(a, *args, **kw):
    return _nan("nanvar", "Degrees of freedom <= 0 for slice.", a, args, kw)


def nanstd(a, *args, **kw):
    return _nan("nanstd", "Degrees of freedom <= 0 for slice.", a, args, kw)


def ptp(a, axis=None, out=None, keepdims=False):
    if isinstance(out, tuple) and len(out) == 1:
        out = out[0]
    if out is not None and not isinstance(out, _e.ndarray):
        raise TypeError(f"ember.ptp: out= must be an ember.ndarray, not "
                        f"{type(out).__name__}")
    if not isinstance(a, _e.ndarray):
        a = _e.asarray(a, device=None if out is None else out.device)
    return _e.subtract(_e.max(a, axis=axis, keepdims=keepdims),
                       _e.min(a, axis=axis, keepdims=keepdims), out=out)
