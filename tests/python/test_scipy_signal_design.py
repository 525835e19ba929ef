"""ember.scipy.signal's filter design and analysis, added when SciPy's
signal tutorial was tried (docs/scipy.md): firwin, firwin2, freqz, freqs,
lfiltic, lfilter_zi, filtfilt, tf2zpk, zpk2tf, normalize, iirfilter
(Butterworth, Chebyshev I and II, every band), the zpk transforms,
order_filter and sepfir2d, each against scipy.signal, bad inputs
included."""
import warnings

import numpy as np
import pytest
import scipy.signal as ss

import ember
import ember.scipy.signal as es

rng = np.random.default_rng(44)


def host(a):
    return ember.asnumpy(a) if isinstance(a, ember.ndarray) else a


def close(got, want, rtol=1e-10, atol=1e-12):
    got = host(got)
    assert np.asarray(got).dtype == np.asarray(want).dtype, \
        (np.asarray(got).dtype, np.asarray(want).dtype)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


def sorted_roots(r):
    # (SciPy's ellipap(1, ...) gives its one pole as a 0-d array; ember's
    # poles are 1-D always)
    r = np.atleast_1d(np.asarray(host(r)))
    return r[np.lexsort((np.round(r.imag, 9), np.round(r.real, 9)))]


def test_firwin(device):
    cases = [((101, 2500), dict(fs=16000)), ((41, [0.2, 0.5]),
                                            dict(pass_zero=False)),
             ((40, 0.3), {}), ((41, 0.3), dict(pass_zero="highpass")),
             ((51, [0.2, 0.4, 0.6]), {}),
             ((65, 30), dict(width=20, fs=200)),
             ((31, [0.1, 0.3]), dict(window=("kaiser", 5.0), scale=False)),
             ((31, [0.1, 0.3]), dict(pass_zero="bandstop",
                                     window="blackman"))]
    for args, kw in cases:
        close(es.firwin(*args, **kw, device=device), ss.firwin(*args, **kw))
    assert str(es.firwin(11, 0.5, device=device).device) == device
    for args, kw in [((40, 0.3), dict(pass_zero=False)),
                     ((11, 1.5), {}), ((11, [0.5, 0.2]), {}),
                     ((11, 0.3), dict(pass_zero="bandpass")),
                     ((11, [0.2, 0.3]), dict(pass_zero="lowpass")),
                     ((11, 0.3), dict(pass_zero="nope")), ((11, []), {})]:
        with pytest.raises(ValueError):
            ss.firwin(*args, **kw)
        with pytest.raises(ValueError):
            es.firwin(*args, **kw)
    assert es.kaiser_beta(65) == ss.kaiser_beta(65)
    assert es.kaiser_atten(31, 0.1) == ss.kaiser_atten(31, 0.1)


def test_firwin2(device):
    for args, kw in [((151, [0.0, 0.2, 0.3, 1.0], [1.0, 1.0, 0.0, 0.0]), {}),
                     ((150, [0, 0.5, 0.5, 1], [1, 1, 0, 0]), {}),
                     ((51, [0, 1000, 2000, 4000], [0, 1, 1, 0]),
                      dict(fs=8000, window=None)),
                     ((31, [0, 0.4, 1], [0, 1, 0]),
                      dict(antisymmetric=True)),
                     ((30, [0, 0.4, 1], [0, 1, 1]),
                      dict(antisymmetric=True, nfreqs=129))]:
        close(es.firwin2(*args, **kw, device=device),
              ss.firwin2(*args, **kw), 1e-9, 1e-12)
    for args in [(50, [0, 0.5, 1], [1, 1, 1]), (51, [0.1, 1], [1, 0]),
                 (51, [0, 0.6, 0.5, 1], [1, 1, 0, 0]),
                 (51, [0, 0.5, 0.5, 0.5, 1], [1, 1, 0, 0, 0]),
                 (51, [0, 1], [1, 0, 0])]:
        with pytest.raises(ValueError):
            ss.firwin2(*args)
        with pytest.raises(ValueError):
            es.firwin2(*args)


def test_freqz_freqs(device):
    b = ss.firwin(101, 2500, fs=16000)
    eb = ember.asarray(b, device=device)
    for kw in [dict(fs=16000), {}, dict(worN=1000, whole=True),
               dict(worN=257, include_nyquist=True),
               dict(worN=np.linspace(0, 8000, 37), fs=16000)]:
        w, h = ss.freqz(b, **kw)
        gw, gh = es.freqz(eb, **kw)
        close(gw, w, 1e-12, 1e-12)
        close(gh, h, 1e-9, 1e-11)
    assert str(gh.device) == device
    bb, aa = ss.butter(4, 0.3)
    ebb, eaa = ember.asarray(bb, device=device), ember.asarray(aa,
                                                              device=device)
    for kw in [{}, dict(worN=64, whole=True), dict(worN=[0.1, 0.5, 2.0])]:
        w, h = ss.freqz(bb, aa, **kw)
        gw, gh = es.freqz(ebb, eaa, **kw)
        close(gw, w, 1e-12, 1e-12)
        close(gh, h, 1e-9, 1e-11)
    with pytest.raises(ValueError, match="nonnegative"):
        es.freqz(eb, worN=-1)
    with pytest.raises(ValueError):
        es.freqz(eb, fs=-2)
    ba, aa2 = ss.butter(3, 100.0, analog=True)
    for worN in (None, 50, [1.0, 10, 100, 1000]):
        w, h = ss.freqs(ba, aa2, worN=worN)
        gw, gh = es.freqs(ember.asarray(ba, device=device),
                          ember.asarray(aa2, device=device), worN=worN)
        close(gw, w, 1e-12, 1e-12)
        close(gh, h, 1e-9, 1e-12)


def test_lfiltic_lfilter_zi_filtfilt(device):
    b = np.array([0.5, 0.25])
    a = np.array([1.0, -1.0 / 3])
    e = lambda v: ember.asarray(v, device=device)  # noqa: E731
    close(es.lfiltic(e(b), e(a), e([2.])), ss.lfiltic(b, a, [2.]))
    b5, a5 = ss.butter(4, 0.2)
    y, x = rng.standard_normal(3), rng.standard_normal(5)
    close(es.lfiltic(e(b5), e(a5), e(y), e(x)), ss.lfiltic(b5, a5, y, x))
    close(es.lfiltic(e(b5), e(2 * a5), e(y)), ss.lfiltic(b5, 2 * a5, y))
    with pytest.raises(ValueError, match="non-zero"):
        es.lfiltic(e([1.0]), e([0.0, 1.0]), e([1.0]))
    close(es.lfilter_zi(e(b5), e(a5)), ss.lfilter_zi(b5, a5), 1e-9, 1e-12)
    close(es.lfilter_zi(e(b), e(a)), ss.lfilter_zi(b, a))
    close(es.lfilter_zi(e([1.0, 2, 3]), e([2.0])),
          ss.lfilter_zi([1.0, 2, 3], [2.0]))
    with pytest.raises(ValueError):
        es.lfilter_zi(e([[1.0]]), e([1.0]))
    sig = rng.standard_normal((3, 200))
    es_sig = e(sig)
    for kw in [{}, dict(padtype="even"), dict(padtype="constant",
                                              padlen=20),
               dict(padtype=None), dict(padlen=0)]:
        close(es.filtfilt(e(b5), e(a5), es_sig, **kw),
              ss.filtfilt(b5, a5, sig, **kw), 1e-9, 1e-11)
    close(es.filtfilt(e(b), e(a), e(sig.T), axis=0),
          ss.filtfilt(b, a, sig.T, axis=0), 1e-9, 1e-11)
    with pytest.raises(ValueError, match="padlen"):
        es.filtfilt(e(b5), e(a5), e(sig[:, :10]))
    with pytest.raises(ValueError, match="padtype"):
        es.filtfilt(e(b5), e(a5), es_sig, padtype="bogus")
    with pytest.raises(ValueError, match="method"):
        es.filtfilt(e(b5), e(a5), es_sig, method="bogus")


def test_tf_zpk(device):
    e = lambda v: ember.asarray(v, device=device)  # noqa: E731
    for b, a in [([0.5, 0.25], [1.0, -1.0 / 3]), ss.butter(5, 0.3),
                 ([2.0, 3, 1], [4.0, 1, 2, 1]), ([0.0, 1, 2], [2.0, 1])]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ss.BadCoefficients)
            warnings.simplefilter("ignore", es.BadCoefficients)
            z, p, k = ss.tf2zpk(b, a)
            gz, gp, gk = es.tf2zpk(e(b), e(a))
        np.testing.assert_allclose(sorted_roots(gz), sorted_roots(z),
                                   atol=1e-9)
        np.testing.assert_allclose(sorted_roots(gp), sorted_roots(p),
                                   atol=1e-9)
        assert abs(gk - k) <= 1e-12 * abs(k)
        gb, ga = es.zpk2tf(gz, gp, gk)
        wb, wa = ss.zpk2tf(z, p, k)
        close(gb, wb, 1e-9, 1e-12)
        close(ga, wa, 1e-9, 1e-12)
    with pytest.warns(es.BadCoefficients):
        nb, na = es.normalize(e([0.0, 1, 2]), e([2.0, 1]))
    close(nb, np.array([0.5, 1.0]))
    with pytest.raises(ValueError, match="nonzero"):
        es.normalize(e([1.0]), e([0.0, 0.0]))
    with pytest.raises(ValueError, match="Improper"):
        es.bilinear_zpk(e([1.0, 2.0]), e([0.5]), 1.0, 2.0)


@pytest.mark.parametrize("ftype,extra", [("butter", {}),
                                         ("cheby1", dict(rp=1.5)),
                                         ("cheby2", dict(rs=40))])
def test_iirfilter(device, ftype, extra):
    for N, Wn, btype, kw in [(4, 0.2, "lowpass", {}),
                             (5, 0.35, "highpass", {}),
                             (3, [0.1, 0.4], "bandpass", {}),
                             (4, [0.2, 0.3], "bandstop", {}),
                             (6, 2500, "lowpass", dict(fs=16000)),
                             (3, 100.0, "lowpass", dict(analog=True)),
                             (2, [10.0, 100.0], "bandstop",
                              dict(analog=True))]:
        want = ss.iirfilter(N, Wn, btype=btype, ftype=ftype, **extra, **kw)
        got = es.iirfilter(N, Wn, btype=btype, ftype=ftype, **extra, **kw,
                           device=device)
        for g, w in zip(got, want):
            close(g, w, 1e-8, 1e-12)
        z, p, k = ss.iirfilter(N, Wn, btype=btype, ftype=ftype,
                               output="zpk", **extra, **kw)
        gz, gp, gk = es.iirfilter(N, Wn, btype=btype, ftype=ftype,
                                  output="zpk", **extra, **kw)
        np.testing.assert_allclose(sorted_roots(gp), sorted_roots(p),
                                   atol=1e-9)
        assert abs(gk - k) <= 1e-9 * abs(k)
    f = getattr(es, ftype)
    args = (4,) + tuple(extra.values()) + (0.3,)
    for g, w in zip(f(*args, device=device),
                    getattr(ss, ftype)(*args)):
        close(g, w, 1e-8, 1e-12)
    for kw in [dict(Wn=1.2), dict(Wn=-0.1), dict(Wn=[0.4, 0.2]),
               dict(Wn=0.2, btype="bogus"), dict(Wn=0.2, output="bogus"),
               dict(Wn=[0.1, 0.2], btype="low"),
               dict(Wn=0.2, analog=True, fs=10)]:
        with pytest.raises(ValueError):
            ss.iirfilter(3, ftype=ftype, **extra, **kw)
        with pytest.raises(ValueError):
            es.iirfilter(3, ftype=ftype, **extra, **kw)
    with pytest.raises(ValueError):
        es.iirfilter(3, 0.2, ftype="nope")
    # the Bessel prototype is signal_iirspecial's (test_scipy_signal_more)
    for bt in ("bessel", "bessel_mag") if ftype == "butter" else ():
        close(es.iirfilter(3, 0.2, btype="low", ftype=bt, device=device)[0],
              ss.iirfilter(3, 0.2, btype="low", ftype=bt)[0], 1e-10)


def test_order_filter_sepfir2d(device):
    im = rng.standard_normal((20, 23))
    e = ember.asarray(im, device=device)
    for dom, rank in [(np.ones((3, 3)), 4), ([[0, 1, 0], [1, 1, 1],
                                              [0, 1, 0]], 0),
                      (np.ones((1, 5)), 4)]:
        close(es.order_filter(e, dom, rank), ss.order_filter(im, dom, rank))
    with pytest.raises(ValueError, match="odd"):
        es.order_filter(e, np.ones((2, 3)), 0)
    with pytest.raises(ValueError, match="dtype"):
        es.order_filter(ember.asarray(im.astype(np.float16), device=device),
                        np.ones((3, 3)), 0)
    w = ss.windows.gaussian(11, 2.0)
    close(es.sepfir2d(e, w, w), ss.sepfir2d(im, w, w))
    close(es.sepfir2d(e, [1.0, -2, 1], [1]), ss.sepfir2d(im, [1.0, -2, 1],
                                                        [1]))
    f32 = (rng.random((16, 19)) * 255).astype(np.float32)
    h = np.array([1.0, -2, 1], np.float32)
    close(es.sepfir2d(ember.asarray(f32, device=device), h, h),
          ss.sepfir2d(f32, h, h), 1e-5, 1e-3)
    u8 = (rng.random((12, 13)) * 255).astype(np.uint8)
    close(es.sepfir2d(ember.asarray(u8, device=device), h, [1.0]),
          ss.sepfir2d(u8, h, [1.0]), 1e-5, 1e-3)
    with pytest.raises(ValueError, match="odd"):
        es.sepfir2d(e, [1.0, 1.0], [1.0])
    with pytest.raises(TypeError):
        es.sepfir2d(ember.asarray(f32, device=device),
                    np.array([1, 2, 1]), h)
    with pytest.raises(ValueError):
        es.sepfir2d(ember.asarray(im[0], device=device), w, w)


@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128"])
def test_spectrogram(device, dtype):
    x = rng.standard_normal((2, 1500))
    if dtype == "complex128":
        x = x + 1j * rng.standard_normal((2, 1500))
    x = x.astype(dtype)
    e = ember.asarray(x, device=device)
    tol = 2e-5 if dtype == "float32" else 1e-10
    for kw in [{}, dict(nperseg=100, noverlap=30, nfft=128),
               dict(nperseg=101, window="hann", scaling="spectrum"),
               dict(mode="magnitude"), dict(mode="complex"),
               dict(mode="angle", nperseg=64), dict(mode="phase",
                                                    nperseg=64),
               dict(return_onesided=False, nperseg=64),
               dict(detrend=False, nperseg=64), dict(axis=0, nperseg=2)]:
        if dtype == "complex128" and kw.get("return_onesided", True) and \
                kw.get("mode") == "phase":
            continue
        want = ss.spectrogram(x, 1000.0, **kw)
        got = es.spectrogram(e, 1000.0, **kw)
        for g, w in zip(got, want):
            if np.iscomplexobj(w) or kw.get("mode") in ("angle", "phase"):
                np.testing.assert_allclose(host(g), w, rtol=tol * 10,
                                           atol=tol * 10)
            else:
                close(g, w, tol, tol * 1e-3)
    with pytest.raises(ValueError, match="mode"):
        es.spectrogram(e, mode="bogus")
    with pytest.raises(ValueError, match="scaling"):
        es.spectrogram(e, scaling="bogus")


@pytest.mark.parametrize("shape,axis", [((1000,), -1), ((3, 700), -1),
                                        ((650, 2), 0)])
def test_istft_round_trip(device, shape, axis):
    x = rng.standard_normal(shape)
    e = ember.asarray(x, device=device)
    for kw in [dict(nperseg=128), dict(window=("gaussian", 8.0),
                                       nperseg=50, noverlap=40),
               dict(nperseg=64, nfft=100, scaling="psd")]:
        f, t, Z = ss.stft(x, 200.0, axis=axis, **kw)
        _, _, Ze = es.stft(e, 200.0, axis=axis, **kw)
        taxis = -1 if axis == -1 else -1
        faxis = -2 if axis == -1 else 0
        want = ss.istft(Z, 200.0, time_axis=taxis, freq_axis=faxis, **kw)
        got = es.istft(Ze, 200.0, time_axis=taxis, freq_axis=faxis, **kw)
        close(got[0], want[0])
        close(got[1], want[1], 1e-9, 1e-11)
    z = x[..., :400] + 1j * x[..., 1:401] if axis == -1 else None
    if z is not None:
        _, _, Z = ss.stft(z, return_onesided=False, nperseg=64)
        want = ss.istft(Z, input_onesided=False, nperseg=64)
        got = es.istft(ember.asarray(Z, device=device), input_onesided=False,
                       nperseg=64)
        close(got[1], want[1], 1e-9, 1e-11)
    Z = ember.asarray(ss.stft(x.reshape(-1)[:300], nperseg=32)[2],
                      device=device)
    with pytest.raises(ValueError, match="noverlap"):
        es.istft(Z, nperseg=32, noverlap=32)
    with pytest.raises(ValueError, match="differing"):
        es.istft(Z, time_axis=0, freq_axis=0)
    with pytest.raises(ValueError, match="nfft"):
        es.istft(Z, nperseg=32, nfft=16)
    with pytest.raises(ValueError, match="at least 2d"):
        es.istft(ember.ones(5, device=device))
    with pytest.warns(UserWarning, match="NOLA"):
        es.istft(Z, window=np.zeros(32), nperseg=32)


def test_second_order_sections(device):
    e = lambda v: ember.asarray(v, device=device)  # noqa: E731
    for ftype, extra in (("butter", {}), ("cheby1", dict(rp=1)),
                         ("cheby2", dict(rs=50))):
        for N, Wn, btype in ((5, 0.3, "low"), (4, 0.25, "high"),
                             (3, [0.2, 0.5], "bandpass"),
                             (4, [0.2, 0.5], "bandstop")):
            want = ss.iirfilter(N, Wn, btype=btype, ftype=ftype,
                                output="sos", **extra)
            got = es.iirfilter(N, Wn, btype=btype, ftype=ftype,
                               output="sos", **extra, device=device)
            close(got, want, 1e-8, 1e-11)
            z, p, k = ss.iirfilter(N, Wn, btype=btype, ftype=ftype,
                                   output="zpk", **extra)
            for pairing in ("nearest", "keep_odd", "minimal"):
                close(es.zpk2sos(e(z), e(p), k, pairing=pairing),
                      ss.zpk2sos(z, p, k, pairing=pairing), 1e-8, 1e-11)
    za, pa, ka = ss.butter(5, 10.0, analog=True, output="zpk")
    close(es.zpk2sos(e(za), e(pa), ka, analog=True),
          ss.zpk2sos(za, pa, ka, analog=True), 1e-9, 1e-12)
    close(es.zpk2sos(e([]), e([]), 2.0), ss.zpk2sos([], [], 2.0))
    with pytest.raises(ValueError, match="pairing"):
        es.zpk2sos(e(za), e(pa), ka, pairing="bogus")
    with pytest.raises(ValueError, match="minimal"):
        es.zpk2sos(e(za), e(pa), ka, pairing="nearest", analog=True)
    with pytest.raises(ValueError, match="conjugate"):
        es.zpk2sos(e([1j]), e([0.5, 0.2]), 1.0)
    sos = ss.butter(6, [0.1, 0.3], btype="band", output="sos")
    esos = e(sos)
    close(es.sosfilt_zi(esos), ss.sosfilt_zi(sos), 1e-9, 1e-12)
    for g, w in zip(es.sos2tf(esos), ss.sos2tf(sos)):
        close(g, w, 1e-9, 1e-14)
    gz, gp, gk = es.sos2zpk(esos)
    wz, wp, wk = ss.sos2zpk(sos)
    np.testing.assert_allclose(sorted_roots(gp), sorted_roots(wp), atol=1e-9)
    np.testing.assert_allclose(sorted_roots(gz), sorted_roots(wz), atol=1e-6)
    assert abs(gk - wk) <= 1e-9 * abs(wk)
    x = rng.standard_normal((2, 300))
    for kw in [{}, dict(padtype="even", padlen=40), dict(padtype=None)]:
        close(es.sosfiltfilt(esos, e(x), **kw), ss.sosfiltfilt(sos, x, **kw),
              1e-8, 1e-11)
    close(es.sosfiltfilt(esos, e(x.T), axis=0),
          ss.sosfiltfilt(sos, x.T, axis=0), 1e-8, 1e-11)
    with pytest.raises(ValueError, match="padlen"):
        es.sosfiltfilt(esos, e(x[:, :20]))
    with pytest.raises(ValueError, match="n_sections, 6"):
        es.sosfiltfilt(e(np.ones((2, 5))), e(x))


def test_waveforms(device):
    t = np.linspace(-1, 6, 701)
    e = ember.asarray(t, device=device)
    for method, f0, f1 in (("linear", 6, 1), ("quadratic", 1, 9),
                           ("logarithmic", 2, 20), ("hyperbolic", 3, 8)):
        tt = t[t >= 0] if method == "hyperbolic" else t
        et = ember.asarray(tt, device=device)
        close(es.chirp(et, f0, 5.0, f1, method=method, phi=30),
              ss.chirp(tt, f0, 5.0, f1, method=method, phi=30), 1e-9, 1e-9)
    close(es.chirp(e, 1, 2, 5, method="quadratic", vertex_zero=False),
          ss.chirp(t, 1, 2, 5, method="quadratic", vertex_zero=False),
          1e-9, 1e-9)
    close(es.chirp(e, 1, 2, 5, complex=True),
          ss.chirp(t, 1, 2, 5, complex=True), 1e-9, 1e-9)
    with pytest.raises(ValueError, match="method"):
        es.chirp(e, 1, 2, 5, method="bogus")
    with pytest.raises(ValueError, match="same sign"):
        es.chirp(e, -1, 2, 5, method="log")
    x = ember.asarray(np.linspace(-10, 30, 1000), device=device)
    xs = np.linspace(-10, 30, 1000)
    for w in (1, 0.5, 0.0, 0.2, 1.5, -0.1):
        close(es.sawtooth(x, w), ss.sawtooth(xs, w), 1e-12, 1e-12)
        close(es.square(x, w), ss.square(xs, w))
    wv = np.linspace(0, 1, 1000)
    close(es.square(x, ember.asarray(wv, device=device)), ss.square(xs, wv))
    for args in [(8,), ((3, 4), "mid"), (7, 3), ((2, 3), (1, 2))]:
        close(es.unit_impulse(*args, device=device), ss.unit_impulse(*args))


def test_cola_csd_coherence_lombscargle(device):
    for win, n, ov in (("hann", 64, 32), ("hann", 64, 16), ("boxcar", 10, 0),
                       (("tukey", 0.3), 40, 20), ("hamming", 31, 10)):
        assert es.check_COLA(win, n, ov) == ss.check_COLA(win, n, ov)
        assert es.check_NOLA(win, n, ov) == ss.check_NOLA(win, n, ov)
    assert es.check_NOLA(np.zeros(8), 8, 4) is False
    with pytest.raises(ValueError):
        es.check_COLA("hann", 8, 8)
    with pytest.raises(ValueError):
        es.check_NOLA("hann", 8, -1)
    x = rng.standard_normal((2, 3000))
    y = np.roll(x, 3, axis=-1) + 0.3 * rng.standard_normal((2, 3000))
    ex, ey = ember.asarray(x, device=device), ember.asarray(y, device=device)
    for kw in [{}, dict(nperseg=128, noverlap=100, nfft=256),
               dict(scaling="spectrum", average="median"),
               dict(return_onesided=False, detrend="linear", nperseg=100),
               dict(window=np.hanning(64), detrend=False)]:
        for g, w in zip(es.csd(ex, ey, 100.0, **kw),
                        ss.csd(x, y, 100.0, **kw)):
            close(g, w, 1e-9, 1e-12)
    for g, w in zip(es.csd(ex, ex, 100.0), ss.csd(x, x, 100.0)):
        close(g, w, 1e-9, 1e-12)
    for g, w in zip(es.csd(ex[:, :2000], ey, axis=-1),
                    ss.csd(x[:, :2000], y, axis=-1)):
        close(g, w, 1e-9, 1e-12)
    for g, w in zip(es.coherence(ex, ey, 100.0, nperseg=200),
                    ss.coherence(x, y, 100.0, nperseg=200)):
        close(g, w, 1e-9, 1e-12)
    for g, w in zip(es.csd(ember.asarray(x.T, device=device),
                           ember.asarray(y.T, device=device), axis=0),
                    ss.csd(x.T, y.T, axis=0)):
        close(g, w, 1e-9, 1e-12)
    with pytest.raises(ValueError, match="noverlap"):
        es.csd(ex, ey, nperseg=64, noverlap=64)
    with pytest.raises(ValueError, match="scaling"):
        es.csd(ex, ey, scaling="bogus")
    t = np.sort(rng.random(300)) * 10
    s = np.sin(2 * np.pi * 1.3 * t) + 0.2 * rng.standard_normal(300) + 0.5
    f = np.linspace(0.1, 20, 400)
    et, es_, ef = (ember.asarray(v, device=device) for v in (t, s, f))
    wts = rng.random(300) + 0.1
    for kw in [{}, dict(normalize=True), dict(normalize="amplitude"),
               dict(floating_mean=True),
               dict(floating_mean=True, normalize=True,
                    weights=wts)]:
        kw_e = dict(kw)
        if "weights" in kw:
            kw_e["weights"] = ember.asarray(kw["weights"], device=device)
        close(es.lombscargle(et, es_, ef, **kw_e),
              ss.lombscargle(t, s, f, **kw), 1e-8, 1e-10)
    with pytest.raises(ValueError, match="equal non-zero length"):
        es.lombscargle(et, es_[:10], ef)
    with pytest.raises(ValueError, match="Normalize"):
        es.lombscargle(et, es_, ef, normalize="bogus")
    with pytest.raises(ValueError, match="weights"):
        es.lombscargle(et, es_, ef, weights=-ember.ones(300, device=device))


@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128",
                                   "int64"])
def test_upfirdn_resample_poly_decimate(device, dtype):
    x = rng.standard_normal((3, 157)) * 10
    if dtype == "complex128":
        x = x + 1j * rng.standard_normal((3, 157))
    x = x.astype(dtype)
    e = ember.asarray(x, device=device)
    tol = 1e-5 if dtype == "float32" else 1e-10
    h = rng.standard_normal(7)
    for up, down in ((1, 1), (3, 1), (1, 4), (3, 2), (2, 5)):
        close(es.upfirdn(h, e, up, down), ss.upfirdn(h, x, up, down), tol,
              tol)
        close(es.upfirdn(ember.asarray(h, device=device), e.T, up, down,
                         axis=0), ss.upfirdn(h, x.T, up, down, axis=0),
              tol, tol)
    if dtype == "int64":
        return
    for up, down, kw in ((3, 2, {}), (1, 3, {}), (5, 1, {}),
                         (2, 3, dict(window=("kaiser", 8.0))),
                         (2, 3, dict(padtype="mean")),
                         (3, 4, dict(padtype="median")),
                         (2, 1, dict(window=list(ss.firwin(21, 0.4))))):
        if dtype == "complex128" and kw.get("padtype") == "median":
            continue  # ember.median has no complex order
        close(es.resample_poly(e, up, down, axis=1, **kw),
              ss.resample_poly(x, up, down, axis=1, **kw), tol, tol)
    if dtype != "complex128":
        for kw in [dict(q=4), dict(q=3, ftype="fir"),
                   dict(q=2, ftype="fir", zero_phase=False),
                   dict(q=3, zero_phase=False), dict(q=2, n=6)]:
            want = ss.decimate(x.astype("float64"), **kw)
            got = es.decimate(ember.asarray(x.astype("float64"),
                                            device=device), **kw)
            close(got, want, 1e-8, 1e-9)
    with pytest.raises(ValueError, match="1-D"):
        es.upfirdn(np.ones((2, 2)), e)
    with pytest.raises(ValueError, match=">= 1"):
        es.upfirdn(h, e, 0, 1)
    with pytest.raises(NotImplementedError):
        es.upfirdn(h, e, mode="wrap")
    with pytest.raises(ValueError, match="integer"):
        es.resample_poly(e, 1.5, 2)
    with pytest.raises(ValueError, match="padtype"):
        es.resample_poly(e, 2, 3, padtype="bogus")
    with pytest.raises(ValueError, match="ftype"):
        es.decimate(e, 2, ftype="bogus")


def test_elliptic_and_order_selection(device):
    """ellipap from the AGM and Jacobi's functions on Python floats, the
    elliptic filters through iirfilter, and buttord, cheb1ord, cheb2ord,
    ellipord and iirdesign, as the signal tutorial's iirfilter(ftype=
    'ellip') and iirdesign(analog=True) examples use them."""
    for N, rp, rs in ((1, 1, 40), (2, 0.5, 30), (3, 1, 40), (4, 5, 60),
                      (5, 0.1, 80), (8, 2, 50)):
        z, p, k = ss.ellipap(N, rp, rs)
        gz, gp, gk = es.ellipap(N, rp, rs)
        np.testing.assert_allclose(sorted_roots(gz), sorted_roots(z),
                                   rtol=1e-9, atol=1e-9)
        np.testing.assert_allclose(sorted_roots(gp), sorted_roots(p),
                                   rtol=1e-9, atol=1e-9)
        assert abs(gk - k) <= 1e-9 * abs(k)
    for kw in (dict(N=4, Wn=0.2, rp=5, rs=60, btype="lowpass"),
               dict(N=5, Wn=0.3, rp=1, rs=40, btype="highpass"),
               dict(N=3, Wn=[0.2, 0.5], rp=0.5, rs=50, btype="bandpass"),
               dict(N=4, Wn=[0.2, 0.4], rp=1, rs=45, btype="bandstop"),
               dict(N=4, Wn=100.0, rp=2, rs=40, analog=True, btype="low"),
               dict(N=6, Wn=2500, rp=1, rs=60, fs=16000, btype="low")):
        for out in ("ba", "sos"):
            want = ss.iirfilter(ftype="ellip", output=out, **kw)
            got = es.iirfilter(ftype="ellip", output=out, device=device,
                               **kw)
            for g, w in zip((got,) if out == "sos" else got,
                            (want,) if out == "sos" else want):
                close(g, w, 1e-7, 1e-10)
    for g, w in zip(es.ellip(4, 1, 40, 0.3, device=device),
                    ss.ellip(4, 1, 40, 0.3)):
        close(g, w, 1e-7, 1e-10)
    specs = [dict(wp=0.2, ws=0.3, gpass=1, gstop=40),
             dict(wp=0.3, ws=0.2, gpass=2, gstop=50),
             dict(wp=[0.2, 0.5], ws=[0.1, 0.6], gpass=1, gstop=45),
             dict(wp=100, ws=200, gpass=2.0, gstop=40., analog=True),
             dict(wp=1000, ws=1500, gpass=1, gstop=30, fs=8000)]
    for spec in specs:
        for f in ("buttord", "cheb1ord", "cheb2ord", "ellipord"):
            n, wn = getattr(es, f)(**spec)
            wn_, = [wn]
            wn_want = getattr(ss, f)(**spec)
            assert n == wn_want[0], (f, spec)
            np.testing.assert_allclose(host(wn_), wn_want[1], rtol=1e-9)
        for ftype in ("ellip", "butter", "cheby1", "cheby2"):
            got = es.iirdesign(ftype=ftype, device=device, **spec)
            want = ss.iirdesign(ftype=ftype, **spec)
            for g, w in zip(got, want):
                close(g, w, 1e-6, 1e-10)
    w, h = ss.freqs(*ss.iirdesign(wp=100, ws=200, gpass=2.0, gstop=40.,
                                  analog=True))
    gw, gh = es.freqs(*es.iirdesign(wp=100, ws=200, gpass=2.0, gstop=40.,
                                    analog=True, device=device))
    close(gw, w, 1e-9, 1e-12)
    close(gh, h, 1e-6, 1e-12)
    with pytest.raises(NotImplementedError, match="band-stop"):
        es.iirdesign([0.1, 0.6], [0.2, 0.5], 1, 40)
    with pytest.raises(ValueError, match="gpass"):
        es.buttord(0.2, 0.3, 50, 40)
    with pytest.raises(ValueError, match="Invalid IIR"):
        es.iirdesign(0.2, 0.3, 1, 40, ftype="bogus")
    with pytest.raises(ValueError, match="order selection"):
        es.iirdesign(0.2, 0.3, 1, 40, ftype="bessel")
    with pytest.raises(ValueError, match="less than 1"):
        es.iirdesign(0.2, 1.3, 1, 40)
    with pytest.raises(ValueError, match="strictly inside"):
        es.iirdesign([0.2, 0.5], [0.3, 0.6], 1, 40)
    with pytest.raises(ValueError, match="rp and rs"):
        es.iirfilter(3, 0.2, rp=1, ftype="ellip")
