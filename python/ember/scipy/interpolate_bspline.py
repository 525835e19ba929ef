"""ember.scipy.interpolate's B-splines, SciPy's: BSpline (evaluation,
derivative, antiderivative, integrate, basis_element, design_matrix) and
make_interp_spline.

Evaluation finds every point's knot interval with one searchsorted, forms
the k+1 non-zero basis values there by the Cox-de Boor recursion (O(k^2)
elementwise operations over all points at once, gathering the knots they
need) and sums them against the k+1 gathered coefficients. The
interpolating cubic (SciPy's default knots) is CubicSpline's, whose
slopes are a tridiagonal solve on the device, turned into B-spline
coefficients by blossoming each piece at the knots; other degrees solve
the collocation matrix (the basis values scattered into a dense n-by-n
matrix on the device) with ember.linalg.solve."""
import operator

import numpy as np

import ember as _e
from ember._api._util import as_array as _arr
from ember.scipy.interpolate_ppoly import _device

__all__ = ["BSpline", "make_interp_spline"]


def _basis(t, k, xf, ell):
    """The k+1 non-zero B-splines of degree k on the intervals ell at the
    points xf: a list of (N,) arrays, B_{ell-k+j} for j = 0..k."""
    h = [_e.ones(xf.shape, dtype=_e.float64, device=xf.device)]
    for j in range(1, k + 1):
        hh = h
        h = [None] * (j + 1)
        h[0] = _e.zeros(xf.shape, dtype=_e.float64, device=xf.device)
        for n in range(1, j + 1):
            xb = _e.take(t, ell + n, mode="clip")
            xa = _e.take(t, ell + n - j, mode="clip")
            den = xb - xa
            w = _e.where(den == 0, 0.0, hh[n - 1] / _e.where(den == 0, 1.0,
                                                            den))
            h[n - 1] = h[n - 1] + w * (xb - xf)
            h[n] = w * (xf - xa)
    return h


def _intervals(t, k, n, xf):
    ell = _e.searchsorted(t, xf, side="right") - 1
    return _e.clip(ell, k, n - 1)


class BSpline:
    """SciPy's BSpline: sum_i c[i] B_{i,k,t}(x); c's axis 0 (after axis is
    moved there) runs over the n = len(t) - k - 1 coefficients. Results are
    float64 (complex128 for complex c)."""

    def __init__(self, t, c, k, extrapolate=True, axis=0):
        dev = _device(t, c)
        c = _arr(c, dev)
        t = _arr(t, c.device).astype(_e.float64)
        k = operator.index(k)
        if extrapolate != "periodic":
            extrapolate = bool(extrapolate)
        if c.ndim == 0:
            raise ValueError(f"Coefficients must be at least 1-dimensional "
                             f"(got shape {c.shape}).")
        axis = operator.index(axis)
        if not -c.ndim <= axis < c.ndim:
            raise ValueError(f"axis {axis} is out of bounds for array of "
                             f"dimension {c.ndim}")
        axis %= c.ndim
        c = _e.moveaxis(c, axis, 0)
        if k < 0:
            raise ValueError("Spline order cannot be negative.")
        if t.ndim != 1:
            raise ValueError("Knot vector must be one-dimensional.")
        n = t.shape[0] - k - 1
        if n < k + 1:
            raise ValueError(f"Need at least {2 * k + 2} knots for degree "
                             f"{k}")
        ht = _e.asnumpy(t)
        if (np.diff(ht) < 0).any():
            raise ValueError("Knots must be in a non-decreasing order.")
        if len(np.unique(ht[k:n + 1])) < 2:
            raise ValueError("Need at least two internal knots.")
        if not np.isfinite(ht).all():
            raise ValueError("Knots should not have nans or infs.")
        if c.shape[0] < n:
            raise ValueError("Knots, coefficients and degree are "
                             f"inconsistent (len(t)={t.shape[0]}, "
                             f"len(c)={c.shape[0]}, k={k}).")
        self._set(t, c, k, extrapolate, axis)

    def _set(self, t, c, k, extrapolate, axis):
        self.t = _e.ascontiguousarray(t)
        dt = _e.complex128 if c.dtype.kind == "c" else _e.float64
        self.c = _e.ascontiguousarray(c.astype(dt))
        self.k = k
        self.extrapolate = extrapolate
        self.axis = axis
        ht = _e.asnumpy(t)
        self._lo, self._hi = float(ht[k]), float(ht[t.shape[0] - k - 1])

    @classmethod
    def construct_fast(cls, t, c, k, extrapolate=True, axis=0):
        self = object.__new__(cls)
        BSpline._set(self, t, c, k, extrapolate, axis)
        return self

    @property
    def tck(self):
        return self.t, self.c, self.k

    def __call__(self, x, nu=0, extrapolate=None):
        if extrapolate is None:
            extrapolate = self.extrapolate
        x = _arr(x, self.c.device)
        xshape = x.shape
        xf = x.reshape(-1).astype(_e.float64)
        if extrapolate == "periodic":
            xf = self._lo + _e.remainder(xf - self._lo, self._hi - self._lo)
            extrapolate = False
        sp = self if nu == 0 else self.derivative(nu)
        y = sp._values(xf)
        out = _e.isnan(xf)
        if not extrapolate:
            out = out | (xf < self._lo) | (xf > self._hi)
        y = _e.where(out[:, None], _e.asarray(np.nan, dtype=y.dtype,
                                              device=y.device), y)
        y = y.reshape(xshape + self.c.shape[1:])
        if self.axis != 0:
            order = list(range(y.ndim))
            xn = len(xshape)
            order = order[xn:xn + self.axis] + order[:xn] + \
                order[xn + self.axis:]
            y = _e.transpose(y, order)
        return y

    def _values(self, xf):
        """(N, R): the spline at the flat points, extrapolating."""
        k, t = self.k, self.t
        n = t.shape[0] - k - 1
        c = self.c.reshape((self.c.shape[0], -1))
        ell = _intervals(t, k, n, xf)
        h = _basis(t, k, xf, ell)
        y = None
        for j in range(k + 1):
            term = h[j][:, None] * _e.take(c, ell - k + j, axis=0,
                                           mode="clip")
            y = term if y is None else y + term
        return y

    def derivative(self, nu=1):
        if nu < 0:
            return self.antiderivative(-nu)
        t, c, k = self.t, self.c, self.k
        n = t.shape[0] - k - 1
        c = c[:n]
        for _ in range(nu):
            if k == 0:
                raise ValueError(f"Order of derivative (n = {nu}) must be "
                                 f"<= order of spline (k = {self.k})")
            dt = (t[k + 1:n + k] - t[1:n]).reshape(
                (-1,) + (1,) * (c.ndim - 1))
            dtz = _e.where(dt == 0, 1.0, dt)
            c = _e.where(dt == 0, 0.0, k * (c[1:] - c[:-1]) / dtz)
            t = t[1:-1]
            k -= 1
            n -= 1
        return BSpline.construct_fast(t, c, k, self.extrapolate, self.axis)

    def antiderivative(self, nu=1):
        if nu <= 0:
            return self.derivative(-nu)
        t, c, k = self.t, self.c, self.k
        n = t.shape[0] - k - 1
        c = c[:n]
        for _ in range(nu):
            dt = (t[k + 1:n + k + 1] - t[:n]).reshape(
                (-1,) + (1,) * (c.ndim - 1))
            cs = _e.cumsum(c * dt, axis=0) / (k + 1)
            zero = _e.zeros((1,) + c.shape[1:], dtype=c.dtype,
                            device=c.device)
            c = _e.concatenate((zero, cs))
            t = _e.concatenate((t[:1], t, t[-1:]))
            k += 1
            n += 1
        ext = False if self.extrapolate == "periodic" else self.extrapolate
        return BSpline.construct_fast(t, c, k, ext, self.axis)

    def integrate(self, a, b, extrapolate=None):
        """The integral over [a, b] (the interval clipped to the base
        interval [t[k], t[n]] unless extrapolating)."""
        if extrapolate is None:
            extrapolate = self.extrapolate
        if extrapolate == "periodic":
            raise NotImplementedError("ember's BSpline.integrate has no "
                                      "periodic extrapolation")
        a, b = float(a), float(b)
        sign = 1.0
        if b < a:
            a, b, sign = b, a, -1.0
        if not extrapolate:
            a = min(max(a, self._lo), self._hi)
            b = min(max(b, self._lo), self._hi)
        ad = self.antiderivative()
        pts = _e.asarray([a, b], dtype=_e.float64, device=self.c.device)
        v = ad._values(pts)
        return ((v[1] - v[0]) * sign).reshape(self.c.shape[1:])

    @classmethod
    def basis_element(cls, t, extrapolate=True):
        """The single B-spline on the knots t (k = len(t) - 2)."""
        t = _arr(t, _device(t)).astype(_e.float64)
        k = t.shape[0] - 2
        # Padded with k knots at each end, its one free coefficient is 1.
        t = _e.concatenate((_e.full((k,), t[0] - 1, device=t.device)
                            .astype(_e.float64), t,
                            _e.full((k,), t[-1] + 1, device=t.device)
                            .astype(_e.float64)))
        c = _e.zeros((t.shape[0] - k - 1,), dtype=_e.float64,
                     device=t.device)
        c[k] = 1.0
        return cls.construct_fast(t, c, k, extrapolate)

    @classmethod
    def design_matrix(cls, x, t, k, extrapolate=False):
        """The dense (len(x), n) matrix of B_{j,k,t}(x_i) (SciPy returns a
        CSR sparse matrix; this is its toarray())."""
        dev = _device(x, t)
        x = _arr(x, dev).astype(_e.float64)
        t = _arr(t, x.device).astype(_e.float64)
        k = operator.index(k)
        n = t.shape[0] - k - 1
        if n < k + 1:
            raise ValueError(f"Length t is not enough for k={k}.")
        ht = _e.asnumpy(t)
        if not extrapolate:
            hx = _e.asnumpy(x)
            if hx.size and (hx.min() < ht[k] or hx.max() > ht[n]):
                raise ValueError(f"Out of bounds: x = "
                                 f"{hx[(hx < ht[k]) | (hx > ht[n])][0]}")
        return _collocation(t, k, x.reshape(-1), n)


def _collocation(t, k, xf, n):
    ell = _intervals(t, k, n, xf)
    h = _basis(t, k, xf, ell)
    cols = _e.arange(n, device=xf.device)[None, :]
    a = None
    for j in range(k + 1):
        term = _e.where(cols == (ell - k + j)[:, None], h[j][:, None], 0.0)
        a = term if a is None else a + term
    return a


def _cubic_coefficients(x, y, t, bc_type, n):
    """The B-spline coefficients (n, ...) on the knots t of the cubic
    spline through (x, y): c_j is the blossom of the piece over t[j+1..j+3]
    at those three knots (de Boor-Fix), for every j at once."""
    from ember.scipy.interpolate_cubic import CubicSpline
    pp = CubicSpline(x, y, bc_type=bc_type or "not-a-knot")
    u = _e.stack((t[1:n + 1], t[2:n + 2], t[3:n + 3]))
    mid = 0.5 * (u[0] + u[2])
    m = pp.c.shape[1]
    i = _e.clip(_e.searchsorted(pp.x, mid, side="right") - 1, 0, m - 1)
    v = u - _e.take(pp.x, i, mode="clip")[None, :]
    e1 = v[0] + v[1] + v[2]
    e2 = v[0] * v[1] + v[0] * v[2] + v[1] * v[2]
    e3 = v[0] * v[1] * v[2]
    cg = _e.take(pp.c, i, axis=1, mode="clip")
    shape = (n,) + (1,) * (cg.ndim - 2)
    return (cg[0] * e3.reshape(shape) + cg[1] * (e2 / 3).reshape(shape) +
            cg[2] * (e1 / 3).reshape(shape) + cg[3])


def _cubic_bc(bc_type):
    """make_interp_spline's end conditions for k=3 as CubicSpline's
    bc_type, or None where they have no such counterpart."""
    if bc_type in ("natural", "clamped"):
        return bc_type
    try:
        sides = list(bc_type)
    except TypeError:
        return None
    if len(sides) != 2:
        return None
    out = []
    for side in sides:
        if isinstance(side, str):
            if side not in ("natural", "clamped"):
                return None
            out.append(side)
            continue
        side = list(side)
        if len(side) != 1 or len(side[0]) != 2:
            return None
        out.append(tuple(side[0]))
    return tuple(out)


def _not_a_knot(hx, k):
    if k % 2 != 1:
        raise ValueError(f"Odd degree for now only. Got {k}.")
    m = (k - 1) // 2
    inner = hx[m + 1:-m - 1]
    return np.r_[(hx[0],) * (k + 1), inner, (hx[-1],) * (k + 1)]


def make_interp_spline(x, y, k=3, t=None, bc_type=None, axis=0,
                       check_finite=True):
    """SciPy's make_interp_spline for bc_type None / 'not-a-knot' (odd k,
    k = 0, 1, and 2 with knots at the midpoints; t may be given) and, for
    k = 3, end derivatives ('natural', 'clamped', or [(order, value)] at
    each end)."""
    dev = _device(x, y, t)
    x = _arr(x, dev)
    y = _arr(y, x.device)
    if y.ndim == 0:
        raise ValueError("y must be at least 1-dimensional "
                         f"(got shape {y.shape})")
    k = operator.index(k)
    axis = axis % y.ndim
    y = _e.moveaxis(y, axis, 0)
    dt = _e.complex128 if y.dtype.kind == "c" else _e.float64
    y = y.astype(dt)
    x = x.astype(_e.float64)
    hx = _e.asnumpy(x)
    if x.ndim != 1 or (np.diff(hx) <= 0).any():
        raise ValueError("Expect x to be a 1D strictly increasing sequence.")
    if x.shape[0] != y.shape[0]:
        raise ValueError(f"Shapes of x {x.shape} and y {y.shape} are "
                         "incompatible")
    if check_finite and not (np.isfinite(hx).all() and
                             bool(_e.asnumpy(_e.all(_e.isfinite(y))))):
        raise ValueError("array must not contain infs or NaNs")
    if bc_type == "not-a-knot":
        bc_type = None
    if k == 0:
        if t is not None or bc_type is not None:
            raise ValueError("Too much info for k=0: t and bc_type can "
                             "only be None.")
        ht = np.r_[hx, hx[-1]]
        return BSpline.construct_fast(_e.asarray(ht, device=x.device), y,
                                      k, axis=axis)
    if k == 1 and t is None:
        if bc_type is not None:
            raise ValueError("Too much info for k=1: bc_type can only be "
                             "None.")
        ht = np.r_[hx[0], hx, hx[-1]]
        return BSpline.construct_fast(_e.asarray(ht, device=x.device), y,
                                      k, axis=axis)
    if bc_type is not None:
        cubic_bc = _cubic_bc(bc_type) if k == 3 and t is None else None
        if cubic_bc is None:
            raise NotImplementedError(
                "ember's make_interp_spline takes bc_type only for k=3 "
                "without t: 'natural', 'clamped', or a pair of those or of "
                f"one-element [(order, value)] lists (got {bc_type!r}, "
                f"k={k})")
        # The cubic with end derivatives lives on the knots at every
        # inner sample: it is CubicSpline's function.
        ht = np.r_[(hx[0],) * 4, hx[1:-1], (hx[-1],) * 4]
        tt = _e.asarray(ht, device=x.device)
        c = _cubic_coefficients(x, y, tt, cubic_bc, ht.size - 4)
        return BSpline.construct_fast(tt, c, k, axis=axis)
    if t is None:
        if k == 2:
            mid = (hx[1:] + hx[:-1]) / 2.0
            ht = np.r_[(hx[0],) * 3, mid[1:-1], (hx[-1],) * 3]
        else:
            ht = _not_a_knot(hx, k)
    else:
        ht = _e.asnumpy(_arr(t, x.device)).astype(float)
    if x.shape[0] != ht.size - k - 1:
        raise ValueError(f"Number of knots and data points do not match "
                         f"(len(t) = {ht.size}, n = {x.shape[0]}, k = {k})")
    if hx.size < k + 1:
        raise ValueError(f"Need at least {k + 1} points for degree {k}")
    tt = _e.asarray(ht, device=x.device)
    n = ht.size - k - 1
    if k == 3 and t is None and x.shape[0] >= 4:
        c = _cubic_coefficients(x, y, tt, None, n)
        return BSpline.construct_fast(tt, c, k, axis=axis)
    a = _collocation(tt, k, x, n)
    rhs = y.reshape((y.shape[0], -1))
    if rhs.dtype.kind == "c":
        c = _e.linalg.solve(a.astype(rhs.dtype), rhs)
    else:
        c = _e.linalg.solve(a, rhs)
    c = c.reshape((n,) + y.shape[1:])
    return BSpline.construct_fast(tt, c, k, axis=axis)
