"""ember.scipy.signal's relative extrema (re-exported by
ember.scipy.signal): argrelextrema, argrelmax and argrelmin, each sample
compared with its `order` neighbours on both sides along an axis, the
ends clipped or wrapped as SciPy's mode= says. The comparisons are
ember array operations on the data's device; the indices come back as
ember arrays there, as nonzero gives them."""
import ember as _e
from ember._api._util import as_array as _arr

__all__ = ["argrelextrema", "argrelmax", "argrelmin"]


def _comparator(comparator):
    """NumPy's comparison ufuncs (the usual argument, np.greater) act on
    ember arrays through __array_ufunc__; ember's own are taken by name
    so nothing leaves the device."""
    name = getattr(comparator, "__name__", None)
    if name in ("greater", "less", "greater_equal", "less_equal", "equal",
                "not_equal"):
        return getattr(_e, name)
    return comparator


def _boolrelextrema(data, comparator, axis, order, mode):
    if int(order) != order or order < 1:
        raise ValueError("Order must be an int >= 1")
    if mode not in ("clip", "wrap"):
        raise ValueError(f"mode {mode!r} is not 'clip' or 'wrap'")
    x = _arr(data)
    if x.ndim == 0:
        raise ValueError("argrelextrema needs an array of at least one "
                         "dimension")
    axis = axis % x.ndim if -x.ndim <= axis < x.ndim else None
    if axis is None:
        raise _e.AxisError(f"axis out of bounds for array of dimension "
                           f"{x.ndim}")
    cmp = _comparator(comparator)
    n = x.shape[axis]
    results = _e.ones(x.shape, dtype=_e.bool_, device=x.device)
    if n == 0:
        return results
    locs = _e.arange(n, device=x.device)
    for shift in range(1, int(order) + 1):
        ip, im = locs + shift, locs - shift
        if mode == "clip":
            ip, im = _e.clip(ip, 0, n - 1), _e.clip(im, 0, n - 1)
        else:
            ip, im = ip % n, im % n
        results &= cmp(x, _e.take(x, ip, axis=axis))
        results &= cmp(x, _e.take(x, im, axis=axis))
        if not bool(_e.any(results)):
            break
    return results


def argrelextrema(data, comparator, axis=0, order=1, mode="clip"):
    """scipy.signal.argrelextrema: the indices (a tuple, one array an
    axis) where comparator(sample, neighbour) holds for every neighbour
    up to order away."""
    return _e.nonzero(_boolrelextrema(data, comparator, axis, order, mode))


def argrelmax(data, axis=0, order=1, mode="clip"):
    """scipy.signal.argrelmax: argrelextrema with greater."""
    return argrelextrema(data, _e.greater, axis, order, mode)


def argrelmin(data, axis=0, order=1, mode="clip"):
    """scipy.signal.argrelmin: argrelextrema with less."""
    return argrelextrema(data, _e.less, axis, order, mode)
