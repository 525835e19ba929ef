"""ember.scipy.interpolate.interp1d, SciPy's (legacy) class: every kind
is a searchsorted over the sorted samples and gathers along y's axis
(linear, nearest, nearest-up, previous, next) or make_interp_spline's
B-spline (zero, slinear, quadratic, cubic, an int order); out-of-range
points are filled (or raise, or extrapolate) with one where()."""
import math

import numpy as np

import ember as _e
from ember._api._util import as_array as _arr
from ember.scipy.interpolate_bspline import make_interp_spline
from ember.scipy.interpolate_ppoly import _device

__all__ = ["interp1d"]

_SPLINES = {"zero": 0, "slinear": 1, "quadratic": 2, "cubic": 3}


def _extrapolating(fill_value):
    return isinstance(fill_value, str) and fill_value == "extrapolate"


class interp1d:
    def __init__(self, x, y, kind="linear", axis=-1, copy=True,
                 bounds_error=None, fill_value=np.nan, assume_sorted=False):
        if kind in _SPLINES:
            order = _SPLINES[kind]
        elif isinstance(kind, int) and not isinstance(kind, bool):
            order = kind
        elif kind not in ("linear", "nearest", "nearest-up", "previous",
                          "next"):
            raise NotImplementedError(f"{kind} is unsupported: Use fitpack "
                                      "routines for other types.")
        else:
            order = None
        dev = _device(x, y)
        x = _arr(x, dev)
        y = _arr(y, x.device)
        if copy:
            x, y = x.copy(), y.copy()
        if x.ndim != 1:
            raise ValueError("the x array must have exactly one dimension.")
        if y.ndim == 0:
            raise ValueError("the y array must have at least one "
                             "dimension.")
        if not assume_sorted:
            ind = _e.argsort(x, kind="stable")
            x = _e.take(x, ind)
            y = _e.take(y, ind, axis=axis)
        if y.dtype.kind not in "fc":
            y = y.astype(_e.float64)
        self.axis = axis % y.ndim
        if y.shape[self.axis] != x.shape[0]:
            raise ValueError(f"x and y arrays must be equal in length along "
                             f"interpolation axis (x {x.shape[0]}, y "
                             f"{y.shape[self.axis]}).")
        self.x, self.y = x, y
        self._y = _e.moveaxis(y, self.axis, 0)
        self.bounds_error = bounds_error
        self.copy = copy
        self._kind = kind
        self._spline = None
        minval = 1
        if kind in ("previous", "next") and _extrapolating(fill_value):
            if bounds_error:
                raise ValueError("Cannot extrapolate and raise at the same "
                                 "time.")
            self.bounds_error = False
            nan = _e.full(self._y.shape[1:], math.nan, dtype=y.dtype,
                          device=y.device)
            fill_value = (nan, self._y[-1]) if kind == "previous" else \
                (self._y[0], nan)
        if order is not None:
            minval = order + 1
        if x.shape[0] < minval:
            raise ValueError(f"x and y arrays must have at least {minval} "
                             "entries")
        if order is not None:
            xx, yy = x, self._y
            nan_all = False
            if order > 1:
                hx = _e.asnumpy(x).astype(float)
                if np.isnan(hx).any():
                    if np.isnan(hx).all():
                        raise ValueError("`x` array is all-nan")
                    xx = np.linspace(np.nanmin(hx), np.nanmax(hx), hx.size)
                    nan_all = True
                if bool(_e.asnumpy(_e.any(_e.isnan(self._y)))):
                    yy = _e.ones_like(self._y)
                    nan_all = True
            self._spline = make_interp_spline(xx, yy, k=order,
                                              check_finite=False)
            self._nan_all = nan_all
        h = _e.asnumpy(x[:: max(x.shape[0] - 1, 1)]).astype(float)
        self._x0, self._x1 = float(h[0]), float(h[-1])
        self.fill_value = fill_value

    @property
    def fill_value(self):
        return self._fill_value_orig

    @fill_value.setter
    def fill_value(self, fill_value):
        if _extrapolating(fill_value):
            if self.bounds_error:
                raise ValueError("Cannot extrapolate and raise at the same "
                                 "time.")
            self.bounds_error = False
            self._extrapolate = True
        else:
            shape = self.y.shape[:self.axis] + self.y.shape[self.axis + 1:]
            shape = shape or (1,)
            if isinstance(fill_value, tuple) and len(fill_value) == 2:
                pair = [self._fill(fill_value[0], shape,
                                   "fill_value (below)"),
                        self._fill(fill_value[1], shape,
                                   "fill_value (above)")]
            else:
                pair = [self._fill(fill_value, shape, "fill_value")] * 2
            self._below, self._above = pair
            self._extrapolate = False
            if self.bounds_error is None:
                self.bounds_error = True
        self._fill_value_orig = fill_value

    def _fill(self, v, shape, name):
        v = _arr(v, self.y.device)
        try:
            np.broadcast_shapes(v.shape, shape)
            ok = np.broadcast_shapes(v.shape, shape) == tuple(shape)
        except ValueError:
            ok = False
        if not ok:
            raise ValueError(f"{name} argument must be able to broadcast "
                             f"up to shape {shape} but had shape {v.shape}")
        return v

    def __call__(self, x):
        x = _arr(x, self.y.device)
        y = self._evaluate(x.reshape(-1))
        y = y.reshape(x.shape + self._y.shape[1:])
        nx = x.ndim
        if self.axis != 0 and self.y.ndim > 1:
            order = list(range(nx, nx + self.axis)) + list(range(nx)) + \
                list(range(nx + self.axis, y.ndim))
            y = _e.transpose(y, order)
        return y

    def _evaluate(self, xn):
        n = self.x.shape[0]
        ys = self._y.reshape((n, -1))
        kind = self._kind
        if self._spline is not None:
            y = self._spline(xn).reshape((xn.shape[0], ys.shape[1]))
            if self._nan_all:
                y = y * math.nan
        elif kind == "linear":
            i = _e.clip(_e.searchsorted(self.x, xn), 1, n - 1)
            xlo = _e.take(self.x, i - 1, mode="clip")
            xhi = _e.take(self.x, i, mode="clip")
            ylo = _e.take(ys, i - 1, axis=0, mode="clip")
            yhi = _e.take(ys, i, axis=0, mode="clip")
            slope = (yhi - ylo) / (xhi - xlo)[:, None]
            y = slope * (xn - xlo)[:, None] + ylo
        elif kind in ("nearest", "nearest-up"):
            half = self.x / 2.0
            bds = half[1:] + half[:-1]
            side = "left" if kind == "nearest" else "right"
            i = _e.clip(_e.searchsorted(bds, xn, side=side), 0, n - 1)
            y = _e.take(ys, i, axis=0, mode="clip")
        else:
            prev = kind == "previous"
            xs = _e.nextafter(self.x, -math.inf if prev else math.inf)
            ind = 0 if prev else 1
            i = _e.searchsorted(xs, xn, side="left" if prev else "right")
            i = _e.clip(i, 1 - ind, n - ind) + ind - 1
            y = _e.take(ys, i, axis=0, mode="clip")
        if self._extrapolate:
            return y
        below = xn < self._x0
        above = xn > self._x1
        if self.bounds_error:
            flags = _e.asnumpy(_e.stack((_e.any(below), _e.any(above))))
            if flags[0]:
                v = float(_e.asnumpy(xn[_e.argmax(below)]))
                raise ValueError(f"A value ({v}) in x_new is below the "
                                 "interpolation range's minimum value "
                                 f"({self._x0}).")
            if flags[1]:
                v = float(_e.asnumpy(xn[_e.argmax(above)]))
                raise ValueError(f"A value ({v}) in x_new is above the "
                                 "interpolation range's maximum value "
                                 f"({self._x1}).")
        if xn.shape[0] == 0:
            return y
        lo = self._below.reshape(-1).astype(y.dtype)
        hi = self._above.reshape(-1).astype(y.dtype)
        y = _e.where(below[:, None], lo[None, :], y)
        return _e.where(above[:, None], hi[None, :], y)
