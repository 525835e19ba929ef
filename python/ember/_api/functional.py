"""NumPy's functions that call the user's function: apply_along_axis
(once per 1-d slice, as NumPy does: that is the API; the results are
written with one stack), apply_over_axes (once per axis), piecewise (once
per condition, on the selected elements) and mask_indices (once)."""
import operator

from ember import _ember as _e
from ember._api._util import normalize_axis


def _arr(x):
    return x if isinstance(x, _e.ndarray) else _e.asarray(x)


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """func1d(1-d slice along axis, *args, **kwargs) for every slice; the
    results, all of the first one's shape (a later one is broadcast to it
    and cast to its dtype, as NumPy writes them into one buffer), take
    the place of axis."""
    arr = _arr(arr)
    nd = arr.ndim
    axis = normalize_axis(operator.index(axis), nd)
    outer = arr.shape[:axis] + arr.shape[axis + 1:]
    view = _e.moveaxis(arr, axis, -1)
    count = 1
    for n in outer:
        count *= n
    if count == 0:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    rows = view.reshape((count, arr.shape[axis]))

    def result(i):
        return _e.asarray(func1d(rows[i], *args, **kwargs), device=arr.device)

    first = result(0)
    res = [first] + [_e.broadcast_to(result(i), first.shape) for i in range(1, count)]
    out = _e.stack(res).astype(first.dtype, copy=False)
    out = out.reshape(outer + first.shape)
    # the result's axes go where axis was, as NumPy's transpose puts them
    k = first.ndim
    perm = list(range(axis)) + list(range(len(outer), len(outer) + k)) + \
        list(range(axis, len(outer)))
    return out.transpose(perm)


def apply_over_axes(func, a, axes):
    """func(a, axis) for each axis in turn, each result the next call's
    argument; a result with one axis fewer gets it back (length 1)."""
    val = _arr(a)
    n = val.ndim
    if isinstance(axes, _e.ndarray):
        axes = axes.tolist()
    if not isinstance(axes, (list, tuple)):
        axes = (axes,)
    for ax in axes:
        ax = operator.index(ax)
        if ax < 0:
            ax += n
        res = _arr(func(val, ax))
        if res.ndim != val.ndim:
            res = _e.expand_dims(res, ax)
            if res.ndim != val.ndim:
                raise ValueError("function is not returning an array of the correct "
                                 "shape")
        val = res
    return val


def _conditions(x, condlist):
    """condlist as a bool array whose first axis runs over the conditions
    (NumPy's rule: one condition unless condlist is a sequence of
    sequences or arrays, or x is 0-d)."""
    if isinstance(condlist, _e.ndarray):
        if condlist.ndim == 0 or (condlist.ndim < 2 and x.ndim != 0):
            condlist = condlist[None]
        return condlist.astype(_e.bool, copy=False)
    if not isinstance(condlist, (list, tuple)) or (
            x.ndim != 0 and not isinstance(condlist[0], (list, tuple, _e.ndarray))):
        condlist = [condlist]
    conds = [c if isinstance(c, _e.ndarray) else _e.asarray(c, device=x.device)
             for c in condlist]
    return _e.stack([c.astype(_e.bool, copy=False) for c in conds])


def piecewise(x, condlist, funclist, *args, **kw):
    """y where each condition holds is funclist's value there: a constant,
    or the function of x's selected elements; one more function than
    conditions gives the value where none holds. Elements no condition
    selects are 0."""
    x = _arr(x)
    n2 = len(funclist)
    conds = _conditions(x, condlist)
    n = conds.shape[0] if conds.ndim else 1
    if n == n2 - 1:
        rest = ~_e.any(conds, axis=0, keepdims=True)
        conds = _e.concatenate([conds, rest], axis=0)
        n += 1
    elif n != n2:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are "
                         "expected")
    y = _e.zeros_like(x)
    for cond, func in zip(conds, funclist):
        if not callable(func):
            y[cond] = func
        else:
            vals = x[cond]
            if vals.size > 0:
                y[cond] = func(vals, *args, **kw)
    return y


def mask_indices(n, mask_func, k=0):
    """The indices (a pair of arrays) of the nonzero entries of
    mask_func(ones((n, n)), k), e.g. ember.triu's upper triangle."""
    m = _e.ones((n, n), dtype=_e.int64)
    return _e.nonzero(mask_func(m, k) != 0)
