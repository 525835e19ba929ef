"""ember.frame's rolling median and quantile (fixed and time windows)
against pandas on the same data, on every device."""
import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
ef = ember.frame
tm = pd.testing
INTERP = ("linear", "lower", "higher", "midpoint", "nearest")


def _series(n=70, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 12, size=n).astype(float)   # ties
    x[[3, 10, 11, 30, 31, 32]] = np.nan
    x[20], x[45] = np.inf, -np.inf
    return pd.Series(x, index=pd.RangeIndex(5, 5 + n), name="v")


def _close(got, want):
    if isinstance(want, pd.Series):
        tm.assert_series_equal(got.to_pandas(), want, rtol=1e-12, atol=1e-12)
    else:
        tm.assert_frame_equal(got.to_pandas(), want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("center", [False, True])
@pytest.mark.parametrize("window", [0, 1, 2, 3, 4, 7, 16, 70, 100])
def test_rolling_median_quantile(device, window, center):
    s = _series()
    e = ef.from_pandas(s, device=device)
    for mp in [m for m in (None, 0, 1, 3) if m is None or m <= window]:
        _close(e.rolling(window, min_periods=mp, center=center).median(),
               s.rolling(window, min_periods=mp, center=center).median())
        for q in (0.0, 0.25, 0.5, 0.9, 1.0):
            for how in INTERP:
                _close(e.rolling(window, min_periods=mp, center=center).quantile(q, how),
                       s.rolling(window, min_periods=mp, center=center).quantile(q, how))


def test_rolling_median_frame_and_edges(device):
    rng = np.random.default_rng(2)
    df = pd.DataFrame({"a": rng.normal(size=40), "b": np.arange(40) % 5,
                       "c": pd.array([1, None, 3, 4] * 10, dtype="Int64")})
    e = ef.from_pandas(df, device=device)
    _close(e.rolling(5).median(), df.rolling(5).median())
    _close(e.rolling(4, min_periods=1).quantile(0.3), df.rolling(4, min_periods=1)
           .quantile(0.3))
    _close(e.rolling(3).agg("median"), df.rolling(3).agg("median"))
    for n in (0, 1):
        s = pd.Series(np.arange(float(n)))
        es = ef.from_pandas(s, device=device)
        _close(es.rolling(2, min_periods=1).median(), s.rolling(2, min_periods=1).median())
    s = pd.Series([np.nan] * 6)
    _close(ef.from_pandas(s, device=device).rolling(3, min_periods=0).median(),
           s.rolling(3, min_periods=0).median())


def test_time_rolling_median(device):
    rng = np.random.default_rng(4)
    steps = rng.integers(0, 30, size=60) * 3600 * 10 ** 6
    idx = pd.DatetimeIndex(np.datetime64("2024-03-01", "us") +
                           np.cumsum(steps).astype("m8[us]"))
    s = _series(60).set_axis(idx)
    e = ef.from_pandas(s, device=device)
    for closed in ("right", "left", "both", "neither"):
        _close(e.rolling("2D", closed=closed).median(),
               s.rolling("2D", closed=closed).median())
        _close(e.rolling("30h", closed=closed).quantile(0.75, "nearest"),
               s.rolling("30h", closed=closed).quantile(0.75, "nearest"))


def test_rank_bad(device):
    s = _series()
    e = ef.from_pandas(s, device=device)
    for q, how in ((1.5, "linear"), (-0.1, "linear"), (0.5, "bad")):
        with pytest.raises(ValueError) as want:
            s.rolling(2).quantile(q, how)
        with pytest.raises(ValueError, match=str(want.value)[:12]):
            e.rolling(2).quantile(q, how)
    st = ef.from_pandas(pd.Series(["a", "b"]), device=device)
    with pytest.raises(TypeError):
        st.rolling(2).median()
    with pytest.raises(NotImplementedError, match="median"):
        e.expanding().median()


def test_rolling_median_long_windows(device):
    # the wavelet walk is the same whatever the window: long ones, many rows
    rng = np.random.default_rng(5)
    x = np.round(rng.normal(size=3000) * 50)
    x[rng.integers(0, 3000, 200)] = np.nan
    s = pd.Series(x)
    e = ef.from_pandas(s, device=device)
    for w in (500, 2999):
        _close(e.rolling(w, min_periods=1).median(), s.rolling(w, min_periods=1).median())
        _close(e.rolling(w, center=True).quantile(0.1, "higher"),
               s.rolling(w, center=True).quantile(0.1, "higher"))
