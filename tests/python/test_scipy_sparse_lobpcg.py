"""ember.scipy.sparse.linalg.lobpcg against SciPy's dense eigensolver:
the lectures' Sakurai pencil (smallest, with B), a standard problem's
largest with a Jacobi preconditioner, operators as LinearOperator and
dense arrays, the residual history, and refusals."""
import warnings

import numpy as np
import pytest
import scipy.linalg as sl
import scipy.sparse as ss

import ember
import ember.scipy.sparse as es

rng = np.random.default_rng(17)


def N(x):
    return ember.asnumpy(x)


def sakurai(n):
    d0 = np.hstack([5, 6 * np.ones(n - 2), 5])
    d1, d2 = -4 * np.ones(n), np.ones(n)
    return np.array([d2, d1, d0, d1, d2]), [-2, -1, 0, 1, 2]


def test_lobpcg_sakurai_smallest(device):
    n = 120
    diags, offsets = sakurai(n)
    with ember.Device(device):
        A = es.eye(n, n)
        B = es.spdiags(ember.asarray(diags), offsets, n, n)
        X = ember.asarray(rng.random((n, 3)))
    w, v, hist = es.linalg.lobpcg(A, X, B, tol=1e-8, largest=False, maxiter=2000,
                                  retResidualNormsHistory=1)
    Bh = ss.spdiags(diags, offsets, n, n).toarray()
    want = sl.eigh(np.eye(n), Bh, eigvals_only=True)[:3]
    np.testing.assert_allclose(N(w), want, rtol=1e-9)
    assert w.device == ember.Device(device) and v.shape == (n, 3)
    vh = N(v)
    np.testing.assert_allclose(vh.T @ Bh @ vh, np.eye(3), atol=1e-8)
    np.testing.assert_allclose(vh - Bh @ vh * 0, vh)      # finite
    assert np.all(np.linalg.norm(vh - (Bh @ vh) * N(w), axis=0) < 1e-6)
    assert len(hist) > 1 and float(ember.max(hist[-1])) <= 1e-8


def test_lobpcg_preconditioned_and_largest(device):
    n = 150
    main = np.arange(1.0, n + 1.0)
    off = rng.uniform(-0.1, 0.1, n - 1)
    dense = np.diag(main) + np.diag(off, 1) + np.diag(off, -1)
    want = np.linalg.eigvalsh(dense)[::-1][:4]
    small = np.linalg.eigvalsh(dense)[:4]
    with ember.Device(device):
        A = es.csr_matrix(ember.asarray(dense))
        X = ember.asarray(rng.random((n, 4)))
        inv = ember.asarray(1.0 / main)
    M = es.linalg.LinearOperator((n, n), matvec=lambda x: inv * x,
                                 matmat=lambda x: inv[:, None] * x, device=device)
    # Jacobi preconditions the smallest end of a diagonally dominant matrix
    w, v = es.linalg.lobpcg(A, X, M=M, tol=1e-7, maxiter=500, largest=False)
    np.testing.assert_allclose(N(w), small, rtol=1e-11)
    vh = N(v)
    np.testing.assert_allclose(dense @ vh, vh * N(w), atol=1e-6)
    # a dense operator gives the same answer
    w2, _ = es.linalg.lobpcg(ember.asarray(dense, device=device), X, tol=1e-7,
                             maxiter=500)
    np.testing.assert_allclose(N(w2), want, rtol=1e-11)


def test_lobpcg_refusals_and_maxiter(device):
    with ember.Device(device):
        A = es.eye(20, 20)
        X = ember.asarray(rng.random((20, 5)))
        Xs = ember.asarray(rng.random((20, 2)))
    with pytest.raises(ValueError, match="block size"):
        es.linalg.lobpcg(A, X)
    with pytest.raises(NotImplementedError, match="constraints"):
        es.linalg.lobpcg(A, Xs, Y=Xs)
    dense = np.diag(np.arange(1.0, 21.0))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        w, _ = es.linalg.lobpcg(ember.asarray(dense, device=device), Xs, tol=1e-14,
                                maxiter=1)
    assert any("not reaching" in str(c.message) for c in caught)
    assert w.shape == (2,)
