"""numpy.polynomial.hermite over ember arrays: physicists' Hermite series
(c[k] multiplies H_k, H_1 = 2x), and the Hermite class. hermval is one
Clenshaw kernel (ember/_api/horner.py); products, quotients, series from
roots and conversions go through values at the basis' Gauss points
(_ortho.points), derivatives and integrals are closed forms (_ortho.py)."""
import ember as _e
from ember._api._util import as_array, device_of, real_dtype
from ember.polynomial import _ortho
from ember.polynomial import polyutils as pu
from ember.polynomial._polybase import series_class

__all__ = ["hermzero", "hermone", "hermx", "hermdomain", "hermline",
           "hermadd", "hermsub", "hermmulx", "hermmul", "hermdiv", "hermpow",
           "hermval", "hermder", "hermint", "herm2poly", "poly2herm",
           "hermfromroots", "hermvander", "hermfit", "hermtrim", "hermroots",
           "hermcompanion", "hermval2d", "hermgrid2d", "hermvander2d",
           "hermgauss", "hermweight", "Hermite"]

hermtrim = pu.trimcoef
hermdomain, hermzero, hermone, hermx = pu._constants([0, 1 / 2])


def _first(x):
    return x * 2


def _step(i, b1, b2, x):
    # H_i = 2x H_{i-1} - 2(i-1) H_{i-2}, NumPy's grouping
    return b1 * (x * 2) - b2 * (2 * (i - 1))


hermval = _ortho.evaluator("hermite", "herm", _first, _step)


def hermvander(x, deg):
    """H_0(x) .. H_deg(x) along a new last axis."""
    return _ortho.vander(x, deg, _first, _step)


def hermline(off, scl):
    """off + scl x = off H_0 + scl / 2 H_1; just off when scl is 0."""
    dev = device_of(off, scl)
    if bool(scl != 0):
        return _e.stack([as_array(off, dev), as_array(scl, dev) / 2])
    return _e.atleast_1d(as_array(off, dev)).copy()


def hermmulx(c):
    """c times x: x H_i = H_{i+1} / 2 + i H_{i-1}."""
    [c] = pu.as_series([c])
    i = _e.arange(1, c.shape[0], dtype=real_dtype(c.dtype), device=c.device)
    return _ortho.mulx_terms(c, 0.5, i, up0=0.5)


def _der_step(c):
    # H_j' = 2j H_{j-1}
    j = _e.arange(1, c.shape[0], dtype=real_dtype(c.dtype), device=c.device)
    return c[1:] * _ortho.column(2 * j, c.ndim)


def hermder(c, m=1, scl=1, axis=0):
    """The m-th derivative along axis, each step times scl."""
    return _ortho.deriv(c, m, scl, axis, _der_step)


def _int_step(c):
    j = _e.arange(1, c.shape[0] + 1, dtype=real_dtype(c.dtype), device=c.device)
    return _e.concatenate((c[:1] * 0, c / _ortho.column(2 * j, c.ndim)))


def hermint(c, m=1, k=[], lbnd=0, scl=1, axis=0):
    """The m-th integral along axis (constants k, zero at lbnd, times scl)."""
    return _ortho.integ(c, m, k, lbnd, scl, axis, _int_step, hermval)


def hermcompanion(c):
    """The scaled (symmetric) companion matrix, as NumPy's."""
    c, n = pu._companion_series(c)
    if n == 1:
        return (-0.5 * c[0] / c[1]).reshape(1, 1)
    dev = c.device
    # scl[k] = 1 / sqrt(2^(n-1-k) (n-1)! / k!), NumPy's cumulative product
    r = 1. / _e.sqrt(2 * _e.arange(n - 1, 0, -1, dtype=_e.float64, device=dev))
    scl = _e.flip(_e.cumprod(_e.concatenate((_e.ones(1, device=dev), r))))
    top = _e.sqrt(0.5 * _e.arange(1, n, dtype=_e.float64, device=dev))
    mat = (_e.diag(top, 1) + _e.diag(top, -1)).astype(c.dtype)
    last = scl * c[:-1] / (2.0 * c[-1])
    return _e.concatenate((mat[:, :-1], (mat[:, -1] - last)[:, None]), axis=1)


def hermgauss(deg):
    """Gauss-Hermite points and weights (weight exp(-x**2) on the line)."""
    return _ortho.gauss(deg, hermcompanion, 3.141592653589793 ** 0.5, True)


def hermweight(x):
    """exp(-x**2)."""
    x = as_array(x, device_of(x))
    return _e.exp(-x ** 2)


(hermroots, hermfromroots, hermfit, hermval2d, hermgrid2d,
 hermvander2d) = _ortho.common(__name__, "herm", "Hermite", hermvander,
                                   hermval, hermcompanion, hermcompanion)
herm2poly, poly2herm = _ortho.conversions(__name__, "herm", hermval, hermvander,
                                     hermcompanion)
(hermadd, hermsub, hermmul, hermdiv, hermpow) = _ortho.arithmetic(
    __name__, "herm", hermval, hermvander, hermcompanion)


Hermite = series_class(
    "Hermite", "A Hermite series, numpy.polynomial.Hermite's interface over "
    "ember arrays.", globals(), "herm", "H")
