"""groupby(...).rolling and .expanding: the rows in group order, each
row's window bounds clipped to its group, then the bounded-window
statistics of time windows (_window_time) over them. Row windows start at
max(i - w + 1, the group's first row); time windows come from one
searchsorted over (group, time-rank) keys, so a window never reaches into
the previous group. The result is indexed, as pandas', by the group keys
and the original row labels."""
import ember

from ember.frame._window_roll import _check_min_periods
from ember.frame._window_time import TimeRolling, is_time_window


class _GroupWindow(TimeRolling):
    """A TimeRolling over rows already in group order with given bounds,
    whose results carry (keys..., row label) as their index."""

    def __init__(self, obj, start, end, minp, index, on):
        self._obj, self._start, self._end, self._minp = obj, start, end, minp
        self._on, self._index = on, index

    def _apply(self, how, ddof=1, fn=None):
        out = super()._apply(how, ddof, fn)
        out._index = self._index
        return out


def _ordered(gb):
    """(object in group order without its key columns, rows, group start of
    each ordered row, the result index)."""
    from ember.frame._index import Index
    from ember.frame._multiindex import MultiIndex
    from ember.frame.frame import DataFrame
    g = gb._g
    if isinstance(gb._obj.index, MultiIndex):
        raise NotImplementedError("groupby(...).rolling of an object under a MultiIndex "
                                  "(supported: a flat index)")
    rows, offsets = g.order()
    rows = rows[:int(offsets[-1])]          # rows in no group (null keys) leave
    codes = ember.take(g.bins, rows)
    gstart = ember.take(offsets, codes)
    obj = gb._obj
    vals = gb._values()
    taken = {k: c.take(rows) for k, c in vals.items()}
    labels = obj.index._column(g.device).take(rows)
    if gb._is_series:
        (name, col), = taken.items()
        from ember.frame.series import Series
        body = Series._make(col, Index(labels), name)
    else:
        body = DataFrame._make(taken, Index(labels))
    levels = [c.take(rows) for _, c in gb._keys] + [labels]
    names = [n for n, _ in gb._keys] + [obj.index.name]
    return body, rows, codes, gstart, MultiIndex._make(levels, names)


def rolling(gb, window, min_periods=None, center=False, win_type=None, on=None,
            axis=0, closed=None, step=None, method="single"):
    for name, v in (("win_type", win_type), ("step", step)):
        if v is not None:
            raise NotImplementedError(f"groupby(...).rolling with {name}= (supported: "
                                      "window, min_periods, on, closed)")
    if center:
        raise NotImplementedError("groupby(...).rolling(center=True) (supported: "
                                  "trailing windows)")
    if method != "single":
        raise NotImplementedError("rolling with method='table'")
    _check_min_periods(min_periods)
    body, rows, codes, gstart, index = _ordered(gb)
    n = rows.shape[0]
    dev = rows.device
    i = ember.arange(n, dtype="int64", device=dev)
    if is_time_window(window):
        start, end = _time_bounds(gb, body, rows, codes, window, on, closed)
        minp = 1 if min_periods is None else min_periods
    else:
        if isinstance(window, bool) or not isinstance(window, int) or window < 0:
            raise ValueError("window must be an integer 0 or greater")
        if closed not in (None, "right"):
            raise NotImplementedError("groupby(...).rolling of a row count with closed="
                                      f"{closed!r} (supported: 'right')")
        if on is not None:
            raise NotImplementedError("groupby(...).rolling of a row count with on=")
        start = ember.maximum(i - window + 1, gstart)
        end = i + 1
        minp = window if min_periods is None else min_periods
    return _GroupWindow(body, start, end, minp, index, on)


def expanding(gb, min_periods=1, method="single"):
    if method != "single":
        raise NotImplementedError("expanding with method='table'")
    _check_min_periods(min_periods)
    body, rows, codes, gstart, index = _ordered(gb)
    end = ember.arange(1, rows.shape[0] + 1, dtype="int64", device=rows.device)
    return _GroupWindow(body, gstart, end, min_periods, index, None)


def _time_bounds(gb, body, rows, codes, window, on, closed):
    """Bounds of time windows inside each group: keys code * (u + 1) +
    rank of the time among the u distinct times are sorted when every
    group's times increase, and one searchsorted finds each window's
    first row without crossing into the group before."""
    from ember.frame._window_time import _CLOSED, time_column
    closed = "right" if closed is None else closed
    if closed not in _CLOSED:
        raise ValueError("closed must be 'right', 'left', 'both' or 'neither'")
    tcol, what, w = time_column(gb._obj, on, window)
    t = ember.take(tcol.values, rows)
    n = t.shape[0]
    i = ember.arange(n, dtype="int64", device=t.device)
    if n == 0:
        return i, i
    U = ember.unique(t)
    u = U.shape[0] + 1
    key = codes * u + ember.searchsorted(U, t, side="left")
    if n > 1 and not bool((key[1:] >= key[:-1]).all()):
        raise ValueError(f"Each group within {what} must be "
                         "monotonic. Sort the values first.")
    left = closed in ("left", "both")
    right = closed in ("right", "both")
    target = codes * u + ember.searchsorted(U, t - (w + left), side="right")
    start = ember.searchsorted(key, target, side="left").astype("int64")
    end = i + 1 if right else ember.searchsorted(key, key, side="left").astype("int64")
    return ember.minimum(start, end if not right else i), end


__all__ = ["expanding", "rolling"]
