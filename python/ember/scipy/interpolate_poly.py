"""ember.scipy.interpolate's global polynomial interpolants, SciPy's
BarycentricInterpolator (barycentric_interpolate) and KroghInterpolator
(krogh_interpolate).

Barycentric: the weights are one product over an n-by-n matrix of
scaled node differences; evaluation at N points is the N-by-n matrix of
w_j / (x - x_j), one matrix product with y and one row sum, and a where()
for points that hit a node. Krogh: the Newton coefficients come from the
divided-difference table, one column at a time (the loop runs over the
degree, each step over the whole column; repeated nodes take the given
derivatives), and evaluation accumulates the Newton products over the
degree for all points at once."""
import math
import warnings

import numpy as np

import ember as _e
from ember._api._util import as_array as _arr
from ember.scipy.interpolate_ppoly import _device

__all__ = ["BarycentricInterpolator", "barycentric_interpolate",
           "KroghInterpolator", "krogh_interpolate"]


class _Poly1D:
    """SciPy's _Interpolator1D bookkeeping: y's axis moved first and its
    trailing shape flattened; values float64 or complex128."""

    def _set_y(self, yi, axis, n):
        yi = _arr(yi, self._dev)
        shape = yi.shape or (1,)
        if shape[axis % max(yi.ndim, 1)] != n:
            raise ValueError("x and y arrays must be equal in length along "
                             f"interpolation axis (x {n}, y {yi.shape}).")
        self._axis = axis % max(yi.ndim, 1)
        yi = yi.reshape(shape)
        self._extra = yi.shape[:self._axis] + yi.shape[self._axis + 1:]
        dt = _e.complex128 if yi.dtype.kind == "c" else _e.float64
        y = _e.moveaxis(yi.astype(dt), self._axis, 0)
        self.yi = y.reshape((n, -1))
        self.dtype = dt

    def __call__(self, x):
        x = _arr(x, self._dev)
        if x.dtype.kind not in "fc":
            x = x.astype(_e.float64)
        shape = x.shape
        y = self._evaluate(x.reshape(-1))
        y = y.reshape(shape + self._extra)
        if self._axis != 0 and shape != ():
            nx, ny = len(shape), len(self._extra)
            order = list(range(nx, nx + self._axis)) + list(range(nx)) + \
                list(range(nx + self._axis, nx + ny))
            y = _e.transpose(y, order)
        return y


class BarycentricInterpolator(_Poly1D):
    """SciPy's BarycentricInterpolator (values; no derivatives, no
    add_xi). rng is accepted and unused: SciPy permutes the weights'
    factors at random, which changes only their rounding."""

    def __init__(self, xi, yi=None, axis=0, *, wi=None, rng=None):
        self._dev = _device(xi, yi, wi)
        xi = _arr(xi, self._dev).astype(_e.float64)
        self._dev = xi.device
        self.xi = xi.reshape(-1)
        self.n = self.xi.shape[0]
        self._axis = axis
        self.yi = None
        if yi is not None:
            self._set_y(yi, axis, self.n)
        if wi is not None:
            self.wi = _arr(wi, self._dev)
            return
        span = _e.max(self.xi) - _e.min(self.xi)
        d = (4.0 / span) * (self.xi[:, None] - self.xi[None, :])
        eye = _e.eye(self.n, dtype=_e.bool, device=self._dev)
        prod = _e.prod(_e.where(eye, 1.0, d), axis=1)
        if bool(_e.asnumpy(_e.any(prod == 0))):
            raise ValueError("Interpolation points xi must be distinct.")
        self.wi = 1.0 / prod

    def set_yi(self, yi, axis=None):
        if yi is None:
            self.yi = None
            return
        self._set_y(yi, self._axis if axis is None else axis, self.n)

    def _evaluate(self, x):
        if self.yi is None:
            raise ValueError("No yi values set: pass yi or call set_yi")
        if x.shape[0] == 0:
            return _e.zeros((0, self.yi.shape[1]), dtype=self.dtype,
                            device=self._dev)
        d = x[:, None] - self.xi[None, :]
        hit = d == 0
        c = self.wi / _e.where(hit, 1.0, d)
        p = _e.matmul(c.astype(self.dtype), self.yi) / \
            _e.sum(c, axis=1)[:, None]
        node = _e.take(self.yi, _e.argmax(hit, axis=1), axis=0, mode="clip")
        return _e.where(_e.any(hit, axis=1)[:, None], node, p)


def barycentric_interpolate(xi, yi, x, axis=0, *, der=0, rng=None):
    if der != 0:
        raise NotImplementedError("ember's barycentric_interpolate "
                                  "evaluates values only (der=0)")
    return BarycentricInterpolator(xi, yi, axis=axis, rng=rng)(x)


class KroghInterpolator(_Poly1D):
    """SciPy's KroghInterpolator (values): a repeated xi takes the next
    entries of yi as the derivatives there."""

    def __init__(self, xi, yi, axis=0):
        self._dev = _device(xi, yi)
        xi = _arr(xi, self._dev)
        self._dev = xi.device
        hx = np.asarray(_e.asnumpy(xi), dtype=float).reshape(-1)
        n = hx.size
        self._set_y(yi, axis, n)
        self.xi = _e.asarray(hx, device=self._dev)
        self.n = n
        if n > 30:
            warnings.warn(f"{n} degrees provided, degrees higher than about"
                          " thirty cause problems with numerical instability "
                          "with 'KroghInterpolator'", stacklevel=2)
        # Each node's first index in its run of equal nodes.
        start = np.zeros(n, dtype=np.int64)
        for i in range(1, n):
            start[i] = start[i - 1] if hx[i] == hx[i - 1] else i
        first = {}
        for i in range(n):
            if start[i] == i:
                if hx[i] in first:
                    raise ValueError("Elements of `xi` can't be equal.")
                first[hx[i]] = i
        self.c = self._newton(hx, start)

    def _newton(self, hx, start):
        n = self.n
        dev = self._dev
        g = _e.asarray(start, device=dev)
        # A repeated node's own entries are derivatives: its value is the
        # run's first entry.
        col = _e.take(self.yi, g, axis=0, mode="clip")
        coeffs = [col[0]]
        for j in range(1, n):
            m = n - j
            num = col[1:m + 1] - col[:m]
            den = hx[j:] - hx[:m]
            same = den == 0
            deriv = _e.take(self.yi, _e.clip(g[:m] + j, 0, n - 1), axis=0,
                            mode="clip") / float(math.factorial(j))
            den_d = _e.asarray(np.where(same, 1.0, den), device=dev)
            col = _e.where(_e.asarray(same, device=dev)[:, None], deriv,
                           num / den_d[:, None])
            coeffs.append(col[0])
        return _e.stack(coeffs)

    def _evaluate(self, x):
        p = _e.broadcast_to(self.c[0][None, :], (x.shape[0],
                                                  self.c.shape[1]))
        pi = None
        for k in range(1, self.n):
            w = x - self.xi[k - 1]
            pi = w if pi is None else w * pi
            p = p + pi[:, None] * self.c[k]
        return p.astype(self.dtype)


def krogh_interpolate(xi, yi, x, der=0, axis=0):
    if der != 0:
        raise NotImplementedError("ember's krogh_interpolate evaluates "
                                  "values only (der=0)")
    return KroghInterpolator(xi, yi, axis=axis)(x)

