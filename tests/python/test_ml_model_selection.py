"""ember.ml.model_selection against scikit-learn's: unshuffled KFold and
StratifiedKFold folds equal to scikit-learn's, train_test_split's sizes,
determinism, stratification and kinds, and scikit-learn's search tools
driving ember's estimators."""
import numpy as np
import pytest

import ember
from ember.ml import model_selection as MS
from ember.ml.preprocessing import StandardScaler

skm = pytest.importorskip("sklearn.model_selection")
pd = pytest.importorskip("pandas")


def _np(a):
    return ember.asnumpy(a) if isinstance(a, ember.ndarray) else np.asarray(a)


@pytest.mark.parametrize("n,k", [(10, 3), (12, 4), (7, 7), (23, 5)])
def test_kfold_unshuffled_equals_sklearn(n, k):
    X = np.zeros((n, 2))
    for (a, b), (c, d) in zip(MS.KFold(k).split(X), skm.KFold(k).split(X)):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, d)
    assert MS.KFold(k).get_n_splits() == k


def test_kfold_shuffled(device):
    X = ember.zeros((25, 2), device=device)
    folds = list(MS.KFold(4, shuffle=True, random_state=3).split(X))
    again = list(MS.KFold(4, shuffle=True, random_state=3).split(X))
    tests = np.concatenate([t for _, t in folds])
    assert sorted(tests.tolist()) == list(range(25))
    assert [len(t) for _, t in folds] == [7, 6, 6, 6]
    for (tr, te), (tr2, te2) in zip(folds, again):
        np.testing.assert_array_equal(te, te2)
        assert set(tr) | set(te) == set(range(25)) and not set(tr) & set(te)
    assert not np.array_equal(np.concatenate([t for _, t in folds]), np.arange(25))
    # scikit-learn's own folds for the same random_state (its NumPy draws)
    for (a, b), (c, d) in zip(folds, skm.KFold(4, shuffle=True,
                                               random_state=3).split(np.zeros(25))):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, d)
    # a RandomState instance is drawn from in turn, as scikit-learn's
    ours = MS.KFold(3, shuffle=True, random_state=np.random.RandomState(5))
    ref = skm.KFold(3, shuffle=True, random_state=np.random.RandomState(5))
    for _ in range(2):
        for (a, b), (c, d) in zip(ours.split(X), ref.split(np.zeros(25))):
            np.testing.assert_array_equal(b, d)


def test_kfold_errors():
    with pytest.raises(ValueError, match="n_splits=2 or more"):
        MS.KFold(1)
    with pytest.raises(ValueError, match="random_state"):
        MS.KFold(3, random_state=0)
    with pytest.raises(ValueError, match="greater than the number of samples"):
        list(MS.KFold(5).split(np.zeros((3, 1))))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_stratified_kfold(device, seed):
    rng = np.random.default_rng(seed)
    y = rng.choice([7, 3, 5], 40, p=[0.5, 0.3, 0.2])
    X = np.zeros((40, 1))
    for (a, b), (c, d) in zip(MS.StratifiedKFold(4).split(X, ember.asarray(
            y, device=device)), skm.StratifiedKFold(4).split(X, y)):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, d)
    ys = np.array(["b", "a", "c"], dtype=object)[rng.integers(0, 3, 30)]
    for (a, b), (c, d) in zip(MS.StratifiedKFold(3).split(ys, ys),
                              skm.StratifiedKFold(3).split(ys, ys)):
        np.testing.assert_array_equal(b, d)
    shuffled = list(MS.StratifiedKFold(4, shuffle=True, random_state=seed).split(
        X, ember.asarray(y, device=device)))
    ref = list(skm.StratifiedKFold(4, shuffle=True, random_state=seed).split(X, y))
    for (a, b), (c, d) in zip(shuffled, ref):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, d)
    with pytest.raises(ValueError, match="cannot be greater than the number of members"):
        list(MS.StratifiedKFold(3).split(np.zeros(4), [0, 0, 1, 1]))
    with pytest.warns(UserWarning, match="least populated class"):
        list(MS.StratifiedKFold(3).split(np.zeros(7), [0, 0, 0, 0, 0, 1, 1]))


def test_train_test_split_kinds(device):
    X = np.arange(40.0).reshape(20, 2)
    y = np.arange(20)
    E = ember.asarray(X, device=device)
    df = pd.DataFrame(X, columns=["a", "b"])
    ef = ember.frame.from_pandas(df, device=device)
    parts = MS.train_test_split(E, y, df, ef, list(range(20)), random_state=0)
    assert len(parts) == 10
    Etr, Ete, ytr, yte, dtr, dte, ftr, fte, ltr, lte = parts
    assert isinstance(Etr, ember.ndarray) and isinstance(ytr, np.ndarray)
    assert isinstance(dtr, pd.DataFrame) and isinstance(ltr, list)
    assert type(ftr).__name__ == "DataFrame" and type(ftr).__module__.startswith(
        "ember.frame")
    assert Ete.shape == (5, 2) and Etr.shape == (15, 2)
    np.testing.assert_array_equal(_np(Etr)[:, 0] / 2, ytr)
    np.testing.assert_array_equal(dte["a"].to_numpy() / 2, yte)
    np.testing.assert_array_equal(ftr.to_pandas()["a"].to_numpy() / 2, ytr)
    assert ltr == ytr.tolist()
    assert sorted(ytr.tolist() + yte.tolist()) == list(range(20))
    again = MS.train_test_split(E, y, random_state=0)
    np.testing.assert_array_equal(again[3], yte)
    sf = ember.frame.from_pandas(pd.DataFrame({"s": list("abcdefghij")}), device=device)
    s_tr, s_te = MS.train_test_split(sf, random_state=2)
    assert sorted(s_tr.to_pandas()["s"].tolist() + s_te.to_pandas()["s"].tolist()) == \
        list("abcdefghij")
    a, b = MS.train_test_split(y, shuffle=False, test_size=0.3)
    r = skm.train_test_split(y, shuffle=False, test_size=0.3)
    np.testing.assert_array_equal(a, r[0])
    np.testing.assert_array_equal(b, r[1])


@pytest.mark.parametrize("sizes", [{}, {"test_size": 0.33}, {"train_size": 0.5},
                                   {"test_size": 7}, {"train_size": 11, "test_size": 4},
                                   {"train_size": 0.6, "test_size": 0.2}])
def test_train_test_split_sizes(sizes):
    y = np.arange(23)
    a, b = MS.train_test_split(y, random_state=1, **sizes)
    r = skm.train_test_split(y, random_state=1, **sizes)
    np.testing.assert_array_equal(a, r[0])
    np.testing.assert_array_equal(b, r[1])


def test_train_test_split_stratify(device):
    rng = np.random.default_rng(0)
    y = rng.choice([0, 1, 2], 60, p=[0.6, 0.3, 0.1])
    X = np.arange(60)
    a, b, ya, yb = MS.train_test_split(X, ember.asarray(y, device=device),
                                       stratify=y, test_size=0.25, random_state=4)
    r = skm.train_test_split(X, y, stratify=y, test_size=0.25, random_state=4)
    for ours, ref in zip((a, b, ya, yb), r):
        np.testing.assert_array_equal(_np(ours), ref)
    # string labels and pandas input, as the examples split iris and wine
    names = np.array(["setosa", "versicolor", "virginica"], dtype=object)[y]
    df = pd.DataFrame({"x": np.arange(60.0)})
    ours = MS.train_test_split(df, names, stratify=names, test_size=0.5, random_state=0)
    ref = skm.train_test_split(df, names, stratify=names, test_size=0.5, random_state=0)
    pd.testing.assert_frame_equal(ours[0], ref[0])
    pd.testing.assert_frame_equal(ours[1], ref[1])
    np.testing.assert_array_equal(ours[3], ref[3])


def test_splitters_warn_of_ignored_groups():
    X, y, g = np.zeros((12, 1)), np.arange(12) % 2, np.arange(12) // 3
    for ours, ref in ((MS.KFold(3), skm.KFold(3)),
                      (MS.StratifiedKFold(3), skm.StratifiedKFold(3)),
                      (MS.ShuffleSplit(2, random_state=0), skm.ShuffleSplit(
                          2, random_state=0)),
                      (MS.StratifiedShuffleSplit(2, test_size=4, random_state=0),
                       skm.StratifiedShuffleSplit(2, test_size=4, random_state=0))):
        name = type(ours).__name__
        with pytest.warns(UserWarning, match=f"groups parameter is ignored by {name}"):
            got = list(ours.split(X, y, groups=g))
        with pytest.warns(UserWarning, match=f"groups parameter is ignored by {name}"):
            want = list(ref.split(X, y, groups=g))
        for (a, b), (c, d) in zip(got, want):
            np.testing.assert_array_equal(b, d)


def test_train_test_split_errors():
    with pytest.raises(ValueError, match="At least one array"):
        MS.train_test_split()
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        MS.train_test_split(np.zeros(3), np.zeros(4))
    with pytest.raises(ValueError, match="test_size=1.5"):
        MS.train_test_split(np.zeros(10), test_size=1.5)
    with pytest.raises(ValueError, match="should be smaller than the number"):
        MS.train_test_split(np.zeros(10), test_size=6, train_size=6)
    with pytest.raises(ValueError, match="not implemented for shuffle=False"):
        MS.train_test_split(np.zeros(10), shuffle=False, stratify=np.zeros(10))
    with pytest.raises(ValueError, match="least populated class"):
        MS.train_test_split(np.zeros(4), stratify=[0, 0, 0, 1])


def test_search_tools_drive_ember_estimators():
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler as SkScaler
    rng = np.random.default_rng(0)
    X = rng.standard_normal((80, 3)) * [1, 10, 100]
    y = (X[:, 0] + X[:, 1] / 10 > 0).astype(int)
    ours = Pipeline([("sc", StandardScaler()), ("lr", LogisticRegression())])
    ref = Pipeline([("sc", SkScaler()), ("lr", LogisticRegression())])
    grid = {"sc__with_mean": [True, False], "lr__C": [0.1, 1.0]}
    g = MS.GridSearchCV(ours, grid, cv=MS.KFold(4)).fit(X, y)
    r = skm.GridSearchCV(ref, grid, cv=skm.KFold(4)).fit(X, y)
    assert g.best_params_ == r.best_params_
    np.testing.assert_allclose(g.cv_results_["mean_test_score"],
                               r.cv_results_["mean_test_score"])
    s = MS.cross_val_score(ours, X, y, cv=MS.StratifiedKFold(5))
    np.testing.assert_allclose(s, skm.cross_val_score(ref, X, y,
                                                      cv=skm.StratifiedKFold(5)))


def test_shuffle_splits(device):
    rng = np.random.default_rng(3)
    y = rng.choice([0, 1, 2], 50, p=[0.5, 0.3, 0.2])
    X = ember.zeros((50, 2), device=device)
    for params in ({}, {"test_size": 0.3}, {"train_size": 20, "test_size": 10}):
        ours = list(MS.ShuffleSplit(4, random_state=0, **params).split(X))
        ref = list(skm.ShuffleSplit(4, random_state=0, **params).split(np.zeros(50)))
        for (a, b), (c, d) in zip(ours, ref):
            np.testing.assert_array_equal(a, c)
            np.testing.assert_array_equal(b, d)
        assert not np.array_equal(ours[0][1], ours[1][1])
        again = list(MS.ShuffleSplit(4, random_state=0, **params).split(X))
        assert all(np.array_equal(a[1], b[1]) for a, b in zip(ours, again))
    for (a, b), (c, d) in zip(
            MS.StratifiedShuffleSplit(3, test_size=0.2, random_state=1).split(X, y),
            skm.StratifiedShuffleSplit(3, test_size=0.2, random_state=1).split(X, y)):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, d)


def test_cross_val_score_on_ember_arrays(device):
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import Pipeline
    rng = np.random.default_rng(1)
    X = rng.standard_normal((60, 3))
    y = (X[:, 0] - X[:, 2] > 0).astype(int)
    pipe = Pipeline([("sc", StandardScaler()), ("lr", LogisticRegression())])
    a = MS.cross_val_score(pipe, ember.asarray(X, device=device), y, cv=MS.KFold(3))
    b = MS.cross_val_score(pipe, X, y, cv=MS.KFold(3))
    np.testing.assert_allclose(a, b)
