"""value_counts, duplicated/drop_duplicates (hashed keys,
frame/_hash_groups.py) and nlargest/nsmallest (a sampled threshold, then a
sort of only the candidates, frame/_top_select.py) against pandas: nulls,
strings, ties, -0.0, wide and narrow integer ranges, several key columns,
and columns long enough (>= 2^15 rows) that the selection samples."""
import pathlib

import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
ef = ember.frame
tm = pd.testing

N = 40_000   # past _top_select's shortest sampled column


def _series(kind, n, seed=0):
    rng = np.random.default_rng(seed)
    if kind == "narrow":      # direct addressing, many ties
        return pd.Series(rng.integers(-5, 40, n))
    if kind == "wide":        # hashed integers, -1 (the table's empty key) among them
        return pd.Series(rng.choice(np.array([-1, 2**62, -2**63, 7, 10**15]), n) +
                         rng.integers(0, 3, n) * 10**12)
    if kind == "uint64":
        return pd.Series(rng.choice(np.array([0, 2**64 - 1, 2**63, 5], dtype=np.uint64), n))
    if kind == "float":       # NaN, -0.0 and 0.0 (equal), repeats
        v = np.round(rng.normal(size=n), 2)
        v[rng.random(n) < 0.05] = np.nan
        v[rng.random(n) < 0.02] = -0.0
        v[rng.random(n) < 0.02] = 0.0
        return pd.Series(v)
    if kind == "float32":
        return pd.Series(np.round(rng.random(n), 2).astype(np.float32))
    if kind == "Int64":       # a masked column: NA last among equal counts
        v = pd.array(rng.integers(0, 30, n), dtype="Int64")
        v[rng.random(n) < 0.1] = pd.NA
        return pd.Series(v)
    if kind == "bool":
        return pd.Series(rng.random(n) < 0.3)
    if kind == "str":
        words = np.array(["a", "b", "é", "日本", "", "ab", "ba"], dtype=object)
        v = words[rng.integers(0, len(words), n)]
        v[rng.random(n) < 0.1] = None
        return pd.Series(v, dtype="str")
    if kind == "string":
        words = np.array(["x", "y", "z", "xy"], dtype=object)
        v = words[rng.integers(0, len(words), n)]
        v[rng.random(n) < 0.1] = None
        return pd.Series(v, dtype="string")
    if kind == "datetime":
        v = pd.Series(pd.to_datetime(rng.integers(0, 50, n), unit="D"))
        v[rng.random(n) < 0.05] = pd.NaT
        return v
    raise AssertionError(kind)


def _same(got, want, kind):
    # a string (NA) column's counts are int64 here, int64[pyarrow] in
    # pandas' pyarrow storage (docs/frames.md, What differs)
    loose = kind == "string" and want.dtype != object
    tm.assert_series_equal(got, want, check_dtype=not loose, check_index_type=not loose)


KINDS = ["narrow", "wide", "uint64", "float", "float32", "Int64", "bool", "str",
         "string", "datetime"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("n", [0, 1, 7, 3000])
def test_value_counts(device, kind, n):
    p = _series(kind, n)
    e = ef.from_pandas(p, device=device)
    for kw in ({}, {"dropna": False}, {"normalize": True}, {"sort": False},
               {"ascending": True}, {"normalize": True, "dropna": False}):
        _same(e.value_counts(**kw).to_pandas(), p.value_counts(**kw), kind)


@pytest.mark.parametrize("kind", KINDS)
def test_unique_nunique(device, kind):
    for n in (0, 1, 3000):
        p = _series(kind, n)
        e = ef.from_pandas(p, device=device)
        assert e.nunique() == p.nunique()
        assert e.nunique(dropna=False) == p.nunique(dropna=False)
        got, want = e.unique(), p.unique()
        got = got.to_pandas().array if hasattr(got, "to_pandas") else ember.asnumpy(got)
        if kind == "datetime":   # an int64 array of the instants (docs/frames.md)
            want = np.asarray(want).view(np.int64)
        tm.assert_extension_array_equal(pd.array(got), pd.array(want)) \
            if kind in ("Int64", "string", "str") else \
            np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def test_value_counts_ties_in_order_of_appearance(device):
    p = pd.Series([5, 3, 3, 5, 9, 1, 9, 1, 2])
    got = ef.from_pandas(p, device=device).value_counts().to_pandas()
    assert got.index.tolist() == [5, 3, 9, 1, 2]   # by hand: each pair in first-seen order
    tm.assert_series_equal(got, p.value_counts())
    f = pd.Series([0.0, -0.0, np.nan, 1.5, np.nan, -0.0])
    tm.assert_series_equal(ef.from_pandas(f, device=device).value_counts(dropna=False)
                           .to_pandas(), f.value_counts(dropna=False))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("keep", ["first", "last", False])
def test_duplicated(device, kind, keep):
    for n in (0, 1, 5000):
        p = _series(kind, n)
        e = ef.from_pandas(p, device=device)
        tm.assert_series_equal(e.duplicated(keep=keep).to_pandas(), p.duplicated(keep=keep))
        tm.assert_series_equal(e.drop_duplicates(keep=keep).to_pandas(),
                               p.drop_duplicates(keep=keep))


@pytest.mark.parametrize("kind", ["str", "string"])
def test_string_hash_collisions_fall_back(device, kind, monkeypatch):
    # every string hashed alike: the check against each group's first row
    # finds the clash and the strings' sorted codes group them instead
    from ember.frame import _hash_groups
    real = _hash_groups._string_hashes

    def clash(col):
        h, nulls = real(col)
        return h * 0, nulls
    monkeypatch.setattr(_hash_groups, "_string_hashes", clash)
    p = _series(kind, 3000)
    e = ef.from_pandas(p, device=device)
    _same(e.value_counts(dropna=False).to_pandas(), p.value_counts(dropna=False), kind)
    assert e.nunique() == p.nunique()
    for keep in ("first", "last", False):
        tm.assert_series_equal(e.drop_duplicates(keep=keep).to_pandas(),
                               p.drop_duplicates(keep=keep))
        tm.assert_series_equal(e.duplicated(keep=keep).to_pandas(), p.duplicated(keep=keep))


def _sampled_few(kind, n=70_000, hidden=6000):
    """A column past _hash_groups' sampling length whose sampled rows (every
    n // 4096-th) hold three values while `hidden` other rows are all
    distinct: the table sized from the sample overflows and the insert is
    made again into the whole table."""
    rng = np.random.default_rng(3)
    step = n // 4096
    pos = rng.choice(np.flatnonzero(np.arange(n) % step != 0), hidden, replace=False)
    if kind == "wide":
        v = rng.choice(np.array([-1, 2**62, 7]), n)
        v[pos] = np.arange(hidden) * 10**9 + 11
        return pd.Series(v)
    words = np.array(["x", "yy", "é"], dtype=object)
    v = words[rng.integers(0, 3, n)]
    v[rng.random(n) < 0.01] = None
    v[pos] = np.array([f"u{i}" for i in range(hidden)], dtype=object)
    return pd.Series(v, dtype="str")


@pytest.mark.parametrize("kind", ["wide", "str"])
@pytest.mark.parametrize("hidden", [0, 6000])
def test_table_sized_from_a_sample(device, kind, hidden):
    # hidden=0: the guessed table holds every key; 6000: it overflows
    p = _sampled_few(kind, hidden=hidden)
    e = ef.from_pandas(p, device=device)
    _same(e.value_counts(dropna=False).to_pandas(), p.value_counts(dropna=False), kind)
    assert e.nunique() == p.nunique() == 3 + hidden
    for keep in ("first", False):
        tm.assert_series_equal(e.drop_duplicates(keep=keep).to_pandas(),
                               p.drop_duplicates(keep=keep))
    tm.assert_series_equal(e.duplicated(keep="last").to_pandas(), p.duplicated(keep="last"))
    fp = pd.DataFrame({"k": p, "v": np.arange(len(p), dtype=np.float64)})
    fe = ef.from_pandas(fp, device=device)
    tm.assert_series_equal(fe.groupby("k")["v"].sum().to_pandas(),
                           fp.groupby("k")["v"].sum())


def test_string_keys_grouped_when_hashes_collide(device, monkeypatch):
    # groupby and merge code string keys by hashing the rows and sorting
    # only the distinct strings; a clash of hashes sorts every row instead
    from ember.frame import _hash_groups
    real = _hash_groups._string_hashes
    p = _series("str", 3000)
    fp = pd.DataFrame({"k": p, "v": np.arange(3000, dtype=np.float64)})
    rp = pd.DataFrame({"k": ["b", "é", None, "zz", "b"], "w": [1.0, 2.0, 3.0, 4.0, 5.0]})
    for clash in (False, True):
        if clash:
            monkeypatch.setattr(_hash_groups, "_string_hashes",
                                lambda col: (real(col)[0] * 0, real(col)[1]))
        fe, re_ = ef.from_pandas(fp, device=device), ef.from_pandas(rp, device=device)
        tm.assert_frame_equal(fe.groupby("k", dropna=False).agg(s=("v", "sum"),
                                                                 c=("v", "count")).to_pandas(),
                              fp.groupby("k", dropna=False).agg(s=("v", "sum"),
                                                                c=("v", "count")))
        tm.assert_frame_equal(fe.merge(re_, on="k", how="outer").to_pandas(),
                              fp.merge(rp, on="k", how="outer"))
        tm.assert_series_equal(fe.sort_values("k")["v"].to_pandas(),
                               fp.sort_values("k")["v"])


def test_strings_that_differ_only_in_length_or_a_nul(device):
    p = pd.Series(["a", "a\0", "", "a", "\0", "", "ab", "a\0\0", "b" * 9, "b" * 8 + "c",
                   "b" * 9], dtype="str")
    e = ef.from_pandas(p, device=device)
    tm.assert_series_equal(e.value_counts().to_pandas(), p.value_counts())
    tm.assert_series_equal(e.duplicated().to_pandas(), p.duplicated())


@pytest.mark.parametrize("keep", ["first", "last", False])
@pytest.mark.parametrize("subset", [None, ["s"], ["a", "s"], ["f", "I", "s"], ["a", "w"]])
def test_drop_duplicates_frame(device, keep, subset):
    n = 6000
    pdf = pd.DataFrame({"a": _series("narrow", n, 1), "w": _series("wide", n, 2),
                        "f": _series("float", n, 3), "I": _series("Int64", n, 4),
                        "s": _series("str", n, 5)})
    df = ef.from_pandas(pdf, device=device)
    tm.assert_frame_equal(df.drop_duplicates(subset, keep=keep).to_pandas(),
                          pdf.drop_duplicates(subset, keep=keep))
    tm.assert_frame_equal(df.drop_duplicates(subset, keep=keep, ignore_index=True)
                          .to_pandas(),
                          pdf.drop_duplicates(subset, keep=keep, ignore_index=True))
    tm.assert_series_equal(df.duplicated(subset, keep=keep).to_pandas(),
                           pdf.duplicated(subset, keep=keep))


def test_duplicated_many_key_columns(device):
    # the combined codes would pass 2^62 without renumbering between columns
    rng = np.random.default_rng(9)
    pdf = pd.DataFrame({f"c{i}": rng.integers(0, 2**40, 3000) % (400 + i)
                        for i in range(8)})
    pdf = pd.concat([pdf, pdf.iloc[::7]], ignore_index=True)
    df = ef.from_pandas(pdf, device=device)
    for keep in ("first", "last", False):
        tm.assert_series_equal(df.duplicated(keep=keep).to_pandas(), pdf.duplicated(keep=keep))


SELECT_KINDS = ["narrow", "wide", "float", "float32", "Int64", "datetime"]


@pytest.mark.parametrize("kind", SELECT_KINDS)
@pytest.mark.parametrize("keep", ["first", "last", "all"])
@pytest.mark.parametrize("n", [1, 5, 100])
def test_nlargest_nsmallest_long(device, kind, keep, n):
    p = _series(kind, N, seed=n)
    e = ef.from_pandas(p, device=device)
    tm.assert_series_equal(e.nlargest(n, keep=keep).to_pandas(), p.nlargest(n, keep=keep))
    tm.assert_series_equal(e.nsmallest(n, keep=keep).to_pandas(), p.nsmallest(n, keep=keep))


def test_nlargest_sorted_and_all_equal(device):
    # an ascending column (the sample sees its order), a constant one (every
    # row a candidate), and one whose values sit past the sample's stride
    for v in (np.arange(N, dtype=np.float64), np.full(N, 3, dtype=np.int64),
              np.where(np.arange(N) % 4096 == 17, 100.0, 0.0)):
        p = pd.Series(v)
        e = ef.from_pandas(p, device=device)
        for keep in ("first", "last", "all"):
            tm.assert_series_equal(e.nlargest(3, keep=keep).to_pandas(),
                                   p.nlargest(3, keep=keep))
            tm.assert_series_equal(e.nsmallest(3, keep=keep).to_pandas(),
                                   p.nsmallest(3, keep=keep))


def test_nlargest_mostly_nan(device):
    v = np.full(N, np.nan)
    v[[5, 900, 39_000]] = [1.0, 2.0, 1.0]
    p = pd.Series(v)
    e = ef.from_pandas(p, device=device)
    for n in (2, 3, 5):
        tm.assert_series_equal(e.nlargest(n).to_pandas(), p.nlargest(n))
        tm.assert_series_equal(e.nsmallest(n, keep="all").to_pandas(),
                               p.nsmallest(n, keep="all"))


@pytest.mark.parametrize("keep", ["first", "last", "all"])
@pytest.mark.parametrize("cols", [["a", "f"], ["f"], ["a", "I", "f"]])
def test_frame_nlargest_long(device, keep, cols):
    pdf = pd.DataFrame({"a": _series("narrow", N, 1), "f": _series("float", N, 2),
                        "I": _series("Int64", N, 3)})
    df = ef.from_pandas(pdf, device=device)
    for n in (3, 50):
        tm.assert_frame_equal(df.nlargest(n, cols, keep=keep).to_pandas(),
                              pdf.nlargest(n, cols, keep=keep))
        tm.assert_frame_equal(df.nsmallest(n, cols, keep=keep).to_pandas(),
                              pdf.nsmallest(n, cols, keep=keep))


def test_key_hash_kernels_compile_for_the_gpu(need_nvrtc):
    """frame/kernels/key_hash.cuh as NVRTC compiles it for the GPU."""
    from ember.frame._kernels import source
    src = source("key_hash.cuh")
    ptx = ember.cuda.Program(src).compile("ptx").code
    assert ptx.count(b".entry") == 5   # insert and dup of each slot width, bounds


def test_string_kernels_with_the_hash_compile_for_the_gpu(need_nvrtc):
    """the string kernels' module (str_hash.cuh with the others, as
    _str_kernels pastes them) as NVRTC compiles it for the GPU."""
    from ember.frame import _str_kernels
    root = pathlib.Path(ember.frame.__file__).resolve().parent / "kernels"
    src = "\n".join((root / f).read_text() for f in _str_kernels._FILES)
    ptx = ember.cuda.Program(src).compile("ptx").code
    assert b"em_str_hash" in ptx and b"em_str_same" in ptx
