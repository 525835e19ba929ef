"""ember.polynomial: numpy.polynomial's layout over ember arrays (series
lowest power first, the Polynomial class with domain and window), on
every device; see docs/linalg.md, "Polynomials"."""
from ember.polynomial import polyutils  # noqa: F401
from ember.polynomial import polynomial  # noqa: F401
from ember.polynomial.polynomial import Polynomial

__all__ = ["Polynomial", "polynomial", "polyutils"]
