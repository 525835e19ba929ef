"""median, quantile, percentile and their nan- forms: NumPy's signatures
over the C core's order statistics (src/algo/quantile.c sorts each row and
one kernel interpolates, which composing sort, gather and lerp here would
not beat), reached through the extension's one entry `_quantile`."""
import operator

from ember import _ember as _e
from ember._api._util import as_array


def _axes(axis):
    """None, or axis as a tuple of ints (the core checks their range and
    repeats)."""
    if axis is None:
        return None
    if isinstance(axis, (tuple, list)):
        return tuple(operator.index(ax) for ax in axis)
    return (operator.index(axis),)


def _result_dtype(a, q_dtype):
    """NumPy's: a's float type (float64 for integers and bool), promoted
    with q's float type when q is not a Python scalar."""
    rt = a.dtype if a.dtype.kind == "f" else _e.float64
    if q_dtype is not None and q_dtype.kind == "f":
        rt = _e.result_type(rt, q_dtype)
    return rt


def _fractions(q, pct):
    """q's values as a flat list of fractions, its shape and its dtype
    (None for a Python scalar, which does not take part in promotion)."""
    if isinstance(q, (int, float)):
        values, shape, dtype = [q], (), None
    else:
        qa = q if isinstance(q, _e.ndarray) else _e.asarray(q, device="cpu")
        values, shape, dtype = qa.reshape(-1).tolist(), qa.shape, qa.dtype
    values = [float(v) for v in values]
    if pct:
        if not all(0 <= v <= 100 for v in values):
            raise ValueError("Percentiles must be in the range [0, 100]")
        values = [v / 100 for v in values]
    return values, shape, dtype


def _quantile(name, a, q, axis, out, method, keepdims, weights, pct, skipnan):
    if out is not None or weights is not None:
        raise NotImplementedError(f"ember.{name}: out= and weights= are not "
                                  "supported yet")
    if method is not None and method != "linear":
        raise ValueError(f"ember.{name}: method {method!r} is not supported "
                         "(only 'linear')")
    values, shape, q_dtype = _fractions(q, pct)
    a = as_array(a)
    return _e._quantile(a, values, shape, _axes(axis), bool(keepdims), False,
                        skipnan, _result_dtype(a, q_dtype))


def _median(name, a, axis, out, keepdims, skipnan):
    if out is not None:
        raise NotImplementedError(f"ember.{name}: out= is not supported yet")
    a = as_array(a)
    return _e._quantile(a, [], (), _axes(axis), bool(keepdims), True, skipnan,
                        _result_dtype(a, None))


def quantile(a, q, axis=None, out=None, overwrite_input=False,
             method="linear", keepdims=False, *, weights=None):
    """The q-th quantiles of a along axis ('linear' interpolation)."""
    return _quantile("quantile", a, q, axis, out, method, keepdims, weights,
                     False, False)


def percentile(a, q, axis=None, out=None, overwrite_input=False,
               method="linear", keepdims=False, *, weights=None):
    """The q-th percentiles (q in [0, 100]) of a along axis."""
    return _quantile("percentile", a, q, axis, out, method, keepdims, weights,
                     True, False)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False,
                method="linear", keepdims=False, *, weights=None):
    """quantile with NaNs left out of each slice."""
    return _quantile("nanquantile", a, q, axis, out, method, keepdims,
                     weights, False, True)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False,
                  method="linear", keepdims=False, *, weights=None):
    """percentile with NaNs left out of each slice."""
    return _quantile("nanpercentile", a, q, axis, out, method, keepdims,
                     weights, True, True)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """The median of a along axis."""
    return _median("median", a, axis, out, keepdims, False)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """The median with NaNs left out of each slice."""
    return _median("nanmedian", a, axis, out, keepdims, True)
