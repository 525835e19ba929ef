"""scipy.special's functions over the beta function: betaln, the
regularized incomplete beta function betainc and its inverse betaincinv
(ElementwiseKernels over kernels/incbeta.h and incbetainv.h, since
ember's ufuncs take two inputs) and the
binomial, negative binomial and F distributions as SciPy defines them
over it, with SciPy's answers at the ends."""
import numbers as _numbers
import os as _os

import ember as _e
from ember._api._util import device_of

_kernels = {}


def _kernel(name, params, out, headers):
    """The ElementwiseKernel kernels/<name>.c over the given headers, built
    once."""
    k = _kernels.get(name)
    if k is None:
        here = _os.path.join(_os.path.dirname(__file__), "kernels")
        pre = ""
        for h in headers:
            with open(_os.path.join(here, h)) as f:
                pre += f.read() + "\n"
        with open(_os.path.join(here, name + ".c")) as f:
            body = f.read().partition("/* operation */")[2]
        k = _kernels[name] = _e.ElementwiseKernel(
            params, out, body, "ember_sp_" + name, preamble=pre)
    return k


def _betainc_kernel():
    return _kernel("betainc", "T a, T b, T x", "T y", ["incbeta.h"])


def _betaln_kernel():
    return _kernel("betaln", "T a, T b", "T y", ["incbeta.h"])


def _betaincinv_kernel():
    return _kernel("betaincinv", "T a, T b, T y", "T x",
                   ["incbeta.h", "incbetainv.h"])


def _floats(*args, name="betainc"):
    """The arguments as ember arrays of one float dtype, SciPy's 'fff->f,
    ddd->d': float32 when every array argument computes in float32
    (Python numbers are weak), else float64."""
    arrs, strong = [], []
    dev = device_of(*args)   # scalars join the array operands' device
    for v in args:
        weak = isinstance(v, _numbers.Number) and not hasattr(v, "dtype")
        a = v if isinstance(v, _e.ndarray) else _e.asarray(v, device=dev)
        arrs.append(a)
        if not weak:
            strong.append(a.dtype)
    f32 = strong and all(
        t.kind == "b" or (t.kind in "iu" and t.itemsize <= 2)
        or (t.kind == "f" and t.itemsize <= 4) for t in strong)
    if any(t.kind == "c" for t in strong):
        raise TypeError(f"ufunc '{name}' not supported for the input types")
    dt = _e.float32 if f32 else _e.float64
    return [a.astype(dt) for a in arrs], dt


def betaln(a, b):
    """log|B(a, b)|, to a few ulps where a or b is large (Stirling's
    series for the large argument's gammas, whose leading terms cancel)."""
    (a, b), _ = _floats(a, b, name="betaln")
    return _betaln_kernel()(a, b)


def betainc(a, b, x, out=None):
    """The regularized incomplete beta function I_x(a, b), SciPy's domain
    (NaN outside a, b >= 0, 0 <= x <= 1 and at a = b = 0; 1 for a = 0 past
    x = 0; 0 for b = 0 before x = 1)."""
    (a, b, x), _ = _floats(a, b, x)
    return _betainc_kernel()(a, b, x, out) if out is not None else \
        _betainc_kernel()(a, b, x)


def betaincinv(a, b, y, out=None):
    """The inverse of betainc in x: I_x(a, b) = y, SciPy's domain (NaN for
    a or b <= 0 and y outside [0, 1]; 0 and 1 at the ends)."""
    (a, b, y), _ = _floats(a, b, y, name="betaincinv")
    k = _betaincinv_kernel()
    return k(a, b, y, out) if out is not None else k(a, b, y)


def _nan_where(cond, v):
    return _e.where(cond, _e.nan, v).astype(v.dtype)


def bdtr(k, n, p):
    """The binomial distribution function sum_(j <= floor k) C(n, j) p^j
    (1-p)^(n-j) = betainc(n - k, k + 1, 1 - p) for floor k < n, 1 at k =
    n; NaN for k < 0, k > n, an infinite k or n, p outside [0, 1]."""
    (k, n, p), _ = _floats(k, n, p)
    k = _e.floor(k)
    v = betainc(_e.maximum(n - k, 1), k + 1, 1 - p)
    v = _e.where(k == n, 1.0, v).astype(v.dtype)
    bad = (k < 0) | (k > n) | _e.isinf(k) | _e.isinf(n) | (p < 0) | (p > 1)
    return _nan_where(bad | _e.isnan(k) | _e.isnan(n) | _e.isnan(p), v)


def bdtrc(k, n, p):
    """bdtr's complement betainc(k + 1, n - k, p): 1 for k < 0 (whatever
    n), 0 at k = n, NaN for k > n, infinite k or n and p outside [0, 1]."""
    (k, n, p), _ = _floats(k, n, p)
    k = _e.floor(k)
    v = betainc(k + 1, _e.maximum(n - k, 1), p)
    v = _e.where(k == n, 0.0, v).astype(v.dtype)
    v = _e.where(k < 0, 1.0, v).astype(v.dtype)
    bad = (k > n) | _e.isinf(k) | _e.isinf(n) | _e.isnan(k) | _e.isnan(n)
    bad = (bad & (k >= 0)) | _e.isnan(n) | _e.isinf(n) | (p < 0) | (p > 1) \
        | _e.isnan(p)
    return _nan_where(bad, v)


def _nbdtr(k, n, p, upper):
    (k, n, p), _ = _floats(k, n, p)
    k, n = _e.trunc(k), _e.trunc(n)  # SciPy's int loop casts both
    v = betainc(k + 1, n, 1 - p) if upper else betainc(n, k + 1, p)
    bad = (k < 0) | (n <= 0) | (p < 0) | (p > 1) | _e.isinf(k) | _e.isinf(n)
    return _nan_where(bad | _e.isnan(k) | _e.isnan(n) | _e.isnan(p), v)


def nbdtr(k, n, p):
    """The negative binomial distribution function betainc(n, k + 1, p),
    k and n truncated to integers as SciPy's cast does; NaN for k < 0,
    n <= 0 and p outside [0, 1]."""
    return _nbdtr(k, n, p, False)


def nbdtrc(k, n, p):
    """nbdtr's complement betainc(k + 1, n, 1 - p)."""
    return _nbdtr(k, n, p, True)


def _fdtr(dfn, dfd, x, upper):
    (dfn, dfd, x), _ = _floats(dfn, dfd, x)
    w = dfn * x / (dfd + dfn * x)
    big = _e.isinf(x)
    w = _e.where(big, 1.0, w).astype(w.dtype)
    if upper:
        # 1 - w as dfd / (dfd + dfn x), exact where w is near 1
        v = betainc(dfd / 2, dfn / 2, _e.where(big, 0.0, dfd / (dfd + dfn * x)))
    else:
        v = betainc(dfn / 2, dfd / 2, w)
    # an infinite df is NaN unless x is (SciPy's order)
    bad = (dfn <= 0) | (dfd <= 0) | (x < 0) | (
        (_e.isinf(dfn) | _e.isinf(dfd)) & ~big)
    v = _e.where(big, 0.0 if upper else 1.0, v).astype(v.dtype)
    return _nan_where(bad | _e.isnan(dfn) | _e.isnan(dfd) | _e.isnan(x), v)


def fdtr(dfn, dfd, x):
    """The F distribution function betainc(dfn/2, dfd/2, dfn x / (dfd +
    dfn x)); NaN for dfn or dfd <= 0 or infinite and x < 0."""
    return _fdtr(dfn, dfd, x, False)


def fdtrc(dfn, dfd, x):
    """fdtr's complement betainc(dfd/2, dfn/2, dfd / (dfd + dfn x))."""
    return _fdtr(dfn, dfd, x, True)
