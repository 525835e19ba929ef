"""Date offsets on datetime Series and DatetimeIndex (ember.frame's
_offsets.py) against pandas on every device: pandas' own offset objects
and ember.frame.offsets' spellings, added and subtracted, over dates
that cover every weekday, month ends, leap days, times of day, dates
before 1970 and NaT."""
import datetime  # noqa: F401 (the offsets under test name it)

import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
ef = ember.frame
tm = pd.testing
o = pd.offsets


def _dates(unit="us"):
    rng = pd.date_range("1967-12-20", periods=300, freq="37h").as_unit(unit)
    fixed = pd.to_datetime(["2000-02-29 13:00", "2024-03-30", "2024-03-31",
                            "2023-12-31 23:59:59", "2024-06-28", "2024-06-29",
                            "1969-12-31", "1970-01-01"], format="ISO8601").as_unit(unit)
    s = pd.Series(rng.append(fixed), name="t")
    s[5] = pd.NaT
    return s


OFFSETS = [
    "BDay(5)", "BDay(-3)", "BDay(0)", "BDay(11)", "BDay(1, normalize=True)",
    "BusinessDay(-7, offset=datetime.timedelta(hours=2))", "Day(3)", "Day(-1)",
    "Hour(5)", "Minute(-7)", "Second(90)", "Milli(3)", "Week(2)", "Week(1, weekday=0)",
    "Week(-2, weekday=4)", "Week(0, weekday=6)", "MonthEnd(1)", "MonthEnd(-2)",
    "MonthEnd(0)", "MonthBegin(1)", "MonthBegin(-1)", "MonthBegin(0)", "BMonthEnd(1)",
    "BMonthEnd(-1)", "BMonthEnd(0)", "BMonthBegin(2)", "BMonthBegin(-1)",
    "BMonthBegin(0)", "YearEnd(1)", "YearEnd(-1)", "YearEnd(0)", "YearEnd(1, month=6)",
    "YearBegin(1)", "YearBegin(-2, month=3)", "YearBegin(0)", "QuarterEnd(1)",
    "QuarterEnd(-1, startingMonth=2)", "QuarterEnd(0)", "QuarterBegin(1)",
    "QuarterBegin(-1, startingMonth=1)", "QuarterBegin(0)", "BQuarterEnd(1)",
    "BQuarterBegin(-1)", "BYearEnd(2)", "BYearBegin(-1)",
    "DateOffset(months=1)", "DateOffset(months=-13, days=2, hours=3)",
    "DateOffset(years=1, weeks=1)", "DateOffset()", "DateOffset(2)",
    "DateOffset(months=1, normalize=True)"]


@pytest.mark.parametrize("spelling", OFFSETS)
def test_series_offsets_pandas_objects(device, spelling):
    s = _dates()
    e = ef.from_pandas(s, device=device)
    off = eval("o." + spelling)
    tm.assert_series_equal((e + off).to_pandas(), s + off)
    tm.assert_series_equal((e - off).to_pandas(), s - off)
    tm.assert_series_equal((off + e).to_pandas(), off + s)


@pytest.mark.parametrize("spelling", OFFSETS)
def test_series_offsets_ember_spellings(device, spelling):
    s = _dates()
    e = ef.from_pandas(s, device=device)
    mine, theirs = eval("ef.offsets." + spelling), eval("o." + spelling)
    tm.assert_series_equal((e + mine).to_pandas(), s + theirs)
    tm.assert_series_equal((mine + e).to_pandas(), theirs + s)
    tm.assert_series_equal((e - mine).to_pandas(), s - theirs)
    assert repr(mine) == repr(theirs)
    assert mine.to_pandas() == theirs


@pytest.mark.parametrize("unit", ["s", "ms", "ns"])
def test_offsets_other_units(device, unit):
    s = _dates(unit)
    e = ef.from_pandas(s, device=device)
    for off in (o.BDay(4), o.MonthEnd(-1), o.Week(1, weekday=3), o.Hour(2)):
        tm.assert_series_equal((e + off).to_pandas(), s + off)


def test_index_plus_business_day(device):
    # the tutorial's step: a date index moved by five business days
    with ember.Device(device):
        rng = ef.date_range("3/6/2012 00:00", periods=5, freq="D")
    prng = pd.date_range("3/6/2012 00:00", periods=5, freq="D")
    for off in (o.BusinessDay(5), ef.offsets.BusinessDay(5)):
        tm.assert_index_equal((rng + off).to_pandas(), prng + pd.offsets.BusinessDay(5))
    tm.assert_index_equal((rng - o.BDay(2)).to_pandas(), prng - o.BDay(2))
    tm.assert_index_equal((o.MonthEnd() + rng).to_pandas(), o.MonthEnd() + prng)
    idx = ef.from_pandas(pd.DatetimeIndex(_dates()), device=device)
    tm.assert_index_equal((idx + o.BQuarterEnd(-2)).to_pandas(),
                          pd.DatetimeIndex(_dates()) + o.BQuarterEnd(-2))


def test_frame_column_offset(device):
    p = pd.DataFrame({"t": _dates(), "x": np.arange(308.0)})
    e = ef.from_pandas(p, device=device)
    e["u"] = e["t"] + o.BDay(3)
    p["u"] = p["t"] + o.BDay(3)
    tm.assert_frame_equal(e.to_pandas(), p)


def test_timedelta_plus_tick(device):
    s = pd.Series(pd.to_timedelta([1, 2, None, -5], unit="h"))
    e = ef.from_pandas(s, device=device)
    tm.assert_series_equal((e + o.Hour(3)).to_pandas(), s + o.Hour(3))
    tm.assert_series_equal((e - o.Minute(30)).to_pandas(), s - o.Minute(30))
    with pytest.raises(TypeError, match="MonthEnd"):
        e + o.MonthEnd()


@pytest.mark.parametrize("freq", ["BDay(3)", "MonthEnd()", "Week(weekday=2)",
                                  "QuarterEnd(startingMonth=2)", "YearBegin()",
                                  "Hour(5)", "Day(2)", "MonthBegin(2)"])
def test_date_range_offset_freq(device, freq):
    with ember.Device(device):
        for mod in (ef.offsets, o):
            got = ef.date_range("2024-01-03", periods=7, freq=eval("mod." + freq))
            want = pd.date_range("2024-01-03", periods=7, freq=eval("o." + freq))
            got = got.to_pandas()   # ember's index keeps no freq
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got.asi8, want.asi8)


def test_dt_calendar_flags(device):
    # the .dt flags a calendar offset lands on agree with pandas
    s = _dates() + o.BMonthEnd(0)
    e = ef.from_pandas(s, device=device)
    for flag in ("is_month_end", "is_month_start", "is_quarter_end", "is_year_end"):
        tm.assert_series_equal(getattr(e.dt, flag).to_pandas(), getattr(s.dt, flag))


def test_offset_objects():
    eo = ef.offsets
    assert eo.BDay is eo.BusinessDay and eo.BMonthEnd is eo.BusinessMonthEnd
    assert -eo.BDay(3) == eo.BDay(-3) and 2 * eo.Week(weekday=1) == eo.Week(2, weekday=1)
    assert ef.DateOffset is eo.DateOffset
    assert eo.Hour(5).nanos == o.Hour(5).nanos
    assert eo.Week(weekday=4).freqstr == "W-FRI" and eo.BDay(5).freqstr == "5B"
    assert pd.Timestamp("2024-01-05") + eo.BDay(1) == pd.Timestamp("2024-01-08")
    assert pd.Timestamp("2024-01-08") - eo.BDay(1) == pd.Timestamp("2024-01-05")


def test_offset_errors(device):
    e = ef.from_pandas(_dates(), device=device)
    with pytest.raises(ValueError, match="normalize=True"):
        ef.offsets.Hour(1, normalize=True)
    with pytest.raises(ValueError, match="normalize=True"):
        o.Hour(1, normalize=True)
    with pytest.raises(TypeError, match="integer"):
        ef.offsets.BDay(1.5)
    with pytest.raises(NotImplementedError, match="CustomBusinessDay"):
        e + o.CustomBusinessDay(2)
    with pytest.raises(NotImplementedError, match="month="):
        e + o.DateOffset(month=3)
    with pytest.raises(TypeError, match="subtract"):
        o.BDay(2) - e
    num = ef.Series(ember.arange(3, device=device))
    with pytest.raises(TypeError, match="int64"):
        num + o.BDay(1)
    # a wall time the shift lands on that a zone skips or repeats: pandas' errors
    p = pd.Series(pd.to_datetime(["2024-03-09 02:30", "2024-11-02 01:30"])
                  .tz_localize("America/New_York"))
    a = ef.from_pandas(p, device=device)
    for i, what in ((0, "nonexistent"), (1, "infer dst")):
        with pytest.raises(ValueError, match=what):
            p.iloc[[i]] + o.Day(1)
        with pytest.raises(ValueError, match=what):
            a.iloc[[i]] + o.Day(1)


@pytest.mark.parametrize("spelling", ["BDay(3)", "BDay(-2)", "Day(1)", "Day(-3)",
                                      "MonthEnd(1)", "Week(1, weekday=6)", "Hour(5)",
                                      "DateOffset(months=1, hours=2)", "YearBegin(-1)",
                                      "BDay(1, normalize=True)"])
def test_aware_columns(device, spelling):
    # calendar offsets move the wall times (across the DST changes of
    # 2024-03-10 and 2024-11-03), ticks the instants, as pandas
    s = pd.Series(pd.date_range("2024-02-25 01:30", periods=60, freq="29h",
                                tz="America/New_York"))
    s[2] = pd.NaT
    e = ef.from_pandas(s, device=device)
    off = eval("o." + spelling)
    tm.assert_series_equal((e + off).to_pandas(), s + off)
    tm.assert_series_equal((e - off).to_pandas(), s - off)
