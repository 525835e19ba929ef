"""Stream compaction against NumPy on every device: boolean-mask reads
(a[mask], whole-shape and leading-dimension masks), nonzero, flatnonzero,
argwhere, compress, extract and ember.parallel.select/partition, around
the compaction's tile sizes (4096 flags a tile on cuda, 2048 for 16-byte
elements, 65536 on cpu), with every dtype, several layouts and the bad
inputs."""
import numpy as np
import pytest

import ember

from helpers import assert_array_equal_np

P = ember.parallel

DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "float16", "int32",
          "uint32", "float32", "int64", "uint64", "float64", "complex64",
          "complex128"]
SIZES = [0, 1, 15, 17, 2047, 2049, 4095, 4096, 4097, 3 * 4096 + 5, 65535,
         65536, 65537, 2 * 65536 + 4099]


def _data(dtype, n, seed=0):
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.integers(0, 2, n).astype(bool)
    v = rng.integers(-1000, 1000, n)
    if np.dtype(dtype).kind == "u":
        v = np.abs(v)
    if np.dtype(dtype).kind == "c":
        return (v + 1j * rng.integers(-9, 9, n)).astype(dtype)
    return v.astype(dtype)


def _mask(kind, n, seed=1):
    if kind == "none":
        return np.zeros(n, bool)
    if kind == "all":
        return np.ones(n, bool)
    if kind == "alternate":
        return np.arange(n) % 2 == 0
    if kind == "sparse":
        return np.random.default_rng(seed).random(n) < 0.01
    return np.random.default_rng(seed).integers(0, 2, n).astype(bool)


@pytest.mark.parametrize("dtype", DTYPES)
def test_mask_dtypes(device, dtype):
    x = _data(dtype, 10007)
    m = _mask("random", 10007)
    ex = ember.asarray(x, device=device)
    assert_array_equal_np(ex[ember.asarray(m, device=device)], x[m], device)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("kind", ["none", "all", "alternate", "random"])
def test_mask_sizes_patterns(device, n, kind):
    m = _mask(kind, n)
    em = ember.asarray(m, device=device)
    for dtype in ("float32", "complex128"):
        x = _data(dtype, n, seed=n)
        assert_array_equal_np(ember.asarray(x, device=device)[em], x[m],
                              device)
    assert_array_equal_np(ember.nonzero(em)[0], np.nonzero(m)[0], device)


def test_mask_sparse_and_large(device):
    n = 3_000_017
    x = np.arange(n, dtype=np.float32)
    for kind in ("sparse", "random"):
        m = _mask(kind, n, seed=5)
        em = ember.asarray(m, device=device)
        assert_array_equal_np(ember.asarray(x, device=device)[em], x[m])
        assert_array_equal_np(ember.flatnonzero(em), np.flatnonzero(m))


def test_mask_nd_and_leading(device):
    rng = np.random.default_rng(3)
    cases = [((37, 53), 2, "float32"),     # whole shape, 2-d
             ((5, 6, 7), 3, "int16"),      # whole shape, 3-d
             ((999, 2), 1, "float32"),     # rows of 8 bytes: one word
             ((4099, 4), 1, "float32"),    # rows of 16 bytes
             ((1001, 3), 1, "float32"),    # rows of 12 bytes: row copy
             ((300, 4), 1, "float64"),     # rows of 32 bytes: row copy
             ((20, 30, 7), 2, "uint8"),    # 2-d mask, rows of 7 bytes
             ((7, 5, 3, 2), 1, "complex128"),
             ((0, 4), 1, "int32"),
             ((6, 0), 1, "int32")]
    for shape, k, dtype in cases:
        x = _data(dtype, int(np.prod(shape))).reshape(shape)
        m = rng.integers(0, 2, shape[:k]).astype(bool)
        ex = ember.asarray(x, device=device)
        em = ember.asarray(m, device=device)
        assert_array_equal_np(ex[em], x[m], device)
        assert_array_equal_np(ex[(em,)], x[(m,)], device)
        # leading masks through ember.parallel.select too
        assert_array_equal_np(P.select(ex, em), x[m], device)
    # a 1-d mask on a 2-d array with all rows kept and none kept
    x = _data("int64", 40).reshape(8, 5)
    ex = ember.asarray(x, device=device)
    for m in (np.ones(8, bool), np.zeros(8, bool)):
        assert_array_equal_np(ex[ember.asarray(m, device=device)], x[m])


def test_mask_layouts(device):
    x = _data("float32", 6000).reshape(60, 100)
    ex = ember.asarray(x, device=device)
    m = _mask("random", 6000).reshape(60, 100)
    em = ember.asarray(m, device=device)
    # transposed array and mask, strided views
    assert_array_equal_np(ex.T[em.T], x.T[m.T])
    assert_array_equal_np(ex[:, ::2][em[:, ::2]], x[:, ::2][m[:, ::2]])
    # views whose data is not 16-byte aligned take the element-wise path
    flat = ember.asarray(x.ravel(), device=device)
    mflat = ember.asarray(m.ravel(), device=device)
    assert_array_equal_np(flat[1:-2][mflat[3:]],
                          x.ravel()[1:-2][m.ravel()[3:]])
    b = _data("int8", 9000)
    eb = ember.asarray(b, device=device)
    mb = _mask("random", 9000)
    emb = ember.asarray(mb, device=device)
    assert_array_equal_np(eb[5:][emb[:-5]], b[5:][mb[:-5]])
    # other index forms still take the general path
    assert_array_equal_np(ex[em[:, 0], 3], x[m[:, 0], 3])
    assert_array_equal_np(ex[2:5][em[2:5]], x[2:5][m[2:5]])


def test_mask_special_values(device):
    x = np.array([np.nan, -0.0, 0.0, np.inf, -np.inf, 1.5] * 700)
    m = _mask("random", x.size, seed=9)
    ex = ember.asarray(x, device=device)
    assert_array_equal_np(ex[ember.asarray(m, device=device)], x[m])
    # nonzero: NaN and inf are nonzero, both zeros are not
    for dt in ("float16", "float32", "float64", "complex64"):
        xd = x.astype(dt)
        assert_array_equal_np(ember.nonzero(ember.asarray(xd, device=device))[0],
                              np.nonzero(xd)[0])


@pytest.mark.parametrize("dtype", DTYPES)
def test_nonzero_dtypes(device, dtype):
    x = _data(dtype, 5003, seed=2)
    x[::3] = 0
    ex = ember.asarray(x, device=device)
    assert_array_equal_np(ember.nonzero(ex)[0], np.nonzero(x)[0], device)
    assert_array_equal_np(ember.flatnonzero(ex), np.flatnonzero(x), device)


@pytest.mark.parametrize("shape", [(4097,), (65, 67), (3, 0, 2), (5, 7, 9),
                                   (2, 3, 4, 5, 6), (1, 1, 1)])
def test_nonzero_nd(device, shape):
    x = _mask("random", int(np.prod(shape)), seed=4).reshape(shape)
    ex = ember.asarray(x, device=device)
    got = ember.nonzero(ex)
    exp = np.nonzero(x)
    assert len(got) == len(exp)
    for g, e in zip(got, exp):
        assert_array_equal_np(g, e, device)
    assert_array_equal_np(ember.argwhere(ex), np.argwhere(x), device)
    assert_array_equal_np(ember.flatnonzero(ex), np.flatnonzero(x), device)
    # the method, and a transposed (non-contiguous) input
    for g, e in zip(ex.nonzero(), x.nonzero()):
        assert_array_equal_np(g, e)
    for g, e in zip(ember.nonzero(ex.T), np.nonzero(x.T)):
        assert_array_equal_np(g, e)


def test_compress_extract(device):
    x = _data("float64", 7 * 4099).reshape(7, 4099)
    ex = ember.asarray(x, device=device)
    c1 = _mask("random", 4099, seed=6)
    c0 = np.array([True, False, True, True, False, False, True])
    assert_array_equal_np(ember.compress(ember.asarray(c1, device=device), ex,
                                         axis=1), np.compress(c1, x, axis=1))
    assert_array_equal_np(ember.compress(ember.asarray(c0, device=device), ex,
                                         axis=0), np.compress(c0, x, axis=0))
    # shorter condition: the rest counts as False; no axis: flattened
    short = c1[:1000]
    assert_array_equal_np(ember.compress(ember.asarray(short, device=device),
                                         ex), np.compress(short, x))
    cond = (x.astype(np.int64) % 3) == 0
    assert_array_equal_np(ember.extract(ember.asarray(cond, device=device), ex),
                          np.extract(cond, x))
    # a full-length condition with no axis, axis -2, and a transposed array
    full = _mask("random", x.size, seed=8)
    assert_array_equal_np(ember.compress(ember.asarray(full, device=device),
                                         ex), np.compress(full, x))
    assert_array_equal_np(ember.compress(ember.asarray(c0, device=device), ex,
                                         axis=-2), np.compress(c0, x, axis=-2))
    assert_array_equal_np(ember.compress(ember.asarray(c1, device=device),
                                         ex.T, axis=0),
                          np.compress(c1, x.T, axis=0))
    assert_array_equal_np(ember.extract(ember.asarray(cond.T, device=device),
                                        ex.T), np.extract(cond.T, x.T))
    # a non-bool condition: nonzero is true
    ci = (x.astype(np.int64) % 4)
    assert_array_equal_np(ember.extract(ember.asarray(ci, device=device), ex),
                          np.extract(ci, x))


@pytest.mark.parametrize("n", [0, 1, 2047, 2049, 4097, 70001])
@pytest.mark.parametrize("dtype", ["int8", "float16", "float32", "int64",
                                   "complex128"])
def test_parallel_select_partition(device, n, dtype):
    x = _data(dtype, n, seed=11)
    m = _mask("random", n, seed=12)
    ex = ember.asarray(x, device=device)
    em = ember.asarray(m, device=device)
    assert_array_equal_np(P.select(ex, em), x[m], device)
    sel, rej = P.partition(ex, em)
    assert_array_equal_np(sel, x[m])
    assert_array_equal_np(rej, x[~m])
    if np.dtype(dtype).kind in "if":
        assert_array_equal_np(P.select(ex, "a > 3"), x[x > 3])
        sel, rej = P.partition(ex, "a > 3")
        assert_array_equal_np(sel, x[x > 3])
        assert_array_equal_np(rej, x[~(x > 3)])
    # a misaligned view through partition (copied first)
    if n > 3:
        assert_array_equal_np(P.partition(ex[1:], em[1:])[1], x[1:][~m[1:]])


def test_bad_input(device):
    ex = ember.asarray(np.arange(12.0).reshape(3, 4), device=device)
    with pytest.raises(IndexError, match="boolean index did not match"):
        ex[ember.asarray(np.ones(4, bool), device=device)]
    with pytest.raises(IndexError, match="boolean index did not match"):
        ex[ember.asarray(np.ones((3, 3), bool), device=device)]
    with pytest.raises(IndexError, match="too many indices"):
        ex[ember.asarray(np.ones((3, 4, 1), bool), device=device)]
    with pytest.raises(ValueError, match=r"leading dimensions"):
        P.select(ex, ember.asarray(np.ones(4, bool), device=device))
    with pytest.raises(ValueError, match=r"\(3,\).*\(3, 4\)"):
        P.partition(ex, ember.asarray(np.ones(3, bool), device=device))
    with pytest.raises(TypeError, match="bool"):
        P.select(ex, ember.asarray(np.ones((3, 4), np.int8), device=device))
    with pytest.raises(ValueError, match="0d"):
        ember.nonzero(ember.asarray(np.float32(1), device=device))
    with pytest.raises(ValueError, match="1-d"):
        ember.compress(ember.asarray(np.ones((3, 4), bool), device=device), ex)


def test_mask_other_device(need_cuda):
    x = ember.asarray(np.arange(10.0), device="cuda:0")
    m = ember.asarray(np.ones(10, bool), device="cpu")
    with pytest.raises(ValueError, match="cpu"):
        x[m]
