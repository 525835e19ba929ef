"""ember.scipy.interpolate's FITPACK classes, SciPy's:
UnivariateSpline (the smoothing spline: interpolate_curfit's knot search
and smoothing iteration), InterpolatedUnivariateSpline (s = 0, FITPACK's
knots) and LSQUnivariateSpline (given interior knots). Fits are
interpolate_lsq's QR on the data's device; evaluation, integrals and
derivatives are BSpline's (interpolate_fitpack's splev modes); roots()
is interpolate_sproot's. Knots, coefficients and the residual come back
as arrays on the data's device; get_residual() is a float."""
import operator
import warnings

import numpy as np

import ember as _e
from ember._api._util import as_array as _arr
from ember.scipy import interpolate_curfit as _cf
from ember.scipy.interpolate_bspline import BSpline
from ember.scipy.interpolate_fitpack import splev
from ember.scipy.interpolate_lsq import schoenberg_whitney
from ember.scipy.interpolate_ppoly import _device

__all__ = ["UnivariateSpline", "InterpolatedUnivariateSpline",
           "LSQUnivariateSpline"]

_EXT = {0: 0, "extrapolate": 0, 1: 1, "zeros": 1, 2: 2, "raise": 2,
        3: 3, "const": 3}

_FPCHEC = (
    "The input parameters have been rejected by fpchec. This means that "
    "at least one of the following conditions is violated:\n\n"
    "1) k+1 <= n-k-1 <= m\n"
    "2) t(1) <= t(2) <= ... <= t(k+1)\n"
    "   t(n-k) <= t(n-k+1) <= ... <= t(n)\n"
    "3) t(k+1) < t(k+2) < ... < t(n-k)\n"
    "4) t(k+1) <= x(i) <= t(n-k)\n"
    "5) The conditions specified by Schoenberg and Whitney must hold\n"
    "   for at least one subset of data points, i.e., there must be a\n"
    "   subset of data points y(j) such that\n"
    "       t(j) < y(j) < t(j+k+1), j=1,2,...,n-k-1\n")


def _ext_mode(ext):
    try:
        return _EXT[ext]
    except (KeyError, TypeError):
        raise ValueError(f"Unknown extrapolation mode {ext}.") from None


def _validate(x, y, w, bbox, k, s, ext, check_finite):
    """SciPy's validate_input, then curfit's own conditions (w > 0, bbox
    around x, m > k), which SciPy only warns about."""
    dev = _device(x, y, w)
    x = _arr(x, dev)
    y = _arr(y, x.device)
    w = None if w is None else _arr(w, x.device)
    hx = _e.asnumpy(x).astype(float)
    hy_ok = True
    if check_finite:
        hy_ok = bool(_e.asnumpy(_e.all(_e.isfinite(y))))
        wf = True if w is None else bool(_e.asnumpy(_e.all(_e.isfinite(w))))
        if not np.isfinite(hx).all() or not hy_ok or not wf:
            raise ValueError("x and y array must not contain NaNs or infs.")
    if s is None or s > 0:
        if not np.all(np.diff(hx) >= 0.0):
            raise ValueError("x must be increasing if s > 0")
    elif not np.all(np.diff(hx) > 0.0):
        raise ValueError("x must be strictly increasing if s = 0")
    bb = np.asarray(bbox, dtype=object)
    if x.size != y.size:
        raise ValueError("x and y should have a same length")
    if w is not None and not x.size == y.size == w.size:
        raise ValueError("x, y, and w should have a same length")
    if bb.shape != (2,):
        raise ValueError("bbox shape should be (2,)")
    if not 1 <= k <= 5:
        raise ValueError("k should be 1 <= k <= 5")
    if s is not None and not s >= 0.0:
        raise ValueError("s should be s >= 0.0")
    ext = _ext_mode(ext)
    if x.ndim != 1 or y.ndim != 1:
        raise ValueError(f"x and y must be 1-D (x {x.shape}, y {y.shape})")
    m = hx.size
    if m <= k:
        raise ValueError(f"m > k must hold (m = {m} points, k = {k})")
    xb = hx[0] if bb[0] is None else float(bb[0])
    xe = hx[-1] if bb[1] is None else float(bb[1])
    if not xb <= hx[0] or not hx[-1] <= xe:
        raise ValueError(f"bbox [{xb}, {xe}] must hold every x (x in "
                         f"[{hx[0]}, {hx[-1]}])")
    xf = x.astype(_e.float64)
    yf = y.astype(_e.float64).reshape((m, 1))
    if w is None:
        wf = _e.ones((m,), dtype=_e.float64, device=x.device)
    else:
        wf = w.astype(_e.float64)
        if bool(_e.asnumpy(_e.any(~(wf > 0)))):
            raise ValueError("weights w must be positive (FITPACK's w[i] > "
                             "0)")
    return xf, yf, wf, hx, xb, xe, ext


class UnivariateSpline:
    """SciPy's UnivariateSpline: the degree-k spline with the fewest
    FITPACK knots whose weighted residual sum(w (y - s(x)))^2 is s
    (s=None: len(x)). get_knots() holds the interior and end knots,
    get_coeffs() the n - k - 1 coefficients."""

    def __init__(self, x, y, w=None, bbox=[None] * 2, k=3, s=None, ext=0,
                 check_finite=False):
        k = operator.index(k)
        x, y, w, hx, xb, xe, self.ext = _validate(x, y, w, bbox, k, s, ext,
                                                  check_finite)
        if s is None:
            s = float(hx.size)
        self._curfit = _cf.Curfit(x, y, w, hx, xb, xe, k)
        # SciPy's first call leaves room for max(m // 2, 2k + 2) knots
        if s > 0:
            self._curfit.nest = max(hx.size // 2, 2 * k + 2)
        self._smooth(float(s), 0)

    def _smooth(self, s, iopt):
        spl, fp, ier = _cf.curfit(self._curfit, s, iopt)
        self._set(spl, fp)
        if ier == -1:
            self._retype(InterpolatedUnivariateSpline)
        elif ier in (-2, 1):
            self._retype(LSQUnivariateSpline)
        _cf.warn(ier)

    def set_smoothing_factor(self, s):
        """Continue the knot search with the smoothing factor s from
        the knots found at the last call (FITPACK's iopt = 1); in
        place."""
        if getattr(self, "_curfit", None) is None:
            warnings.warn("smoothing factor unchanged for LSQ spline with "
                          "fixed knots", stacklevel=2)
            return
        if not s >= 0.0:
            raise ValueError("s should be s >= 0.0")
        self._smooth(float(s), 1)

    def _set(self, spl, fp):
        c = spl.c.reshape((spl.c.shape[0],))
        self._spl = BSpline.construct_fast(spl.t, c, spl.k)
        self._fp = fp

    def _retype(self, cls):
        # SciPy names the result's class by how curfit ended; a user's
        # subclass keeps its own.
        if type(self) in (UnivariateSpline, InterpolatedUnivariateSpline,
                          LSQUnivariateSpline):
            self.__class__ = cls

    @classmethod
    def _from_tck(cls, tck, ext=0):
        self = cls.__new__(cls)
        t, c, k = tck if not isinstance(tck, BSpline) else tck.tck
        t = _arr(t, _device(t, c)).astype(_e.float64)
        c = _arr(c, t.device).astype(_e.float64)
        n = t.shape[0] - k - 1
        self._spl = BSpline.construct_fast(t, c[:n], int(k))
        self._fp = None
        self._curfit = None
        self.ext = ext
        return self

    def __call__(self, x, nu=0, ext=None):
        ext = self.ext if ext is None else _ext_mode(ext)
        x = _arr(x, self._spl.c.device)
        if x.size == 0:
            return _e.asarray(np.array([]), device=x.device)
        return splev(x, self._spl, der=nu, ext=ext)

    def get_knots(self):
        """The knots from t[k] to t[n-k-1] (the interior ones and the
        ends)."""
        t, k = self._spl.t, self._spl.k
        return t[k:t.shape[0] - k]

    def get_coeffs(self):
        return self._spl.c

    def get_residual(self):
        """sum((w (y - s(x)))^2), float."""
        return self._fp

    def integral(self, a, b):
        """The integral over [a, b], taken as zero outside the knots'
        span (FITPACK's splint); a 0-d array."""
        return self._spl.integrate(a, b, extrapolate=False)

    def derivatives(self, x):
        """The values of the derivatives of orders 0..k at the scalar x
        inside the knots' span (FITPACK's spalde), shape (k+1,)."""
        x = float(x)
        spl = self._spl
        if not spl._lo <= x <= spl._hi:
            # SciPy's spalde raises TypeError here
            raise TypeError(f"Invalid input data. t(k)<=x<=t(n-k+1) must "
                            f"hold (x = {x}, [{spl._lo}, {spl._hi}]).")
        pts = _e.asarray([x], dtype=_e.float64, device=spl.c.device)
        return _e.concatenate([spl(pts, nu=j) for j in range(spl.k + 1)])

    def roots(self):
        """The zeros of a cubic spline (FITPACK's sproot), ascending."""
        if self._spl.k != 3:
            raise NotImplementedError("finding roots unsupported for "
                                      "non-cubic splines")
        from ember.scipy.interpolate_sproot import sproot
        return sproot(self._spl)

    def derivative(self, n=1):
        spl = self._spl.derivative(n)
        ext = 1 if self.ext == 3 else self.ext
        return UnivariateSpline._from_tck(spl, ext=ext)

    def antiderivative(self, n=1):
        return UnivariateSpline._from_tck(self._spl.antiderivative(n),
                                          self.ext)


class InterpolatedUnivariateSpline(UnivariateSpline):
    """SciPy's InterpolatedUnivariateSpline: the degree-k spline through
    the points on FITPACK's knots for s = 0 (the inner samples for odd
    k, midpoints for even k)."""

    def __init__(self, x, y, w=None, bbox=[None] * 2, k=3, ext=0,
                 check_finite=False):
        k = operator.index(k)
        x, y, w, hx, xb, xe, self.ext = _validate(x, y, w, bbox, k, None,
                                                  ext, check_finite)
        if not np.all(np.diff(hx) > 0.0):
            raise ValueError("x must be strictly increasing")
        self._curfit = _cf.Curfit(x, y, w, hx, xb, xe, k)
        spl, fp, _ = self._curfit.run(0.0)
        self._set(spl, fp)


class LSQUnivariateSpline(UnivariateSpline):
    """SciPy's LSQUnivariateSpline: the weighted least-squares spline on
    the interior knots t (the ends from bbox)."""

    def __init__(self, x, y, t, w=None, bbox=[None] * 2, k=3, ext=0,
                 check_finite=False):
        k = operator.index(k)
        x, y, w, hx, xb, xe, self.ext = _validate(x, y, w, bbox, k, None,
                                                  ext, check_finite)
        if not np.all(np.diff(hx) >= 0.0):
            raise ValueError("x must be increasing")
        tin = _e.asnumpy(_arr(t, x.device)).astype(float).reshape(-1)
        ht = _cf.knots(xb, xe, tin, k)
        n = ht.size
        if not np.all(ht[k + 1:n - k] - ht[k:n - k - 1] > 0):
            raise ValueError("Interior knots t must satisfy "
                             "Schoenberg-Whitney conditions")
        if not (xb <= hx[0] and hx[-1] <= xe and
                schoenberg_whitney(hx, ht, k)):
            raise ValueError(_FPCHEC)
        fit = _cf.Fit(x, y, w, ht, k)
        self._set(fit.spl, fit.fp)
        self._curfit = None
