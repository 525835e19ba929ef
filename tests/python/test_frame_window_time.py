"""ember.frame's rolling windows measured in time ('3D', '2h', a
Timedelta) against pandas on the same data, on every device."""
import re

import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
ef = ember.frame
tm = pd.testing
STATS = ("sum", "mean", "min", "max", "std", "var", "count")


def _times(n, seed=0, dup=True):
    rng = np.random.default_rng(seed)
    steps = rng.integers(0 if dup else 1, 40, size=n) * 3600 * 10 ** 6
    return pd.DatetimeIndex(np.datetime64("2024-03-01", "us") +
                            np.cumsum(steps).astype("m8[us]"), name="t")


def _series(n=80, seed=0):
    x = np.random.default_rng(seed).normal(size=n) * 3 + 100
    if n > 40:
        x[[3, 10, 11, 30, 31, 32]] = np.nan
        x[20], x[35] = np.inf, -np.inf
    return pd.Series(x, index=_times(n, seed), name="v")


def _close(got, want, rtol=1e-7, atol=1e-9):
    if isinstance(want, pd.Series):
        tm.assert_series_equal(got.to_pandas(), want, rtol=rtol, atol=atol)
    else:
        tm.assert_frame_equal(got.to_pandas(), want, rtol=rtol, atol=atol)


@pytest.mark.parametrize("closed", [None, "right", "left", "both", "neither"])
@pytest.mark.parametrize("window", ["1h", "5h", "1D", "3D", "40D"])
def test_time_rolling_stats(device, window, closed):
    s = _series()
    e = ef.from_pandas(s, device=device)
    for mp in (None, 0, 2):
        for how in STATS:
            _close(getattr(e.rolling(window, min_periods=mp, closed=closed), how)(),
                   getattr(s.rolling(window, min_periods=mp, closed=closed), how)())
    # pandas' add/remove leaves ~1e-6 where a lone value's spread is 0
    _close(e.rolling(window, closed=closed).std(ddof=0),
           s.rolling(window, closed=closed).std(ddof=0), atol=1e-5)


def test_time_rolling_window_kinds(device):
    s = _series()
    e = ef.from_pandas(s, device=device)
    for w in (pd.Timedelta("2D"), pd.Timedelta(hours=7), pd.offsets.Hour(5), "90min",
              "0D", "-2D"):
        for how in ("sum", "max", "count"):
            _close(getattr(e.rolling(w), how)(), getattr(s.rolling(w), how)())


def test_time_rolling_falling_and_units(device):
    s = _series().iloc[::-1]
    e = ef.from_pandas(s, device=device)
    for how in STATS:
        _close(getattr(e.rolling("2D"), how)(), getattr(s.rolling("2D"), how)())
    s2 = pd.Series(np.arange(6.0), index=pd.DatetimeIndex(
        ["2024-01-01", "2024-01-01 00:00:01", "2024-01-01 00:00:03", "2024-01-02",
         "2024-01-05", "2024-01-06"]).as_unit("s"))
    e2 = ef.from_pandas(s2, device=device)
    _close(e2.rolling("2s").sum(), s2.rolling("2s").sum())
    _close(e2.rolling("2D").mean(), s2.rolling("2D").mean())


def test_time_rolling_frame_on(device):
    n = 50
    df = pd.DataFrame({"a": np.random.default_rng(1).normal(size=n),
                       "t": _times(n, 1),
                       "b": np.arange(n) % 7,
                       "c": pd.array([1, None, 3] * 16 + [4, 5], dtype="Int64")})
    e = ef.from_pandas(df, device=device)
    for how in STATS:
        _close(getattr(e.rolling("1D", on="t"), how)(),
               getattr(df.rolling("1D", on="t"), how)())
    di = df.set_index("t")
    ei = ef.from_pandas(di, device=device)
    _close(ei.rolling("12h", closed="both").sum(), di.rolling("12h", closed="both").sum())
    _close(ei.rolling("12h").agg(["sum"]) if False else ei.rolling("12h").agg("max"),
           di.rolling("12h").agg("max"))


def test_time_rolling_edges(device):
    for n in (0, 1, 2):
        s = pd.Series(np.arange(float(n)), index=_times(n, 2, dup=False))
        e = ef.from_pandas(s, device=device)
        for how in STATS:
            _close(getattr(e.rolling("3h"), how)(), getattr(s.rolling("3h"), how)())
    s = pd.Series([np.nan] * 5, index=_times(5, 3))
    e = ef.from_pandas(s, device=device)
    for how in STATS:
        _close(getattr(e.rolling("3D", min_periods=0), how)(),
               getattr(s.rolling("3D", min_periods=0), how)())
    # integers: exact sums
    s = pd.Series(np.arange(30) * 10 ** 9, index=_times(30, 4))
    e = ef.from_pandas(s, device=device)
    _close(e.rolling("2D").sum(), s.rolling("2D").sum(), rtol=0)


def _raises(device, s, fn):
    e = ef.from_pandas(s, device=device)
    with pytest.raises(Exception) as want:
        fn(s)
    with pytest.raises(want.type, match=re.escape(str(want.value)[:25])):
        fn(e)


def test_time_rolling_bad(device):
    s = _series()
    _raises(device, s.iloc[[1, 0, 2, 3]], lambda o: o.rolling("2D").sum())
    _raises(device, s.reset_index(drop=True), lambda o: o.rolling("2D").sum())
    _raises(device, s, lambda o: o.rolling("2D", closed="bad").sum())
    with pytest.raises(ValueError, match="non-fixed frequency"):
        ef.from_pandas(s, device=device).rolling("1ME")
    _raises(device, s, lambda o: o.rolling("2D", min_periods=-1).sum())
    nat = pd.Series([1.0, 2.0], index=pd.DatetimeIndex(["2024-01-01", None]))
    _raises(device, nat, lambda o: o.rolling("2D").sum())
    df = s.reset_index()
    _raises(device, df, lambda o: o.rolling("2D", on="zz").sum())
    _raises(device, df, lambda o: o.rolling("2D", on="v").sum())
    e = ef.from_pandas(s, device=device)
    with pytest.raises(NotImplementedError):
        e.rolling("2D", center=True).sum()
