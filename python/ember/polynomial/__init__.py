"""ember.polynomial: numpy.polynomial's layout over ember arrays (series
lowest degree first; the Polynomial, Chebyshev, Legendre, Hermite,
HermiteE and Laguerre classes with domain and window), on every device;
see docs/linalg.md, "Polynomials"."""
from ember.polynomial import polyutils  # noqa: F401
from ember.polynomial import (polynomial, chebyshev, legendre,  # noqa: F401
                              hermite, hermite_e, laguerre)
from ember.polynomial.polynomial import Polynomial
from ember.polynomial.chebyshev import Chebyshev
from ember.polynomial.legendre import Legendre
from ember.polynomial.hermite import Hermite
from ember.polynomial.hermite_e import HermiteE
from ember.polynomial.laguerre import Laguerre

__all__ = ["Polynomial", "Chebyshev", "Legendre", "Hermite", "HermiteE",
           "Laguerre", "polynomial", "chebyshev", "legendre", "hermite",
           "hermite_e", "laguerre", "polyutils"]
