"""ember.vectorize and ember.reduce (Numba's spellings) against NumPy, on
every device: scalar Python functions translated by ember.jit and run as
C-string kernels."""
import math
import os

import numpy as np
import pytest

import ember
from conftest import HAVE_NVRTC
from helpers import assert_array_equal_np

# Kernels made from here on also compile their CUDA twin with NVRTC when
# they are built for cpu (include/ember/ckernel.h).
if HAVE_NVRTC:
    os.environ["EMBER_CKERNEL_CHECK_CUDA"] = "1"


@ember.vectorize(["float32(float32, float32)", "float64(float64, float64)",
                  "int64(int64, int64)"])
def hyp(x, y):
    return math.sqrt(x * x + y * y) if x >= 0 else x - y


@ember.vectorize
def poly(x):
    return 3 * x * x - 2 * x + 1


@ember.vectorize(target="cpu")
def clip01(x):
    if x < 0:
        return 0.0
    elif x > 1:
        return 1.0
    return x


@ember.reduce
def vmax(a, b):
    return a if a > b else b


@ember.reduce
def vadd(a, b):
    return a + b


def arr(x, device):
    return ember.asarray(np.asarray(x), device=device)


def np_hyp(x, y):
    with np.errstate(invalid="ignore"):
        return np.where(x >= 0, np.sqrt(x * x + y * y), x - y)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_signatures_and_broadcasting(device, dt):
    x = np.linspace(-2, 3, 24).astype(dt).reshape(4, 6)
    y = np.linspace(1, 2, 6).astype(dt)
    r = hyp(arr(x, device), arr(y, device))
    assert r.dtype == ember.dtype(dt) and r.shape == (4, 6)
    np.testing.assert_allclose(ember.asnumpy(r), np_hyp(x, y), rtol=1e-6)
    # a Python scalar takes the array's signature
    r = hyp(arr(x, device), 2)
    np.testing.assert_allclose(ember.asnumpy(r), np_hyp(x, dt(2)), rtol=1e-6)


def test_signature_by_safe_cast(device):
    # int32 inputs: the first signature they reach safely is float64
    x = np.arange(-3, 5, dtype=np.int32)
    r = hyp(arr(x, device), arr(x, device))
    assert r.dtype == ember.float64
    xf = x.astype(np.float64)
    np.testing.assert_allclose(ember.asnumpy(r), np_hyp(xf, xf))
    # int64 matches its own signature exactly (integer semantics)
    x8 = x.astype(np.int64)
    r = hyp(arr(x8, device), arr(x8, device))
    assert r.dtype == ember.int64
    with pytest.raises(TypeError, match="not supported for the input types"):
        hyp(arr(np.arange(3, dtype=np.complex64), device),
            arr(np.arange(3, dtype=np.complex64), device))


def test_lazy_specialisation(device):
    for dt in (np.int32, np.int64, np.float32, np.float64):
        x = np.arange(-5, 20).astype(dt)
        assert_array_equal_np(poly(arr(x, device)),
                              (3 * x * x - 2 * x + 1).astype(dt), device)
    assert len(poly.types) >= 4


@pytest.mark.parametrize("n", [0, 1, 257, 100_003])
def test_sizes_and_out(device, n):
    x = np.linspace(-1, 1, n)
    out = ember.empty(n, dtype=ember.float64, device=device)
    assert poly(arr(x, device), out=out) is out
    np.testing.assert_allclose(ember.asnumpy(out), 3 * x * x - 2 * x + 1)
    r = poly(arr(x, device), out)
    assert r is out


def test_layouts(device):
    x = np.arange(60, dtype=np.float64).reshape(3, 4, 5) / 7
    ex = arr(x, device)
    for e, n in [(ex.transpose(2, 0, 1), x.transpose(2, 0, 1)),
                 (ex[:, ::2, ::-1], x[:, ::2, ::-1])]:
        np.testing.assert_allclose(ember.asnumpy(poly(e)),
                                   3 * n * n - 2 * n + 1)


def test_numpy_in_numpy_out(device):
    with ember.Device(device):
        x = np.linspace(-1, 2, 9)
        r = clip01(x)
        assert isinstance(r, np.ndarray)
        np.testing.assert_array_equal(r, np.clip(x, 0, 1))
        r = hyp(np.arange(3.0), np.arange(3.0))
        assert isinstance(r, np.ndarray)
        s = poly(2.0)
        assert s == 9.0
        # special values pass through the translated function
        special = np.array([np.nan, -0.0, np.inf], np.float64)
        np.testing.assert_array_equal(clip01(special),
                                      np.array([np.nan, 0.0, 1.0]))


def test_vectorize_errors(device):
    with pytest.raises(TypeError):
        @ember.vectorize(["float32(float32)"])
        def two(a, b):
            return a + b
    with pytest.raises(ValueError, match="target"):
        ember.vectorize(target="gpu")
    with pytest.raises(TypeError, match="takes 2 arguments"):
        hyp(arr(np.zeros(3), device))
    with pytest.raises(NotImplementedError, match="complex"):
        poly(arr(np.zeros(3, np.complex64), device))

    @ember.vectorize
    def bad(x):
        return {x: 1}
    with pytest.raises(ember.CompileError):
        bad(arr(np.zeros(3), device))


@pytest.mark.parametrize("dt", [np.int64, np.float64, np.int32])
def test_reduce_decorator(device, dt):
    x = ((np.arange(1000) * 7919) % 1013 - 500).astype(dt)
    ex = arr(x, device)
    assert vmax(ex) == x.max()
    assert vadd(ex) == x.sum()
    m = x.reshape(10, 100)
    em = arr(m, device)
    assert_array_equal_np(vmax.reduce(em, axis=0), m.max(axis=0), device)
    assert_array_equal_np(vmax.reduce(em, axis=1), m.max(axis=1), device)
    # the reduction stays in the array's dtype (NumPy's add would widen)
    assert_array_equal_np(vadd.reduce(em), m.sum(axis=0).astype(dt), device)
    assert_array_equal_np(vadd.reduce(em, axis=None),
                          np.array(m.sum()).astype(dt), device)
    assert_array_equal_np(vmax.reduce(em, axis=1, keepdims=True),
                          m.max(axis=1, keepdims=True), device)
    assert_array_equal_np(vmax.reduce(em, axis=1, initial=dt(400)),
                          np.maximum(m.max(axis=1), dt(400)), device)


def test_vectorized_ufunc_reduce(device):
    m = (np.arange(60, dtype=np.float64) % 7).reshape(6, 10)
    r = hyp.reduce(arr(m, device), axis=1)
    exp = m[:, 0]
    for j in range(1, 10):
        exp = np_hyp(exp, m[:, j])
    np.testing.assert_allclose(ember.asnumpy(r), exp, rtol=1e-12)
    with pytest.raises(ValueError, match="binary"):
        poly.reduce(arr(m, device))


def test_reduce_empty_and_numba_call(device):
    with ember.Device(device):
        assert vadd(np.zeros(0)) == 0
        assert vadd(np.zeros(0), init=5) == 5
        x = np.arange(10.0)
        assert vadd(x, size=4) == 6.0
        res = ember.zeros(1, dtype=ember.float64)
        assert vadd(ember.asarray(x), res=res) is None
        assert ember.asnumpy(res)[0] == 45.0
        r = vmax.reduce(np.zeros((0, 3)), axis=0, initial=-1.0)
        np.testing.assert_array_equal(r, np.full(3, -1.0))
        with pytest.raises(ValueError, match="zero-size"):
            vmax.reduce(ember.zeros((0, 3)), axis=0)
        with pytest.raises(ember.AxisError):
            vmax.reduce(ember.zeros((2, 3)), axis=2)


# ---- guvectorize ----------------------------------------------------------

@ember.guvectorize(["void(float64[:], float64[:], float64[:])",
                    "void(float32[:], float32[:], float32[:])"],
                   "(n),(n)->()")
def gdot(a, b, res):
    acc = 0.0
    for i in range(a.shape[0]):
        acc += a[i] * b[i]
    res[0] = acc


@ember.guvectorize(["void(float64[:, :], float64[:], float64[:])"],
                   "(m,n),(n)->(m)")
def matvec(A, v, out):
    for i in range(A.shape[0]):
        s = 0.0
        for j in range(A.shape[1]):
            s += A[i, j] * v[j]
        out[i] = s


@ember.guvectorize(["void(int64[:], int64[:])"], "(n)->(n)", target="cpu")
def running(a, out):
    s = 0
    for i in range(a.shape[0]):
        s += a[i]
        out[i] = s


def test_guvectorize_dot(device):
    x = np.arange(24, dtype=np.float64).reshape(2, 3, 4) / 3
    y = np.arange(4, dtype=np.float64)
    r = gdot(arr(x, device), arr(y, device))
    assert r.shape == (2, 3) and r.dtype == ember.float64
    np.testing.assert_allclose(ember.asnumpy(r), (x * y).sum(-1))
    r32 = gdot(arr(x.astype(np.float32), device),
               arr(y.astype(np.float32), device))
    assert r32.dtype == ember.float32
    np.testing.assert_allclose(ember.asnumpy(r32), (x * y).sum(-1), rtol=1e-5)
    # int32 inputs reach float64 by a safe cast; strided inputs
    xi = np.arange(30, dtype=np.int32).reshape(5, 6)
    r = gdot(arr(xi, device)[:, ::2], arr(xi, device)[:, 1::2])
    np.testing.assert_allclose(ember.asnumpy(r),
                               (xi[:, ::2] * xi[:, 1::2]).sum(-1))
    # out= given; an empty core gives the loop's initial value
    out = ember.empty((2, 3), dtype=ember.float64, device=device)
    assert gdot(arr(x, device), arr(y, device), out=out) is out
    z = gdot(arr(np.zeros((3, 0)), device), arr(np.zeros(0), device))
    assert_array_equal_np(z, np.zeros(3), device)


def test_guvectorize_matvec_and_running(device):
    A = np.arange(2 * 3 * 4, dtype=np.float64).reshape(2, 3, 4)
    v = np.arange(4, dtype=np.float64)
    np.testing.assert_allclose(ember.asnumpy(matvec(arr(A, device),
                                                    arr(v, device))), A @ v)
    a = np.arange(12, dtype=np.int64).reshape(3, 4)
    assert_array_equal_np(running(arr(a, device)), np.cumsum(a, axis=1),
                          device)
    with ember.Device(device):
        r = running(a)    # NumPy in, NumPy out (computed on cpu)
        assert isinstance(r, np.ndarray)
        np.testing.assert_array_equal(r, np.cumsum(a, axis=1))


def test_guvectorize_errors(device):
    with pytest.raises(ValueError, match="core dimension 'n'"):
        gdot(arr(np.zeros(3), device), arr(np.zeros(4), device))
    with pytest.raises(ValueError, match="dimension"):
        matvec(arr(np.zeros(3), device), arr(np.zeros(3), device))
    with pytest.raises(ValueError, match="layout"):
        ember.guvectorize(["void(float64[:], float64[:])"], "(n)->")(
            lambda a, b: None)
    with pytest.raises(TypeError, match="arguments"):
        ember.guvectorize(["void(float64[:])"], "(n)->(n)")(
            lambda a, b: None)
    with pytest.raises(TypeError, match="not supported"):
        gdot(arr(np.zeros(3, np.complex128), device),
             arr(np.zeros(3, np.complex128), device))
    out = ember.empty(4, dtype=ember.float64, device=device)
    with pytest.raises(ValueError, match="output 0 has shape"):
        gdot(arr(np.zeros((3, 2)), device), arr(np.zeros(2), device),
             out=out)
