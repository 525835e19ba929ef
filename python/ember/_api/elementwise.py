"""NumPy's elementwise functions that are not one ufunc but a few: real,
imag, clip, round/around, divmod, angle, deg2rad/radians, rad2deg/degrees,
nan_to_num and the two-output ufuncs modf and frexp.

Each is written over ember's ufuncs, so it has their type resolution (NEP
50: a Python scalar takes the array's dtype), their devices and their
errors. round and nan_to_num of float32/float64 are one fused kernel each
(kernels/round.c, kernels/nan_to_num.c); the 16-bit floats, which
ElementwiseKernel computes in float where NumPy rounds each step, keep
NumPy's ufunc steps, written into one result array (out=, where=) rather
than into a temporary each."""
import math
import operator

from ember import _ember as _e
from ember._api._util import kernel
from ember._api.dtype_info import finfo, iinfo

# The dtypes the fused kernels compute in exactly as NumPy's steps do.
_FUSED = frozenset(("float32", "float64"))


def _into(out, x):
    """out[...] = x, returning out."""
    if not isinstance(out, _e.ndarray):
        raise TypeError(f"out must be an ember array, not {type(out).__name__}")
    out[...] = x
    return out


def _copy_or_into(x, out):
    return _e.copy(x) if out is None else _into(out, x)


def real(val):
    """The real parts (a view for complex arrays)."""
    return _e.asarray(val).real


def imag(val):
    """The imaginary parts."""
    return _e.asarray(val).imag


# ---- clip --------------------------------------------------------------

def _inert(x, bound, lower):
    """Whether a Python int bound cannot clip the integer array x at all (a
    lower bound below its dtype's range, an upper one above it): NumPy 2
    drops such bounds instead of raising OverflowError as the ufuncs
    would."""
    if type(bound) is not int or x.dtype.kind not in "iu":
        return False
    info = iinfo(x.dtype)
    return bound < info.min if lower else bound > info.max


_UNSET = object()


def clip(a, min=None, max=None, out=None, *, a_min=_UNSET, a_max=_UNSET):
    """minimum(maximum(a, min), max), as numpy.clip and the Array API's
    clip: NaN propagates and min > max gives max. The bounds by position
    are the Array API's min and max; NumPy's a_min and a_max are taken as
    keywords."""
    if (min is not None and a_min is not _UNSET) or \
            (max is not None and a_max is not _UNSET):
        raise TypeError("clip: pass a_min or min, a_max or max, not both")
    lo = a_min if min is None and a_min is not _UNSET else min
    hi = a_max if max is None and a_max is not _UNSET else max
    x = _e.asarray(a)
    if lo is not None and _inert(x, lo, True):
        lo = None
    if hi is not None and _inert(x, hi, False):
        hi = None
    if lo is None and hi is None:
        return _copy_or_into(x, out)
    if lo is None:
        return _e.minimum(x, hi, out=out)
    r = _e.maximum(x, lo, out=out if hi is None else None)
    return r if hi is None else _e.minimum(r, hi, out=out)


# ---- round -------------------------------------------------------------

def _scale(decimals):
    """10**|decimals| (inf past float64's range, as C's pow)."""
    try:
        return 10.0 ** abs(decimals)
    except OverflowError:
        return math.inf


def _round_real(p, f, decimals, dst):
    """p (a float array, scaled by f already) rounded half to even, scaled
    back into dst."""
    _e.rint(p, out=p)
    return (_e.true_divide if decimals > 0 else _e.multiply)(p, f, out=dst)


def _round_fused(x, f, decimals, dst):
    """x rounded at 10**-decimals into dst (x's dtype), in one kernel."""
    if dst is None:
        dst = _e.empty_like(x)
    kernel("round", "T x, T f, bool up", "T y")(x, f, decimals > 0, dst)
    return dst


def round(a, decimals=0, out=None):
    """NumPy's rule: scale by 10**|decimals|, round half to even, scale
    back. Integers are returned as they are for decimals >= 0 and go
    through float64 otherwise; complex parts are rounded each on its own
    (a complex product with f would turn an infinite part times f's zero
    imaginary part into NaN)."""
    decimals = operator.index(decimals)
    x = _e.asarray(a)
    kind = x.dtype.kind
    if kind not in "fc" and decimals >= 0:
        return _copy_or_into(x, out)
    if decimals == 0:
        return _e.rint(x, out=out)
    f = _scale(decimals)
    up = _e.multiply if decimals > 0 else _e.true_divide
    if kind not in "fc":
        y = _e.true_divide(x, f)
        _round_real(y, f, decimals, y)
        y = y.astype(x.dtype, copy=False)
        return y if out is None else _into(out, y)
    if kind == "c":   # complex parts are float32 or float64
        c = _e.empty_like(x)
        _round_fused(x.real, f, decimals, c.real)
        _round_fused(x.imag, f, decimals, c.imag)
        return c if out is None else _into(out, c)
    if x.dtype.name in _FUSED and (out is None or out.dtype == x.dtype):
        return _round_fused(x, f, decimals, out)
    y = up(x, f)
    return _round_real(y, f, decimals, y if out is None else out)


around = round


def divmod(x1, x2, /):
    """(floor_divide(x1, x2), remainder(x1, x2))."""
    return _e.floor_divide(x1, x2), _e.remainder(x1, x2)


def angle(z, deg=False):
    """The argument of z (arctan2(0, z) for real z, as NumPy: the 0 a weak
    Python int), in degrees with deg."""
    x = _e.asarray(z)
    if x.dtype.kind == "c":
        r = _e.arctan2(x.imag, x.real)
    else:
        r = _e.arctan2(0, x)
    if deg:
        _e.multiply(r, 180.0 / math.pi, out=r)
    return r


# ---- degrees and radians ----------------------------------------------

def _float_loop(x, name):
    """The float dtype NumPy's one-input float loops (e, f, d) compute x's
    dtype in: a float as it is, a bool or integer in the smallest float
    that holds it (int8 and bool: float16, int16: float32, wider:
    float64). Complex has no such loop."""
    d = x.dtype
    if d.kind == "c":
        raise TypeError(f"ufunc '{name}' not supported for the input types "
                        f"({d.name})")
    return d if d.kind == "f" else _e.result_type(d, _e.float16)


def _scale_float(val, out, name, c):
    x = _e.asarray(val)
    y = x.astype(_float_loop(x, name), copy=False)
    return _e.multiply(y, c, out=out)


def deg2rad(x, out=None):
    """Degrees to radians."""
    return _scale_float(x, out, "deg2rad", math.pi / 180.0)


def radians(x, out=None):
    """Degrees to radians."""
    return _scale_float(x, out, "radians", math.pi / 180.0)


def rad2deg(x, out=None):
    """Radians to degrees."""
    return _scale_float(x, out, "rad2deg", 180.0 / math.pi)


def degrees(x, out=None):
    """Radians to degrees."""
    return _scale_float(x, out, "degrees", 180.0 / math.pi)


# ---- nan_to_num --------------------------------------------------------

def _replace(p, mask, value):
    v = _e.asarray(value, dtype=p.dtype, device=p.device)
    _e.positive(v, out=p, where=mask)


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN and infinities replaced by finite numbers (real and imaginary
    parts alike): nan, and posinf/neginf or the dtype's largest values."""
    x = _e.asarray(x)
    if x.dtype.kind not in "fc":
        return _e.copy(x) if copy else x
    part = x.real.dtype
    big = finfo(part).max
    hi = big if posinf is None else posinf
    lo = -big if neginf is None else neginf
    fused = part.name in _FUSED and all(
        isinstance(v, (int, float)) for v in (nan, hi, lo))
    if not fused:
        res = _e.copy(x) if copy else x
    elif copy:
        res = _e.empty_like(x)
    else:
        res = x
    pairs = ((x.real, res.real), (x.imag, res.imag)) if x.dtype.kind == "c" \
        else ((x, res),)
    for p, q in pairs:
        if fused:
            kernel("nan_to_num", "T x, T nan, T hi, T lo", "T y")(
                p, nan, hi, lo, q)
        else:
            _replace(q, _e.isnan(q), nan)
            _replace(q, _e.equal(q, math.inf), hi)
            _replace(q, _e.equal(q, -math.inf), lo)
    return res


# ---- modf, frexp -------------------------------------------------------

def _owner(a):
    while isinstance(a, _e.ndarray) and a.base is not None:
        a = a.base
    return a


def _two_output(name, first, second, x, out1, out2, out, where):
    """NumPy's modf and frexp: two one-output ufuncs over one input. The
    loop is resolved under the public name, so a bad dtype is "ufunc
    'modf' not supported ...". The input is read by two kernels, so it is
    copied first when an out= array shares its memory (modf(x, out=(x, y))
    must see x as it was)."""
    if out is not None:
        if out1 is not None or out2 is not None:
            raise TypeError(f"{name}: cannot specify 'out' as both a positional "
                            "and keyword argument")
        if not isinstance(out, tuple) or len(out) != 2:
            raise ValueError(f"{name}: out must be a tuple of two arrays (or "
                             "None), one per output")
        out1, out2 = out
    x = _e.asarray(x)
    if x.dtype.kind not in "biuf":
        raise TypeError(f"ufunc '{name}' not supported for the input type "
                        f"{x.dtype.name}")
    loop = _float_loop(x, name)
    root = _owner(x)
    if any(isinstance(o, _e.ndarray) and _owner(o) is root for o in (out1, out2)):
        x = x.astype(loop, copy=True)
    elif name == "modf":
        # the integral part is trunc in the loop's float type (trunc of an
        # integer array would stay integer)
        x = x.astype(loop, copy=False)
    return first(x, out=out1, where=where), second(x, out=out2, where=where)


def modf(x, out1=None, out2=None, /, *, out=None, where=True):
    """(fractional part, integral part), both with x's sign."""
    return _two_output("modf", _e._modf_frac, _e.trunc, x, out1, out2, out, where)


def frexp(x, out1=None, out2=None, /, *, out=None, where=True):
    """(mantissa, int32 exponent) with x = mantissa * 2**exponent, 0.5 <=
    |mantissa| < 1."""
    return _two_output("frexp", _e._frexp_mant, _e._frexp_exp, x, out1, out2,
                       out, where)
