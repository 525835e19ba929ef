"""What pandas' own tutorials ("10 minutes to pandas", the user guide)
needed of ember.frame, found by running them with `import ember.frame as
pd` (examples/pandas_tutorial.py): each fix against pandas on the same
data, on every device."""
import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
ef = ember.frame
tm = pd.testing


@pytest.mark.parametrize("text", ["20130101", "1/1/2012", "3/6/2012 00:00",
                                  "3/6/2012 1:02:03", "12/31/1999 23:59:59.25",
                                  "2013-01-02", "2013-01-02 10:00"])
def test_date_range_reads_pandas_date_strings(device, text):
    with ember.Device(device):
        got = ef.date_range(text, periods=3, freq="h")
    tm.assert_index_equal(got.to_pandas(), pd.date_range(text, periods=3, freq="h"),
                          check_exact=True)
    with pytest.raises(ValueError, match="could not read"):
        ef.date_range("the first of May", periods=3)


@pytest.mark.parametrize("freq", ["5Min", "5MIN", "2d"])
def test_frequency_spellings(device, freq):
    idx = pd.date_range("2012-01-01", periods=100, freq="s")
    ps = pd.Series(np.arange(100), index=idx)
    es = ef.Series(np.arange(100), index=ef.from_pandas(idx), device=device)
    tm.assert_series_equal(es.resample(freq).sum().to_pandas(), ps.resample(freq).sum(),
                           check_freq=False)


def test_module_level_values_and_isna(device):
    with ember.Device(device):
        df = ef.DataFrame({"A": 1.0, "B": ef.Timestamp("20130102"),
                           "D": np.array([3] * 4, dtype="int32"),
                           "E": ef.Categorical(["test", "train", "test", "train"]),
                           "F": "foo"})
    want = pd.DataFrame({"A": 1.0, "B": pd.Timestamp("20130102"),
                         "D": np.array([3] * 4, dtype="int32"),
                         "E": pd.Categorical(["test", "train", "test", "train"]),
                         "F": "foo"})
    tm.assert_frame_equal(df.to_pandas(), want)
    tm.assert_frame_equal(ef.isna(df).to_pandas(), pd.isna(want))
    tm.assert_frame_equal(ef.notnull(df).to_pandas(), pd.notnull(want))
    s = ef.Series([1.0, None, 3.0], device=device)
    tm.assert_series_equal(ef.isnull(s).to_pandas(), pd.isnull(s.to_pandas()))
    assert ef.isna(None) and ef.isna(ef.NaT) and ef.isna(ef.NA) and not ef.notna(np.nan)
    with pytest.raises(AttributeError):
        ef.no_such_name


def test_sort_index_of_columns(device):
    p = pd.DataFrame(np.arange(12.0).reshape(3, 4), columns=list("BDAC"))
    e = ef.from_pandas(p, device=device)
    for asc in (True, False):
        tm.assert_frame_equal(e.sort_index(axis=1, ascending=asc).to_pandas(),
                              p.sort_index(axis=1, ascending=asc))
    tm.assert_frame_equal(e.sort_index(axis="columns", ignore_index=True).to_pandas(),
                          p.sort_index(axis="columns", ignore_index=True))
    with pytest.raises(ValueError):
        e.sort_index(axis=2)


@pytest.mark.parametrize("sl", [slice("20130102", "20130104"),
                                slice("2013-01-02", "2013-01-04 12:00"),
                                slice("2013-01-03", None), slice(None, "2013-01"),
                                slice("1/2/2013", "1/3/2013")])
def test_datetime_index_string_slices(device, sl):
    idx = pd.date_range("20121230", periods=40, freq="6h")
    p = pd.DataFrame({"a": np.arange(40), "b": np.linspace(0, 1, 40)}, index=idx)
    e = ef.from_pandas(p, device=device)
    tm.assert_frame_equal(e[sl].to_pandas(), p[sl], check_freq=False)
    tm.assert_frame_equal(e.loc[sl, ["b"]].to_pandas(), p.loc[sl, ["b"]], check_freq=False)
    tm.assert_series_equal(e["a"].loc[sl].to_pandas(), p["a"].loc[sl], check_freq=False)


def _dated(device, n=6, seed=0):
    dates = pd.date_range("20130101", periods=n)
    p = pd.DataFrame(np.random.default_rng(seed).standard_normal((n, 4)), index=dates,
                     columns=list("ABCD"))
    return p, ef.from_pandas(p, device=device), dates


def test_at_iat_and_datetime_labels(device):
    p, e, dates = _dated(device)
    assert e.at[dates[2], "B"] == p.at[dates[2], "B"]
    assert e.iat[1, 3] == p.iat[1, 3]
    assert e["C"].at[dates[4]] == p["C"].at[dates[4]]
    assert e["C"].iat[-1] == p["C"].iat[-1]
    # a datetime index's labels are Timestamps: a row's name, T's columns
    tm.assert_series_equal(e.loc[dates[0]].to_pandas(), p.loc[dates[0]])
    tm.assert_frame_equal(e.T.to_pandas(), p.T, check_freq=False)
    assert e.index.tolist() == p.index.tolist()
    e.at[dates[0], "A"] = 0
    p.at[dates[0], "A"] = 0
    e.iat[0, 1] = 0
    p.iat[0, 1] = 0
    tm.assert_frame_equal(e.to_pandas(), p, check_freq=False)
    with pytest.raises(ValueError):
        e.iat[0, "A"]
    with pytest.raises(ValueError):
        e.at[[dates[0]], "A"]


def test_bool_frame_select_and_set(device):
    p, e, _ = _dated(device, seed=1)
    tm.assert_frame_equal(e[e > 0].to_pandas(), p[p > 0], check_freq=False)
    p2, e2 = p.copy(), e.copy()
    p2[p2 > 0] = -p2
    e2[e2 > 0] = -e2
    tm.assert_frame_equal(e2.to_pandas(), p2, check_freq=False)


def test_reindex_and_aligned_assignment(device):
    p, e, dates = _dated(device, seed=2)
    tm.assert_frame_equal(
        e.reindex(index=ef.from_pandas(dates[0:4]), columns=list(e.columns) + ["E"])
        .to_pandas(),
        p.reindex(index=dates[0:4], columns=list(p.columns) + ["E"]), check_freq=False)
    later = pd.date_range("20121230", periods=5)    # some labels missing, some new
    tm.assert_frame_equal(e.reindex(index=later).to_pandas(), p.reindex(index=later),
                          check_freq=False)
    s = pd.Series([1, 2, 3, 4, 5, 6], index=pd.date_range("20130102", periods=6))
    p["F"] = s
    e["F"] = ef.from_pandas(s, device=device)
    tm.assert_frame_equal(e.to_pandas(), p, check_freq=False)
    p["G"] = s.iloc[::-1]                     # same labels, another order
    e["G"] = ef.from_pandas(s.iloc[::-1], device=device)
    tm.assert_frame_equal(e.to_pandas(), p, check_freq=False)
    with pytest.raises(NotImplementedError):
        e["H"] = ef.from_pandas(pd.Series([1, 2], index=[dates[0], dates[0]]),
                                device=device)


@pytest.mark.parametrize("how", ["sum", "prod", "mean", "min", "max", "std", "var", "count"])
@pytest.mark.parametrize("cols", [["a", "b", "c"], ["a", "c"], ["a", "d"], ["d"], ["b"]])
def test_row_reductions(device, how, cols):
    p = pd.DataFrame({"a": [1, 2, 3, 4, -5], "b": [0.5, np.nan, 1.5, np.nan, np.nan],
                      "c": np.array([7, 8, 9, 1, 0], dtype="int32"),
                      "d": [True, False, True, True, False]})[cols]
    e = ef.from_pandas(p, device=device)
    kws = [{}] if how == "count" else [{}, {"skipna": False}]
    kws += [{"min_count": 1}, {"min_count": 3}] if how in ("sum", "prod") else []
    kws += [{"ddof": 0}] if how in ("std", "var") else []
    if how in ("std", "var") and "d" in cols and len(cols) > 1:
        pytest.skip("pandas makes std/var of bool and number columns object")
    for kw in kws:
        tm.assert_series_equal(getattr(e, how)(axis=1, **kw).to_pandas(),
                               getattr(p, how)(axis=1, **kw))


def test_row_reductions_refuse_strings_and_nullables(device):
    e = ef.DataFrame({"a": [1.0, 2.0], "s": ["x", "y"]}, device=device)
    tm.assert_series_equal(e.mean(axis=1, numeric_only=True).to_pandas(),
                           e.to_pandas().mean(axis=1, numeric_only=True))
    with pytest.raises(TypeError):
        e.mean(axis=1)
    with pytest.raises(TypeError):
        e.to_pandas().mean(axis=1)
    n = ef.DataFrame({"a": ef.Series([1, None], dtype="Int64", device=device)})
    with pytest.raises(NotImplementedError, match="nullable"):
        n.sum(axis=1)


def test_frame_with_series_by_axis(device):
    p, e, dates = _dated(device, seed=3)
    s = pd.Series([1, 3, 5, np.nan, 6, 8], index=dates).shift(2)
    es = ef.from_pandas(s, device=device)
    for op in ("sub", "add", "mul", "truediv"):
        tm.assert_frame_equal(getattr(e, op)(es, axis="index").to_pandas(),
                              getattr(p, op)(s, axis="index"), check_freq=False)
    other = pd.Series([1.0, 2.0], index=[dates[1], dates[5]])     # aligned by label
    tm.assert_frame_equal(e.sub(ef.from_pandas(other, device=device), axis=0).to_pandas(),
                          p.sub(other, axis=0), check_freq=False)
    by_col = pd.Series([1.0, -1.0, 2.0, 0.5], index=list("ABCD"))
    tm.assert_frame_equal((e - ef.from_pandas(by_col, device=device)).to_pandas(),
                          p - by_col, check_freq=False)
    tm.assert_frame_equal(e.mul(ef.from_pandas(by_col, device=device), axis="columns")
                          .to_pandas(), p.mul(by_col, axis="columns"), check_freq=False)
    with pytest.raises(NotImplementedError):
        e - ef.from_pandas(by_col.iloc[::-1], device=device)


def test_numpy_reductions_and_transform(device):
    p, e, _ = _dated(device, seed=4)
    tm.assert_series_equal(e.agg(lambda x: np.mean(x) * 5.6).to_pandas(),
                           p.agg(lambda x: np.mean(x) * 5.6))
    assert np.isclose(np.sum(e["A"]), np.sum(p["A"]))
    assert np.isclose(np.std(e["B"]), np.std(p["B"]))
    tm.assert_frame_equal(e.transform(lambda x: x * 101.2).to_pandas(),
                          p.transform(lambda x: x * 101.2), check_freq=False)
    tm.assert_frame_equal(e.transform("cumsum").to_pandas(), p.transform("cumsum"),
                          check_freq=False)
    tm.assert_series_equal(e["C"].transform(lambda x: x - x.mean()).to_pandas(),
                           p["C"].transform(lambda x: x - x.mean()), check_freq=False)
    with pytest.raises(ValueError, match="did not transform"):
        e.transform(lambda x: x.head(2))
    with pytest.raises(ValueError, match="did not transform"):
        p.transform(lambda x: x.head(2))


def _with_nulls():
    return pd.DataFrame({
        "f": [np.nan, 1.0, np.nan, np.nan, 3.0, np.nan],
        "i": pd.array([None, 1, None, 2, None, None], dtype="Int64"),
        "s": [None, "a", None, "b", "日本", None],
        "t": pd.to_datetime([None, "2020-01-01", None, "2020-01-03", None, None]),
        "c": pd.Categorical([None, "x", None, "y", "x", None]),
        "n": [1, 2, 3, 4, 5, 6]}, index=[5, 3, 9, 1, 0, 2])


def test_ffill_bfill(device):
    p = _with_nulls()
    e = ef.from_pandas(p, device=device)
    tm.assert_frame_equal(e.ffill().to_pandas(), p.ffill())
    tm.assert_frame_equal(e.bfill().to_pandas(), p.bfill())
    for k in p.columns:
        tm.assert_series_equal(e[k].ffill().to_pandas(), p[k].ffill())
        tm.assert_series_equal(e[k].bfill().to_pandas(), p[k].bfill())
    empty = p.iloc[:0]
    tm.assert_frame_equal(ef.from_pandas(empty, device=device).ffill().to_pandas(),
                          empty.ffill())
    # limit= is built now (more cases in test_frame_interpolate.py)
    tm.assert_frame_equal(e.ffill(limit=1).to_pandas(), p.ffill(limit=1))


def test_fillna_str_and_combine_first(device):
    p = _with_nulls()
    e = ef.from_pandas(p, device=device)
    tm.assert_frame_equal(e.fillna({"f": -1.0, "s": "z"}).to_pandas(),
                          p.fillna({"f": -1.0, "s": "z"}))
    tm.assert_series_equal(e["s"].fillna("?").to_pandas(), p["s"].fillna("?"))
    tm.assert_series_equal(e["f"].combine_first(e["n"]).to_pandas(),
                           p["f"].combine_first(p["n"]))
    tm.assert_series_equal(e["s"].combine_first(e["s"].bfill()).to_pandas(),
                           p["s"].combine_first(p["s"].bfill()))


def test_index_values_as_columns(device):
    with ember.Device(device):
        got = ef.DataFrame({"v": range(3), "d": ef.to_datetime(["2020-01-03", "2020-01-04",
                                                                 "2020-01-05"])})
        s = ef.Series(ef.date_range("2018-01-01 10:30", periods=4, freq="37h"))
    tm.assert_frame_equal(got.to_pandas(), pd.DataFrame(
        {"v": range(3), "d": pd.to_datetime(["2020-01-03", "2020-01-04", "2020-01-05"])}))
    tm.assert_series_equal(s.to_pandas(), pd.Series(
        pd.date_range("2018-01-01 10:30", periods=4, freq="37h")))


def _no_columns_name(df):
    return df   # ember's columns carry pandas' name now (frame/_colname.py)


def test_pivot(device):
    p = pd.DataFrame({"value": np.arange(12.0),
                      "variable": ["A"] * 3 + ["B"] * 3 + ["C"] * 3 + ["D"] * 3,
                      "date": pd.to_datetime(["2020-01-03", "2020-01-04",
                                              "2020-01-05"] * 4)})
    e = ef.from_pandas(p, device=device)
    tm.assert_frame_equal(e.pivot(index="date", columns="variable", values="value")
                          .to_pandas(),
                          _no_columns_name(p.pivot(index="date", columns="variable",
                                                   values="value")))
    some = [0, 1, 4, 7, 11]   # cells without a value are NaN
    tm.assert_frame_equal(e.iloc[some].pivot(index="variable", columns="date",
                                             values="value").to_pandas(),
                          _no_columns_name(p.iloc[some].pivot(
                              index="variable", columns="date", values="value")))
    q = pd.DataFrame({"k": [1, 2, 2, 1], "c": ["x", "y", "x", "y"], "v": [1, 2, 3, 4]})
    tm.assert_frame_equal(ef.from_pandas(q, device=device).pivot(
        index="k", columns="c", values="v").to_pandas(),
        _no_columns_name(q.pivot(index="k", columns="c", values="v")))
    dup = pd.concat([q, q.iloc[:1]])
    with pytest.raises(ValueError, match="duplicate entries"):
        dup.pivot(index="k", columns="c", values="v")
    with pytest.raises(ValueError, match="duplicate entries"):
        ef.from_pandas(dup, device=device).pivot(index="k", columns="c", values="v")


def test_refusals_name_what_and_why(device):
    e = ef.DataFrame({"a": [1.0, None], "k": ["x", "y"]}, device=device)
    with pytest.raises(TypeError, match="DatetimeIndex"):   # pandas' error: a RangeIndex
        e["a"].tz_localize("UTC")


def test_nan_among_strings_is_missing(device):
    items = ["A", "B", "C", "Aaba", "Baca", np.nan, "CABA", "dog", "cat", None]
    s = ef.Series(items, device=device)
    tm.assert_series_equal(s.to_pandas(), pd.Series(items))
    tm.assert_series_equal(s.str.lower().to_pandas(), pd.Series(items).str.lower())
    tm.assert_series_equal(ef.Series(items, dtype="string", device=device).to_pandas(),
                           pd.Series(items, dtype="string"))


def _abc():
    return pd.DataFrame({"a": [1, 2, 3, 4, 5], "b": [5.0, 4.0, 3.0, 2.0, 1.0],
                         "c": ["x", "y", "x", "z", "y"]}, index=[10, 11, 12, 13, 14])


def test_callable_keys(device):
    p = _abc()
    e = ef.from_pandas(p, device=device)
    tm.assert_frame_equal(e.loc[lambda d: d["a"] > 2].to_pandas(), p.loc[lambda d: d["a"] > 2])
    tm.assert_frame_equal(e[lambda d: d["b"] < 3].to_pandas(), p[lambda d: d["b"] < 3])
    tm.assert_series_equal(e.loc[lambda d: d["a"] > 2, "c"].to_pandas(),
                           p.loc[lambda d: d["a"] > 2, "c"])
    tm.assert_frame_equal(e.iloc[lambda d: [0, 2]].to_pandas(), p.iloc[lambda d: [0, 2]])
    e.loc[lambda d: d["a"] > 3, "b"] = 0.0
    p.loc[lambda d: d["a"] > 3, "b"] = 0.0
    tm.assert_frame_equal(e.to_pandas(), p)


def test_drop_rename_get(device):
    p = _abc()
    e = ef.from_pandas(p, device=device)
    for kw in ({"index": [10, 12]}, {"index": 13}, {"columns": ["b"]}, {"columns": "c"},
               {"labels": [11], "axis": 0}, {"labels": ["a", "c"], "axis": 1},
               {"index": [10, 99], "errors": "ignore"}, {"columns": ["zz"], "errors": "ignore"},
               {"index": [14], "columns": ["a"]}):
        tm.assert_frame_equal(e.drop(**kw).to_pandas(), p.drop(**kw))
    tm.assert_frame_equal(e.drop("a", axis=1).to_pandas(), p.drop("a", axis=1))
    with pytest.raises(KeyError):
        e.drop(index=[99])
    with pytest.raises(KeyError):
        e.drop(columns=["zz"])
    tm.assert_frame_equal(e.rename(index={10: 100, 14: 140}).to_pandas(),
                          p.rename(index={10: 100, 14: 140}))
    tm.assert_frame_equal(e.rename(columns=str.upper, index={11: 0}).to_pandas(),
                          p.rename(columns=str.upper, index={11: 0}))
    tm.assert_series_equal(e.get("a").to_pandas(), p.get("a"))
    assert e.get("zz", default=-1) == -1 and e.get("zz") is None


def test_itertuples(device):
    p = _abc()
    e = ef.from_pandas(p, device=device)
    assert list(e.itertuples()) == list(p.itertuples())
    assert [tuple(r) for r in e.itertuples(index=False, name=None)] == \
        list(p.itertuples(index=False, name=None))
    assert [r.c for r in e.itertuples()] == [r.c for r in p.itertuples()]


@pytest.mark.parametrize("fn", [np.sum, np.mean, np.max, np.min, np.nanmean, sum])
def test_window_apply_of_numpy_reductions(device, fn):
    p = pd.Series(np.arange(10.0) ** 1.5)
    e = ef.from_pandas(p, device=device)
    tm.assert_series_equal(e.rolling(3).apply(fn).to_pandas(), p.rolling(3).apply(fn))
    tm.assert_series_equal(e.expanding().apply(fn).to_pandas(), p.expanding().apply(fn))
    with pytest.raises(NotImplementedError, match="Python function"):
        e.rolling(3).apply(lambda w: w[0])


def test_row_reductions_of_all_nan_rows_do_not_warn(device):
    import warnings
    p = pd.DataFrame({"a": [np.nan, 1.0], "b": [np.nan, 2.0]})
    e = ef.from_pandas(p, device=device)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for how in ("mean", "min", "max", "std", "var", "sum"):
            tm.assert_series_equal(getattr(e, how)(axis=1).to_pandas(),
                                   getattr(p, how)(axis=1))


def test_argsort_and_group_pct_change(device):
    p = pd.Series([3.0, np.nan, 1.0, 2.0, 1.0], index=[10, 11, 12, 13, 14])
    e = ef.from_pandas(p, device=device)
    tm.assert_series_equal(e.argsort().to_pandas(), p.argsort())
    q = pd.DataFrame({"AAA": [4, 5, 6, 7], "CCC": [100, 50, -30, -50]})
    f = ef.from_pandas(q, device=device)
    tm.assert_frame_equal(f.loc[(f["CCC"] - 43).abs().argsort()].to_pandas(),
                          q.loc[(q["CCC"] - 43).abs().argsort()])
    d = pd.DataFrame({"g": ["a", "b", "a", "b", "a", "a"],
                      "v": [1.0, 2.0, 3.0, np.nan, 6.0, 3.0], "w": [1, 2, 3, 4, 5, 6]})
    ed = ef.from_pandas(d, device=device)
    tm.assert_series_equal(ed.groupby("g")["v"].pct_change().to_pandas(),
                           d.groupby("g")["v"].pct_change())
    tm.assert_frame_equal(ed.groupby("g").pct_change().to_pandas(),
                          d.groupby("g").pct_change())


@pytest.mark.parametrize("fmt,vals", [
    ("%d/%m/%Y", ["03/01/2021", "04/02/2021", None, "29/02/2020"]),
    ("%m/%d/%Y", ["12/31/1999", "01/02/2000"]),
    ("%Y%m%d", ["20200101", "19991231"]),
    ("%d.%m.%Y", ["31.12.2020", "01.01.1970"]),
    ("%d-%m-%Y", ["31-12-2020"]),
    ("%Y/%m/%d", ["2020/12/31"])])
def test_to_datetime_day_month_year_formats(device, fmt, vals):
    p = pd.Series(vals)
    tm.assert_series_equal(ef.to_datetime(ef.from_pandas(p, device=device), format=fmt)
                           .to_pandas(), pd.to_datetime(p, format=fmt))


def test_to_datetime_format_mismatch(device):
    s = ef.Series(["03/01/2021", "2021-01-03", "31/02/2021"], device=device)
    with pytest.raises(ValueError, match="doesn't match format"):
        ef.to_datetime(s, format="%d/%m/%Y")
    p = pd.Series(["03/01/2021", "2021-01-03", "31/02/2021"])
    tm.assert_series_equal(ef.to_datetime(s, format="%d/%m/%Y", errors="coerce").to_pandas(),
                           pd.to_datetime(p, format="%d/%m/%Y", errors="coerce"))
    with pytest.raises(ValueError):
        ef.to_datetime(ef.Series(["31/02/2021"], device=device), format="%d/%m/%Y")
    with pytest.raises(NotImplementedError):
        ef.to_datetime(s, format="%d %b %Y")


def test_describe_include_and_list_values_refused(device):
    p = pd.DataFrame({"a": [1.0, 2.0, 4.0], "s": ["x", "y", "x"]})
    e = ef.from_pandas(p, device=device)
    tm.assert_frame_equal(e.describe(include="number").to_pandas(),
                          p.describe(include="number"))
    tm.assert_frame_equal(e.describe(percentiles=[0.25, 0.5, 0.75]).to_pandas(),
                          p.describe(percentiles=[0.25, 0.5, 0.75]))
    # pandas' object table, and list values (test_frame_object.py)
    tm.assert_frame_equal(e.describe(include="all").to_pandas(), p.describe(include="all"))
    tm.assert_frame_equal(e[["s"]].describe().to_pandas(), p[["s"]].describe())
    tm.assert_series_equal(ef.Series([[1, 2], [3]], device=device).to_pandas(),
                           pd.Series([[1, 2], [3]]))


def test_columns_name(device):
    p = pd.DataFrame({"k": [1, 2, 2, 1], "c": ["x", "y", "x", "y"], "v": [1, 2, 3, 4]})
    e = ef.from_pandas(p, device=device)
    pe, ee = p.pivot(index="k", columns="c", values="v"), e.pivot(index="k", columns="c",
                                                                  values="v")
    assert ee.columns.name == pe.columns.name == "c"
    tm.assert_frame_equal(ee.head(1).to_pandas(), pe.head(1))      # kept by row selections
    tm.assert_frame_equal(ee.sort_values("x").to_pandas(), pe.sort_values("x"))
    tm.assert_frame_equal(ee.copy().to_pandas(), pe.copy())
    ee.columns.name = "C"
    pe.columns.name = "C"
    tm.assert_frame_equal(ee.to_pandas(), pe)
    ee.columns.name = None
    pe.columns.name = None
    tm.assert_frame_equal(ee.to_pandas(), pe)
    ee.columns = pd.Index(["a", "b"], name="n")
    pe.columns = pd.Index(["a", "b"], name="n")
    tm.assert_frame_equal(ee.to_pandas(), pe)
    ee.columns = ["p", "q"]
    pe.columns = ["p", "q"]
    tm.assert_frame_equal(ee.to_pandas(), pe)
