"""ember.fft against numpy.fft. On cpu the transforms are NumPy's pocketfft
on ember's own memory, so values are compared exactly; on cuda they are
cuFFT's, compared within the dtype's rounding. The cuda composition
(lengths, axes, norms, the Hermitian transforms) is also run on cpu over a
NumPy stand-in for its one C call. The frequency and shift helpers are
ember compositions on every device."""
import numpy as np
import pytest

import ember
from helpers import assert_array_equal_np, run_python

RNG = np.random.default_rng(20)


def sample(shape, dtype):
    x = RNG.standard_normal(shape) * 4
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.standard_normal(shape)
    return x.astype(dtype)


ONE_AXIS = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
N_AXES = ["fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn", "rfftn", "irfftn"]
REAL_IN = {"rfft", "ihfft", "rfft2", "rfftn"}


def _input(name, shape, dtype):
    if name in REAL_IN and np.dtype(dtype).kind == "c":
        dtype = {"complex64": "float32", "complex128": "float64"}[str(dtype)]
    return sample(shape, dtype)


def close(got, want, exact, half=False, device=None):
    """Exact on cpu (NumPy's own code); else within the rounding of the
    result's precision, relative to its largest value (a float16 input's
    within float16's: NumPy rounds its norm factor to float16). The result
    stays on its input's device, whatever the default device is."""
    if device is not None:
        assert got.device == ember.Device(device), (got.device, device)
    if exact:
        return assert_array_equal_np(got, want)
    got = ember.asnumpy(got)
    want = np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, \
        (got.dtype, want.dtype, got.shape, want.shape)
    tol = 2e-3 if half or want.dtype == np.float16 else \
        1e-5 if want.dtype in (np.float32, np.complex64) else 1e-12
    scale = max(np.abs(want).max(initial=0), 1.0)
    np.testing.assert_allclose(got, want, rtol=0, atol=tol * scale)


ONE_AXIS_ARGS = [{}, {"n": 7}, {"n": 16, "axis": 0}, {"norm": "ortho"},
                 {"norm": "forward", "axis": -2}]
N_AXES_ARGS = [{}, {"s": (4, 8), "axes": (0, 2)},
               {"axes": (1,), "norm": "ortho"},
               {"axes": (2, 0, 1), "norm": "forward"}, {"s": (3, 7), "axes": (1, 2)},
               {"axes": (0, 0, 2)}, {"axes": (-1, -2, -3, -1)}]


@pytest.mark.parametrize("name", ONE_AXIS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64",
                                   "complex128", "int32", "float16"])
def test_one_axis(device, name, dtype):
    x = _input(name, (3, 10), dtype)
    f, g = getattr(ember.fft, name), getattr(np.fft, name)
    e = ember.asarray(x, device=device)
    half = x.dtype == np.float16
    for kw in ONE_AXIS_ARGS:
        close(f(e, **kw), g(x, **kw), device == "cpu", half, device)
    # a strided view is read in place
    close(f(e[:, ::2]), g(x[:, ::2]), device == "cpu", half)


@pytest.mark.parametrize("name", N_AXES)
@pytest.mark.parametrize("dtype", ["float32", "complex128"])
def test_n_axes(device, name, dtype):
    x = _input(name, (4, 6, 5), dtype)
    f, g = getattr(ember.fft, name), getattr(np.fft, name)
    e = ember.asarray(x, device=device)
    for kw in N_AXES_ARGS:
        close(f(e, **kw), g(x, **kw), device == "cpu", device=device)


def test_out_and_errors():
    x = sample((8,), "complex128")
    e = ember.asarray(x, device="cpu")
    out = ember.empty((8,), dtype=ember.complex128, device="cpu")
    r = ember.fft.fft(e, out=out)
    assert r is out
    assert_array_equal_np(out, np.fft.fft(x))
    with pytest.raises(TypeError, match="out must be an ember.ndarray"):
        ember.fft.fft(e, out=np.empty(8, complex))
    # NumPy's own errors, from NumPy's own checks
    for f, kw in [(ember.fft.fft, {"n": 0}), (ember.fft.fft, {"norm": "bad"}),
                  (ember.fft.fftn, {"s": (2, 3), "axes": (0,)})]:
        with pytest.raises(ValueError):
            f(e, **kw)
    with pytest.raises(Exception) as info:
        ember.fft.fft(e, axis=3)
    assert isinstance(info.value, (IndexError, ValueError))


@pytest.mark.parametrize("n", [1, 2, 7, 8, 33])
@pytest.mark.parametrize("d", [1.0, 0.25, 3])
def test_frequencies(device, n, d):
    for f, g in [(ember.fft.fftfreq, np.fft.fftfreq),
                 (ember.fft.rfftfreq, np.fft.rfftfreq)]:
        r = f(n, d, device=device)
        assert r.device == ember.Device(device)
        assert_array_equal_np(r, g(n, d))
        assert f(n, d, device=device, dtype="float32").dtype == ember.float32
    with pytest.raises(ValueError, match="integer"):
        ember.fft.fftfreq(2.5)
    with pytest.raises(ValueError, match="floating-point"):
        ember.fft.fftfreq(4, dtype="int32")


@pytest.mark.parametrize("shape, axes", [((10,), None), ((9,), None),
                                         ((3, 4), None), ((3, 4), 0),
                                         ((5, 6, 7), (0, 2)), ((5, 6), -1)])
def test_shifts(device, shape, axes):
    x = np.arange(np.prod(shape)).reshape(shape)
    e = ember.asarray(x, device=device)
    assert_array_equal_np(ember.fft.fftshift(e, axes), np.fft.fftshift(x, axes))
    assert_array_equal_np(ember.fft.ifftshift(e, axes), np.fft.ifftshift(x, axes))
    back = ember.fft.ifftshift(ember.fft.fftshift(e, axes), axes)
    assert_array_equal_np(back, x)


def test_reachable_as_attribute():
    # `import cupy as cp; cp.fft.fft(...)` with only the import changed
    r = run_python("-c", "import ember as cp; "
                   "print(cp.fft.fft(cp.ones(4, device='cpu')).dtype)")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "complex128"


def _numpy_exec(calls):
    """em_fft_exec's contract on cpu arrays, by NumPy: unnormalised, over
    the last rank axes of C-contiguous arrays, dtypes and shapes checked."""
    def fft_exec(a, out, rank, kind, sign):
        h, o = np.asarray(a), np.asarray(out)
        assert h.flags.c_contiguous and o.flags.c_contiguous and 1 <= rank <= 3
        axes = tuple(range(h.ndim - rank, h.ndim))
        if kind == 0:
            assert h.dtype == o.dtype and h.dtype.kind == "c" and h.shape == o.shape
            r = (np.fft.fftn(h, axes=axes) if sign == -1
                 else np.fft.ifftn(h, axes=axes, norm="forward"))
        elif kind == 1:
            assert h.dtype.kind == "f" and sign == -1
            r = np.fft.rfftn(h, axes=axes)
        else:
            assert h.dtype.kind == "c" and sign == 1
            r = np.fft.irfftn(h, s=o.shape[-rank:], axes=axes, norm="forward")
        assert r.shape == o.shape and r.dtype == o.dtype, (r.shape, o.shape)
        calls.append(rank)
        o[...] = r
    return fft_exec


@pytest.mark.parametrize("name", ONE_AXIS + N_AXES)
@pytest.mark.parametrize("dtype", ["float32", "complex128", "int16", "float16"])
def test_cuda_composition_over_a_numpy_exec(monkeypatch, name, dtype):
    from ember.fft import _cufft
    calls = []
    monkeypatch.setattr(_cufft, "_ember",
                        type("X", (), {"_fft_exec": staticmethod(_numpy_exec(calls))}))
    f, g = getattr(_cufft, name), getattr(np.fft, name)
    if name in ONE_AXIS:
        x = _input(name, (3, 10), dtype)
        cases = ONE_AXIS_ARGS
    else:
        x = _input(name, (4, 6, 5), dtype)
        cases = N_AXES_ARGS
    e = ember.asarray(x, device="cpu")
    for kw in cases:
        close(f(e, **kw), g(x, **kw), False, x.dtype == np.float16)
    assert calls
    # a 2-D transform is one plan over both axes, not a pass an axis
    if name in ("fft2", "rfft2", "irfft2"):
        calls.clear()
        f(e)
        assert calls == [2]
    with pytest.raises(ValueError):
        f(e, norm="bad")


def test_exec_checks_its_arguments():
    """em_fft_exec's own checks, reached on cpu before it says that the
    transform runs on CUDA devices."""
    from ember import _ember
    z = ember.zeros((3, 8), dtype=ember.complex64, device="cpu")
    f = ember.zeros((3, 8), dtype=ember.float32, device="cpu")
    with pytest.raises(TypeError, match="no real transform"):
        _ember._fft_exec(f, ember.zeros((3, 5), dtype=ember.complex128,
                                        device="cpu"), 1, 1, -1)
    with pytest.raises(ValueError, match="axis 1 has 8 elements"):
        _ember._fft_exec(f, z, 1, 1, -1)      # R2C wants 8 // 2 + 1
    with pytest.raises(ValueError, match="rank 4"):
        _ember._fft_exec(z, z, 4, 0, -1)
    with pytest.raises(ValueError, match="C-contiguous"):
        _ember._fft_exec(z[:, ::2], z[:, :4], 1, 0, -1)
    with pytest.raises(NotImplementedError, match="cuFFT"):
        _ember._fft_exec(z, ember.empty_like(z), 1, 0, -1)


def test_plan_cache(device):
    """cupy.fft.config's plan cache: its size can change (0 keeps none,
    a plan made for each call), it is cleared, and on cuda a transform
    leaves its plan there and the next one of the same shape reuses it."""
    cache = ember.fft.config.get_plan_cache()
    assert cache is ember.fft.config.get_plan_cache()
    assert ember.fft.config.get_plan_cache_size() == cache.get_size() == 32
    try:
        cache.clear()
        assert len(cache) == 0
        x = ember.asarray(sample((4, 16), "complex64"), device=device)
        want = np.fft.fft(ember.asnumpy(x))
        close(ember.fft.fft(x), want, device == "cpu")
        close(ember.fft.fft(x), want, device == "cpu")
        assert cache.get_curr_size() == (0 if device == "cpu" else 1)
        cache.set_size(0)
        assert cache.size == 0 and len(cache) == 0
        close(ember.fft.fft(x), want, device == "cpu")
        assert len(cache) == 0
        with pytest.raises(ValueError, match="0 to 32"):
            cache.set_size(33)
        assert "plans" in repr(cache)
    finally:
        cache.set_size(32)
