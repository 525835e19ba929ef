"""scipy.linalg's Schur-based matrix functions: sqrtm, funm, signm, logm,
with SciPy 1.17's algorithms: the blocked Schur square root (a point
recurrence inside blocks of 64, trsyl between them), Parlett's
recurrence for funm (Golub & Van Loan 9.1.1), signm through funm with
SciPy's Newton fallback, and logm by inverse scaling and squaring on the
(complex) Schur form (Al-Mohy & Higham 2012). The recurrences run a
superdiagonal at a time, each one a few array operations, not a Python
loop over entries. They need schur, so they run on the cpu device only.
logm takes exact 1-norms of (T - I)^p where SciPy estimates them
(onenormest), so its choice of square roots and Pade degree can differ
from SciPy's by one; the results agree to rounding."""
import warnings

import numpy as _np

import ember as _e
from ember.scipy._linalg_common import arrs, lapack_dtype
from ember.scipy.linalg_expm import square_stack
from ember.scipy.linalg_schur import _COMPLEX, _host, cpu_only, rsf2csf, schur
from ember.scipy.linalg_solvers import _trsyl

_NoValue = object()
_FEPS = float(_np.finfo(_np.float32).eps)
_EPS = float(_np.finfo(_np.float64).eps)


def _single(dt):
    return _e.dtype(dt).name in ("float32", "complex64")


def _deprecated(name, value):
    if value is not _NoValue:
        warnings.warn(f"The `{name}` argument is deprecated and will be "
                      "removed in SciPy 1.18.0.", DeprecationWarning,
                      stacklevel=3)


def _schur_operand(A, name, not_square):
    """funm's, signm's and logm's operand: a (..., n, n) stack in its
    LAPACK dtype, on the cpu (they need schur); else ValueError(not_square)
    in SciPy's words for that function."""
    (a,) = arrs(A)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(not_square)
    a = a.astype(lapack_dtype(a), copy=False)
    cpu_only(name, "Schur decomposition (LAPACK's gees)", a)
    return a


def _over_batch(fn, a):
    """SciPy's _apply_over_batch for one (..., n, n) operand."""
    if a.ndim <= 2:
        return fn(a)
    outs = [fn(a[i]) for i in _np.ndindex(a.shape[:-2])]
    if isinstance(outs[0], tuple):
        return tuple(_e.stack([o[k] for o in outs]).reshape(
            a.shape[:-2] + _shape(outs[0][k]))
            if isinstance(outs[0][k], _e.ndarray)
            else _np.array([o[k] for o in outs]).reshape(a.shape[:-2])
            for k in range(len(outs[0])))
    return _e.stack(outs).reshape(a.shape[:-2] + outs[0].shape)


def _shape(x):
    return tuple(x.shape)


def _complex_schur(a):
    """(T, Z, neg): the complex Schur form of a, and for real a whether
    its real Schur form has a negative real eigenvalue (a 1x1 block)."""
    real = a.dtype.kind != "c"
    T, Z = schur(a, output="real" if real else "complex")
    neg = False
    if real:
        n = T.shape[-1]
        d = _host(_e.diagonal(T))
        sub = _np.zeros(n, dtype=bool)
        if n > 1:
            s = _host(_e.diagonal(T, -1)) != 0
            sub[1:] |= s
            sub[:-1] |= s
        neg = bool(((d < 0) & ~sub).any())
        T, Z = rsf2csf(T, Z, check_finite=False)
    return T, Z, neg


def _diag_set(x, k, vals):
    """x with its k-th superdiagonal set to vals (a new array)."""
    n = x.shape[-1]
    i = _e.arange(n - k, device=x.device)
    x = x.copy()
    x[i, i + k] = vals.astype(x.dtype)
    return x


def _tri_sqrt_point(T):
    """The square root of an upper-triangular T by the point recurrence
    r_ij = (t_ij - sum_k r_ik r_kj) / (r_ii + r_jj), a superdiagonal at
    a time: while it is being filled, R's zero entries above it make
    the full row-by-column sums equal the interior sums."""
    n = T.shape[-1]
    R = _e.diag(_e.sqrt(_e.diagonal(T))).astype(T.dtype)
    d = _e.diagonal(R)
    for p in range(1, n):
        s = _e.sum(R[:n - p, :] * _e.matrix_transpose(R[:, p:]), axis=1)
        R = _diag_set(R, p, (_e.diagonal(T, p) - s) / (d[:n - p] + d[p:]))
    return R


def sqrtm_triu(T, blocksize=64):
    """SciPy's blocked Schur square root of an upper-triangular T: the
    point recurrence inside each diagonal block, then the blocks above
    the diagonal by trsyl (R_ii X + X R_jj = S), block column by block
    column."""
    n = T.shape[-1]
    nblocks = max(n // blocksize, 1)
    bsmall, nlarge = divmod(n, nblocks)
    bounds, start = [], 0
    for count, size in ((nblocks - nlarge, bsmall), (nlarge, bsmall + 1)):
        for _ in range(count):
            bounds.append((start, start + size))
            start += size
    R = _e.zeros(T.shape, dtype=T.dtype, device=T.device)
    for s, e in bounds:
        R[s:e, s:e] = _tri_sqrt_point(T[s:e, s:e])
    for j in range(nblocks):
        js, je = bounds[j]
        for i in range(j - 1, -1, -1):
            is_, ie = bounds[i]
            S = T[is_:ie, js:je]
            if j - i > 1:
                S = S - R[is_:ie, ie:js] @ R[ie:js, js:je]
            x, scale, _ = _trsyl(R[is_:ie, is_:ie], R[js:je, js:je], S, 0)
            R[is_:ie, js:je] = x * scale
    return R


def sqrtm(A, disp=_NoValue, blocksize=_NoValue):
    """scipy.linalg.sqrtm: the principal square root by the blocked Schur
    method. Real A gives a real root unless its real Schur form has a
    negative real eigenvalue, as SciPy 1.17's; a singular A warns
    (LinAlgWarning)."""
    _deprecated("disp", disp)
    _deprecated("blocksize", blocksize)
    (a,) = arrs(A)
    if a.size == 1 and a.ndim < 2:
        return _e.exp(a.astype(lapack_dtype(a))).reshape(1, 1)
    a = square_stack(a)
    dt = a.dtype
    if min(a.shape) == 0:
        return _e.empty(a.shape, dtype=dt, device=a.device)
    if a.shape[-2:] == (1, 1) and a.ndim == 2:
        if dt.kind != "c" and float(a[0, 0]) < 0:
            a = a.astype(_COMPLEX[dt.name])
        return _e.sqrt(a)
    cpu_only("sqrtm", "Schur decomposition (LAPACK's gees)", a)

    def one(a):
        if bool(_e.all(a == _e.triu(a))):
            # triangular already, as SciPy's C code takes it: no Schur
            # vectors to multiply an infinite entry by zero
            neg = a.dtype.kind != "c" and bool(_e.any(_e.diagonal(a) < 0))
            T = a.astype(_COMPLEX[a.dtype.name]) if neg else a
            R = sqrtm_triu(T)
            if bool(_e.any(_e.diagonal(T) == 0)):
                warnings.warn("Matrix is singular. The result might be "
                              "inaccurate or the array might not have a "
                              "square root.", _lin_warning(), stacklevel=3)
            return R
        T, Z, neg = _complex_schur(a)
        if bool(_e.any(_e.diagonal(T) == 0)):
            warnings.warn("Matrix is singular. The result might be "
                          "inaccurate or the array might not have a square "
                          "root.", _lin_warning(), stacklevel=3)
        X = Z @ sqrtm_triu(T) @ _e.conj(Z.T)
        if a.dtype.kind != "c" and not neg:
            X = _e.real(X).astype(a.dtype)
        return X
    res = _over_batch(one, a)
    if disp is False:
        from ember.scipy.linalg_decomp import norm
        r2 = res @ res - a
        err = float(norm(r2, "fro")) ** 2 / float(norm(a, "fro"))
        return res, err
    return res


def _lin_warning():
    from ember.scipy.linalg_lu import LinAlgWarning
    return LinAlgWarning


def _maybe_real(A, B, tol=None):
    """SciPy's: B's real part when A is real and B's imaginary part is
    negligible."""
    if A.dtype.kind != "c" and B.dtype.kind == "c":
        if tol is None:
            tol = _FEPS * 1000.0 if _single(B.dtype) else _EPS * 1e6
        if bool(_e.all(_e.abs(_e.imag(B)) <= tol)):
            B = _e.real(B)
    return B


def _parlett(T, F):
    """Parlett's recurrence for f(T) given f on T's diagonal (F diagonal):
    f_ij = (t_ij (f_jj - f_ii) + sum_k t_ik f_kj - f_ik t_kj) / (t_jj -
    t_ii), a superdiagonal at a time; the sums over full rows and columns
    equal that numerator while F's entries above the diagonal in work
    are zero. A zero denominator leaves the numerator, as SciPy's."""
    n = T.shape[-1]
    d = _e.diagonal(T)
    for p in range(1, n):
        tf = _e.sum(T[:n - p, :] * _e.matrix_transpose(F[:, p:]), axis=1)
        ft = _e.sum(F[:n - p, :] * _e.matrix_transpose(T[:, p:]), axis=1)
        den = d[p:] - d[:n - p]
        s = tf - ft
        F = _diag_set(F, p, _e.where(den != 0, s / _e.where(den != 0, den, 1),
                                     s))
    return F


def _minden(T):
    n = T.shape[-1]
    d = _e.diagonal(T)
    m = abs(complex(T[0, 0]))
    if n > 1:
        diff = _e.abs(d[None, :] - d[:, None])
        upper = _e.triu(_e.ones((n, n), dtype=_e.bool, device=T.device), 1)
        m = min(m, float(_e.min(_e.where(upper, diff, _np.inf))))
    return m


def funm(A, func, disp=True):
    """scipy.linalg.funm: f(A) for a scalar function func (applied to an
    ember array of eigenvalues) by Schur-Parlett; (F, err) when disp is
    False, where err is SciPy's estimate."""
    a = _schur_operand(A, "funm", "expected square array_like input")

    def one(a):
        T, Z, _ = _complex_schur(a)
        F = _e.diag(_e.asarray(func(_e.diagonal(T)), device=a.device))
        F = F.astype(T.dtype)
        F = _parlett(T, F)
        F = Z @ F @ _e.conj(Z.T)
        F = _maybe_real(a, F)
        tol = _FEPS if _single(F.dtype) else _EPS
        minden = _minden(T) or tol
        from ember.scipy.linalg_decomp import norm
        err = min(1, max(tol, (tol / minden) *
                         float(norm(_e.triu(T, 1), 1))))
        if not bool(_e.all(_e.isfinite(F))):
            err = _np.inf
        return F, err
    if a.ndim > 2:
        outs = [one(a[i]) for i in _np.ndindex(a.shape[:-2])]
        F = _e.stack([o[0] for o in outs]).reshape(a.shape)
        err = _np.array([o[1] for o in outs]).reshape(a.shape[:-2])
    else:
        F, err = one(a)
    if disp:
        tol = _FEPS if _single(F.dtype) else _EPS
        if _np.any(_np.asarray(err) > 1000 * tol):
            print("funm result may be inaccurate, approximate err =", err)
        return F
    return F, err


def signm(A, disp=_NoValue):
    """scipy.linalg.signm: funm with SciPy's rounded sign, and where its
    error estimate is too large SciPy's Newton iteration on a shifted A."""
    _deprecated("disp", disp)
    disp = True if disp is _NoValue else disp
    a = _schur_operand(A, "signm", "expected square array_like input")
    return _over_batch(lambda x: _signm_one(x, disp), a)


def _signm_one(a, disp):
    from ember.scipy.linalg_decomp import norm, svd
    from ember.scipy.linalg_lu import inv

    def rounded_sign(x):
        rx = _e.real(x)
        # NumPy's amax of complex values is the largest real part first
        c = 1e3 * (_FEPS if _single(rx.dtype) else _EPS) * float(_e.max(rx))
        return _e.sign((_e.abs(rx) > c) * rx)
    result, errest = funm(a, rounded_sign, disp=False)
    errtol = 1e3 * (_FEPS if _single(result.dtype) else _EPS)
    if errest < errtol:
        return result
    # SciPy's Newton iteration for defective matrices, shifted away from
    # zero eigenvalues by half over the largest singular value
    vals = svd(a, compute_uv=False)
    c = 0.5 / float(_e.max(vals))
    S0 = a + c * _e.eye(a.shape[0], dtype=a.dtype, device=a.device)
    prev = errest
    for _ in range(100):
        S0 = 0.5 * (S0 + inv(S0))
        Pp = 0.5 * (S0 @ S0 + S0)
        errest = float(norm(Pp @ Pp - Pp, 1))
        if errest < errtol or prev == errest:
            break
        prev = errest
    if not disp:
        return S0, errest
    if not _np.isfinite(errest) or errest >= errtol:
        print("signm result may be inaccurate, approximate err =", errest)
    return S0


from ember.scipy.linalg_logm import logm  # noqa: E402,F401
