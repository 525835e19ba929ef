"""The Array API's functions that rename or compose others: astype, diff
(with prepend/append), unstack. (isdtype, finfo and iinfo: dtype_info.py.)"""
import operator

from ember import _ember as _e
from ember._api._util import normalize_axis

def astype(x, dtype, /, *, copy=True, device=None):
    """x.astype(dtype, copy=copy, device=device), for ember arrays only."""
    if not isinstance(x, _e.ndarray):
        raise TypeError(f"astype needs an ember array (got {type(x).__name__}); "
                        "use ember.asarray(x, dtype=...)")
    return x.astype(dtype, copy=copy, device=device)


def _along(axis, s):
    return (slice(None),) * axis + (s,)


def diff(a, n=1, axis=-1, prepend=None, append=None):
    """The n-th differences along axis (not_equal for bool, as NumPy),
    after prepend/append (scalars broadcast to one slice) are joined."""
    n, axis = operator.index(n), operator.index(axis)
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    x = a if isinstance(a, _e.ndarray) else _e.asarray(a)
    if x.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    axis = normalize_axis(axis, x.ndim)
    if n == 0:
        return x
    if prepend is not None or append is not None:
        parts = []
        for end in (prepend, x, append):
            if end is None:
                continue
            if end is not x:
                end = _e.asarray(end, device=x.device)
                if end.ndim == 0:
                    shape = list(x.shape)
                    shape[axis] = 1
                    end = _e.broadcast_to(end, tuple(shape))
            parts.append(end)
        x = _e.concatenate(parts, axis=axis)
    hi, lo = _along(axis, slice(1, None)), _along(axis, slice(None, -1))
    for _ in range(n):
        x = (_e.not_equal if x.dtype == _e.bool else _e.subtract)(x[hi], x[lo])
    return x


def unstack(x, /, *, axis=0):
    """The slices of x along axis, as a tuple of views."""
    if not isinstance(x, _e.ndarray):
        raise TypeError(f"unstack needs an ember array (got {type(x).__name__})")
    axis = normalize_axis(operator.index(axis), x.ndim)
    return tuple(x[_along(axis, i)] for i in range(x.shape[axis]))
