"""ember.scipy.signal's windows and spectral functions (re-exported by
ember.scipy.signal), composed over ember's array functions and ember.fft:
get_window and the common windows, hilbert, resample, detrend,
periodogram, welch and stft, with SciPy's arguments, scalings and
dtypes."""
import math

import ember as _e
from ember._api._util import as_array as _arr, real_dtype as _real

__all__ = ["get_window", "general_cosine", "hann", "hamming", "blackman",
           "nuttall", "blackmanharris", "flattop", "boxcar", "bartlett",
           "triang", "cosine", "tukey", "gaussian", "exponential", "kaiser",
           "hilbert", "resample", "detrend", "periodogram", "welch", "stft",
           "savgol_coeffs", "savgol_filter"]


def _extend(M, sym):
    """SciPy's trick for periodic windows: one point more, dropped after."""
    return (M, False) if sym else (M + 1, True)


def _n(M, device):
    return _e.arange(M, dtype=_e.float64, device=device)


def general_cosine(M, a, sym=True, *, device=None):
    """sum_k (-1)^k a[k] cos(2 pi k n / (M - 1)) over n in [0, M)."""
    if M < 1:
        return _e.empty(0, device=device)
    if M == 1:
        return _e.ones(1, device=device)
    M, trunc = _extend(M, sym)
    fac = _e.linspace(-math.pi, math.pi, M, device=device)
    w = _e.zeros(M, device=device)
    for k, c in enumerate(a):
        w = w + c * _e.cos(k * fac)
    return w[:-1] if trunc else w


def hann(M, sym=True, *, device=None):
    return general_cosine(M, [0.5, 0.5], sym, device=device)


def hamming(M, sym=True, *, device=None):
    return general_cosine(M, [0.54, 0.46], sym, device=device)


def blackman(M, sym=True, *, device=None):
    return general_cosine(M, [0.42, 0.50, 0.08], sym, device=device)


def nuttall(M, sym=True, *, device=None):
    return general_cosine(M, [0.3635819, 0.4891775, 0.1365995, 0.0106411],
                          sym, device=device)


def blackmanharris(M, sym=True, *, device=None):
    return general_cosine(M, [0.35875, 0.48829, 0.14128, 0.01168], sym,
                          device=device)


def flattop(M, sym=True, *, device=None):
    return general_cosine(M, [0.21557895, 0.41663158, 0.277263158,
                              0.083578947, 0.006947368], sym, device=device)


def boxcar(M, sym=True, *, device=None):
    return _e.ones(max(M, 0), device=device)


def bartlett(M, sym=True, *, device=None):
    if M < 2:
        return _e.ones(max(M, 0), device=device)
    M, trunc = _extend(M, sym)
    n = _n(M, device)
    w = _e.where(n <= (M - 1) / 2.0, 2.0 * n / (M - 1), 2.0 - 2.0 * n / (M - 1))
    return w[:-1] if trunc else w


def triang(M, sym=True, *, device=None):
    if M < 2:
        return _e.ones(max(M, 0), device=device)
    M, trunc = _extend(M, sym)
    n = _e.arange(1, (M + 1) // 2 + 1, dtype=_e.float64, device=device)
    w = (2 * n - 1.0) / M if M % 2 == 0 else 2 * n / (M + 1.0)
    w = _e.concatenate([w, _e.flip(w[:-1] if M % 2 else w)])
    return w[:-1] if trunc else w


def cosine(M, sym=True, *, device=None):
    if M < 2:
        return _e.ones(max(M, 0), device=device)
    M, trunc = _extend(M, sym)
    w = _e.sin(math.pi / M * (_n(M, device) + 0.5))
    return w[:-1] if trunc else w


def tukey(M, alpha=0.5, sym=True, *, device=None):
    if M < 2:
        return _e.ones(max(M, 0), device=device)
    if alpha <= 0:
        return _e.ones(M, device=device)
    if alpha >= 1.0:
        return hann(M, sym, device=device)
    M, trunc = _extend(M, sym)
    n = _n(M, device)
    width = math.floor(alpha * (M - 1) / 2.0)
    lo = 0.5 * (1 + _e.cos(math.pi * (-1 + 2.0 * n / alpha / (M - 1))))
    hi = 0.5 * (1 + _e.cos(math.pi * (-2.0 / alpha + 1 + 2.0 * n / alpha /
                                      (M - 1))))
    w = _e.where(n <= width, lo, _e.where(n >= M - width - 1, hi, 1.0))
    return w[:-1] if trunc else w


def gaussian(M, std, sym=True, *, device=None):
    if M < 2:
        return _e.ones(max(M, 0), device=device)
    M, trunc = _extend(M, sym)
    n = _n(M, device) - (M - 1.0) / 2.0
    w = _e.exp(-n ** 2 / (2 * std * std))
    return w[:-1] if trunc else w


def exponential(M, center=None, tau=1.0, sym=True, *, device=None):
    if sym and center is not None:
        raise ValueError("If sym==True, center must be None.")
    if M < 2:
        return _e.ones(max(M, 0), device=device)
    M, trunc = _extend(M, sym)
    c = (M - 1) / 2 if center is None else center
    w = _e.exp(-_e.abs(_n(M, device) - c) / tau)
    return w[:-1] if trunc else w


def kaiser(M, beta, sym=True, *, device=None):
    if M < 2:
        return _e.ones(max(M, 0), device=device)
    M, trunc = _extend(M, sym)
    n = _n(M, device)
    alpha = (M - 1) / 2.0
    w = _e.i0(beta * _e.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / \
        _e.i0(_e.asarray(float(beta), device=device))
    return w[:-1] if trunc else w


_WINDOWS = {"hann": hann, "hanning": hann, "han": hann, "hamming": hamming,
            "hamm": hamming, "ham": hamming, "blackman": blackman,
            "black": blackman, "blk": blackman, "nuttall": nuttall,
            "nutl": nuttall, "nut": nuttall, "blackmanharris": blackmanharris,
            "blackharr": blackmanharris, "bkh": blackmanharris,
            "flattop": flattop, "flat": flattop, "flt": flattop,
            "boxcar": boxcar, "box": boxcar, "ones": boxcar,
            "rect": boxcar, "rectangular": boxcar, "bartlett": bartlett,
            "bart": bartlett, "brt": bartlett, "triang": triang,
            "triangle": triang, "tri": triang, "cosine": cosine,
            "halfcosine": cosine, "tukey": tukey, "tuk": tukey,
            "gaussian": gaussian, "gauss": gaussian, "gss": gaussian,
            "exponential": exponential, "poisson": exponential,
            "kaiser": kaiser, "ksr": kaiser}
_NEEDS = {gaussian: "std", kaiser: "beta"}


def get_window(window, Nx, fftbins=True, *, device=None):
    """scipy.signal.get_window: a window by name, (name, parameters...),
    or a number (a Kaiser window's beta); periodic when fftbins."""
    sym = not fftbins
    if isinstance(window, (int, float)) and not isinstance(window, bool):
        return kaiser(Nx, window, sym, device=device)
    if isinstance(window, tuple):
        name, args = window[0], window[1:]
    else:
        name, args = window, ()
    if not isinstance(name, str):
        raise ValueError("The 'window' argument must be a string, a tuple, "
                         f"or a float, not {type(name).__name__}")
    name = name.lower()
    if name.endswith("_periodic"):  # SciPy's newer spelling of fftbins
        name, sym = name[:-len("_periodic")], False
    f = _WINDOWS.get(name)
    if f is None:
        raise ValueError(f"Unknown window type: {name!r}")
    if f in _NEEDS and not args:
        raise ValueError(f"The '{name}' window needs one or more "
                         f"parameters -- pass a tuple ({_NEEDS[f]}).")
    return f(Nx, *args, sym=sym, device=device)


def hilbert(x, N=None, axis=-1):
    """scipy.signal.hilbert: the analytic signal, through the FFT."""
    import ember.fft as fft
    x = _arr(x)
    if x.dtype.kind == "c":
        raise ValueError("x must be real.")
    axis = axis % x.ndim
    N = x.shape[axis] if N is None else N
    if N <= 0:
        raise ValueError("N must be positive.")
    Xf = fft.fft(x, N, axis=axis)
    h = _e.zeros(N, device=x.device)
    if N % 2 == 0:
        h[0] = h[N // 2] = 1
        h[1:N // 2] = 2
    else:
        h[0] = 1
        h[1:(N + 1) // 2] = 2
    shape = [1] * x.ndim
    shape[axis] = N
    return fft.ifft(Xf * h.reshape(shape), axis=axis)


def resample(x, num, t=None, axis=0, window=None, domain="time"):
    """scipy.signal.resample: num samples along axis from the spectrum cut
    or zero-padded to num bins (SciPy 1.17's rules: a real signal through
    the one-sided FFT, a lone bin at m / 2 doubled when cutting and halved
    when padding, where m = min(num, n); the result scaled by num / n).
    window (a name, an array of n spectral weights, or a function of the
    FFT frequencies) weights the spectrum first; domain='freq' takes x as
    a spectrum already."""
    import ember.fft as fft
    if domain not in ("time", "freq"):
        raise ValueError(f"Parameter domain={domain!r} not in "
                         "('time', 'freq')!")
    x = _e.moveaxis(_arr(x), axis, -1)
    num = int(num)
    n = x.shape[-1]
    dilation = n / num
    m = min(num, n)
    half = m // 2 + 1
    w = None
    if callable(window):
        w = _arr(window(fft.fftfreq(n, device=x.device)), x.device)
    elif hasattr(window, "shape"):
        if tuple(window.shape) != (n,):
            raise ValueError(f"window.shape={tuple(window.shape)} != ({n},), "
                             "i.e., window length is not equal to number of "
                             "frequency bins!")
        w = _arr(window, x.device).copy()
    elif window is not None:
        w = fft.fftshift(get_window(window, n, device=x.device))
    if domain == "time" and x.dtype.kind != "c":
        X = fft.rfft(x)
        k = X.shape[-1]
        if w is not None:
            # the two-sided weights folded onto the one-sided bins
            w[1:k] = (w[1:k] + _e.flip(w[n - k + 1:])) / 2
            X *= w[:k]
        X = X[..., :half]
        if m % 2 == 0 and num != n:
            X[..., m // 2] *= 2 if num < n else 0.5
        y = fft.irfft(X / dilation, num)
    else:
        X = fft.fft(x) if domain == "time" else x
        if w is not None:
            X = X * w
        Y = _e.zeros(X.shape[:-1] + (num,), dtype=X.dtype, device=x.device)
        Y[..., :half] = X[..., :half]
        if half < m:
            Y[..., half - m:] = X[..., half - m:]
        if m % 2 == 0 and num < n:
            Y[..., num - m // 2] += X[..., n - m // 2]
        elif m % 2 == 0 and n < num:
            Y[..., m // 2] /= 2
            Y[..., num - m // 2] = Y[..., m // 2]
        y = fft.ifft(Y / dilation, num)
    y = _e.moveaxis(y, -1, axis)
    if t is None:
        return y
    t = _arr(t, x.device)
    return y, t[0] + (t[1] - t[0]) * dilation * _e.arange(num, device=x.device)


def detrend(data, axis=-1, type="linear", bp=0, overwrite_data=False):
    """scipy.signal.detrend: minus the mean ('constant') or the least-
    squares line ('linear'; breakpoints bp not supported yet)."""
    x = _arr(data)
    if type not in ("linear", "l", "constant", "c"):
        raise ValueError("Trend type must be 'linear' or 'constant'.")
    t = x.dtype if x.dtype.kind in "fc" else _e.float64
    x = x.astype(t)
    if type in ("constant", "c"):
        return x - _e.mean(x, axis=axis, keepdims=True)
    if not (isinstance(bp, int) and bp == 0):
        raise NotImplementedError("detrend: breakpoints (bp) are not there yet")
    axis = axis % x.ndim
    n = x.shape[axis]
    if n < 2:
        return x - _e.mean(x, axis=axis, keepdims=True)
    # the least-squares line: slope and intercept from the centred ramp
    r = _e.arange(n, dtype=_real(t), device=x.device)
    r = r - r.mean()
    shape = [1] * x.ndim
    shape[axis] = n
    r = r.reshape(shape)
    slope = _e.sum(x * r, axis=axis, keepdims=True) / _e.sum(r * r)
    return (x - _e.mean(x, axis=axis, keepdims=True) - slope * r).astype(t)


def _spectrum(x, fs, win, nfft, detrend_type, onesided, scaling, axis):
    """One windowed segment's spectrum along the last axis: (freqs, Pxx)."""
    import ember.fft as fft
    if detrend_type == "constant":
        x = x - _e.mean(x, axis=-1, keepdims=True)
    elif detrend_type == "linear":
        x = detrend(x, axis=-1, type="linear")
    elif detrend_type is not False:
        raise ValueError(f"unknown detrend {detrend_type!r}")
    if scaling == "density":
        scale = 1.0 / (fs * float(_e.sum(win * win)))
    elif scaling == "spectrum":
        scale = 1.0 / float(_e.sum(win)) ** 2
    else:
        raise ValueError(f"Unknown scaling: {scaling!r}")
    seg = x * win
    cplx = x.dtype.kind == "c"
    if onesided and not cplx:
        spec = fft.rfft(seg, nfft, axis=-1)
        freqs = fft.rfftfreq(nfft, 1 / fs, device=x.device)
        p = (spec * _e.conj(spec)).real * scale
        # the folded negative frequencies: all but DC, and Nyquist when
        # nfft is even, count twice
        p[..., 1:None if nfft % 2 else -1] *= 2
        return freqs, p
    spec = fft.fft(seg, nfft, axis=-1)
    freqs = fft.fftfreq(nfft, 1 / fs, device=x.device)
    return freqs, (spec * _e.conj(spec)).real * scale


def _segments(count, step, nperseg, device):
    """The (count, nperseg) positions of overlapping segments step apart:
    indexing the last axis with them gathers every segment at once."""
    return (_e.arange(count, device=device)[:, None] * step +
            _e.arange(nperseg, device=device))


def periodogram(x, fs=1.0, window="boxcar", nfft=None, detrend="constant",
                return_onesided=True, scaling="density", axis=-1):
    """scipy.signal.periodogram: (frequencies, power spectral density or
    spectrum) of the whole signal."""
    x = _arr(x)
    if x.dtype.kind in "biu":
        x = x.astype(_e.float64)
    x = _e.moveaxis(x, axis, -1)
    n = x.shape[-1]
    nfft = n if nfft is None else nfft
    if nfft < n:
        x = x[..., :nfft]
        n = nfft
    win = window if isinstance(window, _e.ndarray) else \
        get_window(window, n, device=x.device)
    win = win.astype(_real(x.dtype))
    f, p = _spectrum(x, fs, win, nfft, detrend, return_onesided, scaling, axis)
    return f, _e.moveaxis(p.astype(_real(x.dtype)), -1, axis)


def welch(x, fs=1.0, window="hann_periodic", nperseg=None, noverlap=None,
          nfft=None, detrend="constant", return_onesided=True,
          scaling="density", axis=-1, average="mean"):
    """scipy.signal.welch: the mean (or median) of the periodograms of
    overlapping windowed segments."""
    x = _arr(x)
    if x.dtype.kind in "biu":
        x = x.astype(_e.float64)
    x = _e.moveaxis(x, axis, -1)
    n = x.shape[-1]
    if nperseg is None:
        nperseg = 256
    nperseg = min(nperseg, n)
    noverlap = nperseg // 2 if noverlap is None else noverlap
    nfft = nperseg if nfft is None else nfft
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    if average not in ("mean", "median"):
        raise ValueError(f"Parameter average={average!r} must be 'median' "
                         "or 'mean'!")
    step = nperseg - noverlap
    count = (n - noverlap) // step
    segs = x[..., _segments(count, step, nperseg, x.device)]
    win = window if isinstance(window, _e.ndarray) else \
        get_window(window, nperseg, device=x.device)
    win = win.astype(_real(x.dtype))
    f, p = _spectrum(segs, fs, win, nfft, detrend, return_onesided, scaling,
                     axis)
    if average == "mean" or count == 1:
        p = _e.mean(p, axis=-2)
    else:
        # the median of exponentially distributed periodograms is biased
        # low against their mean; SciPy divides by the bias for `count`
        # of them: 1 + sum over i in 1..(count-1)//2 of 1/(2i+1) - 1/(2i)
        bias = 1 + sum(1 / (2 * i + 1) - 1 / (2 * i)
                       for i in range(1, (count - 1) // 2 + 1))
        p = _e.median(p, axis=-2) / bias
    return f, _e.moveaxis(p.astype(_real(x.dtype)), -1, axis)


_detrend = detrend  # stft's parameter of that name hides the function

# stft's boundary extensions as ember.pad modes: SciPy's even_ext is
# pad's reflect, odd_ext its odd reflect, const_ext its edge
_EXTEND = {"even": ("reflect", {}), "odd": ("reflect", {"reflect_type": "odd"}),
           "constant": ("edge", {}), "zeros": ("constant", {}), None: None}


def stft(x, fs=1.0, window="hann", nperseg=256, noverlap=None, nfft=None,
         detrend=False, return_onesided=True, boundary="zeros", padded=True,
         axis=-1, scaling="spectrum"):
    """scipy.signal.stft: (frequencies, segment times, Zxx), the spectra of
    windowed segments nperseg long, nperseg - noverlap apart, after the
    signal is extended by nperseg // 2 at both ends (boundary) and padded
    with zeros to whole segments (padded). The segments are one gather,
    their spectra one batched FFT."""
    import ember.fft as fft
    if scaling == "psd":
        scaling = "density"
    elif scaling != "spectrum":
        raise ValueError(f"Parameter scaling={scaling!r} not in "
                         "['spectrum', 'psd']!")
    if boundary not in _EXTEND:
        raise ValueError(f"Unknown boundary option '{boundary}', must be one "
                         f"of: {list(_EXTEND)}")
    x = _arr(x)
    if x.dtype.kind in "biu":
        x = x.astype(_e.float64)
    out_t = _e.complex64 if x.dtype in (_e.float32, _e.complex64, _e.float16) \
        else _e.complex128
    x = _e.moveaxis(x, axis, -1)
    n = x.shape[-1]
    if isinstance(window, (str, tuple)):
        nperseg = int(nperseg)
        if nperseg < 1:
            raise ValueError("nperseg must be a positive integer")
        nperseg = min(nperseg, n)
        win = get_window(window, nperseg, device=x.device)
    else:
        win = _arr(window, x.device)
        if win.ndim != 1:
            raise ValueError("window must be 1-D")
        if n < win.shape[0]:
            raise ValueError("window is longer than input signal")
        if nperseg is not None and int(nperseg) != win.shape[0]:
            raise ValueError("value specified for nperseg is different from "
                             "length of window")
        nperseg = win.shape[0]
    nfft = nperseg if nfft is None else int(nfft)
    if nfft < nperseg:
        raise ValueError("nfft must be greater than or equal to nperseg.")
    noverlap = nperseg // 2 if noverlap is None else int(noverlap)
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    step = nperseg - noverlap
    lead = [(0, 0)] * (x.ndim - 1)
    if boundary is not None and nperseg // 2 >= 1:
        half = nperseg // 2
        if boundary in ("even", "odd") and half > n - 1:
            raise ValueError(f"The extension length n ({half}) is too big. "
                             f"It must not exceed x.shape[axis]-1, which is "
                             f"{n - 1}.")
        mode, kw = _EXTEND[boundary]
        x = _e.pad(x, lead + [(half, half)], mode, **kw)
    if padded:
        extra = (-(x.shape[-1] - nperseg) % step) % nperseg
        x = _e.pad(x, lead + [(0, extra)])
    count = (x.shape[-1] - nperseg) // step + 1
    seg = x[..., _segments(count, step, nperseg, x.device)]
    if detrend is not False:
        seg = detrend(seg) if callable(detrend) else \
            _detrend(seg, axis=-1, type=detrend)
    # SciPy multiplies by the window in the output's complex type when the
    # window's float64 would widen it (float32 signals)
    if out_t == _e.complex64:
        win = win.astype(_e.complex64)
    s = 1.0 / (fs * float(_e.sum(win * win).real)) if scaling == "density" \
        else 1.0 / float(_e.sum(win).real) ** 2
    seg = win * seg
    onesided = return_onesided and x.dtype.kind != "c"
    if onesided:
        spec = fft.rfft(seg.real, nfft)
        freqs = fft.rfftfreq(nfft, 1 / fs, device=x.device)
    else:
        spec = fft.fft(seg, nfft)
        freqs = fft.fftfreq(nfft, 1 / fs, device=x.device)
    spec = (spec * math.sqrt(s)).astype(out_t)
    t = _e.arange(nperseg / 2, x.shape[-1] - nperseg / 2 + 1, step,
                  device=x.device) / float(fs)
    if boundary is not None:
        t = t - (nperseg / 2) / fs
    # (..., segments, frequencies): the frequencies go where axis was,
    # counted with the segments' axis already added, as SciPy's
    return freqs, t, _e.moveaxis(spec, -1, axis - 1 if axis < 0 else axis)


def _host(a):
    """A small float64 setup matrix on the cpu device, where ember.linalg
    runs LAPACK."""
    return _e.asarray(a, dtype=_e.float64, device="cpu")


def savgol_coeffs(window_length, polyorder, deriv=0, delta=1.0, pos=None,
                  use="conv", *, device=None):
    """scipy.signal.savgol_coeffs: the least-squares polynomial filter's
    coefficients (solved on the cpu device, placed on `device`)."""
    if polyorder >= window_length:
        raise ValueError("polyorder must be less than window_length.")
    halflen, rem = divmod(window_length, 2)
    if pos is None:
        pos = halflen if rem else halflen - 0.5
    if not 0 <= pos < window_length:
        raise ValueError("pos must be nonnegative and less than "
                         "window_length.")
    if use not in ("conv", "dot"):
        raise ValueError("`use` must be 'conv' or 'dot'")
    if deriv > polyorder:
        return _e.zeros(window_length, device=device)
    x = [float(i) - pos for i in range(window_length)]
    if use == "conv":
        x = x[::-1]
    A = _host([[t ** k for t in x] for k in range(polyorder + 1)])
    y = [0.0] * (polyorder + 1)
    y[deriv] = math.factorial(deriv) / delta ** deriv
    c = _e.linalg.lstsq(A, _host(y), rcond=None)[0]
    return _e.asarray(_e.asnumpy(c), device=device)


def _edge_map(window_length, polyorder, deriv, delta, positions):
    """The (len(positions), window_length) matrix taking a window's samples
    to its least-squares polynomial's deriv-th derivative at positions
    (offsets from the window's start), as savgol_filter's 'interp' fits
    the edges."""
    t = list(range(window_length))
    V = _host([[float(s) ** k for k in range(polyorder + 1)] for s in t])
    D = _host([[(math.factorial(k) / math.factorial(k - deriv) *
                 float(p) ** (k - deriv) if k >= deriv else 0.0)
                for k in range(polyorder + 1)] for p in positions])
    return _e.matmul(D, _e.linalg.pinv(V)) / delta ** deriv


def savgol_filter(x, window_length, polyorder, deriv=0, delta=1.0, axis=-1,
                  mode="interp", cval=0.0):
    """scipy.signal.savgol_filter: the Savitzky-Golay filter, a
    convolution with savgol_coeffs; 'interp' fits the polynomial to the
    first and last windows for the edges, as SciPy's."""
    from ember.scipy.ndimage_filters import convolve1d
    if mode not in ("mirror", "constant", "nearest", "interp", "wrap"):
        raise ValueError("mode must be 'mirror', 'constant', 'nearest' "
                         "'wrap' or 'interp'.")
    x = _arr(x)
    if x.dtype not in (_e.float64, _e.float32):
        x = x.astype(_e.float64)
    coeffs = savgol_coeffs(window_length, polyorder, deriv, delta,
                           device=x.device)
    if mode != "interp":
        return convolve1d(x, coeffs, axis, mode=mode, cval=cval)
    axis = axis % x.ndim
    n = x.shape[axis]
    if window_length > n:
        raise ValueError("If mode is 'interp', window_length must be less "
                         "than or equal to the size of x.")
    y = convolve1d(x, coeffs, axis, mode="constant")
    half = window_length // 2
    xm = _e.moveaxis(x, axis, -1)
    ym = _e.moveaxis(y, axis, -1)
    first = _e.asarray(_e.asnumpy(_edge_map(window_length, polyorder, deriv,
                                            delta, range(half))),
                       device=x.device)
    last = _e.asarray(_e.asnumpy(_edge_map(
        window_length, polyorder, deriv, delta,
        range(window_length - half, window_length))), device=x.device)
    ym[..., :half] = _e.matmul(xm[..., :window_length].astype(_e.float64),
                               first.T).astype(y.dtype)
    ym[..., n - half:] = _e.matmul(xm[..., n - window_length:].astype(
        _e.float64), last.T).astype(y.dtype)
    return y
