"""scipy.linalg's least squares, pseudo-inverse, QR, SVD, Hermitian
eigenproblems, norms and the banded and Toeplitz solvers, as SciPy's
arguments and results over ember.linalg's factorisations (LAPACK on cpu,
cuSOLVER on CUDA)."""
import ember as _e
import ember.linalg as _la
from ember.scipy._linalg_common import (
    arr, arrs, broadcast_batch, check_finite as _check, ctrans as _ctrans,
    lapack_dtype, linalg_error, prepared as _prep, real_of, upper_solve)
from ember.scipy.linalg_lu import (_column, _general, _hermitian_from,
                                   _triangular)

__all__ = ["lstsq", "pinv", "qr", "svd", "eigh", "norm", "solve_banded",
           "solve_toeplitz"]


def _LinAlgError():
    return type(linalg_error(""))


# ---- least squares and the pseudo-inverse ------------------------------

def lstsq(a, b, cond=None, overwrite_a=False, overwrite_b=False,
          check_finite=True, lapack_driver=None):
    """scipy.linalg.lstsq: (x, residues, rank, s) for (..., M, N) a.
    Every driver is the SVD's (gelsd on cpu; the SVD composed on CUDA):
    'gelsy' returns s None, as SciPy's. residues: the squared residual
    norms where M > N and rank is N (a scalar for 1-D b), else an empty
    array."""
    a, b = arrs(a, b)
    if check_finite:
        _check(a, b)
    if a.ndim > 2 or b.ndim > 2:
        return _lstsq_batch(a, b, cond, lapack_driver)
    if a.ndim != 2:
        raise ValueError("Input array a should be 2D")
    m, n = a.shape
    if b.ndim == 0 or m != b.shape[0]:
        raise ValueError("Shape mismatch: a and b should have the same "
                         f"number of rows ({m} != "
                         f"{b.shape[0] if b.ndim else 1}).")
    driver = "gelsd" if lapack_driver is None else lapack_driver
    if driver not in ("gelsd", "gelsy", "gelss"):
        raise ValueError(f'LAPACK driver "{driver}" is not found')
    dt = lapack_dtype(a, b)
    rt = real_of(dt)
    if m == 0 or n == 0:
        x = _e.zeros((n,) + b.shape[1:], dtype=dt, device=a.device)
        res = (_e.sum(_e.abs(b.astype(dt)) ** 2, axis=0) if n == 0
               else _e.empty((0,), dtype=_e.float64, device=a.device))
        return x, res, 0, _e.empty((0,), dtype=_e.float64, device=a.device)
    eps = float(_e.finfo(rt).eps) if cond is None else float(cond)
    x, res, rank, s = _la.lstsq(a.astype(dt), b.astype(dt), rcond=eps)
    if m > n and rank == n:
        res = res.reshape(()) if b.ndim == 1 else res
    else:
        res = _e.empty((0,), dtype=dt, device=a.device)
    return x, res, rank, (None if driver == "gelsy" else s)


def _lstsq_batch(a, b, cond, driver):
    """lstsq over broadcast batches, b's core 2-D when b is: a loop over
    the matrices (ember.linalg.lstsq is 2-D), results stacked as SciPy's
    (rank an int64 array; residues of one shape across the batch)."""
    import itertools
    if a.ndim < 2:
        raise ValueError("Input array a should be 2D")
    core = 2 if b.ndim >= 2 else 1
    batch = _e.broadcast_shapes(a.shape[:-2], b.shape[:b.ndim - core])
    a = _e.broadcast_to(a, batch + a.shape[-2:])
    b = _e.broadcast_to(b, batch + b.shape[b.ndim - core:])
    parts = [lstsq(a[i], b[i], cond, check_finite=False,
                   lapack_driver=driver)
             for i in itertools.product(*(range(d) for d in batch))]
    if len({tuple(p[1].shape) for p in parts}) > 1:
        raise ValueError("all input arrays must have the same shape")

    def stack(k):
        return _e.stack([p[k] for p in parts]).reshape(
            batch + tuple(parts[0][k].shape))
    ranks = _e.asarray([p[2] for p in parts], dtype=_e.int64,
                       device=a.device).reshape(batch)
    return (stack(0), stack(1), ranks,
            None if parts[0][3] is None else stack(3))


def pinv(a, *, atol=None, rtol=None, return_rank=False, check_finite=True):
    """scipy.linalg.pinv: the pseudo-inverse from the SVD, singular values
    above atol + rtol * the largest kept (rtol default max(M, N) * eps)."""
    a = _prep(a, check_finite)
    if a.ndim < 2:
        raise ValueError(f"expected a 2-D array, got {a.ndim}-D")
    rt = real_of(a.dtype)
    atol = 0.0 if atol is None else atol
    rtol = (max(a.shape[-2:]) * float(_e.finfo(rt).eps) if rtol is None
            else rtol)
    if atol < 0 or rtol < 0:
        raise ValueError("atol and rtol values must be positive.")
    m, n = a.shape[-2:]
    if m == 0 or n == 0:
        out = _e.empty(a.shape[:-2] + (n, m), dtype=a.dtype, device=a.device)
        return (out, 0) if return_rank else out
    u, s, vh = _la.svd(a, full_matrices=False)
    val = atol + _e.max(s, axis=-1, keepdims=True) * rtol
    keep = s > val
    inv_s = _e.where(keep, 1 / _e.where(keep, s, 1), 0).astype(rt)
    b = _e.matmul(_ctrans(vh) * inv_s[..., None, :], _ctrans(u))
    if not return_rank:
        return b
    rank = _e.count_nonzero(keep, axis=-1)
    return b, (int(rank) if rank.ndim == 0 else rank)


# ---- QR, SVD ----------------------------------------------------------

_QR_MODES = ("full", "r", "economic", "raw")


def qr(a, overwrite_a=False, lwork=None, mode="full", pivoting=False,
       check_finite=True):
    """scipy.linalg.qr: 'full' (Q (M, M), R (M, N)), 'economic' (Q (M, K),
    R (K, N)), 'r' ((R,) with R (M, N)), 'raw' (((h, tau), R (K, N)), h
    LAPACK's reflectors as an (M, N) array). Column pivoting (geqp3) is
    not bound: pivoting=True raises NotImplementedError."""
    if mode not in _QR_MODES:
        raise ValueError("Mode argument should be one of ['full', 'r', "
                         "'economic', 'raw']")
    a = _prep(a, check_finite)
    if a.ndim < 2:
        raise ValueError("expected a 2-D array")
    if pivoting:
        raise NotImplementedError("ember.scipy.linalg.qr: pivoting=True "
                                  "(LAPACK's geqp3) is not bound")
    if mode == "full":
        return tuple(_la.qr(a, mode="complete"))
    if mode == "economic":
        return tuple(_la.qr(a, mode="reduced"))
    if mode == "r":
        return (_la.qr(a, mode="complete").R,)
    h, tau = _la.qr(a, mode="raw")
    return (_e.matrix_transpose(h), tau), _la.qr(a, mode="r")


def svd(a, full_matrices=True, compute_uv=True, overwrite_a=False,
        check_finite=True, lapack_driver="gesdd"):
    """scipy.linalg.svd: (U, s, Vh), or s without compute_uv. Both drivers
    are the device's SVD (gesdd on cpu, gesvd on CUDA)."""
    if lapack_driver not in ("gesdd", "gesvd"):
        raise ValueError('lapack_driver must be "gesdd" or "gesvd", not '
                         f'"{lapack_driver}"')
    a = _prep(a, check_finite)
    if a.ndim < 2:
        raise ValueError("expected matrix")
    if not compute_uv:
        return _la.svd(a, compute_uv=False)
    return tuple(_la.svd(a, full_matrices=full_matrices))


# ---- Hermitian eigenproblems -------------------------------------------

_EIGH_DRIVERS = (None, "ev", "evd", "evr", "evx", "gv", "gvd", "gvx")


def _lower_solve(lo, x):
    """L^-1 x for lower-triangular lo."""
    return _triangular(lo, x, 0, True, False)


def eigh(a, b=None, *, lower=True, eigvals_only=False, overwrite_a=False,
         overwrite_b=False, type=1, check_finite=True, subset_by_index=None,
         subset_by_value=None, driver=None):
    """scipy.linalg.eigh: eigenvalues (ascending) and eigenvectors of
    Hermitian a, read from its lower (default) or upper triangle; with b
    the generalized problem of the given type through b's Cholesky factor
    (vectors normalized as SciPy's: v^H b v = I for types 1 and 2). Every
    driver is the device's divide and conquer (syevd/heevd); a subset is
    selected from the whole spectrum."""
    if driver not in _EIGH_DRIVERS:
        raise ValueError(f'"{driver}" is unknown. Possible values are '
                         '"None", "ev", "evd", "evr", "evx", "gv", "gvd", '
                         '"gvx".')
    if subset_by_index is not None and subset_by_value is not None:
        raise ValueError("Either index or value subset can be requested.")
    a, b = arrs(a, b)
    if check_finite:
        _check(a, b)
    dt = lapack_dtype(a) if b is None else lapack_dtype(a, b)
    a = a.astype(dt, copy=False)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError('expected square "a" matrix')
    n = a.shape[-1]
    uplo = "L" if lower else "U"
    if b is None:
        w, v = _la.eigh(a, UPLO=uplo)
    else:
        if type not in (1, 2, 3):
            raise ValueError("'type' keyword only accepts 1, 2, and 3.")
        b = b.astype(dt, copy=False)
        if b.ndim < 2 or b.shape[-1] != b.shape[-2]:
            raise ValueError('expected square "b" matrix')
        if b.shape[-1] != n:
            raise ValueError(f"wrong b dimensions {b.shape}, should be "
                             f"{a.shape}")
        cplx = dt.kind == "c"
        af, bf = broadcast_batch(_hermitian_from(a, lower, cplx),
                                 _hermitian_from(b, lower, cplx))
        try:
            lo = _la.cholesky(bf)
        except _LinAlgError():
            raise linalg_error("The leading minor of the matrix b is not "
                               "positive definite.") from None
        if type == 1:   # C = L^-1 A L^-H, v = L^-H y
            c = _lower_solve(lo, _ctrans(_lower_solve(lo, af)))
        else:           # C = L^H A L
            c = _e.matmul(_ctrans(lo), _e.matmul(af, lo))
        w, y = _la.eigh(c)
        v = (upper_solve(_ctrans(lo), y, 0) if type in (1, 2)
             else _e.matmul(lo, y))
    if subset_by_index is not None:
        lo_i, hi_i = (int(i) for i in subset_by_index)
        if not 0 <= lo_i <= hi_i < n:
            raise ValueError("Requested eigenvalue indices are not valid. "
                             f"Valid range is [0, {n - 1}] and start <= end, "
                             f"but start={lo_i}, end={hi_i} is given")
        w = w[..., lo_i:hi_i + 1]
        v = v[..., lo_i:hi_i + 1]
    elif subset_by_value is not None:
        lo_v, hi_v = subset_by_value
        if w.ndim != 1:
            raise NotImplementedError("ember.scipy.linalg.eigh: "
                                      "subset_by_value of a batch (each "
                                      "matrix keeps its own count)")
        keep = _e.nonzero((w > lo_v) & (w <= hi_v))[0]
        w = w[keep]
        v = v[:, keep]
    return w if eigvals_only else (w, v)


# ---- norm ---------------------------------------------------------------

def norm(a, ord=None, axis=None, keepdims=False, check_finite=True):
    """scipy.linalg.norm: numpy.linalg.norm with SciPy's finiteness
    check."""
    a = arr(a)
    if check_finite:
        _check(a)
    return _la.norm(a, ord=ord, axis=axis, keepdims=keepdims)


# ---- banded and Toeplitz systems ----------------------------------------

def _dense_banded(ab, nlower, nupper):
    """The (..., n, n) matrix whose diagonals ab holds in LAPACK's band
    storage: a[i, j] = ab[nupper + i - j, j] inside the band, else 0."""
    n = ab.shape[-1]
    i = _e.arange(n, dtype=_e.int64, device=ab.device)[:, None]
    j = _e.arange(n, dtype=_e.int64, device=ab.device)[None, :]
    row = nupper + i - j
    band = (row >= 0) & (row <= nlower + nupper)
    idx = _e.broadcast_to(_e.clip(row, 0, nlower + nupper),
                          ab.shape[:-2] + (n, n))
    return _e.where(band, _e.take_along_axis(ab, idx, axis=-2),
                    0).astype(ab.dtype)


def solve_banded(l_and_u, ab, b, overwrite_ab=False, overwrite_b=False,
                 check_finite=True):
    """scipy.linalg.solve_banded: a x = b for a in LAPACK's band storage
    ab (l + u + 1, N). The band is unpacked into a dense matrix and solved
    by the device's pivoted LU (SciPy calls gbsv): O(N^2) memory."""
    nlower, nupper = (int(x) for x in l_and_u)
    ab, b = arrs(ab, b)
    if check_finite:
        _check(ab, b)
    dt = lapack_dtype(ab, b)
    ab = ab.astype(dt, copy=False)
    b = b.astype(dt, copy=False)
    if ab.ndim < 2 or nlower + nupper + 1 != ab.shape[-2]:
        raise ValueError("invalid values for the number of lower and upper "
                         f"diagonals: l+u+1 ({nlower + nupper + 1}) does not "
                         f"equal ab.shape[0] "
                         f"({ab.shape[-2] if ab.ndim >= 2 else ab.shape})")
    b2, vec = _column(b)
    if ab.shape[-1] != b2.shape[-2]:
        raise ValueError("shapes of ab and b are not compatible.")
    a, b2 = broadcast_batch(_dense_banded(ab, nlower, nupper), b2)
    try:
        x = _general(a, b2, 0)
    except _LinAlgError():
        raise linalg_error("singular matrix") from None
    return x[..., 0] if vec else x


def solve_toeplitz(c_or_cr, b, check_finite=True):
    """scipy.linalg.solve_toeplitz: T x = b for the Toeplitz matrix of
    first column c and first row r (r = conj(c) without one). SciPy runs
    Levinson-Durbin's recursion, a sequential O(N^2) loop; here T is
    built on the device and solved by pivoted LU, so a singular leading
    minor (Levinson's LinAlgError) is no failure unless T is singular.
    Results in float64 or complex128, as SciPy's."""
    from ember.scipy.linalg_special import toeplitz
    if b is None:
        raise ValueError("illegal value, `b` is a required argument")
    if isinstance(c_or_cr, tuple):
        c, r = arrs(*c_or_cr)
    else:
        c = arr(c_or_cr)
        r = _e.conj(c)
    b = arr(b, c)
    if check_finite:
        _check(c, r, b)
    dt = _e.complex128 if lapack_dtype(c, r, b).kind == "c" else _e.float64
    t = toeplitz(c.astype(dt), r.astype(dt))
    b = b.astype(dt)
    b2, vec = _column(b)
    if b2.shape[-2] != t.shape[-1]:
        raise ValueError("Incompatible dimensions.")
    t, b2 = broadcast_batch(t, b2)
    x = _general(t, b2, 0)
    return x[..., 0] if vec else x
