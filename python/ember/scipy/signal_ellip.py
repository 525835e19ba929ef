"""ember.scipy.signal's elliptic (Cauer) filters and IIR order selection
(re-exported by ember.scipy.signal): ellipap, ellip, buttord, cheb1ord,
cheb2ord, ellipord and iirdesign. Like the rest of the design code these
work on a handful of numbers (band edges, a prototype's few poles): the
complete elliptic integral and Jacobi's elliptic functions they need are
the arithmetic-geometric mean and its descending Landen sequence on
Python floats (Cephes' algorithms, as SciPy's special functions), and
only the prototype's zeros and poles become ember arrays. Band-stop order
selection (SciPy minimises over the passband edges with fminbound) is
not there yet."""
import cmath
import math

import ember as _e

__all__ = ["ellipap", "ellip", "buttord", "cheb1ord", "cheb2ord",
           "ellipord", "iirdesign"]

_EPS = 2e-16
_MACHEP = 2.0 ** -53


def _pow10m1(x):
    return math.expm1(math.log(10.0) * x)


def _agm_k(p):
    """K(1 - p) = pi / (2 AGM(1, sqrt p)), the complementary parameter
    given directly so K stays accurate where m is near 1."""
    if p == 0:
        return math.inf
    a, b = 1.0, math.sqrt(p)
    for _ in range(64):
        if abs(a - b) <= 1e-16 * a:
            break
        a, b = (a + b) / 2, math.sqrt(a * b)
    return math.pi / (2 * a)


def _ellipk(m):
    return _agm_k(1.0 - m)


def _ellipkm1(p):
    return _agm_k(p)


def _ellipj(u, m):
    """(sn, cn, dn) of Jacobi's elliptic functions, Cephes' ellpj: the AGM
    up, then phi down through the Landen sequence."""
    if m < 1e-9:
        t, b = math.sin(u), math.cos(u)
        ai = 0.25 * m * (u - t * b)
        return t - ai * b, b + ai * t, 1.0 - 0.5 * m * t * t
    if m >= 0.9999999999:
        ai = 0.25 * (1.0 - m)
        b = math.cosh(u)
        t = math.tanh(u)
        phi = 1.0 / b
        twon = b * math.sinh(u)
        sn = t + ai * (twon - u) / (b * b)
        ai *= t * phi
        return sn, phi - ai * (twon - u), phi + ai * (twon + u)
    a = [1.0] * 9
    c = [0.0] * 9
    b = math.sqrt(1.0 - m)
    c[0] = math.sqrt(m)
    twon = 1.0
    i = 0
    while abs(c[i] / a[i]) > _MACHEP:
        if i > 7:
            break
        ai = a[i]
        i += 1
        c[i] = (ai - b) / 2.0
        t = math.sqrt(ai * b)
        a[i] = (ai + b) / 2.0
        b = t
        twon *= 2.0
    phi = twon * a[i] * u
    while True:
        t = c[i] * math.sin(phi) / a[i]
        b = phi
        phi = (math.asin(t) + phi) / 2.0
        i -= 1
        if i == 0:
            break
    t = math.cos(phi)
    return math.sin(phi), t, t / math.cos(phi - b)


def _ellipdeg(n, m1):
    K1, K1p = _ellipk(m1), _ellipkm1(m1)
    q = math.exp(-math.pi * K1p / K1) ** (1 / n)
    num = math.fsum(q ** (k * (k + 1)) for k in range(8))
    den = 1 + 2 * math.fsum(q ** (k * k) for k in range(1, 9))
    return 16 * q * (num / den) ** 4


def _arc_jac_sn(w, m):
    def comp(kx):
        return cmath.sqrt((1 - kx) * (1 + kx))
    k = m ** 0.5
    if k > 1:
        return complex(math.nan)
    if k == 1:
        return cmath.atanh(w)
    ks = [k]
    while ks[-1] != 0:
        kp = math.sqrt((1 - ks[-1]) * (1 + ks[-1]))
        ks.append((1 - kp) / (1 + kp))
        if len(ks) > 11:
            raise ValueError("Landen transformation not converging")
    K = math.pi / 2
    for v in ks[1:]:
        K *= 1 + v
    wn = w
    for kn, knext in zip(ks[:-1], ks[1:]):
        wn = 2 * wn / ((1 + knext) * (1 + comp(kn * wn)))
    return K * (2 / math.pi * cmath.asin(wn))


def _arc_jac_sc1(w, m):
    z = _arc_jac_sn(1j * w, m)
    if abs(z.real) > 1e-14:
        raise ValueError
    return z.imag


def ellipap(N, rp, rs, *, device=None):
    """scipy.signal.ellipap: the elliptic lowpass prototype (rp dB of
    passband ripple, rs dB of stopband attenuation): zeros, poles, gain."""
    def out(z, p, k):
        z = _e.asarray(z, dtype=_e.complex128, device="cpu")
        p = _e.asarray(p, dtype=_e.complex128, device="cpu")
        if device is not None and str(device) != "cpu":
            z, p = _e.asarray(z, device=device), _e.asarray(p, device=device)
        return z, p, k
    if abs(int(N)) != N:
        raise ValueError("Filter order must be a nonnegative integer")
    N = int(N)
    if N == 0:
        return out([], [], 10 ** (-rp / 20))
    if N == 1:
        p = -math.sqrt(1.0 / _pow10m1(0.1 * rp))
        return out([], [p], -p)
    eps_sq = _pow10m1(0.1 * rp)
    eps = math.sqrt(eps_sq)
    ck1_sq = eps_sq / _pow10m1(0.1 * rs)
    if ck1_sq == 0:
        raise ValueError("Cannot design a filter with given rp and rs "
                         "specifications.")
    K1 = _ellipk(ck1_sq)
    m = _ellipdeg(N, ck1_sq)
    capk = _ellipk(m)
    js = list(range(1 - N % 2, N, 2))
    scd = [_ellipj(j * capk / N, m) for j in js]
    z = [1j / (math.sqrt(m) * s) for s, _, _ in scd if abs(s) > _EPS]
    z = z + [v.conjugate() for v in z]
    r = _arc_jac_sc1(1. / eps, ck1_sq)
    v0 = capk * r / (N * K1)
    sv, cv, dv = _ellipj(v0, 1 - m)
    p = [-(c * d * sv * cv + 1j * s * dv) / (1 - (d * sv) ** 2.0)
         for s, c, d in scd]
    if N % 2:
        norm = math.sqrt(math.fsum(abs(v) ** 2 for v in p))
        p = p + [v.conjugate() for v in p if abs(v.imag) > _EPS * norm]
    else:
        p = p + [v.conjugate() for v in p]
    k = 1 + 0j
    for v in p:
        k *= -v
    for v in z:
        k /= -v
    k = k.real
    if N % 2 == 0:
        k = k / math.sqrt(1 + eps_sq)
    return out(z, p, float(k))


def ellip(N, rp, rs, Wn, btype="low", analog=False, output="ba", fs=None,
          *, device=None):
    """scipy.signal.ellip: iirfilter with the elliptic prototype."""
    from ember.scipy.signal_design import iirfilter
    return iirfilter(N, Wn, rs=rs, rp=rp, btype=btype, analog=analog,
                     output=output, ftype="elliptic", fs=fs, device=device)


# ---- order selection -------------------------------------------------------

def _floats(v):
    if isinstance(v, _e.ndarray):
        v = _e.asnumpy(v)
    try:
        return [float(t) for t in v]
    except TypeError:
        return [float(v)]


def _gpass_gstop(gpass, gstop):
    if gpass <= 0.0:
        raise ValueError("gpass should be larger than 0.0")
    if gstop <= 0.0:
        raise ValueError("gstop should be larger than 0.0")
    if gpass > gstop:
        raise ValueError("gpass should be smaller than gstop")


def _setup(wp, ws, gpass, gstop, analog, fs):
    from ember.scipy.signal_design import _validate_fs
    fs = _validate_fs(fs)
    _gpass_gstop(gpass, gstop)
    wp, ws = _floats(wp), _floats(ws)
    if fs is not None:
        if analog:
            raise ValueError("fs cannot be specified for an analog filter")
        wp = [2 * v / fs for v in wp]
        ws = [2 * v / fs for v in ws]
    ftype = 2 * (len(wp) - 1) + 1 + (1 if wp[0] >= ws[0] else 0)
    if analog:
        passb, stopb = wp, ws
    else:
        passb = [math.tan(math.pi * v / 2.0) for v in wp]
        stopb = [math.tan(math.pi * v / 2.0) for v in ws]
    if ftype == 1:
        nat = [s / passb[0] for s in stopb]
    elif ftype == 2:
        nat = [passb[0] / s for s in stopb]
    elif ftype == 3:
        raise NotImplementedError("band-stop order selection (SciPy "
                                  "minimises over the passband edges) is "
                                  "not there yet")
    else:
        nat = [(s ** 2 - passb[0] * passb[1]) / (s * (passb[0] - passb[1]))
               for s in stopb]
    return fs, ftype, passb, min(abs(v) for v in nat)


def _wn(WN, analog, fs, device):
    wn = WN if analog else [math.atan(v) * 2.0 / math.pi for v in WN]
    if fs is not None:
        wn = [v * fs / 2 for v in wn]
    if len(wn) == 1:
        return wn[0]
    return _e.asarray(wn, dtype=_e.float64, device=device)


def buttord(wp, ws, gpass, gstop, analog=False, fs=None, *, device=None):
    """scipy.signal.buttord: the lowest Butterworth order meeting the
    specification and its natural frequency."""
    fs, ftype, passb, nat = _setup(wp, ws, gpass, gstop, analog, fs)
    GSTOP = 10 ** (0.1 * abs(gstop))
    GPASS = 10 ** (0.1 * abs(gpass))
    order = int(math.ceil(math.log10((GSTOP - 1.0) / (GPASS - 1.0)) /
                          (2 * math.log10(nat))))
    try:
        W0 = (GPASS - 1.0) ** (-1.0 / (2.0 * order))
    except ZeroDivisionError:
        import warnings
        W0 = 1.0
        warnings.warn("Order is zero...check input parameters.",
                      RuntimeWarning, stacklevel=2)
    if ftype == 1:
        WN = [W0 * passb[0]]
    elif ftype == 2:
        WN = [passb[0] / W0]
    else:
        d = passb[1] - passb[0]
        WN = sorted(abs(-w * d / 2.0 + math.sqrt(w ** 2 / 4.0 * d ** 2 +
                                                  passb[0] * passb[1]))
                    for w in (-W0, W0))
    return order, _wn(WN, analog, fs, device)


def _cheb_order(gpass, gstop, nat):
    GSTOP = 10 ** (0.1 * abs(gstop))
    GPASS = 10 ** (0.1 * abs(gpass))
    v = math.acosh(math.sqrt((GSTOP - 1.0) / (GPASS - 1.0)))
    return int(math.ceil(v / math.acosh(nat))), v


def cheb1ord(wp, ws, gpass, gstop, analog=False, fs=None, *, device=None):
    """scipy.signal.cheb1ord: the lowest Chebyshev I order and its
    passband edge frequency."""
    fs, ftype, passb, nat = _setup(wp, ws, gpass, gstop, analog, fs)
    order, _ = _cheb_order(gpass, gstop, nat)
    return order, _wn(passb, analog, fs, device)


def cheb2ord(wp, ws, gpass, gstop, analog=False, fs=None, *, device=None):
    """scipy.signal.cheb2ord: the lowest Chebyshev II order and its
    stopband edge frequency."""
    fs, ftype, passb, nat = _setup(wp, ws, gpass, gstop, analog, fs)
    order, v = _cheb_order(gpass, gstop, nat)
    nf = 1.0 / math.cosh(1.0 / order * v)
    if ftype == 1:
        WN = [passb[0] / nf]
    elif ftype == 2:
        WN = [passb[0] * nf]
    else:
        n0 = (1.0 / (2.0 * nf) * (passb[0] - passb[1]) +
              math.sqrt((passb[1] - passb[0]) ** 2 / (4.0 * nf ** 2) +
                        passb[1] * passb[0]))
        WN = [n0, passb[0] * passb[1] / n0]
    return order, _wn(WN, analog, fs, device)


def ellipord(wp, ws, gpass, gstop, analog=False, fs=None, *, device=None):
    """scipy.signal.ellipord: the lowest elliptic order (from the ratio
    of complete elliptic integrals) and the passband edge."""
    fs, ftype, passb, nat = _setup(wp, ws, gpass, gstop, analog, fs)
    arg1_sq = _pow10m1(0.1 * gpass) / _pow10m1(0.1 * gstop)
    a0 = (1.0 / nat) ** 2
    order = int(math.ceil(_ellipk(a0) * _ellipkm1(arg1_sq) /
                          (_ellipkm1(a0) * _ellipk(arg1_sq))))
    return order, _wn(passb, analog, fs, device)


_ORD = {"butter": buttord, "butterworth": buttord, "butt": buttord,
        "cheby1": cheb1ord, "chebyshev1": cheb1ord, "cheb1": cheb1ord,
        "chebyshevi": cheb1ord, "cheby2": cheb2ord, "chebyshev2": cheb2ord,
        "cheb2": cheb2ord, "chebyshevii": cheb2ord, "ellip": ellipord,
        "elliptic": ellipord, "cauer": ellipord}


def iirdesign(wp, ws, gpass, gstop, analog=False, ftype="ellip",
              output="ba", fs=None, *, device=None):
    """scipy.signal.iirdesign: the order from the ftype's order selection,
    then iirfilter with the band the edges describe."""
    from ember.scipy.signal_design import _validate_fs, iirfilter
    if ftype not in _ORD:
        if ftype in ("bessel", "bessel_phase", "bessel_delay",
                     "bessel_mag"):
            raise ValueError(f"{ftype} does not have order selection. Use "
                             "iirfilter function.")
        raise ValueError(f"Invalid IIR filter type: {ftype}")
    _gpass_gstop(gpass, gstop)
    wpl, wsl = _floats(wp), _floats(ws)
    fs = _validate_fs(fs)
    if len(wpl) != len(wsl) or len(wpl) not in (1, 2):
        raise ValueError("wp and ws must have one or two elements each, and "
                         f"the same shape, got ({len(wpl)},) and "
                         f"({len(wsl)},)")
    if any(v <= 0 for v in wpl + wsl):
        raise ValueError("Values for wp, ws must be greater than 0")
    if not analog:
        if fs is None:
            if any(v >= 1 for v in wpl + wsl):
                raise ValueError("Values for wp, ws must be less than 1")
        elif any(v >= fs / 2 for v in wpl + wsl):
            raise ValueError("Values for wp, ws must be less than fs/2 "
                             f"(fs={fs} -> fs/2={fs / 2})")
    if len(wpl) == 2 and not ((wsl[0] < wpl[0] and wpl[1] < wsl[1]) or
                              (wpl[0] < wsl[0] and wsl[1] < wpl[1])):
        raise ValueError("Passband must lie strictly inside stopband or "
                         "vice versa")
    band = 2 * (len(wpl) - 1) + 1 + (1 if wpl[0] >= wsl[0] else 0)
    btype = {1: "lowpass", 2: "highpass", 3: "bandstop", 4: "bandpass"}[band]
    N, Wn = _ORD[ftype](wpl, wsl, gpass, gstop, analog=analog, fs=fs,
                        device="cpu")
    return iirfilter(N, Wn, rp=gpass, rs=gstop, analog=analog, btype=btype,
                     ftype=ftype, output=output, fs=fs, device=device)
