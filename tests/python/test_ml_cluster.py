"""ember.ml.cluster against scikit-learn on the same data: KMeans,
MiniBatchKMeans, DBSCAN and single-linkage AgglomerativeClustering, on
every device."""
import pickle

import numpy as np
import pytest

import ember

sk_cluster = pytest.importorskip("sklearn.cluster")
from sklearn.base import clone  # noqa: E402
from sklearn.datasets import make_blobs, make_moons  # noqa: E402
from sklearn.metrics import adjusted_rand_score  # noqa: E402
from sklearn.model_selection import GridSearchCV  # noqa: E402
from sklearn.pipeline import Pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402

from ember.ml import cluster as ec  # noqa: E402
from ember.ml import _validation as V  # noqa: E402
from ember.ml.cluster import _common  # noqa: E402
from ember.ml.exceptions import NotFittedError  # noqa: E402

F32 = dict(rtol=1e-4, atol=1e-4)
F64 = dict(rtol=1e-6, atol=1e-9)


def _tol(dt):
    return F32 if dt == np.float32 else F64


@pytest.fixture(scope="module")
def blobs():
    X, _ = make_blobs(1200, 5, centers=6, cluster_std=1.5, random_state=0)
    return X


@pytest.fixture
def small_blocks(monkeypatch):
    # Several row blocks even at test sizes, so the block loops are exercised.
    monkeypatch.setattr(_common, "BLOCK_ELEMS", 4096)


def _ed(X, device):
    return ember.asarray(X, device=device)


# ---------------------------------------------------------------- KMeans
@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_kmeans_init_array_equals_sklearn(blobs, device, dt, small_blocks):
    X = blobs.astype(dt)
    init = X[::200][:6].copy()
    w = np.random.default_rng(1).uniform(0.5, 2.0, len(X)).astype(dt)
    for sw in (None, w):
        a = sk_cluster.KMeans(6, init=init, n_init=1).fit(X, sample_weight=sw)
        b = ec.KMeans(6, init=init, n_init=1).fit(_ed(X, device), sample_weight=sw)
        assert isinstance(b.labels_, ember.ndarray)
        assert b.cluster_centers_.dtype == dt and b.labels_.dtype == np.int32
        np.testing.assert_array_equal(ember.asnumpy(b.labels_), a.labels_)
        np.testing.assert_allclose(ember.asnumpy(b.cluster_centers_), a.cluster_centers_,
                                   **_tol(dt))
        assert b.inertia_ == pytest.approx(a.inertia_, rel=1e-6 if dt == np.float64 else 1e-5)
        assert b.n_iter_ == a.n_iter_
        assert b.n_features_in_ == 5


def test_kmeans_tol_and_max_iter_stop_as_sklearn(blobs, device):
    init = blobs[:6].copy()
    for kw in (dict(tol=0.0), dict(tol=1e-2), dict(max_iter=2), dict(tol=10.0)):
        a = sk_cluster.KMeans(6, init=init, n_init=1, **kw).fit(blobs)
        b = ec.KMeans(6, init=init, n_init=1, **kw).fit(_ed(blobs, device))
        assert b.n_iter_ == a.n_iter_, kw
        np.testing.assert_array_equal(ember.asnumpy(b.labels_), a.labels_)
        assert b.inertia_ == pytest.approx(a.inertia_, rel=1e-6)


def test_kmeans_empty_cluster_is_relocated_as_sklearn(device):
    X, _ = make_blobs(300, 2, centers=3, random_state=3)
    init = np.vstack([X[:3], [[1e3, 1e3]]])  # the last center attracts no point
    a = sk_cluster.KMeans(4, init=init, n_init=1).fit(X)
    b = ec.KMeans(4, init=init, n_init=1).fit(_ed(X, device))
    np.testing.assert_array_equal(ember.asnumpy(b.labels_), a.labels_)
    np.testing.assert_allclose(ember.asnumpy(b.cluster_centers_), a.cluster_centers_,
                               **F64)
    assert len(np.unique(ember.asnumpy(b.labels_))) == 4


@pytest.mark.parametrize("init,n_init", [("k-means++", "auto"), ("random", "auto"),
                                         ("k-means++", 3)])
def test_kmeans_seeded_quality_near_sklearn(blobs, device, init, n_init):
    for seed in range(2):
        a = sk_cluster.KMeans(6, init=init, n_init=n_init, random_state=seed).fit(blobs)
        b = ec.KMeans(6, init=init, n_init=n_init, random_state=seed).fit(
            _ed(blobs, device))
        assert b.inertia_ <= a.inertia_ * 1.05, (seed, a.inertia_, b.inertia_)
        # inertia_ is the inertia of the labels and centers it reports
        lab = ember.asnumpy(b.labels_)
        C = ember.asnumpy(b.cluster_centers_)
        assert b.inertia_ == pytest.approx(((blobs - C[lab]) ** 2).sum(), rel=1e-9)


@pytest.mark.parametrize("dt", [np.float64, np.float32])
@pytest.mark.parametrize("init,n_init", [("k-means++", 1), ("random", 1),
                                         ("k-means++", 4), ("random", "auto")])
def test_kmeans_seeding_equals_sklearn(device, dt, init, n_init):
    # scikit-learn's draws (its RandomState, in its order, n_init seedings
    # from one stream): the same centers, labels, inertia and n_iter_ for the
    # same random_state, with and without sample_weight, on data where
    # k-means has several local optima (scikit-learn's kmeans_assumptions)
    X, y = make_blobs(1500, random_state=170)
    Xs = [X, np.vstack((X[y == 0][:500], X[y == 1][:100], X[y == 2][:10]))]
    w = np.random.RandomState(1).rand(1500)
    for data in Xs:
        data = data.astype(dt)
        for k in (2, 3, 5):
            for sw in (None, w[:len(data)]):
                a = sk_cluster.KMeans(k, init=init, n_init=n_init,
                                      random_state=170).fit(data, sample_weight=sw)
                b = ec.KMeans(k, init=init, n_init=n_init, random_state=170).fit(
                    _ed(data, device), sample_weight=sw)
                np.testing.assert_array_equal(ember.asnumpy(b.labels_), a.labels_)
                np.testing.assert_allclose(ember.asnumpy(b.cluster_centers_),
                                           a.cluster_centers_, **_tol(dt))
                assert b.inertia_ == pytest.approx(a.inertia_, rel=1e-5)
                assert b.n_iter_ == a.n_iter_
    # a RandomState instance is drawn from in turn, as scikit-learn's
    rs_a, rs_b = np.random.RandomState(3), np.random.RandomState(3)
    for _ in range(2):
        a = sk_cluster.KMeans(3, init=init, n_init=n_init, random_state=rs_a).fit(X)
        b = ec.KMeans(3, init=init, n_init=n_init, random_state=rs_b).fit(
            _ed(X.astype(dt), device))
        np.testing.assert_array_equal(ember.asnumpy(b.labels_), a.labels_)


def test_kmeans_same_seed_same_result(blobs, device):
    a = ec.KMeans(6, random_state=7).fit(_ed(blobs, device))
    b = ec.KMeans(6, random_state=7).fit(_ed(blobs, device))
    np.testing.assert_array_equal(ember.asnumpy(a.labels_), ember.asnumpy(b.labels_))


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_kmeans_predict_transform_score(blobs, device, dt, small_blocks):
    X = blobs.astype(dt)
    init = X[:6].copy()
    a = sk_cluster.KMeans(6, init=init, n_init=1).fit(X)
    b = ec.KMeans(6, init=init, n_init=1).fit(X)
    Q = X[::7] + dt(0.3)
    p = b.predict(Q)
    assert isinstance(p, np.ndarray) and p.dtype == np.int32
    np.testing.assert_array_equal(p, a.predict(Q))
    t = b.transform(Q)
    assert t.dtype == dt
    np.testing.assert_allclose(t, a.transform(Q), rtol=1e-3 if dt == np.float32 else 1e-7,
                               atol=1e-3 if dt == np.float32 else 1e-9)
    w = np.linspace(0.5, 1.5, len(Q))
    assert b.score(Q, sample_weight=w) == pytest.approx(a.score(Q, sample_weight=w),
                                                        rel=1e-5)
    np.testing.assert_array_equal(ec.KMeans(6, init=init, n_init=1).fit_predict(X),
                                  a.labels_)
    np.testing.assert_allclose(ec.KMeans(6, init=init, n_init=1).fit_transform(X),
                               a.transform(X), rtol=1e-3, atol=1e-3)
    e = ec.KMeans(6, init=init, n_init=1).fit(_ed(X, device))
    assert isinstance(e.predict(_ed(Q, device)), ember.ndarray)


def test_kmeans_frames_and_output_kind(blobs, device):
    pd = pytest.importorskip("pandas")
    cols = [f"f{i}" for i in range(5)]
    pdf = pd.DataFrame(blobs, columns=cols)
    init = blobs[:6].copy()
    a = sk_cluster.KMeans(6, init=init, n_init=1).fit(pdf)
    b = ec.KMeans(6, init=init, n_init=1).fit(pdf)
    assert isinstance(b.labels_, np.ndarray)
    np.testing.assert_array_equal(b.labels_, a.labels_)
    assert list(b.feature_names_in_) == cols
    edf = ember.frame.from_pandas(pdf, device=device)
    c = ec.KMeans(6, init=init, n_init=1).fit(edf)
    assert isinstance(c.labels_, ember.ndarray)
    np.testing.assert_array_equal(ember.asnumpy(c.labels_), a.labels_)
    with ember.ml.config_context(output="numpy"):
        assert isinstance(c.cluster_centers_, np.ndarray)


def test_kmeans_params_clone_pickle_pipeline_grid(blobs):
    km = ec.KMeans(4, random_state=0, n_init=2)
    assert km.get_params()["n_clusters"] == 4
    km.set_params(n_clusters=6)
    assert clone(km).n_clusters == 6 and "n_clusters=6" in repr(km)
    km.fit(blobs)
    km2 = pickle.loads(pickle.dumps(km))
    np.testing.assert_array_equal(km2.predict(blobs), km.labels_)
    pipe = Pipeline([("s", StandardScaler()), ("k", ec.KMeans(6, random_state=0))])
    assert pipe.fit_predict(blobs).shape == (len(blobs),)
    gs = GridSearchCV(ec.KMeans(random_state=0), {"n_clusters": [2, 6]}, cv=3).fit(blobs)
    assert gs.best_params_["n_clusters"] == 6  # score is minus inertia: more is better


def test_kmeans_errors(blobs):
    with pytest.raises(NotFittedError):
        ec.KMeans(3).predict(blobs)
    with pytest.raises(ValueError, match="n_samples=5 should be >= n_clusters=8"):
        ec.KMeans().fit(blobs[:5])
    with pytest.raises(ValueError, match="does not match the number of clusters"):
        ec.KMeans(3, init=blobs[:2]).fit(blobs)
    with pytest.raises(ValueError, match="number of features"):
        ec.KMeans(2, init=blobs[:2, :3]).fit(blobs)
    with pytest.raises(ValueError):
        ec.KMeans(0).fit(blobs)
    with pytest.raises(ValueError):
        ec.KMeans(3, algorithm="full").fit(blobs)
    with pytest.raises(ValueError):
        ec.KMeans(3, init="kmeans").fit(blobs)
    with pytest.raises(ValueError):
        ec.KMeans(3, n_init=0).fit(blobs)
    bad = blobs.copy()
    bad[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        ec.KMeans(3).fit(bad)
    km = ec.KMeans(3, random_state=0).fit(blobs)
    with pytest.raises(ValueError, match="features"):
        km.predict(blobs[:, :2])
    with pytest.raises(ValueError, match="sample_weight"):
        ec.KMeans(3).fit(blobs, sample_weight=np.ones(3))
    with pytest.raises(ValueError, match="non-zero"):
        ec.KMeans(3).fit(blobs, sample_weight=np.zeros(len(blobs)))
    with pytest.raises(NotImplementedError, match="callable"):
        ec.KMeans(3, init=lambda X, k, rs: X[:k]).fit(blobs)
    assert ec.KMeans(3, algorithm="elkan", random_state=0).fit(blobs).n_iter_ >= 1


# ---------------------------------------------------------------- MiniBatchKMeans
@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_minibatch_quality_near_sklearn(device, dt):
    X, _ = make_blobs(4000, 4, centers=5, random_state=2)
    X = X.astype(dt)
    for seed in range(2):
        a = sk_cluster.MiniBatchKMeans(5, batch_size=256, random_state=seed).fit(X)
        b = ec.MiniBatchKMeans(5, batch_size=256, random_state=seed).fit(_ed(X, device))
        assert b.cluster_centers_.dtype == dt
        assert b.inertia_ <= a.inertia_ * 1.10, (a.inertia_, b.inertia_)
        lab = ember.asnumpy(b.labels_)
        np.testing.assert_array_equal(lab, ember.asnumpy(b.predict(_ed(X, device))))
        assert b.n_steps_ >= 1 and b.n_iter_ >= 1


@pytest.mark.parametrize("dt", [np.float64, np.float32])
@pytest.mark.parametrize("init", ["k-means++", "random"])
def test_minibatch_equals_sklearn(device, dt, init):
    # scikit-learn's draws in its order (validation rows, seeding subsets,
    # batches drawn in proportion to the weights, uniform reassignments):
    # the same steps, centers, labels and inertia for the same random_state
    X, _ = make_blobs(2000, centers=[[1, 1], [-1, -1], [1, -1]], cluster_std=0.7,
                      random_state=0)
    X = X.astype(dt)
    w = np.random.RandomState(1).rand(len(X))
    for k in (3, 8):
        for sw in (None, w):
            a = sk_cluster.MiniBatchKMeans(k, init=init, batch_size=45,
                                           random_state=3).fit(X, sample_weight=sw)
            b = ec.MiniBatchKMeans(k, init=init, batch_size=45, random_state=3).fit(
                _ed(X, device), sample_weight=sw)
            assert b.n_steps_ == a.n_steps_ and b.n_iter_ == a.n_iter_
            np.testing.assert_array_equal(ember.asnumpy(b.labels_), a.labels_)
            np.testing.assert_allclose(ember.asnumpy(b.cluster_centers_),
                                       a.cluster_centers_, **_tol(dt))
            assert b.inertia_ == pytest.approx(a.inertia_, rel=1e-5)
    # partial_fit on given batches: the same seeding and reassignments
    a = sk_cluster.MiniBatchKMeans(5, random_state=0)
    b = ec.MiniBatchKMeans(5, random_state=0)
    for s in range(0, 2000, 250):
        a.partial_fit(X[s:s + 250])
        b.partial_fit(_ed(X[s:s + 250], device))
    np.testing.assert_allclose(ember.asnumpy(b.cluster_centers_), a.cluster_centers_,
                               **_tol(dt))


def test_minibatch_partial_fit(device):
    X, _ = make_blobs(3000, 3, centers=4, random_state=5)
    a = sk_cluster.MiniBatchKMeans(4, random_state=0)
    b = ec.MiniBatchKMeans(4, random_state=0)
    for s in range(0, len(X), 300):
        a.partial_fit(X[s:s + 300])
        b.partial_fit(_ed(X[s:s + 300], device))
    assert b.n_steps_ == a.n_steps_ == 10
    assert -b.score(_ed(X, device)) <= -a.score(X) * 1.10
    with pytest.raises(ValueError, match="features"):
        b.partial_fit(_ed(X[:10, :2], device))
    b2 = pickle.loads(pickle.dumps(b))
    b2.partial_fit(_ed(X[:300], device))
    assert b2.n_steps_ == 11


def test_minibatch_errors():
    X, _ = make_blobs(100, 2, random_state=0)
    with pytest.raises(ValueError):
        ec.MiniBatchKMeans(3, batch_size=0).fit(X)
    with pytest.raises(ValueError):
        ec.MiniBatchKMeans(3, reassignment_ratio=-1.0).fit(X)
    with pytest.raises(NotFittedError):
        ec.MiniBatchKMeans(3).transform(X)


# ---------------------------------------------------------------- DBSCAN
def _dbscan_sets():
    B, _ = make_blobs(600, 2, centers=5, cluster_std=0.6, random_state=0)
    M, _ = make_moons(500, noise=0.06, random_state=0)
    T, _ = make_blobs(700, 3, centers=4, cluster_std=0.7, random_state=2)
    F, _ = make_blobs(500, 5, centers=3, cluster_std=0.5, random_state=4)
    return [(B, 0.3, 5), (M, 0.1, 4), (B, 0.2, 10), (T, 0.35, 6), (F, 0.6, 5)]


# 'auto' takes the grid of cells up to 3 features (cases 0-3) and blocks of
# distances beyond (case 4); 'brute' always takes the blocks.
@pytest.mark.parametrize("algorithm", ["auto", "brute"])
@pytest.mark.parametrize("case", range(5))
@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_dbscan_equals_sklearn(device, case, dt, algorithm, small_blocks, monkeypatch):
    # small chunks of grid candidates, so the grid's chunk loop runs too
    monkeypatch.setattr(ec._grid, "CANDIDATE_BUDGET", 5000)
    X, eps, ms = _dbscan_sets()[case]
    X = X.astype(dt)
    a = sk_cluster.DBSCAN(eps=eps, min_samples=ms).fit(X)
    b = ec.DBSCAN(eps=eps, min_samples=ms, algorithm=algorithm).fit(_ed(X, device))
    lab = ember.asnumpy(b.labels_)
    # numbered in scikit-learn's order, border points included: equal, not
    # just equal up to a permutation
    np.testing.assert_array_equal(lab, a.labels_)
    assert adjusted_rand_score(a.labels_, lab) == 1.0
    np.testing.assert_array_equal(ember.asnumpy(b.core_sample_indices_),
                                  a.core_sample_indices_)
    np.testing.assert_array_equal(ember.asnumpy(b.components_), a.components_)
    assert b.components_.dtype == dt


@pytest.mark.parametrize("case", [0, 1, 4])
def test_dbscan_rounds_over_blocks_equal_stored_pairs(device, case, small_blocks,
                                                      monkeypatch):
    # a graph over the pair budget is rebuilt block by block every round
    X, eps, ms = _dbscan_sets()[case]
    a = sk_cluster.DBSCAN(eps=eps, min_samples=ms).fit(X)
    monkeypatch.setattr(ec._dbscan, "EDGE_BUDGET", 0)
    b = ec.DBSCAN(eps=eps, min_samples=ms).fit(_ed(X, device))
    np.testing.assert_array_equal(ember.asnumpy(b.labels_), a.labels_)


def test_dbscan_sample_weight_and_numpy_output(small_blocks):
    X, eps, ms = _dbscan_sets()[0]
    w = np.random.default_rng(0).integers(0, 3, len(X)).astype(float)
    a = sk_cluster.DBSCAN(eps=eps, min_samples=ms).fit(X, sample_weight=w)
    b = ec.DBSCAN(eps=eps, min_samples=ms).fit(X, sample_weight=w)
    assert isinstance(b.labels_, np.ndarray)
    np.testing.assert_array_equal(b.labels_, a.labels_)
    np.testing.assert_array_equal(b.core_sample_indices_, a.core_sample_indices_)
    np.testing.assert_array_equal(ec.DBSCAN(eps=eps, min_samples=ms).fit_predict(X),
                                  sk_cluster.DBSCAN(eps=eps, min_samples=ms).fit_predict(X))


def test_dbscan_all_noise_and_one_cluster(device):
    X = np.arange(20, dtype=float).reshape(10, 2) * 10
    b = ec.DBSCAN(eps=1.0, min_samples=2).fit(_ed(X, device))
    assert (ember.asnumpy(b.labels_) == -1).all() and b.core_sample_indices_.shape == (0,)
    b = ec.DBSCAN(eps=100.0, min_samples=2).fit(_ed(X, device))
    assert (ember.asnumpy(b.labels_) == 0).all()


def test_dbscan_params_and_errors():
    X, _ = make_blobs(50, 2, random_state=0)
    d = ec.DBSCAN(eps=0.7)
    assert clone(d).eps == 0.7 and pickle.loads(pickle.dumps(d)).eps == 0.7
    with pytest.raises(ValueError):
        ec.DBSCAN(eps=0.0).fit(X)
    with pytest.raises(ValueError):
        ec.DBSCAN(min_samples=0).fit(X)
    with pytest.raises(ValueError):
        ec.DBSCAN(algorithm="fast").fit(X)
    with pytest.raises(NotImplementedError, match="euclidean"):
        ec.DBSCAN(metric="manhattan").fit(X)
    with pytest.raises(ValueError, match="NaN"):
        ec.DBSCAN().fit(np.array([[0.0, np.nan], [1.0, 1.0]]))
    assert ec.DBSCAN(algorithm="kd_tree").fit(X).labels_.shape == (50,)


# ---------------------------------------------------------------- Agglomerative
@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_single_linkage_equals_sklearn(device, dt):
    X, _ = make_blobs(300, 3, centers=4, random_state=0)
    M, _ = make_moons(200, noise=0.05, random_state=0)
    for data in (X.astype(dt), M.astype(dt)):
        for kw in (dict(n_clusters=2), dict(n_clusters=5),
                   dict(n_clusters=None, distance_threshold=0.5)):
            a = sk_cluster.AgglomerativeClustering(linkage="single", **kw).fit(data)
            b = ec.AgglomerativeClustering(linkage="single", **kw).fit(_ed(data, device))
            lab = ember.asnumpy(b.labels_)
            assert adjusted_rand_score(a.labels_, lab) == 1.0
            assert len(np.unique(lab)) == a.n_clusters_ == b.n_clusters_
            if kw.get("distance_threshold") is not None:
                np.testing.assert_allclose(ember.asnumpy(b.distances_), a.distances_,
                                           **_tol(dt))


def test_single_linkage_numpy_out_and_compute_distances():
    M, _ = make_moons(150, noise=0.05, random_state=1)
    a = sk_cluster.AgglomerativeClustering(linkage="single", compute_distances=True).fit(M)
    b = ec.AgglomerativeClustering(linkage="single", compute_distances=True).fit(M)
    assert isinstance(b.labels_, np.ndarray) and b.n_leaves_ == 150
    np.testing.assert_allclose(b.distances_, a.distances_, **F64)
    assert adjusted_rand_score(a.labels_, b.fit_predict(M)) == 1.0


def test_agglomerative_errors():
    X, _ = make_blobs(30, 2, random_state=0)
    # every linkage is built now (test_ml_agglomerative.py); connectivity not
    with pytest.raises(NotImplementedError, match="connectivity"):
        ec.AgglomerativeClustering(connectivity=np.eye(30)).fit(X)
    with pytest.raises(ValueError, match="Exactly one"):
        ec.AgglomerativeClustering(n_clusters=None, linkage="single").fit(X)
    with pytest.raises(ValueError, match="compute_full_tree"):
        ec.AgglomerativeClustering(n_clusters=None, distance_threshold=1.0,
                                   compute_full_tree=False, linkage="single").fit(X)
    with pytest.raises(ValueError, match="more clusters than samples"):
        ec.AgglomerativeClustering(n_clusters=31, linkage="single").fit(X)
    with pytest.raises(ValueError):
        ec.AgglomerativeClustering(linkage="single").fit(X[:1])
    with pytest.raises(ValueError, match="Ward can only work with euclidean"):
        ec.AgglomerativeClustering(metric="manhattan").fit(X)


def test_larger_sizes_on_device(device):
    # the GPU runs the shapes scaled down; the cpu a small version
    big = device.startswith("cuda")
    rng = np.random.default_rng(0)
    X = (rng.uniform(-10, 10, (16, 8))[rng.integers(0, 16, 200000 if big else 2000)]
         + rng.standard_normal((200000 if big else 2000, 8))).astype(np.float32)
    init = X[:16].copy()
    a = sk_cluster.KMeans(16, init=init, n_init=1, max_iter=20).fit(X)
    b = ec.KMeans(16, init=init, n_init=1, max_iter=20).fit(_ed(X, device))
    agree = (ember.asnumpy(b.labels_) == a.labels_).mean()
    assert agree > 0.999 and b.inertia_ == pytest.approx(a.inertia_, rel=1e-4)
    D = (rng.uniform(-10, 10, (10, 3))[rng.integers(0, 10, 50000 if big else 1500)]
         + rng.standard_normal((50000 if big else 1500, 3))).astype(np.float32)
    a = sk_cluster.DBSCAN(eps=0.3, min_samples=10).fit(D)
    b = ec.DBSCAN(eps=0.3, min_samples=10).fit(_ed(D, device))
    lab = ember.asnumpy(b.labels_)
    np.testing.assert_array_equal(lab == -1, a.labels_ == -1)
    assert adjusted_rand_score(a.labels_, lab) > 0.9999


def test_helpers_bound_blocks():
    assert _common.row_blocks(10, 3, elems=7) == [(0, 2), (2, 4), (4, 6), (6, 8), (8, 10)]
    assert _common.row_blocks(5, 10**9, elems=7) == [(i, i + 1) for i in range(5)]
    assert V.check_scalar(3, "x", int) == 3
