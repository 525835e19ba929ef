"""The logistic loss (binary and multinomial) in one pass over X on cpu
(python/ember/ml/linear_model/_logistic_host.py) against the loss and
gradient written out in NumPy float64, and LogisticRegression fits with it
against the composition it replaces. The kernel is the host compiler's
only; on cuda the composition runs, which test_ml_linear_classifiers
covers on every device."""
import numpy as np
import pytest

import ember
from scipy.special import expit
from ember.ml import linear_model as LM
from ember.ml.linear_model import _logistic_host as H


def _want(X, y, sw, w, b):
    """(sum of s_i loss_i, gradient of w, of b) in float64, stably."""
    X64 = X.astype(np.float64)
    z = X64 @ w.astype(np.float64) + float(b)
    loss = np.maximum(z, 0) + np.log1p(np.exp(-np.abs(z))) - y * z
    r = expit(z) - y     # (1 + tanh(z / 2)) / 2 rounds e^-40 to 0
    s = np.ones_like(z) if sw is None else sw.astype(np.float64)
    return (s * loss).sum(), X64.T @ (s * r), (s * r).sum()


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("n,p", [(1, 1), (7, 3), (33, 4), (1000, 13), (4099, 64)])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("fi", [False, True])
def test_loss_and_gradient_equal_numpy(dt, n, p, weighted, fi):
    # n short of and past a group (4 rows), a chunk (32) and the blocks
    # (64); p short of and past a vector (4 lanes)
    rng = np.random.default_rng(n + p)
    X = rng.standard_normal((n, p)).astype(dt)
    y = (rng.random(n) > 0.5).astype(dt)
    sw = rng.uniform(0.5, 2, n).astype(dt) if weighted else None
    w = (rng.standard_normal(p) * 0.7).astype(dt)
    b = dt(0.3) if fi else dt(0)
    x = np.concatenate([w, [b]]).astype(dt) if fi else w
    L = H.BinaryLoss(ember.asarray(X, device="cpu"), ember.asarray(y, device="cpu"),
                     None if sw is None else ember.asarray(sw, device="cpu"), fi)
    loss, gw, gb = (ember.asnumpy(a) for a in L(ember.asarray(x, device="cpu")))
    f0, g0, b0 = _want(X, y, sw, w, b)
    # float32 scores round at 1e-7 of |x| |w|; the sums are in float64
    tol = 1e-5 if dt == np.float32 else 1e-12
    np.testing.assert_allclose(loss, f0, rtol=tol)
    np.testing.assert_allclose(gw, g0, rtol=tol, atol=tol * n)
    np.testing.assert_allclose(gb, b0, rtol=tol, atol=tol * n)


def test_extreme_scores():
    # |z| up to 2000: e^-|z| underflows (the kernel clamps at -708), the
    # loss is |z| or 0 and the residual 0 or +-1, never NaN
    z = np.array([-2000, -800, -709, -708, -40, -1e-12, 0, 1e-12, 40, 708, 709, 800,
                  2000.0])
    X = z[:, None]
    y = np.tile([0.0, 1.0], 7)[:len(z)]
    L = H.BinaryLoss(ember.asarray(X, device="cpu"), ember.asarray(y, device="cpu"),
                     None, False)
    loss, gw, _ = (ember.asnumpy(a) for a in L(ember.asarray(np.ones(1), device="cpu")))
    f0, g0, _ = _want(X, y, None, np.ones(1), 0.0)
    np.testing.assert_allclose(loss, f0, rtol=1e-14)
    np.testing.assert_allclose(gw, g0, rtol=1e-14)


def test_each_term_equals_numpy():
    # one row a call, so each row's loss and residual is checked alone
    # over the range the exp and log1p series cover
    for z in np.concatenate([np.linspace(-40, 40, 161), [-1e-300, 1e-300, 0.347, 1e-8]]):
        for y in (0.0, 1.0):
            X = np.array([[z]])
            L = H.BinaryLoss(ember.asarray(X, device="cpu"),
                             ember.asarray(np.array([y]), device="cpu"), None, False)
            loss, gw, _ = (ember.asnumpy(a)
                           for a in L(ember.asarray(np.ones(1), device="cpu")))
            f0, g0, _ = _want(X, np.array([y]), None, np.ones(1), 0.0)
            np.testing.assert_allclose(loss, f0, rtol=1e-15, atol=1e-300)
            np.testing.assert_allclose(gw, g0, rtol=1e-15, atol=1e-300)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("kw", [{}, {"C": 0.05}, {"fit_intercept": False},
                                {"class_weight": "balanced"}])
def test_fit_equals_composition(dt, kw, monkeypatch):
    rng = np.random.default_rng(3)
    X = rng.standard_normal((700, 9)).astype(dt)
    y = (X @ rng.standard_normal(9) + rng.standard_normal(700) > 0.5).astype(np.int64)
    Xe = ember.asarray(X, device="cpu")
    sw = rng.uniform(0.2, 3, 700) if kw.get("class_weight") else None
    m1 = LM.LogisticRegression(**kw).fit(Xe, y, sample_weight=sw)
    monkeypatch.setattr(H, "DEVICES", set())
    m0 = LM.LogisticRegression(**kw).fit(Xe, y, sample_weight=sw)
    tol = 1e-4 if dt == np.float32 else 1e-6
    np.testing.assert_allclose(ember.asnumpy(m1.coef_), ember.asnumpy(m0.coef_),
                               rtol=tol, atol=tol)
    np.testing.assert_allclose(ember.asnumpy(m1.intercept_), ember.asnumpy(m0.intercept_),
                               rtol=tol, atol=tol)
    assert abs(int(m1.n_iter_[0]) - int(m0.n_iter_[0])) <= 2


def test_sklearn_equal():
    sk = pytest.importorskip("sklearn.linear_model")
    rng = np.random.default_rng(4)
    X = rng.standard_normal((2000, 20))
    y = (X @ rng.standard_normal(20) + rng.standard_normal(2000) > 0).astype(np.int64)
    m = LM.LogisticRegression().fit(ember.asarray(X, device="cpu"), y)
    s = sk.LogisticRegression().fit(X, y)
    np.testing.assert_allclose(ember.asnumpy(m.coef_), s.coef_, rtol=1e-3, atol=1e-4)
    np.testing.assert_allclose(ember.asnumpy(m.intercept_), s.intercept_, rtol=1e-3,
                               atol=1e-4)


def _want_multi(X, codes, sw, W, b):
    """(sum of s_i (logsumexp(z_i) - z_i,y), gradient of W, of b) in
    float64 via scipy's logsumexp and softmax."""
    from scipy.special import logsumexp, softmax
    Z = X.astype(np.float64) @ W.astype(np.float64).T + b.astype(np.float64)
    n, K = Z.shape
    s = np.ones(n) if sw is None else sw.astype(np.float64)
    loss = (s * (logsumexp(Z, axis=1) - Z[np.arange(n), codes])).sum()
    R = softmax(Z, axis=1)
    R[np.arange(n), codes] -= 1
    R *= s[:, None]
    return loss, R.T @ X.astype(np.float64), R.sum(axis=0)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("n,p,K", [(1, 1, 3), (7, 3, 3), (33, 4, 5), (1000, 13, 4),
                                   (2051, 64, 10)])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("fi", [False, True])
def test_multinomial_equals_numpy(dt, n, p, K, weighted, fi):
    rng = np.random.default_rng(n + p + K)
    X = rng.standard_normal((n, p)).astype(dt)
    codes = rng.integers(0, K, n)
    sw = rng.uniform(0.5, 2, n).astype(dt) if weighted else None
    W = (rng.standard_normal((K, p)) * 0.7).astype(dt)
    b = (rng.standard_normal(K) * 0.3).astype(dt) if fi else np.zeros(K, dt)
    x = np.concatenate([W.reshape(-1), b]) if fi else W.reshape(-1)
    L = H.MultiLoss(ember.asarray(X, device="cpu"), ember.asarray(codes, device="cpu"), K,
                    None if sw is None else ember.asarray(sw, device="cpu"), fi)
    loss, gW, gb = (ember.asnumpy(a) for a in L(ember.asarray(x.astype(dt), device="cpu")))
    f0, g0, b0 = _want_multi(X, codes, sw, W, b)
    tol = 1e-5 if dt == np.float32 else 1e-12
    np.testing.assert_allclose(loss, f0, rtol=tol)
    np.testing.assert_allclose(gW, g0, rtol=tol, atol=tol * n)
    np.testing.assert_allclose(gb, b0, rtol=tol, atol=tol * n)


def test_multinomial_extreme_scores():
    # scores 10^3 apart: e^(z - max) underflows for all but the largest,
    # the loss of a row whose class is not the largest is the gap, never inf
    X = np.array([[1000.0, 0.0], [0.0, -1000.0], [-800.0, 800.0], [0.0, 0.0]])
    codes = np.array([1, 0, 2, 1])
    W = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]])
    L = H.MultiLoss(ember.asarray(X, device="cpu"), ember.asarray(codes, device="cpu"), 3,
                    None, False)
    loss, gW, gb = (ember.asnumpy(a) for a in L(ember.asarray(W.reshape(-1),
                                                              device="cpu")))
    f0, g0, b0 = _want_multi(X, codes, None, W, np.zeros(3))
    np.testing.assert_allclose(loss, f0, rtol=1e-14)
    np.testing.assert_allclose(gW, g0, rtol=1e-14, atol=1e-12)
    np.testing.assert_allclose(gb, b0, rtol=1e-14, atol=1e-14)


@pytest.mark.parametrize("kw", [{}, {"C": 0.05}, {"fit_intercept": False},
                                {"class_weight": "balanced"}])
def test_multinomial_fit_equals_composition_and_sklearn(kw, monkeypatch):
    sk = pytest.importorskip("sklearn.linear_model")
    rng = np.random.default_rng(5)
    X = rng.standard_normal((900, 7))
    y = np.digitize(X @ rng.standard_normal(7) + 0.5 * rng.standard_normal(900), [-1, 0, 1])
    Xe = ember.asarray(X, device="cpu")
    m1 = LM.LogisticRegression(**kw).fit(Xe, y)
    s = sk.LogisticRegression(**kw).fit(X, y)
    monkeypatch.setattr(H, "DEVICES", set())
    m0 = LM.LogisticRegression(**kw).fit(Xe, y)
    for a, b in ((m1.coef_, m0.coef_), (m1.intercept_, m0.intercept_)):
        np.testing.assert_allclose(ember.asnumpy(a), ember.asnumpy(b), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(ember.asnumpy(m1.coef_), s.coef_, rtol=1e-3, atol=1e-4)
    np.testing.assert_allclose(ember.asnumpy(m1.intercept_), s.intercept_, rtol=1e-3,
                               atol=1e-4)
