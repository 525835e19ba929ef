"""ember.scipy.signal's filter design and analysis (re-exported by
ember.scipy.signal): FIR design by the window method (firwin, firwin2,
kaiser_atten, kaiser_beta), IIR design from the Butterworth and Chebyshev
prototypes (iirfilter, butter, cheby1, cheby2, buttap, cheb1ap, cheb2ap)
through the zpk transforms (lp2lp_zpk, lp2hp_zpk, lp2bp_zpk, lp2bs_zpk,
bilinear_zpk), conversions (tf2zpk, zpk2tf, normalize), frequency
responses (freqz, freqs), initial states (lfiltic, lfilter_zi) and
forward-backward filtering (filtfilt).

The coefficient arithmetic is a few operations on arrays of a few dozen
numbers: it runs with ember's functions on the cpu device, where
ember.linalg has LAPACK for the roots (the companion matrix's eigenvalues,
as NumPy's roots), and the result goes to `device` (the input's device,
or the default one for the functions of parameters alone). The work on
signals (freqz's transform, filtfilt's passes) runs where the signal is.
SciPy's order of operations is kept, so results agree to rounding."""
import math

import ember as _e
from ember._api._util import normalize_axis

__all__ = ["firwin", "firwin2", "kaiser_atten", "kaiser_beta", "freqz",
           "freqs", "lfiltic", "lfilter_zi", "filtfilt", "tf2zpk", "zpk2tf",
           "normalize", "iirfilter", "butter", "cheby1", "cheby2", "buttap",
           "cheb1ap", "cheb2ap", "bilinear_zpk", "lp2lp_zpk", "lp2hp_zpk",
           "lp2bp_zpk", "lp2bs_zpk", "BadCoefficients", "zpk2sos",
           "sos2tf", "sos2zpk", "sosfilt_zi", "sosfiltfilt"]


class BadCoefficients(UserWarning):
    """scipy.signal.BadCoefficients: badly conditioned coefficients."""


def _cpu(a, dtype=None):
    """a (an ember array on any device, a NumPy array, a list or a number)
    as an ember array on the cpu device, at least 1-D."""
    if isinstance(a, _e.ndarray):
        a = a.to_device("cpu") if str(a.device) != "cpu" else a
        a = a if dtype is None else a.astype(dtype)
    else:
        a = _e.asarray(a, dtype=dtype, device="cpu")
    return a.reshape(1) if a.ndim == 0 else a


def _where(*arrays, device=None):
    """The device results go to: device=, else the first ember array's."""
    if device is not None:
        return device
    for a in arrays:
        if isinstance(a, _e.ndarray):
            return a.device
    return None


def _to(a, device):
    return _e.asarray(a, device=device) if device is None or \
        str(device) != "cpu" else a


def _validate_fs(fs, allow_none=True):
    if fs is None:
        if not allow_none:
            raise ValueError("Sampling frequency can not be none.")
        return None
    if _e.ndim(fs) != 0:
        raise ValueError("Sampling frequency fs must be a single scalar.")
    fs = float(fs)
    if not fs > 0 or math.isinf(fs):
        raise ValueError("Sampling frequency fs must be positive and finite.")
    return fs


# ---- FIR design ------------------------------------------------------------

def kaiser_beta(a):
    """scipy.signal.kaiser_beta: the Kaiser window's beta for an
    attenuation of a dB."""
    if a > 50:
        return 0.1102 * (a - 8.7)
    if a > 21:
        return 0.5842 * (a - 21) ** 0.4 + 0.07886 * (a - 21)
    return 0.0


def kaiser_atten(numtaps, width):
    """scipy.signal.kaiser_atten: the attenuation (dB) of a Kaiser FIR
    filter of numtaps taps and transition width (a fraction of Nyquist)."""
    return 2.285 * (numtaps - 1) * math.pi * width + 7.95


def firwin(numtaps, cutoff, *, width=None, window="hamming", pass_zero=True,
           scale=True, fs=None, device=None):
    """scipy.signal.firwin: a linear-phase FIR filter by the window method,
    the sum of each passband's ideal sinc response times the window."""
    from ember.scipy.signal_spectral import get_window
    fs = _validate_fs(fs)
    nyq = 0.5 * (2 if fs is None else fs)
    cut = _cpu(cutoff, _e.float64) / float(nyq)
    if cut.ndim > 1:
        raise ValueError("The cutoff argument must be at most "
                         "one-dimensional.")
    if cut.size == 0:
        raise ValueError("At least one cutoff frequency must be given.")
    if float(_e.min(cut)) <= 0 or float(_e.max(cut)) >= 1:
        raise ValueError("Invalid cutoff frequency: frequencies must be "
                         "greater than 0 and less than fs/2.")
    if bool(_e.any(cut[1:] - cut[:-1] <= 0)):
        raise ValueError("Invalid cutoff frequencies: the frequencies "
                         "must be strictly increasing.")
    if width is not None:
        window = ("kaiser", kaiser_beta(kaiser_atten(numtaps,
                                                     float(width) / nyq)))
    if isinstance(pass_zero, str):
        if pass_zero in ("bandstop", "lowpass", "bandpass", "highpass"):
            one = pass_zero in ("lowpass", "highpass")
            if one and cut.size != 1:
                raise ValueError("cutoff must have one element if "
                                 f"pass_zero=={pass_zero!r}, got "
                                 f"{tuple(cut.shape)}")
            if not one and cut.size <= 1:
                raise ValueError("cutoff must have at least two elements "
                                 f"if pass_zero=={pass_zero!r}, got "
                                 f"{tuple(cut.shape)}")
            pass_zero = pass_zero in ("bandstop", "lowpass")
        else:
            raise ValueError(f"Parameter pass_zero={pass_zero!r} not in "
                             "(True, False, 'bandpass', 'lowpass', "
                             "'highpass', 'bandstop')")
    elif not (pass_zero is True or pass_zero is False):
        raise ValueError(f"Parameter pass_zero={pass_zero!r} not in (True, "
                         "False, 'bandpass', 'lowpass', 'highpass', "
                         "'bandstop')")
    pass_nyquist = (cut.size % 2 == 0) == pass_zero
    if pass_nyquist and numtaps % 2 == 0:
        raise ValueError("A filter with an even number of coefficients must "
                         "have zero response at the Nyquist frequency.")
    edges = [0.0] * int(pass_zero) + [float(v) for v in _e.asnumpy(cut)] + \
        [1.0] * int(pass_nyquist)
    bands = list(zip(edges[::2], edges[1::2]))
    m = _e.arange(numtaps, dtype=_e.float64, device="cpu") - 0.5 * (
        numtaps - 1)
    h = 0
    for left, right in bands:
        h = h + right * _e.sinc(right * m)
        h = h - left * _e.sinc(left * m)
    h = h * get_window(window, numtaps, fftbins=False, device="cpu")
    if scale:
        left, right = bands[0]
        f = 0.0 if left == 0 else 1.0 if right == 1 else 0.5 * (left + right)
        h = h / _e.sum(h * _e.cos(math.pi * m * f))
    return _to(h, device)


def firwin2(numtaps, freq, gain, *, nfreqs=None, window="hamming",
            antisymmetric=False, fs=None, device=None):
    """scipy.signal.firwin2: an FIR filter of the given gains at the given
    frequencies, by the inverse real FFT of the interpolated response,
    shifted to linear phase and windowed."""
    from ember.scipy.signal_spectral import get_window
    fs = _validate_fs(fs)
    nyq = 0.5 * (2 if fs is None else fs)
    f = [float(v) for v in _e.asnumpy(_cpu(freq, _e.float64))]
    g = [float(v) for v in _e.asnumpy(_cpu(gain, _e.float64))]
    if len(f) != len(g):
        raise ValueError("freq and gain must be of same length.")
    if nfreqs is not None and numtaps >= nfreqs:
        raise ValueError("ntaps must be less than nfreqs, but firwin2 was "
                         f"called with ntaps={numtaps} and nfreqs={nfreqs}")
    if f[0] != 0 or f[-1] != nyq:
        raise ValueError("freq must start with 0 and end with fs/2.")
    d = [b - a for a, b in zip(f, f[1:])]
    if any(v < 0 for v in d):
        raise ValueError("The values in freq must be nondecreasing.")
    if any(a + b == 0 for a, b in zip(d, d[1:])):
        raise ValueError("A value in freq must not occur more than twice.")
    if f[1] == 0:
        raise ValueError("Value 0 must not be repeated in freq")
    if f[-2] == nyq:
        raise ValueError("Value fs/2 must not be repeated in freq")
    ftype = (4 if numtaps % 2 == 0 else 3) if antisymmetric else \
        (2 if numtaps % 2 == 0 else 1)
    if ftype == 2 and g[-1] != 0.0:
        raise ValueError("A Type II filter must have zero gain at the "
                         "Nyquist frequency.")
    if ftype == 3 and (g[0] != 0.0 or g[-1] != 0.0):
        raise ValueError("A Type III filter must have zero gain at zero "
                         "and Nyquist frequencies.")
    if ftype == 4 and g[0] != 0.0:
        raise ValueError("A Type IV filter must have zero gain at zero "
                         "frequency.")
    if nfreqs is None:
        nfreqs = 1 + 2 ** int(math.ceil(math.log(numtaps, 2)))
    if any(v == 0 for v in d):
        eps = 2.0 ** -52 * nyq
        for k in range(len(f) - 1):
            if f[k] == f[k + 1]:
                f[k] -= eps
                f[k + 1] += eps
        if any(b - a <= 0 for a, b in zip(f, f[1:])):
            raise ValueError("freq cannot contain numbers that are too "
                             f"close (within eps * (fs/2): {eps}) to a "
                             "repeated value")
    x = _e.linspace(0.0, nyq, nfreqs, device="cpu")
    fx = _e.interp(x, _e.asarray(f, device="cpu"),
                   _e.asarray(g, device="cpu"))
    shift = _e.exp(-(numtaps - 1) / 2. * 1j * math.pi * x / nyq)
    if ftype > 2:
        shift = shift * 1j
    out = _e.fft.irfft(fx * shift)[:numtaps]
    if window is not None:
        out = out * get_window(window, numtaps, fftbins=False, device="cpu")
    if ftype == 3:
        out[out.size // 2] = 0.0
    return _to(out, device)


# ---- frequency responses ---------------------------------------------------

def _polyval_desc(p, x):
    """sum p[j] x^(n-1-j) by Horner's rule (p highest power first)."""
    y = _e.zeros_like(x)
    for j in range(p.shape[0]):
        y = y * x + p[j]
    return y


def _polyval_asc(c, x):
    """numpy.polynomial's polyval: sum c[j] x^j, Horner from the top."""
    y = c[-1] + _e.zeros_like(x)
    for j in range(c.shape[0] - 2, -1, -1):
        y = y * x + c[j]
    return y


def freqz(b, a=1, worN=512, whole=False, plot=None, fs=2 * math.pi,
          include_nyquist=False):
    """scipy.signal.freqz: (w, h), the digital filter b/a's response at
    worN frequencies (or at those given): an FFT of b when a is a scalar,
    else the ratio of the polynomials in exp(-iw). Computed on b's
    device."""
    import numbers
    dev = _where(b, a, worN)
    bd = _e.asarray(b, device=dev) if not isinstance(b, _e.ndarray) else b
    ad = _e.asarray(a, device=bd.device) if not isinstance(
        a, _e.ndarray) else a
    bd = bd.reshape(1) if bd.ndim == 0 else bd
    ad = ad.reshape(1) if ad.ndim == 0 else ad
    fs = _validate_fs(fs, allow_none=False)
    if worN is None:
        worN = 512
    h = None
    if isinstance(worN, numbers.Integral) and not isinstance(worN, bool):
        N = int(worN)
        if N < 0:
            raise ValueError(f"worN must be nonnegative, got {N}")
        last = 2 * math.pi if whole else math.pi
        w = _e.linspace(0, last, N, endpoint=include_nyquist and not whole,
                        device=bd.device)
        n_fft = N if whole else 2 * (N - 1) if include_nyquist else 2 * N
        if ad.size == 1 and (bd.ndim == 1 or bd.shape[-1] == 1) and \
                n_fft >= bd.shape[0] and n_fft > 0:
            real = bd.dtype.kind != "c" and ad.dtype.kind != "c"
            f = _e.fft.rfft if real else _e.fft.fft
            h = f(bd.astype(_e.float64) if real and bd.dtype.kind != "f"
                  else bd, n=n_fft, axis=0)[:N]
            h = h / ad
            if real and whole:
                stop = -1 if n_fft % 2 == 1 else -2
                h = _e.concatenate((h, _e.conj(h[stop:0:-1])))
            if bd.ndim > 1:
                h = _e.moveaxis(h[..., 0], 0, -1)
    else:
        w = _e.asarray(worN, device=bd.device).reshape(-1)
        w = 2 * math.pi * w / fs
    if h is None:
        zm1 = _e.exp(-1j * w)
        h = _polyval_asc(bd, zm1) / _polyval_asc(ad, zm1)
    w = w * (fs / (2 * math.pi))
    if plot is not None:
        plot(w, h)
    return w, h


def _roots(p):
    """numpy.roots on the cpu device: the companion matrix's eigenvalues,
    leading and trailing zeros stripped (the latter as zero roots); real
    when every root is."""
    p = _cpu(p)
    nz = [i for i, v in enumerate(_e.asnumpy(p).tolist()) if v != 0]
    if not nz:
        return _e.zeros(0, dtype=p.dtype, device="cpu")
    trailing = p.shape[0] - nz[-1] - 1
    p = p[nz[0]:nz[-1] + 1]
    n = p.shape[0]
    if n > 1:
        A = _e.diag(_e.ones(n - 2, dtype=p.dtype, device="cpu"), -1) \
            if n > 2 else _e.zeros((1, 1), dtype=p.dtype, device="cpu")
        A[0, :] = -p[1:] / p[0]
        r = _e.linalg.eigvals(A)
        if r.dtype.kind == "c" and p.dtype.kind != "c" and \
                not bool(_e.any(_e.imag(r) != 0)):
            r = _e.real(r)
    else:
        r = _e.zeros(0, dtype=p.dtype, device="cpu")
    if trailing:
        r = _e.concatenate((r, _e.zeros(trailing, dtype=r.dtype,
                                        device="cpu")))
    return r


def _findfreqs(num, den, N):
    ep = _roots(den).astype(_e.complex128)
    tz = _roots(num).astype(_e.complex128)
    if ep.shape[0] == 0:
        ep = _e.asarray([-1000 + 0j], device="cpu")
    ez = _e.concatenate((ep[_e.imag(ep) >= 0],
                         tz[(_e.abs(tz) < 1e5) & (_e.imag(tz) >= 0)]))
    integ = (_e.abs(ez) < 1e-10).astype(_e.complex128)
    hfreq = _e.round(_e.log10(_e.max(3 * _e.abs(_e.real(ez) + integ) +
                                     1.5 * _e.imag(ez))) + 0.5)
    lfreq = _e.round(_e.log10(0.1 * _e.min(_e.abs(_e.real(ez + integ)) +
                                           2 * _e.imag(ez))) - 0.5)
    return _e.logspace(float(lfreq), float(hfreq), N, device="cpu")


def freqs(b, a, worN=200, plot=None):
    """scipy.signal.freqs: (w, h), the analog filter b/a's response at
    worN frequencies picked around its poles and zeros (or at those
    given)."""
    import numbers
    dev = _where(b, a, worN)
    if worN is None or isinstance(worN, numbers.Integral):
        w = _findfreqs(b, a, 200 if worN is None else int(worN))
    else:
        w = _cpu(worN)
    s = 1j * w
    h = _polyval_desc(_cpu(b), s) / _polyval_desc(_cpu(a), s)
    if plot is not None:
        plot(w, h)
    return _to(w, dev), _to(h, dev)


# ---- initial conditions and forward-backward filtering --------------------

def _result_float(*arrays):
    dt = _e.result_type(*arrays)
    return _e.float64 if dt.kind in "biu" else dt


def lfiltic(b, a, y, x=None):
    """scipy.signal.lfiltic: lfilter's initial state from the past outputs
    y (and inputs x), latest first."""
    dev = _where(b, a, y, x)
    a, b, y = _cpu(a), _cpu(b), _cpu(y)
    if a.ndim > 1:
        raise ValueError("Filter coefficients `a` must be 1-D.")
    if b.ndim > 1:
        raise ValueError("Filter coefficients `b` must be 1-D.")
    N, M = a.shape[0] - 1, b.shape[0] - 1
    K = max(M, N)
    if N < 0:
        raise ValueError("There must be at least one `a` coefficient.")
    if x is None:
        rt = _result_float(b, a, y)
        x = _e.zeros(M, dtype=rt, device="cpu")
    else:
        x = _cpu(x)
        rt = _result_float(b, a, y, x)
        x = x.astype(rt)
        if x.size < M:
            x = _e.concatenate((x, _e.zeros(M - x.size, dtype=rt,
                                            device="cpu")))
    y = y.astype(rt)
    if y.size < N:
        y = _e.concatenate((y, _e.zeros(N - y.size, dtype=rt,
                                        device="cpu")))
    zi = _e.zeros(K, dtype=rt, device="cpu")
    for m in range(M):
        zi[m] = _e.sum(b[m + 1:] * x[:M - m], axis=0)
    for m in range(N):
        zi[m] = zi[m] - _e.sum(a[m + 1:] * y[:N - m], axis=0)
    a0 = complex(a[0]) if a.dtype.kind == "c" else float(a[0])
    if a0 != 1.:
        if a0 == 0.:
            raise ValueError("First `a` filter coefficient must be "
                             "non-zero.")
        zi = zi / a[0]
    return _to(zi, dev)


def lfilter_zi(b, a):
    """scipy.signal.lfilter_zi: the state for a step response's steady
    state, (I - A^T) zi = B by ember.linalg.solve."""
    dev = _where(b, a)
    b, a = _cpu(b), _cpu(a)
    if b.ndim != 1:
        raise ValueError("Numerator b must be 1-D.")
    if a.ndim != 1:
        raise ValueError("Denominator a must be 1-D.")
    while a.shape[0] > 1 and float(a[0]) == 0.0:
        a = a[1:]
    if a.size < 1:
        raise ValueError("There must be at least one nonzero `a` "
                         "coefficient.")
    if float(a[0]) != 1.0:
        b = b / a[0]
        a = a / a[0]
    n = max(a.shape[0], b.shape[0])
    if a.shape[0] < n:
        a = _e.concatenate((a, _e.zeros(n - a.shape[0], dtype=a.dtype,
                                        device="cpu")))
    elif b.shape[0] < n:
        b = _e.concatenate((b, _e.zeros(n - b.shape[0], dtype=b.dtype,
                                        device="cpu")))
    dt = _e.result_type(a, b, _e.float64)
    if n == 1:
        return _to(_e.zeros(0, dtype=dt, device="cpu"), dev)
    # I - companion(a)^T: the companion's first row is -a[1:] / a[0]
    C = _e.zeros((n - 1, n - 1), dtype=dt, device="cpu")
    C[0, :] = -a[1:] / a[0]
    if n > 2:
        C[1:, :-1] = _e.eye(n - 2, dtype=dt, device="cpu")
    IminusA = _e.eye(n - 1, dtype=dt, device="cpu") - C.T
    B = (b[1:] - a[1:] * b[0]).astype(dt)
    return _to(_e.linalg.solve(IminusA, B), dev)


def _check_ext(x, n, axis):
    """SciPy's refusal of a mirrored extension longer than x has rows to
    mirror."""
    if n > x.shape[axis] - 1:
        raise ValueError(f"The extension length n ({n}) is too big. It must "
                         f"not exceed x.shape[axis]-1, which is "
                         f"{x.shape[axis] - 1}.")


def _odd_ext(x, n, axis):
    if n < 1:
        return x
    _check_ext(x, n, axis)
    t = lambda s: _e.take(x, s, axis=axis)  # noqa: E731
    L = x.shape[axis]
    left_end, right_end = t([0]), t([L - 1])
    left = t(list(range(n, 0, -1)))
    right = t(list(range(L - 2, L - n - 2, -1)))
    return _e.concatenate((2 * left_end - left, x, 2 * right_end - right),
                          axis=axis)


def _even_ext(x, n, axis):
    if n < 1:
        return x
    _check_ext(x, n, axis)
    L = x.shape[axis]
    return _e.concatenate((_e.take(x, list(range(n, 0, -1)), axis=axis), x,
                           _e.take(x, list(range(L - 2, L - n - 2, -1)),
                                   axis=axis)), axis=axis)


def _const_ext(x, n, axis):
    if n < 1:
        return x
    L = x.shape[axis]
    return _e.concatenate((_e.take(x, [0] * n, axis=axis), x,
                           _e.take(x, [L - 1] * n, axis=axis)), axis=axis)


def _filtfilt_pad(x, axis, padtype, padlen, ntaps):
    """filtfilt's and sosfiltfilt's extension of x at both ends along axis
    (3 * ntaps samples unless padlen says), and its length."""
    edge = 0 if padtype is None else (ntaps * 3 if padlen is None
                                      else padlen)
    if x.shape[axis] <= edge:
        raise ValueError("The length of the input vector x must be greater "
                         f"than padlen, which is {edge}.")
    ext = x
    if padtype is not None and edge > 0:
        ext = {"even": _even_ext, "odd": _odd_ext,
               "constant": _const_ext}[padtype](x, edge, axis)
    return ext, edge


def filtfilt(b, a, x, axis=-1, padtype="odd", padlen=None, method="pad",
             irlen=None):
    """scipy.signal.filtfilt: lfilter forward, then backward, from
    lfilter_zi's state scaled by each end, over the signal extended by
    padlen (3 max(len(a), len(b)) by default) samples."""
    from ember.scipy.signal_iir import lfilter
    x = x if isinstance(x, _e.ndarray) else _e.asarray(x)
    if method not in ("pad", "gust"):
        raise ValueError("method must be 'pad' or 'gust'.")
    if method == "gust":
        raise NotImplementedError("filtfilt: method='gust' is not there yet")
    if padtype not in ("even", "odd", "constant", None):
        raise ValueError(f"Unknown value '{padtype}' given to padtype. "
                         "padtype must be 'even', 'odd', 'constant', or "
                         "None.")
    axis = normalize_axis(axis, x.ndim)
    bc, ac = _cpu(b), _cpu(a)
    ntaps = max(ac.shape[0], bc.shape[0])
    ext, edge = _filtfilt_pad(x, axis, padtype, padlen, ntaps)
    zi = _e.asarray(lfilter_zi(bc, ac), device=x.device)
    shape = [1] * x.ndim
    shape[axis] = zi.size
    zi = zi.reshape(shape)
    n = ext.shape[axis]
    y, _ = lfilter(b, a, ext, axis=axis,
                   zi=zi * _e.take(ext, [0], axis=axis))
    y, _ = lfilter(b, a, _e.flip(y, axis=axis), axis=axis,
                   zi=zi * _e.take(y, [n - 1], axis=axis))
    y = _e.flip(y, axis=axis)
    if edge > 0:
        y = _e.take(y, list(range(edge, n - edge)), axis=axis)
    return y


# ---- transfer functions, zeros and poles ----------------------------------

def normalize(b, a):
    """scipy.signal.normalize: b and a divided by a's first nonzero
    coefficient, b's leading (near-)zeros dropped with BadCoefficients."""
    dev = _where(b, a)
    den = _cpu(a)
    num = _cpu(b)
    num = num.reshape(1, -1) if num.ndim == 1 else num
    if den.ndim != 1:
        raise ValueError("Denominator polynomial must be rank-1 array.")
    if num.ndim > 2:
        raise ValueError("Numerator polynomial must be rank-1 or rank-2 "
                         "array.")
    if bool(_e.all(den == 0)):
        raise ValueError("Denominator must have at least on nonzero "
                         "element.")
    first = next(i for i, v in enumerate(_e.asnumpy(den).tolist()) if v != 0)
    den = den[first:]
    num, den = num / den[0], den / den[0]
    lead = 0
    for j in range(num.shape[-1]):
        if bool(_e.all(_e.abs(num[:, j]) <= 1e-14)):
            lead += 1
        else:
            break
    if lead > 0:
        import warnings
        warnings.warn("Badly conditioned filter coefficients (numerator): "
                      "the results may be meaningless", BadCoefficients,
                      stacklevel=2)
        if lead == num.shape[1]:
            lead -= 1
        num = num[:, lead:]
    if num.shape[0] == 1:
        num = num[0, :]
    return _to(num, dev), _to(den, dev)


def tf2zpk(b, a):
    """scipy.signal.tf2zpk: zeros, poles and gain of b/a (the roots of
    the normalised polynomials)."""
    dev = _where(b, a)
    b, a = normalize(_cpu(b), _cpu(a))
    dt = _e.result_type(a, b, _e.float64)
    a, b = a.astype(dt), b.astype(dt)
    k = b[0]
    b = b / b[0]
    z = _roots(b) if b.shape[0] >= 2 else _e.zeros(0, dtype=dt,
                                                   device="cpu")
    p = _roots(a) if a.shape[0] >= 2 else _e.zeros(0, dtype=dt,
                                                   device="cpu")
    k = complex(k) if dt.kind == "c" else float(k)
    return _to(z, dev), _to(p, dev), k


def _poly(z):
    """numpy's poly: the monic polynomial of roots z (real when they pair
    as conjugates), one convolution a root."""
    z = _cpu(z)
    if z.shape[0] == 0:
        return _e.ones(1, dtype=_e.real(z).dtype if z.dtype.kind == "c"
                       else z.dtype, device="cpu")
    a = _e.ones(1, dtype=z.dtype, device="cpu")
    zero = _e.zeros(1, dtype=z.dtype, device="cpu")
    for i in range(z.shape[0]):
        a = _e.concatenate((a, zero)) - z[i] * _e.concatenate((zero, a))
    if a.dtype.kind == "c":
        im = _e.imag(z.astype(_e.complex128))
        if bool(_e.all(_e.sort(im) == _e.sort(-im))):
            a = _e.real(a).copy()
    return a


def zpk2tf(z, p, k):
    """scipy.signal.zpk2tf: (b, a) from zeros, poles and gain."""
    dev = _where(z, p, k)
    z, p = _cpu(z), _cpu(p)
    kk = _cpu(k)
    rt = _e.result_type(_e.real(z) if z.dtype.kind == "c" else z,
                        _e.real(p) if p.dtype.kind == "c" else p, kk)
    kk = kk.astype(_e.float64 if rt.kind in "biu" else rt)
    if z.ndim > 1:
        rows = [_poly(z[i]) for i in range(z.shape[0])]
        ks = [kk[0]] * z.shape[0] if kk.shape[0] == 1 else \
            [kk[i] for i in range(z.shape[0])]
        b = _e.stack([k_i * r for k_i, r in zip(ks, rows)])
    else:
        b = kk * _poly(z)
    return _to(b, dev), _to(_poly(p), dev)


def _relative_degree(z, p):
    degree = p.shape[0] - z.shape[0]
    if degree < 0:
        raise ValueError("Improper transfer function. Must have at least as "
                         "many poles as zeros.")
    return degree


def _prod(a):
    return _e.prod(a, axis=0) if a.shape[0] else _e.asarray(
        1.0, dtype=a.dtype, device="cpu")


def bilinear_zpk(z, p, k, fs):
    """scipy.signal.bilinear_zpk: the analog zpk to the digital one by the
    bilinear transform at fs."""
    dev = _where(z, p)
    z, p = _cpu(z), _cpu(p)
    fs = _validate_fs(fs, allow_none=False)
    degree = _relative_degree(z, p)
    fs2 = 2.0 * fs
    z_z = (fs2 + z) / (fs2 - z)
    p_z = (fs2 + p) / (fs2 - p)
    z_z = _e.concatenate((z_z, -_e.ones(degree, device="cpu")))
    k_z = k * float(_e.real(_prod(fs2 - z) / _prod(fs2 - p)))
    return _to(z_z, dev), _to(p_z, dev), k_z


def lp2lp_zpk(z, p, k, wo=1.0):
    """scipy.signal.lp2lp_zpk: a lowpass prototype to cutoff wo."""
    dev = _where(z, p)
    z, p = _cpu(z), _cpu(p)
    wo = float(wo)
    degree = _relative_degree(z, p)
    return _to(wo * z, dev), _to(wo * p, dev), k * wo ** degree


def lp2hp_zpk(z, p, k, wo=1.0):
    """scipy.signal.lp2hp_zpk: a lowpass prototype to a highpass at wo."""
    dev = _where(z, p)
    z, p = _cpu(z), _cpu(p)
    wo = float(wo)
    degree = _relative_degree(z, p)
    z_hp = _e.concatenate((wo / z, _e.zeros(degree, device="cpu")))
    k_hp = k * float(_e.real(_prod(-z) / _prod(-p)))
    return _to(z_hp, dev), _to(wo / p, dev), k_hp


def _split(r, wo):
    r = r.astype(_e.complex128)
    s = _e.sqrt(r ** 2 - wo ** 2)
    return _e.concatenate((r + s, r - s))


def lp2bp_zpk(z, p, k, wo=1.0, bw=1.0):
    """scipy.signal.lp2bp_zpk: a lowpass prototype to a bandpass centred
    at wo, bw wide."""
    dev = _where(z, p)
    z, p = _cpu(z), _cpu(p)
    z = z if z.dtype.kind in "fc" else z.astype(_e.float64)
    wo, bw = float(wo), float(bw)
    degree = _relative_degree(z, p)
    z_bp = _e.concatenate((_split(z * bw / 2, wo),
                           _e.zeros(degree, dtype=_e.complex128,
                                    device="cpu")))
    p_bp = _split(p * bw / 2, wo)
    return _to(z_bp, dev), _to(p_bp, dev), k * bw ** degree


def lp2bs_zpk(z, p, k, wo=1.0, bw=1.0):
    """scipy.signal.lp2bs_zpk: a lowpass prototype to a bandstop centred
    at wo, bw wide."""
    dev = _where(z, p)
    z, p = _cpu(z), _cpu(p)
    wo, bw = float(wo), float(bw)
    degree = _relative_degree(z, p)
    z_bs = _split((bw / 2) / z, wo)
    p_bs = _split((bw / 2) / p, wo)
    z_bs = _e.concatenate((z_bs, _e.full(degree, 1j * wo, device="cpu"),
                           _e.full(degree, -1j * wo, device="cpu")))
    k_bs = k * float(_e.real(_prod(-z) / _prod(-p)))
    return _to(z_bs, dev), _to(p_bs, dev), k_bs


def _order(N):
    if abs(int(N)) != N:
        raise ValueError("Filter order must be a nonnegative integer")
    return int(N)


def buttap(N, *, device=None):
    """scipy.signal.buttap: the Butterworth lowpass prototype's zpk."""
    N = _order(N)
    m = _e.arange(-N + 1, N, 2, dtype=_e.float64, device="cpu")
    p = -_e.exp(1j * math.pi * m / (2 * N))
    return _to(_e.zeros(0, device="cpu"), device), _to(p, device), 1.0


def cheb1ap(N, rp, *, device=None):
    """scipy.signal.cheb1ap: the Chebyshev type I prototype (rp dB of
    passband ripple)."""
    N = _order(N)
    if N == 0:
        return (_to(_e.zeros(0, device="cpu"), device),
                _to(_e.zeros(0, dtype=_e.complex128, device="cpu"), device),
                10 ** (-rp / 20))
    eps = math.sqrt(10 ** (0.1 * rp) - 1.0)
    mu = 1.0 / N * math.asinh(1 / eps)
    m = _e.arange(-N + 1, N, 2, dtype=_e.float64, device="cpu")
    p = -_e.sinh(mu + 1j * (math.pi * m / (2 * N)))
    k = float(_e.real(_e.prod(-p, axis=0)))
    if N % 2 == 0:
        k = k / math.sqrt(1 + eps * eps)
    return _to(_e.zeros(0, device="cpu"), device), _to(p, device), k


def cheb2ap(N, rs, *, device=None):
    """scipy.signal.cheb2ap: the Chebyshev type II prototype (rs dB of
    stopband attenuation)."""
    N = _order(N)
    if N == 0:
        e = _e.zeros(0, dtype=_e.complex128, device="cpu")
        return _to(e, device), _to(e, device), 1.0
    de = 1.0 / math.sqrt(10 ** (0.1 * rs) - 1)
    mu = math.asinh(1.0 / de) / N
    if N % 2:
        m = _e.concatenate((_e.arange(-N + 1, 0, 2, dtype=_e.float64,
                                      device="cpu"),
                            _e.arange(2, N, 2, dtype=_e.float64,
                                      device="cpu")))
    else:
        m = _e.arange(-N + 1, N, 2, dtype=_e.float64, device="cpu")
    z = 1j / _e.sin(m * math.pi / (2 * N))
    m1 = _e.arange(-N + 1, N, 2, dtype=_e.float64, device="cpu")
    p = -1 / _e.sinh(mu + 1j * (math.pi * m1 / (2 * N)))
    k = float(_e.real(_e.prod(-p, axis=0) / _e.prod(-z, axis=0)))
    return _to(z, device), _to(p, device), k


_BANDS = {"band": "bandpass", "bandpass": "bandpass", "pass": "bandpass",
          "bp": "bandpass", "bs": "bandstop", "bandstop": "bandstop",
          "bands": "bandstop", "stop": "bandstop", "l": "lowpass",
          "low": "lowpass", "lowpass": "lowpass", "lp": "lowpass",
          "high": "highpass", "highpass": "highpass", "h": "highpass",
          "hp": "highpass"}
_FTYPES = {"butter": "butter", "butterworth": "butter", "butt": "butter",
           "cheby1": "cheby1", "chebyshev1": "cheby1", "cheb1": "cheby1",
           "chebyshevi": "cheby1", "cheby2": "cheby2",
           "chebyshev2": "cheby2", "cheb2": "cheby2",
           "chebyshevii": "cheby2", "ellip": "ellip", "elliptic": "ellip",
           "cauer": "ellip", "bessel": "bessel", "bessel_phase": "bessel",
           "bessel_delay": "bessel", "bessel_mag": "bessel"}


def iirfilter(N, Wn, rp=None, rs=None, btype="band", analog=False,
              ftype="butter", output="ba", fs=None, *, device=None):
    """scipy.signal.iirfilter: the prototype's zpk moved to the band
    asked (frequencies prewarped), through the bilinear transform when
    digital; as (b, a), (z, p, k) or second-order sections. Butterworth,
    Chebyshev I and II, elliptic and Bessel (signal_iirspecial.py)."""
    Wn = _cpu(Wn, _e.float64)
    fs = _validate_fs(fs)
    ftype, btype, output = (s.lower() for s in (ftype, btype, output))
    if fs is not None:
        if analog:
            raise ValueError("fs cannot be specified for an analog filter")
        Wn = Wn / (fs / 2)
    if bool(_e.any(Wn <= 0)):
        raise ValueError("filter critical frequencies must be greater than 0")
    if Wn.size > 1 and not float(Wn[0]) < float(Wn[1]):
        raise ValueError("Wn[0] must be less than Wn[1]")
    if btype not in _BANDS:
        raise ValueError(f"'{btype}' is an invalid bandtype for filter.")
    btype = _BANDS[btype]
    if ftype not in _FTYPES:
        raise ValueError(f"'{ftype}' is not a valid basic IIR filter.")
    kind = _FTYPES[ftype]
    if output not in ("ba", "zpk", "sos"):
        raise ValueError(f"'{output}' is not a valid output form.")
    if rp is not None and rp < 0:
        raise ValueError("passband ripple (rp) must be positive")
    if rs is not None and rs < 0:
        raise ValueError("stopband attenuation (rs) must be positive")
    if kind == "butter":
        z, p, k = buttap(N, device="cpu")
    elif kind == "cheby1":
        if rp is None:
            raise ValueError("passband ripple (rp) must be provided to "
                             "design a Chebyshev I filter.")
        z, p, k = cheb1ap(N, rp, device="cpu")
    elif kind == "cheby2":
        if rs is None:
            raise ValueError("stopband attenuation (rs) must be provided to "
                             "design an Chebyshev II filter.")
        z, p, k = cheb2ap(N, rs, device="cpu")
    elif kind == "ellip":
        if rs is None or rp is None:
            raise ValueError("Both rp and rs must be provided to design an "
                             "elliptic filter.")
        from ember.scipy.signal_ellip import ellipap
        z, p, k = ellipap(N, rp, rs, device="cpu")
    else:
        from ember.scipy.signal_iirspecial import besselap
        norm = ftype[7:] if ftype.startswith("bessel_") else "phase"
        z, p, k = besselap(N, norm=norm, device="cpu")
    if not analog:
        if bool(_e.any(Wn <= 0)) or bool(_e.any(Wn >= 1)):
            if fs is not None:
                raise ValueError("Digital filter critical frequencies must "
                                 f"be 0 < Wn < fs/2 (fs={fs} -> "
                                 f"fs/2={fs / 2})")
            raise ValueError("Digital filter critical frequencies must be "
                             "0 < Wn < 1")
        fs = 2.0
        warped = 2 * fs * _e.tan(math.pi * Wn / fs)
    else:
        warped = Wn
    if btype in ("lowpass", "highpass"):
        if Wn.size != 1:
            raise ValueError("Must specify a single critical frequency Wn "
                             "for lowpass or highpass filter")
        f = lp2lp_zpk if btype == "lowpass" else lp2hp_zpk
        z, p, k = f(z, p, k, wo=float(warped[0]))
    else:
        if warped.size < 2:
            raise ValueError("Wn must specify start and stop frequencies "
                             "for bandpass or bandstop filter")
        bw = float(warped[1] - warped[0])
        wo = math.sqrt(float(warped[0]) * float(warped[1]))
        f = lp2bp_zpk if btype == "bandpass" else lp2bs_zpk
        z, p, k = f(z, p, k, wo=wo, bw=bw)
    if not analog:
        z, p, k = bilinear_zpk(z, p, k, fs=fs)
    if output == "zpk":
        return _to(z, device), _to(p, device), k
    if output == "sos":
        return zpk2sos(z, p, k, analog=analog, device=device)
    b, a = zpk2tf(z, p, k)
    return _to(b, device), _to(a, device)


def butter(N, Wn, btype="low", analog=False, output="ba", fs=None, *,
           device=None):
    """scipy.signal.butter: iirfilter with the Butterworth prototype."""
    return iirfilter(N, Wn, btype=btype, analog=analog, output=output,
                     ftype="butter", fs=fs, device=device)


def cheby1(N, rp, Wn, btype="low", analog=False, output="ba", fs=None, *,
           device=None):
    """scipy.signal.cheby1: iirfilter with the Chebyshev I prototype."""
    return iirfilter(N, Wn, rp=rp, btype=btype, analog=analog,
                     output=output, ftype="cheby1", fs=fs, device=device)


def cheby2(N, rs, Wn, btype="low", analog=False, output="ba", fs=None, *,
           device=None):
    """scipy.signal.cheby2: iirfilter with the Chebyshev II prototype."""
    return iirfilter(N, Wn, rs=rs, btype=btype, analog=analog,
                     output=output, ftype="cheby2", fs=fs, device=device)


# ---- second-order sections --------------------------------------------------
# zpk2sos pairs a filter's few poles and zeros one decision at a time
# (SciPy's algorithm, step for step); the roots are parameters, a few
# dozen numbers, so it reads them once and works on Python complex
# numbers, and only the (n_sections, 6) result is an ember array.

_TOL = 100 * 2.0 ** -52


def _cplxreal(z):
    """(complex roots with positive imaginary part, real roots), the
    conjugates matched within 100 eps, sorted as SciPy's _cplxreal."""
    if not z:
        return [], []
    z = sorted(z, key=lambda v: (v.real, abs(v.imag)))
    real = [v for v in z if abs(v.imag) <= _TOL * abs(v)]
    zr = [v.real for v in real]
    if len(zr) == len(z):
        return [], zr
    rest = [v for v in z if not abs(v.imag) <= _TOL * abs(v)]
    zp = [v for v in rest if v.imag > 0]
    zn = [v for v in rest if v.imag < 0]
    if len(zp) != len(zn):
        raise ValueError("Array contains complex value with no matching "
                         "conjugate.")
    # runs of equal real part: ordered by |imag| within the run
    i = 0
    while i < len(zp):
        j = i
        while j + 1 < len(zp) and \
                zp[j + 1].real - zp[j].real <= _TOL * abs(zp[j]):
            j += 1
        if j > i:
            zp[i:j + 1] = sorted(zp[i:j + 1], key=lambda v: abs(v.imag))
            zn[i:j + 1] = sorted(zn[i:j + 1], key=lambda v: abs(v.imag))
        i = j + 1
    if any(abs(a - b.conjugate()) > _TOL * abs(b) for a, b in zip(zp, zn)):
        raise ValueError("Array contains complex value with no matching "
                         "conjugate.")
    return [(a + b.conjugate()) / 2 for a, b in zip(zp, zn)], zr


def _isreal(v):
    return complex(v).imag == 0


def _nearest(fro, to, which):
    order = sorted(range(len(fro)), key=lambda i: abs(fro[i] - to))
    if which == "any":
        return order[0]
    want = which == "real"
    return next(i for i in order if _isreal(fro[i]) == want)


def _poly_small(roots):
    a = [complex(1)]
    for r in roots:
        a = [x - r * y for x, y in zip(a + [0], [0] + a)]
    return a


def _single_zpksos(z, p):
    b, a = _poly_small(z), _poly_small(p)
    row = [0.0] * 6
    for i, v in enumerate(b):
        row[3 - len(b) + i] = v.real
    for i, v in enumerate(a):
        row[6 - len(a) + i] = v.real
    return row


def zpk2sos(z, p, k, pairing=None, *, analog=False, device=None):
    """scipy.signal.zpk2sos: second-order sections from zeros, poles and
    gain, the poles nearest the unit circle (the imaginary axis, analog)
    paired with their nearest zeros into the last sections."""
    dev = _where(z, p, device=device)
    z = [complex(v) for v in _e.asnumpy(_cpu(z)).tolist()]
    p = [complex(v) for v in _e.asnumpy(_cpu(p)).tolist()]
    if pairing is None:
        pairing = "minimal" if analog else "nearest"
    if pairing not in ("nearest", "keep_odd", "minimal"):
        raise ValueError("pairing must be one of ['nearest', 'keep_odd', "
                         f"'minimal'], not {pairing}")
    if analog and pairing != "minimal":
        raise ValueError("for analog zpk2sos conversion, pairing must be "
                         "\"minimal\"")
    k = complex(k)
    if not z and not p:
        row = [0., 0., k.real, 0., 0., 1.] if analog else \
            [k.real, 0., 0., 1., 0., 0.]
        return _to(_e.asarray([row], device="cpu"), dev)
    if pairing != "minimal":
        p = p + [0j] * max(len(z) - len(p), 0)
        z = z + [0j] * max(len(p) - len(z), 0)
        n_sections = (max(len(p), len(z)) + 1) // 2
        if len(p) % 2 == 1 and pairing == "nearest":
            p, z = p + [0j], z + [0j]
    else:
        if len(p) < len(z):
            raise ValueError("for analog zpk2sos conversion, must have "
                             "len(p)>=len(z)")
        n_sections = (len(p) + 1) // 2
    zc, zr = _cplxreal(z)
    pc, pr = _cplxreal(p)
    z = [complex(v) for v in zc] + [complex(v) for v in zr]
    p = [complex(v) for v in pc] + [complex(v) for v in pr]
    if k.imag != 0:
        raise ValueError("k must be real")
    if analog:
        def worst(q):
            return min(range(len(q)), key=lambda i: abs(q[i].real))
    else:
        def worst(q):
            return min(range(len(q)), key=lambda i: abs(1 - abs(q[i])))
    sos = [None] * n_sections
    for si in range(n_sections - 1, -1, -1):
        p1 = p.pop(worst(p))
        nreal_p = sum(_isreal(v) for v in p)
        if _isreal(p1) and nreal_p == 0:
            if pairing != "minimal":
                z1 = z.pop(_nearest(z, p1, "real"))
                sos[si] = _single_zpksos([z1, 0], [p1, 0])
            elif z:
                z1 = z.pop(_nearest(z, p1, "real"))
                sos[si] = _single_zpksos([z1], [p1])
            else:
                sos[si] = _single_zpksos([], [p1])
        elif (len(p) + 1 == len(z) and not _isreal(p1) and nreal_p == 1
              and sum(_isreal(v) for v in z) == 1):
            z1 = z.pop(_nearest(z, p1, "complex"))
            sos[si] = _single_zpksos([z1, z1.conjugate()],
                                     [p1, p1.conjugate()])
        else:
            if _isreal(p1):
                ri = [i for i, v in enumerate(p) if _isreal(v)]
                p2 = p.pop(ri[worst([p[i] for i in ri])])
            else:
                p2 = p1.conjugate()
            if z:
                z1 = z.pop(_nearest(z, p1, "any"))
                if not _isreal(z1):
                    sos[si] = _single_zpksos([z1, z1.conjugate()], [p1, p2])
                elif z:
                    z2 = z.pop(_nearest(z, p1, "real"))
                    sos[si] = _single_zpksos([z1, z2], [p1, p2])
                else:
                    sos[si] = _single_zpksos([z1], [p1, p2])
            else:
                sos[si] = _single_zpksos([], [p1, p2])
    sos[0][:3] = [v * k.real for v in sos[0][:3]]
    return _to(_e.asarray(sos, dtype=_e.float64, device="cpu"), dev)


def _sos(sos):
    s = _cpu(sos)
    if s.ndim != 2 or s.shape[1] != 6:
        raise ValueError("sos array must be shape (n_sections, 6)")
    if s.dtype.kind in "biu":
        s = s.astype(_e.float64)
    return s


def sos2tf(sos):
    """scipy.signal.sos2tf: (b, a), the sections' products."""
    dev = _where(sos)
    s = _sos(sos)
    b = _e.ones(1, dtype=s.dtype, device="cpu")
    a = _e.ones(1, dtype=s.dtype, device="cpu")
    for i in range(s.shape[0]):
        b = _e.convolve(b, s[i, :3])
        a = _e.convolve(a, s[i, 3:])
    return _to(b, dev), _to(a, dev)


def sos2zpk(sos):
    """scipy.signal.sos2zpk: each section's zeros and poles (two a
    section, zeros where a section has fewer) and the gains' product."""
    dev = _where(sos)
    s = _sos(sos)
    n = s.shape[0]
    z = _e.zeros(2 * n, dtype=_e.complex128, device="cpu")
    p = _e.zeros(2 * n, dtype=_e.complex128, device="cpu")
    k = 1.
    for i in range(n):
        zz, pp, kk = tf2zpk(s[i, :3], s[i, 3:])
        zz, pp = _cpu(zz), _cpu(pp)
        z[2 * i:2 * i + zz.shape[0]] = zz
        p[2 * i:2 * i + pp.shape[0]] = pp
        k *= kk
    return _to(z, dev), _to(p, dev), k


def sosfilt_zi(sos):
    """scipy.signal.sosfilt_zi: each section's lfilter_zi, scaled by the
    DC gain of the sections before it."""
    dev = _where(sos)
    s = _sos(sos)
    zi = _e.empty((s.shape[0], 2), dtype=s.dtype, device="cpu")
    scale = 1.0
    for i in range(s.shape[0]):
        b, a = s[i, :3], s[i, 3:]
        zi[i, :] = scale * _cpu(lfilter_zi(b, a))
        scale *= float(_e.sum(b)) / float(_e.sum(a))
    return _to(zi, dev)


def sosfiltfilt(sos, x, axis=-1, padtype="odd", padlen=None):
    """scipy.signal.sosfiltfilt: sosfilt forward and backward from
    sosfilt_zi's state scaled by each end, over the padded signal."""
    from ember.scipy.signal_iir import sosfilt
    s = _sos(sos)
    n_sections = s.shape[0]
    x = x if isinstance(x, _e.ndarray) else _e.asarray(x)
    if x.ndim == 0:
        raise ValueError("x must be at least 1-D")
    axis = normalize_axis(axis, x.ndim)
    ntaps = 2 * n_sections + 1 - min(int(_e.sum(s[:, 2] == 0)),
                                     int(_e.sum(s[:, 5] == 0)))
    if padtype not in ("even", "odd", "constant", None):
        raise ValueError(f"Unknown value '{padtype}' given to padtype. "
                         "padtype must be 'even', 'odd', 'constant', or "
                         "None.")
    ext, edge = _filtfilt_pad(x, axis, padtype, padlen, ntaps)
    zi = _e.asarray(sosfilt_zi(s), device=x.device)
    shape = [1] * x.ndim
    shape[axis] = 2
    zi = zi.reshape([n_sections] + shape)
    sd = _e.asarray(s, device=x.device)
    n = ext.shape[axis]
    y, _ = sosfilt(sd, ext, axis=axis,
                   zi=zi * _e.take(ext, [0], axis=axis))
    y, _ = sosfilt(sd, _e.flip(y, axis=axis), axis=axis,
                   zi=zi * _e.take(y, [n - 1], axis=axis))
    y = _e.flip(y, axis=axis)
    if edge > 0:
        y = _e.take(y, list(range(edge, n - edge)), axis=axis)
    return y
