"""ember.ml.metrics' pairwise distances, kernels and silhouette against
scikit-learn's on the same data, on every device."""
import numpy as np
import pytest

import ember

sk = pytest.importorskip("sklearn.metrics")
skp = pytest.importorskip("sklearn.metrics.pairwise")
from ember.ml import metrics as EM  # noqa: E402
from ember.ml.metrics import pairwise as EP  # noqa: E402

METRICS = ["euclidean", "l2", "sqeuclidean", "cosine", "manhattan", "cityblock",
           "l1", "chebyshev"]


def _data(dtype=np.float64, n=23, m=17, d=5, seed=0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, d)).astype(dtype), rng.normal(size=(m, d)).astype(dtype)


def _tol(dtype):
    return dict(rtol=1e-4, atol=1e-4) if dtype == np.float32 else \
        dict(rtol=1e-7, atol=1e-10)


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_pairwise_distances(device, metric, dtype):
    X, Y = _data(dtype)
    Xe, Ye = ember.asarray(X, device=device), ember.asarray(Y, device=device)
    for a, b, ea, eb in ((X, Y, Xe, Ye), (X, None, Xe, None)):
        want = skp.pairwise_distances(a, b, metric=metric)
        got = EP.pairwise_distances(ea, eb, metric=metric)
        assert isinstance(got, ember.ndarray) and got.dtype == dtype
        np.testing.assert_allclose(ember.asnumpy(got), want, **_tol(dtype))
        if b is None and metric in ("euclidean", "sqeuclidean", "cosine"):
            assert (np.diag(ember.asnumpy(got)) == 0).all()
    got = EM.pairwise_distances(X, Y, metric=metric)
    assert isinstance(got, np.ndarray)


def test_minkowski_and_mixed_dtypes(device):
    X, Y = _data()
    got = EP.pairwise_distances(X, Y.astype(np.float32), metric="minkowski", p=3)
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, skp.pairwise_distances(X, Y, metric="minkowski",
                                                           p=3), rtol=1e-6)
    np.testing.assert_allclose(EP.pairwise_distances(X, Y, metric="minkowski", p=1),
                               skp.manhattan_distances(X, Y), rtol=1e-12)


def test_named_functions(device):
    X, Y = _data()
    Xe, Ye = ember.asarray(X, device=device), ember.asarray(Y, device=device)
    for name in ("euclidean_distances", "manhattan_distances", "cosine_similarity",
                 "cosine_distances", "linear_kernel", "rbf_kernel"):
        ours, theirs = getattr(EP, name), getattr(skp, name)
        np.testing.assert_allclose(ember.asnumpy(ours(Xe, Ye)), theirs(X, Y),
                                   rtol=1e-7, atol=1e-10, err_msg=name)
        np.testing.assert_allclose(ember.asnumpy(ours(Xe)), theirs(X), rtol=1e-7,
                                   atol=1e-10, err_msg=name)
    np.testing.assert_allclose(EP.rbf_kernel(X, Y, gamma=0.3),
                               skp.rbf_kernel(X, Y, gamma=0.3), rtol=1e-7)
    XX, YY = (X * X).sum(1), (Y * Y).sum(1)
    np.testing.assert_allclose(
        EP.euclidean_distances(X, Y, squared=True, X_norm_squared=XX[:, None],
                               Y_norm_squared=YY),
        skp.euclidean_distances(X, Y, squared=True), rtol=1e-7, atol=1e-10)


def test_zero_rows_and_identical_points(device):
    X = np.array([[0.0, 0.0], [1.0, 2.0], [1.0, 2.0], [3.0, -1.0]])
    Xe = ember.asarray(X, device=device)
    for name in ("cosine_similarity", "cosine_distances", "euclidean_distances"):
        np.testing.assert_allclose(ember.asnumpy(getattr(EP, name)(Xe)),
                                   getattr(skp, name)(X), atol=1e-12, err_msg=name)


def test_argmin_min(monkeypatch, device):
    X, Y = _data(n=40, m=9)
    monkeypatch.setattr(EP.row_blocks, "__defaults__", (7 * 9,))   # 7 rows a block
    Xe, Ye = ember.asarray(X, device=device), ember.asarray(Y, device=device)
    for metric in ("euclidean", "manhattan", "cosine"):
        i, d = EP.pairwise_distances_argmin_min(Xe, Ye, metric=metric)
        wi, wd = sk.pairwise_distances_argmin_min(X, Y, metric=metric)
        np.testing.assert_array_equal(ember.asnumpy(i), wi)
        np.testing.assert_allclose(ember.asnumpy(d), wd, rtol=1e-7, atol=1e-10)
        np.testing.assert_array_equal(
            EM.pairwise_distances_argmin(X, Y, axis=0, metric=metric),
            sk.pairwise_distances_argmin(X, Y, axis=0, metric=metric))
    # ties: the first index, as scikit-learn
    i = EP.pairwise_distances_argmin(np.zeros((3, 2)), np.ones((4, 2)))
    np.testing.assert_array_equal(i, [0, 0, 0])


def test_chunked_bounded_blocks(device):
    X, _ = _data(n=50)
    Xe = ember.asarray(X, device=device)
    # a working memory of ~400 bytes: blocks of one row each
    chunks = list(EM.pairwise_distances_chunked(Xe, working_memory=400 / 2 ** 20))
    assert len(chunks) == 50
    np.testing.assert_allclose(np.vstack([ember.asnumpy(c) for c in chunks]),
                               skp.pairwise_distances(X), rtol=1e-7, atol=1e-10)
    mins = list(EM.pairwise_distances_chunked(
        X, metric="manhattan", reduce_func=lambda D, s: D.sum(axis=1)))
    np.testing.assert_allclose(np.concatenate(mins),
                               skp.manhattan_distances(X).sum(axis=1), rtol=1e-10)


def test_blocked_manhattan_matches(monkeypatch, device):
    X, Y = _data(n=30, m=20)
    monkeypatch.setattr(EP, "BLOCK", 64)
    monkeypatch.setattr(EP.row_blocks, "__defaults__", (64,))
    got = EP.pairwise_distances(ember.asarray(X, device=device),
                                ember.asarray(Y, device=device), metric="manhattan")
    np.testing.assert_allclose(ember.asnumpy(got), skp.manhattan_distances(X, Y),
                               rtol=1e-12)


def test_errors():
    X, Y = _data()
    with pytest.raises(ValueError, match="Incompatible dimension"):
        EP.pairwise_distances(X, Y[:, :3])
    with pytest.raises(ValueError, match="Unknown metric"):
        EP.pairwise_distances(X, Y, metric="nope")
    with pytest.raises(ValueError, match="NaN"):
        EP.pairwise_distances(np.array([[np.nan, 1.0]]))
    with pytest.raises(NotImplementedError):
        EP.pairwise_distances(X, metric=lambda a, b: 0.0)
    with pytest.raises(NotImplementedError, match="hamming"):
        EP.pairwise_distances(X, metric="hamming")
    with pytest.raises(ValueError, match="Negative values"):
        EP.pairwise_distances(-np.ones((2, 2)), metric="precomputed")


# ---- silhouette

def _blobs(n=60, k=3, seed=1):
    rng = np.random.default_rng(seed)
    lab = rng.integers(0, k, n)
    X = rng.normal(size=(n, 3)) + lab[:, None] * 2.0
    return X, lab


@pytest.mark.parametrize("metric", ["euclidean", "manhattan", "cosine", "sqeuclidean"])
def test_silhouette(device, metric):
    X, lab = _blobs()
    lab[5] = 9          # a singleton cluster scores 0
    Xe, le = ember.asarray(X, device=device), ember.asarray(lab, device=device)
    s = EM.silhouette_samples(Xe, le, metric=metric)
    assert isinstance(s, ember.ndarray)
    want = sk.silhouette_samples(X, lab, metric=metric)
    np.testing.assert_allclose(ember.asnumpy(s), want, rtol=1e-9, atol=1e-12)
    assert ember.asnumpy(s)[5] == 0
    assert EM.silhouette_score(Xe, le, metric=metric) == pytest.approx(
        sk.silhouette_score(X, lab, metric=metric), rel=1e-10)


def test_silhouette_blocks_labels_precomputed(monkeypatch, device):
    X, lab = _blobs(n=40)
    names = np.array(["a", "b", "c"])[lab]
    want = sk.silhouette_samples(X, lab)
    from ember.ml.metrics import _cluster
    monkeypatch.setattr(_cluster, "row_blocks",
                        lambda n, per_row: EP.row_blocks(n, per_row, 3 * per_row))
    np.testing.assert_allclose(EM.silhouette_samples(X, names), want, rtol=1e-9)
    # many clusters: the bincount sums instead of the one-hot matmul
    monkeypatch.setattr(_cluster, "ONEHOT_MAX", 0)
    np.testing.assert_allclose(EM.silhouette_samples(X, names), want, rtol=1e-9)
    many = np.arange(40) % 13
    np.testing.assert_allclose(EM.silhouette_samples(X, many),
                               sk.silhouette_samples(X, many), rtol=1e-9)
    D = skp.pairwise_distances(X)
    assert EM.silhouette_score(ember.asarray(D, device=device), lab,
                               metric="precomputed") == pytest.approx(want.mean())
    s32 = EM.silhouette_samples(X.astype(np.float32), lab)
    assert s32.dtype == np.float32
    np.testing.assert_allclose(s32, want, rtol=1e-4, atol=1e-5)


def test_silhouette_sample_size(device):
    X, lab = _blobs(n=200)
    full = sk.silhouette_score(X, lab)
    a = EM.silhouette_score(X, lab, sample_size=150, random_state=0)
    assert a == EM.silhouette_score(X, lab, sample_size=150, random_state=0)
    assert abs(a - full) < 0.1 and a != full
    # scikit-learn's subset for the same random_state (int or RandomState)
    Xe = ember.asarray(X, device=device)
    for seed in (0, 5):
        assert EM.silhouette_score(Xe, lab, sample_size=150, random_state=seed) == \
            pytest.approx(sk.silhouette_score(X, lab, sample_size=150,
                                              random_state=seed), rel=1e-12)
    got = EM.silhouette_score(Xe, ember.asarray(lab, device=device), sample_size=90,
                              random_state=np.random.RandomState(2))
    assert got == pytest.approx(sk.silhouette_score(
        X, lab, sample_size=90, random_state=np.random.RandomState(2)), rel=1e-12)


def test_silhouette_errors():
    X, lab = _blobs(n=10)
    with pytest.raises(ValueError, match="Number of labels is 1"):
        EM.silhouette_score(X, np.zeros(10, int))
    with pytest.raises(ValueError, match="Number of labels is 10"):
        EM.silhouette_score(X, np.arange(10))
    with pytest.raises(ValueError, match="inconsistent"):
        EM.silhouette_score(X, lab[:5])
    with pytest.raises(ValueError, match="diagonal"):
        EM.silhouette_score(np.ones((10, 10)), lab, metric="precomputed")
