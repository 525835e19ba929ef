"""scipy.linalg's functions that compose over the SVD, QR and Hermitian
eigensolver ember already has: null_space, orth, svdvals, diagsvd,
polar, pinvh, subspace_angles, orthogonal_procrustes, rq, issymmetric
and ishermitian. Batches (..., M, N) are computed at once; where SciPy's
per-matrix results differ in shape (ranks in null_space and orth), a
batch whose ranks differ is SciPy's ValueError from stacking them."""
import ember as _e
import ember.linalg as _la
from ember.scipy._linalg_common import (
    arr, arrs, check_finite as _check, ctrans as _ctrans, lapack_dtype,
    prepared as _prep, real_of)
from ember.scipy.linalg_decomp import eigh

__all__ = ["null_space", "orth", "svdvals", "diagsvd", "polar", "pinvh",
           "subspace_angles", "orthogonal_procrustes", "rq", "issymmetric",
           "ishermitian"]


def _eps(dt):
    return float(_e.finfo(real_of(dt)).eps)


def _one_count(num, what):
    """The rank shared by every matrix of a batch (a host read of the
    counts); SciPy's stacking fails where they differ."""
    if num.ndim == 0:
        return int(num)
    lo, hi = int(_e.min(num)), int(_e.max(num))
    if lo != hi:
        raise ValueError(f"all input arrays must have the same shape "
                         f"({what}: ranks {lo} to {hi} within the batch)")
    return lo


def _rank(s, m, n, rcond):
    rcond = _eps(s.dtype) * max(m, n) if rcond is None else rcond
    if s.shape[-1] == 0:
        return _e.zeros(s.shape[:-1], dtype=_e.int64, device=s.device)
    tol = _e.maximum(_e.max(s, axis=-1, keepdims=True), 0) * rcond
    return _e.count_nonzero(s > tol, axis=-1)


def _need_matrix(a, msg="expected matrix"):
    if a.ndim < 2:
        raise ValueError(msg)


def null_space(A, rcond=None, *, overwrite_a=False, check_finite=True,
               lapack_driver="gesdd"):
    """scipy.linalg.null_space: an orthonormal basis (columns) of A's
    null space from the full SVD: the rows of Vh past the singular values
    above max(s) * rcond (rcond default eps * max(M, N))."""
    if lapack_driver not in ("gesdd", "gesvd"):
        raise ValueError('lapack_driver must be "gesdd" or "gesvd", not '
                         f'"{lapack_driver}"')
    a = _prep(A, check_finite)
    _need_matrix(a)
    m, n = a.shape[-2:]
    if a.size == 0:
        eye = _e.eye(n, dtype=a.dtype, device=a.device)
        return _e.broadcast_to(eye, a.shape[:-2] + (n, n)).copy()
    u, s, vh = _la.svd(a, full_matrices=True)
    num = _one_count(_rank(s, m, n, rcond), "null_space")
    return _ctrans(vh[..., num:, :])


def orth(A, rcond=None):
    """scipy.linalg.orth: an orthonormal basis of A's range, U's columns
    for the singular values above max(s) * rcond."""
    a = _prep(A, True)
    _need_matrix(a)
    m, n = a.shape[-2:]
    if a.size == 0:
        return _e.empty(a.shape[:-2] + (m, 0), dtype=a.dtype,
                        device=a.device)
    u, s, vh = _la.svd(a, full_matrices=False)
    num = _one_count(_rank(s, m, n, rcond), "orth")
    return u[..., :num]


def svdvals(a, overwrite_a=False, check_finite=True):
    """scipy.linalg.svdvals: the singular values, descending, in a's
    real LAPACK dtype."""
    a = _prep(a, check_finite)
    _need_matrix(a)
    if a.size == 0:
        return _e.empty(a.shape[:-2] + (min(a.shape[-2:]),),
                        dtype=real_of(a.dtype), device=a.device)
    return _la.svd(a, compute_uv=False)


def diagsvd(s, M, N):
    """scipy.linalg.diagsvd: the (M, N) matrix with s on its diagonal, in
    s's dtype; s's length must be M or N (a batch of s: (..., M, N))."""
    s = arr(s)
    if s.ndim < 1:
        raise ValueError("Length of s must be M or N.")
    k = s.shape[-1]
    if k not in (M, N):
        raise ValueError("Length of s must be M or N.")
    if M < 0 or N < 0 or (k == M and N < M) or (k == N and k != M
                                                  and M < N):
        raise ValueError("negative dimensions are not allowed")
    if k < N:
        pad = _e.zeros(s.shape[:-1] + (N - k,), dtype=s.dtype,
                       device=s.device)
        s = _e.concatenate([s, pad], axis=-1)
    eye = _e.eye(M, N, dtype=_e.bool_, device=s.device)
    zero = _e.zeros((), dtype=s.dtype, device=s.device)
    return _e.where(eye, s[..., None, :N], zero)


def polar(a, side="right"):
    """scipy.linalg.polar: (u, p) with a = u p (side 'right') or a = p u
    ('left'), u with orthonormal columns or rows, p Hermitian positive
    semidefinite, from the thin SVD a = W diag(s) Vh: u = W Vh."""
    if side not in ("right", "left"):
        raise ValueError("`side` must be either 'right' or 'left'")
    a = arr(a)
    if a.ndim < 2:
        raise ValueError("`a` must be a 2-D array.")
    a = a.astype(lapack_dtype(a), copy=False)
    w, s, vh = _la.svd(a, full_matrices=False)
    u = _e.matmul(w, vh)
    s = s.astype(a.dtype)
    if side == "right":
        p = _e.matmul(_ctrans(vh) * s[..., None, :], vh)
    else:
        p = _e.matmul(w * s[..., None, :], _ctrans(w))
    return u, p


def pinvh(a, atol=None, rtol=None, lower=True, return_rank=False,
          check_finite=True):
    """scipy.linalg.pinvh: the pseudo-inverse of Hermitian a from its
    eigendecomposition, keeping the eigenvalues with |w| above
    atol + rtol * max|w| (rtol default N * eps)."""
    a = arr(a)
    w, u = eigh(a, lower=lower, check_finite=check_finite)
    n = a.shape[-1]
    atol = 0.0 if atol is None else atol
    rtol = n * _eps(u.dtype) if rtol is None else rtol
    if atol < 0.0 or rtol < 0.0:
        raise ValueError("atol and rtol values must be positive.")
    aw = _e.abs(w)
    if n == 0:
        b = _e.empty(a.shape, dtype=u.dtype, device=u.device)
        keep = aw > 0
    else:
        top = _e.max(aw, axis=-1, keepdims=True)
        keep = aw > atol + top * rtol
        inv = _e.where(keep, 1 / _e.where(keep, w, 1), 0).astype(u.dtype)
        b = _e.matmul(u * inv[..., None, :], _ctrans(u))
    if not return_rank:
        return b
    rank = _e.count_nonzero(keep, axis=-1)
    return b, (int(rank) if rank.ndim == 0 else rank)


def subspace_angles(A, B):
    """scipy.linalg.subspace_angles: the principal angles (descending)
    between the ranges of A and B, by Knyazev and Argentati's rule as
    SciPy: arcsin of B's residual's singular values where cos^2 >= 1/2,
    arccos of the cosines elsewhere."""
    a, b = arrs(A, B)
    _check(a)
    if a.ndim < 2:
        raise ValueError(f"expected 2D array, got shape {a.shape}")
    qa = orth(a)
    _check(b)
    if b.ndim < 2:
        raise ValueError(f"expected 2D array, got shape {b.shape}")
    if b.shape[-2] != qa.shape[-2]:
        raise ValueError("A and B must have the same number of rows, got "
                         f"{qa.shape[-2]} and {b.shape[-2]}")
    qb = orth(b)
    c = _e.matmul(_ctrans(qa), qb)
    sigma = svdvals(c, check_finite=False)
    if qa.shape[-1] >= qb.shape[-1]:
        res = qb - _e.matmul(qa, c)
    else:
        res = qa - _e.matmul(qb, _ctrans(c))
    mask = sigma ** 2 >= 0.5
    mu = _e.arcsin(_e.clip(svdvals(res, check_finite=False), -1.0, 1.0))
    return _e.where(mask, mu,
                    _e.arccos(_e.clip(_e.flip(sigma, axis=-1), -1.0, 1.0)))


def orthogonal_procrustes(A, B, check_finite=True):
    """scipy.linalg.orthogonal_procrustes: (R, scale), the unitary R
    minimising ||A R - B||_F, R = U Vh from the SVD U S Vh of A^H B, and
    scale the sum of S."""
    a, b = arrs(A, B)
    if check_finite:
        _check(a, b)
    if a.ndim < 2:
        raise ValueError(f"expected ndim to be 2, but observed {a.ndim}")
    if a.shape != b.shape:
        raise ValueError(f"the shapes of A and B differ ({a.shape} vs "
                         f"{b.shape})")
    dt = lapack_dtype(a, b)
    m = _e.matmul(_ctrans(a.astype(dt)), b.astype(dt))
    u, w, vt = _la.svd(m, full_matrices=True)
    return _e.matmul(u, vt), _e.sum(w, axis=-1)


_RQ_MODES = ("full", "r", "economic")


def rq(a, overwrite_a=False, lwork=None, mode="full", check_finite=True):
    """scipy.linalg.rq: a = R Q with R upper triangular (trapezoidal) and
    Q's rows orthonormal, from the QR of a's row-reversed transpose:
    a^T J = Q0 R0 gives a = (J R0^T J')(J' Q0^T) with J, J' the
    reversals, whose first factor is upper triangular. 'full': R (M, N),
    Q (N, N); 'economic': R (M, K), Q (K, N); 'r': R alone. R's diagonal
    signs are the QR's, not necessarily gerqf's."""
    if mode not in _RQ_MODES:
        raise ValueError("Mode argument should be one of ['full', 'r', "
                         "'economic']")
    a = _prep(a, check_finite)
    if a.ndim < 2:
        raise ValueError("expected matrix")
    m, n = a.shape[-2:]
    k = min(m, n)
    batch = a.shape[:-2]
    if a.size == 0:
        if mode == "economic":
            r = _e.empty(batch + (m, k), dtype=a.dtype, device=a.device)
            q = _e.empty(batch + (k, n), dtype=a.dtype, device=a.device)
        else:
            r = _e.empty(a.shape, dtype=a.dtype, device=a.device)
            q = _e.broadcast_to(_e.eye(n, dtype=a.dtype, device=a.device),
                                batch + (n, n)).copy()
        return r if mode == "r" else (r, q)
    flipped = _e.flip(_e.matrix_transpose(a), axis=-1)
    q0, r0 = _la.qr(flipped, mode="reduced" if mode == "economic"
                    else "complete")
    r = _e.flip(_e.flip(_e.matrix_transpose(r0), axis=-1), axis=-2)
    if mode == "r":
        return r
    return r, _e.flip(_e.matrix_transpose(q0), axis=-2)


def _symmetry(a, atol, rtol, conj):
    a = arr(a)
    if a.ndim < 2:
        raise ValueError("Input array must be a 2D NumPy array.")
    if a.shape[-1] != a.shape[-2]:
        raise ValueError("Input array must be square.")
    if a.dtype.kind not in "biufc" or a.dtype.name == "float16":
        raise TypeError("No matching signature found")
    t = _e.matrix_transpose(a)
    if conj and a.dtype.kind == "c":
        t = _e.conj(t)
    if atol is None and rtol is None:
        ok = _e.all(a == t, axis=(-2, -1))
    else:
        atol = 0.0 if atol is None else atol
        rtol = 0.0 if rtol is None else rtol
        if a.dtype.kind in "bu":
            a, t = a.astype(_e.float64), t.astype(_e.float64)
        ok = _e.all(_e.abs(a - t) <= atol + rtol * _e.abs(t),
                    axis=(-2, -1))
    return bool(ok) if ok.ndim == 0 else ok


def issymmetric(a, atol=None, rtol=None):
    """scipy.linalg.issymmetric: a == a^T, exactly when atol and rtol are
    both None, else within |a - a^T| <= atol + rtol |a^T| entrywise; a
    Python bool for a matrix, a bool array for a batch."""
    return _symmetry(a, atol, rtol, False)


def ishermitian(a, atol=None, rtol=None):
    """scipy.linalg.ishermitian: issymmetric against a's conjugate
    transpose."""
    return _symmetry(a, atol, rtol, True)
