"""ember.scipy.interpolate's scattered and tensor-product interpolants,
SciPy's NdBSpline (evaluation, derivatives) and NearestNDInterpolator.

NdBSpline evaluates sum over the (k_1+1)...(k_d+1) non-zero products of
one-dimensional B-splines at every point at once: per dimension one
searchsorted and interpolate_bspline's Cox-de Boor recursion, then, for
each combination of the per-dimension offsets (a Python loop over the
degree, never over points), one gather of the coefficients times the
product of basis values.

NearestNDInterpolator finds each query's nearest data point by brute
force on the device (the distances of a block of queries to every
point, then argmin), where SciPy walks a KD-tree: O(N M) work, no tree
to build. Where two points are equally near, the first is taken."""
import itertools
import math
import operator

import numpy as np

import ember as _e
from ember._api._util import as_array as _arr
from ember.scipy.interpolate_bspline import BSpline, _basis, _intervals
from ember.scipy.interpolate_ppoly import _device

__all__ = ["NdBSpline", "NearestNDInterpolator"]

_BLOCK = 1 << 22   # distance-matrix elements per block


def _check_knots(t, k):
    if not isinstance(t, tuple):
        raise ValueError(f"Expect `t` to be a tuple of array-likes. Got {t} "
                         "instead.")
    ndim = len(t)
    try:
        len(k)
    except TypeError:
        k = (k,) * ndim
    k = tuple(operator.index(kd) for kd in k)
    if len(k) != ndim:
        raise ValueError(f"len(t) = {ndim} != len(k) = {len(k)}.")
    for d in range(ndim):
        td = _e.asnumpy(t[d]) if isinstance(t[d], _e.ndarray) else \
            np.asarray(t[d])
        kd = k[d]
        n = td.shape[0] - kd - 1 if td.ndim else -1
        if kd < 0:
            raise ValueError(f"Spline degree in dimension {d} cannot be "
                             "negative.")
        if td.ndim != 1:
            raise ValueError(f"Knot vector in dimension {d} must be "
                             "one-dimensional.")
        if n < kd + 1:
            raise ValueError(f"Need at least {2 * kd + 2} knots for degree "
                             f"{kd} in dimension {d}.")
        if (np.diff(td) < 0).any():
            raise ValueError(f"Knots in dimension {d} must be in a "
                             "non-decreasing order.")
        if len(np.unique(td[kd:n + 1])) < 2:
            raise ValueError(f"Need at least two internal knots in "
                             f"dimension {d}.")
        if not np.isfinite(td).all():
            raise ValueError(f"Knots in dimension {d} should not have nans "
                             "or infs.")
    return k


class NdBSpline:
    """SciPy's NdBSpline: sum c[i_1, ..., i_d] B_{i_1}(x_1) ... B_{i_d}(x_d)
    with knots t (a tuple of d vectors) and degrees k (an int or d ints);
    c's trailing axes are separate splines. Results are float64
    (complex128 for complex c)."""

    def __init__(self, t, c, k, *, extrapolate=None):
        k = _check_knots(t, k)
        dev = _device(c, *t)
        c = _arr(c, dev)
        self._t = tuple(_arr(td, c.device).astype(_e.float64) for td in t)
        self._k = k
        self.extrapolate = True if extrapolate is None else bool(extrapolate)
        ndim = len(t)
        if c.ndim < ndim:
            raise ValueError(f"Coefficients must be at least {ndim}-"
                             "dimensional.")
        for d in range(ndim):
            n = self._t[d].shape[0] - k[d] - 1
            if c.shape[d] != n:
                raise ValueError(f"Knots, coefficients and degree in "
                                 f"dimension {d} are inconsistent: got "
                                 f"{c.shape[d]} coefficients for "
                                 f"{self._t[d].shape[0]} knots, need at "
                                 f"least {n} for k={k[d]}.")
        dt = _e.complex128 if c.dtype.kind == "c" else _e.float64
        self._c = _e.ascontiguousarray(c.astype(dt))
        ht = [_e.asnumpy(td) for td in self._t]
        self._lo = [float(h[kd]) for h, kd in zip(ht, k)]
        self._hi = [float(h[h.size - kd - 1]) for h, kd in zip(ht, k)]

    @property
    def k(self):
        return self._k

    @property
    def t(self):
        return self._t

    @property
    def c(self):
        return self._c

    def _nu(self, nu, what):
        ndim = len(self._t)
        if nu is None:
            return (0,) * ndim
        nu = np.asarray(nu, dtype=np.int64)
        if nu.ndim != 1 or nu.shape[0] != ndim:
            raise ValueError(f"invalid number of derivative orders nu = "
                             f"{nu.tolist()} for ndim = {ndim}.")
        if (nu < 0).any():
            raise ValueError(f"{what} must be positive, got nu = "
                             f"{nu.tolist()}")
        return tuple(int(v) for v in nu)

    def derivative(self, nu):
        """The NdBSpline of the partial derivative of orders nu."""
        nu = self._nu(nu, "derivative orders")
        t, c, k = list(self._t), self._c, list(self._k)
        for d, n in enumerate(nu):
            if n == 0:
                continue
            cm = _e.moveaxis(c, d, 0)
            if n > k[d]:
                # SciPy's zero spline of degree 0 on the knots
                cm = _e.zeros((t[d].shape[0] - 1,) + cm.shape[1:],
                              dtype=c.dtype, device=c.device)
                k[d] = 0
            else:
                db = BSpline.construct_fast(t[d], cm, k[d]).derivative(n)
                t[d], cm, k[d] = db.t, db.c, db.k
                cm = cm[:t[d].shape[0] - k[d] - 1]
            c = _e.moveaxis(cm, 0, d)
        return NdBSpline(tuple(t), c, tuple(k),
                         extrapolate=self.extrapolate)

    def __call__(self, xi, *, nu=None, extrapolate=None):
        extrapolate = self.extrapolate if extrapolate is None else \
            bool(extrapolate)
        nu = self._nu(nu, "derivatives")
        if any(nu):
            return self.derivative(nu)(xi, extrapolate=extrapolate)
        ndim = len(self._t)
        xi = _arr(xi, self._c.device).astype(_e.float64)
        xshape = xi.shape
        if xi.ndim == 0 or xshape[-1] != ndim:
            raise ValueError(f"Shapes: xi.shape={xshape} and ndim={ndim}")
        xf = xi.reshape((-1, ndim))
        c = self._c.reshape(self._c.shape[:ndim] + (-1,))
        cflat = c.reshape((-1, c.shape[-1]))
        out = None
        for idx, w in _terms(self._t, self._k, xf):
            term = w[:, None] * _e.take(cflat, idx, axis=0, mode="clip")
            out = term if out is None else out + term
        bad = _e.any(_e.isnan(xf), axis=1)
        if not extrapolate:
            for d in range(ndim):
                bad = bad | (xf[:, d] < self._lo[d]) | \
                    (xf[:, d] > self._hi[d])
        nan = _e.asarray(np.nan, dtype=out.dtype, device=out.device)
        out = _e.where(bad[:, None], nan, out)
        return out.reshape(xshape[:-1] + self._c.shape[ndim:])

    @classmethod
    def design_matrix(cls, xvals, t, k, extrapolate=True):
        """The dense (npts, n_1 ... n_d) matrix of the tensor-product
        B-splines at the points xvals (npts, d), coefficients in C order.
        SciPy returns it as a CSR array (and, as SciPy 1.17's, values
        outside the knots are extrapolated whatever extrapolate says)."""
        dev = _device(xvals, *t) if isinstance(t, tuple) else \
            _device(xvals)
        xvals = _arr(xvals, dev).astype(_e.float64)
        ndim = xvals.shape[-1]
        if len(t) != ndim:
            raise ValueError(f"Data and knots are inconsistent: len(t) = "
                             f"{len(t)} for  ndim = {ndim}.")
        k = _check_knots(t, k)
        t = tuple(_arr(td, xvals.device).astype(_e.float64) for td in t)
        xf = xvals.reshape((-1, ndim))
        npts = xf.shape[0]
        ncoef = math.prod(td.shape[0] - kd - 1 for td, kd in zip(t, k))
        out = _e.zeros((npts, ncoef), dtype=_e.float64, device=xf.device)
        rows = _e.arange(npts, device=xf.device)
        # each combination of offsets is a different column of a row:
        # one scatter per combination, never two writes to one place
        for idx, w in _terms(t, k, xf):
            out[rows, idx] = w
        return out


def _terms(t, k, xf):
    """For each combination of the per-dimension offsets j_d in 0..k_d,
    (flat coefficient index, product of basis values) at the points xf
    (N, d): the non-zero terms of the tensor-product sum."""
    ndim = len(t)
    ns = [td.shape[0] - kd - 1 for td, kd in zip(t, k)]
    strides = [math.prod(ns[d + 1:]) for d in range(ndim)]
    ells, bases = [], []
    for d in range(ndim):
        x = xf[:, d]
        ell = _intervals(t[d], k[d], ns[d], x)
        ells.append(ell)
        bases.append(_basis(t[d], k[d], x, ell))
    for js in itertools.product(*[range(kd + 1) for kd in k]):
        idx = w = None
        for d, j in enumerate(js):
            i = (ells[d] - k[d] + j) * strides[d]
            idx = i if idx is None else idx + i
            w = bases[d][j] if w is None else w * bases[d][j]
        yield idx, w


def _coords(args, ndim, dev):
    """SciPy's _ndim_coords_from_arrays: one (..., ndim) array (a 1-D one
    is read as points of ndim coordinates) or ndim broadcastable
    coordinate arrays."""
    if len(args) == 1:
        xi = _arr(args[0], dev)
        if xi.ndim == 1:
            xi = xi.reshape((-1, ndim))
        return xi.astype(_e.float64)
    xs = [_arr(a, dev).astype(_e.float64) for a in args]
    xs = _e.broadcast_arrays(*xs)
    return _e.stack(xs, axis=-1)


class NearestNDInterpolator:
    """SciPy's NearestNDInterpolator: the value at each query of the
    nearest of the points x (n, ndim), ndim >= 2. rescale scales the
    points and queries to the unit cube first, as SciPy does. Call
    options: distance_upper_bound (queries with no point nearer give
    NaN) and p (1, 2 or inf: the Minkowski norm); eps and workers are
    accepted (an exact answer meets any eps)."""

    def __init__(self, x, y, rescale=False, tree_options=None):
        dev = _device(x, y)
        x = _arr(x, dev)
        y = _arr(y, x.device)
        if x.ndim == 1 or (x.ndim == 2 and x.shape[1] < 2):
            raise ValueError("input data must be at least 2-D")
        if x.ndim != 2:
            raise ValueError("invalid shape for input data points")
        if y.ndim == 0 or y.shape[0] != x.shape[0]:
            raise ValueError("different number of values and points")
        self.points = x.astype(_e.float64)
        self.values = y
        self._scale = None
        if rescale:
            off = _e.mean(self.points, axis=0)
            ptp = _e.max(self.points, axis=0) - _e.min(self.points, axis=0)
            scale = _e.where(ptp > 0, ptp, 1.0)
            self._scale = (off, scale)
            self.points = (self.points - off) / scale

    def _nearest(self, q, p, bound):
        """(N,) index of each query's nearest point and whether one lies
        within the bound."""
        pts = self.points
        n, ndim = pts.shape
        blk = max(1, _BLOCK // max(n, 1))
        idx, ok = [], []
        for s in range(0, q.shape[0], blk):
            qb = q[s:s + blk]
            d = None
            for j in range(ndim):
                diff = _e.abs(qb[:, j:j + 1] - pts[None, :, j])
                if p == np.inf:
                    d = diff if d is None else _e.maximum(d, diff)
                else:
                    term = diff * diff if p == 2 else diff ** p
                    d = term if d is None else d + term
            i = _e.argmin(d, axis=1)
            idx.append(i)
            if bound != np.inf:
                best = _e.min(d, axis=1)
                lim = bound if p == np.inf else bound ** p
                ok.append(best < lim)
        cat = _e.concatenate if len(idx) > 1 else (lambda a: a[0])
        return cat(idx), (cat(ok) if ok else None)

    def __call__(self, *args, **query_options):
        p = float(query_options.pop("p", 2))
        bound = float(query_options.pop("distance_upper_bound", np.inf))
        query_options.pop("eps", None)
        query_options.pop("workers", None)
        if query_options:
            raise TypeError(f"unexpected query options "
                            f"{sorted(query_options)}")
        if p not in (1.0, 2.0, np.inf) and not p >= 1:
            raise ValueError("Only p-norms with 1<=p<=infinity permitted")
        ndim = self.points.shape[1]
        xi = _coords(args, ndim, self.points.device)
        if xi.shape[-1] != ndim:
            raise ValueError("number of dimensions in xi does not match x")
        if self._scale is not None:
            xi = (xi - self._scale[0]) / self._scale[1]
        shape = xi.shape[:-1]
        q = xi.reshape((-1, ndim))
        dt = self.values.dtype if self.values.dtype.kind == "c" else \
            _e.float64
        vals = self.values.astype(dt)
        if q.shape[0] == 0:
            return _e.zeros(shape + vals.shape[1:], dtype=dt,
                            device=vals.device)
        i, ok = self._nearest(q, p, bound)
        out = _e.take(vals, i, axis=0)
        if ok is not None:
            mask = ok.reshape((-1,) + (1,) * (out.ndim - 1))
            nan = _e.asarray(np.nan, dtype=dt, device=out.device)
            out = _e.where(mask, out, nan)
        return out.reshape(shape + vals.shape[1:])
