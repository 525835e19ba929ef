"""ember.frame's groupby and pivot_table against pandas on the same data:
reductions, agg, transform, scans, rank, shift/diff, compiled apply,
null keys and values, key dtypes, as_index/sort/dropna, on every device."""
import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
ef = ember.frame
tm = pd.testing

AGGS = ["sum", "mean", "count", "size", "min", "max", "std", "var", "median",
        "nunique", "first", "last", "prod"]


def _pdf():
    return pd.DataFrame({
        "k": [2, 1, 2, 3, 1, 2, 3, 1],
        "kf": [1.5, np.nan, 1.5, 0.5, np.nan, 0.5, 2.0, 1.5],
        "ks": ["b", "a", None, "日本", "a", "b", None, "é"],
        "kI": pd.array([3, None, 3, 1, None, 1, 2, 3], dtype="Int64"),
        "kb": [True, False, True, True, False, False, True, True],
        "kt": pd.to_datetime(["2024-01-02", "2024-01-01", "2024-01-02", "NaT",
                              "2024-01-01", "2024-01-03", "NaT", "2024-01-01"]),
        "v": [1, 5, 3, 4, 2, 6, 7, -8],
        "f": [1.5, np.nan, 2.5, -1.0, 0.0, np.nan, 3.0, 4.0],
        "I": pd.array([1, None, 3, None, 5, 6, None, 8], dtype="Int64"),
        "b": [True, False, True, True, False, False, True, False],
        "s": ["x", None, "yé", "x", "", "日本", "z", "x"],
        "n": np.full(8, np.nan),
    }, index=pd.RangeIndex(10, 18))


@pytest.fixture
def pair(device):
    pdf = _pdf()
    return pdf, ef.from_pandas(pdf, device=device)


def _same(r, e):
    """ember's result r equals pandas' e (a frame, series, index or scalar)."""
    if not hasattr(r, "to_pandas"):
        assert r == e
        return
    r = r.to_pandas()
    if isinstance(e, pd.DataFrame):
        tm.assert_frame_equal(r, e)
    elif isinstance(e, pd.Series):
        tm.assert_series_equal(r, e)
    else:
        tm.assert_index_equal(r, e)


def _both(f, pdf, df):
    """f on pandas and on ember: the same result or the same error class."""
    try:
        e = f(pdf)
    except Exception as ex:   # pandas' error class is the one to raise
        with pytest.raises(type(ex)):
            f(df)
        return
    _same(f(df), e)


@pytest.mark.parametrize("how", AGGS)
@pytest.mark.parametrize("col", ["v", "f", "I", "b", "s", "n"])
def test_series_aggs(pair, how, col):
    pdf, df = pair
    if col == "s" and how in ("sum",):
        with pytest.raises(NotImplementedError, match="str"):
            getattr(df.groupby("k")[col], how)()
        return
    _both(lambda d: getattr(d.groupby("k")[col], how)(), pdf, df)


@pytest.mark.parametrize("key", ["k", "kf", "ks", "kI", "kb", "kt"])
@pytest.mark.parametrize("dropna", [True, False])
@pytest.mark.parametrize("sort", [True, False])
def test_key_dtypes(pair, key, dropna, sort):
    pdf, df = pair
    for how in ("sum", "mean", "min", "first", "count"):
        f = (lambda d: getattr(d.groupby(key, dropna=dropna, sort=sort)[["v", "f", "I"]],
                               how)())
        _both(f, pdf, df)
    _both(lambda d: d.groupby(key, dropna=dropna, sort=sort)["s"].max(), pdf, df)
    _both(lambda d: d.groupby(key, dropna=dropna, sort=sort).size(), pdf, df)
    g = df.groupby(key, dropna=dropna)
    assert g.ngroups == pdf.groupby(key, dropna=dropna).ngroups


def test_frame_aggs_numeric_only(pair):
    pdf, df = pair
    for how in ("sum", "mean", "std", "var", "median", "prod", "min", "first"):
        _both(lambda d: getattr(d.groupby("k"), how)(numeric_only=True), pdf, df)
    _both(lambda d: d.groupby("k", as_index=False)["v"].size(), pdf, df)
    for how in ("min", "max", "first", "last", "count", "nunique"):
        _both(lambda d: getattr(d.groupby("k"), how)(), pdf, df)
    _both(lambda d: d.groupby("k").mean(), pdf, df)      # str column: TypeError


def test_datetime_values(pair):
    pdf, df = pair
    for how in ("min", "max", "first", "last", "count", "nunique"):
        _both(lambda d: getattr(d.groupby("ks", dropna=False)["kt"], how)(), pdf, df)
    _both(lambda d: d.groupby("k")["kt"].shift(), pdf, df)
    _both(lambda d: d.groupby("k")["kt"].mean(), pdf, df)
    # a timedelta from float64 arithmetic: pandas' own rounding may differ by 1 ns
    r, e = df.groupby("ks")["kt"].std().to_pandas(), pdf.groupby("ks")["kt"].std()
    assert r.dtype == e.dtype and r.index.equals(e.index)
    assert ((r - e).abs().fillna(pd.Timedelta(0)) <= pd.Timedelta(1)).all()
    assert r.isna().equals(e.isna())
    with pytest.raises(TypeError):
        df.groupby("k")["kt"].var()


def test_ddof_min_count_skipna(pair):
    pdf, df = pair
    for ddof in (0, 1, 2):
        _both(lambda d: d.groupby("k")[["v", "f", "I"]].std(ddof=ddof), pdf, df)
        _both(lambda d: d.groupby("k")[["v", "f", "I"]].var(ddof=ddof), pdf, df)
    for mc in (0, 2, 3):
        _both(lambda d: d.groupby("k")[["v", "f", "I"]].sum(min_count=mc), pdf, df)
    _both(lambda d: d.groupby("k")[["f", "I"]].sum(skipna=False), pdf, df)
    _both(lambda d: d.groupby("k")[["f", "I"]].mean(skipna=False), pdf, df)
    _both(lambda d: d.groupby("k")[["f", "I"]].nunique(dropna=False), pdf, df)


def test_as_index_false_and_several_keys(pair):
    pdf, df = pair
    _both(lambda d: d.groupby("k", as_index=False)[["v", "f"]].sum(), pdf, df)
    _both(lambda d: d.groupby("k", as_index=False)["v"].mean(), pdf, df)
    _both(lambda d: d.groupby("k", as_index=False).size(), pdf, df)
    for keys in (["k", "ks"], ["ks", "kb"], ["kI", "kf", "k"]):
        for dropna in (True, False):
            for sort in (True, False):
                _both(lambda d: d.groupby(keys, as_index=False, dropna=dropna,
                                          sort=sort)[["v", "f", "I"]].sum(), pdf, df)
                _both(lambda d: d.groupby(keys, as_index=False, dropna=dropna,
                                          sort=sort)[["s"]].min(), pdf, df)
    assert df.groupby(["k", "ks"]).ngroups == pdf.groupby(["k", "ks"]).ngroups


def test_several_keys_as_index(pair):
    # a MultiIndex of the keys (test_frame_multiindex.py has the rest)
    pdf, df = pair
    _both(lambda d: d.groupby(["k", "ks"]).sum(numeric_only=True), pdf, df)
    _both(lambda d: d.groupby(["k", "ks"])["v"].mean(), pdf, df)
    _both(lambda d: d.groupby(["k", "ks"]).size(), pdf, df)


def test_by_series_and_arrays(pair):
    pdf, df = pair
    _both(lambda d: d.groupby(d["k"])[["v", "f"]].sum(), pdf, df)
    _both(lambda d: d.groupby(d["k"]).sum(numeric_only=True), pdf, df)
    _both(lambda d: d.groupby(d["k"].rename("z")).sum(numeric_only=True), pdf, df)
    _both(lambda d: d["v"].groupby(d["ks"]).sum(), pdf, df)
    _both(lambda d: d["f"].groupby([d["k"], d["kb"]][0]).mean(), pdf, df)
    _both(lambda d: d.groupby(["k", d["kb"]], as_index=False)[["v"]].sum(), pdf, df)
    labels = ["p", "q", "p", None, "q", "p", "r", "r"]   # a list of key values
    _both(lambda d: d["v"].groupby(labels).sum(), pdf, df)
    _both(lambda d: d.groupby(labels, dropna=False)["f"].mean(), pdf, df)
    keys = np.array([1, 0, 1, 0, 1, 0, 1, 0])
    tm.assert_series_equal(df.groupby(keys)["v"].sum().to_pandas(),
                           pdf.groupby(keys)["v"].sum())


def test_by_index_level_name(device):
    # pandas groups by an index level named as a key (dask's groupby.apply
    # after set_index("name") does); a name both a level and a column is
    # ambiguous (ValueError)
    pdf = _pdf().set_index("ks")
    df = ef.from_pandas(pdf, device=device)
    _both(lambda d: d.groupby("ks")["v"].sum(), pdf, df)
    _both(lambda d: d.groupby("ks", dropna=False)[["v", "f"]].mean(), pdf, df)
    _both(lambda d: d.groupby(["ks", "k"])["v"].max(), pdf, df)
    multi = _pdf().set_index(["k", "kb"])
    dm = ef.from_pandas(multi, device=device)
    _both(lambda d: d.groupby("kb")["v"].sum(), multi, dm)
    both = _pdf().set_index("k", drop=False)
    _both(lambda d: d.groupby("k")["v"].sum(), both, ef.from_pandas(both, device=device))
    _both(lambda d: d.groupby("nope")["v"].sum(), pdf, df)


def test_rename_axis(device):
    pdf = _pdf()
    df = ef.from_pandas(pdf, device=device)
    for f in (lambda d: d.rename_axis("r"), lambda d: d.rename_axis(index="r"),
              lambda d: d.rename_axis(index=str.upper).rename_axis(None),
              lambda d: d["v"].rename_axis("r"),
              lambda d: d.set_index(["k", "kb"]).rename_axis(["a", "b"]),
              lambda d: d.set_index(["k", "kb"]).rename_axis(index={"kb": "z"}),
              lambda d: d.rename_axis("r", axis="nope"),
              lambda d: d.set_index(["k", "kb"]).rename_axis(["a"]),
              lambda d: d.rename_axis("r", index="q"),
              lambda d: d.rename_axis({"a": 1})):
        _both(f, pdf, df)
    got = df.copy()
    assert got.rename_axis("w", inplace=True) is None
    assert got.index.name == "w" and df.index.name is None


@pytest.mark.parametrize("method", ["average", "min", "max", "first", "dense"])
def test_rank(pair, method):
    pdf, df = pair
    for col in ("v", "f", "I", "s", "b"):
        for asc in (True, False):
            for pct in (False, True):
                _both(lambda d: d.groupby("k")[col].rank(method=method, ascending=asc,
                                                         pct=pct), pdf, df)
    _both(lambda d: d.groupby("ks")[["f", "v"]].rank(method=method), pdf, df)


def test_scans(pair):
    pdf, df = pair
    for key in ("k", "ks", "kI"):
        for col in ("v", "f", "I", "b"):
            for how in ("cumsum", "cummax", "cummin", "cumprod"):
                if col == "b" and key != "k" and how in ("cummax", "cummin"):
                    # pandas: an object column of True/False/NaN
                    with pytest.raises(NotImplementedError, match="boolean"):
                        getattr(df.groupby(key)[col], how)()
                    continue
                _both(lambda d: getattr(d.groupby(key)[col], how)(), pdf, df)
        _both(lambda d: d.groupby(key).cumcount(), pdf, df)
        _both(lambda d: d.groupby(key).cumcount(ascending=False), pdf, df)
        _both(lambda d: d.groupby(key)[["v", "f"]].cumsum(), pdf, df)
        _both(lambda d: d.groupby(key)["kt"].cummax(), pdf, df)


def test_shift_diff(pair):
    pdf, df = pair
    for key in ("k", "ks"):
        for p in (1, 2, -1, 0):
            for col in ("v", "f", "I", "s", "kt"):
                _both(lambda d: d.groupby(key)[col].shift(p), pdf, df)
            for col in ("v", "f", "I"):
                _both(lambda d: d.groupby(key)[col].diff(p), pdf, df)
        _both(lambda d: d.groupby(key)[["v", "f"]].shift(1, fill_value=0), pdf, df)
    with pytest.raises(NotImplementedError, match="bool"):
        df.groupby("k")["b"].diff()


def test_transform(pair):
    pdf, df = pair
    for key in ("k", "ks"):
        for how in ("sum", "mean", "count", "min", "max", "std", "first", "last",
                    "median", "nunique", "prod", "cumsum", "cumcount"):
            _both(lambda d: d.groupby(key)["v"].transform(how), pdf, df)
            _both(lambda d: d.groupby(key)["I"].transform(how), pdf, df)
        _both(lambda d: d.groupby(key)[["v", "f"]].transform("mean"), pdf, df)
        _both(lambda d: d.groupby(key)["s"].transform("first"), pdf, df)
    _both(lambda d: d.groupby("k")["v"].transform("size"), pdf, df)
    for key in ("k", "ks"):   # compiled like apply: rows minus their group's mean
        _both(lambda d: d.groupby(key)["f"].transform(lambda x: (x - x.mean()) / x.std()),
              pdf, df)
        _both(lambda d: d.groupby(key)[["v", "f"]].transform(lambda x: x.max() - x),
              pdf, df)
        _both(lambda d: d.groupby(key)["v"].transform(lambda x: x.sum() * 2), pdf, df)
    with pytest.raises(ValueError):
        df.groupby("k")["v"].transform("nope")


def test_agg_forms(pair):
    pdf, df = pair
    _both(lambda d: d.groupby("k")["v"].agg("sum"), pdf, df)
    _both(lambda d: d.groupby("k")["v"].agg(["sum", "mean", "max"]), pdf, df)
    _both(lambda d: d.groupby("k", as_index=False)["v"].agg(["sum", "mean"]), pdf, df)
    _both(lambda d: d.groupby("k").agg({"v": "sum", "f": "mean", "s": "first"}), pdf, df)
    _both(lambda d: d.groupby("k").agg(total=("v", "sum"), top=("f", "max"),
                                       n=("s", "count")), pdf, df)
    _both(lambda d: d.groupby("k", as_index=False).agg(total=("v", "sum")), pdf, df)
    _both(lambda d: d.groupby("k")["f"].agg(lo="min", hi="max"), pdf, df)
    _both(lambda d: d.groupby("k")["f"].agg(np.sum), pdf, df)
    _both(lambda d: d.groupby("k")[["v", "f"]].aggregate("mean"), pdf, df)
    # (column, aggregation) labels: pandas' MultiIndex columns
    _both(lambda d: d.groupby("k")[["v", "f", "I"]].agg(["sum", "mean"]), pdf, df)
    _both(lambda d: d.groupby("k").agg({"v": ["sum", "mean"], "f": "max"}), pdf, df)
    with pytest.raises(KeyError):
        df.groupby("k").agg(total=("nope", "sum"))


def test_groups_size(pair):
    pdf, df = pair
    for key in ("k", "ks"):
        got = {k: v.tolist() for k, v in df.groupby(key).groups.items()}
        want = {k: list(v) for k, v in pdf.groupby(key).groups.items()}
        assert got == want
        assert len(df.groupby(key)) == len(pdf.groupby(key))
    _both(lambda d: d.groupby("ks", dropna=False).size(), pdf, df)
    _both(lambda d: d.groupby("k")["I"].size(), pdf, df)


def test_apply_compiled(pair):
    pdf, df = pair
    fs = [lambda g: g["v"].sum() / g["f"].max(),
          lambda g: g["v"].mean() - g["f"].min() * 2,
          lambda g: (g["v"] * g["f"]).sum() / g["f"].count(),
          lambda g: g.v.max() - g.v.min() + 1,
          lambda g: abs(-g["f"].std()) + g["v"].nunique(),
          lambda g: (g["v"] > 2).sum()]
    for f in fs:
        for key in ("k", "ks"):
            _both(lambda d: d.groupby(key)[["v", "f", "I"]].apply(f), pdf, df)
    _both(lambda d: d.groupby("k")["v"].apply(lambda s: s.max() - s.min()), pdf, df)
    # the result's column is named None: compare it by position
    r = df.groupby("k", as_index=False).apply(fs[0])
    e = pdf.groupby("k", as_index=False).apply(fs[0])
    assert list(r) == list(e) == ["k", None]
    tm.assert_frame_equal(r.to_pandas().set_axis(["k", "x"], axis=1),
                          e.set_axis(["k", "x"], axis=1))
    _both(lambda d: d.groupby("k")["v"].agg(lambda s: s.max() - s.min()), pdf, df)
    # a nullable column keeps its dtype through the compiled expression
    # (pandas infers object from the per-group scalars holding NA)
    r = df.groupby("k")[["v", "I"]].apply(lambda g: g["v"].mean() - g["I"].min() * 2)
    e = pdf.groupby("k")[["v", "I"]].apply(lambda g: g["v"].mean() - g["I"].min() * 2)
    tm.assert_series_equal(r.to_pandas(), e.astype("Float64"))


def test_apply_never_loops(pair, monkeypatch):
    _, df = pair
    calls = []

    def f(g):
        calls.append(1)
        return g["v"].sum() * 2
    df.groupby("k")[["v", "f"]].apply(f)
    assert len(calls) == 1
    with pytest.raises(NotImplementedError, match="reductions"):
        df.groupby("k")[["v", "f"]].apply(lambda g: g["v"].sum() if g["v"].max() > 1
                                          else 0)
    with pytest.raises(NotImplementedError, match="reductions"):
        df.groupby("k")[["v", "f"]].apply(lambda g: g["v"].cumsum())
    with pytest.raises(NotImplementedError, match="reductions"):
        df.groupby("k")[["v", "f"]].apply(lambda g: len(g))
    with pytest.raises(NotImplementedError, match="reductions"):
        df.groupby("k")[["v", "f"]].apply(lambda g: np.sqrt(g["v"].sum()))
    with pytest.raises(KeyError):
        df.groupby("k")[["v", "f"]].apply(lambda g: g["k"].sum())


def test_bad_inputs(pair):
    pdf, df = pair
    with pytest.raises(KeyError):
        df.groupby("nope")
    with pytest.raises(KeyError):
        df.groupby("k")["nope"]
    with pytest.raises(KeyError):
        df.groupby("k")[["v", "nope"]]
    with pytest.raises(TypeError):
        df.groupby()
    with pytest.raises(TypeError):
        df["v"].groupby(df["k"], as_index=False)
    with pytest.raises(ValueError):
        df.groupby([])
    with pytest.raises(NotImplementedError):   # level= works alone
        df.groupby("k", level=0)
    with pytest.raises(NotImplementedError):
        df.groupby(lambda i: i % 2)
    with pytest.raises(ValueError):
        df.groupby("k")["v"].rank(method="nope")
    with pytest.raises(AttributeError):
        df.groupby("k")["v"].agg("nope_not_there")
    with pytest.raises(ValueError):
        df.groupby(np.array([1, 2]))


def test_empty_one_row_all_null(device):
    for pdf in (_pdf().iloc[:0], _pdf().iloc[:1], _pdf().iloc[3:4]):
        df = ef.from_pandas(pdf, device=device)
        for how in ("sum", "mean", "min", "max", "count", "first", "std", "median"):
            _both(lambda d: getattr(d.groupby("k")[["v", "f", "I"]], how)(), pdf, df)
        _both(lambda d: d.groupby("k").size(), pdf, df)
        _both(lambda d: d.groupby("ks", dropna=False)["v"].sum(), pdf, df)
        _both(lambda d: d.groupby("k")["v"].cumsum(), pdf, df)
        _both(lambda d: d.groupby("k").cumcount(), pdf, df)
        _both(lambda d: d.groupby("k")["f"].rank(), pdf, df)
        _both(lambda d: d.groupby("k")["f"].shift(), pdf, df)
    pdf = _pdf()
    pdf["ks"] = pd.Series([None] * 8, dtype="str", index=pdf.index)
    df = ef.from_pandas(pdf, device=device)
    for dropna in (True, False):
        _both(lambda d: d.groupby("ks", dropna=dropna)[["v", "f"]].sum(), pdf, df)
        _both(lambda d: d.groupby("ks", dropna=dropna)["v"].cumsum(), pdf, df)


def test_many_groups_and_big_values(device):
    rng = np.random.default_rng(7)
    n = 20000
    pdf = pd.DataFrame({"a": rng.integers(0, 5000, n), "b": rng.integers(-3, 3, n),
                        "w": rng.integers(0, 10 ** 12, n) * 10 ** 6,
                        "sparse": rng.integers(0, 2 ** 40, n),
                        "x": rng.normal(size=n)})
    pdf.loc[rng.random(n) < 0.1, "x"] = np.nan
    df = ef.from_pandas(pdf, device=device)
    for key in ("a", "sparse", ["a", "b"]):
        for how in ("sum", "mean", "std", "min", "max", "median", "nunique", "last"):
            _both(lambda d: getattr(d.groupby(key, as_index=False)[["x", "w"]], how)(),
                  pdf, df)
    _both(lambda d: d.groupby("b")["w"].sum(), pdf, df)        # exact, wraps as int64
    _both(lambda d: d.groupby("a")["x"].rank(method="dense"), pdf, df)
    _both(lambda d: d.groupby(["a", "b"], as_index=False)["x"].cumsum(), pdf, df)
    _both(lambda d: d.groupby("sparse", sort=False)["x"].sum(), pdf, df)


def test_uint_and_float32(device):
    pdf = pd.DataFrame({"k": np.array([3, 1, 3, 2], dtype=np.uint8),
                        "u": np.array([1, 2, 3, 4], dtype=np.uint64),
                        "g": np.array([0.5, 1.5, np.nan, 2.0], dtype=np.float32)})
    df = ef.from_pandas(pdf, device=device)
    for how in ("sum", "mean", "min", "max", "prod", "std", "first"):
        _both(lambda d: getattr(d.groupby("k"), how)(), pdf, df)


def test_small_integers_keep_their_dtype_when_sums_fit(device):
    # pandas sums in 64 bits, then casts back when every result fits
    rng = np.random.default_rng(3)
    for n in (6, 60):
        pdf = pd.DataFrame({"k": rng.integers(0, 3, n),
                            "i8": rng.integers(-100, 100, n).astype(np.int8),
                            "u16": rng.integers(0, 4, n).astype(np.uint16),
                            "I8": pd.array(rng.integers(-100, 100, n), dtype="Int8")})
        df = ef.from_pandas(pdf, device=device)
        for how in ("sum", "prod", "cumsum", "diff", "shift"):
            _both(lambda d: getattr(d.groupby("k"), how)(), pdf, df)


def test_categorical_values(device):
    pdf = pd.DataFrame({"k": [1, 2, 1, 2, 1],
                        "c": pd.Categorical(["a", "b", None, "a", "b"])})
    df = ef.from_pandas(pdf, device=device)
    for how in ("count", "nunique", "first", "last", "size", "shift"):
        _both(lambda d: getattr(d.groupby("k")["c"], how)(), pdf, df)
    for how in ("cumsum", "cummax", "rank", "diff"):   # would read the codes as numbers
        with pytest.raises(NotImplementedError, match="categorical"):
            getattr(df.groupby("k")["c"], how)()


def test_pivot_table(pair):
    pdf, df = pair
    for agg in ("sum", "mean", "count", "max"):
        for dropna in (True, False):
            e = pdf.pivot_table(values="v", index="ks", columns="k", aggfunc=agg,
                                dropna=dropna)
            tm.assert_frame_equal(ef.pivot_table(df, values="v", index="ks", columns="k",
                                                 aggfunc=agg, dropna=dropna).to_pandas(), e)
    e = pdf.pivot_table(values="f", index="k", columns="kb", aggfunc="mean")
    tm.assert_frame_equal(df.pivot_table(values="f", index="k", columns="kb").to_pandas(),
                          e)
    for agg in ("sum", "min", "first", "size", "mean"):
        for v in ("v", "I", "f"):   # a filled table keeps the aggregation's dtype
            e = pdf.pivot_table(values=v, index="ks", columns="k", aggfunc=agg,
                                fill_value=0)
            tm.assert_frame_equal(df.pivot_table(values=v, index="ks", columns="k",
                                                 aggfunc=agg, fill_value=0).to_pandas(), e)
    _both(lambda d: d.pivot_table(values="v", index="k", aggfunc="sum"), pdf, df)
    with pytest.raises(NotImplementedError, match="margins"):   # 'All' among ints
        df.pivot_table(values="v", index="k", columns="ks", margins=True)
    # MultiIndex columns (test_frame_pivot_multi.py has the rest)
    _both(lambda d: d.pivot_table(values="v", index="ks", columns=["k", "kb"]), pdf, df)
    _both(lambda d: d.pivot_table(values="v", index="k", columns="ks",
                                  aggfunc=["sum", "mean"]), pdf, df)
    with pytest.raises(KeyError):
        df.pivot_table(values="nope", index="k", columns="ks")
