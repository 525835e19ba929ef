"""scipy.sparse.linalg.lobpcg over ember arrays: Knyazev's locally
optimal block preconditioned conjugate gradient for the extreme
eigenpairs of A x = lambda B x (A, B symmetric or complex Hermitian, B
positive definite).
Each iteration is block products with the operators (sparse, dense or
LinearOperator) and a Rayleigh-Ritz step on the [X, R, P] basis: its
3k x 3k Gram matrices are reduced by Cholesky and solved with eigh, so
the only per-iteration host work is that small matrix's bookkeeping.
The basis blocks are B-orthonormalized before each step and P is dropped
for one step where that Gram matrix is not positive definite (SciPy's
restart). Y (constraints) and the histories of Lambda are not here."""
import math

import ember as _e
from ember.scipy.sparse_linalg import aslinearoperator


def _apply(op, X):
    if op is None:
        return X
    if callable(op) and not hasattr(op, "shape"):
        return op(X)
    return aslinearoperator(op).matmat(X)


def _H(V):
    """The conjugate transpose (the transpose of real values): the Gram
    matrices of a complex Hermitian problem are V^H A V."""
    return _e.conj(V).T if V.dtype.kind == "c" else V.T


def _borth(V, BV):
    """V and B V with V's columns made B-orthonormal (Cholesky of V^H B V),
    and that transform; None where they are numerically dependent."""
    G = _H(V) @ BV
    G = 0.5 * (G + _H(G))
    try:
        L = _e.linalg.cholesky(G)
    except _e.linalg.LinAlgError:
        return None
    if not bool(_e.all(_e.isfinite(L))):
        return None
    Linv_t = _H(_e.linalg.inv(L))
    return V @ Linv_t, BV @ Linv_t, Linv_t


def _rayleigh_ritz(S, AS, BS, k, largest):
    GA = _H(S) @ AS
    GA = 0.5 * (GA + _H(GA))
    GB = _H(S) @ BS
    GB = 0.5 * (GB + _H(GB))
    L = _e.linalg.cholesky(GB)
    if not bool(_e.all(_e.isfinite(L))):
        raise _e.linalg.LinAlgError("Gram matrix is not positive definite")
    Li = _e.linalg.inv(L)
    w, v = _e.linalg.eigh(Li @ GA @ _H(Li))
    pick = _e.arange(w.shape[0] - 1, w.shape[0] - 1 - k, -1, device=w.device) \
        if largest else _e.arange(k, device=w.device)
    return w[pick], _H(Li) @ v[:, pick]


def lobpcg(A, X, B=None, M=None, Y=None, tol=None, maxiter=None, largest=True,
           verbosityLevel=0, retLambdaHistory=False, retResidualNormsHistory=False,
           restartControl=20):
    """The k = X.shape[1] largest (or smallest) eigenvalues and their
    eigenvectors, from the initial block X; M, when given, preconditions
    the residuals. tol defaults to sqrt(1e-15) * n and maxiter to 20, as
    SciPy's; not converging within maxiter returns the last iterate, as
    SciPy does (after its warning, which this one also gives)."""
    if Y is not None:
        raise NotImplementedError("lobpcg's constraints Y are not in ember.scipy yet")
    if retLambdaHistory:
        raise NotImplementedError("lobpcg's retLambdaHistory is not in ember.scipy yet")
    X = X if isinstance(X, _e.ndarray) else _e.asarray(X)
    if X.ndim == 1:
        X = X.reshape(-1, 1)
    n, k = X.shape
    # complex where A is (a Hermitian A from a real start, as SciPy's)
    t = X.dtype if X.dtype.kind in "fc" else _e.float64
    a_t = getattr(A, "dtype", None)
    if a_t is not None and _e.dtype(a_t).kind == "c":
        t = _e.result_type(t, a_t)
    X = X.astype(t, copy=False)
    if 5 * k > n:
        raise ValueError(f"the block size {k} is too large for an operator of "
                         f"size {n} (lobpcg needs 5 * k <= n here)")
    tol = math.sqrt(1e-15) * n if tol is None else tol
    maxiter = 20 if maxiter is None else maxiter
    got = _borth(X, _apply(B, X))
    if got is None:
        raise ValueError("the initial block X is linearly dependent")
    X, BX, _ = got
    AX = _apply(A, X)
    lam, C = _rayleigh_ritz(X, AX, BX, k, largest)
    X, AX, BX = X @ C, AX @ C, BX @ C
    P = AP = BP = None
    history = []
    for _ in range(maxiter + 1):
        R = AX - BX * lam
        rnorm = _e.linalg.vector_norm(R, axis=0)
        history.append(rnorm)
        active = rnorm > tol
        if not bool(_e.any(active)):
            break
        if len(history) > maxiter:
            import warnings
            warnings.warn(f"Exited at iteration {maxiter} with accuracies \n"
                          f"{_e.asnumpy(rnorm)}\nnot reaching the requested "
                          f"tolerance {tol}.", UserWarning, stacklevel=2)
            break
        idx = _e.nonzero(active)[0]
        Ra = R[:, idx]
        if M is not None:
            Ra = _apply(M, Ra)
        Ra = Ra - X @ (_H(BX) @ Ra)
        got = _borth(Ra, _apply(B, Ra))
        if got is None:
            break
        Ra, BR, _ = got
        AR = _apply(A, Ra)
        blocks = [(X, AX, BX), (Ra, AR, BR)]
        if P is not None:
            Pa, APa, BPa = P[:, idx], AP[:, idx], BP[:, idx]
            got = _borth(Pa, BPa)
            if got is not None:
                Pn, BPn, T = got
                blocks.append((Pn, APa @ T, BPn))
        try:
            S, AS, BS = (_e.concatenate(list(c), axis=1) for c in zip(*blocks))
            lam, C = _rayleigh_ritz(S, AS, BS, k, largest)
        except _e.linalg.LinAlgError:
            blocks = blocks[:2]                 # restart without P
            S, AS, BS = (_e.concatenate(list(c), axis=1) for c in zip(*blocks))
            lam, C = _rayleigh_ritz(S, AS, BS, k, largest)
        Cx, Cr = C[:k], C[k:]
        rest = S[:, k:]
        P, AP, BP = rest @ Cr, AS[:, k:] @ Cr, BS[:, k:] @ Cr
        X, AX, BX = X @ Cx + P, AX @ Cx + AP, BX @ Cx + BP
    if retResidualNormsHistory:
        return lam, X, history
    return lam, X
