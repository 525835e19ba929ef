"""Rolling, Expanding and ExponentialMovingWindow: pandas' window objects
over a Series or DataFrame, column by column. Every result is float64
with the input's index; as in pandas, inf is treated as missing (count
counts it), and a window with fewer than min_periods observations is
NaN."""
import math

import ember
import ember.parallel as P

from ember.frame import _window_kernels as K
from ember.frame._column import Column

_NAN = float("nan")


def numeric(col, what):
    """The float64 values of a numeric column with NaN at its nulls (the
    window kernels take NaN and inf as missing); TypeError for other
    dtypes (pandas' DataError)."""
    d = col.dtype
    if d.kind not in "biuf":
        raise TypeError(f"Cannot aggregate non-numeric type: {d.name} ({what})")
    x = col.values if d.storage == "float64" else col.values.astype("float64")
    if d.masked and col.validity is not None:
        x = ember.where(col.null_mask(), _NAN, x)
    return x


def _rebuild(obj, fn, what):
    """fn(column) -> float64 ember array, applied to a Series or to every
    column of a DataFrame."""
    from ember.frame.series import Series
    if isinstance(obj, Series):
        return obj._like(Column("float64", fn(obj._col)))
    from ember.frame.frame import DataFrame
    return DataFrame._make({k: Column("float64", fn(c)) for k, c in obj._cols.items()},
                           obj._index)


def aggregate(window, func, names):
    """window.agg(func): one statistic by name, or a list of them (on a
    Series: a DataFrame with a column each, as pandas)."""
    from ember.frame.series import Series
    if isinstance(func, str) and func in names:
        return getattr(window, func)()
    if isinstance(func, (list, tuple)) and all(f in names for f in func) and \
            isinstance(window._obj, Series):
        from ember.frame.frame import DataFrame
        parts = [getattr(window, f)() for f in func]
        return DataFrame._make({f: p._col for f, p in zip(func, parts)}, parts[0].index)
    raise NotImplementedError(f"agg({func!r}) (supported: a name or, on a Series, a "
                              "list of names among " + ", ".join(names) + ")")


def _masked(ok, values):
    """values where ok, else NaN (one generated pass; where() with a
    scalar costs several on cpu)."""
    return P.transform("a != 0 ? b : ew_nan_f64()", ok, values, dtype="float64")


def _check_min_periods(min_periods):
    if min_periods is not None and (not isinstance(min_periods, int)
                                    or isinstance(min_periods, bool)):
        raise ValueError("min_periods must be an integer")
    if min_periods is not None and min_periods < 0:
        raise ValueError("min_periods must be >= 0")


class _Window:
    """What Rolling and Expanding share: one method per statistic, each a
    function of one column's (count, mean, M2) or extremes."""

    def __init__(self, obj, min_periods):
        self._obj = obj
        self._minp = min_periods

    def _apply(self, how, ddof=1, fn=None):
        return _rebuild(self._obj, fn or (lambda c: self._column(c, how, ddof)), how)

    def sum(self):
        return self._apply("sum")

    def mean(self):
        return self._apply("mean")

    def var(self, ddof=1):
        return self._apply("var", ddof)

    def std(self, ddof=1):
        return self._apply("std", ddof)

    def min(self):
        return self._apply("min")

    def max(self):
        return self._apply("max")

    def count(self):
        return self._apply("count")

    def agg(self, func):
        return aggregate(self, func, ("sum", "mean", "min", "max", "std", "var", "count",
                                      "median"))

    aggregate = agg

    def median(self):
        return self._rank(None, "linear")

    def quantile(self, q, interpolation="linear"):
        from ember.frame._window_rank import check_quantile
        check_quantile(q, interpolation)
        return self._rank(q, interpolation)

    def _rank(self, q, interpolation):
        from ember.frame._window_rank import window_quantile
        what = "median" if q is None else "quantile"
        if not hasattr(self, "_bounds"):
            raise NotImplementedError(f"{type(self).__name__}.{what} (supported: "
                                      "rolling(...).median and .quantile)")

        def fn(col):
            x = numeric(col, what)
            start, end = self._bounds(col.length, col.device)
            return window_quantile(x, start, end, q, interpolation, self._minp)
        return self._apply(what, fn=fn)

    def apply(self, func, raw=False, *a, **k):
        # NumPy's and Python's reductions stand for the window method of
        # their name (np.sum is .sum()), as agg reads them
        from ember.frame._methods_agg import _known
        name = _known(func)
        if isinstance(name, str) and name in ("sum", "mean", "min", "max", "std",
                                              "var", "median") and not a and not k:
            return getattr(self, name)()
        raise NotImplementedError(f"{type(self).__name__}.apply of a Python function "
                                  "(supported: sum, mean, min, max, std, var, count, "
                                  "and NumPy's reductions of those names)")


class Rolling(_Window):
    """obj.rolling(window, min_periods=None, center=False): fixed windows of
    `window` rows (an integer; time-based windows are not supported)."""

    def __init__(self, obj, window, min_periods=None, center=False, win_type=None,
                 on=None, closed=None, step=None, method="single"):
        if isinstance(window, str) or type(window).__name__ in ("Timedelta", "timedelta"):
            raise NotImplementedError("rolling with a time-based window (an offset "
                                      "string); use an integer number of rows")
        if not isinstance(window, int) or isinstance(window, bool) or window < 0:
            raise ValueError("window must be an integer 0 or greater")
        for name, v in (("win_type", win_type), ("on", on), ("closed", closed),
                        ("step", step)):
            if v is not None:
                raise NotImplementedError(f"rolling with {name}= (supported: window, "
                                          "min_periods, center)")
        if method != "single":
            raise NotImplementedError("rolling with method='table'")
        _check_min_periods(min_periods)
        if min_periods is None:
            min_periods = window
        if min_periods > window:
            raise ValueError(f"min_periods {min_periods} must be <= window {window}")
        super().__init__(obj, min_periods)
        self._w, self._center = window, bool(center)

    def _bounds(self, n, device):
        """Each row's window as rows [start, end)."""
        i = ember.arange(n, dtype="int64", device=device)
        if n == 0 or self._w == 0:
            return i, i
        front, back = K.window_bounds(self._w, self._center, n)
        return ember.maximum(i - front, 0), ember.minimum(i + back + 1, n)

    def _column(self, col, how, ddof):
        n, w = col.length, self._w
        if how != "count":
            x = numeric(col, how)
        if n == 0:
            return ember.zeros(0, dtype="float64", device=col.device)
        if w == 0:   # every window is empty
            empty = 0.0 if how in ("sum", "count") and self._minp == 0 else _NAN
            return ember.full(n, empty, dtype="float64", device=col.device)
        if how == "count":
            front, back = K.window_bounds(w, self._center, n)
            i = ember.arange(n, dtype="int64", device=col.device)
            rows = ember.minimum(i + back, n - 1) - ember.maximum(i - front, 0) + 1
            nulls = col.null_mask()
            if nulls is None or not bool(nulls.any()):
                got = rows
            else:
                got = K.counts(~nulls, w, self._center)
            return _masked(rows >= self._minp, got.astype("float64"))
        if how in ("min", "max"):
            N = K.counts(ember.isfinite(x), w, self._center)
            return _masked(N >= max(self._minp, 1),
                           K.extremes(x, w, self._center, how))
        return K.moments(x, w, self._center, how, self._minp, ddof)


class Expanding(_Window):
    """obj.expanding(min_periods=1): windows from the first row to each row."""

    def __init__(self, obj, min_periods=1, method="single"):
        _check_min_periods(min_periods)
        if method != "single":
            raise NotImplementedError("expanding with method='table'")
        super().__init__(obj, min_periods)

    def _column(self, col, how, ddof):
        n = col.length
        if how != "count":
            x = numeric(col, how)
            valid = ember.isfinite(x)
        if n == 0:
            return ember.zeros(0, dtype="float64", device=col.device)
        if how == "count":
            valid = ~col.isna()
            i = ember.arange(1, n + 1, dtype="int64", device=col.device)
            return _masked(i >= self._minp, ember.cumsum(valid, dtype="int64")
                           .astype("float64"))
        if how in ("min", "max"):
            N = ember.cumsum(valid, dtype="int64")
            return _masked(N >= max(self._minp, 1), K.expanding_extremes(x, valid, how))
        if how == "sum":   # a running sum, not count * mean: exact for integers
            N = ember.cumsum(valid, dtype="int64")
            return _masked(N >= self._minp, ember.cumsum(ember.where(valid, x, 0.0)))
        N, mean, M2 = K.expanding_moments(x, valid)
        return self._stat(how, N, mean, M2, ddof)

    def _stat(self, how, N, mean, M2, ddof):
        minp = self._minp
        enough = N >= max(minp, 1) if how != "sum" else N >= minp
        if how == "sum":
            return _masked(enough, ember.where(N > 0, mean * N, 0.0))
        if how == "mean":
            return _masked(enough, mean)
        ok = enough & (N > ddof)
        var = ember.where(N > 1, M2 / ember.maximum(N - ddof, 1.0), 0.0)
        return _masked(ok, var if how == "var" else ember.sqrt(var))


def ewm_alpha(com, span, halflife, alpha):
    """pandas' smoothing factor from the one of com, span, halflife, alpha
    given (ValueError as pandas words it otherwise)."""
    given = [v is not None for v in (com, span, halflife, alpha)]
    if sum(given) > 1:
        raise ValueError("comass, span, halflife, and alpha are mutually exclusive")
    if com is not None:
        if com < 0:
            raise ValueError("comass must satisfy: comass >= 0")
        return 1.0 / (1.0 + com)
    if span is not None:
        if span < 1:
            raise ValueError("span must satisfy: span >= 1")
        return 2.0 / (span + 1.0)
    if halflife is not None:
        if isinstance(halflife, str) or not halflife > 0:
            if isinstance(halflife, str):
                raise NotImplementedError("ewm with a time-based halflife (times=)")
            raise ValueError("halflife must satisfy: halflife > 0")
        return 1.0 - math.exp(-math.log(2.0) / halflife)
    if alpha is not None:
        if not 0 < alpha <= 1:
            raise ValueError("alpha must satisfy: 0 < alpha <= 1")
        return float(alpha)
    raise ValueError("Must pass one of comass, span, halflife, or alpha")


class ExponentialMovingWindow:
    """obj.ewm(com=|span=|halflife=|alpha=, min_periods=0, adjust=True,
    ignore_na=False): mean, var and std, pandas' recurrences computed as
scans."""

    def __init__(self, obj, com=None, span=None, halflife=None, alpha=None,
                 min_periods=0, adjust=True, ignore_na=False, times=None,
                 method="single"):
        if times is not None:
            raise NotImplementedError("ewm with times= (supported: com, span, "
                                      "halflife, alpha)")
        _check_min_periods(min_periods)
        self._obj = obj
        self._alpha = ewm_alpha(com, span, halflife, alpha)
        self._minp = max(min_periods or 0, 1)
        self._adjust, self._ignore_na = bool(adjust), bool(ignore_na)

    def mean(self):
        return _rebuild(self._obj, lambda c: self._ewm(c, "mean", False), "mean")

    def var(self, bias=False):
        return _rebuild(self._obj, lambda c: self._ewm(c, "var", bias), "var")

    def std(self, bias=False):
        return _rebuild(self._obj, lambda c: self._ewm(c, "std", bias), "std")

    def _ewm(self, col, how, bias):
        from ember.frame._window_ewm import ewm_mean, ewm_var
        x = numeric(col, "ewm." + how)
        valid = ember.isfinite(x)
        if col.length == 0:
            return ember.zeros(0, dtype="float64", device=col.device)
        if how == "mean":
            r = ewm_mean(x, valid, self._alpha, self._adjust, self._ignore_na)
        else:
            r = ewm_var(x, valid, self._alpha, self._adjust, self._ignore_na, bias)
            if how == "std":
                r = ember.sqrt(r)
        N = ember.cumsum(valid, dtype="int64")
        return _masked(N >= self._minp, r)

    def sum(self):
        raise NotImplementedError("ewm.sum (supported: ewm.mean, ewm.var, ewm.std)")
