"""ember.scipy.interpolate's gridded interpolation, SciPy's
RegularGridInterpolator and interpn for methods 'linear', 'nearest',
'slinear', 'cubic' and 'quintic': per dimension one searchsorted and the
normalised distance inside the cell, then the 2**ndim corner values
gathered from the flattened values and weighted (linear) or the one
nearest corner gathered (nearest), over all points at once. The spline
methods are the tensor-product not-a-knot spline (the function SciPy's
successive 1-D splines give): its coefficients are the values solved
against each axis's collocation matrix in turn, and evaluation gathers
the (k+1)**ndim coefficients around each point, weighted by the products
of each axis's k+1 B-spline values."""
import itertools
import math

import numpy as np

import ember as _e
from ember._api._util import as_array as _arr
from ember.scipy.interpolate_bspline import (_basis, _collocation,
                                             _intervals, _not_a_knot)
from ember.scipy.interpolate_ppoly import _device

__all__ = ["RegularGridInterpolator", "interpn"]

_SPLINE_K = {"slinear": 1, "cubic": 3, "quintic": 5}
_METHODS = ("linear", "nearest") + tuple(_SPLINE_K)


class RegularGridInterpolator:
    def __init__(self, points, values, method="linear", bounds_error=True,
                 fill_value=np.nan, *, solver=None, solver_args=None):
        if method not in _METHODS:
            if method == "pchip":
                raise NotImplementedError(
                    f"ember's RegularGridInterpolator has methods "
                    f"{_METHODS}; not SciPy's 'pchip'")
            raise ValueError(f"Method '{method}' is not defined")
        if method not in _SPLINE_K and (solver is not None or solver_args):
            raise ValueError(f"method = {method!r} does not accept the "
                             f"'solver' argument. Got solver = {solver} and "
                             f"with arguments {solver_args}.")
        # The spline methods solve directly on the device; SciPy's
        # iterative solver (and its tolerance) has no counterpart here.
        self.method = method
        self.bounds_error = bounds_error
        dev = _device(values, *points)
        values = _arr(values, dev)
        if values.dtype.kind not in "fc":
            values = values.astype(_e.float64)
        if len(points) > values.ndim:
            raise ValueError(f"There are {len(points)} point arrays, but "
                             f"values has {values.ndim} dimensions")
        grid, flips = [], []
        for i, p in enumerate(points):
            hp = np.asarray(_e.asnumpy(p) if isinstance(p, _e.ndarray)
                            else p, dtype=float)
            if hp.ndim != 1:
                raise ValueError(f"The points in dimension {i} must be "
                                 "1-dimensional")
            d = np.diff(hp)
            if not (d > 0).all():
                if (d < 0).all():
                    hp = hp[::-1].copy()
                    flips.append(i)
                else:
                    raise ValueError(f"The points in dimension {i} must be "
                                     "strictly ascending or descending")
            if values.shape[i] != hp.size:
                raise ValueError(f"There are {hp.size} points and "
                                 f"{values.shape[i]} values in dimension "
                                 f"{i}")
            grid.append(hp)
        if flips:
            values = _e.flip(values, axis=tuple(flips))
        self.grid = tuple(grid)
        self._g = [_e.asarray(g, device=values.device) for g in grid]
        self.values = values
        if fill_value is not None:
            fv = np.asarray(fill_value)
            if values.dtype.kind != "c" and fv.dtype.kind == "c":
                raise ValueError("fill_value must be either 'None' or of a "
                                 "type compatible with values")
        self.fill_value = fill_value
        self._coeffs = {}
        self._check_points(method)

    def _check_points(self, method):
        k = _SPLINE_K.get(method)
        if k is None:
            return
        for i, g in enumerate(self.grid):
            if g.size < k + 1:
                raise ValueError(f"There are {g.size} points in dimension "
                                 f"{i}, but method {method} requires at "
                                 f"least {k + 1} points per dimension.")

    def _spline(self, k):
        """Knots per axis and the coefficient tensor of degree k."""
        if k in self._coeffs:
            return self._coeffs[k]
        coef = self.values.astype(_e.complex128 if self.values.dtype.kind
                                  == "c" else _e.float64)
        knots = []
        for d, g in enumerate(self.grid):
            ht = np.r_[g[0], g, g[-1]] if k == 1 else _not_a_knot(g, k)
            t = _e.asarray(ht, device=coef.device)
            knots.append(t)
            if k == 1:
                continue  # the hat functions' coefficients are the values
            a = _collocation(t, k, self._g[d], g.size)
            moved = _e.moveaxis(coef, d, 0)
            rest = moved.shape[1:]
            sol = _e.linalg.solve(a.astype(coef.dtype),
                                  moved.reshape((g.size, -1)))
            coef = _e.moveaxis(sol.reshape((g.size,) + rest), 0, d)
        self._coeffs[k] = (knots, coef)
        return self._coeffs[k]

    def __call__(self, xi, method=None, *, nu=None):
        if nu is not None:
            raise NotImplementedError("ember's RegularGridInterpolator "
                                      "evaluates values only (nu=None)")
        method = self.method if method is None else method
        if method not in _METHODS:
            raise ValueError(f"Method '{method}' is not defined")
        self._check_points(method)
        nd = len(self.grid)
        xi = _arr(xi, self.values.device)
        if xi.ndim == 1 and nd > 1 and xi.shape[0] == nd:
            xi = xi.reshape(1, nd)
        elif xi.ndim == 1 and nd == 1:
            xi = xi.reshape(-1, 1)
        if xi.shape[-1] != nd:
            raise ValueError(f"The requested sample points xi have "
                             f"dimension {xi.shape[-1]} but this "
                             f"RegularGridInterpolator has dimension {nd}")
        shape = xi.shape[:-1]
        pts = xi.reshape(-1, nd).astype(_e.float64)
        if self.bounds_error:
            lo = _e.asarray([g[0] for g in self.grid], device=pts.device)
            hi = _e.asarray([g[-1] for g in self.grid], device=pts.device)
            bad = _e.asnumpy(_e.any((pts < lo) | (pts > hi), axis=0))
            for i in range(nd):
                if bad[i]:
                    raise ValueError("One of the requested xi is out of "
                                     f"bounds in dimension {i}")
        vals = self.values
        trail = vals.shape[nd:]
        flat = vals.reshape((-1,) + trail)
        strides = [math.prod(vals.shape[d + 1:nd]) for d in range(nd)]
        idx, dist, out = [], [], None
        for d in range(nd):
            g = self._g[d]
            x = pts[:, d]
            i = _e.clip(_e.searchsorted(g, x) - 1, 0, max(g.shape[0] - 2, 0))
            g0 = _e.take(g, i, mode="clip")
            g1 = _e.take(g, i + 1, mode="clip") if g.shape[0] > 1 else g0
            w = g1 - g0
            dist.append((x - g0) / _e.where(w == 0, 1.0, w))
            idx.append(i)
            o = (x < self.grid[d][0]) | (x > self.grid[d][-1])
            out = o if out is None else out | o
        bshape = (-1,) + (1,) * len(trail)
        if method == "nearest":
            lin = None
            for d in range(nd):
                i = _e.where(dist[d] <= 0.5, idx[d], idx[d] + 1)
                i = _e.clip(i, 0, self.grid[d].size - 1)
                lin = i * strides[d] if lin is None else lin + i * strides[d]
            res = _e.take(flat, lin, axis=0, mode="clip")
        elif method in _SPLINE_K:
            res = self._eval_spline(_SPLINE_K[method], pts, strides, trail)
        else:
            res = None
            for corner in itertools.product((0, 1), repeat=nd):
                lin, w = None, None
                for d, c in enumerate(corner):
                    i = _e.clip(idx[d] + c, 0, self.grid[d].size - 1)
                    lin = i * strides[d] if lin is None else \
                        lin + i * strides[d]
                    wd = dist[d] if c else 1 - dist[d]
                    w = wd if w is None else w * wd
                term = _e.take(flat, lin, axis=0, mode="clip") * \
                    w.reshape(bshape)
                res = term if res is None else res + term
        if not self.bounds_error and self.fill_value is not None:
            fv = _e.asarray(self.fill_value, dtype=res.dtype,
                            device=res.device)
            res = _e.where(out.reshape(bshape), fv, res)
        return res.reshape(shape + trail)

    def _eval_spline(self, k, pts, strides, trail):
        knots, coef = self._spline(k)
        flat = coef.reshape((-1,) + trail)
        ells, hs = [], []
        for d, t in enumerate(knots):
            x = pts[:, d]
            ell = _intervals(t, k, self.grid[d].size, x)
            ells.append(ell)
            hs.append(_basis(t, k, x, ell))
        bshape = (-1,) + (1,) * len(trail)
        res = None
        for combo in itertools.product(range(k + 1), repeat=len(knots)):
            lin, w = None, None
            for d, j in enumerate(combo):
                i = ells[d] - k + j
                lin = i * strides[d] if lin is None else lin + i * strides[d]
                w = hs[d][j] if w is None else w * hs[d][j]
            term = _e.take(flat, lin, axis=0, mode="clip") * w.reshape(bshape)
            res = term if res is None else res + term
        return res


def interpn(points, values, xi, method="linear", bounds_error=True,
            fill_value=np.nan):
    """SciPy's interpn: RegularGridInterpolator's values at xi."""
    if method not in _METHODS:
        if method in ("pchip", "splinef2d"):
            raise NotImplementedError(
                f"ember's interpn has methods {_METHODS}; not SciPy's "
                f"{method!r}")
        raise ValueError("interpn only understands the methods 'linear', "
                         "'nearest', 'slinear', 'cubic', 'quintic', "
                         f"'pchip', and 'splinef2d'. You provided {method}.")
    values = _arr(values, _device(values, xi))
    if len(points) > values.ndim:
        raise ValueError(f"There are {len(points)} point arrays, but values "
                         f"has {values.ndim} dimensions")
    rgi = RegularGridInterpolator(points, values, method=method,
                                  bounds_error=bounds_error,
                                  fill_value=fill_value)
    xi = _arr(xi, values.device)
    nd = len(points)
    if xi.shape[-1] != nd:
        raise ValueError(f"The requested sample points xi have dimension "
                         f"{xi.shape[-1]}, but this RegularGridInterpolator "
                         f"has dimension {nd}")
    return rgi(xi)
