"""LassoCV, ElasticNetCV and RidgeCV against scikit-learn on the same data
and folds: the alpha grid, mse_path_, alpha_, coef_ and intercept_ agree to
rounding (the same coordinate-descent updates along the same warm-started
path; the exact leave-one-out errors)."""
import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose

import ember
from ember.ml.exceptions import NotFittedError
from ember.ml.linear_model import ElasticNetCV, LassoCV, RidgeCV

lm = pytest.importorskip("sklearn.linear_model")
from sklearn import datasets  # noqa: E402
from sklearn.model_selection import KFold  # noqa: E402


def host(a):
    return ember.asnumpy(a) if isinstance(a, ember.ndarray) else np.asarray(a)


def E(a, device):
    return ember.asarray(a, device=device)


def diabetes():
    return datasets.load_diabetes(return_X_y=True)


def assert_cv_equal(e, s, rtol=1e-7):
    assert e.alpha_ == pytest.approx(s.alpha_, rel=1e-12)
    assert_allclose(host(e.alphas_), s.alphas_, rtol=1e-12)
    assert host(e.mse_path_).shape == s.mse_path_.shape
    assert_allclose(host(e.mse_path_), s.mse_path_, rtol=rtol)
    assert_allclose(host(e.coef_), s.coef_, rtol=1e-6, atol=1e-8 * np.abs(s.coef_).max())
    assert_allclose(host(e.intercept_), s.intercept_, rtol=1e-8)
    assert e.n_iter_ == s.n_iter_


@pytest.mark.parametrize("params", [{}, {"alphas": 30, "eps": 1e-2, "cv": 3},
                                    {"fit_intercept": False, "alphas": 20},
                                    {"positive": True, "alphas": 20},
                                    {"alphas": [0.01, 0.1, 1.0, 3.0]}])
def test_lasso_cv_as_sklearn(device, params):
    X, y = diabetes()
    e = LassoCV(**params).fit(E(X, device), E(y, device))
    s = lm.LassoCV(**params).fit(X, y)
    assert_cv_equal(e, s)
    assert e.score(E(X, device), E(y, device)) == pytest.approx(s.score(X, y), rel=1e-9)
    assert not hasattr(e, "l1_ratio_")


def test_elastic_net_cv_as_sklearn(device):
    X, y = diabetes()
    for params in ({"l1_ratio": 0.5, "alphas": 30},
                   {"l1_ratio": [0.1, 0.5, 0.9, 1.0], "alphas": 25},
                   {"l1_ratio": [0.0, 0.5], "alphas": [0.001, 0.01, 0.1, 1.0]}):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            e = ElasticNetCV(**params).fit(E(X, device), E(y, device))
            s = lm.ElasticNetCV(**params).fit(X, y)
        assert_cv_equal(e, s)
        assert e.l1_ratio_ == s.l1_ratio_


def test_cv_wide_data_and_splitters(device, monkeypatch):
    # fewer training rows than features: the stacked Gram matrices (the
    # kernel), and with them over _GRAM_BYTES each fold on the residual
    # form, as scikit-learn's
    from ember.ml.linear_model import _cv
    X, y, _ = datasets.make_regression(40, 60, n_informative=5, noise=1.0, coef=True,
                                       random_state=0)
    s = lm.LassoCV(alphas=15, cv=4).fit(X, y)
    e = LassoCV(alphas=15, cv=4).fit(E(X, device), E(y, device))
    assert_cv_equal(e, s, rtol=1e-6)
    monkeypatch.setattr(_cv, "_GRAM_BYTES", 0)
    e = LassoCV(alphas=15, cv=4).fit(E(X, device), E(y, device))
    assert_cv_equal(e, s, rtol=1e-6)
    monkeypatch.undo()
    # a scikit-learn splitter object and a list of folds give the same folds
    X, y = diabetes()
    kf = KFold(4, shuffle=True, random_state=0)
    e = LassoCV(alphas=20, cv=kf).fit(E(X, device), E(y, device))
    s = lm.LassoCV(alphas=20, cv=kf).fit(X, y)
    assert_cv_equal(e, s)
    e2 = LassoCV(alphas=20, cv=list(kf.split(X))).fit(E(X, device), E(y, device))
    assert_allclose(host(e2.mse_path_), host(e.mse_path_), rtol=1e-12)


def test_cv_sample_weight(device):
    X, y = diabetes()
    sw = np.random.default_rng(0).uniform(0.5, 2.0, len(y))
    e = LassoCV(alphas=20).fit(E(X, device), E(y, device), sample_weight=E(sw, device))
    s = lm.LassoCV(alphas=20).fit(X, y, sample_weight=sw)
    assert_cv_equal(e, s, rtol=1e-6)


@pytest.mark.parametrize("params", [{}, {"alphas": np.logspace(-4, 2, 25)},
                                    {"alphas": [0.01, 0.1, 1.0], "store_cv_results": True},
                                    {"alphas": np.logspace(-4, 2, 10), "fit_intercept": False},
                                    {"alphas": np.logspace(-4, 2, 10), "cv": 5},
                                    {"alphas": np.logspace(-4, 2, 10),
                                     "cv": KFold(3, shuffle=True, random_state=1)}])
def test_ridge_cv_as_sklearn(device, params):
    X, y = diabetes()
    e = RidgeCV(**params).fit(E(X, device), E(y, device))
    s = lm.RidgeCV(**params).fit(X, y)
    assert e.alpha_ == s.alpha_
    assert e.best_score_ == pytest.approx(s.best_score_, rel=1e-9)
    assert_allclose(host(e.coef_), s.coef_, rtol=1e-8)
    assert_allclose(host(e.intercept_), s.intercept_, rtol=1e-10)
    if params.get("store_cv_results"):
        assert_allclose(host(e.cv_results_), s.cv_results_, rtol=1e-8)


def test_ridge_cv_targets_and_weights(device):
    X, y = diabetes()
    Y = np.c_[y, 0.5 * y + 100 * X[:, 0]]
    sw = np.random.default_rng(1).uniform(0.5, 2.0, len(y))
    for per in (False, True):
        e = RidgeCV(alphas=np.logspace(-3, 2, 12), alpha_per_target=per,
                    store_cv_results=True).fit(E(X, device), E(Y, device),
                                               sample_weight=E(sw, device))
        s = lm.RidgeCV(alphas=np.logspace(-3, 2, 12), alpha_per_target=per,
                       store_cv_results=True).fit(X, Y, sample_weight=sw)
        assert_allclose(host(e.alpha_), s.alpha_)
        assert_allclose(host(e.best_score_), s.best_score_, rtol=1e-9)
        assert_allclose(host(e.coef_), s.coef_, rtol=1e-8)
        assert_allclose(host(e.cv_results_), s.cv_results_, rtol=1e-8)


def test_errors():
    X, y = diabetes()
    for cls in (LassoCV, ElasticNetCV, RidgeCV):
        with pytest.raises(NotFittedError):
            cls().predict(X)
        with pytest.raises(ValueError, match="requires y"):
            cls().fit(X, None)
        est = cls(cv=3).fit(X[:60], y[:60])
        with pytest.raises(ValueError, match="X has 3 features, but .* is expecting 10"):
            est.predict(X[:, :3])
    with pytest.raises(ValueError, match="alphas"):
        RidgeCV(alphas=[0.0, 1.0]).fit(X, y)
    with pytest.raises(ValueError, match="l1_ratio=0"):
        ElasticNetCV(l1_ratio=0.0).fit(X, y)
    with pytest.raises(ValueError, match="MultiTask"):
        LassoCV().fit(X, np.c_[y, y])
    with pytest.raises(ValueError, match="incompatible"):
        RidgeCV(cv=3, store_cv_results=True).fit(X, y)
    with pytest.raises(ValueError, match="alphas"):
        LassoCV(alphas=[-1.0, 1.0]).fit(X, y)


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("est", [RidgeCV, LassoCV, ElasticNetCV], ids=lambda c: c.__name__)
def test_check_estimator(est):
    from sklearn.utils.estimator_checks import check_estimator
    check_estimator(est(cv=3) if est is not RidgeCV else est())


def test_path_kernel_equals_composition(device):
    # kernels/cd_path.cuh against the composition it replaces (_paths), on
    # stacked problems of several folds and l1_ratios, with a constant
    # feature on one fold
    from ember.ml.linear_model import _cv
    rng = np.random.default_rng(0)
    B, p, n = 4, 6, 50
    Gs, qs, yys = [], [], []
    for b in range(B):
        X = rng.standard_normal((n, p))
        if b == 1:
            X[:, 2] = 0.0
        y = X @ rng.standard_normal(p) + 0.5 * rng.standard_normal(n)
        Gs.append(X.T @ X)
        qs.append(X.T @ y)
        yys.append(y @ y)
    G, q, yy = (E(np.array(a), device) for a in (Gs, qs, yys))
    amax = np.abs(np.array(qs)).max(axis=1) / n
    grid = amax[:, None] * np.geomspace(1, 1e-3, 12)[None, :]
    r = np.array([1.0, 0.5, 0.2, 1.0])[:, None]
    L1, L2 = grid * r * n, grid * (1 - r) * n
    for positive in (False, True):
        a = host(_cv._paths_kernel(G, q, yy, L1, L2, 1000, 1e-4, positive))
        b = host(_cv._paths(G, q, yy, L1, L2, 1000, 1e-4, positive, None))
        assert_allclose(a, b, rtol=1e-10, atol=1e-12)
        assert (a[1, :, 2] == 0).all()


def test_random_selection(device):
    X, y = diabetes()
    e = LassoCV(alphas=20, selection="random", random_state=0).fit(E(X, device),
                                                                   E(y, device))
    s = lm.LassoCV(alphas=20).fit(X, y)
    # another order of coordinates, the same minimisers to the tolerance
    assert_allclose(host(e.mse_path_), s.mse_path_, rtol=1e-3)
    assert e.alpha_ == pytest.approx(s.alpha_)
