"""ember.scipy.signal's spectrogram and inverse STFT (re-exported by
ember.scipy.signal), beside stft in signal_spectral.py: spectrogram is
stft without boundary extension or padding, squared (or its magnitude,
angle or unwrapped phase); istft inverts each segment's spectrum in one
batched inverse FFT and overlap-adds the windowed segments and the
squared window with one scatter-add each (ember.add.at), then divides
(SciPy's least-squares inverse)."""
import math
import warnings

import ember as _e
from ember._api._util import as_array as _arr
from ember.scipy.signal_spectral import get_window, stft

__all__ = ["spectrogram", "istft", "check_COLA", "check_NOLA", "csd",
           "coherence", "lombscargle"]


def spectrogram(x, fs=1.0, window=("tukey", .25), nperseg=None,
                noverlap=None, nfft=None, detrend="constant",
                return_onesided=True, scaling="density", axis=-1,
                mode="psd"):
    """scipy.signal.spectrogram: (frequencies, segment times, Sxx) of
    segments nperseg long (256 by default, at most the signal), nperseg //
    8 overlapping, each detrended; 'psd' the scaled squared magnitude
    (one-sided spectra folded), 'complex' the scaled STFT, 'magnitude'
    its absolute value, 'angle' and 'phase' its angle (unwrapped along
    the frequencies for 'phase')."""
    if mode not in ("psd", "complex", "magnitude", "angle", "phase"):
        raise ValueError(f"unknown value for mode {mode}, must be one of "
                         "['psd', 'complex', 'magnitude', 'angle', 'phase']")
    if scaling not in ("density", "spectrum"):
        raise ValueError(f"Unknown scaling: {scaling!r}")
    x = _arr(x)
    n = x.shape[axis] if x.ndim else 0
    if isinstance(window, (str, tuple)):
        nperseg = 256 if nperseg is None else int(nperseg)
        if nperseg > n:
            warnings.warn(f"nperseg = {nperseg:d} is greater than "
                          f"input length  = {n:d}, using nperseg = {n:d}",
                          stacklevel=2)
            nperseg = n
    else:
        w = _arr(window, x.device)
        nperseg = w.shape[0] if nperseg is None else nperseg
    if noverlap is None:
        noverlap = nperseg // 8
    f, t, S = stft(x, fs, window, nperseg, noverlap, nfft,
                   detrend if detrend is not None else False,
                   return_onesided, None, False, axis,
                   "psd" if scaling == "density" else "spectrum")
    if mode == "complex":
        return f, t, S
    if mode == "magnitude":
        return f, t, _e.abs(S)
    # the frequency axis of S: where axis was, counted with the segments'
    # axis added after it
    fax = (axis - 1 if axis < 0 else axis) % S.ndim
    if mode in ("angle", "phase"):
        A = _e.angle(S)
        return f, t, (_e.unwrap(A, axis=fax) if mode == "phase" else A)
    P = (_e.conj(S) * S).real
    if return_onesided and x.dtype.kind != "c":
        nf = S.shape[fax]
        full = nperseg if nfft is None else int(nfft)
        stop = nf if full % 2 else nf - 1
        idx = [slice(None)] * P.ndim
        idx[fax] = slice(1, stop)
        P[tuple(idx)] *= 2
    return f, t, P


def istft(Zxx, fs=1.0, window="hann", nperseg=None, noverlap=None,
          nfft=None, input_onesided=True, boundary=True, time_axis=-1,
          freq_axis=-2, scaling="spectrum"):
    """scipy.signal.istft: (times, x) from an STFT: each segment's inverse
    FFT times the window, overlap-added and divided by the overlap-added
    squared window (a NOLA failure warns, as SciPy's)."""
    import ember.fft as fft
    Z = _arr(Zxx)
    Z = Z.astype(_e.complex64 if Z.dtype in (_e.float32, _e.complex64)
                 else _e.complex128)
    freq_axis, time_axis = int(freq_axis), int(time_axis)
    if Z.ndim < 2:
        raise ValueError("Input stft must be at least 2d!")
    if freq_axis == time_axis:
        raise ValueError("Must specify differing time and frequency axes!")
    nseg = Z.shape[time_axis]
    n_default = 2 * (Z.shape[freq_axis] - 1) if input_onesided else \
        Z.shape[freq_axis]
    if nperseg is None:
        nperseg = n_default
    else:
        nperseg = int(nperseg)
        if nperseg < 1:
            raise ValueError("nperseg must be a positive integer")
    if nfft is None:
        nfft = nperseg if input_onesided and nperseg == n_default + 1 \
            else n_default
    elif nfft < nperseg:
        raise ValueError("nfft must be greater than or equal to nperseg.")
    else:
        nfft = int(nfft)
    noverlap = nperseg // 2 if noverlap is None else int(noverlap)
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    nstep = nperseg - noverlap
    fa, ta = freq_axis % Z.ndim, time_axis % Z.ndim
    if ta != Z.ndim - 1 or fa != Z.ndim - 2:
        outer = [i for i in range(Z.ndim) if i not in (fa, ta)]
        Z = _e.transpose(Z, outer + [fa, ta])
    if isinstance(window, (str, tuple)):
        win = get_window(window, nperseg, device=Z.device)
    else:
        win = _arr(window, Z.device)
        if win.ndim != 1:
            raise ValueError("window must be 1-D")
        if win.shape[0] != nperseg:
            raise ValueError(f"window must have length of {nperseg}")
    if scaling not in ("spectrum", "psd"):
        raise ValueError(f"Parameter scaling={scaling!r} not in "
                         "['spectrum', 'psd']!")
    ifunc = fft.irfft if input_onesided else fft.ifft
    xsubs = ifunc(Z, n=nfft, axis=-2)[..., :nperseg, :]
    if _e.result_type(win, xsubs) != xsubs.dtype:
        win = win.astype(xsubs.dtype)
    xsubs = xsubs * (_e.sum(win) if scaling == "spectrum" else
                     math.sqrt(fs * float(_e.sum(win ** 2).real)))
    L = nperseg + (nseg - 1) * nstep
    batch = xsubs.shape[:-2]
    B = math.prod(batch)
    # (B, nseg, nperseg) windowed frames, scattered to their positions
    frames = _e.moveaxis(xsubs, -1, -2).reshape(B, nseg, nperseg) * win
    pos = (_e.arange(nseg, device=Z.device)[:, None] * nstep +
           _e.arange(nperseg, device=Z.device))
    rows = _e.arange(B, device=Z.device)[:, None, None] * L
    out = _e.zeros(B * L, dtype=xsubs.dtype, device=Z.device)
    _e.add.at(out, (rows + pos).reshape(-1), frames.reshape(-1))
    norm = _e.zeros(L, dtype=xsubs.dtype, device=Z.device)
    _e.add.at(norm, pos.reshape(-1),
              _e.broadcast_to(win * win, (nseg, nperseg)).reshape(-1))
    out = out.reshape(batch + (L,))
    if boundary:
        h = nperseg // 2
        out = out[..., h:L - h]
        norm = norm[h:L - h]
    ok = norm.real > 1e-10 if norm.dtype.kind == "c" else norm > 1e-10
    if int(_e.sum(ok)) != norm.shape[0]:
        warnings.warn("NOLA condition failed, STFT may not be invertible." +
                      (" Possibly due to missing boundary"
                       if not boundary else ""), stacklevel=2)
    out = out / _e.where(ok, norm, 1.0)
    if input_onesided:
        out = out.real
    if out.ndim > 1 and ta != Z.ndim - 1:
        t_ax = ta - 1 if fa < ta else ta
        out = _e.moveaxis(out, -1, t_ax)
    time = _e.arange(out.shape[0], device=Z.device) / float(fs)
    return time, out


def _window_for(window, nperseg, device):
    if isinstance(window, (str, tuple)):
        return get_window(window, nperseg, device=device)
    win = _arr(window, device)
    if win.ndim != 1:
        raise ValueError("window must be 1-D")
    if win.shape[0] != nperseg:
        raise ValueError("window must have length of nperseg")
    return win


def _binsums(win, nperseg, noverlap, square):
    step = nperseg - noverlap
    w = win * win if square else win
    sums = _e.sum(w[:(nperseg // step) * step].reshape(-1, step), axis=0)
    r = nperseg % step
    if r:
        sums[:r] = sums[:r] + w[-r:]
    return sums


def check_COLA(window, nperseg, noverlap, tol=1e-10):
    """scipy.signal.check_COLA: whether the window's overlapped copies
    add to a constant."""
    nperseg = int(nperseg)
    if nperseg < 1:
        raise ValueError("nperseg must be a positive integer")
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    win = _window_for(window, nperseg, None)
    s = _binsums(win, nperseg, int(noverlap), False)
    return bool(_e.max(_e.abs(s - _e.median(s))) < tol)


def check_NOLA(window, nperseg, noverlap, tol=1e-10):
    """scipy.signal.check_NOLA: whether the squared window's overlapped
    copies stay above tol everywhere (istft can invert)."""
    nperseg = int(nperseg)
    if nperseg < 1:
        raise ValueError("nperseg must be a positive integer")
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg")
    if noverlap < 0:
        raise ValueError("noverlap must be a nonnegative integer")
    win = _window_for(window, nperseg, None)
    return bool(_e.min(_binsums(win, nperseg, int(noverlap), True)) > tol)


def csd(x, y, fs=1.0, window="hann_periodic", nperseg=None, noverlap=None,
        nfft=None, detrend="constant", return_onesided=True,
        scaling="density", axis=-1, average="mean"):
    """scipy.signal.csd: the cross spectral density conj(X) Y averaged
    over overlapping windowed segments (welch's for two signals; the
    shorter one padded with zeros); the segments one gather each, their
    spectra one batched FFT each."""
    import ember.fft as fft
    from ember.scipy.signal_spectral import detrend as _detrend
    same = y is x
    x = _arr(x)
    y = x if same else _arr(y, x.device)
    axis = int(axis)
    x = _e.moveaxis(x, axis, -1)
    y = _e.moveaxis(y, axis, -1)
    out_t = _e.result_type(x.dtype, y.dtype, _e.complex64)
    n = max(x.shape[-1], y.shape[-1])
    if isinstance(window, (str, tuple)):
        nperseg = int(nperseg) if nperseg is not None else 256
        if nperseg < 1:
            raise ValueError(f"Parameter nperseg={nperseg} is not a positive "
                             "integer!")
        if n < nperseg:
            warnings.warn(f"nperseg={nperseg} is greater than signal length "
                          f"max(len(x), len(y)) = {n}, using nperseg = {n}",
                          stacklevel=2)
            nperseg = n
        win = get_window(window, nperseg, device=x.device)
    else:
        win = _arr(window, x.device)
        nperseg = win.shape[0] if nperseg is None else nperseg
    if nperseg != win.shape[0]:
        raise ValueError(f"nperseg={nperseg} does not equal "
                         f"len(win)={win.shape[0]}")
    nfft = int(nfft) if nfft is not None else nperseg
    if nfft < nperseg:
        raise ValueError(f"nfft={nfft} must be greater than or equal to "
                         f"nperseg={nperseg}!")
    noverlap = int(noverlap) if noverlap is not None else nperseg // 2
    if noverlap >= nperseg:
        raise ValueError(f"noverlap={noverlap} must be less than "
                         f"nperseg={nperseg}!")
    if scaling not in ("spectrum", "density"):
        raise ValueError(f"Parameter scaling={scaling!r} not in "
                         "{'spectrum': 'magnitude', 'density': 'psd'}!")
    if average not in ("mean", "median"):
        raise ValueError(f"Parameter average={average!r} must be 'median' "
                         "or 'mean'!")
    if x.dtype.kind == "c":
        return_onesided = False
    lead = [(0, 0)] * (x.ndim - 1)
    if x.shape[-1] < n:
        x = _e.pad(x, lead + [(0, n - x.shape[-1])])
    lead = [(0, 0)] * (y.ndim - 1)
    if y.shape[-1] < n:
        y = _e.pad(y, lead + [(0, n - y.shape[-1])])
    step = nperseg - noverlap
    count = (n - noverlap) // step
    pos = (_e.arange(count, device=x.device)[:, None] * step +
           _e.arange(nperseg, device=x.device))
    real_t = _e.float32 if out_t == _e.complex64 else _e.float64

    def spectra(v):
        v = v.astype(real_t) if v.dtype.kind in "biuf" else v
        seg = v[..., pos]
        if detrend is not False and detrend is not None:
            seg = detrend(seg) if callable(detrend) else \
                _detrend(seg, axis=-1, type=detrend)
        seg = seg * win.astype(real_t)
        if return_onesided:
            return fft.rfft(seg, nfft, axis=-1)
        return fft.fft(seg, nfft, axis=-1)
    X = spectra(x)
    Y = X if same else spectra(y)
    scale = 1.0 / (fs * float(_e.sum(win * win))) if scaling == "density" \
        else 1.0 / float(_e.sum(win)) ** 2
    P = _e.conj(X) * Y * scale
    if return_onesided:
        P[..., 1:-1 if nfft % 2 == 0 else None] *= 2
    if count > 1:
        if average == "median":
            bias = 1 + sum(1 / (2 * i + 1) - 1 / (2 * i)
                           for i in range(1, (count - 1) // 2 + 1))
            P = (_e.median(P.real, axis=-2) +
                 1j * _e.median(P.imag, axis=-2)) / bias
        else:
            P = _e.mean(P, axis=-2)
    else:
        P = P[..., 0, :]
    P = P.astype(out_t)
    if same:
        P = P.real
    f = fft.rfftfreq(nfft, 1 / fs, device=x.device) if return_onesided \
        else fft.fftfreq(nfft, 1 / fs, device=x.device)
    return f, _e.moveaxis(P, -1, axis)


def coherence(x, y, fs=1.0, window="hann_periodic", nperseg=None,
              noverlap=None, nfft=None, detrend="constant", axis=-1):
    """scipy.signal.coherence: |Pxy|^2 / (Pxx Pyy) from welch and csd."""
    from ember.scipy.signal_spectral import welch
    kw = dict(fs=fs, window=window, nperseg=nperseg, noverlap=noverlap,
              nfft=nfft, detrend=detrend, axis=axis)
    f, Pxx = welch(x, **kw)
    _, Pyy = welch(y, **kw)
    _, Pxy = csd(x, y, **kw)
    return f, _e.abs(Pxy) ** 2 / Pxx / Pyy


def lombscargle(x, y, freqs, *, precenter=None, normalize=False,
                weights=None, floating_mean=False):
    """scipy.signal.lombscargle (SciPy 1.17's generalised form): the
    weighted least-squares fit of a sinusoid at each angular frequency to
    unevenly sampled y(x): matrix products over the (samples x
    frequencies) table of phases, on x's device."""
    x = _arr(x).astype(_e.float64)
    y = _arr(y, x.device).astype(_e.float64)
    fq = _arr(freqs, x.device).astype(_e.float64)
    w = _e.ones_like(y) if weights is None else \
        _arr(weights, x.device).astype(_e.float64)
    if not (x.ndim == 1 and x.size > 0 and x.shape == y.shape == w.shape):
        raise ValueError("Parameters x, y, weights must be 1-D arrays of "
                         "equal non-zero length!")
    if not (fq.ndim == 1 and fq.size > 0):
        raise ValueError("Parameter freqs must be a 1-D array of non-zero "
                         "length!")
    if not (bool(_e.all(w >= 0)) and float(_e.sum(w)) > 0):
        raise ValueError("Parameter weights must have only non-negative "
                         "entries which sum to a positive value!")
    if isinstance(normalize, bool):
        normalize = "normalize" if normalize else "power"
    if normalize not in ("power", "normalize", "amplitude"):
        raise ValueError("Normalize must be: False (or 'power'), True (or "
                         "'normalize'), or 'amplitude'.")
    w = w * (1.0 / _e.sum(w))
    if precenter is not None:
        warnings.warn("Use of parameter 'precenter' is deprecated as of "
                      "SciPy 1.17.0 and will be removed in 1.19.0.",
                      DeprecationWarning, stacklevel=2)
        if precenter:
            y = y - _e.mean(y)
    wt = w.reshape(1, -1)
    wy = (w * y).reshape(1, -1)
    ft = x.reshape(-1, 1) * fq.reshape(1, -1)
    c, s = _e.cos(ft), _e.sin(ft)
    Y = wt @ y.reshape(-1, 1)
    CC = wt @ (c * c)
    SS = 1.0 - CC
    CS = wt @ (c * s)
    if floating_mean:
        C, S = wt @ c, wt @ s
        CC, SS, CS = CC - C * C, SS - S * S, CS - C * S
    tau = 0.5 * _e.arctan2(2.0 * CS, CC - SS)
    ftt = ft - tau
    ct, st = _e.cos(ftt), _e.sin(ftt)
    YC, YS = wy @ ct, wy @ st
    CC = wt @ (ct * ct)
    SS = 1.0 - CC
    if floating_mean:
        C, S = wt @ ct, wt @ st
        YC, YS = YC - Y * C, YS - Y * S
        CC, SS = CC - C * C, SS - S * S
    eps = 2.0 ** -53
    CC = _e.where(CC < eps, eps, CC)
    SS = _e.where(SS < eps, eps, SS)
    a, b = YC / CC, YS / SS
    if normalize == "amplitude":
        return _e.squeeze((a + 1j * b) * _e.exp(1j * tau))
    p = _e.squeeze(2.0 * (a * YC + b * YS))
    if normalize == "power":
        return p * (float(x.shape[0]) / 4.0)
    YY = wy @ y.reshape(-1, 1)
    if floating_mean:
        YY = YY - Y * Y
    return p * (0.5 / _e.squeeze(YY))
