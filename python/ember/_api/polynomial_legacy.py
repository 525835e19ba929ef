"""NumPy's legacy polynomial functions (numpy.lib's poly, polyadd,
polysub, polymul, polydiv, polyder, polyint, polyval, polyfit, roots),
coefficients highest power first, as ember arrays on the device of the
arguments. The arithmetic is ember's array operations: polyval is one
Horner kernel (horner.py), polymul a convolution, poly a product tree
(polyprod.py), polydiv a triangular Toeplitz solve, polyfit
ember.linalg.lstsq and roots ember.linalg.eigvals of the companion
matrix (cuSOLVER's geev on a GPU). Data-dependent shapes (leading zeros,
trailing zero roots) are read on the host, as NumPy reads them."""
import warnings

from ember import _ember as _e
from ember._api._util import as_array, device_of


def _poly1d():
    from ember._api.poly1d import poly1d
    return poly1d


def _is_poly(*args):
    p = _poly1d()
    return any(isinstance(a, p) for a in args)


def _coeffs(a, device):
    """a's coefficients as an ember array of at least one dimension."""
    if isinstance(a, _poly1d()):
        a = a.coeffs
    return _e.atleast_1d(as_array(a, device))


def _device(*args):
    p = _poly1d()
    return device_of(*(a.coeffs if isinstance(a, p) else a for a in args))


def _float_type(dt):
    """numpy.mintypecode's choice for one dtype: float32, float64 and the
    complex types stay, anything else is float64."""
    dt = _e.dtype(dt)
    if dt in (_e.float32, _e.float64, _e.complex64, _e.complex128):
        return dt
    return _e.float64


def _wrap(val, truepoly):
    return _poly1d()(val) if truepoly else val


def poly(seq_of_zeros):
    """The coefficients of the monic polynomial with the given roots (or
    with the eigenvalues of a square matrix as roots); real when the roots
    come in conjugate pairs, as NumPy's."""
    if isinstance(seq_of_zeros, _poly1d()):
        seq_of_zeros = seq_of_zeros.coeffs
    z = _e.atleast_1d(as_array(seq_of_zeros, device_of(seq_of_zeros)))
    sh = z.shape
    if len(sh) == 2 and sh[0] == sh[1] and sh[0] != 0:
        z = _e.linalg.eigvals(z)
    elif len(sh) == 1:
        z = z.astype(_float_type(z.dtype), copy=False)
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    if z.shape[0] == 0:
        return 1.0
    # factors x - z as ascending rows (-z, 1); the product comes back
    # ascending and is reversed to NumPy's order
    rows = _e.stack((-z, _e.ones_like(z)), axis=1)
    a = _e.flip(_poly_product(rows))
    if a.dtype.kind == "c":
        roots = z.astype(_e.complex128)
        if bool(_e.all(_e.sort(roots) == _e.sort(_e.conj(roots)))):
            a = _e.real(a).copy()
    return a


def _poly_product(rows):
    from ember._api.polyprod import product
    return product(rows)


def _align(a1, a2):
    """a1 and a2 with leading zeros to one length, as NumPy's polyadd."""
    diff = a2.shape[0] - a1.shape[0]
    if diff > 0:
        a1 = _e.concatenate((_e.zeros(diff, dtype=a1.dtype, device=a1.device), a1))
    elif diff < 0:
        a2 = _e.concatenate((_e.zeros(-diff, dtype=a2.dtype, device=a2.device), a2))
    return a1, a2


def polyadd(a1, a2):
    """The sum of two polynomials (a poly1d when either is one)."""
    truepoly = _is_poly(a1, a2)
    dev = _device(a1, a2)
    a1, a2 = _align(_coeffs(a1, dev), _coeffs(a2, dev))
    return _wrap(a1 + a2, truepoly)


def polysub(a1, a2):
    """a1 - a2 (a poly1d when either is one)."""
    truepoly = _is_poly(a1, a2)
    dev = _device(a1, a2)
    a1, a2 = _align(_coeffs(a1, dev), _coeffs(a2, dev))
    return _wrap(a1 - a2, truepoly)


def polymul(a1, a2):
    """The product of two polynomials; as NumPy's, leading zeros of the
    factors are dropped first."""
    truepoly = _is_poly(a1, a2)
    dev = _device(a1, a2)
    p = _poly1d()
    c1 = p(_coeffs(a1, dev)).coeffs
    c2 = p(_coeffs(a2, dev)).coeffs
    return _wrap(_e.convolve(c1, c2), truepoly)


def _quotient(u, v, nq):
    """The nq leading coefficients of u / v (highest first): the lower
    triangular Toeplitz system sum_j v[i - j] q[j] = u[i], i < nq, which
    is synthetic division as one solve."""
    i = _e.arange(nq, device=u.device)
    lag = i[:, None] - i[None, :]
    vpad = _e.concatenate((v[:nq], _e.zeros(max(nq - v.shape[0], 0),
                                            dtype=v.dtype, device=v.device)))
    t = _e.where(lag >= 0, _e.take(vpad, _e.clip(lag, 0, nq - 1)), 0).astype(v.dtype)
    return _e.linalg.solve(t, u[:nq])


def polydiv(u, v):
    """(quotient, remainder) of u / v. Leading remainder coefficients
    within allclose(0, rtol=1e-14) of zero are dropped, as NumPy's."""
    truepoly = _is_poly(u, v)
    dev = _device(u, v)
    u = _coeffs(u, dev) + 0.0
    v = _coeffs(v, dev) + 0.0
    dt = _e.result_type(u, v)
    u, v = u.astype(dt, copy=False), v.astype(dt, copy=False)
    m, n = u.shape[0] - 1, v.shape[0] - 1
    if not bool(v[0] != 0):
        raise ZeroDivisionError("polydiv: the divisor's leading coefficient "
                                "is zero")
    if m - n + 1 > 0:
        nq = m - n + 1
        q = _quotient(u, v, nq)
        r = u - _e.convolve(v, q)
    else:
        q = _e.zeros(1, dtype=dt, device=u.device)
        r = u
    # NumPy's loop leaves the first m - n + 1 entries at (about) zero and
    # trims while allclose(r[0], 0, rtol=1e-14): the same test, in one read
    small = _e.abs(r) <= 1e-8
    keep = _e.flatnonzero(~small)
    first = int(keep[0]) if keep.size else r.shape[0] - 1
    r = r[min(first, r.shape[0] - 1):]
    if truepoly:
        p = _poly1d()
        return p(q), p(r)
    return q, r


def polyder(p, m=1):
    """The m-th derivative."""
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    truepoly = _is_poly(p)
    val = _coeffs(p, device_of(p.coeffs if truepoly else p))
    for _ in range(m):
        n = val.shape[0] - 1
        val = val[:-1] * _e.arange(n, 0, -1, device=val.device)
    return _wrap(val, truepoly)


def polyint(p, m=1, k=None):
    """The m-th antiderivative; k the integration constants (one for all
    orders, or m of them, the first for the innermost integral)."""
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    truepoly = _is_poly(p)
    val = _coeffs(p, device_of(p.coeffs if truepoly else p))
    if k is None:
        k = _e.zeros(m, dtype=_e.float64, device=val.device)
    k = _e.atleast_1d(as_array(k, val.device))
    if k.shape[0] == 1 and m > 1:
        k = k[0] * _e.ones(m, dtype=_e.float64, device=val.device)
    if k.shape[0] < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    for i in range(m):
        n = val.shape[0]
        val = _e.concatenate((val / _e.arange(n, 0, -1, device=val.device),
                              k[i:i + 1]))
    return _wrap(val, truepoly)


def polyval(p, x):
    """p at x (broadcast: p's trailing dimensions against x's), in the
    dtype NumPy's loop gives: result_type of x as an array and p. A poly1d
    x gives the composition p(x) as a poly1d."""
    if isinstance(p, _poly1d()):
        p = p.coeffs
    if isinstance(x, _poly1d()):
        dev = device_of(x.coeffs)
        # the zero polynomial on x's device, not the current one
        y = _poly1d()(_e.zeros(1, dtype=_e.int64, device=dev))
        for pv in _e.atleast_1d(as_array(p, dev)):
            y = y * x + pv
        return y
    dev = device_of(x, p)
    x = as_array(x, dev)
    p = as_array(p, dev)
    if p.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    if p.shape[0] == 0:
        return _e.zeros_like(x)
    from ember._api.horner import horner
    dt = _e.result_type(x, p)
    return horner(_e.flip(p, axis=0), x, dt, tensor=False)


def _rank_warning():
    return _e._np_exception("RankWarning")


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """Least-squares fit of a degree-deg polynomial, highest power first:
    NumPy's column scaling and ember.linalg.lstsq; RankWarning when the
    scaled Vandermonde matrix is rank deficient (and not full)."""
    order = int(deg) + 1
    dev = device_of(x, y, w)
    x = as_array(x, dev) + 0.0
    y = as_array(y, dev) + 0.0
    if deg < 0:
        raise ValueError("expected deg >= 0")
    from ember.polynomial.polyutils import _check_fit_points
    _check_fit_points(x, y)
    if rcond is None:
        rcond = x.shape[0] * float(_e.finfo(x.dtype).eps)
    lhs = _e.vander(x, order)
    rhs = y
    if w is not None:
        w = as_array(w, dev) + 0.0
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs = lhs * w[:, None]
        rhs = rhs * (w[:, None] if rhs.ndim == 2 else w)
    scale = _e.sqrt(_e.sum(lhs * lhs, axis=0))
    lhs = lhs / scale
    c, resids, rank, s = _e.linalg.lstsq(lhs, rhs, rcond)
    c = (c.T / scale).T
    if rank != order and not full:
        warnings.warn("Polyfit may be poorly conditioned", _rank_warning(),
                      stacklevel=2)
    if full:
        return c, resids, rank, s, rcond
    if cov:
        vbase = _e.linalg.inv(_e.dot(lhs.T, lhs))
        vbase = vbase / _e.outer(scale, scale)
        if cov == "unscaled":
            fac = 1
        else:
            if x.shape[0] <= order:
                raise ValueError("the number of data points must exceed order "
                                 "to scale the covariance matrix")
            fac = resids / (x.shape[0] - order)
        if y.ndim == 1:
            return c, vbase * fac
        return c, vbase[:, :, None] * fac
    return c


def roots(p):
    """The roots of p (highest power first): eigenvalues of the companion
    matrix by ember.linalg.eigvals, then p's trailing zeros as zero roots.
    As NumPy 2.4 (whose eigvals does this), real when p is real and every
    root's imaginary part is zero."""
    if isinstance(p, _poly1d()):
        p = p.coeffs
    p = _e.atleast_1d(as_array(p, device_of(p)))
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    nz = _e.flatnonzero(p)
    if nz.size == 0:
        return _e.empty(0, dtype=_e.float64, device=p.device)
    lo, hi = int(nz[0]), int(nz[-1])
    trailing = p.shape[0] - hi - 1
    p = p[lo:hi + 1]
    if p.dtype.kind not in "fc":
        p = p.astype(_e.float64)
    n = p.shape[0]
    if n > 1:
        first = (-p[1:] / p[0])[None, :]
        below = _e.eye(n - 2, n - 1, dtype=p.dtype, device=p.device)
        a = _e.concatenate((first, below))
        r = _e.linalg.eigvals(a)
        if p.dtype.kind != "c" and not bool(_e.any(_e.imag(r) != 0)):
            r = _e.real(r).copy()
    else:
        r = _e.empty(0, dtype=_e.float64, device=p.device)
    return _e.concatenate((r, _e.zeros(trailing, dtype=r.dtype, device=p.device)))
