"""get_dummies, factorize, cut, qcut and crosstab against pandas on the
same data."""
import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")
ef = ember.frame
tm = pd.testing


def _same_error(fp, fe):
    """Both raise one exception class; ember's message is pandas'."""
    with pytest.raises(Exception) as want:
        fp()
    with pytest.raises(type(want.value)) as got:
        fe()
    assert str(got.value) == str(want.value)


# ---- get_dummies

SERIES = {
    "str": pd.Series(["a", "b", None, "a"], index=[5, 6, 7, 8], name="s"),
    "int": pd.Series([3, 1, 3, 2]),
    "float": pd.Series([1.5, np.nan, 2.0, 1.5]),
    "cat": pd.Series(pd.Categorical(["p", "q", "p", None], categories=["q", "p", "r"])),
    "one": pd.Series(["a", "a"]),
}
OPTIONS = [{}, dict(dummy_na=True), dict(drop_first=True), dict(prefix="x"),
           dict(prefix="x", prefix_sep="/", dummy_na=True), dict(dtype=float),
           dict(dtype="int8", drop_first=True, dummy_na=True)]


@pytest.mark.parametrize("kind", list(SERIES))
@pytest.mark.parametrize("kw", OPTIONS, ids=str)
def test_get_dummies_series(device, kind, kw):
    ps = SERIES[kind]
    want = pd.get_dummies(ps, **kw)
    got = ef.get_dummies(ef.from_pandas(ps, device=device), **kw).to_pandas()
    # ember's column labels are a list of values, never a CategoricalIndex,
    # and their Index is inferred from the values (a lone NaN label's is
    # float, pandas' str)
    if kind == "cat" and "prefix" not in kw or \
            (want.shape[1] and want.columns.isna().all()):
        assert [str(c) for c in got.columns] == [str(c) for c in want.columns]
        got, want = (x.set_axis(range(x.shape[1]), axis=1) for x in (got, want))
    tm.assert_frame_equal(got, want)


def test_get_dummies_default_dtype_and_list(device):
    got = ef.get_dummies(ef.Series(list("abca"), device=device))
    assert all(str(c.dtype) == "bool" for _, c in got.items())
    tm.assert_frame_equal(ef.get_dummies(list("abca")).to_pandas(),
                          pd.get_dummies(list("abca")))
    ps = pd.Series(["a", None, "b"], dtype="string")   # NA strings: boolean indicators
    tm.assert_frame_equal(ef.get_dummies(ef.from_pandas(ps, device=device),
                                         prefix="p").to_pandas(),
                          pd.get_dummies(ps, prefix="p"))


def test_get_dummies_empty(device):
    ps = pd.Series([], dtype=str)
    got = ef.get_dummies(ef.from_pandas(ps, device=device))
    tm.assert_frame_equal(got.to_pandas(), pd.get_dummies(ps))
    ps = pd.Series([None, None], dtype=str, index=[3, 4])
    got = ef.get_dummies(ef.from_pandas(ps, device=device), prefix="p", dummy_na=True)
    tm.assert_frame_equal(got.to_pandas(), pd.get_dummies(ps, prefix="p", dummy_na=True))


@pytest.fixture
def frame(device):
    pdf = pd.DataFrame({"a": ["x", "y", "x", None], "b": [1, 2, 3, 1],
                        "c": pd.Categorical(["p", "q", "p", "q"], categories=["q", "p", "r"]),
                        "d": [1.5, 2.0, 3.0, np.nan]}, index=[9, 8, 7, 6])
    return pdf, ef.from_pandas(pdf, device=device)


@pytest.mark.parametrize("kw", [
    {}, dict(columns=["b"]), dict(columns=["a", "b"]), dict(columns=["a", "b", "c", "d"]),
    dict(prefix=["A", "C"]), dict(prefix={"a": "A", "c": "C"}), dict(prefix="P"),
    dict(prefix_sep=["-", "+"]), dict(prefix_sep={"a": ":", "c": "."}),
    dict(drop_first=True, dtype=int), dict(dummy_na=True, columns=["a", "d"])], ids=str)
def test_get_dummies_frame(frame, kw):
    pdf, df = frame
    tm.assert_frame_equal(ef.get_dummies(df, **kw).to_pandas(), pd.get_dummies(pdf, **kw))


def test_get_dummies_bad_input(frame):
    pdf, df = frame
    _same_error(lambda: pd.get_dummies(pdf, prefix=["A"]),
                lambda: ef.get_dummies(df, prefix=["A"]))
    _same_error(lambda: pd.get_dummies(pdf, prefix_sep=["A", "B", "C"]),
                lambda: ef.get_dummies(df, prefix_sep=["A", "B", "C"]))
    _same_error(lambda: pd.get_dummies(pdf, columns="a"),
                lambda: ef.get_dummies(df, columns="a"))
    _same_error(lambda: pd.get_dummies(pdf["a"], dtype=object),
                lambda: ef.get_dummies(df["a"], dtype=object))
    with pytest.raises(KeyError):
        ef.get_dummies(df, prefix={"a": "A"})
    with pytest.raises(NotImplementedError, match="sparse"):
        ef.get_dummies(df, sparse=True)


# ---- factorize

@pytest.mark.parametrize("data", [["b", "a", "b", None, "c"], [3, 1, 3, 1000000, 1],
                                  [2.0, np.nan, 1.0, 2.0], [True, False, True], []],
                         ids=["str", "int", "float", "bool", "empty"])
@pytest.mark.parametrize("kw", [{}, dict(sort=True), dict(use_na_sentinel=False),
                                dict(sort=True, use_na_sentinel=False)], ids=str)
def test_factorize(device, data, kw):
    ps = pd.Series(data, dtype=None if data else float)
    s = ef.from_pandas(ps, device=device)
    want_codes, want_uniques = pd.factorize(ps, **kw)
    for codes, uniques in (ef.factorize(s, **kw), s.factorize(**kw)):
        got = ember.asnumpy(codes)
        assert got.dtype == np.int64
        np.testing.assert_array_equal(got, want_codes)
        tm.assert_index_equal(uniques.to_pandas(), want_uniques)


def test_factorize_index_array_categorical(device):
    pidx = pd.Index([3, 1, 3], name="x")
    codes, uniques = ef.from_pandas(pidx, device=device).factorize()
    np.testing.assert_array_equal(ember.asnumpy(codes), pidx.factorize()[0])
    tm.assert_index_equal(uniques.to_pandas(), pidx.factorize()[1])
    codes, uniques = ef.RangeIndex(5, 0, -2).factorize(sort=True)
    want = pd.RangeIndex(5, 0, -2).factorize(sort=True)
    np.testing.assert_array_equal(ember.asnumpy(codes), want[0])
    tm.assert_index_equal(uniques.to_pandas(), want[1], exact=True)
    a = np.array([2.0, np.nan, 1.0, 2.0])
    codes, uniques = ef.factorize(ember.asarray(a, device=device), sort=True,
                                  use_na_sentinel=False)
    want = pd.factorize(a, sort=True, use_na_sentinel=False)
    np.testing.assert_array_equal(ember.asnumpy(codes), want[0])
    assert isinstance(uniques, ember.ndarray)
    np.testing.assert_array_equal(ember.asnumpy(uniques), want[1])
    ps = pd.Series(pd.Categorical(["b", "a", "b"], categories=["a", "b", "z"]))
    for kw in ({}, dict(sort=True)):
        codes, uniques = ef.factorize(ef.from_pandas(ps, device=device), **kw)
        np.testing.assert_array_equal(ember.asnumpy(codes), pd.factorize(ps, **kw)[0])
        tm.assert_index_equal(uniques.to_pandas(), pd.factorize(ps, **kw)[1])
    with pytest.raises(TypeError, match="factorize requires"):
        ef.factorize(["a", "b"])


# ---- cut and qcut

CUT_DATA = [1, 7, 5, 4, 6, 3, 0, 8]


@pytest.mark.parametrize("kw", [
    dict(bins=3), dict(bins=3, right=False), dict(bins=1),
    dict(bins=[0, 2, 4, 6]),   # 0, 7 and 8 fall outside, 2, 4 and 6 on edges
    dict(bins=[0, 2, 4, 6], right=False), dict(bins=[0, 2, 4, 6], include_lowest=True),
    dict(bins=[0, 2, 4, 8], include_lowest=True, right=False),
    dict(bins=[0.5, 3.25, 8.0]), dict(bins=[0.00011, 0.00012, 0.0003, 10]),
    dict(bins=3, precision=1), dict(bins=3, labels=False), dict(bins=[0, 4, 8], labels=False),
    dict(bins=[-1, 4, 8], labels=False),   # every value in a bin: int64 codes
    dict(bins=[0, 4, 8], labels=["lo", "hi"]), dict(bins=[0, 4, 8], labels=[10, 20]),
    dict(bins=[0, 2, 4, 8], labels=["lo", "hi", "lo"], ordered=False),
    dict(bins=[0, 4, 8], labels=["lo", "hi"], ordered=False),
    dict(bins=[0, 2, 2, 8], duplicates="drop"), dict(bins=[0, 2, 2, 8], duplicates="drop",
                                                      labels=False)], ids=str)
def test_cut_series(device, kw):
    ps = pd.Series(CUT_DATA, name="x", index=list("abcdefgh"))
    got = ef.cut(ef.from_pandas(ps, device=device), **kw)
    tm.assert_series_equal(got.to_pandas(), pd.cut(ps, **kw))


@pytest.mark.parametrize("data", [[1.5, np.nan, 3.0, 10.0], [], [np.nan, np.nan],
                                  [2.0, 2.0, 2.0], [0.0, 0.0], [-1.0, np.inf]], ids=str)
@pytest.mark.parametrize("kw", [dict(bins=[0, 2, 4], labels=False), dict(bins=[0, 2, 4]),
                                dict(bins=2)], ids=str)
def test_cut_missing_empty_constant(device, data, kw):
    ps = pd.Series(data, dtype=float)
    s = ef.from_pandas(ps, device=device)
    try:
        want = pd.cut(ps, **kw)
    except ValueError:
        _same_error(lambda: pd.cut(ps, **kw), lambda: ef.cut(s, **kw))
        return
    tm.assert_series_equal(ef.cut(s, **kw).to_pandas(), want)


def test_cut_dtypes_and_forms(device):
    ps = pd.Series([1, None, 3, 7], dtype="Int64")
    tm.assert_series_equal(ef.cut(ef.from_pandas(ps, device=device), 2).to_pandas(),
                           pd.cut(ps, 2))
    ps = pd.Series([True, False, True])
    tm.assert_series_equal(ef.cut(ef.from_pandas(ps, device=device), 2,
                                  labels=False).to_pandas(), pd.cut(ps, 2, labels=False))
    a = np.array(CUT_DATA)
    got = ef.cut(ember.asarray(a, device=device), 3, labels=False)
    assert isinstance(got, ember.ndarray)
    np.testing.assert_array_equal(ember.asnumpy(got), pd.cut(a, 3, labels=False))
    assert ember.asnumpy(got).dtype == pd.cut(a, 3, labels=False).dtype
    got = ef.cut(ember.asarray(a, device=device), 3)   # pandas' Categorical
    tm.assert_index_equal(got.to_pandas(), pd.CategoricalIndex(pd.cut(a, 3)))
    out, bins = ef.cut(ef.from_pandas(pd.Series(a), device=device), 3, retbins=True)
    np.testing.assert_array_equal(ember.asnumpy(bins), pd.cut(a, 3, retbins=True)[1])
    out, bins = ef.cut(ef.Series(a, device=device), [0, 2, 2, 9], retbins=True,
                       duplicates="drop")
    np.testing.assert_array_equal(ember.asnumpy(bins), [0, 2, 9])


def test_cut_intervals_round_trip(device):
    ps = pd.cut(pd.Series(CUT_DATA), 3)
    s = ef.cut(ef.from_pandas(pd.Series(CUT_DATA), device=device), 3)
    assert isinstance(s.to_pandas().cat.categories, pd.IntervalIndex)
    tm.assert_series_equal(ef.from_pandas(ps, device=device).to_pandas(), ps)
    # the categories behave as categories: counts in category order
    tm.assert_series_equal(s.value_counts(sort=False).to_pandas(),
                           ps.value_counts(sort=False))


@pytest.mark.parametrize("kw", [
    dict(bins=[0, 5, 2]), dict(bins=[0, 2, 2, 8]), dict(bins=[0, 4, 8], labels=["a"]),
    dict(bins=[0, 4, 8], labels=["a", "a"]), dict(bins=0), dict(bins=[0, 4, 8], labels=True),
    dict(bins=[0, 4, 8], duplicates="x"), dict(bins=3, ordered=False)], ids=str)
def test_cut_bad_input(device, kw):
    ps = pd.Series(CUT_DATA)
    _same_error(lambda: pd.cut(ps, **kw), lambda: ef.cut(ef.from_pandas(ps, device=device),
                                                         **kw))


def test_cut_refusals(device):
    s = ef.Series(["a", "b"], device=device)
    with pytest.raises(TypeError, match="numbers"):
        ef.cut(s, 2)
    with pytest.raises(NotImplementedError, match="IntervalIndex"):
        ef.cut(ef.Series([1, 2], device=device), pd.IntervalIndex.from_breaks([0, 1, 2]))


QDATA = np.arange(20.0) ** 1.5


@pytest.mark.parametrize("q", [4, 3, 10, [0, 0.25, 0.5, 1.0], [0.1, 0.9]], ids=str)
@pytest.mark.parametrize("labels", [None, False], ids=str)
def test_qcut(device, q, labels):
    ps = pd.Series(QDATA, name="v")
    got = ef.qcut(ef.from_pandas(ps, device=device), q, labels=labels)
    tm.assert_series_equal(got.to_pandas(), pd.qcut(ps, q, labels=labels))


def test_qcut_edge_cases(device):
    ps = pd.Series([1, 2, np.nan, 5, 8])
    s = ef.from_pandas(ps, device=device)
    tm.assert_series_equal(ef.qcut(s, 2).to_pandas(), pd.qcut(ps, 2))
    np.testing.assert_array_equal(ember.asnumpy(ef.qcut(s, 2, retbins=True)[1]),
                                  pd.qcut(ps, 2, retbins=True)[1])
    tm.assert_series_equal(ef.qcut(s, 2, labels=["lo", "hi"]).to_pandas(),
                           pd.qcut(ps, 2, labels=["lo", "hi"]))
    ps = pd.Series([1, 1, 1, 1, 2])
    s = ef.from_pandas(ps, device=device)
    tm.assert_series_equal(ef.qcut(s, 4, duplicates="drop").to_pandas(),
                           pd.qcut(ps, 4, duplicates="drop"))
    _same_error(lambda: pd.qcut(ps, 4), lambda: ef.qcut(s, 4))
    _same_error(lambda: pd.qcut(ps, 0), lambda: ef.qcut(s, 0))
    _same_error(lambda: pd.qcut(ps, [0, 1.5]), lambda: ef.qcut(s, [0, 1.5]))
    _same_error(lambda: pd.qcut(ps, "x"), lambda: ef.qcut(s, "x"))
    empty = pd.Series([], dtype=float)
    _same_error(lambda: pd.qcut(empty, 2), lambda: ef.qcut(ef.from_pandas(empty), 2))


# ---- crosstab

@pytest.fixture
def keys(device):
    a = pd.Series(["x", "y", "x", None, "y", "x", "z"], name="A")
    b = pd.Series(["p", "q", "q", "p", None, "p", "q"], name="B")
    v = pd.Series([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, np.nan], name="V")
    return (a, b, v), tuple(ef.from_pandas(x, device=device) for x in (a, b, v))


@pytest.mark.parametrize("kw", [
    {}, dict(margins=True), dict(margins=True, margins_name="Total"), dict(dropna=False),
    dict(dropna=False, margins=True), dict(dropna=False, margins=True, values=True,
                                           aggfunc="sum"),
    dict(rownames=["R"], colnames=["C"]),
    dict(values=True, aggfunc="mean"), dict(values=True, aggfunc="sum"),
    dict(values=True, aggfunc=np.sum), dict(values=True, aggfunc="count"),
    dict(values=True, aggfunc="max", margins=True),
    dict(normalize=True), dict(normalize="index"), dict(normalize="columns"),
    dict(normalize=0), dict(normalize=1),
    dict(normalize="all", margins=True), dict(normalize="index", margins=True),
    dict(normalize="columns", margins=True)], ids=str)
def test_crosstab(keys, kw):
    (a, b, v), (ea, eb, ev) = keys
    kp, ke = dict(kw), dict(kw)
    if kw.get("values"):
        kp["values"], ke["values"] = v, ev
    tm.assert_frame_equal(ef.crosstab(ea, eb, **ke).to_pandas(), pd.crosstab(a, b, **kp))


def test_crosstab_forms(device):
    a, b = np.array([1, 2, 1, 2]), np.array([3, 3, 4, 3])
    tm.assert_frame_equal(ef.crosstab(ember.asarray(a, device=device),
                                      ember.asarray(b, device=device)).to_pandas(),
                          pd.crosstab(a, b))
    tm.assert_frame_equal(ef.crosstab(["a", "b", "a"], ["c", "c", "d"]).to_pandas(),
                          pd.crosstab(["a", "b", "a"], ["c", "c", "d"]))
    s = pd.Series(["u", "v", "u"], name="S")
    tm.assert_frame_equal(ef.crosstab(ef.from_pandas(s, device=device),
                                      ef.from_pandas(s, device=device)).to_pandas(),
                          pd.crosstab(s, s))
    e = pd.Series([], dtype=str, name="E")
    tm.assert_frame_equal(ef.crosstab(ef.from_pandas(e, device=device),
                                      ef.from_pandas(e.rename("F"), device=device))
                          .to_pandas(), pd.crosstab(e, e.rename("F")))


def test_crosstab_bad_input(keys):
    (a, b, v), (ea, eb, ev) = keys
    _same_error(lambda: pd.crosstab(a, b, values=v), lambda: ef.crosstab(ea, eb, values=ev))
    _same_error(lambda: pd.crosstab(a, b, aggfunc="sum"),
                lambda: ef.crosstab(ea, eb, aggfunc="sum"))
    _same_error(lambda: pd.crosstab(a, b, normalize="x"),
                lambda: ef.crosstab(ea, eb, normalize="x"))
    _same_error(lambda: pd.crosstab(a, b, rownames=["a", "b"]),
                lambda: ef.crosstab(ea, eb, rownames=["a", "b"]))
    # several keys: MultiIndex rows or columns (test_frame_pivot_multi.py)
    tm.assert_frame_equal(ef.crosstab(ea, [eb, ea]).to_pandas(), pd.crosstab(a, [b, a]))
    tm.assert_frame_equal(ef.crosstab([ea, eb], eb).to_pandas(), pd.crosstab([a, b], b))
    with pytest.raises(NotImplementedError, match="normalize"):
        ef.crosstab([ea, eb], eb, normalize=True)
    with pytest.raises(NotImplementedError, match="margins"):
        ef.crosstab(ember.asarray([1, 2]), ember.asarray([3, 4]), margins=True)
    with pytest.raises(NotImplementedError, match="unobserved categories"):
        ef.crosstab(ea.astype("category"), eb, dropna=False)


def test_crosstab_categorical_key(keys, device):
    (a, b, v), (ea, eb, ev) = keys
    ca = a.astype(pd.CategoricalDtype(["z", "y", "x", "w"]))
    got = ef.crosstab(ef.from_pandas(ca, device=device), eb).to_pandas()
    tm.assert_frame_equal(got, pd.crosstab(ca, b))


def test_guide_lines(device):
    """The pandas user guide's reshaping steps these functions stopped."""
    df = pd.DataFrame({"A": ["one", "one", "two", "three"] * 6,
                       "C": ["foo", "foo", "foo", "bar", "bar", "bar"] * 4})
    edf = ef.from_pandas(df, device=device)
    tm.assert_frame_equal(ef.crosstab(edf["A"], edf["C"]).to_pandas(),
                          pd.crosstab(df["A"], df["C"]))
    tm.assert_frame_equal(ef.get_dummies(ef.Series(list("abca"), device=device)).to_pandas(),
                          pd.get_dummies(pd.Series(list("abca"))))
    tm.assert_series_equal(ef.cut(ef.Series([1, 7, 5, 4, 6, 3], device=device), 3)
                           .to_pandas(), pd.cut(pd.Series([1, 7, 5, 4, 6, 3]), 3))


@pytest.mark.parametrize("name", ["cut", "qcut", "get_dummies", "factorize", "crosstab"])
def test_signatures(name):
    """pandas' parameter names, order and defaults (a caller's keywords)."""
    import inspect

    def params(f):
        return [(p.name, p.default) for p in inspect.signature(f).parameters.values()]
    assert params(getattr(ef, name)) == params(getattr(pd, name))
    if name == "factorize":
        assert params(ef.Series.factorize) == params(pd.Series.factorize)
        assert params(ef.Index.factorize) == params(pd.Index.factorize)
