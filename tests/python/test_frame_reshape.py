"""melt, query/eval, where/mask, between, DataFrame.isin and the HTML repr
against pandas on the same data."""
import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")
ef = ember.frame
tm = pd.testing


@pytest.fixture
def pair(device):
    pdf = pd.DataFrame({"k": [3, 1, 2, 1, 5, 0], "x": [1.5, np.nan, 2.0, 0.5, -1.0, 9.0],
                        "y": [7, 8, 9, 10, 11, 12],
                        "I": pd.array([1, None, 3, 4, None, 6], dtype="Int64"),
                        "flag": [True, False, True, True, False, False],
                        "s": ["x", None, "yé", "x", "", "日本"]},
                       index=pd.Index([10, 11, 12, 13, 14, 15]))
    return pdf, ef.from_pandas(pdf, device=device)


def test_melt(pair):
    pdf, df = pair
    cases = [dict(id_vars="k", value_vars=["x", "y"]), dict(id_vars=["k", "s"], value_vars=["x", "y"]),
             dict(id_vars="k", value_vars=["I", "y"]), dict(value_vars=["s"]),
             dict(id_vars=["k"], value_vars=[]), dict(id_vars="s", value_vars="x",
                                                      var_name="v", value_name="w"),
             dict(id_vars="k", value_vars=["x", "y"], ignore_index=False)]
    for kw in cases:
        tm.assert_frame_equal(ef.melt(df, **kw).to_pandas(), pd.melt(pdf, **kw))
        tm.assert_frame_equal(df.melt(**kw).to_pandas(), pdf.melt(**kw))
    two = pdf.assign(s2=pdf["s"].iloc[::-1].to_numpy())
    tm.assert_frame_equal(ef.from_pandas(two, device=df._device()).melt(
        "k", ["s", "s2"]).to_pandas(), two.melt("k", ["s", "s2"]))
    sliced = pa.table({"k": [0, 1, 2, 3], "a": ["p", "qé", None, "r"],
                       "b": ["", "s", "tt", None]}).slice(1, 3)
    tm.assert_frame_equal(ef.from_arrow(sliced, device=df._device()).melt("k").to_pandas(),
                          sliced.to_pandas().melt("k"))
    e = pdf.iloc[:0]
    tm.assert_frame_equal(ef.from_pandas(e, device=df._device()).melt("k", ["x", "I"])
                          .to_pandas(), e.melt("k", ["x", "I"]))
    with pytest.raises(KeyError, match="not present"):
        df.melt(id_vars=["zz"])
    with pytest.raises(ValueError, match="value_name"):
        df.melt(id_vars="k", value_name="x")
    with pytest.raises(NotImplementedError, match="object"):
        df.melt(value_vars=["x", "flag"])


def test_query(pair):
    pdf, df = pair
    lim, names = 2, ["x", "日本"]
    assert lim and names   # read by the queries' @lim and @names
    for q in ["k > 1", "k > 1 & y < 11", "k > 1 and y < 11 or x != x", "not k == 1",
              "~(k == 1) | (x >= 2)", "k in [1, 5]", "k not in [1, 5]", "k == [0, 3]",
              "s == 'x'", "s in @names", "k > @lim", "k * 2 + 1 > y - 5", "1 < k < 5",
              "x / k > 0.5", "flag", "I > 2", "index > 12", "k ** 2 // 3 % 2 == 1"]:
        tm.assert_frame_equal(df.query(q).to_pandas(), pdf.query(q))
    tm.assert_series_equal(df.eval("k * 2 + y").to_pandas(), pdf.eval("k * 2 + y"))
    tm.assert_frame_equal(df.eval("z = k * x").to_pandas(), pdf.eval("z = k * x"))
    tm.assert_frame_equal(df.eval("k = -k").to_pandas(), pdf.eval("k = -k"))
    assert "z" not in df
    with pytest.raises(NotImplementedError, match="several"):
        df.eval("a = 1\nb = 2")
    out = df.copy()
    assert out.query("k > 1", inplace=True) is None
    tm.assert_frame_equal(out.to_pandas(), pdf.query("k > 1"))
    spaced = pd.DataFrame({"a b": [1, 2, 3]})
    tm.assert_frame_equal(ef.from_pandas(spaced, device=df._device()).query(
        "`a b` >= 2").to_pandas(), spaced.query("`a b` >= 2"))
    with pytest.raises(NameError):
        df.query("zz > 1")
    with pytest.raises(NotImplementedError, match="Call"):
        df.query("k.abs() > 1")
    with pytest.raises(ValueError):
        df.query("")


def test_where_mask_series(pair):
    pdf, df = pair
    for col in ["k", "x", "I", "s", "flag"]:
        cond = pdf["k"] > 1
        ecnd = df["k"] > 1
        if col != "flag":
            tm.assert_series_equal(df[col].where(ecnd).to_pandas(), pdf[col].where(cond))
            tm.assert_series_equal(df[col].mask(ecnd).to_pandas(), pdf[col].mask(cond))
        other = {"k": -1, "x": 0.25, "I": 0, "s": "none", "flag": False}[col]
        tm.assert_series_equal(df[col].where(ecnd, other).to_pandas(),
                               pdf[col].where(cond, other))
        tm.assert_series_equal(df[col].mask(ecnd, df[col]).to_pandas(),
                               pdf[col].mask(cond, pdf[col]))
    tm.assert_series_equal(df["k"].where(df["k"] >= 0).to_pandas(),
                           pdf["k"].where(pdf["k"] >= 0))      # all kept: int64 stays
    tm.assert_series_equal(df["k"].where(lambda s: s > 2, 2.5).to_pandas(),
                           pdf["k"].where(lambda s: s > 2, 2.5))
    tm.assert_series_equal(df["k"].where(df["k"] > 2, 2.0).to_pandas(),
                           pdf["k"].where(pdf["k"] > 2, 2.0))
    tm.assert_series_equal(df["x"].where(df["I"] > 2).to_pandas(),   # NA reads False
                           pdf["x"].where(pdf["I"] > 2))
    tm.assert_series_equal(df["x"].mask(df["I"] > 2).to_pandas(),
                           pdf["x"].mask(pdf["I"] > 2))
    tm.assert_series_equal(df["k"].where([True, False] * 3, df["y"]).to_pandas(),
                           pdf["k"].where([True, False] * 3, pdf["y"]))
    # a condition or other of another index aligns: a label it lacks replaces the row
    pc = pd.Series([True, False, True, True, False], index=[15, 12, 11, 10, 99])
    po = pd.Series([100, 200, 300], index=[14, 10, 11])
    ec, eo = (ef.from_pandas(x, device=df["k"].device) for x in (pc, po))
    for col in ("k", "x", "I", "s"):
        tm.assert_series_equal(df[col].where(ec).to_pandas(), pdf[col].where(pc))
        tm.assert_series_equal(df[col].mask(ec).to_pandas(), pdf[col].mask(pc))
    tm.assert_series_equal(df["k"].where(ec, eo).to_pandas(), pdf["k"].where(pc, po))
    tm.assert_series_equal(df["x"].mask(ec, eo).to_pandas(), pdf["x"].mask(pc, po))
    for dt, o in [("uint8", -1), ("int8", 1000), ("uint8", 300), ("int16", -5),
                  ("uint64", 5), ("float32", 0.1), ("int32", 2.0)]:
        p = pd.Series(np.array([1, 2, 3], dtype=dt))
        tm.assert_series_equal(ef.Series(p.to_numpy(), device=df["k"].device)
                               .where([True, False, True], o).to_pandas(),
                               p.where([True, False, True], o))
    t = pd.Series(pd.to_datetime(["2020-01-01", None, "2021-05-05", "2022-02-02", None,
                                  "1999-12-31"]), index=pdf.index)
    et = ef.from_pandas(t, device=df["k"].device)
    for other in (None, pd.Timestamp("2000-01-01")):
        tm.assert_series_equal(et.where(df["k"] > 1, other).to_pandas(),
                               t.where(pdf["k"] > 1, other))
    with pytest.raises(ValueError, match="same shape"):
        df["k"].where([True, False])
    with pytest.raises(TypeError, match="Boolean array expected"):
        df["k"].where(df["y"])
    with pytest.raises(TypeError, match="Invalid value"):
        df["I"].where(df["k"] > 1, 2.5)


def test_where_mask_frame(pair):
    pdf, df = pair
    num = ["k", "x", "y", "I"]
    p, e = pdf[num], df[num]
    big = ef.from_pandas(p > 2, device=e._device())
    neg = ef.from_pandas(-p, device=e._device())
    tm.assert_frame_equal(e.where(big).to_pandas(), p.where(p > 2))
    tm.assert_frame_equal(e.mask(big, 0).to_pandas(), p.mask(p > 2, 0))
    tm.assert_frame_equal(e.where(big[["k", "x"]]).to_pandas(), p.where(p[["k", "x"]] > 2))
    tm.assert_frame_equal(e.where(big, neg).to_pandas(), p.where(p > 2, -p))
    tm.assert_frame_equal(e.where(lambda d: big).to_pandas(), p.where(lambda d: d > 2))
    grid = np.arange(24).reshape(6, 4) % 3 == 0
    tm.assert_frame_equal(e.where(grid).to_pandas(), p.where(grid))
    out = e.copy()
    out.where(big, 0, inplace=True)
    tm.assert_frame_equal(out.to_pandas(), p.where(p > 2, 0))
    shuffled = ef.from_pandas((p > 2).iloc[[3, 0, 5, 1]], device=e._device())
    tm.assert_frame_equal(e.where(shuffled).to_pandas(), p.where((p > 2).iloc[[3, 0, 5, 1]]))
    tm.assert_frame_equal(e.mask(shuffled, neg.iloc[2:]).to_pandas(),
                          p.mask((p > 2).iloc[[3, 0, 5, 1]], (-p).iloc[2:]))
    with pytest.raises(ValueError):
        e.where(e["k"] > 1)


def test_between_isin(pair):
    pdf, df = pair
    for inc in ("both", "neither", "left", "right"):
        for col in ("k", "x", "I"):
            tm.assert_series_equal(df[col].between(1, 3, inclusive=inc).to_pandas(),
                                   pdf[col].between(1, 3, inclusive=inc))
    with pytest.raises(ValueError, match="Inclusive"):
        df["k"].between(1, 2, inclusive="all")
    num = ["k", "x", "y", "s"]
    for values in ([1, 2.0, "x", 9], {"k": [1, 5], "s": ["日本"]}, []):
        tm.assert_frame_equal(df[num].isin(values).to_pandas(), pdf[num].isin(values))
    other = pdf[["k", "y"]] * 1
    other.iloc[0, 0] = 99
    tm.assert_frame_equal(df[num].isin(ef.from_pandas(other, device=df._device()))
                          .to_pandas(), pdf[num].isin(other))
    tm.assert_frame_equal(df[["k", "y"]].isin(df["k"]).to_pandas(),
                          pdf[["k", "y"]].isin(pdf["k"]))
    with pytest.raises(TypeError, match="list-like"):
        df.isin("x")


def test_repr_html(device):
    for n in (0, 1, 7, 60, 61, 200):
        pdf = pd.DataFrame({"a": np.arange(n), "é": np.arange(n) / 4,
                            "s": [f"r{i}" for i in range(n)]}, index=np.arange(n) * 2)
        df = ef.from_pandas(pdf, device=device)
        assert df._repr_html_() == pdf._repr_html_()
        assert df["a"]._repr_html_() is None      # pandas: Series show as text


def test_one_row_as_series(pair, device):
    pdf, df = pair
    for cols in (["k", "x", "y"], ["k", "y"], ["I", "x"], ["s"], ["flag"]):
        p, e = pdf[cols], df[cols]
        for i in (0, 3, -1):
            tm.assert_series_equal(e.iloc[i].to_pandas(), p.iloc[i])
        tm.assert_series_equal(e.loc[12].to_pandas(), p.loc[12])
    with pytest.raises(NotImplementedError, match="object Series"):
        df.iloc[0]
    with pytest.raises(IndexError):
        df.iloc[6]
    with pytest.raises(KeyError):
        df.loc[99]


def test_arithmetic_alignment(device):
    import operator
    cases = [(pd.Series([1, 2, 3], index=[0, 1, 2]), pd.Series([10.0, 20.0], index=[2, 5])),
             (pd.Series([1, 2, 3], index=["b", "a", "日"], name="x"),
              pd.Series([10, 20], index=["日", "z"], name="x")),
             (pd.Series(pd.array([1, None, 3], dtype="Int64"), index=[3, 1, 2]),
              pd.Series([1, 2, 3, 4], index=pd.Index([4, 3, 2, 1], name="i"))),
             (pd.Series([], dtype="int64"), pd.Series([1, 2], index=[7, 5])),
             (pd.Series([1.5, 2.5], index=[9, 8]), pd.Series([], dtype="float64")),
             (pd.Series([1, 2, 3]), pd.Series([1, 2])),
             (pd.Series(np.arange(500) % 7, index=np.arange(500) * 3),
              pd.Series(np.arange(400) % 5, index=np.arange(400)[::-1] * 2))]
    for p1, p2 in cases:
        e1, e2 = ef.from_pandas(p1, device=device), ef.from_pandas(p2, device=device)
        for op in (operator.add, operator.sub, operator.mul, operator.truediv,
                   operator.floordiv, operator.pow):
            tm.assert_series_equal(op(e1, e2).to_pandas(), op(p1, p2))
    with pytest.raises(ValueError, match="identically-labeled"):
        ef.Series([1, 2]) == ef.Series([1, 2], index=[1, 2])
    with pytest.raises(NotImplementedError, match="duplicate"):
        ef.Series([1, 2], index=[1, 1]) + ef.Series([1, 2, 3])
