"""ember.scipy.signal's special IIR designs (re-exported by
ember.scipy.signal): the second-order notch and peak (iirnotch,
iirpeak), the comb (iircomb) and the Bessel/Thomson prototype
(besselap, bessel through iirfilter).

These are coefficients from a handful of parameters, worked out on the
host as SciPy's are (the Bessel poles by Aberth's simultaneous
iteration from Campos and Calderon's starting points, on the Bessel
polynomial itself where SciPy iterates on a modified Bessel function:
the same roots, to rounding); the result goes to `device` (the default
one when None)."""
import math

import ember as _e

__all__ = ["iirnotch", "iirpeak", "iircomb", "besselap", "bessel"]


def _out(a, device, dtype=None):
    return _e.asarray(a, dtype=dtype, device=device)


def _fs(fs):
    from ember.scipy.signal_design import _validate_fs
    return _validate_fs(fs, allow_none=False)


def _notch_peak(w0, Q, ftype, fs, device):
    fs = _fs(fs)
    w0, Q = float(w0), float(Q)
    w0 = 2 * w0 / fs
    if w0 > 1.0 or w0 < 0.0:
        raise ValueError("w0 should be such that 0 < w0 < 1")
    bw = w0 / Q * math.pi
    w0 = w0 * math.pi
    beta = math.tan(bw / 2.0)
    gain = 1.0 / (1.0 + beta)
    if ftype == "notch":
        b = [gain, gain * -2.0 * math.cos(w0), gain]
    else:
        b = [1.0 - gain, 0.0, (1.0 - gain) * -1.0]
    a = [1.0, -2.0 * gain * math.cos(w0), 2.0 * gain - 1.0]
    return _out(b, device, _e.float64), _out(a, device, _e.float64)


def iirnotch(w0, Q, fs=2.0, *, device=None):
    """scipy.signal.iirnotch: (b, a) of a second-order notch at w0 with
    quality factor Q."""
    return _notch_peak(w0, Q, "notch", fs, device)


def iirpeak(w0, Q, fs=2.0, *, device=None):
    """scipy.signal.iirpeak: (b, a) of a second-order resonator at w0."""
    return _notch_peak(w0, Q, "peak", fs, device)


def iircomb(w0, Q, ftype="notch", fs=2.0, *, pass_zero=False, device=None):
    """scipy.signal.iircomb: (b, a) of a notching or peaking comb whose
    teeth sit at multiples of w0 (fs / w0 must be a whole number)."""
    import numpy
    w0, Q = float(w0), float(Q)
    fs = _fs(fs)
    ftype = ftype.lower()
    if not 0 < w0 < fs / 2:
        raise ValueError(f"w0 must be between 0 and {fs / 2} (Nyquist), "
                         f"but given {w0}.")
    if ftype not in ("notch", "peak"):
        raise ValueError("ftype must be either notch or peak.")
    N = round(fs / w0)
    if abs(w0 - fs / N) / fs > 1e-14:
        raise ValueError("fs must be divisible by w0.")
    w0 = (2 * math.pi * w0) / fs
    w_delta = w0 / Q
    G0, G = (1, 0) if ftype == "notch" else (0, 1)
    beta = math.tan(N * w_delta / 4)
    ax = (1 - beta) / (1 + beta)
    bx = (G0 + G * beta) / (1 + beta)
    cx = (G0 - G * beta) / (1 + beta)
    sgn = -1.0 if (ftype == "peak" and pass_zero) or \
        (ftype == "notch" and not pass_zero) else 1.0
    b = numpy.zeros(N + 1)
    a = numpy.zeros(N + 1)
    b[0], b[-1] = bx, sgn * cx
    a[0], a[-1] = 1.0, sgn * ax
    return _out(b, device), _out(a, device)


# ---- Bessel -----------------------------------------------------------------

def _falling_factorial(x, n):
    v = 1
    for k in range(x - n + 1, x + 1):
        v *= k
    return v


def _campos_zeros(n):
    """Campos and Calderon's asymptotic estimates of the Bessel
    polynomial's zeros, Aberth's starting points."""
    import numpy
    if n == 1:
        return numpy.asarray([-1 + 0j])
    pv = numpy.polynomial.polynomial.polyval
    s = pv(n, [0, 0, 2, 0, -3, 1])
    b3 = pv(n, [16, -8]) / s
    b2 = pv(n, [-24, -12, 12]) / s
    b1 = pv(n, [8, 24, -12, -2]) / s
    b0 = pv(n, [0, -6, 0, 5, -1]) / s
    r = pv(n, [0, 0, 2, 1])
    a1 = pv(n, [-6, -6]) / r
    a2 = 6 / r
    k = numpy.arange(1, n + 1)
    return pv(k, [0, a1, a2]) + 1j * pv(k, [b0, b1, b2, b3])


def _ratio_wide(N, x0, steps=1):
    """y_N / y_N' at x0 by the recurrence in 60-digit decimal arithmetic,
    after steps - 1 Newton steps from x0 (the last step's ratio is
    returned, so x0 - ratio is the polished zero). Near a zero the
    recurrence's terms cancel to a few digits in double, so the last
    digits of a zero of order 20 and up need the wider sum (SciPy's
    modified Bessel function keeps them by its own expansions)."""
    from decimal import Decimal, localcontext
    with localcontext() as ctx:
        ctx.prec = 60

        def mul(a, b):
            return (a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0])

        def add(a, b):
            return (a[0] + b[0], a[1] + b[1])
        x = (Decimal(x0.real), Decimal(x0.imag))
        one, zero = (Decimal(1), Decimal(0)), (Decimal(0), Decimal(0))
        for _ in range(steps):
            y0, y1, d0, d1 = one, add(one, x), zero, one
            for n in range(2, N + 1):
                c = Decimal(2 * n - 1)
                xy = mul(x, y1)
                nd = add(y1, mul(x, d1))
                y0, y1, d0, d1 = y1, (c * xy[0] + y0[0], c * xy[1] + y0[1]), \
                    d1, (c * nd[0] + d0[0], c * nd[1] + d0[1])
            den = d1[0] * d1[0] + d1[1] * d1[1]
            q = mul(y1, (d1[0], -d1[1]))
            x = (x[0] - q[0] / den, x[1] - q[1] / den)
        return complex(float(x0.real) - float(x[0]),
                       float(x0.imag) - float(x[1]))


def _bessel_zeros(N):
    """The zeros of the Bessel polynomial y_N(x) = sum_k (N+k)! /
    ((N-k)! k! 2^k) x^k: Aberth's iteration on its three-term
    recurrence, Newton steps in wider arithmetic (_polish), then
    symmetrised so that they pair as exact conjugates."""
    import numpy

    def step(x):
        # y_n = (2n - 1) x y_(n-1) + y_(n-2), K_(n+1/2)'s forward
        # recurrence: stable where Horner on the huge coefficients is not;
        # in long double, as the sum still cancels near a zero (SciPy's
        # kve is exact there)
        if N > 24:  # long double no longer keeps the iteration going
            return numpy.array([_ratio_wide(N, v) for v in x])
        x = x.astype(numpy.clongdouble)
        y0, y1 = numpy.ones_like(x), 1 + x
        d0, d1 = numpy.zeros_like(x), numpy.ones_like(x)
        for n in range(2, N + 1):
            y0, y1, d0, d1 = y1, (2 * n - 1) * x * y1 + y0, d1, \
                (2 * n - 1) * (y1 + x * d1) + d0
        return (y1 / d1).astype(complex)
    x = numpy.array(_campos_zeros(N), complex)
    for _ in range(100):
        alpha = -step(x)
        diff = x[:, None] - x[None, :]
        numpy.fill_diagonal(diff, numpy.inf)
        beta = numpy.sum(1 / diff, axis=1)
        x = x + alpha / (1 + alpha * beta)
        if not numpy.all(numpy.isfinite(x)):
            raise RuntimeError("Root-finding calculation failed")
        if numpy.all(numpy.abs(alpha) <= 1e-13 * numpy.abs(x)):
            break
    x = numpy.array([v - _ratio_wide(N, v, 4) for v in x])
    x = numpy.mean((x, x[::-1].conj()), 0)
    if abs(numpy.sum(x) + 1) > 1e-12:
        raise RuntimeError("Generated zeros are inaccurate")
    return x


def _norm_factor(p, k):
    """The frequency where |k / prod(jw - p)| is 1/sqrt(2), by the
    secant method from 1.5 (SciPy's newton without a derivative)."""
    import numpy

    def f(w):
        return abs(k / numpy.prod(1j * w - p)) - 1 / math.sqrt(2)
    x0, x1 = 1.5, 1.5 * (1 + 1e-4) + 1e-4
    f0, f1 = f(x0), f(x1)
    for _ in range(100):
        if f1 == f0:
            break
        x2 = x1 - f1 * (x1 - x0) / (f1 - f0)
        if abs(x2 - x1) <= 1e-15 * abs(x2):
            return x2
        x0, f0, x1, f1 = x1, f1, x2, f(x2)
    return x1


def besselap(N, norm="phase", *, device=None):
    """scipy.signal.besselap: the Bessel lowpass prototype's (z, p, k),
    normalised for phase (asymptotes of the phase response meet at 1
    rad/s), delay (1 s of group delay at DC) or mag (-3 dB at 1)."""
    import numpy
    if abs(int(N)) != N:
        raise ValueError("Filter order must be a nonnegative integer")
    N = int(N)
    if N == 0:
        p, k = numpy.zeros(0, complex), 1
    else:
        p = 1 / _bessel_zeros(N)
        a_last = _falling_factorial(2 * N, N) // 2 ** N
        if norm in ("delay", "mag"):
            k = a_last
            if norm == "mag":
                nf = _norm_factor(p, k)
                p = p / nf
                k = nf ** -N * a_last
        elif norm == "phase":
            p = p * 10 ** (-math.log10(a_last) / N)
            k = 1
        else:
            raise ValueError("normalization not understood")
    return (_out(numpy.zeros(0), device, _e.float64),
            _out(p, device, _e.complex128), float(k))


def bessel(N, Wn, btype="low", analog=False, output="ba", norm="phase",
           fs=None, *, device=None):
    """scipy.signal.bessel: iirfilter with the Bessel prototype of the
    given normalisation."""
    from ember.scipy.signal_design import iirfilter
    return iirfilter(N, Wn, btype=btype, analog=analog, output=output,
                     ftype="bessel_" + norm, fs=fs, device=device)
