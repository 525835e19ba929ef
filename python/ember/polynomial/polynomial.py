"""numpy.polynomial.polynomial over ember arrays: power series with the
lowest power first (c[k] multiplies x**k), and the Polynomial class.
Evaluation is one Horner kernel (ember/_api/horner.py), products are
convolutions (many at once for polyfromroots, _api/polyprod.py), division
a triangular Toeplitz solve, fitting ember.linalg.lstsq, roots
ember.linalg.eigvals of the companion matrix, sorted."""
import ember as _e
from ember._api._util import as_array, device_of, normalize_axis, real_dtype
from ember._api.horner import horner
from ember._api.polyprod import product
from ember._api.polynomial_legacy import _quotient
from ember.polynomial import polyutils as pu
from ember.polynomial._polybase import PolyBase, series_class

__all__ = ["polyzero", "polyone", "polyx", "polydomain", "polyline",
           "polyadd", "polysub", "polymulx", "polymul", "polydiv", "polypow",
           "polyval", "polyvalfromroots", "polyder", "polyint",
           "polyfromroots", "polyvander", "polyfit", "polytrim", "polyroots",
           "Polynomial", "polyval2d", "polyval3d", "polygrid2d", "polygrid3d",
           "polyvander2d", "polyvander3d", "polycompanion"]

polytrim = pu.trimcoef
polydomain, polyzero, polyone, polyx = pu._constants([0, 1])

_INTS = "biu"


def _inexact(c):
    """c as numpy.polynomial takes it: at least 1-d, booleans and integers
    as float64."""
    c = _e.atleast_1d(as_array(c, device_of(c)))
    return c.astype(_e.float64) if c.dtype.kind in _INTS else c


def polyline(off, scl):
    """The series off + scl x (just off when scl is 0)."""
    dev = device_of(off, scl)
    if bool(scl != 0):
        return _e.stack([as_array(off, dev), as_array(scl, dev)])
    return _e.atleast_1d(as_array(off, dev)).copy()


def polyadd(c1, c2):
    return pu._add(c1, c2)


def polysub(c1, c2):
    return pu._sub(c1, c2)


def polymulx(c):
    """c times x."""
    [c] = pu.as_series([c])
    if c.shape[0] == 1 and not bool(c[0] != 0):
        return c
    return _e.concatenate((c[:1] * 0, c))


def polymul(c1, c2):
    [c1, c2] = pu.as_series([c1, c2])
    return pu.trimseq(_e.convolve(c1, c2))


def polydiv(c1, c2):
    """(quotient, remainder) of c1 / c2; ZeroDivisionError for a zero
    divisor, as NumPy's."""
    [c1, c2] = pu.as_series([c1, c2])
    if not bool(c2[-1] != 0):
        raise ZeroDivisionError("polydiv: division by the zero series")
    lc1, lc2 = c1.shape[0], c2.shape[0]
    if lc1 < lc2:
        return c1[:1] * 0, c1
    if lc2 == 1:
        return c1 / c2[-1], c1[:1] * 0
    # the quotient is the leading part of the division highest power first
    quo = _e.flip(_quotient(_e.flip(c1), _e.flip(c2), lc1 - lc2 + 1))
    rem = (c1 - _e.convolve(c2, quo))[:lc2 - 1]
    return quo, pu.trimseq(rem)


def polypow(c, pow, maxpower=None):
    return pu._pow(_e.convolve, c, pow, maxpower)


def polyder(c, m=1, scl=1, axis=0):
    """The m-th derivative along axis, each step multiplied by scl."""
    c = _inexact(c).copy()
    cdt = c.dtype
    cnt = pu._as_int(m, "the order of derivation")
    iaxis = pu._as_int(axis, "the axis")
    if cnt < 0:
        raise ValueError("The order of derivation must be non-negative")
    iaxis = normalize_axis(iaxis, c.ndim)
    if cnt == 0:
        return c
    c = _e.moveaxis(c, iaxis, 0)
    n = c.shape[0]
    if cnt >= n:
        c = c[:1] * 0
    else:
        rt = real_dtype(cdt)
        for _ in range(cnt):
            n -= 1
            j = _e.arange(1, n + 1, dtype=rt, device=c.device)
            c = ((c * scl).astype(cdt)[1:] *
                 j.reshape((n,) + (1,) * (c.ndim - 1))).astype(cdt)
    return _e.moveaxis(c, 0, iaxis)


def polyint(c, m=1, k=[], lbnd=0, scl=1, axis=0):
    """The m-th integral along axis: constants k (the first for the first
    integral), each integral zero at lbnd, each step times scl."""
    c = _inexact(c).copy()
    cdt = c.dtype
    if not hasattr(k, "__iter__") or isinstance(k, _e.ndarray) and k.ndim == 0:
        k = [k]
    cnt = pu._as_int(m, "the order of integration")
    iaxis = pu._as_int(axis, "the axis")
    if cnt < 0:
        raise ValueError("The order of integration must be non-negative")
    if len(k) > cnt:
        raise ValueError("Too many integration constants")
    if _e.ndim(lbnd) != 0:
        raise ValueError("lbnd must be a scalar.")
    if _e.ndim(scl) != 0:
        raise ValueError("scl must be a scalar.")
    iaxis = normalize_axis(iaxis, c.ndim)
    if cnt == 0:
        return c
    k = list(k) + [0] * (cnt - len(k))
    c = _e.moveaxis(c, iaxis, 0)
    rt = real_dtype(cdt)
    for i in range(cnt):
        n = c.shape[0]
        c = (c * scl).astype(cdt)
        if n == 1 and bool(_e.all(c[0] == 0)):
            c = (c + k[i]).astype(cdt)
            continue
        j = _e.arange(1, n + 1, dtype=rt, device=c.device)
        tmp = _e.concatenate((c[:1] * 0, (c / j.reshape((n,) + (1,) * (c.ndim - 1)))
                              .astype(cdt))).astype(cdt)
        first = (tmp[0] + (k[i] - polyval(lbnd, tmp))).astype(cdt)
        c = _e.concatenate((first[None], tmp[1:]))
    return _e.moveaxis(c, 0, iaxis)


def polyval(x, c, tensor=True):
    """The series c at x: with c of more than one dimension its columns
    c[:, j...], each at every x when tensor (shape c.shape[1:] + x.shape),
    else broadcast against x. One Horner kernel. A series object x gives
    the composition."""
    if isinstance(x, PolyBase):
        c = _inexact(c)
        # series operators on the left: an ember operand there would try
        # to make the series an array
        c0 = x * 0 + c[-1]
        for i in range(2, c.shape[0] + 1):
            c0 = c0 * x + c[-i]
        return c0
    c = _inexact(c)
    dt = _e.result_type(x if isinstance(x, (int, float, complex, _e.ndarray))
                        else as_array(x, c.device), c)
    xa = as_array(x, c.device)
    return horner(c, xa.astype(dt, copy=False), dt, tensor=tensor)


def polyvalfromroots(x, r, tensor=True):
    """prod(x - r) over r's first axis."""
    r = _inexact(r)
    if not isinstance(x, (int, float, complex)):
        x = as_array(x, r.device)
        if tensor:
            r = r.reshape(r.shape + (1,) * x.ndim)
        elif x.ndim >= r.ndim:
            raise ValueError("x.ndim must be < r.ndim when tensor == False")
    return _e.prod(x - r, axis=0)


def _valnd(val_f, c, *args):
    dev = device_of(c, *args)
    args = [as_array(a, dev) for a in args]
    if not all(a.shape == args[0].shape for a in args[1:]):
        raise ValueError({3: "x, y, z are incompatible",
                          2: "x, y are incompatible"}.get(
                              len(args), "ordinates are incompatible"))
    c = val_f(args[0], c)
    for xi in args[1:]:
        c = val_f(xi, c, tensor=False)
    return c


def polyval2d(x, y, c):
    """sum c[i, j] x**i y**j at the points (x, y)."""
    return _valnd(polyval, c, x, y)


def polyval3d(x, y, z, c):
    return _valnd(polyval, c, x, y, z)


def polygrid2d(x, y, c):
    """polyval2d on the grid x cross y."""
    for xi in (x, y):
        c = polyval(xi, c)
    return c


def polygrid3d(x, y, z, c):
    for xi in (x, y, z):
        c = polyval(xi, c)
    return c


def polyvander(x, deg):
    """The powers x**0 .. x**deg along a new last axis (NumPy's repeated
    products, as one cumulative product)."""
    ideg = pu._as_int(deg, "deg")
    if ideg < 0:
        raise ValueError("deg must be non-negative")
    x = _e.atleast_1d(as_array(x, device_of(x))) + 0.0
    ones = (x * 0 + 1)[..., None]
    if ideg == 0:
        return ones
    reps = _e.broadcast_to(x[..., None], x.shape + (ideg,))
    return _e.concatenate((ones, _e.cumprod(reps, axis=-1)), axis=-1)


def _vander_nd_flat(points, degrees, vander_f=None):
    if len(points) != len(degrees):
        raise ValueError(f"Expected {len(points)} dimensions of degrees, got "
                         f"{len(degrees)}")
    dev = device_of(*points)
    pts = [as_array(p, dev) for p in points]
    dt = _e.result_type(*pts, 0.0)
    n = len(pts)
    v = None
    for i, (p, d) in enumerate(zip(pts, degrees)):
        vi = (vander_f or polyvander)(p.astype(dt), d)
        vi = vi.reshape(vi.shape[:-1] + (1,) * i + (vi.shape[-1],) +
                        (1,) * (n - 1 - i))
        v = vi if v is None else v * vi
    return v.reshape(v.shape[:-n] + (-1,))


def polyvander2d(x, y, deg):
    return _vander_nd_flat((x, y), deg)


def polyvander3d(x, y, z, deg):
    return _vander_nd_flat((x, y, z), deg)


def polyfit(x, y, deg, rcond=None, full=False, w=None):
    """Least-squares power series (lowest power first) of degree deg, or
    with only the powers listed in deg; full adds [resids, rank, s, rcond]."""
    return pu._fit(polyvander, x, y, deg, rcond, full, w)


def polycompanion(c):
    """The companion matrix, whose eigenvalues are c's roots."""
    c, n = pu._companion_series(c)
    if n == 1:
        return (-c[0] / c[1]).reshape(1, 1)
    sub = _e.eye(n, n - 1, k=-1, dtype=c.dtype, device=c.device)
    return _e.concatenate((sub, (-c[:-1] / c[-1])[:, None]), axis=1)


def polyroots(c):
    """The roots, sorted; as NumPy 2.4's, real when c is real and every
    root is."""
    [c] = pu.as_series([c])
    if c.shape[0] < 2:
        return _e.empty(0, dtype=c.dtype, device=c.device)
    if c.shape[0] == 2:
        return _e.atleast_1d(-c[0] / c[1])
    r = _e.linalg.eigvals(polycompanion(c))
    if c.dtype.kind != "c" and not bool(_e.any(_e.imag(r) != 0)):
        r = _e.real(r)
    return _e.sort(r)


def polyfromroots(roots):
    """The monic series with the given roots."""
    roots = as_array(roots, device_of(roots))
    if roots.ndim and roots.shape[0] == 0:
        return _e.ones(1, dtype=_e.float64, device=roots.device)
    [roots] = pu.as_series([roots], trim=False)
    roots = _e.sort(roots)
    return product(_e.stack((-roots, _e.ones_like(roots)), axis=1))


Polynomial = series_class(
    "Polynomial", "A power series, numpy.polynomial.Polynomial's interface over ember "
    "arrays: Polynomial([1, 2, 3]) is 1 + 2x + 3x**2.", globals(), "poly", None)
