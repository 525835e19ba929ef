"""numpy.polynomial.polyutils over ember arrays: coefficient series
(as_series, trimseq, trimcoef), domains (getdomain, mapdomain, mapparms),
and the steps every basis shares (add, sub, pow, the least-squares fit).
A series' length is data dependent where NumPy's is (trailing zeros are
trimmed), so those steps read one index on the host, as NumPy reads it."""
import operator
import warnings

import ember as _e
from ember._api._util import as_array, device_of

__all__ = ["as_series", "trimseq", "trimcoef", "getdomain", "mapdomain",
           "mapparms", "format_float"]


def _as_int(x, desc):
    try:
        return operator.index(x)
    except TypeError as e:
        raise TypeError(f"{desc} must be an integer, received {x}") from e


def _common_type(arrays):
    """numpy.common_type's answer: integers become float64, float16,
    float32 and float64 stay, complex takes the widest precision; None
    for booleans and anything else (NumPy's TypeError)."""
    cplx, size = False, 0
    for a in arrays:
        k = a.dtype.kind
        if k in "iu":
            s = 8
        elif k == "f":
            s = a.dtype.itemsize
        elif k == "c":
            cplx, s = True, a.dtype.itemsize // 2
        else:
            return None
        size = max(size, s)
    if cplx:
        return _e.complex64 if size <= 4 else _e.complex128
    return {2: _e.float16, 4: _e.float32}.get(size, _e.float64)


def _constants(x, domain=(-1.0, 1.0)):
    """A basis module's domain, zero, one and x series, NumPy's values and
    dtypes as host arrays: importing a basis starts no device, and every
    function here takes host arrays to the device of its other operands."""
    import numpy as np
    return (np.array(domain, dtype=np.float64), np.array([0]), np.array([1]),
            np.array(x))


def _dev(items):
    return device_of(*[x for x in items if isinstance(x, _e.ndarray)])


def as_series(alist, trim=True):
    """Each item as a 1-d ember array of one common inexact dtype (new
    arrays, NumPy's copies); trailing zeros trimmed when trim."""
    alist = list(alist)
    dev = _dev(alist)
    arrays = [_e.atleast_1d(as_array(a, dev)) for a in alist]
    for a in arrays:
        if a.size == 0:
            raise ValueError("Coefficient array is empty")
        if a.ndim != 1:
            raise ValueError("Coefficient array is not 1-d")
    if trim:
        arrays = [trimseq(a) for a in arrays]
    dt = _common_type(arrays)
    if dt is None:
        raise ValueError("Coefficient arrays have no common type")
    return [a.astype(dt, copy=True) for a in arrays]


def trimseq(seq):
    """seq without its trailing zeros (at least one element kept)."""
    if seq.shape[0] == 0:
        return seq
    nz = _e.flatnonzero(seq)
    last = int(nz[-1]) if nz.size else 0
    return seq[:last + 1]


def trimcoef(c, tol=0):
    """c without the trailing coefficients whose magnitude is <= tol; a
    series of zeros if none is larger."""
    if tol < 0:
        raise ValueError("tol must be non-negative")
    [c] = as_series([c])
    ind = _e.flatnonzero(_e.abs(c) > tol)
    if ind.size == 0:
        return c[:1] * 0
    return c[:int(ind[-1]) + 1].copy()


def getdomain(x):
    """The smallest interval (real) or rectangle (complex: corners
    min + i min, max + i max) holding the points x."""
    [x] = as_series([x], trim=False)
    if x.dtype.kind == "c":
        re, im = _e.real(x), _e.imag(x)
        lo = _e.min(re) + 1j * _e.min(im)
        hi = _e.max(re) + 1j * _e.max(im)
        return _e.stack((lo, hi)).astype(_e.complex128)
    return _e.stack((_e.min(x), _e.max(x)))


def mapparms(old, new):
    """(off, scl) of the linear map old -> new: new = off + scl * old."""
    oldlen = old[1] - old[0]
    newlen = new[1] - new[0]
    off = (old[1] * new[0] - old[0] * new[1]) / oldlen
    scl = newlen / oldlen
    return off, scl


def mapdomain(x, old, new):
    """x mapped linearly from the interval old to new."""
    from ember.polynomial._polybase import PolyBase
    off, scl = mapparms(old, new)
    if isinstance(x, PolyBase):
        # series arithmetic takes Python numbers; an ember 0-d operand on
        # the left would try to make the series an array
        off, scl = _e.asnumpy(off).item(), _e.asnumpy(scl).item()
        return off + scl * x
    if not isinstance(x, (int, float, complex, _e.ndarray)):
        x = as_array(x, device_of(off, scl))
    return off + scl * x


def format_float(x, parens=False):
    """A coefficient as numpy.polynomial's str writes it (NumPy's print
    options: precision, floatmode, sign, nan and inf text)."""
    import numpy as np
    if not np.issubdtype(type(x), np.floating):
        return str(x)
    opts = np.get_printoptions()
    if np.isnan(x):
        return opts["nanstr"]
    if np.isinf(x):
        return opts["infstr"]
    sci = x != 0 and (abs(x) >= 1.e8 or
                      abs(x) < 10 ** min(0, -(opts["precision"] - 1) // 2))
    fixed = opts["floatmode"] == "fixed"
    kw = dict(precision=opts["precision"], unique=not fixed,
              trim="k" if fixed else "0", sign=opts["sign"] == "+")
    if sci:
        s = np.format_float_scientific(x, **kw)
        return f"({s})" if parens else s
    return np.format_float_positional(x, fractional=True, **kw)


# ---- steps shared by the bases ---------------------------------------------

def _add(c1, c2):
    [c1, c2] = as_series([c1, c2])
    if c1.shape[0] < c2.shape[0]:
        c1, c2 = c2, c1
    pad = _e.zeros(c1.shape[0] - c2.shape[0], dtype=c2.dtype, device=c2.device)
    return trimseq(c1 + _e.concatenate((c2, pad)))


def _sub(c1, c2):
    [c1, c2] = as_series([c1, c2])
    n = max(c1.shape[0], c2.shape[0])

    def pad(c):
        return _e.concatenate((c, _e.zeros(n - c.shape[0], dtype=c.dtype,
                                           device=c.device)))
    return trimseq(pad(c1) - pad(c2))


def _pow(mul_f, c, pow, maxpower):
    """c ** pow by square-and-multiply (log2(pow) products, NumPy's loop
    makes pow - 1)."""
    [c] = as_series([c])
    power = int(pow)
    if power != pow or power < 0:
        raise ValueError("Power must be a non-negative integer.")
    if maxpower is not None and power > maxpower:
        raise ValueError("Power is too large")
    if power == 0:
        return _e.ones(1, dtype=c.dtype, device=c.device)
    prd, base = None, c
    while power:
        if power & 1:
            prd = base if prd is None else mul_f(prd, base)
        power >>= 1
        if power:
            base = mul_f(base, base)
    return prd


def _fit(vander_f, x, y, deg, rcond=None, full=False, w=None):
    """Least squares of y on the basis' Vandermonde columns (numpy's
    polyutils._fit): columns scaled to unit norm, ember.linalg.lstsq, a
    RankWarning when rank deficient and not full."""
    dev = device_of(x, y, w)
    x = as_array(x, dev) + 0.0
    y = as_array(y, dev) + 0.0
    degs = deg.tolist() if hasattr(deg, "tolist") else deg
    many = isinstance(degs, (list, tuple))
    try:
        if isinstance(degs, bool) or (many and (
                not degs or any(isinstance(d, bool) for d in degs))):
            raise TypeError
        degs = [operator.index(d) for d in degs] if many \
            else operator.index(degs)
    except TypeError:
        raise TypeError("deg must be an int or non-empty 1-D array of "
                        "int") from None
    if min(degs if many else [degs]) < 0:
        raise ValueError("expected deg >= 0")
    _check_fit_points(x, y)
    if many:
        degs = sorted(degs)
        lmax, order = degs[-1], len(degs)
        van = vander_f(x, lmax)[:, _e.asarray(degs, device=x.device)]
    else:
        lmax, order = degs, degs + 1
        van = vander_f(x, lmax)
    lhs, rhs = van.T, y.T
    if w is not None:
        w = as_array(w, dev) + 0.0
        if w.ndim != 1:
            raise TypeError("expected 1D vector for w")
        if w.shape[0] != x.shape[0]:
            raise TypeError("expected x and w to have same length")
        lhs = lhs * w
        rhs = rhs * w
    if rcond is None:
        rcond = x.shape[0] * float(_e.finfo(x.dtype).eps)
    if lhs.dtype.kind == "c":
        scl = _e.sqrt(_e.sum(_e.square(_e.real(lhs)) + _e.square(_e.imag(lhs)),
                             axis=1))
    else:
        scl = _e.sqrt(_e.sum(_e.square(lhs), axis=1))
    scl = _e.where(scl == 0, 1, scl).astype(scl.dtype)
    c, resids, rank, s = _e.linalg.lstsq(lhs.T / scl, rhs.T, rcond)
    c = (c.T / scl).T
    if many:
        cc = _e.zeros((lmax + 1,) + c.shape[1:], dtype=c.dtype, device=c.device)
        cc[_e.asarray(degs, device=c.device)] = c
        c = cc
    if rank != order and not full:
        warnings.warn("The fit may be poorly conditioned",
                      _e._ember._np_exception("RankWarning"), stacklevel=2)
    if full:
        return c, [resids, rank, s, rcond]
    return c


def _companion_series(c):
    """c as a series for a companion matrix, and its degree n (NumPy's
    ValueError below degree 1)."""
    [c] = as_series([c])
    n = c.shape[0] - 1
    if n < 1:
        raise ValueError("Series must have maximum degree of at least 1.")
    return c, n


def _check_fit_points(x, y):
    """NumPy's TypeErrors for a least-squares fit's sample points x (1-d,
    not empty) and values y (1-d or 2-d, as many rows as x)."""
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
