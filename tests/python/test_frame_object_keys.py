"""Object columns as keys (ember.frame's _object_keys.py) against pandas
on every device: sort_values, groupby keys, value_counts, unique,
nunique, duplicated/drop_duplicates, fillna, == and != with a scalar or
a column, isin; for host cells (mixed objects), boxes (one scalar type)
and lists, with pandas' errors (unhashable lists, cells that do not
compare)."""
import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
ef = ember.frame
tm = pd.testing

MIXED = [1, "a", 2.5, "b", None, 1, "a", np.nan, 3, True, 1.0, "b"]
BOXED = ["x", "b", None, "a", "b", "x", None, "c"]
LISTS = [[1], [1, 2], [2], None, [1], [], [1, 2]]


def _pair(cells, device, **kw):
    p = pd.Series(cells, dtype=object, name="k", **kw)
    return ef.from_pandas(p, device=device), p


def _same(got, want):
    if isinstance(want, pd.Series):
        tm.assert_series_equal(got.to_pandas(), want)
    elif isinstance(want, pd.DataFrame):
        tm.assert_frame_equal(got.to_pandas(), want)
    elif isinstance(want, np.ndarray):
        assert got.dtype == want.dtype
        assert [repr(x) for x in got] == [repr(x) for x in want]
    else:
        assert got == want


@pytest.mark.parametrize("cells", [MIXED, BOXED], ids=["host", "box"])
def test_hash_keyed(device, cells):
    e, p = _pair(cells, device)
    assert e._col.layout == ("host" if cells is MIXED else "box")
    for dropna in (True, False):
        _same(e.value_counts(dropna=dropna), p.value_counts(dropna=dropna))
        _same(e.nunique(dropna=dropna), p.nunique(dropna=dropna))
    _same(e.value_counts(normalize=True, ascending=True),
          p.value_counts(normalize=True, ascending=True))
    _same(e.unique(), p.unique())
    for keep in ("first", "last", False):
        _same(e.duplicated(keep=keep), p.duplicated(keep=keep))
        _same(e.drop_duplicates(keep=keep), p.drop_duplicates(keep=keep))


@pytest.mark.parametrize("cells", [MIXED, BOXED], ids=["host", "box"])
def test_compare_isin_fillna(device, cells):
    e, p = _pair(cells, device)
    for x in ("a", 1, 2.5, None, np.nan, "zz"):
        _same(e == x, p == x)
        _same(e != x, p != x)
    _same(e == e, p == p)
    _same(e != e.iloc[::-1].reset_index(drop=True),
          p != p.iloc[::-1].reset_index(drop=True))
    typed = pd.Series(np.arange(len(cells)) % 3, name="k")
    _same(e == ef.from_pandas(typed, device=device), p == typed)
    for values in (["a", 2.5], [None], [np.nan, "b"], [1], [], ("x", None, np.nan)):
        _same(e.isin(values), p.isin(values))
    for v in (0, "z", 1.5):
        _same(e.fillna(v), p.fillna(v))
    _same(e.fillna("z").value_counts(), p.fillna("z").value_counts())


def test_sort_and_group_strings_kept_as_objects(device):
    e, p = _pair(BOXED, device)
    for asc in (True, False):
        for na in ("first", "last"):
            _same(e.sort_values(ascending=asc, na_position=na),
                  p.sort_values(ascending=asc, na_position=na))
    df = pd.DataFrame({"k": p, "v": np.arange(8.0), "j": [1, 2] * 4})
    edf = ef.from_pandas(df, device=device)
    _same(edf.groupby("k").sum(), df.groupby("k").sum())
    _same(edf.groupby("k", dropna=False).v.mean(), df.groupby("k", dropna=False).v.mean())
    _same(edf.groupby(["k", "j"]).v.sum(), df.groupby(["k", "j"]).v.sum())
    _same(edf.sort_values(["k", "v"], ascending=[False, True]),
          df.sort_values(["k", "v"], ascending=[False, True]))


def test_group_mixed_numbers_and_strings(device):
    # pandas' safe_sort: numbers before strings; sort_values raises instead
    e, p = _pair(MIXED, device)
    df = pd.DataFrame({"k": p, "v": np.arange(12.0)})
    edf = ef.from_pandas(df, device=device)
    _same(edf.groupby("k").sum(), df.groupby("k").sum())
    _same(edf.groupby("k").v.count(), df.groupby("k").v.count())
    _same(edf.groupby("k", dropna=False).sum(), df.groupby("k", dropna=False).sum())
    _same(edf.groupby("k", sort=False).v.max(), df.groupby("k", sort=False).v.max())
    _same(e.groupby(e).size(), p.groupby(p).size())
    with pytest.raises(TypeError, match="not supported between"):
        p.sort_values()
    with pytest.raises(TypeError, match="not supported between"):
        e.sort_values()
    with pytest.raises(TypeError, match="not supported between"):
        edf.sort_values("k")
    _same(edf.drop_duplicates("k"), df.drop_duplicates("k"))


def test_sort_comparable_host_cells(device):
    cells = [(2, 1), (1, 5), None, (1, 2), (2, 0)]
    e, p = _pair(cells, device)
    assert e._col.layout == "host"
    _same(e.sort_values(), p.sort_values())
    _same(e.sort_values(ascending=False, na_position="first"),
          p.sort_values(ascending=False, na_position="first"))
    df = pd.DataFrame({"k": p, "v": np.arange(5)})
    _same(ef.from_pandas(df, device=device).groupby("k").v.sum(), df.groupby("k").v.sum())


def test_list_cells(device):
    p = pd.Series(LISTS, name="k")
    e = ef.from_pandas(p, device=device)
    assert e._col.layout == "list"
    # pandas 3 keys lists by their contents in its hash tables ...
    _same(e.value_counts(), p.value_counts())
    _same(e.value_counts(dropna=False), p.value_counts(dropna=False))
    _same(e.duplicated(), p.duplicated())
    _same(e.drop_duplicates(keep="last"), p.drop_duplicates(keep="last"))
    _same(e.isin([[1], [2, 3]]), p.isin([[1], [2, 3]]))
    _same(e == "a", p == "a")
    _same(e.fillna(0), p.fillna(0))
    full = p.dropna()
    _same(ef.from_pandas(full, device=device).sort_values(), full.sort_values())
    # ... but groupby, unique and nunique hash the lists themselves
    for f in (lambda s: s.unique(), lambda s: s.nunique(), lambda s: s.groupby(s).size()):
        with pytest.raises(TypeError, match="unhashable type: 'list'"):
            f(p)
        with pytest.raises(TypeError, match="unhashable type: 'list'"):
            f(e)


def test_unhashable_host_cells(device):
    cells = [{"a": 1}, "s", {"a": 1}, [1, 2], 5, None]
    e, p = _pair(cells, device)
    assert e._col.layout == "host"
    _same(e.value_counts(), p.value_counts())
    _same(e.duplicated(), p.duplicated())
    _same(e == "s", p == "s")
    with pytest.raises(TypeError, match="unhashable type: 'dict'"):
        p.unique()
    with pytest.raises(TypeError, match="unhashable type: 'dict'"):
        e.unique()
    df = pd.DataFrame({"k": p, "v": range(6)})
    with pytest.raises(TypeError, match="unhashable type"):
        df.groupby("k").v.sum()
    with pytest.raises(TypeError, match="unhashable type"):
        ef.from_pandas(df, device=device).groupby("k").v.sum()


def test_frame_fillna_and_errors(device):
    df = pd.DataFrame({"k": pd.Series(MIXED, dtype=object), "v": np.arange(12.0)})
    df.loc[3, "v"] = np.nan
    edf = ef.from_pandas(df, device=device)
    _same(edf.fillna(0), df.fillna(0))
    _same(edf.fillna({"k": "none"}), df.fillna({"k": "none"}))
    e, p = _pair(MIXED, device)
    with pytest.raises(ValueError, match="(?i)lengths must match"):
        p == [1, 2]
    with pytest.raises(ValueError, match="(?i)lengths must match"):
        e == [1, 2]
    with pytest.raises(NotImplementedError, match="object column"):
        e < 1


@pytest.mark.parametrize("how", ["inner", "left", "right", "outer"])
def test_merge_on_object_keys(device, how):
    a = pd.DataFrame({"k": pd.Series([1, "a", 2.5, "a", None, 7.0], dtype=object),
                      "v": range(6)})
    b = pd.DataFrame({"k": pd.Series(["a", 1, 7, None], dtype=object),
                      "w": [10, 20, 30, 40]})
    c = pd.DataFrame({"k": pd.Series(["a", "zz", "b"], dtype=object), "w": [1, 2, 3]})
    e = {id(x): ef.from_pandas(x, device=device) for x in (a, b, c)}
    for x, y in ((a, b), (c, a), (c, c), (b, c)):
        _same(e[id(x)].merge(e[id(y)], on="k", how=how), x.merge(y, on="k", how=how))


@pytest.mark.parametrize("keys", [[np.nan, "a", 1, None], [None, "a", 1, np.nan],
                                  [None, "b", "a", np.nan, None]])
def test_null_group_is_nan(device, keys):
    """pandas labels the null group of object keys NaN whichever null its
    rows hold (and whichever row of it ember's groups keep)."""
    df = pd.DataFrame({"k": pd.Series(keys, dtype=object), "v": np.arange(len(keys), dtype=float)})
    edf = ef.from_pandas(df, device=device)
    _same(edf.groupby("k", dropna=False).sum(), df.groupby("k", dropna=False).sum())
