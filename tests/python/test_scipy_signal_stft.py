"""ember.scipy.signal.ShortTimeFFT against scipy.signal.ShortTimeFFT: the
slice range (p_min, p_max, k_min, k_max, the borders) for windows with and
without zero ends, every fft_mode, scaling, phase_shift, mfft, padding and
detrend, N-d signals along any axis, istft (also of part of a signal and
along other axes), spectrograms, the other constructors, SciPy's tutorial
examples (the legacy stft/istft/spectrogram it compares with) and the
errors SciPy raises."""
import numpy as np
import pytest
import scipy.signal as ss

import ember
import ember.scipy.signal as es
from helpers import assert_close_scaled

rng = np.random.default_rng(5)


def E(x, device):
    return ember.asarray(x, device=device)


def close(got, want, tol=1e-11):
    assert_close_scaled(got, want, tol)


def pair(win, hop, fs, device, **kw):
    return (ss.ShortTimeFFT(win, hop, fs, **kw),
            es.ShortTimeFFT(E(win, device), hop, fs, **kw))


WINDOWS = [  # (window, hop, keywords)
    (ss.windows.hann(16, sym=True), 4, {}),          # zeros at both ends
    (ss.windows.hann(15), 5, {"mfft": 20}),
    (ss.windows.gaussian(9, 2), 3, {"fft_mode": "centered",
                                    "phase_shift": None}),
    (np.ones(8), 8, {"fft_mode": "twosided", "phase_shift": 3}),
    (ss.windows.hann(16), 4, {"scale_to": "psd", "fft_mode": "onesided2X"}),
    (ss.windows.hann(11), 2, {"scale_to": "magnitude",
                              "fft_mode": "onesided2X", "mfft": 16,
                              "phase_shift": -5}),
    (np.r_[0, 0, 0, np.hanning(7), 0], 3, {"phase_shift": 7}),
]


@pytest.mark.parametrize("case", range(len(WINDOWS)))
def test_properties(device, case):
    win, hop, kw = WINDOWS[case]
    A, B = pair(win, hop, 10.0, device, **kw)
    for name in ("p_min", "k_min", "lower_border_end", "m_num", "m_num_mid",
                 "mfft", "f_pts", "delta_t", "delta_f", "T", "fs", "hop",
                 "fft_mode", "scaling", "onesided_fft", "phase_shift",
                 "invertible"):
        assert getattr(B, name) == getattr(A, name), name
    assert B.fac_magnitude == pytest.approx(A.fac_magnitude, rel=1e-13)
    assert B.fac_psd == pytest.approx(A.fac_psd, rel=1e-13)
    for n in (B.m_num - B.m_num_mid, 17, 100, 101):
        assert B.p_max(n) == A.p_max(n) and B.k_max(n) == A.k_max(n)
        assert B.p_num(n) == A.p_num(n)
        assert B.upper_border_begin(n) == A.upper_border_begin(n)
        assert B.p_range(n) == A.p_range(n)
        close(B.t(n), A.t(n))
        if A.p_num(n) > 2:
            close(B.t(n, B.p_min + 1, B.p_max(n) - 1, k_offset=3),
                  A.t(n, A.p_min + 1, A.p_max(n) - 1, k_offset=3))
        if A.fft_mode != "twosided":
            assert B.extent(n, "ft", True) == pytest.approx(
                A.extent(n, "ft", True))
    for k in (-7, 0, 5, 12):
        assert B.nearest_k_p(k) == A.nearest_k_p(k)
        assert B.nearest_k_p(k, left=False) == A.nearest_k_p(k, left=False)
    close(B.f, A.f)
    close(B.win, A.win)
    close(B.dual_win, A.dual_win)
    assert B.f.device == B.win.device == ember.Device(device)


@pytest.mark.parametrize("case", range(len(WINDOWS)))
@pytest.mark.parametrize("padding", ["zeros", "edge", "even", "odd"])
def test_stft_istft(device, case, padding):
    win, hop, kw = WINDOWS[case]
    A, B = pair(win, hop, 10.0, device, **kw)
    x = rng.standard_normal(100)
    S = A.stft(x, padding=padding)
    close(B.stft(E(x, device), padding=padding), S)
    close(B.stft(E(x, device), 2, 9, k_offset=5, padding=padding),
          A.stft(x, 2, 9, k_offset=5, padding=padding))
    for detr in ("constant", "linear"):
        close(B.stft_detrend(E(x, device), detr, padding=padding),
              A.stft_detrend(x, detr, padding=padding))
    close(B.spectrogram(E(x, device), padding=padding),
          A.spectrogram(x, padding=padding))
    Se = E(S, device)
    close(B.istft(Se), A.istft(S))
    close(B.istft(Se, k1=100), A.istft(S, k1=100))
    if hop < len(win):   # SciPy's own fails for a hop as long as win
        close(B.istft(Se, 13, 61), A.istft(S, 13, 61))
    # from k_min: the slices before p_min are not there (SciPy reads them
    # from S's end; zero columns appended there give it the right answer)
    S0 = np.concatenate([S, np.zeros((S.shape[0], 8))], axis=-1)
    close(B.istft(Se, A.k_min, 40), A.istft(S0, A.k_min, 40))


def test_round_trip_and_complex(device):
    """istft(stft(x)) is x; complex signals take the two-sided modes."""
    win = ss.windows.hann(32)
    for mode in ("twosided", "centered"):
        A, B = pair(win, 8, 1.0, device, fft_mode=mode)
        z = rng.standard_normal(200) + 1j * rng.standard_normal(200)
        S = B.stft(E(z, device))
        close(S, A.stft(z))
        close(B.istft(S, k1=200), z)
        close(B.spectrogram(E(z, device)), A.spectrogram(z))
        y = rng.standard_normal(200)
        close(B.spectrogram(E(z, device), E(y, device), "linear"),
              A.spectrogram(z, y, "linear"))
    A, B = pair(win, 8, 1.0, device)
    x = rng.standard_normal(200)
    close(B.istft(B.stft(E(x, device)), k1=200), x)


def test_nd_axes(device):
    A, B = pair(ss.windows.hann(16), 4, 2.0, device)
    X = rng.standard_normal((3, 70, 2))
    S = A.stft(X, axis=1)
    close(B.stft(E(X, device), axis=1), S)
    close(B.stft(E(X, device), axis=-2), A.stft(X, axis=-2))
    close(B.stft_detrend(E(X, device), "linear", axis=1),
          A.stft_detrend(X, "linear", axis=1))
    close(B.istft(E(S, device), f_axis=1, t_axis=-1),
          A.istft(S, f_axis=1, t_axis=-1))
    S2 = np.moveaxis(S, -1, 0)
    close(B.istft(E(S2, device), f_axis=2, t_axis=0),
          A.istft(S2, f_axis=2, t_axis=0))
    # mfft > m_num: SciPy's padding fails for N-d x, so line by line
    A, B = pair(ss.windows.hann(16), 4, 2.0, device, mfft=18)
    got = ember.asnumpy(B.stft(E(X, device), axis=1))
    for i in range(3):
        for j in range(2):
            close(got[i, :, j], A.stft(X[i, :, j]))
    A, B = pair(ss.windows.hann(16), 4, 2.0, device)
    X2 = rng.standard_normal((2, 3, 40))
    close(B.spectrogram(E(X2, device), E(X2 + 1, device)),
          A.spectrogram(X2, X2 + 1))


def test_detrend_callable_and_float32(device):
    """A detrend function gets the slices stacked (..., slices, m_num);
    float32 signals give complex128 spectra, as SciPy's."""
    A, B = pair(ss.windows.hann(12), 3, 1.0, device)
    x = rng.standard_normal(50).astype(np.float32)
    close(B.stft_detrend(E(x, device), lambda s: s - s[..., :1]),
          A.stft_detrend(x, lambda s: s - s[..., :1]), 1e-6)
    close(B.stft(E(x, device)), A.stft(x), 1e-6)


def test_constructors(device):
    for kw in ({}, {"symmetric_win": True, "mfft": 40,
                    "scale_to": "magnitude"},
               {"fft_mode": "centered", "scale_to": "psd",
                "phase_shift": None}):
        A = ss.ShortTimeFFT.from_window(("tukey", .25), 8.0, 32, 24, **kw)
        B = es.ShortTimeFFT.from_window(("tukey", .25), 8.0, 32, 24,
                                        device=device, **kw)
        close(B.win, A.win)
        close(B.f, A.f)
        x = rng.standard_normal(90)
        close(B.stft(E(x, device)), A.stft(x))
    # SciPy's docstring: the Gaussian window both ways
    w = ss.get_window(("gaussian_periodic", 2.), 9)
    B0 = es.ShortTimeFFT(E(w, device), 3, fs=128)
    B1 = es.ShortTimeFFT.from_window(("gaussian", 2.), 128, 9, noverlap=6,
                                     device=device)
    close(B1.win, ember.asnumpy(B0.win))
    dual = ss.windows.hann(20)
    A = ss.ShortTimeFFT.from_dual(dual, 5, 1.0, mfft=24)
    B = es.ShortTimeFFT.from_dual(E(dual, device), 5, 1.0, mfft=24)
    close(B.win, A.win)
    close(B.dual_win, A.dual_win)
    for scale in (None, "magnitude", "psd", "unitary"):
        A = ss.ShortTimeFFT.from_win_equals_dual(ss.windows.gaussian(16, 4),
                                                 4, 2.0, scale_to=scale)
        B = es.ShortTimeFFT.from_win_equals_dual(
            E(ss.windows.gaussian(16, 4), device), 4, 2.0, scale_to=scale)
        close(B.win, A.win)
        close(B.dual_win, A.dual_win)
        assert B.scaling == A.scaling
    # scale_to on an instance scales the window and divides the dual
    A, B = pair(ss.windows.hann(16), 4, 3.0, device)
    _ = A.dual_win, B.dual_win
    A.scale_to("psd")
    B.scale_to("psd")
    close(B.win, A.win)
    close(B.dual_win, A.dual_win)
    A.fft_mode = B.fft_mode = "onesided2X"
    x = rng.standard_normal(64)
    close(B.stft(E(x, device)), A.stft(x))
    A.fs = B.fs = 5.0
    A.T = B.T = 0.25
    assert B.delta_f == A.delta_f and B.fac_psd == A.fac_psd


def test_class_docstring_example(device):
    """ShortTimeFFT's docstring: a Gaussian window's magnitude STFT of a
    frequency-modulated sine, with its plot's extent and borders."""
    T_x, N = 1 / 20, 1000
    t_x = np.arange(N) * T_x
    f_i = 1 * np.arctan((t_x - t_x[N // 2]) / 2) + 5
    x = np.sin(2 * np.pi * np.cumsum(f_i) * T_x)
    w = ss.windows.gaussian(50, std=8, sym=True)
    A = ss.ShortTimeFFT(w, hop=10, fs=1 / T_x, mfft=200,
                        scale_to="magnitude")
    B = es.ShortTimeFFT(E(w, device), hop=10, fs=1 / T_x, mfft=200,
                        scale_to="magnitude")
    close(abs(B.stft(E(x, device))), abs(A.stft(x)))
    assert B.extent(N) == pytest.approx(A.extent(N))
    assert B.lower_border_end == A.lower_border_end
    assert B.upper_border_begin(N) == A.upper_border_begin(N)
    assert (B.p_num(N), B.delta_t, B.f_pts, B.delta_f, B.m_num * B.T) == \
        (A.p_num(N), A.delta_t, A.f_pts, A.delta_f, A.m_num * A.T)


def test_tutorial_legacy_comparison(device):
    """SciPy's STFT tutorial: ShortTimeFFT against the legacy stft, istft
    and spectrogram (ember's own legacy functions, and SciPy's)."""
    fs, N = 1, 1024
    x = rng.standard_normal(N) + 1j * rng.standard_normal(N)
    nperseg, noverlap = 8, 6
    win = ss.windows.hann(nperseg)
    hop = nperseg - noverlap
    SFT = es.ShortTimeFFT(E(win, device), hop, fs=fs, fft_mode="centered",
                          scale_to="magnitude", phase_shift=None)
    Sz1 = SFT.stft(E(x, device))
    f0, t0, Sz0 = es.stft(E(x, device), fs, E(win, device), nperseg,
                          noverlap, return_onesided=False, scaling="spectrum")
    Sz0 = ember.fft.fftshift(Sz0, axes=0)
    q = -SFT.p_min
    close(Sz0, ember.asnumpy(Sz1)[:, q:q + Sz0.shape[1]])
    f0s, t0s, Sz0s = ss.stft(x, fs, win, nperseg, noverlap,
                             return_onesided=False, scaling="spectrum")
    close(Sz0, np.fft.fftshift(Sz0s, axes=0))
    _, x0 = es.istft(ember.fft.ifftshift(Sz0, axes=0), fs, E(win, device),
                     nperseg, noverlap, input_onesided=False,
                     scaling="spectrum")
    x1 = SFT.istft(Sz1, k1=N)
    close(x0, ember.asnumpy(x1))
    close(x1, x)
    # the spectrogram: one-sided 2X, psd, with the mean removed a slice
    x = rng.standard_normal(N)
    nperseg, noverlap = 64, 48
    SFT = es.ShortTimeFFT.from_window(("tukey", .25), fs, nperseg, noverlap,
                                      fft_mode="onesided2X", scale_to="psd",
                                      phase_shift=None, device=device)
    Sx3 = SFT.spectrogram(E(x, device), detr="constant")
    f2, t2, Sx2 = es.spectrogram(E(x, device), fs, ("tukey", .25), nperseg,
                                 noverlap, detrend="constant")
    p0, p1 = SFT.lower_border_end[1], SFT.upper_border_begin(N)[1]
    # the slices the window covers fully, as columns of Sx3 (p_min first)
    Sx3 = ember.asnumpy(Sx3)[:, p0 - SFT.p_min:p1 - SFT.p_min]
    close(Sx2[:, :p1 - p0], Sx3)
    A = ss.ShortTimeFFT.from_window(("tukey", .25), fs, nperseg, noverlap,
                                    fft_mode="onesided2X", scale_to="psd",
                                    phase_shift=None)
    close(Sx3, A.spectrogram(x, detr="constant")[:, p0 - A.p_min:p1 - A.p_min])


def test_errors(device):
    w = E(ss.windows.hann(8), device)
    for bad in (E(np.ones((2, 4)), device), E(np.ones(0), device),
                E(np.array([1.0, np.inf]), device)):
        with pytest.raises(ValueError):
            es.ShortTimeFFT(bad, 2, 1.0)
    for hop in (0, 2.0):
        with pytest.raises(ValueError):
            es.ShortTimeFFT(w, hop, 1.0)
    bad_kw = [{"fs": 0}, {"mfft": 7}, {"fft_mode": "half"},
              {"fft_mode": "onesided2X"}, {"scale_to": "unit"},
              {"phase_shift": 8}, {"phase_shift": 1.5},
              {"dual_win": E(np.ones(7), device)}]
    for kw in bad_kw:
        args = {"fs": 1.0, **kw}
        with pytest.raises(ValueError):
            es.ShortTimeFFT(w, 2, **args)
        with pytest.raises(ValueError):
            ss.ShortTimeFFT(ss.windows.hann(8), 2,
                            **{k: (ember.asnumpy(v) if isinstance(
                                v, ember.ndarray) else v)
                               for k, v in args.items()})
    with pytest.raises(ValueError):   # one-sided of a complex window
        es.ShortTimeFFT(E(np.ones(4) * 1j, device), 2, 1.0)
    B = es.ShortTimeFFT(w, 2, 1.0)
    x = E(rng.standard_normal(30), device)
    z = E(rng.standard_normal(30) + 1j, device)
    with pytest.raises(ValueError):
        B.stft(z)
    with pytest.raises(ValueError):
        B.stft(x, padding="wrap")
    with pytest.raises(ValueError):
        B.stft_detrend(x, 3)
    with pytest.raises(ValueError):
        B.stft_detrend(x, "quadratic")
    with pytest.raises(ValueError):
        B.stft(x[:3])
    with pytest.raises(ValueError):
        B.stft(x, 5, 5)
    with pytest.raises(ValueError):
        B.stft(x, B.p_min - 1)
    with pytest.raises(ValueError):
        B.t(0)
    with pytest.raises(ValueError):
        B.extent(30, "xy")
    S = B.stft(x)
    for args, kw in [((S,), {"f_axis": 0, "t_axis": 0}),
                     ((S[:3],), {}), ((S[:, :1],), {}),
                     ((S, -20), {}), ((S, 0, 2), {}),
                     ((S, 0, 10 ** 6), {})]:
        with pytest.raises(ValueError):
            B.istft(*args, **kw)
    with pytest.raises(ValueError):   # not invertible: hop past the window
        es.ShortTimeFFT(w, 9, 1.0).dual_win
    assert not es.ShortTimeFFT(w, 9, 1.0).invertible
    with pytest.raises(ValueError):
        es.ShortTimeFFT.from_dual(E(np.ones(4, dtype=np.int64), device), 2,
                                  1.0)
    with pytest.raises(ValueError):
        es.ShortTimeFFT.from_win_equals_dual(w, 9, 1.0)
    with pytest.raises(ValueError):
        es.ShortTimeFFT.from_win_equals_dual(w, 2, 1.0, scale_to="x")
    tw = es.ShortTimeFFT(w, 2, 1.0, fft_mode="twosided")
    with pytest.raises(ValueError):
        tw.extent(30)
    if device != "cpu":
        with pytest.raises(ValueError):
            B.stft(E(rng.standard_normal(30), "cpu"))


def test_closest_dual_window(device):
    win = ss.windows.hann(16)
    for desired in (None, ss.windows.gaussian(16, 3), np.ones(16) * 0.5):
        for scaled in (True, False):
            want, wa = ss.closest_STFT_dual_window(win, 4, desired,
                                                   scaled=scaled)
            got, ga = es.closest_STFT_dual_window(
                E(win, device), 4,
                None if desired is None else E(desired, device),
                scaled=scaled)
            close(got, want)
            assert ga == pytest.approx(wa, rel=1e-12)
    zwin = win * np.exp(0.3j * np.arange(16))
    want, wa = ss.closest_STFT_dual_window(zwin, 5, np.ones(16) + 0j)
    got, ga = es.closest_STFT_dual_window(E(zwin, device), 5,
                                          E(np.ones(16) + 0j, device))
    close(got, want)
    assert ga == pytest.approx(wa, rel=1e-12)
    for args in ((E(win, device), 0), (E(win, device), 17),
                 (E(win, device), 4, E(np.ones(15), device)),
                 (E(np.r_[win[:-1], np.nan], device), 4)):
        with pytest.raises(ValueError):
            es.closest_STFT_dual_window(*args)
    with pytest.raises(ValueError):   # not invertible
        es.closest_STFT_dual_window(E(np.r_[np.ones(4), np.zeros(12)],
                                      device), 8)
