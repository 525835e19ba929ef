"""average: NumPy's weighted mean, from ember's reductions and ufuncs."""
import operator

from ember import _ember as _e
from ember._api._util import normalize_axis


def _reduced_count(shape, axis):
    if axis is None:
        axes = range(len(shape))
    elif isinstance(axis, (tuple, list)):
        axes = [normalize_axis(operator.index(x), len(shape)) for x in axis]
    else:
        axes = [normalize_axis(operator.index(axis), len(shape))]
    n = 1
    for ax in axes:
        n *= shape[ax]
    return n


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """The weighted average along axis (the mean without weights); with
    returned, also the sum of the weights (the count without them)."""
    a = a if isinstance(a, _e.ndarray) else _e.asarray(a)
    if isinstance(axis, list):
        axis = tuple(axis)
    if weights is None:
        avg = _e.mean(a, axis=axis, keepdims=keepdims)
        if not returned:
            return avg
        count = _e.full(avg.shape, float(_reduced_count(a.shape, axis)),
                        dtype=avg.dtype, device=a.device)
        return avg, count
    w = weights
    if isinstance(w, _e.ndarray):
        if w.device != a.device:
            raise ValueError(f"average: a is on {a.device} and weights on "
                             f"{w.device}")
    else:
        w = _e.asarray(w, device=a.device)
    try:
        rt = _e.result_type(a.dtype, w.dtype)
    except TypeError:
        raise TypeError("average: no common dtype") from None
    if rt.kind in "biu":
        rt = _e.float64              # integers average in float64, as NumPy
    if w.shape != a.shape:
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and "
                            "weights differ.")
        one = axis if not isinstance(axis, tuple) else (
            axis[0] if len(axis) == 1 else None)
        if w.ndim != 1 or one is None:
            raise TypeError("1D weights expected when shapes of a and weights "
                            "differ.")
        ax = normalize_axis(operator.index(one), a.ndim)
        if w.shape[0] != a.shape[ax]:
            raise ValueError("Length of weights not compatible with specified "
                             "axis.")
        w = w.reshape(tuple(w.shape[0] if i == ax else 1 for i in range(a.ndim)))
    num = _e.sum(a.astype(rt, copy=False) * w, axis=axis, dtype=rt,
                 keepdims=keepdims)
    # The weights' sum over the same axes: broadcast first so that 1-D
    # weights count once per reduced element, as NumPy's.
    den = _e.sum(_e.broadcast_to(w, a.shape), axis=axis, dtype=rt,
                 keepdims=keepdims)
    if bool(_e.any(den == 0)):
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    avg = num / den
    return (avg, den) if returned else avg
