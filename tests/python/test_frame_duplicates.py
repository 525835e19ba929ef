"""Repeated column labels, as pandas keeps them: construction, df[label]
of a repeat (a frame), concat(axis=1) of a shared name, columns.is_unique
and duplicated(), loc[:, ~duplicated()], rename, drop, del, assignment,
reductions, from_pandas, and pandas' errors where one column must be
named or an axis must be unique. Every result is compared with pandas."""
import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
ef = ember.frame
tm = pd.testing


def _eq(got, want):
    if isinstance(want, pd.Series):
        tm.assert_series_equal(got.to_pandas(), want)
    else:
        tm.assert_frame_equal(got.to_pandas(), want)


def _pair(device, columns=("a", "b", "a")):
    data = np.arange(4.0 * len(columns)).reshape(4, len(columns))
    return (ef.DataFrame(data, columns=list(columns), device=device),
            pd.DataFrame(data, columns=list(columns)))


def test_construct_and_select(device):
    e, p = _pair(device)
    _eq(e, p)
    assert list(e.columns) == list(p.columns) and list(e) == list(p)
    assert e.shape == p.shape
    _eq(e["a"], p["a"])                 # a repeated label: a frame of its columns
    _eq(e["b"], p["b"])                 # a single one: a Series
    _eq(e[["b", "a"]], p[["b", "a"]])
    _eq(e.iloc[:, [2, 1]], p.iloc[:, [2, 1]])
    _eq(e.iloc[:, 0], p.iloc[:, 0])
    _eq(e.loc[:, "a"], p.loc[:, "a"])
    _eq(e.head(2), p.head(2))
    _eq(e[e["b"] > 2], p[p["b"] > 2])
    assert [k for k, _ in e.items()] == [k for k, _ in p.items()]
    for (_, s), (_, q) in zip(e.items(), p.items()):
        _eq(s, q)
    rows = [[1, "x", 2.5], [2, "y", 3.5]]
    _eq(ef.DataFrame(rows, columns=["k", "k", "v"], device=device),
        pd.DataFrame(rows, columns=["k", "k", "v"]))


def test_columns_unique_and_duplicated(device):
    e, p = _pair(device, ("a", "b", "a", "c", "b"))
    assert e.columns.is_unique == p.columns.is_unique is False
    assert e.columns.has_duplicates
    for keep in ("first", "last", False):
        np.testing.assert_array_equal(ember.asnumpy(e.columns.duplicated(keep=keep)),
                                      p.columns.duplicated(keep=keep))
    _eq(e.loc[:, ~e.columns.duplicated()], p.loc[:, ~p.columns.duplicated()])
    mask = list(~p.columns.duplicated(keep="last"))
    _eq(e.loc[:, mask], p.loc[:, mask])
    u, q = _pair(device, ("a", "b", "c"))
    assert u.columns.is_unique and q.columns.is_unique
    with pytest.raises(IndexError, match="wrong length"):
        e.loc[:, [True, False]]


def test_concat_axis1_repeats(device):
    p1 = pd.DataFrame({"A": [1, 2], "B": ["x", "y"]})
    p2 = pd.DataFrame({"B": [0.5, 1.5], "C": [3, 4]})
    e1, e2 = ef.from_pandas(p1, device=device), ef.from_pandas(p2, device=device)
    _eq(ef.concat([e1, e2], axis=1), pd.concat([p1, p2], axis=1))
    _eq(ef.concat([e1, e1], axis=1), pd.concat([p1, p1], axis=1))
    _eq(ef.concat([e1, e1], axis=1)["B"], pd.concat([p1, p1], axis=1)["B"])
    _eq(ef.concat([e1, e2], axis=1, ignore_index=True),
        pd.concat([p1, p2], axis=1, ignore_index=True))
    p3 = pd.DataFrame({"B": [7, 8, 9]}, index=[1, 2, 3])
    e3 = ef.from_pandas(p3, device=device)
    _eq(ef.concat([e1, e3], axis=1), pd.concat([p1, p3], axis=1))
    _eq(ef.concat([e1, e3], axis=1, join="inner"), pd.concat([p1, p3], axis=1, join="inner"))
    # a frame with repeats concatenated below another keeps them
    _eq(ef.concat([e1["A"], e1["A"]], axis=1), pd.concat([p1["A"], p1["A"]], axis=1))


def test_rename_drop_del_assign(device):
    e, p = _pair(device)
    _eq(e.rename(columns={"a": "z"}), p.rename(columns={"a": "z"}))
    _eq(e.rename(columns={"b": "a"}), p.rename(columns={"b": "a"}))   # makes three
    _eq(e.rename(columns=str.upper), p.rename(columns=str.upper))
    _eq(e.drop(columns="a"), p.drop(columns="a"))
    _eq(e.drop(columns=["b"]), p.drop(columns=["b"]))
    _eq(e.drop("a", axis=1), p.drop("a", axis=1))
    e2, p2 = e.copy(), p.copy()
    e2["a"] = 7.0
    p2["a"] = 7.0
    _eq(e2, p2)
    e2["new"] = e2["b"] * 2
    p2["new"] = p2["b"] * 2
    _eq(e2, p2)
    del e2["a"]
    del p2["a"]
    _eq(e2, p2)
    e3, p3 = _pair(device, ("x", "y", "z"))
    e3.columns = ["y", "y", "z"]
    p3.columns = ["y", "y", "z"]
    _eq(e3, p3)
    e3.insert(0, "z", [1, 2, 3, 4], allow_duplicates=True)
    p3.insert(0, "z", [1, 2, 3, 4], allow_duplicates=True)
    _eq(e3, p3)
    with pytest.raises(ValueError, match="already exists"):
        e3.insert(0, "z", [1, 2, 3, 4])
    with pytest.raises(ValueError, match="already exists"):
        p3.insert(0, "z", [1, 2, 3, 4])


def test_columnwise_operations_keep_repeats(device):
    e, p = _pair(device)
    _eq(e.sum(), p.sum())
    _eq(e.mean(), p.mean())
    _eq(e + 1, p + 1)
    _eq(e.isna(), p.isna())
    _eq(e.astype("float32"), p.astype("float32"))
    _eq(e.fillna(0), p.fillna(0))
    _eq(e.sort_values("b", ascending=False), p.sort_values("b", ascending=False))
    _eq(e.copy(), p.copy())
    assert [str(d) for d in e.dtypes] == [str(d) for d in p.dtypes]
    _eq(ef.from_pandas(p, device=device), p)
    _eq(ef.DataFrame(p, device=device), p)


def test_pandas_errors_on_repeats(device):
    e, p = _pair(device)
    for obj in (e, p):
        with pytest.raises(ValueError, match="cannot reindex on an axis with duplicate "
                                             "labels"):
            obj.reindex(columns=["a", "b"])
        with pytest.raises(ValueError, match="not unique"):
            obj.sort_values("a")
        with pytest.raises(KeyError):
            obj["zz"]
        with pytest.raises(KeyError):
            obj.drop(columns="zz")
    idx = [0, 0, 1, 2]
    e4 = ef.DataFrame({"v": [1.0, 2.0, 3.0, 4.0]}, index=idx, device=device)
    p4 = pd.DataFrame({"v": [1.0, 2.0, 3.0, 4.0]}, index=idx)
    for obj in (e4, p4, e4["v"], p4["v"]):
        with pytest.raises(ValueError, match="cannot reindex on an axis with duplicate "
                                             "labels"):
            obj.reindex([0, 1, 2, 3])


def test_transpose_repeats(device):
    p = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [4.0, 5.0, 6.0]}, index=["x", "y", "x"])
    e = ef.from_pandas(p, device=device)
    _eq(e.T, p.T)                     # a repeated row label: repeated columns
    _eq(e.T.T, p.T.T)
    _eq(e.T["x"], p.T["x"])
    f, q = _pair(device)
    _eq(f.T, q.T)
