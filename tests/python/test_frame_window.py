"""ember.frame's moving windows against pandas on the same data: rolling,
expanding, ewm.mean, the cumulative and shift functions, resample, on
every device."""
import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
ef = ember.frame
tm = pd.testing
STATS = ("sum", "mean", "min", "max", "std", "var", "count")


def _series():
    x = np.random.default_rng(0).normal(size=60)
    x[[3, 10, 11, 30, 31, 32]] = np.nan
    x[20], x[45] = np.inf, -np.inf
    return pd.Series(x, index=pd.RangeIndex(5, 65), name="v")


def _close(got, want, rtol=1e-9):
    if isinstance(want, pd.Series):
        tm.assert_series_equal(got.to_pandas(), want, rtol=rtol, atol=1e-12)
    else:
        tm.assert_frame_equal(got.to_pandas(), want, rtol=rtol, atol=1e-12)


@pytest.mark.parametrize("center", [False, True])
@pytest.mark.parametrize("window", [1, 2, 3, 4, 7, 16, 59, 60, 200])
def test_rolling_stats(device, window, center):
    s = _series()
    e = ef.from_pandas(s, device=device)
    for mp in (None, 0, 1, 3):
        if mp is not None and mp > window:
            continue
        for how in STATS:
            _close(getattr(e.rolling(window, min_periods=mp, center=center), how)(),
                   getattr(s.rolling(window, min_periods=mp, center=center), how)())
    _close(e.rolling(window, center=center).std(ddof=0),
           s.rolling(window, center=center).std(ddof=0))


@pytest.mark.parametrize("center", [False, True])
def test_rolling_finite(device, center):
    # no missing value: the path that cuts the values themselves into blocks
    rng = np.random.default_rng(3)
    s = pd.Series(rng.normal(size=503) * 10 + np.arange(503), name="x")
    e = ef.from_pandas(s, device=device)
    for window in (1, 2, 3, 7, 16, 50, 125):
        for mp in (None, 1):
            for how in STATS:
                _close(getattr(e.rolling(window, min_periods=mp, center=center), how)(),
                       getattr(s.rolling(window, min_periods=mp, center=center), how)())
        for ddof in (0, 2):
            _close(e.rolling(window, center=center).var(ddof=ddof),
                   s.rolling(window, center=center).var(ddof=ddof))
    i = pd.Series(np.arange(40) % 7)
    _close(ef.from_pandas(i, device=device).rolling(5).sum(), i.rolling(5).sum())


def test_rolling_dtypes_frames_edges(device):
    pdf = pd.DataFrame({"i": np.arange(9) % 4, "b": np.arange(9) % 3 == 0,
                        "f32": np.linspace(0, 2, 9, dtype=np.float32),
                        "I": pd.array([1, None, 3, 4, None, 6, 7, 8, 9], dtype="Int64")},
                       index=pd.Index(list("abcdefghi"), name="k"))
    df = ef.from_pandas(pdf, device=device)
    for how in STATS:
        _close(getattr(df.rolling(3, min_periods=1), how)(),
               getattr(pdf.rolling(3, min_periods=1), how)())
        _close(getattr(df.expanding(2), how)(), getattr(pdf.expanding(2), how)())
    one = pd.Series([2.5])
    empty = pd.Series([], dtype=float)
    for s in (one, empty, pd.Series([np.nan] * 5)):
        e = ef.from_pandas(s, device=device)
        for how in STATS:
            _close(getattr(e.rolling(3, min_periods=0), how)(),
                   getattr(s.rolling(3, min_periods=0), how)())
            _close(getattr(e.expanding(), how)(), getattr(s.expanding(), how)())
    s = pd.Series([1.0, 2.0, 4.0])
    _close(ef.from_pandas(s, device=device).rolling(0, min_periods=0).sum(),
           s.rolling(0, min_periods=0).sum())


def test_rolling_constant_windows_are_exact(device):
    s = pd.Series([0.1] * 8 + [3.0, 0.3, 0.3, 0.3, 0.3])
    e = ef.from_pandas(s, device=device)
    tm.assert_series_equal(e.rolling(3).var().to_pandas().iloc[2:8],
                           s.rolling(3).var().iloc[2:8], check_exact=True)


def test_rolling_precision_large_offset(device):
    # pandas' add/remove updates lose ~1e-5 of the variance here; compare
    # with the exact windows instead
    from numpy.lib.stride_tricks import sliding_window_view
    rng = np.random.default_rng(1)
    x = 1e9 + rng.normal(size=20000)
    e = ef.Series(x, device=device)
    win = sliding_window_view(x - 1e9, 100)
    mean = np.concatenate([np.full(99, np.nan), win.mean(axis=1) + 1e9])
    var = np.concatenate([np.full(99, np.nan), win.var(axis=1, ddof=1)])
    np.testing.assert_allclose(e.rolling(100).mean().to_numpy(), mean, rtol=1e-13)
    np.testing.assert_allclose(e.rolling(100).var().to_numpy(), var, rtol=1e-9)
    # variances are shift-invariant, and pandas is exact on centred data
    off = pd.Series(x[:3000])
    off[::97] = np.nan
    eo, centred = ef.from_pandas(off, device=device), off - 1e9
    _close(eo.expanding().var(), centred.expanding().var())
    _close(eo.ewm(alpha=0.05).var(), centred.ewm(alpha=0.05).var())
    _close(eo.ewm(span=20, adjust=False).std(), centred.ewm(span=20, adjust=False).std())
    walk = np.cumsum(rng.normal(size=20000)) * 1000
    s = pd.Series(walk)
    _close(ef.from_pandas(s, device=device).rolling(50).mean(), s.rolling(50).mean())


def test_expanding(device):
    s = _series()
    e = ef.from_pandas(s, device=device)
    for mp in (0, 1, 5):
        for how in STATS:
            _close(getattr(e.expanding(mp), how)(), getattr(s.expanding(mp), how)())


@pytest.mark.parametrize("kw", [dict(alpha=0.3), dict(span=5, adjust=False),
                                dict(com=2, ignore_na=True),
                                dict(halflife=3, adjust=False, ignore_na=True),
                                dict(alpha=0.5, min_periods=4), dict(alpha=1.0),
                                dict(com=0.5, adjust=False)])
def test_ewm(device, kw):
    s = _series()
    e = ef.from_pandas(s, device=device)
    pdf = pd.DataFrame({"a": s.to_numpy(), "n": np.arange(60)})
    df = ef.from_pandas(pdf, device=device)
    for how, args in (("mean", {}), ("var", {}), ("std", {}), ("var", {"bias": True}),
                      ("std", {"bias": True})):
        _close(getattr(e.ewm(**kw), how)(**args), getattr(s.ewm(**kw), how)(**args))
        _close(getattr(df.ewm(**kw), how)(**args), getattr(pdf.ewm(**kw), how)(**args))
    const = pd.Series([2.5] * 6 + [np.nan, 2.5])
    _close(ef.from_pandas(const, device=device).ewm(**kw).var(), const.ewm(**kw).var())


def test_window_errors(device):
    s = pd.Series([1.0, 2.0])
    e = ef.from_pandas(s, device=device)
    for bad in (-1, 2.5, "x"):
        with pytest.raises((ValueError, NotImplementedError)):
            e.rolling(bad)
    with pytest.raises(ValueError, match="window must be an integer"):
        e.rolling("2s")   # a time window needs a datetime index, as in pandas
    with pytest.raises(ValueError, match="min_periods 3 must be <= window 2"):
        e.rolling(2, min_periods=3)
    with pytest.raises(ValueError, match="mutually exclusive"):
        e.ewm(alpha=0.5, span=3)
    with pytest.raises(ValueError, match="Must pass one of"):
        e.ewm()
    for kw in (dict(alpha=0), dict(span=0.5), dict(com=-1), dict(halflife=0)):
        with pytest.raises(ValueError):
            e.ewm(**kw)
    with pytest.raises(NotImplementedError, match="median"):
        e.expanding().median()
    st = ef.from_pandas(pd.Series(["a", "b"]), device=device)
    with pytest.raises(TypeError, match="non-numeric"):
        st.rolling(2).sum()


CUM = ("cumsum", "cumprod", "cummin", "cummax")


def test_cumulative(device):
    pdf = pd.DataFrame({"f": [1.5, np.nan, 2.0, -0.5, np.nan, 3.0],
                        "i": [3, 1, 2, 5, 0, 4], "i32": np.arange(6, dtype=np.int32),
                        "b": [True, False, True, True, False, True],
                        "I": pd.array([1, None, 3, 4, None, 2], dtype="Int64")},
                       index=pd.RangeIndex(3, 9))
    df = ef.from_pandas(pdf, device=device)
    for how in CUM:
        for skipna in (True, False):
            _close(getattr(df, how)(skipna=skipna), getattr(pdf, how)(skipna=skipna))
    t = pd.Series(pd.to_datetime(["2020-01-03", None, "2020-01-01", "2021-05-05"]))
    et = ef.from_pandas(t, device=device)
    for how in ("cummin", "cummax"):
        _close(getattr(et, how)(), getattr(t, how)())
    with pytest.raises(TypeError):
        et.cumsum()


def test_shift_diff_pct_change(device):
    pdf = pd.DataFrame({"f": [1.5, np.nan, 2.0, -0.5, 4.0, 3.0],
                        "i": [3, 1, 2, 5, 0, 4], "u8": np.arange(6, dtype=np.uint8),
                        "f32": np.arange(6, dtype=np.float32),
                        "I": pd.array([1, None, 3, 4, None, 2], dtype="Int64"),
                        "t": pd.to_datetime(["2020-01-03", None, "2020-01-01",
                                             "2021-05-05", "2020-01-01", "2020-01-02"])})
    df = ef.from_pandas(pdf, device=device)
    for p in (0, 1, 2, -1, -3, 6, 10):
        _close(df.shift(p), pdf.shift(p))
        _close(df.diff(p), pdf.diff(p))
        num = ["f", "i", "u8", "f32", "I"]
        _close(df[num].pct_change(p), pdf[num].pct_change(p))
    _close(df[["i", "I", "f"]].shift(2, fill_value=0), pdf[["i", "I", "f"]].shift(2, fill_value=0))
    s = pd.Series(["a", None, "é"], name="s")
    _close(ef.from_pandas(s, device=device).shift(1), s.shift(1))
    with pytest.raises(ValueError, match="fill_method"):
        df["f"].pct_change(fill_method="pad")
    with pytest.raises(NotImplementedError, match="bool"):
        ef.Series([True, False], device=device).shift(1)


def _timed_frame(n, seed):
    rng = np.random.default_rng(seed)
    t = pd.to_datetime("2020-01-01") + pd.to_timedelta(rng.integers(0, 40 * 86400, n),
                                                       unit="s")
    pdf = pd.DataFrame({"f": rng.normal(size=n), "i": rng.integers(0, 100, n),
                        "I": pd.array(rng.integers(0, 9, n), dtype="Int64")},
                       index=pd.DatetimeIndex(t, name="ts"))
    pdf.loc[pdf.index[::7], "f"] = np.nan
    pdf.iloc[::5, 2] = pd.NA
    return pdf


@pytest.mark.parametrize("rule", ["D", "6h", "3D", "W", "170min", "5000s"])
def test_resample(device, rule):
    pdf = _timed_frame(300, 0)
    for p in (pdf, pdf.sort_index()):
        df = ef.from_pandas(p, device=device)
        r, pr = df.resample(rule), p.resample(rule)
        for how in ("sum", "mean", "count", "min", "max", "first", "last"):
            tm.assert_frame_equal(getattr(r, how)().to_pandas(), getattr(pr, how)(),
                                  check_freq=False, rtol=1e-9)
        tm.assert_series_equal(r.size().to_pandas(), pr.size(), check_freq=False)
        tm.assert_series_equal(df["i"].resample(rule).max().to_pandas(),
                               p["i"].resample(rule).max(), check_freq=False)


def test_resample_edges_and_errors(device):
    one = pd.Series([2.5], index=pd.DatetimeIndex(["2021-03-04 05:06:07"]), name="x")
    e = ef.from_pandas(one, device=device)
    for how in ("sum", "mean", "count", "min", "first", "size"):
        tm.assert_series_equal(getattr(e.resample("h"), how)().to_pandas(),
                               getattr(one.resample("h"), how)(), check_freq=False)
    st = pd.Series(["a", None, "é", "日本"], name="s",
                   index=pd.DatetimeIndex(["2021-01-01 10:00", "2021-01-01 05:00",
                                           "2021-01-03", "2021-01-03 01:00"]))
    est = ef.from_pandas(st, device=device)
    for how in ("first", "last", "count"):
        tm.assert_series_equal(getattr(est.resample("D"), how)().to_pandas(),
                               getattr(st.resample("D"), how)(), check_freq=False)
    nat = pd.Series([1, 2, 3], index=pd.DatetimeIndex(["2021-01-01", None, "2021-01-03"]))
    tm.assert_series_equal(ef.from_pandas(nat, device=device).resample("D").sum()
                           .to_pandas(), nat.resample("D").sum(), check_freq=False)
    idx = pd.to_datetime(["2020-01-01 10:17:00", "2020-01-01 23:00:00",
                          "2020-01-04 01:00:00", "2020-01-02 05:00:00"])
    s = pd.Series([1, 2, 3, 4], index=idx, name="v")
    es = ef.from_pandas(s, device=device)
    for origin in ("epoch", "start", "start_day"):
        tm.assert_series_equal(es.resample("7h", origin=origin).sum().to_pandas(),
                               s.resample("7h", origin=origin).sum(), check_freq=False)
    tm.assert_series_equal(es.resample("D").agg("max").to_pandas(),
                           s.resample("D").agg("max"), check_freq=False)
    tm.assert_frame_equal(es.resample("D").agg(["sum", "first"]).to_pandas(),
                          s.resample("D").agg(["sum", "first"]), check_freq=False)
    tm.assert_frame_equal(es.rolling(2).agg(["mean", "max"]).to_pandas(),
                          s.rolling(2).agg(["mean", "max"]))
    tm.assert_series_equal(es.expanding().agg("std").to_pandas(), s.expanding().agg("std"))
    with pytest.raises(NotImplementedError, match="SME"):
        e.resample("SME")
    with pytest.raises(TypeError, match="DatetimeIndex"):
        ef.Series([1.0, 2.0], device=device).resample("D")
    with pytest.raises(NotImplementedError, match="closed"):
        e.resample("D", closed="right")
