"""scipy.linalg's matrix equation solvers: solve_sylvester,
solve_continuous_lyapunov (solve_lyapunov), solve_discrete_lyapunov,
solve_continuous_are, solve_discrete_are, with SciPy 1.17's algorithms:
Bartels-Stewart (schur + LAPACK's trsyl), the discrete Lyapunov equation
by the Kronecker 'direct' method below n = 10 and the 'bilinear' map to a
continuous one above, the Riccati equations by the generalized Schur
method (balance, QR compression, ordqz). Schur and QZ are LAPACK's on the
cpu device only; solve_discrete_lyapunov's 'direct' method is a plain
linear solve and so runs on cuda too."""
import warnings

import numpy as _np

import ember as _e
from ember import _ember as _c
from ember.scipy._linalg_common import (
    arrs, check_finite as _check, colmajor, lapack_dtype, linalg_error)
from ember.scipy.linalg_schur import _host, cpu_only, ordqz, schur


def _ct(x):
    return _e.conj(_e.matrix_transpose(x))


def _batched(fn, core, *xs):
    """SciPy's batch support: fn over the broadcast leading axes, one
    matrix problem at a time, as SciPy's _apply_over_batch does."""
    if all(x is None or x.ndim <= 2 for x in xs):
        return fn(*xs)
    batch = _e.broadcast_shapes(*[x.shape[:-2] for x in xs if x is not None])
    xs = [None if x is None else _e.broadcast_to(x, batch + x.shape[-2:])
          for x in xs]
    outs = [fn(*[None if x is None else x[i] for x in xs])
            for i in _np.ndindex(batch)]
    return _e.stack(outs).reshape(batch + outs[0].shape)


def _trsyl(r, s, f, tranb, isgn=1):
    """op(r) x + isgn x op(s) = scale f: (x, scale, info) by LAPACK's
    trsyl, r and s quasi-triangular."""
    dt = lapack_dtype(r, s, f)
    c = colmajor(f.astype(dt, copy=False))
    scale = _e.empty((), dtype=_e.float32 if dt in (_e.float32, _e.complex64)
                     else _e.float64, device=f.device)
    info = _e.zeros((), dtype=_e.int32, device=f.device)
    _c._la_trsyl(colmajor(r.astype(dt, copy=False)),
                 colmajor(s.astype(dt, copy=False)), c, scale, info, 0,
                 tranb, isgn)
    return _e.matrix_transpose(c), scale, int(info)


def _empty_of(device, *xs):
    dt = lapack_dtype(*xs)
    return lambda shape: _e.empty(shape, dtype=dt, device=device)


def solve_sylvester(a, b, q):
    """scipy.linalg.solve_sylvester: x with a x + x b = q, by
    Bartels-Stewart (real Schur forms of a and b^H, then trsyl)."""
    a, b, q = arrs(a, b, q)
    for name, x in (("a", a), ("b", b)):
        if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
            raise ValueError(f"Matrix {name} should be square, got shape "
                             f"{x.shape}.")
    if q.ndim < 2 or q.shape[-2:] != (a.shape[-1], b.shape[-1]):
        raise ValueError(f"Matrix q of shape {q.shape} does not match a "
                         f"{a.shape} and b {b.shape}.")
    if a.size == 0 or b.size == 0:
        return _empty_of(q.device, a, b, q)(q.shape)
    cpu_only("solve_sylvester", "Schur decomposition (LAPACK's gees)", a)

    def one(a, b, q):
        r, u = schur(a, output="real")
        s, v = schur(_ct(b), output="real")
        f = _ct(u) @ q @ v
        y, scale, _ = _trsyl(r, s, f, 2)
        return u @ (scale * y) @ _ct(v)
    return _batched(one, 2, a, b, q)


def solve_continuous_lyapunov(a, q):
    """scipy.linalg.solve_continuous_lyapunov: x with a x + x a^H = q."""
    a, q = arrs(a, q)
    _check(a, q)
    for name, x in (("a", a), ("q", q)):
        if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
            raise ValueError(f"Matrix {name} should be square.")
    if a.shape[-2:] != q.shape[-2:]:
        raise ValueError("Matrix a and q should have the same shape.")
    if a.size == 0:
        return _empty_of(a.device, a, q)(
            _e.broadcast_shapes(a.shape, q.shape))
    cpu_only("solve_continuous_lyapunov",
             "Schur decomposition (LAPACK's gees)", a)
    cplx = a.dtype.kind == "c" or q.dtype.kind == "c"

    def one(a, q):
        r, u = schur(a, output="real")
        f = _ct(u) @ q @ u
        y, scale, info = _trsyl(r, r, f, 2 if cplx else 1)
        if info == 1:
            warnings.warn('Input "a" has an eigenvalue pair whose sum is '
                          "very close to or exactly zero. The solution is "
                          "obtained via perturbing the coefficients.",
                          RuntimeWarning, stacklevel=3)
        return u @ (scale * y) @ _ct(u)
    return _batched(one, 2, a, q)


solve_lyapunov = solve_continuous_lyapunov


def _f64(*xs):
    """NumPy's promotion of the operands with float64 (SciPy's eye)."""
    cplx = any(x.dtype.kind == "c" for x in xs)
    return _e.complex128 if cplx else _e.float64


def _dlyap_direct(a, q):
    n = a.shape[-1]
    dt = _f64(a, q)
    from ember.scipy.linalg_special import kron
    lhs = _e.eye(n * n, dtype=dt, device=a.device) - \
        kron(a, _e.conj(a)).astype(dt)
    from ember.scipy.linalg_lu import solve
    x = solve(lhs, q.astype(dt).reshape(-1))
    return x.reshape(q.shape)


def _dlyap_bilinear(a, q):
    from ember.scipy.linalg_lu import inv
    dt = _f64(a, q)
    eye = _e.eye(a.shape[-1], dtype=dt, device=a.device)
    aH = _ct(a).astype(dt)
    aHI_inv = inv(aH + eye)
    b = (aH - eye) @ aHI_inv
    c = 2 * (inv(a.astype(dt) + eye) @ q) @ aHI_inv
    return solve_continuous_lyapunov(_ct(b), -c)


def solve_discrete_lyapunov(a, q, method=None):
    """scipy.linalg.solve_discrete_lyapunov: x with a x a^H - x + q = 0.
    method None is SciPy's choice: 'direct' (I - kron(a, conj(a)) solved
    as one n^2 system) below n = 10, 'bilinear' from there. Results are
    float64 or complex128, as SciPy's (its identity is float64). 'direct'
    runs on any device; 'bilinear' needs schur, cpu only."""
    a, q = arrs(a, q)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2] or q.ndim < 2 or \
            q.shape[-2:] != a.shape[-2:]:
        raise ValueError(f"a must be square and q of its shape, got a "
                         f"{a.shape} and q {q.shape}")
    if method is None:
        method = "bilinear" if a.shape[-1] >= 10 else "direct"
    meth = method.lower()
    if meth == "direct":
        return _batched(_dlyap_direct, 2, a, q)
    if meth == "bilinear":
        if a.device.type != "cpu":
            raise NotImplementedError(
                f"ember.scipy.linalg.solve_discrete_lyapunov on {a.device}: "
                "the 'bilinear' method (SciPy's choice for n >= 10) needs "
                "a Schur decomposition, and cuSOLVER has no gees; pass "
                "method='direct' or move the operands to the cpu device")
        return _batched(_dlyap_bilinear, 2, a, q)
    raise ValueError(f"Unknown solver {method}")


# ---- Riccati equations --------------------------------------------------

def _norm1(x):
    return float(_e.max(_e.sum(_e.abs(x), axis=0))) if x.size else 0.0


def _are_args(a, b, q, r, e, s, care):
    a, b, q, r, e, s = arrs(a, b, q, r, e, s)
    _check(a, b, q, r, e, s)
    a, b, q, r = (_e.atleast_2d(x) for x in (a, b, q, r))
    cplx = b.dtype.kind == "c"
    for name, x in (("a", a), ("q", q), ("r", r)):
        cplx |= x.dtype.kind == "c"
        if x.shape[0] != x.shape[1]:
            raise ValueError(f"Matrix {name} should be square.")
    m, n = b.shape
    if m != a.shape[0]:
        raise ValueError("Matrix a and b should have the same number of "
                         "rows.")
    if m != q.shape[0]:
        raise ValueError("Matrix a and q should have the same shape.")
    if n != r.shape[0]:
        raise ValueError("Matrix b and r should have the same number of "
                         "cols.")
    for name, x in (("q", q), ("r", r)):
        if _norm1(x - _ct(x)) > _np.spacing(_norm1(x)) * 100:
            raise ValueError(f"Matrix {name} should be symmetric/hermitian.")
    from ember.scipy.linalg_decomp import svd
    if care:
        sv = float(svd(r, compute_uv=False)[-1])
        if sv == 0.0 or sv < _np.spacing(1.0) * _norm1(r):
            raise ValueError("Matrix r is numerically singular.")
    if e is not None:
        e = _e.atleast_2d(e)
        if e.shape[0] != e.shape[1]:
            raise ValueError("Matrix e should be square.")
        if m != e.shape[0]:
            raise ValueError("Matrix a and e should have the same shape.")
        sv = float(svd(e, compute_uv=False)[-1])
        if sv == 0.0 or sv < _np.spacing(1.0) * _norm1(e):
            raise ValueError("Matrix e is numerically singular.")
        cplx |= e.dtype.kind == "c"
    if s is not None:
        s = _e.atleast_2d(s)
        if s.shape != b.shape:
            raise ValueError("Matrix b and s should have the same shape.")
        cplx |= s.dtype.kind == "c"
    dt = _e.complex128 if cplx else _e.float64
    cast = lambda x: None if x is None else x.astype(dt)  # noqa: E731
    return [cast(x) for x in (a, b, q, r, e, s)] + [m, n, dt]


def _balance_scale(H, J, m):
    """SciPy's balancing of the pencil: gebal's scaling of |H| + |J| (zero
    diagonal), rounded to powers of 2 that keep the Hamiltonian (or
    symplectic) structure. None when gebal leaves it as it is."""
    M = _e.abs(H) + _e.abs(J)
    M = M * (1 - _e.eye(M.shape[0], dtype=M.dtype, device=M.device))
    c = colmajor(M.astype(_e.float64))
    sca = _e.empty((M.shape[0],), dtype=_e.float64, device=M.device)
    _c._la_gebal(c, sca, _e.zeros((), dtype=_e.int32, device=M.device))
    sh = _host(sca)
    if _np.allclose(sh, _np.ones_like(sh)):
        return None
    sh = _np.log2(sh)
    s = _np.round((sh[m:2 * m] - sh[:m]) / 2)
    return 2 ** _np.r_[s, -s, sh[2 * m:]]


def _are_finish(u, m, e, sca, what):
    from ember.scipy.linalg_decomp import qr, svd, norm
    from ember.scipy.linalg_lu import lu, solve_triangular
    if e is not None:
        u, _ = qr(_e.concatenate([e @ u[:m, :m], u[m:, :m]]))
    u00, u10 = u[:m, :m], u[m:, :m]
    up, ul, uu = lu(u00)
    sv = _host(svd(uu, compute_uv=False))
    if sv[-1] / sv[0] < _np.spacing(1.0) or not _np.isfinite(sv).all():
        raise linalg_error("Failed to find a finite solution.")
    x = _ct(solve_triangular(_ct(ul), solve_triangular(
        _ct(uu), _ct(u10), lower=True), unit_diagonal=True)) @ _ct(up)
    if sca is not None:
        sm = _e.asarray(sca[:m], device=u.device)
        x = x * (sm[:, None] * sm)
    u_sym = _ct(u00) @ u10
    n_u_sym = float(norm(u_sym, 1))
    u_sym = u_sym - _ct(u_sym)
    if float(norm(u_sym, 1)) > max(_np.spacing(1000.0), 0.1 * n_u_sym):
        raise linalg_error(what)
    return (x + _ct(x)) / 2


def _compress(H, J, n, full_j):
    from ember.scipy.linalg_decomp import qr
    q, _ = qr(H[:, -n:])
    m2 = H.shape[0] - n
    H = _ct(q[:, n:]) @ H[:, :m2]
    J = _ct(q[:, n:] if full_j else q[:m2, n:]) @ \
        (J[:, :m2] if full_j else J[:m2, :m2])
    return H, J


def _scale(H, J, sca):
    if sca is None:
        return H, J
    s = _e.asarray(sca, device=H.device)
    ew = (s[:, None] * (1 / s)).astype(H.dtype)
    return H * ew, J * ew


def _hamiltonian(a, b, q, r, e, s, m, n, dt, z):
    """SciPy's extended Hamiltonian pencil (H, J) of the continuous ARE."""
    H = _e.concatenate([
        _e.concatenate([a, z(m, m), b], axis=1),
        _e.concatenate([-q, -_ct(a), z(m, n) if s is None else -s], axis=1),
        _e.concatenate([z(n, m) if s is None else _ct(s), _ct(b), r],
                       axis=1)])
    if e is not None:
        J = _e.concatenate([
            _e.concatenate([e, z(m, m), z(m, n)], axis=1),
            _e.concatenate([z(m, m), _ct(e), z(m, n)], axis=1),
            z(n, 2 * m + n)])
    else:
        J = _e.concatenate([
            _e.concatenate([_e.eye(2 * m, dtype=dt, device=a.device),
                            z(2 * m, n)], axis=1), z(n, 2 * m + n)])
    return H, J


def _symplectic(a, b, q, r, e, s, m, n, dt, z):
    """SciPy's extended symplectic pencil (H, J) of the discrete ARE."""
    eye = _e.eye(m, dtype=dt, device=a.device)
    H = _e.concatenate([
        _e.concatenate([a, z(m, m), b], axis=1),
        _e.concatenate([-q, eye if e is None else _ct(e),
                        z(m, n) if s is None else -s], axis=1),
        _e.concatenate([z(n, m) if s is None else _ct(s), z(n, m), r],
                       axis=1)])
    J = _e.concatenate([
        _e.concatenate([eye if e is None else e, z(m, m), z(m, n)], axis=1),
        _e.concatenate([z(m, m), _ct(a), z(m, n)], axis=1),
        _e.concatenate([z(n, m), -_ct(b), z(n, n)], axis=1)])
    return H, J


def _solve_are(care, a, b, q, r, e, s, balanced):
    """The two ARE solvers' one course, as SciPy's: batches, the checks,
    the pencil, balanced and QR compressed, ordered by ordqz (stable
    half-plane for the continuous equation, unit disc for the discrete)."""
    a, b, q, r, e, s = arrs(a, b, q, r, e, s)
    if any(x is not None and x.ndim > 2 for x in (a, b, q, r, e, s)):
        return _batched(lambda *x: _solve_are(care, *x, balanced),
                        2, a, b, q, r, e, s)
    a, b, q, r, e, s, m, n, dt = _are_args(a, b, q, r, e, s, care)
    cpu_only("solve_continuous_are" if care else "solve_discrete_are",
             "generalized Schur (QZ) decomposition (LAPACK's gges)", a)
    z = lambda i, j: _e.zeros((i, j), dtype=dt, device=a.device)  # noqa
    H, J = (_hamiltonian if care else _symplectic)(a, b, q, r, e, s, m, n,
                                                   dt, z)
    sca = _balance_scale(H, J, m) if balanced else None
    H, J = _scale(H, J, sca)
    H, J = _compress(H, J, n, not care)
    out = "real" if dt == _e.float64 else "complex"
    u = ordqz(H, J, sort="lhp" if care else "iuc", output=out,
              check_finite=False)[-1]
    return _are_finish(u, m, e, sca, "The associated Hamiltonian pencil "
                       "has eigenvalues too close to the imaginary axis"
                       if care else "The associated symplectic pencil "
                       "has eigenvalues too close to the unit circle")


def solve_continuous_are(a, b, q, r, e=None, s=None, balanced=True):
    """scipy.linalg.solve_continuous_are: the stabilising solution of
    a^H x + x a - (x b + s) r^-1 (b^H x + s^H) + q = 0 (with e: a^H x e +
    e^H x a ...), by SciPy's extended Hamiltonian pencil, balanced, QR
    compressed and ordered by ordqz ('lhp'). cpu only (QZ)."""
    return _solve_are(True, a, b, q, r, e, s, balanced)


def solve_discrete_are(a, b, q, r, e=None, s=None, balanced=True):
    """scipy.linalg.solve_discrete_are: the stabilising solution of
    a^H x a - x - (a^H x b + s)(r + b^H x b)^-1 (b^H x a + s^H) + q = 0
    (e generalises x to e^H x e), by SciPy's extended symplectic pencil,
    balanced, QR compressed and ordered by ordqz ('iuc'). cpu only."""
    return _solve_are(False, a, b, q, r, e, s, balanced)
