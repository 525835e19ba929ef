"""ember.scipy.signal's FIR design beyond the window method (re-exported
by ember.scipy.signal): kaiserord, firls (least squares) and
minimum_phase.

firls solves a system of (numtaps + 1) / 2 equations, coefficient work
done on the host with NumPy as SciPy does (see _signal_host.py), the
taps then going to `device`; minimum_phase's FFTs of n_fft points (2^k
around 200 times the filter's length) run on h's device through
ember.fft."""
import math
import warnings

import ember as _e
from ember.scipy._signal_host import host, put

__all__ = ["kaiserord", "firls", "minimum_phase"]


def kaiserord(ripple, width):
    """scipy.signal.kaiserord: (numtaps, beta) of the Kaiser window
    meeting ripple dB within a transition width (a fraction of
    Nyquist)."""
    from ember.scipy.signal_design import kaiser_beta
    A = abs(ripple)
    if A < 8:
        raise ValueError("Requested maximum ripple attenuation "
                         f"{A:f} is too small for the Kaiser formula.")
    beta = kaiser_beta(A)
    numtaps = (A - 7.95) / 2.285 / (math.pi * width) + 1
    return int(math.ceil(numtaps)), beta


def firls(numtaps, bands, desired, *, weight=None, fs=None, device=None):
    """scipy.signal.firls: the linear-phase FIR filter of odd numtaps
    whose response is closest, in weighted least squares, to the
    piecewise-linear desired gains over the bands."""
    import numpy
    from ember.scipy.signal_design import _validate_fs
    bands = host(bands, numpy.float64)
    desired = host(desired, numpy.float64)
    fs = _validate_fs(fs)
    nyq = 0.5 * (2 if fs is None else fs)
    numtaps = int(numtaps)
    if numtaps % 2 == 0 or numtaps < 1:
        raise ValueError("numtaps must be odd and >= 1")
    M = (numtaps - 1) // 2
    bands = bands.flatten() / nyq
    if len(bands) % 2 != 0:
        raise ValueError("bands must contain frequency pairs.")
    if (bands < 0).any() or (bands > 1).any():
        raise ValueError("bands must be between 0 and 1 relative to Nyquist")
    bands = bands.reshape((-1, 2))
    desired = desired.flatten()
    if bands.size != desired.size:
        raise ValueError(f"desired must have one entry per frequency, got "
                         f"{desired.size} gains for {bands.size} "
                         "frequencies.")
    desired = desired.reshape((-1, 2))
    if (numpy.diff(bands) <= 0).any() or \
            (numpy.diff(bands[:, 0]) < 0).any():
        raise ValueError("bands must be monotonically nondecreasing and "
                         "have width > 0.")
    if (bands[:-1, 1] > bands[1:, 0]).any():
        raise ValueError("bands must not overlap.")
    if (desired < 0).any():
        raise ValueError("desired must be non-negative.")
    weight = numpy.ones(len(desired)) if weight is None else \
        host(weight, numpy.float64).flatten()
    if len(weight) != len(desired):
        raise ValueError("weight must be the same size as the number of "
                         f"band pairs ({len(bands)}).")
    if (weight < 0).any():
        raise ValueError("weight must be non-negative.")
    n = numpy.arange(numtaps)[:, None, None]
    q = numpy.dot(numpy.diff(numpy.sinc(bands * n) * bands,
                             axis=2)[:, :, 0], weight)
    i = numpy.arange(M + 1)
    # Toeplitz q[|i - j|] plus Hankel q[i + j]
    Q = q[numpy.abs(i[:, None] - i[None, :])] + q[i[:, None] + i[None, :]]
    n = n[:M + 1]
    m = numpy.diff(desired, axis=1) / numpy.diff(bands, axis=1)
    c = desired[:, [0]] - bands[:, [0]] * m
    b = bands * (m * bands + c) * numpy.sinc(bands * n)
    b[0] -= m * bands * bands / 2.
    b[1:] += m * numpy.cos(n[1:] * math.pi * bands) / (math.pi * n[1:]) ** 2
    b = numpy.dot(numpy.diff(b, axis=2)[:, :, 0], weight)
    # SciPy solves by Cholesky and falls back to a least-squares solution
    # when Q is singular or ill-conditioned (bands that leave taps free)
    try:
        if numpy.linalg.cond(Q) * numpy.finfo(float).eps > 1:
            raise numpy.linalg.LinAlgError("ill-conditioned")
        L = numpy.linalg.cholesky(Q)
        a = numpy.linalg.solve(L.T, numpy.linalg.solve(L, b))
    except numpy.linalg.LinAlgError:
        a = numpy.linalg.lstsq(Q, b, rcond=None)[0]
    return put(numpy.hstack((a[:0:-1], 2 * a[0], a[1:])), device)


def _dhtm(mag):
    """The discrete Hilbert transform's minimum-phase reconstruction from
    a magnitude spectrum (on its device)."""
    import numpy
    fft = _e.fft
    n = mag.shape[0]
    sig = numpy.zeros(n)
    mid = n // 2
    sig[1:mid] = 1
    sig[mid + 1:] = -1
    sig = _e.asarray(sig, device=mag.device)
    return _e.real(fft.ifft(mag * _e.exp(fft.fft(sig * fft.ifft(
        _e.log(mag))))))


def minimum_phase(h, method="homomorphic", n_fft=None, *, half=True):
    """scipy.signal.minimum_phase: a minimum-phase filter from a
    linear-phase one, by the cepstrum ('homomorphic') or the discrete
    Hilbert transform of the square-root response ('hilbert')."""
    import numpy
    fft = _e.fft
    h = h if isinstance(h, _e.ndarray) else _e.asarray(h)
    if h.dtype.kind == "c":
        raise ValueError("Complex filters not supported")
    if h.ndim != 1 or h.shape[0] <= 2:
        raise ValueError("h must be 1-D and at least 2 samples long")
    h = h.astype(_e.float64) if h.dtype.kind != "f" else h
    n_half = h.shape[0] // 2
    if not bool(_e.any(_e.flip(h[h.shape[0] - n_half:]) - h[:n_half] <=
                       1e-8 + 1e-6 * _e.abs(h[:n_half]))):
        warnings.warn("h does not appear to by symmetric, conversion may "
                      "fail", RuntimeWarning, stacklevel=2)
    if not isinstance(method, str) or method not in ("homomorphic",
                                                     "hilbert"):
        raise ValueError('method must be "homomorphic" or "hilbert", got '
                         f"{method!r}")
    if method == "hilbert" and not half:
        raise ValueError("`half=False` is only supported when "
                         "`method='homomorphic'`")
    if n_fft is None:
        n_fft = 2 ** int(math.ceil(math.log2(2 * (h.shape[0] - 1) / 0.01)))
    n_fft = int(n_fft)
    if n_fft < h.shape[0]:
        raise ValueError(f"n_fft must be at least len(h)=={h.shape[0]}")
    if method == "hilbert":
        w = _e.arange(n_fft, dtype=_e.float64, device=h.device) * (
            2 * math.pi / n_fft * n_half)
        H = _e.real(fft.fft(h, n_fft) * _e.exp(1j * w))
        dp = float(_e.max(H)) - 1
        ds = 0 - float(_e.min(H))
        S = 4. / (math.sqrt(1 + dp + ds) + math.sqrt(1 - dp + ds)) ** 2
        H = _e.sqrt((H + ds) * S) + 1e-10
        h_min = _dhtm(H)
    else:
        mag = _e.abs(fft.fft(h, n_fft))
        mag = mag + 1e-7 * float(_e.min(mag[mag > 0]))
        ceps = _e.log(mag)
        if half:
            ceps = ceps * 0.5
        ceps = _e.real(fft.ifft(ceps))
        win = numpy.zeros(n_fft)
        win[0] = 1
        stop = n_fft // 2
        win[1:stop] = 2
        if n_fft % 2:
            win[stop] = 1
        ceps = ceps * _e.asarray(win, device=h.device)
        h_min = _e.real(fft.ifft(_e.exp(fft.fft(ceps))))
    n_out = (n_half + h.shape[0] % 2) if half else h.shape[0]
    return h_min[:n_out]
