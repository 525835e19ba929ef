"""ember.scipy.signal's chirp z-transform (re-exported by
ember.scipy.signal): CZT, ZoomFFT, czt, zoom_fft and czt_points.

Bluestein's algorithm, as SciPy's: the data times a chirp, convolved
with the conjugate chirp through FFTs of a 2-3-5-7-11-smooth length,
times the chirp again. The chirps and the chirp filter's FFT have n + m
points, so they are built with ember operations on the device of the
data they are applied to (once a device, kept by the transform object),
and every transform is a batch of FFTs there (ember.fft)."""
import cmath
import math
import numbers

import ember as _e
from ember._api._util import as_array as _arr

__all__ = ["CZT", "ZoomFFT", "czt", "zoom_fft", "czt_points"]


def _validate_sizes(n, m):
    if not isinstance(n, numbers.Integral) or n < 1:
        raise ValueError(f"Invalid number of CZT data points ({n}) "
                         "specified. n must be positive and integer type.")
    if m is None:
        return n
    if not isinstance(m, numbers.Integral) or m < 1:
        raise ValueError(f"Invalid number of CZT output points ({m}) "
                         "specified. m must be positive and integer type.")
    return m


def _fast_len(n):
    """The smallest 2-3-5-7-11-smooth length >= n (scipy.fft's
    next_fast_len for complex transforms)."""
    while True:
        r = n
        for p in (2, 3, 5, 7, 11):
            while r % p == 0:
                r //= p
        if r == 1:
            return n
        n += 1


def czt_points(m, w=None, a=1 + 0j, *, device=None):
    """scipy.signal.czt_points: the m points of the z-plane where a CZT
    with these w and a evaluates the transform."""
    m = _validate_sizes(1, m)
    k = _e.arange(m, dtype=_e.float64, device=device)
    a = 1.0 * a
    if w is None:
        return a * _e.exp(2j * math.pi * k / m)
    w = 1.0 * w
    if isinstance(w, complex) or isinstance(a, complex):
        # w ** -k as exp(-k log w): NumPy's complex power to a real
        # exponent
        return a * _e.exp(-k * cmath.log(complex(w)))
    return a * w ** -k


class CZT:
    """scipy.signal.CZT: a callable chirp z-transform of n-point signals
    to m points along the spiral a w^-k."""

    def __init__(self, n, m=None, w=None, a=1 + 0j):
        m = _validate_sizes(n, m)
        self.w = cmath.exp(-2j * math.pi / m) if w is None else w
        self._default_w = w is None
        self.a = 1.0 * a
        self.m, self.n = m, n
        self._nfft = _fast_len(n + m - 1)
        self._plans = {}

    def _wk2(self, k):
        if self._default_w:
            # k^2 mod 2m keeps the exponent small, exact in integers
            return _e.exp(-1j * math.pi * ((k * k) % (2 * self.m)) / self.m)
        return _e.exp((k.astype(_e.float64) ** 2 / 2.0) *
                      cmath.log(complex(self.w)))

    def _ak(self, k):
        return _e.exp(-k.astype(_e.float64) * cmath.log(complex(self.a)))

    def _plan(self, device):
        key = str(device)
        if key not in self._plans:
            n, m = self.n, self.m
            k = _e.arange(max(m, n), dtype=_e.int64, device=device)
            wk2 = self._wk2(k)
            awk2 = self._ak(k[:n]) * wk2[:n]
            fwk2 = _e.fft.fft(1 / _e.concatenate((wk2[n - 1:0:-1],
                                                  wk2[:m])), self._nfft)
            self._plans[key] = (awk2, fwk2, wk2[:m])
        return self._plans[key]

    def __call__(self, x, *, axis=-1):
        x = _arr(x)
        if x.ndim == 0:
            raise ValueError("CZT needs an array of at least one dimension")
        if x.shape[axis] != self.n:
            raise ValueError(f"CZT defined for length {self.n}, not "
                             f"{x.shape[axis]}")
        awk2, fwk2, wk2 = self._plan(x.device)
        xt = _e.moveaxis(x, axis, -1)
        y = _e.fft.ifft(fwk2 * _e.fft.fft(xt * awk2, self._nfft))
        y = y[..., self.n - 1:self.n + self.m - 1] * wk2
        return _e.moveaxis(y, -1, axis)

    def points(self, *, device=None):
        """The z-plane points the transform evaluates at."""
        return czt_points(self.m, self.w, self.a, device=device)


class ZoomFFT(CZT):
    """scipy.signal.ZoomFFT: the DFT over the band fn (f2, or (f1, f2))
    at m points, a CZT along the unit circle."""

    def __init__(self, n, fn, m=None, *, fs=2, endpoint=False):
        import numpy
        m = _validate_sizes(n, m)
        fn = numpy.asarray(_e.asnumpy(fn) if isinstance(fn, _e.ndarray)
                           else fn)
        if fn.size == 2:
            f1, f2 = (float(v) for v in fn.reshape(-1))
        elif fn.size == 1:
            f1, f2 = 0.0, float(fn.reshape(-1)[0])
        else:
            raise ValueError("fn must be a scalar or 2-length sequence")
        self.f1, self.f2, self.fs = f1, f2, fs
        scale = ((f2 - f1) * m) / (fs * (m - 1)) if endpoint else \
            (f2 - f1) / fs
        self._scale = scale
        self.w = cmath.exp(-2j * math.pi / m * scale)
        self.a = cmath.exp(2j * math.pi * f1 / fs)
        self._default_w = False
        self.m, self.n = m, n
        self._nfft = _fast_len(n + m - 1)
        self._plans = {}

    def _wk2(self, k):
        return _e.exp(-(1j * math.pi * self._scale *
                        k.astype(_e.float64) ** 2) / self.m)

    def _ak(self, k):
        return _e.exp(-2j * math.pi * self.f1 / self.fs *
                      k.astype(_e.float64))


def czt(x, m=None, w=None, a=1 + 0j, *, axis=-1):
    """scipy.signal.czt: the chirp z-transform of x along axis."""
    x = _arr(x)
    if x.ndim == 0:
        raise ValueError("czt needs an array of at least one dimension")
    return CZT(x.shape[axis], m=m, w=w, a=a)(x, axis=axis)


def zoom_fft(x, fn, m=None, *, fs=2, endpoint=False, axis=-1):
    """scipy.signal.zoom_fft: x's DFT over a band of frequencies."""
    x = _arr(x)
    if x.ndim == 0:
        raise ValueError("zoom_fft needs an array of at least one "
                         "dimension")
    return ZoomFFT(x.shape[axis], fn, m=m, fs=fs, endpoint=endpoint)(
        x, axis=axis)
