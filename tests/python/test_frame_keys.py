"""The key codes groupby and merge share (_keys.key_codes) and the string
codes under them, against pandas: keys of every kind, nulls under each
caller's policy, strings whose order depends on their length or a NUL
byte, and the grouped median and scans that ride on the codes."""
import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
ef = ember.frame
tm = pd.testing

# shared prefixes, lengths around the 8-byte words, a NUL byte that ties
# with the words' padding, unicode, the empty string and a null
STRS = ["", "a", "a\x00", "ab", "abcdefgh", "abcdefgh\x00", "abcdefghi", "abcdefgg",
        "日本", "é", "zz" * 9, None, "a", "ab"]


def _frame(device, **cols):
    return ef.from_pandas(pd.DataFrame(cols), device=device)


@pytest.mark.parametrize("nul", [True, False])
def test_string_order_and_groups(device, nul):
    vals = [s for s in STRS if nul or s is None or "\x00" not in s]
    p = pd.DataFrame({"k": pd.array(vals, dtype="string"), "v": np.arange(len(vals))})
    e = ef.from_pandas(p, device=device)
    tm.assert_frame_equal(e.sort_values("k").to_pandas(), p.sort_values("k"))
    for dropna in (True, False):
        tm.assert_series_equal(e.groupby("k", dropna=dropna)["v"].sum().to_pandas(),
                               p.groupby("k", dropna=dropna)["v"].sum())


def test_string_merge(device):
    rng = np.random.default_rng(0)
    left = pd.DataFrame({"k": pd.array([STRS[i] for i in rng.integers(0, len(STRS), 60)],
                                       dtype="string"), "v": np.arange(60)})
    right = pd.DataFrame({"k": pd.array(STRS[::-1], dtype="string"),
                          "w": np.arange(len(STRS))})
    el, er = ef.from_pandas(left, device=device), ef.from_pandas(right, device=device)
    for how in ("inner", "left", "outer"):
        tm.assert_frame_equal(el.merge(er, on="k", how=how).to_pandas(),
                              left.merge(right, on="k", how=how))


def test_key_kinds(device):
    n = 50
    rng = np.random.default_rng(1)
    f = rng.integers(0, 4, n).astype(float)
    f[::7] = np.nan
    t = pd.to_datetime(rng.integers(0, 3, n) * 86400, unit="s")
    t = t.where(rng.random(n) > 0.2)
    p = pd.DataFrame({"f": f, "b": rng.random(n) > 0.5, "t": t,
                      "i": pd.array(rng.integers(0, 3, n), dtype="Int64"),
                      "w": rng.integers(-10**12, 10**12, n), "v": rng.random(n)})
    p.loc[::5, "i"] = pd.NA
    e = ef.from_pandas(p, device=device)
    for keys in (["f"], ["b"], ["t"], ["i"], ["w"], ["f", "b"], ["t", "i", "b"]):
        for dropna in (True, False):
            got = e.groupby(keys, dropna=dropna, as_index=False)["v"].sum().to_pandas()
            want = p.groupby(keys, dropna=dropna, as_index=False)["v"].sum()
            tm.assert_frame_equal(got, want)
    right = p.drop_duplicates(["f", "t"]).assign(u=lambda d: np.arange(len(d)))[
        ["f", "t", "u"]]
    er = ef.from_pandas(right, device=device)
    for how in ("inner", "outer"):   # NaN meets NaN and NaT meets NaT, as in pandas
        tm.assert_frame_equal(e.merge(er, on=["f", "t"], how=how).to_pandas(),
                              p.merge(right, on=["f", "t"], how=how))


@pytest.mark.parametrize("sort", [True, False])
def test_median_and_scans(device, sort):
    rng = np.random.default_rng(2)
    n = 400
    k = rng.integers(0, 30, n).astype(float)
    k[::11] = np.nan
    v = rng.standard_normal(n)
    v[::13] = np.nan
    p = pd.DataFrame({"k": k, "v": v, "i": rng.integers(-5, 5, n)})
    e = ef.from_pandas(p, device=device)
    for c in ("v", "i"):
        tm.assert_series_equal(e.groupby("k", sort=sort)[c].median().to_pandas(),
                               p.groupby("k", sort=sort)[c].median())
        for op in ("cumsum", "cummax", "cummin", "cumprod"):
            tm.assert_series_equal(getattr(e.groupby("k", sort=sort)[c], op)().to_pandas(),
                                   getattr(p.groupby("k", sort=sort)[c], op)())


def test_one_row_and_empty(device):
    for p in (pd.DataFrame({"k": pd.array(["x"], dtype="string"), "v": [1.5]}),
              pd.DataFrame({"k": pd.array([], dtype="string"), "v": np.zeros(0)})):
        e = ef.from_pandas(p, device=device)
        tm.assert_series_equal(e.groupby("k")["v"].median().to_pandas(),
                               p.groupby("k")["v"].median())
        tm.assert_series_equal(e.groupby("k")["v"].cumsum().to_pandas(),
                               p.groupby("k")["v"].cumsum())
        tm.assert_frame_equal(e.merge(e, on="k").to_pandas(), p.merge(p, on="k"))
