"""scipy.linalg's Hermitian positive definite banded routines
(cholesky_banded, cho_solve_banded, solveh_banded) over ember's dense
Cholesky factorization and triangular solves: the band, in LAPACK's
upper (ab[u + i - j, j] = a[i, j]) or lower (ab[i - j, j] = a[i, j])
storage, is unpacked into the dense Hermitian matrix, so memory is
O(N^2) where SciPy's pbtrf/pbsv keep O(N u). ember binds no banded
factorization; a batch (..., u + 1, N) is factorized at once."""
import ember as _e
import ember.linalg as _la
from ember.scipy._linalg_common import (
    arrs, check_finite as _check, lapack_dtype, linalg_error)
from ember.scipy.linalg_decomp import _dense_banded
from ember.scipy.linalg_lu import cho_solve

__all__ = ["cholesky_banded", "cho_solve_banded", "solveh_banded"]


def _band_dense(ab, lower):
    """The dense triangle ab stores (upper or lower), zeros elsewhere."""
    u = ab.shape[-2] - 1
    return _dense_banded(ab, u, 0) if lower else _dense_banded(ab, 0, u)


def _hermitian(ab, lower):
    t = _band_dense(ab, lower)
    n = t.shape[-1]
    eye = _e.eye(n, dtype=_e.bool_, device=ab.device)
    full = t + _e.conj(_e.matrix_transpose(t))
    diag = t.real.astype(t.dtype) if t.dtype.kind == "c" else t
    return _e.where(eye, diag, full)


def _pack(m, ab, lower):
    """m's band in ab's storage; the corner entries outside the matrix
    keep ab's values, as pbtrf leaves them."""
    kb, n = ab.shape[-2:]
    u = kb - 1
    k = _e.arange(kb, dtype=_e.int64, device=ab.device)[:, None]
    j = _e.arange(n, dtype=_e.int64, device=ab.device)[None, :]
    i = k + j if lower else k - u + j
    inside = (i >= 0) & (i < n)
    idx = _e.broadcast_to(_e.clip(i, 0, n - 1), m.shape[:-2] + (kb, n))
    return _e.where(inside, _e.take_along_axis(m, idx, axis=-2), ab)


def _prep(ab, finite, *others):
    xs = arrs(ab, *others)
    if finite:
        _check(*xs)
    dt = lapack_dtype(*xs)
    xs = [x.astype(dt, copy=False) for x in xs]
    if xs[0].ndim < 2:
        raise ValueError("expected a 2-D banded array ab, got "
                         f"{xs[0].ndim}-D")
    return xs


def _cholesky_lower(a):
    try:
        return _la.cholesky(a)
    except type(linalg_error("")):
        raise linalg_error("leading minor not positive definite") from None


def cholesky_banded(ab, overwrite_ab=False, lower=False, check_finite=True):
    """scipy.linalg.cholesky_banded: the Cholesky factor (U with
    a = U^H U, or L with a = L L^H when lower) in ab's band storage.
    LinAlgError where a is not positive definite (without pbtrf's minor
    index)."""
    (ab,) = _prep(ab, check_finite)
    if ab.size == 0:
        return _e.empty(ab.shape, dtype=ab.dtype, device=ab.device)
    low = _cholesky_lower(_hermitian(ab, lower))
    f = low if lower else _e.conj(_e.matrix_transpose(low))
    return _pack(f, ab, lower)


def cho_solve_banded(cb_and_lower, b, overwrite_b=False, check_finite=True):
    """scipy.linalg.cho_solve_banded: a x = b from cholesky_banded's
    factor (cb, lower)."""
    cb, lower = cb_and_lower
    cb, b = _prep(cb, check_finite, b)
    if cb.shape[-1] != b.shape[0 if b.ndim < 2 else -2]:
        raise ValueError("shapes of cb and b are not compatible.")
    return cho_solve((_band_dense(cb, lower), lower), b,
                     check_finite=False)


def solveh_banded(ab, b, overwrite_ab=False, overwrite_b=False, lower=False,
                  check_finite=True):
    """scipy.linalg.solveh_banded: a x = b for Hermitian positive definite
    a in band storage, by Cholesky (SciPy: pbsv, or ptsv for a
    tridiagonal a, which reads only the real part of the diagonal, as
    here). LinAlgError where a is not positive definite."""
    ab, b = _prep(ab, check_finite, b)
    if ab.shape[-1] != b.shape[0 if b.ndim < 2 else -2]:
        raise ValueError("shapes of ab and b are not compatible.")
    if b.size == 0:
        return _e.empty(b.shape, dtype=ab.dtype, device=b.device)
    low = _cholesky_lower(_hermitian(ab, lower))
    return cho_solve((low, True), b, check_finite=False)
