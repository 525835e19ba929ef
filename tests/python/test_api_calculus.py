"""ember._api.calculus and window against NumPy on every device:
convolve, correlate, vander, gradient, interp, trapezoid, diff, ediff1d,
unwrap and the window functions."""
import numpy as np
import pytest

import ember
from helpers import assert_array_equal_np


def E(a, device):
    return ember.asarray(np.asarray(a), device=device)


def close(got, want, device, rtol=1e-12, atol=0):
    want = np.asarray(want)
    assert isinstance(got, ember.ndarray), type(got)
    assert got.device == ember.Device(device)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(ember.asnumpy(got), want, rtol=rtol, atol=atol)


SIZES = [(1, 1), (5, 3), (3, 5), (6, 4), (4, 6), (7, 7), (8, 3), (3, 8), (10, 1)]


@pytest.mark.parametrize("n,m", SIZES)
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_convolve_correlate_float(device, n, m, mode):
    rng = np.random.default_rng(n * 10 + m)
    a, v = rng.standard_normal(n), rng.standard_normal(m)
    close(ember.convolve(E(a, device), E(v, device), mode), np.convolve(a, v, mode), device)
    close(ember.correlate(E(a, device), E(v, device), mode), np.correlate(a, v, mode),
          device)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint16, np.int64, np.float32,
                                   np.bool_, np.complex128, np.complex64])
def test_convolve_dtypes(device, dtype):
    rng = np.random.default_rng(3)
    a = (rng.standard_normal(9) * 20).astype(dtype)
    v = (rng.standard_normal(4) * 20).astype(dtype)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * (rng.standard_normal(9) * 3).astype(dtype)
        v = v - 2j * (rng.standard_normal(4)).astype(dtype)
    for mode in ("full", "same", "valid"):
        want = np.convolve(a, v, mode)
        got = ember.convolve(E(a, device), E(v, device), mode)
        if np.dtype(dtype).kind in "iub":
            assert_array_equal_np(got, want, device)
        else:
            close(got, want, device, rtol=1e-5 if dtype in (np.float32, np.complex64)
                  else 1e-12, atol=1e-4)
        want = np.correlate(a, v, mode)
        got = ember.correlate(E(a, device), E(v, device), mode)
        if np.dtype(dtype).kind in "iub":
            assert_array_equal_np(got, want, device)
        else:
            close(got, want, device, rtol=1e-5 if dtype in (np.float32, np.complex64)
                  else 1e-12, atol=1e-4)


def test_convolve_mixed_and_errors(device):
    a, v = np.arange(5, dtype=np.int16), np.array([0.5, 2.0], dtype=np.float32)
    close(ember.convolve(E(a, device), E(v, device)), np.convolve(a, v), device, 1e-6)
    with pytest.raises(ValueError, match="a cannot be empty"):
        ember.convolve(E(np.zeros(0), device), E(v, device))
    with pytest.raises(ValueError, match="v cannot be empty"):
        ember.convolve(E(a, device), E(np.zeros(0), device))
    with pytest.raises(ValueError, match="mode"):
        ember.convolve(E(a, device), E(v, device), "bad")


@pytest.mark.parametrize("dtype", [np.int32, np.uint8, np.float32, np.float64,
                                   np.complex128, np.bool_])
@pytest.mark.parametrize("N,increasing", [(None, False), (4, True), (1, False), (0, False)])
def test_vander(device, dtype, N, increasing):
    x = np.array([1, 2, 3, 5], dtype=dtype)
    if dtype == np.complex128:
        x = x + 1j
    want = np.vander(x, N, increasing)
    got = ember.vander(E(x, device), N, increasing)
    if np.dtype(dtype).kind == "f" or np.dtype(dtype).kind == "c":
        close(got, want, device, rtol=1e-14)
    else:
        assert_array_equal_np(got, want, device)
    with pytest.raises(ValueError, match="one-dimensional"):
        ember.vander(E(np.ones((2, 2)), device))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient(device, dtype, edge_order):
    f = np.array([[1, 2, 4, 7, 11, 16], [0, 3, 1, 5, 2, 8], [9, 3, 6, 1, 0, 2]],
                 dtype=dtype)
    rtol = 1e-5 if dtype == np.float32 else 1e-12
    ef = E(f, device)
    for args, kw in [((), {}), ((2.0,), {}), ((2.0, 0.5), {}), ((), {"axis": 1}),
                     ((3.0,), {"axis": 0}),
                     ((np.array([0.0, 1.0, 3.0]), np.array([0, 1, 1.5, 3.5, 4, 6.0])), {}),
                     ((np.array([0.0, 1.0, 1.5, 3.5, 4, 6.0]),), {"axis": -1})]:
        want = np.gradient(f, *args, edge_order=edge_order, **kw)
        eargs = [E(a, device) if isinstance(a, np.ndarray) else a for a in args]
        got = ember.gradient(ef, *eargs, edge_order=edge_order, **kw)
        if isinstance(want, tuple):
            assert isinstance(got, tuple) and len(got) == len(want)
            for g, w in zip(got, want):
                close(g, w, device, rtol)
        else:
            close(got, want, device, rtol)
    with pytest.raises(ValueError, match="too small"):
        ember.gradient(E(np.ones(2), device), edge_order=2)


def test_interp(device):
    xp = np.array([0.0, 1.0, 2.5, 4.0, 7.0])
    fp = np.array([3.0, -1.0, 2.0, 2.0, 10.0])
    x = np.array([-1.0, 0.0, 0.3, 1.0, 2.0, 2.5, 3.9, 4.0, 6.99, 7.0, 8.0, np.nan])
    close(ember.interp(E(x, device), E(xp, device), E(fp, device)),
          np.interp(x, xp, fp), device, 1e-15)
    close(ember.interp(E(x, device), E(xp, device), E(fp, device), left=-5, right=5),
          np.interp(x, xp, fp, left=-5, right=5), device, 1e-15)
    x2 = x[:-1].reshape(1, 11)[:, :10].reshape(2, 5).astype(np.float32)
    close(ember.interp(E(x2, device), E(xp, device), E(fp, device)),
          np.interp(x2, xp, fp), device, 1e-15)
    # one sample point; complex values; infinities in fp
    close(ember.interp(E(x[:-1], device), E([1.5], device), E([4.0], device)),
          np.interp(x[:-1], [1.5], [4.0]), device)
    fpc = fp + 1j * fp[::-1]
    close(ember.interp(E(x, device), E(xp, device), E(fpc, device)),
          np.interp(x, xp, fpc), device, 1e-15)
    fpi = np.array([0.0, np.inf, 1.0, 1.0, 2.0])
    close(ember.interp(E(x, device), E(xp, device), E(fpi, device)),
          np.interp(x, xp, fpi), device, 1e-15)
    # periodic
    xpp = np.array([190, -190, 350, -350], dtype=float)
    fpp = np.array([5, 10, 3, 4], dtype=float)
    xs = np.array([-180, -170, -185, 185, -10, -5, 0, 365], dtype=float)
    close(ember.interp(E(xs, device), E(xpp, device), E(fpp, device), period=360),
          np.interp(xs, xpp, fpp, period=360), device, 1e-14)
    with pytest.raises(ValueError, match="empty"):
        ember.interp(E(x, device), E(np.zeros(0), device), E(np.zeros(0), device))
    with pytest.raises(TypeError, match="safe"):
        ember.interp(E(x + 1j, device), E(xp, device), E(fp, device))
    with pytest.raises(ValueError, match="same length"):
        ember.interp(E(x, device), E(xp, device), E(fp[:3], device))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32])
def test_trapezoid(device, dtype):
    y = np.arange(12).reshape(3, 4).astype(dtype) ** 2
    for kw in [{}, {"dx": 0.5}, {"axis": 0}, {"x": np.array([0.0, 1, 3, 4])},
               {"x": np.array([0.0, 2, 3]), "axis": 0}]:
        want = np.trapezoid(y, **kw)
        ekw = {k: (E(v, device) if isinstance(v, np.ndarray) else v) for k, v in kw.items()}
        close(ember.trapezoid(E(y, device), **ekw), want, device,
              1e-6 if dtype == np.float32 else 1e-14)


@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.uint8])
def test_diff_ediff1d(device, dtype):
    a = np.array([[1, 5, 2, 9], [3, 3, 7, 0]], dtype=dtype)
    assert_array_equal_np(ember.diff(E(a, device), prepend=0, append=E([[1], [2]], device)),
                          np.diff(a, prepend=0, append=[[1], [2]]), device)
    assert_array_equal_np(ember.ediff1d(E(a, device)), np.ediff1d(a), device)
    b = np.array([7, 8], dtype=dtype)
    end = 9 if dtype != np.uint8 else np.array([9], dtype=dtype)
    assert_array_equal_np(ember.ediff1d(E(a, device), to_begin=E(b, device), to_end=end),
                          np.ediff1d(a, to_begin=b, to_end=end), device)
    if dtype == np.uint8:      # a Python int is int64 here, as in NumPy
        with pytest.raises(TypeError, match="to_end"):
            ember.ediff1d(E(a, device), to_end=9)
    if dtype != np.float32:
        with pytest.raises(TypeError, match="same_kind"):
            ember.ediff1d(E(a, device), to_end=E([1.5], device))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_unwrap(device, dtype):
    p = np.array([0.0, 3.0, 6.5, 0.2, -3.3, -6.8, 2.0, 9.5], dtype=dtype)
    rtol = 1e-5 if dtype == np.float32 else 1e-13
    close(ember.unwrap(E(p, device)), np.unwrap(p), device, rtol, 1e-6)
    close(ember.unwrap(E(p, device), discont=4.0), np.unwrap(p, discont=4.0), device,
          rtol, 1e-6)
    m = np.stack([p, p[::-1]])
    close(ember.unwrap(E(m, device), axis=0), np.unwrap(m, axis=0), device, rtol, 1e-6)
    close(ember.unwrap(E(m, device), period=4), np.unwrap(m, period=4), device, rtol,
          1e-6)
    # the fused correction kernel computes NumPy's steps in NumPy's dtype; the
    # running sum of the corrections is a parallel scan on the GPU, whose
    # order of additions differs from NumPy's, so the sums agree to rounding
    rng = np.random.default_rng(0)
    q = (rng.standard_normal(1000) * 5).astype(dtype)
    sum_atol = 1e-3 if dtype == np.float32 else 1e-11
    for kw in ({}, {"period": 4}, {"discont": 4.0}, {"period": -3.0}):
        close(ember.unwrap(E(q, device), **kw), np.unwrap(q, **kw), device, rtol,
              sum_atol)
    h = q.astype(np.float16)[:50]          # float16 takes the ufunc path
    close(ember.unwrap(E(h, device)), np.unwrap(h), device, 1e-2, 1e-2)
    i = np.array([0, 1, 5, 9, 2, 7, 3], dtype=np.int64)
    assert_array_equal_np(ember.unwrap(E(i, device), period=4), np.unwrap(i, period=4),
                          device)
    assert_array_equal_np(ember.unwrap(E(i, device), period=5), np.unwrap(i, period=5),
                          device)


@pytest.mark.parametrize("M", [-1, 0, 1, 2, 5, 12, 51])
def test_windows(device, M):
    with ember.Device(device):
        for name in ("bartlett", "blackman", "hamming", "hanning"):
            close(getattr(ember, name)(M), getattr(np, name)(M), device, 1e-13, 1e-15)
        for beta in (0.0, 5.0, 14.0, 40.0):
            close(ember.kaiser(M, beta), np.kaiser(M, beta), device, 1e-12, 1e-15)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.float16])
def test_sinc_i0_fix(device, dtype):
    x = np.array([-3.5, -1.0, -0.25, 0.0, 0.5, 1.0, 2.75, 7.0, 12.0], dtype=dtype)
    rtol = {np.float64: 1e-13, np.float32: 1e-6, np.float16: 1e-3}.get(dtype, 1e-13)
    close(ember.sinc(E(x, device)), np.sinc(x), device, rtol, 1e-7)
    # I0 by its series is within a few ulps of NumPy's Chebyshev fit (which
    # computes float32 in float32, so that dtype gets a float32 tolerance)
    # (NumPy's float16 i0(12) overflows inside its float16 steps; the value,
    # 18950, fits float16, and ember returns it)
    xi = x[:-1] if dtype == np.float16 else x
    close(ember.i0(E(xi, device)), np.i0(xi), device, rtol, 0)
    big = np.array([20.0, 100.0, 700.0])
    close(ember.i0(E(big, device)), np.i0(big), device, 1e-12)
    with pytest.raises(TypeError, match="complex"):
        ember.i0(E(np.array([1j]), device))
    xf = np.array([-2.5, -0.5, 0.0, 1.5, 3.9], dtype=dtype)
    assert_array_equal_np(ember.fix(E(xf, device)), np.fix(xf), device)
