"""ember.scipy.interpolate.RBFInterpolator, SciPy's (neighbors=None): the
kernel matrix of the scaled data points plus the monomials of the shifted
and scaled coordinates, bordered and solved with ember.linalg.solve on
the device; evaluation is the kernel matrix between the evaluation and
data points (built a block of rows at a time to bound memory) and the
monomials, times the coefficients, by matrix products."""
import itertools
import warnings

import numpy as np

import ember as _e
from ember._api._util import as_array as _arr
from ember.scipy.interpolate_ppoly import _device

__all__ = ["RBFInterpolator"]

_SCALE_INVARIANT = {"linear", "thin_plate_spline", "cubic", "quintic"}
_MIN_DEGREE = {"multiquadric": 0, "linear": 0, "thin_plate_spline": 1,
               "cubic": 1, "quintic": 2}
_KERNELS = {"linear", "thin_plate_spline", "cubic", "quintic",
            "multiquadric", "inverse_multiquadric", "inverse_quadratic",
            "gaussian"}
# Rows of the evaluation's kernel block are chosen so a block holds about
# this many elements.
_BLOCK = 1 << 22


def _kernel(r, name):
    if name == "linear":
        return -r
    if name == "thin_plate_spline":
        return _e.where(r == 0, 0.0, r * r * _e.log(_e.where(r == 0, 1.0,
                                                             r)))
    if name == "cubic":
        return r * r * r
    if name == "quintic":
        return -(r * r) * (r * r) * r
    if name == "multiquadric":
        return -_e.sqrt(r * r + 1)
    if name == "inverse_multiquadric":
        return 1 / _e.sqrt(r * r + 1)
    if name == "inverse_quadratic":
        return 1 / (r * r + 1)
    return _e.exp(-r * r)


def _distances(a, b):
    """The (len(a), len(b)) Euclidean distances, summed a coordinate at a
    time (ndim is small) so no (n, m, ndim) temporary is made."""
    s = None
    for d in range(a.shape[1]):
        diff = a[:, d][:, None] - b[:, d][None, :]
        s = diff * diff if s is None else s + diff * diff
    return _e.sqrt(s)


def _monomial_powers(ndim, degree):
    out = []
    for deg in range(degree + 1):
        for combo in itertools.combinations_with_replacement(range(ndim),
                                                             deg):
            p = [0] * ndim
            for v in combo:
                p[v] += 1
            out.append(p)
    return np.asarray(out, dtype=np.int64).reshape(-1, ndim)


def _poly_matrix(xhat, powers):
    """Columns prod_d xhat[:, d] ** powers[j, d]."""
    cols = []
    ones = _e.ones((xhat.shape[0],), dtype=_e.float64, device=xhat.device)
    for p in powers:
        c = ones
        for d, e in enumerate(p):
            if e:
                c = c * xhat[:, d] ** int(e)
        cols.append(c)
    if not cols:
        return _e.zeros((xhat.shape[0], 0), dtype=_e.float64,
                        device=xhat.device)
    return _e.stack(cols, axis=1)


class RBFInterpolator:
    def __init__(self, y, d, neighbors=None, smoothing=0.0,
                 kernel="thin_plate_spline", epsilon=None, degree=None):
        if neighbors is not None:
            raise NotImplementedError("ember's RBFInterpolator solves the "
                                      "global system only (neighbors=None)")
        dev = _device(y, d, smoothing)
        y = _arr(y, dev).astype(_e.float64)
        if y.ndim != 2:
            raise ValueError("`y` must be a 2-dimensional array.")
        ny, ndim = y.shape
        d = _arr(d, y.device)
        dt = _e.complex128 if d.dtype.kind == "c" else _e.float64
        d = d.astype(dt)
        if d.ndim == 0 or d.shape[0] != ny:
            raise ValueError(f"Expected the first axis of `d` to have "
                             f"length {ny}.")
        self.d_shape = d.shape[1:]
        self.d_dtype = dt
        if isinstance(smoothing, (int, float)) or np.ndim(smoothing) == 0:
            sm = _e.full((ny,), float(smoothing), dtype=_e.float64,
                         device=y.device)
        else:
            sm = _arr(smoothing, y.device).astype(_e.float64)
            if sm.shape != (ny,):
                raise ValueError("Expected `smoothing` to be a scalar or "
                                 f"have shape ({ny},).")
        kernel = kernel.lower()
        if kernel not in _KERNELS:
            raise ValueError(f"`kernel` must be one of {_KERNELS}.")
        if epsilon is None:
            if kernel not in _SCALE_INVARIANT:
                raise ValueError("`epsilon` must be specified if `kernel` "
                                 f"is not one of {_SCALE_INVARIANT}.")
            epsilon = 1.0
        epsilon = float(epsilon)
        min_degree = _MIN_DEGREE.get(kernel, -1)
        if degree is None:
            degree = max(min_degree, 0)
        else:
            degree = int(degree)
            if degree < -1:
                raise ValueError("`degree` must be at least -1.")
            if -1 < degree < min_degree:
                warnings.warn(f"`degree` should not be below {min_degree} "
                              f"except -1 when `kernel` is '{kernel}'.The "
                              "interpolant may not be uniquely solvable, "
                              "and the smoothing parameter may have an "
                              "unintuitive effect.", UserWarning,
                              stacklevel=2)
        powers = _monomial_powers(ndim, degree)
        if powers.shape[0] > ny:
            raise ValueError(f"At least {powers.shape[0]} data points are "
                             f"required when `degree` is {degree} and the "
                             f"number of dimensions is {ndim}.")
        self.y, self.kernel, self.epsilon = y, kernel, epsilon
        self.powers, self.smoothing, self.neighbors = powers, sm, None
        self.d = d
        self._solve(d.reshape((ny, -1)))

    def _solve(self, d):
        y = self.y
        mins, maxs = _e.min(y, axis=0), _e.max(y, axis=0)
        self._shift = (maxs + mins) / 2
        scale = (maxs - mins) / 2
        self._scale = _e.where(scale == 0.0, 1.0, scale)
        yeps = y * self.epsilon
        k = _kernel(_distances(yeps, yeps), self.kernel)
        k = k + _e.diag(self.smoothing)
        p = _poly_matrix((y - self._shift) / self._scale, self.powers)
        r = p.shape[1]
        zero = _e.zeros((r, r), dtype=_e.float64, device=y.device)
        lhs = _e.concatenate((_e.concatenate((k, p), axis=1),
                              _e.concatenate((_e.transpose(p), zero),
                                             axis=1)))
        rhs = _e.concatenate((d, _e.zeros((r, d.shape[1]), dtype=d.dtype,
                                          device=y.device)))
        try:
            self._coeffs = _e.linalg.solve(lhs.astype(d.dtype), rhs)
        except _e.linalg.LinAlgError:
            msg = "Singular matrix."
            if r:
                rank = int(_e.asnumpy(_e.linalg.matrix_rank(p)))
                if rank < r:
                    msg = ("Singular matrix. The matrix of monomials "
                           "evaluated at the data point coordinates does not"
                           f" have full column rank ({rank}/{r}).")
            raise _e.linalg.LinAlgError(msg) from None

    def __call__(self, x):
        x = _arr(x, self.y.device).astype(_e.float64)
        if x.ndim != 2:
            raise ValueError("`x` must be a 2-dimensional array.")
        if x.shape[1] != self.y.shape[1]:
            raise ValueError("Expected the second axis of `x` to have "
                             f"length {self.y.shape[1]}.")
        n = x.shape[0]
        rows = max(1, _BLOCK // max(self.y.shape[0], 1))
        parts = []
        for s in range(0, n, rows):
            xs = x[s:s + rows]
            k = _kernel(_distances(xs * self.epsilon,
                                   self.y * self.epsilon), self.kernel)
            p = _poly_matrix((xs - self._shift) / self._scale, self.powers)
            vec = _e.concatenate((k, p), axis=1).astype(self.d_dtype)
            parts.append(_e.matmul(vec, self._coeffs))
        if n == 0:
            out = _e.zeros((0, self._coeffs.shape[1]), dtype=self.d_dtype,
                           device=x.device)
        else:
            out = parts[0] if len(parts) == 1 else _e.concatenate(parts)
        return out.reshape((n,) + self.d_shape)
