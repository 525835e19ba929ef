"""The FFT page of CuPy's user guide on ember: cupyx.scipy.fft as a SciPy
FFT backend, get_fft_plan and plan=, and the cuFFT features ember does not
offer (callbacks, multi-GPU, CuPy's private plan classes) refused with
NotImplementedError rather than an AttributeError."""
import numpy as np
import pytest

import ember
import ember.cupyx.scipy.fft as cufft
from helpers import run_python

scipy_fft = pytest.importorskip("scipy.fft")


def _c64(rng, shape):
    return (rng.random(shape) + 1j * rng.random(shape)).astype(np.complex64)


def test_import_spellings_reach_one_module():
    import ember.cupyx
    import ember.cupyx.scipy.fft as a
    from ember.cupyx.scipy import fft as b
    assert a is b is cufft is ember.cupyx.scipy.fft


def test_scipy_fft_is_that_module_without_cupyx():
    """`import scipy.fft` becomes `import ember.scipy.fft` (a fresh process:
    nothing of ember.cupyx imported first)."""
    r = run_python("-c", "import sys, ember.scipy.fft as f, ember.scipy as s\n"
                   "from ember.scipy import fft as g\n"
                   "first = 'ember.cupyx.scipy' not in sys.modules\n"
                   "import ember.cupyx.scipy.fft as c\n"
                   "print(first, f is g is s.fft is c, callable(f.rfftn))")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["True", "True", "True"], r.stdout


def test_set_backend_runs_ember_transform(device):
    rng = np.random.default_rng(0)
    h = _c64(rng, 100)
    a = ember.asarray(h, device=device)
    with scipy_fft.set_backend(cufft):
        b = scipy_fft.fft(a)
        c = scipy_fft.ifft(b, norm="ortho")
    assert isinstance(b, ember.ndarray) and b.device == a.device
    assert b.dtype == np.complex64          # single precision stays single
    np.testing.assert_allclose(ember.asnumpy(b), np.fft.fft(h), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(ember.asnumpy(c), np.fft.ifft(np.fft.fft(h), norm="ortho"),
                               rtol=1e-4, atol=1e-4)


def test_backend_declines_what_it_lacks(device):
    a = ember.asarray(np.arange(8.0), device=device)
    with scipy_fft.set_backend(cufft, only=True):
        # dct is not in ember: declined, so SciPy names the missing backend
        with pytest.raises(Exception, match="backend"):
            scipy_fft.dct(a)
    # NumPy input under a non-coercing backend: SciPy's own transform runs
    with scipy_fft.set_backend(cufft):
        r = scipy_fft.fft(np.arange(4.0))
    assert isinstance(r, np.ndarray)
    np.testing.assert_allclose(r, np.fft.fft(np.arange(4.0)))


def test_scipy_signatures_and_values(device):
    rng = np.random.default_rng(1)
    h = rng.random((4, 6, 10))
    a = ember.asarray(h, device=device)
    for name in ("rfft", "fft", "ihfft"):
        got = getattr(cufft, name)(a, n=8, axis=1, overwrite_x=True, workers=2)
        np.testing.assert_allclose(ember.asnumpy(got), getattr(np.fft, name)(h, n=8, axis=1),
                                   rtol=1e-10, atol=1e-12)
    got = cufft.rfftn(a, s=(6, 12), axes=(0, 2))
    np.testing.assert_allclose(ember.asnumpy(got), np.fft.rfftn(h, s=(6, 12), axes=(0, 2)),
                               rtol=1e-10, atol=1e-12)
    got = cufft.irfft2(cufft.rfft2(a))
    np.testing.assert_allclose(ember.asnumpy(got), h, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(ember.asnumpy(cufft.fftfreq(8, 0.5, device=device)),
                               np.fft.fftfreq(8, 0.5))
    np.testing.assert_allclose(ember.asnumpy(cufft.fftshift(a, axes=1)),
                               np.fft.fftshift(h, axes=1))
    assert cufft.next_fast_len(1021) == scipy_fft.next_fast_len(1021)


def test_get_fft_plan_as_argument_and_context(device):
    rng = np.random.default_rng(2)
    h = _c64(rng, (4, 16, 16))
    a = ember.asarray(h, device=device)
    plan = cufft.get_fft_plan(a, axes=(1, 2), value_type="C2C")
    want = np.fft.fft2(h, axes=(1, 2))
    out = cufft.fft2(a, axes=(1, 2), plan=plan)
    np.testing.assert_allclose(ember.asnumpy(out), want, rtol=1e-4, atol=1e-3)
    with plan:
        out2 = ember.fft.fft2(a, axes=(1, 2))
    np.testing.assert_allclose(ember.asnumpy(out2), want, rtol=1e-4, atol=1e-3)
    # a plan for another transform is refused, as CuPy refuses it
    with pytest.raises(ValueError, match="plan was made for"):
        cufft.fft2(a, axes=(0, 1), plan=plan)
    with pytest.raises(ValueError, match="plan was made for"):
        cufft.fft2(a[:2], axes=(1, 2), plan=plan)
    with pytest.raises(ValueError, match="plan was made for"):
        cufft.fft2(a.astype(np.complex128), axes=(1, 2), plan=plan)
    r = ember.asarray(rng.random((8, 32)), device=device)
    rplan = cufft.get_fft_plan(r, axes=-1, value_type="R2C")
    np.testing.assert_allclose(ember.asnumpy(cufft.rfft(r, plan=rplan)),
                               np.fft.rfft(ember.asnumpy(r)), rtol=1e-10, atol=1e-12)
    with pytest.raises(TypeError, match="get_fft_plan"):
        cufft.rfft(r, plan="plan")


def test_get_fft_plan_bad_inputs(device):
    a = ember.asarray(np.zeros((4, 8), np.complex64), device=device)
    r = ember.asarray(np.zeros((4, 8), np.float32), device=device)
    with pytest.raises(ValueError, match="value_type"):
        cufft.get_fft_plan(a, value_type="Z2Z")
    with pytest.raises(ValueError, match="real input"):
        cufft.get_fft_plan(a, value_type="R2C")
    with pytest.raises(ValueError, match="complex"):
        cufft.get_fft_plan(r, value_type="C2C")
    with pytest.raises(np.exceptions.AxisError):
        cufft.get_fft_plan(a, axes=(2,))
    with pytest.raises(ValueError, match="repeated"):
        cufft.get_fft_plan(a, axes=(0, 0))
    with pytest.raises(ValueError, match="differ in length"):
        cufft.get_fft_plan(a, shape=(4, 8), axes=(1,))
    with pytest.raises(TypeError):
        cufft.get_fft_plan(np.zeros(4, np.complex64))


def test_cufft_features_not_offered_say_so():
    cfg = ember.fft.config
    cfg.use_multi_gpus = True            # accepted; ember's FFT uses one device
    try:
        with pytest.raises(NotImplementedError, match="multi-GPU"):
            cfg.set_cufft_gpus([0, 1])
    finally:
        cfg.use_multi_gpus = False
    with pytest.raises(NotImplementedError, match="callbacks"):
        cfg.set_cufft_callbacks(cb_load="__device__ int x;")
    cf = ember.cuda.cufft
    assert (cf.CUFFT_C2C, cf.CUFFT_FORWARD, cf.CUFFT_INVERSE) == (0x29, -1, 1)
    for cls, args in ((cf.Plan1d, (64, cf.CUFFT_C2C, 64)),
                      (cf.XtPlanNd, ((256, 256),)), (cf.PlanNd, ())):
        with pytest.raises(NotImplementedError, match="ember.fft"):
            cls(*args)


@pytest.mark.parametrize("norm", [None, "backward", "ortho", "forward"])
def test_hermitian_nd_transforms_match_scipy(device, norm):
    rng = np.random.default_rng(3)
    c = rng.random((4, 5, 6)) + 1j * rng.random((4, 5, 6))
    r = rng.random((4, 5, 6))
    a, b = ember.asarray(c, device=device), ember.asarray(r, device=device)
    for name, x, h, kw in (("hfftn", a, c, {"s": (4, 10), "axes": (0, 2)}),
                           ("hfft2", a, c, {}),
                           ("ihfftn", b, r, {"axes": (1, 2)}),
                           ("ihfft2", b, r, {"s": (5, 8)})):
        got = getattr(cufft, name)(x, norm=norm, **kw)
        want = getattr(scipy_fft, name)(h, norm=norm, **kw)
        assert got.shape == want.shape, name
        np.testing.assert_allclose(ember.asnumpy(got), want, rtol=1e-10, atol=1e-10,
                                   err_msg=name)
    with pytest.raises(ValueError, match="norm"):
        cufft.hfftn(a, norm="both")
