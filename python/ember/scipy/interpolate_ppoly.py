"""ember.scipy.interpolate's piecewise polynomials: PPoly (power basis,
SciPy's layout c[k+1, m, ...]) and the tridiagonal solve the cubic
splines' setup needs.

Evaluation at N points is array work on the coefficients' device: one
searchsorted for the intervals, one gather of the k+1 coefficient rows and
of the left breakpoints, and Horner's rule over the degree (k+1 fused
multiply-adds over all points at once; the Python loop runs over the
degree, never over points). The antiderivative's constants, which make the
pieces continuous, are an exclusive cumulative sum of each piece's
integral over its interval."""
import math

import ember as _e
from ember._api._util import as_array as _arr

__all__ = ["PPoly"]


def _float_dtype(dt):
    """SciPy's piecewise polynomials keep float64 or complex128."""
    return _e.complex128 if _e.dtype(dt).kind == "c" else _e.float64


def _device(*xs):
    for x in xs:
        if isinstance(x, _e.ndarray):
            return x.device
    return None


def _host_vector(x):
    """A small 1-D array (breakpoints, knots) on the host, for the checks
    SciPy makes on the host too."""
    return _e.asnumpy(x)


def eval_horner(c, x, xnew, extrapolate, descending=False):
    """Values of the pieces c (k+1, m, R) with breakpoints x (m+1,) at the
    flat float64 points xnew: (N, R). Intervals are half-open [x_i,
    x_{i+1}), the last closed; outside, the end pieces (extrapolate) or
    NaN."""
    m = c.shape[1]
    if descending:
        i = _e.searchsorted(-x, -xnew, side="right") - 1
    else:
        i = _e.searchsorted(x, xnew, side="right") - 1
    i = _e.clip(i, 0, m - 1)
    dx = (xnew - _e.take(x, i, mode="clip"))[:, None]
    cg = _e.take(c, i, axis=1, mode="clip")
    y = cg[0]
    for j in range(1, c.shape[0]):
        y = y * dx + cg[j]
    # NaN points give NaN even where the piece is a constant.
    out = _e.isnan(xnew)
    if not extrapolate:
        lo, hi = (x[-1], x[0]) if descending else (x[0], x[-1])
        out = out | (xnew < lo) | (xnew > hi)
    nan = _e.asarray(math.nan, dtype=y.dtype, device=y.device)
    return _e.where(out[:, None], nan, y)


def poch_factors(k1, nu, device):
    """(k, k-1, ..., 1)'s rising factorials of order nu, as SciPy's
    derivative factors: float64 on device."""
    f = [float(math.prod(range(p, p + nu))) for p in range(k1, 0, -1)]
    return _e.asarray(f, dtype=_e.float64, device=device)


def solve_tridiagonal(a, b, c, d):
    """x with a_i x_{i-1} + b_i x_i + c_i x_{i+1} = d_i, for d of shape
    (n, R); a[0] and c[-1] are ignored. Parallel cyclic reduction: log2(n)
    rounds, each eliminating the couplings at distance s from every row at
    once (no pivoting: the spline systems it serves are diagonally
    dominant once their corners are folded in)."""
    n = b.shape[0]
    dev = b.device
    zero = _e.zeros((1,), dtype=b.dtype, device=dev)
    a = _e.concatenate((zero, a[1:]))
    c = _e.concatenate((c[:-1], zero))
    b = b.astype(_e.result_type(b.dtype, d.dtype))
    s = 1
    while s < n:
        z1 = _e.zeros((s,), dtype=b.dtype, device=dev)
        o1 = _e.ones((s,), dtype=b.dtype, device=dev)
        zd = _e.zeros((s,) + d.shape[1:], dtype=d.dtype, device=dev)

        def pad(v, fill):
            return _e.concatenate((fill, v, fill))
        ap, bp, cp, dp = pad(a, z1), pad(b, o1), pad(c, z1), pad(d, zd)
        lo = slice(0, n)
        hi = slice(2 * s, n + 2 * s)
        alpha = -a / bp[lo]
        gamma = -c / bp[hi]
        a, b, c, d = (alpha * ap[lo],
                      b + alpha * cp[lo] + gamma * ap[hi],
                      gamma * cp[hi],
                      d + alpha[:, None] * dp[lo] + gamma[:, None] * dp[hi])
        s *= 2
    return d / b[:, None]


class PPoly:
    """Piecewise polynomial in the power basis, SciPy's PPoly: between
    x[i] and x[i+1] it is sum(c[m, i] * (xp - x[i])**(k-m)). Coefficients
    are float64 (complex128 for complex c), as SciPy's."""

    def __init__(self, c, x, extrapolate=None, axis=0):
        dev = _device(c, x)
        c = _arr(c, dev)
        x = _arr(x, c.device)
        if c.ndim < 2:
            raise ValueError("Coefficients array must be at least "
                             "2-dimensional.")
        if not 0 <= axis < c.ndim - 1:
            raise ValueError(f"axis={axis} must be between 0 and "
                             f"{c.ndim - 1}")
        if axis != 0:
            # c arrives as (..., k+1, m, ...) with k+1 at axis: the two
            # polynomial axes move to the front, as SciPy stores them.
            c = _e.moveaxis(_e.moveaxis(c, axis + 1, 0), axis + 1, 0)
        if x.ndim != 1:
            raise ValueError("x must be 1-dimensional")
        if x.size < 2:
            raise ValueError("at least 2 breakpoints are needed")
        if c.shape[0] == 0:
            raise ValueError("polynomial must be at least of order 0")
        if c.shape[1] != x.size - 1:
            raise ValueError("number of coefficients != len(x)-1 "
                             f"(c has shape {c.shape}, x {x.shape})")
        hx = _host_vector(x).astype(float)
        dx = hx[1:] - hx[:-1]
        if not ((dx >= 0).all() or (dx <= 0).all()):
            raise ValueError("`x` must be strictly increasing or "
                             "decreasing.")
        self._setup(c, x, extrapolate, axis)

    def _setup(self, c, x, extrapolate, axis):
        self.axis = axis
        self.c = _e.ascontiguousarray(c.astype(_float_dtype(c.dtype)))
        self.x = _e.ascontiguousarray(x.astype(_e.float64))
        self.extrapolate = True if extrapolate is None else (
            extrapolate if extrapolate == "periodic" else bool(extrapolate))
        hx = self.x[:: max(self.x.size - 1, 1)]
        e = _e.asnumpy(hx)
        self._x0, self._x1 = float(e[0]), float(e[-1])
        self._descending = self._x1 < self._x0

    @classmethod
    def construct_fast(cls, c, x, extrapolate=None, axis=0):
        self = object.__new__(cls)
        PPoly._setup(self, c, x, extrapolate, axis)
        return self

    @property
    def device(self):
        return self.c.device

    def _points(self, x):
        x = _arr(x, self.c.device)
        if x.dtype.kind == "c":
            raise TypeError("x must be real, got dtype " + str(x.dtype))
        return x, x.shape, x.reshape(-1).astype(_e.float64)

    def _finish(self, y, xshape):
        y = y.reshape(xshape + self.c.shape[2:])
        if self.axis != 0:
            xn = len(xshape)
            order = list(range(y.ndim))
            order = order[xn:xn + self.axis] + order[:xn] + \
                order[xn + self.axis:]
            y = _e.transpose(y, order)
        return y

    def __call__(self, x, nu=0, extrapolate=None):
        if extrapolate is None:
            extrapolate = self.extrapolate
        pp = self if nu == 0 else self.derivative(nu)
        x, xshape, xf = self._points(x)
        if extrapolate == "periodic":
            x0 = self._x0
            xf = x0 + _e.remainder(xf - x0, self._x1 - x0)
            extrapolate = False
        return self._finish(pp._flat(xf, extrapolate), xshape)

    def _flat(self, xf, extrapolate):
        """(N, R) values at the flat float64 points."""
        c = self.c.reshape(self.c.shape[:2] + (-1,))
        return eval_horner(c, self.x, xf, extrapolate, self._descending)

    def derivative(self, nu=1):
        if nu < 0:
            return self.antiderivative(-nu)
        c2 = self.c if nu == 0 else self.c[:-nu]
        if c2.shape[0] == 0:
            c2 = _e.zeros((1,) + self.c.shape[1:], dtype=self.c.dtype,
                          device=self.c.device)
        f = poch_factors(c2.shape[0], nu, self.c.device)
        c2 = c2 * f.reshape((-1,) + (1,) * (c2.ndim - 1))
        return type(self).construct_fast(c2, self.x, self.extrapolate,
                                         self.axis)

    def antiderivative(self, nu=1):
        if nu <= 0:
            return self.derivative(-nu)
        c = self.c
        for _ in range(nu):
            c = _integrate_once(c, self.x)
        ext = False if self.extrapolate == "periodic" else self.extrapolate
        return PPoly.construct_fast(c, self.x, ext, self.axis)

    def integrate(self, a, b, extrapolate=None):
        """The definite integral over [a, b]: the antiderivative's values
        at b and a (NaN outside the breakpoints unless extrapolating),
        with SciPy's periodic rule (whole periods plus a remainder)."""
        if extrapolate is None:
            extrapolate = self.extrapolate
        a, b = float(a), float(b)
        sign = 1.0
        if b < a:
            a, b, sign = b, a, -1.0
        ad = self.antiderivative()
        trail = self.c.shape[2:]
        dev = self.c.device

        def at(p, q, ext):
            pts = _e.asarray([p, q], dtype=_e.float64, device=dev)
            v = ad._flat(pts, ext)
            return (v[1] - v[0]).reshape(trail)

        if extrapolate == "periodic":
            xs, xe = min(self._x0, self._x1), max(self._x0, self._x1)
            period = xe - xs
            n_periods, left = divmod(b - a, period)
            total = at(xs, xe, False) * n_periods
            a = xs + (a - xs) % period
            b = a + left
            if b <= xe:
                total = total + at(a, b, False)
            else:
                total = total + at(a, xe, False) + at(xs, xs + b - xe, False)
            res = total * sign
        else:
            res = at(a, b, bool(extrapolate)) * sign
        return res

    @classmethod
    def from_spline(cls, tck, extrapolate=None):
        """The B-spline's pieces with every knot a breakpoint: row k-m is
        the m-th derivative at the knots over m!, as SciPy's."""
        from ember.scipy.interpolate_fitpack import _spline
        from ember.scipy.interpolate_bspline import BSpline
        spl = _spline(tck)
        if isinstance(tck, BSpline) and extrapolate is None:
            extrapolate = tck.extrapolate
        k = spl.k
        left = spl.t[:-1]
        rows = [spl(left, nu=m, extrapolate=True) / float(math.factorial(m))
                for m in range(k, -1, -1)]
        return cls.construct_fast(_e.stack(rows), spl.t, extrapolate)

    @classmethod
    def from_bernstein_basis(cls, bp, extrapolate=None):
        """The same pieces in the power basis: the coefficient of
        (x - x_i)**s is sum_a c_a C(k, a) C(k-a, s-a) (-1)**(s-a) / h**s."""
        from ember.scipy.interpolate_bpoly import BPoly
        if not isinstance(bp, BPoly):
            raise TypeError(".from_bernstein_basis only accepts BPoly "
                            f"instances. Got {type(bp)} instead.")
        k = bp.c.shape[0] - 1
        h = (bp.x[1:] - bp.x[:-1]).reshape((-1,) + (1,) *
                                           (bp.c.ndim - 2))
        rows = []
        for s in range(k + 1):
            acc = None
            for a in range(s + 1):
                f = math.comb(k, a) * math.comb(k - a, s - a) * \
                    (-1) ** (s - a)
                term = bp.c[a] * float(f)
                acc = term if acc is None else acc + term
            rows.append(acc / h ** s)
        c = _e.stack(rows[::-1])
        ext = bp.extrapolate if extrapolate is None else extrapolate
        return cls.construct_fast(c, bp.x, ext, bp.axis)


def _integrate_once(c, x):
    """The coefficients of the continuous antiderivative, zero at x[0]."""
    k1 = c.shape[0]
    dev = c.device
    f = _e.asarray([float(p) for p in range(k1, 0, -1)], dtype=_e.float64,
                   device=dev)
    zero = _e.zeros((1,) + c.shape[1:], dtype=c.dtype, device=dev)
    ci = _e.concatenate((c / f.reshape((-1,) + (1,) * (c.ndim - 1)), zero))
    # Each piece's integral over its own interval, by Horner at its width.
    h = (x[1:] - x[:-1]).reshape((-1,) + (1,) * (c.ndim - 2))
    v = ci[0]
    for j in range(1, ci.shape[0]):
        v = v * h + ci[j]
    csum = _e.cumsum(v, axis=0)
    const = _e.concatenate((_e.zeros((1,) + v.shape[1:], dtype=v.dtype,
                                     device=dev), csum[:-1]))
    return _e.concatenate((ci[:-1], const[None]))
