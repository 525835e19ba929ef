"""scipy.special's functions that SciPy itself writes as Python over its
ufuncs (polygamma, multigammaln, spherical_jn/yn, radian), and SciPy's own
copies of NumPy ufuncs (cbrt, exp2, expm1, log1p), whose loops start at
float32: ember's NumPy kernels on SciPy's dtypes."""
import math as _math
import numbers as _numbers

import ember as _e
from ember import _ember
from ember._api._util import device_of


def _real_float(x):
    """x as an ember array in the dtype SciPy's 'f->f, d->d' loops choose:
    float32 for bools, 8- and 16-bit integers and 16-bit floats, float64
    for wider integers and Python numbers; float32/64 and complex as they
    are."""
    x = x if isinstance(x, _e.ndarray) else _e.asarray(x)
    k, size = x.dtype.kind, x.dtype.itemsize
    if k == "b" or (k in "iu" and size <= 2) or (k == "f" and size == 2) \
            or x.dtype.name == "bfloat16":
        return x.astype(_e.float32)
    if k in "iu":
        return x.astype(_e.float64)
    return x


def _numpy_twin(name):
    f = getattr(_e, name)

    def twin(x, out=None, **kw):
        return f(_real_float(x), out=out, **kw)
    twin.__name__ = twin.__qualname__ = name
    twin.__doc__ = ("scipy.special.%s: ember.%s's kernel on SciPy's dtypes "
                    "(float16 and small integers compute in float32)" % (name, name))
    return twin


cbrt = _numpy_twin("cbrt")
exp2 = _numpy_twin("exp2")
expm1 = _numpy_twin("expm1")
log1p = _numpy_twin("log1p")


def radian(d, m, s):
    """Degrees, arcminutes and arcseconds to radians, as SciPy's
    (d + m/60 + s/3600) pi/180."""
    d, m, s = _real_float(d), _real_float(m), _real_float(s)
    return (d + m / 60.0 + s / 3600.0) * (_math.pi / 180.0)


def polygamma(n, x):
    """psi's n-th derivative, SciPy's composition: (-1)^(n+1) n!
    zeta(n + 1, x), and digamma at n = 0 (NaN for a fractional or negative
    n)."""
    dev = device_of(n, x)   # a scalar joins the array operand's device
    n = n if isinstance(n, _e.ndarray) else _e.asarray(n, device=dev)
    x = x if isinstance(x, _e.ndarray) else _e.asarray(x, device=dev)
    gamma, zeta = _ember._sp_gamma, _ember._sp_zeta
    n1 = n + 1.0
    fac = _e.power(-1.0, n1) * gamma(n1) * zeta(n1, x)
    return _e.where(n == 0, _ember._sp_digamma(x), fac)


def multigammaln(a, d):
    """log of the multivariate gamma function of dimension d (a whole
    scalar): d (d - 1)/4 log pi + sum over j < d of gammaln(a - j/2);
    SciPy's ValueError unless every a > (d - 1)/2."""
    if not isinstance(d, _numbers.Real) or _math.floor(d) != d or d <= 0:
        raise ValueError("d should be a positive integer (dimension)")
    a = a if isinstance(a, _e.ndarray) else _e.asarray(a)
    if bool(_e.any(a <= 0.5 * (d - 1))):
        raise ValueError("condition a > 0.5 * (d-1) (%s) not met"
                         % (0.5 * (d - 1)))
    gammaln = _ember._sp_gammaln
    res = gammaln(a) + (d * (d - 1) * 0.25) * _math.log(_math.pi)
    for j in range(1, d):
        res = res + gammaln(a - 0.5 * j)
    return res


def _spherical(n, z, bessel, odd_shift):
    """sqrt(pi / 2|z|) C_(n+1/2)(|z|) for C = jv or yv, with the parity
    (-1)^(n + odd_shift) below 0; n truncated to an integer as SciPy's
    'ld->d' loop does."""
    dev = device_of(n, z)   # a scalar joins the array operand's device
    n = n if isinstance(n, _e.ndarray) else _e.asarray(n, device=dev)
    z = z if isinstance(z, _e.ndarray) else _e.asarray(z, device=dev)
    if n.dtype.kind == "f":
        n = _e.trunc(n)
    n = n.astype(_e.float64)
    if z.dtype.kind != "c":
        z = z.astype(_e.float64)
        a = _e.abs(z)
        v = _e.sqrt((_math.pi / 2) / a) * bessel(n + 0.5, a)
        par = _e.where(_e.remainder(n + odd_shift, 2.0) == 1, -1.0, 1.0)
        v = _e.where(z < 0, par * v, v)
    else:
        z = z.astype(_e.complex128)
        v = _e.sqrt((_math.pi / 2) / z) * bessel(n + 0.5, z)
    return n, z, v


def spherical_jn(n, z, derivative=False):
    """The spherical Bessel function j_n(z) = sqrt(pi/2z) J_(n+1/2)(z), or
    its derivative j_(n-1)(z) - (n+1)/z j_n(z) (-j_1 at n = 0), as SciPy's:
    1 at z = 0 for n = 0 (the derivative: 1/3 at n = 1, else 0, whatever
    n), 0 at the infinities, NaN for n < 0."""
    if derivative:
        dev = device_of(n, z)
        n0 = n if isinstance(n, _e.ndarray) else _e.asarray(n, device=dev)
        if n0.dtype.kind == "f":
            n0 = _e.trunc(n0)
        n0 = n0.astype(_e.float64)
        z0 = z if isinstance(z, _e.ndarray) else _e.asarray(z, device=dev)
        jm = spherical_jn(_e.where(n0 == 0, 1.0, n0 - 1), z0)
        j = spherical_jn(n0, z0)
        v = _e.where(n0 == 0, -jm, jm - (n0 + 1) / z0 * j)
        at0 = _e.where(n0 == 1, 1.0 / 3, 0.0)
        return _e.where(z0 == 0, at0, _e.where(n0 < 0, _e.nan, v))
    n, z, v = _spherical(n, z, _ember._sp_jv, 0)
    v = _e.where(z == 0, _e.where(n == 0, 1.0, 0.0), v)
    if z.dtype.kind != "c":
        v = _e.where(_e.isinf(z), 0.0, v)
    return _e.where(n < 0, _e.nan, v)


def spherical_yn(n, z, derivative=False):
    """The spherical Bessel function y_n(z) = sqrt(pi/2z) Y_(n+1/2)(z), or
    its derivative y_(n-1)(z) - (n+1)/z y_n(z) (-y_1 at n = 0), as SciPy's:
    -inf at z = 0 (the derivative: +inf at n = 0, NaN past it, where SciPy
    subtracts infinities), (-1)^(n+1) y_n(|z|) below 0, 0 at the
    infinities, NaN for n < 0."""
    if derivative:
        dev = device_of(n, z)
        n0 = n if isinstance(n, _e.ndarray) else _e.asarray(n, device=dev)
        if n0.dtype.kind == "f":
            n0 = _e.trunc(n0)
        n0 = n0.astype(_e.float64)
        z0 = z if isinstance(z, _e.ndarray) else _e.asarray(z, device=dev)
        ym = spherical_yn(_e.where(n0 == 0, 1.0, n0 - 1), z0)
        y = spherical_yn(n0, z0)
        v = _e.where(n0 == 0, -ym, ym - (n0 + 1) / z0 * y)
        v = _e.where(z0 == 0, _e.where(n0 == 0, _e.inf, _e.nan), v)
        return _e.where(n0 < 0, _e.nan, v)
    n, z, v = _spherical(n, z, _ember._sp_yv, 1)
    if z.dtype.kind != "c":
        v = _e.where(z == 0, -_e.inf, _e.where(_e.isinf(z), 0.0, v))
    return _e.where(n < 0, _e.nan, v)


def _gdtr(a, b, x, upper):
    a, b, x = _real_float(a), _real_float(b), _real_float(x)
    f = _ember._sp_gammaincc if upper else _ember._sp_gammainc
    p = f(b, a * x)
    return _e.where(x < 0, _e.nan, p).astype(p.dtype)


def gdtr(a, b, x):
    """The gamma distribution function (rate a, shape b) at x: SciPy's
    gammainc(b, a x), NaN for x < 0."""
    return _gdtr(a, b, x, False)


def gdtrc(a, b, x):
    """gdtr's complement: gammaincc(b, a x), NaN for x < 0."""
    return _gdtr(a, b, x, True)
