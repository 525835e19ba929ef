"""ember.fft on CUDA devices: NumPy's semantics (lengths n and s, any axes,
norm, the Hermitian transforms) composed over one C call, em_fft_exec: a
cuFFT plan run over the last 1 to 3 axes of contiguous arrays
(include/ember/fft.h). The transformed axes are moved last, made
contiguous once, transformed together (a 2-D or 3-D plan, not one pass an
axis), and the result is returned as a view in the caller's axis order.
Dtypes as CuPy's and NumPy 2's: float16 and float32 give complex64,
integers and bool complex128."""
import math
import operator

import ember
from ember import _ember

C2C, R2C, C2R = 0, 1, 2
FORWARD, INVERSE = -1, 1
_NORMS = (None, "backward", "ortho", "forward")


def _check_norm(norm):
    if norm not in _NORMS:
        raise ValueError(f'Invalid norm value {norm}; should be "backward", '
                         '"ortho" or "forward".')


def _scale(r, norm, n, sign):
    """r scaled in place as norm asks for a transform of n points (in the
    result's precision; NumPy rounds a float16 input's factor to float16,
    ember does not)."""
    _check_norm(norm)
    if norm == "ortho":
        r *= 1.0 / math.sqrt(n)
    elif (norm == "forward") == (sign == FORWARD):
        r *= 1.0 / n
    return r


def _swap(norm):
    """hfft and ihfft scale as the opposite direction does."""
    _check_norm(norm)
    return {None: "forward", "backward": "forward", "ortho": "ortho",
            "forward": "backward"}[norm]


def _complex(x):
    k = x.dtype.kind
    if k == "c":
        return x
    t = ember.complex64 if x.dtype in (ember.float16, ember.float32) \
        else ember.complex128
    return x.astype(t)


def _real(x, name):
    k = x.dtype.kind
    if k == "c":
        raise TypeError(f"ember.fft.{name}: a real input is needed, not {x.dtype}")
    t = ember.float32 if x.dtype in (ember.float16, ember.float32) \
        else ember.float64
    return x.astype(t, copy=False)


def _axis(axis, ndim):
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise ember.AxisError(f"axis {axis} is out of bounds for array of "
                              f"dimension {ndim}")
    return axis % ndim


def _points(n):
    n = operator.index(n)
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    return n


def _fit(x, axis, n):
    """x cut or zero-padded to n elements along axis."""
    m = x.shape[axis]
    if n == m:
        return x
    if n < m:
        return x[(slice(None),) * axis + (slice(0, n),)]
    pad = [(0, 0)] * x.ndim
    pad[axis] = (0, n - m)
    return ember.pad(x, pad)


def _last(x, axes, kind, sign, real_n=None):
    """One plan over axes (distinct, at most 3), moved last; the result in
    x's axis order."""
    axes = list(axes)
    perm = [d for d in range(x.ndim) if d not in axes] + axes
    y = x.transpose(perm)
    # C2R overwrites its input: never the caller's memory
    y = y.copy() if kind == C2R else ember.ascontiguousarray(y)
    if kind == C2C:
        shape, t = y.shape, y.dtype
    elif kind == R2C:
        shape = y.shape[:-1] + (y.shape[-1] // 2 + 1,)
        t = ember.complex64 if y.dtype == ember.float32 else ember.complex128
    else:
        shape = y.shape[:-1] + (real_n,)
        t = ember.float32 if y.dtype == ember.complex64 else ember.float64
    out = ember.empty(shape, dtype=t, device=x.device)
    _ember._fft_exec(y, out, len(axes), kind, sign)
    back = [0] * x.ndim
    for i, d in enumerate(perm):
        back[d] = i
    return out.transpose(back)


def _c2c(x, axes, sign):
    """The complex transform over axes, last first as NumPy applies them,
    up to three distinct axes a plan."""
    chunk = []
    for ax in reversed(axes):
        if ax in chunk or len(chunk) == 3:
            x = _last(x, chunk, C2C, sign)
            chunk = []
        chunk.insert(0, ax)
    return _last(x, chunk, C2C, sign) if chunk else x


def _cook(x, s, axes, invreal=False):
    """NumPy's (s, axes) of an n-dimensional transform, axes normalised."""
    shapeless = s is None
    if axes is not None:
        axes = [_axis(a, x.ndim) for a in axes]
    if shapeless:
        s = list(x.shape) if axes is None else [x.shape[a] for a in axes]
    s = [_points(n) if n is not None else None for n in s]
    if axes is None:
        axes = list(range(x.ndim - len(s), x.ndim))
        if len(s) > x.ndim:
            raise ValueError("Shape and axes have different lengths.")
    if len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    if invreal and shapeless:
        s[-1] = (x.shape[axes[-1]] - 1) * 2
    s = [x.shape[a] if n is None else n for a, n in zip(axes, s)]
    return [_points(n) for n in s], axes


def _one(x, n, axis):
    axis = _axis(axis, x.ndim)
    return _points(x.shape[axis] if n is None else n), axis


def fft(x, n=None, axis=-1, norm=None, sign=FORWARD):
    x = _complex(x)
    n, axis = _one(x, n, axis)
    r = _last(_fit(x, axis, n), (axis,), C2C, sign)
    return _scale(r, norm, n, sign)


def ifft(x, n=None, axis=-1, norm=None):
    return fft(x, n, axis, norm, INVERSE)


def rfft(x, n=None, axis=-1, norm=None):
    x = _real(x, "rfft")
    n, axis = _one(x, n, axis)
    r = _last(_fit(x, axis, n), (axis,), R2C, FORWARD)
    return _scale(r, norm, n, FORWARD)


def _half_back(r, x):
    """NumPy's inverse real transforms of float16 input over one axis give
    float16 (over more, after a complex pass, float32)."""
    return r.astype(ember.float16) if x.dtype == ember.float16 else r


def irfft(x, n=None, axis=-1, norm=None):
    x0, x = x, _complex(x)
    axis = _axis(axis, x.ndim)
    n = _points(2 * (x.shape[axis] - 1) if n is None else n)
    r = _last(_fit(x, axis, n // 2 + 1), (axis,), C2R, INVERSE, real_n=n)
    return _half_back(_scale(r, norm, n, INVERSE), x0)


def hfft(x, n=None, axis=-1, norm=None):
    r = irfft(ember.conj(_complex(x)), n, axis, _swap(norm))
    return _half_back(r, x)


def ihfft(x, n=None, axis=-1, norm=None):
    return ember.conj(rfft(x, n, axis, _swap(norm)))


def _distinct(axes):
    """Distinct axes go in one plan (or one per three); a repeated one is
    transformed again, so NumPy's per-axis order, each axis cut or padded
    just before its pass, is followed instead."""
    return len(set(axes)) == len(axes)


def fftn(x, s=None, axes=None, norm=None, sign=FORWARD):
    x = _complex(x)
    s, axes = _cook(x, s, axes)
    if _distinct(axes):
        for a, n in zip(axes, s):
            x = _fit(x, a, n)
        r = _c2c(x, axes, sign)
    else:
        r = x
        for a, n in reversed(list(zip(axes, s))):
            r = _last(_fit(r, a, n), (a,), C2C, sign)
    return _scale(r, norm, math.prod(s), sign)


def ifftn(x, s=None, axes=None, norm=None):
    return fftn(x, s, axes, norm, INVERSE)


def rfftn(x, s=None, axes=None, norm=None):
    x = _real(x, "rfftn")
    s, axes = _cook(x, s, axes)
    if _distinct(axes) and len(axes) <= 3:
        for a, n in zip(axes, s):
            x = _fit(x, a, n)
        r = _last(x, axes, R2C, FORWARD)
    else:
        r = _last(_fit(x, axes[-1], s[-1]), axes[-1:], R2C, FORWARD)
        for a, n in reversed(list(zip(axes[:-1], s[:-1]))):
            r = _last(_fit(r, a, n), (a,), C2C, FORWARD)
    return _scale(r, norm, math.prod(s), FORWARD)


def irfftn(x, s=None, axes=None, norm=None):
    x0, x = x, _complex(x)
    s, axes = _cook(x, s, axes, invreal=True)
    if _distinct(axes) and len(axes) <= 3:
        for a, n in zip(axes[:-1], s[:-1]):
            x = _fit(x, a, n)
        x = _fit(x, axes[-1], s[-1] // 2 + 1)
        r = _last(x, axes, C2R, INVERSE, real_n=s[-1])
    else:
        for a, n in zip(axes[:-1], s[:-1]):
            x = _last(_fit(x, a, n), (a,), C2C, INVERSE)
        r = _last(_fit(x, axes[-1], s[-1] // 2 + 1), axes[-1:], C2R, INVERSE,
                  real_n=s[-1])
    r = _scale(r, norm, math.prod(s), INVERSE)
    return _half_back(r, x0) if len(axes) == 1 else r


def fft2(x, s=None, axes=(-2, -1), norm=None):
    return fftn(x, s, axes, norm)


def ifft2(x, s=None, axes=(-2, -1), norm=None):
    return ifftn(x, s, axes, norm)


def rfft2(x, s=None, axes=(-2, -1), norm=None):
    return rfftn(x, s, axes, norm)


def irfft2(x, s=None, axes=(-2, -1), norm=None):
    return irfftn(x, s, axes, norm)
