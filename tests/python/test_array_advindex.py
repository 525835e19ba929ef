"""Advanced indexing (integer arrays, lists, boolean masks) and the index
functions (take, take_along_axis, put, where, nonzero, flatnonzero,
argwhere, repeat, compress, extract) against NumPy, on cpu and cuda."""
import numpy as np
import pytest

import ember

from conftest import HAVE_CUDA
from helpers import assert_array_equal_np

H = np.arange(3 * 4 * 5, dtype=np.float32).reshape(3, 4, 5)
M2 = (H[:, :, 0] % 3) == 1          # a mask of the two leading axes
KEYS = [
    ([0, 2],), ([[0], [2]],), ([-1, 0, -3],), (slice(None), [3, 0, -1]),
    (..., [4, 0]), (0, [1, 3]), ([1, 2], 0), (0, slice(None), [1, 3]),
    ([1, 0], slice(None), [1, 3]), ([0, 1], [2, 3]), ([0, 1], [2, 3], [4, 0]),
    ([[0, 1]], [[1], [2]]), (slice(1, None), [[0, 1], [2, 0]], slice(None, None, -1)),
    (None, [0, 1]), ([0, 1], None, 0), (slice(None), None, [0, 2]),
    ([],), (slice(None), []), (np.array([2, 1]),), (np.array([[1]]), ..., 0),
    (H > 30,), (M2,), (M2, 1), (slice(None), H[0] > 7), (1, H[0] > 7),
    (H[:, 0, 0] > 0, slice(None), [0, 4]), (True,), (False,), (0, True),
    ([True, False, True],), ([[True, False, True, True]] * 3,),
    (np.zeros(3, bool),), (np.ones((3, 4, 5), bool),),
    (slice(None, None, 2), [1, 3], slice(None, None, -2)),
]


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_getitem_keys(device, key):
    x = ember.asarray(H, device=device)
    want = H[key]
    assert_array_equal_np(x[key], want, device=device)


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_setitem_keys(device, key):
    h = H.copy()
    x = ember.asarray(h, device=device)
    val = np.arange(h[key].size, dtype=np.float64).reshape(h[key].shape) + 0.5
    h[key] = val
    x[key] = val
    # Where a key names one element several times NumPy's last write wins;
    # ember promises that on cpu, and on the GPU only that one of the
    # values written there lands (docs/arrays.md), as CuPy does.
    pos = np.arange(h.size).reshape(h.shape)[key].ravel()
    dup = np.unique(pos[np.unique(pos, return_counts=True)[1][np.searchsorted(
        np.unique(pos), pos)] > 1])
    if device == "cpu" or dup.size == 0:
        assert_array_equal_np(x, h)
    else:
        got = ember.asnumpy(x).ravel()
        keep = np.setdiff1d(np.arange(h.size), dup)
        np.testing.assert_array_equal(got[keep], h.ravel()[keep])
        for p in dup:
            assert got[p] in val.ravel()[pos == p].astype(np.float32), p
    h[key] = -2
    x[key] = -2
    assert_array_equal_np(x, h)


DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
          "uint64", "float16", "float32", "float64", "complex64", "complex128"]


@pytest.mark.parametrize("dtype", DTYPES)
def test_dtypes(device, dtype):
    rng = np.random.default_rng(1)
    h = (rng.standard_normal((7, 5)) * 50).astype(dtype)
    if h.dtype.kind == "f":
        h[0, 0], h[1, 1], h[2, 2] = np.nan, -np.inf, -0.0
    x = ember.asarray(h, device=device)
    assert_array_equal_np(x[[6, 0, -1, 3]], h[[6, 0, -1, 3]])
    assert_array_equal_np(x[:, [4, 0]], h[:, [4, 0]])
    m = rng.random((7, 5)) > 0.5
    assert_array_equal_np(x[m], h[m])
    assert_array_equal_np(x[ember.asarray(m, device=device)], h[m])
    h[[1, 5], [2, 2]] = h[0, :2]
    x[[1, 5], [2, 2]] = x[0, :2]
    assert_array_equal_np(x, h)
    h[m] = h[0, 0]
    x[m] = x[0, 0]
    assert_array_equal_np(x, h)


@pytest.mark.parametrize("idt", ["int8", "uint8", "int16", "uint16", "int32",
                                 "uint32", "int64", "uint64"])
def test_index_dtypes(device, idt):
    x = ember.asarray(H, device=device)
    i = np.array([2, 0, 1, 1], dtype=idt)
    assert_array_equal_np(x[i], H[i])
    assert_array_equal_np(x[ember.asarray(i, device=device)], H[i])
    assert_array_equal_np(x[:, ember.asarray(i, device=device), i], H[:, i, i])
    if np.dtype(idt).kind == "i":
        j = np.array([-1, -3], dtype=idt)
        assert_array_equal_np(x[..., ember.asarray(j, device=device)], H[..., j])
    big = np.array([3], dtype=idt)
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        x[ember.asarray(big, device=device)]


def test_bool_lists(device):
    x = ember.asarray(H, device=device)
    assert_array_equal_np(x[[True, False, True]], H[[True, False, True]])
    assert_array_equal_np(x[1, [False, True, True, False]], H[1, [False, True, True, False]])


def test_layouts(device):
    base = np.arange(6 * 8 * 4, dtype=np.float64).reshape(6, 8, 4)
    x0 = ember.asarray(base, device=device)
    for sl in [(slice(None, None, -1),), (slice(None), slice(None, None, 3)),
               (slice(1, None, 2), slice(None, None, -2), slice(None, None, -1))]:
        x, h = x0[sl], base[sl]
        assert_array_equal_np(x[[0, -1, 1]], h[[0, -1, 1]])
        assert_array_equal_np(x[:, [1, 0], 1:], h[:, [1, 0], 1:])
        assert_array_equal_np(x[h > 50], h[h > 50])
        assert_array_equal_np(x.T[[1, 2]], h.T[[1, 2]])
        m = ember.asarray(h > 40, device=device)[::-1, ::2]       # a strided mask
        assert_array_equal_np(x[::-1, ::2][m], h[::-1, ::2][(h > 40)[::-1, ::2]])
    # non-contiguous, negative-stride and broadcast index arrays
    hi = np.array([[0, 3, 1, 2], [5, 4, 0, 1]])
    xi = ember.asarray(hi, device=device)
    assert_array_equal_np(x0[xi[:, ::-2]], base[hi[:, ::-2]])
    assert_array_equal_np(x0[xi.T, 0, 1], base[hi.T, 0, 1])
    bi = np.broadcast_to(np.array([1, 2]), (3, 2))
    assert_array_equal_np(x0[ember.broadcast_to(ember.asarray([1, 2], device=device), (3, 2))]
                          if hasattr(ember, "broadcast_to") else x0[bi], base[bi])
    # assignment through a strided view writes through
    h = base.copy()
    x = ember.asarray(h, device=device)
    v = x[::-1, 1::2]
    v[[0, 2], :, [1, 3]] = 99
    h[::-1, 1::2][[0, 2], :, [1, 3]] = 99
    assert_array_equal_np(x, h)


def test_empty(device):
    x = ember.asarray(H, device=device)
    e = np.array([], dtype=np.int64)
    assert_array_equal_np(x[e], H[e])
    assert_array_equal_np(x[:, e], H[:, e])
    assert_array_equal_np(x[e, e], H[e, e])
    z = np.zeros((0, 4), np.int32)
    xz = ember.asarray(z, device=device)
    assert_array_equal_np(xz[:, [1, 2]], z[:, [1, 2]])
    assert_array_equal_np(xz[np.zeros(0, bool)], z[np.zeros(0, bool)])
    with pytest.raises(IndexError, match="index 0 is out of bounds for axis 0 with size 0"):
        xz[[0]]
    x[e] = 5
    assert_array_equal_np(x, H)
    one = ember.asarray(np.array([7.0]), device=device)
    assert_array_equal_np(one[[0, 0, -1]], np.array([7.0, 7.0, 7.0]))
    zd = ember.asarray(np.float32(3), device=device)
    assert_array_equal_np(zd[True], np.array(np.float32(3))[True])
    assert_array_equal_np(zd[False], np.array(np.float32(3))[False])
    with pytest.raises(IndexError, match="too many indices"):
        zd[None, [0, 0]]            # as NumPy: None does not make an indexable axis
    # indices are checked even when the result is empty
    e2 = ember.asarray(np.zeros((3, 0)), device=device)
    assert e2[[1, 2]].shape == (2, 0)
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 0 with size 3"):
        e2[[5]]


def test_masks_all_false_true(device):
    h = np.arange(10.0)
    x = ember.asarray(h, device=device)
    f, t = np.zeros(10, bool), np.ones(10, bool)
    assert_array_equal_np(x[f], h[f])
    assert_array_equal_np(x[t], h[t])
    assert_array_equal_np(ember.nonzero(ember.asarray(f, device=device))[0], np.nonzero(f)[0])
    x[f] = 1
    assert_array_equal_np(x, h)
    x[t] = np.arange(10) * 2
    assert_array_equal_np(x, np.arange(10) * 2.0)


def test_large_mask(device):
    rng = np.random.default_rng(7)
    n = 10 ** 6 + 37
    h = rng.standard_normal(n).astype(np.float32)
    m = rng.random(n) < 0.3
    x = ember.asarray(h, device=device)
    xm = ember.asarray(m, device=device)
    assert_array_equal_np(x[xm], h[m])
    nz = ember.nonzero(xm)
    assert_array_equal_np(nz[0], np.nonzero(m)[0])
    h2 = h.copy()
    h2[m] = np.arange(m.sum(), dtype=np.float32)
    x[xm] = ember.arange(int(m.sum()), dtype="float32", device=device) \
        if hasattr(ember, "arange") else np.arange(m.sum(), dtype=np.float32)
    assert_array_equal_np(x, h2)
    m2 = rng.random((1000, 1001)) < 0.01
    assert_array_equal_np(ember.argwhere(ember.asarray(m2, device=device)), np.argwhere(m2))


def test_setitem_broadcast_cast(device):
    h = np.zeros((4, 5), np.int32)
    x = ember.asarray(h, device=device)
    x[[0, 2]] = [1.7, 2.2, 3.9, 4.0, -5.5]
    h[[0, 2]] = [1.7, 2.2, 3.9, 4.0, -5.5]
    assert_array_equal_np(x, h)
    x[:, [1, 3]] = np.array([[7], [8], [9], [10]])
    h[:, [1, 3]] = np.array([[7], [8], [9], [10]])
    assert_array_equal_np(x, h)
    x[[[1], [3]], [0, 4]] = ember.asarray(np.array([[-1, -2]]), device=device)
    h[[[1], [3]], [0, 4]] = np.array([[-1, -2]])
    assert_array_equal_np(x, h)
    x[h > 3] = 100
    h[h > 3] = 100
    assert_array_equal_np(x, h)
    x[[0, 1, 0]] += 1           # get, add, set: once per distinct row
    h[[0, 1, 0]] += 1
    assert_array_equal_np(x, h)
    x[x < 0] *= 3
    h[h < 0] *= 3
    assert_array_equal_np(x, h)
    with pytest.raises(ValueError):
        x[[0, 1]] = [1, 2, 3]
    with pytest.raises(OverflowError):
        ember.asarray(np.zeros(3, np.int8), device=device)[[0]] = 300
    with pytest.raises(OverflowError):
        ember.asarray(np.zeros(3, np.int8), device=device)[np.ones(3, bool)] = 300


def test_repeated_indices_last_wins_on_cpu():
    x = ember.asarray(np.zeros(3), device="cpu")
    x[[0, 0, 0, 2]] = [1, 2, 3, 4]
    assert_array_equal_np(x, np.array([3.0, 0, 4]))


def test_repeated_indices_one_wins(device):
    x = ember.asarray(np.zeros(3), device=device)
    x[[1, 1, 1]] = [1.0, 2.0, 3.0]
    assert float(x[1]) in (1.0, 2.0, 3.0)


# ---- errors -------------------------------------------------------------


def test_errors(device):
    x = ember.asarray(H, device=device)
    with pytest.raises(IndexError, match="index 10 is out of bounds for axis 0 with size 3"):
        x[[0, 10]]
    with pytest.raises(IndexError, match="index -4 is out of bounds for axis 0 with size 3"):
        x[[-4]]
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis 2 with size 5"):
        x[:, :, ember.asarray([7], device=device)]
    with pytest.raises(IndexError, match="out of bounds for axis 1 with size 4"):
        x[0, [4]] = 1
    with pytest.raises(IndexError, match="arrays used as indices must be of integer"):
        x[np.array([1.0])]
    with pytest.raises(IndexError, match="arrays used as indices must be of integer"):
        x[[0.5, 1]]
    with pytest.raises(IndexError, match="arrays used as indices must be of integer"):
        x[ember.asarray([1.0], device=device)]
    with pytest.raises(IndexError, match=r"boolean index did not match.*axis 0.*size of axis is 3.*4"):
        x[np.ones(4, bool)]
    with pytest.raises(IndexError, match=r"boolean index did not match"):
        x[np.ones((3, 5), bool)]
    with pytest.raises(IndexError, match=r"shape mismatch.*\(2,\) \(3,\)"):
        x[[0, 1], [0, 1, 2]]
    with pytest.raises(IndexError, match="too many indices for array: array is 3-dimensional, but 4 were indexed"):
        x[[0], 0, 0, 0]
    with pytest.raises(IndexError, match="too many indices"):
        x[np.ones((3, 4, 5, 1), bool)]
    with pytest.raises(IndexError, match="out of bounds"):
        ember.take(x, [60], axis=None)
    with pytest.raises(ember.AxisError):
        ember.take(x, [0], axis=3)
    with pytest.raises(ValueError, match="mode"):
        ember.take(x, [0], mode="bogus")


def test_mixed_devices(need_cuda):
    x = ember.asarray(H, device="cpu")
    i = ember.asarray([0, 1], device="cuda:0")
    with pytest.raises(ValueError, match=r"cuda:0.*cpu|cpu.*cuda:0"):
        x[i]
    with pytest.raises(ValueError, match=r"cuda:0.*cpu|cpu.*cuda:0"):
        ember.take(x, i)
    with pytest.raises(ValueError, match=r"cuda:0.*cpu|cpu.*cuda:0"):
        ember.where(ember.asarray([True], device="cuda:0"), x, 0)


# ---- the index functions ------------------------------------------------


def test_take(device):
    x = ember.asarray(H, device=device)
    for ind, axis in [([0, 2], 0), ([[1, -1]], 1), ([4, 0, 4], -1), ([5, 59], None),
                      (np.int64(2), 0), ([], 1)]:
        assert_array_equal_np(ember.take(x, ind, axis=axis), np.take(H, ind, axis=axis))
        assert_array_equal_np(x.take(ind, axis=axis), H.take(ind, axis=axis))
    for mode in ["wrap", "clip"]:
        ind = [-7, 0, 3, 11]
        assert_array_equal_np(ember.take(x, ind, axis=1, mode=mode),
                              np.take(H, ind, axis=1, mode=mode))
    out = ember.empty((3, 2, 5), dtype="float32", device=device)
    r = ember.take(x, [3, 1], axis=1, out=out)
    assert r is out
    assert_array_equal_np(out, np.take(H, [3, 1], axis=1))
    assert_array_equal_np(ember.take(x[:, ::-1], [0, 1], axis=None), np.take(H[:, ::-1], [0, 1]))
    with pytest.raises(IndexError, match="non-empty take from an empty"):
        ember.take(ember.asarray(np.zeros((0, 2)), device=device), [0], axis=0, mode="wrap")


def test_take_along_axis(device):
    rng = np.random.default_rng(3)
    h = rng.standard_normal((4, 6)).astype(np.float64)
    x = ember.asarray(h, device=device)
    for axis in [0, 1, -1]:
        idx = np.argsort(h, axis=axis)
        assert_array_equal_np(ember.take_along_axis(x, ember.asarray(idx, device=device), axis),
                              np.take_along_axis(h, idx, axis))
    idx = np.array([[0], [5], [2], [1]])
    assert_array_equal_np(ember.take_along_axis(x, idx, 1), np.take_along_axis(h, idx, 1))
    idx1 = np.array([23, 0, 5])
    assert_array_equal_np(ember.take_along_axis(x, idx1, None), np.take_along_axis(h, idx1, None))
    with pytest.raises(ValueError, match="same number of dimensions"):
        ember.take_along_axis(x, np.array([0]), 1)
    with pytest.raises(IndexError, match="out of bounds"):
        ember.take_along_axis(x, np.array([[6]]), 1)


def test_put(device):
    h = np.arange(12, dtype=np.int64).reshape(3, 4)
    x = ember.asarray(h, device=device)
    ember.put(x, [0, -1, 5], [100, 200, 300])
    np.put(h, [0, -1, 5], [100, 200, 300])
    assert_array_equal_np(x, h)
    x.put([1, 2], 7.9)
    h.put([1, 2], 7.9)
    assert_array_equal_np(x, h)
    for mode in ["wrap", "clip"]:
        ember.put(x, [13, -20], [1, 2], mode=mode)
        np.put(h, [13, -20], [1, 2], mode=mode)
        assert_array_equal_np(x, h)
    with pytest.raises(IndexError, match="index 12 is out of bounds for axis 0 with size 12"):
        ember.put(x, [12], 0)
    ember.put(x, [[0, 1, 2], [3, 4, 5]], np.array([[-5], [-6]]))     # values repeat
    np.put(h, [[0, 1, 2], [3, 4, 5]], np.array([[-5], [-6]]))
    assert_array_equal_np(x, h)
    ember.put(x, [0, 11], [1, 2, 3])                                  # extra values ignored
    np.put(h, [0, 11], [1, 2, 3])
    assert_array_equal_np(x, h)
    # a non-contiguous destination goes through a temporary
    h2 = np.arange(12.0).reshape(3, 4)
    x2 = ember.asarray(h2, device=device)
    v = x2.T
    ember.put(v, [0, 1, 11], [-1, -2, -3])
    np.put(h2.T, [0, 1, 11], [-1, -2, -3])
    assert_array_equal_np(x2, h2)


@pytest.mark.parametrize("xy", [
    (np.arange(6.0).reshape(2, 3), np.float32(-1)),
    (np.arange(6, dtype=np.int8).reshape(2, 3), 5),
    (np.arange(6, dtype=np.uint8).reshape(2, 3), 2.5),
    (np.array([1 + 2j, np.nan, -0.0]), np.array([-0.0, np.inf, 3.0], np.float32)),
    (True, np.array([[False], [True]])),
    (3, 4.5),
    (np.array([1 + 2j, 3j, -1]), np.array([[5 - 1j], [7j]])),
    (np.complex64(2 + 3j), 1),
    (np.arange(3, dtype=np.float16), np.float16(-0.0)),
], ids=lambda v: repr(v)[:40])
def test_where(device, xy):
    hx, hy = xy
    c = np.array([[True, False, True], [False, False, True]])
    cc = ember.asarray(c, device=device)
    ex = ember.asarray(hx, device=device) if isinstance(hx, np.ndarray) else hx
    ey = ember.asarray(hy, device=device) if isinstance(hy, np.ndarray) else hy
    assert_array_equal_np(ember.where(cc, ex, ey), np.where(c, hx, hy))


def test_where_cond_kinds(device):
    h = np.array([0.0, -0.0, np.nan, 2.0])
    x = ember.asarray(h, device=device)
    assert_array_equal_np(ember.where(x, 1, 2), np.where(h, 1, 2))
    assert_array_equal_np(ember.where(x > 0, x, x * 2), np.where(h > 0, h, h * 2))
    for got, want in zip(ember.where(x), np.where(h)):
        assert_array_equal_np(got, want)
    with pytest.raises(ValueError, match="either both or neither"):
        ember.where(x, 1)
    with pytest.raises(ValueError, match="broadcast"):
        ember.where(x, np.zeros(3), 1)


def test_nonzero_family(device):
    rng = np.random.default_rng(5)
    for shape in [(7,), (3, 5), (2, 3, 4), (0, 3), (1,)]:
        h = (rng.random(shape) < 0.4) * rng.integers(1, 5, shape)
        x = ember.asarray(h, device=device)
        for got, want in zip(ember.nonzero(x), np.nonzero(h)):
            assert_array_equal_np(got, want)
        for got, want in zip(x.nonzero(), h.nonzero()):
            assert_array_equal_np(got, want)
        assert_array_equal_np(ember.flatnonzero(x), np.flatnonzero(h))
        assert_array_equal_np(ember.argwhere(x), np.argwhere(h))
    assert_array_equal_np(ember.flatnonzero(ember.asarray(H, device=device)[:, ::-2] % 3 == 0),
                          np.flatnonzero(H[:, ::-2] % 3 == 0))
    assert_array_equal_np(ember.argwhere(ember.asarray(5, device=device)), np.argwhere(5))
    with pytest.raises(ValueError, match="0d"):
        ember.nonzero(ember.asarray(1, device=device))


def test_repeat(device):
    h = np.arange(6, dtype=np.int16).reshape(2, 3)
    x = ember.asarray(h, device=device)
    assert_array_equal_np(ember.repeat(x, 2), np.repeat(h, 2))
    assert_array_equal_np(x.repeat(3, axis=1), h.repeat(3, axis=1))
    assert_array_equal_np(ember.repeat(x, [0, 2], axis=0), np.repeat(h, [0, 2], axis=0))
    assert_array_equal_np(ember.repeat(x, ember.asarray([1, 0, 2], device=device), axis=-1),
                          np.repeat(h, [1, 0, 2], axis=-1))
    assert_array_equal_np(ember.repeat(x, 0), np.repeat(h, 0))
    with pytest.raises(ValueError, match="negative"):
        ember.repeat(x, -1)
    with pytest.raises(ValueError, match="broadcast"):
        ember.repeat(x, [1, 2, 3], axis=0)
    with pytest.raises(ember.AxisError):
        ember.repeat(x, 1, axis=2)


def test_repeat_by_an_array_of_counts(device):
    """Counts as an ember array stay on its device: the result is NumPy's,
    and bad counts raise NumPy's errors (float counts, a negative one, a
    total past what an index can address, which an int64 sum would wrap)."""
    rng = np.random.default_rng(3)
    h = rng.standard_normal((5, 4))
    c = rng.integers(0, 4, 5)
    x = ember.asarray(h, device=device)
    assert_array_equal_np(ember.repeat(x, ember.asarray(c, device=device), axis=0),
                          np.repeat(h, c, axis=0))
    assert_array_equal_np(ember.repeat(x[0], ember.asarray(c[:4].astype(np.uint8), device=device)),
                          np.repeat(h[0], c[:4].astype(np.uint8)))
    with pytest.raises(TypeError, match="safe"):
        ember.repeat(x, ember.asarray(c.astype(np.float64), device=device), axis=0)
    with pytest.raises(ValueError, match="negative"):
        ember.repeat(x, ember.asarray(np.array([1, 2, -1, 0, 1]), device=device), axis=0)
    with pytest.raises(ValueError, match="too big"):
        ember.repeat(ember.asarray([1, 2], device=device),
                     ember.asarray(np.array([2**62, 2**62]), device=device))


def test_compress_extract(device):
    h = np.arange(12.0).reshape(3, 4)
    x = ember.asarray(h, device=device)
    assert_array_equal_np(ember.compress([True, False, True], x, axis=0),
                          np.compress([True, False, True], h, axis=0))
    assert_array_equal_np(x.compress([False, True], axis=1), h.compress([False, True], axis=1))
    assert_array_equal_np(ember.compress([1, 0, 1, 1, 0, 1], x), np.compress([1, 0, 1, 1, 0, 1], h))
    assert_array_equal_np(ember.extract(x % 3 == 0, x), np.extract(h % 3 == 0, h))


def test_put_along_axis(device):
    rng = np.random.default_rng(4)
    h = rng.standard_normal((4, 6))
    x = ember.asarray(h, device=device)
    idx = np.argmax(h, axis=1)[:, None]
    np.put_along_axis(h, idx, -9.0, axis=1)
    ember.put_along_axis(x, ember.asarray(idx, device=device), -9.0, 1)
    assert_array_equal_np(x, h)
    idx = np.array([[0, 3, 1, 2, 0, 1]])
    vals = np.arange(6.0)[None, :]
    np.put_along_axis(h, idx, vals, axis=0)
    ember.put_along_axis(x, idx, ember.asarray(vals, device=device), axis=0)
    assert_array_equal_np(x, h)
    with pytest.raises(IndexError, match="out of bounds for axis 0 with size 4"):
        ember.put_along_axis(x, np.array([[4]]), 1.0, axis=0)


def test_choose_select(device):
    a = np.array([[0, 2, 1], [1, 0, 2]])
    ch = [np.arange(6).reshape(2, 3), np.full((2, 3), -1.5), np.array([10, 20, 30], np.int8)]
    x = ember.asarray(a, device=device)
    got = ember.choose(x, [ember.asarray(c, device=device) for c in ch])
    assert_array_equal_np(got, np.choose(a, ch))
    assert_array_equal_np(x.choose([ember.asarray(c, device=device) for c in ch]), a.choose(ch))
    b = np.array([3, -1, 5])
    for mode in ["wrap", "clip"]:
        assert_array_equal_np(ember.choose(ember.asarray(b, device=device), ch[:2], mode=mode),
                              np.choose(b, ch[:2], mode=mode))
    with pytest.raises(ValueError, match="invalid entry in choice array"):
        ember.choose(ember.asarray(b, device=device), ch[:2])
    h = np.arange(10)
    xh = ember.asarray(h, device=device)
    conds = [h < 3, h > 7]
    choices = [h, h ** 2]
    assert_array_equal_np(ember.select([xh < 3, xh > 7], [xh, xh ** 2]),
                          np.select(conds, choices))
    assert_array_equal_np(ember.select([xh < 3, xh < 5], [xh, -xh], 1.5),
                          np.select([h < 3, h < 5], [h, -h], 1.5))
    with pytest.raises(ValueError, match="same length"):
        ember.select([xh < 3], [xh, xh])
    with pytest.raises(TypeError, match="invalid entry 0 in condlist"):
        ember.select([xh], [xh])


def test_scalar_bool_keys(device):
    x = ember.asarray(H, device=device)
    for key in [np.True_, np.False_, (np.True_, 0), (0, np.bool_(True), [1, 2])]:
        assert_array_equal_np(x[key], H[key])
    t = ember.asarray(True, device=device)
    assert_array_equal_np(x[t], H[True])
    assert_array_equal_np(x[np.int64(1), [0, 2]], H[np.int64(1), [0, 2]])
    h = H.copy()
    y = ember.asarray(h, device=device)
    y[True] = 3
    h[True] = 3
    assert_array_equal_np(y, h)


def test_bfloat16(device):
    x = ember.asarray(H, device=device).astype("bfloat16")
    ref = np.asarray(x.astype("float32"))
    assert_array_equal_np(x[[2, 0], :, [1, 4]].astype("float32"), ref[[2, 0], :, [1, 4]])
    assert_array_equal_np(x[H > 20].astype("float32"), ref[H > 20])
    x[[0, 1]] = 0.5
    ref[[0, 1]] = 0.5
    assert_array_equal_np(x.astype("float32"), ref)
    assert_array_equal_np(ember.where(H > 30, x, x[0, 0]).astype("float32"),
                          np.where(H > 30, ref, ref[0, 0]))
