"""ember.linalg's decompositions and solvers, as numpy.linalg's: argument
handling, dtypes, batch shapes and result assembly here; on the cpu device
the work is one C call a function (include/ember/lapack.h), which loops
over the batch and calls LAPACK (OpenBLAS from the scipy-openblas64 wheel,
whose folder ember/__init__.py hands the C core); on CUDA devices it is
cuSOLVER's raw calls composed in linalg_cuda.py (eig and eigvals are
not there yet and say so).
Loaded on the first use of one of these names (ember/__init__.py), so
`import ember` does not pay for it; NumPy is never imported here."""
import operator
import warnings
from collections import namedtuple

import ember as _e
from ember import _ember as _c
from ember._api._util import normalize_axis, real_dtype as _real
from ember._api.norms import _vector, norm  # noqa: F401 (ember.linalg.norm)
from ember._api.products import (  # noqa: F401 (ember.linalg's products)
    matmul, matrix_transpose, outer, tensordot, vecdot)

__all__ = ["LinAlgError", "solve", "inv", "det", "slogdet", "cholesky", "qr",
           "eigh", "eigvalsh", "eig", "eigvals", "svd", "svdvals", "lstsq",
           "pinv", "matrix_rank", "matrix_power", "cond", "norm",
           "matrix_norm", "vector_norm", "cross", "diagonal", "trace",
           "multi_dot", "tensorinv", "tensorsolve", "matmul",
           "matrix_transpose", "outer", "tensordot", "vecdot"]

EigResult = namedtuple("EigResult", "eigenvalues eigenvectors")
EighResult = namedtuple("EighResult", "eigenvalues eigenvectors")
QRResult = namedtuple("QRResult", "Q R")
SlogdetResult = namedtuple("SlogdetResult", "sign logabsdet")
SVDResult = namedtuple("SVDResult", "U S Vh")

_NoValue = object()
_QR_MODES = {"reduced": 0, "complete": 1, "r": 2, "raw": 3}


def _linalg_error(msg):
    # NumPy's LinAlgError subclass once NumPy is loaded (errors.c)
    return _c._np_exception("LinAlgError")(msg)


def _arr(a, like=None):
    """a as an ember array; a list or scalar goes to like's device (the
    default device without like)."""
    if isinstance(a, _e.ndarray):
        return a
    return _e.asarray(a, device=like.device if like is not None else None)


def _arrs(*xs):
    """Every x as an ember array on the device of the first that is one."""
    like = next((x for x in xs if isinstance(x, _e.ndarray)), None)
    return [_arr(x, like) for x in xs]


def _cuda(a):
    """linalg_cuda when a lives on a CUDA device, else None."""
    if a.device.type == "cpu":
        return None
    from ember._api import linalg_cuda
    return linalg_cuda


def _stacked_2d(a):
    if a.ndim < 2:
        raise _linalg_error(f"{a.ndim}-dimensional array given. Array must be "
                            "at least two-dimensional")


def _square(a):
    if a.shape[-1] != a.shape[-2]:
        raise _linalg_error("Last 2 dimensions of the array must be square")


def _common(*arrs):
    """(compute dtype, result dtype) as numpy.linalg's _commonType, except
    that float32 and complex64 are also computed in their own precision
    (NumPy computes in double and rounds)."""
    double = cplx = False
    for a in arrs:
        k = a.dtype.kind
        if k in "fc":
            if a.dtype.name not in ("float32", "float64", "complex64",
                                    "complex128"):
                raise TypeError(f"array type {a.dtype.name} is unsupported "
                                "in linalg")
            cplx |= k == "c"
            double |= a.dtype.itemsize == (16 if k == "c" else 8)
        else:
            double = True
    if cplx:
        t = _e.complex128 if double else _e.complex64
    else:
        t = _e.float64 if double else _e.float32
    return t, t


def _prep(name, a, square=True):
    a = _arr(a)
    _stacked_2d(a)
    if square:
        _square(a)
    t, _ = _common(a)
    return a.astype(t, copy=False), t


def _finite(a):
    if not bool(_e.all(_e.isfinite(a))):
        raise _linalg_error("Array must not contain infs or NaNs")


# ---- solve, inv, det, cholesky ------------------------------------------

def solve(a, b):
    """numpy.linalg.solve: x with a @ x = b; b is (M,) or (..., M, K)."""
    a, b = _arrs(a, b)
    _stacked_2d(a)
    _square(a)
    t, _ = _common(a, b)
    a = a.astype(t, copy=False)
    b = b.astype(t, copy=False)
    m = a.shape[-1]
    vector = b.ndim == 1
    if vector:
        b = b[:, None]
    if b.ndim < 2 or b.shape[-2] != m:
        core = b.shape[-2] if b.ndim >= 2 else b.shape[-1]
        sig = "(m,m),(m)->(m)" if vector else "(m,m),(m,n)->(m,n)"
        raise ValueError(f"solve: Input operand 1 has a mismatch in its core "
                         f"dimension 0, with gufunc signature {sig} (size "
                         f"{core} is different from {m})")
    batch = _e.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = _e.broadcast_to(a, batch + a.shape[-2:])
    b = _e.broadcast_to(b, batch + b.shape[-2:])
    g = _cuda(a)
    x = g.solve(a, b) if g else _c._la_solve(a, b)[0]
    return x[..., 0] if vector else x


def inv(a):
    """numpy.linalg.inv."""
    a, _ = _prep("inv", a)
    return _inv_raw(a)


def _inv_raw(a):
    g = _cuda(a)
    return g.inv(a) if g else _c._la_inv(a)[0]


def det(a):
    """numpy.linalg.det (computed as sign * exp(logabsdet), as NumPy)."""
    a, _ = _prep("det", a)
    g = _cuda(a)
    return g.det(a) if g else _c._la_det(a, 0)[0]


def slogdet(a):
    """numpy.linalg.slogdet: (sign, logabsdet)."""
    a, _ = _prep("slogdet", a)
    g = _cuda(a)
    return SlogdetResult(*(g.slogdet(a) if g else _c._la_det(a, 1)))


def cholesky(a, /, *, upper=False):
    """numpy.linalg.cholesky: L with a = L @ L^H (U with a = U^H @ U when
    upper), from a's lower (upper) triangle."""
    a, _ = _prep("cholesky", a)
    g = _cuda(a)
    if g:
        return g.cholesky(a, upper)
    return _c._la_cholesky(a, 1 if upper else 0)[0]


# ---- qr, eigh, svd ---------------------------------------------------------

def qr(a, mode="reduced"):
    """numpy.linalg.qr, modes 'reduced', 'complete', 'r', 'raw'."""
    if mode not in _QR_MODES:
        if mode in ("f", "full"):
            warnings.warn("The 'full' option is deprecated in favor of "
                          "'reduced'.\nFor backward compatibility let mode "
                          "default.", DeprecationWarning, stacklevel=2)
            mode = "reduced"
        elif mode in ("e", "economic"):
            warnings.warn("The 'economic' option is deprecated.",
                          DeprecationWarning, stacklevel=2)
            a, _ = _prep("qr", a, square=False)
            return _e.matrix_transpose(_qr_raw(a, "raw")[0])
        else:
            raise ValueError(f"Unrecognized mode '{mode}'")
    a, _ = _prep("qr", a, square=False)
    out = _qr_raw(a, mode)
    if mode == "r":
        return out[0]
    if mode == "raw":
        return out
    return QRResult(*out)


def _qr_raw(a, mode):
    g = _cuda(a)
    return g.qr(a, mode) if g else _c._la_qr(a, _QR_MODES[mode])


def _uplo(UPLO):
    u = UPLO.upper() if isinstance(UPLO, str) else None
    if u not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    return 1 if u == "L" else 0


def eigh(a, UPLO="L"):
    """numpy.linalg.eigh: eigenvalues ascending and eigenvectors (columns)
    of Hermitian matrices, read from the UPLO triangle."""
    lower = _uplo(UPLO)
    a, _ = _prep("eigh", a)
    g = _cuda(a)
    return EighResult(*(g.eigh(a, lower, True) if g
                        else _c._la_eigh(a, lower, 1)))


def eigvalsh(a, UPLO="L"):
    """numpy.linalg.eigvalsh."""
    lower = _uplo(UPLO)
    a, _ = _prep("eigvalsh", a)
    g = _cuda(a)
    return g.eigh(a, lower, False)[0] if g else _c._la_eigh(a, lower, 0)[0]


def eig(a):
    """numpy.linalg.eig: eigenvalues and right eigenvectors (columns),
    complex always, as NumPy 2.5's, CuPy's and the array API's (NumPy
    before 2.5 gave real results when every eigenvalue was real, a dtype
    that depended on the values and a device-to-host read)."""
    a, _ = _prep("eig", a)
    _finite(a)
    g = _cuda(a)
    return EigResult(*(g.eig(a, True) if g else _c._la_eig(a, 1)))


def eigvals(a):
    """numpy.linalg.eigvals."""
    a, _ = _prep("eigvals", a)
    _finite(a)
    g = _cuda(a)
    return g.eig(a, False)[0] if g else _c._la_eig(a, 0)[0]


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """numpy.linalg.svd: (U, S, Vh) with a = U @ diag(S) @ Vh, S
    descending; S alone when not compute_uv; through eigh when
    hermitian, as NumPy."""
    a = _arr(a)
    if hermitian:
        _stacked_2d(a)
        _square(a)
        if compute_uv:
            s, u = eigh(a)
            sgn = _e.sign(s)
            s = _e.abs(s)
            sidx = _e.flip(_e.argsort(s, axis=-1), axis=-1)
            sgn = _e.take_along_axis(sgn, sidx, axis=-1)
            s = _e.take_along_axis(s, sidx, axis=-1)
            u = _e.take_along_axis(u, sidx[..., None, :], axis=-1)
            vt = _e.conj(_e.matrix_transpose(u * sgn[..., None, :]))
            return SVDResult(u, s, vt)
        s = _e.abs(eigvalsh(a))
        return _e.flip(_e.sort(s, axis=-1), axis=-1)
    a, _ = _prep("svd", a, square=False)
    g = _cuda(a)
    if g:
        r = g.svd(a, full_matrices, compute_uv)
        return SVDResult(*r) if compute_uv else r
    if not compute_uv:
        return _c._la_svd(a, 0, 0)[0]
    return SVDResult(*_c._la_svd(a, 1 if full_matrices else 0, 1))


def svdvals(x, /):
    """numpy.linalg.svdvals: the singular values, descending."""
    return svd(x, compute_uv=False, hermitian=False)


# ---- lstsq, pinv, rank, powers, condition --------------------------------

def lstsq(a, b, rcond=None):
    """numpy.linalg.lstsq: (x, residuals, rank, s) minimising |b - a x|.
    rcond None is the machine precision of the compute dtype times
    max(M, N)."""
    a, b = _arrs(a, b)
    vector = b.ndim == 1
    if vector:
        b = b[:, None]
    for x in (a, b):
        if x.ndim != 2:
            raise _linalg_error(f"{x.ndim}-dimensional array given. Array "
                                "must be two-dimensional")
    m, n = a.shape
    if b.shape[0] != m:
        raise _linalg_error("Incompatible dimensions")
    t, _ = _common(a, b)
    if rcond is None:
        rcond = _e.finfo(_real(t)).eps * max(m, n)
    a = a.astype(t, copy=False)
    b = b.astype(t, copy=False)
    g = _cuda(a)
    x, resid, rank, s = (g.lstsq(a, b, float(rcond)) if g
                         else _c._la_lstsq(a, b, float(rcond)))
    rank = int(rank)
    if vector:
        x = x[:, 0]
    if rank != n or m <= n:
        resid = _e.empty((0,), dtype=_real(t), device=a.device)
    return x, resid, rank, s


def pinv(a, rcond=None, hermitian=False, *, rtol=_NoValue):
    """numpy.linalg.pinv: the pseudo-inverse through the SVD, singular
    values at most rcond (or rtol) times the largest dropped."""
    a = _arr(a)
    if rcond is None:
        if rtol is _NoValue:
            rcond = 1e-15
        elif rtol is None:
            rcond = max(a.shape[-2:]) * _e.finfo(_real(_common(a)[0])).eps
        else:
            rcond = rtol
    elif rtol is not _NoValue:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    _stacked_2d(a)
    m, n = a.shape[-2:]
    if m == 0 or n == 0:
        return _e.empty(a.shape[:-2] + (n, m), dtype=a.dtype,
                        device=a.device)
    rcond = _arr(rcond, a)
    u, s, vt = svd(_e.conj(a), full_matrices=False, hermitian=hermitian)
    cutoff = rcond[..., None] * _e.max(s, axis=-1, keepdims=True)
    large = s > cutoff
    s = _e.where(large, 1 / _e.where(large, s, 1), 0).astype(s.dtype)
    return _e.matmul(_e.matrix_transpose(vt),
                     s[..., None] * _e.matrix_transpose(u))


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    """numpy.linalg.matrix_rank: the count of singular values above tol
    (default max(M, N) * eps * the largest)."""
    A = _arr(A)
    if A.ndim < 2:
        return int(not bool(_e.all(A == 0)))
    S = svd(A, compute_uv=False, hermitian=hermitian)
    if tol is None:
        if rtol is None:
            rtol = max(A.shape[-2:]) * _e.finfo(S.dtype).eps
        else:
            rtol = _arr(rtol, A)[..., None]
        tol = _e.max(S, axis=-1, keepdims=True) * rtol
    else:
        tol = _arr(tol, A)[..., None]
    return _e.count_nonzero(S > tol, axis=-1)


def matrix_power(a, n):
    """numpy.linalg.matrix_power: a to the integer power n by repeated
    squaring over matmul (n < 0 through inv)."""
    a = _arr(a)
    _stacked_2d(a)
    _square(a)
    try:
        n = operator.index(n)
    except TypeError as e:
        raise TypeError("exponent must be an integer") from e
    if n == 0:
        return _e.broadcast_to(_e.eye(a.shape[-2], dtype=a.dtype,
                                      device=a.device), a.shape).copy()
    if n < 0:
        a = inv(a)
        n = -n
    if n == 1:
        return a
    if n == 2:
        return _e.matmul(a, a)
    if n == 3:
        return _e.matmul(_e.matmul(a, a), a)
    z = result = None
    while n > 0:
        z = a if z is None else _e.matmul(z, z)
        n, bit = divmod(n, 2)
        if bit:
            result = z if result is None else _e.matmul(result, z)
    return result


def _inv_or_nan(x):
    # NumPy's cond inverts with errors ignored: a singular matrix's
    # inverse is NaN and its condition number infinite.
    err = _c._np_exception("LinAlgError")
    try:
        return _inv_raw(x)
    except err:
        pass
    # The singular matrices are those with a zero pivot, slogdet's sign 0
    # (the same LU): invert the stack once with them as the identity.
    bad = (slogdet(x)[0] == 0)[..., None, None]
    try:
        r = _inv_raw(_e.where(bad, _e.eye(x.shape[-1], dtype=x.dtype,
                                          device=x.device), x))
        return _e.where(bad, float("nan"), r).astype(x.dtype, copy=False)
    except err:
        pass   # LUs that round apart: one matrix at a time
    flat = x.reshape((-1,) + x.shape[-2:])
    parts = []
    for i in range(flat.shape[0]):
        try:
            parts.append(_inv_raw(flat[i]))
        except _c._np_exception("LinAlgError"):
            parts.append(_e.full(x.shape[-2:], float("nan"), dtype=x.dtype,
                                 device=x.device))
    return _e.stack(parts).reshape(x.shape)


def cond(x, p=None):
    """numpy.linalg.cond: the condition number in the p-norm (2 and -2
    from the singular values)."""
    x = _arr(x)
    if x.ndim >= 2 and (x.shape[-1] == 0 or x.shape[-2] == 0):
        raise _linalg_error("cond is not defined on empty arrays")
    if p is None or (not isinstance(p, str) and p in (2, -2)):
        s = svd(x, compute_uv=False)
        r = s[..., -1] / s[..., 0] if p == -2 else s[..., 0] / s[..., -1]
    else:
        _stacked_2d(x)
        _square(x)
        t, _ = _common(x)
        x = x.astype(t, copy=False)
        r = (norm(x, p, axis=(-2, -1)) *
             norm(_inv_or_nan(x), p, axis=(-2, -1)))
    nan = _e.isnan(r)
    if bool(_e.any(nan)):
        nan = nan & ~_e.any(_e.isnan(x), axis=(-2, -1))
        r = _e.where(nan, float("inf"), r).astype(r.dtype)
    return r


# ---- norms and the Array API's names ---------------------------------------

def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """Array API matrix_norm: norm over the last two axes."""
    return norm(_arr(x), axis=(-2, -1), keepdims=keepdims, ord=ord)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """Array API vector_norm: the vector norm over axis (None: all axes,
    a tuple: those axes as one vector)."""
    x = _arr(x)
    if x.dtype.kind not in "fc":
        x = x.astype(_e.float64)
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    if axis is None:
        axes = tuple(range(x.ndim))
    elif isinstance(axis, (tuple, list)):
        axes = tuple(normalize_axis(operator.index(i), x.ndim) for i in axis)
        if len(set(axes)) != len(axes):
            raise ValueError("repeated axis")
    else:
        axes = (normalize_axis(operator.index(axis), x.ndim),)
    if x.ndim == 0:
        x = x.reshape((1,))
        r = _vector(x, float(ord), (0,), False)
        return r
    return _vector(x, float(ord), axes, bool(keepdims))


def cross(x1, x2, /, *, axis=-1):
    """Array API cross: the cross product of 3-element vectors along
    axis, other axes broadcast."""
    x1, x2 = _arrs(x1, x2)
    if x1.ndim == 0 or x2.ndim == 0:
        raise ValueError("cross: zero-dimensional arrays have no vectors")
    a1 = normalize_axis(axis, x1.ndim, "axisa")
    a2 = normalize_axis(axis, x2.ndim, "axisb")
    if x1.shape[a1] != 3 or x2.shape[a2] != 3:
        raise ValueError("Both input arrays must be (arrays of) "
                         "3-dimensional vectors, but they are "
                         f"{x1.shape[a1]} and {x2.shape[a2]} dimensional "
                         "instead.")
    from ember._api.vector_products import cross as np_cross
    return np_cross(x1, x2, axis=axis)


def diagonal(x, /, *, offset=0):
    """Array API diagonal: the diagonals of the last two axes (a view)."""
    x = _arr(x)
    if x.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    return _e.diagonal(x, offset=offset, axis1=-2, axis2=-1)


def trace(x, /, *, offset=0, dtype=None):
    """Array API trace: sums of the diagonals of the last two axes."""
    x = _arr(x)
    if x.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    return _e.trace(x, offset=offset, axis1=-2, axis2=-1, dtype=dtype)


def multi_dot(arrays, *, out=None):
    """numpy.linalg.multi_dot: the chained product, multiplied in the
    order of fewest scalar multiplications."""
    arrays = _arrs(*arrays)
    n = len(arrays)
    if n < 2:
        raise ValueError("Expecting at least two arrays.")
    if n == 2:
        return _e.dot(arrays[0], arrays[1], out=out)
    first, last = arrays[0].ndim == 1, arrays[-1].ndim == 1
    if first:
        arrays[0] = arrays[0][None, :]
    if last:
        arrays[-1] = arrays[-1][:, None]
    for a in arrays:
        if a.ndim != 2:
            raise _linalg_error(f"{a.ndim}-dimensional array given. Array "
                                "must be two-dimensional")
    dims = [a.shape[0] for a in arrays] + [arrays[-1].shape[1]]
    # the textbook chain-order dynamic programme (Cormen et al. 15.2)
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = float("inf")
            for k in range(i, j):
                c = (cost[i][k] + cost[k + 1][j] +
                     dims[i] * dims[k + 1] * dims[j + 1])
                if c < cost[i][j]:
                    cost[i][j] = c
                    split[i][j] = k

    def chain(i, j):
        if i == j:
            return arrays[i]
        k = split[i][j]
        return _e.dot(chain(i, k), chain(k + 1, j))

    r = chain(0, n - 1)
    if first and last:
        r = r[0, 0]
    elif first:
        r = r[0]
    elif last:
        r = r[:, 0]
    if out is not None:
        out[...] = r
        return out
    return r


def _prod(shape):
    p = 1
    for s in shape:
        p *= s
    return p


def tensorinv(a, ind=2):
    """numpy.linalg.tensorinv: the inverse of a as a map from its first
    ind axes to the rest."""
    a = _arr(a)
    old = a.shape
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    inv_shape = old[ind:] + old[:ind]
    rows = _prod(old[ind:])
    a = a.reshape((_prod(old[:ind]), rows))
    return inv(a).reshape(inv_shape)


def tensorsolve(a, b, axes=None):
    """numpy.linalg.tensorsolve: x with tensordot(a, x, x.ndim) = b."""
    a, b = _arrs(a, b)
    an = a.ndim
    if axes is not None:
        allaxes = list(range(an))
        for k in axes:
            allaxes.remove(k)
            allaxes.insert(an, k)
        a = a.transpose(allaxes)
    oldshape = a.shape[-(an - b.ndim):]
    prod = _prod(oldshape)
    if _prod(a.shape) != prod ** 2:
        raise _linalg_error("Input arrays must satisfy the requirement "
                            "prod(a.shape[b.ndim:]) == "
                            "prod(a.shape[:b.ndim])")
    a = a.reshape((prod, prod))
    b = b.ravel()
    return solve(a, b).reshape(oldshape)


def __getattr__(name):
    if name == "LinAlgError":
        return _c._np_exception("LinAlgError")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
