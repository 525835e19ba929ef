"""scipy.linalg.logm: SciPy 1.17's inverse scaling and squaring on the
Schur form (Al-Mohy & Higham, "Improved inverse scaling and squaring
algorithms for the matrix logarithm", 2012): square roots of the
triangular factor until it is near I, a Gauss-Legendre Pade sum, and
the diagonal and first superdiagonal recomputed exactly where the
principal branch exists. Per-entry formulas run over whole diagonals.
The 1-norms of (T - I)^p are exact where SciPy estimates them."""
import warnings

import numpy as _np

import ember as _e
from ember.scipy.linalg_schur import _host, rsf2csf, schur
from ember.scipy.linalg_schurfuncs import (
    _EPS, _NoValue, _deprecated, _maybe_real, _over_batch, _schur_operand,
    sqrtm_triu)

_THETA = (None, 1.59e-05, 2.31e-03, 1.94e-02, 6.21e-02, 1.28e-01,
          2.06e-01, 2.88e-01, 3.67e-01, 4.39e-01, 5.03e-01, 5.60e-01,
          6.09e-01, 6.52e-01, 6.89e-01, 7.21e-01, 7.49e-01)


class LogmRankWarning(UserWarning):
    """SciPy's hierarchy: a UserWarning, not a RuntimeWarning."""


class LogmExactlySingularWarning(LogmRankWarning):
    pass


class LogmNearlySingularWarning(LogmRankWarning):
    pass


def _unwind(z):
    return _e.ceil((_e.imag(z) - _np.pi) / (2 * _np.pi))


def _onenorm_m1_power(T, p):
    n = T.shape[-1]
    M = T - _e.eye(n, dtype=T.dtype, device=T.device)
    P = M
    for _ in range(p - 1):
        P = P @ M
    return float(_e.max(_e.sum(_e.abs(P), axis=0))) ** (1.0 / p)


def _briggs(a, k):
    """a^(1/2^k) - 1 without cancellation (Al-Mohy's Algorithm 2), for a
    vector of eigenvalues."""
    if k == 0:
        return a - 1
    if k == 1:
        return _e.sqrt(a) - 1
    big = _e.angle(a) >= _np.pi / 2
    a = _e.where(big, _e.sqrt(a), a)
    khat = k - big.astype(_e.int64)
    z0 = a - 1
    a = _e.sqrt(a)
    r = 1 + a
    for j in range(1, k):
        a = _e.where(j < khat, _e.sqrt(a), a)
        r = _e.where(j < khat, r * (1 + a), r)
    return z0 / r


def _frac_superdiag(l1, l2, t12, p):
    """The exact superdiagonal of T^p for 2x2 blocks, as SciPy's."""
    same = l1 == l2
    far = _e.abs(l2 - l1) > _e.abs(l1 + l2) / 2
    dl = _e.where(same, 1, l2 - l1)
    f_same = t12 * p * l1 ** (p - 1)
    f_far = t12 * (l2 ** p - l1 ** p) / dl
    z = (l2 - l1) / _e.where(l1 + l2 == 0, 1, l1 + l2)
    lg1, lg2 = _e.log(l1), _e.log(l2)
    # real eigenvalues here are positive: no unwinding, no complex term
    tmp_b = p * (_e.arctanh(z) + _np.pi * 1j * _unwind(lg2 - lg1)) \
        if l1.dtype.kind == "c" else p * _e.arctanh(z)
    f_near = t12 * _e.exp(p / 2 * (lg2 + lg1)) * 2 * _e.sinh(tmp_b) / dl
    return _e.where(same, f_same, _e.where(far, f_far, f_near))


def _logm_superdiag(l1, l2, t12):
    same = l1 == l2
    far = _e.abs(l2 - l1) > _e.abs(l1 + l2) / 2
    dl = _e.where(same, 1, l2 - l1)
    lg1, lg2 = _e.log(l1), _e.log(l2)
    f_far = t12 * (lg2 - lg1) / dl
    z = (l2 - l1) / _e.where(l1 + l2 == 0, 1, l1 + l2)
    at = _e.arctanh(z) + _np.pi * 1j * _unwind(lg2 - lg1) \
        if l1.dtype.kind == "c" else _e.arctanh(z)
    f_near = t12 * 2 * at / dl
    return _e.where(same, t12 / l1, _e.where(far, f_far, f_near))


def _principal(d):
    return bool(_e.all((_e.real(d) > 0) | (_e.imag(d) != 0)))


def _set_diags(U, d0, d1):
    n = U.shape[-1]
    i = _e.arange(n, device=U.device)
    U = U.copy()
    U[i, i] = d0.astype(U.dtype)
    if n > 1:
        U[i[:-1], i[:-1] + 1] = d1.astype(U.dtype)
    return U


def _inverse_squaring(T0):
    n = T0.shape[-1]
    T = T0
    d = _host(_e.diagonal(T))
    s0 = 0
    while n and _np.max(_np.abs(d - 1)) > _THETA[7]:
        d = _np.sqrt(d)
        s0 += 1
    for _ in range(s0):
        T = sqrtm_triu(T)
    s, k = s0, 0
    d2 = _onenorm_m1_power(T, 2)
    d3 = _onenorm_m1_power(T, 3)
    a2 = max(d2, d3)
    m = next((i for i in (1, 2) if a2 <= _THETA[i]), None)
    while m is None:
        if s > s0:
            d3 = _onenorm_m1_power(T, 3)
        d4 = _onenorm_m1_power(T, 4)
        a3 = max(d3, d4)
        if a3 <= _THETA[7]:
            j1 = min(i for i in (3, 4, 5, 6, 7) if a3 <= _THETA[i])
            if j1 <= 6:
                m = j1
                break
            if a3 / 2 <= _THETA[5] and k < 2:
                k += 1
                T = sqrtm_triu(T)
                s += 1
                continue
        d5 = _onenorm_m1_power(T, 5)
        eta = min(a3, max(d4, d5))
        m = next((i for i in (6, 7) if eta <= _THETA[i]), None)
        if m is not None:
            break
        T = sqrtm_triu(T)
        s += 1
    R = T - _e.eye(n, dtype=T.dtype, device=T.device)
    d0 = _e.diagonal(T0)
    if _principal(d0):
        d1 = _frac_superdiag(d0[:-1], d0[1:], _e.diagonal(T0, 1),
                             2.0 ** -s) if n > 1 else None
        R = _set_diags(R, _briggs(d0, s), d1)
    return R, s, m


def _logm_triu(T):
    from ember.scipy.linalg_lu import solve_triangular
    n = T.shape[-1]
    real = T.dtype.kind != "c" and \
        float(_e.min(_e.diagonal(T))) >= 0
    T0 = T.astype(_e.float64 if real else _e.complex128)
    R, s, m = _inverse_squaring(T0)
    nodes, weights = _np.polynomial.legendre.leggauss(m)
    nodes, weights = 0.5 + 0.5 * nodes, 0.5 * weights
    ident = _e.eye(n, dtype=R.dtype, device=R.device)
    U = _e.zeros(R.shape, dtype=R.dtype, device=R.device)
    for alpha, beta in zip(weights, nodes):
        U = U + solve_triangular(ident + beta * R, alpha * R)
    U = U * 2.0 ** s
    d0 = _e.diagonal(T0)
    if _principal(d0):
        d1 = _logm_superdiag(d0[:-1], d0[1:], _e.diagonal(T0, 1)) \
            if n > 1 else None
        U = _set_diags(U, _e.log(d0), d1)
    return U


def _force_nonsingular(T):
    d = _e.abs(_e.diagonal(T))
    if bool(_e.any(d == 0)):
        warnings.warn("The logm input matrix is exactly singular.",
                      LogmExactlySingularWarning, stacklevel=4)
        fix = _e.where(d == 0, 1e-20, 0).astype(T.dtype)
        return T + _e.diag(fix)
    if bool(_e.any(d < 1e-20)):
        warnings.warn("The logm input matrix may be nearly singular.",
                      LogmNearlySingularWarning, stacklevel=4)
    return T


def _logm(A):
    if bool(_e.all(A == _e.triu(A))):
        A = _force_nonsingular(A)
        if A.dtype.kind != "c" and float(_e.min(_e.diagonal(A))) < 0:
            A = A.astype(_e.complex128)
        return _logm_triu(A)
    if A.dtype.kind != "c":
        T, Z = schur(A)
        if not bool(_e.all(T == _e.triu(T))):
            T, Z = rsf2csf(T, Z, check_finite=False)
    else:
        T, Z = schur(A, output="complex")
    U = _logm_triu(_force_nonsingular(T))
    return Z @ U @ _e.conj(Z.T)


def logm(A, disp=_NoValue):
    """scipy.linalg.logm: the principal matrix logarithm, float64 or
    complex128 as SciPy's (whatever A's precision). Warns RuntimeWarning
    where ||expm(F) - A||_1 / ||A||_1 is not below 1000 eps."""
    _deprecated("disp", disp)
    disp = True if disp is _NoValue else disp
    a = _schur_operand(A, "logm", "expected a square matrix")
    from ember.scipy.linalg_decomp import norm
    from ember.scipy.linalg_expm import expm

    def one(a):
        F = _maybe_real(a, _logm(a))
        na = float(norm(a, 1))
        with _np.errstate(divide="ignore", invalid="ignore"):
            err = _np.float64(float(norm(expm(F) - a, 1))) / na
        if disp and (not _np.isfinite(err) or err >= 1000 * _EPS):
            warnings.warn("logm result may be inaccurate, approximate err "
                          f"= {err}", RuntimeWarning, stacklevel=3)
        return F if disp else (F, err)
    return _over_batch(one, a)
