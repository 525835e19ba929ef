"""ember.frame's resample with calendar rules (ME, MS, QE, QS, YE, YS, W,
B, their multiples and anchors) against pandas on the same data, on every
device."""
import re

import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
ef = ember.frame
tm = pd.testing
HOWS = ("sum", "mean", "count", "min", "max", "first", "last", "size")
RULES = ("ME", "MS", "QE", "QS", "YE", "YS", "W", "W-MON", "W-SAT", "B", "2ME", "3MS",
         "2QE", "QE-NOV", "QS-FEB", "YE-JUN", "2YS", "2W", "3B", "YS-MAR")


def _series(n, span_days, seed=0, start="2023-11-17 05:00"):
    rng = np.random.default_rng(seed)
    secs = np.sort(rng.integers(0, span_days * 86400, size=n))
    idx = pd.DatetimeIndex(np.datetime64(start, "s") + secs.astype("m8[s]")).as_unit("us")
    x = rng.normal(size=n)
    if n > 10:
        x[[2, 7]] = np.nan
    return pd.Series(x, index=idx, name="v")


def _check(s, e, rule):
    for how in HOWS:
        want = getattr(s.resample(rule), how)()
        got = getattr(e.resample(rule), how)()
        tm.assert_series_equal(got.to_pandas(), want, check_freq=False, rtol=1e-9,
                               obj=f"resample({rule!r}).{how}")


@pytest.mark.parametrize("rule", RULES)
def test_calendar_rules(device, rule):
    for n, span in ((200, 900), (40, 40)):
        s = _series(n, span)
        _check(s, ef.from_pandas(s, device=device), rule)


def test_calendar_edges(device):
    # month ends late in the day, leap days, weekends, years before 1970
    idx = pd.DatetimeIndex(["1969-12-31 23:59:59", "2024-02-29 23:00", "2024-03-01",
                            "2024-03-02", "2024-03-03 12:00", "2024-03-31 23:59:59",
                            "2024-04-01"])
    s = pd.Series(np.arange(7.0), index=idx)
    e = ef.from_pandas(s, device=device)
    for rule in RULES:
        _check(s, e, rule)
    for n in (0, 1):
        s = _series(n, 5)
        e = ef.from_pandas(s, device=device)
        for rule in ("ME", "QS", "W", "B"):
            _check(s, e, rule)


def test_calendar_unsorted_dupes_nat_frame(device):
    s = _series(60, 120, seed=2)
    s = pd.concat([s, s.iloc[:5]]).sample(frac=1, random_state=1)
    e = ef.from_pandas(s, device=device)
    for rule in ("ME", "W", "B", "QS"):
        _check(s, e, rule)
    df = pd.DataFrame({"a": np.arange(6.0), "b": pd.array([1, None, 3, 4, 5, 6],
                                                          dtype="Int64")},
                      index=pd.DatetimeIndex(["2024-01-05", None, "2024-03-09",
                                              "2024-01-31", "2024-06-01", "2024-05-02"]))
    ed = ef.from_pandas(df, device=device)
    for rule in ("ME", "MS", "QE", "B"):
        for how in ("sum", "mean", "count", "max", "first"):
            tm.assert_frame_equal(getattr(ed.resample(rule), how)().to_pandas(),
                                  getattr(df.resample(rule), how)(), check_freq=False)


@pytest.mark.parametrize("rule", ["M", "Q", "Y", "A", "BM", "ME-JAN", "W-XYZ"])
def test_calendar_bad_rules(device, rule):
    s = _series(20, 100)
    e = ef.from_pandas(s, device=device)
    with pytest.raises(Exception) as want:
        s.resample(rule).sum()
    with pytest.raises(want.type, match=re.escape(str(want.value)[:18])):
        e.resample(rule).sum()


@pytest.mark.parametrize("freq", ["ME", "MS", "QE", "QS-FEB", "YE", "YS", "W", "W-WED",
                                  "B", "2ME", "3B", "2W"])
def test_calendar_date_range(freq):
    cases = [dict(start="2024-01-30", periods=7), dict(start="2024-02-01", periods=4),
             dict(start="2024-01-27 10:30", periods=5), dict(end="2024-06-30", periods=4),
             dict(end="2024-06-29 08:00", periods=3),
             dict(start="2023-12-31", end="2025-03-01"),
             dict(start="2024-01-06", end="2024-02-29 12:00"),
             dict(start="2024-03-01", end="2024-01-01"),
             dict(start="2024-01-31", end="2024-12-31", inclusive="neither"),
             dict(start="2024-01-01", end="2024-12-01", inclusive="left")]
    for kw in cases:
        want = pd.date_range(freq=freq, **kw)
        got = ef.date_range(freq=freq, **kw).to_pandas()
        tm.assert_index_equal(got, want.as_unit(got.unit) if len(want) == 0 else want,
                              exact=False, obj=f"date_range({kw}, {freq!r})")
