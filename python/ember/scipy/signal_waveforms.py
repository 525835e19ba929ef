"""ember.scipy.signal's waveforms (re-exported by ember.scipy.signal):
chirp, sawtooth, square and unit_impulse, elementwise compositions on the
time array's device (unit_impulse on `device`)."""
import math

import ember as _e
from ember._api._util import as_array as _arr

__all__ = ["chirp", "sawtooth", "square", "unit_impulse"]


def _chirp_phase(t, f0, t1, f1, method, vertex_zero):
    f0, t1, f1 = float(f0), float(t1), float(f1)
    pi = math.pi
    if method in ("linear", "lin", "li"):
        beta = (f1 - f0) / t1
        return 2 * pi * (f0 * t + 0.5 * beta * t * t)
    if method in ("quadratic", "quad", "q"):
        beta = (f1 - f0) / (t1 ** 2)
        if vertex_zero:
            return 2 * pi * (f0 * t + beta * t ** 3 / 3)
        return 2 * pi * (f1 * t + beta * ((t1 - t) ** 3 - t1 ** 3) / 3)
    if method in ("logarithmic", "log", "lo"):
        if f0 * f1 <= 0.0:
            raise ValueError("For a logarithmic chirp, f0 and f1 must be "
                             "nonzero and have the same sign.")
        if f0 == f1:
            return 2 * pi * f0 * t
        beta = t1 / math.log(f1 / f0)
        return 2 * pi * beta * f0 * (_e.power(f1 / f0, t / t1) - 1.0)
    if method in ("hyperbolic", "hyp"):
        if f0 == 0 or f1 == 0:
            raise ValueError("For a hyperbolic chirp, f0 and f1 must be "
                             "nonzero.")
        if f0 == f1:
            return 2 * pi * f0 * t
        sing = -f1 * t1 / (f0 - f1)
        return 2 * pi * (-sing * f0) * _e.log(_e.abs(1 - t / sing))
    raise ValueError("method must be 'linear', 'quadratic', 'logarithmic', "
                     f"or 'hyperbolic', but a value of {method!r} was given.")


def chirp(t, f0, t1, f1, method="linear", phi=0, vertex_zero=True, *,
          complex=False):
    """scipy.signal.chirp: cos (or exp(i ...), complex=True) of the
    frequency-swept phase at times t."""
    t = _arr(t)
    if t.dtype.kind in "biu":
        t = t.astype(_e.float64)
    phase = _chirp_phase(t, f0, t1, f1, method, vertex_zero) + \
        math.radians(phi)
    return _e.exp(1j * phase) if complex else _e.cos(phase)


def _broadcast(t, w):
    t = _arr(t)
    w = w if isinstance(w, _e.ndarray) else _e.asarray(w, device=t.device)
    t, w = _e.broadcast_arrays(t, w)
    return t.astype(_e.float64), w.astype(_e.float64)


def sawtooth(t, width=1):
    """scipy.signal.sawtooth: period 2 pi, rising from -1 to 1 over width
    of it, falling back over the rest; NaN where width is outside [0,
    1]."""
    t, w = _broadcast(t, width)
    bad = (w > 1) | (w < 0)
    tmod = _e.mod(t, 2 * math.pi)
    rise = ~bad & (tmod < w * 2 * math.pi)
    up = tmod / (math.pi * _e.where(rise, w, 1.0)) - 1
    down = (math.pi * (w + 1) - tmod) / (math.pi * _e.where(rise | bad, 0.5,
                                                           1 - w))
    return _e.where(bad, math.nan, _e.where(rise, up, down))


def square(t, duty=0.5):
    """scipy.signal.square: period 2 pi, 1 for duty of it and -1 after;
    NaN where duty is outside [0, 1]."""
    t, w = _broadcast(t, duty)
    bad = (w > 1) | (w < 0)
    tmod = _e.mod(t, 2 * math.pi)
    high = ~bad & (tmod < w * 2 * math.pi)
    return _e.where(bad, math.nan, _e.where(high, 1.0, -1.0))


def unit_impulse(shape, idx=None, dtype=float, *, device=None):
    """scipy.signal.unit_impulse: zeros with a 1 at idx (the origin by
    default, 'mid' for the centre)."""
    out = _e.zeros(shape, dtype=dtype, device=device)
    dims = (shape,) if isinstance(shape, int) else tuple(shape)
    if idx is None:
        idx = (0,) * len(dims)
    elif isinstance(idx, str) and idx == "mid":
        idx = tuple(d // 2 for d in dims)
    elif not hasattr(idx, "__iter__"):
        idx = (idx,) * len(dims)
    out[tuple(idx)] = 1
    return out
