"""ember.frame's categorical columns against pandas on the same data:
construction, astype, exchange with pandas and Arrow, the .cat accessor,
nulls, comparisons, order and distinct values, on every device."""
import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")
ef = ember.frame
tm = pd.testing

STR = ["b", "a", None, "b", "日本", "a", "é", None]
CATS = ["日本", "b", "a", "é", "zz"]          # unsorted, one unused


def _cases():
    return {
        "str": pd.Series(STR, dtype="category"),
        "str_cats": pd.Series(STR, dtype=pd.CategoricalDtype(CATS)),
        "ordered": pd.Series(STR, dtype=pd.CategoricalDtype(CATS, ordered=True)),
        "int": pd.Series([3, 1, None, 3, 7, 1], dtype="category"),
        "float": pd.Series([2.5, np.nan, -1.0, 2.5], dtype="category"),
        "empty": pd.Series(["a"], dtype="category").iloc[:0],
        "one": pd.Series(["x"], dtype="category"),
        "all_null": pd.Series(["a", None], dtype="category").iloc[1:],
    }


CASES = list(_cases())


@pytest.fixture(params=CASES)
def pair(request, device):
    p = _cases()[request.param].rename("c")
    return p, ef.from_pandas(p, device=device)


def test_from_to_pandas(pair):
    p, s = pair
    assert s.dtype == "category" and s.dtype == p.dtype
    tm.assert_series_equal(s.to_pandas(), p)
    assert s.to_pandas().cat.codes.dtype == p.cat.codes.dtype
    df = ef.from_pandas(pd.DataFrame({"c": p, "i": np.arange(len(p))}))
    tm.assert_frame_equal(df.to_pandas(), pd.DataFrame({"c": p, "i": np.arange(len(p))}))


def test_codes_zero_copy_on_cpu():
    p = pd.Series(["a", "b", "a"] * 10, dtype="category")
    s = ef.from_pandas(p, device="cpu")
    assert s.to_pandas().cat.codes.tolist() == p.cat.codes.tolist()


def test_construct_and_astype(device):
    for data in (STR, [3, 1, None, 3], [2.5, None, 1.0], ["x"], [True, False, True]):
        p = pd.Series(data, dtype="category")
        tm.assert_series_equal(ef.Series(data, dtype="category", device=device).to_pandas(), p)
    pdt = pd.CategoricalDtype(CATS, ordered=True)
    tm.assert_series_equal(ef.Series(STR, dtype=pdt, device=device).to_pandas(),
                           pd.Series(STR, dtype=pdt))
    p = pd.Series(STR)
    s = ef.from_pandas(p, device=device)
    tm.assert_series_equal(s.astype("category").to_pandas(), p.astype("category"))
    for dt in (pdt, pd.CategoricalDtype(["a", "b"]), pd.CategoricalDtype(ordered=True)):
        tm.assert_series_equal(s.astype(dt).to_pandas(), p.astype(dt))
    c = s.astype("category")
    tm.assert_series_equal(c.astype(str).to_pandas(), p.astype("category").astype(str))
    tm.assert_series_equal(c.astype(pdt).to_pandas(), p.astype("category").astype(pdt))
    pi = pd.Series([3, 1, 2, 3], dtype="category")
    si = ef.from_pandas(pi, device=device)
    tm.assert_series_equal(si.astype("int64").to_pandas(), pi.astype("int64"))
    tm.assert_series_equal(si.astype("float64").to_pandas(), pi.astype("float64"))
    pn = pd.Series([3, None, 2], dtype="category")
    tm.assert_series_equal(ef.from_pandas(pn, device=device).astype("float64").to_pandas(),
                           pn.astype("float64"))
    df = ef.DataFrame({"c": STR}, dtype="category", device=device)
    tm.assert_frame_equal(df.to_pandas(), pd.DataFrame({"c": STR}, dtype="category"))


def test_code_width_follows_pandas(device):
    for n in (126, 127, 200, 40000):
        p = pd.Series(np.arange(n), dtype="category")
        s = ef.Series(ember.arange(n, device=device)).astype("category")
        assert s.to_pandas().cat.codes.dtype == p.cat.codes.dtype, n
        tm.assert_series_equal(s.to_pandas(), p)


def test_arrow_round_trip(pair):
    p, s = pair
    arr = s.to_arrow()
    assert pa.types.is_dictionary(arr.type)
    assert arr.type.ordered == p.cat.ordered
    expect = pa.array(p)
    assert arr.to_pylist() == expect.to_pylist()
    assert arr.dictionary.to_pylist() == expect.dictionary.to_pylist()
    back = ef.from_arrow(arr, device=str(s.device))
    tm.assert_series_equal(back.to_pandas(), p.rename(None).reset_index(drop=True))


def test_from_arrow_dictionary(device):
    arr = pa.array(["x", None, "y", "x"]).dictionary_encode()   # int32 indices
    s = ef.from_arrow(arr, device=device)
    tm.assert_series_equal(s.to_pandas(), arr.to_pandas())
    chunked = pa.chunked_array([pa.array(["x", "y"]).dictionary_encode(),
                                pa.array(["z", "x"]).dictionary_encode()])
    t = pa.table({"c": chunked})
    tm.assert_frame_equal(ef.from_arrow(t, device=device).to_pandas(), t.to_pandas())
    df = ef.from_pandas(pd.DataFrame({"c": pd.Series(STR, dtype="category")}),
                        device=device)
    tm.assert_frame_equal(ef.from_arrow(df.to_arrow(), device=device).to_pandas(),
                          df.to_pandas())


def test_cat_accessor_attributes(pair):
    p, s = pair
    tm.assert_index_equal(s.cat.categories.to_pandas(), p.cat.categories)
    tm.assert_series_equal(s.cat.codes.to_pandas(), p.cat.codes)
    assert s.cat.ordered == p.cat.ordered
    for f in ("as_ordered", "as_unordered", "remove_unused_categories"):
        tm.assert_series_equal(getattr(s.cat, f)().to_pandas(), getattr(p.cat, f)())
    with pytest.raises(AttributeError):
        ef.Series([1, 2]).cat


def test_cat_accessor_methods(device):
    p = pd.Series(STR, dtype=pd.CategoricalDtype(CATS)).rename("c")
    s = ef.from_pandas(p, device=device)
    new = ["N1", "N2", "N3", "N4", "N5"]
    calls = [("rename_categories", (new,)),
             ("rename_categories", ({"b": "B", "zz": "Z"},)),
             ("add_categories", (["q", "r"],)), ("add_categories", ("q",)),
             ("remove_categories", (["b", "zz"],)), ("remove_categories", ("a",)),
             ("set_categories", (["a", "b", "new"],)),
             ("set_categories", (["zz", "a", "b"],), {"ordered": True}),
             ("set_categories", (["p", "q"],), {"rename": True}),
             ("reorder_categories", (["a", "b", "日本", "zz", "é"],)),
             ("reorder_categories", (["a", "b", "日本", "zz", "é"],), {"ordered": True})]
    for name, args, *kw in calls:
        kw = kw[0] if kw else {}
        got = getattr(s.cat, name)(*args, **kw).to_pandas()
        tm.assert_series_equal(got, getattr(p.cat, name)(*args, **kw), obj=name)
    bad = [("rename_categories", (["x"],)), ("add_categories", (["a"],)),
           ("remove_categories", (["nope"],)), ("reorder_categories", (["a", "b"],)),
           ("set_categories", (["a", "a"],)), ("rename_categories", (["a"] * 5,))]
    for name, args in bad:
        with pytest.raises(ValueError):
            getattr(p.cat, name)(*args)
        with pytest.raises(ValueError):
            getattr(s.cat, name)(*args)
    with pytest.raises(NotImplementedError):   # pandas: object categories
        s.cat.add_categories([1, 2])
    with pytest.raises(NotImplementedError):
        s.cat.rename_categories({"b": 1})
    # the code width grows with the categories as pandas' does
    many = [f"c{i}" for i in range(200)]
    tm.assert_series_equal(s.cat.add_categories(many).to_pandas(),
                           p.cat.add_categories(many))


def test_nulls(pair):
    p, s = pair
    tm.assert_series_equal(s.isna().to_pandas(), p.isna())
    tm.assert_series_equal(s.notna().to_pandas(), p.notna())
    tm.assert_series_equal(s.dropna().to_pandas(), p.dropna())
    assert s.count() == p.count()
    cats = list(p.cat.categories)
    if cats:
        tm.assert_series_equal(s.fillna(cats[0]).to_pandas(), p.fillna(cats[0]))
    if p.isna().any():
        with pytest.raises(TypeError):
            p.fillna("not a category")
        with pytest.raises(TypeError):
            s.fillna("not a category")


def test_order_and_distinct(pair):
    p, s = pair
    for asc in (True, False):
        for na in ("first", "last"):
            tm.assert_series_equal(s.sort_values(ascending=asc, na_position=na).to_pandas(),
                                   p.sort_values(ascending=asc, na_position=na))
    assert s.nunique() == p.nunique()
    assert s.nunique(dropna=False) == p.nunique(dropna=False)
    tm.assert_series_equal(s.unique().to_pandas(), pd.Series(p.unique(), name="c"))
    tm.assert_series_equal(s.drop_duplicates().to_pandas(), p.drop_duplicates())
    tm.assert_series_equal(s.duplicated().to_pandas(), p.duplicated())
    for kw in ({}, {"dropna": False}, {"sort": False}, {"ascending": True},
               {"normalize": True}, {"dropna": False, "ascending": True},
               {"dropna": False, "sort": False}):
        tm.assert_series_equal(s.value_counts(**kw).to_pandas(), p.value_counts(**kw),
                               obj=str(kw))


def test_take_filter_head_keep_dtype(pair):
    p, s = pair
    tm.assert_series_equal(s.head(3).to_pandas(), p.head(3))
    tm.assert_series_equal(s.iloc[::-1].to_pandas(), p.iloc[::-1])
    tm.assert_series_equal(s[s.notna()].to_pandas(), p[p.notna()])
    df = ef.from_pandas(pd.DataFrame({"c": p, "k": np.arange(len(p))}))
    pdf = pd.DataFrame({"c": p, "k": np.arange(len(p))})
    tm.assert_frame_equal(df[df["k"] % 2 == 0].to_pandas(), pdf[pdf["k"] % 2 == 0])
    tm.assert_frame_equal(df.sort_values("c").to_pandas(), pdf.sort_values("c"))


def test_compare_scalar(device):
    for dt in (pd.CategoricalDtype(CATS), pd.CategoricalDtype(CATS, ordered=True)):
        p = pd.Series(STR, dtype=dt)
        s = ef.from_pandas(p, device=device)
        for v in ("b", "日本", "zz", "absent"):
            tm.assert_series_equal((s == v).to_pandas(), p == v)
            tm.assert_series_equal((s != v).to_pandas(), p != v)
        for op in ("__lt__", "__le__", "__gt__", "__ge__"):
            if dt.ordered:
                tm.assert_series_equal(getattr(s, op)("a").to_pandas(),
                                       getattr(p, op)("a"))
                with pytest.raises(TypeError):
                    getattr(p, op)("absent")
                with pytest.raises(TypeError):
                    getattr(s, op)("absent")
            else:
                with pytest.raises(TypeError):
                    getattr(p, op)("a")
                with pytest.raises(TypeError):
                    getattr(s, op)("a")


def test_compare_columns(device):
    dt = pd.CategoricalDtype(CATS, ordered=True)
    p = pd.Series(STR, dtype=dt)
    q = pd.Series(["a", "a", "b", None, "日本", "zz", "é", "a"], dtype=dt)
    s, t = ef.from_pandas(p, device=device), ef.from_pandas(q, device=device)
    for op in ("__eq__", "__ne__", "__lt__", "__ge__"):
        tm.assert_series_equal(getattr(s, op)(t).to_pandas(), getattr(p, op)(q))
    # unordered, same categories in another order: equality recodes
    pu, qu = p.cat.as_unordered(), q.astype(pd.CategoricalDtype(CATS[::-1]))
    su, tu = ef.from_pandas(pu, device=device), ef.from_pandas(qu, device=device)
    tm.assert_series_equal((su == tu).to_pandas(), pu == qu)
    tm.assert_series_equal((su != tu).to_pandas(), pu != qu)
    # against the plain values
    plain = pd.Series(["a", "a", "b", None, "日本", "zz", "é", "a"])
    tm.assert_series_equal((su == ef.from_pandas(plain, device=device)).to_pandas(),
                           pu == plain)
    other = pd.Series(STR, dtype="category")
    with pytest.raises(TypeError):
        p == other
    with pytest.raises(TypeError):
        s == ef.from_pandas(other, device=device)
    with pytest.raises(TypeError):
        su < tu


def test_reductions_and_arith(device):
    o = pd.Series(STR, dtype=pd.CategoricalDtype(CATS, ordered=True))
    so = ef.from_pandas(o, device=device)
    assert so.min() == o.min() and so.max() == o.max()
    u = o.cat.as_unordered()
    su = ef.from_pandas(u, device=device)
    for f in ("min", "sum", "mean"):
        with pytest.raises(TypeError):
            getattr(u, f)()
        with pytest.raises(TypeError):
            getattr(su, f)()
    with pytest.raises(TypeError):
        u + 1
    with pytest.raises(TypeError):
        su + 1
    with pytest.raises(TypeError):
        -su
    e = ef.from_pandas(o.iloc[:0], device=device)
    assert np.isnan(e.min())
    with pytest.raises(NotImplementedError):
        so.values


def test_concat_and_isin(device):
    a = pd.Series(["a", "b", None], dtype="category")
    b = pd.Series(["b", "a"], dtype=pd.CategoricalDtype(["b", "a"]))
    c = pd.Series(["c", "a"], dtype="category")
    ea, eb, ec = (ef.from_pandas(x, device=device) for x in (a, b, c))
    tm.assert_series_equal(ef.concat([ea, eb]).to_pandas(), pd.concat([a, b]))
    tm.assert_series_equal(ef.concat([ea, ec]).to_pandas(), pd.concat([a, c]))
    tm.assert_series_equal(ea.isin(["a", "zz"]).to_pandas(), a.isin(["a", "zz"]))


def test_groupby_key(device):
    p = pd.DataFrame({"k": pd.Series(STR, dtype=pd.CategoricalDtype(CATS)),
                      "v": np.arange(8.0)})
    df = ef.from_pandas(p, device=device)
    tm.assert_series_equal(df.groupby("k")["v"].sum().to_pandas(),
                           p.groupby("k", observed=True)["v"].sum())
    tm.assert_series_equal(df.groupby("k", sort=False)["v"].sum().to_pandas(),
                           p.groupby("k", sort=False)["v"].sum())
    tm.assert_frame_equal(df.groupby("k", dropna=False).sum().to_pandas(),
                          p.groupby("k", dropna=False).sum())
    # every category a group (test_frame_groupby_observed.py has the rest)
    tm.assert_series_equal(df.groupby("k", observed=False)["v"].sum().to_pandas(),
                           p.groupby("k", observed=False)["v"].sum())


def test_shift_rank_abs(device):
    for dt in (pd.CategoricalDtype(CATS), pd.CategoricalDtype(CATS, ordered=True)):
        p = pd.Series(STR, dtype=dt)
        s = ef.from_pandas(p, device=device)
        for k in (1, -2, 20):
            tm.assert_series_equal(s.shift(k).to_pandas(), p.shift(k))
        tm.assert_series_equal(s.shift(1, fill_value="a").to_pandas(),
                               p.shift(1, fill_value="a"))
        with pytest.raises(TypeError):
            p.shift(1, fill_value="new")
        with pytest.raises(TypeError):
            s.shift(1, fill_value="new")
        tm.assert_series_equal(s.rank().to_pandas(), p.rank())
        with pytest.raises(TypeError):
            abs(p)
        with pytest.raises(TypeError):
            abs(s)


def test_groupby_values(device):
    p = pd.DataFrame({"k": [1, 1, 2, 2, 3, 3, 3, 1],
                      "c": pd.Series(STR, dtype=pd.CategoricalDtype(CATS))})
    df = ef.from_pandas(p, device=device)
    for f in ("count", "nunique", "first", "last"):
        tm.assert_series_equal(getattr(df.groupby("k")["c"], f)().to_pandas(),
                               getattr(p.groupby("k")["c"], f)(), obj=f)
    for f in ("sum", "mean", "min"):
        with pytest.raises(TypeError):
            getattr(p.groupby("k")["c"], f)()
        with pytest.raises(TypeError):
            getattr(df.groupby("k")["c"], f)()


def test_merge_keeps_categorical(device):
    c = pd.Series(["b", "a", None, "b"], dtype=pd.CategoricalDtype(["z", "b", "a"]))
    left = pd.DataFrame({"k": [1, 2, 3, 4], "c": c})
    right = pd.DataFrame({"k": [2, 5], "c2": pd.Series(["a", "z"], dtype=c.dtype)})
    el, er = ef.from_pandas(left, device=device), ef.from_pandas(right, device=device)
    for how in ("inner", "left", "right", "outer"):
        tm.assert_frame_equal(el.merge(er, on="k", how=how).to_pandas(),
                              left.merge(right, on="k", how=how), obj=how)
    tm.assert_frame_equal(el.merge(er.rename(columns={"c2": "c"}), on="c").to_pandas(),
                          left.merge(right.rename(columns={"c2": "c"}), on="c"))


def test_categorical_index_and_frame(device):
    p = pd.DataFrame({"c": pd.Series(STR, dtype=pd.CategoricalDtype(CATS)),
                      "x": np.arange(8.0), "s": list("uvwxyzuv")})
    df = ef.from_pandas(p, device=device)
    tm.assert_frame_equal(df.astype({"s": "category"}).to_pandas(),
                          p.astype({"s": "category"}))
    tm.assert_frame_equal(df.sort_values(["c", "x"], ascending=[False, True]).to_pandas(),
                          p.sort_values(["c", "x"], ascending=[False, True]))
    tm.assert_frame_equal(df.drop_duplicates("c").to_pandas(), p.drop_duplicates("c"))
    pi = p.set_index("c")
    di = ef.from_pandas(pi, device=device)
    tm.assert_index_equal(di.index.to_pandas(), pi.index)
    tm.assert_frame_equal(di.loc["b"].to_pandas(), pi.loc["b"])
    assert "c" in repr(df) and "category" in repr(df["c"])


def test_interchange_describes_codes(device):
    p = pd.Series(STR, dtype=pd.CategoricalDtype(CATS, ordered=True))
    df = ef.DataFrame({"c": ef.from_pandas(p, device=device)})
    col = df.__dataframe__().get_column(0)
    assert col.dtype[0] == 23   # DtypeKind.CATEGORICAL
    info = col.describe_categorical
    assert info["is_ordered"] and info["is_dictionary"]
    assert info["categories"].size() == len(CATS)
    assert col.describe_null == (2, -1)   # a sentinel: code -1
    assert col.null_count == 2


def test_from_pandas_categorical_array(device):
    cat = pd.Categorical(STR, categories=CATS, ordered=True)
    tm.assert_series_equal(ef.Series(cat, device=device).to_pandas(), pd.Series(cat))
    tm.assert_series_equal(ef.Series(cat, dtype="category", device=device).to_pandas(),
                           pd.Series(cat, dtype="category"))
    tm.assert_series_equal(ef.Series(cat, dtype=str, device=device).to_pandas(),
                           pd.Series(cat, dtype=str))


def test_to_csv_and_melt_use_the_values(device):
    c = pd.Series(STR, dtype=pd.CategoricalDtype(CATS))
    p = pd.DataFrame({"c": c, "x": np.arange(8.0), "d": c.iloc[::-1].reset_index(drop=True)})
    df = ef.from_pandas(p, device=device)
    assert df.to_csv() == p.to_csv()
    tm.assert_frame_equal(df.melt(id_vars=["x"]).to_pandas(), p.melt(id_vars=["x"]))
    q = p.assign(d=pd.Series(STR, dtype="category"))
    tm.assert_frame_equal(ef.from_pandas(q, device=device).melt(id_vars=["x"]).to_pandas(),
                          q.melt(id_vars=["x"]).astype({"value": "str"}))


def test_map_apply_raise_not_implemented(device):
    s = ef.from_pandas(pd.Series(STR, dtype="category"), device=device)
    with pytest.raises(NotImplementedError, match="category"):
        s.map(lambda v: v)
    with pytest.raises(NotImplementedError, match="category"):
        s.apply(lambda v: v)


def test_where_mask(device):
    p = pd.Series(STR, dtype=pd.CategoricalDtype(CATS))
    s = ef.from_pandas(p, device=device)
    cond_p, cond_s = p == "b", s == "b"
    tm.assert_series_equal(s.where(cond_s).to_pandas(), p.where(cond_p))
    tm.assert_series_equal(s.where(cond_s, "zz").to_pandas(), p.where(cond_p, "zz"))
    tm.assert_series_equal(s.mask(cond_s, "a").to_pandas(), p.mask(cond_p, "a"))
    other = p.iloc[::-1].reset_index(drop=True)
    tm.assert_series_equal(s.where(cond_s, ef.from_pandas(other, device=device)).to_pandas(),
                           p.where(cond_p, other))
    with pytest.raises(TypeError):
        p.where(cond_p, "new")
    with pytest.raises(TypeError):
        s.where(cond_s, "new")


def test_index_equals(device):
    p = pd.Series(STR, dtype=pd.CategoricalDtype(CATS))

    def idx(x):
        return ef.from_pandas(pd.Index(x), device=device)
    i, j = idx(p), idx(p.astype(pd.CategoricalDtype(CATS[::-1])))
    assert i.equals(j) == pd.Index(p).equals(pd.Index(j.to_pandas())) == True  # noqa: E712
    assert not i.equals(idx(p.shift(1)))
    full = pd.Series(["b", "a"], dtype="category")
    assert idx(full).equals(idx(["b", "a"])) == pd.Index(full).equals(pd.Index(["b", "a"]))


@pytest.mark.parametrize("p", [
    pd.Series(pd.to_datetime(["2020-01-02", None, "2020-01-01", "2020-01-02"])),
    pd.Series(["x", None, "y", "x"], dtype="string"),
    pd.Series([1, None, 3, 3], dtype="Int64"),
    pd.Series([1.5, np.nan, 1.5, -2.0], dtype="float32")], ids=str)
def test_categories_of_other_dtypes(p, device):
    s = ef.from_pandas(p, device=device).astype("category")
    c = p.astype("category")
    tm.assert_series_equal(s.to_pandas(), c)
    tm.assert_series_equal(s.value_counts(dropna=False).to_pandas(),
                           c.value_counts(dropna=False))
    tm.assert_series_equal(s.sort_values().to_pandas(), c.sort_values())
    tm.assert_series_equal(s.cat.codes.to_pandas(), c.cat.codes)


def test_ember_categorical_dtype(device):
    dt = ef.CategoricalDtype(["b", "a", "c"], ordered=True)
    pdt = pd.CategoricalDtype(["b", "a", "c"], ordered=True)
    s = ef.Series(["a", None, "c"], dtype=dt, device=device)
    tm.assert_series_equal(s.to_pandas(), pd.Series(["a", None, "c"], dtype=pdt))
    assert s.dtype == pdt and s.dtype == dt and s.dtype != pd.CategoricalDtype(["b", "a"])
    assert s.dtype != pd.CategoricalDtype(["a", "b", "c"], ordered=True)
    assert s.dtype != "int8" and str(s.dtype) == "category"
    tm.assert_series_equal(ef.Series(["a", "b"], device=device).astype(dt).to_pandas(),
                           pd.Series(["a", "b"]).astype(pdt))
