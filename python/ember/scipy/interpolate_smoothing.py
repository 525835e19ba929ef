"""ember.scipy.interpolate's make_smoothing_spline: the cubic spline f
minimising sum_i w_i (y_i - f(x_i))^2 + lam * integral f''^2, with
knots at the data and lam chosen by generalized cross-validation (GCV)
when not given, as SciPy 1.17 defines it.

The minimiser is the natural cubic spline on the knots x, so the fit is
made in SciPy's basis of natural splines (B-splines on x with x[0] and
x[-1] repeated four times, the two end coefficients at each side tied
so that f'' vanishes there). SciPy solves its 5-banded system
(X + lam W^-1 E) c = y once per lam and takes the influence matrix's
trace from Hutchinson and de Hoog's banded inverse. Here each lam is
one dense Householder QR of the stacked least-squares matrix
[sqrt(W) X; sqrt(lam) P] (P^T P the penalty's Gram matrix, exact for
cubics: f'' is linear between the x), on the data's device: the fit is
one triangular solve, the trace |Q_top|_F^2. That is O(n^2) memory and
O(n^3) work per lam where SciPy's bands take O(n); fine for the few
hundred or thousand points smoothing is used on. (Diagonalising once,
Demmler and Reinsch's way, would make each lam O(n^2) but loses the
small eigenvalues GCV depends on when two x are close: 1e-6 apart,
the largest is 1e14.) SciPy's banded inverse keeps only the bands
|i - j| <= 2 of the trace's product; the band it drops is rounding-small,
so the full trace is used. The minimisation over lam is host
bookkeeping of scalars, bounded Brent on (0, n) as SciPy's
minimize_scalar(method='bounded') is, one column of y at a time."""
import math
import warnings

import numpy as np

import ember as _e
from ember._api._util import as_array as _arr
from ember.scipy.interpolate_bspline import BSpline
from ember.scipy.interpolate_ppoly import _device
from ember._api._util import normalize_axis

__all__ = ["make_smoothing_spline"]

_GOLDEN = 0.5 * (3.0 - math.sqrt(5.0))
# SciPy's bounded Brent takes sqrt(2.2e-16), not of the exact epsilon;
# the same constant keeps the same steps.
_SQRT_EPS = math.sqrt(2.2e-16)


def _fminbound(f, a, b, xatol=1e-5, maxiter=500):
    """The minimiser of f on (a, b) by Brent's method (golden sections
    and parabolic steps, Forsythe, Malcolm and Moler's fmin), with the
    tolerances and iteration limit of SciPy's bounded minimize_scalar,
    so both visit the same points up to rounding of f."""
    x = v = w = a + _GOLDEN * (b - a)
    fx = fv = fw = fu = f(x)
    d = e = 0.0
    for _ in range(maxiter - 1):
        xm = 0.5 * (a + b)
        tol1 = _SQRT_EPS * abs(x) + xatol / 3.0
        tol2 = 2.0 * tol1
        if abs(x - xm) <= tol2 - 0.5 * (b - a):
            break
        golden = True
        if abs(e) > tol1:
            r = (x - w) * (fx - fv)
            q = (x - v) * (fx - fw)
            p = (x - v) * q - (x - w) * r
            q = 2.0 * (q - r)
            if q > 0.0:
                p = -p
            q = abs(q)
            r, e = e, d
            if abs(p) < abs(0.5 * q * r) and q * (a - x) < p < q * (b - x):
                d = p / q
                u = x + d
                if u - a < tol2 or b - u < tol2:
                    d = tol1 if xm >= x else -tol1
                golden = False
        if golden:
            e = (a - x) if x >= xm else (b - x)
            d = _GOLDEN * e
        u = x + (max(abs(d), tol1) if d >= 0 else -max(abs(d), tol1))
        fu = f(u)
        if fu <= fx:
            if u >= x:
                a = x
            else:
                b = x
            v, fv, w, fw, x, fx = w, fw, x, fx, u, fu
        else:
            if u < x:
                a = u
            else:
                b = u
            if fu <= fw or w == x:
                v, fv, w, fw = w, fw, u, fu
            elif fu <= fv or v == x or v == w:
                v, fv = u, fu
    else:
        raise ValueError("Unable to find minimum of the GCV function: "
                         "Maximum number of function calls reached.")
    if math.isnan(x) or math.isnan(fx) or math.isnan(fu):
        raise ValueError("Unable to find minimum of the GCV function: NaN "
                         "result encountered.")
    return x


def _natural_map(x, n):
    """(n + 2, n): B-spline coefficients from the coefficients of SciPy's
    natural-spline basis (Zemlyanoy's (2.2.10), which SciPy converts
    back with): inner B-spline coefficients are the basis's, and the two
    at each end follow from f'' = 0 there."""
    dev = x.device
    one = _e.ones((1,), dtype=_e.float64, device=dev)
    zeros = _e.zeros((2, n - 2), dtype=_e.float64, device=dev)
    head = _e.stack((_e.concatenate((x[2:3] + x[1:2] - 2 * x[0:1], one)),
                     _e.concatenate((x[2:3] - x[0:1], one))))
    tail = _e.stack((_e.concatenate((one, x[-1:] - x[-3:-2])),
                     _e.concatenate((one, 2 * x[-1:] - x[-2:-1] -
                                     x[-3:-2]))))
    return _e.concatenate((_e.concatenate((head, zeros), axis=1),
                           _e.eye(n, dtype=_e.float64, device=dev)[1:-1],
                           _e.concatenate((zeros, tail), axis=1)))


def _penalty_root(d2n, x):
    """P with P^T P = the quadratic form of integral f''^2: f'' is
    piecewise linear between the x, so the integral is d2n^T M d2n with
    M the Gram matrix of the hat functions on x (tridiagonal: (h_{i-1} +
    h_i) / 3 on the diagonal, h_i / 6 beside it), and P = C^T d2n for
    M = C C^T."""
    n = x.shape[0]
    h = x[1:] - x[:-1]
    z = _e.zeros((1,), dtype=_e.float64, device=x.device)
    diag = (_e.concatenate((z, h)) + _e.concatenate((h, z))) / 3.0
    side = _e.concatenate((h / 6.0, z))
    i = _e.arange(n, device=x.device)
    d = i[:, None] - i[None, :]
    lo = _e.minimum(i[:, None], i[None, :])
    m = _e.where(d == 0, diag[:, None], 0.0) + \
        _e.where(_e.abs(d) == 1, _e.take(side, lo), 0.0)
    c = _e.linalg.cholesky(m)
    return _e.matmul(_e.transpose(c), d2n)


def _design(x, w, t, n):
    """(sqrt(W) X, P, T): the weighted natural-basis design matrix, the
    penalty's root and the natural-to-B-spline map."""
    eye = _e.eye(n + 2, dtype=_e.float64, device=x.device)
    basis = BSpline.construct_fast(t, eye, 3)
    tm = _natural_map(x, n)
    xn = _e.matmul(basis._values(x), tm)
    p = _penalty_root(_e.matmul(basis.derivative(2)._values(x), tm), x)
    return _e.sqrt(w)[:, None] * xn, p, tm


def _factor(a, p, lam):
    """(Q_top, R) of the QR of [a; sqrt(lam) p]."""
    n = a.shape[0]
    q, r = _e.linalg.qr(_e.concatenate((a, math.sqrt(lam) * p)))
    return q[:n], r


def _gcv(lam, a, p, sw, ysj):
    """GCV(lam) = (|y - f|^2 / n) / (1 - tr(A) / n)^2 for one column
    (ysj = sqrt(w) y), the residual unweighted as SciPy's is; one host
    read."""
    n = a.shape[0]
    qt, _ = _factor(a, p, lam)
    res = (ysj - _e.matmul(qt, _e.matmul(_e.transpose(qt), ysj))) / sw
    num = _e.sum(res * res) / n
    den = (1.0 - _e.sum(qt * qt) / n) ** 2
    num, den = (float(v) for v in _e.asnumpy(_e.stack((num, den))))
    if not den > 0.0:
        raise ValueError("Seems like the problem is ill-posed")
    return num / den


def _solve(a, p, lam, ys):
    """Natural-basis coefficients (n, R) of the fit at lam to ys."""
    from ember.scipy.linalg_lu import solve_triangular
    qt, r = _factor(a, p, lam)
    try:
        return solve_triangular(r, _e.matmul(_e.transpose(qt), ys),
                                check_finite=False)
    except _e.linalg.LinAlgError:
        raise ValueError("Seems like the problem is ill-posed") from None


def _checked(x, y, w, lam, axis):
    """SciPy's argument checks, in SciPy's order and with its classes;
    returns float64 x, y (n, ...) with the data axis first, w, lam as a
    float (or None) and the normalised axis."""
    dev = _device(x, y, w)
    x = _arr(x, dev)
    y = _arr(y, x.device)
    if y.dtype.kind == "c":
        warnings.warn("Casting complex values to real discards the "
                      "imaginary part", np.exceptions.ComplexWarning,
                      stacklevel=3)
        y = _e.real(y)
    x = x.astype(_e.float64)
    y = y.astype(_e.float64)
    hx = _e.asnumpy(x)
    if (np.diff(hx.reshape(-1)) <= 0).any():
        raise ValueError("``x`` should be an ascending array")
    if y.ndim == 0:
        raise ValueError(f"``x`` should be 1D and x.shape = {x.shape} == "
                         f"y.shape = {y.shape}")
    axis = normalize_axis(axis, y.ndim)
    if x.ndim != 1 or x.shape[0] != y.shape[axis]:
        raise ValueError(f"``x`` should be 1D and x.shape = {x.shape} == "
                         f"y.shape = {y.shape}")
    if w is None:
        w = _e.ones(x.shape, dtype=_e.float64, device=x.device)
    else:
        w = _arr(w, x.device).astype(_e.float64)
        if bool(_e.asnumpy(_e.any(w <= 0))):
            raise ValueError("Invalid vector of weights")
        if w.shape != x.shape:
            raise ValueError(f"the weights' shape {w.shape} does not match "
                             f"x's {x.shape}")
    if x.shape[0] <= 4:
        raise ValueError("``x`` and ``y`` length must be at least 5")
    if not (np.isfinite(hx).all() and
            bool(_e.asnumpy(_e.all(_e.isfinite(y)) &
                            _e.all(_e.isfinite(w))))):
        raise ValueError("array must not contain infs or NaNs")
    if lam is not None:
        lam = float(lam)
        if lam < 0.0:
            raise ValueError("Regularization parameter should be "
                             "non-negative")
    return x, _e.moveaxis(y, axis, 0), w, lam, axis


def make_smoothing_spline(x, y, w=None, lam=None, *, axis=0):
    """scipy.interpolate.make_smoothing_spline: the cubic BSpline on the
    knots x (ends repeated) minimising sum w_i (y_i - f(x_i))^2 +
    lam * integral f''^2. Without lam, each column of y (the axes other
    than axis, flattened) gets its own lam, the GCV minimiser on (0, n)
    found by bounded Brent. Complex y loses its imaginary part with a
    ComplexWarning, as SciPy's does."""
    x, y, w, lam, axis = _checked(x, y, w, lam, axis)
    n = x.shape[0]
    tail = y.shape[1:]
    yc = y.reshape((n, -1))
    t = _e.concatenate((_e.broadcast_to(x[:1], (3,)), x,
                        _e.broadcast_to(x[-1:], (3,))))
    a, p, tm = _design(x, w, t, n)
    sw = _e.sqrt(w)[:, None]
    ys = sw * yc
    if lam is None:
        cols = []
        for j in range(yc.shape[1]):
            lj = _fminbound(lambda lm, j=j: _gcv(lm, a, p, sw[:, 0],
                                                  ys[:, j]), 0.0, float(n))
            cols.append(_solve(a, p, lj, ys[:, j:j + 1]))
        cn = _e.concatenate(cols, axis=1)
    else:
        cn = _solve(a, p, lam, ys)
    c = _e.matmul(tm, cn).reshape((n + 2,) + tail)
    return BSpline.construct_fast(t, c, 3, axis=axis)
