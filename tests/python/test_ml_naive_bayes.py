"""ember.ml.naive_bayes against scikit-learn on the same data."""
import pickle

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

import ember
from ember.ml.exceptions import NotFittedError
from ember.ml.naive_bayes import GaussianNB, MultinomialNB

nb = pytest.importorskip("sklearn.naive_bayes")


def gauss(n=240, p=5, k=3, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    X = rng.standard_normal((n, p)) * (1 + y[:, None]) + y[:, None] * 1.5
    return X, y


def host(a):
    return ember.asnumpy(a) if isinstance(a, ember.ndarray) else np.asarray(a)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_gaussian_matches(device, dtype):
    X, y = gauss()
    X = X.astype(dtype)
    w = np.random.default_rng(1).uniform(0.5, 2, len(y))
    for sw in (None, w):
        e = GaussianNB().fit(ember.asarray(X, device=device), ember.asarray(y, device=device),
                             sample_weight=None if sw is None else ember.asarray(sw, device=device))
        s = nb.GaussianNB().fit(X, y, sample_weight=sw)
        tol = 1e-4 if dtype == np.float32 else 1e-9
        for a in ("theta_", "var_", "class_count_", "class_prior_"):
            assert_allclose(host(getattr(e, a)), getattr(s, a), rtol=tol, atol=tol)
        assert_allclose(e.epsilon_, s.epsilon_, rtol=1e-5)
        Xe = ember.asarray(X, device=device)
        assert_array_equal(host(e.predict(Xe)), s.predict(X))
        assert_allclose(host(e.predict_proba(Xe)), s.predict_proba(X), rtol=1e-3, atol=1e-6)
        assert_allclose(host(e.predict_log_proba(Xe)), s.predict_log_proba(X),
                        rtol=1e-3, atol=1e-4)
        assert e.predict_proba(Xe).dtype == dtype


def test_gaussian_partial_fit_priors_strings(device):
    X, y = gauss()
    labels = np.array(["ant", "bee", "cat"])[y]
    e, s = GaussianNB(), nb.GaussianNB()
    for sl in (slice(0, 100), slice(100, 240)):
        e.partial_fit(X[sl], labels[sl], classes=["ant", "bee", "cat"])
        s.partial_fit(X[sl], labels[sl], classes=["ant", "bee", "cat"])
    assert_allclose(e.theta_, s.theta_, rtol=1e-9)
    assert_allclose(e.var_, s.var_, rtol=1e-9)
    assert_array_equal(e.predict(X), s.predict(X))
    assert list(e.classes_) == list(s.classes_)
    p = GaussianNB(priors=[0.2, 0.3, 0.5]).fit(X, y)
    q = nb.GaussianNB(priors=[0.2, 0.3, 0.5]).fit(X, y)
    assert_allclose(p.predict_proba(X), q.predict_proba(X), rtol=1e-6, atol=1e-12)
    assert e.score(X, labels) == s.score(X, labels)
    with pytest.raises(ValueError, match="sum of the priors"):
        GaussianNB(priors=[0.2, 0.3, 0.6]).fit(X, y)
    with pytest.raises(ValueError, match="do not exist"):
        e.partial_fit(X[:3], ["ant", "dog", "cat"])


def test_multinomial_matches(device):
    rng = np.random.default_rng(2)
    y = rng.integers(0, 4, 300)
    X = rng.poisson(1 + y[:, None] * np.arange(6), (300, 6)).astype(float)
    Xe, ye = ember.asarray(X, device=device), ember.asarray(y, device=device)
    for kw in ({}, {"alpha": 0.5}, {"fit_prior": False}, {"class_prior": [.1, .2, .3, .4]}):
        e = MultinomialNB(**kw).fit(Xe, ye)
        s = nb.MultinomialNB(**kw).fit(X, y)
        for a in ("feature_count_", "class_count_", "feature_log_prob_", "class_log_prior_"):
            assert_allclose(host(getattr(e, a)), getattr(s, a), rtol=1e-10, atol=1e-12)
        assert_array_equal(host(e.predict(Xe)), s.predict(X))
        assert_allclose(host(e.predict_proba(Xe)), s.predict_proba(X), rtol=1e-8, atol=1e-12)
    e = MultinomialNB()
    s = nb.MultinomialNB()
    for sl in (slice(0, 120), slice(120, 300)):
        e.partial_fit(Xe[sl], ye[sl], classes=[0, 1, 2, 3])
        s.partial_fit(X[sl], y[sl], classes=[0, 1, 2, 3])
    assert_allclose(host(e.feature_log_prob_), s.feature_log_prob_, rtol=1e-10)
    with pytest.raises(ValueError, match="Negative values"):
        MultinomialNB().fit(-Xe, ye)


def test_errors_pickle_output_kind(device):
    X, y = gauss()
    with pytest.raises(NotFittedError):
        GaussianNB().predict(X)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        GaussianNB().fit(X, y[:-1])
    with pytest.raises(ValueError, match="continuous"):
        GaussianNB().fit(X, X[:, 0])
    with pytest.raises(ValueError, match="classes must be passed"):
        GaussianNB().partial_fit(X, y)
    e = GaussianNB().fit(X, y)
    assert isinstance(e.predict(X), np.ndarray) and isinstance(e.theta_, np.ndarray)
    e2 = pickle.loads(pickle.dumps(e))
    assert_array_equal(e2.predict(X), e.predict(X))
    ee = GaussianNB().fit(ember.asarray(X, device=device), ember.asarray(y, device=device))
    assert isinstance(ee.predict(ember.asarray(X, device=device)), ember.ndarray)
