"""ember.frame's .dt accessor, to_datetime and date_range against pandas,
on every device."""
import warnings

import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
ef = ember.frame
tm = pd.testing
FIELDS = ("year", "month", "day", "hour", "minute", "second", "microsecond",
          "nanosecond", "day_of_week", "weekday", "day_of_year", "quarter",
          "days_in_month", "is_month_start", "is_month_end", "is_leap_year",
          "is_quarter_start", "is_quarter_end", "is_year_start", "is_year_end", "unit")


def _times(unit, nat):
    v = np.random.default_rng(0).integers(-3 * 10 ** 18, 3 * 10 ** 18, 400)
    if unit != "ns":
        v //= 1000
    # 1970, 2000-02-29, 2100-02-28 23:59:59, 2021-04-01, 2021-12-31, 2022-01-01
    per = 10 ** 9 if unit == "ns" else 10 ** 6
    v[:7] = [0, -1, 951782400 * per, 4107542399 * per, 1617235200 * per,
             1640908800 * per, 1640995200 * per]
    s = pd.Series(v.view(f"M8[{unit}]"), index=pd.RangeIndex(3, 403), name="t")
    if nat:
        s[7] = pd.NaT
    return s


@pytest.mark.parametrize("unit", ["ns", "us"])
@pytest.mark.parametrize("nat", [False, True])
def test_fields(device, unit, nat):
    s = _times(unit, nat)
    e = ef.from_pandas(s, device=device)
    for f in FIELDS:
        if f == "unit":
            assert e.dt.unit == s.dt.unit
            continue
        tm.assert_series_equal(getattr(e.dt, f).to_pandas(), getattr(s.dt, f))
    tm.assert_series_equal(e.dt.tz_localize("UTC").to_pandas(),   # test_frame_tz.py
                           s.dt.tz_localize("UTC"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for f in ("dayofweek", "dayofyear"):
            tm.assert_series_equal(getattr(e.dt, f).to_pandas(), getattr(s.dt, f))


@pytest.mark.parametrize("freq", ["h", "15min", "D", "s", "2h", "ms"])
def test_floor_ceil_round(device, freq):
    s = _times("us", True)
    e = ef.from_pandas(s, device=device)
    for op in ("floor", "ceil", "round"):
        tm.assert_series_equal(getattr(e.dt, op)(freq).to_pandas(), getattr(s.dt, op)(freq))
    tm.assert_series_equal(e.dt.normalize().to_pandas(), s.dt.normalize())
    ties = pd.Series(pd.to_datetime(["2020-01-01 00:30", "2020-01-01 01:30", None]))
    tm.assert_series_equal(ef.from_pandas(ties, device=device).dt.round("h").to_pandas(),
                           ties.dt.round("h"))
    with pytest.raises(NotImplementedError, match="fixed"):
        e.dt.floor("ME")


@pytest.mark.parametrize("nat", [False, True])
def test_timedelta_fields(device, nat):
    s = _times("ns", nat)
    td = s - s.iloc[0]
    e = ef.from_pandas(td, device=device)
    for f in ("days", "seconds", "microseconds", "nanoseconds"):
        tm.assert_series_equal(getattr(e.dt, f).to_pandas(), getattr(td.dt, f))
    tm.assert_series_equal(e.dt.total_seconds().to_pandas(), td.dt.total_seconds())
    with pytest.raises(AttributeError, match="datetimelike"):
        ef.Series([1.0], device=device).dt


@pytest.mark.parametrize("strings", [
    ["2020-01-01 10:00:00", "1999-12-31 23:59:59", None, "2020-02-29 00:00:01"],
    ["2020-01-01", "1970-01-01", "1600-02-29", "9999-12-31"],
    ["2020-01-01T10:00", "2021-01-01T00:01"],
    ["2020-01-01 10:00:00.5", "2020-01-01 10:00:00.123456"],
    ["2020-01-01 10:00:00.5", "2020-01-01 10:00:00.123456789"],
    ["1969-07-20 20:17:40", "ünïcode?"[:0] or "2000-01-01 00:00:00"]])
def test_to_datetime_strings(device, strings):
    s = pd.Series(strings, name="d")
    tm.assert_series_equal(ef.to_datetime(ef.from_pandas(s, device=device)).to_pandas(),
                           pd.to_datetime(s))


def test_to_datetime_errors(device):
    s = pd.Series(["2020-13-01", "x", "2020-02-30", "2020-01-01", None, "日本"])
    e = ef.from_pandas(s, device=device)
    tm.assert_series_equal(ef.to_datetime(e, errors="coerce").to_pandas(),
                           pd.to_datetime(s, errors="coerce"), check_dtype=False)
    for bad in (["2020-02-30"], ["2020-01-01", "2020-01-01 10:00:00"], ["2020-01-32"]):
        with pytest.raises(ValueError):
            ef.to_datetime(ef.from_pandas(pd.Series(bad), device=device))
        with pytest.raises(ValueError):
            pd.to_datetime(pd.Series(bad))
    mixed = pd.Series(["2020-01-01", "2021-02-03T04:05", "2021-02-03 04:05:06.7"])
    tm.assert_series_equal(
        ef.to_datetime(ef.from_pandas(mixed, device=device), format="ISO8601").to_pandas(),
        pd.to_datetime(mixed, format="ISO8601"))
    with pytest.raises(ValueError):
        ef.to_datetime(e, errors="ignore")


def test_to_datetime_numbers_and_index(device):
    for unit in ("s", "ms", "us", "ns", "D"):
        s = pd.Series([1, 2, -5, 1700000000 if unit != "D" else 20000])
        tm.assert_series_equal(ef.to_datetime(ef.from_pandas(s, device=device),
                                              unit=unit).to_pandas(),
                               pd.to_datetime(s, unit=unit))
    f = pd.Series([1.5, np.nan, -2.25])
    tm.assert_series_equal(ef.to_datetime(ef.from_pandas(f, device=device),
                                          unit="s").to_pandas(),
                           pd.to_datetime(f, unit="s"))
    idx = ef.to_datetime(["2020-01-01", "2020-01-02"])
    tm.assert_index_equal(idx.to_pandas(), pd.to_datetime(["2020-01-01", "2020-01-02"]))
    assert ember.to_datetime is ef.to_datetime


@pytest.mark.parametrize("kw", [
    dict(start="2020-01-01", periods=5, freq="D"),
    dict(start="2020-01-01", end="2020-01-03", freq="7h"),
    dict(start="2020-01-01", periods=3, freq="W"),
    dict(start="2020-01-05", periods=2, freq="W"),
    dict(end="2020-01-01 10:00", periods=4, freq="15min"),
    dict(start="2020-01-01", end="2020-01-03", inclusive="neither"),
    dict(start="2020-01-01", end="2020-01-03", inclusive="left", name="d"),
    dict(start="2020-01-03", end="2020-01-01"),
    dict(start="2020-01-01", periods=3, freq="s", unit="ns"),
    dict(start="2020-01-01", end="2020-01-02 00:00:01", periods=7),
    dict(start="2020-01-01", end="2020-03-01", periods=4, inclusive="neither")])
def test_date_range(kw):
    tm.assert_index_equal(ef.date_range(**kw).to_pandas(),
                          pd.date_range(**kw)._with_freq(None))


def test_date_range_errors():
    with pytest.raises(ValueError, match="exactly three"):
        ef.date_range("2020-01-01")
    with pytest.raises(NotImplementedError, match="fixed"):
        ef.date_range("2020-01-01", periods=3, freq="SME")
    with pytest.raises(ValueError, match="Please use 'ME' instead"):
        ef.date_range("2020-01-01", periods=3, freq="M")
