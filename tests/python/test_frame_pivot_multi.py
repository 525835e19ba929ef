"""pivot_table with several index and columns keys, lists of values and
aggregations, a dict of aggregations and margins, against pandas; the
MultiIndex columns they make (to_pandas, from_pandas, columns, df[top])."""
import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
ef = ember.frame
tm = pd.testing


def _pdf():
    rng = np.random.default_rng(11)
    return pd.DataFrame({"A": ["one", "one", "two", "three"] * 6,
                         "B": ["A", "B", "C"] * 8,
                         "C": ["foo", "foo", "foo", "bar", "bar", "bar"] * 4,
                         "E": rng.standard_normal(24),
                         "D": rng.integers(0, 5, 24),
                         "I": pd.array(rng.integers(0, 9, 24), dtype="Int64"),
                         "k": rng.integers(0, 3, 24)})


@pytest.fixture
def pair(device):
    pdf = _pdf()
    pdf.loc[[0, 7], "E"] = np.nan
    pdf.loc[[3], "C"] = None
    pdf.loc[5, "I"] = pd.NA
    return pdf, ef.from_pandas(pdf, device=device)


def _both(pdf, df, **kw):
    e = pd.pivot_table(pdf, **kw)
    tm.assert_frame_equal(ef.pivot_table(df, **kw).to_pandas(), e)
    tm.assert_frame_equal(df.pivot_table(**kw).to_pandas(), e)


CASES = [
    dict(values="D", index=["B"], columns=["A", "C"], aggfunc="sum"),
    dict(values="E", index=["A", "B"], columns=["C", "k"]),
    dict(values=["E", "D"], index="A", columns="C"),
    dict(values=["E", "D"], index="A", columns="C", sort=False),
    dict(values=["E", "D"], index=["C", "B"], sort=False),
    dict(values=["D"], index="A", columns="C"),
    dict(values=["E", "D"], index="A"),
    dict(values="D", index="A"),
    dict(values=["E", "D", "I"], index="A", columns="C",
         aggfunc={"E": "sum", "D": "max", "I": "min"}),
    dict(values=["E", "D"], index="A", columns="C", aggfunc=["max", np.sum]),
    dict(values=["E", "I"], index="k", columns=["B", "C"], aggfunc=["count", "mean"]),
    dict(values="D", index="A", columns=["B", "C"], aggfunc="sum", fill_value=0),
    dict(values="I", index="A", columns=["B", "C"], aggfunc="sum"),
    dict(index=["A", "B"], columns="C", values=["D", "E"]),
]

MARGINS = [
    dict(values="E", index="A", columns="C"),
    dict(values="D", index="A", columns="B", aggfunc="sum"),
    dict(values="D", index="A", columns="B", aggfunc="mean"),
    dict(values=["E", "D"], index="A", columns="C", aggfunc="count"),
    dict(values="D", index="A", columns="C", aggfunc="count"),
    dict(values="D", index="A"),
    dict(values=["E", "D"], index="A"),
    dict(values="D", index=["A", "B"], columns="C", aggfunc="sum"),
    dict(values="E", index="A", columns=["B", "C"]),
    dict(values=["E", "D"], index="A", columns=["B", "C"], aggfunc=["min", "mean"]),
    dict(values="D", index="C", columns="k", aggfunc="max", margins_name="Total"),
]


@pytest.mark.parametrize("kw", CASES, ids=range(len(CASES)))
def test_several_keys_values_aggs(pair, kw):
    _both(*pair, **kw)


@pytest.mark.parametrize("kw", MARGINS, ids=range(len(MARGINS)))
def test_margins(pair, kw):
    _both(*pair, margins=True, **kw)


def test_guide_snippets(device):
    """The two of pandas' reshaping guide that ember used to refuse."""
    pdf = _pdf()
    df = ef.from_pandas(pdf, device=device)
    _both(pdf, df, values="D", index=["B"], columns=["A", "C"], aggfunc="sum")
    _both(pdf, df, values="E", index="A", columns="C", margins=True)


def test_multiindex_columns(pair):
    pdf, df = pair
    kw = dict(values=["E", "D"], index="A", columns=["B", "C"], aggfunc="sum")
    e, r = pdf.pivot_table(**kw), df.pivot_table(**kw)
    cols = r.columns
    assert isinstance(cols, ef.MultiIndex)
    assert cols.names == [None, "B", "C"]
    tm.assert_index_equal(cols.to_pandas(), e.columns)
    # df[top] drops the first level, as pandas
    tm.assert_frame_equal(r["D"].to_pandas(), e["D"])
    tm.assert_series_equal(r[("E", "A", "foo")].to_pandas(), e[("E", "A", "foo")])
    # from_pandas keeps the tuples and the levels' names
    back = ef.from_pandas(e, device=pair[1]._device())
    tm.assert_frame_equal(back.to_pandas(), e)
    assert back.columns.names == [None, "B", "C"]
    m = pdf.pivot_table(values="E", index="A", columns=["C", "B"], margins=True)
    rm = df.pivot_table(values="E", index="A", columns=["C", "B"], margins=True)
    tm.assert_series_equal(rm["All"].to_pandas(), m["All"])   # ('All', '') is one column
    with pytest.raises(KeyError):
        r["nope"]


def test_errors(pair):
    pdf, df = pair
    bad = [dict(values="nope", index="A", columns="C"),
           dict(values="D", index="nope", columns="C"),
           dict(values="D", index="A", columns=["C", "nope"]),
           dict(values=["D", "nope"], index="A"),
           dict(values="D", index="A", columns="A")]
    for kw in bad:
        with pytest.raises(Exception) as want:
            pd.pivot_table(pdf, **kw)
        with pytest.raises(want.type):
            ef.pivot_table(df, **kw)
    with pytest.raises(KeyError, match="nope"):
        ef.pivot_table(df, values="D", index="A", columns=["C", "nope"])
    with pytest.raises(NotImplementedError, match="aggfunc"):
        df.pivot_table(values="D", index="A", aggfunc=lambda x: x.sum())
    with pytest.raises(NotImplementedError, match="margins"):   # pandas: object index
        df.pivot_table(values="D", index="k", columns="C", margins=True)
    with pytest.raises(NotImplementedError, match="dropna=False"):
        df.pivot_table(values="D", index="A", columns=["B", "C"], dropna=False)
    with pytest.raises(NotImplementedError, match="dropna=False"):
        df.pivot_table(values="D", index="A", columns="C", dropna=False, margins=True)
    with pytest.raises(NotImplementedError, match="list in an aggfunc dict"):
        df.pivot_table(values=["D", "E"], index="A", aggfunc={"D": ["sum", "max"]})


def _xt_keys():
    a = ["foo", "foo", "foo", "foo", "bar", "bar", "bar", "bar", "foo", "foo", None]
    b = ["one", "one", "one", "two", "one", "one", "one", "two", "two", "two", "one"]
    c = ["dull", "dull", "shiny", "dull", "dull", "shiny", "shiny", "dull", "shiny",
         "shiny", "shiny"]
    return (pd.Series(a, name="A"), pd.Series(b, name="B"), pd.Series(c, name="C"),
            pd.Series(np.arange(11.0), name="V"))


XT = [
    lambda a, b, c, v, m: m.crosstab(a, [b, c]),
    lambda a, b, c, v, m: m.crosstab(a, [b, c], rownames=["x"], colnames=["y", "z"]),
    lambda a, b, c, v, m: m.crosstab([a, b], c, margins=True),
    lambda a, b, c, v, m: m.crosstab([a, b], [c], margins=True, margins_name="T"),
    lambda a, b, c, v, m: m.crosstab([a], [b, c], margins=True),
    lambda a, b, c, v, m: m.crosstab([a, b], c, values=v, aggfunc="sum"),
    lambda a, b, c, v, m: m.crosstab([a, b], c, values=v, aggfunc=np.mean, margins=True),
]


@pytest.mark.parametrize("i", range(len(XT)))
def test_crosstab_several_keys(device, i):
    keys = _xt_keys()
    ekeys = [ef.from_pandas(k, device=device) for k in keys]
    tm.assert_frame_equal(XT[i](*ekeys, ef).to_pandas(), XT[i](*keys, pd))


def test_crosstab_several_keys_errors(device):
    a, b, c, v = [ef.from_pandas(k, device=device) for k in _xt_keys()]
    with pytest.raises(AssertionError):   # pandas' message for names of another length
        ef.crosstab([a, b], c, rownames=["x"])
    with pytest.raises(NotImplementedError, match="normalize"):
        ef.crosstab([a, b], c, normalize="index")
    with pytest.raises(NotImplementedError, match="categorical"):
        ef.crosstab([a.astype("category"), b], c)
    with pytest.raises(ValueError, match="one length"):
        ef.crosstab([a, b], ["x"])


def _fuzz_pdf():
    rng = np.random.default_rng(5)
    n = 40
    return pd.DataFrame({
        "a": rng.choice(["x", "y", "z", None], n), "b": rng.choice(["p", "q"], n),
        "c": rng.choice(["u", "v", "w"], n), "k": rng.integers(0, 3, n),
        "f": np.where(rng.random(n) < 0.2, np.nan, rng.standard_normal(n)),
        "i": rng.integers(-5, 5, n),
        "I": pd.array(np.where(rng.random(n) < 0.2, None, rng.integers(0, 9, n)),
                      dtype="Int64")})


LAYOUT = [   # each once found to differ from pandas
    dict(index="a", columns="b", values=["f", "i"], aggfunc="sum", margins=True),
    dict(index="a", values=["f", "i"], aggfunc="sum", margins=True),
    dict(index="a", columns=["c", "k"], values="I", aggfunc="sum", margins=True),
    dict(index="a", columns=["c", "k"], values=["I"], aggfunc="nunique", margins=True,
         fill_value=0),
    dict(index="a", columns=["c", "k"], values=["f", "i"], aggfunc="std", fill_value=0),
    dict(index="a", columns=["c", "k"], values=["f", "i"], aggfunc="std", margins=True),
    dict(index=["a", "b"], columns=["c", "k"], values="f", aggfunc="std"),
    dict(index="a", columns=["b", "c"], values=["f", "i"], aggfunc=["min", "max"],
         margins=True),
]


@pytest.mark.parametrize("i", range(len(LAYOUT)))
def test_layout_details(device, i):
    pdf = _fuzz_pdf()
    kw = LAYOUT[i]
    got = ef.pivot_table(ef.from_pandas(pdf, device=device), **kw).to_pandas()
    want = pd.pivot_table(pdf, **kw)
    tm.assert_frame_equal(got, want, check_index_type=bool(len(want.columns)),
                          check_column_type=bool(len(want.columns)))


def test_quirks_refused(device):
    df = ef.from_pandas(_fuzz_pdf(), device=device)
    with pytest.raises(NotImplementedError, match="size"):   # pandas' layout varies
        df.pivot_table(index="a", values=["f", "i"], aggfunc="size")
    with pytest.raises(NotImplementedError, match="AttributeError"):
        df.pivot_table(index="a", columns="b", values="f", aggfunc="first", margins=True)
    with pytest.raises(NotImplementedError, match="sort=False"):
        df.pivot_table(index="a", columns=["b", "c"], values="f", sort=False)
    pdf = _fuzz_pdf()   # one columns key and one value: size as pandas
    tm.assert_frame_equal(df.pivot_table(index="a", columns="b", values="f",
                                         aggfunc="size").to_pandas(),
                          pdf.pivot_table(index="a", columns="b", values="f",
                                          aggfunc="size"))
