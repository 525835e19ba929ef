"""ember.parallel scans, transform, select and partition, and cumsum/cumprod
re-based on the scan, against NumPy and Python loops, on every device."""
import numpy as np
import pytest

import ember
from helpers import assert_array_equal_np

P = ember.parallel

# Sizes around the host chunk (65536) and the CUDA tiles (8192 elements of
# up to 4 bytes, 4096 of 8, 2048 of 16).
SIZES = [0, 1, 2, 1023, 1025, 4096, 4097, 8191, 8193, 65535, 65537, 131072 + 3]

AFFINE = ("(long long)(((((unsigned long long)a >> 32) * ((unsigned long long)b"
          " >> 32)) << 32) | ((((unsigned long long)b >> 32) * ((unsigned long "
          "long)a & 0xffffffffull) + ((unsigned long long)b & 0xffffffffull)) &"
          " 0xffffffffull))")



def scan_atol(x, axis=None, nan=False):
    """Rounding allowance for a float scan: a few ulp of the running sum of
    magnitudes. NumPy adds in order; ember adds within tiles and then the
    tiles' totals, so where a prefix sum passes near zero the two differ by
    that much absolutely, which no relative tolerance covers."""
    a = np.abs(np.asarray(x))
    a = np.where(np.isnan(a), 0, a) if nan else a
    a = np.where(np.isinf(a), 0, a)
    eps = np.finfo(np.asarray(x).dtype).eps
    return 8 * eps * (np.cumsum(a, axis=axis) if axis is not None else np.cumsum(a))

def affine(a, b):
    a, b = int(a) & (2**64 - 1), int(b) & (2**64 - 1)
    m = ((a >> 32) * (b >> 32)) & 0xffffffff
    c = ((b >> 32) * (a & 0xffffffff) + (b & 0xffffffff)) & 0xffffffff
    v = (m << 32) | c
    return v - 2**64 if v >= 2**63 else v


def affine_data(n):
    i = np.arange(n, dtype=np.int64)
    return ((i % 5 + 1) << 32) | ((i * 7919) % 1000)


def py_scan(xs, f, init=None, exclusive=False):
    out, acc, has = [], init, init is not None
    for x in xs:
        if exclusive:
            out.append(acc)
        acc = f(acc, x) if has else x
        has = True
        if not exclusive:
            out.append(acc)
    return out



def assert_scan_close(got, want, rtol, atol):
    """|got - want| <= atol + rtol * |want| elementwise (atol may be an
    array, which numpy.testing.assert_allclose does not take); NaN where
    NumPy has NaN and equal infinities; complex parts compared apart."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype
    if got.dtype.kind == "c":
        assert_scan_close(got.real, want.real, rtol, atol)
        assert_scan_close(got.imag, want.imag, rtol, atol)
        return
    with np.errstate(invalid="ignore"):
        ok = (got == want) | (np.isnan(got) & np.isnan(want)) | (
            np.abs(got - want) <= atol + rtol * np.abs(want))
    bad = np.flatnonzero(~ok.ravel())
    assert bad.size == 0, [(int(k), got.ravel()[k], want.ravel()[k]) for k in bad[:5]]

def data(dtype, n, seed=0):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    if dt.kind in "iu":
        return rng.integers(0, 7 if dt.itemsize == 1 else 100, n).astype(dt)
    if dt.kind == "c":
        return (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dt)
    return rng.standard_normal(n).astype(dt)


@pytest.mark.parametrize("n", SIZES)
def test_cumsum_sizes(device, n):
    x = data(np.float64, n)
    got = P.inclusive_scan(ember.asarray(x, device=device), "add")
    np.testing.assert_allclose(ember.asnumpy(got), np.cumsum(x), rtol=1e-12,
                               atol=1e-9)
    xs = data(np.int16, n)
    got = P.inclusive_scan(ember.asarray(xs, device=device), "add", dtype="int32")
    assert_array_equal_np(got, np.cumsum(xs, dtype=np.int32))
    xi = data(np.int32, n)
    got = P.inclusive_scan(ember.asarray(xi, device=device), "add")
    assert_array_equal_np(got, np.cumsum(xi))


@pytest.mark.parametrize("dtype", ["bool", "int8", "int16", "int32", "int64",
                                   "uint8", "uint16", "uint32", "uint64",
                                   "float32", "float64", "complex64",
                                   "complex128"])
def test_add_mul_dtypes(device, dtype):
    x = data(dtype, 5000)
    ex = ember.asarray(x, device=device)
    for op, ref in (("add", np.cumsum), ("mul", np.cumprod)):
        got = P.inclusive_scan(ex, op)
        want = ref(x)
        if np.dtype(dtype).kind in "fc":
            if op == "mul":      # products over/underflow: compare a prefix
                got, want = ember.asnumpy(got)[:20], want[:20]
            assert_scan_close(ember.asnumpy(got), want, 1e-4,
                              0 if op == "mul" else scan_atol(x))
            assert ember.asnumpy(got).dtype == want.dtype
        else:
            assert_array_equal_np(got, want)


@pytest.mark.parametrize("dtype", ["int8", "int32", "uint16", "int64",
                                   "float32", "float64", "bool"])
@pytest.mark.parametrize("op,uf", [("min", np.minimum), ("max", np.maximum)])
def test_min_max(device, dtype, op, uf):
    x = data(dtype, 70001, seed=3)
    if np.dtype(dtype).kind in "iu" and np.dtype(dtype).kind == "i":
        x = (x.astype(np.int64) - 50).astype(dtype)
    got = P.inclusive_scan(ember.asarray(x, device=device), op)
    assert_array_equal_np(got, uf.accumulate(x))


def test_min_max_nan_inf(device):
    x = np.array([3.0, np.inf, 1.0, np.nan, -np.inf, 0.5, -0.0], np.float32)
    for op, uf in (("min", np.minimum), ("max", np.maximum)):
        got = P.inclusive_scan(ember.asarray(x, device=device), op)
        np.testing.assert_array_equal(ember.asnumpy(got), uf.accumulate(x))
    got = P.inclusive_scan(ember.asarray(x, device=device), "add")
    np.testing.assert_array_equal(ember.asnumpy(got), np.cumsum(x))


@pytest.mark.parametrize("dtype", ["int8", "uint32", "int64", "bool"])
@pytest.mark.parametrize("op,uf", [("and", np.bitwise_and),
                                   ("or", np.bitwise_or),
                                   ("xor", np.bitwise_xor)])
def test_bitwise(device, dtype, op, uf):
    x = data(dtype, 9999, seed=5)
    got = P.inclusive_scan(ember.asarray(x, device=device), op)
    assert_array_equal_np(got, uf.accumulate(x))


@pytest.mark.parametrize("n", [1, 2, 4097, 65537, 200001])
def test_noncommutative_expression(device, n):
    x = affine_data(n)
    ex = ember.asarray(x, device=device)
    got = ember.asnumpy(P.inclusive_scan(ex, AFFINE))
    assert got.tolist() == py_scan(x.tolist(), affine)
    init = (3 << 32) | 11
    got = ember.asnumpy(P.exclusive_scan(ex, AFFINE, init))
    assert got.tolist() == py_scan(x.tolist(), affine, init, exclusive=True)
    got = ember.asnumpy(P.inclusive_scan(ex, AFFINE, init))
    assert got.tolist() == py_scan(x.tolist(), affine, init)


def test_expression_on_floats(device):
    x = data(np.float64, 3000)
    got = P.inclusive_scan(ember.asarray(x, device=device), "a < b ? a : b")
    np.testing.assert_array_equal(ember.asnumpy(got), np.minimum.accumulate(x))
    # "take the right operand": associative, not commutative
    got = P.inclusive_scan(ember.asarray(x, device=device), "b")
    np.testing.assert_array_equal(ember.asnumpy(got), x)
    got = P.exclusive_scan(ember.asarray(x, device=device), "a", 5.0)
    np.testing.assert_array_equal(ember.asnumpy(got), np.full(3000, 5.0))


@pytest.mark.parametrize("n", [0, 1, 4097, 65537])
def test_exclusive(device, n):
    x = data(np.int64, n)
    ex = ember.asarray(x, device=device)
    want = np.concatenate([[0], np.cumsum(x)[:-1]]).astype(np.int64)[:n]
    assert_array_equal_np(P.exclusive_scan(ex, "add"), want)
    want = np.concatenate([[10], 10 + np.cumsum(x)[:-1]]).astype(np.int64)[:n]
    assert_array_equal_np(P.exclusive_scan(ex, "add", 10), want)
    assert_array_equal_np(P.exclusive_scan(ex, "a + b", 10), want)


@pytest.mark.parametrize("shape,axis", [((3, 5000), 1), ((3, 5000), 0),
                                        ((4, 3, 70), 1), ((4, 3, 70), -1),
                                        ((7, 1, 300), 0), ((2, 3), None),
                                        ((), None), ((0, 4), 1)])
def test_axis(device, shape, axis):
    x = data(np.int32, int(np.prod(shape))).reshape(shape)
    got = P.inclusive_scan(ember.asarray(x, device=device), "add", axis=axis)
    assert_array_equal_np(got, np.cumsum(x, axis=axis))
    got = P.inclusive_scan(ember.asarray(x, device=device), "max", axis=axis)
    want = np.maximum.accumulate(x.ravel() if axis is None else x,
                                 axis=0 if axis is None else axis)
    assert_array_equal_np(got, want)


def test_layouts(device):
    x = data(np.float64, 20000).reshape(100, 200)
    ex = ember.asarray(x, device=device)
    for v, nv in ((ex[:, ::-3], x[:, ::-3]), (ex.T, x.T), (ex[::2, 5:], x[::2, 5:])):
        assert_scan_close(ember.asnumpy(P.inclusive_scan(v, "add", axis=1)),
                          np.cumsum(nv, axis=1), 1e-12, scan_atol(nv, axis=1))
        assert_scan_close(ember.asnumpy(P.inclusive_scan(v, "add")), np.cumsum(nv),
                          1e-12, scan_atol(nv.ravel()))
    b = ember.broadcast_to(ember.asarray(np.arange(5.0), device=device), (3, 5))
    np.testing.assert_array_equal(ember.asnumpy(P.inclusive_scan(b, "add", axis=1)),
                                  np.cumsum(np.broadcast_to(np.arange(5.0), (3, 5)), 1))


def test_dtype_argument(device):
    x = data(np.int8, 1000)
    got = P.inclusive_scan(ember.asarray(x, device=device), "add", dtype="int8")
    assert_array_equal_np(got, np.cumsum(x, dtype=np.int8))
    got = P.inclusive_scan(ember.asarray(x, device=device), "add", dtype="float64")
    assert_array_equal_np(got, np.cumsum(x, dtype=np.float64))


def test_bad_inputs(device):
    ex = ember.asarray(np.arange(10.0), device=device)
    with pytest.raises(ember.CompileError, match=r"a \+\* b"):
        P.inclusive_scan(ex, "a +* b")
    with pytest.raises(TypeError, match="inclusive_scan.*xor.*float64"):
        P.inclusive_scan(ex, "xor")
    with pytest.raises(TypeError, match="min.*complex128"):
        P.inclusive_scan(ember.asarray(np.ones(3, complex), device=device), "min")
    with pytest.raises(TypeError, match="argmin"):
        P.inclusive_scan(ex, "argmin")
    with pytest.raises(ember.AxisError):
        P.inclusive_scan(ex, "add", axis=1)
    with pytest.raises(TypeError, match="needs an init"):
        P.exclusive_scan(ex, "max")
    with pytest.raises(TypeError, match="op must be a str"):
        P.inclusive_scan(ex, 3)


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "uint8",
                                   "complex64", "bool"])
def test_cumsum_rebased(device, dtype):
    x = data(dtype, 70001)
    ex = ember.asarray(x, device=device)
    for f in ("cumsum", "cumprod"):
        got = ember.asnumpy(getattr(ember, f)(ex))
        want = getattr(np, f)(x)
        assert got.dtype == want.dtype
        if np.dtype(dtype).kind in "fc":
            n = 30 if f == "cumprod" else len(x)
            assert_scan_close(got[:n], want[:n], 1e-3,
                              0 if f == "cumprod" else scan_atol(x))
        else:
            np.testing.assert_array_equal(got, want)
    x2 = data(dtype, 6 * 700).reshape(6, 700)
    got = ember.cumsum(ember.asarray(x2, device=device), axis=1)
    if np.dtype(dtype).kind in "fc":
        np.testing.assert_allclose(ember.asnumpy(got), np.cumsum(x2, axis=1),
                                   rtol=1e-3)
    else:
        assert_array_equal_np(got, np.cumsum(x2, axis=1))


def test_large(device):
    n = 3_000_001
    x = np.ones(n, np.int32)
    got = P.inclusive_scan(ember.asarray(x, device=device), "add")
    assert_array_equal_np(got, np.arange(1, n + 1, dtype=np.int64))
    xf = data(np.float32, n)
    got = ember.asnumpy(ember.cumsum(ember.asarray(xf, device=device)))
    np.testing.assert_allclose(got, np.cumsum(xf.astype(np.float64)), rtol=1e-3,
                               atol=0.5)


@pytest.mark.parametrize("dtype,out", [("float32", None), ("int16", "int16"),
                                       ("int32", None), ("complex64", None),
                                       ("uint8", "float64")])
def test_scan_paths(device, dtype, out):
    """Every tile status layout (value of 4, 8, 16 bytes), many tiles, the
    16-byte vector path and the scalar one (views off 16-byte alignment),
    and a scan in place."""
    n = (1 << 20) + 5
    x = data(dtype, n, seed=3)
    ex = ember.asarray(x, device=device)
    for off in (0, 1, 3):
        got = ember.asnumpy(P.inclusive_scan(ex[off:], "add", dtype=out))
        want = np.cumsum(x[off:], dtype=out)
        if want.dtype.kind in "fc":
            assert_scan_close(got, want, 1e-4, scan_atol(x[off:].astype(want.dtype)))
        else:
            np.testing.assert_array_equal(got, want)
        assert got.dtype == want.dtype
    k = (1 << 16) + 7
    got = ember.asnumpy(P.exclusive_scan(ex[:k], "b", 3))
    want = np.concatenate([[3], x[:k - 1]]).astype(got.dtype)
    np.testing.assert_array_equal(got, want)
    if out is None and dtype == "float32":
        y = ember.asarray(x.copy(), device=device)
        ember.cumsum(y, out=y)
        assert_scan_close(ember.asnumpy(y), np.cumsum(x), 1e-4, scan_atol(x))


def test_by_key_many_tiles(device):
    n = (1 << 19) + 3
    keys = runs(n, seed=6, nkeys=2).astype(np.int64)
    for vals, op, f in ((data(np.int32, n, seed=7), "max", max),
                        (data(np.int64, n, seed=8), "add", lambda a, b: a + b),
                        (affine_data(n), AFFINE, affine)):
        ek, ev = ember.asarray(keys, device=device), ember.asarray(vals, device=device)
        uk, uv = py_by_key(keys.tolist(), vals.tolist(), f)
        gk, gv = P.reduce_by_key(ek, ev, op, dtype=vals.dtype)
        assert ember.asnumpy(gk).tolist() == uk and ember.asnumpy(gv).tolist() == uv


@pytest.mark.parametrize("n", [0, 1, 4097, 65537, 200003])
@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "uint8",
                                   "complex128", "bool", "int64"])
def test_select_partition(device, n, dtype):
    x = data(dtype, n, seed=7)
    ex = ember.asarray(x, device=device)
    mask = data(bool, n, seed=8)
    assert_array_equal_np(P.select(ex, ember.asarray(mask, device=device)),
                          x[mask])
    sel, rej = P.partition(ex, ember.asarray(mask, device=device))
    assert_array_equal_np(sel, x[mask])
    assert_array_equal_np(rej, x[~mask])
    if np.dtype(dtype).kind in "iuf":
        got = P.select(ex, "a > 3")
        assert_array_equal_np(got, x[x > 3])


def test_select_nan_and_shapes(device):
    x = np.array([[1.0, np.nan], [-0.0, np.inf]])
    ex = ember.asarray(x, device=device)
    assert_array_equal_np(P.select(ex, "a == a"), x[x == x])
    assert_array_equal_np(P.select(ex, "a != a"), x[x != x])
    assert_array_equal_np(P.select(ex, "a <= 0"), np.array([-0.0]))
    assert_array_equal_np(P.select(ember.asarray(np.float64(2.0), device=device),
                                   "a > 1"), np.array([2.0]))


def test_select_bad(device):
    ex = ember.asarray(np.arange(10), device=device)
    with pytest.raises(ember.CompileError, match="a >>> 1"):
        P.select(ex, "a >>> 1")
    with pytest.raises(ValueError, match=r"\(3,\).*\(10,\)"):
        P.select(ex, ember.asarray(np.ones(3, bool), device=device))
    with pytest.raises(TypeError, match="bool.*int64|int64"):
        P.select(ex, ember.asarray(np.ones(10, np.int64), device=device))


def test_transform(device):
    a = data(np.float64, 5001)
    b = data(np.float64, 5001, seed=1)
    ea, eb = (ember.asarray(v, device=device) for v in (a, b))
    assert_array_equal_np(P.transform("a * b + 1.0", ea, eb), a * b + 1.0)
    assert_array_equal_np(P.transform("a > b", ea, eb, dtype=bool), a > b)
    i = data(np.int32, 12).reshape(3, 4)
    j = data(np.int32, 4, seed=2)
    got = P.transform("a * 3 - b", ember.asarray(i, device=device),
                      ember.asarray(j, device=device))
    assert_array_equal_np(got, i * 3 - j)
    out = ember.zeros((3, 4), dtype="float32", device=device)
    r = P.transform("a + b", ember.asarray(i, device=device),
                    ember.asarray(j, device=device), out=out)
    assert r is out
    assert_array_equal_np(out, (i + j).astype(np.float32))
    with pytest.raises(ember.CompileError, match="a \\+ \\+"):
        P.transform("a + +", ea)
    with pytest.raises(ValueError, match="broadcast"):
        P.transform("a + b", ea, ember.asarray(np.ones(3), device=device))


def test_reduce(device):
    x = data(np.int64, 70001)
    ex = ember.asarray(x, device=device)
    assert int(P.reduce(ex, "add")) == int(x.sum())
    assert int(P.reduce(ex, "max")) == int(x.max())
    assert int(P.reduce(ex, "add", 5)) == int(x.sum()) + 5
    xa = affine_data(4099)
    assert int(P.reduce(ember.asarray(xa, device=device), AFFINE)) == \
        py_scan(xa.tolist(), affine)[-1]
    x2 = data(np.float64, 3 * 500).reshape(3, 500)
    got = P.reduce(ember.asarray(x2, device=device), "a < b ? a : b", axis=1)
    assert_array_equal_np(got, x2.min(axis=1))
    got = P.reduce(ember.asarray(x2, device=device), "add", axis=0)
    np.testing.assert_allclose(ember.asnumpy(got), x2.sum(axis=0))
    assert int(P.reduce(ember.asarray(np.zeros(0, np.int64), device=device),
                        "add", 7)) == 7
    with pytest.raises(ValueError, match="zero-size"):
        P.reduce(ember.asarray(np.zeros(0), device=device), "add")


def runs(n, seed=0, nkeys=5):
    rng = np.random.default_rng(seed)
    return np.repeat(rng.integers(0, nkeys, n), rng.integers(1, 6, n))[:n]


def py_by_key(keys, vals, f):
    uk, uv = [], []
    for k, v in zip(keys, vals):
        if uk and uk[-1] == k:
            uv[-1] = f(uv[-1], v)
        else:
            uk.append(k)
            uv.append(v)
    return uk, uv


@pytest.mark.parametrize("n", [0, 1, 2, 4097, 65537, 140001])
def test_by_key(device, n):
    keys = runs(n).astype(np.int32)
    vals = data(np.int64, n, seed=2)
    ek, ev = (ember.asarray(v, device=device) for v in (keys, vals))
    uk, uv = py_by_key(keys.tolist(), vals.tolist(), lambda a, b: a + b)
    gk, gv = P.reduce_by_key(ek, ev, "add")
    assert ember.asnumpy(gk).tolist() == uk and ember.asnumpy(gv).tolist() == uv
    assert ember.asnumpy(P.unique_by_key(ek)).tolist() == uk
    # scan by key against per-run cumsum
    want, prev = [], None
    for k, v in zip(keys.tolist(), vals.tolist()):
        want.append(v if k != prev else want[-1] + v)
        prev = k
    assert ember.asnumpy(P.scan_by_key(ek, ev, "add")).tolist() == want
    wex, prev = [], None
    for i, (k, v) in enumerate(zip(keys.tolist(), vals.tolist())):
        wex.append(10 if k != prev else wex[-1] + int(vals[i - 1]))
        prev = k
    got = P.scan_by_key(ek, ev, "add", 10, exclusive=True)
    assert ember.asnumpy(got).tolist() == wex
    rv, rc = P.run_length_encode(ek)
    assert ember.asnumpy(rv).tolist() == uk
    assert ember.asnumpy(rc).tolist() == [len(list(g)) for _, g in
                                          __import__("itertools").groupby(keys.tolist())]


def test_by_key_noncommutative_and_floats(device):
    n = 70001
    keys = runs(n, seed=4, nkeys=3)
    vals = affine_data(n)
    ek, ev = ember.asarray(keys, device=device), ember.asarray(vals, device=device)
    uk, uv = py_by_key(keys.tolist(), vals.tolist(), affine)
    gk, gv = P.reduce_by_key(ek, ev, AFFINE)
    assert ember.asnumpy(gk).tolist() == uk and ember.asnumpy(gv).tolist() == uv
    fk = np.array([0.0, -0.0, 1.0, np.nan, np.nan, 2.0, 2.0])
    fv = np.arange(7.0)
    gk, gv = P.reduce_by_key(ember.asarray(fk, device=device),
                             ember.asarray(fv, device=device), "max")
    np.testing.assert_array_equal(ember.asnumpy(gk), [0.0, 1.0, np.nan, np.nan, 2.0])
    np.testing.assert_array_equal(ember.asnumpy(gv), [1.0, 2.0, 3.0, 4.0, 6.0])
    k2, v2 = P.unique_by_key(ember.asarray(fk, device=device),
                             ember.asarray(fv, device=device))
    np.testing.assert_array_equal(ember.asnumpy(v2), [0.0, 2.0, 3.0, 4.0, 5.0])


def test_by_key_bad(device):
    k = ember.asarray(np.zeros(5, np.int32), device=device)
    v = ember.asarray(np.zeros(4), device=device)
    with pytest.raises(ValueError, match=r"keys of shape \(5,\).*values of shape \(4,\)"):
        P.reduce_by_key(k, v, "add")
    with pytest.raises(ValueError, match=r"\(5,\).*\(4,\)"):
        P.scan_by_key(k, v)
    with pytest.raises(TypeError, match="reduce_by_key.*xor.*float64"):
        P.reduce_by_key(k, ember.asarray(np.zeros(5), device=device), "xor")
    with pytest.raises(ember.CompileError, match="a @ b"):
        P.reduce_by_key(k, ember.asarray(np.zeros(5), device=device), "a @ b")


@pytest.mark.parametrize("n", [0, 1, 5000, 70001])
def test_segmented_reduce(device, n):
    rng = np.random.default_rng(n)
    vals = data(np.int64, n, seed=9)
    cuts = np.sort(rng.integers(0, n + 1, 40))
    offsets = np.concatenate([[0], cuts, [n], [n]]).astype(np.int32)
    ev = ember.asarray(vals, device=device)
    eo = ember.asarray(offsets, device=device)
    got = ember.asnumpy(P.segmented_reduce(ev, eo, "add", 5))
    want = [5 + int(vals[a:b].sum()) for a, b in zip(offsets[:-1], offsets[1:])]
    assert got.tolist() == want
    got = ember.asnumpy(P.segmented_reduce(ev, eo, "max", -10**6))
    want = [max([-10**6] + vals[a:b].tolist()) for a, b in zip(offsets[:-1], offsets[1:])]
    assert got.tolist() == want
    if n:
        xa = affine_data(n)
        got = ember.asnumpy(P.segmented_reduce(ember.asarray(xa, device=device),
                                               eo, AFFINE, 1 << 32))
        want = [py_scan(xa[a:b].tolist(), affine, 1 << 32)[-1] if b > a
                else 1 << 32 for a, b in zip(offsets[:-1], offsets[1:])]
        assert got.tolist() == want


def test_segmented_reduce_bad(device):
    ev = ember.asarray(np.arange(10.0), device=device)
    # out-of-range offsets are clamped, never read outside the values
    got = P.segmented_reduce(ev, ember.asarray([-5, 3, 100], device=device),
                             "add", 0.0)
    np.testing.assert_array_equal(ember.asnumpy(got), [3.0, 42.0])
    with pytest.raises(TypeError, match="offsets must be integers"):
        P.segmented_reduce(ev, ember.asarray([0.0, 1.0], device=device), "add", 0)
    with pytest.raises(TypeError, match="segmented_reduce.*xor.*float64"):
        P.segmented_reduce(ev, ember.asarray([0, 1], device=device), "xor", 0)
    # segments are read off one segmented scan: one going back over another
    # would be summed wrong ([3, 7) as 11), so it is refused
    with pytest.raises(ValueError, match="must not decrease"):
        P.segmented_reduce(ev, ember.asarray([0, 3, 7, 5, 10], device=device), "add", 0.0)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int32"])
def test_nancumsum_rebased(device, dtype):
    x = data(dtype, 70001, seed=11)
    if np.dtype(dtype).kind in "fc":
        x[::7] = np.nan
        x[5] = np.inf
    ex = ember.asarray(x, device=device)
    for f in ("nancumsum", "nancumprod"):
        got = ember.asnumpy(getattr(ember, f)(ex))
        want = getattr(np, f)(x)
        assert got.dtype == want.dtype
        n = 30 if f == "nancumprod" else len(x)
        if np.dtype(dtype).kind in "fc":
            assert_scan_close(got[:n], want[:n], 1e-3,
                              0 if f == "nancumprod" else scan_atol(x, nan=True)[:n])
        else:
            np.testing.assert_array_equal(got[:n], want[:n])
    x2 = np.array([[np.nan, 1.0, 2.0] * 100] * 3)
    got = ember.nancumsum(ember.asarray(x2, device=device), axis=1)
    np.testing.assert_allclose(ember.asnumpy(got), np.nancumsum(x2, axis=1))


def test_reduce_argmin_argmax(device):
    x = data(np.float64, 5001, seed=12)
    ex = ember.asarray(x, device=device)
    assert int(P.reduce(ex, "argmin")) == int(np.argmin(x))
    assert int(P.reduce(ex, "argmax")) == int(np.argmax(x))
    x2 = x[:5000].reshape(50, 100)
    got = P.reduce(ember.asarray(x2, device=device), "argmax", axis=1)
    assert_array_equal_np(got, np.argmax(x2, axis=1))
    with pytest.raises(TypeError, match="argmin"):
        P.reduce(ex, "argmin", 0.0)


# ---- tuple (zipped) values ------------------------------------------------

AFF2 = ("a0 * b0", "b0 * a1 + b1")   # composing x -> m*x + c, left first


def aff2(a, b):
    m = (a[0] * b[0]) & (2**64 - 1)
    c = (b[0] * a[1] + b[1]) & (2**64 - 1)
    return tuple(v - 2**64 if v >= 2**63 else v for v in (m, c))


@pytest.mark.parametrize("n", [1, 2, 4097, 70001])
def test_tuple_noncommutative(device, n):
    rng = np.random.default_rng(n)
    m = rng.integers(-3, 4, n).astype(np.int64)
    c = rng.integers(-1000, 1000, n).astype(np.int64)
    em_, ec = ember.asarray(m, device=device), ember.asarray(c, device=device)
    want = py_scan(list(zip(m.tolist(), c.tolist())), aff2)
    g0, g1 = P.inclusive_scan((em_, ec), AFF2)
    assert list(zip(ember.asnumpy(g0).tolist(), ember.asnumpy(g1).tolist())) == want
    r0, r1 = P.reduce((em_, ec), AFF2)
    assert (int(r0), int(r1)) == want[-1]
    init = (2, 5)
    want = py_scan(list(zip(m.tolist(), c.tolist())), aff2, init, exclusive=True)
    g0, g1 = P.exclusive_scan((em_, ec), AFF2, init)
    assert list(zip(ember.asnumpy(g0).tolist(), ember.asnumpy(g1).tolist())) == want


def test_tuple_mean_with_count(device):
    x = data(np.float64, 100001, seed=21)
    ones = np.ones(x.size, np.int64)
    s, cnt = P.reduce((ember.asarray(x, device=device),
                       ember.asarray(ones, device=device)), ("a0 + b0", "a1 + b1"))
    assert int(cnt) == x.size
    np.testing.assert_allclose(float(s) / int(cnt), x.mean(), rtol=1e-9, atol=1e-12)
    # built-in per component, each with its own dtype (cumsum's rules)
    xi = data(np.int32, 5000, seed=22)
    xf = data(np.float32, 5000, seed=23)
    g0, g1 = P.inclusive_scan((ember.asarray(xi, device=device),
                               ember.asarray(xf, device=device)), "add")
    assert_array_equal_np(g0, np.cumsum(xi))
    assert_scan_close(ember.asnumpy(g1), np.cumsum(xf), 1e-4, scan_atol(xf))
    g0, g1 = P.inclusive_scan((ember.asarray(xi, device=device),
                               ember.asarray(xf, device=device)), "max")
    assert_array_equal_np(g0, np.maximum.accumulate(xi))
    assert_array_equal_np(g1, np.maximum.accumulate(xf))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int16"])
def test_tuple_argmin_argmax(device, dtype):
    n = 70001
    rng = np.random.default_rng(3)
    x = rng.integers(-50, 50, n).astype(dtype)      # many ties
    idx = np.arange(n, dtype=np.int64)
    ex, ei = ember.asarray(x, device=device), ember.asarray(idx, device=device)
    for op, ref in (("argmin", np.argmin), ("argmax", np.argmax)):
        v, i = P.reduce((ex, ei), op)
        assert int(i) == int(ref(x)) and v == x[ref(x)]
    # running argmin: each prefix's first minimum
    v, i = P.inclusive_scan((ex[:3000], ei[:3000]), "argmin")
    want_i = [int(np.argmin(x[:k + 1])) for k in range(0, 3000, 97)]
    assert ember.asnumpy(i)[::97].tolist() == want_i
    if dtype != "int16":
        xn = x.copy()
        xn[[7, 40000, 40001]] = np.nan
        exn = ember.asarray(xn, device=device)
        for op, ref in (("argmin", np.argmin), ("argmax", np.argmax)):
            v, i = P.reduce((exn, ei), op)
            assert int(i) == int(ref(xn)) == 7 and np.isnan(float(v))


def test_tuple_by_key(device):
    n = 70001
    keys = runs(n, seed=9, nkeys=4).astype(np.int32)
    a = data(np.int64, n, seed=10)
    b = data(np.float64, n, seed=11)
    ek, ea, eb = (ember.asarray(v, device=device) for v in (keys, a, b))
    uk, ua = py_by_key(keys.tolist(), a.tolist(), lambda p, q: p + q)
    _, ub = py_by_key(keys.tolist(), b.tolist(), max)
    gk, (ga, gb) = P.reduce_by_key(ek, (ea, eb), ("a0 + b0", "a1 > b1 ? a1 : b1"))
    assert ember.asnumpy(gk).tolist() == uk
    assert ember.asnumpy(ga).tolist() == ua and ember.asnumpy(gb).tolist() == ub
    # argmin by key with positions
    pos = ember.asarray(np.arange(n, dtype=np.int64), device=device)
    gk, (gv, gi) = P.reduce_by_key(ek, (eb, pos), "argmin")
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    ends = np.r_[starts[1:], n]
    assert ember.asnumpy(gi).tolist() == [int(s + np.argmin(b[s:e]))
                                          for s, e in zip(starts, ends)]
    # scan by key: per-run running sums of both
    ws, wc, prev = [], [], None
    for k, x in zip(keys.tolist(), a.tolist()):
        ws.append(x if k != prev else ws[-1] + x)
        wc.append(1 if k != prev else wc[-1] + 1)
        prev = k
    s0, s1 = P.scan_by_key(ek, (ea, ember.asarray(np.ones(n, np.int8), device=device)),
                           "add")
    assert ember.asnumpy(s0).tolist() == ws and ember.asnumpy(s1).tolist() == wc
    assert ember.asnumpy(s1).dtype == np.int64
    e0, e1 = P.scan_by_key(ek, (ea, eb), ("a0 + b0", "a1 + b1"), (0, 0.0),
                           exclusive=True)
    assert ember.asnumpy(e0)[1:].tolist() == [0 if keys[i] != keys[i - 1] else
                                              ws[i - 1] for i in range(1, n)]


def test_tuple_bad(device):
    a = ember.asarray(np.zeros(5), device=device)
    b = ember.asarray(np.zeros(4, np.int64), device=device)
    with pytest.raises(ValueError, match=r"5 elements.*values\[1\] 4"):
        P.reduce((a, b), "add")
    with pytest.raises(ValueError, match=r"5 elements.*values\[1\] 4"):
        P.inclusive_scan((a, b), ("a0 + b0", "a1 + b1"))
    b5 = ember.asarray(np.zeros(5, np.int64), device=device)
    with pytest.raises(ValueError, match="3 expressions.*2 components"):
        P.reduce((a, b5), ("a0 + b0", "a1 + b1", "a0"))
    with pytest.raises(ValueError, match="1 expression.*2 components"):
        P.reduce((a, b5), "a0 + b0")
    with pytest.raises(ValueError, match="2 to 4"):
        P.reduce((a,), "add")
    with pytest.raises(ValueError, match="2 to 4"):
        P.reduce((a, a, a, a, a), "add")
    with pytest.raises(ValueError, match="argmin.*pair"):
        P.reduce((a, b5, b5), "argmin")
    with pytest.raises(TypeError, match="argmin.*complex"):
        P.reduce((ember.asarray(np.zeros(5, complex), device=device), b5), "argmin")
    with pytest.raises(ember.CompileError, match="a0 @ b0"):
        P.reduce((a, b5), ("a0 @ b0", "a1"))
    with pytest.raises(ValueError, match="init.*tuple of 2"):
        P.exclusive_scan((a, b5), ("a0", "a1"), 0)
    with pytest.raises(TypeError, match="needs an init"):
        P.exclusive_scan((a, b5), "max")
    with pytest.raises(TypeError, match="dtype.*tuple of 2"):
        P.inclusive_scan((a, b5), "add", dtype="float64")
    with pytest.raises(NotImplementedError, match="axis"):
        P.inclusive_scan((a, b5), "add", axis=0)
    k = ember.asarray(np.zeros(4, np.int32), device=device)
    with pytest.raises(ValueError, match=r"keys has 4 elements and values\[0\] 5"):
        P.reduce_by_key(k, (a, b5), "add")
    e = ember.asarray(np.zeros(0), device=device)
    e2 = ember.asarray(np.zeros(0, np.int64), device=device)
    assert [float(v) for v in P.reduce((e, e2), "add", (1.5, 2))] == [1.5, 2.0]
    with pytest.raises(ValueError, match="zero-size"):
        P.reduce((e, e2), "add")
