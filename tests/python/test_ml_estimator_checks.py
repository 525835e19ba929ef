"""scikit-learn's check_estimator on every ember.ml estimator (cpu), with
the small parameters scikit-learn's own test suite gives its estimators.
The checks that do not apply are listed with the reason (each is one that
scikit-learn marks as failing for its own estimator of the same name, or
says why); any other failure fails the test."""
import importlib

import pytest

pytest.importorskip("sklearn")
from sklearn.utils.estimator_checks import check_estimator  # noqa: E402

WEIGHTS = ("sample_weight is not equivalent to removing or repeating samples; "
           "scikit-learn marks its own {} so")
ESTIMATORS = [
    ("cluster", "KMeans", dict(n_init=2, n_clusters=2, max_iter=5)),
    ("cluster", "MiniBatchKMeans", dict(n_init=2, n_clusters=2, max_iter=5, batch_size=10)),
    ("cluster", "DBSCAN", {}),
    ("cluster", "AgglomerativeClustering", dict(linkage="single")),
    ("neighbors", "NearestNeighbors", {}),
    ("neighbors", "KNeighborsClassifier", {}),
    ("neighbors", "KNeighborsRegressor", {}),
    ("linear_model", "LinearRegression", {}),
    ("linear_model", "Ridge", {}),
    ("linear_model", "RidgeClassifier", {}),
    ("linear_model", "Lasso", {}),
    ("linear_model", "ElasticNet", {}),
    ("linear_model", "LogisticRegression", {}),
    ("linear_model", "SGDClassifier", dict(max_iter=5)),
    ("linear_model", "SGDRegressor", dict(max_iter=5)),
    ("decomposition", "PCA", {}),
    ("decomposition", "TruncatedSVD", {}),
    ("decomposition", "IncrementalPCA", {}),
    ("ensemble", "RandomForestClassifier", dict(n_estimators=5)),
    ("ensemble", "RandomForestRegressor", dict(n_estimators=5)),
    ("naive_bayes", "GaussianNB", {}),
    ("naive_bayes", "MultinomialNB", {}),
    ("preprocessing", "StandardScaler", {}),
    ("preprocessing", "MinMaxScaler", {}),
    ("preprocessing", "OneHotEncoder", {}),
    ("preprocessing", "PolynomialFeatures", {}),
    ("preprocessing", "Normalizer", {}),
]
# sparse X is made dense (test_ml_sparse_input.py), so the sparse twin
# of the check fails where the dense one does
EXPECTED = {name: {"check_sample_weight_equivalence_on_dense_data": WEIGHTS.format(name),
                   "check_sample_weight_equivalence_on_sparse_data": WEIGHTS.format(name)}
            for name in ("KMeans", "MiniBatchKMeans", "SGDClassifier", "SGDRegressor",
                         "RandomForestClassifier", "RandomForestRegressor")}
for name in ("Ridge", "RidgeClassifier"):
    EXPECTED[name] = {"check_non_transformer_estimators_n_iter":
                      "a closed-form solver has no n_iter_ (None), as scikit-learn's "
                      f"{name} with its default solver"}


@pytest.mark.parametrize("mod,name,params", ESTIMATORS, ids=[e[1] for e in ESTIMATORS])
def test_check_estimator(mod, name, params):
    est = getattr(importlib.import_module("ember.ml." + mod), name)(**params)
    check_estimator(est, expected_failed_checks=EXPECTED.get(name, {}))
