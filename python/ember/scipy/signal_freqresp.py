"""ember.scipy.signal's frequency responses beyond freqz and freqs
(re-exported by ember.scipy.signal): freqz_zpk, freqz_sos (and its older
name sosfreqz), freqs_zpk, group_delay and findfreqs.

The coefficients (a filter's few roots and taps) are read on the host;
the evaluation over the frequency grid, which can be long, is ember
array work on the device the inputs are on (the default device for
lists): a product over the roots, or Horner's rule over the taps, one
elementwise step a coefficient."""
import math
import numbers
import warnings

import ember as _e
from ember.scipy._signal_host import device_of, host, put

__all__ = ["freqz_zpk", "freqz_sos", "sosfreqz", "freqs_zpk",
           "group_delay", "findfreqs"]


def _is_int(v):
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _fs(fs):
    from ember.scipy.signal_design import _validate_fs
    return _validate_fs(fs, allow_none=False)


def _from_roots(x, roots):
    """prod_j (x - roots[j]) (NumPy's polyvalfromroots), one fused
    multiply a root."""
    y = _e.ones_like(x)
    for r in roots:
        y = y * (x - r)
    return y


def _grid(worN, whole, fs, dev, dtype="float64"):
    """The digital frequencies (radians/sample) of worN."""
    last = 2 * math.pi if whole else math.pi
    if worN is None:
        worN = 512
    if _is_int(worN):
        return _e.linspace(0, last, int(worN), endpoint=False, dtype=dtype,
                           device=dev)
    w = worN if isinstance(worN, _e.ndarray) else _e.asarray(worN,
                                                              device=dev)
    if w.dtype.kind in "biu":
        w = w.astype(_e.float64)
    return 2 * math.pi * w.reshape(-1) / fs


def freqz_zpk(z, p, k, worN=512, whole=False, fs=2 * math.pi):
    """scipy.signal.freqz_zpk: (w, h) of the digital filter given by its
    zeros, poles and gain."""
    import numpy
    dev = device_of(z, p, worN)
    zh = numpy.atleast_1d(host(z))
    ph = numpy.atleast_1d(host(p))
    rt = numpy.result_type(zh, ph)
    rt = "float64" if rt in (numpy.float64, numpy.complex128) else "float32"
    fs = _fs(fs)
    w = _grid(worN, whole, fs, dev, rt)
    zm1 = _e.exp(1j * w)
    h = _from_roots(zm1, zh.tolist()) / _from_roots(zm1, ph.tolist())
    kk = numpy.asarray(host(k), dtype=rt)
    h = h * (kk.item() if kk.size == 1 else put(kk, w.device))
    return w * (fs / (2 * math.pi)), h


def freqz_sos(sos, worN=512, whole=False, fs=2 * math.pi):
    """scipy.signal.freqz_sos: (w, h), the product of the sections'
    freqz responses."""
    from ember.scipy.signal_design import _sos, freqz
    fs = _fs(fs)
    dev = device_of(sos, worN)
    s = _sos(sos)
    if s.shape[0] == 0:
        raise ValueError("Cannot compute frequencies with no sections")
    sd = put(_e.asnumpy(s), dev)
    h = 1.0
    for j in range(s.shape[0]):
        w, hj = freqz(sd[j, :3], sd[j, 3:], worN=worN, whole=whole, fs=fs)
        h = h * hj
    return w, h


sosfreqz = freqz_sos


def findfreqs(num, den, N, kind="ba"):
    """scipy.signal.findfreqs: N log-spaced frequencies spanning an
    analog filter's interesting band (from its poles and zeros)."""
    import numpy
    dev = device_of(num, den)
    if kind == "ba":
        ep = numpy.atleast_1d(numpy.roots(numpy.atleast_1d(host(den))))
        tz = numpy.atleast_1d(numpy.roots(numpy.atleast_1d(host(num))))
    elif kind == "zp":
        ep = numpy.atleast_1d(host(den))
        tz = numpy.atleast_1d(host(num))
    else:
        raise ValueError("input must be one of {'ba', 'zp'}")
    ep, tz = ep.astype(complex), tz.astype(complex)
    if ep.shape[0] == 0:
        ep = numpy.asarray([-1000], complex)
    ez = numpy.concatenate((ep[ep.imag >= 0],
                            tz[(numpy.abs(tz) < 1e5) & (tz.imag >= 0)]))
    integ = (numpy.abs(ez) < 1e-10).astype(ez.dtype)
    hfreq = numpy.round(numpy.log10(numpy.max(
        3 * numpy.abs(ez.real + integ) + 1.5 * ez.imag)) + 0.5)
    lfreq = numpy.round(numpy.log10(0.1 * numpy.min(
        numpy.abs((ez + integ).real) + 2 * ez.imag)) - 0.5)
    return _e.logspace(float(lfreq), float(hfreq), N, device=dev)


def freqs_zpk(z, p, k, worN=200):
    """scipy.signal.freqs_zpk: (w, h) of the analog filter given by its
    zeros, poles and gain."""
    import numpy
    dev = device_of(z, p, worN)
    kk = numpy.asarray(host(k), dtype=numpy.float64)
    if kk.size > 1:
        raise ValueError("k must be a single scalar gain")
    zh = numpy.atleast_1d(host(z))
    ph = numpy.atleast_1d(host(p))
    if worN is None or _is_int(worN):
        w = findfreqs(zh, ph, 200 if worN is None else int(worN), kind="zp")
        w = put(_e.asnumpy(w), dev) if dev is not None else w
    else:
        w = worN if isinstance(worN, _e.ndarray) else _e.asarray(worN,
                                                                  device=dev)
        w = w.reshape(-1) if w.ndim == 0 else w
    s = 1j * w
    h = float(kk) * _from_roots(s, zh.tolist()) / _from_roots(s, ph.tolist())
    return w, h


def group_delay(system, w=512, whole=False, fs=2 * math.pi):
    """scipy.signal.group_delay: (w, gd), the group delay in samples of
    the digital filter (b, a), through the derivative of b(z) a*(1/z)
    (Shpak's method, SciPy's); 0 with a warning where it is singular."""
    import numpy
    b, a = system
    dev = device_of(b, a, w)
    b = numpy.atleast_1d(host(b))
    a = numpy.atleast_1d(host(a))
    if w is None:
        w = 512
    fs = _fs(fs)
    wd = _grid(w, whole, fs, dev)
    c = numpy.convolve(b, numpy.conjugate(a[::-1]))
    cr = c * numpy.arange(c.size)
    z = _e.exp(-1j * wd)
    num = _e.zeros_like(z)
    den = _e.zeros_like(z)
    # Horner's rule in z over the coefficients reversed: NumPy's polyval
    # of c[::-1]
    for cv, crv in zip(c[::-1].tolist(), cr[::-1].tolist()):
        num = num * z + crv
        den = den * z + cv
    gd = _e.real(num / den) - a.size + 1
    singular = ~_e.isfinite(gd)
    if bool(_e.any(singular)):
        ws = _e.asnumpy(wd[singular])
        gd = _e.where(singular, 0.0, gd)
        warnings.warn("The group delay is singular at frequencies ["
                      + ", ".join(f"{v:.3f}" for v in ws) + "], setting "
                      "to 0", stacklevel=2)
    else:
        near = _e.abs(den) < 10 * numpy.finfo(float).eps
        if bool(_e.any(near)):
            ws = _e.asnumpy(wd[near])
            warnings.warn("The filter's denominator is extremely small at "
                          "frequencies [" + ", ".join(f"{v:.3f}" for v in ws)
                          + "], around which a singularity may be present",
                          stacklevel=2)
    return wd * (fs / (2 * math.pi)), gd
