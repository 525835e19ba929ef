"""numpy.polynomial.hermite_e over ember arrays: probabilists' Hermite
series (c[k] multiplies He_k, He_1 = x), and the HermiteE class. hermeval
is one Clenshaw kernel (ember/_api/horner.py); products, quotients,
series from roots and conversions go through values at the basis' Gauss
points (_ortho.points), derivatives and integrals are closed forms
(_ortho.py)."""
import ember as _e
from ember._api._util import as_array, device_of, real_dtype
from ember.polynomial import _ortho
from ember.polynomial import polyutils as pu
from ember.polynomial._polybase import series_class

__all__ = ["hermezero", "hermeone", "hermex", "hermedomain", "hermeline",
           "hermeadd", "hermesub", "hermemulx", "hermemul", "hermediv",
           "hermepow", "hermeval", "hermeder", "hermeint", "herme2poly",
           "poly2herme", "hermefromroots", "hermevander", "hermefit",
           "hermetrim", "hermeroots", "hermecompanion", "hermeval2d",
           "hermegrid2d", "hermevander2d", "hermegauss", "hermeweight",
           "HermiteE"]

hermetrim = pu.trimcoef
hermedomain, hermezero, hermeone, hermex = pu._constants([0, 1])
hermeline = _ortho.line


def _first(x):
    return x


def _step(i, b1, b2, x):
    # He_i = x He_{i-1} - (i-1) He_{i-2}
    return b1 * x - b2 * (i - 1)


hermeval = _ortho.evaluator("hermite_e", "herme", _first, _step)


def hermevander(x, deg):
    """He_0(x) .. He_deg(x) along a new last axis."""
    return _ortho.vander(x, deg, _first, _step)


def hermemulx(c):
    """c times x: x He_i = He_{i+1} + i He_{i-1}."""
    [c] = pu.as_series([c])
    i = _e.arange(1, c.shape[0], dtype=real_dtype(c.dtype), device=c.device)
    return _ortho.mulx_terms(c, 1.0, i)


def _der_step(c):
    # He_j' = j He_{j-1}
    j = _e.arange(1, c.shape[0], dtype=real_dtype(c.dtype), device=c.device)
    return c[1:] * _ortho.column(j, c.ndim)


def hermeder(c, m=1, scl=1, axis=0):
    """The m-th derivative along axis, each step times scl."""
    return _ortho.deriv(c, m, scl, axis, _der_step)


def _int_step(c):
    j = _e.arange(1, c.shape[0] + 1, dtype=real_dtype(c.dtype), device=c.device)
    return _e.concatenate((c[:1] * 0, c / _ortho.column(j, c.ndim)))


def hermeint(c, m=1, k=[], lbnd=0, scl=1, axis=0):
    """The m-th integral along axis (constants k, zero at lbnd, times scl)."""
    return _ortho.integ(c, m, k, lbnd, scl, axis, _int_step, hermeval)


def hermecompanion(c):
    """The scaled (symmetric) companion matrix, as NumPy's."""
    c, n = pu._companion_series(c)
    if n == 1:
        return (-c[0] / c[1]).reshape(1, 1)
    dev = c.device
    # scl[k] = sqrt(k! / (n-1)!), NumPy's cumulative product
    r = 1. / _e.sqrt(_e.arange(n - 1, 0, -1, dtype=_e.float64, device=dev))
    scl = _e.flip(_e.cumprod(_e.concatenate((_e.ones(1, device=dev), r))))
    top = _e.sqrt(_e.arange(1, n, dtype=_e.float64, device=dev))
    mat = (_e.diag(top, 1) + _e.diag(top, -1)).astype(c.dtype)
    last = scl * c[:-1] / c[-1]
    return _e.concatenate((mat[:, :-1], (mat[:, -1] - last)[:, None]), axis=1)


def hermegauss(deg):
    """Gauss-HermiteE points and weights (weight exp(-x**2 / 2))."""
    return _ortho.gauss(deg, hermecompanion, (2 * 3.141592653589793) ** 0.5, True)


def hermeweight(x):
    """exp(-x**2 / 2)."""
    x = as_array(x, device_of(x))
    return _e.exp(-0.5 * x ** 2)


(hermeroots, hermefromroots, hermefit, hermeval2d, hermegrid2d,
 hermevander2d) = _ortho.common(__name__, "herme", "HermiteE", hermevander,
                                    hermeval, hermecompanion, hermecompanion)
herme2poly, poly2herme = _ortho.conversions(__name__, "herme", hermeval,
                                            hermevander, hermecompanion)
(hermeadd, hermesub, hermemul, hermediv, hermepow) = _ortho.arithmetic(
    __name__, "herme", hermeval, hermevander, hermecompanion)


HermiteE = series_class(
    "HermiteE", "A HermiteE series, numpy.polynomial.HermiteE's interface "
    "over ember arrays.", globals(), "herme", "He")
