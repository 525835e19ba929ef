"""DataFrame.iterrows and GroupBy.filter against pandas: rows of mixed
and uniform dtypes (labels of a MultiIndex too); groups kept and dropped,
dropna=False, keys with missing values, SeriesGroupBy, and pandas'
TypeError for an answer that is not a bool."""
import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
ef = ember.frame
tm = pd.testing


def _pdf():
    return pd.DataFrame({
        "f": [1.5, np.nan, 2.5, -1.0, 2.5, np.nan, 0.25, 8.0],
        "i": [3, 1, 3, 2, 5, 1, 3, 7],
        "I": pd.array([1, None, 3, 3, None, 6, 1, 2], dtype="Int64"),
        "b": [True, False, True, True, False, False, True, False],
        "s": ["x", None, "yé", "x", "", "日本", "x", "z"],
        "d": pd.to_datetime(["2020-01-01", None, "2020-03-01", "2020-01-04",
                             "2021-01-01", "2020-01-01", "2020-01-02", "2020-05-05"]),
        "k": ["a", "b", None, "a", "c", None, "b", "a"],
    }, index=pd.Index([70, 60, 50, 40, 30, 20, 10, 0]))


@pytest.fixture
def pair(device):
    pdf = _pdf()
    return pdf, ef.from_pandas(pdf, device=device)


def _same_rows(got, want):
    got, want = list(got), list(want)
    assert [k for k, _ in got] == [k for k, _ in want]
    assert len(got) == len(want)
    for (_, a), (_, b) in zip(got, want):
        assert isinstance(a, pd.Series)
        tm.assert_series_equal(a, b)


@pytest.mark.parametrize("cols", [
    None,                      # mixed: object rows
    ["f", "i"],                # float64 rows
    ["i"],                     # int64 rows
    ["I", "f"],                # object (pandas' interleaving of Int64 and float)
    ["I"],                     # float64 (Int64 with NA as NaN)
    ["i", "b"],                # object
    ["b"],                     # bool
    ["s", "k"],                # str rows
    ["d"],                     # datetime64 rows
])
def test_iterrows(pair, cols):
    pdf, df = pair
    if cols is not None:
        pdf, df = pdf[cols], df[cols]
    _same_rows(df.iterrows(), pdf.iterrows())


def test_iterrows_labels(device):
    mi = pd.MultiIndex.from_tuples([("a", 1), ("a", 2), ("b", 1)], names=["x", "y"])
    pdf = pd.DataFrame({"v": [1.0, 2.0, 3.0], "s": ["p", "q", "r"]}, index=mi)
    _same_rows(ef.from_pandas(pdf, device=device).iterrows(), pdf.iterrows())
    pdf = pd.DataFrame({"v": [1.0, 2.0]}, index=pd.to_datetime(["2020-01-01",
                                                                "2020-01-02"]))
    _same_rows(ef.from_pandas(pdf, device=device).iterrows(), pdf.iterrows())
    empty = pdf.iloc[:0]
    assert list(ef.from_pandas(empty, device=device).iterrows()) == []


def test_iterrows_copies_once(pair, monkeypatch):
    # one host copy for the whole frame, not one per row
    pdf, df = pair
    calls = []
    real = type(df).to_numpy
    monkeypatch.setattr(type(df), "to_numpy",
                        lambda self, *a, **k: calls.append(1) or real(self, *a, **k))
    rows = list(df.iterrows())
    assert len(rows) == len(pdf) and len(calls) == 1


def _same(got, want):
    if isinstance(want, pd.DataFrame):
        tm.assert_frame_equal(got.to_pandas(), want)
    else:
        tm.assert_series_equal(got.to_pandas(), want)


def _both(pair, f):
    pdf, df = pair
    _same(f(df), f(pdf))


@pytest.mark.parametrize("f", [
    lambda g: g.filter(lambda x: len(x) > 1),
    lambda g: g.filter(lambda x: len(x) > 2),
    lambda g: g.filter(lambda x: x["f"].sum() > 2),       # a NumPy bool
    lambda g: g.filter(lambda x: False),
    lambda g: g.filter(lambda x: True),
    lambda g: g.filter(lambda x: x.name in ("a", "c")),  # the group's key as name
    lambda g: g.filter(lambda x, t: len(x) > t, True, 1),
    lambda g: g.filter(lambda x, t=0: len(x) > t, t=2),
    lambda g: g.filter(lambda x: np.nan),                 # missing: dropped
    lambda g: g.filter(lambda x: x[["i"]].head(1) > 2),   # one value, squeezed
], ids=["len>1", "len>2", "sum", "none", "all", "name", "args", "kwargs", "nan",
        "squeeze"])
def test_filter_frame(pair, f):
    _both(pair, lambda d: f(d.groupby("k")))
    _both(pair, lambda d: f(d.groupby("k", sort=False)))


def test_filter_keys_with_missing_values(pair):
    # groupby(dropna=True) puts the null keys' rows in no group: never kept
    _both(pair, lambda d: d.groupby("k").filter(lambda x: True))
    # dropna=False makes them a group of their own
    _both(pair, lambda d: d.groupby("k", dropna=False).filter(lambda x: len(x) == 2))
    _both(pair, lambda d: d.groupby("k", dropna=False).filter(lambda x: len(x) != 2))


def test_filter_dropna_false(pair):
    cols = ["k", "f", "i", "I", "s", "d"]
    _both(pair, lambda d: d[cols].groupby("k").filter(lambda x: len(x) > 2,
                                                      dropna=False))
    _both(pair, lambda d: d.groupby("k")["i"].filter(lambda x: x.sum() > 5,
                                                     dropna=False))
    # a bool column with nulls is pandas' object column
    pdf, df = pair
    with pytest.raises(NotImplementedError, match="object"):
        df.groupby("k").filter(lambda x: len(x) > 2, dropna=False)


def test_filter_several_keys_and_selections(pair):
    _both(pair, lambda d: d.groupby(["k", "b"]).filter(lambda x: x.name[1]))
    _both(pair, lambda d: d.groupby("k")[["f", "i"]].filter(lambda x: x["i"].max() > 3))
    _both(pair, lambda d: d.groupby("i").filter(lambda x: x["f"].notna().all()))


def test_filter_series(pair):
    _both(pair, lambda d: d.groupby("k")["f"].filter(lambda x: x.mean() > 1))
    _both(pair, lambda d: d.groupby("k")["i"].filter(lambda x: 1))   # truthy: kept
    _both(pair, lambda d: d.groupby("k")["i"].filter(lambda x: np.nan))
    _both(pair, lambda d: d.groupby("k")["b"].filter("any"))
    _both(pair, lambda d: d["i"].groupby(d["k"]).filter(lambda x: len(x) > 1))


def test_filter_groups_are_gathered_rows(pair):
    # each group holds its rows in their order, with their labels
    pdf, df = pair
    seen = []
    pseen = []
    df.groupby("k").filter(lambda x: seen.append(x.to_pandas()) or True)
    pdf.groupby("k").filter(lambda x: pseen.append(x) or True)
    assert len(seen) == len(pseen) == 3
    for a, b in zip(seen, pseen):
        tm.assert_frame_equal(a, b)


@pytest.mark.parametrize("answer, kind", [(lambda x: 1, "int"),
                                          (lambda x: "yes", "str"),
                                          (lambda x: x["f"] > 1, "Series"),
                                          (lambda x: x[["f", "i"]].head(1) > 1, "Series"),
                                          (lambda x: x[["f", "i"]] > 1, "DataFrame")])
def test_filter_not_a_bool(pair, answer, kind):
    pdf, df = pair
    msg = f"filter function returned a {kind}, but expected a scalar bool"
    with pytest.raises(TypeError, match=msg):
        pdf.groupby("k").filter(answer)
    with pytest.raises(TypeError, match=msg):
        df.groupby("k").filter(answer)
    with pytest.raises(TypeError, match="the filter must return a boolean result"):
        df.groupby("k")["f"].filter(lambda x: x > 1)


def test_filter_empty(pair):
    _both(pair, lambda d: d.iloc[:0].groupby("k").filter(lambda x: True))
