"""Moving windows: rolling, expanding, ewm, and resample on a datetime
index; the cumulative and row-shift functions (cumsum, cumprod, cummin,
cummax, shift, diff, pct_change)."""


def _per_column(obj, fn):
    """fn(column) on a Series, or on each column of a DataFrame."""
    from ember.frame.series import Series
    if isinstance(obj, Series):
        return obj._like(fn(obj._col))
    from ember.frame.frame import DataFrame
    return DataFrame._make({k: fn(c) for k, c in obj._cols.items()}, obj._index)


def _no_axis(axis, what):
    if axis not in (None, 0, "index", "rows"):
        raise NotImplementedError(f"{what} along axis={axis!r} (only along the rows)")


class WindowMethods:
    """rolling, expanding, ewm, resample, and the cumulative and shift
    functions for Series and DataFrame."""

    def rolling(self, window, min_periods=None, center=False, win_type=None, on=None,
                closed=None, step=None, method="single"):
        from ember.frame._window_roll import Rolling
        from ember.frame._window_time import TimeRolling, is_time_window
        if is_time_window(window):
            return TimeRolling(self, window, min_periods, center, win_type, on, closed,
                               step, method)
        return Rolling(self, window, min_periods, center, win_type, on, closed, step,
                       method)

    def expanding(self, min_periods=1, method="single"):
        from ember.frame._window_roll import Expanding
        return Expanding(self, min_periods, method)

    def ewm(self, com=None, span=None, halflife=None, alpha=None, min_periods=0,
            adjust=True, ignore_na=False, times=None, method="single"):
        from ember.frame._window_roll import ExponentialMovingWindow
        return ExponentialMovingWindow(self, com, span, halflife, alpha, min_periods,
                                       adjust, ignore_na, times, method)

    def resample(self, rule, closed=None, label=None, on=None, origin="start_day",
                 offset=None):
        from ember.frame._window_resample import Resampler
        return Resampler(self, rule, closed, label, on, origin, offset)

    def _cumulative(self, how, axis, skipna):
        from ember.frame._window_shift import cumulative
        _no_axis(axis, how)
        return _per_column(self, lambda c: cumulative(c, how, skipna))

    def cumsum(self, axis=None, skipna=True):
        return self._cumulative("cumsum", axis, skipna)

    def cumprod(self, axis=None, skipna=True):
        return self._cumulative("cumprod", axis, skipna)

    def cummin(self, axis=None, skipna=True):
        return self._cumulative("cummin", axis, skipna)

    def cummax(self, axis=None, skipna=True):
        return self._cumulative("cummax", axis, skipna)

    def shift(self, periods=1, freq=None, axis=0, fill_value=None):
        from ember.frame._window_shift import shift
        if freq is not None:
            raise NotImplementedError("shift with freq= (shifting the index); "
                                      "shift moves the values")
        _no_axis(axis, "shift")
        return _per_column(self, lambda c: shift(c, periods, fill_value))

    def diff(self, periods=1, axis=0):
        from ember.frame._window_shift import diff
        _no_axis(axis, "diff")
        return _per_column(self, lambda c: diff(c, periods))

    def pct_change(self, periods=1, fill_method=None, freq=None):
        from ember.frame._window_shift import pct_change
        if freq is not None:
            raise NotImplementedError("pct_change with freq=")
        return _per_column(self, lambda c: pct_change(c, periods, fill_method))
