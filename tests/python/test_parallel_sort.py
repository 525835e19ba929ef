"""Sorting and searching: ember.parallel.radix_sort/merge_sort/merge/
lower_bound/upper_bound/top_k and NumPy's sort, argsort, lexsort,
partition, argpartition, searchsorted, with the ndarray methods, compared
with NumPy (stable kinds) on every device."""
import numpy as np
import pytest

import ember
from helpers import assert_array_equal_np

INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOATS = ["float16", "float32", "float64"]
ALL = ["bool"] + INTS + FLOATS + ["complex64", "complex128"]
SIZES = [0, 1, 2, 255, 257, 4095, 4096, 4097, 8192 * 3 + 5]


def rand(dtype, n, seed=0, dup=True):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        if dup:
            return rng.integers(max(info.min, -20), min(info.max, 20), n,
                                dtype=dt)
        return rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
    if dt.kind == "c":
        re = rng.integers(-3, 3, n).astype(dt)
        im = rng.integers(-3, 3, n).astype(dt)
        return re + 1j * im
    x = rng.standard_normal(n).astype(dt)
    if dup:
        x = np.round(x * 3).astype(dt)
    specials = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0], dt)
    if n >= 10:
        idx = rng.integers(0, n, min(n // 3, 50))
        x[idx] = specials[rng.integers(0, len(specials), len(idx))]
    return x


@pytest.mark.parametrize("dtype", ALL)
def test_sort_argsort_dtypes(device, dtype):
    for n in [0, 1, 2, 257, 5000]:
        x = rand(dtype, n, seed=n)
        a = ember.asarray(x, device=device)
        assert_array_equal_np(ember.sort(a), np.sort(x, kind="stable"), device)
        assert_array_equal_np(ember.argsort(a),
                              np.argsort(x, kind="stable"), device)


@pytest.mark.parametrize("n", SIZES)
def test_sizes_int32_float64(device, n):
    for dtype, dup in [("int32", True), ("int32", False), ("float64", True),
                       ("uint64", False)]:
        x = rand(dtype, n, seed=n + 1, dup=dup)
        a = ember.asarray(x, device=device)
        assert_array_equal_np(ember.argsort(a),
                              np.argsort(x, kind="stable"), device)


def test_large(device):
    x = rand("float32", 3_000_001, seed=5, dup=False)
    a = ember.asarray(x, device=device)
    assert_array_equal_np(ember.argsort(a), np.argsort(x, kind="stable"))
    y = np.random.default_rng(1).integers(0, 2**63, 2_000_000, dtype=np.int64)
    assert_array_equal_np(ember.sort(ember.asarray(y, device=device)),
                          np.sort(y))


def test_patterns(device):
    n = 10001
    for x in [np.zeros(n, np.int32), np.arange(n, dtype=np.int16),
              np.arange(n, 0, -1).astype(np.float32),
              np.full(n, np.nan, np.float64),
              np.tile(np.array([-0.0, 0.0], np.float32), n // 2)]:
        a = ember.asarray(x, device=device)
        assert_array_equal_np(ember.sort(a), np.sort(x, kind="stable"))
        assert_array_equal_np(ember.argsort(a), np.argsort(x, kind="stable"))


def test_stability_many_duplicates(device):
    x = np.random.default_rng(3).integers(0, 4, 50_000).astype(np.uint8)
    a = ember.asarray(x, device=device)
    assert_array_equal_np(ember.argsort(a), np.argsort(x, kind="stable"))
    k, v = ember.parallel.radix_sort(a, ember.arange(len(x), device=device))
    assert_array_equal_np(v, np.argsort(x, kind="stable"))


def test_complex_nan_order(device):
    nan = np.nan
    x = np.array([complex(1, nan), complex(nan, 0), 1 + 1j, 2j,
                  complex(nan, nan), 1 + 0j, complex(nan, -1), complex(0, nan),
                  -1 - 1j], np.complex128)
    a = ember.asarray(x, device=device)
    assert_array_equal_np(ember.argsort(a), np.argsort(x, kind="stable"))
    assert_array_equal_np(ember.sort(a), np.sort(x, kind="stable"))


@pytest.mark.parametrize("shape,axis", [((3, 5), -1), ((3, 5), 0),
                                        ((4, 300, 3), 1), ((70, 9), 1),
                                        ((2, 3, 4), None), ((0, 4), 1),
                                        ((4, 0), 0), ((5,), 0), ((1, 7), 0)])
def test_axis(device, shape, axis):
    x = rand("float32", int(np.prod(shape)), seed=2).reshape(shape)
    a = ember.asarray(x, device=device)
    assert_array_equal_np(ember.sort(a, axis=axis),
                          np.sort(x, axis=axis, kind="stable"))
    assert_array_equal_np(ember.argsort(a, axis=axis),
                          np.argsort(x, axis=axis, kind="stable"))


def test_many_rows(device):
    x = rand("int16", 3000 * 7, seed=4).reshape(3000, 7)
    a = ember.asarray(x, device=device)
    assert_array_equal_np(ember.argsort(a), np.argsort(x, kind="stable"))
    assert_array_equal_np(ember.sort(a, axis=0), np.sort(x, axis=0))


def test_layouts(device):
    x = rand("int64", 600, seed=6).reshape(20, 30)
    a = ember.asarray(x, device=device)
    for v, xv in [(a[:, ::-2], x[:, ::-2]), (a.T, x.T),
                  (ember.broadcast_to(a[0], (3, 30)),
                   np.broadcast_to(x[0], (3, 30)))]:
        assert_array_equal_np(ember.sort(v), np.sort(xv, kind="stable"))
        assert_array_equal_np(ember.argsort(v, axis=0),
                              np.argsort(xv, axis=0, kind="stable"))


def test_zero_d(device):
    a = ember.asarray(np.float32(3), device=device)
    with pytest.raises(ember.AxisError):
        ember.sort(a)
    assert_array_equal_np(ember.argsort(a), np.argsort(np.float32(3)))
    assert_array_equal_np(ember.sort(a, axis=None), np.array([3], np.float32))


def test_methods(device):
    x = rand("float64", 101, seed=7).reshape(101)
    a = ember.asarray(x, device=device)
    b = a.copy()
    assert b.sort() is None
    assert_array_equal_np(b, np.sort(x, kind="stable"))
    assert_array_equal_np(a.argsort(), np.argsort(x, kind="stable"))
    s = np.sort(x)
    assert_array_equal_np(b.searchsorted(ember.asarray([0.5, np.nan],
                                                       device=device)),
                          s.searchsorted([0.5, np.nan]))
    c = a.copy()
    c.partition(3)
    assert_array_equal_np(c, np.sort(x, kind="stable"))
    assert_array_equal_np(a.argpartition(3), np.argsort(x, kind="stable"))
    m = ember.asarray(x[:100].reshape(10, 10), device=device)
    m.sort(axis=0)
    assert_array_equal_np(m, np.sort(x[:100].reshape(10, 10), axis=0,
                                     kind="stable"))


def test_partition(device):
    x = rand("int32", 50, seed=8)
    a = ember.asarray(x, device=device)
    p = ember.partition(a, [3, 10]).get()
    assert p[3] == np.partition(x, 3)[3] and p[10] == np.sort(x)[10]
    assert_array_equal_np(ember.argpartition(a, -1),
                          np.argsort(x, kind="stable"))
    with pytest.raises(ValueError, match="kth"):
        ember.partition(a, 50)
    with pytest.raises(ValueError, match="kth"):
        ember.argpartition(a, -51)


def test_kind_and_order(device):
    a = ember.asarray([3, 1, 2], device=device)
    for kind in ["quicksort", "mergesort", "heapsort", "stable"]:
        assert_array_equal_np(ember.sort(a, kind=kind), np.array([1, 2, 3]))
    assert_array_equal_np(ember.argsort(a, stable=True), np.array([1, 2, 0]))
    with pytest.raises(ValueError, match="sort kind"):
        ember.sort(a, kind="bogus")
    with pytest.raises(ValueError, match="order"):
        ember.sort(a, order="x")
    with pytest.raises(ember.AxisError):
        ember.sort(a, axis=1)
    with pytest.raises(TypeError, match="axis"):
        ember.argsort(a, axis="x")


@pytest.mark.parametrize("dtype", INTS + FLOATS)
def test_searchsorted(device, dtype):
    h = np.sort(rand(dtype, 300, seed=9))
    v = rand(dtype, 77, seed=10)
    a = ember.asarray(h, device=device)
    for side in ["left", "right"]:
        assert_array_equal_np(ember.searchsorted(a, ember.asarray(v, device=device),
                                                 side=side),
                              np.searchsorted(h, v, side=side))


def test_searchsorted_more(device):
    h = np.array([5, 1, 4, 1, 9], np.int32)
    srt = np.argsort(h, kind="stable")
    a = ember.asarray(h, device=device)
    v = np.array([[0, 1], [4, 10]], np.int32)
    got = ember.searchsorted(a, ember.asarray(v, device=device),
                             sorter=ember.asarray(srt, device=device))
    assert_array_equal_np(got, np.searchsorted(h, v, sorter=srt))
    # mixed dtypes: compared in the common type
    hf = np.array([0.5, 1.5, 2.5])
    got = ember.searchsorted(ember.asarray(hf, device=device),
                             ember.asarray(np.array([1, 2], np.int32),
                                           device=device))
    assert_array_equal_np(got, np.searchsorted(hf, np.array([1, 2], np.int32)))
    empty = ember.asarray(np.zeros(0, np.float32), device=device)
    assert_array_equal_np(ember.searchsorted(empty, ember.asarray(
        [1.0, 2.0], dtype="float32", device=device)), np.array([0, 0]))
    with pytest.raises(ValueError, match="side"):
        ember.searchsorted(a, ember.asarray(v, device=device), side="middle")
    with pytest.raises(ValueError, match="1-D"):
        ember.searchsorted(ember.asarray(v, device=device), a)
    with pytest.raises(IndexError):
        ember.searchsorted(a, ember.asarray(v, device=device),
                           sorter=ember.asarray([0, 1, 2, 3, 7], device=device))
    with pytest.raises(TypeError, match="complex"):
        ember.searchsorted(ember.asarray([1j], device=device),
                           ember.asarray([1j], device=device))


def test_bounds(device):
    h = np.array([1, 2, 2, 2, 5, 7], np.int64)
    v = np.array([2, 0, 8, 5], np.int64)
    a, b = ember.asarray(h, device=device), ember.asarray(v, device=device)
    assert_array_equal_np(ember.parallel.lower_bound(a, b),
                          np.searchsorted(h, v, "left"))
    assert_array_equal_np(ember.parallel.upper_bound(a, b),
                          np.searchsorted(h, v, "right"))


def test_lexsort(device):
    rng = np.random.default_rng(11)
    k1 = rng.integers(0, 3, 500).astype(np.int8)
    k2 = rng.standard_normal(500).round().astype(np.float32)
    k3 = rng.integers(0, 2, 500).astype(bool)
    keys = [ember.asarray(k, device=device) for k in (k1, k2, k3)]
    assert_array_equal_np(ember.lexsort(keys), np.lexsort((k1, k2, k3)))
    m = np.stack([k1.astype(np.float32), k2]).reshape(2, 20, 25)
    assert_array_equal_np(ember.lexsort(ember.asarray(m, device=device)),
                          np.lexsort(m))
    with pytest.raises(ValueError, match="shape"):
        ember.lexsort([keys[0], ember.asarray([1, 2], device=device)])


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int32", "int64",
                                   "float16", "float32", "float64", "bool"])
def test_radix_sort(device, dtype):
    x = rand(dtype, 9000, seed=12)
    vals = np.arange(9000, dtype=np.float32)
    a = ember.asarray(x, device=device)
    k, v = ember.parallel.radix_sort(a, ember.asarray(vals, device=device))
    o = np.argsort(x, kind="stable")
    assert_array_equal_np(k, x[o])
    assert_array_equal_np(v, vals[o])
    assert_array_equal_np(ember.parallel.radix_sort(a), x[o])


def test_radix_sort_descending_and_bits(device):
    x = np.array([3.0, np.nan, -1.0, 3.0, np.inf, -0.0, 0.0], np.float32)
    a = ember.asarray(x, device=device)
    k, v = ember.parallel.radix_sort(a, ember.arange(7, device=device),
                                     descending=True)
    assert_array_equal_np(v, np.array([4, 0, 3, 5, 6, 2, 1]))
    u = np.random.default_rng(13).integers(0, 2**32, 5000, dtype=np.uint32)
    k = ember.parallel.radix_sort(ember.asarray(u, device=device),
                                  begin_bit=4, end_bit=12)
    o = np.argsort((u >> 4) & 0xFF, kind="stable")
    assert_array_equal_np(k, u[o])


def test_radix_sort_errors(device):
    a = ember.asarray(np.arange(5, dtype=np.int32), device=device)
    with pytest.raises(ValueError, match="5.*3|3.*5"):
        ember.parallel.radix_sort(a, ember.arange(3, device=device))
    with pytest.raises(TypeError, match="radix_sort.*complex64"):
        ember.parallel.radix_sort(ember.asarray(np.ones(3, np.complex64),
                                                device=device))
    with pytest.raises(ValueError, match="bits"):
        ember.parallel.radix_sort(a, end_bit=40)
    with pytest.raises(ValueError, match="1-D"):
        ember.parallel.radix_sort(ember.asarray(np.ones((2, 2)), device=device))


def test_merge_sort_comparator(device):
    x = rand("int32", 3001, seed=14)
    vals = np.arange(3001, dtype=np.int64)
    a = ember.asarray(x, device=device)
    # descending by a non-trivial key, stable
    k, v = ember.parallel.merge_sort(a, ember.asarray(vals, device=device),
                                     comparator="a * a > b * b")
    o = np.argsort(-(x.astype(np.int64) ** 2), kind="stable")
    assert_array_equal_np(v, vals[o])
    assert_array_equal_np(k, x[o])
    f = rand("float16", 513, seed=15)
    f = f[~np.isnan(f)]
    k = ember.parallel.merge_sort(ember.asarray(f, device=device),
                                  comparator="a < b")
    assert_array_equal_np(k, np.sort(f, kind="stable"))
    c = rand("complex64", 100, seed=16)
    k = ember.parallel.merge_sort(ember.asarray(c, device=device),
                                  comparator="a.im < b.im")
    assert_array_equal_np(k, c[np.argsort(c.imag, kind="stable")])
    # default comparator: NumPy's order
    assert_array_equal_np(ember.parallel.merge_sort(a), np.sort(x))
    with pytest.raises(ember.CompileError, match="a <<< b"):
        ember.parallel.merge_sort(a, comparator="a <<< b")


def test_merge(device):
    a = np.sort(rand("float32", 700, seed=17))
    b = np.sort(rand("float32", 301, seed=18))
    ea, eb = ember.asarray(a, device=device), ember.asarray(b, device=device)
    both = np.concatenate([a, b])
    o = np.argsort(both, kind="stable")
    assert_array_equal_np(ember.parallel.merge(ea, eb), both[o])
    ia = np.arange(700)
    ib = np.arange(700, 1001)
    k, v = ember.parallel.merge(ea, eb, ember.asarray(ia, device=device),
                                ember.asarray(ib, device=device))
    assert_array_equal_np(v, o)
    ai = np.sort(rand("int64", 100, seed=19))[::-1].copy()
    bi = np.sort(rand("int64", 50, seed=20))[::-1].copy()
    got = ember.parallel.merge(ember.asarray(ai, device=device),
                               ember.asarray(bi, device=device),
                               comparator="a > b")
    assert_array_equal_np(got, np.sort(np.concatenate([ai, bi]))[::-1])
    with pytest.raises(TypeError, match="dtype"):
        ember.parallel.merge(ea, ember.asarray(ai, device=device))
    with pytest.raises(ValueError, match="values"):
        ember.parallel.merge(ea, eb, ember.asarray(ia, device=device))


def test_top_k(device):
    x = rand("float64", 1000, seed=21)
    a = ember.asarray(x, device=device)
    v, i = ember.parallel.top_k(a, 10)
    o = np.argsort(np.where(np.isnan(x), np.inf, -x), kind="stable")[:10]
    assert_array_equal_np(i, o)
    assert_array_equal_np(v, x[o])
    v, i = ember.parallel.top_k(a, 5, largest=False)
    o = np.argsort(x, kind="stable")[:5]
    assert_array_equal_np(i, o)
    v, i = ember.parallel.top_k(a, 0)
    assert v.shape == (0,) and i.shape == (0,)
    with pytest.raises(ValueError, match="k=1001"):
        ember.parallel.top_k(a, 1001)


def test_bfloat16(device):
    x = rand("float32", 300, seed=22).astype(np.float32)
    x = np.round(x * 4) / 4
    a = ember.asarray(x, device=device).astype("bfloat16")
    got = ember.sort(a).astype("float32").get()
    np.testing.assert_array_equal(got, np.sort(x))


@pytest.mark.parametrize("vdtype", ["bool", "int16", "float32", "complex64",
                                    "complex128"])
def test_radix_sort_value_dtypes(device, vdtype):
    n = 1024 * 7
    x = rand("uint32", n, seed=23)
    vals = rand(vdtype, n, seed=24)
    a = ember.asarray(x, device=device)
    k, v = ember.parallel.radix_sort(a[::-1], ember.asarray(vals, device=device)[::-1])
    o = np.argsort(x[::-1], kind="stable")
    assert_array_equal_np(k, x[::-1][o])
    assert_array_equal_np(v, vals[::-1][o])


def test_rows_edge_cases(device):
    for shape in [(1000, 1), (1, 1000), (300, 2), (2, 3, 1)]:
        x = rand("float64", int(np.prod(shape)), seed=25).reshape(shape)
        a = ember.asarray(x, device=device)
        for axis in range(len(shape)):
            assert_array_equal_np(ember.argsort(a, axis=axis),
                                  np.argsort(x, axis=axis, kind="stable"))
            assert_array_equal_np(ember.sort(a, axis=axis),
                                  np.sort(x, axis=axis, kind="stable"))


# ---- the raw-key radix sort (Onesweep on CUDA) ----
# Tiles: 256 threads x 24 keys (4-byte keys alone), x 20 (8-byte keys),
# x 12 (8-byte keys with values), x 29 (4-byte keys with values: VTILE).
TILE = 4096
VTILE = 256 * 29


@pytest.mark.parametrize("n", [TILE - 1, TILE, TILE + 1, TILE * 33 + 1,
                               VTILE - 1, VTILE, VTILE + 1, VTILE * 4 + 100])
def test_tile_sizes(device, n):
    for dtype, dup in [("uint32", False), ("float32", True), ("int64", True),
                       ("float64", False), ("int32", True)]:
        x = rand(dtype, n, seed=n + 3, dup=dup)
        a = ember.asarray(x, device=device)
        o = np.argsort(x, kind="stable")
        assert_array_equal_np(ember.sort(a), x[o], device)
        assert_array_equal_np(ember.argsort(a), o, device)
        vals = np.arange(n, dtype=np.float32) * 2 - 7
        k, v = ember.parallel.radix_sort(a, ember.asarray(vals, device=device))
        assert_array_equal_np(k, x[o])
        assert_array_equal_np(v, vals[o])
        big = np.arange(n, dtype=np.int64) * 3 - (1 << 40)
        k, v = ember.parallel.radix_sort(a, ember.asarray(big, device=device))
        assert_array_equal_np(k, x[o])
        assert_array_equal_np(v, big[o])


def test_all_equal_and_sorted(device):
    n = TILE * 5 + 17
    for x in [np.full(n, 7, np.uint32), np.full(n, -0.0, np.float64),
              np.arange(n, dtype=np.int64)[::-1].copy(),
              np.arange(n, dtype=np.float32)]:
        a = ember.asarray(x, device=device)
        o = np.argsort(x, kind="stable")
        assert_array_equal_np(ember.sort(a), x[o])
        assert_array_equal_np(ember.argsort(a), o)
        k, v = ember.parallel.radix_sort(a, ember.arange(n, device=device),
                                         descending=True)
        od = np.lexsort((np.arange(n), -x.astype(np.float64)))
        assert_array_equal_np(k, x[od])
        assert_array_equal_np(v, od)


def test_nan_payloads_and_signed_zeros(device):
    n = 3 * TILE + 5
    rng = np.random.default_rng(11)
    bits = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    bits[rng.integers(0, n, 500)] = 0x7FC00000 | rng.integers(1, 2**22, 500,
                                                              dtype=np.uint32)
    bits[rng.integers(0, n, 500)] = 0xFFC01234
    bits[rng.integers(0, n, 300)] = 0x80000000  # -0.0
    bits[rng.integers(0, n, 300)] = 0           # 0.0
    x = bits.view(np.float32)
    a = ember.asarray(x, device=device)
    o = np.argsort(x, kind="stable")
    assert_array_equal_np(ember.argsort(a), o)
    got = ember.asnumpy(ember.sort(a)).view(np.uint32)
    np.testing.assert_array_equal(got, bits[o])  # payloads, signs, order


@pytest.mark.parametrize("dtype", ["uint32", "int64", "float64", "uint64"])
def test_descending_bits_pairs(device, dtype):
    n = 2 * TILE + 3
    x = rand(dtype, n, seed=12, dup=False)
    a = ember.asarray(x, device=device)
    width = 8 * np.dtype(dtype).itemsize
    ids = np.arange(n, dtype=np.int64)
    # NumPy's order as ranks (-0.0 ties 0.0, NaNs share the last rank)
    r = np.unique(x, return_inverse=True)[1].astype(np.int64)
    nan = np.isnan(x) if dtype[0] == "f" else np.zeros(n, bool)
    for desc in [False, True]:
        k, v = ember.parallel.radix_sort(a, ember.asarray(ids, device=device),
                                         descending=desc)
        o = np.argsort(np.where(nan, n, -r) if desc else r, kind="stable")
        assert_array_equal_np(v, o)
        assert_array_equal_np(k, x[o])
    if dtype[0] in "ui":
        img = x.view(np.dtype(f"uint{width}"))
        if dtype[0] == "i":
            img = img ^ np.array(1 << (width - 1), img.dtype)
        for lo, hi in [(4, 20), (width - 24, width), (0, 0), (3, 5)]:
            d = (img >> np.array(lo, img.dtype)) & np.array(
                (1 << (hi - lo)) - 1, img.dtype)
            o = np.argsort(d, kind="stable")
            k, v = ember.parallel.radix_sort(a, ember.asarray(ids, device=device),
                                             begin_bit=lo, end_bit=hi)
            assert_array_equal_np(v, o)
            assert_array_equal_np(k, x[o])


def test_passes_every_key_shares(device):
    # Onesweep skips a pass whose digit all keys share, so the passes that
    # run change buffers in other turns: shared low digits (float32 values
    # as float64), shared middle digits, shared top digits, and a shared
    # first digit before argsort's first pass makes the positions.
    n = 3 * TILE + 11
    rng = np.random.default_rng(31)
    f32 = rng.standard_normal(n).astype(np.float32)
    mid = rng.integers(0, 256, n, dtype=np.uint32)
    cases = [f32.astype(np.float64),
             (mid << np.uint32(24)) | rng.integers(0, 256, n, dtype=np.uint32),
             rng.integers(-1000, 1000, n).astype(np.int64),
             mid << np.uint32(8),
             (mid.astype(np.uint64) << np.uint64(40)) | np.uint64(5)]
    for x in cases:
        a = ember.asarray(x, device=device)
        o = np.argsort(x, kind="stable")
        assert_array_equal_np(ember.sort(a), x[o])
        assert_array_equal_np(ember.argsort(a), o)
        for vdt in [np.int64, np.float32]:
            vals = (rng.standard_normal(n) * 100).astype(vdt)
            for desc in [False, True]:
                k, v = ember.parallel.radix_sort(
                    a, ember.asarray(vals, device=device), descending=desc)
                od = (np.argsort(-x.astype(np.float64), kind="stable") if desc
                      else o)
                assert_array_equal_np(k, x[od])
                assert_array_equal_np(v, vals[od])


def test_large_pairs(device):
    n = 2_500_001
    rng = np.random.default_rng(13)
    x = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    a = ember.asarray(x, device=device)
    o = np.argsort(x, kind="stable")
    assert_array_equal_np(ember.sort(a), x[o])
    k, v = ember.parallel.radix_sort(a, ember.arange(n, device=device,
                                                     dtype=ember.int32))
    assert_array_equal_np(v, o.astype(np.int32))
    y = rng.standard_normal(n)
    assert_array_equal_np(ember.argsort(ember.asarray(y, device=device)),
                          np.argsort(y, kind="stable"))


def test_top_k_tiles(device):
    n = 3 * TILE + 7
    for dtype in ["int32", "float32", "uint64"]:
        x = rand(dtype, n, seed=22, dup=dtype != "uint64")
        a = ember.asarray(x, device=device)
        r = np.unique(x, return_inverse=True)[1].astype(np.int64)
        nan = np.isnan(x) if dtype[0] == "f" else np.zeros(n, bool)
        for k in [1, TILE + 1, n]:
            v, i = ember.parallel.top_k(a, k)
            o = np.argsort(np.where(nan, n, -r), kind="stable")[:k]
            assert_array_equal_np(i, o)
            assert_array_equal_np(v, x[o])
            v, i = ember.parallel.top_k(a, k, largest=False)
            o = np.argsort(r, kind="stable")[:k]
            assert_array_equal_np(i, o)
            assert_array_equal_np(v, x[o])


@pytest.mark.parametrize("occupied", [1, 2, 255, 256, 257, 2048])
def test_top_bits_layout(device, occupied):
    # 4-byte keys whose top 11 bits take at most 256 values may be sorted
    # by digits [0, 7), [7, 14), [14, 21) and the top 11 bits through a
    # map (GPU); 257 and more must keep bytes. Keys are images (uint32),
    # int32 (sign bit flipped) and float32 (normal floats fill few top
    # values); descending and pairs exercise the same passes. Two
    # neighbouring top values (an even one and the next) share a thread
    # of the map's scan.
    n = 3 * VTILE + 29
    rng = np.random.default_rng(occupied)
    tops = rng.choice(2048, occupied, replace=False).astype(np.uint32)
    if occupied == 2:
        tops = np.array([1000, 1001], np.uint32)
    top = tops[rng.integers(0, occupied, n)]
    u = (top << np.uint32(21)) | rng.integers(0, 1 << 21, n, dtype=np.uint32)
    f = rng.standard_normal(n).astype(np.float32) * np.float32(occupied)
    ids = np.arange(n, dtype=np.int64)
    for x in [u, u.view(np.int32), f]:
        a = ember.asarray(x, device=device)
        o = np.argsort(x, kind="stable")
        assert_array_equal_np(ember.sort(a), x[o])
        assert_array_equal_np(ember.argsort(a), o)
        k, v = ember.parallel.radix_sort(a, ember.asarray(ids, device=device))
        assert_array_equal_np(k, x[o])
        assert_array_equal_np(v, o)
        od = np.argsort(-x.astype(np.float64), kind="stable")
        k, v = ember.parallel.radix_sort(a, ember.asarray(ids, device=device),
                                         descending=True)
        assert_array_equal_np(k, x[od])
        assert_array_equal_np(v, od)


def test_top_bits_counts_large(need_cuda):
    # 2^28 + 2^26 keys nearly all in one top-11 value, sorted with their
    # positions (argsort takes the data-chosen digits): the counts of
    # that value, and the stable order of its equal keys.
    n = (1 << 28) + (1 << 26)
    rng = np.random.default_rng(5)
    idx = np.unique(rng.integers(0, n, 4000))
    special = rng.standard_normal(len(idx)).astype(np.float32) * 4
    x = ember.full(n, 1.0, dtype=ember.float32, device="cuda:0")
    x[ember.asarray(idx, device="cuda:0")] = ember.asarray(special,
                                                          device="cuda:0")
    o = ember.asnumpy(ember.argsort(x))
    del x
    order = np.argsort(special, kind="stable")
    lo = idx[order][special[order] < 1]
    hi = idx[order][special[order] > 1]
    mid = np.ones(n, bool)
    mid[lo] = mid[hi] = False
    np.testing.assert_array_equal(o[:len(lo)], lo)
    np.testing.assert_array_equal(o[len(o) - len(hi):], hi)
    np.testing.assert_array_equal(o[len(lo):len(o) - len(hi)], np.flatnonzero(mid))
