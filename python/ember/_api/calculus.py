"""Differences, integrals and interpolation on samples: gradient,
trapezoid, ediff1d, unwrap, interp, convolve, correlate, vander. Composed
from ember's ufuncs and slicing; convolution, interp and unwrap's
correction are one fused kernel each (kernels/convolve.c, interp.c,
unwrap.c)."""
import operator

from ember import _ember as _e
from ember._api.cumulative import cumprod, cumsum
from ember._api.selection import where
from ember._api._util import as_array, device_of, kernel, normalize_axis
from ember._api.arrayapi import diff
from ember._api.dtype_info import finfo, isdtype
from ember._api.elementwise import imag, real

_PI = 3.141592653589793


def _sl(ndim, axis, s):
    key = [slice(None)] * ndim
    key[axis] = s
    return tuple(key)


# ---- convolve, correlate ------------------------------------------------------

def _conv_real(a, v, mode_off, length):
    """Full-convolution outputs mode_off .. mode_off + length - 1 of real
    1-d a and v of one dtype."""
    out = _e.empty((length,), dtype=a.dtype, device=a.device)
    if length:
        kernel("convolve", "raw T a, raw T v, int64 n, int64 m, int64 off", "T out")(
            _e.ascontiguousarray(a), _e.ascontiguousarray(v), a.size, v.size,
            mode_off, out)
    return out


def _conv(a, v, mode, what, same_up=False):
    dev = device_of(a, v)
    a, v = as_array(a, dev), as_array(v, dev)
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError(f"{what}: object too deep for desired array (shapes "
                         f"{a.shape} and {v.shape}; both must be 1-d)")
    if a.size == 0:
        raise ValueError("a cannot be empty")
    if v.size == 0:
        raise ValueError("v cannot be empty")
    n, m = a.size, v.size
    lo, hi = min(n, m), max(n, m)
    if mode == "full":
        off, length = 0, n + m - 1
    elif mode == "same":
        off, length = (lo - 1) - (lo - 1) // 2 if same_up else (lo - 1) // 2, hi
    elif mode == "valid":
        off, length = lo - 1, hi - lo + 1
    else:
        raise ValueError(f"mode must be one of 'valid', 'same', or 'full' (got {mode!r})")
    dt = _e.result_type(a, v)
    kind = dt.kind if hasattr(dt, "kind") else _e.dtype(dt).kind
    if kind == "b":
        r = _conv_real(a.astype(_e.int64), v.astype(_e.int64), off, length)
        return r != 0
    if kind == "c":
        # (ar + i ai) * (vr + i vi): four real convolutions.
        rt = _e.float64 if dt == _e.complex128 else _e.float32
        ar, ai = real(a).astype(rt), imag(a).astype(rt)
        vr, vi = real(v).astype(rt), imag(v).astype(rt)
        re = _conv_real(ar, vr, off, length) - _conv_real(ai, vi, off, length)
        im = _conv_real(ar, vi, off, length) + _conv_real(ai, vr, off, length)
        out = _e.empty((length,), dtype=dt, device=a.device)
        out.real[...] = re
        out.imag[...] = im
        return out
    if dt in (_e.float16, _e.bfloat16):
        # Raw 16-bit kernel parameters are not supported: sum in float32.
        return _conv_real(a.astype(_e.float32), v.astype(_e.float32), off,
                          length).astype(dt)
    return _conv_real(a.astype(dt, copy=False), v.astype(dt, copy=False), off, length)


def convolve(a, v, mode="full"):
    """The discrete linear convolution of two 1-d arrays (NumPy's modes)."""
    return _conv(a, v, mode, "convolve")


def correlate(a, v, mode="valid"):
    """NumPy's correlate: c[k] = sum_n a[n + k] conj(v[n]), which is the
    convolution of a with v reversed and conjugated."""
    dev = device_of(a, v)
    a, v = as_array(a, dev), as_array(v, dev)
    if v.ndim == 1 and v.size and v.dtype.kind == "c":
        v = _e.conj(v)
    if v.ndim == 1:
        v = v[::-1]
    # NumPy swaps the operands when v is the longer one and reverses the
    # result, which rounds the 'same' window's start up instead of down.
    return _conv(a, v, mode, "correlate", same_up=v.size > a.size)


# ---- differences and integrals ------------------------------------------------

def ediff1d(ary, to_end=None, to_begin=None):
    a = _e.ravel(as_array(ary, device_of(ary)))
    dt = a.dtype
    parts = []
    for name, extra in (("to_begin", to_begin), ("to_end", to_end)):
        if extra is None:
            parts.append(None)
            continue
        x = _e.ravel(as_array(extra, a.device))
        if not _e.can_cast(x.dtype, dt, "same_kind"):
            raise TypeError(f"dtype of `{name}` must be compatible with input "
                            f"`ary` under the `same_kind` rule (got {x.dtype} "
                            f"and {dt})")
        parts.append(x.astype(dt, copy=False))
    d = a[1:] - a[:-1]
    if parts[0] is None and parts[1] is None:
        return d
    seq = [p for p in (parts[0], d, parts[1]) if p is not None]
    return _e.concatenate(seq)


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """sum(d * (y[1:] + y[:-1]) / 2) along axis, d the spacing (dx, or the
    differences of x)."""
    y = as_array(y, device_of(y, x))
    nd = y.ndim
    axis = normalize_axis(axis, nd)
    if x is None:
        d = dx
    else:
        x = as_array(x, y.device)
        if x.ndim == 1:
            d = x[1:] - x[:-1]
            shape = [1] * nd
            shape[axis] = d.shape[0]
            d = d.reshape(shape)
        else:
            d = diff(x, axis=axis)
    s1, s2 = _sl(nd, axis, slice(1, None)), _sl(nd, axis, slice(None, -1))
    return _e.sum(d * (y[s1] + y[s2]) / 2.0, axis=axis)


def gradient(f, *varargs, axis=None, edge_order=1):
    """Second-order central differences inside, first- or second-order
    one-sided ones at the edges, as NumPy's gradient."""
    f = as_array(f, device_of(f))
    N = f.ndim
    if axis is None:
        axes = tuple(range(N))
    else:
        axes = axis if isinstance(axis, tuple) else (axis,)
        axes = tuple(normalize_axis(operator.index(a), N) for a in axes)
        if len(set(axes)) != len(axes):
            raise ValueError("duplicate value in 'axis'")
    n = len(varargs)
    if n == 0:
        dx = [1.0] * len(axes)
    elif n == 1 and not isinstance(varargs[0], _e.ndarray) and \
            not hasattr(varargs[0], "__len__"):
        dx = [varargs[0]] * len(axes)
    elif n == 1 and len(axes) != 1 and _e.asarray(varargs[0]).ndim == 0:
        dx = [varargs[0]] * len(axes)
    elif n == len(axes):
        dx = list(varargs)
        for i, (d, ax) in enumerate(zip(dx, axes)):
            if isinstance(d, (int, float)) or (hasattr(d, "ndim") and d.ndim == 0):
                continue
            d = as_array(d, f.device)
            if d.ndim != 1:
                raise ValueError("distances must be either scalars or 1d")
            if d.size != f.shape[ax]:
                raise ValueError("when 1d, distances must match the length of "
                                 f"the corresponding dimension ({d.size} and "
                                 f"{f.shape[ax]})")
            if d.dtype.kind in "iub":
                d = d.astype(_e.float64)
            dx[i] = d[1:] - d[:-1]
    else:
        raise TypeError("invalid number of arguments")
    if edge_order > 2 or edge_order < 1:
        raise ValueError("'edge_order' greater than 2 not supported")
    otype = f.dtype
    if otype.kind in "iub":
        if otype.kind == "b":
            raise TypeError("gradient of a boolean array: numpy boolean subtract "
                            "is not supported")
        f = f.astype(_e.float64)
        otype = _e.float64
    outs = []
    for ax, d in zip(axes, dx):
        if f.shape[ax] < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical "
                             "gradient, at least (edge_order + 1) elements are "
                             "required.")
        out = _e.empty(f.shape, dtype=otype, device=f.device)
        S = lambda s: _sl(N, ax, s)  # noqa: E731
        uniform = not isinstance(d, _e.ndarray)
        if uniform:
            out[S(slice(1, -1))] = (f[S(slice(2, None))] - f[S(slice(None, -2))]) / (2. * d)
        else:
            shape = [1] * N
            shape[ax] = -1
            dx1, dx2 = d[0:-1], d[1:]
            a = -(dx2) / (dx1 * (dx1 + dx2))
            b = (dx2 - dx1) / (dx1 * dx2)
            c = dx1 / (dx2 * (dx1 + dx2))
            a, b, c = (t.reshape(shape) for t in (a, b, c))
            out[S(slice(1, -1))] = (a * f[S(slice(None, -2))] + b * f[S(slice(1, -1))]
                                    + c * f[S(slice(2, None))])
        if edge_order == 1:
            d0 = d if uniform else d[0]
            dn = d if uniform else d[-1]
            out[S(0)] = (f[S(1)] - f[S(0)]) / d0
            out[S(-1)] = (f[S(-1)] - f[S(-2)]) / dn
        else:
            if uniform:
                a, b, c = -1.5 / d, 2. / d, -0.5 / d
            else:
                dx1, dx2 = d[0], d[1]
                a = -(2. * dx1 + dx2) / (dx1 * (dx1 + dx2))
                b = (dx1 + dx2) / (dx1 * dx2)
                c = - dx1 / (dx2 * (dx1 + dx2))
            out[S(0)] = a * f[S(0)] + b * f[S(1)] + c * f[S(2)]
            if uniform:
                a, b, c = 0.5 / d, -2. / d, 1.5 / d
            else:
                dx1, dx2 = d[-2], d[-1]
                a = (dx2) / (dx1 * (dx1 + dx2))
                b = - (dx2 + dx1) / (dx1 * dx2)
                c = (2. * dx2 + dx1) / (dx2 * (dx1 + dx2))
            out[S(-1)] = a * f[S(-3)] + b * f[S(-2)] + c * f[S(-1)]
        outs.append(out)
    return outs[0] if len(axes) == 1 else tuple(outs)


def unwrap(p, discont=None, axis=-1, *, period=2 * _PI):
    """NumPy's unwrap: jumps larger than discont are folded back by
    multiples of period; the corrections are summed along axis."""
    p = as_array(p, device_of(p))
    nd = p.ndim
    axis = normalize_axis(axis, nd)
    dd = diff(p, axis=axis)
    if discont is None:
        discont = period / 2
    dtype = _e.result_type(dd, period)
    if isdtype(dtype, "integral"):
        interval_high, rem = divmod(period, 2)
        boundary_ambiguous = rem == 0
    else:
        interval_high = period / 2
        boundary_ambiguous = True
    interval_low = -interval_high
    if dtype in (_e.float32, _e.float64) and dd.dtype == dtype:
        ph_correct = _e.empty(dd.shape, dtype=dtype, device=p.device)
        if ph_correct.size:
            kernel("unwrap", "T dd, T period, T lo, T hi, T discont, bool amb",
                   "T corr")(dd, period, interval_low, interval_high, discont,
                             boundary_ambiguous, ph_correct)
        up = _e.asarray(p, dtype=dtype, copy=True)
        s1 = _sl(nd, axis, slice(1, None))
        up[s1] = p[s1] + cumsum(ph_correct, axis=axis)
        return up
    ddmod = _e.remainder(dd - interval_low, period) + interval_low
    if boundary_ambiguous:
        ddmod = where((ddmod == interval_low) & (dd > 0),
                         _e.asarray(interval_high, dtype=ddmod.dtype, device=p.device),
                         ddmod)
    ph_correct = ddmod - dd
    ph_correct = where(_e.abs(dd) < discont,
                          _e.zeros((), dtype=ph_correct.dtype, device=p.device),
                          ph_correct)
    up = _e.asarray(p, dtype=dtype, copy=True)
    s1 = _sl(nd, axis, slice(1, None))
    up[s1] = p[s1] + cumsum(ph_correct, axis=axis)
    return up


# ---- interpolation and polynomial matrices ------------------------------------

def interp(x, xp, fp, left=None, right=None, period=None):
    dev = device_of(x, xp, fp)
    xp = as_array(xp, dev)
    fp = as_array(fp, dev)
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError(f"Data points must be 1D sequences (xp {xp.shape}, fp {fp.shape})")
    if xp.size == 0:
        raise ValueError("array of sample points is empty")
    if xp.size != fp.size:
        raise ValueError(f"fp and xp are not of the same length ({fp.size} and {xp.size})")
    x = as_array(x, dev)
    if fp.dtype.kind == "c":
        re = interp(x, xp, real(fp),
                    None if left is None else complex(left).real,
                    None if right is None else complex(right).real, period)
        im = interp(x, xp, imag(fp),
                    None if left is None else complex(left).imag,
                    None if right is None else complex(right).imag, period)
        out = _e.empty(re.shape, dtype=_e.complex128, device=re.device)
        out.real[...] = re
        out.imag[...] = im
        return out
    for name, v in (("x", x), ("xp", xp)):
        if v.dtype.kind == "c":
            # NumPy converts x and xp to float64 with the 'safe' rule.
            raise TypeError(f"Cannot cast array data from dtype('{v.dtype}') to "
                            f"dtype('float64') according to the rule 'safe' "
                            f"(interp's {name})")
    x = x.astype(_e.float64, copy=False)
    xp = xp.astype(_e.float64, copy=False)
    fp = fp.astype(_e.float64, copy=False)
    if period is not None:
        if period == 0:
            raise ValueError("period must be a non-zero value")
        period = abs(period)
        left = right = None
        x = _e.remainder(x, period)
        xp = _e.remainder(xp, period)
        order = _e.argsort(xp)
        xp, fp = xp[order], fp[order]
        xp = _e.concatenate((xp[-1:] - period, xp, xp[0:1] + period))
        fp = _e.concatenate((fp[-1:], fp, fp[0:1]))
    # The ends come from the device only when not given (a one-element copy
    # each, no host round trip): the kernel reads fp[0] and fp[n-1] itself.
    lv = fp[0] if left is None else float(left)
    rv = fp[-1] if right is None else float(right)
    y = _e.empty(x.shape, dtype=_e.float64, device=x.device)
    if y.size:
        kernel("interp", "float64 x, raw float64 xp, raw float64 fp, "
               "float64 left, float64 right, int64 n", "float64 y")(
            x, _e.ascontiguousarray(xp), _e.ascontiguousarray(fp), lv, rv,
            xp.size, y)
    return y


def vander(x, N=None, increasing=False):
    """Columns x**0 .. x**(N-1) (reversed unless increasing), by repeated
    multiplication in order, as NumPy's multiply.accumulate."""
    x = as_array(x, device_of(x))
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    if N is None:
        N = x.shape[0]
    N = operator.index(N)
    if N < 0:
        raise ValueError(f"negative dimensions are not allowed (N={N})")
    dt = _e.promote_types(x.dtype, _e.int64)
    n = x.shape[0]
    if N == 0:
        return _e.empty((n, 0), dtype=dt, device=x.device)
    ones = _e.ones((n, 1), dtype=dt, device=x.device)
    if N == 1:
        v = ones
    else:
        cols = _e.broadcast_to(x.astype(dt).reshape(n, 1), (n, N - 1))
        v = _e.concatenate((ones, cumprod(cols, axis=1)), axis=1)
    return v if increasing else _e.ascontiguousarray(v[:, ::-1])


# ---- special functions NumPy keeps beside the ufuncs --------------------------

def sinc(x):
    """sin(pi x) / (pi x), 1 at 0: NumPy's steps (pi x, with a zero
    replaced by the dtype's eps)."""
    x = as_array(x, device_of(x))
    y = _PI * x
    eps = finfo(y.dtype).eps if y.dtype.kind == "f" else 1e-20
    y = where(y != 0, y, _e.asarray(eps, dtype=y.dtype, device=y.device))
    return _e.sin(y) / y


def i0(x):
    """The modified Bessel function of order 0, one kernel (kernels/i0.c):
    its power series in double, stored in x's float dtype (float64 for
    integers), so float32 results are more accurate than NumPy's."""
    x = as_array(x, device_of(x))
    if x.dtype.kind == "c":
        raise TypeError("i0 not supported for complex values")
    if x.dtype.kind in "iub":
        x = x.astype(_e.float64)
    out = _e.empty(x.shape, dtype=x.dtype, device=x.device)
    if out.size:
        kernel("i0", "T x", "T y", include=("bessel_i0.h",))(x, out)
    return out


def fix(x, out=None):
    """Round towards zero (NumPy's fix: integers stay integers)."""
    return _e.trunc(as_array(x, device_of(x)), out=out) if out is not None else \
        _e.trunc(as_array(x, device_of(x)))
