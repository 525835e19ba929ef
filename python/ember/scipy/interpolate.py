"""ember.scipy.interpolate: SciPy's interpolation over ember arrays, as
cupyx.scipy.interpolate is CuPy's. Setup (slopes, spline coefficients)
and evaluation run on the data's device as array operations. The
families: interpolate_ppoly (PPoly), interpolate_bpoly (BPoly),
interpolate_cubic (CubicSpline, PCHIP, Akima, CubicHermiteSpline),
interpolate_bspline (BSpline, make_interp_spline), interpolate_fitpack
(splrep/splev for s=0), interpolate_1d (interp1d), interpolate_grid
(RegularGridInterpolator, interpn), interpolate_poly (Barycentric,
Krogh), interpolate_rbf (RBFInterpolator), interpolate_lsq
(make_lsq_spline), interpolate_univariate (FITPACK's UnivariateSpline,
LSQUnivariateSpline, InterpolatedUnivariateSpline over
interpolate_curfit's knot search) and interpolate_nd (NdBSpline,
NearestNDInterpolator). docs/scipy.md says what is missing."""
from ember.scipy.interpolate_1d import interp1d
from ember.scipy.interpolate_bpoly import BPoly
from ember.scipy.interpolate_bspline import BSpline, make_interp_spline
from ember.scipy.interpolate_cubic import (Akima1DInterpolator,
                                           CubicHermiteSpline, CubicSpline,
                                           PchipInterpolator,
                                           pchip_interpolate)
from ember.scipy.interpolate_fitpack import (splantider, splder, splev,
                                            splint, splrep)
from ember.scipy.interpolate_grid import RegularGridInterpolator, interpn
from ember.scipy.interpolate_poly import (BarycentricInterpolator,
                                          KroghInterpolator,
                                          barycentric_interpolate,
                                          krogh_interpolate)
from ember.scipy.interpolate_ppoly import PPoly
from ember.scipy.interpolate_rbf import RBFInterpolator
from ember.scipy.interpolate_lsq import make_lsq_spline
from ember.scipy.interpolate_smoothing import make_smoothing_spline
from ember.scipy.interpolate_univariate import (InterpolatedUnivariateSpline,
                                                LSQUnivariateSpline,
                                                UnivariateSpline)
from ember.scipy.interpolate_nd import NdBSpline, NearestNDInterpolator

__all__ = ["interp1d", "PPoly", "BPoly", "CubicHermiteSpline", "CubicSpline",
           "PchipInterpolator", "pchip_interpolate", "Akima1DInterpolator",
           "BSpline", "make_interp_spline", "RegularGridInterpolator",
           "interpn", "BarycentricInterpolator", "barycentric_interpolate",
           "KroghInterpolator", "krogh_interpolate", "splrep", "splev",
           "splint", "splder", "splantider", "RBFInterpolator",
           "make_lsq_spline", "make_smoothing_spline", "UnivariateSpline",
           "InterpolatedUnivariateSpline", "LSQUnivariateSpline",
           "NdBSpline", "NearestNDInterpolator"]
