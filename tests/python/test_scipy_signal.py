"""ember.scipy.signal's convolutions against scipy.signal: every mode,
boundary and dtype of convolve2d/correlate2d (odd and even kernels, the
'valid' swap), fftconvolve over axes, convolve/correlate by each method,
and the errors SciPy raises."""
import numpy as np
import pytest
import scipy.signal as ss

import ember
import ember.scipy.signal as es

rng = np.random.default_rng(11)


def E(x, device):
    return ember.asarray(x, device=device)


def close(got, want, tol=1e-9):
    got = ember.asnumpy(got)
    assert got.dtype == want.dtype and got.shape == want.shape, \
        (got.dtype, want.dtype, got.shape, want.shape)
    if want.dtype.kind in "iub":
        np.testing.assert_array_equal(got, want)
    else:
        scale = max(np.abs(want).max(initial=0), 1.0)
        np.testing.assert_allclose(got, want, rtol=0, atol=tol * scale)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int16"])
@pytest.mark.parametrize("kshape", [(3, 3), (3, 4), (1, 5)])
def test_convolve2d_correlate2d(device, dtype, kshape):
    a = (rng.standard_normal((9, 11)) * 10).astype(dtype)
    k = (rng.standard_normal(kshape) * 3).astype(dtype)
    tol = 1e-5 if dtype == "float32" else 1e-12
    for f, g in ((es.convolve2d, ss.convolve2d),
                 (es.correlate2d, ss.correlate2d)):
        for mode in ("full", "same", "valid"):
            for boundary in ("fill", "wrap", "symm"):
                close(f(E(a, device), E(k, device), mode, boundary, 2),
                      g(a, k, mode, boundary, 2), tol)
    # 'valid' with the kernel the larger: SciPy swaps the operands
    close(es.convolve2d(E(k, device), E(a, device), "valid"),
          ss.convolve2d(k, a, "valid"), tol)
    close(es.correlate2d(E(k, device), E(a, device), "valid"),
          ss.correlate2d(k, a, "valid"), tol)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_convolve2d_tiles(device, dtype):
    """The tiled kernel across its tile edges (tiles 128 wide, 32 or 16
    high): images no multiple of a tile, a 31x31 kernel (done a chunk of
    rows at a time for float64), a kernel wider than an image, every mode
    and boundary; and a kernel too wide for a tile, which takes the plain
    kernel."""
    cases = [((45, 131), (31, 31)), ((70, 260), (5, 5)), ((33, 20), (4, 40))]
    if dtype == "float64":
        cases.append(((3, 9), (2, 700)))
    for ashape, kshape in cases:
        a = rng.standard_normal(ashape).astype(dtype)
        k = rng.standard_normal(kshape).astype(dtype)
        tol = 1e-5 if dtype == "float32" else 1e-12
        for mode in ("full", "same", "valid"):
            if mode == "valid" and (kshape[0] > ashape[0]) != \
                    (kshape[1] > ashape[1]):
                continue  # neither operand holds the other
            for boundary in ("fill", "wrap", "symm"):
                close(es.convolve2d(E(a, device), E(k, device), mode,
                                    boundary, -1.5),
                      ss.convolve2d(a, k, mode, boundary, -1.5), tol)
        close(es.correlate2d(E(a, device), E(k, device), "same", "symm"),
              ss.correlate2d(a, k, "same", "symm"), tol)


def test_convolve2d_compiles_for_the_gpu(need_nvrtc):
    """Every kernel instance of kernels/convolve2d.cuh (the tiled one runs
    on cpu only through the block simulator), through NVRTC here."""
    import pathlib
    src = (pathlib.Path(es.__file__).parent / "kernels" /
           "convolve2d.cuh").read_text()
    ptx = ember.cuda.Program(src, options=tuple(
        "--name-expression=" + e for e in es._ALL_NAMES)).compile("ptx").code
    assert ptx.count(b".entry") == len(es._ALL_NAMES) == 6


def test_mixed_dtypes_and_errors(device):
    a = rng.standard_normal((6, 5)).astype(np.float32)
    k = rng.standard_normal((2, 3))
    close(es.convolve2d(E(a, device), E(k, device)), ss.convolve2d(a, k))
    # int8 wraps as SciPy's
    i = np.full((4, 4), 100, np.int8)
    close(es.convolve2d(E(i, device), E(np.ones((2, 2), np.int8), device)),
          ss.convolve2d(i, np.ones((2, 2), np.int8)))
    with pytest.raises(ValueError, match="at least as large"):
        es.convolve2d(E(np.ones((2, 4)), device), E(np.ones((3, 3)), device),
                      "valid")
    with pytest.raises(ValueError, match="mode"):
        es.convolve2d(E(a, device), E(k, device), "bogus")
    with pytest.raises(ValueError, match="boundary"):
        es.convolve2d(E(a, device), E(k, device), boundary="nearest")
    with pytest.raises(ValueError, match="2-D"):
        es.convolve2d(E(a[0], device), E(k, device))
    # a NumPy kernel goes to the image's device
    close(es.convolve2d(E(a, device), k), ss.convolve2d(a, k))


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_fftconvolve_and_methods(device, mode):
    a = rng.standard_normal((20, 17))
    k = rng.standard_normal((5, 6))
    close(es.fftconvolve(E(a, device), E(k, device), mode),
          ss.fftconvolve(a, k, mode))
    close(es.fftconvolve(E(a, device), E(k[:1], device), mode, axes=1),
          ss.fftconvolve(a, k[:1], mode, axes=1))
    x = rng.standard_normal(50)
    y = rng.standard_normal(7)
    for method in ("direct", "fft", "auto"):
        close(es.convolve(E(x, device), E(y, device), mode, method),
              ss.convolve(x, y, mode, method))
        close(es.correlate(E(x, device), E(y, device), mode, method),
              ss.correlate(x, y, mode, method))
        close(es.correlate(E(a, device), E(k, device), mode, method),
              ss.correlate(a, k, mode, method))
    c = (rng.standard_normal(30) + 1j * rng.standard_normal(30))
    close(es.fftconvolve(E(c, device), E(c[:5], device), mode),
          ss.fftconvolve(c, c[:5], mode))
    assert es.choose_conv_method(E(x, device), E(y, device)) == "direct"
    assert es.choose_conv_method(E(np.ones(4, np.int32), device),
                                 E(np.ones(3, np.int32), device)) == "direct"
    big = E(np.ones((512, 512)), device)
    assert es.choose_conv_method(big, big) == "fft"


# ---- windows and spectra -------------------------------------------------------

WINDOWS = ["hann", "hamming", "blackman", "nuttall", "blackmanharris",
           "flattop", "boxcar", "bartlett", "triang", "cosine", ("tukey", 0.3),
           ("gaussian", 2.5), ("exponential", None, 3.0), ("kaiser", 6.0), 8.6]


@pytest.mark.parametrize("M", [1, 2, 7, 8, 31])
def test_windows(device, M):
    for w in WINDOWS:
        for fftbins in (True, False):
            close(es.get_window(w, M, fftbins, device=device),
                  ss.get_window(w, M, fftbins))
    close(es.windows.hann(M, device=device), ss.windows.hann(M))
    with pytest.raises(ValueError, match="Unknown window"):
        es.get_window("nope", 4)
    with pytest.raises(ValueError, match="parameters"):
        es.get_window("kaiser", 4)


def test_hilbert_detrend_spectra(device):
    x = rng.standard_normal((3, 100))
    e = E(x, device)
    for n in (None, 128, 101):
        close(es.hilbert(e, n), ss.hilbert(x, n))
    for t in ("linear", "constant"):
        close(es.detrend(e, type=t), ss.detrend(x, type=t))
        close(es.detrend(e, axis=0, type=t), ss.detrend(x, axis=0, type=t))
    for scaling in ("density", "spectrum"):
        for nfft in (None, 128, 101):
            for w in ("boxcar", "hann"):
                f1, p1 = es.periodogram(e, 10.0, w, nfft, scaling=scaling)
                f2, p2 = ss.periodogram(x, 10.0, w, nfft, scaling=scaling)
                close(f1, f2)
                close(p1, p2)
        # the median over an odd and an even number of segments, and one
        # segment (no bias)
        for nperseg, noverlap in ((32, None), (25, 10), (20, 0), (100, None)):
            for average in ("mean", "median"):
                f1, p1 = es.welch(e, 4.0, nperseg=nperseg, noverlap=noverlap,
                                  scaling=scaling, average=average)
                f2, p2 = ss.welch(x, 4.0, nperseg=nperseg, noverlap=noverlap,
                                  scaling=scaling, average=average)
                close(f1, f2)
                close(p1, p2)
    with pytest.raises(ValueError, match="average"):
        es.welch(e, average="mode")
    x32 = rng.standard_normal(64).astype(np.float32)
    close(es.welch(E(x32, device), nperseg=16)[1], ss.welch(x32, nperseg=16)[1],
          1e-5)
    with pytest.raises(ValueError, match="real"):
        es.hilbert(E(x + 1j, device))


def test_medfilt(device):
    x = rng.standard_normal(31)
    close(es.medfilt(E(x, device), 5), ss.medfilt(x, 5))
    x2 = rng.standard_normal((12, 13))
    close(es.medfilt2d(E(x2, device), 3), ss.medfilt2d(x2, 3))
    close(es.medfilt(E(x2, device), (3, 5)), ss.medfilt(x2, (3, 5)))
    with pytest.raises(ValueError, match="odd"):
        es.medfilt(E(x, device), 4)


def test_lfilter_sosfilt(device):
    x = rng.standard_normal((4, 200))
    b, a = ss.butter(4, 0.2)
    close(es.lfilter(b, a, E(x, device)), ss.lfilter(b, a, x))
    close(es.lfilter(b, a, E(x, device), axis=0), ss.lfilter(b, a, x, axis=0))
    x3 = rng.standard_normal((3, 50, 2))
    close(es.lfilter(b, a, E(x3, device), axis=1), ss.lfilter(b, a, x3, axis=1))
    zi = rng.standard_normal((4, 4))
    y1, z1 = es.lfilter(b, a, E(x, device), zi=E(zi, device))
    y2, z2 = ss.lfilter(b, a, x, zi=zi)
    close(y1, y2)
    close(z1, z2)
    close(es.lfilter([1, 2, 3], [2.0], E(x, device)),
          ss.lfilter([1, 2, 3], [2.0], x))             # FIR, a[0] != 1
    sos = ss.butter(6, [0.1, 0.3], btype="band", output="sos")
    close(es.sosfilt(sos, E(x, device)), ss.sosfilt(sos, x))
    zs = rng.standard_normal((sos.shape[0], 4, 2))
    y1, z1 = es.sosfilt(sos, E(x, device), zi=E(zs, device))
    y2, z2 = ss.sosfilt(sos, x, zi=zs)
    close(y1, y2)
    close(z1, z2)
    # along another axis zi[k] is x's shape with that axis 2 long
    zs0 = rng.standard_normal((sos.shape[0], 2, 200))
    y1, z1 = es.sosfilt(sos, E(x, device), axis=0, zi=E(zs0, device))
    y2, z2 = ss.sosfilt(sos, x, axis=0, zi=zs0)
    close(y1, y2)
    close(z1, z2)
    with pytest.raises(ValueError, match="zi"):
        es.lfilter(b, a, E(x, device), zi=E(np.zeros((4, 3)), device))
    with pytest.raises(ValueError, match="sos"):
        es.sosfilt(np.ones((2, 5)), E(x, device))


def test_savgol(device):
    for args in ((5, 2), (7, 3), (6, 2), (5, 2, 1, 0.5), (9, 4, 2)):
        close(es.savgol_coeffs(*args, device=device), ss.savgol_coeffs(*args))
    x = rng.standard_normal((3, 40))
    for mode in ("interp", "mirror", "constant", "nearest", "wrap"):
        for args in ((7, 3), (6, 2), (5, 2, 1, 0.5)):
            close(es.savgol_filter(E(x, device), *args, mode=mode),
                  ss.savgol_filter(x, *args, mode=mode))
    x3 = rng.standard_normal((20, 3))
    close(es.savgol_filter(E(x3, device), 5, 2, axis=0),
          ss.savgol_filter(x3, 5, 2, axis=0))
    x32 = x.astype(np.float32)
    close(es.savgol_filter(E(x32, device), 5, 2), ss.savgol_filter(x32, 5, 2),
          1e-5)
    with pytest.raises(ValueError, match="polyorder"):
        es.savgol_coeffs(3, 3)
    with pytest.raises(ValueError, match="window_length"):
        es.savgol_filter(E(x[:, :4], device), 7, 2)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int32"])
def test_wiener(device, dtype):
    """Box mean and variance through correlate, the noise estimate, the
    variance-below-noise rule; 1-D to 3-D (3-D through the FFT)."""
    for shape, size, noise in [((40,), None, None), ((20, 30), None, None),
                               ((20, 30), 5, None), ((20, 30), (3, 4), 0.3),
                               ((8, 9, 10), (3, 2, 5), None)]:
        a = (rng.standard_normal(shape) * 10).astype(dtype)
        want = ss.wiener(a, size, noise)
        # float32 samples: SciPy's FFT path sums them in single precision
        close(es.wiener(E(a, device), size, noise), want,
              1e-6 if dtype == "float32" else 1e-12)
    with pytest.raises(ValueError):
        es.wiener(E(np.ones((4, 4)), device), (3, 3, 3))


@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128",
                                   "int32"])
def test_resample(device, dtype):
    """Cutting and padding the spectrum with m = min(num, n) even and odd
    (the lone bin at m / 2), windows by name, array and function, the
    frequency domain, an axis and sample positions, against SciPy."""
    for n, num in [(40, 20), (40, 60), (41, 20), (40, 41), (41, 60),
                   (10, 10), (33, 12)]:
        a = rng.standard_normal((3, n)) * 3
        if dtype == "complex128":
            a = a + 1j * rng.standard_normal((3, n))
        a = a.astype(dtype)
        kws = [{}, {"window": "hann"}, {"window": rng.random(n)},
               {"window": lambda f: 1 / (1 + f ** 2)}]
        if dtype == "complex128":
            kws.append({"domain": "freq"})
        for kw in kws:
            want = ss.resample(a, num, axis=1, **kw)
            if isinstance(kw.get("window"), np.ndarray):
                kw = {"window": E(kw["window"], device)}
            close(es.resample(E(a, device), num, axis=1, **kw), want,
                  1e-5 if dtype == "float32" else 1e-12)
    t = np.arange(30) * 0.25
    y, ty = es.resample(E(np.sin(t), device), 17, t=E(t, device))
    y2, ty2 = ss.resample(np.sin(t), 17, t=t)
    close(y, y2)
    close(ty, ty2)
    with pytest.raises(ValueError, match="domain"):
        es.resample(E(np.ones(8), device), 4, domain="space")
    with pytest.raises(ValueError, match="window length"):
        es.resample(E(np.ones(8), device), 4, window=E(np.ones(5), device))


def test_convolve_auto_in_3d(device):
    """method='auto' in three dimensions takes the FFT (direct is 1-D and
    2-D here) instead of refusing; 'direct' itself still says so."""
    a, k = rng.standard_normal((6, 7, 8)), rng.standard_normal((3, 2, 3))
    for mode in ("full", "same", "valid"):
        close(es.convolve(E(a, device), E(k, device), mode),
              ss.convolve(a, k, mode))
        close(es.correlate(E(a, device), E(k, device), mode),
              ss.correlate(a, k, mode))
    with pytest.raises(NotImplementedError, match="direct"):
        es.convolve(E(a, device), E(k, device), method="direct")


STFT_CASES = [{}, {"nperseg": 64}, {"nperseg": 64, "noverlap": 10, "nfft": 100},
              {"boundary": "even", "nperseg": 50},
              {"boundary": "odd", "nperseg": 50, "padded": False},
              {"boundary": "constant", "nperseg": 33},
              {"boundary": None, "nperseg": 40},
              {"detrend": "linear", "nperseg": 64},
              {"scaling": "psd", "fs": 10.0, "nperseg": 64},
              {"return_onesided": False, "nperseg": 32},
              {"window": "hamming", "nperseg": 48}]


@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128",
                                   "int32"])
@pytest.mark.parametrize("shape,axis", [((1000,), -1), ((3, 500), -1),
                                        ((500, 2), 0)])
def test_stft(device, dtype, shape, axis):
    """Every boundary extension, padding, overlap, nfft, detrend, scaling,
    sidedness and window form against SciPy: frequencies, times and the
    spectra (dtype and layout included)."""
    import warnings
    a = rng.standard_normal(shape) * 3
    if dtype == "complex128":
        a = a + 1j * rng.standard_normal(shape)
    a = a.astype(dtype)
    win = rng.random(40)
    for kw in STFT_CASES + [{"window": win, "nperseg": 40}]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SciPy: complex -> two-sided
            f, t, z = ss.stft(a, axis=axis, **kw)
        ekw = dict(kw, window=E(win, device)) if "window" in kw and \
            not isinstance(kw["window"], str) else kw
        f2, t2, z2 = es.stft(E(a, device), axis=axis, **ekw)
        close(f2, f)
        close(t2, t)
        close(z2, z, 1e-5 if dtype == "float32" else 1e-12)
    x = E(np.ones(100), device)
    with pytest.raises(ValueError, match="noverlap"):
        es.stft(x, nperseg=10, noverlap=10)
    with pytest.raises(ValueError, match="nfft"):
        es.stft(x, nperseg=10, nfft=5)
    with pytest.raises(ValueError, match="scaling"):
        es.stft(x, scaling="power")
    with pytest.raises(ValueError, match="boundary"):
        es.stft(x, boundary="wrap")
    with pytest.raises(ValueError, match="nperseg is different"):
        es.stft(x, window=E(np.ones(8), device), nperseg=9)
