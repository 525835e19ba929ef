"""RandomForest*/ExtraTrees* apply: the leaf each row reaches in each tree
(the gallery's plot_feature_transformation one-hot encodes them)."""
import numpy as np
import pytest

import ember
from ember.ml.ensemble import ExtraTreesRegressor, RandomForestClassifier

datasets = pytest.importorskip("sklearn.datasets")


@pytest.mark.parametrize("cls", [RandomForestClassifier, ExtraTreesRegressor])
def test_apply_names_each_rows_leaf(device, cls):
    X, y = datasets.make_classification(300, 6, random_state=0)
    Xe, ye = ember.asarray(X, device=device), ember.asarray(y, device=device)
    m = cls(n_estimators=6, max_depth=5, random_state=0).fit(Xe, ye)
    A = m.apply(Xe)
    assert isinstance(A, ember.ndarray) and A.shape == (300, 6) and A.dtype == ember.int64
    L = ember.asnumpy(A)
    left = ember.asnumpy(m._left)
    for t, est in enumerate(m.estimators_):
        # every leaf holds an in-bag row of X, and only leaves are reached
        assert (left[t, L[:, t]] == -1).all()
        assert len(np.unique(L[:, t])) == est.get_n_leaves()
    # the leaves' values are the prediction
    val = ember.asnumpy(m._val).reshape(6, -1, ember.asnumpy(m._val).shape[1])
    mean = np.mean([val[t, L[:, t]] for t in range(6)], axis=0)
    got = m.predict_proba(Xe) if hasattr(m, "predict_proba") else m.predict(Xe)
    np.testing.assert_allclose(ember.asnumpy(got).reshape(mean.shape[0], -1),
                               mean.reshape(mean.shape[0], -1), rtol=1e-12, atol=1e-12)
    # NumPy in, NumPy out; the same leaves
    np.testing.assert_array_equal(m.apply(X), L)
    with pytest.raises(ValueError, match="X has 5 features"):
        m.apply(X[:, :5])
