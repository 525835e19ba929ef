"""ember.ml.linear_model's least-squares family (LinearRegression, Ridge,
RidgeClassifier, Lasso, ElasticNet) against scikit-learn on the same data,
on every device."""
import pickle
import warnings

import numpy as np
import pytest

import ember
from ember.ml import linear_model as LM
from ember.ml.exceptions import NotFittedError

sk = pytest.importorskip("sklearn.linear_model")
from sklearn.base import clone  # noqa: E402


def _data(n=60, p=5, seed=0, targets=None):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    w = rng.normal(size=p)
    y = X @ w + 0.1 * rng.normal(size=n) + 3.0
    if targets:
        y = np.c_[y, -2 * y + rng.normal(size=n)]
    return X, y, rng.uniform(0.5, 2.0, n)


def _on(device, *arrs):
    return [ember.asarray(a, device=device) for a in arrs]


def _close(a, b, rtol=1e-5, atol=1e-8):
    a = ember.asnumpy(a) if isinstance(a, ember.ndarray) else a
    np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)


# ---- LinearRegression -----------------------------------------------------

@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("targets", [False, True])
def test_linear_regression_matches(device, fit_intercept, weighted, targets):
    X, y, sw = _data(targets=targets)
    kw = {"sample_weight": sw} if weighted else {}
    ref = sk.LinearRegression(fit_intercept=fit_intercept).fit(X, y, **kw)
    Xe, ye, swe = _on(device, X, y, sw)
    m = LM.LinearRegression(fit_intercept=fit_intercept).fit(
        Xe, ye, **({"sample_weight": swe} if weighted else {}))
    assert isinstance(m.coef_, ember.ndarray) and m.coef_.shape == ref.coef_.shape
    _close(m.coef_, ref.coef_)
    _close(m.intercept_, ref.intercept_)
    assert m.rank_ == ref.rank_
    _close(m.singular_, ref.singular_)
    _close(m.predict(Xe), ref.predict(X))
    if not targets:
        assert isinstance(m.intercept_, float)


def test_linear_regression_rank_deficient_min_norm(device):
    X, y, _ = _data()
    Xd = np.c_[X, X[:, 0] - 2 * X[:, 1], np.zeros(len(X))]
    ref = sk.LinearRegression().fit(Xd, y)
    m = LM.LinearRegression().fit(*_on(device, Xd, y))
    assert m.rank_ == ref.rank_ == 5
    _close(m.coef_, ref.coef_, atol=1e-10)
    _close(m.singular_, ref.singular_, atol=1e-10)


def test_linear_regression_ill_conditioned(device):
    # cond(X) ~ 1e6: past the normal equations' limit, so lstsq runs
    X, y, _ = _data()
    rng = np.random.default_rng(1)
    Xi = np.c_[X, X[:, 0] + 1e-6 * rng.normal(size=len(X))]
    ref = sk.LinearRegression().fit(Xi, y)
    m = LM.LinearRegression().fit(*_on(device, Xi, y))
    assert m._gram is None and m.rank_ == ref.rank_ == 5  # tol=1e-6 cuts one
    _close(m.coef_, ref.coef_, rtol=1e-6, atol=1e-6)
    _close(m.predict(ember.asarray(Xi, device=device)), ref.predict(Xi), atol=1e-9)


def test_linear_regression_wide(device):
    X, y, _ = _data(n=6, p=10)
    ref = sk.LinearRegression().fit(X, y)
    m = LM.LinearRegression().fit(*_on(device, X, y))
    _close(m.coef_, ref.coef_, atol=1e-10)
    assert m.rank_ == ref.rank_


def test_linear_regression_float32_numpy_pandas(device):
    pd = pytest.importorskip("pandas")
    X, y, _ = _data()
    X32, y32 = X.astype(np.float32), y.astype(np.float32)
    ref = sk.LinearRegression().fit(X, y)
    m = LM.LinearRegression().fit(*_on(device, X32, y32))
    assert m.coef_.dtype == ember.float32 and m.predict(ember.asarray(
        X32, device=device)).dtype == ember.float32
    _close(m.coef_, ref.coef_, rtol=1e-4, atol=1e-4)
    mn = LM.LinearRegression().fit(X, y)
    assert isinstance(mn.coef_, np.ndarray) and isinstance(mn.predict(X), np.ndarray)
    _close(mn.coef_, ref.coef_)
    df = pd.DataFrame(X, columns=[f"c{i}" for i in range(X.shape[1])])
    mp = LM.LinearRegression().fit(df, pd.Series(y))
    assert list(mp.feature_names_in_) == list(df.columns)
    _close(mp.predict(df), ref.predict(X))


def test_linear_regression_ember_frame(device):
    X, y, _ = _data()
    cols = {f"c{i}": ember.asarray(X[:, i], device=device) for i in range(X.shape[1])}
    df = ember.frame.DataFrame(cols)
    m = LM.LinearRegression().fit(df, ember.asarray(y, device=device))
    assert isinstance(m.coef_, ember.ndarray)
    _close(m.coef_, sk.LinearRegression().fit(X, y).coef_)


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_linear_regression_positive(device, fit_intercept, weighted, dtype):
    # scikit-learn's plot_nnls: half the true coefficients zero, so the
    # bound is active on several; SciPy's nnls is the reference
    rng = np.random.RandomState(42)
    X = rng.randn(200, 50)
    true = 3 * rng.randn(50)
    true[true < 0] = 0
    y = X @ true + 5 * rng.normal(size=200)
    Y = np.c_[y, X[:, 0] - y]
    sw = rng.rand(200) if weighted else None
    X, Y = X.astype(dtype), Y.astype(dtype)
    tol = 2e-3 if dtype == np.float32 else 1e-9
    for yy in (Y[:, 0], Y):
        m = LM.LinearRegression(positive=True, fit_intercept=fit_intercept).fit(
            ember.asarray(X, device=device), ember.asarray(yy, device=device),
            sample_weight=sw)
        ref = sk.LinearRegression(positive=True, fit_intercept=fit_intercept).fit(
            X, yy, sample_weight=sw)
        assert m.coef_.shape == ref.coef_.shape
        _close(m.coef_, ref.coef_, rtol=tol, atol=tol)
        _close(m.intercept_, ref.intercept_, rtol=tol, atol=tol)
        assert (ember.asnumpy(m.coef_) >= 0).all()
        # the same active set (the weights held at zero)
        np.testing.assert_array_equal(ember.asnumpy(m.coef_) == 0, ref.coef_ == 0)
        assert not hasattr(m, "rank_") and not hasattr(m, "singular_")


def test_linear_regression_errors():
    X, y, _ = _data()
    with pytest.raises(NotFittedError):
        LM.LinearRegression().predict(X)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        LM.LinearRegression(positive=True).fit(X, y[:-1])
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        LM.LinearRegression().fit(X, y[:-1])
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        LM.LinearRegression().fit(Xn, y)
    m = LM.LinearRegression().fit(X, y)
    with pytest.raises(ValueError, match="features"):
        m.predict(X[:, :3])
    with pytest.raises(ValueError, match="sample_weight"):
        LM.LinearRegression().fit(X, y, sample_weight=np.ones(3))


def test_linear_regression_params_clone_pickle_pipeline():
    from sklearn.model_selection import GridSearchCV
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    X, y, _ = _data()
    m = LM.LinearRegression(fit_intercept=False)
    assert m.get_params()["fit_intercept"] is False
    assert "fit_intercept=False" in repr(m)
    c = clone(m).set_params(fit_intercept=True)
    assert c.fit_intercept and not m.fit_intercept
    m.fit(X, y)
    m2 = pickle.loads(pickle.dumps(m))
    _close(m2.predict(X), m.predict(X))
    pipe = make_pipeline(StandardScaler(), LM.LinearRegression()).fit(X, y)
    ref = make_pipeline(StandardScaler(), sk.LinearRegression()).fit(X, y)
    _close(pipe.predict(X), ref.predict(X))
    gs = GridSearchCV(LM.Ridge(), {"alpha": [0.1, 10.0]}, cv=3).fit(X, y)
    gr = GridSearchCV(sk.Ridge(), {"alpha": [0.1, 10.0]}, cv=3).fit(X, y)
    assert gs.best_params_ == gr.best_params_


def test_score_uses_r2():
    metrics = pytest.importorskip("ember.ml.metrics")
    assert hasattr(metrics, "r2_score")
    X, y, _ = _data()
    m = LM.LinearRegression().fit(X[:40], y[:40])
    r = sk.LinearRegression().fit(X[:40], y[:40])
    assert m.score(X[40:], y[40:]) == pytest.approx(r.score(X[40:], y[40:]), rel=1e-9)


# ---- Ridge ----------------------------------------------------------------

@pytest.mark.parametrize("solver", ["auto", "cholesky", "svd", "lsqr"])
@pytest.mark.parametrize("shape", [(60, 5), (8, 20)])
def test_ridge_matches(device, solver, shape):
    X, y, sw = _data(*shape, targets=True)
    alpha = np.array([0.5, 3.0])
    ref = sk.Ridge(alpha=alpha, solver="svd" if solver == "svd" else "cholesky").fit(
        X, y, sample_weight=sw)
    Xe, ye, swe = _on(device, X, y, sw)
    m = LM.Ridge(alpha=alpha, solver=solver).fit(Xe, ye, sample_weight=swe)
    _close(m.coef_, ref.coef_, atol=1e-10)
    _close(m.intercept_, ref.intercept_)
    m1 = LM.Ridge(alpha=2.0, fit_intercept=False).fit(Xe, ye[:, 0])
    r1 = sk.Ridge(alpha=2.0, fit_intercept=False).fit(X, y[:, 0])
    _close(m1.coef_, r1.coef_)
    assert m1.intercept_ == 0.0


def test_ridge_errors():
    X, y, _ = _data()
    with pytest.raises(ValueError, match="alpha"):
        LM.Ridge(alpha=-1.0).fit(X, y)
    with pytest.raises(ValueError, match="solver"):
        LM.Ridge(solver="nope").fit(X, y)
    with pytest.raises(ValueError, match="Number of targets"):
        LM.Ridge(alpha=[1.0, 2.0, 3.0]).fit(X, np.c_[y, y])
    with pytest.raises(NotImplementedError):
        LM.Ridge(positive=True).fit(X, y)


@pytest.mark.parametrize("k", [2, 3])
def test_ridge_classifier(device, k):
    X, y, sw = _data(n=90)
    labels = np.digitize(y, np.quantile(y, np.linspace(0, 1, k + 1)[1:-1]))
    names = np.array(["ant", "bee", "cat"])[labels]
    ref = sk.RidgeClassifier(class_weight="balanced").fit(X, names, sample_weight=sw)
    m = LM.RidgeClassifier(class_weight="balanced").fit(
        ember.asarray(X, device=device), names, sample_weight=sw)
    assert list(m.classes_) == list(ref.classes_)
    _close(m.coef_, ref.coef_)
    _close(m.intercept_, ref.intercept_)
    Xe = ember.asarray(X, device=device)
    assert (np.asarray(m.predict(Xe)) == ref.predict(X)).all()
    _close(m.decision_function(Xe), ref.decision_function(X))
    mi = LM.RidgeClassifier().fit(Xe, ember.asarray(labels, device=device))
    ri = sk.RidgeClassifier().fit(X, labels)
    pred = mi.predict(Xe)
    assert isinstance(pred, ember.ndarray)
    assert (ember.asnumpy(pred) == ri.predict(X)).all()


# ---- Lasso / ElasticNet -----------------------------------------------------

def _sparse_data(n, p, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = X[:, :3] @ np.array([1.5, -2.0, 0.5]) + 0.1 * rng.normal(size=n) + 2.0
    return X, y, rng.uniform(0.5, 2.0, n)


@pytest.mark.parametrize("shape", [(80, 8), (20, 40)])
@pytest.mark.parametrize("cls,kw", [
    ("Lasso", {"alpha": 0.1}),
    ("ElasticNet", {"alpha": 0.1, "l1_ratio": 0.3}),
    ("Lasso", {"alpha": 0.05, "positive": True}),
    ("ElasticNet", {"alpha": 0.2, "fit_intercept": False}),
])
def test_enet_matches(device, shape, cls, kw):
    X, y, sw = _sparse_data(*shape)
    Xe, ye, swe = _on(device, X, y, sw)
    for fkw, efkw in [({}, {}), ({"sample_weight": sw}, {"sample_weight": swe})]:
        ref = getattr(sk, cls)(**kw).fit(X, y, **fkw)
        m = getattr(LM, cls)(**kw).fit(Xe, ye, **efkw)
        _close(m.coef_, ref.coef_, rtol=0, atol=1e-6)
        assert m.intercept_ == pytest.approx(ref.intercept_, abs=1e-6)
        # the same updates in the same order: the same sweep count and gap
        assert m.n_iter_ == ref.n_iter_
        assert m.dual_gap_ == pytest.approx(ref.dual_gap_, rel=1e-4, abs=1e-12)
        _close(m.predict(Xe), ref.predict(X), atol=1e-6)


def test_enet_multitarget_warm_start_random(device):
    X, y, _ = _sparse_data(60, 6)
    Y = np.c_[y, 0.5 * y + X[:, 4]]
    Xe, Ye = _on(device, X, Y)
    ref = sk.ElasticNet(alpha=0.05, tol=1e-10).fit(X, Y)
    m = LM.ElasticNet(alpha=0.05, tol=1e-10).fit(Xe, Ye)
    _close(m.coef_, ref.coef_, rtol=0, atol=1e-6)
    _close(m.intercept_, ref.intercept_, rtol=0, atol=1e-6)
    assert list(m.n_iter_) == list(ref.n_iter_)
    r = LM.Lasso(alpha=0.1, selection="random", random_state=np.random.RandomState(0),
                 tol=1e-10).fit(Xe, Ye[:, 0])
    rr = sk.Lasso(alpha=0.1, tol=1e-10).fit(X, y)
    _close(r.coef_, rr.coef_, rtol=0, atol=1e-6)
    w = LM.Lasso(alpha=0.1, warm_start=True, tol=1e-10).fit(Xe, Ye[:, 0])
    w.set_params(alpha=0.1).fit(Xe, Ye[:, 0])
    assert w.n_iter_ <= 1
    _close(w.coef_, rr.coef_, rtol=0, atol=1e-6)


def test_enet_float32(device):
    X, y, _ = _sparse_data(80, 8)
    ref = sk.Lasso(alpha=0.1).fit(X, y)
    m = LM.Lasso(alpha=0.1).fit(*_on(device, X.astype(np.float32), y.astype(np.float32)))
    assert m.coef_.dtype == ember.float32
    _close(m.coef_, ref.coef_, rtol=0, atol=1e-4)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_enet_precomputed_gram_with_weights(device, dtype):
    # scikit-learn's plot_elastic_net_precomputed_gram_matrix_with_weighted_samples:
    # X centred with the weights' means, the Gram of X scaled by sqrt(weights)
    from sklearn.datasets import make_regression
    rng = np.random.RandomState(0)
    n = 2000
    X, y = make_regression(n_samples=n, n_features=30, noise=0.5, random_state=rng)
    sw = rng.lognormal(size=n)
    sw = sw * (n / sw.sum())
    Xc = (X - np.average(X, axis=0, weights=sw)).astype(dtype)
    y = y.astype(dtype)
    Xs = Xc * np.sqrt(sw).astype(dtype)[:, None]
    G = Xs.T @ Xs
    m = LM.ElasticNet(alpha=0.01, precompute=G).fit(
        ember.asarray(Xc, device=device), ember.asarray(y, device=device),
        sample_weight=ember.asarray(sw, device=device))
    ref = sk.ElasticNet(alpha=0.01, precompute=G).fit(Xc, y, sample_weight=sw)
    tol = 1e-4 if dtype == np.float32 else 1e-10
    _close(m.coef_, ref.coef_, rtol=tol, atol=tol)
    assert float(m.intercept_) == pytest.approx(float(ref.intercept_), rel=tol)
    assert m.n_iter_ == ref.n_iter_
    # a Gram that X's offsets would move is recomputed, with scikit-learn's warning
    with ember.Device(device):
        with pytest.warns(UserWarning, match="recomputing Gram matrix"):
            moved = LM.ElasticNet(alpha=0.01, precompute=G).fit(Xc + 1, y,
                                                                sample_weight=sw)
        _close(moved.coef_, ref.coef_, rtol=tol, atol=tol)
        # one wrong element is scikit-learn's ValueError
        with pytest.raises(ValueError, match=r"For element \(15,16\)"):
            LM.ElasticNet(precompute=2 * G, fit_intercept=False).fit(Xc, y,
                                                                     sample_weight=sw)
    with pytest.raises(ValueError, match=r"For element \(15,16\)"):
        sk.ElasticNet(precompute=2 * G, fit_intercept=False).fit(Xc, y, sample_weight=sw)


def test_enet_errors_and_warnings():
    from ember.ml.exceptions import ConvergenceWarning
    X, y, _ = _sparse_data(30, 4)
    with pytest.raises(ValueError, match="l1_ratio"):
        LM.ElasticNet(l1_ratio=1.5).fit(X, y)
    with pytest.raises(ValueError, match="alpha"):
        LM.Lasso(alpha=-0.1).fit(X, y)
    with pytest.raises(ValueError, match="selection"):
        LM.Lasso(selection="best").fit(X, y)
    with pytest.raises(ValueError, match="did not pass validation"):
        LM.Lasso(precompute=np.eye(4), fit_intercept=False).fit(X, y)
    with pytest.raises(ValueError, match=r"shape \(3, 3\).*must be \(4, 4\)"):
        LM.Lasso(precompute=np.eye(3), fit_intercept=False).fit(X, y)
    with pytest.raises(ValueError, match="'precompute' parameter"):
        LM.Lasso(precompute="always").fit(X, y)
    with pytest.warns(ConvergenceWarning):
        LM.Lasso(alpha=1e-4, max_iter=2, tol=1e-12).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert LM.Lasso(alpha=0.0).fit(X, y).coef_.shape == (4,)
    assert "alpha" in LM.Lasso().get_params() and "l1_ratio" not in LM.Lasso().get_params()
    m = pickle.loads(pickle.dumps(LM.Lasso(alpha=0.2).fit(X, y)))
    _close(m.coef_, sk.Lasso(alpha=0.2).fit(X, y).coef_, rtol=0, atol=1e-6)
