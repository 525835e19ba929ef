"""Time-zone-aware datetimes (datetime64[unit, tz]): tz_localize with
ambiguous and nonexistent times, tz_convert, .dt fields in wall-clock time,
exchange with pandas and Arrow, arithmetic and comparisons, against pandas."""
import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
ef = ember.frame
tm = pd.testing

ZONES = ["UTC", "America/New_York", "Europe/Paris", "+05:30", "-03:00", "Asia/Kolkata",
         "Australia/Lord_Howe", "America/Los_Angeles"]


def _naive():
    return pd.Series(pd.to_datetime(
        ["2018-11-04 00:30", "2018-03-11 01:30", "2020-01-01 12:00", None,
         "2021-07-04 23:59:59.5", "1999-12-31 23:00", "1970-01-01", "2037-10-25 04:15"],
        format="ISO8601"))


def _same(r, e):
    r = r.to_pandas() if hasattr(r, "to_pandas") else r
    if isinstance(e, pd.Series):   # ember's indexes carry no freq
        tm.assert_series_equal(r, e, check_freq=False)
    elif isinstance(e, pd.DataFrame):
        tm.assert_frame_equal(r, e, check_freq=False)
    elif isinstance(e, pd.Index):
        tm.assert_index_equal(r, e)
    else:
        assert r == e


def _both(f, p, e):
    try:
        want = f(p)
    except Exception as ex:   # pandas' error class is the one to raise
        with pytest.raises(type(ex)):
            f(e)
        return
    _same(f(e), want)


@pytest.fixture
def pair(device):
    p = _naive()
    return p, ef.from_pandas(p, device=device)


FIELDS = ["year", "month", "day", "hour", "minute", "second", "microsecond",
          "day_of_week", "day_of_year", "quarter", "is_month_start", "is_month_end",
          "days_in_month"]


@pytest.mark.parametrize("tz", ZONES)
def test_localize_convert_fields(pair, tz):
    p, e = pair
    _both(lambda s: s.dt.tz_localize(tz), p, e)
    for f in FIELDS:   # in the wall-clock time of the zone converted to
        _both(lambda s: getattr(s.dt.tz_localize(tz).dt.tz_convert("Asia/Tokyo").dt, f),
              p, e)
        _both(lambda s: getattr(s.dt.tz_localize(tz).dt, f), p, e)
    _both(lambda s: s.dt.tz_localize(tz).dt.tz_convert("America/New_York"), p, e)
    _both(lambda s: s.dt.tz_localize(tz).dt.tz_convert(None), p, e)
    _both(lambda s: s.dt.tz_localize(tz).dt.tz_localize(None), p, e)
    _both(lambda s: s.dt.tz_localize(tz).dt.floor("h"), p, e)
    _both(lambda s: s.dt.tz_localize(tz).dt.normalize(), p, e)
    _both(lambda s: s.dt.tz_localize(tz).dt.strftime("%Y-%m-%d %H:%M"), p, e)
    _both(lambda s: s.dt.tz_localize(tz).dt.day_name(), p, e)
    _both(lambda s: s.dt.tz_localize(tz).sort_values(), p, e)
    _both(lambda s: s.dt.tz_localize(tz).diff(), p, e)
    _both(lambda s: s.dt.tz_localize(tz).min(), p, e)
    _both(lambda s: s.dt.tz_localize(tz).max(), p, e)
    assert str(e.dt.tz_localize(tz).dt.tz) == str(p.dt.tz_localize(tz).dt.tz)
    assert e.dt.tz_localize(tz).dtype == str(p.dt.tz_localize(tz).dtype)


def test_ambiguous_and_nonexistent(device):
    p = pd.Series(pd.to_datetime(["2018-11-04 01:30", "2018-03-11 02:30",
                                  "2020-01-01 00:00", None]))
    e = ef.from_pandas(p, device=device)
    z = "America/New_York"
    _both(lambda s: s.dt.tz_localize(z), p, e)   # ValueError: ambiguous
    _both(lambda s: s[1:].dt.tz_localize(z), p, e)   # ValueError: nonexistent
    with pytest.raises(ValueError, match="Cannot infer dst time from 2018-11-04 01:30:00"):
        e.dt.tz_localize(z)
    with pytest.raises(ValueError, match="2018-03-11 02:30:00 is a nonexistent time"):
        e[1:].dt.tz_localize(z)
    _both(lambda s: s.dt.tz_localize(z, ambiguous="NaT", nonexistent="NaT"), p, e)
    flags = np.array([True, False, False, False])
    _both(lambda s: s.dt.tz_localize(z, ambiguous=flags, nonexistent="shift_forward"),
          p, e)
    _both(lambda s: s.dt.tz_localize(z, ambiguous=~flags, nonexistent="shift_backward"),
          p, e)
    _both(lambda s: s[:1].dt.tz_localize(z, ambiguous=True), p, e)
    _both(lambda s: s[:1].dt.tz_localize(z, ambiguous=False), p, e)
    _both(lambda s: s.dt.tz_localize(z, nonexistent="bogus", ambiguous="NaT"), p, e)
    with pytest.raises(NotImplementedError, match="infer"):
        e.dt.tz_localize(z, ambiguous="infer")
    q = pd.Series(pd.to_datetime(["2018-11-04 00:30"]))   # Brazil's 2018 spring gap
    _both(lambda s: s.dt.tz_localize("America/Sao_Paulo"), q, ef.from_pandas(q, device=device))
    _both(lambda s: s.dt.tz_localize("America/Sao_Paulo", nonexistent="shift_forward"), q,
          ef.from_pandas(q, device=device))


def test_errors(pair):
    p, e = pair
    _both(lambda s: s.dt.tz_localize("Nope/Zone"), p, e)   # ZoneInfoNotFoundError
    _both(lambda s: s.dt.tz_localize("UTC").dt.tz_localize("UTC"), p, e)   # TypeError
    _both(lambda s: s.dt.tz_convert("UTC"), p, e)   # TypeError: naive
    _both(lambda s: s.dt.tz_localize("UTC") > pd.Timestamp("2019-01-01"), p, e)
    _both(lambda s: s > pd.Timestamp("2019-01-01", tz="UTC"), p, e)
    _both(lambda s: s.dt.tz_localize("UTC") - s, p, e)
    _both(lambda s: s.tz_localize("UTC"), p, e)   # TypeError: the index is a RangeIndex


def test_arithmetic_and_comparisons(pair):
    p, e = pair
    t = "2019-01-01"
    _both(lambda s: s.dt.tz_localize("UTC") > pd.Timestamp(t, tz="UTC"), p, e)
    _both(lambda s: s.dt.tz_localize("Europe/Paris", ambiguous="NaT", nonexistent="NaT")
          <= pd.Timestamp(t, tz="Asia/Tokyo"), p, e)
    _both(lambda s: s.dt.tz_localize("UTC") + pd.Timedelta("90min"), p, e)
    _both(lambda s: s.dt.tz_localize("Asia/Kolkata") - pd.Timedelta("1D"), p, e)
    _both(lambda s: s.dt.tz_localize("UTC") - s.dt.tz_localize("Asia/Tokyo"), p, e)
    _both(lambda s: s.dt.tz_localize("UTC") - pd.Timestamp(t, tz="Asia/Tokyo"), p, e)


def test_frames_exchange_and_groupby(device):
    pa = pytest.importorskip("pyarrow")
    pdf = pd.DataFrame({
        "t": pd.to_datetime(["2020-01-01 10:00", "2020-01-01 23:30", "2020-01-02 01:00",
                             None]).tz_localize("Europe/Paris"),
        "u": pd.to_datetime(["2020-03-29 00:30", "2020-10-25 02:30", "2020-01-01",
                             "2020-06-01"], format="ISO8601").tz_localize("UTC"),
        "v": [1, 2, 3, 4]})
    df = ef.from_pandas(pdf, device=device)
    _same(df, pdf)
    assert df.dtypes["t"] == "datetime64[us, Europe/Paris]"
    back = ef.from_arrow(pa.Table.from_pandas(pdf, preserve_index=False))
    _same(back, pdf)
    assert str(df.to_arrow().schema.field("t").type) == "timestamp[us, tz=Europe/Paris]"
    _both(lambda d: d.groupby(d["t"].dt.day)["v"].sum(), pdf, df)
    _both(lambda d: d.groupby("t")["v"].sum(), pdf, df)
    _both(lambda d: d.sort_values("t", ascending=False), pdf, df)
    _both(lambda d: d.set_index("t"), pdf, df)
    _both(lambda d: d["u"].dt.tz_convert("Europe/London").dt.hour, pdf, df)
    _both(lambda d: d.assign(w=d["u"].dt.tz_convert("Europe/Paris")), pdf, df)


def test_to_datetime_utc(device):
    p = pd.Series(["2020-01-01 10:00", "2021-06-01 00:00", None])
    e = ef.from_pandas(p, device=device)
    _same(ef.to_datetime(e, utc=True), pd.to_datetime(p, utc=True))
    _same(ef.to_datetime(e).dt.tz_localize("Europe/Paris").dt.tz_convert("UTC").dt.hour,
          pd.to_datetime(p).dt.tz_localize("Europe/Paris").dt.tz_convert("UTC").dt.hour)


def test_dtype_names():
    from ember.frame._dtypes import lookup
    d = lookup("datetime64[ns, Europe/Paris]")
    assert d.kind == "M" and d.unit == "ns" and str(d.tz) == "Europe/Paris"
    assert lookup(pd.DatetimeTZDtype("us", "UTC+05:30")).name == "datetime64[us, UTC+05:30]"
    assert lookup("datetime64[s, +05:30]") == lookup("datetime64[s, UTC+05:30]")
    with pytest.raises(KeyError):   # zoneinfo's ZoneInfoNotFoundError
        lookup("datetime64[ns, Nope/Zone]")


@pytest.mark.parametrize("tz", ["Europe/Paris", "UTC", "+05:30", "America/New_York"])
def test_resample_in_the_zone(device, tz):
    """Days and calendar bins are the zone's (23 or 25 hours across a DST
    change), shorter bins real time from the zone's midnight."""
    for start, n in [("2020-03-28", 12), ("2020-10-24 13:00", 40), ("2020-01-30", 90)]:
        idx = pd.date_range(start, periods=n, freq="97min", tz=tz)
        pdf = pd.DataFrame({"t": idx, "v": np.arange(float(n))})
        df = ef.from_pandas(pdf, device=device)
        for rule in ["D", "2D", "6h", "45min", "ME", "W"]:
            for how in ["sum", "count", "first"]:
                got = getattr(df.set_index("t")["v"].resample(rule), how)().to_pandas()
                want = getattr(pdf.set_index("t")["v"].resample(rule), how)()
                tm.assert_series_equal(got, want, check_freq=False)


RANGES = [dict(start="2020-03-28", periods=6, freq="12h", tz="Europe/Paris"),
          dict(start="2020-03-28 22:00", periods=8, freq="h", tz="Europe/Paris"),
          dict(start="2020-10-25 00:00", end="2020-10-25 05:00", freq="30min",
               tz="Europe/Paris"),
          dict(end="2020-10-26", periods=4, freq="D", tz="America/New_York"),
          dict(start="2020-01-31", periods=4, freq="ME", tz="Asia/Tokyo"),
          dict(start="2020-01-01", periods=3, freq="D", tz="+05:30", name="x"),
          dict(start="2020-03-29 02:30", periods=2, freq="D", tz="Europe/Paris"),
          dict(start="2020-01-01", end="2020-01-02", periods=3, tz="UTC")]


@pytest.mark.parametrize("i", range(len(RANGES)))
def test_date_range_tz(i):
    kw = RANGES[i]
    try:
        want = pd.date_range(**kw)
    except ValueError:   # a nonexistent wall time, as pandas
        with pytest.raises(ValueError, match="nonexistent"):
            ef.date_range(**kw)
        return
    tm.assert_index_equal(ef.date_range(**kw).to_pandas(), want, exact=False,
                          check_exact=True)


def test_astype_fillna_to_csv(pair):
    p, e = pair
    _both(lambda s: s.dt.tz_localize("UTC").astype("datetime64[ns, Asia/Tokyo]"), p, e)
    _both(lambda s: s.dt.tz_localize("UTC").astype("datetime64[ns]"), p, e)   # TypeError
    _both(lambda s: s.astype("datetime64[ns, UTC]"), p, e)   # TypeError
    _both(lambda s: s.dt.tz_localize("UTC").fillna(pd.Timestamp("2000-01-01",
                                                                tz="Asia/Tokyo")), p, e)
    _both(lambda s: s.fillna(np.datetime64("2000-01-01")), p, e)
    for tz in ["Europe/Paris", "+05:30", "-03:00", "UTC"]:
        q = pd.DataFrame({"t": pd.to_datetime(["2020-01-01 00:00", "2020-07-01 10:30",
                                               None]).tz_localize(tz), "v": [1, 2, 3]})
        d = ef.from_pandas(q, device=e._col.device)
        assert d.to_csv(index=False) == q.to_csv(index=False)
        assert d.set_index("t").to_csv() == q.set_index("t").to_csv()


def test_loc_slices_of_wall_times(device):
    idx = pd.date_range("2020-03-28", periods=6, freq="12h", tz="Europe/Paris")
    pdf = pd.DataFrame({"t": idx, "v": np.arange(6.0)}).set_index("t")
    df = ef.from_pandas(pdf, device=device)
    _both(lambda d: d.loc["2020-03-29":"2020-03-30"], pdf, df)
    _both(lambda d: d.loc["2020-03-29 01:00":], pdf, df)
    _both(lambda d: d.loc[:"2020-03-29 12:59"], pdf, df)


def test_index_tz_localize_convert(device):
    rng = pd.date_range("3/6/2012 00:00", periods=5, freq="D")
    ts = pd.Series(np.arange(5.0), rng)
    frame = pd.DataFrame({"v": np.arange(5.0)}, index=rng)
    for p in (ts, frame):
        e = ef.from_pandas(p, device=device)
        _both(lambda s: s.tz_localize("UTC"), p, e)
        _both(lambda s: s.tz_localize("UTC").tz_convert("America/New_York"), p, e)
        _both(lambda s: s.tz_localize("Asia/Tokyo").tz_localize(None), p, e)
        _both(lambda s: s.tz_convert("UTC"), p, e)   # TypeError: naive labels
        _both(lambda s: s.tz_localize("UTC").tz_localize("UTC"), p, e)   # TypeError


@pytest.mark.parametrize("tz", [None, "Europe/Paris", "UTC"])
def test_loc_partial_date_strings(device, tz):
    """loc[str] of a datetime index by pandas' partial string rule: a period
    longer than the labels' resolution is a slice, one as fine an exact
    label, a period outside the labels KeyError (naive or aware)."""
    for freq in ["12h", "D", "17min"]:
        idx = pd.date_range("2020-03-27", periods=200, freq=freq, tz=tz)
        pdf = pd.DataFrame({"v": np.arange(200.0)}, index=idx)
        df = ef.from_pandas(pdf, device=device)
        for key in ["2020-03-29", "2020-03", "2020", "2020-03-28 00:00",
                    "2020-03-28 00:00:00", "2019-01-01", "2020-03-28 00:05", "2030"]:
            _both(lambda d: d.loc[key], pdf, df)
            _both(lambda d: d["v"].loc[key], pdf, df)
