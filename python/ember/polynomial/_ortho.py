"""Steps the orthogonal bases (chebyshev.py, legendre.py, hermite.py,
hermite_e.py, laguerre.py) share, each a
few array operations where NumPy loops over coefficients:

- products, quotients and series from roots through values: a series of
  degree < N is fixed by its values at N points where the basis'
  Vandermonde matrix is well conditioned (Chebyshev points for T and P,
  the basis' own Gauss points for H, He and L), so the product of two
  series is one solve (or projection) of V c = f1 * f2 (one launch of
  the evaluation kernel per factor);
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


def points(n, dtype, device, rule=None):
    """(x, w): n points where a series of degree < n is fixed by its
    values. Without a rule Chebyshev points (w None: values are solved
    for); with rule (a basis' companion function) the basis' own Gauss
    points and weights, where its Vandermonde matrix is orthogonal under
    the weights, so values are projected. Hermite and Laguerre need the
    latter: their Vandermonde matrices at Chebyshev points reach
    condition numbers of 1e18 by degree 20."""
    if rule is None:
        return nodes(n, dtype, device), None
    x, w = gauss(n, rule, 1.0, False, device)
    rt = real_dtype(dtype)
    if rt not in (_e.float32, _e.float64):
        rt = _e.float64
    return x.astype(rt), w.astype(rt)


def solve_values(v, w, f):
    """c with v c = f (v square): a solve, or with Gauss weights w the
    projection c_k = sum_i w_i v_ik f_i / sum_i w_i v_ik**2."""
    if w is None:
        return _e.linalg.solve(v, f)
    vw = v * w[:, None]
    norm = _e.sum(vw * v, axis=0)
    c = _e.matmul(_e.moveaxis(vw, -1, 0), f)
    return c / (norm if c.ndim == 1 else norm[:, None])


def from_values(vander_f, x, f, dtype, w=None):
    """The series of degree < len(x) with values f at the points x."""
    v = vander_f(x, x.shape[0] - 1)
    return solve_values(v.astype(dtype), w, f.astype(dtype))


def mul(val_f, vander_f, c1, c2, rule=None):
    [c1, c2] = pu.as_series([c1, c2])
    dt = _e.result_type(c1, c2)
    n = c1.shape[0] + c2.shape[0] - 1
    x, w = points(n, dt, c1.device, rule)
    return pu.trimseq(from_values(vander_f, x, val_f(x, c1) * val_f(x, c2), dt,
                                  w))


def div(val_f, vander_f, c1, c2, rule=None):
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
    x, w = points(lc1, dt, c1.device, rule)
    v = vander_f(x, lc1 - 1).astype(dt)
    m = solve_values(v, w, val_f(x, c2)[:, None] * v[:, :lq])
    quo = _e.linalg.solve(m[lc2 - 1:], c1[lc2 - 1:])
    rem = (c1 - _e.matmul(m, quo))[:lc2 - 1]
    return quo.astype(dt), pu.trimseq(rem.astype(dt))


def fromroots(vander_f, roots, rule=None):
    """The series of prod(x - r), from its values at len(roots) + 1
    points."""
    roots = _e.atleast_1d(_e.asarray(roots) if not isinstance(roots, _e.ndarray)
                          else roots)
    if roots.shape[0] == 0:
        return _e.ones(1, dtype=_e.float64, device=roots.device)
    [roots] = pu.as_series([roots], trim=False)
    roots = _e.sort(roots)
    n = roots.shape[0] + 1
    x, w = points(n, roots.dtype, roots.device, rule)
    f = _e.prod(x[:, None] - roots[None, :], axis=1)
    return from_values(vander_f, x, f, roots.dtype, w)


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
    if c.shape[0] == 2:   # the 1x1 companion is the root in every basis
        return companion_f(c).reshape(1)
    mat = _e.flip(companion_f(c), axis=(0, 1))
    r = _e.linalg.eigvals(mat)
    if c.dtype.kind != "c" and not bool(_e.any(_e.imag(r) != 0)):
        r = _e.real(r)
    return _e.sort(r)


def line(off, scl):
    """off + scl B_1 where B_1 = x (Chebyshev, Legendre, HermiteE); just
    off when scl is 0."""
    from ember._api._util import as_array, device_of
    dev = device_of(off, scl)
    if bool(scl != 0):
        return _e.stack([as_array(off, dev), as_array(scl, dev)])
    return _e.atleast_1d(as_array(off, dev)).copy()


def mulx_terms(c, up, down, up0=1, mid=None):
    """The series c times x when x B_i = up_i B_{i+1} + mid_i B_i +
    down_i B_{i-1} (up, down: arrays over i >= 1, mid over i >= 0 or None
    for 0) and x B_0 = up0 B_1 + mid_0 B_0."""
    [c] = pu.as_series([c])
    if c.shape[0] == 1 and not bool(c[0] != 0):
        return c
    n = c.shape[0]
    prd = _e.concatenate((c[:1] * 0, c[:1] * up0,
                          _e.zeros(n - 1, dtype=c.dtype, device=c.device)))
    if n > 1:
        prd[2:] = c[1:] * up
        prd[:n - 1] = prd[:n - 1] + c[1:] * down
    if mid is not None:
        prd[:n] = prd[:n] + c * mid
    return prd


def inexact(c):
    c = _e.atleast_1d(as_array(c, device_of(c)))
    return c.astype(_e.float64) if c.dtype.kind in "biu" else c


def compose(x, c, first, step):
    """sum_k c[k] B_k(x) for a series object x: B_k(x) built by the
    recurrence vander() uses, one series product a degree as NumPy's
    Clenshaw loop over series."""
    b2 = x * 0 + 1
    out = b2 * c[0]
    if c.shape[0] > 1:
        b1 = first(x)
        out = out + b1 * c[1]
        for i in range(2, c.shape[0]):
            b2, b1 = b1, step(i, b1, b2, x)
            out = out + b1 * c[i]
    return out


def evaluator(basis, prefix, first, step):
    """A basis' val(x, c, tensor): one Clenshaw kernel (`basis` names its
    recurrence in ember/_api/horner.py); a series object x composes."""
    from ember._api.horner import horner
    from ember.polynomial._polybase import PolyBase

    def val(x, c, tensor=True):
        c = inexact(c)
        if isinstance(x, PolyBase):
            return compose(x, c, first, step)
        dt = _e.result_type(x if isinstance(x, (int, float, complex, _e.ndarray))
                            else as_array(x, c.device), c)
        xa = as_array(x, c.device)
        return horner(c, xa.astype(dt, copy=False), dt, tensor, basis=basis)
    val.__name__ = val.__qualname__ = prefix + "val"
    val.__doc__ = (f"The {basis} series c at x (NumPy's shapes: see polyval); "
                   "one Clenshaw kernel. A series object x gives the "
                   "composition.")
    return val


def gauss(deg, companion_f, mu0, symmetric, device=None):
    """(points, weights) of the deg-point Gauss rule of a basis whose
    scaled companion matrix of B_deg is the symmetric Jacobi matrix:
    points its eigenvalues (ember.linalg.eigvalsh), one Newton step on
    the orthonormal p_deg, then NumPy's weights 1 / (p_{deg-1} p_deg')
    scaled to sum to mu0 (the weight function's integral); a symmetric
    rule is symmetrized as NumPy does."""
    ideg = pu._as_int(deg, "deg")
    if ideg <= 0:
        raise ValueError("deg must be a positive integer")
    c = _e.zeros(ideg + 1, dtype=_e.float64, device=device)   # None: current
    c[-1] = 1
    jac = companion_f(c)
    x = _e.linalg.eigvalsh(jac)
    if ideg == 1:
        return x, _e.full(1, float(mu0), dtype=_e.float64, device=x.device)
    a, b = _e.diagonal(jac), _e.diagonal(jac, 1)

    def p_and_der(x):
        # the recurrence x p_k = b_k p_{k+1} + a_k p_k + b_{k-1} p_{k-1}
        # with p_deg's own scale dropped (its zeros are what counts)
        p0, p1 = x * 0, x * 0 + 1
        d0, d1 = x * 0, x * 0
        for k in range(ideg):
            bk = b[k] if k < ideg - 1 else 1.0
            bp = b[k - 1] if k > 0 else 0.0
            p0, p1, d0, d1 = (p1, ((x - a[k]) * p1 - bp * p0) / bk,
                              d1, ((x - a[k]) * d1 + p1 - bp * d0) / bk)
        return p1, d1, p0
    dy, df, _ = p_and_der(x)
    x = x - dy / df
    _, df, fm = p_and_der(x)
    fm = fm / _e.max(_e.abs(fm))
    df = df / _e.max(_e.abs(df))
    w = 1 / (fm * df)
    if symmetric:
        w = (w + _e.flip(w)) / 2
        x = (x - _e.flip(x)) / 2
    return x, w * (mu0 / _e.sum(w))


def conversions(module, prefix, val_f, vander_f, rule=None):
    """(prefix2poly, poly2prefix). To the power basis: the series at the
    power series x (val's composition), NumPy's loop of series products
    over the degree, which stays exact where a solve at points would lose
    digits past degree 20. From it: the series with the same values at
    len(c) points (see points(); one kernel and one solve or projection)."""
    from ember.polynomial.polynomial import Polynomial, polyval

    def to_poly(c):
        [c] = pu.as_series([c])
        x = Polynomial(_e.asarray([0.0, 1.0], device=c.device))
        out = val_f(x, c).coef.astype(c.dtype)
        if out.shape[0] < c.shape[0]:   # the products trimmed zero terms
            out = _e.concatenate((out, _e.zeros(c.shape[0] - out.shape[0],
                                                dtype=c.dtype, device=c.device)))
        return out

    def from_poly(pol):
        [pol] = pu.as_series([pol])
        x, w = points(pol.shape[0], pol.dtype, pol.device, rule)
        return from_values(vander_f, x, polyval(x, pol), pol.dtype, w)
    to_poly.__doc__ = f"The power series of a {prefix} series."
    from_poly.__doc__ = f"The {prefix} series of a power series."
    for name, f in ((prefix + "2poly", to_poly), ("poly2" + prefix, from_poly)):
        f.__name__ = f.__qualname__ = name
        f.__module__ = module
    return to_poly, from_poly


def arithmetic(module, prefix, val_f, vander_f, rule=None, mul_f=None):
    """A basis module's (add, sub, mul, div, pow), named prefix + 'add' ...:
    sums termwise, products through values at points (see points(); rule
    as there) unless mul_f is the basis' own, quotients by div()."""
    def add(c1, c2):
        return pu._add(c1, c2)

    def sub(c1, c2):
        return pu._sub(c1, c2)

    if mul_f is None:
        def mul_f(c1, c2):
            return mul(val_f, vander_f, c1, c2, rule)
        mul_f.__doc__ = "The product (through values at the basis' points)."

    def div_(c1, c2):
        """(quotient, remainder); ZeroDivisionError for the zero series."""
        return div(val_f, vander_f, c1, c2, rule)

    def pow_(c, pow, maxpower=16):
        return pu._pow(mul_f, c, pow, maxpower)

    fs = (add, sub, mul_f, div_, pow_)
    for suffix, f in zip(("add", "sub", "mul", "div", "pow"), fs):
        f.__name__ = f.__qualname__ = prefix + suffix
        f.__module__ = module
    return fs


def common(module, prefix, what, vander_f, val_f, companion_f, rule=None):
    """The functions a basis module writes the same way over its own
    vander, val and companion: (roots, fromroots, fit, val2d, grid2d,
    vander2d), named prefix + 'roots' ... (what names the basis in docs;
    rule: see points())."""
    from ember.polynomial.polynomial import _valnd, _vander_nd_flat

    def roots_(c):
        """The roots, sorted (real when c is and every root is)."""
        return roots(companion_f, c)

    def fromroots_(r):
        return fromroots(vander_f, as_array(r, device_of(r)), rule)
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
