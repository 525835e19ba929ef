"""ember.ml.ensemble against scikit-learn on the same data: histogram trees
match exact ones where every distinct value gets its own bin, and reach
the same accuracy otherwise."""
import pickle

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

import ember
from ember.ml.ensemble import RandomForestClassifier, RandomForestRegressor
from ember.ml.exceptions import NotFittedError

ske = pytest.importorskip("sklearn.ensemble")
from sklearn.datasets import make_classification, make_regression  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402


def host(a):
    return ember.asnumpy(a) if isinstance(a, ember.ndarray) else np.asarray(a)


@pytest.mark.parametrize("max_depth", [3, None])
def test_classifier_accuracy_as_sklearn(device, max_depth):
    X, y = make_classification(1500, 8, n_informative=5, random_state=0)
    Xt, yt, Xv, yv = X[:1000], y[:1000], X[1000:], y[1000:]
    e = RandomForestClassifier(25, max_depth=max_depth, random_state=0)
    e.fit(ember.asarray(Xt, device=device), ember.asarray(yt, device=device))
    s = ske.RandomForestClassifier(25, max_depth=max_depth, random_state=0).fit(Xt, yt)
    acc = float((host(e.predict(ember.asarray(Xv, device=device))) == yv).mean())
    assert abs(acc - s.score(Xv, yv)) <= 0.03, (acc, s.score(Xv, yv))
    P = host(e.predict_proba(ember.asarray(Xv, device=device)))
    assert P.shape == (500, 2)
    assert_allclose(P.sum(axis=1), 1.0)
    imp = host(e.feature_importances_)
    assert_allclose(imp.sum(), 1.0)
    # the informative features carry the importance in both
    assert set(np.argsort(imp)[-3:]) <= set(np.argsort(s.feature_importances_)[-5:])


def test_one_exact_tree_equals_sklearn(device):
    # few distinct values: every threshold scikit-learn considers is a bin
    # edge, so one tree without bootstrap or feature sampling is the exact
    # tree (a unique best split at each node on this data)
    rng = np.random.default_rng(3)
    X = rng.integers(0, 12, (400, 3)).astype(float)
    y = ((X[:, 0] > 5) ^ (X[:, 1] > 8)).astype(int) + (X[:, 2] > 10)
    e = RandomForestClassifier(1, bootstrap=False, max_features=None, random_state=0)
    e.fit(ember.asarray(X, device=device), ember.asarray(y, device=device))
    s = DecisionTreeClassifier(random_state=0).fit(X, y)
    G = np.stack(np.meshgrid(np.arange(-1, 13), np.arange(-1, 13), np.arange(-1, 13)),
                 -1).reshape(-1, 3).astype(float) + 0.25
    assert_array_equal(host(e.predict(ember.asarray(G, device=device))), s.predict(G))
    assert float((host(e.predict(ember.asarray(X, device=device))) == y).mean()) == 1.0


def test_regressor_as_sklearn(device):
    X, y = make_regression(1500, 6, noise=5.0, random_state=1)
    Xt, yt, Xv, yv = X[:1000], y[:1000], X[1000:], y[1000:]
    e = RandomForestRegressor(25, max_depth=8, random_state=0)
    e.fit(ember.asarray(Xt, device=device), ember.asarray(yt, device=device))
    s = ske.RandomForestRegressor(25, max_depth=8, random_state=0).fit(Xt, yt)
    pe = host(e.predict(ember.asarray(Xv, device=device)))
    r2 = 1 - ((pe - yv) ** 2).sum() / ((yv - yv.mean()) ** 2).sum()
    assert abs(r2 - s.score(Xv, yv)) <= 0.03, (r2, s.score(Xv, yv))


def test_labels_float32_pickle_and_errors():
    X, y = make_classification(300, 5, random_state=2)
    labels = np.array(["no", "yes"])[y]
    e = RandomForestClassifier(5, max_depth=4, random_state=0).fit(X.astype(np.float32),
                                                                   labels)
    assert list(e.classes_) == ["no", "yes"]
    pred = e.predict(X.astype(np.float32))
    assert isinstance(pred, np.ndarray) and set(pred) <= {"no", "yes"}
    assert e.score(X.astype(np.float32), labels) > 0.8
    e2 = pickle.loads(pickle.dumps(e))
    assert_array_equal(e2.predict(X.astype(np.float32)), pred)
    with pytest.raises(NotFittedError):
        RandomForestClassifier().predict(X)
    with pytest.raises(NotImplementedError, match="criterion"):
        RandomForestClassifier(criterion="entropy").fit(X, y)
    with pytest.raises(ValueError, match="criterion"):
        RandomForestClassifier(criterion="nope").fit(X, y)
    with pytest.raises(ValueError, match="bootstrap=True"):
        RandomForestClassifier(oob_score=True, bootstrap=False).fit(X, y)
    with pytest.raises(ValueError, match="max_features"):
        RandomForestClassifier(max_features="half").fit(X, y)
    with pytest.raises(ValueError, match="continuous"):
        RandomForestClassifier().fit(X, X[:, 0])
    with pytest.raises(ValueError, match="contains NaN"):
        RandomForestRegressor().fit(np.array([[np.nan], [1.0]]), [1.0, 2.0])


def test_estimators_views(device):
    X, y = make_classification(400, 6, random_state=4)
    Xe = ember.asarray(X, device=device)
    e = RandomForestClassifier(4, max_depth=5, random_state=0).fit(Xe, ember.asarray(y, device=device))
    trees = e.estimators_
    assert len(trees) == 4
    # the forest's probabilities are the mean of its trees'
    mean = sum(host(t.predict_proba(Xe)) for t in trees) / 4
    assert_allclose(host(e.predict_proba(Xe)), mean, rtol=1e-12)
    assert_allclose(sum(t.feature_importances_ for t in trees) / 4,
                    host(e.feature_importances_), rtol=1e-12)
    assert all(1 <= t.get_depth() <= 5 and t.get_n_leaves() >= 2 for t in trees)
    assert set(host(trees[0].predict(Xe))) <= {0.0, 1.0}
