"""apply and map of Python functions compiled by ember's kernel translator,
and map by a dict or a Series, against pandas on the same data."""
import math

import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
ef = ember.frame
tm = pd.testing


@pytest.fixture
def pair(device):
    pdf = pd.DataFrame({"a": [3, 1, 2, 1, 5, 0], "f": [1.5, np.nan, 2.0, 0.5, -1.0, 9.0],
                        "i32": np.array([1, -2, 3, 4, 5, 6], dtype="int32"),
                        "I": pd.array([1, None, 3, 4, None, 6], dtype="Int64"),
                        "b": [True, False, True, True, False, False],
                        "s": ["x", None, "yé", "x", "", "日本"]},
                       index=pd.RangeIndex(10, 16))
    return pdf, ef.from_pandas(pdf, device=device)


def branchy(x):
    if x > 1.0:
        return math.sqrt(x)
    elif x < 0:
        return -x * 2.0
    return x + 0.5


def clipped(x, lo, hi=4):
    return min(max(x, lo), hi)


def test_series_apply_functions(pair):
    pdf, df = pair
    for col, f in [("f", branchy), ("a", branchy), ("f", lambda x: x * 2 + 1),
                   ("a", lambda x: x * 2), ("i32", lambda x: x * 3),
                   ("a", lambda x: x > 1), ("b", lambda x: not x),
                   ("f", np.sqrt), ("a", math.sqrt), ("a", abs), ("f", np.floor),
                   ("f", lambda x: math.exp(x) if x == x else 0.0)]:
        tm.assert_series_equal(df[col].apply(f).to_pandas(), pdf[col].apply(f))
        tm.assert_series_equal(df[col].map(f).to_pandas(), pdf[col].map(f))


def test_series_apply_arguments_and_closures(pair):
    pdf, df = pair
    tm.assert_series_equal(df["a"].apply(clipped, args=(2,)).to_pandas(),
                           pdf["a"].apply(clipped, args=(2,)))
    tm.assert_series_equal(df["a"].apply(clipped, args=(1,), hi=3).to_pandas(),
                           pdf["a"].apply(clipped, args=(1,), hi=3))
    tm.assert_series_equal(df["a"].apply(clipped, (2,)).to_pandas(),
                           pdf["a"].apply(clipped, (2,)))
    tm.assert_series_equal(df["a"].map(clipped, lo=2).to_pandas(),
                           pdf["a"].map(clipped, lo=2))
    tm.assert_series_equal(df["a"].apply(lambda s: s * 2, by_row=False).to_pandas(),
                           pdf["a"].apply(lambda s: s * 2, by_row=False))
    tm.assert_series_equal(df[["a", "f"]].apply(lambda r: r.a - r.f, 1).to_pandas(),
                           pdf[["a", "f"]].apply(lambda r: r.a - r.f, 1))
    for k in (1, 3):   # a new value of a captured variable is a new kernel
        got = df["a"].apply(lambda x: x >= k).to_pandas()
        tm.assert_series_equal(got, pdf["a"].apply(lambda x: x >= k))


def test_series_apply_nullable_and_empty(pair):
    pdf, df = pair
    tm.assert_series_equal(df["I"].apply(lambda x: x * 2).to_pandas(),
                           pdf["I"].apply(lambda x: x * 2))
    e = ef.Series([], dtype="int64")
    tm.assert_series_equal(e.apply(lambda x: x * 0.5).to_pandas(),
                           pd.Series([], dtype="int64").apply(lambda x: x * 0.5))
    one = ef.Series([4.0], index=[7], name="z")
    tm.assert_series_equal(one.apply(branchy).to_pandas(),
                           pd.Series([4.0], index=[7], name="z").apply(branchy))


def test_frame_apply_rows(pair):
    pdf, df = pair
    num = ["a", "f", "i32"]

    def row_fn(row):
        if row["a"] > 1 and row.f == row.f:
            return row.a * row["f"]
        return -1.0
    for f in [row_fn, lambda r: r.a + r.i32, lambda r: r["a"] > r["i32"],
              lambda r: math.hypot(r.a, r.i32), lambda r: 1.5]:
        tm.assert_series_equal(df[num].apply(f, axis=1).to_pandas(),
                               pdf[num].apply(f, axis=1))
    f = (lambda r: r.get("a") + r.get("zz", 0.5))
    tm.assert_series_equal(df[num].apply(f, axis=1).to_pandas(), pdf[num].apply(f, axis=1))
    f = (lambda r: r.f * 2 if r.name % 2 == 0 else r.name)    # row.name: the label
    tm.assert_series_equal(df[num].apply(f, axis=1).to_pandas(), pdf[num].apply(f, axis=1))
    # int32 rows stay int32, as NumPy scalars do in pandas' rows
    tm.assert_series_equal(df[["i32"]].apply(lambda r: r.i32 * 2, axis=1).to_pandas(),
                           pdf[["i32"]].apply(lambda r: r.i32 * 2, axis=1))
    # a frame with a str column gives rows of Python values
    f = (lambda r: r.a * 2 if r.b else r.a)
    tm.assert_series_equal(df.apply(f, axis="columns").to_pandas(),
                           pdf.apply(f, axis="columns"))


def test_frame_apply_columns_and_map(pair):
    pdf, df = pair
    num = ["a", "f", "i32"]
    tm.assert_series_equal(df[num].apply(lambda c: c.max()).to_pandas(),
                           pdf[num].apply(lambda c: c.max()))
    tm.assert_frame_equal(df[num].apply(lambda c: c * 2).to_pandas(),
                          pdf[num].apply(lambda c: c * 2))
    tm.assert_frame_equal(df[num].map(lambda x: x * 2).to_pandas(),
                          pdf[num].map(lambda x: x * 2))


def test_refusals(pair):
    pdf, df = pair
    with pytest.raises(NotImplementedError, match="str"):
        df["a"].apply(lambda x: str(x))
    with pytest.raises(NotImplementedError, match=r"\.str methods"):
        df["s"].apply(lambda x: x)
    with pytest.raises(NotImplementedError, match="row as a whole"):
        df[["a", "f"]].apply(lambda r: branchy(r), axis=1)
    with pytest.raises(NotImplementedError, match="row.sum"):
        df[["a", "f"]].apply(lambda r: r.sum(), axis=1)
    with pytest.raises(NotImplementedError, match="not a column"):
        df[["a", "f"]].apply(lambda r: r.zz, axis=1)
    with pytest.raises(KeyError):
        df[["a", "f"]].apply(lambda r: r["zz"], axis=1)
    with pytest.raises(ValueError):
        df.apply(lambda c: c, axis=2)
    with pytest.raises(ValueError, match="na_action"):
        df["a"].map(lambda x: x, na_action="bad")
    with pytest.raises(TypeError):
        df["a"].map(3)


def test_map_dict_and_series(pair):
    pdf, df = pair
    for col, mapper in [("a", {1: 10, 2: 20}), ("a", {1: 10, 2: 20, 3: 30, 5: 1, 0: 0}),
                        ("a", {1: 1.5}), ("a", {}), ("s", {"x": "X", "日本": "jp"}),
                        ("s", {"x": 1, "yé": 2}), ("f", {1.5: 1, np.nan: -1}),
                        ("I", {1: 10, 3: 30}), ("I", {1: 10, 3: 30, 4: 4, 6: 6}),
                        ("a", {"x": 1})]:
        tm.assert_series_equal(df[col].map(mapper).to_pandas(), pdf[col].map(mapper))
    m = pd.Series([100, 200], index=[1, 5])
    tm.assert_series_equal(df["a"].map(ef.from_pandas(m, device=df["a"].device)).to_pandas(),
                           pdf["a"].map(m))
    dup = ef.Series([1, 2], index=[1, 1])
    with pytest.raises(Exception, match="uniquely valued"):
        df["a"].map(dup)


def test_map_many_values(device):
    rng = np.random.default_rng(0)
    keys = rng.integers(0, 5000, 20000)
    mapper = {int(k): float(k) / 7 for k in range(0, 5000, 3)}
    ps = pd.Series(keys)
    tm.assert_series_equal(ef.Series(keys, device=device).map(mapper).to_pandas(),
                           ps.map(mapper))
    tm.assert_series_equal(ef.Series(keys, device=device).apply(branchy).to_pandas(),
                           ps.apply(branchy))
