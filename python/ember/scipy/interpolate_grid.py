"""ember.scipy.interpolate's gridded interpolation, SciPy's
RegularGridInterpolator and interpn for methods 'linear' and 'nearest':
per dimension one searchsorted and the normalised distance inside the
cell, then the 2**ndim corner values gathered from the flattened values
and weighted (linear) or the one nearest corner gathered (nearest), over
all points at once."""
import itertools
import math

import numpy as np

import ember as _e
from ember._api._util import as_array as _arr
from ember.scipy.interpolate_ppoly import _device

__all__ = ["RegularGridInterpolator", "interpn"]

_METHODS = ("linear", "nearest")


class RegularGridInterpolator:
    def __init__(self, points, values, method="linear", bounds_error=True,
                 fill_value=np.nan):
        if method not in _METHODS:
            if method in ("slinear", "cubic", "quintic", "pchip"):
                raise NotImplementedError(
                    f"ember's RegularGridInterpolator has methods "
                    f"{_METHODS}; {method!r} is SciPy's spline method")
            raise ValueError(f"Method '{method}' is not defined")
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

    def __call__(self, xi, method=None):
        method = self.method if method is None else method
        if method not in _METHODS:
            raise ValueError(f"Method '{method}' is not defined")
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


def interpn(points, values, xi, method="linear", bounds_error=True,
            fill_value=np.nan):
    """SciPy's interpn: RegularGridInterpolator's values at xi."""
    if method not in _METHODS:
        if method in ("slinear", "cubic", "quintic", "pchip",
                      "splinef2d"):
            raise NotImplementedError(
                f"ember's interpn has methods {_METHODS}; {method!r} is "
                "one of SciPy's spline methods")
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
