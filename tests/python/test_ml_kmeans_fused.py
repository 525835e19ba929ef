"""The fused k-means assignment kernel (python/ember/ml/kernels/
kmeans_assign.cuh) against NumPy and scikit-learn, and the GEMM composition
it replaces where k * d fits shared memory: labels, per-cluster weighted
sums and weights, ties, k=1, d=1, fewer rows than a block, float64. The
kernel is cuda's path; on cpu the tests turn it on (the composition is
cpu's default), so its source is checked through the host compiler too."""
import numpy as np
import pytest

import ember

sk_cluster = pytest.importorskip("sklearn.cluster")

from ember.ml import cluster as ec  # noqa: E402
from ember.ml.cluster import _kmeans_fused as F  # noqa: E402
from ember.ml.cluster import _kmeans_steps as S  # noqa: E402


@pytest.fixture
def fused(monkeypatch):
    monkeypatch.setattr(F, "DEVICES", {"cuda", "cpu"})


@pytest.fixture
def composed(monkeypatch):
    monkeypatch.setattr(F, "DEVICES", set())


def _ref(X, C, w):
    D = ((X[:, None, :].astype(np.float64) - C[None].astype(np.float64)) ** 2).sum(-1)
    lab = D.argmin(1)  # the first minimum: ties to the lowest index
    sums = np.zeros(C.shape)
    np.add.at(sums, lab, X * w[:, None])
    return lab, D.min(1), sums, np.bincount(lab, w, minlength=C.shape[0])


def _clear_of_ties(X, C, margin=1e-3):
    # rows whose two nearest centers are within margin of each other are
    # dropped: float32 rounding may rank those either way (the tie rule
    # has its own test, on exact ties)
    if C.shape[0] < 2:
        return X
    D = np.sort(((X[:, None, :].astype(np.float64) - C[None]) ** 2).sum(-1), axis=1)
    return X[D[:, 1] - D[:, 0] > margin]


def _tol(dt):
    return dict(rtol=1e-4, atol=1e-3) if dt == np.float32 else dict(rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("n,d,k", [(1000, 5, 7), (3, 4, 2), (500, 1, 4), (300, 6, 1),
                                   (700, 3, 40)])
@pytest.mark.parametrize("weighted", [False, True])
def test_kernel_equals_numpy(device, fused, dt, n, d, k, weighted):
    rng = np.random.default_rng(n + d + k)
    C = (rng.standard_normal((k, d)) * 0.7).astype(dt)
    X = _clear_of_ties(rng.standard_normal((n, d)).astype(dt), C)
    n = X.shape[0]
    w = rng.uniform(0.5, 2.0, n).astype(dt) if weighted else np.ones(n, dt)
    Xe, Ce = ember.asarray(X, device=device), ember.asarray(C, device=device)
    assert F.applies(Xe, Ce)
    lab, mind, sums, ws = F.assign_fused(Xe, Ce, ember.asarray(w, device=device)
                                         if weighted else None)
    rl, rd, rs, rw = _ref(X, C, w)
    np.testing.assert_array_equal(ember.asnumpy(lab), rl)
    assert sums.dtype == ember.dtype(dt) and ws.dtype == ember.dtype(dt)
    np.testing.assert_allclose(ember.asnumpy(sums), rs, **_tol(dt))
    np.testing.assert_allclose(ember.asnumpy(ws), rw, **_tol(dt))
    np.testing.assert_allclose(ember.asnumpy(mind), rd, **_tol(dt))


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_ties_go_to_the_lowest_center(device, fused, dt):
    # each point is as far from two centers (and a repeated center): the
    # lower index wins, as scikit-learn's argmin
    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 0.0], [5.0, 5.0]], dt)
    C = np.array([[1.0, 0.0], [-1.0, 0.0], [1.0, 0.0], [5.0, 5.0], [5.0, 5.0]], dt)
    lab, _, sums, ws = F.assign_fused(ember.asarray(X, device=device),
                                      ember.asarray(C, device=device))
    np.testing.assert_array_equal(ember.asnumpy(lab), [0, 0, 0, 3])
    np.testing.assert_array_equal(ember.asnumpy(ws), [3, 0, 0, 1, 0])
    np.testing.assert_allclose(ember.asnumpy(sums)[0], [3.0, 1.0])


def test_sums_are_the_same_every_run(device, fused):
    # per-block partials in row order and a fixed reduction: bit-equal sums
    rng = np.random.default_rng(3)
    X = ember.asarray(rng.standard_normal((5000, 8)).astype(np.float32), device=device)
    C = X[:16].copy()
    a = ember.asnumpy(F.assign_fused(X, C)[2])
    b = ember.asnumpy(F.assign_fused(X, C)[2])
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("weighted", [False, True])
def test_assign_fused_equals_composition(device, monkeypatch, weighted):
    rng = np.random.default_rng(5)
    X = ember.asarray(rng.standard_normal((2000, 6)), device=device)
    C = X[:9].copy()
    w = ember.asarray(rng.uniform(0.1, 3, 2000), device=device) if weighted else None
    monkeypatch.setattr(F, "DEVICES", set())
    lc, sc, wc = S.assign(X, C, w, update=True)
    monkeypatch.setattr(F, "DEVICES", {"cuda", "cpu"})
    lf, sf, wf = S.assign(X, C, w, update=True)
    np.testing.assert_array_equal(ember.asnumpy(lf), ember.asnumpy(lc))
    np.testing.assert_allclose(ember.asnumpy(sf), ember.asnumpy(sc), rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(ember.asnumpy(wf), ember.asnumpy(wc), rtol=1e-12)


def test_bound_sends_large_k_times_d_to_the_composition(device, fused):
    # past the shared-memory bound the kernel does not apply; assign still
    # answers through the GEMMs
    rng = np.random.default_rng(2)
    d = 80
    k = F.KD_MAX["float32"] // d + F._JB
    X = rng.standard_normal((300, d)).astype(np.float32)
    C = X[:k].copy()
    Xe, Ce = ember.asarray(X, device=device), ember.asarray(C, device=device)
    assert not F.applies(Xe, Ce)
    assert F.applies(Xe, Ce[:F.KD_MAX["float32"] // d // F._JB * F._JB])
    lab, sums, ws = S.assign(Xe, Ce, update=True)
    rl, _, rs, rw = _ref(X, C, np.ones(300, np.float32))
    np.testing.assert_array_equal(ember.asnumpy(lab), rl)
    np.testing.assert_allclose(ember.asnumpy(sums), rs, rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("path", ["fused", "composed"])
def test_kmeans_fit_equals_sklearn_on_both_paths(device, monkeypatch, dt, path):
    monkeypatch.setattr(F, "DEVICES", {"cuda", "cpu"} if path == "fused" else set())
    rng = np.random.default_rng(11)
    centers = rng.uniform(-6, 6, (5, 3))
    X = (centers[rng.integers(0, 5, 800)] + rng.standard_normal((800, 3))).astype(dt)
    w = rng.uniform(0.5, 2, 800).astype(dt)
    init = X[:5].copy()
    kw = dict(n_clusters=5, init=init, n_init=1, max_iter=50, tol=0)
    ref = sk_cluster.KMeans(**kw).fit(X, sample_weight=w)
    km = ec.KMeans(**kw).fit(ember.asarray(X, device=device), sample_weight=w)
    np.testing.assert_array_equal(ember.asnumpy(km.labels_), ref.labels_)
    got = ember.asnumpy(km.cluster_centers_)
    assert got.dtype == dt
    np.testing.assert_allclose(got, ref.cluster_centers_, **_tol(dt))
    assert km.n_iter_ == ref.n_iter_
    np.testing.assert_allclose(km.inertia_, ref.inertia_, rtol=1e-4 if dt == np.float32 else 1e-9)


def test_more_rows_than_one_pass_of_the_grid(device, fused):
    # past grid x tile rows each block takes several tiles (grid-stride):
    # cpu 64 blocks x 256 rows, cuda 1024 blocks x 128 rows
    n = 40000 if device == "cpu" else 300000
    rng = np.random.default_rng(8)
    C = np.array([[0.0, 0.0], [2.0, 0.0], [0.0, -2.0]], np.float32)
    X = _clear_of_ties(rng.standard_normal((n, 2)).astype(np.float32), C)
    n = X.shape[0]
    w = rng.uniform(0.5, 1.5, n).astype(np.float32)
    lab, _, sums, ws = F.assign_fused(ember.asarray(X, device=device),
                                      ember.asarray(C, device=device),
                                      ember.asarray(w, device=device))
    rl, _, rs, rw = _ref(X, C, w)
    np.testing.assert_array_equal(ember.asnumpy(lab), rl)
    np.testing.assert_allclose(ember.asnumpy(sums), rs, rtol=1e-4, atol=0.05)
    np.testing.assert_allclose(ember.asnumpy(ws), rw, rtol=1e-4)
