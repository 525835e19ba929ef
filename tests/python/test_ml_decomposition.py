"""ember.ml.decomposition against scikit-learn on the same data."""
import pickle

import numpy as np
import pytest
from numpy.testing import assert_allclose

import ember
from ember.ml.decomposition import PCA, IncrementalPCA, TruncatedSVD
from ember.ml.exceptions import NotFittedError

sk = pytest.importorskip("sklearn.decomposition")


def data(n=300, p=12, dtype=np.float64, seed=0):
    rng = np.random.default_rng(seed)
    # distinct variances so the components are well separated
    scales = np.linspace(5, 0.5, p)
    A = rng.standard_normal((n, p)) * scales
    R = np.linalg.qr(rng.standard_normal((p, p)))[0]
    return (A @ R + 3.0).astype(dtype)


def close(a, b, dtype=np.float64):
    tol = 1e-4 if dtype == np.float32 else 1e-8
    assert_allclose(np.asarray(ember.asnumpy(a) if isinstance(a, ember.ndarray) else a),
                    b, rtol=tol, atol=tol * max(1.0, float(np.abs(b).max())))


@pytest.mark.parametrize("solver", ["full", "covariance_eigh", "arpack", "auto"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_pca_matches_sklearn(device, solver, dtype):
    X = data(dtype=dtype)
    e = PCA(5, svd_solver=solver).fit(ember.asarray(X, device=device))
    s = sk.PCA(5, svd_solver=solver).fit(X)
    for a in ("components_", "explained_variance_", "explained_variance_ratio_",
              "singular_values_", "mean_"):
        close(getattr(e, a), getattr(s, a), dtype)
    assert isinstance(e.components_, ember.ndarray) and e.components_.dtype == dtype
    assert e.n_components_ == s.n_components_ and e.n_samples_ == s.n_samples_
    assert_allclose(e.noise_variance_, s.noise_variance_, rtol=1e-3)
    Xe = ember.asarray(X, device=device)
    close(e.transform(Xe), s.transform(X), dtype)
    close(e.fit_transform(Xe), s.fit_transform(X), dtype)
    close(e.inverse_transform(e.transform(Xe)), s.inverse_transform(s.transform(X)), dtype)


def test_pca_numpy_in_numpy_out_whiten_fraction(device):
    X = data()
    e = PCA(0.9, whiten=True, svd_solver="full").fit(X)
    s = sk.PCA(0.9, whiten=True, svd_solver="full").fit(X)
    assert e.n_components_ == s.n_components_
    assert isinstance(e.components_, np.ndarray)
    out = e.transform(X)
    assert isinstance(out, np.ndarray)
    assert_allclose(out, s.transform(X), rtol=1e-7, atol=1e-7)
    assert_allclose(e.get_covariance(), s.get_covariance(), rtol=1e-6, atol=1e-8)
    assert list(e.get_feature_names_out()) == list(s.get_feature_names_out())


def test_pca_randomized_quality(device):
    rng = np.random.default_rng(1)
    X = rng.standard_normal((400, 40)) * np.r_[[10.0, 8, 6, 4], np.full(36, 0.5)]
    e = PCA(4, svd_solver="randomized", random_state=0).fit(ember.asarray(X, device=device))
    s = sk.PCA(4, svd_solver="full").fit(X)
    # a randomized sketch with power iterations finds the exact top 4 here
    close(e.explained_variance_, s.explained_variance_)
    assert_allclose(np.abs(ember.asnumpy(e.components_) @ s.components_.T),
                    np.eye(4), atol=1e-6)


def test_pca_errors(device):
    X = ember.asarray(data(), device=device)
    with pytest.raises(NotFittedError):
        PCA(2).transform(X)
    with pytest.raises(ValueError, match="must be between 0 and"):
        PCA(13, svd_solver="full").fit(X)
    with pytest.raises(ValueError, match="svd_solver"):
        PCA(2, svd_solver="nope").fit(X)
    with pytest.raises(ValueError, match="contains NaN"):
        PCA(2).fit(np.array([[1.0, np.nan], [2.0, 3.0], [0.0, 1.0]]))
    with pytest.raises(ValueError, match="2 features, but PCA is expecting 12"):
        PCA(2).fit(X).transform(X[:, :2])
    with pytest.raises(ValueError, match="only supported if n_samples >= n_features"):
        PCA("mle").fit(X[:10])
    with pytest.raises(ValueError, match="cannot be a string with svd_solver='arpack'"):
        PCA("mle", svd_solver="arpack").fit(X)
    with pytest.raises(NotFittedError):
        PCA(2).score(X)


def low_rank(n=500, p=25, rank=5, seed=42):
    # scikit-learn's plot_pca_vs_fa_model_selection: a rank-5 signal in
    # homoscedastic noise, whose MLE dimension is the rank
    rng = np.random.RandomState(seed)
    U = np.linalg.svd(rng.randn(p, p))[0]
    return rng.randn(n, rank) @ U[:, :rank].T + rng.randn(n, p)


@pytest.mark.parametrize("kw", [
    dict(n_components="mle", svd_solver="full"),
    dict(n_components="mle", svd_solver="covariance_eigh"),
    dict(n_components="mle"),
    dict(n_components=0, svd_solver="full"),
    dict(n_components=5, svd_solver="full", whiten=True),
    dict(n_components=25, svd_solver="full"),
    dict(n_components=0.6, svd_solver="full"),
    dict(n_components=4, svd_solver="randomized", random_state=0),
])
def test_pca_mle_and_likelihood_match_sklearn(device, kw):
    X = low_rank()
    e = PCA(**kw).fit(ember.asarray(X, device=device))
    s = sk.PCA(**kw).fit(X)
    assert e.n_components_ == s.n_components_
    # an inferred count is NumPy's integer in both
    assert isinstance(e.n_components_, np.integer) == isinstance(s.n_components_, np.integer)
    assert e.noise_variance_ == pytest.approx(s.noise_variance_, rel=1e-10)
    close(e.get_precision(), s.get_precision())
    Xt = ember.asarray(X[:50] * 1.5, device=device)
    close(e.score_samples(Xt), s.score_samples(X[:50] * 1.5))
    assert e.score(Xt) == pytest.approx(s.score(X[:50] * 1.5), rel=1e-10)


def test_pca_mle_dimension_over_spectra():
    # the evidence over many shapes of spectrum, zero tails included
    from ember.ml.decomposition._mle import infer_dimension
    from sklearn.decomposition._pca import _infer_dimension
    rng = np.random.default_rng(0)
    for t in range(40):
        p = int(rng.integers(1, 30))
        n = int(rng.integers(p, 300))
        spectrum = np.sort(rng.exponential(size=p) * rng.choice([1e-3, 1, 100]))[::-1]
        if t % 3 == 0:
            spectrum[rng.integers(0, p):] = 0.0
        assert infer_dimension(spectrum, n) == _infer_dimension(spectrum, n)


def test_pca_score_in_cross_val_score(device):
    # scikit-learn's model selection by held-out likelihood, as in its example
    from sklearn.model_selection import cross_val_score
    X = low_rank()
    with ember.Device(device):
        got = [cross_val_score(PCA(k, svd_solver="full"), X).mean() for k in (0, 5, 10)]
    want = [cross_val_score(sk.PCA(k, svd_solver="full"), X).mean() for k in (0, 5, 10)]
    assert_allclose(got, want, rtol=1e-10)


def test_pca_pickle_clone_pipeline(device):
    from sklearn.base import clone
    from sklearn.linear_model import LinearRegression
    from sklearn.pipeline import make_pipeline
    X = data()
    y = X[:, 0] * 2 + 1
    e = PCA(3).fit(X)
    e2 = pickle.loads(pickle.dumps(e))
    assert_allclose(e2.transform(X), e.transform(X))
    assert clone(e).get_params() == e.get_params()
    p = make_pipeline(PCA(12), LinearRegression()).fit(X, y)
    assert p.score(X, y) > 0.999999


@pytest.mark.parametrize("algorithm", ["arpack", "randomized"])
def test_truncated_svd(device, algorithm):
    X = data(n=200, p=15)
    Xe = ember.asarray(X, device=device)
    e = TruncatedSVD(3, algorithm=algorithm, n_iter=10, random_state=0)
    te = e.fit_transform(Xe)
    s = sk.TruncatedSVD(3, algorithm="arpack", random_state=0)
    ts = s.fit_transform(X)
    close(e.singular_values_, s.singular_values_)
    close(e.components_, s.components_)
    close(te, ts)
    close(e.explained_variance_, s.explained_variance_)
    close(e.explained_variance_ratio_, s.explained_variance_ratio_)
    close(e.transform(Xe), s.transform(X))
    close(e.inverse_transform(te), s.inverse_transform(ts))
    with pytest.raises(ValueError):
        TruncatedSVD(15, algorithm="arpack").fit(Xe)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_incremental_pca(device, dtype):
    X = data(n=250, p=10, dtype=dtype)
    Xe = ember.asarray(X, device=device)
    e = IncrementalPCA(4, batch_size=60).fit(Xe)
    s = sk.IncrementalPCA(4, batch_size=60).fit(X)
    for a in ("components_", "explained_variance_", "explained_variance_ratio_",
              "singular_values_", "mean_", "var_"):
        close(getattr(e, a), getattr(s, a), dtype)
    assert e.n_samples_seen_ == s.n_samples_seen_ == 250
    assert_allclose(e.noise_variance_, s.noise_variance_, rtol=1e-3)
    close(e.transform(Xe), s.transform(X), dtype)
    e2 = IncrementalPCA(4)
    s2 = sk.IncrementalPCA(4)
    for sl in (slice(0, 100), slice(100, 250)):
        e2.partial_fit(Xe[sl])
        s2.partial_fit(X[sl])
    close(e2.components_, s2.components_, dtype)
    with pytest.raises(ValueError, match="batch number of samples"):
        IncrementalPCA(5).partial_fit(Xe[:3])


@pytest.mark.parametrize("dt", [np.float64, np.float32])
@pytest.mark.parametrize("shape", [(300, 40), (40, 300)])
def test_randomized_solvers_equal_sklearn_for_a_seed(device, dt, shape):
    # scikit-learn's Gaussian sketch for the same random_state (and its
    # transposed sketch of a wide X): a spectrum without a gap, a single
    # power iteration, so only the same sketch gives the same components
    SkPCA, SkSVD = sk.PCA, sk.TruncatedSVD
    rng = np.random.RandomState(0)
    X = (rng.randn(*shape) * np.linspace(1.0, 0.9, shape[1])).astype(dt)
    Xe = ember.asarray(X, device=device)
    tol = dict(rtol=1e-4, atol=1e-4) if dt == np.float32 else dict(rtol=1e-8, atol=1e-10)
    for seed in (0, np.random.RandomState(4)):
        a = SkPCA(5, svd_solver="randomized", iterated_power=1,
                  random_state=seed if isinstance(seed, int) else np.random.RandomState(4)
                  ).fit(X)
        b = PCA(5, svd_solver="randomized", iterated_power=1, random_state=seed).fit(Xe)
        np.testing.assert_allclose(ember.asnumpy(b.components_), a.components_, **tol)
        np.testing.assert_allclose(ember.asnumpy(b.explained_variance_),
                                   a.explained_variance_, **tol)
    c = SkSVD(5, n_iter=1, random_state=2).fit(X)
    d = TruncatedSVD(5, n_iter=1, random_state=2).fit(Xe)
    np.testing.assert_allclose(ember.asnumpy(d.components_), c.components_, **tol)
    np.testing.assert_allclose(ember.asnumpy(d.singular_values_), c.singular_values_,
                               **tol)
