"""ember.frame's MultiIndex against pandas on the same data: the
constructors and attributes, groupby by several keys with as_index=True,
set_index/reset_index, loc by tuples, sort_index, pivot_table of several
index keys, stack/unstack, and the pandas exchange, on every device."""
import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
ef = ember.frame
tm = pd.testing

from test_frame_groupby import AGGS, _both, _same  # noqa: E402  (pandas first)


def _pdf():
    return pd.DataFrame({
        "k": [2, 1, 2, 3, 1, 2, 3, 1],
        "ks": ["b", "a", None, "日本", "a", "b", None, "é"],
        "kI": pd.array([3, None, 3, 1, None, 1, 2, 3], dtype="Int64"),
        "kt": pd.to_datetime(["2024-01-02", "2024-01-01", "2024-01-02", "NaT",
                              "2024-01-01", "2024-01-03", "NaT", "2024-01-01"]),
        "kc": pd.Categorical(["p", "q", "p", "r", "q", "p", "r", "q"]),
        "v": [1, 5, 3, 4, 2, 6, 7, -8],
        "f": [1.5, np.nan, 2.5, -1.0, 0.0, np.nan, 3.0, 4.0],
        "I": pd.array([1, None, 3, None, 5, 6, None, 8], dtype="Int64"),
        "s": ["x", None, "yé", "x", "", "日本", "z", "x"],
    }, index=pd.RangeIndex(10, 18))


@pytest.fixture
def pair(device):
    pdf = _pdf()
    return pdf, ef.from_pandas(pdf, device=device)


# ---- the MultiIndex itself

def test_constructors(device):
    arrays = [["b", "a", "b", "日本"], [2, 1, 1, 2]]
    mi = ef.MultiIndex.from_arrays(arrays, names=["x", "y"], device=device)
    pm = pd.MultiIndex.from_arrays(arrays, names=["x", "y"])
    _same(mi, pm)
    assert mi.nlevels == 2 and len(mi) == 4 and mi.names == ["x", "y"]
    for lev, plev in zip(mi.levels, pm.levels):
        tm.assert_index_equal(lev.to_pandas(), plev)
    for c, pc in zip(mi.codes, pm.codes):
        np.testing.assert_array_equal(ember.asnumpy(c), pc)
        assert str(c.dtype) == str(pc.dtype)
    tuples = [("a", 1), ("b", 2), ("a", 2)]
    _same(ef.MultiIndex.from_tuples(tuples, device=device),
          pd.MultiIndex.from_tuples(tuples))
    prod = [["a", "b", "c"], [1, 2]]
    _same(ef.MultiIndex.from_product(prod, names=["p", "q"], device=device),
          pd.MultiIndex.from_product(prod, names=["p", "q"]))
    _same(ef.MultiIndex(levels=[["a", "b"], [1, 2, 3]], codes=[[0, 1, 1], [2, 0, 1]],
                        device=device),
          pd.MultiIndex(levels=[["a", "b"], [1, 2, 3]], codes=[[0, 1, 1], [2, 0, 1]]))
    pdf = pd.DataFrame({"a": ["x", "y"], "b": [1.5, 2.5]})
    _same(ef.MultiIndex.from_frame(ef.from_pandas(pdf, device=device)),
          pd.MultiIndex.from_frame(pdf))
    with pytest.raises(ValueError):
        ef.MultiIndex.from_arrays([[1, 2], [1]], device=device)
    with pytest.raises(TypeError):
        ef.MultiIndex.from_tuples([])
    with pytest.raises(ValueError, match="Length of names"):
        ef.MultiIndex.from_arrays(arrays, names=["x"], device=device)


def test_levels_and_names(pair):
    pdf, df = pair
    pm = pdf.set_index(["ks", "k", "kI"]).index
    mi = df.set_index(["ks", "k", "kI"]).index
    _same(mi, pm)
    for i in range(3):
        _same(mi.get_level_values(i), pm.get_level_values(i))
        tm.assert_index_equal(mi.levels[i].to_pandas(), pm.levels[i])
        np.testing.assert_array_equal(ember.asnumpy(mi.codes[i]), pm.codes[i])
    _same(mi.get_level_values("k"), pm.get_level_values("k"))
    _same(mi.droplevel(0), pm.droplevel(0))
    _same(mi.droplevel([0, "kI"]), pm.droplevel([0, "kI"]))
    _same(mi.swaplevel(0, 2), pm.swaplevel(0, 2))
    _same(mi.reorder_levels([2, 0, 1]), pm.reorder_levels([2, 0, 1]))
    _same(mi.set_names(["p", "q", "r"]), pm.set_names(["p", "q", "r"]))
    _same(mi.set_names("z", level=1), pm.set_names("z", level=1))
    _same(mi.rename(["p", None, "r"]), pm.rename(["p", None, "r"]))
    tm.assert_frame_equal(mi.to_frame().to_pandas(), pm.to_frame())
    tm.assert_frame_equal(mi.to_frame(index=False).to_pandas(), pm.to_frame(index=False))
    assert mi.tolist() == pm.tolist()
    assert repr(mi) == repr(pm)
    with pytest.raises(KeyError):
        mi.get_level_values("nope")
    with pytest.raises(IndexError):
        mi.get_level_values(5)
    with pytest.raises(ValueError):
        mi.droplevel([0, 1, 2])


def test_select_and_compare(pair):
    pdf, df = pair
    pm = pdf.set_index(["ks", "k"]).index
    mi = df.set_index(["ks", "k"]).index
    assert mi[1] == pm[1]
    _same(mi[2:5], pm[2:5])
    _same(mi[::-2], pm[::-2])
    mask = np.array([True, False] * 4)
    _same(mi[mask], pm[mask])
    _same(mi.take(ember.asarray([3, 0, 0], device=df._device())), pm.take([3, 0, 0]))
    assert mi.equals(mi.take(ember.arange(8, device=df._device())))
    assert not mi.equals(mi[::-1])
    assert not mi.equals(df.set_index(["ks", "v"]).index)
    _same(mi.sort_values(), pm.sort_values())
    np.testing.assert_array_equal(ember.asnumpy(mi.duplicated()), pm.duplicated())
    assert mi.is_unique == pm.is_unique
    assert ("a", 1) in mi and ("a", 2) not in mi
    for vals, level in (([("a", 1), ("日本", 3), ("q", 1)], None), ([], None),
                        (["a", "b"], 0), ([1], "k")):
        np.testing.assert_array_equal(ember.asnumpy(mi.isin(vals, level=level)),
                                      pm.isin(vals, level=level))


def test_pandas_round_trip(pair):
    pdf, df = pair
    for keys in (["ks", "k"], ["kt", "kI", "kc"], ["k", "v"]):
        p = pdf.set_index(keys)
        e = ef.from_pandas(p, device=df._device())
        tm.assert_frame_equal(e.to_pandas(), p)
        tm.assert_series_equal(ef.from_pandas(p["f"], device=df._device()).to_pandas(),
                               p["f"])
        tm.assert_frame_equal(df.set_index(keys).to_pandas(), p)


# ---- groupby by several keys

@pytest.mark.parametrize("how", AGGS)
def test_groupby_reductions(pair, how):
    pdf, df = pair
    for keys in (["k", "ks"], ["ks", "kI"], ["kc", "k"], ["kt", "k", "ks"]):
        for sort in (True, False):
            for dropna in (True, False):
                def f(d):
                    g = d.groupby(keys, sort=sort, dropna=dropna)
                    if how == "size":
                        return g.size()
                    if how in ("sum", "mean", "std", "var", "median", "prod"):
                        return getattr(g[["v", "f", "I"]], how)()
                    return getattr(g[["v", "f", "I", "s"]], how)()
                _both(f, pdf, df)
                _both(lambda d: getattr(d.groupby(keys, sort=sort, dropna=dropna)["f"],
                                        how)(), pdf, df)


def test_groupby_agg(pair):
    pdf, df = pair
    keys = ["ks", "k"]
    _both(lambda d: d.groupby(keys).agg({"v": "sum", "f": "mean", "s": "first"}),
          pdf, df)
    _both(lambda d: d.groupby(keys).agg(total=("v", "sum"), n=("s", "count")), pdf, df)
    _both(lambda d: d.groupby(keys)["f"].agg(["min", "max"]), pdf, df)
    _both(lambda d: d.groupby(keys)["f"].agg(lo="min", hi="max"), pdf, df)
    _both(lambda d: d.groupby(keys)[["v", "f"]].aggregate("mean"), pdf, df)
    _both(lambda d: d.groupby(keys).nunique(), pdf, df)
    _both(lambda d: d.groupby(keys)["v"].count(), pdf, df)
    _both(lambda d: d.groupby(keys, sort=False)["v"].sum().reset_index(), pdf, df)
    _both(lambda d: d.groupby(keys).sum(numeric_only=True).reset_index(), pdf, df)
    _both(lambda d: d.groupby(keys)[["v"]].transform("sum"), pdf, df)
    _both(lambda d: d.groupby(keys)["v"].cumsum(), pdf, df)
    assert df.groupby(keys).ngroups == pdf.groupby(keys).ngroups
    _both(lambda d: d.groupby(keys)[["v", "f"]].agg(["sum", "mean"]), pdf, df)


def test_groupby_many_groups_and_empty(device):
    rng = np.random.default_rng(3)
    n = 20000
    pdf = pd.DataFrame({"a": rng.integers(0, 300, n), "b": rng.integers(-5, 5, n),
                        "c": rng.choice(["x", "y", "zé"], n), "v": rng.random(n)})
    df = ef.from_pandas(pdf, device=device)
    _both(lambda d: d.groupby(["a", "b", "c"]).sum(), pdf, df)
    _both(lambda d: d.groupby(["c", "a"], sort=False)["v"].mean(), pdf, df)
    _both(lambda d: d.groupby(["a", "b"]).size().reset_index(), pdf, df)
    one = pdf.iloc[:1]
    _both(lambda d: d.groupby(["a", "c"]).max(), one, ef.from_pandas(one, device=device))
    empty = pdf.iloc[:0]
    e = ef.from_pandas(empty, device=device)
    r = e.groupby(["a", "c"]).sum()
    p = empty.groupby(["a", "c"]).sum()
    assert len(r) == 0 and list(r.columns) == list(p.columns)
    assert r.index.names == list(p.index.names)


# ---- frames and series indexed by a MultiIndex

def test_set_reset_index(pair):
    pdf, df = pair
    _both(lambda d: d.set_index(["ks", "k"]), pdf, df)
    _both(lambda d: d.set_index(["ks", "k"], drop=False), pdf, df)
    _both(lambda d: d.set_index(["ks", "k"]).reset_index(), pdf, df)
    _both(lambda d: d.set_index(["ks", "k"]).reset_index(drop=True), pdf, df)
    _both(lambda d: d.set_index(["ks", "k"])["v"].reset_index(), pdf, df)
    _both(lambda d: d.set_index(["ks", "k"])["v"].reset_index(name="w"), pdf, df)
    _both(lambda d: d.set_index(["ks", "k"])["v"].reset_index(name="k"), pdf, df)
    _both(lambda d: d.set_index(["ks", "nope"]), pdf, df)
    p = pdf.set_index(["ks", "k"])
    p.index = p.index.set_names([None, None])
    e = ef.from_pandas(p, device=df._device())
    tm.assert_frame_equal(e.reset_index().to_pandas(), p.reset_index())


def test_sort_index(pair):
    pdf, df = pair
    keys = ["ks", "k"]
    _both(lambda d: d.set_index(keys).sort_index(), pdf, df)
    _both(lambda d: d.set_index(keys).sort_index(ascending=False), pdf, df)
    _both(lambda d: d.set_index(keys).sort_index(na_position="first"), pdf, df)
    _both(lambda d: d.set_index(keys).sort_index(level=1), pdf, df)
    _both(lambda d: d.set_index(keys).sort_index(level="k", sort_remaining=False),
          pdf, df)
    _both(lambda d: d.set_index(["k", "kI"])["f"].sort_index(), pdf, df)
    _both(lambda d: d.set_index(keys).sort_index(ascending=[False, True]), pdf, df)
    _both(lambda d: d.set_index(["k", "kI"]).sort_index(level=1, ascending=False), pdf, df)
    _both(lambda d: d.set_index(keys).sort_index(level="nope"), pdf, df)


def test_loc(pair):
    pdf, df = pair
    cols = ["ks", "k", "v", "f", "I"]
    p, e = pdf[cols].set_index(["ks", "k"]), df[cols].set_index(["ks", "k"])
    for key in [("a", 1), ("é", 1), ("b", 2), "a", ("日本",), [("b", 2), ("a", 1)]]:
        _same(e.loc[key], p.loc[key])
    _same(e.loc[("é", 1), "v"], p.loc[("é", 1), "v"])
    _same(e.loc[("a", 1), ["v", "f"]], p.loc[("a", 1), ["v", "f"]])
    assert e["v"].loc[("日本", 3)] == p["v"].loc[("日本", 3)]
    _same(e["v"].loc["b"], p["v"].loc["b"])
    with pytest.raises(KeyError):
        e.loc[("a", 7)]
    with pytest.raises(KeyError):
        e.loc[[("a", 1), ("q", 1)]]
    _same(e.iloc[2:5], p.iloc[2:5])
    _same(e.head(3), p.head(3))
    _same(e[e["v"] > 2], p[p["v"] > 2])
    _same(e.iloc[1], p.iloc[1])


# ---- reshaping

def _pivot(**kw):
    def f(d):
        return d.pivot_table(**kw)
    return f


def test_pivot_table_several_index_keys(pair):
    pdf, df = pair
    _both(_pivot(values="v", index=["kc", "k"], columns="ks", aggfunc="sum"), pdf, df)
    _both(_pivot(values="f", index=["k", "kI"], columns="ks"), pdf, df)
    _both(_pivot(values="v", index=["ks", "k"], columns="k", aggfunc="sum",
                 fill_value=0), pdf, df)
    _both(_pivot(values="v", index=["ks", "k"], aggfunc="max"), pdf, df)
    _both(_pivot(values="v", index=["ks", "kt"], columns="k", aggfunc="count"), pdf, df)
    with pytest.raises(NotImplementedError, match="dropna=False"):
        df.pivot_table(values="v", index=["ks", "kt"], columns="k", dropna=False)
    _both(_pivot(values="f", index=("kc", "kI", "ks"), columns="k", aggfunc="first"),
          pdf, df)
    _both(_pivot(values="v", index="kc", columns=["ks", "k"]), pdf, df)   # MultiIndex columns


def _unstack(f, **kw):
    def g(d):
        return f(d).unstack(**kw)
    return g


def test_unstack(pair):
    pdf, df = pair
    _both(_unstack(lambda d: d.groupby(["ks", "k"])["v"].sum()), pdf, df)
    with pytest.raises(NotImplementedError, match="null labels"):
        df.groupby(["ks", "k"], dropna=False)["v"].sum().unstack()
    _both(_unstack(lambda d: d.groupby(["kc", "k"])["f"].mean()), pdf, df)
    _both(_unstack(lambda d: d.groupby(["k", "ks"])["I"].sum()), pdf, df)
    _both(_unstack(lambda d: d.groupby(["kt", "kc", "k"])["v"].max()), pdf, df)
    _both(_unstack(lambda d: d.groupby(["ks", "k"])["v"].sum(), fill_value=0), pdf, df)
    _both(_unstack(lambda d: d.groupby(["k", "ks"])["s"].first()), pdf, df)
    _both(_unstack(lambda d: d.set_index(["kc", "k"])["v"]), pdf, df)   # duplicates
    _both(_unstack(lambda d: d.set_index(["ks", "v"])["f"].iloc[:1]), pdf, df)
    _both(_unstack(lambda d: d.groupby(["ks", "k"])["v"].sum(), level=0), pdf, df)
    _both(_unstack(lambda d: d.groupby(["kc", "k", "ks"])["v"].sum(), level="k"), pdf, df)
    _both(_unstack(lambda d: d.groupby(["kt", "k", "ks"])["f"].max(), level=1), pdf, df)
    with pytest.raises(NotImplementedError, match="datetime"):
        df.groupby(["kt", "k"])["f"].max().unstack(level=0)
    with pytest.raises(NotImplementedError, match="MultiIndex"):
        df.groupby(["k", "ks"])[["v"]].sum().unstack()
    with pytest.raises(ValueError):
        df["v"].unstack()


def test_stack(pair):
    pdf, df = pair
    for cols in (["v", "f"], ["I"], ["s"], ["kt"]):
        _both(lambda d: d[cols].stack(), pdf, df)
        _both(lambda d: d.set_index(["ks", "k"])[cols].stack(), pdf, df)
    wide = _unstack(lambda d: d.groupby(["ks", "k"])["v"].sum())
    _both(lambda d: wide(d).stack(), pdf, df)
    _both(lambda d: d[["v", "f"]].iloc[:0].stack(), pdf, df)
    with pytest.raises(NotImplementedError, match="object"):
        df[["v", "I"]].stack()


def test_levels_of_frames(pair):
    pdf, df = pair
    cols = ["ks", "k", "kI", "v", "f"]
    p, e = pdf[cols].set_index(["ks", "k", "kI"]), df[cols].set_index(["ks", "k", "kI"])
    _both(lambda d: d.xs("a"), p, e)
    _both(lambda d: d.xs(("b", 2)), p, e)
    _both(lambda d: d.xs("a", drop_level=False), p, e)
    _both(lambda d: d.xs(2, level="k"), p, e)
    _both(lambda d: d.xs(2, level=1, drop_level=False), p, e)
    _both(lambda d: d.xs((2, 3), level=["k", "kI"]), p, e)
    _both(lambda d: d["v"].xs(1, level="k"), p, e)
    _both(lambda d: d.xs(9, level="k"), p, e)
    _both(lambda d: d.droplevel("k"), p, e)
    _both(lambda d: d.droplevel([0, 2]), p, e)
    _both(lambda d: d["f"].droplevel(0), p, e)
    _both(lambda d: d.swaplevel(0, 2), p, e)
    _both(lambda d: d["v"].swaplevel(), p, e)
    _both(lambda d: d.reorder_levels(["kI", "ks", "k"]), p, e)
    _both(lambda d: d.set_index("k").xs(2), pdf[["k", "v", "f"]],
          df[["k", "v", "f"]])
    with pytest.raises(NotImplementedError, match="MultiIndex"):
        e.T
    p.index = p.index.set_names(["x", "y", "z"])
    e.index = e.index.set_names(["x", "y", "z"])
    _same(e, p)
    e2, p2 = df[["v"]], pdf[["v"]]
    e2.index = ef.MultiIndex.from_arrays([df["ks"], df["k"]])
    p2.index = pd.MultiIndex.from_arrays([pdf["ks"], pdf["k"]])
    _same(e2, p2)


def test_groupby_level(pair):
    pdf, df = pair
    cols = ["ks", "k", "kI", "v", "f"]
    p, e = pdf[cols].set_index(["ks", "k", "kI"]), df[cols].set_index(["ks", "k", "kI"])
    _both(lambda d: d.groupby(level=0).sum(), p, e)
    _both(lambda d: d.groupby(level="k").mean(), p, e)
    _both(lambda d: d.groupby(level=[2, 0]).max(), p, e)
    _both(lambda d: d.groupby(level=["ks", "k"], sort=False)["v"].sum(), p, e)
    _both(lambda d: d["f"].groupby(level=1).count(), p, e)
    _both(lambda d: d.groupby(level=0).sum(), pdf[["k", "v"]], df[["k", "v"]])
    _both(lambda d: d.set_index("ks").groupby(level="ks").sum(), pdf[["ks", "v"]],
          df[["ks", "v"]])
    _both(lambda d: d.groupby(level=1).sum(), pdf[["k", "v"]], df[["k", "v"]])
    _both(lambda d: d.groupby(level="nope").sum(), p, e)


def test_reset_index_level_and_groups(pair):
    pdf, df = pair
    cols = ["ks", "k", "kI", "v", "f"]
    p, e = pdf[cols].set_index(["ks", "k", "kI"]), df[cols].set_index(["ks", "k", "kI"])
    _both(lambda d: d.reset_index(level="k"), p, e)
    _both(lambda d: d.reset_index(level=[2, 0]), p, e)
    _both(lambda d: d.reset_index(level=[0, 1, 2]), p, e)
    _both(lambda d: d.reset_index(level="k", drop=True), p, e)
    _both(lambda d: d["v"].reset_index(level=1), p, e)
    _both(lambda d: d["v"].reset_index(level=[0, 1], drop=True), p, e)
    _both(lambda d: d.reset_index(level="nope"), p, e)
    _both(lambda d: d.set_index("k").reset_index(level="k"), pdf[cols], df[cols])
    _both(lambda d: d.set_index("k")["v"].reset_index(level=0, drop=True), pdf[cols],
          df[cols])
    eg, pg = df.groupby(["ks", "k"]).groups, pdf.groupby(["ks", "k"]).groups
    assert list(eg) == list(pg)
    for key in pg:
        tm.assert_index_equal(eg[key].to_pandas(), pg[key])


def test_concat(pair):
    pdf, df = pair
    a = lambda d: d.groupby(["ks", "k"])[["v", "f"]].sum()
    b = lambda d: d.set_index(["s", "v"])[["k", "f"]].rename(columns={"k": "v"})
    _both(lambda d: ef.concat([a(d), b(d)]) if isinstance(d, ef.DataFrame) else
          pd.concat([a(d), b(d)]), pdf, df)
    _both(lambda d: ef.concat([a(d)["v"], a(d)["v"].iloc[::-1]])
          if isinstance(d, ef.DataFrame) else pd.concat([a(d)["v"], a(d)["v"].iloc[::-1]]),
          pdf, df)
    with pytest.raises(NotImplementedError, match="tuples"):
        ef.concat([a(df), df[["v", "f"]]])


def test_set_by_label_and_constructors(pair):
    pdf, df = pair
    cols = ["ks", "k", "v", "f"]
    p, e = pdf[cols].set_index(["ks", "k"]), df[cols].set_index(["ks", "k"])
    p.loc[("a", 1), "f"] = 9.5
    e.loc[("a", 1), "f"] = 9.5
    p.loc["b", "v"] = 0
    e.loc["b", "v"] = 0
    _same(e, p)
    ps, es = p["f"].copy(), e["f"]
    ps.loc[("é", 1)] = -1.0
    es.loc[("é", 1)] = -1.0
    _same(es, ps)
    pm = pd.MultiIndex.from_tuples([("a", 1), ("b", 2)], names=["x", None])
    _same(ef.DataFrame({"v": [1, 2]}, index=pm, device=df._device()),
          pd.DataFrame({"v": [1, 2]}, index=pm))
    _same(ef.Series([1.5, 2.5], index=ef.from_pandas(pm, device=df._device())),
          pd.Series([1.5, 2.5], index=pm))


def test_loc_keys_of_every_dtype(pair):
    pdf, df = pair
    keys = ["ks", "kc", "kt", "kI"]
    p, e = pdf.set_index(keys)[["v", "f"]], df.set_index(keys)[["v", "f"]]
    for key in [("a", "q"), ("a", "q", pd.Timestamp("2024-01-01")), (None,),
                ("b", "p", "2024-01-02"), ("b", "p", "2024-01-02", 3), ("a", "q", 3)]:
        try:
            want = p.loc[key]
        except KeyError:
            with pytest.raises(KeyError):
                e.loc[key]
            continue
        _same(e.loc[key], want)
    for key in [(1, "a"), ("a", "zz"), ("a", "q", pd.NaT), ("a", "q", "x", 1, 2)]:
        with pytest.raises(KeyError):
            e.loc[key]
    _same(e.loc["a", "v"], p.loc["a", "v"])


def test_to_csv(pair):
    pdf, df = pair
    p = pdf.groupby(["ks", "k"])[["v", "f"]].sum()
    e = df.groupby(["ks", "k"])[["v", "f"]].sum()
    assert e.to_csv() == p.to_csv()
    assert e["v"].to_csv() == p["v"].to_csv()
    assert e.to_csv(index_label=["x", "y"]) == p.to_csv(index_label=["x", "y"])
    assert e.to_csv(header=["A", "B"]) == p.to_csv(header=["A", "B"])
    p.index = p.index.set_names([None, "k"])
    e.index = e.index.set_names([None, "k"])
    assert e.to_csv() == p.to_csv()
    assert e.to_csv(index=False) == p.to_csv(index=False)


def test_parquet(pair, tmp_path):
    pytest.importorskip("pyarrow")
    pdf, df = pair
    cols = ["ks", "k", "v", "f", "s"]
    p = pdf[cols].set_index(["ks", "k"])
    e = df[cols].set_index(["ks", "k"])
    e.to_parquet(tmp_path / "e.parquet")
    p.to_parquet(tmp_path / "p.parquet")
    for name in ("e.parquet", "p.parquet"):
        tm.assert_frame_equal(pd.read_parquet(tmp_path / name), p)
        _same(ef.read_parquet(tmp_path / name, device=df._device()), p)
    p.index = p.index.set_names([None, "k"])
    e.index = e.index.set_names([None, "k"])
    e.to_parquet(tmp_path / "n.parquet")
    tm.assert_frame_equal(pd.read_parquet(tmp_path / "n.parquet"), p)
    _same(ef.read_parquet(tmp_path / "n.parquet", device=df._device()), p)


def test_read_csv_index_col(pair, tmp_path):
    pdf, _ = pair
    path = tmp_path / "m.csv"
    pdf[["ks", "k", "v", "f"]].to_csv(path, index=False)
    for ic in ([0, 1], ["k", "ks"], [1, "v"]):
        _same(ef.read_csv(path, index_col=ic), pd.read_csv(path, index_col=ic))
    with pytest.raises(IndexError):
        ef.read_csv(path, index_col=[0, 9])
    with pytest.raises(ValueError):
        ef.read_csv(path, index_col=["k", "nope"])


def test_frame_value_counts(pair):
    pdf, df = pair
    for subset in (None, ["ks", "k"], "ks", ["k", "kI", "s"]):
        d = ["ks", "k", "kI", "s"]
        for kw in ({}, {"normalize": True}, {"ascending": True}, {"sort": False},
                   {"dropna": False}, {"normalize": True, "dropna": False}):
            _both(lambda x: x[d].value_counts(subset=subset, **kw), pdf, df)
    with pytest.raises(NotImplementedError, match="categorical"):
        df[["kc", "k"]].value_counts()


def test_to_dict(pair):
    pdf, df = pair
    p = pdf.groupby(["ks", "k"])[["v", "f"]].sum()
    e = df.groupby(["ks", "k"])[["v", "f"]].sum()
    for orient in ("dict", "list", "split", "tight", "records", "index"):
        assert e.to_dict(orient=orient) == p.to_dict(orient=orient)


def test_one_level_names(pair):
    pdf, df = pair
    for p, e in ((pdf.index, df.index), (pdf.set_index("ks").index, df.set_index("ks").index)):
        assert e.names == list(p.names) and e.nlevels == p.nlevels == 1
    e = df.set_index("ks").index
    e.names = ["z"]
    assert e.name == "z"
    with pytest.raises(ValueError):
        e.names = ["a", "b"]
