"""ember.ml.datasets against scikit-learn's generators: the same shapes,
dtypes, rows per cluster and class, informative and redundant structure,
and errors; the draws are ember's, so values are checked by what the
recipe guarantees (y = X w + bias exactly, blobs around their centers,
singular values of the low-rank matrix), not against NumPy's draws."""
import numpy as np
import pytest

import ember
from ember.ml import datasets as D

skd = pytest.importorskip("sklearn.datasets")


def _np(a):
    return ember.asnumpy(a)


@pytest.mark.parametrize("n,centers", [(100, 3), (1001, 4), ([10, 30, 5], None)])
def test_make_blobs_counts_and_centers(device, n, centers):
    X, y, c = D.make_blobs(n, 5, centers=centers, cluster_std=0.05, random_state=3,
                           return_centers=True, device=device)
    Xs, ys = skd.make_blobs(n, 5, centers=centers, cluster_std=0.05, random_state=3)
    assert str(X.device) == str(ember.Device(device))
    assert X.shape == Xs.shape and X.dtype == Xs.dtype and y.shape == ys.shape
    np.testing.assert_array_equal(np.bincount(_np(y)), np.bincount(ys))
    Xh, yh, ch = _np(X), _np(y), _np(c)
    assert ch.min() >= -10 and ch.max() <= 10
    for k in range(len(ch)):
        # 0.05 std: every row of blob k within 0.5 of its center
        assert np.abs(Xh[yh == k] - ch[k]).max() < 0.5
    # shuffled: the labels are not in blocks
    assert (np.diff(yh) != 0).sum() > len(ch)
    # the same seed, the same data; another seed, other data
    X2, _ = D.make_blobs(n, 5, centers=centers, cluster_std=0.05, random_state=3,
                         device=device)
    np.testing.assert_array_equal(_np(X2), Xh)
    X3, _ = D.make_blobs(n, 5, centers=centers, cluster_std=0.05, random_state=4,
                         device=device)
    assert not np.array_equal(_np(X3), Xh)


def test_make_blobs_given_centers_and_dtype(device):
    centers = np.array([[0.0, 0.0], [100.0, 100.0]])
    X, y = D.make_blobs(400, centers=centers, cluster_std=[1.0, 3.0], shuffle=False,
                        random_state=0, dtype=np.float32, device=device)
    assert X.dtype == np.float32
    Xh, yh = _np(X), _np(y)
    np.testing.assert_array_equal(yh, np.repeat([0, 1], 200))
    np.testing.assert_allclose(Xh[yh == 1].mean(0), [100, 100], atol=1.0)
    assert 2.5 < Xh[yh == 1].std() < 3.5 and 0.8 < Xh[yh == 0].std() < 1.2


def test_make_blobs_errors_as_sklearn():
    for kw in ({"n_samples": [10, 20], "centers": np.zeros((3, 2))},
               {"n_samples": 10, "centers": 2, "cluster_std": [1.0, 2.0, 3.0]}):
        with pytest.raises(ValueError) as ours:
            D.make_blobs(**kw)
        with pytest.raises(ValueError) as theirs:
            skd.make_blobs(**kw)
        assert str(ours.value).split(".")[0][:30] == str(theirs.value).split(".")[0][:30]


@pytest.mark.parametrize("targets", [1, 3])
def test_make_regression_is_exactly_linear(device, targets):
    X, y, w = D.make_regression(300, 20, n_informative=5, n_targets=targets, bias=2.5,
                                coef=True, random_state=0, device=device)
    Xs, ys, ws = skd.make_regression(300, 20, n_informative=5, n_targets=targets,
                                     bias=2.5, coef=True, random_state=0)
    assert (X.shape, y.shape, w.shape) == (Xs.shape, ys.shape, ws.shape)
    Xh, yh, wh = _np(X), _np(y), _np(w)
    np.testing.assert_allclose(Xh @ wh + 2.5, yh, rtol=1e-12, atol=1e-9)
    nz = (wh != 0).reshape(20, -1).any(axis=1)
    assert nz.sum() == 5 and np.abs(wh).max() <= 100
    # noise: the residual's std is the noise
    X, y, w = D.make_regression(20000, 4, noise=2.0, coef=True, random_state=1,
                                device=device)
    r = _np(y) - _np(X) @ _np(w)
    assert 1.9 < r.std() < 2.1


def test_make_low_rank_singular_values(device):
    M = _np(D.make_low_rank_matrix(60, 40, effective_rank=5, tail_strength=0.3,
                                   random_state=2, device=device))
    k = np.arange(40)
    want = 0.7 * np.exp(-(k / 5) ** 2) + 0.3 * np.exp(-0.1 * k / 5)
    np.testing.assert_allclose(np.linalg.svd(M, compute_uv=False), want, rtol=1e-10)
    X, y = D.make_regression(60, 40, effective_rank=5, random_state=2, device=device)
    assert np.linalg.svd(_np(X), compute_uv=False)[0] < 1.01


@pytest.mark.parametrize("kw", [{}, {"n_classes": 3, "n_informative": 4, "n_redundant": 3,
                                     "n_repeated": 2, "weights": [0.5, 0.3]},
                                {"hypercube": False, "shift": None, "scale": None},
                                {"n_informative": 33, "n_features": 40, "n_redundant": 0}])
def test_make_classification_structure(device, kw):
    X, y = D.make_classification(1000, **{"n_features": 20, **kw}, flip_y=0.0,
                                 shuffle=False, random_state=0, device=device)
    Xs, ys = skd.make_classification(1000, **{"n_features": 20, **kw}, flip_y=0.0,
                                     shuffle=False, random_state=0)
    assert X.shape == Xs.shape and X.dtype == Xs.dtype
    # rows per class are scikit-learn's (its weights and rounding)
    np.testing.assert_array_equal(np.bincount(_np(y)), np.bincount(ys))
    Xh = _np(X)
    ni, nr = kw.get("n_informative", 2), kw.get("n_redundant", 2)
    if kw.get("scale", 1.0) is not None and kw.get("shift", 0.0) is not None:
        # redundant columns are linear combinations of the informative ones
        if nr:
            inf, red = Xh[:, :ni], Xh[:, ni:ni + nr]
            B = np.linalg.lstsq(inf, red, rcond=None)[0]
            np.testing.assert_allclose(inf @ B, red, atol=1e-8)
        nrep = kw.get("n_repeated", 0)
        for j in range(ni + nr, ni + nr + nrep):
            assert any(np.array_equal(Xh[:, j], Xh[:, i]) for i in range(ni + nr))
    # the classes are separable in the informative columns: a nearest
    # class mean classifies most rows
    yh = _np(y)
    means = np.stack([Xh[yh == c].mean(0) for c in np.unique(yh)])
    pred = np.argmin(((Xh[:, None, :] - means[None]) ** 2).sum(-1), axis=1)
    assert (pred == yh).mean() > 0.5


def test_make_classification_flip_and_errors(device):
    _, y = D.make_classification(20000, flip_y=0.5, shuffle=False, random_state=0,
                                 device=device)
    _, y0 = D.make_classification(20000, flip_y=0.0, shuffle=False, random_state=0,
                                  device=device)
    changed = (_np(y) != _np(y0)).mean()
    assert 0.2 < changed < 0.3      # half are redrawn, half of those change
    for kw in ({"n_informative": 10, "n_redundant": 10, "n_repeated": 1},
               {"n_classes": 5, "n_informative": 2},
               {"weights": [0.2, 0.3, 0.5, 0.0]}):
        with pytest.raises(ValueError) as ours:
            D.make_classification(100, **kw)
        with pytest.raises(ValueError) as theirs:
            skd.make_classification(100, **kw)
        assert str(ours.value)[:25] == str(theirs.value)[:25]


def test_cuml_intro_programs_run(device):
    """cuML's estimator_intro snippets after `cuml` becomes `ember.ml`."""
    from ember.ml.cluster import DBSCAN, KMeans
    from ember.ml.ensemble import RandomForestClassifier
    from ember.ml.linear_model import LinearRegression
    from ember.ml.metrics import accuracy_score, adjusted_rand_score, r2_score
    from ember.ml.model_selection import train_test_split
    with ember.Device(device):
        X, y = D.make_classification(n_classes=2, n_features=10, n_samples=1000,
                                     random_state=0)
        Xtr, Xte, ytr, yte = train_test_split(X, y, random_state=0)
        rf = RandomForestClassifier(max_depth=10, n_estimators=25,
                                    random_state=0).fit(Xtr, ytr)
        assert float(accuracy_score(yte, rf.predict(Xte))) > 0.8
        Xb, yb = D.make_blobs(n_samples=1000, n_features=100, cluster_std=0.1,
                              random_state=0)
        assert float(adjusted_rand_score(yb, DBSCAN(eps=3, min_samples=2)
                                         .fit_predict(Xb))) == 1.0
        km = KMeans(n_clusters=3, random_state=0, n_init=1).fit(Xb)
        assert float(adjusted_rand_score(yb, km.labels_)) == 1.0
        # cuML's name of its seeding is ember's k-means++ (the same centers)
        kc = KMeans(n_clusters=3, init="k-means||", random_state=0, n_init=1).fit(Xb)
        np.testing.assert_array_equal(_np(kc.cluster_centers_), _np(km.cluster_centers_))
        assert kc.get_params()["init"] == "k-means||"
        with pytest.raises(ValueError, match="init"):
            KMeans(n_clusters=3, init="k-means+").fit(Xb)
        Xr, yr = D.make_regression(n_samples=2 ** 10, n_features=20, n_informative=5,
                                   random_state=0)
        Xtr, Xte, ytr, yte = train_test_split(Xr, yr, random_state=0)
        lr = LinearRegression().fit(Xtr, ytr)
        assert float(r2_score(yte, lr.predict(Xte))) > 0.999


def test_cuml_top_level_names():
    """ember.ml's top level has its submodules' estimators and functions,
    as cuML's has (`from cuml import make_regression, train_test_split`),
    and sklearn.metrics.cluster's path holds the clustering scores."""
    import ember.ml as M
    from ember.ml.cluster import KMeans
    from ember.ml.metrics import adjusted_rand_score
    from ember.ml.metrics.cluster import adjusted_rand_score as ari, silhouette_score
    from ember.ml.model_selection import train_test_split
    assert M.make_regression is D.make_regression and M.KMeans is KMeans
    assert M.train_test_split is train_test_split and ari is adjusted_rand_score
    assert callable(silhouette_score)
    with pytest.raises(AttributeError, match="no_such_estimator"):
        M.no_such_estimator
    with pytest.raises(ImportError):
        exec("from ember.ml import NoSuchThing")
