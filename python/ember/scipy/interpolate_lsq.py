"""ember.scipy.interpolate's least-squares B-splines: make_lsq_spline,
and the weighted least-squares solve that FITPACK's classes
(interpolate_univariate) share.

The weighted collocation matrix W A (m points by n coefficients, the
k+1 non-zero basis values of each point scattered into their columns by
interpolate_bspline's Cox-de Boor recursion) is built on the data's
device and factored by ember.linalg.qr; the coefficients are one
triangular solve. SciPy rotates the banded matrix row by row with
Givens rotations (FITPACK's scheme); both are orthogonal factorisations
of the same matrix, so they agree to rounding, and R's diagonal agrees
up to sign (FITPACK's rotations leave it positive). Memory is O(m n)
where FITPACK's is O(m k)."""
import operator

import numpy as np

import ember as _e
from ember._api._util import as_array as _arr
from ember.scipy.interpolate_bspline import BSpline, _collocation
from ember.scipy.interpolate_ppoly import _device
from ember._api._util import normalize_axis

__all__ = ["make_lsq_spline"]


def schoenberg_whitney(hx, ht, k):
    """Whether some increasing choice of samples x[i_j] puts one inside
    each basis element's support, which makes W A full rank (FITPACK's
    fpchec, condition 5): x[0] < t[k+1], x[-1] > t[n-1], and greedily
    t[j] < x[i_j] < t[j+k+1] for the inner j. On host copies, as
    FITPACK's check is; the greedy choice i_j = max(i_{j-1} + 1, s_j)
    (s_j the first sample past t[j]) is j plus a running maximum of
    s_j - j, so one searchsorted and one accumulate replace the loop."""
    n = ht.size - k - 1
    m = hx.size
    if not k + 1 <= n <= m:
        return False
    if hx[0] >= ht[k + 1] or hx[-1] <= ht[n - 1]:
        return False
    j = np.arange(1, n - 1)
    if j.size == 0:
        return True
    s = np.searchsorted(hx, ht[1:n - 1], side="right")
    i = j + np.maximum(np.maximum.accumulate(s - j), 0)
    if np.any(i >= m - 1):
        return False
    return not np.any(hx[i] >= ht[j + k + 1])


def lsq_fit(x, y, w, t, k):
    """The weighted least-squares spline on the knots t at (x, y, w), all
    float64 device arrays (y is (m, R)). Returns (c, r, qty, fp): the
    (n, R) coefficients, the triangular factor of W A, Q^T W y (which
    the smoothing iteration reuses) and the residual sum of squares of
    the factorisation, |W y - Q Q^T W y|^2, which FITPACK reports: where
    W A is nearly singular, c is large and inaccurate (FITPACK's
    too), but this sum is still the least-squares residual."""
    from ember.scipy.linalg_lu import solve_triangular
    n = t.shape[0] - k - 1
    a = _collocation(t, k, x, n) * w[:, None]
    q, r = _e.linalg.qr(a)
    yw = y * w[:, None]
    qty = _e.matmul(_e.transpose(q), yw)
    d = yw - _e.matmul(q, qty)
    # A column whose pivot is rounding noise (a B-spline with no sample
    # of its own) would fit one sample by accident: its share of Q^T W y
    # counts as residual, as FITPACK's rotations leave it.
    diag = _e.abs(_e.diagonal(r))
    noise = diag <= n * 2.220446049250313e-16 * _e.max(diag)
    lost = _e.sum(_e.where(noise[:, None], qty * qty, 0.0))
    fp = float(_e.asnumpy(_e.sum(d * d) + lost))
    try:
        c = solve_triangular(r, qty, check_finite=False)
    except _e.linalg.LinAlgError:
        raise ValueError(f"the least-squares system on these {n + k + 1} "
                         "knots is singular (knots at repeated x leave a "
                         "B-spline without samples; FITPACK returns NaN "
                         "coefficients here)") from None
    return c, r, qty, fp


def residuals(spl, x, y, w):
    """(m,) squared weighted residuals (w (y - s(x)))^2, summed over y's
    columns, as FITPACK's fp adds them."""
    d = (spl._values(x) - y) * w[:, None]
    return _e.sum(d * d, axis=1)


def _float(a, dev, check_finite, what):
    a = _arr(a, dev)
    if a.dtype.kind not in "fc":
        a = a.astype(_e.float64)
    if check_finite and not bool(_e.asnumpy(_e.all(_e.isfinite(a)))):
        raise ValueError(f"{what} must not contain infs or NaNs")
    return a


def make_lsq_spline(x, y, t, k=3, w=None, axis=0, check_finite=True, *,
                    method="qr"):
    """SciPy's make_lsq_spline: the BSpline on the knots t minimising
    sum((w_j (S(x_j) - y_j))^2). y may carry trailing axes (one fit per
    column) and be complex. Both methods ("qr", "norm-eq") are solved by
    the QR factorisation; knots that fail the Schoenberg-Whitney
    conditions are a ValueError (SciPy's "qr" returns a degenerate fit,
    its "norm-eq" a LinAlgError)."""
    if method not in ("qr", "norm-eq"):
        raise ValueError(f"Unknown method ={method!r}.")
    dev = _device(x, y, t, w)
    x = _float(x, dev, check_finite, "x").astype(_e.float64)
    y = _float(y, x.device, check_finite, "y")
    t = _float(t, x.device, check_finite, "t").astype(_e.float64)
    w = (_e.ones(x.shape, dtype=_e.float64, device=x.device) if w is None
         else _float(w, x.device, check_finite, "w").astype(_e.float64))
    k = operator.index(k)
    if y.ndim == 0:
        raise ValueError(f"y must be at least 1-dimensional (got shape "
                         f"{y.shape})")
    axis = normalize_axis(axis, y.ndim)
    y = _e.moveaxis(y, axis, 0)
    if x.ndim != 1:
        raise ValueError("Expect x to be a 1-D sequence.")
    if x.shape[0] < k + 1:
        raise ValueError("Need more x points.")
    if k < 0:
        raise ValueError("Expect non-negative k.")
    ht = _e.asnumpy(t)
    if t.ndim != 1 or (np.diff(ht) < 0).any():
        raise ValueError("Expect t to be a 1D strictly increasing sequence.")
    if x.shape[0] != y.shape[0]:
        raise ValueError(f"Shapes of x {x.shape} and y {y.shape} are "
                         "incompatible")
    hx = _e.asnumpy(x)
    if k > 0 and ((hx < ht[k]) | (hx > ht[-k])).any():
        raise ValueError(f"Out of bounds w/ x = {hx}.")
    if w.shape != x.shape:
        raise ValueError(f"Shapes of x {x.shape} and w {w.shape} are "
                         "incompatible")
    if method == "norm-eq" and (np.diff(hx) <= 0).any():
        raise ValueError("Expect x to be a 1D strictly increasing sequence.")
    if (np.diff(hx) < 0).any():
        raise ValueError("Expect x to be a 1D non-decreasing sequence.")
    n = ht.size - k - 1
    if not schoenberg_whitney(hx, ht, k):
        raise ValueError(f"The knots (len(t) = {ht.size}, k = {k}) and the "
                         f"{hx.size} points x do not satisfy the "
                         "Schoenberg-Whitney conditions: the least-squares "
                         "problem has no unique solution")
    yc = y.reshape((y.shape[0], -1))
    cplx = yc.dtype.kind == "c"
    # A complex fit is the real and imaginary fits side by side.
    rhs = (_e.concatenate((_e.real(yc), _e.imag(yc)), axis=1) if cplx
           else yc).astype(_e.float64)
    c = lsq_fit(x, rhs, w, t, k)[0]
    if cplx:
        half = yc.shape[1]
        c = c[:, :half] + 1j * c[:, half:]
    c = c.reshape((n,) + y.shape[1:])
    return BSpline.construct_fast(t, c, k, axis=axis % y.ndim)
