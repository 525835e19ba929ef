"""numpy.linalg's factorisations on CUDA devices: cuSOLVER's raw calls
(include/ember/cusolver.h, as _ember._cus_*) composed with ember's array
functions. Arguments arrive checked and in their compute dtype from
linalg.py, which holds NumPy's semantics for both devices.

cuSOLVER reads column-major matrices, and a C-ordered stack of matrices is
the column-major stack of their transposes: an LU of A^T needs no
transposing copy (getrs then solves with trans='T'), while Cholesky,
eigh and the SVD copy A's transpose once. Info codes are checked on the
host once a call, and raise as NumPy does."""
import ember as _e
from ember import _ember as _c
from ember._api._util import real_dtype as _real


def _error(msg):
    return _c._np_exception("LinAlgError")(msg)


def _check(info, message):
    if info.size and bool(_e.any(info != 0)):
        if bool(_e.any(info < 0)):
            raise RuntimeError("cuSOLVER refused an argument (info < 0): a "
                               "bug in ember.linalg")
        raise _error(message)


def _info(a):
    # zeroed: cuSOLVER writes no info for an empty matrix, and a reused
    # pool block's bytes read as a failure (solve of a 0 x 0 on the H200)
    return _e.zeros(a.shape[:-2], dtype=_e.int32, device=a.device)


def _colmajor(a):
    """A fresh C-contiguous stack holding each matrix of a column-major."""
    return _e.matrix_transpose(a).copy()


def _lu(a):
    """getrf of A^T (a's own bytes, copied): (lu, ipiv, info)."""
    lu = a.copy()
    ipiv = _e.empty(a.shape[:-1], dtype=_e.int64, device=a.device)
    info = _info(a)
    _c._cus_getrf(lu, ipiv, info)
    return lu, ipiv, info


def solve(a, b):
    """x with a @ x = b: a (..., n, n), b (..., n, k), batches equal."""
    lu, ipiv, info = _lu(a)
    _check(info, "Singular matrix")
    x = _colmajor(b)
    _c._cus_getrs(lu, ipiv, x, 1, _info(x))  # (A^T)^T X = B
    return _e.matrix_transpose(x)


def inv(a):
    eye = _e.eye(a.shape[-1], dtype=a.dtype, device=a.device)
    return solve(a, _e.broadcast_to(eye, a.shape))


def slogdet(a):
    """(sign, logabsdet) from the LU of A^T (det A^T = det A): the product
    of U's diagonal, negated once per row interchange."""
    n = a.shape[-1]
    if n == 0:
        return (_e.ones(a.shape[:-2], dtype=a.dtype, device=a.device),
                _e.zeros(a.shape[:-2], dtype=_real(a.dtype), device=a.device))
    lu, ipiv, _ = _lu(a)  # info > 0: a zero pivot, det 0 as NumPy's
    d = _e.diagonal(lu, axis1=-2, axis2=-1)
    rows = _e.arange(1, n + 1, dtype=_e.int64, device=a.device)
    swaps = _e.count_nonzero(ipiv != rows, axis=-1)
    ad = _e.abs(d)
    logabs = _e.sum(_e.log(ad), axis=-1)
    unit = _e.where(ad == 0, 0, d / _e.where(ad == 0, 1, ad)).astype(a.dtype)
    sign = _e.prod(unit, axis=-1) * (1 - 2 * (swaps % 2)).astype(a.dtype)
    return sign, logabs.astype(_real(a.dtype))


def det(a):
    sign, logabs = slogdet(a)
    return sign * _e.exp(logabs)


def cholesky(a, upper):
    """L (or U = L^H when upper) from a's lower (upper) triangle."""
    c = _colmajor(a)
    info = _info(a)
    _c._cus_potrf(c, 0 if upper else 1, info)
    _check(info, "Matrix is not positive definite")
    f = _e.matrix_transpose(c)
    return _e.triu(f) if upper else _e.tril(f)


def _converges(a, message):
    """NumPy's LAPACK reports no convergence for a NaN or an infinity;
    cuSOLVER may return NaNs instead, so they are looked for first."""
    if a.size and not bool(_e.all(_e.isfinite(a))):
        raise _error(message)


def eigh(a, lower, vectors):
    """(w ascending, v as columns or None) of the Hermitian matrices, read
    from the lower (upper) triangle."""
    _converges(a, "Eigenvalues did not converge")
    c = _colmajor(a)
    w = _e.empty(a.shape[:-1], dtype=_real(a.dtype), device=a.device)
    info = _info(a)
    _c._cus_syevd(c, w, lower, 1 if vectors else 0, info)
    _check(info, "Eigenvalues did not converge")
    return w, (_e.matrix_transpose(c) if vectors else None)


def eig(a, vectors):
    """(w, v as columns or None) of general matrices, complex always (as
    NumPy 2.5's), from cuSOLVER's geev of A's column-major copy. A real
    matrix's results come packed as LAPACK's: w holds the real parts, then
    the imaginary ones, and a conjugate pair j, j + 1 (imaginary part of
    w[j] > 0) has the vectors vr[j] +- i vr[j + 1]."""
    _converges(a, "Eigenvalues did not converge")
    n = a.shape[-1]
    cplx = a.dtype.kind == "c"
    c = _colmajor(a)
    w = _e.empty(a.shape[:-1] if cplx else a.shape[:-2] + (2 * n,),
                 dtype=a.dtype, device=a.device)
    vr = _e.empty(a.shape, dtype=a.dtype, device=a.device) if vectors \
        else None
    info = _info(a)
    _c._cus_geev(c, w, vr, info)
    _check(info, "Eigenvalues did not converge")
    v = _e.matrix_transpose(vr) if vectors else None
    if cplx:
        return w, v
    ct = _e.complex64 if a.dtype == _e.float32 else _e.complex128
    im = w[..., n:]
    w = w[..., :n].astype(ct) + im.astype(ct) * 1j
    if vectors:
        first, second = (im > 0)[..., None, :], (im < 0)[..., None, :]
        vc = v.astype(ct)
        ahead = _e.roll(vc, -1, axis=-1) * 1j  # i vr[j + 1] at column j
        behind = _e.roll(vc, 1, axis=-1)       # vr[j - 1] at column j
        v = _e.where(first, vc + ahead,
                     _e.where(second, behind - vc * 1j, vc)).astype(ct)
    return w, v


def svd(a, full_matrices, compute_uv):
    """(u, s, vh) or s. cuSOLVER's gesvd takes m >= n only: a wider matrix
    is decomposed as its conjugate transpose B = A^H (whose column-major
    form is conj(a)'s bytes), A = V_B S U_B^H."""
    _converges(a, "SVD did not converge")
    m, n = a.shape[-2:]
    k = min(m, n)
    if k == 0:  # no values: full U and Vh are identities, as NumPy's
        s = _e.empty(a.shape[:-2] + (0,), dtype=_real(a.dtype), device=a.device)
        if not compute_uv:
            return s
        mu, nv = (m, n) if full_matrices else (0, 0)

        def eye(r, c):
            e = _e.eye(r, c, dtype=a.dtype, device=a.device)
            return _e.broadcast_to(e, a.shape[:-2] + (r, c)).copy()
        return eye(m, mu), s, eye(nv, n)
    tall = m >= n
    c = _colmajor(a) if tall else _e.conj(a).copy()
    rows, cols = (m, n) if tall else (n, m)
    s = _e.empty(a.shape[:-2] + (k,), dtype=_real(a.dtype), device=a.device)
    info = _info(a)
    if not compute_uv:
        _c._cus_gesvd(c, s, None, None, 0, info)
        _check(info, "SVD did not converge")
        return s
    ku = rows if full_matrices else cols
    u = _e.empty(a.shape[:-2] + (ku, rows), dtype=a.dtype, device=a.device)
    vt = _e.empty(a.shape[:-2] + (cols, cols), dtype=a.dtype, device=a.device)
    _c._cus_gesvd(c, s, u, vt, 1 if full_matrices else 0, info)
    _check(info, "SVD did not converge")
    if tall:
        return _e.matrix_transpose(u), s, _e.matrix_transpose(vt)
    # A = B^H: U_A = V_B, whose rows are conj(vt's stored rows); Vh_A = U_B^H
    return _e.conj(vt), s, _e.conj(u)


def qr(a, mode):
    """numpy.linalg.qr's modes 'reduced', 'complete', 'r' and 'raw' from
    geqrf of A's column-major copy (whose bytes are NumPy's raw h, the
    reflectors as an (n, m) array) and orgqr for Q."""
    m, n = a.shape[-2:]
    k = min(m, n)
    c = _colmajor(a)
    tau = _e.empty(a.shape[:-2] + (k,), dtype=a.dtype, device=a.device)
    _c._cus_geqrf(c, tau, _info(a))
    if mode == "raw":
        return c, tau
    r = _e.triu(_e.matrix_transpose(c))
    if mode == "r":
        return (r[..., :k, :],)
    cols = m if mode == "complete" else k
    if mode != "complete":
        r = r[..., :k, :]
    if cols <= n:
        q = c[..., :cols, :].copy()
    else:  # complete Q of a tall matrix: room for m columns, n reflectors
        q = _e.zeros(a.shape[:-2] + (m, m), dtype=a.dtype, device=a.device)
        q[..., :n, :] = c
    if k == 0:  # no reflectors: Q is the identity's first columns
        q[...] = _e.eye(cols, m, dtype=a.dtype, device=a.device)
    else:
        _c._cus_orgqr(q, tau, _info(q))
    return _e.matrix_transpose(q), r


def lstsq(a, b, rcond):
    """numpy.linalg.lstsq's (x, residuals, rank, s) from the SVD, as
    LAPACK's gelsd: singular values at most rcond times the largest are
    taken as zero (rcond < 0: the dtype's precision)."""
    m, n = a.shape
    rt = _real(a.dtype)
    if rcond < 0:
        rcond = float(_e.finfo(rt).eps)
    if min(m, n) == 0:
        x = _e.zeros((n, b.shape[1]), dtype=a.dtype, device=a.device)
        return x, _e.empty((0,), dtype=rt, device=a.device), 0, \
            _e.empty((0,), dtype=rt, device=a.device)
    u, s, vh = svd(a, False, True)
    keep = s > rcond * s[0]
    rank = int(_e.count_nonzero(keep))
    inv = _e.where(keep, 1 / _e.where(keep, s, 1), 0).astype(rt)
    uhb = _e.matmul(_e.conj(_e.matrix_transpose(u)), b)
    x = _e.matmul(_e.conj(_e.matrix_transpose(vh)), inv[:, None] * uhb)
    if rank == n and m > n:
        resid = _e.sum(_e.abs(b - _e.matmul(a, x)) ** 2, axis=0).astype(rt)
    else:
        resid = _e.empty((0,), dtype=rt, device=a.device)
    return x, resid, rank, s
