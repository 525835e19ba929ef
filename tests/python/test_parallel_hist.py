"""Histograms and counting (ember.parallel.histogram_even, histogram,
histogram_bin_edges, bincount, digitize) against NumPy on every device."""
import numpy as np
import pytest

import ember

from helpers import assert_array_equal_np

REAL = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
        "uint32", "uint64", "float16", "float32", "float64"]
SIZES = [0, 1, 2, 255, 257, 4097, 100003]


def _data(dtype, n, seed=0):
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.integers(0, 2, n).astype(bool)
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -100), min(info.max, 100), n,
                            dtype=dtype)
    return (rng.standard_normal(n) * 10).astype(dtype)


@pytest.mark.parametrize("dtype", REAL)
def test_histogram_dtypes(device, dtype):
    a = _data(dtype, 10007, seed=1)
    x = ember.asarray(a, device=device)
    h, e = ember.histogram(x, bins=17)
    eh, ee = np.histogram(a, bins=17)
    assert_array_equal_np(h, eh, device)
    assert_array_equal_np(e, ee, device)


@pytest.mark.parametrize("n", SIZES)
def test_histogram_sizes(device, n):
    a = _data("float32", n, seed=n)
    x = ember.asarray(a, device=device)
    for bins in (1, 10, 256):
        h, e = ember.histogram(x, bins=bins)
        eh, ee = np.histogram(a, bins=bins)
        assert_array_equal_np(h, eh, device)
        assert_array_equal_np(e, ee, device)


def test_histogram_range_and_edges(device):
    a = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, -1.0, 4.0, np.inf,
                  -np.inf, -0.0, 1.0000001, 2.9999999])
    x = ember.asarray(a, device=device)
    for rng in [(0, 3), (0.5, 2.5), (1, 1), (-0.0, 0.0)]:
        h, e = ember.histogram(x, bins=6, range=rng)
        eh, ee = np.histogram(a, bins=6, range=rng)
        assert_array_equal_np(h, eh, device)
        assert_array_equal_np(e, ee, device)
    # explicit, non-uniform edges, with a repeated edge; the last bin is
    # closed on the right
    for edges in ([0, 1, 1, 2, 3], [-1.0, 0.0, 0.25, 3.0], [0, 3]):
        h, e = ember.histogram(x, bins=edges)
        eh, ee = np.histogram(a, bins=edges)
        assert_array_equal_np(h, eh, device)
        np.testing.assert_array_equal(ember.asnumpy(e), ee)
    h, e = ember.histogram(x, bins=[1.0])
    assert_array_equal_np(h, np.histogram(a, bins=[1.0])[0], device)
    eb = np.array([0.0, 1.5, 3.0], dtype=np.float32)
    h, e = ember.histogram(x, bins=ember.asarray(eb, device=device))
    assert_array_equal_np(h, np.histogram(a, bins=eb)[0], device)
    # NumPy arrays of edges are edges (they have __index__ too), and a
    # NumPy integer scalar is a count
    nb = np.array([0.0, 2.0, 6.0])
    h, e = ember.histogram(x, bins=nb)
    eh, ee = np.histogram(a, bins=nb)
    assert_array_equal_np(h, eh, device)
    np.testing.assert_array_equal(ember.asnumpy(e), ee)
    h, e = ember.histogram(x, bins=np.int64(7), range=(0, 3))
    eh, ee = np.histogram(a, bins=np.int64(7), range=(0, 3))
    assert_array_equal_np(h, eh, device)
    np.testing.assert_array_equal(ember.asnumpy(e), ee)


def test_histogram_edge_rounding(device):
    # values on and next to computed edges: NumPy's correction step decides
    a = np.linspace(-1, 1, 1001).astype(np.float32)
    a = np.concatenate([a, np.nextafter(a, np.float32(2)),
                        np.nextafter(a, np.float32(-2))])
    x = ember.asarray(a, device=device)
    for bins in (3, 7, 10, 100, 999):
        h, e = ember.histogram(x, bins=bins)
        eh, ee = np.histogram(a, bins=bins)
        assert_array_equal_np(e, ee, device)
        assert_array_equal_np(h, eh, device)
    b = a.astype(np.float64) / 3
    h, e = ember.histogram(ember.asarray(b, device=device), bins=77,
                           range=(-0.3, 0.3))
    assert_array_equal_np(h, np.histogram(b, bins=77, range=(-0.3, 0.3))[0],
                          device)


def test_histogram_layouts(device):
    a = _data("float64", 3 * 4 * 501, seed=3).reshape(3, 4, 501)
    x = ember.asarray(a, device=device)
    for av, xv in [(a, x), (a[:, ::2, ::-3], x[:, ::2, ::-3]),
                   (a.T, x.T), (a[1, 2], x[1, 2])]:
        h, e = ember.histogram(xv, bins=9)
        eh, ee = np.histogram(av, bins=9)
        assert_array_equal_np(h, eh, device)
        assert_array_equal_np(e, ee, device)
    h, _ = ember.histogram(ember.asarray(np.float32(2.5), device=device))
    assert_array_equal_np(h, np.histogram(np.float32(2.5))[0], device)
    b = np.broadcast_to(np.arange(5.0), (7, 5))
    h, _ = ember.histogram(ember.broadcast_to(ember.asarray(np.arange(5.0),
                                                            device=device),
                                              (7, 5)), bins=4)
    assert_array_equal_np(h, np.histogram(b, bins=4)[0], device)


@pytest.mark.parametrize("wdtype", ["float64", "float32", "int64", "int32"])
def test_histogram_weights(device, wdtype):
    a = _data("float32", 5003, seed=4)
    w = (_data("float64", 5003, seed=5) * 3).astype(wdtype)
    x, wx = ember.asarray(a, device=device), ember.asarray(w, device=device)
    h, _ = ember.histogram(x, bins=13, weights=wx)
    eh, _ = np.histogram(a, bins=13, weights=w)
    assert h.dtype == eh.dtype
    # ember sums in float64 and rounds once; NumPy sums float32 weights in
    # float32
    rtol = 1e-3 if wdtype == "float32" else 1e-9
    np.testing.assert_allclose(ember.asnumpy(h), eh, rtol=rtol, atol=1e-3)
    h, _ = ember.histogram(x, bins=[-20, -1, 0, 3, 40], weights=wx)
    eh, _ = np.histogram(a, bins=[-20, -1, 0, 3, 40], weights=w)
    np.testing.assert_allclose(ember.asnumpy(h), eh, rtol=rtol, atol=1e-3)


def test_histogram_density(device):
    a = _data("float64", 2001, seed=6)
    x = ember.asarray(a, device=device)
    for bins in (8, [-30, -2, 0, 0.5, 30]):
        h, _ = ember.histogram(x, bins=bins, density=True)
        eh, _ = np.histogram(a, bins=bins, density=True)
        assert h.dtype == eh.dtype
        np.testing.assert_allclose(ember.asnumpy(h), eh, rtol=1e-12)
    w = np.abs(_data("float64", 2001, seed=7))
    h, _ = ember.histogram(x, bins=5, density=True,
                           weights=ember.asarray(w, device=device))
    np.testing.assert_allclose(ember.asnumpy(h),
                               np.histogram(a, bins=5, density=True,
                                            weights=w)[0], rtol=1e-12)


def test_histogram_bin_edges(device):
    a = _data("int32", 999, seed=8)
    x = ember.asarray(a, device=device)
    assert_array_equal_np(ember.histogram_bin_edges(x, bins=12),
                          np.histogram_bin_edges(a, bins=12), device)
    assert_array_equal_np(ember.histogram_bin_edges(x, 5, range=(0, 1)),
                          np.histogram_bin_edges(a, 5, range=(0, 1)), device)
    # a count whose edges' bytes wrap around size_t was a segfault (fuzzer)
    for bins in (2**63 - 1, 2**61):
        with pytest.raises(MemoryError, match=f"edges of {bins} bins"):
            ember.histogram_bin_edges(0, bins)


def test_histogram_bad_input(device):
    x = ember.asarray(np.array([1.0, np.nan, 2.0]), device=device)
    with pytest.raises(ValueError, match="autodetected range"):
        ember.histogram(x)
    with pytest.raises(ValueError, match="autodetected range"):
        ember.histogram(ember.asarray(np.array([1.0, np.inf]), device=device))
    # NaN is ignored once the range is given, as NumPy
    h, _ = ember.histogram(x, bins=2, range=(0, 4))
    assert_array_equal_np(h, np.histogram(ember.asnumpy(x), bins=2,
                                          range=(0, 4))[0], device)
    y = ember.asarray(np.arange(4.0), device=device)
    with pytest.raises(ValueError, match="monotonically"):
        ember.histogram(y, bins=[0, 2, 1])
    with pytest.raises(ValueError, match="max must be larger"):
        ember.histogram(y, range=(2, 1))
    with pytest.raises(ValueError, match="not finite"):
        ember.histogram(y, range=(0, np.inf))
    with pytest.raises(ValueError, match="positive"):
        ember.histogram(y, bins=0)
    with pytest.raises(ValueError, match="Too many bins"):
        ember.histogram(ember.asarray(np.array([1.0, 1.001], np.float16),
                                      device=device), bins=100)
    with pytest.raises(ValueError, match="same shape"):
        ember.histogram(y, weights=ember.asarray(np.ones(3), device=device))
    with pytest.raises(ValueError, match="'bogus' is not a valid estimator"):
        ember.histogram(y, bins="bogus")
    with pytest.raises(TypeError, match="weighted data"):
        ember.histogram(y, bins="auto", weights=y)
    with pytest.raises(TypeError, match="histogram.*complex128"):
        ember.histogram(ember.asarray(np.ones(3, complex), device=device))


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "uint8",
                                   "float16"])
def test_histogram_even(device, dtype):
    a = _data(dtype, 70001, seed=9)
    x = ember.asarray(a, device=device)
    for bins, lo, hi in [(256, -20.0, 20.0), (7, 0.0, 1.0), (5000, -3, 3),
                         (1, -100, 100)]:
        h = ember.parallel.histogram_even(x, bins, lo, hi)
        # CUB's rule: half-open [lo, hi), computed as NumPy does in float64
        v = a.astype(np.float64)
        keep = (v >= lo) & (v < hi)
        idx = np.minimum(((v[keep] - lo) * (bins / (hi - lo))).astype(
            np.int64), bins - 1)
        assert_array_equal_np(h, np.bincount(idx, minlength=bins), device)
    with pytest.raises(ValueError, match="lower < upper"):
        ember.parallel.histogram_even(x, 4, 1.0, 1.0)
    with pytest.raises(ValueError, match="at least 1"):
        ember.parallel.histogram_even(x, 0, 0.0, 1.0)


def test_histogram_even_large(device):
    # more elements than one host block and many cuda blocks; bins past the
    # shared-memory limit use global atomics
    rng = np.random.default_rng(10)
    a = rng.standard_normal(3_000_001).astype(np.float32)
    x = ember.asarray(a, device=device)
    for bins in (4096, 4097, 100000):
        h = ember.parallel.histogram_even(x, bins, -4.0, 4.0)
        assert int(ember.asnumpy(h).sum()) == int(((a >= -4) & (a < 4)).sum())
    h, e = ember.histogram(x, bins=4096)
    eh, ee = np.histogram(a, bins=4096)
    assert_array_equal_np(h, eh, device)


@pytest.mark.parametrize("dtype", ["bool", "int8", "int16", "int32", "int64",
                                   "uint8", "uint16", "uint32"])
def test_bincount_dtypes(device, dtype):
    rng = np.random.default_rng(11)
    a = rng.integers(0, 2 if dtype == "bool" else 100, 10001).astype(dtype)
    x = ember.asarray(a, device=device)
    assert_array_equal_np(ember.bincount(x), np.bincount(a), device)
    assert_array_equal_np(ember.bincount(x, minlength=300),
                          np.bincount(a, minlength=300), device)


@pytest.mark.parametrize("n", [0, 1, 2, 1023, 1025, 2_000_003])
def test_bincount_sizes(device, n):
    rng = np.random.default_rng(n)
    a = rng.integers(0, 5000, n)
    x = ember.asarray(a, device=device)
    assert_array_equal_np(ember.bincount(x), np.bincount(a), device)
    w = rng.standard_normal(n)
    got = ember.bincount(x, weights=ember.asarray(w, device=device))
    exp = np.bincount(a, weights=w)
    # NumPy's bincount of an empty x is int64 even with weights
    assert got.dtype == exp.dtype and got.shape == exp.shape
    np.testing.assert_allclose(ember.asnumpy(got), exp, rtol=1e-9, atol=1e-9)


def test_bincount_layouts_and_large_values(device):
    a = np.array([3, 0, 7, 7, 100000, 2, 2, 2], dtype=np.int64)
    x = ember.asarray(a, device=device)
    assert_array_equal_np(ember.bincount(x[::-2]), np.bincount(a[::-2]), device)
    assert_array_equal_np(ember.bincount(x), np.bincount(a), device)
    w = np.arange(8, dtype=np.float32)
    got = ember.bincount(x, weights=ember.asarray(w, device=device),
                         minlength=3)
    np.testing.assert_array_equal(ember.asnumpy(got),
                                  np.bincount(a, weights=w, minlength=3))
    e = ember.bincount(ember.asarray(np.zeros(0, np.int64), device=device),
                       minlength=4)
    assert_array_equal_np(e, np.bincount(np.zeros(0, np.int64), minlength=4),
                          device)


def test_bincount_back_to_back_and_threads(device):
    # On the GPU each call's kernel zeroes its own output and keeps its
    # counters in a part of the device's scratch, which it leaves at zero
    # as it ends, after the call has returned: calls queued one after
    # another, and calls from threads on their own streams, must each
    # still count from zero
    import threading
    rng = np.random.default_rng(21)
    data = [rng.integers(0, top, n) for n, top in
            [(300_001, 4096), (7, 3), (1, 1), (200_003, 9000), (65_537, 5)]]
    xs = [ember.asarray(a, device=device) for a in data]
    got = [ember.bincount(xs[i % len(xs)]) for i in range(40)]
    for i, g in enumerate(got):
        assert_array_equal_np(g, np.bincount(data[i % len(data)]), device)
    bad = []

    def work(k):
        with ember.Device(device):
            with ember.Stream():
                for i in range(15):
                    j = (i + k) % len(xs)
                    w = ember.bincount(xs[j], minlength=k)
                    exp = np.bincount(data[j], minlength=k)
                    if not np.array_equal(ember.asnumpy(w), exp):
                        bad.append((k, i))

    ts = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert bad == []


def test_bincount_bad_input(device):
    with pytest.raises(ValueError, match="negative"):
        ember.bincount(ember.asarray(np.array([1, -1, 2]), device=device))
    x = ember.asarray(np.array([1, 2]), device=device)
    with pytest.raises(ValueError, match="minlength"):
        ember.bincount(x, minlength=-1)
    with pytest.raises(ValueError, match="same length"):
        ember.bincount(x, weights=ember.asarray(np.ones(3), device=device))
    with pytest.raises(TypeError, match="bincount.*float64"):
        ember.bincount(ember.asarray(np.ones(3), device=device))
    with pytest.raises(TypeError, match="bincount.*uint64"):
        ember.bincount(ember.asarray(np.ones(3, np.uint64), device=device))
    with pytest.raises(ValueError, match="1-dimensional"):
        ember.bincount(ember.asarray(np.ones((2, 2), np.int64),
                                     device=device))


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint8", "float16",
                                   "float32", "float64"])
def test_digitize_dtypes(device, dtype):
    a = _data(dtype, 5001, seed=12)
    x = ember.asarray(a, device=device)
    bins = np.array([-50, -3, 0, 0, 2.5, 7, 60])
    for right in (False, True):
        for b in (bins, bins[::-1]):
            got = ember.digitize(x, b, right=right)
            assert_array_equal_np(got, np.digitize(a, b, right=right), device)


def test_digitize_special(device):
    a = np.array([[np.nan, -np.inf, np.inf], [-0.0, 0.0, 1.0]])
    x = ember.asarray(a, device=device)
    for b in ([0.0, 1.0], [1.0, 0.0], [0.0, 1.0, np.nan], [], [5.0],
              [1.0, 1.0, 1.0]):
        b = np.array(b)
        for right in (False, True):
            assert_array_equal_np(ember.digitize(x, b, right=right),
                                  np.digitize(a, b, right=right), device)
    assert_array_equal_np(ember.digitize(x[:, ::-2], [0.5]),
                          np.digitize(a[:, ::-2], [0.5]), device)
    s = ember.digitize(ember.asarray(np.float64(0.7), device=device), [0, 1])
    assert_array_equal_np(s, np.digitize(np.float64(0.7), [0, 1]), device)


def test_digitize_bad_input(device):
    x = ember.asarray(np.arange(3.0), device=device)
    with pytest.raises(ValueError, match="monotonically"):
        ember.digitize(x, [0, 2, 1])
    with pytest.raises(TypeError, match="digitize.*complex"):
        ember.digitize(ember.asarray(np.ones(2, complex), device=device),
                       [0, 1])


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint16",
                                   "uint32"])
def test_bincount_bound(device, dtype):
    # one pass counts values below the shared-memory bound and finds the
    # extremes; a value past the bound (or a minlength past it) takes the
    # second pass; both must agree with NumPy
    rng = np.random.default_rng(20)
    hi = min(np.iinfo(dtype).max, 20000)
    for n, top in [(1_000_003, 4096), (300_001, hi), (5, 8191), (5, 8192),
                   (4097, 8193)]:
        a = rng.integers(0, min(top, hi), n).astype(dtype)
        a[-1] = min(top, hi) - 1
        x = ember.asarray(a, device=device)
        assert_array_equal_np(ember.bincount(x), np.bincount(a), device)
        assert_array_equal_np(ember.bincount(x, minlength=9000),
                              np.bincount(a, minlength=9000), device)
        w = rng.standard_normal(n)
        got = ember.bincount(x, weights=ember.asarray(w, device=device))
        np.testing.assert_allclose(ember.asnumpy(got),
                                   np.bincount(a, weights=w), rtol=1e-9,
                                   atol=1e-9)
    if np.dtype(dtype).kind == "i":
        a = rng.integers(0, 100, 100_000).astype(dtype)
        a[77_777] = -3
        with pytest.raises(ValueError, match="negative.*-3"):
            ember.bincount(ember.asarray(a, device=device))


def test_counting_unaligned_views(device):
    # views starting off a 16-byte boundary and lengths that are not a
    # whole number of vectors: the elements around the vectors count too
    rng = np.random.default_rng(21)
    a = rng.random(100_000).astype(np.float32)
    b = rng.integers(0, 300, 100_000).astype(np.int16)
    x, y = ember.asarray(a, device=device), ember.asarray(b, device=device)
    for s in (1, 2, 3, 5, 7):
        for e in (None, -1, -3):
            h, _ = ember.histogram(x[s:e], bins=64, range=(0, 1))
            assert_array_equal_np(h, np.histogram(a[s:e], bins=64,
                                                  range=(0, 1))[0], device)
            assert_array_equal_np(ember.bincount(y[s:e]),
                                  np.bincount(b[s:e]), device)
    for n in (1, 3, 4, 5, 15, 17, 33):
        h, _ = ember.histogram(x[:n], bins=7)
        assert_array_equal_np(h, np.histogram(a[:n], bins=7)[0], device)


def test_histogram_uniform_guess(device):
    # a narrow range far from zero: float32 edges sit far from equal
    # spacing, so the guess is corrected against the edges everywhere
    rng = np.random.default_rng(22)
    a = (1000 + rng.random(200_001)).astype(np.float32)
    x = ember.asarray(a, device=device)
    for bins in (3, 256, 1000, 4096, 8192, 8193):
        h, e = ember.histogram(x, bins=bins)
        eh, ee = np.histogram(a, bins=bins)
        assert_array_equal_np(e, ee, device)
        assert_array_equal_np(h, eh, device)
    # every edge itself, and its neighbours, in float32 and float64
    for dt in (np.float32, np.float64):
        e = np.linspace(-3, 5, 257).astype(dt)
        v = np.concatenate([e, np.nextafter(e, dt(-9)), np.nextafter(e, dt(9)),
                            [-0.0, np.nan, np.inf, -np.inf]]).astype(dt)
        h, _ = ember.histogram(ember.asarray(v, device=device), bins=256,
                               range=(-3, 5))
        assert_array_equal_np(h, np.histogram(v, bins=256, range=(-3, 5))[0],
                              device)


def test_histogram_autorange_special(device):
    # the range pass: -0.0, infinities and NaN as NumPy's min and max
    a = np.array([-0.0, 0.0, 1.5, -2.25], np.float64)
    x = ember.asarray(a, device=device)
    assert_array_equal_np(ember.histogram(x, bins=5)[1],
                          np.histogram(a, bins=5)[1], device)
    for bad in ([1.0, -np.inf], [np.nan, np.nan], [np.inf]):
        with pytest.raises(ValueError, match="autodetected range"):
            ember.histogram(ember.asarray(np.array(bad), device=device))
    for dt in ("int8", "uint32", "int64", "float16"):
        v = _data(dt, 3001, seed=23)
        h, e = ember.histogram(ember.asarray(v, device=device), bins=11)
        eh, ee = np.histogram(v, bins=11)
        assert_array_equal_np(e, ee, device)
        assert_array_equal_np(h, eh, device)


def _h2_check(device, xa, ya, **kw):
    x = ember.asarray(xa, device=device)
    y = ember.asarray(ya, device=device)
    ekw = dict(kw)
    for k in ("weights",):
        if ekw.get(k) is not None:
            ekw[k] = ember.asarray(ekw[k], device=device)
    h, ex, ey = ember.histogram2d(x, y, **ekw)
    eh, eex, eey = np.histogram2d(xa, ya, **kw)
    assert h.dtype == eh.dtype and h.shape == eh.shape
    if kw.get("density") or kw.get("weights") is not None:
        np.testing.assert_allclose(ember.asnumpy(h), eh, rtol=1e-9,
                                   atol=1e-12)
    else:
        np.testing.assert_array_equal(ember.asnumpy(h), eh)
    assert ember.asnumpy(ex).dtype == eex.dtype
    np.testing.assert_array_equal(ember.asnumpy(ex), eex)
    np.testing.assert_array_equal(ember.asnumpy(ey), eey)


@pytest.mark.parametrize("dtypes", [("float64", "float64"),
                                    ("float32", "float32"),
                                    ("int32", "float32"), ("int16", "uint8"),
                                    ("float16", "float16")])
def test_histogram2d_dtypes(device, dtypes):
    n = 20_001
    xa = _data(dtypes[0], n, seed=30)
    ya = _data(dtypes[1], n, seed=31)
    _h2_check(device, xa, ya)
    _h2_check(device, xa, ya, bins=(7, 3))
    _h2_check(device, xa, ya, bins=5, range=[[-10, 10], [-3, 50]])


def test_histogram2d_bins_forms(device):
    rng = np.random.default_rng(32)
    xa = rng.standard_normal(5003)
    ya = rng.standard_normal(5003) * 3
    xa[:4] = [np.nan, np.inf, -1.0, 2.0]
    ya[:4] = [0.0, 0.0, np.nan, 6.0]
    _h2_check(device, xa, ya, bins=[-2, -1, 0, 0, 1, 2], range=None)
    _h2_check(device, xa, ya, bins=[[-2, 0, 2], [-6, -1, 0, 6]])
    _h2_check(device, xa, ya, bins=[4, [-6, -1, 0, 6]],
              range=[(-3, 3), None])
    _h2_check(device, xa, ya, bins=[np.array([-1.0, 1.0]), 3],
              range=[None, (-5, 5)])
    # the last edge of each axis is in the last bin; large bin counts use
    # global atomics
    e = np.linspace(-1, 1, 11)
    _h2_check(device, np.repeat(e, 11), np.tile(e, 11), bins=[e, e])
    xf, yf = xa[4:], ya[4:]
    _h2_check(device, xf, yf, bins=(200, 100))
    _h2_check(device, xf, yf, bins=3, range=[[0, 0], [1, 1]])
    _h2_check(device, np.zeros(0), np.zeros(0), bins=4)


def test_histogram2d_weights_density(device):
    rng = np.random.default_rng(33)
    xa = rng.standard_normal(30_001)
    ya = rng.random(30_001)
    w = rng.random(30_001)
    _h2_check(device, xa, ya, weights=w, bins=(9, 4))
    _h2_check(device, xa, ya, density=True, bins=[[-3, -1, 0, 3], 5])
    _h2_check(device, xa, ya, weights=w, density=True)
    _h2_check(device, xa, ya, weights=(w * 10).astype(np.int64), bins=6)


@pytest.mark.parametrize("n", [65_537, 300_001])
def test_histogram2d_many_blocks(device, n):
    # long enough that the cpu count splits over several blocks and merges
    rng = np.random.default_rng(34)
    xa = rng.standard_normal(n)
    ya = rng.standard_normal(n) * 2
    w = rng.random(n)
    _h2_check(device, xa, ya, bins=(30, 20))
    _h2_check(device, xa, ya, bins=(7, 3), weights=w)
    _h2_check(device, xa, ya, bins=(600, 500))


def test_histogram2d_bad_input(device):
    x = ember.asarray(np.arange(5.0), device=device)
    y = ember.asarray(np.arange(4.0), device=device)
    with pytest.raises(ValueError, match="same length.*5.*4"):
        ember.histogram2d(x, y)
    with pytest.raises(ValueError, match="weights.*3.*5"):
        ember.histogram2d(x, x, weights=ember.asarray(np.ones(3),
                                                      device=device))
    with pytest.raises(TypeError, match="histogram2d.*complex128"):
        ember.histogram2d(ember.asarray(np.ones(3, complex), device=device),
                          ember.asarray(np.ones(3), device=device))
    with pytest.raises(ValueError, match="dimension of bins"):
        ember.histogram2d(x, x, bins=[3])
    with pytest.raises(ValueError, match="monotonically"):
        ember.histogram2d(x, x, bins=[[0, 2, 1], 3])
    with pytest.raises(ValueError, match="positive"):
        ember.histogram2d(x, x, bins=[0, 3])
    with pytest.raises(ValueError, match="max must be larger"):
        ember.histogram2d(x, x, range=[[2, 1], None])
    with pytest.raises(ValueError, match="autodetected range"):
        ember.histogram2d(ember.asarray(np.array([1.0, np.nan]),
                                        device=device),
                          ember.asarray(np.ones(2), device=device))


ESTIMATORS = ["auto", "fd", "sturges", "sqrt", "rice", "scott", "doane",
              "stone"]


@pytest.mark.parametrize("method", ESTIMATORS)
def test_histogram_bin_estimators(device, method):
    rng = np.random.default_rng(40)
    cases = [rng.standard_normal(5000), rng.exponential(2.0, 3001),
             rng.integers(-50, 50, 2000).astype(np.int32),
             np.concatenate([rng.standard_normal(1000), [30.0, 31.0]]),
             np.array([2.5]), np.full(7, 3.0), np.zeros(0)]
    for a in cases:
        x = ember.asarray(a, device=device)
        e = ember.histogram_bin_edges(x, bins=method)
        ee = np.histogram_bin_edges(a, bins=method)
        assert_array_equal_np(e, ee, device)
        h, e = ember.histogram(x, bins=method)
        eh, ee = np.histogram(a, bins=method)
        assert_array_equal_np(h, eh, device)
        assert_array_equal_np(e, ee, device)
    # trimmed to a range (with values outside it, and a NaN, left out)
    a = np.concatenate([rng.standard_normal(4000) * 3, [np.nan, 100.0]])
    x = ember.asarray(a, device=device)
    for rng_ in [(-2.0, 2.5), (0.0, 0.0), (10.0, 20.0)]:
        e = ember.histogram_bin_edges(x, bins=method, range=rng_)
        ee = np.histogram_bin_edges(a, bins=method, range=rng_)
        assert_array_equal_np(e, ee, device)


def test_histogram_bin_estimators_float32(device):
    rng = np.random.default_rng(41)
    a = (rng.standard_normal(20000) * 5 + 1).astype(np.float32)
    x = ember.asarray(a, device=device)
    for method in ("auto", "fd", "sturges", "sqrt", "rice", "scott",
                   "doane"):
        e = ember.histogram_bin_edges(x, bins=method)
        ee = np.histogram_bin_edges(a, bins=method)
        assert_array_equal_np(e, ee, device)
