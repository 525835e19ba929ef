"""ember.frame's common Series/DataFrame methods against pandas on the same
data: nlargest/nsmallest, idxmin/idxmax, quantile, median, mode, rank,
clip, round, abs, agg, corr/cov, to_dict, insert/pop, select_dtypes,
sample, info, memory_usage, pipe, equals, any/all."""
import io

import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
ef = ember.frame
tm = pd.testing


def _pdf():
    return pd.DataFrame({
        "a": [3, 1, 3, 2, 5, 1, 3],
        "f": [1.5, np.nan, 2.5, -1.0, 2.5, np.nan, 0.25],
        "I": pd.array([1, None, 3, 3, None, 6, 1], dtype="Int64"),
        "b": [True, False, True, True, False, False, True],
        "s": ["x", None, "yé", "x", "", "日本", "x"],
    }, index=pd.Index([10, 11, 12, 13, 14, 15, 16]))


@pytest.fixture
def pair(device):
    pdf = _pdf()
    return pdf, ef.from_pandas(pdf, device=device)


@pytest.mark.parametrize("keep", ["first", "last", "all"])
@pytest.mark.parametrize("n", [0, 2, 6, 10])
def test_nlargest_nsmallest_series(pair, keep, n):
    pdf, df = pair
    for col in ("a", "f", "I"):
        tm.assert_series_equal(df[col].nlargest(n, keep=keep).to_pandas(),
                               pdf[col].nlargest(n, keep=keep))
        tm.assert_series_equal(df[col].nsmallest(n, keep=keep).to_pandas(),
                               pdf[col].nsmallest(n, keep=keep))


@pytest.mark.parametrize("keep", ["first", "last", "all"])
@pytest.mark.parametrize("cols", ["a", ["a", "f"], ["f", "a"], ["a", "I"]])
def test_nlargest_frame(pair, keep, cols):
    pdf, df = pair
    for n in (1, 2, 4):
        tm.assert_frame_equal(df.nlargest(n, cols, keep=keep).to_pandas(),
                              pdf.nlargest(n, cols, keep=keep))
        tm.assert_frame_equal(df.nsmallest(n, cols, keep=keep).to_pandas(),
                              pdf.nsmallest(n, cols, keep=keep))


@pytest.mark.parametrize("dtype", ["uint8", "int8", "uint64", "datetime64[ns]"])
def test_nlargest_int_keys(device, dtype):
    vals = np.array([0, 5, 100, 5, 7, 1, 100], dtype="int64").astype(dtype)
    s = pd.Series(vals, index=list("abcdefg"))
    e = ef.from_pandas(s, device=device)
    for keep in ("first", "last", "all"):
        tm.assert_series_equal(e.nlargest(2, keep=keep).to_pandas(),
                               s.nlargest(2, keep=keep))
        tm.assert_series_equal(e.nsmallest(2, keep=keep).to_pandas(),
                               s.nsmallest(2, keep=keep))


def test_nlargest_errors(pair):
    pdf, df = pair
    with pytest.raises(ValueError):
        df["a"].nlargest(2, keep="middle")
    with pytest.raises(TypeError):
        df.nlargest(2, "s")
    with pytest.raises(KeyError):
        df.nlargest(2, "nope")


def test_idxmin_idxmax(pair):
    pdf, df = pair
    for col in ("a", "f", "I"):
        assert df[col].idxmin() == pdf[col].idxmin()
        assert df[col].idxmax() == pdf[col].idxmax()
    num = ["a", "f", "I", "b"]
    tm.assert_series_equal(df[num].idxmax().to_pandas(), pdf[num].idxmax())
    tm.assert_series_equal(df.idxmin(numeric_only=True).to_pandas(),
                           pdf.idxmin(numeric_only=True))
    with pytest.raises(ValueError):
        df["f"].idxmax(skipna=False)
    with pytest.raises(ValueError):
        ef.Series([np.nan, np.nan]).idxmin()
    with pytest.raises(ValueError):
        ef.Series([], dtype="float64").idxmin()


@pytest.mark.parametrize("interp", ["linear", "lower", "higher", "midpoint", "nearest"])
def test_quantile(pair, interp):
    pdf, df = pair
    for col in ("a", "f", "I"):
        for q in (0, 0.1, 0.25, 0.5, 0.75, 1):
            got = df[col].quantile(q, interpolation=interp)
            want = pdf[col].quantile(q, interpolation=interp)
            assert got == pytest.approx(want, rel=1e-15) and type(got) is type(want)
        tm.assert_series_equal(df[col].quantile([0.2, 0.5, 0.9], interpolation=interp)
                               .to_pandas(),
                               pdf[col].quantile([0.2, 0.5, 0.9], interpolation=interp))
    for cols in (["a", "f", "I"], ["a"], ["I"], ["a", "f"]):
        tm.assert_series_equal(df[cols].quantile(0.3, interpolation=interp).to_pandas(),
                               pdf[cols].quantile(0.3, interpolation=interp))
    num = pdf[["a", "f", "I"]]
    tm.assert_frame_equal(df[["a", "f", "I"]].quantile([0.25, 0.75],
                                                       interpolation=interp).to_pandas(),
                          num.quantile([0.25, 0.75], interpolation=interp))


def test_quantile_errors_and_empty(pair):
    pdf, df = pair
    with pytest.raises(TypeError):
        df.quantile(0.5)
    with pytest.raises(ValueError):
        df["a"].quantile(1.5)
    whole = pd.Series([1, 2, 3, 4], dtype="Int64")   # no null: stays Float64
    tm.assert_series_equal(ef.from_pandas(whole).quantile([0, 1 / 3]).to_pandas(),
                           whole.quantile([0, 1 / 3]))
    with pytest.raises(ValueError):
        df["a"].quantile(0.5, interpolation="cubic")
    assert np.isnan(ef.Series([np.nan, np.nan]).quantile(0.5))
    assert np.isnan(ef.Series([], dtype="float64").quantile(0.5))


@pytest.mark.parametrize("interp", ["linear", "lower", "midpoint"])
def test_quantile_times(device, interp):
    d = pd.to_datetime(["2020-01-01", "2020-01-02 00:00:00.000001", None,
                        "2020-01-05"], format="ISO8601")
    p = pd.DataFrame({"d": d, "t": pd.to_timedelta([1, 2, 7, None], unit="s")})
    e = ef.from_pandas(p, device=device)
    for col in ("d", "t"):
        assert e[col].quantile(0.3, interpolation=interp) == \
            p[col].quantile(0.3, interpolation=interp)
        tm.assert_series_equal(e[col].quantile([0.3, 0.5], interpolation=interp)
                               .to_pandas(),
                               p[col].quantile([0.3, 0.5], interpolation=interp))
    tm.assert_frame_equal(e.quantile([0.1, 0.9], interpolation=interp).to_pandas(),
                          p.quantile([0.1, 0.9], interpolation=interp))
    tm.assert_series_equal(e[["d"]].quantile(0.5, interpolation=interp).to_pandas(),
                           p[["d"]].quantile(0.5, interpolation=interp))
    with pytest.raises(NotImplementedError):
        e.quantile(0.5)


def test_median(pair):
    pdf, df = pair
    for col in ("a", "f", "I"):
        assert df[col].median() == pdf[col].median()
    assert df["a"].head(1).median() == pdf["a"].head(1).median()
    tm.assert_series_equal(df.median(numeric_only=True).to_pandas(),
                           pdf.median(numeric_only=True))
    assert np.isnan(df["f"].median(skipna=False))
    with pytest.raises(TypeError):
        df["s"].median()


def test_mode(pair):
    pdf, df = pair
    for col in ("a", "f", "I", "b", "s"):
        tm.assert_series_equal(df[col].mode().to_pandas(), pdf[col].mode())
    s = pd.Series([1.0, np.nan, np.nan, 2.0])
    tm.assert_series_equal(ef.from_pandas(s).mode(dropna=False).to_pandas(),
                           s.mode(dropna=False))
    e = pd.Series([], dtype="float64")
    tm.assert_series_equal(ef.from_pandas(e).mode().to_pandas(), e.mode())


@pytest.mark.parametrize("method", ["average", "min", "max", "first", "dense"])
@pytest.mark.parametrize("na_option", ["keep", "top", "bottom"])
@pytest.mark.parametrize("ascending", [True, False])
def test_rank(pair, method, na_option, ascending):
    pdf, df = pair
    for pct in (False, True):
        kw = dict(method=method, na_option=na_option, ascending=ascending, pct=pct)
        tm.assert_frame_equal(df.rank(**kw).to_pandas(), pdf.rank(**kw))


def test_rank_errors(pair):
    _, df = pair
    with pytest.raises(ValueError):
        df["a"].rank(method="middle")
    with pytest.raises(ValueError):
        df["a"].rank(na_option="nowhere")


def test_clip_round_abs(pair, device):
    pdf, df = pair
    for col in ("a", "f", "I"):
        for lo, hi in ((1, 3), (1.5, None), (None, 2), (np.nan, 2))[:None if col != "I" else 1]:
            tm.assert_series_equal(df[col].clip(lo, hi).to_pandas(),
                                   pdf[col].clip(lo, hi))
        tm.assert_series_equal(df[col].abs().to_pandas(), pdf[col].abs())
    bound = pd.Series([0.0, 1, np.nan, 0, 3, 0, 1], index=pdf.index)
    tm.assert_series_equal(df["f"].clip(lower=ef.from_pandas(bound, device=device)).to_pandas(),
                           pdf["f"].clip(lower=bound))
    num = ["a", "f", "I"]
    tm.assert_frame_equal(df[num].clip(0, 2).to_pandas(), pdf[num].clip(0, 2))
    tm.assert_frame_equal(df[num].abs().to_pandas(), pdf[num].abs())
    half = pd.Series([0.5, 1.5, 2.5, -0.5, -1.5, 0.125, np.nan, 1.005])
    for d in (0, 1, 2):
        tm.assert_series_equal(ef.from_pandas(half).round(d).to_pandas(), half.round(d))
    tm.assert_frame_equal(df.round(1).to_pandas(), pdf.round(1))
    tm.assert_frame_equal(df[num].round(-1).to_pandas(), pdf[num].round(-1))
    tm.assert_frame_equal(df.round({"f": 0}).to_pandas(), pdf.round({"f": 0}))
    with pytest.raises(TypeError):
        df["s"].clip(0, 1)
    with pytest.raises(TypeError):
        df["s"].abs()


def test_agg(pair):
    pdf, df = pair
    num = ["a", "f", "I"]
    assert df["a"].agg("sum") == pdf["a"].agg("sum")
    tm.assert_series_equal(df["f"].agg(["sum", "mean", "max"]).to_pandas(),
                           pdf["f"].agg(["sum", "mean", "max"]))
    tm.assert_series_equal(df[num].agg("max").to_pandas(), pdf[num].agg("max"))
    tm.assert_frame_equal(df[["a", "f"]].agg(["sum", "mean", "min"]).to_pandas(),
                          pdf[["a", "f"]].agg(["sum", "mean", "min"]))
    tm.assert_series_equal(df.agg({"a": "sum", "f": "mean"}).to_pandas(),
                           pdf.agg({"a": "sum", "f": "mean"}))
    tm.assert_frame_equal(df.agg({"a": ["sum", "min"], "f": ["max"]}).to_pandas(),
                          pdf.agg({"a": ["sum", "min"], "f": ["max"]}))
    assert df["a"].aggregate(lambda s: s.max()) == 5
    tm.assert_series_equal(df["a"].agg([np.sum, max, np.nanmean]).to_pandas(),
                           pdf["a"].agg([np.sum, max, np.nanmean]))
    tm.assert_series_equal(df["a"].agg({"lo": "min", "hi": "max"}).to_pandas(),
                           pdf["a"].agg({"lo": "min", "hi": "max"}))
    tm.assert_series_equal(df.agg("size").to_pandas(), pdf.agg("size"))
    tm.assert_series_equal(df[num].agg(lambda s: s.max() - s.min()).to_pandas(),
                           pdf[num].agg(lambda s: s.max() - s.min()))
    tm.assert_series_equal(df[["a", "f"]].agg(np.mean).to_pandas(),
                           pdf[["a", "f"]].agg(np.mean))
    with pytest.raises(AttributeError):
        df["a"].agg("nonsense")
    with pytest.raises(KeyError):
        df.agg({"zz": "sum"})


def test_corr_cov(pair):
    pdf, df = pair
    num = ["a", "f", "I", "b"]
    tm.assert_frame_equal(df[num].corr().to_pandas(), pdf[num].corr())
    tm.assert_frame_equal(df[num].cov().to_pandas(), pdf[num].cov())
    tm.assert_frame_equal(df.corr(numeric_only=True).to_pandas(),
                          pdf.corr(numeric_only=True))
    tm.assert_frame_equal(df[num].corr(min_periods=6).to_pandas(),
                          pdf[num].corr(min_periods=6))
    tm.assert_frame_equal(df[num].cov(ddof=0).to_pandas(), pdf[num].cov(ddof=0))
    assert df["a"].corr(df["f"]) == pytest.approx(pdf["a"].corr(pdf["f"]))
    assert df["a"].cov(df["I"]) == pytest.approx(pdf["a"].cov(pdf["I"]))
    const = pd.DataFrame({"x": [1.0, 1, 1], "y": [1.0, 2, 3]})
    tm.assert_frame_equal(ef.from_pandas(const).corr().to_pandas(), const.corr())
    with pytest.raises(ValueError):
        df.corr()
    tm.assert_frame_equal(df[num].corr(method="spearman").to_pandas(),
                          pdf[num].corr(method="spearman"))
    assert df["a"].corr(df["I"], method="spearman") == pytest.approx(
        pdf["a"].corr(pdf["I"], method="spearman"))
    with pytest.raises(NotImplementedError):
        df[num].corr(method="kendall")
    with pytest.raises(ValueError):
        df[num].corr(method="nope")


def test_to_dict(pair):
    pdf, df = pair
    for orient in ("dict", "list", "records", "index", "split", "tight"):
        got, want = df.to_dict(orient), pdf.to_dict(orient)
        assert repr(got) == repr(want), orient
    assert repr(df["f"].to_dict()) == repr(pdf["f"].to_dict())
    e = pd.DataFrame({"a": pd.Series([], dtype="int64")})
    assert ef.from_pandas(e).to_dict("records") == e.to_dict("records")
    with pytest.raises(ValueError):
        df.to_dict("sideways")


def test_insert_pop(pair):
    pdf, df = pair
    pdf.insert(1, "new", [1, 2, 3, 4, 5, 6, 7])
    df.insert(1, "new", [1, 2, 3, 4, 5, 6, 7])
    pdf.insert(0, "k", 2.5)
    df.insert(0, "k", 2.5)
    tm.assert_frame_equal(df.to_pandas(), pdf)
    tm.assert_series_equal(df.pop("new").to_pandas(), pdf.pop("new"))
    tm.assert_frame_equal(df.to_pandas(), pdf)
    with pytest.raises(ValueError):
        df.insert(0, "a", 1)
    with pytest.raises(IndexError):
        df.insert(99, "z", 1)
    with pytest.raises(TypeError):
        df.insert("0", "z", 1)
    with pytest.raises(KeyError):
        df.pop("nope")


@pytest.mark.parametrize("spec", ["number", "bool", "string", "str", "integer",
                                  "floating", "int64", "Int64", np.number, np.float64,
                                  ["number", "bool"], "datetime", "timedelta"])
def test_select_dtypes(device, spec):
    pdf = _pdf()
    pdf["t"] = pd.to_timedelta([1, 2, 3, 4, 5, 6, 7], unit="s")
    pdf["d"] = pd.to_datetime(["2020-01-01"] * 7)
    df = ef.from_pandas(pdf, device=device)
    tm.assert_frame_equal(df.select_dtypes(include=spec).to_pandas(),
                          pdf.select_dtypes(include=spec))
    tm.assert_frame_equal(df.select_dtypes(exclude=spec).to_pandas(),
                          pdf.select_dtypes(exclude=spec))


def test_select_dtypes_errors(pair):
    _, df = pair
    with pytest.raises(ValueError):
        df.select_dtypes()
    with pytest.raises(ValueError):
        df.select_dtypes(include="number", exclude="number")


def test_sample(pair):
    pdf, df = pair
    s = df.sample(4, random_state=7)
    assert len(s) == 4
    idx = s.index.tolist()
    assert len(set(idx)) == 4 and set(idx) <= set(pdf.index)
    tm.assert_frame_equal(s.to_pandas(), pdf.loc[idx])
    assert df.sample(4, random_state=7).index.tolist() == idx   # seeded: repeatable
    assert len(df.sample(frac=0.5, random_state=1)) == round(0.5 * 7)
    r = df["a"].sample(20, replace=True, random_state=3)
    assert len(r) == 20 and set(r.index.tolist()) <= set(pdf.index)
    assert df.sample(frac=1, random_state=2).index.tolist() != list(range(7)) or True
    assert sorted(df.sample(frac=1, random_state=2).index.tolist()) == list(pdf.index)
    assert df.sample(3, ignore_index=True, random_state=0).index.tolist() == [0, 1, 2]
    assert len(df.sample(0)) == 0
    with pytest.raises(ValueError):
        df.sample(8)
    with pytest.raises(ValueError):
        df.sample(n=1, frac=0.5)
    with pytest.raises(ValueError):
        df.sample(frac=2)
    with pytest.raises(ValueError):
        df.sample(-1)


def test_sample_weights(pair):
    pdf, df = pair
    w = [0, 0, 1, 0, 2, 0, 0]
    for rs in range(5):
        got = df.sample(2, weights=w, random_state=rs).index.tolist()
        assert sorted(got) == [12, 14]
    got = df.sample(30, weights=w, replace=True, random_state=1).index.tolist()
    assert set(got) <= {12, 14} and len(got) == 30
    big = df["a"].sample(400, weights=[1, 0, 0, 0, 0, 0, 3], replace=True,
                         random_state=4).index.tolist()
    assert 0.6 < big.count(16) / 400 < 0.9
    col = df.sample(1, weights="a", random_state=0)
    assert len(col) == 1
    with pytest.raises(ValueError):
        df.sample(3, weights=w)
    with pytest.raises(ValueError):
        df.sample(1, weights=[1, 2])
    with pytest.raises(ValueError):
        df.sample(1, weights=[-1, 0, 0, 0, 0, 0, 1])
    with pytest.raises(ValueError):
        df.sample(1, weights=[0] * 7)
    with pytest.raises(KeyError):
        df.sample(1, weights="nope")


def _info(obj):
    buf = io.StringIO()
    obj.info(buf=buf)
    return buf.getvalue()


def test_info_memory_usage(pair):
    pdf, df = pair
    num = ["a", "f", "b"]
    got = _info(df[num]).replace("ember.frame.", "pandas.")
    assert got == _info(pdf[num])
    tm.assert_series_equal(df[num].memory_usage().to_pandas(), pdf[num].memory_usage())
    assert df["a"].memory_usage() == pdf["a"].memory_usage()
    assert _info(df["f"]).replace("ember.frame.", "pandas.") == _info(pdf["f"])
    full = _info(df)   # nullable and string columns: ember's own buffer sizes
    assert "4   s       6 non-null      str" in full
    assert "dtypes: Int64(1), bool(1), float64(1), int64(1), str(1)" in full


def test_pipe_equals(pair, device):
    pdf, df = pair
    assert df.pipe(lambda d, k: d[k].sum(), "a") == pdf["a"].sum()
    assert df.pipe((lambda x, data: len(data), "data"), 1) == 7
    assert df.equals(df.copy())
    assert df["f"].equals(df["f"])
    assert not df.equals(df.drop(columns=["a"]))
    other = pdf.copy()
    other.loc[12, "s"] = "zz"
    assert not df.equals(ef.from_pandas(other, device=device))
    assert not df["a"].equals(df["a"].astype("float64"))
    assert not df.equals(pdf)


def test_any_all(pair):
    pdf, df = pair
    num = ["a", "f", "I", "b"]
    for how in ("any", "all"):
        tm.assert_series_equal(getattr(df[num], how)().to_pandas(),
                               getattr(pdf[num], how)())
        tm.assert_series_equal(getattr(df[num], how)(axis=1).to_pandas(),
                               getattr(pdf[num], how)(axis=1))
        tm.assert_series_equal(getattr(df, how)(bool_only=True).to_pandas(),
                               getattr(pdf, how)(bool_only=True))
    z = pd.DataFrame({"x": [0.0, np.nan], "y": [0, 0]})
    tm.assert_series_equal(ef.from_pandas(z).any().to_pandas(), z.any())
    tm.assert_series_equal(ef.from_pandas(z).all().to_pandas(), z.all())


def test_frame_mode(pair):
    pdf, df = pair
    cols = ["a", "f", "I", "s"]
    tm.assert_frame_equal(df[cols].mode().to_pandas(), pdf[cols].mode())
    tm.assert_frame_equal(df[["a", "f"]].mode(dropna=False).to_pandas(),
                          pdf[["a", "f"]].mode(dropna=False))
    tm.assert_frame_equal(df[["a", "f", "s"]].mode(numeric_only=True).to_pandas(),
                          pdf[["a", "f", "s"]].mode(numeric_only=True))


def test_edges(device):
    e = pd.DataFrame({"x": pd.Series([], dtype="float64"),
                      "y": pd.Series([], dtype="int64")})
    one = pd.DataFrame({"x": [2.5], "y": [7]}, index=["r"])
    nul = pd.DataFrame({"x": [np.nan, np.nan, np.nan], "y": [1, 2, 3]})
    for p in (e, one, nul):
        d = ef.from_pandas(p, device=device)
        tm.assert_frame_equal(d.nlargest(2, "y").to_pandas(), p.nlargest(2, "y"))
        tm.assert_frame_equal(d.nsmallest(2, "x").to_pandas(), p.nsmallest(2, "x"))
        tm.assert_frame_equal(d.rank().to_pandas(), p.rank())
        tm.assert_series_equal(d.quantile(0.5).to_pandas(), p.quantile(0.5))
        tm.assert_frame_equal(d.quantile([0.5]).to_pandas(), p.quantile([0.5]))
        tm.assert_series_equal(d.median().to_pandas(), p.median())
        tm.assert_frame_equal(d.corr().to_pandas(), p.corr())
        tm.assert_frame_equal(d.cov().to_pandas(), p.cov())
        tm.assert_frame_equal(d.clip(0, 2).to_pandas(), p.clip(0, 2))
        tm.assert_frame_equal(d.round(1).to_pandas(), p.round(1))
        tm.assert_frame_equal(d.abs().to_pandas(), p.abs())
        tm.assert_series_equal(d.any().to_pandas(), p.any())
        tm.assert_series_equal(d.all().to_pandas(), p.all())
        assert repr(d.to_dict("records")) == repr(p.to_dict("records"))
        assert d.equals(ef.from_pandas(p, device=device))
        assert len(d.sample(frac=1, random_state=0)) == len(p)
        tm.assert_series_equal(d["y"].mode().to_pandas(), p["y"].mode())
        tm.assert_series_equal(d["x"].mode().to_pandas(), p["x"].mode())
    d = ef.from_pandas(one, device=device)
    assert d["x"].idxmax() == "r"
    assert d["x"].quantile(0.5) == 2.5
    with pytest.raises(TypeError):
        ef.Series(["a", "b"], device=device).nlargest(1)


def test_many_rows(device):
    rng = np.random.default_rng(5)
    n = 3000
    p = pd.DataFrame({"k": rng.integers(0, 50, n), "v": rng.normal(size=n).round(1),
                      "w": rng.integers(-5, 5, n).astype("float64")})
    p.loc[rng.integers(0, n, 200), "v"] = np.nan
    d = ef.from_pandas(p, device=device)
    for keep in ("first", "last", "all"):
        tm.assert_frame_equal(d.nlargest(40, ["k", "v"], keep=keep).to_pandas(),
                              p.nlargest(40, ["k", "v"], keep=keep))
        tm.assert_series_equal(d["v"].nsmallest(100, keep=keep).to_pandas(),
                               p["v"].nsmallest(100, keep=keep))
    for method in ("average", "dense", "first"):
        tm.assert_frame_equal(d.rank(method=method, pct=True).to_pandas(),
                              p.rank(method=method, pct=True))
    tm.assert_frame_equal(d.quantile([0.01, 0.5, 0.99]).to_pandas(),
                          p.quantile([0.01, 0.5, 0.99]))
    tm.assert_frame_equal(d.corr().to_pandas(), p.corr())
    tm.assert_frame_equal(d.corr("spearman").to_pandas(), p.corr("spearman"))
    tm.assert_series_equal(d["k"].mode().to_pandas(), p["k"].mode())
    tm.assert_series_equal(d.idxmax().to_pandas(), p.idxmax())
