"""ember.frame's time-series pieces that make text or select by time,
against pandas on every device: .dt.day_name/month_name/strftime,
to_timedelta, between_time/at_time and asfreq."""
import datetime
import time
import warnings

import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
ef = ember.frame
tm = pd.testing


def _times(unit, nat=True):
    """Random instants 1875-2065 and the awkward ones: before 1970, leap
    days, the ends of years and of ISO weeks, sub-second parts."""
    rng = np.random.default_rng(1)
    v = rng.integers(-3 * 10 ** 18, 3 * 10 ** 18, 300)
    fixed = pd.to_datetime([
        "1970-01-01", "1969-12-31 23:59:59.999999", "1900-02-28 12:00",
        "1900-03-01", "2000-02-29 23:59:59.5", "2004-12-31", "2005-01-01",
        "2008-12-29", "2010-01-03", "2020-12-31 00:00:00.000001", "2021-01-03",
        "1904-01-01 13:05:07.250", "2018-01-01 10:30"], format="ISO8601").as_unit("ns").asi8
    v[:len(fixed)] = fixed
    v //= {"ns": 1, "us": 1000, "s": 10 ** 9}[unit]
    s = pd.Series(v.view(f"M8[{unit}]"), index=pd.RangeIndex(5, 305), name="t")
    if nat:
        s[9] = pd.NaT
    return s


# ---- day_name, month_name

@pytest.mark.parametrize("unit", ["ns", "us", "s"])
def test_day_month_names(device, unit):
    s = _times(unit)
    e = ef.from_pandas(s, device=device)
    tm.assert_series_equal(e.dt.day_name().to_pandas(), s.dt.day_name())
    tm.assert_series_equal(e.dt.month_name().to_pandas(), s.dt.month_name())
    tm.assert_series_equal(e.dt.day_name(locale=None).to_pandas(), s.dt.day_name())


def test_names_empty_and_all_nat(device):
    for s in (pd.Series(pd.to_datetime([])), pd.Series(pd.to_datetime([None, None]))):
        e = ef.from_pandas(s, device=device)
        tm.assert_series_equal(e.dt.day_name().to_pandas(), s.dt.day_name())
        tm.assert_series_equal(e.dt.strftime("%Y").to_pandas(), s.dt.strftime("%Y"))


def test_names_other_locale(device):
    e = ef.from_pandas(_times("us"), device=device)
    with pytest.raises(NotImplementedError, match="locale='de_DE'"):
        e.dt.day_name(locale="de_DE")
    with pytest.raises(NotImplementedError, match="month_name"):
        e.dt.month_name(locale="fr_FR")


# ---- strftime

DIRECTIVES = "aAbBcCdDeFgGhHIjklmMnpPrRStTuUVwWxXyYZz%f"


@pytest.mark.parametrize("d", list(DIRECTIVES))
@pytest.mark.parametrize("unit", ["ns", "us", "s"])
def test_strftime_each_directive(device, d, unit):
    s = _times(unit)
    e = ef.from_pandas(s, device=device)
    fmt = f"<%{d}>"
    tm.assert_series_equal(e.dt.strftime(fmt).to_pandas(), s.dt.strftime(fmt))


@pytest.mark.skipif(time.timezone != 0 or time.daylight,
                    reason="%s is the local time zone's in pandas (glibc mktime)")
def test_strftime_epoch_seconds(device):
    s = _times("us")
    e = ef.from_pandas(s, device=device)
    tm.assert_series_equal(e.dt.strftime("%s").to_pandas(), s.dt.strftime("%s"))


@pytest.mark.parametrize("fmt", [
    "%Y/%m/%d", "%Y-%m-%d %H:%M:%S.%f", "%d.%m.%y %I:%M %p", "week %V of %G (%g)",
    "%A, %B %e %Y", "100%% at %H", "literal only", "", "%Q %E %", "abc%",
    "é %Y ü", "%-d/%-m %_H|%-j|%0e", "%Ey %OH"])
def test_strftime_formats(device, fmt):
    s = _times("ns")
    e = ef.from_pandas(s, device=device)
    tm.assert_series_equal(e.dt.strftime(fmt).to_pandas(), s.dt.strftime(fmt))


def test_strftime_small_years(device):
    """glibc writes %Y, %C and %G without padding."""
    s = pd.Series(np.array(["0999-03-04", "0012-01-01", "0001-01-01", "9999-12-31",
                            "1600-02-29T23:59:59.999999"], dtype="M8[us]"))
    e = ef.from_pandas(s, device=device)
    for fmt in ("%Y|%y|%C|%G|%g|%V", "%F %T.%f", "%c", "%j %U %W"):
        tm.assert_series_equal(e.dt.strftime(fmt).to_pandas(), s.dt.strftime(fmt))


def test_strftime_keeps_index_and_name(device):
    s = pd.Series(pd.date_range("2021-12-25", periods=10, freq="19h"),
                  index=list("abcdefghij"), name="when")
    e = ef.from_pandas(s, device=device)
    tm.assert_series_equal(e.dt.strftime("%a %H").to_pandas(), s.dt.strftime("%a %H"))


def test_strftime_bad_format(device):
    e = ef.from_pandas(_times("us"), device=device)
    with pytest.raises(TypeError, match="date_format"):
        e.dt.strftime(5)


# ---- to_timedelta

GOOD = ["1 days 02:03:04.5", "1h", "15min", "2 days", "-1 days +23:00:00", "P1DT2H",
        "00:00:01", "NaT", "", "10", "-1 days 02:00:00", "- 1 days", "1 day, 10:11:12",
        "1.5 days", "1 days 2 hours", "1h30min", "1h 30m", "-1h30m", "+1h", "1.5h",
        "5.s", " 1h ", "1us", "1\u00b5s", "1micro", "1W", "1 hr", "1 sec", "1 min",
        "1 millis", "1 nanos", "1 minute", "1 Hours", "1 days 25:00:00", "1:2:3",
        "P1DT2H3M4.5S", "PT5M", "P0DT0H0M0.000001S", "-P1D", "P1W", "nan", "NaN",
        "00:00:00.5", "-00:00:01", "1D2h", "1 day 2 hours 3 minutes", "1 days,",
        "2 days 3h", "1000", "106000 days", None]


@pytest.mark.parametrize("text", GOOD)
def test_to_timedelta_each_string(device, text):
    s = pd.Series([text, "1h"], dtype="str")
    e = ef.from_pandas(s, device=device)
    tm.assert_series_equal(ef.to_timedelta(e).to_pandas(), pd.to_timedelta(s))


def test_to_timedelta_strings_ns_and_column(device):
    for items in (GOOD, ["1 days 02:03:04.123456789", "1h"], ["1ns", "2h"],
                  ["NaT", "nan"], ["1h", "2h"]):
        s = pd.Series(items, dtype="str", index=range(10, 10 + len(items)), name="x")
        e = ef.from_pandas(s, device=device)
        tm.assert_series_equal(ef.to_timedelta(e).to_pandas(), pd.to_timedelta(s))


BAD = [("1T", "invalid unit abbreviation: T"), ("abc", "Could not convert 'abc'"),
       ("01:02", None), ("1y", "Units 'M', 'Y' and 'y'"), ("1M", "Units 'M'"),
       ("1 weeks", "invalid unit abbreviation: weeks"), ("1daysfoo", "daysfoo"),
       (".5s", "Could not convert"), ("P1Y", None), ("1 days 02", None)]


@pytest.mark.parametrize("text,msg", BAD)
def test_to_timedelta_bad_string(device, text, msg):
    s = pd.Series(["1h", text], dtype="str")
    e = ef.from_pandas(s, device=device)
    with pytest.raises(ValueError) as want:
        pd.to_timedelta(s)
    with pytest.raises(type(want.value), match=msg):
        ef.to_timedelta(e)
    tm.assert_series_equal(ef.to_timedelta(e, errors="coerce").to_pandas(),
                           pd.to_timedelta(s, errors="coerce"))


def test_to_timedelta_out_of_bounds(device):
    s = pd.Series(["100000000 days"], dtype="str")
    with pytest.raises(pd.errors.OutOfBoundsTimedelta):
        ef.to_timedelta(ef.from_pandas(s, device=device))
    tm.assert_series_equal(
        ef.to_timedelta(ef.from_pandas(s, device=device), errors="coerce").to_pandas(),
        pd.Series([pd.NaT], dtype="m8[s]"))


UNITS = [None, "ns", "us", "ms", "s", "m", "min", "h", "D", "W", "sec", "seconds",
         "minute", "hours", "day", "days", "milliseconds", "microsecond", "nanos",
         "hr", "Hours"]


@pytest.mark.parametrize("unit", UNITS)
def test_to_timedelta_numbers(device, unit):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for s in (pd.Series([1, -2, 3, 0], index=list("abcd"), name="n"),
                  pd.Series([1.5, np.nan, -0.25, 1e-4]),
                  pd.Series([1, None, 3], dtype="Int64"),
                  pd.Series(np.array([7, 8], dtype="int32"))):
            e = ef.from_pandas(s, device=device)
            tm.assert_series_equal(ef.to_timedelta(e, unit=unit).to_pandas(),
                                   pd.to_timedelta(s, unit=unit))


def test_to_timedelta_arrays_and_scalars(device):
    a = np.array([1, 2, 30])
    tm.assert_index_equal(ef.to_timedelta(a, unit="s").to_pandas(),
                          pd.to_timedelta(a, unit="s"))
    tm.assert_index_equal(ef.to_timedelta(ember.asarray(a, device=device),
                                          unit="h").to_pandas(),
                          pd.to_timedelta(a, unit="h"))
    for items, kw in ((["1h", "2 days"], {}), ([1, None, 3], {"unit": "s"}),
                      ((1.5, 2), {"unit": "ms"}), (["1h", None], {}), ([], {})):
        tm.assert_index_equal(ef.to_timedelta(items, **kw).to_pandas(),
                              pd.to_timedelta(items, **kw))
    td = np.array([1, 2], dtype="m8[s]")
    e = ef.from_pandas(pd.Series(td), device=device)
    tm.assert_series_equal(ef.to_timedelta(e).to_pandas(), pd.to_timedelta(pd.Series(td)))
    for x, kw in (("1h", {}), ("1 days 02:03:04.5", {}), (5, {}), (1.5, {"unit": "s"}),
                  (3, {"unit": "D"}), (np.timedelta64(1, "s"), {}),
                  (datetime.timedelta(hours=2), {})):
        got, want = ef.to_timedelta(x, **kw), pd.to_timedelta(x, **kw)
        assert isinstance(got, pd.Timedelta) and got == want
    assert ef.to_timedelta("x", errors="coerce") is pd.NaT
    with pytest.raises(ValueError, match="Could not convert 'x'|unit abbreviation"):
        ef.to_timedelta("x")


def test_to_timedelta_bad_arguments(device):
    e = ef.from_pandas(pd.Series([1, 2]), device=device)
    with pytest.raises(ValueError, match="invalid unit abbreviation: foo"):
        ef.to_timedelta(e, unit="foo")
    with pytest.raises(ValueError, match="no longer supported"):
        ef.to_timedelta(e, unit="Y")
    with pytest.raises(ValueError, match="errors must be one of"):
        ef.to_timedelta(e, errors="ignore")
    s = ef.from_pandas(pd.Series(["1h"], dtype="str"), device=device)
    with pytest.raises(ValueError, match="unit must not be specified"):
        ef.to_timedelta(s, unit="s")
    with pytest.raises(TypeError, match="bool"):
        ef.to_timedelta(ef.from_pandas(pd.Series([True]), device=device))
    with pytest.raises(pd.errors.OutOfBoundsTimedelta):
        ef.to_timedelta(ef.from_pandas(pd.Series([10 ** 15]), device=device), unit="D")


def test_to_timedelta_guide_step(device):
    """The user guide's line, and arithmetic with the result."""
    s = pd.Series([1, 2, 3])
    e = ef.from_pandas(s, device=device)
    got = ef.to_timedelta(e, unit="D")
    tm.assert_series_equal(got.to_pandas(), pd.to_timedelta(s, unit="D"))
    d = pd.Series(pd.date_range("2018-01-01", periods=3))
    tm.assert_series_equal((ef.from_pandas(d, device=device) + got).to_pandas(),
                           d + pd.to_timedelta(s, unit="D"))


# ---- between_time, at_time

def _hourly(unit="us", periods=100, freq="37min"):
    idx = pd.date_range("2018-01-01 00:13", periods=periods, freq=freq, unit=unit)
    return pd.DataFrame({"a": np.arange(periods), "b": np.arange(periods) * 0.5}, index=idx)


@pytest.mark.parametrize("inclusive", ["both", "neither", "left", "right"])
@pytest.mark.parametrize("start,end", [("09:00", "11:00"), ("22:00", "03:00"),
                                       ("01:27", "05:35"), ("05:35", "01:27"),
                                       ("9:30AM", "2100"), ("00:00", "23:59:59"),
                                       (datetime.time(4, 3), datetime.time(4, 3))])
def test_between_time(device, start, end, inclusive):
    df = _hourly()
    e = ef.from_pandas(df, device=device)
    got = e.between_time(start, end, inclusive=inclusive).to_pandas()
    tm.assert_frame_equal(got, df.between_time(start, end, inclusive=inclusive),
                          check_freq=False)
    tm.assert_series_equal(e["a"].between_time(start, end, inclusive).to_pandas(),
                           df["a"].between_time(start, end, inclusive), check_freq=False)


@pytest.mark.parametrize("unit", ["s", "ms", "ns"])
def test_between_time_units_and_fractions(device, unit):
    df = _hourly(unit, 300, "517s")
    e = ef.from_pandas(df, device=device)
    for a, b in (("01:02:03.5", "02:00:00.25"), ("23:00:00.000001", "00:30:00")):
        for inc in ("both", "neither"):
            tm.assert_frame_equal(e.between_time(a, b, inc).to_pandas(),
                                  df.between_time(a, b, inc), check_freq=False)


def test_at_time(device):
    df = _hourly(freq="30min", periods=200)
    e = ef.from_pandas(df, device=device)
    for t in ("10:30", datetime.time(0, 13), "10:30:00.5", "7:13pm"):
        tm.assert_frame_equal(e.at_time(t).to_pandas(), df.at_time(t), check_freq=False)


def test_time_selection_errors(device):
    e = ef.from_pandas(_hourly(), device=device)
    with pytest.raises(ValueError, match="Cannot convert arg"):
        e.between_time("9:00x", "10:00")
    with pytest.raises(ValueError, match="Cannot convert arg"):
        e.at_time(5)
    with pytest.raises(ValueError, match="Inclusive has to be"):
        e.between_time("09:00", "10:00", inclusive="x")
    plain = ef.from_pandas(pd.Series([1, 2]), device=device)
    for call in (lambda: plain.between_time("9:00", "10:00"), lambda: plain.at_time("9:00"),
                 lambda: plain.asfreq("h")):
        with pytest.raises(TypeError, match="Index must be DatetimeIndex"):
            call()


def test_between_time_guide_step(device):
    idx = pd.date_range("2018-01-01", periods=72, freq="h")
    ts = pd.Series(range(72), index=idx)
    e = ef.from_pandas(ts, device=device)
    tm.assert_series_equal(e.between_time("09:00", "11:00").to_pandas(),
                           ts.between_time("09:00", "11:00"), check_freq=False)


# ---- asfreq

@pytest.mark.parametrize("freq", ["30min", "6h", "45min", "D", "7h", "2D"])
@pytest.mark.parametrize("method", [None, "ffill", "pad", "bfill", "backfill"])
def test_asfreq(device, freq, method):
    s = pd.Series([1.0, np.nan, 3.0, 4.0, np.nan, 6.0],
                  index=pd.to_datetime(["2018-01-01", "2018-01-01 02:00",
                                        "2018-01-01 03:00", "2018-01-01 07:30",
                                        "2018-01-02 01:00", "2018-01-03 06:00"],
                                       format="ISO8601"), name="v")
    e = ef.from_pandas(s, device=device)
    tm.assert_series_equal(e.asfreq(freq, method=method).to_pandas(),
                           s.asfreq(freq, method=method), check_freq=False)
    tm.assert_series_equal(e.asfreq(freq, method=method, fill_value=-1.0).to_pandas(),
                           s.asfreq(freq, method=method, fill_value=-1.0), check_freq=False)


def test_asfreq_frame_ints_and_strings(device):
    df = pd.DataFrame({"i": [1, 2, 3], "s": ["x", "y", "z"], "f": [0.5, 1.5, 2.5]},
                      index=pd.date_range("2018-01-01", periods=3, freq="2h"))
    e = ef.from_pandas(df, device=device)
    for kw in ({}, {"method": "ffill"}, {"method": "bfill"}):
        tm.assert_frame_equal(e.asfreq("h", **kw).to_pandas(), df.asfreq("h", **kw),
                              check_freq=False)
    nums = df[["i", "f"]]
    tm.assert_frame_equal(ef.from_pandas(nums, device=device).asfreq(
        "h", fill_value=0).to_pandas(), nums.asfreq("h", fill_value=0), check_freq=False)
    tm.assert_frame_equal(e.asfreq("3h").to_pandas(), df.asfreq("3h"), check_freq=False)


def test_asfreq_calendar(device):
    df = pd.DataFrame({"a": [1, 2]}, index=pd.to_datetime(["2018-01-31", "2018-05-31"]))
    e = ef.from_pandas(df, device=device)
    tm.assert_frame_equal(e.asfreq("ME").to_pandas(), df.asfreq("ME"), check_freq=False)
    tm.assert_frame_equal(e.asfreq("ME", method="ffill").to_pandas(),
                          df.asfreq("ME", method="ffill"), check_freq=False)


def test_asfreq_guide_step(device):
    idx = pd.date_range("2018-01-01", periods=72, freq="h")
    ts = pd.Series(range(72), index=idx)
    e = ef.from_pandas(ts, device=device)
    tm.assert_series_equal(e.asfreq("6h").to_pandas(), ts.asfreq("6h"), check_freq=False)
    tm.assert_series_equal(e.asfreq("20min").to_pandas(), ts.asfreq("20min"),
                           check_freq=False)


def test_asfreq_errors(device):
    s = pd.Series([1, 2, 3], index=pd.to_datetime(["2018-01-01 02:00", "2018-01-01 00:00",
                                                   "2018-01-01 04:00"]))
    e = ef.from_pandas(s, device=device)
    with pytest.raises(ValueError, match="Invalid fill method"):
        e.asfreq("h", method="foo")
    with pytest.raises(ValueError, match="monotonic"):
        e.asfreq("h", method="ffill")
    with pytest.raises((ValueError, NotImplementedError), match="foo"):
        e.asfreq("foo")
    empty = ef.from_pandas(pd.Series([], dtype="float64",
                                     index=pd.DatetimeIndex([], dtype="M8[us]")),
                           device=device)
    assert len(empty.asfreq("h")) == 0
