"""Trees and forests beyond one output: several outputs, minimal
cost-complexity pruning, out-of-bag scores and warm starts. Where every
value of a feature has its own bin (integer features with fewer values
than max_bins) the trees are scikit-learn's exact trees, so their arrays,
pruning paths and pruned trees are compared with scikit-learn's; forests
draw their own bootstraps, so their out-of-bag results are checked against
a hand computation from their own trees and in-bag rows."""
import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from ember.ml.ensemble import (ExtraTreesClassifier, ExtraTreesRegressor,
                               RandomForestClassifier, RandomForestRegressor)
from ember.ml.tree import DecisionTreeClassifier, DecisionTreeRegressor
from test_ml_tree import E, few_values, host  # the tree tests' data and helpers

sk_tree = pytest.importorskip("sklearn.tree")


def two_labels(seed=4):
    X, y = few_values(seed)
    rng = np.random.default_rng(seed + 1)
    y2 = np.where((X[:, 2] > 30) & (rng.random(len(y)) > 0.1), 7, 5)
    return X, np.stack([y, y2], axis=1)


def two_targets(seed=0):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 100, (400, 3)).astype(float)
    y1 = 3 * (X[:, 0] > 60) + np.sin(X[:, 1] / 10) + rng.standard_normal(400) * 0.1
    y2 = 1e-3 * X[:, 2] ** 2 - 2 * (X[:, 1] > 30) + rng.standard_normal(400) * 0.1
    return X, np.stack([y1, y2], axis=1)


def assert_same_tree(e, s):
    a, b = e.tree_, s.tree_
    assert a.node_count == b.node_count
    assert a.n_outputs == b.n_outputs
    assert_array_equal(a.n_classes, b.n_classes)
    assert_array_equal(a.children_left, b.children_left)
    assert_array_equal(a.children_right, b.children_right)
    assert_array_equal(a.feature, b.feature)
    assert_allclose(a.threshold, b.threshold)
    assert_array_equal(a.n_node_samples, b.n_node_samples)
    assert_allclose(a.weighted_n_node_samples, b.weighted_n_node_samples)
    assert_allclose(a.impurity, b.impurity, atol=1e-12)
    assert_allclose(a.value, b.value, rtol=1e-12, atol=1e-12)
    assert a.max_depth == b.max_depth and a.n_leaves == b.n_leaves


# ---- several outputs

# parameters under which scikit-learn grows one tree for every random_state
# (no tied best splits, which it breaks by its feature permutation)
@pytest.mark.parametrize("params", [{"max_depth": 4}, {"max_depth": 4, "criterion": "entropy"},
                                    {"max_leaf_nodes": 12}])
def test_multioutput_classifier_is_sklearns_tree(device, params):
    X, Y = two_labels()
    e = DecisionTreeClassifier(**params).fit(E(X, device), E(Y, device))
    s = sk_tree.DecisionTreeClassifier(random_state=0, **params).fit(X, Y)
    assert_same_tree(e, s)
    assert e.n_outputs_ == 2 and list(e.n_classes_) == list(s.n_classes_)
    for a, b in zip(e.classes_, s.classes_):
        assert_array_equal(host(a), b)
    assert_array_equal(host(e.predict(E(X, device))), s.predict(X))
    Pe, Ps = e.predict_proba(E(X, device)), s.predict_proba(X)
    assert isinstance(Pe, list) and len(Pe) == 2
    for a, b in zip(Pe, Ps):
        assert_allclose(host(a), b, atol=1e-12)
    assert_allclose(host(e.feature_importances_), s.feature_importances_, atol=1e-12)


@pytest.mark.parametrize("params", [{"max_depth": 5}, {"min_samples_leaf": 8}])
def test_multioutput_regressor_is_sklearns_tree(device, params):
    X, Y = two_targets()
    e = DecisionTreeRegressor(**params).fit(E(X, device), E(Y, device))
    s = sk_tree.DecisionTreeRegressor(random_state=0, **params).fit(X, Y)
    a, b = e.tree_, s.tree_
    assert a.node_count == b.node_count
    assert_array_equal(a.feature, b.feature)
    assert_allclose(a.threshold, b.threshold)
    assert_allclose(a.value, b.value, atol=1e-9)
    assert_allclose(a.impurity, b.impurity, atol=1e-9)
    P = host(e.predict(E(X, device)))
    assert P.shape == (400, 2)
    assert_allclose(P, s.predict(X), atol=1e-9)


@pytest.mark.parametrize("cls,data", [(DecisionTreeClassifier, two_labels),
                                      (DecisionTreeRegressor, two_targets)])
def test_multioutput_sparse_levels_grow_the_same_tree(device, monkeypatch, cls, data):
    # levels of many small nodes search only their occupied cells, one
    # scan a (output, class) column or a (weight, each output's sum)
    from ember.ml.ensemble import _grow
    X, Y = data()
    trees = []
    for ratio in (float("inf"), 0):
        monkeypatch.setattr(_grow, "SPARSE_RATIO", ratio)
        trees.append(cls(max_depth=6).fit(E(X, device), E(Y, device)))
    a, b = trees
    if device != "cpu" and cls is DecisionTreeRegressor:
        # float sums in no set order on a GPU: a near-tie may go either way
        assert a.tree_.feature[0] == b.tree_.feature[0]
        return
    assert_array_equal(a.tree_.feature, b.tree_.feature)
    assert_array_equal(a.tree_.children_left, b.tree_.children_left)
    assert_allclose(a.tree_.threshold, b.tree_.threshold)
    assert_allclose(a.tree_.impurity, b.tree_.impurity, atol=1e-9)


def test_single_column_y_is_one_output(device):
    X, Y = two_targets()
    e = DecisionTreeRegressor(max_depth=3).fit(E(X, device), E(Y[:, :1], device))
    assert e.n_outputs_ == 1 and host(e.predict(E(X, device))).shape == (400,)


@pytest.mark.parametrize("cls", [RandomForestRegressor, ExtraTreesRegressor])
def test_forest_outputs_mean_their_impurities(device, cls):
    # two copies of one target: the mean of two equal impurities is each,
    # so the forest grows the one-output forest's trees with its draws
    X, Y = two_targets()
    y = Y[:, 0]
    one = cls(8, random_state=0).fit(E(X, device), E(y, device))
    two = cls(8, random_state=0).fit(E(X, device), E(np.stack([y, y], 1), device))
    p1, p2 = host(one.predict(E(X, device))), host(two.predict(E(X, device)))
    assert p2.shape == (400, 2)
    if device == "cpu":
        assert_allclose(p2[:, 0], p1, atol=1e-9)
        assert_allclose(p2[:, 1], p1, atol=1e-9)
    else:
        # a GPU sums the histograms with atomics in no set order, so a
        # near-tie may split the other way in one of the forests
        assert np.corrcoef(p2[:, 0], p1)[0, 1] > 0.99
        assert np.corrcoef(p2[:, 1], p1)[0, 1] > 0.99
    # and a forest of two targets predicts the mean of its trees
    f = cls(6, random_state=1).fit(E(X, device), E(Y, device))
    trees = np.mean([host(t.predict(E(X, device))) for t in f.estimators_], axis=0)
    assert_allclose(host(f.predict(E(X, device))), trees, atol=1e-9)
    assert f.score(E(X, device), E(Y, device)) > 0.8


@pytest.mark.parametrize("cls", [RandomForestClassifier, ExtraTreesClassifier])
def test_forest_classifier_outputs(device, cls):
    X, Y = two_labels()
    f = cls(10, random_state=0).fit(E(X, device), E(Y, device))
    assert f.n_outputs_ == 2 and list(f.n_classes_) == [3, 2]
    assert_array_equal(host(f.classes_[1]), [5, 7])
    P = f.predict_proba(E(X, device))
    assert [host(p).shape for p in P] == [(400, 3), (400, 2)]
    views = [t.predict_proba(E(X, device)) for t in f.estimators_]
    for o in range(2):
        assert_allclose(host(P[o]), np.mean([host(v[o]) for v in views], axis=0),
                        atol=1e-12)
        assert_allclose(host(P[o]).sum(axis=1), 1.0)
    pred = host(f.predict(E(X, device)))
    assert pred.shape == (400, 2)
    assert_array_equal(pred[:, 1], np.array([5, 7])[host(P[1]).argmax(axis=1)])
    assert (pred == Y).mean() > 0.8


# ---- minimal cost-complexity pruning

@pytest.mark.parametrize("cls,params,data", [
    (DecisionTreeClassifier, {"max_depth": 4}, few_values),
    (DecisionTreeClassifier, {"max_depth": 4, "criterion": "entropy"}, few_values),
    (DecisionTreeClassifier, {"max_depth": 4}, two_labels),
    (DecisionTreeRegressor, {"max_depth": 5}, two_targets),
    (DecisionTreeRegressor, {"min_samples_leaf": 5},
     lambda: (two_targets()[0], two_targets()[1][:, 0])),
], ids=["gini", "entropy", "two-labels", "two-targets", "one-target"])
def test_pruning_path_and_pruned_trees_as_sklearn(device, cls, params, data):
    X, y = data()
    Xd, yd = E(X, device), E(y, device)
    pe = cls(**params).cost_complexity_pruning_path(Xd, yd)
    sk_cls = getattr(sk_tree, cls.__name__)
    ps = sk_cls(random_state=0, **params).cost_complexity_pruning_path(X, y)
    assert_allclose(pe.ccp_alphas, ps.ccp_alphas, rtol=1e-9, atol=1e-14)
    assert_allclose(pe.impurities, ps.impurities, rtol=1e-9, atol=1e-14)
    assert pe["ccp_alphas"] is pe.ccp_alphas
    # each library prunes at its own path's alphas (the steps themselves,
    # where a rounding apart would leave one link unpruned)
    for a, b in list(zip(pe.ccp_alphas, ps.ccp_alphas))[::2]:
        e = cls(ccp_alpha=float(a), **params).fit(Xd, yd)
        s = sk_cls(ccp_alpha=float(b), random_state=0, **params).fit(X, y)
        assert_same_tree(e, s)
        assert_allclose(host(e.predict(Xd)), s.predict(X), atol=1e-9)


def test_forest_ccp_alpha(device):
    # a forest of one tree on every row and feature grows the decision
    # tree's tree; pruned at alphas between the tree's path steps it keeps
    # the pruned tree's leaves
    X, y = few_values()
    Xd, yd = E(X, device), E(y, device)
    path = DecisionTreeClassifier().cost_complexity_pruning_path(Xd, yd)
    al = path.ccp_alphas
    for a in ((al[1:] + al[:-1]) / 2)[::3]:
        t = DecisionTreeClassifier(ccp_alpha=float(a)).fit(Xd, yd)
        f = RandomForestClassifier(1, bootstrap=False, max_features=None,
                                   ccp_alpha=float(a), random_state=0).fit(Xd, yd)
        assert f.estimators_[0].get_n_leaves() == t.get_n_leaves()
        assert f.estimators_[0].get_depth() == t.get_depth()
        assert_array_equal(host(f.predict(Xd)), host(t.predict(Xd)))
    big = RandomForestRegressor(5, ccp_alpha=1e9, random_state=0).fit(Xd, E(y * 1.0, device))
    assert all(t.get_n_leaves() == 1 for t in big.estimators_)
    assert_allclose(host(big.feature_importances_), 0.0)


# ---- out of bag, warm start

def _hand_oob(f, X, n_cols):
    S = np.zeros((X.shape[0], n_cols))
    c = np.zeros(X.shape[0])
    for t, rows in zip(f.estimators_, f.estimators_samples_):
        out = np.bincount(rows, minlength=X.shape[0]) == 0
        v = host(t.predict_proba(X)) if n_cols > 1 and hasattr(f, "classes_") else \
            host(t.predict(X)).reshape(X.shape[0], -1)
        S[out] += v[out]
        c[out] += 1
    return S / np.maximum(c, 1)[:, None]


def test_oob_classifier_is_its_trees_out_of_bag_mean(device):
    from sklearn.datasets import make_classification
    X, y = make_classification(300, 6, n_informative=4, n_classes=3, random_state=0)
    f = RandomForestClassifier(25, oob_score=True, random_state=0).fit(E(X, device),
                                                                      E(y, device))
    D = host(f.oob_decision_function_)
    assert D.shape == (300, 3)
    assert_allclose(D, _hand_oob(f, E(X, device), 3), atol=1e-12)
    assert f.oob_score_ == pytest.approx(np.mean(D.argmax(axis=1) == y))
    assert 0.6 < f.oob_score_ < 1.0
    # a bootstrap of every row, each tree's rows drawn with repeats
    assert all(len(r) == 300 and len(np.unique(r)) < 300 for r in f.estimators_samples_)


@pytest.mark.parametrize("outputs", [1, 2])
def test_oob_regressor_is_its_trees_out_of_bag_mean(device, outputs):
    X, Y = two_targets()
    y = Y if outputs == 2 else Y[:, 0]
    f = RandomForestRegressor(20, oob_score=True, max_samples=0.7,
                              random_state=3).fit(E(X, device), E(y, device))
    P = host(f.oob_prediction_)
    assert P.shape == y.shape
    hand = _hand_oob(f, E(X, device), outputs)
    assert_allclose(P.reshape(400, -1), hand, atol=1e-9)
    Y2 = y.reshape(len(y), -1)
    r2 = np.mean(1 - ((Y2 - hand) ** 2).sum(0) / ((Y2 - Y2.mean(0)) ** 2).sum(0))
    assert f.oob_score_ == pytest.approx(r2, rel=1e-9)
    assert all(len(r) == 280 for r in f.estimators_samples_)


def test_oob_multilabel_indicator(device):
    # several 0/1 outputs: scikit-learn's n x 2 x outputs decision function,
    # scored by the rows whose every label is right
    X, Y = two_labels()
    Y = np.stack([Y[:, 0] > 0, Y[:, 1] == 7], axis=1).astype(int)
    f = RandomForestClassifier(25, oob_score=True, random_state=0).fit(E(X, device),
                                                                      E(Y, device))
    D = host(f.oob_decision_function_)
    assert D.shape == (400, 2, 2)
    S = np.zeros((400, 2, 2))
    c = np.zeros(400)
    for t, rows in zip(f.estimators_, f.estimators_samples_):
        out = np.bincount(rows, minlength=400) == 0
        v = np.stack([host(p) for p in t.predict_proba(E(X, device))], axis=2)
        S[out] += v[out]
        c[out] += 1
    assert_allclose(D, S / np.maximum(c, 1)[:, None, None], atol=1e-12)
    assert f.oob_score_ == pytest.approx(np.mean((D.argmax(axis=1) == Y).all(axis=1)))


def test_oob_warns_where_a_row_is_never_out_of_bag(device):
    X, y = few_values()
    with pytest.warns(UserWarning, match="Some inputs do not have OOB scores"):
        f = RandomForestClassifier(2, oob_score=True, random_state=0).fit(E(X, device),
                                                                         E(y, device))
    D = host(f.oob_decision_function_)
    assert_allclose(D, _hand_oob(f, E(X, device), 3), atol=1e-12)


@pytest.mark.filterwarnings("ignore:Some inputs do not have OOB")
def test_warm_start_adds_trees(device):
    X, y = few_values()
    Xd, yd = E(X, device), E(y, device)
    f = RandomForestClassifier(5, warm_start=True, oob_score=True, random_state=0)
    f.fit(Xd, yd)
    first = [host(t.predict_proba(Xd)) for t in f.estimators_]
    samples = f.estimators_samples_
    f.set_params(n_estimators=12).fit(Xd, yd)
    assert len(f.estimators_) == 12
    for a, t in zip(first, f.estimators_[:5]):
        assert_allclose(host(t.predict_proba(Xd)), a)
    for a, b in zip(samples, f.estimators_samples_[:5]):
        assert_array_equal(a, b)
    assert_allclose(host(f.oob_decision_function_), _hand_oob(f, Xd, 3), atol=1e-12)
    with pytest.warns(UserWarning, match="does not fit new trees"):
        f.fit(Xd, yd)
    assert len(f.estimators_) == 12
    with pytest.raises(ValueError, match="must be larger or equal to len"):
        f.set_params(n_estimators=3).fit(Xd, yd)
    # without warm_start a fit starts over
    g = RandomForestClassifier(5, random_state=0).fit(Xd, yd)
    assert_allclose(host(g.estimators_[0].predict_proba(Xd)), first[0])


def test_bad_inputs():
    X, y = few_values()
    for est in (DecisionTreeClassifier(ccp_alpha=-1.0), DecisionTreeRegressor(ccp_alpha=-0.5),
                RandomForestClassifier(3, ccp_alpha=-0.1),
                ExtraTreesRegressor(3, ccp_alpha=-0.1)):
        with pytest.raises(ValueError, match="ccp_alpha"):
            est.fit(X, y)
    for est in (RandomForestClassifier(3, oob_score=True, bootstrap=False),
                ExtraTreesClassifier(3, oob_score=True),
                RandomForestRegressor(3, oob_score=True, bootstrap=False)):
        with pytest.raises(ValueError, match="only available if bootstrap=True"):
            est.fit(X, y)
    X2, Y2 = two_labels()
    with pytest.raises(ValueError, match="Got multiclass-multioutput"):
        RandomForestClassifier(5, oob_score=True, random_state=0).fit(X2, Y2)
    with pytest.raises(NotImplementedError, match="class_weight"):
        DecisionTreeClassifier(class_weight="balanced").fit(X2, Y2)


# ---- drawing

def test_plot_tree_and_export_graphviz_are_sklearns():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ember.ml.tree import export_graphviz, plot_tree
    X, y = few_values()
    e = DecisionTreeClassifier(max_depth=3).fit(X, y)
    s = sk_tree.DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    assert export_graphviz(e, filled=True) == sk_tree.export_graphviz(s, filled=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fig = plt.figure()
        te = [a.get_text() for a in plot_tree(e, filled=True)]
        plt.close(fig)
        fig = plt.figure()
        ts = [a.get_text() for a in sk_tree.plot_tree(s, filled=True)]
        plt.close(fig)
    assert te == ts
    from ember.ml.exceptions import NotFittedError
    with pytest.raises(NotFittedError):
        plot_tree(DecisionTreeClassifier())
