"""numpy.polynomial.chebyshev over ember arrays: Chebyshev series of the
first kind (c[k] multiplies T_k), and the Chebyshev class. chebval is
one Clenshaw kernel (ember/_api/horner.py); products go through the
z-series convolution NumPy uses; quotients, series from roots,
derivatives and integrals are _ortho.py's array forms of NumPy's loops."""
import operator

import ember as _e
from ember._api._util import real_dtype
from ember.polynomial import _ortho
from ember.polynomial import polyutils as pu
from ember.polynomial._polybase import series_class

__all__ = ["chebzero", "chebone", "chebx", "chebdomain", "chebline",
           "chebadd", "chebsub", "chebmulx", "chebmul", "chebdiv", "chebpow",
           "chebval", "chebder", "chebint", "chebfromroots", "chebvander",
           "chebfit", "chebtrim", "chebroots", "chebcompanion", "chebval2d",
           "chebgrid2d", "chebvander2d", "cheb2poly", "poly2cheb",
           "chebgauss", "chebpts1", "chebpts2", "chebinterpolate",
           "Chebyshev"]

chebtrim = pu.trimcoef
chebdomain, chebzero, chebone, chebx = pu._constants([0, 1])
chebline = _ortho.line


def _first(x):
    return x


def _step(i, b1, b2, x):
    # T_i = 2x T_{i-1} - T_{i-2}, NumPy's grouping
    return b1 * (2 * x) - b2


chebval = _ortho.evaluator("chebyshev", "cheb", _first, _step)


def chebvander(x, deg):
    """T_0(x) .. T_deg(x) along a new last axis (the recurrence
    T_i = 2x T_{i-1} - T_{i-2}, one step a degree as NumPy's)."""
    return _ortho.vander(x, deg, _first, _step)


def chebmulx(c):
    """c times x: x T_i = (T_{i+1} + T_{i-1}) / 2."""
    return _ortho.mulx_terms(c, 0.5, 0.5)


def _to_z(c):
    # c as the symmetric z-series sum c_k (z**k + z**-k) / 2
    half = c / 2
    return _e.concatenate((_e.flip(half[1:]), half[:1] * 2, half[1:]))


def _from_z(z):
    n = (z.shape[0] + 1) // 2
    c = z[n - 1:]
    return _e.concatenate((c[:1], c[1:] * 2))


def chebmul(c1, c2):
    """The product, by convolving the series' z-series (NumPy's way)."""
    [c1, c2] = pu.as_series([c1, c2])
    return pu.trimseq(_from_z(_e.convolve(_to_z(c1), _to_z(c2))))


def _der_step(c):
    n = c.shape[0] - 1
    j = _e.arange(1, n + 1, dtype=real_dtype(c.dtype), device=c.device)
    s = _ortho.skip_cumsum(c[1:] * _ortho.column(2 * j, c.ndim))
    return _e.concatenate((s[:1] / 2, s[1:]))


def chebder(c, m=1, scl=1, axis=0):
    """The m-th derivative along axis, each step times scl."""
    return _ortho.deriv(c, m, scl, axis, _der_step)


def _int_step(c):
    n = c.shape[0]
    rt = real_dtype(c.dtype)
    tmp = _e.zeros((n + 1,) + c.shape[1:], dtype=c.dtype, device=c.device)
    tmp[1] = c[0]
    if n > 1:
        j = _e.arange(1, n, dtype=rt, device=c.device)
        tmp[2:] = c[1:] / _ortho.column(2 * (j + 1), c.ndim)
        if n > 2:
            tmp[1:n - 1] = tmp[1:n - 1] - c[2:] / _ortho.column(2 * (j[1:] - 1),
                                                               c.ndim)
    return tmp


def chebint(c, m=1, k=[], lbnd=0, scl=1, axis=0):
    """The m-th integral along axis (constants k, zero at lbnd, times scl)."""
    return _ortho.integ(c, m, k, lbnd, scl, axis, _int_step, chebval)


def chebcompanion(c):
    """The scaled companion matrix (symmetric for a T_n), as NumPy's."""
    c, n = pu._companion_series(c)
    if n == 1:
        return (-c[0] / c[1]).reshape(1, 1)
    dev, dt = c.device, c.dtype
    half = 0.5 ** 0.5
    scl = _e.asarray([1.0] + [half] * (n - 1), device=dev)
    top = _e.asarray([half] + [0.5] * (n - 2), device=dev)
    mat = (_e.diag(top, 1) + _e.diag(top, -1)).astype(dt)
    last = (c[:-1] / c[-1]) * (scl / scl[-1]) * .5
    return _e.concatenate((mat[:, :-1], (mat[:, -1] - last)[:, None]), axis=1)


(chebroots, chebfromroots, chebfit, chebval2d, chebgrid2d,
 chebvander2d) = _ortho.common(__name__, "cheb", "Chebyshev", chebvander,
                                  chebval, chebcompanion)

cheb2poly, poly2cheb = _ortho.conversions(__name__, "cheb", chebval, chebvander)
(chebadd, chebsub, chebmul, chebdiv, chebpow) = _ortho.arithmetic(
    __name__, "cheb", chebval, chebvander, mul_f=chebmul)

_PI = 3.141592653589793


def _npts(npts, least):
    n = int(npts)
    if n != npts:
        raise ValueError("npts must be integer")
    if n < least:
        raise ValueError(f"npts must be >= {least}")
    return n


def chebgauss(deg):
    """Gauss-Chebyshev points and weights (weight 1 / sqrt(1 - x**2)):
    NumPy's closed forms, on the current device."""
    ideg = pu._as_int(deg, "deg")
    if ideg <= 0:
        raise ValueError("deg must be a positive integer")
    k = _e.arange(1, 2 * ideg, 2, dtype=_e.float64)
    return _e.cos(_PI * k / (2.0 * ideg)), _e.full(ideg, _PI / ideg)


def chebpts1(npts):
    """The Chebyshev points of the first kind, ascending."""
    n = _npts(npts, 1)
    k = _e.arange(-n + 1, n + 1, 2, dtype=_e.float64)
    return _e.sin(0.5 * _PI / n * k)


def chebpts2(npts):
    """The Chebyshev points of the second kind, ascending."""
    n = _npts(npts, 2)
    return _e.cos(_e.linspace(-_PI, 0, n))


def chebinterpolate(func, deg, args=()):
    """The Chebyshev series of degree deg interpolating func (called once
    on an ember array of the deg + 1 first-kind points) there: the
    transposed Vandermonde product NumPy uses."""
    try:
        ideg = operator.index(deg)
    except TypeError:
        raise TypeError("deg must be an int") from None
    if ideg < 0:
        raise ValueError("expected deg >= 0")
    order = ideg + 1
    x = chebpts1(order)
    y = func(x, *args)
    c = _e.matmul(_e.moveaxis(chebvander(x, ideg), -1, 0), y)
    scale = _e.full(order, 0.5 * order, dtype=_e.float64, device=c.device)
    scale[0] = order
    return c / _ortho.column(scale, c.ndim)


Chebyshev = series_class(
    "Chebyshev", "A Chebyshev series, numpy.polynomial.Chebyshev's interface over ember "
    "arrays.", globals(), "cheb", "T")
