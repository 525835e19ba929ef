"""KMeans' cpu host kernels (python/ember/ml/kernels/kmeans_host.cuh)
beyond test_ml_lloyd's step: the inertia kernel against NumPy, and the
register-blocked scoring of em_kmeans_host_fused on shapes that leave
every remainder (rows short of a group of R rows, centers short of a
tile) on float data, where its fused multiply-adds may round a score
differently from NumPy's but no label may move past a near-tie. The
kernels are the host compiler's only (cpu)."""
import numpy as np
import pytest

import ember
from ember.ml.cluster import KMeans
from ember.ml.cluster import _kmeans_steps as S
from ember.ml.cluster import _lloyd as L


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("n,d,k", [(1, 1, 1), (15, 3, 4), (100, 8, 5), (1001, 33, 17)])
@pytest.mark.parametrize("weighted", [False, True])
def test_inertia_equals_numpy(dt, n, d, k, weighted):
    rng = np.random.default_rng(n * d + k)
    X = rng.standard_normal((n, d)).astype(dt)
    C = rng.standard_normal((k, d)).astype(dt)
    lab = rng.integers(0, k, n)
    w = rng.uniform(0.5, 2, n).astype(dt) if weighted else None
    want = (((X.astype(np.float64) - C[lab].astype(np.float64)) ** 2).sum(1)
            * (1.0 if w is None else w.astype(np.float64))).sum()
    got = L.inertia_host(ember.asarray(X, device="cpu"), ember.asarray(C, device="cpu"),
                         ember.asarray(lab, device="cpu"),
                         None if w is None else ember.asarray(w, device="cpu"))
    assert got.dtype == ember.float64
    # float32 differences and squares round at 1e-7; the sums are float64
    np.testing.assert_allclose(float(got), want, rtol=1e-6 if dt == np.float32 else 1e-13)


def test_inertia_off_cpu_is_the_composition(monkeypatch):
    rng = np.random.default_rng(1)
    X = ember.asarray(rng.standard_normal((50, 3)), device="cpu")
    C = ember.asarray(rng.standard_normal((4, 3)), device="cpu")
    lab = ember.asarray(rng.integers(0, 4, 50), device="cpu")
    w = ember.ones(50, dtype=ember.float64, device="cpu")
    fast = float(S.inertia(X, C, lab, w))
    monkeypatch.setattr(L, "DEVICES", set())
    assert L.inertia_host(X, C, lab, w) is None
    np.testing.assert_allclose(float(S.inertia(X, C, lab, w)), fast, rtol=1e-14)


def _labels_numpy(X, C):
    sc = (C.astype(np.float64) ** 2).sum(1)[None, :] - 2 * X.astype(np.float64) @ \
        C.astype(np.float64).T
    return sc.argmin(1), np.sort(sc, axis=1)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("n,d,k", [(3, 2, 3), (9, 5, 33), (257, 17, 64), (1000, 32, 100)])
def test_fused_scores_label_as_numpy(dt, n, d, k):
    rng = np.random.default_rng(n + d + k)
    X = rng.standard_normal((n, d)).astype(dt)
    C = rng.standard_normal((k, d)).astype(dt)
    lp = L.Lloyd(ember.asarray(X, device="cpu"), None, k, gpu=False)
    got = ember.asnumpy(lp.labels_only(ember.asarray(C, device="cpu")))
    want, srt = _labels_numpy(X, C)
    # a row may differ only where its two best scores are within rounding
    gap = (srt[:, 1] - srt[:, 0]) / np.maximum(np.abs(srt[:, 0]), 1)
    near = gap < (1e-4 if dt == np.float32 else 1e-12)
    assert ((got == want) | near).all()
    assert (got == want).mean() > 0.99


def test_fit_matches_sklearn():
    sk = pytest.importorskip("sklearn.cluster")
    rng = np.random.default_rng(2)
    cen = rng.uniform(-10, 10, (16, 8))
    X = (cen[rng.integers(0, 16, 5000)] + rng.standard_normal((5000, 8))).astype(np.float32)
    init = X[:16].copy()
    m = KMeans(16, init=init, n_init=1, max_iter=30, tol=0).fit(
        ember.asarray(X, device="cpu"))
    s = sk.KMeans(16, init=init, n_init=1, max_iter=30, tol=0).fit(X)
    np.testing.assert_array_equal(ember.asnumpy(m.labels_), s.labels_)
    np.testing.assert_allclose(m.inertia_, s.inertia_, rtol=1e-5)
    np.testing.assert_allclose(ember.asnumpy(m.cluster_centers_), s.cluster_centers_,
                               rtol=1e-4, atol=1e-4)
