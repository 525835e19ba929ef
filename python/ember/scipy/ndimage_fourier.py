"""ember.scipy.ndimage's Fourier-domain filters (re-exported by
ember.scipy.ndimage): fourier_gaussian, fourier_uniform,
fourier_ellipsoid and fourier_shift multiply an array that is already a
Fourier transform by the filter's transfer function. Each axis's factor
is a short table over its frequency indices (0, 1, ..., -2, -1 as
fftfreq orders them, or 0, 1, ... along the axis of a real transform
when n > 0), built as SciPy's ni_fourier.c builds it; the tables are
broadcast together and applied in one product on the input's device."""
import math

import ember as _e
from ember._api._util import as_array as _arr
from ember._api._util import normalize_axis

__all__ = ["fourier_gaussian", "fourier_uniform", "fourier_ellipsoid",
           "fourier_shift"]


def _params(x, v, who):
    v = list(v) if isinstance(v, (list, tuple)) else \
        ([float(v)] * x.ndim if _e.ndim(v) == 0 else
         [float(t) for t in _e.asnumpy(v)])
    if len(v) != x.ndim:
        raise RuntimeError("sequence argument must have length equal to "
                           "input rank")
    return [float(t) for t in v]


def _k(x, d, n, axis):
    """Frequency indices along axis d, float64 on x's device."""
    dim = x.shape[d]
    k = _e.arange(dim, dtype=_e.float64, device=x.device)
    if d == axis and n >= 0:
        return k, n
    return _e.where(k < (dim + 1) // 2, k, k - dim), dim


def _axis_n(x, n, axis):
    if x.ndim == 0:
        return n, 0
    return n, normalize_axis(axis, x.ndim)


def _shaped(t, d, ndim):
    return t.reshape((1,) * d + (-1,) + (1,) * (ndim - d - 1))


def _apply(x, factor, output, complex_out):
    if complex_out:
        dt = x.dtype if x.dtype in (_e.complex64, _e.complex128) \
            else _e.complex128
    else:
        dt = x.dtype if x.dtype in (_e.complex64, _e.complex128,
                                    _e.float32) else _e.float64
    if isinstance(output, _e.ndarray):
        if tuple(output.shape) != tuple(x.shape):
            raise ValueError("output shape not correct")
        output[...] = x * factor
        return output
    if output is not None:
        dt = _e.dtype(output)
        if not complex_out and dt.kind not in "fc" or \
                complex_out and dt.kind != "c":
            raise RuntimeError("output type not supported")
    return (x * factor).astype(dt)


def _separable(x, tables, output):
    f = _e.ones((1,) * x.ndim, dtype=_e.float64, device=x.device)
    for d, t in enumerate(tables):
        if t is not None:
            f = f * _shaped(t, d, x.ndim)
    return _apply(x, f, output, False)


def _per_axis(input, param, n, axis, output, name, table):
    """A separable filter: along each axis longer than 1, the factor
    table(k, N, that axis' parameter) of its frequencies k."""
    x = _arr(input)
    n, axis = _axis_n(x, n, axis)
    ps = _params(x, param, name)
    tables = []
    for d in range(x.ndim):
        if x.shape[d] <= 1:
            tables.append(None)
            continue
        k, shape = _k(x, d, n, axis)
        tables.append(table(k, shape, ps[d]))
    return _separable(x, tables, output)


def fourier_gaussian(input, sigma, n=-1, axis=-1, output=None):
    """scipy.ndimage.fourier_gaussian: times exp(-2 (pi sigma k / N)^2)
    along each axis (0 where the exponent passes 50, as SciPy's)."""
    def table(k, shape, s):
        p = s * math.pi / shape
        t = -2.0 * p * p * k * k
        return _e.where(_e.abs(t) > 50.0, 0.0, _e.exp(t))
    return _per_axis(input, sigma, n, axis, output, "fourier_gaussian", table)


def fourier_uniform(input, size, n=-1, axis=-1, output=None):
    """scipy.ndimage.fourier_uniform: times sin(a k) / (a k), a = pi size
    / N, along each axis."""
    def table(k, shape, sz):
        a = math.pi * sz / shape
        ak = a * k
        return _e.where(k == 0, 1.0, (_e.sin(ak) / _e.where(k == 0, 1.0, ak))
                        if a > 0 else 0.0)
    return _per_axis(input, size, n, axis, output, "fourier_uniform", table)


def fourier_ellipsoid(input, size, n=-1, axis=-1, output=None):
    """scipy.ndimage.fourier_ellipsoid (1 to 3 dimensions): the transform
    of an ellipsoid of the given axes' sizes, sin(r) / r, 2 J1(r) / r or
    3 (sin r - r cos r) / r^3 of r the scaled frequency radius."""
    x = _arr(input)
    if not 1 <= x.ndim <= 3:
        raise NotImplementedError("Only 1d, 2d and 3d inputs are supported")
    n, axis = _axis_n(x, n, axis)
    sz = _params(x, size, "fourier_ellipsoid")
    r2 = _e.zeros((1,) * x.ndim, dtype=_e.float64, device=x.device)
    for d in range(x.ndim):
        k, shape = _k(x, d, n, axis)
        t = k * (math.pi * sz[d] / shape)
        r2 = r2 + _shaped(t * t if x.ndim > 1 else t, d, x.ndim)
    if x.ndim == 1:
        r = r2
        safe = _e.where(r != 0, r, 1.0)
        f = _e.where(r != 0, _e.sin(safe) / safe, 1.0)
    else:
        r = _e.sqrt(r2)
        safe = _e.where(r > 0, r, 1.0)
        if x.ndim == 2:
            from ember.scipy.special import j1
            f = _e.where(r > 0, 2.0 * j1(safe) / safe, 1.0)
        else:
            f = _e.where(r > 0, 3.0 * (_e.sin(safe) - safe * _e.cos(safe))
                         / (safe * safe * safe), 1.0)
    return _apply(x, f, output, False)


def fourier_shift(input, shift, n=-1, axis=-1, output=None):
    """scipy.ndimage.fourier_shift: times exp(-2 pi i shift k / N) along
    each axis (a complex result)."""
    x = _arr(input)
    n, axis = _axis_n(x, n, axis)
    sh = _params(x, shift, "fourier_shift")
    phase = _e.zeros((1,) * x.ndim, dtype=_e.float64, device=x.device)
    for d in range(x.ndim):
        if x.shape[d] <= 1:
            continue
        k, shape = _k(x, d, n, axis)
        phase = phase + _shaped(k * (-2.0 * math.pi * sh[d] / shape), d,
                                x.ndim)
    f = _e.cos(phase) + 1j * _e.sin(phase)
    return _apply(x, f, output, True)
