"""The SVDs the decompositions share, on ember arrays: an exact thin SVD
that takes a tall matrix through its QR factor, the randomized range
finder, and scikit-learn's sign rule."""
import numpy as np

import ember
from ember import linalg as la


def flip_rows(U, Vt):
    """scikit-learn's svd_flip(u_based_decision=False): each row of Vt
    signed so that its entry of largest magnitude is positive (U's columns
    follow), so results do not depend on the LAPACK that computed them."""
    k = Vt.shape[0]
    idx = ember.argmax(ember.abs(Vt), axis=1)
    signs = ember.sign(Vt[ember.arange(k, device=Vt.device), idx])
    signs = ember.where(signs == 0, 1, signs).astype(Vt.dtype)
    if U is not None:
        U = U * signs[None, :]
    return U, Vt * signs[:, None]


def thin_svd(X, compute_u=True):
    """U, S, Vt of X with full_matrices=False. A matrix much taller than
    wide goes through R of its QR (X = QR, R = U'SVt, U = QU'): one pass
    of Householder over X instead of an SVD of the whole of it, the same
    result to rounding."""
    n, p = X.shape
    if n >= 2 * p and p > 0 and not compute_u and X.dtype == ember.float32:
        # float32 without U: the eigen-decomposition of X^T X formed and
        # solved in float64 is as accurate as a float32 SVD (its error in
        # s_i, about eps64 s_max^2 / s_i, is below a float32 SVD's eps32
        # s_max unless the singular values span nine decades) and costs
        # one GEMM
        X64 = X.astype(ember.float64)
        w, vecs = la.eigh(X64.T @ X64)
        S = ember.sqrt(ember.maximum(ember.flip(w, axis=0), 0.0))
        Vt = ember.flip(vecs, axis=1).T
        return None, S.astype(X.dtype), Vt.astype(X.dtype)
    if n >= 2 * p and p > 0:
        if not compute_u:
            R = la.qr(X, mode="r")
            _, S, Vt = la.svd(R, full_matrices=False)
            return None, S, Vt
        Q, R = la.qr(X)
        Ur, S, Vt = la.svd(R, full_matrices=False)
        return Q @ Ur, S, Vt
    U, S, Vt = la.svd(X, full_matrices=False)
    return (U if compute_u else None), S, Vt


def randomized_svd(X, k, n_oversamples, n_iter, rng):
    """Halko, Martinsson and Tropp's randomized SVD of X's top k: a
    Gaussian sketch of k + n_oversamples columns, n_iter power iterations
    re-orthonormalised by QR each half step (scikit-learn's 'QR'
    normalizer; its 'LU' spans the same subspace), then the exact SVD of
    the small projection. As scikit-learn's, a wide X is sketched through
    its transpose, and with a NumPy RandomState the Gaussian matrix is
    scikit-learn's own draw (rng.normal of (columns, k + n_oversamples),
    made on the host and copied over), so the same random_state spans the
    same subspace and gives its result to rounding."""
    n, p = X.shape
    transpose = n < p
    M = X.T if transpose else X
    cols = M.shape[1]
    n_random = k + n_oversamples
    width = min(n_random, min(n, p))
    if isinstance(rng, (np.random.RandomState, np.random.Generator)):
        G = ember.asarray(rng.normal(size=(cols, n_random))[:, :width],
                          device=X.device).astype(X.dtype)
    else:
        G = rng.standard_normal((cols, width), dtype=X.dtype)
    Q, _ = la.qr(M @ G)
    for _ in range(n_iter):
        Q, _ = la.qr(M.T @ Q)
        Q, _ = la.qr(M @ Q)
    B = Q.T @ M
    Ub, S, Vt = la.svd(B, full_matrices=False)
    if transpose:
        return Vt[:k].T, S[:k], (Q @ Ub)[:, :k].T
    return (Q @ Ub)[:, :k], S[:k], Vt[:k]


def auto_iterations(n_iter, k, shape):
    """scikit-learn's iterated_power='auto'."""
    if n_iter != "auto":
        return n_iter
    return 7 if k < 0.1 * min(shape) else 4
