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

__all__ = ["spectrogram", "istft"]


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
