"""scipy.sparse.linalg's short-recurrence Krylov methods for general
(non-Hermitian) square systems, real or complex: bicg, bicgstab and cgs,
the biconjugate gradient family of Barrett et al.'s "Templates for the
Solution of Linear Systems". Each returns (x, info) as SciPy's: 0 once
|b - A x| < max(atol, rtol |b|), the iteration count when maxiter (10 n
by default) ran out, -10 or -11 at a breakdown (rho, or omega and the
projection, below eps**2). The vectors stay on the device; each step
reads its inner products back, which decide the step and the test."""
import numpy

import ember as _e
from ember.scipy.sparse_linalg import _norm, _system, aslinearoperator

__all__ = ["bicg", "bicgstab", "cgs"]


def _start(A, b, x0, rtol, atol, maxiter, M):
    """The operator, b, x, r = b - A x, the stopping norm, maxiter, the
    preconditioner (an operator, or None) and the breakdown threshold;
    b = 0 returns (zeros, 0) at once, as SciPy's."""
    A, b, x, t = _system(A, b, x0)
    bnorm = _norm(b)
    r = b - A @ x if x0 is not None else b.copy()
    tol = max(float(atol), float(rtol) * bnorm)
    maxiter = 10 * b.shape[0] if maxiter is None else maxiter
    M = None if M is None else aslinearoperator(M)
    eps2 = float(numpy.finfo(str(t)).eps) ** 2
    return A, b, x, r, bnorm, tol, maxiter, M, eps2


def _dot(u, v):
    """conj(u) . v on the host: the step coefficients come from it."""
    return _e.vdot(u, v).item()


def _conj(c):
    return c.conjugate() if isinstance(c, complex) else c


def bicg(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None,
         callback=None):
    """BiConjugate gradients: the shadow residuals run on A^H (A's
    rmatvec), preconditioned by M's adjoint."""
    A, b, x, r, bnorm, tol, maxiter, M, eps2 = _start(A, b, x0, rtol, atol,
                                                      maxiter, M)
    if bnorm == 0:
        return b.copy(), 0
    rs = r.copy()
    p = ps = rho_prev = None
    for k in range(maxiter):
        if _norm(r) < tol:
            return x, 0
        z = r if M is None else M.matvec(r)
        zs = rs if M is None else M.rmatvec(rs)
        rho = _dot(rs, z)
        if abs(rho) < eps2:
            return x, -10
        if k == 0:
            p, ps = z.copy(), zs.copy()
        else:
            beta = rho / rho_prev
            p = z + beta * p
            ps = zs + _conj(beta) * ps
        q = A @ p
        qs = A.rmatvec(ps)
        pq = _dot(ps, q)
        if pq == 0:
            return x, -11
        alpha = rho / pq
        x = x + alpha * p
        r = r - alpha * q
        rs = rs - _conj(alpha) * qs
        rho_prev = rho
        if callback is not None:
            callback(x)
    return x, maxiter


def bicgstab(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None,
             callback=None):
    """BiCGSTAB (van der Vorst): BiCG's step smoothed by a one-step
    minimal residual, with products by A only."""
    A, b, x, r, bnorm, tol, maxiter, M, eps2 = _start(A, b, x0, rtol, atol,
                                                      maxiter, M)
    if bnorm == 0:
        return b.copy(), 0
    rt = r.copy()
    p = v = rho_prev = alpha = omega = None
    for k in range(maxiter):
        if _norm(r) < tol:
            return x, 0
        rho = _dot(rt, r)
        if abs(rho) < eps2:
            return x, -10
        if k == 0:
            p = r.copy()
        else:
            if abs(omega) < eps2:
                return x, -11
            beta = (rho / rho_prev) * (alpha / omega)
            p = r + beta * (p - omega * v)
        ph = p if M is None else M.matvec(p)
        v = A @ ph
        rv = _dot(rt, v)
        if rv == 0:
            return x, -11
        alpha = rho / rv
        s = r - alpha * v
        if _norm(s) < tol:
            return x + alpha * ph, 0
        sh = s if M is None else M.matvec(s)
        t = A @ sh
        omega = _dot(t, s) / _dot(t, t)
        x = x + alpha * ph + omega * sh
        r = s - omega * t
        rho_prev = rho
        if callback is not None:
            callback(x)
    return x, maxiter


def cgs(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None,
        callback=None):
    """Conjugate gradients squared (Sonneveld): BiCG's polynomial applied
    twice, with products by A only."""
    A, b, x, r, bnorm, tol, maxiter, M, eps2 = _start(A, b, x0, rtol, atol,
                                                      maxiter, M)
    if bnorm == 0:
        return b.copy(), 0
    rt = r.copy()
    p = q = rho_prev = None
    for k in range(maxiter):
        if _norm(r) < tol:
            return x, 0
        rho = _dot(rt, r)
        if abs(rho) < eps2:
            return x, -10
        if k == 0:
            u = r.copy()
            p = r.copy()
        else:
            beta = rho / rho_prev
            u = r + beta * q
            p = u + beta * (q + beta * p)
        ph = p if M is None else M.matvec(p)
        vh = A @ ph
        rv = _dot(rt, vh)
        if rv == 0:
            return x, -11
        alpha = rho / rv
        q = u - alpha * vh
        uh = u + q if M is None else M.matvec(u + q)
        x = x + alpha * uh
        r = r - alpha * (A @ uh)
        rho_prev = rho
        if callback is not None:
            callback(x)
    return x, maxiter
