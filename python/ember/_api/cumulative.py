"""cumsum, cumprod, nancumsum, nancumprod and the Array API's
cumulative_sum and cumulative_prod: their axes and include_initial here;
each scan is one C call (the extension's `_cumulate`, em_cumulate)."""
import operator

from ember import _ember as _e
from ember._api._util import normalize_axis

# include/ember/linalg.h's em_cumulate_op
_SUM, _PROD, _NANSUM, _NANPROD = range(4)
_NAMES = ("cumsum", "cumprod", "nancumsum", "nancumprod")


def _cum(op, a, axis, dtype, out):
    if axis is not None:
        if isinstance(axis, bool):      # NumPy: not an axis
            raise TypeError("an integer is required for the axis")
        try:
            axis = operator.index(axis)
        except TypeError:
            raise TypeError(f"{_NAMES[op]}: axis must be an int or None, not "
                            f"{type(axis).__name__}") from None
    return _e._cumulate(op, a, axis, dtype, out)


def cumsum(a, axis=None, dtype=None, out=None):
    return _cum(_SUM, a, axis, dtype, out)


def cumprod(a, axis=None, dtype=None, out=None):
    return _cum(_PROD, a, axis, dtype, out)


def nancumsum(a, axis=None, dtype=None, out=None):
    return _cum(_NANSUM, a, axis, dtype, out)


def nancumprod(a, axis=None, dtype=None, out=None):
    return _cum(_NANPROD, a, axis, dtype, out)


def _cumulative(op, fn, x, axis, dtype, include_initial):
    """The axis may be left out only for 1-D input; include_initial puts
    the identity first, so the result is one longer along the axis."""
    a = x if isinstance(x, _e.ndarray) else _e.asarray(x)
    if a.ndim == 0:
        raise ValueError(f"{fn}: the input must have at least one dimension")
    if axis is None:
        if a.ndim != 1:
            raise ValueError(f"{fn}: axis must be given for input of more "
                             f"than one dimension")
        axis = 0
    axis = normalize_axis(operator.index(axis), a.ndim)
    r = _e._cumulate(op, a, axis, dtype, None)
    if not include_initial:
        return r
    shape = list(r.shape)
    shape[axis] += 1
    res = _e.empty(tuple(shape), dtype=r.dtype, device=r.device)
    head = (slice(None),) * axis
    res[head + (slice(0, 1),)] = 1 if op == _PROD else 0
    res[head + (slice(1, None),)] = r
    return res


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    return _cumulative(_SUM, "cumulative_sum", x, axis, dtype,
                       include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    return _cumulative(_PROD, "cumulative_prod", x, axis, dtype,
                       include_initial)
