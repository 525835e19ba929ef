"""PyCUDA's conjugate gradients on a packeted SpMV (solve_pkt_with_cg):
preconditioned CG as in Shewchuk's "An Introduction to the Conjugate
Gradient Method Without the Agonizing Pain" (appendix B3), with PyCUDA's
schedule: the residual recomputed from A x every min(n, 50) iterations,
convergence (delta < tol^2 delta_0) looked at every 20. Every step is a
few ember array operations on the device; the host reads one number
every 20 iterations."""
import ember

from .. import gpuarray
from .inner import AsyncInnerProduct
from .operator import IdentityOperator

_CHECK_EVERY = 20


class ConvergenceError(RuntimeError):
    pass


def _safe_div(num, den):
    """num / den, 0 where den is 0 (a converged direction)."""
    return ember.where(den == 0, 0, num / ember.where(den == 0, 1, den))


def _cg(spmv, b, precon, x, tol, max_iterations):
    n = spmv.shape[0]
    if max_iterations is None:
        max_iterations = max(3 * _CHECK_EVERY + 1, 10 * n)
    true_every = min(n, 50)
    r = b - spmv(x)
    d = precon(r)
    delta = ember.vdot(r, d)
    delta_0 = abs(float(delta.get()))
    pending = []    # the deltas of recomputed residuals, not yet looked at
    its = res = 0
    while its < max_iterations:
        true_residual = its % true_every == 0
        q = spmv(d)
        alpha = _safe_div(delta, ember.vdot(d, q))
        x = x + alpha * d
        r = b - spmv(x) if true_residual else r - alpha * q
        s = precon(r)
        delta_old, delta = delta, AsyncInnerProduct(r, s).gpu_result
        d = s + _safe_div(delta, delta_old) * d
        if true_residual:
            pending.append(delta)
        its += 1
        res += true_residual
        if (its - 1) % _CHECK_EVERY == 0:
            if any(abs(float(p.get())) < tol * tol * delta_0 for p in pending):
                return x, its, res
            pending.clear()
    raise ConvergenceError("cg failed to converge")


def solve_pkt_with_cg(pkt_spmv, b, precon=None, x=None, tol=1e-7,
                      max_iterations=None, debug=False,
                      pagelocked_allocator=None):
    """(x, iterations, residual recomputations) with A x = b to tol;
    ConvergenceError after max_iterations (10 n by default)."""
    if b.shape != (pkt_spmv.shape[0],):
        raise ValueError("solve_pkt_with_cg: b of shape %s for a %dx%d matrix"
                         % ((tuple(b.shape),) + tuple(pkt_spmv.shape)))
    if precon is None:
        precon = IdentityOperator(pkt_spmv.dtype, pkt_spmv.shape[0])
    x = ember.zeros(pkt_spmv.shape[0], pkt_spmv.dtype) if x is None \
        else pkt_spmv.permute(x)
    x, its, res = _cg(pkt_spmv, pkt_spmv.permute(b), precon, x, tol,
                      max_iterations)
    return gpuarray._wrap(pkt_spmv.unpermute(x)), its, res
