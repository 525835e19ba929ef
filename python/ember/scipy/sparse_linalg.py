"""ember.scipy.sparse.linalg: iterative methods over anything with @
(ember.scipy.sparse matrices, ember arrays, LinearOperator), as
scipy.sparse.linalg's: cg and gmres (and bicg, bicgstab, cgs from
sparse_krylov.py) return (x, info), eigsh the k
eigenvalues (and vectors) that `which` names. The vectors stay on the
device; each step reads a few scalars back (a norm, a column of
projections), and the small dense problems (GMRES's Hessenberg least
squares, the Lanczos projection's eigenproblem) are solved on the host
in float64 (complex128 for a complex system), as ARPACK and SciPy's
gmres solve theirs. Complex matrices are taken as SciPy takes them: cg
for Hermitian positive definite ones, gmres for any, eigsh (and lobpcg)
for Hermitian ones, with real eigenvalues and complex vectors.

Differences from SciPy: gmres applies M on the right (A M y = b, x = M y),
so the residual it tests is b - A x itself, where SciPy's left
preconditioning tests M (b - A x); without M they agree. eigsh is a
thick-restart Lanczos method (Wu and Simon), not ARPACK: its eigenvalues
come in ascending order for every `which`; sigma (shift-invert), M
(generalized problems) and which='BE' are not there yet.

spsolve is a direct solver, for real and complex systems (a real matrix
with a complex right-hand side solves in complex, as SciPy's): on cuda
cuSOLVER's sparse QR (csrlsvqr and its complex ccsrlsvqr/zcsrlsvqr, as
cupyx's spsolve), one right-hand side at a time; on cpu SciPy's SuperLU
over the matrix's host arrays (SciPy is then required). A singular matrix
warns MatrixRankWarning and gives NaNs, as SciPy's spsolve."""
import numpy

import ember as _e

__all__ = ["cg", "gmres", "eigsh", "spsolve", "LinearOperator",
           "aslinearoperator", "ArpackError", "ArpackNoConvergence",
           "MatrixRankWarning"]


class LinearOperator:
    """scipy.sparse.linalg.LinearOperator: a shape, a dtype, and the
    products: matvec (and rmatvec, matmat, rmatmat where given). A missing
    matmat applies matvec column by column; a subclass may define _matvec
    and _rmatvec instead, as in SciPy."""

    ndim = 2

    def __init__(self, shape=None, matvec=None, rmatvec=None, matmat=None,
                 dtype=None, rmatmat=None, device=None):
        if shape is None or len(shape) != 2:
            raise ValueError(f"invalid shape {shape!r} (must be 2-d)")
        self.shape = tuple(int(s) for s in shape)
        self._fns = {"matvec": matvec, "rmatvec": rmatvec,
                     "matmat": matmat, "rmatmat": rmatmat}
        self.device = device
        if dtype is None:
            dtype = self._probe().dtype
        self.dtype = _e.dtype(dtype)

    def _probe(self):
        """matvec of zeros, as SciPy finds a dtype: on the operator's
        device, else the default one, else the host (ember copies between
        devices only when asked, so a host operator refuses the GPU's)."""
        devices = [self.device] if self.device is not None else \
            [None, "cpu"]
        for i, dev in enumerate(devices):
            try:
                return self.matvec(_e.zeros(self.shape[1], device=dev))
            except ValueError:
                if i == len(devices) - 1:
                    raise

    def _matvec(self, x):
        if self._fns["matvec"] is not None:
            return self._fns["matvec"](x)
        if self._fns["matmat"] is not None:
            return self._fns["matmat"](x.reshape(-1, 1)).reshape(-1)
        raise NotImplementedError("this LinearOperator has no matvec")

    def _rmatvec(self, x):
        if self._fns["rmatvec"] is None:
            raise NotImplementedError("rmatvec is not defined")
        return self._fns["rmatvec"](x)

    def _apply(self, x, which, n):
        """matvec or rmatvec of a vector of length n, shaped (n,) or
        (n, 1), the result shaped the same way."""
        x = x if isinstance(x, _e.ndarray) else _e.asarray(x)
        if x.shape not in ((n,), (n, 1)):
            raise ValueError(f"dimension mismatch: operator of shape "
                             f"{self.shape}, vector of shape {x.shape}")
        y = getattr(self, which)(x.reshape(-1))
        return y.reshape(-1, 1) if x.ndim == 2 else y.reshape(-1)

    def matvec(self, x):
        return self._apply(x, "_matvec", self.shape[1])

    def rmatvec(self, x):
        return self._apply(x, "_rmatvec", self.shape[0])

    def _columns(self, X, fn, name):
        if X.ndim != 2 or X.shape[0] != self.shape[1 if name == "matmat"
                                                    else 0]:
            raise ValueError(f"dimension mismatch: operator of shape "
                             f"{self.shape}, {name} of shape {X.shape}")
        if self._fns[name] is not None:
            return self._fns[name](X)
        # one product a column: per-column Python, each a device product
        return _e.stack([fn(X[:, j]) for j in range(X.shape[1])], axis=1)

    def matmat(self, X):
        return self._columns(X, self._matvec, "matmat")

    def rmatmat(self, X):
        return self._columns(X, self._rmatvec, "rmatmat")

    def __matmul__(self, x):
        x = x if isinstance(x, _e.ndarray) else _e.asarray(x)
        return self.matvec(x) if x.ndim == 1 else self.matmat(x)

    __call__ = __matmul__

    def dot(self, x):
        """SciPy's `A * x` / A.dot(x): the product with a vector or a
        matrix, or the operator scaled by a scalar."""
        if _e.ndim(x) == 0 and not isinstance(x, LinearOperator):
            c = x
            return LinearOperator(self.shape, matvec=lambda v: c * self._matvec(v),
                                  rmatvec=lambda v: _e.conj(c) * self._rmatvec(v),
                                  dtype=_e.result_type(self.dtype, c),
                                  device=self.device)
        return self @ x

    __mul__ = dot

    def __rmul__(self, x):
        if _e.ndim(x) == 0:
            return self.dot(x)
        return NotImplemented

    def adjoint(self):
        """The conjugate transpose: rmatvec and matvec swapped."""
        return LinearOperator(self.shape[::-1], matvec=self._rmatvec,
                              rmatvec=self._matvec, dtype=self.dtype,
                              device=self.device)

    H = property(adjoint)

    def __repr__(self):
        return (f"<{self.shape[0]}x{self.shape[1]} LinearOperator with "
                f"dtype={self.dtype}>")


def aslinearoperator(A):
    """A LinearOperator over A: itself, or the products of a sparse
    matrix, an array, or an object with shape and matvec."""
    if isinstance(A, LinearOperator):
        return A
    from ember.scipy import sparse
    if sparse.issparse(A) or isinstance(A, (_e.ndarray, numpy.ndarray)):
        if not sparse.issparse(A):
            A = A if isinstance(A, _e.ndarray) else _e.asarray(A)
        if A.ndim != 2:
            raise ValueError(f"expected a 2-d operator, got shape "
                             f"{A.shape}")
        # rmatvec is the adjoint's product, A^H x, as SciPy's
        if A.dtype.kind == "c":
            adj = lambda X: _e.conj(A.T @ _e.conj(X))  # noqa: E731
        else:
            adj = lambda X: A.T @ X  # noqa: E731
        return LinearOperator(A.shape, matvec=lambda x: A @ x,
                              rmatvec=adj, matmat=lambda X: A @ X,
                              rmatmat=adj, dtype=A.dtype, device=A.device)
    if hasattr(A, "shape") and hasattr(A, "matvec"):
        return LinearOperator(A.shape, matvec=A.matvec,
                              rmatvec=getattr(A, "rmatvec", None),
                              dtype=getattr(A, "dtype", None),
                              device=getattr(A, "device", None))
    raise TypeError(f"type not understood: {type(A).__name__} is not a "
                    f"matrix, array or LinearOperator")


def _system(A, b, x0):
    """(A as an operator, b, the start x, the working dtype) for a square
    system, checked as SciPy's make_system checks it."""
    A = aslinearoperator(A)
    b = b if isinstance(b, _e.ndarray) else _e.asarray(b)
    n = A.shape[0]
    if A.shape[0] != A.shape[1]:
        raise ValueError(f"expected square matrix, but got shape="
                         f"{A.shape}")
    if b.shape not in ((n,), (n, 1)):
        raise ValueError(f"shapes of A {A.shape} and b {b.shape} are "
                         f"incompatible")
    b = b.reshape(-1)
    t = _e.result_type(b.dtype, _e.float32) if b.dtype.kind != "c" \
        else b.dtype
    if A.dtype.kind in "fc":
        t = _e.result_type(t, A.dtype)
    b = b.astype(t)
    if x0 is None:
        x = _e.zeros(n, dtype=t, device=b.device)
    else:
        x = _e.asarray(x0, device=b.device).astype(t).reshape(-1)
        if x.shape != (n,):
            raise ValueError(f"shapes of A {A.shape} and x0 "
                             f"{tuple(x0.shape)} are incompatible")
    return A, b, x, t


def _norm(v):
    return float(_e.linalg.vector_norm(v))


def cg(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None,
       callback=None):
    """The conjugate gradient method for a symmetric (Hermitian) positive
    definite A: (x, 0) once |b - A x| <= max(rtol |b|, atol), else (x,
    the iterations taken)."""
    A, b, x, t = _system(A, b, x0)
    n = b.shape[0]
    maxiter = 10 * n if maxiter is None else maxiter
    bnorm = _norm(b)
    if bnorm == 0:
        return b.copy(), 0
    tol = max(rtol * bnorm, atol)
    psolve = (lambda r: r) if M is None else (lambda r: M @ r)
    r = b - A @ x if x0 is not None else b.copy()
    if _norm(r) <= tol:
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
        if _norm(r) <= tol:
            return x, 0
        z = psolve(r)
        rz_new = _e.vdot(r, z)
        p = z + (rz_new / rz) * p
        rz = rz_new
    return x, maxiter


def _orthogonalize(V, w):
    """w less its projection on the rows of V, twice over (classical
    Gram-Schmidt, repeated, keeps the basis orthogonal to rounding as
    modified Gram-Schmidt would, with two matrix products instead of a
    product a vector); the coefficients come back on the host, complex
    128 for a complex basis (the projections conj(V) w), else float64."""
    cplx = V.dtype.kind == "c"
    Vc = _e.conj(V) if cplx else V
    h = Vc @ w
    w = w - V.T @ h
    h2 = Vc @ w
    w = w - V.T @ h2
    return w, _e.asnumpy(h + h2).astype(numpy.complex128 if cplx
                                        else numpy.float64)


def gmres(A, b, x0=None, *, rtol=1e-5, atol=0.0, restart=None,
          maxiter=None, M=None, callback=None, callback_type=None):
    """Restarted GMRES: (x, 0) once |b - A x| <= max(atol, rtol |b|),
    else (x, maxiter). maxiter counts restart cycles, restart the Krylov
    vectors in one (20 by default), as SciPy's. callback_type 'x' calls
    callback(x) after each cycle; 'pr_norm' and 'legacy' call it with
    the relative residual after each inner step."""
    if callback_type is None:
        callback_type = "legacy"
    if callback_type not in ("x", "pr_norm", "legacy"):
        raise ValueError(f"Unknown callback_type: {callback_type!r}")
    if callback is None:
        callback_type = None
    A, b, x, t = _system(A, b, x0)
    n = b.shape[0]
    Mop = None if M is None else aslinearoperator(M)
    bnorm = _norm(b)
    if bnorm == 0:
        return b.copy(), 0
    tol = max(float(atol), float(rtol) * bnorm)
    maxiter = 10 * n if maxiter is None else maxiter
    m = min(20 if restart is None else restart, n)
    r = b - A @ x
    beta = _norm(r)
    if beta <= tol:
        return x, 0
    for _ in range(maxiter):
        V = _e.zeros((m + 1, n), dtype=t, device=b.device)
        V[0] = r / beta
        # the host's Hessenberg least squares, complex for a complex
        # system: the rotations [[conj(c), conj(s)], [-s, c]] with
        # c, s = (a, b) / |(a, b)| are unitary and zero b, and are the
        # real Givens rotations when a and b are real
        ht = numpy.complex128 if t.kind == "c" else numpy.float64
        H = numpy.zeros((m + 1, m), ht)
        g = numpy.zeros(m + 1, ht)
        g[0] = beta
        cs, sn = numpy.zeros(m, ht), numpy.zeros(m, ht)
        k = m
        for j in range(m):
            v = V[j] if Mop is None else Mop @ V[j]
            w, h = _orthogonalize(V[:j + 1], A @ v)
            hn = _norm(w)
            col = numpy.concatenate([h, [hn]])
            # the earlier rotations, then one that zeroes the new subdiagonal
            for i in range(j):
                col[i], col[i + 1] = \
                    numpy.conj(cs[i]) * col[i] + numpy.conj(sn[i]) * \
                    col[i + 1], -sn[i] * col[i] + cs[i] * col[i + 1]
            d = numpy.hypot(abs(col[j]), abs(col[j + 1]))
            cs[j], sn[j] = (col[j] / d, col[j + 1] / d) if d else (1.0, 0.0)
            col[j], col[j + 1] = d, 0.0
            g[j + 1], g[j] = -sn[j] * g[j], numpy.conj(cs[j]) * g[j]
            H[:j + 2, j] = col
            if callback_type in ("pr_norm", "legacy"):
                callback(abs(g[j + 1]) / bnorm)
            if abs(g[j + 1]) <= tol or hn <= numpy.finfo(float).eps * \
                    numpy.abs(h).sum():
                k = j + 1
                break
            V[j + 1] = w / hn
        y = numpy.linalg.solve(numpy.triu(H[:k, :k]), g[:k]) if k else g[:0]
        step = V[:k].T @ _e.asarray(y, device=b.device).astype(t)
        x = x + (step if Mop is None else Mop @ step)
        if callback_type == "x":
            callback(x)
        r = b - A @ x
        beta = _norm(r)
        if beta <= tol:
            return x, 0
    return x, maxiter


class ArpackError(RuntimeError):
    """An eigsh failure, as scipy.sparse.linalg's."""


class ArpackNoConvergence(ArpackError):
    """eigsh did not converge in maxiter restarts; the pairs that did are
    in .eigenvalues and .eigenvectors."""

    def __init__(self, msg, eigenvalues, eigenvectors):
        super().__init__(msg)
        self.eigenvalues = eigenvalues
        self.eigenvectors = eigenvectors


_ORDER = {
    "LA": lambda th: numpy.argsort(-th, kind="stable"),
    "SA": lambda th: numpy.argsort(th, kind="stable"),
    "LM": lambda th: numpy.argsort(-numpy.abs(th), kind="stable"),
    "SM": lambda th: numpy.argsort(numpy.abs(th), kind="stable"),
}


def eigsh(A, k=6, M=None, sigma=None, which="LM", v0=None, ncv=None,
          maxiter=None, tol=0, return_eigenvectors=True, Minv=None,
          OPinv=None, mode="normal", rng=None):
    """k eigenvalues of a real symmetric or complex Hermitian A (real
    either way; largest or smallest algebraic:
    'LA', 'SA'; magnitude: 'LM', 'SM'), ascending, and with
    return_eigenvectors the (n, k) matrix of their vectors, by
    thick-restart Lanczos: ncv basis vectors (default max(2k + 1, 20)),
    each restart keeping the wanted Ritz vectors and half the rest.
    Converged when each wanted pair's residual is within tol (default:
    the dtype's precision) of its eigenvalue, or within a hundred
    roundings of the largest."""
    if M is not None or sigma is not None or Minv is not None or \
            OPinv is not None:
        raise NotImplementedError("ember.scipy.sparse.linalg.eigsh: "
                                  "generalized problems (M) and "
                                  "shift-invert (sigma) are not there yet")
    if which not in _ORDER:
        raise ValueError(f"which must be one of {' '.join(_ORDER)}, "
                         f"got {which!r}")
    from ember.scipy import sparse
    n = A.shape[0]
    if len(A.shape) != 2 or A.shape[1] != n:
        raise ValueError(f"expected square matrix (shape={A.shape})")
    if k <= 0:
        raise ValueError("k must be greater than 0.")
    if k >= n:
        if sparse.issparse(A) or isinstance(A, LinearOperator):
            raise TypeError("Cannot use scipy.linalg.eigh for sparse A with "
                            "k >= N. Use scipy.linalg.eigh(A.toarray()) or "
                            "reduce k.")
        A = A if isinstance(A, _e.ndarray) else _e.asarray(A)
        w, V = _e.linalg.eigh(A)
        return (w, V) if return_eigenvectors else w
    op = aslinearoperator(A)
    # a complex Hermitian A: a complex basis, a Hermitian projection, real
    # eigenvalues (SciPy's answer through eigs, the real parts)
    t = {_e.float32: _e.float32, _e.complex64: _e.complex64,
         _e.complex128: _e.complex128}.get(_e.dtype(op.dtype), _e.float64)
    rt = _e.float32 if t in (_e.float32, _e.complex64) else _e.float64
    ht = numpy.complex128 if t.kind == "c" else numpy.float64
    # the basis lives where A does (or v0, for an operator that does not
    # say), else on the default device
    dev = getattr(v0, "device", None) if isinstance(v0, _e.ndarray) \
        else op.device
    gen = numpy.random.default_rng(rng)
    v = _e.asarray(gen.uniform(-1, 1, n) if v0 is None else v0,
                   device=dev).astype(t).reshape(-1)
    if which == "SM":
        # the smallest magnitudes are interior, where Ritz values converge
        # erratically; as the smallest eigenvalues of A^2 they are an end
        # of its spectrum, with the same vectors, and a Rayleigh quotient
        # gives back their signs
        sq = LinearOperator(op.shape, matvec=lambda x: op @ (op @ x),
                            dtype=t, device=v.device)
        _, X = eigsh(sq, k, which="SA", v0=v, ncv=ncv, maxiter=maxiter,
                     tol=tol, rng=gen)
        lam = _e.sum(_e.conj(X) * (op @ X), axis=0)
        lam = _e.real(lam) if lam.dtype.kind == "c" else lam
        o = _e.argsort(lam)
        return (lam[o], X[:, o]) if return_eigenvectors else lam[o]
    ncv = min(n, max(2 * k + 1, 20)) if ncv is None else ncv
    if not k < ncv <= n:
        raise ValueError(f"ncv must be k<ncv<=n, ncv={ncv}")
    maxiter = 10 * n if maxiter is None else maxiter
    eps = float(numpy.finfo(str(rt)).eps)
    rtol = tol if tol > 0 else eps
    dev = v.device
    V = _e.zeros((ncv + 1, n), dtype=t, device=dev)
    V[0] = v / _norm(v)
    T = numpy.zeros((ncv, ncv), ht)
    p, order = 0, _ORDER[which]
    for _ in range(maxiter):
        for j in range(p, ncv):
            w, h = _orthogonalize(V[:j + 1], op @ V[j])
            T[:j + 1, j] = h
            T[j, :j + 1] = numpy.conj(h)
            beta = _norm(w)
            if beta > eps * max(numpy.abs(h).sum(), 1.0):
                V[j + 1] = w / beta
                continue
            # an invariant subspace: its Ritz pairs are exact; go on from
            # a random direction outside it
            beta = 0.0
            w, _ = _orthogonalize(V[:j + 1], _e.asarray(
                gen.uniform(-1, 1, n), device=dev).astype(t))
            V[j + 1] = w / _norm(w)
        theta, S = numpy.linalg.eigh(T)
        ranked = order(theta)
        want = ranked[:k]
        resid = numpy.abs(beta * S[-1, :])
        # ARPACK's test, with a floor a few hundred roundings of |A| up:
        # below it the residual estimate is rounding, not convergence
        done = resid[want] <= numpy.maximum(
            rtol * numpy.abs(theta[want]),
            100 * eps * numpy.abs(theta).max())
        if done.all():
            break
        # keep the wanted Ritz vectors and about half of the others: the
        # basis restarts from them and the last residual direction
        p = min(ncv - 1, k + (ncv - k) // 2)
        keep = ranked[:p]
        V[:p] = _e.asarray(S[:, keep].T, device=dev).astype(t) @ V[:ncv]
        V[p] = V[ncv]
        T = numpy.zeros((ncv, ncv), ht)
        T[numpy.arange(p), numpy.arange(p)] = theta[keep]
    else:
        got = want[done]
        raise ArpackNoConvergence(
            f"ARPACK error -1: No convergence ({maxiter} iterations, "
            f"{int(done.sum())}/{k} eigenvectors converged)",
            _e.asarray(theta[got], device=dev).astype(rt),
            V[:ncv].T @ _e.asarray(S[:, got], device=dev).astype(t))
    want = want[numpy.argsort(theta[want], kind="stable")]
    w = _e.asarray(theta[want], device=dev).astype(rt)
    if not return_eigenvectors:
        return w
    return w, V[:ncv].T @ _e.asarray(S[:, want], device=dev).astype(t)


class MatrixRankWarning(UserWarning):
    """A singular matrix met by spsolve (scipy.sparse.linalg's name)."""


def spsolve(A, b, permc_spec=None, use_umfpack=True):
    """x with A x = b for a square sparse A and a dense b of shape (n,) or
    (n, k), as scipy.sparse.linalg.spsolve (permc_spec and use_umfpack are
    SciPy's knobs for its own solvers and are not used)."""
    import warnings
    from ember.scipy import sparse as _sp
    if not _sp.issparse(A):
        A = _sp.csr_matrix(A)
    # SuperLU is handed CSC as CSC (SciPy factors a CSR matrix's
    # transpose, which rounds differently); cuSOLVER takes CSR
    if A.format not in ("csr", "csc"):
        A = A.tocsr()
    n = A.shape[0]
    if A.shape[0] != A.shape[1]:
        raise ValueError(f"matrix must be square (has shape {A.shape})")
    if _sp.issparse(b):
        raise TypeError("spsolve: b must be a dense array here (SciPy's "
                        "sparse right-hand sides are not supported)")
    b = _e.asarray(b, device=A.data.device)
    if b.ndim not in (1, 2) or b.shape[0] != n:
        raise ValueError(f"matrix - rhs dimension mismatch ({A.shape} - "
                         f"{b.shape[0] if b.ndim else b.shape})")
    vector = b.ndim == 1 or b.shape[1] == 1
    t = _e.result_type(A.dtype, b.dtype, _e.float32)
    A = A.astype(t) if A.dtype != t else A
    A.sum_duplicates()
    B = b.reshape(n, -1).astype(t)
    solve = _spsolve_scipy if A.data.device.type == "cpu" else _spsolve_cuda
    x, singular = solve(A, B)
    if singular:
        warnings.warn("Matrix is exactly singular", MatrixRankWarning,
                      stacklevel=2)
        x[...] = _e.nan
    return x.reshape(-1) if vector else x


def _spsolve_scipy(A, B):
    """SciPy's SuperLU on the host arrays, and whether it found A
    singular (its warning becomes the caller's)."""
    import warnings
    try:
        import scipy.sparse
        import scipy.sparse.linalg
    except ImportError:
        raise ImportError("ember.scipy.sparse.linalg.spsolve on cpu uses "
                          "SciPy's SuperLU: pip install scipy") from None
    cls = scipy.sparse.csc_matrix if A.format == "csc" else \
        scipy.sparse.csr_matrix
    h = cls((_e.asnumpy(A.data), _e.asnumpy(A.indices),
             _e.asnumpy(A.indptr)), shape=A.shape)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always", scipy.sparse.linalg.MatrixRankWarning)
        x = scipy.sparse.linalg.spsolve(h, _e.asnumpy(B))
    singular = any(issubclass(w.category,
                              scipy.sparse.linalg.MatrixRankWarning)
                   for w in seen)
    return _e.asarray(numpy.asarray(x).reshape(B.shape),
                      device=A.data.device), singular


def _spsolve_cuda(A, B):
    """cuSOLVER's csrlsvqr per column of B, with symrcm reordering (as
    cupyx's). QR leaves a rounding-sized diagonal where LU meets an exact
    zero pivot, so R's diagonal counts as zero at or below n eps max|A|,
    the threshold of numpy.linalg.matrix_rank."""
    from ember import _ember
    A = A.tocsr()
    n = A.shape[0]
    if A.data.size > 2**31 - 1:
        raise ValueError(f"spsolve: {A.data.size} stored entries; cuSOLVER "
                         f"takes 32-bit indices")
    indptr = A.indptr.astype(_e.int32)
    indices = A.indices.astype(_e.int32)
    x = _e.empty(B.shape, dtype=B.dtype, device=B.device)
    col = _e.empty(n, dtype=B.dtype, device=B.device)
    singular = False
    tol = (float(_e.max(_e.abs(A.data))) * n * _e.finfo(B.dtype).eps
           if A.data.size else 0.0)
    for j in range(B.shape[1]):
        rhs = _e.ascontiguousarray(B[:, j])
        if _ember._cus_csrlsvqr(A.data, indptr, indices, rhs, col, tol,
                                1) >= 0:
            singular = True
        x[:, j] = col
    return x, singular


# last: lobpcg's and the Krylov methods' modules import from this one
from ember.scipy.sparse_lobpcg import lobpcg  # noqa: E402
from ember.scipy.sparse_krylov import bicg, bicgstab, cgs  # noqa: E402

__all__ += ["lobpcg", "bicg", "bicgstab", "cgs"]
