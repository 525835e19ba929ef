"""linspace, logspace, eye, identity, tri, tril, triu and meshgrid compared
with NumPy on every device. linspace's values are NumPy's bit for bit (the
same float64 formula, computed on the host)."""
import numpy as np
import pytest

import ember
from helpers import assert_array_equal_np


def check(x, expected, device=None):
    assert_array_equal_np(x, expected, device)


# ---- linspace, logspace --------------------------------------------------------

LIN_ARGS = [(0, 1), (-3.3, 7.1, 17), (1, 1, 5), (5, 2, 1), (2, 5, 0), (0, 1e-320, 4),
            (10, -10, 101), (0.1, 0.7, 3), (-0.0, 0.0, 3), (0, np.inf, 3),
            (1e300, -1e300, 7), (3, 8, 2)]


@pytest.mark.parametrize("args", LIN_ARGS)
@pytest.mark.parametrize("endpoint", [True, False])
def test_linspace_exact(device, args, endpoint):
    with np.errstate(all="ignore"):
        want = np.linspace(*args, endpoint=endpoint)
    check(ember.linspace(*args, endpoint=endpoint, device=device), want, device)


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint8", "float16", "float32",
                                   "complex64", "complex128", "bool"])
def test_linspace_dtypes(device, dtype):
    for args in [(-3.3, 7.1, 17), (0, 10, 7), (2.5, -2.5, 6)]:
        if dtype == "uint8" and min(args[:2]) < 0:
            continue
        check(ember.linspace(*args, dtype=dtype, device=device),
              np.linspace(*args, dtype=dtype))


def test_linspace_retstep_complex_axis(device):
    r, s = ember.linspace(0, 10, 7, retstep=True, device=device)
    r2, s2 = np.linspace(0, 10, 7, retstep=True)
    check(r, r2)
    assert s == s2 and isinstance(s, float)
    _, s = ember.linspace(0, 1, 1, retstep=True, device=device)
    assert np.isnan(s)
    check(ember.linspace(1 + 2j, -3 + 0.5j, 9, device=device),
          np.linspace(1 + 2j, -3 + 0.5j, 9))
    check(ember.linspace(1 + 2j, 5, 4, endpoint=False, device=device),
          np.linspace(1 + 2j, 5, 4, endpoint=False))
    check(ember.linspace(0, 1, 5, axis=-1, device=device), np.linspace(0, 1, 5, axis=-1))
    check(ember.linspace(np.float64(2), ember.asarray(3.0, device=device), 4, device=device),
          np.linspace(2, 3, 4))
    big = ember.linspace(-1, 1, 100_001, device=device)
    check(big, np.linspace(-1, 1, 100_001))


def test_linspace_errors(device):
    with pytest.raises(ValueError, match="must be non-negative"):
        ember.linspace(0, 1, -1, device=device)
    with pytest.raises(TypeError):
        ember.linspace(0, 1, 2.5, device=device)
    with pytest.raises(ember.AxisError):
        ember.linspace(0, 1, 3, axis=1, device=device)
    with pytest.raises(TypeError, match="complex"):
        ember.linspace(0j, 1, 3, dtype="float64", device=device)
    with pytest.raises(ValueError, match="broadcast"):
        ember.linspace([0, 1], [1, 2, 3], 3, device=device)
    with pytest.raises(ember.AxisError):
        ember.linspace([0, 1], 2, 3, axis=2, device=device)


ARRAY_ENDS = [([0, 1], 5), (np.array([0., -3.3, 2]), np.array([[1.], [7.1]])),
              ([1, 2], [1, 3]), (np.float32([0.1, 0.2]), 5.0),
              (np.float16([1, 2]), np.float16(3)), ([1 + 1j, 2], 0),
              (np.arange(3, dtype=np.int8), 300),
              (np.array([5, 2], np.uint8), np.array([2, 5], np.uint8))]


@pytest.mark.parametrize("ends", [(np.float32(0.1), np.float32(0.7)), (np.float16(1), 3),
                                  (np.float32(1), 2.0), (0, np.complex64(1j))])
def test_linspace_numpy_scalars(device, ends):
    """NumPy float32/float16 scalars make NumPy compute in their type."""
    for num in (1, 7):
        r = ember.linspace(*ends, num, device=device)
        want = np.linspace(*ends, num)
        if want.dtype.kind == "c":
            np.testing.assert_allclose(ember.asnumpy(r), want, rtol=1e-6)
            assert r.dtype == want.dtype
        else:
            check(r, want, device)


@pytest.mark.parametrize("ends", ARRAY_ENDS)
@pytest.mark.parametrize("num", [0, 1, 4, 17])
def test_linspace_arrays(device, ends, num):
    st, sp = (ember.asarray(e, device=device) if isinstance(e, np.ndarray) else e
              for e in ends)
    for ep in (True, False):
        for ax in (0, -1):
            r = ember.linspace(st, sp, num, endpoint=ep, axis=ax, device=device)
            want = np.linspace(*ends, num, endpoint=ep, axis=ax)
            if want.dtype.kind == "c":
                # a GPU compiler may fuse the complex multiply's products
                # into fma (one rounding less than NumPy's)
                assert r.dtype == want.dtype and r.shape == want.shape
                np.testing.assert_allclose(ember.asnumpy(r), want, rtol=1e-15)
            else:
                check(r, want, device)
    if not np.iscomplexobj(np.asarray(ends[0])):
        got, gstep = ember.linspace(st, sp, num, retstep=True, dtype="int32",
                                    device=device)
        want, wstep = np.linspace(*ends, num, retstep=True, dtype="int32")
        check(got, want)
        if num > 1:
            check(gstep, np.asarray(wstep))


@pytest.mark.parametrize("args,kw", [((0, 3, 7), {}), ((0, 3, 7), {"base": 2}),
                                     ((-2, 2, 5), {"endpoint": False}),
                                     ((1, 0, 4), {"base": 0.5}), ((0, 1, 0), {})])
def test_logspace(device, args, kw):
    got = ember.logspace(*args, device=device, **kw)
    want = np.logspace(*args, **kw)
    assert got.dtype == want.dtype and got.shape == want.shape
    # pow is the C library's here and NumPy's own SIMD loop there
    np.testing.assert_allclose(ember.asnumpy(got), want, rtol=1e-15)
    got = ember.logspace(*args, dtype="float32", device=device, **kw)
    np.testing.assert_allclose(ember.asnumpy(got), np.logspace(*args, dtype="float32", **kw),
                               rtol=1e-6)
    assert got.dtype == "float32"


@pytest.mark.parametrize("args,kw", [((1, 1000, 4), {}), ((-1, -1000, 5), {}),
                                     ((2, 1e-3, 6), {"endpoint": False}),
                                     ((3, 3, 3), {}), ((1, 10, 0), {}), ((1, 10, 1), {}),
                                     ((-2, 8, 3), {})])
def test_geomspace(device, args, kw):
    with np.errstate(all="ignore"):
        want = np.geomspace(*args, **kw)
    got = ember.geomspace(*args, device=device, **kw)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(ember.asnumpy(got), want, rtol=1e-14)
    got = ember.geomspace(*args, dtype="float32", device=device, **kw)
    assert got.dtype == "float32"
    with pytest.raises(ValueError, match="cannot include zero"):
        ember.geomspace(0, 10, 3, device=device)
    with pytest.raises(NotImplementedError):
        ember.geomspace(1j, 10, 3, device=device)


# ---- eye, identity, tri, tril, triu -------------------------------------------

@pytest.mark.parametrize("args", [(3,), (3, 5), (3, 5, 1), (4, 2, -1), (3, 3, 5),
                                  (3, 3, -3), (0,), (0, 4), (1, 1)])
def test_eye_tri(device, args):
    check(ember.eye(*args, device=device), np.eye(*args), device)
    check(ember.tri(*args, device=device), np.tri(*args), device)
    for dt in ["bool", "int8", "uint64", "float16", "complex64"]:
        check(ember.eye(*args, dtype=dt, device=device), np.eye(*args, dtype=dt))
        check(ember.tri(*args, dtype=dt, device=device), np.tri(*args, dtype=dt))


def test_eye_order_identity(device):
    e = ember.eye(4, 3, 1, dtype="int8", order="F", device=device)
    check(e, np.eye(4, 3, 1, dtype="int8", order="F"))
    assert e.flags.f_contiguous
    check(ember.eye(3, k=-1, M=4, device=device), np.eye(3, k=-1, M=4))
    check(ember.identity(3, dtype=bool, device=device), np.identity(3, dtype=bool))
    check(ember.identity(5, device=device), np.identity(5))
    check(ember.eye(300, device=device), np.eye(300))
    check(ember.tri(3, 4, 10**15, device=device), np.tri(3, 4, 10**15))
    with pytest.raises(ValueError, match="negative"):
        ember.eye(-1, device=device)
    with pytest.raises(ValueError, match="negative"):
        ember.tri(2, -2, device=device)
    with pytest.raises(ValueError, match="order"):
        ember.eye(2, order="K", device=device)


@pytest.mark.parametrize("k", [-3, -1, 0, 1, 4])
@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (2, 3, 4), (0, 3), (5,)])
def test_tril_triu(device, k, shape):
    x = np.arange(1, int(np.prod(shape)) + 1, dtype=np.float32).reshape(shape) - 5.5
    check(ember.tril(ember.asarray(x, device=device), k), np.tril(x, k))
    check(ember.triu(ember.asarray(x, device=device), k), np.triu(x, k))


def test_tril_layouts_dtypes(device):
    x = np.arange(30).reshape(5, 6)
    ex = ember.asarray(x, device=device)
    check(ember.tril(ex.T), np.tril(x.T))
    check(ember.triu(ex[::-1, ::2], 1), np.triu(x[::-1, ::2], 1))
    for dt in ["bool", "complex128", "uint8"]:
        y = x.astype(dt)
        check(ember.tril(ember.asarray(y, device=device), -1), np.tril(y, -1))
    with pytest.raises(ValueError):
        ember.tril(ember.asarray(np.float64(1), device=device))


# ---- meshgrid -----------------------------------------------------------------

@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("copy", [True, False])
def test_meshgrid(device, indexing, sparse, copy):
    xs = [np.arange(3), np.linspace(0, 1, 4), np.array([True, False])]
    for n in (1, 2, 3):
        got = ember.meshgrid(*[ember.asarray(z, device=device) for z in xs[:n]],
                             indexing=indexing, sparse=sparse, copy=copy)
        want = np.meshgrid(*xs[:n], indexing=indexing, sparse=sparse, copy=copy)
        assert isinstance(got, list) and len(got) == len(want)
        for a, b in zip(got, want):
            check(a, b, device)
            if copy:
                assert a.base is None


def test_meshgrid_more(device):
    assert ember.meshgrid() == []
    m = np.arange(6).reshape(2, 3)                       # inputs are flattened
    for a, b in zip(ember.meshgrid(ember.asarray(m, device=device), [1, 2]),
                    np.meshgrid(m, [1, 2])):
        check(a, b)
    with pytest.raises(ValueError, match="indexing"):
        ember.meshgrid(ember.asarray([1], device=device), indexing="xx")
