"""ember.frame's merge, join and concat against pandas on the same data:
values, dtypes, index, row order (pandas' own, for every how and sort=),
nulls, on every device."""
import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
ef = ember.frame
tm = pd.testing

HOWS = ["inner", "left", "right", "outer"]


def _bool_to_boolean(p, e):
    """Where pandas makes a bool column with nulls object, ember makes it
    boolean: compare with pandas' values in that dtype."""
    for k in p.columns:
        if p[k].dtype == object and e[k].dtype == "boolean":
            p = p.copy()
            p[k] = p[k].astype("boolean")
    return p


def _check(e, p):
    e = e.to_pandas()
    p = _bool_to_boolean(p, e)
    tm.assert_frame_equal(e, p)


def _both(pdf, device):
    return pdf, ef.from_pandas(pdf, device=device)


def _left():
    return pd.DataFrame({
        "k": [3, 1, 2, 1, 7, 5, 1],
        "f": [1.5, np.nan, 2.0, np.nan, 0.5, -1.0, 2.0],
        "s": ["x", None, "yé", "x", "", "日本", "x"],
        "v": np.arange(7, dtype="int32"),
        "I": pd.array([1, None, 3, 4, None, 6, 7], dtype="Int64"),
        "b": [True, False, True, True, False, False, True],
        "t": pd.to_datetime(["2020-01-0%d" % i for i in range(1, 8)]),
    })


def _right():
    return pd.DataFrame({
        "k": [1, 3, 1, 4, 9, 3],
        "f": [np.nan, 1.5, 0.0, np.nan, 2.0, 1.5],
        "s": ["x", "yé", None, "z", "x", "日本"],
        "w": np.arange(6, dtype="int64") * 10,
        "S": pd.array(["a", None, "c", "d", "e", "f"], dtype="string"),
        "B": pd.array([True, None, False, True, False, True], dtype="boolean"),
    })


@pytest.mark.parametrize("how", HOWS + ["cross", "left_anti", "right_anti"])
@pytest.mark.parametrize("sort", [False, True])
@pytest.mark.parametrize("on", ["k", "f", "s", ["k", "s"], ["s", "f"]])
def test_merge_keys_hows(device, how, sort, on):
    pl, el = _both(_left(), device)
    pr, er = _both(_right(), device)
    kw = {} if how == "cross" else {"on": on}
    p = pl.merge(pr, how=how, sort=sort, indicator=True, **kw)
    _check(ef.merge(el, er, how=how, sort=sort, indicator=True, **kw), p)
    _check(el.merge(er, how=how, sort=sort, indicator=True, **kw), p)


@pytest.mark.parametrize("how", HOWS)
def test_merge_left_on_right_on(device, how):
    pl, el = _both(_left(), device)
    pr, er = _both(_right().rename(columns={"k": "k2"}), device)
    p = pl.merge(pr, how=how, left_on="k", right_on="k2")
    _check(el.merge(er, how=how, left_on="k", right_on="k2"), p)
    p = pl.merge(pr, how=how, left_on=["k", "s"], right_on=["k2", "s"], suffixes=("_l", "_r"))
    _check(el.merge(er, how=how, left_on=["k", "s"], right_on=["k2", "s"],
                    suffixes=("_l", "_r")), p)


@pytest.mark.parametrize("how", HOWS)
def test_merge_dtypes_of_unmatched_rows(device, how):
    pl = pd.DataFrame({"k": [1, 2, 3], "i8": np.array([1, 2, 3], "int8"),
                       "u": np.array([1, 2, 3], "uint64"),
                       "f4": np.array([1, 2, 3], "float32"),
                       "td": pd.to_timedelta([1, 2, 3], unit="s"),
                       "F": pd.array([1.5, None, 2], dtype="Float64"),
                       "S": pd.array(["a", None, "c"], dtype="string"),
                       "B": pd.array([True, None, False], dtype="boolean"),
                       "bo": [True, False, True]})
    pr = pd.DataFrame({"k": [2, 4], "z": [7, 8]})
    el, er = ef.from_pandas(pl, device=device), ef.from_pandas(pr, device=device)
    _check(el.merge(er, how=how, on="k"), pl.merge(pr, how=how, on="k"))
    _check(er.merge(el, how=how, on="k"), pr.merge(pl, how=how, on="k"))


def test_merge_bool_with_nulls_is_boolean(device):
    # pandas makes an object column; ember has none and makes it boolean
    pl = pd.DataFrame({"k": [1, 2], "bo": [True, False]})
    pr = pd.DataFrame({"k": [2, 3]})
    e = ef.from_pandas(pl, device=device).merge(ef.from_pandas(pr, device=device),
                                                how="right")
    assert e.dtypes["bo"] == "boolean"
    p = pl.merge(pr, how="right")
    assert p["bo"].dtype == object
    tm.assert_series_equal(e["bo"].to_pandas(), p["bo"].astype("boolean"))


@pytest.mark.parametrize("how", HOWS)
def test_merge_nan_and_na_keys_match(device, how):
    pl = pd.DataFrame({"k": [np.nan, 1.0, np.nan, 2.0], "a": range(4)})
    pr = pd.DataFrame({"k": [2.0, np.nan, 5.0, np.nan], "b": range(4)})
    _check(ef.from_pandas(pl, device=device).merge(ef.from_pandas(pr, device=device),
                                                   how=how), pl.merge(pr, how=how))
    for dt in ("Int64", "string", "str"):
        ql = pl.assign(k=pl["k"].astype("Int64").astype(dt))
        qr = pr.assign(k=pr["k"].astype("Int64").astype(dt))
        for sort in (False, True):
            _check(ef.from_pandas(ql, device=device).merge(
                ef.from_pandas(qr, device=device), how=how, sort=sort),
                ql.merge(qr, how=how, sort=sort))


@pytest.mark.parametrize("how", HOWS)
def test_merge_key_dtypes(device, how):
    rng = np.random.default_rng(1)
    keys = {"i64": rng.integers(-5, 5, 30), "big": rng.integers(-5, 5, 30) * 10 ** 15,
            "u8": rng.integers(0, 9, 30).astype("uint8"),
            "bool": rng.integers(0, 2, 30).astype(bool),
            "f32": rng.integers(0, 6, 30).astype("float32"),
            "dt": pd.to_datetime(rng.integers(0, 5, 30), unit="D"),
            "str": np.array(["a", "bb", "日本", "", "key0000001"])[rng.integers(0, 5, 30)],
            "U64": pd.array(rng.integers(0, 2 ** 63, 30, dtype="uint64") % 7,
                            dtype="uint64")}
    for name, k in keys.items():
        pl = pd.DataFrame({"k": k[:18], "a": np.arange(18)})
        pr = pd.DataFrame({"k": k[18:], "b": np.arange(12)})
        _check(ef.from_pandas(pl, device=device).merge(
            ef.from_pandas(pr, device=device), how=how, on="k"),
            pl.merge(pr, how=how, on="k"))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("how", HOWS)
def test_merge_random_many_to_many(device, seed, how):
    rng = np.random.default_rng(seed)
    n, m = 300, 200
    span = [5, 50, 5000, 10 ** 12][seed]
    pl = pd.DataFrame({"k": rng.integers(0, span, n), "j": rng.integers(0, 3, n),
                       "a": rng.random(n)})
    pr = pd.DataFrame({"k": rng.integers(0, span, m), "j": rng.integers(0, 3, m),
                       "b": rng.integers(0, 100, m)})
    el, er = ef.from_pandas(pl, device=device), ef.from_pandas(pr, device=device)
    for on in ("k", ["k", "j"]):
        for sort in (False, True):
            _check(el.merge(er, how=how, on=on, sort=sort),
                   pl.merge(pr, how=how, on=on, sort=sort))


def test_merge_empty_and_one_row(device):
    pl, el = _both(_left(), device)
    pr, er = _both(_right(), device)
    for how in HOWS + ["cross"]:
        kw = {} if how == "cross" else {"on": "k"}
        for a, b, pa, pb in ((el.head(0), er, pl.head(0), pr),
                             (el, er.head(0), pl, pr.head(0)),
                             (el.head(0), er.head(0), pl.head(0), pr.head(0)),
                             (el.head(1), er.head(1), pl.head(1), pr.head(1)),
                             (el.iloc[[1]], er, pl.iloc[[1]], pr)):
            _check(a.merge(b, how=how, **kw), pa.merge(pb, how=how, **kw))


def test_merge_all_null_columns(device):
    pl = pd.DataFrame({"k": [1, 2, 3], "n": [np.nan] * 3,
                       "S": pd.array([None] * 3, dtype="string")})
    pr = pd.DataFrame({"k": [3, 4], "N": pd.array([None, None], dtype="Int64")})
    el, er = ef.from_pandas(pl, device=device), ef.from_pandas(pr, device=device)
    for how in HOWS:
        _check(el.merge(er, how=how), pl.merge(pr, how=how))


def test_merge_index_keys(device):
    pl = pd.DataFrame({"a": [1, 2, 3, 4], "k": [20, 10, 30, 10]}, index=[10, 20, 30, 40])
    pr = pd.DataFrame({"b": [5.0, 6.0, 7.0]}, index=[30, 10, 50])
    el, er = ef.from_pandas(pl, device=device), ef.from_pandas(pr, device=device)
    for how in HOWS:
        _check(el.merge(er, how=how, left_index=True, right_index=True),
               pl.merge(pr, how=how, left_index=True, right_index=True))
    for how in ("inner", "left"):
        _check(el.merge(er, how=how, left_on="k", right_index=True),
               pl.merge(pr, how=how, left_on="k", right_index=True))
    for how in ("inner", "right"):
        _check(er.merge(el, how=how, left_index=True, right_on="k"),
               pr.merge(pl, how=how, left_index=True, right_on="k"))
    for how, kw in (("left_anti", dict(left_index=True, right_index=True)),
                    ("right_anti", dict(left_index=True, right_index=True)),
                    ("left_anti", dict(left_on="k", right_index=True)),
                    ("right_anti", dict(left_index=True, right_on="b"))):
        _check(el.merge(er, how=how, **kw), pl.merge(pr, how=how, **kw))
    with pytest.raises(NotImplementedError, match="reset_index"):
        el.merge(er, how="outer", left_on="k", right_index=True)


def test_suffixes_and_errors(device):
    pl, el = _both(_left(), device)
    pr, er = _both(_right(), device)
    for sfx in (("_l", "_r"), ("", "_r"), ("_l", None)):
        _check(el.merge(er, on="k", suffixes=sfx), pl.merge(pr, on="k", suffixes=sfx))
    with pytest.raises(ValueError, match="no suffix"):
        el.merge(er, on="k", suffixes=("", ""))
    with pytest.raises(ef.MergeError, match="duplicate columns"):
        el.merge(er.rename(columns={"w": "f_x"}), on="k")
    with pytest.raises(KeyError):
        el.merge(er, on="nope")
    with pytest.raises(KeyError):
        el.merge(er, left_on="k", right_on="nope")
    with pytest.raises(ValueError, match="not a valid Merge type"):
        el.merge(er, how="sideways")
    with pytest.raises(ef.MergeError, match="on"):
        el.merge(er, on="k", left_on="k")
    with pytest.raises(ef.MergeError):
        el.merge(er, how="cross", on="k")
    with pytest.raises(ef.MergeError, match="right_on"):
        el.merge(er, left_on="k")
    with pytest.raises(ValueError, match="len"):
        el.merge(er, left_on=["k", "s"], right_on=["k"])
    with pytest.raises(ef.MergeError, match="No common columns"):
        el[["v"]].merge(er[["w"]])
    with pytest.raises(ValueError, match="trying to merge on"):
        el.merge(er, left_on="k", right_on="s")
    with pytest.raises(TypeError, match="Can only merge"):
        ef.merge(el, [1, 2])
    with pytest.raises(ValueError, match="Cannot use `indicator=True`"):
        el.assign(_merge=1).merge(er, on="k", indicator=True)
    with pytest.raises(NotImplementedError, match="as columns"):
        el.merge(er, left_on=np.arange(7), right_on="k")
    assert issubclass(ef.MergeError, ValueError)


def test_merge_validate(device):
    pl = pd.DataFrame({"k": [1, 2, 2], "a": [1, 2, 3]})
    pr = pd.DataFrame({"k": [1, 2], "b": [1, 2]})
    el, er = ef.from_pandas(pl, device=device), ef.from_pandas(pr, device=device)
    for v in ("m:1", "many_to_one", "m:m"):
        _check(el.merge(er, validate=v), pl.merge(pr, validate=v))
    for v in ("1:1", "one_to_many", "1:m"):
        with pytest.raises(ef.MergeError, match="not unique in left"):
            el.merge(er, validate=v)
    with pytest.raises(ef.MergeError, match="not unique in right"):
        er.merge(el, validate="m:1")
    with pytest.raises(ValueError, match="not a valid argument"):
        el.merge(er, validate="bad")


def test_merge_series(device):
    pl, el = _both(_left(), device)
    ps = pd.Series([1, 3, 9], name="k")
    es = ef.from_pandas(ps, device=device)
    _check(el.merge(es, how="outer"), pl.merge(ps, how="outer"))
    with pytest.raises(ValueError, match="without a name"):
        el.merge(es.rename(None))


@pytest.mark.parametrize("how", HOWS + ["cross", "left_anti", "right_anti"])
def test_join(device, how):
    pl = pd.DataFrame({"a": [1, 2, 3, 4], "k": [20, 10, 30, 10]}, index=[40, 10, 30, 20])
    pr = pd.DataFrame({"a": [5.0, 6.0, 7.0], "c": ["x", "y", None]}, index=[30, 10, 50])
    el, er = ef.from_pandas(pl, device=device), ef.from_pandas(pr, device=device)
    _check(el.join(er, how=how, lsuffix="_l", rsuffix="_r"),
           pl.join(pr, how=how, lsuffix="_l", rsuffix="_r"))
    _check(el.join(er, how=how, lsuffix="_l", rsuffix="_r", sort=True),
           pl.join(pr, how=how, lsuffix="_l", rsuffix="_r", sort=True))
    _check(el.join(er[["c"]], how=how), pl.join(pr[["c"]], how=how))
    if how in ("inner", "left", "left_anti"):
        _check(el.join(er[["c"]], on="k", how=how), pl.join(pr[["c"]], on="k", how=how))
    with pytest.raises(ValueError, match="overlap"):
        el.join(er)
    ps = pr["c"]
    _check(el.join(ef.from_pandas(ps, device=device), how=how), pl.join(ps, how=how))
    with pytest.raises(ValueError, match="must have a name"):
        el.join(ef.from_pandas(ps.rename(None), device=device))


def test_concat_rows(device):
    p1 = pd.DataFrame({"a": [1, 2], "s": ["x", None], "b": [True, False]})
    p2 = pd.DataFrame({"a": [1.5, np.nan, 3.0], "c": pd.array([1, None, 3], dtype="Int64"),
                       "s": ["日本", "y", ""]}, index=[7, 8, 9])
    p3 = pd.DataFrame({"s": pd.Series([], dtype="str"), "a": pd.Series([], dtype="int64")})
    e1, e2, e3 = (ef.from_pandas(p, device=device) for p in (p1, p2, p3))
    _check(ef.concat([e1, e2]), pd.concat([p1, p2]))
    _check(ef.concat([e1, e2, e3]), pd.concat([p1, p2, p3]))
    _check(ef.concat([e2, e1], ignore_index=True), pd.concat([p2, p1], ignore_index=True))
    _check(ef.concat([e1, e2], join="inner"), pd.concat([p1, p2], join="inner"))
    _check(ef.concat([e1, e1, e1]), pd.concat([p1, p1, p1]))
    _check(ef.concat([e1, None, e2], sort=True), pd.concat([p1, None, p2], sort=True))
    _check(ef.concat([e1.iloc[1:], e1]), pd.concat([p1.iloc[1:], p1]))


def test_concat_series(device):
    s1 = pd.Series([1, 2, 3], name="x")
    s2 = pd.Series([1.5, None], name="x", index=[5, 6])
    s3 = pd.Series(["a", None, "日本"], name="y")
    e1, e2, e3 = (ef.from_pandas(s, device=device) for s in (s1, s2, s3))
    tm.assert_series_equal(ef.concat([e1, e2]).to_pandas(), pd.concat([s1, s2]))
    tm.assert_series_equal(ef.concat([e3, e3]).to_pandas(), pd.concat([s3, s3]))
    tm.assert_series_equal(ef.concat([e1, e1.rename("z")], ignore_index=True).to_pandas(),
                           pd.concat([s1, s1.rename("z")], ignore_index=True))
    _check(ef.concat([e1, e3], axis=1), pd.concat([s1, s3], axis=1))
    _check(ef.concat([e1.rename(None), e3, e1.rename(None)], axis=1),
           pd.concat([s1.rename(None), s3, s1.rename(None)], axis=1))
    p = pd.DataFrame({"a": [1, 2, 3]})
    _check(ef.concat([ef.from_pandas(p, device=device), e1], axis=1),
           pd.concat([p, s1], axis=1))
    _check(ef.concat([ef.from_pandas(p, device=device), e1]), pd.concat([p, s1]))


def test_concat_errors(device):
    e1 = ef.DataFrame({"a": [1, 2]}, device=device)
    e2 = ef.DataFrame({"a": ["x", "y"]}, device=device)
    with pytest.raises(ValueError, match="No objects"):
        ef.concat([])
    with pytest.raises(ValueError, match="None"):
        ef.concat([None, None])
    with pytest.raises(TypeError):
        ef.concat(e1)
    with pytest.raises(TypeError):
        ef.concat([e1, [1, 2]])
    # int beside str: pandas' object column (test_frame_object.py)
    tm.assert_frame_equal(ef.concat([e1, e2]).to_pandas(),
                          pd.concat([e1.to_pandas(), e2.to_pandas()]))
    with pytest.raises(NotImplementedError, match="MultiIndex"):
        ef.concat([e1, e1], keys=["x", "y"])
    with pytest.raises(ValueError, match="duplicate labels"):
        ef.concat([e1, ef.DataFrame({"b": [1, 2]}, index=[1, 1], device=device)], axis=1)
    # a shared name repeats, as pandas (test_frame_duplicates.py)
    assert list(ef.concat([e1, e1], axis=1).columns) == ["a", "a"]
    with pytest.raises(ValueError, match="inner"):
        ef.concat([e1, e1], join="left")


@pytest.mark.parametrize("how", HOWS)
def test_merge_keys_of_two_dtypes_and_nat(device, how):
    nat = pd.to_datetime(["2020-01-01", None, "2020-01-03", None])
    cases = [({"k": [1, 2, 3]}, {"k": [2.0, 3.5, np.nan]}),
             ({"k": pd.array([1, None, 3], dtype="Int64")}, {"k": [3, 1, 5]}),
             ({"k": np.array([1, 2], "int32")}, {"k": np.array([2, 3], "uint64")}),
             ({"k": nat}, {"k": nat[::-1][:3]}),
             ({"k": nat - nat[0]}, {"k": (nat - nat[0])[1:]})]
    for a, b in cases:
        pl = pd.DataFrame(a)
        pr = pd.DataFrame(b).assign(b=lambda d: np.arange(len(d)))
        el, er = ef.from_pandas(pl, device=device), ef.from_pandas(pr, device=device)
        for sort in (False, True):
            _check(el.merge(er, on="k", how=how, sort=sort),
                   pl.merge(pr, on="k", how=how, sort=sort))
    with pytest.raises(NotImplementedError, match="object"):
        ef.DataFrame({"k": ["a"]}, device=device).merge(
            ef.DataFrame({"k": ["a"]}, dtype="string", device=device))


@pytest.mark.parametrize("how", HOWS)
def test_join_index_names(device, how):
    pl = pd.DataFrame({"a": [1, 2, 3]}, index=pd.Index([3, 1, 2], name="L"))
    for name in ("R", "L", None):
        pr = pd.DataFrame({"b": [7.0, 8.0]}, index=pd.Index([2, 9], name=name))
        _check(ef.from_pandas(pl, device=device).join(ef.from_pandas(pr, device=device),
                                                      how=how), pl.join(pr, how=how))


def test_concat_dtypes_and_indexes(device):
    def df(data, **kw):
        return pd.DataFrame(data, **kw)
    cases = [
        [df({"x": [1, 2], "b": [True, False]}), pd.DataFrame()],
        [df({"x": np.array([1], "int8")}), df({"x": np.array([2], "uint8")})],
        [df({"x": np.array([1], "float32")}), df({"x": np.array([2], "int64")})],
        [df({"x": pd.array([1, None], dtype="Int8")}), df({"x": np.array([2.5], "float32")})],
        [df({"x": pd.array([True, None], dtype="boolean")}), df({"x": [False]})],
        [df({"x": pd.array(["a", None], dtype="string")}), df({"x": ["b", None]})],
        [df({"x": ["b", None, "日本"]}), df({"x": pd.array(["a", None], dtype="string")})],
        [df({"t": pd.to_datetime(["2020-01-01", None])}), df({"t": pd.to_datetime(["2021-01-01"])}),
         df({"u": [1]})],
        [df({"x": [1]}, index=pd.RangeIndex(5, 6)), df({"x": [2]}, index=pd.RangeIndex(6, 8)[:1])],
        [df({"x": [1, 2]}, index=pd.Index([1, 2], name="i")),
         df({"x": [2]}, index=pd.Index([0], name="i"))],
        [df({"x": [1]}, index=["a"]), df({"x": [2]}, index=["é"])],
        [df({"n": [np.nan, np.nan]}), df({"S": pd.array([None], dtype="string")})],
    ]
    for objs in cases:
        _check(ef.concat([ef.from_pandas(o, device=device) for o in objs]), pd.concat(objs))


def test_merge_many_keys_renumbered(device, monkeypatch):
    # codes of several keys are renumbered before their product could wrap
    from ember.frame import _keys
    monkeypatch.setattr(_keys, "_BIG", 16)
    rng = np.random.default_rng(5)
    pl = pd.DataFrame({c: rng.integers(0, 4, 80) for c in "abcd"}).assign(v=np.arange(80))
    pr = pd.DataFrame({c: rng.integers(0, 4, 60) for c in "abcd"}).assign(
        d=lambda d: d["d"].astype(float), w=np.arange(60))
    el, er = ef.from_pandas(pl, device=device), ef.from_pandas(pr, device=device)
    for how in HOWS:
        _check(el.merge(er, on=list("abcd"), how=how, sort=True),
               pl.merge(pr, on=list("abcd"), how=how, sort=True))


def test_concat_column_order(device):
    a = pd.DataFrame({"a": [1], "b": [2.0]})
    b = pd.DataFrame({"c": ["x"], "b": [3.0], "a": [4]})
    ea, eb = ef.from_pandas(a, device=device), ef.from_pandas(b, device=device)
    for kw in ({}, {"join": "inner"}, {"sort": True}, {"ignore_index": True}):
        _check(ef.concat([ea, eb], **kw), pd.concat([a, b], **kw))
        _check(ef.concat([eb, ea], **kw), pd.concat([b, a], **kw))


@pytest.mark.parametrize("how", HOWS)
def test_merge_string_keys_random(device, how):
    rng = np.random.default_rng(3)
    words = np.array(["", "a", "ab", "abcdefgh", "abcdefghi", "日本語", "x" * 20, "é"])
    pl = pd.DataFrame({"k": words[rng.integers(0, 8, 200)], "v": rng.random(200)})
    pr = pd.DataFrame({"k": words[rng.integers(0, 7, 50)], "w": np.arange(50)})
    pl.loc[::7, "k"] = None
    el, er = ef.from_pandas(pl, device=device), ef.from_pandas(pr, device=device)
    _check(el.merge(er, how=how), pl.merge(pr, how=how))
    _check(el.merge(er.iloc[[3, 1]], how=how), pl.merge(pr.iloc[[3, 1]], how=how))


def test_concat_axis1_aligns(device):
    a = pd.Series([1, 2, 3], index=[3, 1, 5], name="a")
    b = pd.Series([1.5, 2.5], index=[1, 2], name="b")
    c = pd.DataFrame({"c": ["x", None, "日本"], "d": [True, False, True]}, index=[2, 9, 3])
    objs = [a, b, c]
    es = [ef.from_pandas(o, device=device) for o in objs]
    for kw in ({}, {"join": "inner"}, {"sort": True}, {"join": "inner", "sort": True},
               {"ignore_index": True}):
        _check(ef.concat(es, axis=1, **kw), pd.concat(objs, axis=1, **kw))
        _check(ef.concat(es[::-1], axis=1, **kw), pd.concat(objs[::-1], axis=1, **kw))
    s1 = pd.Series([1, 2], index=["x", "é"], name="s")
    s2 = pd.Series([3.0], index=["é"], name="t")
    _check(ef.concat([ef.from_pandas(s1, device=device), ef.from_pandas(s2, device=device)],
                     axis=1), pd.concat([s1, s2], axis=1))


@pytest.mark.parametrize("how", HOWS)
@pytest.mark.parametrize("sort", [False, True])
@pytest.mark.parametrize("kind", ["int", "wide", "str"])
def test_merge_many_repeated_keys(device, how, sort, kind):
    # a sorted join orders the driving side's rows by key before matching,
    # and an outer join merges the right rows that meet nobody in by key:
    # many rows a key on both sides, keys on one side only, nulls
    rng = np.random.default_rng(5)

    def keys(lo, hi, n):
        v = rng.integers(lo, hi, n)
        if kind == "wide":
            return v * 10**12 - 5 * 10**12
        if kind == "str":
            s = np.array([f"k{x:03d}" for x in v], dtype=object)
            s[rng.random(n) < 0.05] = None
            return pd.Series(s, dtype="str")
        return v
    pl = pd.DataFrame({"k": keys(0, 40, 600), "a": np.arange(600.0)})
    pr = pd.DataFrame({"k": keys(-10, 50, 300), "b": np.arange(300)})   # below and above
    el, er = ef.from_pandas(pl, device=device), ef.from_pandas(pr, device=device)
    _check(el.merge(er, on="k", how=how, sort=sort), pl.merge(pr, on="k", how=how, sort=sort))


def test_join_expand_kernel_compiles_for_the_gpu(need_nvrtc):
    """frame/kernels/join_expand.cuh as NVRTC compiles it for the GPU."""
    from ember.frame._kernels import source
    src = source("join_expand.cuh")
    assert b".entry em_join_expand" in ember.cuda.Program(src).compile("ptx").code
