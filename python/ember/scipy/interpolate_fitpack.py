"""ember.scipy.interpolate's FITPACK-style functions for the interpolating
case: splrep with s=0 (FITPACK's knots: the interior samples for odd k,
midpoints for even k), splev with its four ext modes, splint, splder and
splantider. Each is BSpline's work on the device; tck's c is padded with
k+1 zeros to len(t), as FITPACK returns it."""
import numpy as np

import ember as _e
from ember._api._util import as_array as _arr
from ember.scipy.interpolate_bspline import BSpline, make_interp_spline
from ember.scipy.interpolate_ppoly import _device

__all__ = ["splrep", "splev", "splint", "splder", "splantider"]


def splrep(x, y, w=None, xb=None, xe=None, k=3, task=0, s=None, t=None,
           full_output=0, per=0, quiet=1):
    if w is not None or (s is not None and s != 0) or task != 0 or per:
        raise NotImplementedError("ember's splrep makes the interpolating "
                                  "spline only (s=0, no weights, task=0, "
                                  "per=0)")
    if xb is not None or xe is not None or full_output:
        raise NotImplementedError("ember's splrep takes no xb, xe or "
                                  "full_output")
    dev = _device(x, y, t)
    x = _arr(x, dev)
    y = _arr(y, x.device)
    if y.ndim != 1 or x.ndim != 1:
        raise ValueError(f"x and y must be 1-D (x {x.shape}, y {y.shape})")
    m = x.shape[0]
    if not 1 <= k <= 5:
        raise TypeError("1 <= k= %d <=5 must hold" % k)
    if m <= k:
        raise TypeError("m > k must hold")
    if y.shape[0] != m:
        raise TypeError("Lengths of the first three arguments (x,y,w) must "
                        f"be equal (x {m}, y {y.shape[0]})")
    if t is None:
        hx = _e.asnumpy(x).astype(float)
        if k % 2:
            inner = hx[k // 2 + 1:m - k // 2 - 1]
        else:
            j = np.arange(k // 2 + 1, k // 2 + 1 + m - k - 1)
            inner = (hx[j] + hx[j - 1]) * 0.5
        t = np.r_[(hx[0],) * (k + 1), inner, (hx[-1],) * (k + 1)]
    spl = make_interp_spline(x, y, k=k, t=_e.asarray(t, device=x.device))
    c = _e.concatenate((spl.c, _e.zeros((k + 1,), dtype=spl.c.dtype,
                                        device=x.device)))
    return spl.t, c, k


def _spline(tck):
    if isinstance(tck, BSpline):
        return tck
    t, c, k = tck
    t = _arr(t, _device(t, c))
    c = _arr(c, t.device)
    n = t.shape[0] - k - 1
    return BSpline.construct_fast(t.astype(_e.float64),
                                  c[:n].astype(_e.float64), int(k))


def splev(x, tck, der=0, ext=0):
    spl = _spline(tck)
    if ext not in (0, 1, 2, 3):
        raise ValueError(f"ext = {ext} not in (0, 1, 2, 3) ")
    x = _arr(x, spl.c.device)
    xf = x.astype(_e.float64)
    y = spl(xf, nu=der, extrapolate=True)
    # FITPACK's splder extrapolates derivatives under ext=3 (SciPy's
    # splev(..., der>0, ext=3) is ext=0's answer).
    if ext == 0 or (ext == 3 and der != 0):
        return y
    out = (xf < spl._lo) | (xf > spl._hi)
    if ext == 2:
        if bool(_e.asnumpy(_e.any(out))):
            raise ValueError("Found x value not in the domain")
        return y
    if ext == 1:
        return _e.where(out, 0.0, y)
    ends = spl(_e.asarray([spl._lo, spl._hi], device=xf.device), nu=der)
    y = _e.where(xf < spl._lo, ends[0], y)
    return _e.where(xf > spl._hi, ends[1], y)


def splint(a, b, tck, full_output=0):
    return _spline(tck).integrate(a, b, extrapolate=False)


def _tck(spl, like):
    if isinstance(like, BSpline):
        return spl
    k = spl.k
    c = _e.concatenate((spl.c, _e.zeros((k + 1,), dtype=spl.c.dtype,
                                        device=spl.c.device)))
    return spl.t, c, k


def splder(tck, n=1):
    return _tck(_spline(tck).derivative(n), tck)


def splantider(tck, n=1):
    return _tck(_spline(tck).antiderivative(n), tck)
