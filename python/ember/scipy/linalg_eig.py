"""scipy.linalg's general and Hermitian eigenvalue entry points (eig,
eigvals, eigvalsh) and cdf2rdf, as SciPy 1.17's signatures over
ember.linalg.eig (LAPACK's geev on cpu, cuSOLVER's Xgeev on CUDA) and
ember.scipy.linalg.eigh. The generalized problem (b given) needs the QZ
algorithm (LAPACK's ggev), which ember does not bind."""
import ember as _e
import ember.linalg as _la
from ember.scipy._linalg_common import (
    arrs, check_finite as _check, ctrans as _ctrans, lapack_dtype,
    linalg_error, real_of)
from ember.scipy.linalg_decomp import eigh

__all__ = ["eig", "eigvals", "eigvalsh", "cdf2rdf"]


def _square_or_raise(x):
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError("expected square matrix")


def _homogeneous(w):
    """SciPy's (2, M) form: the eigenvalues over a row of ones."""
    return _e.stack([w, _e.ones_like(w)], axis=-2)


def _left_vectors(vr):
    """Left eigenvectors as the rows of VR^-1, conjugated and scaled to
    unit 2-norm: VR^-1 A = diag(w) VR^-1 holds for a diagonalizable A, so
    this is geev's left basis up to each column's phase. A defective A
    (singular VR) has no such basis: LinAlgError."""
    try:
        vl = _ctrans(_la.inv(vr))
    except type(linalg_error("")):
        raise linalg_error("eig: left eigenvectors of a defective matrix "
                           "(its eigenvector matrix is singular) are not "
                           "available without LAPACK's geev left vectors")
    nrm = _e.sqrt(_e.sum(_e.abs(vl) ** 2, axis=-2, keepdims=True))
    return vl / nrm


def eig(a, b=None, left=False, right=True, overwrite_a=False,
        overwrite_b=False, check_finite=True, homogeneous_eigvals=False):
    """scipy.linalg.eig: w (complex always), and the left and right
    eigenvectors (columns, unit 2-norm) as asked. For real a the vectors
    are real when every eigenvalue is real and complex otherwise, as
    SciPy's (that choice reads one flag back from the device). A batch
    (..., M, M) is solved at once."""
    a, b = arrs(a, b)
    if check_finite:
        _check(a, b)
    _square_or_raise(a)
    if b is not None:
        _square_or_raise(b)
        if b.shape[-2:] != a.shape[-2:]:
            raise ValueError("a and b must have the same shape")
        raise NotImplementedError(
            "ember.scipy.linalg.eig: the generalized problem (b given) "
            "needs the QZ algorithm (LAPACK's ggev), which ember does not "
            "bind")
    dt = lapack_dtype(a)
    a = a.astype(dt, copy=False)
    if a.ndim > 2 and 0 in a.shape[:-2]:
        raise ValueError("`eig` does not support zero-size batches.")
    if a.size == 0:
        ct = _e.complex64 if dt in (_e.float32, _e.complex64) \
            else _e.complex128
        w = _e.empty(a.shape[:-1], dtype=ct, device=a.device)
        v = _e.empty(a.shape, dtype=dt, device=a.device)
        w = _homogeneous(w) if homogeneous_eigvals else w
        return w if not (left or right) else \
            (w,) + (v,) * (int(bool(left)) + int(bool(right)))
    if not (left or right):
        w = _la.eigvals(a)
        return _homogeneous(w) if homogeneous_eigvals else w
    w, vr = _la.eig(a)
    vl = _left_vectors(vr) if left else None
    if dt.kind == "f" and bool(_e.all(w.imag == 0)):
        vr = vr.real
        vl = vl.real if vl is not None else None
    w = _homogeneous(w) if homogeneous_eigvals else w
    if left and right:
        return w, vl, vr
    return (w, vl) if left else (w, vr)


def eigvals(a, b=None, overwrite_a=False, check_finite=True,
            homogeneous_eigvals=False):
    """scipy.linalg.eigvals: eig's eigenvalues alone."""
    return eig(a, b=b, left=False, right=False, overwrite_a=overwrite_a,
               check_finite=check_finite,
               homogeneous_eigvals=homogeneous_eigvals)


def eigvalsh(a, b=None, *, lower=True, overwrite_a=False,
             overwrite_b=False, type=1, check_finite=True,
             subset_by_index=None, subset_by_value=None, driver=None):
    """scipy.linalg.eigvalsh: eigh's eigenvalues (ascending), with its
    subsets selected from the whole spectrum."""
    return eigh(a, b=b, lower=lower, eigvals_only=True,
                overwrite_a=overwrite_a, overwrite_b=overwrite_b, type=type,
                check_finite=check_finite, subset_by_index=subset_by_index,
                subset_by_value=subset_by_value, driver=driver)


def cdf2rdf(w, v):
    """scipy.linalg.cdf2rdf: the real block-diagonal form (wr, vr) of a
    complex eigendecomposition of a real matrix, whose complex eigenvalues
    come in adjacent conjugate pairs (positive imaginary part first, as
    eig gives them). Each pair (j, j+1) turns into the 2x2 block
    [[re, im], [-im, re]] and the columns Re v_j, Im v_j. The pairs are
    found by one scan on the device: an eigenvalue with a nonzero
    imaginary part opens a pair when an even number of such eigenvalues
    precede it in its row."""
    w, v = arrs(w, v)
    _check(w, v)
    if w.ndim < 1:
        raise ValueError("expected w to be at least 1D")
    if v.ndim < 2:
        raise ValueError("expected v to be at least 2D")
    if v.ndim != w.ndim + 1:
        raise ValueError("expected eigenvectors array to have exactly one "
                         "dimension more than eigenvalues array")
    n = w.shape[-1]
    if v.shape[-2] != v.shape[-1]:
        raise ValueError("expected v to be a square matrix or stacked "
                         "square matrices: v.shape[-2] = v.shape[-1]")
    if v.shape[-1] != n:
        raise ValueError("expected the same number of eigenvalues as "
                         "eigenvectors")
    cplx = (w.imag != 0) if w.dtype.kind == "c" else _e.zeros(
        w.shape, dtype=_e.bool_, device=w.device)
    count = _e.cumsum(cplx.astype(_e.int64), axis=-1)
    if bool(_e.any(count[..., -1:] % 2 != 0)) if n else False:
        raise ValueError("expected complex-conjugate pairs of eigenvalues")
    first = cplx & (count % 2 == 1)     # j of a pair (j, k = j + 1)
    second = cplx & (count % 2 == 0)    # k
    rt = real_of(w.dtype) if w.dtype.kind == "c" else w.dtype
    wre = w.real.astype(rt) if w.dtype.kind == "c" else w.astype(rt)
    wim = (w.imag if w.dtype.kind == "c" else _e.zeros_like(w)).astype(rt)
    eye = _e.eye(n, dtype=_e.bool_, device=w.device)
    sup = _e.eye(n, k=1, dtype=_e.bool_, device=w.device)
    sub = _e.eye(n, k=-1, dtype=_e.bool_, device=w.device)
    # wr[j, k] = Im w_j at a pair's first row; wr[k, j] = Im w_k (= -Im w_j)
    wr = _e.where(eye, wre[..., :, None], 0) \
        + _e.where(sup & first[..., :, None], wim[..., :, None], 0) \
        + _e.where(sub & second[..., :, None], wim[..., :, None], 0)
    # vr = Re(v u) with u's pair block [[i/2, 1/2], [-i/2, 1/2]]:
    # column j -> Re(i/2 v_j - i/2 v_k) = -Im v_j (v_k = conj v_j), and
    # column k -> Re(v_j + v_k)/2 = Re v_j
    vc = v.astype(_e.complex128)
    vnext = _e.concatenate([vc[..., 1:], vc[..., :1]], axis=-1)
    vprev = _e.concatenate([vc[..., -1:], vc[..., :-1]], axis=-1)
    f = first[..., None, :]
    s = second[..., None, :]
    vr = _e.where(f, (0.5j * vc - 0.5j * vnext).real,
                  _e.where(s, (0.5 * vprev + 0.5 * vc).real, vc.real))
    return wr.astype(rt), vr
