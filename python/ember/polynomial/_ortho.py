"""Steps the orthogonal bases (chebyshev.py, legendre.py) share, each a
few array operations where NumPy loops over coefficients:

- products, quotients and series from roots through values: a series of
  degree < N is fixed by its values at N Chebyshev points, and the
  basis' Vandermonde matrix there is well conditioned, so the product of
  two series is one solve of V c = f1 * f2 (one launch of the evaluation
  kernel per factor);
- derivatives and integrals through their closed forms (a derivative's
  coefficients are sums over every other higher coefficient: one
  cumulative sum on a two-column view)."""
import ember as _e
from ember._api._util import as_array, device_of, normalize_axis, real_dtype
from ember.polynomial import polyutils as pu


def nodes(n, dtype, device):
    """The n Chebyshev points of the first kind, cos(pi (k + 1/2) / n)."""
    rt = real_dtype(dtype)
    if rt not in (_e.float32, _e.float64):
        rt = _e.float64
    k = _e.arange(n, dtype=_e.float64, device=device)
    return _e.cos(3.141592653589793 * (k + 0.5) / n).astype(rt)


def from_values(vander_f, x, f, dtype):
    """The series of degree < len(x) with values f at the points x."""
    v = vander_f(x, x.shape[0] - 1)
    return _e.linalg.solve(v.astype(dtype), f.astype(dtype))


def mul(val_f, vander_f, c1, c2):
    [c1, c2] = pu.as_series([c1, c2])
    dt = _e.result_type(c1, c2)
    n = c1.shape[0] + c2.shape[0] - 1
    x = nodes(n, dt, c1.device)
    return pu.trimseq(from_values(vander_f, x, val_f(x, c1) * val_f(x, c2), dt))


def div(val_f, vander_f, c1, c2):
    """(quotient, remainder): the product matrix M (columns: c2 times
    each basis series of the quotient's degree) from values, then the
    triangular top rows of M q = c1 solved for q."""
    [c1, c2] = pu.as_series([c1, c2])
    if not bool(c2[-1] != 0):
        raise ZeroDivisionError("division by the zero series")
    lc1, lc2 = c1.shape[0], c2.shape[0]
    if lc1 < lc2:
        return c1[:1] * 0, c1
    if lc2 == 1:
        return c1 / c2[-1], c1[:1] * 0
    dt = c1.dtype
    lq = lc1 - lc2 + 1
    x = nodes(lc1, dt, c1.device)
    v = vander_f(x, lc1 - 1).astype(dt)
    m = _e.linalg.solve(v, val_f(x, c2)[:, None] * v[:, :lq])
    quo = _e.linalg.solve(m[lc2 - 1:], c1[lc2 - 1:])
    rem = (c1 - _e.matmul(m, quo))[:lc2 - 1]
    return quo.astype(dt), pu.trimseq(rem.astype(dt))


def fromroots(vander_f, roots):
    """The series of prod(x - r), from its values at len(roots) + 1
    points."""
    roots = _e.atleast_1d(_e.asarray(roots) if not isinstance(roots, _e.ndarray)
                          else roots)
    if roots.shape[0] == 0:
        return _e.ones(1, dtype=_e.float64, device=roots.device)
    [roots] = pu.as_series([roots], trim=False)
    roots = _e.sort(roots)
    n = roots.shape[0] + 1
    x = nodes(n, roots.dtype, roots.device)
    f = _e.prod(x[:, None] - roots[None, :], axis=1)
    return from_values(vander_f, x, f, roots.dtype)


def skip_cumsum(a):
    """s[k] = a[k] + a[k + 2] + a[k + 4] + ... along the first axis."""
    n = a.shape[0]
    if n % 2:
        a = _e.concatenate((a, _e.zeros((1,) + a.shape[1:], dtype=a.dtype,
                                         device=a.device)))
    pairs = a.reshape((a.shape[0] // 2, 2) + a.shape[1:])
    s = _e.flip(_e.cumsum(_e.flip(pairs, axis=0), axis=0), axis=0)
    return s.reshape(a.shape)[:n]


def _prep(c, m, axis, what):
    c = _e.atleast_1d(c if isinstance(c, _e.ndarray) else _e.asarray(c))
    if c.dtype.kind in "biu":
        c = c.astype(_e.float64)
    cnt = pu._as_int(m, f"the order of {what}")
    iaxis = pu._as_int(axis, "the axis")
    if cnt < 0:
        raise ValueError(f"The order of {what} must be non-negative")
    return c.copy(), cnt, iaxis


def column(v, ndim):
    """A 1-d v shaped to scale the rows of an ndim array."""
    return v.reshape(v.shape + (1,) * (ndim - 1))


def deriv(c, m, scl, axis, step):
    """m derivatives along axis; step(c) is one derivative of a series
    (rows along the first axis) of at least two rows."""
    c, cnt, iaxis = _prep(c, m, axis, "derivation")
    iaxis = normalize_axis(iaxis, c.ndim)
    if cnt == 0:
        return c
    cdt = c.dtype
    c = _e.moveaxis(c, iaxis, 0)
    if cnt >= c.shape[0]:
        c = c[:1] * 0
    else:
        for _ in range(cnt):
            c = step((c * scl).astype(cdt)).astype(cdt)
    return _e.moveaxis(c, 0, iaxis)


def integ(c, m, k, lbnd, scl, axis, step, val_f):
    """m integrals along axis with constants k, each zero at lbnd: NumPy's
    checks and steps; step(c) is one antiderivative without its constant."""
    if not hasattr(k, "__iter__") or isinstance(k, _e.ndarray) and k.ndim == 0:
        k = [k]
    c, cnt, iaxis = _prep(c, m, axis, "integration")
    if len(k) > cnt:
        raise ValueError("Too many integration constants")
    if _e.ndim(lbnd) != 0:
        raise ValueError("lbnd must be a scalar.")
    if _e.ndim(scl) != 0:
        raise ValueError("scl must be a scalar.")
    iaxis = normalize_axis(iaxis, c.ndim)
    if cnt == 0:
        return c
    cdt = c.dtype
    k = list(k) + [0] * (cnt - len(k))
    c = _e.moveaxis(c, iaxis, 0)
    for i in range(cnt):
        c = (c * scl).astype(cdt)
        if c.shape[0] == 1 and bool(_e.all(c[0] == 0)):
            c = (c + k[i]).astype(cdt)
            continue
        tmp = step(c).astype(cdt)
        first = (tmp[0] + (k[i] - val_f(lbnd, tmp))).astype(cdt)
        c = _e.concatenate((first[None], tmp[1:]))
    return _e.moveaxis(c, 0, iaxis)


def vander(x, deg, first, step):
    """Columns B_0(x) .. B_deg(x) along a new last axis by the basis'
    three-term recurrence: step(i, b_{i-1}, b_{i-2}, x) -> b_i."""
    ideg = pu._as_int(deg, "deg")
    if ideg < 0:
        raise ValueError("deg must be non-negative")
    x = _e.atleast_1d(x if isinstance(x, _e.ndarray) else _e.asarray(x)) + 0.0
    cols = [x * 0 + 1]
    if ideg > 0:
        cols.append(first(x))
    for i in range(2, ideg + 1):
        cols.append(step(i, cols[-1], cols[-2], x))
    return _e.stack(cols, axis=-1)


def roots(companion_f, c):
    """The sorted eigenvalues of the basis' companion matrix (real when c
    is real and every root is, as NumPy 2.4)."""
    [c] = pu.as_series([c])
    if c.shape[0] < 2:
        return _e.empty(0, dtype=c.dtype, device=c.device)
    if c.shape[0] == 2:
        return _e.atleast_1d(-c[0] / c[1])
    mat = _e.flip(companion_f(c), axis=(0, 1))
    r = _e.linalg.eigvals(mat)
    if c.dtype.kind != "c" and not bool(_e.any(_e.imag(r) != 0)):
        r = _e.real(r)
    return _e.sort(r)


def line(off, scl):
    """off + scl B_1 (B_1 = x in both bases); just off when scl is 0."""
    from ember._api._util import as_array, device_of
    dev = device_of(off, scl)
    if bool(scl != 0):
        return _e.stack([as_array(off, dev), as_array(scl, dev)])
    return _e.atleast_1d(as_array(off, dev)).copy()


def mulx_terms(c, up, down):
    """The series c times x when x B_i = up_i B_{i+1} + down_i B_{i-1}
    (up, down: arrays over i >= 1) and x B_0 = B_1."""
    [c] = pu.as_series([c])
    if c.shape[0] == 1 and not bool(c[0] != 0):
        return c
    n = c.shape[0]
    prd = _e.concatenate((c[:1] * 0, c[:1], _e.zeros(n - 1, dtype=c.dtype,
                                                      device=c.device)))
    if n > 1:
        prd[2:] = c[1:] * up
        prd[:n - 1] = prd[:n - 1] + c[1:] * down
    return prd


def common(module, prefix, what, vander_f, val_f, companion_f):
    """The functions a basis module writes the same way over its own
    vander, val and companion: (roots, fromroots, fit, val2d, grid2d,
    vander2d), named prefix + 'roots' ... (what names the basis in docs)."""
    from ember.polynomial.polynomial import _valnd, _vander_nd_flat

    def roots_(c):
        """The roots, sorted (real when c is and every root is)."""
        return roots(companion_f, c)

    def fromroots_(r):
        return fromroots(vander_f, as_array(r, device_of(r)))
    fromroots_.__doc__ = f"The {what} series of prod(x - r)."

    def fit(x, y, deg, rcond=None, full=False, w=None):
        return pu._fit(vander_f, x, y, deg, rcond, full, w)
    fit.__doc__ = f"Least-squares {what} series (see polyfit)."

    def val2d(x, y, c):
        return _valnd(val_f, c, x, y)

    def grid2d(x, y, c):
        for xi in (x, y):
            c = val_f(xi, c)
        return c

    def vander2d(x, y, deg):
        return _vander_nd_flat((x, y), deg, vander_f)

    fs = (roots_, fromroots_, fit, val2d, grid2d, vander2d)
    for suffix, f in zip(("roots", "fromroots", "fit", "val2d", "grid2d", "vander2d"), fs):
        f.__name__ = f.__qualname__ = prefix + suffix
        f.__module__ = module
    return fs
