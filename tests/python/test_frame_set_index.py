"""DataFrame.set_index with pandas' keys (a string column, arrays, several,
append, inplace, verify_integrity), loc by the labels it makes, the least
and greatest string, and astype between datetime/timedelta units, against
pandas on every device."""
import warnings

import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
ef = ember.frame
tm = pd.testing


def _frame():
    return pd.DataFrame({"k": ["b", "a", "日本", "a", None, "zé"],
                         "v": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
                         "i": [10, 20, 30, 40, 50, 60],
                         "w": list("uvwxyz")})


def _both(device, f):
    p = _frame()
    e = ef.from_pandas(p, device=device)
    return f(e), f(p)


def test_set_index_by_a_string_column(device):
    for f in (lambda d: d.set_index("k"), lambda d: d.set_index("k", drop=False),
              lambda d: d.set_index(["k"]), lambda d: d.set_index(["k", "i"]),
              lambda d: d.set_index("k", append=True),
              lambda d: d.set_index(["w", "k"], append=True, drop=False),
              lambda d: d.set_index("k").sort_index(),
              lambda d: d.set_index("k").reset_index()):
        e, p = _both(device, f)
        assert isinstance(e.index, ef.RangeIndex) or str(e.index.device) == device
        tm.assert_frame_equal(e.to_pandas(), p)


def test_loc_by_string_labels(device):
    f = [lambda d: d.set_index("k").loc["a"],                 # a repeated label
         lambda d: d.set_index("k").loc[["zé", "a"]],
         lambda d: d.set_index("k").loc["a", ["v", "i"]],
         lambda d: d.set_index("k").sort_index().loc["a":"b"],  # a run of "a"
         lambda d: d.dropna().set_index("k").sort_index().loc["aa":"c"],  # not labels
         lambda d: d.set_index("w").loc["x":"z"],
         lambda d: d.set_index("w").loc[["z", "u"], ["i"]]]
    for g in f:
        e, p = _both(device, g)
        tm.assert_frame_equal(e.to_pandas(), p)
    e, p = _both(device, lambda d: d.set_index("w")["v"])
    assert e.loc["x"] == p.loc["x"] and e["y"] == p["y"]
    tm.assert_series_equal(e.loc["v":"x"].to_pandas(), p.loc["v":"x"])
    assert e.index.min() == "u" and e.index.max() == "z"
    e, p = _both(device, lambda d: d.set_index("k"))
    assert e.at["日本", "v"] == p.at["日本", "v"] == 3.0
    assert e.loc["b", "i"] == p.loc["b", "i"]
    with pytest.raises(KeyError):
        e.loc["nope"]
    with pytest.raises(KeyError):   # "a" at rows 1 and 3: no one slice bound
        e.loc["a":"b"]
    with pytest.raises(KeyError):
        p.loc["a":"b"]
    e, p = _both(device, lambda d: d.set_index("k").sort_index())
    for d in (e, p):   # a null last: not monotonic, so bounds must be labels
        with pytest.raises(KeyError):
            d.loc["aa":"c"]


def test_set_index_by_arrays(device):
    p = _frame()
    e = ef.from_pandas(p, device=device)
    lab = np.array([5, 3, 1, 0, 2, 4])
    tm.assert_frame_equal(e.set_index(lab).to_pandas(), p.set_index(lab))
    tm.assert_frame_equal(e.set_index(e["w"]).to_pandas(), p.set_index(p["w"]))
    tm.assert_frame_equal(e.set_index([e["w"], "i"]).to_pandas(),
                          p.set_index([p["w"], "i"]))
    tm.assert_frame_equal(e.set_index([list("ABCDEF")]).to_pandas(),
                          p.set_index([list("ABCDEF")]))   # a list in the list: labels
    tm.assert_frame_equal(e.set_index(pd.Index(lab, name="L")).to_pandas(),
                          p.set_index(pd.Index(lab, name="L")))
    tm.assert_frame_equal(e.set_index(ember.asarray(lab, device=device)).to_pandas(),
                          p.set_index(lab))
    assert str(e.set_index(e["w"]).index.device) == device
    for bad in ("nope", list("ABCDEF")):   # a flat list names columns, as pandas
        with pytest.raises(KeyError, match="are in the columns"):
            e.set_index(bad)
        with pytest.raises(KeyError, match="are in the columns"):
            p.set_index(bad)
    with pytest.raises(ValueError, match="Length mismatch"):
        e.set_index(np.arange(3))


def test_set_index_inplace_and_verify_integrity(device):
    p = _frame()
    e = ef.from_pandas(p, device=device)
    assert e.set_index("w", inplace=True) is None
    p.set_index("w", inplace=True)
    tm.assert_frame_equal(e.to_pandas(), p)
    e = ef.from_pandas(_frame(), device=device)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # pandas 3 deprecates verify_integrity
        want = _frame().set_index("w", verify_integrity=True)
        with pytest.raises(ValueError, match=r"duplicate keys: \['a'\]") as got:
            e.set_index("k", verify_integrity=True)
        with pytest.raises(ValueError) as pgot:
            _frame().set_index("k", verify_integrity=True)
    tm.assert_frame_equal(e.set_index("w", verify_integrity=True).to_pandas(), want)
    assert "['a']" in str(pgot.value) and "['a']" in str(got.value)


@pytest.mark.parametrize("dtype", ["str", "string"])
def test_string_min_max(device, dtype):
    for vals in (["b", None, "a"], [None, None], [], ["é", "z", "日本", "", "zz"]):
        ps = pd.Series(vals, dtype=dtype)
        es = ef.from_pandas(ps, device=device)
        for how in ("min", "max"):
            for skipna in (True, False):
                got, want = getattr(es, how)(skipna=skipna), getattr(ps, how)(skipna=skipna)
                if isinstance(want, str):
                    assert got == want, (vals, how, skipna)
                else:
                    assert pd.isna(got) and type(got) is type(want) or \
                        (got is want), (vals, how, skipna, got, want)


def _times(unit):
    t = pd.to_datetime(["2020-01-01 00:00:01.7", "1969-12-31 23:59:59.5", None,
                        "1677-09-22"], format="ISO8601")
    return pd.Series(t.astype(f"datetime64[{unit}]"))


@pytest.mark.parametrize("src", ["s", "ms", "us", "ns"])
@pytest.mark.parametrize("dst", ["s", "ms", "us", "ns"])
def test_astype_between_time_units(device, src, dst):
    ps = _times(src)
    es = ef.from_pandas(ps, device=device)
    assert str(es.dtype) == f"datetime64[{src}]"
    tm.assert_series_equal(es.astype(f"datetime64[{dst}]").to_pandas(),
                           ps.astype(f"datetime64[{dst}]"))
    pt = pd.Series(pd.to_timedelta(["-1.5s", "1.7s", None, "3 days"])).astype(
        f"timedelta64[{src}]")
    et = ef.from_pandas(pt, device=device)
    tm.assert_series_equal(et.astype(f"timedelta64[{dst}]").to_pandas(),
                           pt.astype(f"timedelta64[{dst}]"))


def test_astype_time_units_refused_as_pandas(device):
    ps = pd.Series(np.array(["2500-01-01", "2020-01-01"], dtype="M8[s]"))
    es = ef.from_pandas(ps, device=device)
    with pytest.raises(pd.errors.OutOfBoundsDatetime, match="2500-01-01"):
        es.astype("datetime64[ns]")
    with pytest.raises(pd.errors.OutOfBoundsDatetime):
        ps.astype("datetime64[ns]")
    tm.assert_series_equal(es.astype("datetime64[us]").to_pandas(),
                           ps.astype("datetime64[us]"))
    pt = pd.Series(np.array([2 ** 62, 1], dtype="m8[s]"))
    with pytest.raises(pd.errors.OutOfBoundsTimedelta):
        ef.from_pandas(pt, device=device).astype("timedelta64[ms]")
    with pytest.raises(TypeError, match="Cannot cast DatetimeArray"):
        es.astype("timedelta64[s]")
    with pytest.raises(TypeError):
        ps.astype("timedelta64[s]")


@pytest.mark.parametrize("dtype", ["str", "string"])
def test_frame_min_max_of_string_columns(device, dtype):
    p = pd.DataFrame({"s": pd.array(["b", "a", "日本"], dtype=dtype),
                      "t": pd.array(["x", None, "é"], dtype=dtype),
                      "u": pd.array([None, None, None], dtype=dtype)})
    e = ef.from_pandas(p, device=device)
    for how in ("min", "max"):
        for skipna in (True, False):
            tm.assert_series_equal(getattr(e, how)(skipna=skipna).to_pandas(),
                                   getattr(p, how)(skipna=skipna))
    e = ef.from_pandas(p.assign(v=[1.0, 2.0, 3.0]), device=device)
    with pytest.raises(NotImplementedError, match="object"):
        e.min()   # pandas' object Series
    tm.assert_series_equal(e.min(numeric_only=True).to_pandas(),
                           p.assign(v=[1.0, 2.0, 3.0]).min(numeric_only=True))


@pytest.mark.parametrize("interpolation", ["nearest", "lower", "higher"])
def test_quantile_table_of_rows(device, interpolation):
    # pandas' method="table": whole rows of the frame sorted by every column
    # (nulls last); dask places set_index boundaries of a string key by it
    p = pd.DataFrame({"k": ["b", None, "a", "c", "a", "日本", "a"],
                      "v": [1.0, 2.0, np.nan, 0.5, 3.0, -1.0, 3.0],
                      "i": [3, 1, 4, 1, 5, 9, 2]})
    e = ef.from_pandas(p, device=device)
    qs = [0.0, 0.1, 0.5, 0.9, 1.0]
    for cols in (["k", "v", "i"], ["k"], ["v"], ["i", "k"]):
        tm.assert_frame_equal(
            e[cols].quantile(qs, method="table", interpolation=interpolation).to_pandas(),
            p[cols].quantile(qs, method="table", interpolation=interpolation))
    tm.assert_series_equal(
        e[["k"]].quantile(0.5, method="table", interpolation=interpolation).to_pandas(),
        p[["k"]].quantile(0.5, method="table", interpolation=interpolation))
    tm.assert_frame_equal(   # no rows: NaN (a str column there is pandas' object)
        e.iloc[:0][["v"]].quantile([0.5], method="table",
                                   interpolation=interpolation).to_pandas(),
        p.iloc[:0][["v"]].quantile([0.5], method="table", interpolation=interpolation))
    with pytest.raises(NotImplementedError, match="object"):
        e.iloc[:0].quantile([0.5], method="table", interpolation=interpolation)
    with pytest.raises(ValueError, match="Invalid interpolation"):
        e.quantile([0.5], method="table")   # linear
    with pytest.raises(ValueError, match="Invalid method"):
        e.quantile([0.5], method="tab")


@pytest.mark.parametrize("unit", ["s", "ms", "us", "ns"])
def test_dt_as_unit(device, unit):
    for ps in (_times("us"), pd.Series(pd.to_timedelta(["-1.5s", "1.7s", None, "3 days"]))):
        es = ef.from_pandas(ps, device=device)
        assert es.dt.unit == ps.dt.unit
        tm.assert_series_equal(es.dt.as_unit(unit).to_pandas(), ps.dt.as_unit(unit))
    with pytest.raises(ValueError, match="Supported units"):
        ef.from_pandas(_times("s"), device=device).dt.as_unit("D")
