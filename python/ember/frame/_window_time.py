"""Rolling windows measured in time ('3D', '2h', a Timedelta) over a
datetime index or an `on` column. Each row's window is the rows
[start, end) found for all rows at once by one searchsorted of the
times shifted back by the window; its statistics come from prefix sums
(count, sum, centred sums of squares) differenced at the two ends, and
minima and maxima from a doubling table read at two overlapping spans.
pandas' bounds: end is the row itself (or, when the right end is open,
the rows before the first at the row's time), start is the first row whose time is inside the
window, and never after the row."""
import re

import ember
import ember.parallel as P

from ember.frame import _window_kernels as K
from ember.frame._column import Column, _NAT
from ember.frame._dt_fields import _PER_SECOND, fixed_ns, unit_of
from ember.frame._window_roll import _Window, _check_min_periods, _masked, numeric

_NAN = K._NAN
_CLOSED = ("right", "left", "both", "neither")


def is_time_window(window):
    return isinstance(window, str) or hasattr(window, "freqstr") or \
        type(window).__name__ in ("Timedelta", "timedelta", "timedelta64")


def _window_ns(window):
    """The window's length in ns; pandas takes a negative one (each window
    is then the row alone)."""
    if isinstance(window, str):
        s = window.strip()
        sign = -1 if s.startswith("-") else 1
        body = s.lstrip("+-")
        if re.fullmatch(r"\d*(ME|MS|M|QE|QS|Q|YE|YS|Y|B|W|BME|BMS)(-\w+)?", body):
            raise ValueError(f"<{body}> is a non-fixed frequency")
        zero = re.fullmatch(r"0+(\D+)", body)
        if zero:   # '0D': a valid unit, a window of no length
            fixed_ns(zero.group(1), "rolling")
            return 0
        return sign * fixed_ns(body, "rolling")
    if hasattr(window, "freqstr") and type(window).__name__ != "Timedelta":
        try:   # a pandas DateOffset: only the fixed ones (Tick) have a length
            return int(window.nanos)
        except ValueError:
            raise ValueError(f"<{type(window).__name__}> is a non-fixed frequency") \
                from None
    return fixed_ns(window, "rolling")


class TimeRolling(_Window):
    """obj.rolling(offset, min_periods=1, closed='right', on=None)."""

    def __init__(self, obj, window, min_periods=None, center=False, win_type=None,
                 on=None, closed=None, step=None, method="single"):
        for name, v in (("win_type", win_type), ("step", step)):
            if v is not None:
                raise NotImplementedError(f"rolling over time with {name}= (supported: "
                                          "min_periods, closed, on)")
        if center:
            raise NotImplementedError("rolling over time with center=True (supported: "
                                      "trailing windows)")
        if method != "single":
            raise NotImplementedError("rolling with method='table'")
        if closed is None:
            closed = "right"
        if closed not in _CLOSED:
            raise ValueError("closed must be 'right', 'left', 'both' or 'neither'")
        _check_min_periods(min_periods)
        super().__init__(obj, 1 if min_periods is None else min_periods)
        self._on = on
        tcol, what, w = time_column(obj, on, window)
        t = tcol.values
        if t.shape[0] and bool((t == _NAT).any()):
            raise ValueError(f"{what} values must not have NaT")
        if t.shape[0] > 1 and not bool((t[1:] >= t[:-1]).all()):
            if not bool((t[1:] <= t[:-1]).all()):
                raise ValueError(f"{what} values must be monotonic")
            t = -t   # a falling index: windows reach back to later times
        self._start, self._end = time_bounds(t, w, closed)

    def _bounds(self, n, device):
        return self._start, self._end

    def _apply(self, how, ddof=1, fn=None):
        from ember.frame.series import Series
        from ember.frame.frame import DataFrame
        obj = self._obj
        fn = fn or (lambda c: self._column(c, how, ddof))
        if isinstance(obj, Series):
            return obj._like(Column("float64", fn(obj._col)))
        return DataFrame._make({k: c if k == self._on else Column("float64", fn(c))
                                for k, c in obj._cols.items()}, obj._index)

    def _column(self, col, how, ddof):
        s, e = self._start, self._end
        n = col.length
        if n == 0:
            return ember.zeros(0, dtype="float64", device=col.device)
        if how == "count":
            nulls = col.null_mask()
            got = e - s if nulls is None else _window_sum(~nulls, s, e)
            return _masked((e - s) >= self._minp, got.astype("float64"))
        x = numeric(col, how)
        valid = ember.isfinite(x)
        N = _window_sum(valid, s, e)
        if how in ("min", "max"):
            return _masked(N >= max(self._minp, 1), span_extremes(x, valid, s, e, how))
        if how in ("sum", "mean"):
            # raw prefix sums: exact for integer-valued data, as pandas' sums
            S = _window_sum(ember.where(valid, x, 0.0), s, e)
            N = N.astype("float64")
            if how == "sum":
                return P.transform(f"a >= c ? (a > 0 ? b : 0.0) : {_NAN}", N, S,
                                   float(self._minp))
            return P.transform(f"a >= c ? b / a : {_NAN}", N, S,
                                   float(max(self._minp, 1)))
        c, vx = K.centre(x, valid)
        u = ember.where(valid, x - c, 0.0)
        S, Q = _window_sum(u, s, e), _window_sum(u * u, s, e)
        var = K._var_expr("a", "b", "c", ddof, how)
        least = max(self._minp, 1, int(ddof) + 1)
        return P.transform(f"a >= d ? {var} : {_NAN}", N.astype("float64"), S, Q,
                           float(least))


def time_column(obj, on, window):
    """(the datetime Column windows are measured on, its name for errors,
    the window in that column's ticks), with pandas' errors."""
    from ember.frame._index import Index
    if on is None:
        tcol, what = obj.index._col if isinstance(obj.index, Index) else None, "index"
    elif hasattr(obj, "_cols") and on in obj._cols:
        tcol, what = obj._cols[on], on
    else:
        raise ValueError(f"invalid on specified as {on}, must be a column (of "
                         "DataFrame), an Index or None")
    if tcol is None or tcol.dtype.kind != "M":
        raise ValueError("window must be an integer 0 or greater")
    w = _window_ns(window)
    per = 10 ** 9 // _PER_SECOND[unit_of(tcol.dtype)]
    return tcol, what, (w // per if w >= 0 else -(-w // per))


def time_bounds(t, w, closed):
    """(start, end) int64 row bounds of every row's window over increasing
    int64 times t and a window of w ticks."""
    n = t.shape[0]
    i = ember.arange(n, dtype="int64", device=t.device)
    if n == 0:
        return i, i
    left = closed in ("left", "both")
    right = closed in ("right", "both")
    start = ember.searchsorted(t, t - (w + left), side="right").astype("int64")
    # a window open on the right leaves out every row at the row's own time
    end = i + 1 if right else ember.searchsorted(t, t, side="left").astype("int64")
    return ember.minimum(start, end if not right else i), end


def _window_sum(v, s, e):
    """The sum of v over rows [s, e) of every window: a prefix sum read at
    both ends (int64 for counts, float64 otherwise)."""
    dt = "int64" if v.dtype == ember.bool_ or v.dtype.kind in "iub" else "float64"
    c = ember.cumsum(v, dtype=dt)
    c = K.pad(c, 1, 0, 0)
    return c[e] - c[s]


def span_extremes(x, valid, s, e, how):
    """min or max of the valid x over rows [s, e) of every window (+-inf
    for an empty one): a doubling table, each window the meet of the two
    spans of the largest power of two that fits, read from both ends."""
    n = x.shape[0]
    fill = float("inf") if how == "min" else float("-inf")
    op = ember.minimum if how == "min" else ember.maximum
    length = e - s
    longest = int(length.max())
    level = ember.where(valid, x, fill)
    levels, span = [level], 1
    while span * 2 <= longest:
        nxt = ember.full(n, fill, dtype="float64", device=x.device)
        nxt[:n - span] = op(level[:n - span], level[span:])
        level = nxt
        levels.append(level)
        span *= 2
    table = ember.concatenate(levels) if len(levels) > 1 else level
    k = ember.zeros(n, dtype="int64", device=x.device)
    width = ember.ones(n, dtype="int64", device=x.device)
    for j in range(1, len(levels)):
        fits = length >= (1 << j)
        k = k + fits
        width = ember.where(fits, 1 << j, width)
    a = ember.minimum(s, n - 1) + k * n
    b = ember.clip(e - width, 0, n - 1) + k * n
    out = op(table[a], table[b])
    return ember.where(length > 0, out, fill)
