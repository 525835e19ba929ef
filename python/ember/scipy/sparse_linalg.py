"""ember.scipy.sparse.linalg: iterative solvers over anything with @
(ember.scipy.sparse matrices, ember arrays): cg, as scipy.sparse.linalg's
(x, info), the iteration on the device with one host read of the
residual norm per step."""
import ember as _e

__all__ = ["cg"]


def cg(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None,
       callback=None):
    """The conjugate gradient method for a symmetric (Hermitian) positive
    definite A: (x, 0) once |b - A x| <= max(rtol |b|, atol), else (x,
    the iterations taken)."""
    b = b if isinstance(b, _e.ndarray) else _e.asarray(b)
    n = b.shape[0]
    t = _e.result_type(b.dtype, _e.float32) if b.dtype.kind != "c" else b.dtype
    if getattr(A, "dtype", None) is not None and A.dtype.kind in "fc":
        t = _e.result_type(t, A.dtype)
    b = b.astype(t)
    maxiter = 10 * n if maxiter is None else maxiter
    x = _e.zeros(n, dtype=t, device=b.device) if x0 is None else \
        _e.asarray(x0, device=b.device).astype(t)
    bnorm = float(_e.linalg.vector_norm(b))
    if bnorm == 0:
        return b.copy(), 0
    tol = max(rtol * bnorm, atol)
    psolve = (lambda r: r) if M is None else (lambda r: M @ r)
    r = b - A @ x if x0 is not None else b.copy()
    if float(_e.linalg.vector_norm(r)) <= tol:
        return x, 0
    z = psolve(r)
    p = z.copy()
    rz = _e.vdot(r, z)
    for k in range(maxiter):
        q = A @ p
        alpha = rz / _e.vdot(p, q)
        x = x + alpha * p
        r = r - alpha * q
        if callback is not None:
            callback(x)
        if float(_e.linalg.vector_norm(r)) <= tol:
            return x, 0
        z = psolve(r)
        rz_new = _e.vdot(r, z)
        p = z + (rz_new / rz) * p
        rz = rz_new
    return x, maxiter
