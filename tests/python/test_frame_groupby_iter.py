"""Iterating over a groupby, get_group, groups, indices, ngroups and len
against pandas: one key and several, str/int/float/nullable/categorical/
datetime keys, missing keys with dropna True and False, sort=False,
SeriesGroupBy and column selections, pandas 3's one-element tuples for a
list of one key, the empty frame, and get_group's errors."""
import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
ef = ember.frame
tm = pd.testing


def _pdf():
    return pd.DataFrame({
        "s": ["b", "a", None, "b", "c", "a", None, "b"],
        "i": [3, 1, 3, 2, 3, 1, 2, 7],
        "f": [1.5, np.nan, 2.5, 1.5, 2.5, np.nan, 0.25, 8.0],
        "I": pd.array([1, None, 3, 3, None, 6, 1, 2], dtype="Int64"),
        "c": pd.Categorical(["x", "y", None, "x", "w", "y", "x", None],
                            categories=["z", "y", "x", "w"]),
        "t": pd.to_datetime(["2020-01-02", "2020-01-01", None, "2020-01-02",
                             "2019-12-31", "2020-01-01", None, "2020-01-03"]),
        "b": [True, False, True, True, False, False, True, False],
        "v": [10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0],
    }, index=pd.Index([70, 60, 50, 40, 30, 20, 10, 0]))


@pytest.fixture
def pair(device):
    pdf = _pdf()
    return pdf, ef.from_pandas(pdf, device=device)


def _missing(x):
    return x is None or x is pd.NA or x is pd.NaT or (isinstance(x, float) and x != x)


def _same_key(a, b):
    if isinstance(b, tuple):
        return isinstance(a, tuple) and len(a) == len(b) and all(
            _same_key(x, y) for x, y in zip(a, b))
    if _missing(b):
        return _missing(a) and type(a) is type(b)   # NaN, NaT or NA, as pandas'
    return not isinstance(a, tuple) and not _missing(a) and a == b and \
        isinstance(a, (bool, np.bool_)) == isinstance(b, (bool, np.bool_))


def _same_keys(got, want):
    got, want = list(got), list(want)
    assert len(got) == len(want) and all(_same_key(a, b) for a, b in zip(got, want)), \
        (got, want)


def _same(got, want):
    if isinstance(want, pd.DataFrame):
        tm.assert_frame_equal(got.to_pandas(), want)
    else:
        assert isinstance(want, pd.Series)
        tm.assert_series_equal(got.to_pandas(), want)


def _same_groups(got, want):
    got, want = list(got), list(want)
    _same_keys([k for k, _ in got], [k for k, _ in want])
    for (_, a), (_, b) in zip(got, want):
        _same(a, b)
        # pandas names no group when iterating; a Series group keeps its name
        assert hasattr(a, "name") == hasattr(b, "name")
        if isinstance(b, pd.Series):
            assert a.name == b.name


def _both(pair, f):
    pdf, df = pair
    _same_groups(f(df), f(pdf))


KEYS = ["s", "i", "f", "I", "c", "t", "b"]


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("dropna", [True, False])
@pytest.mark.parametrize("sort", [True, False])
def test_iter_one_key(pair, key, dropna, sort):
    _both(pair, lambda d: d.groupby(key, dropna=dropna, sort=sort))


@pytest.mark.parametrize("keys", [["s", "i"], ["t", "I"], ["c", "b", "f"], ["i", "s"]])
@pytest.mark.parametrize("dropna", [True, False])
@pytest.mark.parametrize("sort", [True, False])
def test_iter_several_keys(pair, keys, dropna, sort):
    _both(pair, lambda d: d.groupby(keys, dropna=dropna, sort=sort))


def test_iter_tuple_unpacking(pair):
    pdf, df = pair
    got = [(a, b, len(g)) for (a, b), g in df.groupby(["s", "i"])]
    want = [(a, b, len(g)) for (a, b), g in pdf.groupby(["s", "i"])]
    assert got == want


@pytest.mark.parametrize("key", ["s", "t"])
def test_iter_list_of_one_key(pair, key):
    # pandas 3: a list of one key iterates one-element tuples
    pdf, df = pair
    keys = [k for k, _ in df.groupby([key])]
    assert all(isinstance(k, tuple) and len(k) == 1 for k in keys)
    _both(pair, lambda d: d.groupby([key]))
    _both(pair, lambda d: d.groupby([key], dropna=False, sort=False))
    _both(pair, lambda d: d.groupby([key])["v"])
    assert [k for k, _ in df.groupby(key)] == [k[0] for k in keys]


def test_iter_level(pair):
    pdf, df = pair
    pdf, df = pdf.set_index("s"), df.set_index("s")
    for kw in (dict(level=0), dict(level=[0]), dict(level="s", sort=False)):
        _same_groups(df.groupby(**kw), pdf.groupby(**kw))
        _same_groups(df["v"].groupby(**kw), pdf["v"].groupby(**kw))


def test_iter_selections(pair):
    _both(pair, lambda d: d.groupby("s")["v"])
    _both(pair, lambda d: d.groupby("s", dropna=False)["I"])
    _both(pair, lambda d: d.groupby("s")[["v", "t"]])
    _both(pair, lambda d: d.groupby("s")[["s", "v"]])
    _both(pair, lambda d: d.groupby(["s", "i"])["c"])
    _both(pair, lambda d: d.groupby("s", as_index=False))
    _both(pair, lambda d: d.groupby(d["s"]))
    _both(pair, lambda d: d.groupby(np.array([1, 0, 1, 1, 0, 2, 2, 1])))


def test_iter_series(pair):
    _both(pair, lambda d: d["v"].groupby(d["s"]))
    _both(pair, lambda d: d["v"].groupby(d["t"], dropna=False, sort=False))
    _both(pair, lambda d: d["s"].groupby(d["i"]))
    _both(pair, lambda d: d["c"].groupby([d["s"], d["b"]]))
    pdf, df = pair
    got = dict(list(df["v"].groupby(df["s"])))
    want = dict(list(pdf["v"].groupby(pdf["s"])))
    assert list(got) == list(want)
    for k in want:
        _same(got[k], want[k])


def test_iter_labels_and_order(device):
    # each group keeps its rows' order and their labels, whatever they are
    pdf = pd.DataFrame({"k": [2, 1, 2, 1, 2, 3], "v": list("uvwxyz")},
                       index=pd.Index(["r5", "r0", "r3", "r1", "r4", "r2"], name="row"))
    df = ef.from_pandas(pdf, device=device)
    _same_groups(df.groupby("k"), pdf.groupby("k"))
    _same_groups(df.groupby("k", sort=False), pdf.groupby("k", sort=False))
    pdf = pdf.reset_index().set_index(["row", "v"])
    df = ef.from_pandas(pdf, device=device)
    _same_groups(df.groupby("k"), pdf.groupby("k"))
    _same_dicts(df.groupby("k").groups, pdf.groupby("k").groups, _same_index)


def test_iter_null_group_first(device):
    # sort=False, dropna=False: the null key's group where it first appears
    pdf = pd.DataFrame({"k": [None, "b", None, "a", "b"], "v": [1, 2, 3, 4, 5]})
    df = ef.from_pandas(pdf, device=device)
    _same_groups(df.groupby("k", sort=False, dropna=False),
                 pdf.groupby("k", sort=False, dropna=False))
    _same_groups(df.groupby("k", dropna=False), pdf.groupby("k", dropna=False))


def test_iter_gathers_once(pair, monkeypatch):
    # one gather of the frame into group order, then slices: not a take a group
    pdf, df = pair
    calls = []
    real = type(df)._take
    monkeypatch.setattr(type(df), "_take",
                        lambda self, pos: calls.append(1) or real(self, pos))
    groups = list(df.groupby("s", dropna=False))
    assert len(groups) == 4 and len(calls) == 1


def _same_dicts(got, want, same):
    _same_keys(got, want)
    for (a, x), (b, y) in zip(got.items(), want.items()):
        same(x, y)


def _same_index(a, b):
    tm.assert_index_equal(a.to_pandas(), b, exact=False)
    assert a.to_pandas().dtype == b.dtype


def _same_positions(a, b):
    assert isinstance(a, np.ndarray)
    np.testing.assert_array_equal(a, b)
    assert a.dtype == b.dtype


@pytest.mark.parametrize("by, kw", [
    ("s", {}), ("s", dict(dropna=False)), ("s", dict(sort=False, dropna=False)),
    ("i", dict(sort=False)), ("f", dict(dropna=False)), ("I", dict(dropna=False)),
    ("t", dict(dropna=False)), ("c", {}), ("c", dict(sort=False)), ("b", {}),
    (["s", "i"], {}), (["t", "I"], dict(dropna=False)), (["c", "s"], dict(sort=False)),
])
def test_groups_indices_ngroups(pair, by, kw):
    pdf, df = pair
    g, pg = df.groupby(by, **kw), pdf.groupby(by, **kw)
    assert g.ngroups == pg.ngroups and len(g) == len(pg)
    _same_dicts(g.groups, pg.groups, _same_index)
    _same_dicts(g.indices, pg.indices, _same_positions)
    _same_dicts(g["v"].indices, pg["v"].indices, _same_positions)
    _same_dicts(g["v"].groups, pg["v"].groups, _same_index)


def test_groups_of_a_series_and_labels(device):
    pdf = pd.DataFrame({"k": ["q", "p", "q"], "v": [1, 2, 3]},
                       index=pd.Index(["x", "y", "z"], name="lab"))
    df = ef.from_pandas(pdf, device=device)
    _same_dicts(df.groupby("k").groups, pdf.groupby("k").groups, _same_index)
    _same_dicts(df["v"].groupby(df["k"]).groups, pdf["v"].groupby(pdf["k"]).groups,
                _same_index)
    got = df.loc[df.groupby("k").groups["q"]]        # labels that loc takes back
    _same(got, pdf.loc[pdf.groupby("k").groups["q"]])


def test_groups_list_of_one_key(pair):
    # pandas 3.1 keeps scalar keys in groups (and warns), tuples in iteration
    pdf, df = pair
    with pytest.warns(DeprecationWarning, match="tuple with a single element"):
        got = df.groupby(["s"]).groups
    with pytest.warns(DeprecationWarning):
        want = pdf.groupby(["s"]).groups
    _same_dicts(got, want, _same_index)
    _same_dicts(df.groupby(["s"]).indices, pdf.groupby(["s"]).indices, _same_positions)
    pdf, df = pdf.set_index("s"), df.set_index("s")
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")       # level=[0]: scalar keys, no warning
        _same_dicts(df.groupby(level=[0]).groups, pdf.groupby(level=[0]).groups,
                    _same_index)


def test_categorical_null_group_indices(pair):
    # pandas leaves the null group out of indices of one categorical key
    # (dropna=False), though it iterates it; ember keeps it, as for every
    # other dtype, so get_group finds the group that iteration gives
    pdf, df = pair
    g = df.groupby("c", dropna=False)
    _same_keys(g.indices, [k for k, _ in pdf.groupby("c", dropna=False)])
    _same(g.get_group(np.nan), pdf[pdf["c"].isna()])


@pytest.mark.parametrize("by, kw, name", [
    ("s", {}, "b"), ("s", dict(sort=False), "a"), ("i", {}, 3), ("i", {}, np.int64(1)),
    ("f", {}, 2.5), ("I", {}, 3), ("c", {}, "y"), ("b", {}, False),
    ("t", {}, pd.Timestamp("2020-01-02")), ("t", {}, "2020-01-02"),
    ("t", {}, np.datetime64("2020-01-01")),
    ("s", dict(dropna=False), np.nan), ("s", dict(dropna=False), None),
    ("t", dict(dropna=False), pd.NaT), ("I", dict(dropna=False), pd.NA),
    (["s", "i"], {}, ("b", 3)), (["t", "I"], dict(dropna=False), (pd.Timestamp(
        "2020-01-01"), pd.NA)), (["I", "s"], dict(dropna=False), (pd.NA, "c")),
    (["t", "s"], {}, ("2020-01-02", "b")), (["s"], {}, ("a",)),
])
def test_get_group(pair, by, kw, name):
    pdf, df = pair
    _same(df.groupby(by, **kw).get_group(name), pdf.groupby(by, **kw).get_group(name))
    _same(df.groupby(by, **kw)["v"].get_group(name),
          pdf.groupby(by, **kw)["v"].get_group(name))
    _same(df.groupby(by, **kw)[["v", "I"]].get_group(name),
          pdf.groupby(by, **kw)[["v", "I"]].get_group(name))
    _same(df["v"].groupby(df["i"]).get_group(3), pdf["v"].groupby(pdf["i"]).get_group(3))


def test_get_group_missing_datetime_part(pair):
    # pandas turns the NaN it reads for NaT back into NaT for a datetime
    # key and finds no group (KeyError); ember gives the group iterated
    pdf, df = pair
    with pytest.raises(KeyError):
        pdf.groupby(["t", "I"], dropna=False).get_group((pd.NaT, 3))
    want = dict(list(pdf.groupby(["t", "I"], dropna=False)))
    key, = [k for k in want if k[0] is pd.NaT and k[1] == 3]
    _same(df.groupby(["t", "I"], dropna=False).get_group((pd.NaT, 3)), want[key])
    _same(df.groupby(["t", "I"], dropna=False).get_group((None, 3)), want[key])


@pytest.mark.parametrize("by, kw, name, err", [
    ("s", {}, "zz", KeyError), ("s", {}, np.nan, KeyError),    # dropped: no group
    ("c", {}, "z", KeyError),                                   # unused category
    ("s", {}, ("a",), KeyError), ("i", {}, 4, KeyError),
    (["s"], {}, "a", KeyError), (["s"], {}, ("zz",), KeyError),
    (["s"], {}, ("a", 1), KeyError),
    (["s", "i"], {}, ("b", 9), KeyError),
    (["s", "i"], {}, "b", ValueError), (["s", "i"], {}, ("b",), ValueError),
    (["s", "i"], {}, ("b", 3, 1), ValueError),
    (["s", "i"], dict(dropna=False), (None, 9), KeyError),
])
def test_get_group_errors(pair, by, kw, name, err):
    pdf, df = pair
    with pytest.raises(err) as want:
        pdf.groupby(by, **kw).get_group(name)
    with pytest.raises(err) as got:
        df.groupby(by, **kw).get_group(name)
    assert str(got.value) == str(want.value)


def _no_warning():
    import contextlib
    return contextlib.nullcontext()


def test_empty(pair):
    pdf, df = pair
    pdf, df = pdf.iloc[:0], df.iloc[:0]
    for by in ("s", ["s", "i"], ["t"]):
        g, pg = df.groupby(by), pdf.groupby(by)
        assert list(g) == [] and list(pg) == []
        assert list(g["v"]) == []
        assert g.ngroups == pg.ngroups == 0 and len(g) == 0
        assert g.indices == {} and pg.indices == {}
        with pytest.warns(DeprecationWarning) if isinstance(by, list) and \
                len(by) == 1 else _no_warning():
            assert dict(g.groups) == {}
        with pytest.raises(KeyError):
            g.get_group("a")
        with pytest.raises(KeyError):
            pg.get_group("a")


def test_all_keys_missing(device):
    pdf = pd.DataFrame({"k": [None, None], "v": [1.0, 2.0]}, dtype=object).astype(
        {"k": "str", "v": "float64"})
    df = ef.from_pandas(pdf, device=device)
    _same_groups(df.groupby("k"), pdf.groupby("k"))
    _same_groups(df.groupby("k", dropna=False), pdf.groupby("k", dropna=False))
    assert df.groupby("k").indices == pdf.groupby("k").indices == {}
    _same(df.groupby("k", dropna=False).get_group(np.nan),
          pdf.groupby("k", dropna=False).get_group(np.nan))
