"""numpy.polynomial.laguerre over ember arrays: Laguerre series (c[k]
multiplies L_k, L_1 = 1 - x; domain [0, 1]), and the Laguerre class.
lagval is one Clenshaw kernel (ember/_api/horner.py); products,
quotients, series from roots and conversions go through values at the
basis' Gauss points (_ortho.points), derivatives and integrals are
closed forms (_ortho.py)."""
import ember as _e
from ember._api._util import as_array, device_of, real_dtype
from ember.polynomial import _ortho
from ember.polynomial import polyutils as pu
from ember.polynomial._polybase import series_class

__all__ = ["lagzero", "lagone", "lagx", "lagdomain", "lagline", "lagadd",
           "lagsub", "lagmulx", "lagmul", "lagdiv", "lagpow", "lagval",
           "lagder", "lagint", "lag2poly", "poly2lag", "lagfromroots",
           "lagvander", "lagfit", "lagtrim", "lagroots", "lagcompanion",
           "lagval2d", "laggrid2d", "lagvander2d", "laggauss", "lagweight",
           "Laguerre"]

lagtrim = pu.trimcoef
lagdomain, lagzero, lagone, lagx = pu._constants([1, -1], (0.0, 1.0))


def _first(x):
    return 1 - x


def _step(i, b1, b2, x):
    # i L_i = (2i - 1 - x) L_{i-1} - (i - 1) L_{i-2}
    return (b1 * ((2 * i - 1) - x) - b2 * (i - 1)) / i


lagval = _ortho.evaluator("laguerre", "lag", _first, _step)


def lagvander(x, deg):
    """L_0(x) .. L_deg(x) along a new last axis."""
    return _ortho.vander(x, deg, _first, _step)


def lagline(off, scl):
    """off + scl x = (off + scl) L_0 - scl L_1; just off when scl is 0."""
    dev = device_of(off, scl)
    off, scl = as_array(off, dev), as_array(scl, dev)
    if bool(scl != 0):
        return _e.stack([off + scl, -scl])
    return _e.atleast_1d(off).copy()


def lagmulx(c):
    """c times x: x L_i = -(i + 1) L_{i+1} + (2i + 1) L_i - i L_{i-1}."""
    [c] = pu.as_series([c])
    i = _e.arange(c.shape[0], dtype=real_dtype(c.dtype), device=c.device)
    return _ortho.mulx_terms(c, -(i[1:] + 1), -i[1:], up0=-1, mid=2 * i + 1)


def _der_step(c):
    # L_j' = -(L_0 + ... + L_{j-1}): der[k] = -(c[k+1] + ... + c[n])
    return -_e.flip(_e.cumsum(_e.flip(c[1:], axis=0), axis=0), axis=0)


def lagder(c, m=1, scl=1, axis=0):
    """The m-th derivative along axis, each step times scl."""
    return _ortho.deriv(c, m, scl, axis, _der_step)


def _int_step(c):
    # the antiderivative of L_j is L_j - L_{j+1}
    z = c[:1] * 0
    return _e.concatenate((c, z)) - _e.concatenate((z, c))


def lagint(c, m=1, k=[], lbnd=0, scl=1, axis=0):
    """The m-th integral along axis (constants k, zero at lbnd, times scl)."""
    return _ortho.integ(c, m, k, lbnd, scl, axis, _int_step, lagval)


def lagcompanion(c):
    """The (symmetric) companion matrix, as NumPy's."""
    c, n = pu._companion_series(c)
    if n == 1:
        return (1 + c[0] / c[1]).reshape(1, 1)
    dev = c.device
    top = -_e.arange(1, n, dtype=_e.float64, device=dev)
    mid = 2 * _e.arange(n, dtype=_e.float64, device=dev) + 1
    mat = (_e.diag(top, 1) + _e.diag(mid) + _e.diag(top, -1)).astype(c.dtype)
    last = (c[:-1] / c[-1]) * n
    return _e.concatenate((mat[:, :-1], (mat[:, -1] + last)[:, None]), axis=1)


def laggauss(deg):
    """Gauss-Laguerre points and weights (weight exp(-x) on [0, inf))."""
    return _ortho.gauss(deg, lagcompanion, 1.0, False)


def lagweight(x):
    """exp(-x)."""
    x = as_array(x, device_of(x))
    return _e.exp(-x)


(lagroots, lagfromroots, lagfit, lagval2d, laggrid2d,
 lagvander2d) = _ortho.common(__name__, "lag", "Laguerre", lagvander,
                                  lagval, lagcompanion, lagcompanion)
lag2poly, poly2lag = _ortho.conversions(__name__, "lag", lagval, lagvander,
                                   lagcompanion)
(lagadd, lagsub, lagmul, lagdiv, lagpow) = _ortho.arithmetic(
    __name__, "lag", lagval, lagvander, lagcompanion)


Laguerre = series_class(
    "Laguerre", "A Laguerre series, numpy.polynomial.Laguerre's interface "
    "over ember arrays.", globals(), "lag", "L")
