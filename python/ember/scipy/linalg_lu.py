"""scipy.linalg's LU and Cholesky families and its general solvers:
lu_factor, lu_solve, lu, solve_triangular, cho_factor, cho_solve,
cholesky, solve, inv, det. The factorisations are the vendor's (getrf,
getrs, potrf through include/ember/cusolver.h on CUDA and
include/ember/lapack.h on cpu); triangular solves are getrs over unit
lower factors (_linalg_common.upper_solve). Batches as SciPy's: leading
axes of each operand broadcast."""
import warnings

import ember as _e
import ember.linalg as _la
from ember.scipy._linalg_common import (
    arrs, broadcast_batch, check_finite as _check, colmajor, getrf, getrs,
    lapack_dtype, linalg_error, prepared as _prep, real_of, singular_slices,
    square, upper_solve)

__all__ = ["LinAlgWarning", "lu_factor", "lu_solve", "lu",
           "solve_triangular", "cho_factor", "cho_solve", "cholesky",
           "solve", "inv", "det"]


class LinAlgWarning(RuntimeWarning):
    """scipy.linalg.LinAlgWarning's peer (SciPy is not imported here)."""


_TRANS = {0: 0, 1: 1, 2: 2, "N": 0, "T": 1, "C": 2}


def _trans(trans):
    try:
        return _TRANS[trans]
    except (KeyError, TypeError):
        raise ValueError(f"trans must be 0, 1, 2, 'N', 'T' or 'C', not "
                         f"{trans!r}") from None


def _column(b):
    """b with a column axis where SciPy reads a 1-D core: (b, was 1-D)."""
    return (b[:, None], True) if b.ndim == 1 else (b, False)


def _raise_singular(info):
    bad = info > 0
    if bool(_e.any(bad)):
        raise linalg_error(f"A singular matrix detected: slice(s) "
                           f"{singular_slices(bad)} are singular.")


# ---- LU ----------------------------------------------------------------

def lu_factor(a, overwrite_a=False, check_finite=True):
    """scipy.linalg.lu_factor: (lu, piv) with L's unit diagonal implied
    and piv the 0-based row interchanges (int32); a zero pivot warns
    (LinAlgWarning), as SciPy."""
    a = _prep(a, check_finite)
    if a.ndim < 2:
        raise ValueError(f"expected at least 2-D array, got {a.ndim}-D")
    c = colmajor(a)
    ipiv, info = getrf(c)
    if info.size and bool(_e.any(info > 0)):
        first = int(_e.max(info))
        warnings.warn(f"Diagonal number {first} is exactly zero. Singular "
                      "matrix.", LinAlgWarning, stacklevel=2)
    return _e.matrix_transpose(c), (ipiv - 1).astype(_e.int32)


def lu_solve(lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True):
    """scipy.linalg.lu_solve: x with op(a) x = b from lu_factor's (lu,
    piv); trans 0 (a), 1 (a^T) or 2 (a^H), integers as SciPy's."""
    lu_, piv = lu_and_piv
    lu_, piv, b = arrs(lu_, piv, b)
    if trans not in (0, 1, 2) or isinstance(trans, (str, bool)):
        raise ValueError(f"trans must be 0, 1 or 2, not {trans!r}")
    t = trans
    if check_finite:
        _check(lu_, b)
    dt = lapack_dtype(lu_, b)
    lu_ = lu_.astype(dt, copy=False)
    b = b.astype(dt, copy=False)
    b2, vec = _column(b)
    if lu_.ndim < 2 or lu_.shape[-1] != lu_.shape[-2] or \
            b2.shape[-2] != lu_.shape[-1]:
        raise ValueError(f"Shapes of lu {lu_.shape} and b {b.shape} are "
                         "incompatible")
    batch = _e.broadcast_shapes(lu_.shape[:-2], piv.shape[:-1],
                                b2.shape[:-2])
    n = lu_.shape[-1]
    lu_cm = colmajor(_e.broadcast_to(lu_, batch + (n, n)))
    ipiv = _e.broadcast_to(piv.astype(_e.int64) + 1, batch + (n,)).copy()
    x = colmajor(_e.broadcast_to(b2, batch + b2.shape[-2:]))
    getrs(lu_cm, ipiv, x, t)
    x = _e.matrix_transpose(x)
    return x[..., 0] if vec else x


def lu(a, permute_l=False, overwrite_a=False, check_finite=True,
       p_indices=False):
    """scipy.linalg.lu: a = p @ l @ u for (..., M, N) a, l (..., M, K)
    unit lower, u (..., K, N), K = min(M, N); p the permutation matrix
    in a's real dtype, or with p_indices its rows (int32, a = l[p] @ u);
    permute_l: (p @ l, u)."""
    a = _prep(a, check_finite)
    if a.ndim < 2:
        raise ValueError(f"expected at least 2-D array, got {a.ndim}-D")
    m, n = a.shape[-2:]
    k = min(m, n)
    batch = a.shape[:-2]
    c = colmajor(a)
    ipiv, _ = getrf(c)
    f = _e.matrix_transpose(c)
    eye = _e.eye(m, k, dtype=a.dtype, device=a.device)
    low = _e.tril(f[..., :, :k], -1) + eye
    up = _e.triu(f[..., :k, :])
    # The rows of P from getrs over unit factors (L = U = I): solving
    # P^T x = (0, 1, ..., m-1) applies LAPACK's interchanges in the
    # vendor's own code, leaving perm with a = (l @ u)[perm].
    if m > k:
        rest = _e.arange(k + 1, m + 1, dtype=_e.int64, device=a.device)
        ipiv = _e.concatenate(
            [ipiv, _e.broadcast_to(rest, batch + (m - k,))], axis=-1)
    rt = real_of(a.dtype)
    ident = _e.broadcast_to(_e.eye(m, dtype=rt, device=a.device),
                            batch + (m, m)).copy()
    ramp = _e.arange(m, dtype=rt, device=a.device)
    x = _e.broadcast_to(ramp, batch + (1, m)).copy()
    getrs(ident, ipiv, x, 1)
    perm = _e.rint(x[..., 0, :]).astype(_e.int32)
    if permute_l:
        return _e.take_along_axis(low, perm[..., :, None].astype(_e.int64),
                                  axis=-2), up
    if p_indices:
        return perm, low, up
    cols = _e.arange(m, dtype=_e.int32, device=a.device)
    p = (perm[..., :, None] == cols).astype(rt)
    return p, low, up


# ---- triangular and Cholesky ------------------------------------------

def _triangular(a, b, trans, lower, unit):
    """op(a) x = b from a's lower or upper triangle (batches equal)."""
    if not lower:
        return upper_solve(a, b, trans, unit)
    at = _e.matrix_transpose(a)  # upper, with a = at^T
    if trans == 0:
        return upper_solve(at, b, 1, unit)
    if trans == 1 or a.dtype.kind != "c":
        return upper_solve(at, b, 0, unit)
    return upper_solve(_e.conj(at), b, 0, unit)  # a^H = conj(at)


def solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False,
                     overwrite_b=False, check_finite=True):
    """scipy.linalg.solve_triangular: x with op(a) x = b, a read from its
    lower (lower=True) or upper triangle, its diagonal taken as ones with
    unit_diagonal. A zero on the diagonal is a LinAlgError."""
    a, b = arrs(a, b)
    t = _trans(trans)
    if check_finite:
        _check(a, b)
    dt = lapack_dtype(a, b)
    a = a.astype(dt, copy=False)
    b = b.astype(dt, copy=False)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError("expected square matrix")
    b2, vec = _column(b)
    if b2.shape[-2] != a.shape[-1]:
        raise ValueError(f"shapes of a {a.shape} and b {b.shape} are "
                         "incompatible")
    if not unit_diagonal and a.size:
        zero = _e.diagonal(a, axis1=-2, axis2=-1) == 0
        if bool(_e.any(zero)):
            # the first zero of the first singular slice, read on the host
            rows = _e.asnumpy(zero).reshape((-1, a.shape[-1]))
            i = int(rows[rows.any(axis=1)][0].argmax())
            raise linalg_error(f"singular matrix: resolution failed at "
                               f"diagonal {i}")
    a, b2 = broadcast_batch(a, b2)
    if b2.size == 0:
        x = _e.empty(b2.shape, dtype=dt, device=b2.device)
    else:
        x = _triangular(a, b2, t, lower, unit_diagonal)
    return x[..., 0] if vec else x


def cholesky(a, lower=False, overwrite_a=False, check_finite=True):
    """scipy.linalg.cholesky: upper U with a = U^H U (default), or lower
    L with a = L L^H, read from that triangle of a."""
    a = _prep(a, check_finite)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"Input array is expected to be square but has the "
                         f"shape: {a.shape}.")
    if a.size == 0:
        return _e.empty(a.shape, dtype=a.dtype, device=a.device)
    return _la.cholesky(a, upper=not lower)


def cho_factor(a, lower=False, overwrite_a=False, check_finite=True):
    """scipy.linalg.cho_factor: (c, lower), c holding the factor in the
    triangle named and zeros in the other (SciPy leaves a's entries
    there, which cho_solve never reads)."""
    return cholesky(a, lower, overwrite_a, check_finite), lower


def cho_solve(c_and_lower, b, overwrite_b=False, check_finite=True):
    """scipy.linalg.cho_solve: x with a x = b from cho_factor's (c,
    lower): two triangular solves."""
    c, lower = c_and_lower
    c, b = arrs(c, b)
    if check_finite:
        _check(c, b)
    dt = lapack_dtype(c, b)
    c = c.astype(dt, copy=False)
    b = b.astype(dt, copy=False)
    if c.ndim < 2 or c.shape[-1] != c.shape[-2]:
        raise ValueError("The factored matrix c is not square.")
    b2, vec = _column(b)
    if b2.shape[-2] != c.shape[-1]:
        raise ValueError(f"incompatible dimensions ({c.shape} and "
                         f"{b.shape})")
    c, b2 = broadcast_batch(c, b2)
    if b2.size == 0:
        return _e.empty(b.shape if vec else b2.shape, dtype=dt,
                        device=b.device)
    # a = U^H U with U = c's upper triangle, or L^H's when lower
    u = _e.conj(_e.matrix_transpose(c)) if lower else c
    y = upper_solve(u, b2, 2)
    x = upper_solve(u, y, 0)
    return x[..., 0] if vec else x


# ---- solve, inv, det ----------------------------------------------------

_STRUCTURES = {
    None: "gen", "general": "gen", "gen": "gen", "banded": "gen",
    "diagonal": "diagonal", "tridiagonal": "tridiagonal",
    "upper triangular": "upper", "lower triangular": "lower",
    "pos": "pos", "positive definite": "pos",
    "sym": "sym", "symmetric": "sym", "her": "her", "hermitian": "her",
}


def _structure(assume_a):
    kind = _STRUCTURES.get(assume_a) if isinstance(assume_a, (str, type(
        None))) else None
    if kind is None:
        raise ValueError(f"{assume_a} is not a recognized matrix structure")
    return kind


def _general(a, b, trans):
    c = colmajor(a)
    ipiv, info = getrf(c)
    _raise_singular(info)
    x = colmajor(b)
    getrs(c, ipiv, x, trans)
    return _e.matrix_transpose(x)


def _hermitian_from(a, lower, conj):
    """The full matrix that a's lower or upper triangle describes."""
    part = _e.tril(a, -1) if lower else _e.triu(a, 1)
    other = _e.matrix_transpose(part)
    if conj:
        other = _e.conj(other)
    d = _e.diagonal(a, axis1=-2, axis2=-1)
    if conj:
        d = _e.real(d).astype(a.dtype)
    eye = _e.eye(a.shape[-1], dtype=a.dtype, device=a.device)
    return part + other + d[..., None, :] * eye


def _solve_kind(a, b, kind, lower, transposed):
    trans = 1 if transposed else 0
    if kind == "diagonal":
        d = _e.diagonal(a, axis1=-2, axis2=-1)
        _raise_singular((d == 0).astype(_e.int32).max(axis=-1))
        return b / d[..., :, None]
    if kind in ("upper", "lower"):
        lo = kind == "lower"
        if not bool(_e.all(_e.diagonal(a, axis1=-2, axis2=-1) != 0)):
            raise linalg_error("A singular matrix detected.")
        return _triangular(a, b, trans, lo, False)
    if kind == "tridiagonal":
        return _general(_e.triu(_e.tril(a, 1), -1), b, trans)
    if kind in ("sym", "her"):
        full = _hermitian_from(a, lower, kind == "her" and
                               a.dtype.kind == "c")
        return _general(full, b, trans)
    if kind == "pos":
        f = _la.cholesky(_hermitian_from(a, lower, True), upper=True)
        y = upper_solve(f, b, 2)
        return upper_solve(f, y, 0)
    return _general(a, b, trans)


def solve(a, b, lower=False, overwrite_a=False, overwrite_b=False,
          check_finite=True, assume_a=None, transposed=False):
    """scipy.linalg.solve: x with a @ x = b (a.T @ x = b when transposed,
    real a only). assume_a picks what is read: 'gen' (and None, which
    SciPy answers by detecting a structure; every structure's solution is
    the general one), 'sym'/'her'/'pos' (one triangle, by lower),
    'diagonal', 'tridiagonal', 'upper triangular', 'lower triangular',
    'banded'. b is (..., N) only when 1-D, else (..., N, K)."""
    kind = _structure(assume_a)
    a, b = arrs(a, b)
    if check_finite:
        _check(a, b)
    while a.ndim < 2:
        a = a[None]
    if b.ndim == 0:
        b = b[None]
    dt = lapack_dtype(a, b)
    a = a.astype(dt, copy=False)
    b = b.astype(dt, copy=False)
    square(a)
    if dt.kind == "c" and transposed:
        raise NotImplementedError("scipy.linalg.solve can currently not "
                                  "solve a^T x = b or a^H x = b for complex "
                                  "matrices.")
    b2, vec = _column(b)
    scalar = a.size == 1
    if b2.shape[-2] != a.shape[-1] and not scalar:
        raise ValueError(f"incompatible shapes: a1.shape={a.shape} and "
                         f"b1.shape={b2.shape}")
    a, b2 = broadcast_batch(a, b2)
    if a.size == 0 or b2.size == 0:
        x = _e.empty(b2.shape, dtype=dt, device=b2.device)
    elif scalar:
        if bool(a.reshape(()) == 0):
            raise linalg_error("A singular matrix detected.")
        x = b2 / a
    else:
        x = _solve_kind(a, b2, kind, lower, transposed)
    return x[..., 0] if vec else x


_INV_STRUCTURES = (None, "general", "gen", "diagonal", "upper triangular",
                   "lower triangular", "pos", "sym", "her")


def inv(a, overwrite_a=False, check_finite=True, *, assume_a=None,
        lower=False):
    """scipy.linalg.inv: the inverse of each (..., N, N) matrix; assume_a
    and lower as solve's."""
    if assume_a not in _INV_STRUCTURES:
        raise ValueError(f"{assume_a} is not a recognized matrix structure "
                         "for inv")
    kind = _structure(assume_a)
    a = _prep(a, check_finite)
    square(a)
    if a.size == 0:
        return _e.empty(a.shape, dtype=a.dtype, device=a.device)
    eye = _e.broadcast_to(_e.eye(a.shape[-1], dtype=a.dtype,
                                 device=a.device), a.shape)
    return _solve_kind(a, eye, kind, lower, False)


def det(a, overwrite_a=False, check_finite=True):
    """scipy.linalg.det: the determinants of (..., N, N) a, in float64 or
    complex128 whatever a's precision (as SciPy)."""
    a = _prep(a, check_finite)
    if a.ndim < 2:
        raise ValueError("The input array must be at least two-dimensional.")
    if a.shape[-1] != a.shape[-2]:
        raise ValueError("Last 2 dimensions of the array must be square but "
                         f"received shape {a.shape}.")
    out = _e.complex128 if a.dtype.kind == "c" else _e.float64
    if a.shape[-1] == 0:
        return _e.ones(a.shape[:-2], dtype=out, device=a.device)
    return _la.det(a).astype(out)
