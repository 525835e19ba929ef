"""ember.frame's sorts and distinct values against pandas: sort_values
(stable, several keys, mixed ascending, na_position), value_counts,
unique, nunique, describe, on every device."""
import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
ef = ember.frame
tm = pd.testing


def _pdf():
    return pd.DataFrame({
        "k": [2, 1, 2, 1, 3, 2, 1, 3],
        "f": [0.5, np.nan, -1.0, 0.5, np.nan, 2.0, -0.0, 0.0],
        "I": pd.array([None, 1, 1, None, 7, -3, 1, 0], dtype="Int64"),
        "s": ["b", "a", None, "ab", "", "日本", "a", "b"],
        "u": np.array([5, 1, 5, 1, 0, 2**64 - 1, 3, 3], dtype=np.uint64),
    }, index=[7, 6, 5, 4, 3, 2, 1, 0])


@pytest.fixture
def pair(device):
    pdf = _pdf()
    return pdf, ef.from_pandas(pdf, device=device)


@pytest.mark.parametrize("col", ["k", "f", "I", "s", "u"])
@pytest.mark.parametrize("ascending", [True, False])
@pytest.mark.parametrize("na_position", ["last", "first"])
def test_sort_one_column(pair, col, ascending, na_position):
    pdf, df = pair
    got = df.sort_values(col, ascending=ascending, na_position=na_position)
    exp = pdf.sort_values(col, ascending=ascending, na_position=na_position, kind="stable")
    tm.assert_frame_equal(got.to_pandas(), exp)
    s = df[col].sort_values(ascending=ascending, na_position=na_position)
    tm.assert_series_equal(s.to_pandas(), pdf[col].sort_values(
        ascending=ascending, na_position=na_position, kind="stable"))


@pytest.mark.parametrize("by,ascending", [(["k", "f"], True), (["k", "s"], [False, True]),
                                          (["I", "k", "f"], [True, False, False]),
                                          (["s", "u"], [False, False])])
def test_sort_several_columns(pair, by, ascending):
    pdf, df = pair
    for na in ("last", "first"):
        got = df.sort_values(by, ascending=ascending, na_position=na)
        exp = pdf.sort_values(by, ascending=ascending, na_position=na, kind="stable")
        tm.assert_frame_equal(got.to_pandas(), exp)
    tm.assert_frame_equal(df.sort_values(by, ascending=ascending, ignore_index=True)
                          .to_pandas(), pdf.sort_values(by, ascending=ascending,
                                                        kind="stable", ignore_index=True))


def test_sort_errors_and_edges(pair, device):
    pdf, df = pair
    with pytest.raises(KeyError, match="nope"):
        df.sort_values("nope")
    with pytest.raises(ValueError):
        df.sort_values(["k", "f"], ascending=[True])
    with pytest.raises(ValueError):
        df.sort_values("k", na_position="middle")
    one = ef.DataFrame({"a": [1.0]}, device=device)
    tm.assert_frame_equal(one.sort_values("a").to_pandas(), pd.DataFrame({"a": [1.0]}))
    empty = ef.from_pandas(pdf.iloc[:0], device=device)
    tm.assert_frame_equal(empty.sort_values(["k", "s"]).to_pandas(),
                          pdf.iloc[:0].sort_values(["k", "s"]))


@pytest.mark.parametrize("col", ["k", "f", "I", "s", "u"])
def test_value_counts_unique_nunique(pair, col):
    pdf, df = pair
    s, ps = df[col], pdf[col]
    for dropna in (True, False):
        tm.assert_series_equal(s.value_counts(dropna=dropna).to_pandas(),
                               ps.value_counts(dropna=dropna))
        assert s.nunique(dropna=dropna) == ps.nunique(dropna=dropna)
    tm.assert_series_equal(s.value_counts(normalize=True).to_pandas(),
                           ps.value_counts(normalize=True))
    tm.assert_series_equal(s.value_counts(ascending=True).to_pandas(),
                           ps.value_counts(ascending=True))
    u = s.unique()
    exp = ps.unique()
    if isinstance(u, ember.ndarray):
        np.testing.assert_array_equal(ember.asnumpy(u), exp)
    else:
        tm.assert_extension_array_equal(u.to_pandas().array, pd.array(exp))
    tm.assert_series_equal(df.nunique().to_pandas(), pdf.nunique())


def test_describe(pair, device):
    pdf, df = pair
    num = ["k", "f", "I"]
    tm.assert_frame_equal(df[num].describe().to_pandas(), pdf[num].describe())
    tm.assert_frame_equal(df.describe().to_pandas(), pdf.describe())
    tm.assert_series_equal(df["f"].describe().to_pandas(), pdf["f"].describe())
    one = pd.DataFrame({"x": [2.5], "n": pd.array([None], dtype="Int64")})
    tm.assert_frame_equal(ef.from_pandas(one, device=device).describe().to_pandas(),
                          one.describe())


def test_long_strings_and_many_rows(device):
    rng = np.random.default_rng(1)
    words = np.array(["abcdefghij", "abcdefghi", "abcdefgh", "abcdefghé", "", "z",
                      "abcdefghijklmnopq", "abcdefghijklmnopr", "日本語テキスト"], dtype=object)
    n = 3000
    pdf = pd.DataFrame({"s": pd.Series(words[rng.integers(0, len(words), n)], dtype="str"),
                        "k": rng.integers(0, 50, n),
                        "f": np.where(rng.random(n) < 0.1, np.nan, rng.random(n).round(1))})
    pdf.loc[rng.random(n) < 0.05, "s"] = None
    df = ef.from_pandas(pdf, device=device)
    for by, asc in (("s", False), (["s", "k"], [True, False]), (["f", "s"], True)):
        tm.assert_frame_equal(df.sort_values(by, ascending=asc).to_pandas(),
                              pdf.sort_values(by, ascending=asc, kind="stable"))
    for c in pdf:
        tm.assert_series_equal(df[c].value_counts(dropna=False).to_pandas(),
                               pdf[c].value_counts(dropna=False))


@pytest.mark.parametrize("seed", range(8))
def test_random_frames_against_pandas(device, seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 40))
    nulls = rng.random((5, n)) < 0.25
    pdf = pd.DataFrame({
        "i": rng.integers(-3, 3, n),
        "f": np.where(nulls[0], np.nan, rng.integers(-2, 2, n) / 2),
        "I": pd.array(np.where(nulls[1], 0, rng.integers(0, 4, n)), dtype="Int64"),
        "b": rng.random(n) < 0.5,
        "B": pd.array(rng.random(n) < 0.5, dtype="boolean"),
        "s": pd.Series(np.array(["", "a", "ab", "b", "é"], dtype=object)[
            rng.integers(0, 5, n)], dtype="str"),
    })
    pdf.loc[nulls[1], "I"] = pd.NA
    pdf.loc[nulls[2], "B"] = pd.NA
    pdf.loc[nulls[3], "s"] = None
    df = ef.from_pandas(pdf, device=device)
    cols = list(pdf.columns)
    for _ in range(4):
        by = list(rng.choice(cols, size=int(rng.integers(1, 4)), replace=False))
        asc = [bool(a) for a in rng.random(len(by)) < 0.5]
        na = "first" if rng.random() < 0.5 else "last"
        tm.assert_frame_equal(df.sort_values(by, ascending=asc, na_position=na).to_pandas(),
                              pdf.sort_values(by, ascending=asc, na_position=na,
                                              kind="stable"))
        keep = ["first", "last", False][int(rng.integers(0, 3))]
        tm.assert_frame_equal(df.drop_duplicates(by, keep=keep).to_pandas(),
                              pdf.drop_duplicates(by, keep=keep))
    for c in cols:
        tm.assert_series_equal(df[c].value_counts(dropna=False).to_pandas(),
                               pdf[c].value_counts(dropna=False))
        assert df[c].nunique() == pdf[c].nunique()
        pick = rng.integers(0, n, int(rng.integers(0, 4)))
        tm.assert_series_equal(df[c].isin(df[c].iloc[pick]).to_pandas(),
                               pdf[c].isin(pdf[c].iloc[pick]))
    mask = pdf["i"] > 0
    tm.assert_frame_equal(df[df["i"] > 0].dropna().to_pandas(), pdf[mask].dropna())
    num = ["i", "f", "I"]
    tm.assert_series_equal(df[num].sum().to_pandas(), pdf[num].sum())
    tm.assert_series_equal(df[num].mean().to_pandas(), pdf[num].mean())


def test_sort_index_set_index_reset_index(pair, device):
    pdf, df = pair
    for asc in (True, False):
        tm.assert_frame_equal(df.sort_index(ascending=asc).to_pandas(),
                              pdf.sort_index(ascending=asc, kind="stable"))
        tm.assert_series_equal(df["s"].sort_index(ascending=asc).to_pandas(),
                               pdf["s"].sort_index(ascending=asc, kind="stable"))
    for key in ("s", "k", "I"):
        got = df.set_index(key)
        exp = pdf.set_index(key)
        tm.assert_frame_equal(got.to_pandas(), exp)
        for na in ("first", "last"):
            tm.assert_frame_equal(got.sort_index(na_position=na).to_pandas(),
                                  exp.sort_index(na_position=na, kind="stable"))
        tm.assert_frame_equal(got.reset_index().to_pandas(), exp.reset_index())
    tm.assert_frame_equal(df.reset_index().to_pandas(), pdf.reset_index())
    tm.assert_frame_equal(df.reset_index(drop=True).to_pandas(), pdf.reset_index(drop=True))
    tm.assert_frame_equal(df["f"].reset_index().to_pandas(), pdf["f"].reset_index())
    tm.assert_series_equal(df["f"].reset_index(drop=True).to_pandas(),
                           pdf["f"].reset_index(drop=True))
    tm.assert_frame_equal(df.set_index("s").loc[["b", "a"]].to_pandas(),
                          pdf.set_index("s").loc[["b", "a"]])


def test_duplicates_and_isin(pair, device):
    pdf, df = pair
    for keep in ("first", "last", False):
        for subset in (None, ["k"], ["k", "s"], "I", ["f", "I"]):
            tm.assert_series_equal(df.duplicated(subset, keep=keep).to_pandas(),
                                   pdf.duplicated(subset, keep=keep))
            tm.assert_frame_equal(df.drop_duplicates(subset, keep=keep).to_pandas(),
                                  pdf.drop_duplicates(subset, keep=keep))
        for c in ("s", "f", "I"):
            tm.assert_series_equal(df[c].drop_duplicates(keep=keep).to_pandas(),
                                   pdf[c].drop_duplicates(keep=keep))
    tm.assert_frame_equal(df.drop_duplicates(["k"], ignore_index=True).to_pandas(),
                          pdf.drop_duplicates(["k"], ignore_index=True))
    for c, vals in (("k", [1, 3, 99]), ("s", ["a", "日本", "zz"]), ("f", [0.5, 0.0]),
                    ("I", [1, 7]), ("u", [2**64 - 1]), ("k", []), ("s", [1])):
        tm.assert_series_equal(df[c].isin(vals).to_pandas(), pdf[c].isin(vals))
    tm.assert_series_equal(df["k"].isin(df["I"]).to_pandas(), pdf["k"].isin(pdf["I"]))
    for c, vals in (("f", [np.nan]), ("I", [pd.NA, 7]), ("s", [None])):
        tm.assert_series_equal(df[c].isin(vals).to_pandas(), pdf[c].isin(vals))


def test_isin_null_rules_for_every_pair_of_columns(device):
    pdf = pd.DataFrame({"i": [1, 0, -1, 2], "f": [1.0, np.nan, 0.0, 2.5],
                        "I": pd.array([1, None, 0, 2], dtype="Int64"),
                        "B": pd.array([True, None, False, True], dtype="boolean"),
                        "s": pd.Series(["a", None, "", "b"], dtype="str")})
    df = ef.from_pandas(pdf, device=device)
    for c in pdf:
        for o in pdf:
            tm.assert_series_equal(df[c].isin(df[o]).to_pandas(), pdf[c].isin(pdf[o]))
        for vals in ([None], [np.nan], [pd.NA], [1, pd.NA]):
            tm.assert_series_equal(df[c].isin(vals).to_pandas(), pdf[c].isin(vals))


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "uint32", "float32", "float64"])
def test_sort_one_number_column_many_rows(device, dtype):
    # the radix sort's chunks and the sorted key taken from the sort itself
    # (not gathered): ties in row order, NaN last, -0.0 and 0.0 as they were
    rng = np.random.default_rng(5)
    n = 50_003
    v = rng.integers(-100, 100, n).astype(dtype)
    if v.dtype.kind == "f":
        v[::97] = np.nan
        v[::89] = -0.0
    else:   # the ends of the range, where a negated key would overflow
        info = np.iinfo(v.dtype)
        v[::101], v[::103] = info.min, info.max
    pdf = pd.DataFrame({"v": v, "w": np.arange(n)}, index=rng.permutation(n) * 3)
    df = ef.from_pandas(pdf, device=device)
    tm.assert_frame_equal(df.sort_values("v").to_pandas(), pdf.sort_values("v", kind="stable"))
    for asc in (False, [False, True], [True, False]):   # descending keys are flipped
        by = "v" if asc is False else ["v", "w"]
        tm.assert_frame_equal(df.sort_values(by, ascending=asc).to_pandas(),
                              pdf.sort_values(by, ascending=asc, kind="stable"))
    for asc in (True, False):   # NaN rows rotated to the front, in row order
        tm.assert_frame_equal(
            df.sort_values("v", ascending=asc, na_position="first").to_pandas(),
            pdf.sort_values("v", ascending=asc, na_position="first", kind="stable"))
    desc = df["v"].sort_values(ascending=False).to_pandas()
    tm.assert_series_equal(desc, pdf["v"].sort_values(ascending=False, kind="stable"))
    assert np.array_equal(np.signbit(desc.to_numpy()), np.signbit(
        pdf["v"].sort_values(ascending=False, kind="stable").to_numpy()))
    tm.assert_frame_equal(df.sort_values("v", ignore_index=True).to_pandas(),
                          pdf.sort_values("v", kind="stable", ignore_index=True))
    got = df["v"].sort_values().to_pandas()
    tm.assert_series_equal(got, pdf["v"].sort_values(kind="stable"))
    assert np.array_equal(np.signbit(got.to_numpy()), np.signbit(
        pdf["v"].sort_values(kind="stable").to_numpy()))
    plain = ef.DataFrame({"v": v, "w": np.arange(n)}, device=device)   # RangeIndex
    tm.assert_frame_equal(plain.sort_values("v").to_pandas(),
                          pd.DataFrame({"v": v, "w": np.arange(n)}).sort_values("v",
                                                                                kind="stable"))


def test_value_counts_and_duplicates_of_int_and_bool_columns(device):
    # ints and bools are their own keys (one unique, no codes): the counts'
    # ties in order of first appearance, duplicates by keep, as pandas
    rng = np.random.default_rng(1)
    for v in (rng.integers(0, 50, 30_000), rng.integers(0, 2, 100).astype(bool),
              np.array([], dtype=np.int64), rng.integers(0, 255, 5000).astype(np.uint8),
              rng.integers(-2**63, 2**63 - 1, 1000)):
        p = pd.Series(v)
        e = ef.from_pandas(p, device=device)
        for kw in ({}, {"sort": False}, {"ascending": True}, {"normalize": True},
                   {"dropna": False}):
            tm.assert_series_equal(e.value_counts(**kw).to_pandas(), p.value_counts(**kw))
        pf = pd.DataFrame({"a": v, "b": np.arange(len(v)) % 3})
        f = ef.from_pandas(pf, device=device)
        for keep in ("first", "last", False):
            tm.assert_series_equal(e.duplicated(keep=keep).to_pandas(), p.duplicated(keep=keep))
            tm.assert_frame_equal(f.drop_duplicates(["a", "b"], keep=keep).to_pandas(),
                                  pf.drop_duplicates(["a", "b"], keep=keep))
