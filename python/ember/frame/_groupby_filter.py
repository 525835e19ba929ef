"""GroupBy.filter: keep the groups for which a Python function of the
group says True. Calling the user's function once a group is the API's
nature; the groups it is handed are slices of one copy of the frame
gathered into group order (_groupby_split.group_objects, which
iteration and get_group share), not a boolean mask a group, and the
answers (one bool a group) pick the kept rows, in their original order,
by one gather of the group codes."""
import ember

from ember.frame._groupby_split import group_objects, selected


def _kept_rows(gb, obj, keep, dropna):
    """obj's rows of the groups where keep (host bools, one a group)."""
    from ember.frame._groupby_scan import mask_rows
    g = gb._g
    dev = g.device
    flags = ember.asarray(list(keep) + [False], dtype="bool", device=dev)
    rows = flags[g.bins]            # a row in no group is in bin k: not kept
    if dropna:
        return obj[rows]
    dropped = ~rows
    if obj.ndim == 1:
        return obj._like(mask_rows(obj._col, dropped))
    from ember.frame._colname import keep as keep_name
    from ember.frame.frame import DataFrame
    return keep_name(obj, DataFrame._make(
        {k: mask_rows(c, dropped) for k, c in obj._cols.items()}, obj._index))


def _squeezed(res):
    """pandas' squeeze of an answer: one value of a one-value Series or
    frame, else the object (a frame of one row or column is a Series)."""
    from ember.frame.frame import DataFrame
    from ember.frame.series import Series
    if isinstance(res, Series):
        return res.tolist()[0] if len(res) == 1 else res
    if isinstance(res, DataFrame):
        rows, cols = res.shape
        if rows == 1 and cols == 1:
            return res[next(iter(res._cols))].tolist()[0]
        if rows == 1 or cols == 1:     # pandas' squeeze makes a Series
            raise _not_bool("Series")
        return res
    squeeze = getattr(res, "squeeze", None)     # NumPy arrays, pandas objects
    return squeeze() if squeeze is not None else res


def _frame_verdict(res):
    """pandas' reading of a DataFrameGroupBy.filter function's answer: a
    bool (a one-value result squeezed to it), a missing scalar as False,
    anything else TypeError."""
    import numpy as np
    res = _squeezed(res)
    if isinstance(res, (bool, np.bool_)):
        return bool(res)
    if res is None or isinstance(res, float) and res != res or \
            type(res).__name__ in ("NAType", "NaTType"):
        return False
    if isinstance(res, np.floating) and np.isnan(res):
        return False
    raise _not_bool(type(res).__name__)


def _not_bool(kind):
    return TypeError(f"filter function returned a {kind}, but expected a scalar bool")


def _series_verdict(res):
    """pandas' SeriesGroupBy reading: notna(res) and res, any truthy
    scalar keeps the group; what has no truth value is TypeError."""
    from ember.frame._toplevel import notna
    try:
        return bool(notna(res) and res)
    except (ValueError, TypeError, NotImplementedError) as err:
        raise TypeError("the filter must return a boolean result") from err


def group_filter(gb, func, dropna, args, kwargs):
    obj = selected(gb)
    if gb._is_series:
        call = (lambda x: getattr(x, func)(*args, **kwargs)) if isinstance(func, str) \
            else (lambda x: func(x, *args, **kwargs))
        keep = [_series_verdict(call(s)) for _, s in group_objects(gb, obj)]
    else:
        keep = []
        for key, part in group_objects(gb, obj):
            object.__setattr__(part, "name", key)   # pandas names each group
            keep.append(_frame_verdict(func(part, *args, **kwargs)))
    return _kept_rows(gb, obj, keep, dropna)
