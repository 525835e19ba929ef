"""ember.polynomial: numpy.polynomial's layout over ember arrays (series
lowest degree first; the Polynomial, Chebyshev and Legendre classes with
domain and window), on every device; see docs/linalg.md, "Polynomials"."""
from ember.polynomial import polyutils  # noqa: F401
from ember.polynomial import polynomial, chebyshev, legendre  # noqa: F401
from ember.polynomial.polynomial import Polynomial
from ember.polynomial.chebyshev import Chebyshev
from ember.polynomial.legendre import Legendre

__all__ = ["Polynomial", "Chebyshev", "Legendre", "polynomial", "chebyshev",
           "legendre", "polyutils"]
