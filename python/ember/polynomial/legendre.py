"""numpy.polynomial.legendre over ember arrays: Legendre series (c[k]
multiplies P_k), and the Legendre class. legval is one Clenshaw kernel
(ember/_api/horner.py); products, quotients and series from roots go
through values at Chebyshev points and one solve (_ortho.py), where
NumPy loops over the degree; derivatives and integrals are the closed
forms of NumPy's loops."""
import ember as _e
from ember._api._util import real_dtype
from ember.polynomial import _ortho
from ember.polynomial import polyutils as pu
from ember.polynomial._polybase import series_class

__all__ = ["legzero", "legone", "legx", "legdomain", "legline", "legadd",
           "legsub", "legmulx", "legmul", "legdiv", "legpow", "legval",
           "legder", "legint", "legfromroots", "legvander", "legfit",
           "legtrim", "legroots", "legcompanion", "legval2d", "leggrid2d",
           "legvander2d", "leg2poly", "poly2leg", "leggauss", "Legendre"]

legtrim = pu.trimcoef
legdomain, legzero, legone, legx = pu._constants([0, 1])
legline = _ortho.line


def _first(x):
    return x


def _step(i, b1, b2, x):
    # Bonnet's recurrence, NumPy's grouping
    return (b1 * x * (2 * i - 1) - b2 * (i - 1)) / i


legval = _ortho.evaluator("legendre", "leg", _first, _step)


def legvander(x, deg):
    """P_0(x) .. P_deg(x) along a new last axis (Bonnet's recurrence, one
    step a degree as NumPy's)."""
    return _ortho.vander(x, deg, _first, _step)


def legmulx(c):
    """c times x: x P_i = ((i + 1) P_{i+1} + i P_{i-1}) / (2i + 1)."""
    [c] = pu.as_series([c])
    i = _e.arange(1, c.shape[0], dtype=real_dtype(c.dtype), device=c.device)
    return _ortho.mulx_terms(c, (i + 1) / (2 * i + 1), i / (2 * i + 1))


def _der_step(c):
    n = c.shape[0] - 1
    k = _e.arange(n, dtype=real_dtype(c.dtype), device=c.device)
    return _ortho.skip_cumsum(c[1:]) * _ortho.column(2 * k + 1, c.ndim)


def legder(c, m=1, scl=1, axis=0):
    """The m-th derivative along axis, each step times scl."""
    return _ortho.deriv(c, m, scl, axis, _der_step)


def _int_step(c):
    n = c.shape[0]
    tmp = _e.zeros((n + 1,) + c.shape[1:], dtype=c.dtype, device=c.device)
    tmp[1] = c[0]
    if n > 1:
        j = _e.arange(1, n, dtype=real_dtype(c.dtype), device=c.device)
        t = c[1:] / _ortho.column(2 * j + 1, c.ndim)
        tmp[2:] = t
        tmp[:n - 1] = tmp[:n - 1] - t
    return tmp


def legint(c, m=1, k=[], lbnd=0, scl=1, axis=0):
    """The m-th integral along axis (constants k, zero at lbnd, times scl)."""
    return _ortho.integ(c, m, k, lbnd, scl, axis, _int_step, legval)


def legcompanion(c):
    """The scaled (symmetric) companion matrix, as NumPy's."""
    c, n = pu._companion_series(c)
    if n == 1:
        return (-c[0] / c[1]).reshape(1, 1)
    dev = c.device
    scl = 1. / _e.sqrt(2 * _e.arange(n, dtype=_e.float64, device=dev) + 1)
    top = _e.arange(1, n, dtype=_e.float64, device=dev) * scl[:n - 1] * scl[1:n]
    mat = (_e.diag(top, 1) + _e.diag(top, -1)).astype(c.dtype)
    last = (c[:-1] / c[-1]) * (scl / scl[-1]) * (n / (2 * n - 1))
    return _e.concatenate((mat[:, :-1], (mat[:, -1] - last)[:, None]), axis=1)


(legroots, legfromroots, legfit, legval2d, leggrid2d,
 legvander2d) = _ortho.common(__name__, "leg", "Legendre", legvander,
                                  legval, legcompanion)

leg2poly, poly2leg = _ortho.conversions(__name__, "leg", legval, legvander)
(legadd, legsub, legmul, legdiv, legpow) = _ortho.arithmetic(
    __name__, "leg", legval, legvander)


def leggauss(deg):
    """Gauss-Legendre points and weights (weight 1 on [-1, 1])."""
    return _ortho.gauss(deg, legcompanion, 2.0, True)


Legendre = series_class(
    "Legendre", "A Legendre series, numpy.polynomial.Legendre's interface over ember "
    "arrays.", globals(), "leg", "P")
