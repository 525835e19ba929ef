"""ember.ml.linear_model's LogisticRegression, SGDClassifier and
SGDRegressor against scikit-learn on the same data, on every device."""
import pickle
import warnings

import numpy as np
import pytest

import ember
from ember.ml import linear_model as LM
from ember.ml.exceptions import ConvergenceWarning, NotFittedError

sk = pytest.importorskip("sklearn.linear_model")
from sklearn.base import clone  # noqa: E402
from sklearn.datasets import make_classification, make_regression  # noqa: E402
from sklearn.metrics import accuracy_score, r2_score  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402


def _cls(k, n=300, seed=0):
    X, y = make_classification(n, 6, n_informative=4, n_classes=k, random_state=seed)
    return X, y


def _np(a):
    return ember.asnumpy(a) if isinstance(a, ember.ndarray) else np.asarray(a)


def _objective(m, X, y, C):
    """scikit-learn's l2 objective, mean log loss plus |W|^2 / (2 C n)."""
    P = _np(m.predict_proba(X))
    idx = np.searchsorted(_np(m.classes_), y)
    return (-np.log(P[np.arange(len(y)), idx]).mean()
            + 0.5 / (C * len(y)) * (_np(m.coef_) ** 2).sum())


# ---- LogisticRegression -----------------------------------------------------

@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("kw", [{}, {"C": 0.1}, {"class_weight": "balanced"},
                                {"fit_intercept": False}])
def test_logistic_matches(device, k, kw):
    X, y = _cls(k)
    ref = sk.LogisticRegression(**kw).fit(X, y)
    Xe, ye = ember.asarray(X, device=device), ember.asarray(y, device=device)
    m = LM.LogisticRegression(**kw).fit(Xe, ye)
    assert m.coef_.shape == ref.coef_.shape and m.intercept_.shape == ref.intercept_.shape
    np.testing.assert_allclose(_np(m.coef_), ref.coef_, rtol=1e-3, atol=1e-4)
    np.testing.assert_allclose(_np(m.intercept_), ref.intercept_, rtol=1e-3, atol=1e-4)
    assert (_np(m.predict(Xe)) == ref.predict(X)).all()
    np.testing.assert_allclose(_np(m.predict_proba(Xe)), ref.predict_proba(X),
                               rtol=1e-3, atol=1e-5)
    np.testing.assert_allclose(_np(m.predict_log_proba(Xe)), ref.predict_log_proba(X),
                               rtol=1e-3, atol=1e-4)
    np.testing.assert_allclose(_np(m.decision_function(Xe)), ref.decision_function(X),
                               rtol=1e-3, atol=1e-4)
    if "class_weight" not in kw:
        C = kw.get("C", 1.0)
        assert _objective(m, Xe, y, C) <= _objective(ref, X, y, C) + 1e-7
    assert m.n_iter_.dtype == np.int32 and abs(int(m.n_iter_[0]) - ref.n_iter_[0]) <= 3


def test_logistic_tight_tol_weights_strings(device):
    X, y = _cls(3, seed=1)
    names = np.array(["x", "y", "z"])[y]
    sw = np.random.default_rng(0).uniform(0.2, 3.0, len(y))
    kw = dict(tol=1e-10, max_iter=1000, C=0.5)
    ref = sk.LogisticRegression(**kw).fit(X, names, sample_weight=sw)
    m = LM.LogisticRegression(**kw).fit(ember.asarray(X, device=device), names,
                                        sample_weight=sw)
    assert list(m.classes_) == list(ref.classes_)
    np.testing.assert_allclose(_np(m.coef_), ref.coef_, rtol=1e-6, atol=1e-8)
    assert (np.asarray(m.predict(ember.asarray(X, device=device))) ==
            ref.predict(X)).all()


def test_logistic_no_penalty_float32(device):
    X, y = _cls(2)
    ref = sk.LogisticRegression(C=np.inf, max_iter=1000, tol=1e-8).fit(X, y)
    m = LM.LogisticRegression(C=np.inf, max_iter=1000, tol=1e-8).fit(
        ember.asarray(X, device=device), ember.asarray(y, device=device))
    np.testing.assert_allclose(_np(m.coef_), ref.coef_, rtol=1e-4)
    X32 = ember.asarray(X.astype(np.float32), device=device)
    m32 = LM.LogisticRegression().fit(X32, ember.asarray(y, device=device))
    assert m32.coef_.dtype == ember.float32
    assert m32.predict_proba(X32).dtype == ember.float32
    r = sk.LogisticRegression().fit(X, y)
    np.testing.assert_allclose(_np(m32.coef_), r.coef_, rtol=2e-3, atol=2e-3)


@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("l1_ratio", [1.0, 0.5])
def test_logistic_l1_elasticnet(device, k, l1_ratio):
    X, y = _cls(k)
    kw = dict(l1_ratio=l1_ratio, solver="saga", C=0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = sk.LogisticRegression(tol=1e-10, max_iter=100000, **kw).fit(X, y)
    m = LM.LogisticRegression(tol=1e-8, max_iter=1000, **kw).fit(
        ember.asarray(X, device=device), ember.asarray(y, device=device))
    np.testing.assert_allclose(_np(m.coef_), ref.coef_, atol=1e-5)
    assert ((_np(m.coef_) == 0) == (ref.coef_ == 0)).all()
    d = LM.LogisticRegression(**kw).fit(X, y)  # default tol: the same predictions
    assert (d.predict(X) == ref.predict(X)).mean() >= 0.98


def test_logistic_penalty_spellings_and_errors():
    X, y = _cls(2, n=80)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = LM.LogisticRegression(penalty="l2", C=0.3).fit(X, y)
        n = LM.LogisticRegression(penalty=None, max_iter=500).fit(X, y)
    np.testing.assert_allclose(a.coef_, LM.LogisticRegression(C=0.3).fit(X, y).coef_)
    np.testing.assert_allclose(n.coef_, LM.LogisticRegression(C=np.inf, max_iter=500)
                               .fit(X, y).coef_)
    with pytest.raises(ValueError, match="supports only 'l2' or None"):
        LM.LogisticRegression(l1_ratio=1.0).fit(X, y)
    with pytest.raises(ValueError, match="C"):
        LM.LogisticRegression(C=0).fit(X, y)
    with pytest.raises(ValueError, match="solver"):
        LM.LogisticRegression(solver="magic").fit(X, y)
    with pytest.raises(NotImplementedError, match="liblinear"):
        LM.LogisticRegression(solver="liblinear").fit(X, y)
    with pytest.raises(ValueError, match="only one class"):
        LM.LogisticRegression().fit(X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="continuous"):
        LM.LogisticRegression().fit(X, X[:, 0])
    with pytest.raises(NotFittedError):
        LM.LogisticRegression().predict_proba(X)
    with pytest.warns(ConvergenceWarning):
        LM.LogisticRegression(max_iter=2).fit(X, y)


def test_logistic_warm_start_clone_pickle_pipeline():
    from sklearn.model_selection import GridSearchCV
    from sklearn.pipeline import make_pipeline
    X, y = _cls(3, n=150)
    m = LM.LogisticRegression(warm_start=True, tol=1e-8, max_iter=500).fit(X, y)
    it = m.n_iter_[0]
    m.fit(X, y)
    assert m.n_iter_[0] < it
    c = clone(m)
    assert c.get_params() == m.get_params() and not hasattr(c, "coef_")
    p = pickle.loads(pickle.dumps(m))
    np.testing.assert_array_equal(p.predict_proba(X), m.predict_proba(X))
    pipe = make_pipeline(StandardScaler(), LM.LogisticRegression()).fit(X, y)
    ref = make_pipeline(StandardScaler(), sk.LogisticRegression()).fit(X, y)
    assert (pipe.predict(X) == ref.predict(X)).all()
    gs = GridSearchCV(LM.LogisticRegression(), {"C": [0.01, 1.0]}, cv=3).fit(X, y)
    gr = GridSearchCV(sk.LogisticRegression(), {"C": [0.01, 1.0]}, cv=3).fit(X, y)
    assert gs.best_params_ == gr.best_params_


def test_classifier_score_uses_accuracy():
    pytest.importorskip("ember.ml.metrics")
    X, y = _cls(3, n=150)
    m = LM.LogisticRegression().fit(X, y)
    assert m.score(X, y) == pytest.approx(sk.LogisticRegression().fit(X, y).score(X, y))


# ---- SGD ------------------------------------------------------------------

@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("loss", ["hinge", "log_loss", "modified_huber",
                                  "squared_error"])
def test_sgd_classifier_quality(device, k, loss):
    X, y = _cls(k, n=1000)
    X = StandardScaler().fit_transform(X)
    ref = sk.SGDClassifier(loss=loss, random_state=0).fit(X, y)
    Xe = ember.asarray(X, device=device)
    accs = []
    for seed in range(3):
        m = LM.SGDClassifier(loss=loss, random_state=seed).fit(
            Xe, ember.asarray(y, device=device))
        accs.append(accuracy_score(y, _np(m.predict(Xe))))
    assert m.coef_.shape == ref.coef_.shape and m.intercept_.shape == ref.intercept_.shape
    # mini-batch SGD differs from scikit-learn's per-sample SGD; the fitted
    # model must be as good (the median of three seeds against one)
    assert np.median(accs) >= accuracy_score(y, ref.predict(X)) - 0.05
    if loss in ("log_loss", "modified_huber"):
        P = _np(m.predict_proba(Xe))
        assert P.shape == (len(y), k)
        np.testing.assert_allclose(P.sum(axis=1), 1, rtol=1e-6)
        assert (P.argmax(axis=1) == _np(m.predict(Xe))).mean() > 0.97
    else:
        with pytest.raises(AttributeError):
            m.predict_proba(Xe)


@pytest.mark.parametrize("penalty", ["l2", "l1", "elasticnet"])
@pytest.mark.parametrize("lr", ["constant", "optimal", "invscaling"])
def test_sgd_regressor_quality(device, penalty, lr):
    X, y = make_regression(600, 8, noise=5.0, random_state=0)
    ref = sk.SGDRegressor(penalty=penalty, learning_rate=lr, random_state=0).fit(X, y)
    Xe = ember.asarray(X, device=device)
    m = LM.SGDRegressor(penalty=penalty, learning_rate=lr, random_state=0).fit(
        Xe, ember.asarray(y, device=device))
    assert m.coef_.shape == ref.coef_.shape and m.intercept_.shape == (1,)
    assert r2_score(y, _np(m.predict(Xe))) >= r2_score(y, ref.predict(X)) - 0.005
    assert m.n_iter_ >= 1


def test_sgd_weights_penalties_float32_strings(device):
    X, y = _cls(2, n=600)
    X = StandardScaler().fit_transform(X)
    names = np.array(["no", "yes"])[y]
    kw = dict(loss="log_loss", penalty="l1", alpha=0.01, class_weight="balanced")
    m = LM.SGDClassifier(random_state=0, **kw).fit(X, names)
    ref = sk.SGDClassifier(random_state=0, **kw).fit(X, names)
    assert list(m.classes_) == ["no", "yes"]
    assert accuracy_score(names, m.predict(X)) >= ref.score(X, names) - 0.03
    # l1 zeroes coefficients as scikit-learn's does
    assert (m.coef_ == 0).sum() >= 1
    X32 = ember.asarray(X.astype(np.float32), device=device)
    m32 = LM.SGDClassifier(random_state=0).fit(X32, ember.asarray(y, device=device),
                                                sample_weight=np.ones(len(y)))
    assert m32.coef_.dtype == ember.float32
    assert m32.decision_function(X32).dtype == ember.float32
    # a strong l1 penalty zeroes every coefficient
    z = LM.SGDRegressor(penalty="l1", alpha=1e3, random_state=0).fit(X, y.astype(float))
    assert (z.coef_ == 0).all()


@pytest.mark.parametrize("k", [2, 3])
def test_sgd_early_stopping(device, k):
    # scikit-learn's validation split is held out (the same rows, in its
    # order): the fit equals one on the training rows alone for the epochs
    # it ran, and stops when the held-out accuracy stops improving by tol
    from sklearn.model_selection import ShuffleSplit, StratifiedShuffleSplit
    X, y = _cls(k, n=600)
    X = StandardScaler().fit_transform(X)
    names = np.array(["a", "b", "c"], dtype=object)[y]
    Xe = ember.asarray(X, device=device)
    kw = dict(loss="log_loss", random_state=0, n_iter_no_change=3)
    m = LM.SGDClassifier(early_stopping=True, validation_fraction=0.2, **kw).fit(
        Xe, names)
    ref = sk.SGDClassifier(early_stopping=True, validation_fraction=0.2, **kw).fit(
        X, names)
    assert m.n_iter_ < 1000 and abs(m.n_iter_ - ref.n_iter_) <= 10
    assert m.score(X, names) >= ref.score(X, names) - 0.05
    tr, _ = next(StratifiedShuffleSplit(test_size=0.2, random_state=0).split(X, names))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        alone = LM.SGDClassifier(tol=None, max_iter=m.n_iter_, **kw).fit(
            ember.asarray(X[tr], device=device), names[tr])
    np.testing.assert_allclose(_np(m.coef_), _np(alone.coef_), rtol=1e-10, atol=1e-12)
    # the regressor's split is ShuffleSplit's, its score R^2
    Xr, yr = make_regression(400, 6, noise=5.0, random_state=1)
    r = LM.SGDRegressor(early_stopping=True, random_state=0).fit(
        ember.asarray(Xr, device=device), ember.asarray(yr, device=device))
    rr = sk.SGDRegressor(early_stopping=True, random_state=0).fit(Xr, yr)
    assert abs(r.n_iter_ - rr.n_iter_) <= 5
    assert r2_score(yr, _np(r.predict(ember.asarray(Xr, device=device)))) >= \
        rr.score(Xr, yr) - 0.01
    tr, _ = next(ShuffleSplit(test_size=0.1, random_state=0).split(Xr))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        alone = LM.SGDRegressor(tol=None, max_iter=r.n_iter_, random_state=0).fit(
            ember.asarray(Xr[tr], device=device), ember.asarray(yr[tr], device=device))
    np.testing.assert_allclose(_np(r.coef_), _np(alone.coef_), rtol=1e-10, atol=1e-12)
    # scikit-learn's errors: a fraction outside (0, 1), a validation set
    # whose weights are all zero
    for bad in (0.0, 1.0, 1.5):
        with pytest.raises(ValueError, match="validation_fraction"):
            LM.SGDClassifier(early_stopping=True, validation_fraction=bad).fit(X, y)
        with pytest.raises(ValueError, match="validation_fraction"):
            sk.SGDClassifier(early_stopping=True, validation_fraction=bad).fit(X, y)
    _, va = next(ShuffleSplit(test_size=0.1, random_state=0).split(Xr))
    w = np.ones(len(yr))
    w[va] = 0
    with pytest.raises(ValueError, match="validation set are all zero"):
        LM.SGDRegressor(early_stopping=True, random_state=0).fit(Xr, yr, sample_weight=w)
    with pytest.raises(ValueError, match="validation set are all zero"):
        sk.SGDRegressor(early_stopping=True, random_state=0).fit(Xr, yr, sample_weight=w)


@pytest.mark.parametrize("k", [2, 3])
def test_sgd_average(device, k):
    X, y = _cls(k, n=1000)
    X = StandardScaler().fit_transform(X)
    Xe, ye = ember.asarray(X, device=device), ember.asarray(y, device=device)
    kw = dict(loss="modified_huber", penalty="elasticnet", random_state=0)
    # averaged SGD classifies as well as scikit-learn's averaged SGD
    m = LM.SGDClassifier(average=True, **kw).fit(Xe, ye)
    ref = sk.SGDClassifier(average=True, **kw).fit(X, y)
    assert accuracy_score(y, _np(m.predict(Xe))) >= ref.score(X, y) - 0.05
    # averaging that never starts leaves the plain iterate, as scikit-learn
    plain = LM.SGDClassifier(**kw).fit(Xe, ye)
    late = LM.SGDClassifier(average=10**9, **kw).fit(Xe, ye)
    np.testing.assert_allclose(_np(late.coef_), _np(plain.coef_), rtol=1e-10, atol=1e-12)
    # coef_ is the mean of the iterates: with one block an epoch (32 rows)
    # and no shuffle, two epochs average the first and second epochs' ends
    kw = dict(learning_rate="constant", eta0=0.01, shuffle=False, tol=None)
    Xs, ys = Xe[:32], ye[:32]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        one = LM.SGDClassifier(max_iter=1, **kw).fit(Xs, ys)
        two = LM.SGDClassifier(max_iter=2, **kw).fit(Xs, ys)
        avg = LM.SGDClassifier(max_iter=2, average=True, **kw).fit(Xs, ys)
        # warm_start goes on from the plain iterate and the running mean
        warm = LM.SGDClassifier(max_iter=1, average=True, warm_start=True, **kw)
        warm.fit(Xs, ys).fit(Xs, ys)
    want = (_np(one.coef_) + _np(two.coef_)) / 2
    np.testing.assert_allclose(_np(avg.coef_), want, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(_np(avg.intercept_),
                               (_np(one.intercept_) + _np(two.intercept_)) / 2,
                               rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(_np(warm.coef_), want, rtol=1e-10, atol=1e-12)
    # the regressor: R^2 as scikit-learn's averaged SGD
    Xr, yr = make_regression(2000, 20, noise=10.0, random_state=0)
    r = LM.SGDRegressor(average=True, random_state=0).fit(
        ember.asarray(Xr, device=device), ember.asarray(yr, device=device))
    rr = sk.SGDRegressor(average=True, random_state=0).fit(Xr, yr)
    assert r2_score(yr, _np(r.predict(ember.asarray(Xr, device=device)))) >= \
        rr.score(Xr, yr) - 0.005


def test_sgd_proba_in_scorers(device):
    # scikit-learn's scorers call the response method by its __name__ (its
    # plot_randomized_search scored every candidate NaN with "roc_auc_ovr")
    from sklearn.metrics import get_scorer, roc_auc_score
    from sklearn.model_selection import cross_val_score
    X, y = _cls(3, n=300)
    X = StandardScaler().fit_transform(X)
    with ember.Device(device):
        m = LM.SGDClassifier(loss="modified_huber", random_state=0)
        scores = cross_val_score(m, X, y, scoring="roc_auc_ovr", error_score="raise")
        m.fit(X, y)
    ref = cross_val_score(sk.SGDClassifier(loss="modified_huber", random_state=0), X, y,
                          scoring="roc_auc_ovr")
    assert np.isfinite(scores).all() and scores.mean() >= ref.mean() - 0.05
    assert m.predict_proba.__name__ == "predict_proba"
    assert m.predict_log_proba.__name__ == "predict_log_proba"
    assert get_scorer("roc_auc_ovr")(m, X, y) == pytest.approx(
        roc_auc_score(y, _np(m.predict_proba(X)), multi_class="ovr"), rel=1e-12)
    assert get_scorer("neg_log_loss")(LM.SGDClassifier(loss="log_loss", random_state=0)
                                      .fit(X, y), X, y) < 0


def test_sgd_errors():
    X, y = _cls(2, n=100)
    with pytest.raises(NotImplementedError, match="perceptron"):
        LM.SGDClassifier(loss="perceptron").fit(X, y)
    with pytest.raises(ValueError, match="loss"):
        LM.SGDClassifier(loss="nope").fit(X, y)
    with pytest.raises(ValueError, match="penalty"):
        LM.SGDRegressor(penalty="l3").fit(X, y)
    for bad in (-1, 0, 1.5):
        with pytest.raises(ValueError, match="'average' parameter of SGDRegressor"):
            LM.SGDRegressor(average=bad).fit(X, y * 1.0)
        with pytest.raises(ValueError, match="'average' parameter of SGDRegressor"):
            sk.SGDRegressor(average=bad).fit(X, y * 1.0)
    with pytest.raises(ValueError, match="one"):
        LM.SGDClassifier().fit(X, np.ones(len(y)))
    with pytest.warns(ConvergenceWarning):
        LM.SGDRegressor(max_iter=1, random_state=0).fit(X, y.astype(float))
    with pytest.raises(NotFittedError):
        LM.SGDRegressor().predict(X)
    m = pickle.loads(pickle.dumps(LM.SGDRegressor(random_state=0).fit(X, y * 1.0)))
    assert m.predict(X).shape == (len(y),)
