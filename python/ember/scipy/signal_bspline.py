"""ember.scipy.signal's B-spline filters (re-exported by
ember.scipy.signal): cspline1d, qspline1d, cspline2d, qspline2d,
symiirorder1, cspline1d_eval, qspline1d_eval, spline_filter and
gauss_spline.

The coefficients of an interpolating cubic (quadratic) B-spline are the
samples through a symmetric first-order IIR filter pair: a causal pass
y[n] = x[n] + z y[n-1] and an anticausal one with the pole
z = -2 + sqrt(3) (-3 + 2 sqrt(2)), under mirror-symmetric boundaries
(Unser, Aldroubi and Eden, "B-spline signal processing", IEEE Trans.
Signal Processing 41, 1993). The smoothing cubic spline (lambda > 0) is a
second-order pair with the complex pole pair rho exp(+-i omega) found from
lambda, its boundary values sums of the filter's causal and symmetric
impulse responses. Each pass is ember's lfilter (one thread a line) along
the axis; each boundary value a sum of the line times a weight vector, for
all lines at once. The splines' evaluation is four (three) gathers of the
coefficients times the B-spline's weights, on the coefficients'
device."""
import math

import ember as _e
from ember._api._util import as_array as _arr
from ember.scipy.signal_iir import lfilter as _lfilter

__all__ = ["cspline1d", "qspline1d", "cspline2d", "qspline2d",
           "cspline1d_eval", "qspline1d_eval", "symiirorder1",
           "spline_filter", "gauss_spline"]

_CUBIC_POLE = -2 + math.sqrt(3)
_QUAD_POLE = -3 + 2 * math.sqrt(2)


def _floating(x):
    x = _arr(x)
    if x.dtype.kind in "biu":
        x = x.astype(_e.float64)
    return x


def _by_parts(x, f):
    """f (a real linear filter) of x, of its real and imaginary parts for
    complex x; computed in float64, returned in x's dtype."""
    if x.dtype.kind == "c":
        out = f(x.real.astype(_e.float64)) + \
            1j * f(x.imag.astype(_e.float64))
    else:
        out = f(x.astype(_e.float64))
    return out.astype(x.dtype)


def _wide(x, f):
    """_by_parts in float64 or complex128 (the 1-D splines' dtypes, as
    SciPy's, whose float64 filter coefficients promote)."""
    return _by_parts(x.astype(_e.complex128 if x.dtype.kind == "c"
                              else _e.float64), f)


def _default_precision(x, precision):
    if precision < 0.0 or precision >= 1.0:
        return 1e-3 if x.dtype in (_e.float32, _e.complex64) else 1e-6
    return precision


def _terms(z1, precision, n):
    """The number of terms of the mirror-symmetric starting sum: up to the
    first power of z1 at or under precision (SciPy's rule), which must
    come before the line ends."""
    a = abs(z1)
    t = 1
    p = a
    while p > precision:
        t += 1
        p *= a
        if t >= n:
            break
    if t >= n:
        raise ValueError("Sum to find symmetric boundary conditions did "
                         "not converge.")
    return t


def _iir1_lines(x, c0, z1, nterms):
    """The symmetric first-order pair along x's last axis (float64 lines):
    y0 = x[0] + sum_{k < nterms} z1^(k+1) x[k]; y[n] = x[n] + z1 y[n-1];
    out[N-1] = -c0 / (z1 - 1) y[N-1]; out[n] = c0 y[n] + z1 out[n+1]."""
    dev = x.device
    n = x.shape[-1]
    w = _e.full(nterms, z1, dtype=_e.float64, device=dev) ** \
        _e.arange(1, nterms + 1, dtype=_e.float64, device=dev)
    y0 = x[..., 0] + _e.sum(x[..., :nterms] * w, axis=-1)
    if n == 1:
        return (-c0 / (z1 - 1.0) * y0)[..., None]
    y1 = _lfilter([1.0], [1.0, -z1], x[..., 1:], axis=-1,
                  zi=(y0 * z1)[..., None])[0]
    y = _e.concatenate([y0[..., None], y1], axis=-1)
    last = -c0 / (z1 - 1.0) * y[..., -1]
    out = _lfilter([c0], [1.0, -z1], _e.flip(y[..., :-1], axis=-1),
                   axis=-1, zi=(last * z1)[..., None])[0]
    return _e.concatenate([_e.flip(out, axis=-1), last[..., None]], axis=-1)


def _along(x, axis, f):
    x = _e.moveaxis(x, axis, -1)
    return _e.moveaxis(f(x), -1, axis)


def symiirorder1(signal, c0, z1, precision=-1.0):
    """scipy.signal.symiirorder1: the mirror-symmetric first-order pair
    c0 / ((1 - z1 z^-1)(1 - z1 z)) along the last axis of a 1-D or 2-D
    signal (real c0 and z1; complex ones raise NotImplementedError)."""
    x = _floating(signal)
    if isinstance(z1, complex) or isinstance(c0, complex):
        if complex(z1).imag or complex(c0).imag:
            raise NotImplementedError("symiirorder1: complex c0 or z1 are "
                                      "not there yet")
        z1, c0 = complex(z1).real, complex(c0).real
    z1, c0 = float(z1), float(c0)
    if abs(z1) >= 1:
        raise ValueError("|z1| must be less than 1.0")
    if x.ndim > 2:
        raise ValueError("Input must be 1D or 2D")
    if x.ndim == 0:
        raise ValueError("Input must be 1D or 2D")
    if precision < 0.0:   # SciPy's C defaults, finer than cspline2d's
        precision = 1e-6 if x.dtype in (_e.float32, _e.complex64) \
            else 1e-11
    nterms = _terms(z1, precision, x.shape[-1])
    return _by_parts(x, lambda v: _iir1_lines(v, c0, z1, nterms))


def _coeff1d(signal, pole, gain):
    x = _floating(signal)
    if x.ndim != 1:
        raise ValueError("signal must be 1-D")
    n = x.shape[0]
    # one sample: SciPy returns the pair's value without the gain
    c0 = -pole if n == 1 else -gain * pole
    return _wide(x, lambda v: _iir1_lines(v, c0, pole, n))


def _smooth_poles(lamb):
    """rho and omega of the smoothing cubic spline's pole pair."""
    xi = 1 - 96 * lamb + 24 * lamb * math.sqrt(3 + 144 * lamb)
    omega = math.atan2(math.sqrt(144 * lamb - 1), math.sqrt(xi))
    rho = (24 * lamb - 1 - math.sqrt(xi)) / (24 * lamb)
    rho *= math.sqrt((48 * lamb + 24 * lamb * math.sqrt(3 + 144 * lamb)) /
                     xi)
    return rho, omega


def _smooth_lines(x, lamb):
    """The smoothing cubic spline's coefficients along the last axis
    (float64 lines at least 3 long): the causal pass started from sums of
    the causal impulse response hc, the anticausal one from sums of the
    symmetric response hs, over the whole line."""
    rho, om = _smooth_poles(lamb)
    dev = x.device
    n = x.shape[-1]
    cs = 1 - 2 * rho * math.cos(om) + rho * rho
    a = [1.0, -2 * rho * math.cos(om), rho * rho]
    c0 = cs * cs * (1 + rho * rho) / (1 - rho * rho) / \
        (1 - 2 * rho * rho * math.cos(2 * om) + rho ** 4)
    gamma = (1 - rho * rho) / (1 + rho * rho) / math.tan(om)
    k = _e.arange(n, dtype=_e.float64, device=dev)

    def hc(j):
        return _e.where(j >= 0, cs / math.sin(om) * rho ** j *
                        _e.sin(om * (j + 1)), 0.0)

    def hs(j):
        j = _e.abs(j)
        return c0 * rho ** j * (_e.cos(om * j) + gamma * _e.sin(om * j))

    def state(y1, y2):   # lfilter's state from the two previous outputs
        return _e.stack([-a[1] * y1 - a[2] * y2, -a[2] * y1], axis=-1)

    hc0, hc1 = cs / math.sin(om) * math.sin(om), \
        cs / math.sin(om) * rho * math.sin(2 * om)
    p0 = hc0 * x[..., 0] + _e.sum(hc(k + 1) * x, axis=-1)
    p1 = hc0 * x[..., 0] + hc1 * x[..., 1] + _e.sum(hc(k + 2) * x, axis=-1)
    yp = _lfilter([cs], a, x[..., 2:], axis=-1, zi=state(p1, p0))[0]
    yp = _e.concatenate([p0[..., None], p1[..., None], yp], axis=-1)
    xr = _e.flip(x, axis=-1)
    q0 = _e.sum((hs(k) + hs(k + 1)) * xr, axis=-1)
    q1 = _e.sum((hs(k - 1) + hs(k + 2)) * xr, axis=-1)
    y = _lfilter([cs], a, _e.flip(yp[..., :-2], axis=-1), axis=-1,
                 zi=state(q1, q0))[0]
    return _e.concatenate([_e.flip(y, axis=-1), q1[..., None],
                           q0[..., None]], axis=-1)


def cspline1d(signal, lamb=0.0):
    """scipy.signal.cspline1d: cubic spline coefficients of a 1-D signal
    (mirror-symmetric boundaries); lamb > 0 smooths."""
    if lamb != 0.0:
        x = _floating(signal)
        if x.ndim != 1:
            raise ValueError("signal must be 1-D")
        if x.shape[0] < 3:   # SciPy's fails there too
            raise ValueError("cspline1d: smoothing needs at least 3 "
                             "samples")
        return _wide(x, lambda v: _smooth_lines(v, lamb))
    return _coeff1d(signal, _CUBIC_POLE, 6.0)


def qspline1d(signal, lamb=0.0):
    """scipy.signal.qspline1d: quadratic spline coefficients of a 1-D
    signal (mirror-symmetric boundaries; no smoothing, as SciPy)."""
    if lamb != 0.0:
        raise ValueError("Smoothing quadratic splines not supported yet.")
    return _coeff1d(signal, _QUAD_POLE, 8.0)


def cspline2d(signal, lamb=0.0, precision=-1.0):
    """scipy.signal.cspline2d: cubic spline coefficients along the last
    axis, then along the first; lamb > 1/144 the smoothing spline."""
    x = _floating(signal)
    if x.ndim == 0:
        raise ValueError("signal must have at least one dimension")
    precision = _default_precision(x, precision)
    if lamb <= 1 / 144.0:
        r = _CUBIC_POLE

        def one(v):
            return _iir1_lines(v, -6.0 * r, r,
                               _terms(r, precision, v.shape[-1]))
    else:
        def one(v):
            if v.shape[-1] < 3:
                raise ValueError("cspline2d: smoothing needs at least 3 "
                                 "samples along each axis")
            return _smooth_lines(v, lamb)
    return _by_parts(x, lambda v: _along(_along(v, -1, one), 0, one))


def qspline2d(signal, lamb=0.0, precision=-1.0):
    """scipy.signal.qspline2d: quadratic spline coefficients along the
    last axis, then along the first."""
    x = _floating(signal)
    if x.ndim == 0:
        raise ValueError("signal must have at least one dimension")
    precision = _default_precision(x, precision)
    if lamb > 0:
        raise ValueError("lambda must be negative or zero")
    r = _QUAD_POLE

    def one(v):
        return _iir1_lines(v, -8.0 * r, r, _terms(r, precision,
                                                  v.shape[-1]))
    return _by_parts(x, lambda v: _along(_along(v, -1, one), 0, one))


def _fold(t, n):
    """t mirrored into [0, n - 1] (the spline's mirror-symmetric
    extension, period 2 (n - 1))."""
    if n == 1:
        return _e.zeros_like(t)
    p = 2.0 * (n - 1)
    t = _e.abs(t) % p
    return _e.where(t > n - 1, p - t, t)


def _eval(cj, newx, dx, x0, taps, half, basis, what):
    newx = _arr(newx) if not isinstance(cj, _e.ndarray) else \
        _arr(newx, cj.device)
    cj = _arr(cj, newx.device)
    t = (newx - x0) / float(dx)
    if t.dtype.kind != "f":
        t = t.astype(_e.float64)
    if cj.size == 0:
        raise ValueError("Spline coefficients 'cj' must not be empty.")
    out_t = cj.dtype if what == "c" else t.dtype
    if t.size == 0:
        return _e.zeros(t.shape, dtype=out_t, device=t.device)
    n = cj.shape[0]
    t = _fold(t, n)
    j0 = _e.floor(t - half).astype(_e.int64) + 1
    res = None
    for i in range(taps):
        j = j0 + i
        term = cj[_e.clip(j, 0, n - 1)] * basis(t - j.astype(t.dtype))
        res = term if res is None else res + term
    return res.astype(out_t)


def _cubic(t):
    a = _e.abs(t)
    return _e.where(a < 1, 2.0 / 3 - a * a + a * a * a / 2,
                    _e.where(a < 2, (2 - a) ** 3 / 6, 0.0))


def _quadratic(t):
    a = _e.abs(t)
    return _e.where(a < 0.5, 0.75 - a * a,
                    _e.where(a < 1.5, (a - 1.5) ** 2 / 2, 0.0))


def cspline1d_eval(cj, newx, dx=1.0, x0=0):
    """scipy.signal.cspline1d_eval: the cubic spline with coefficients cj
    (samples dx apart from x0) at newx, mirror-symmetric outside; cj's
    dtype."""
    return _eval(cj, newx, dx, x0, 4, 2.0, _cubic, "c")


def qspline1d_eval(cj, newx, dx=1.0, x0=0):
    """scipy.signal.qspline1d_eval: the quadratic spline at newx (newx's
    floating dtype, as SciPy's)."""
    return _eval(cj, newx, dx, x0, 3, 1.5, _quadratic, "q")


def spline_filter(Iin, lmbda=5.0):
    """scipy.signal.spline_filter: the smoothing spline's coefficients
    (cspline2d with lmbda) sampled back by the cubic B-spline's [1, 4, 1]
    / 6 along both axes (sepfir2d)."""
    from ember.scipy.signal import sepfir2d
    x = _arr(Iin)
    if x.dtype not in (_e.float32, _e.float64, _e.complex64,
                       _e.complex128):
        raise TypeError(f"Invalid data type for Iin: Iin.dtype = "
                        f"{x.dtype!r}")
    h = _e.asarray([1.0, 4.0, 1.0], dtype=_e.float32,
                   device=x.device) / 6.0
    work = x.astype(_e.complex64) if x.dtype == _e.complex128 else x
    ck = cspline2d(work, lmbda)
    if ck.dtype.kind == "c":
        out = sepfir2d(ck.real, h, h) + 1j * sepfir2d(ck.imag, h, h)
    else:
        out = sepfir2d(ck, h, h)
    return out.astype(x.dtype)


def gauss_spline(x, n):
    """scipy.signal.gauss_spline: the Gaussian approximation of the
    order-n B-spline basis function at x."""
    x = _arr(x)
    s2 = (n + 1) / 12.0
    return 1 / math.sqrt(2 * math.pi * s2) * _e.exp(-x * x / 2 / s2)
