"""Sparse X (SciPy's and ember.scipy.sparse's) for the ember.ml estimators
that scikit-learn lets take it: made dense on the device, results
scikit-learn's on the same sparse data; too large a dense form and the
estimators scikit-learn refuses sparse for are TypeErrors."""
import numpy as np
import pytest
import scipy.sparse as sp

import ember
from ember.ml import _sparse_input as S
from ember.ml import linear_model as LM
from ember.ml.decomposition import TruncatedSVD
from ember.ml.ensemble import RandomForestClassifier
from ember.ml.neighbors import KNeighborsClassifier, KNeighborsRegressor, NearestNeighbors
from ember.ml.tree import DecisionTreeClassifier, DecisionTreeRegressor
from ember.scipy import sparse as esp

sk_lm = pytest.importorskip("sklearn.linear_model")
from sklearn import neighbors as sk_nb  # noqa: E402
from sklearn import tree as sk_tree  # noqa: E402
from sklearn.decomposition import TruncatedSVD as SkTruncatedSVD  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402


def _np(a):
    return ember.asnumpy(a) if isinstance(a, ember.ndarray) else np.asarray(a)


def _close(a, b, rtol=1e-5, atol=1e-8):
    np.testing.assert_allclose(_np(a), b, rtol=rtol, atol=atol)


def _sparse_reg(n=80, p=12, seed=0, density=0.3):
    rng = np.random.default_rng(seed)
    X = sp.random(n, p, density=density, format="csr", random_state=seed)
    w = rng.normal(size=p)
    y = X @ w + 0.05 * rng.normal(size=n) + 1.0
    return X, y


def _sparse_cls(n=120, p=10, seed=1, k=2):
    # few distinct values, so trees' thresholds are midpoints SciPy and
    # scikit-learn agree on
    rng = np.random.default_rng(seed)
    D = rng.integers(0, 4, size=(n, p)).astype(float)
    D[rng.random((n, p)) < 0.6] = 0
    y = (D[:, 0] + D[:, 1] - D[:, 2] + rng.normal(0, 0.5, n) > 1).astype(int)
    if k == 3:
        y = y + (D[:, 3] > 1)
    return sp.csr_matrix(D), y


# ---- the conversion ------------------------------------------------------

@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_densify_is_toarray(device, fmt):
    X = sp.random(7, 5, density=0.4, format=fmt, random_state=3)
    d = S.densify(X, ember.Device(device))
    assert isinstance(d, ember.ndarray) and str(d.device) == str(ember.Device(device))
    np.testing.assert_array_equal(_np(d), X.toarray())
    # duplicates are summed as SciPy sums them; ember's own matrix stays
    # on its device and is not rewritten
    c = sp.coo_matrix(([1.0, 2.0, 4.0], ([0, 0, 1], [1, 1, 2])), shape=(2, 3))
    e = esp.csr_matrix(c, device=ember.Device(device))
    np.testing.assert_array_equal(_np(S.densify(e)), c.toarray())
    np.testing.assert_array_equal(_np(e.toarray()), c.toarray())
    g = _np(S.densify(e, fill=np.inf))
    np.testing.assert_array_equal(g, [[np.inf, 3, np.inf], [np.inf, np.inf, 4]])


def test_dense_form_too_large_is_typeerror(device):
    X = sp.csr_matrix((100_000, 50_000))
    with ember.Device(device):
        with pytest.raises(TypeError, match=r"\(100000, 50000\).*37\.25 GiB.*dense data"):
            LM.Lasso().fit(X, np.zeros(100_000))
        with pytest.raises(TypeError, match="works on dense data"):
            KNeighborsClassifier().fit(X, np.zeros(100_000))


def test_estimators_scikit_learn_refuses_sparse_for_still_refuse(device):
    from ember.ml.cluster import AgglomerativeClustering
    from ember.ml.decomposition import PCA
    X, _ = _sparse_reg()
    with ember.Device(device):
        for est in (PCA(n_components=2), AgglomerativeClustering()):
            with pytest.raises(TypeError, match="Sparse data was passed"):
                est.fit(X)


# ---- linear models ---------------------------------------------------------

@pytest.mark.parametrize("name,kw", [
    ("Lasso", {"alpha": 0.01}), ("ElasticNet", {"alpha": 0.02, "l1_ratio": 0.3}),
    # scikit-learn solves a sparse Ridge iteratively: a tight tol for its answer
    ("Ridge", {"alpha": 0.5, "tol": 1e-12}), ("LinearRegression", {}),
])
def test_regressors_match_sklearn_on_sparse(device, name, kw):
    X, y = _sparse_reg()
    ref = getattr(sk_lm, name)(**kw).fit(X, y)
    with ember.Device(device):
        m = getattr(LM, name)(**kw).fit(X, y)
    _close(m.coef_, ref.coef_)
    _close(m.intercept_, ref.intercept_)
    p = m.predict(X)
    assert isinstance(p, np.ndarray)
    _close(p, ref.predict(X))
    # an ember matrix on the device: ember arrays back, the same values
    Xe = esp.csr_matrix(X, device=ember.Device(device))
    pe = getattr(LM, name)(**kw).fit(Xe, ember.asarray(y, device=device)).predict(Xe)
    assert isinstance(pe, ember.ndarray) and str(pe.device) == str(ember.Device(device))
    _close(pe, ref.predict(X))


def test_logistic_regression_matches_sklearn_on_sparse(device):
    X, y = _sparse_cls(k=3)
    ref = sk_lm.LogisticRegression(C=0.5, max_iter=500).fit(X, y)
    with ember.Device(device):
        m = LM.LogisticRegression(C=0.5, max_iter=500).fit(X, y)
    _close(m.coef_, ref.coef_, rtol=1e-3, atol=1e-4)
    _close(m.predict_proba(X), ref.predict_proba(X), rtol=1e-3, atol=1e-4)
    np.testing.assert_array_equal(m.predict(X), ref.predict(X))


def test_sgd_on_sparse_is_sgd_on_dense(device):
    # mini-batch SGD is not scikit-learn's per-sample SGD
    # (test_ml_linear_classifiers.py); sparse X gives the dense X's model
    X, y = _sparse_cls()
    with ember.Device(device):
        a = LM.SGDClassifier(random_state=0).fit(X, y)
        b = LM.SGDClassifier(random_state=0).fit(X.toarray(), y)
    _close(a.coef_, _np(b.coef_), rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(a.predict(X), b.predict(X.toarray()))


# ---- trees and forests -----------------------------------------------------

def test_trees_are_sklearns_on_sparse(device):
    # continuous values: no two splits tie (scikit-learn's sparse and dense
    # splitters break ties differently)
    X, _ = _sparse_reg(n=150, p=8, seed=4, density=0.5)
    y = (X @ np.arange(-3.0, 5.0) > 0.3).astype(int) + (X[:, 1].toarray().ravel() > .5)
    ref = sk_tree.DecisionTreeClassifier(max_depth=4, random_state=0).fit(X, y)
    with ember.Device(device):
        m = DecisionTreeClassifier(max_depth=4, random_state=0).fit(X, y)
    np.testing.assert_array_equal(m.tree_.feature, ref.tree_.feature)
    np.testing.assert_allclose(m.tree_.threshold, ref.tree_.threshold)
    np.testing.assert_array_equal(m.predict(X.tocsc()), ref.predict(X))
    _close(m.predict_proba(X), ref.predict_proba(X), atol=1e-12)
    yr = X @ np.arange(1.0, X.shape[1] + 1)
    ref = sk_tree.DecisionTreeRegressor(max_depth=3, random_state=0).fit(X, yr)
    with ember.Device(device):
        m = DecisionTreeRegressor(max_depth=3, random_state=0).fit(X, yr)
    _close(m.predict(X), ref.predict(X), rtol=1e-12)


def test_forest_on_sparse_is_forest_on_dense(device):
    # ember's forests grow on histograms (test_ml_ensemble.py compares their
    # quality with scikit-learn's); a sparse X grows the dense X's forest
    X, y = _sparse_cls()
    with ember.Device(device):
        a = RandomForestClassifier(n_estimators=5, random_state=0).fit(X, y)
        b = RandomForestClassifier(n_estimators=5, random_state=0).fit(X.toarray(), y)
    _close(a.predict_proba(X), _np(b.predict_proba(X.toarray())), atol=1e-12)


def test_multinomial_nb_on_sparse_counts(device):
    from ember.ml.naive_bayes import MultinomialNB
    from sklearn.naive_bayes import MultinomialNB as SkMultinomialNB
    rng = np.random.default_rng(8)
    C = sp.random(90, 30, density=0.1, format="csr", random_state=8,
                  data_rvs=lambda k: rng.integers(1, 5, k))
    y = rng.integers(0, 3, 90)
    ref = SkMultinomialNB(alpha=0.5).fit(C, y)
    with ember.Device(device):
        m = MultinomialNB(alpha=0.5).fit(C, y)
    _close(m.feature_log_prob_, ref.feature_log_prob_, rtol=1e-12)
    _close(m.predict_proba(C), ref.predict_proba(C), rtol=1e-10)
    np.testing.assert_array_equal(m.predict(C), ref.predict(C))


def test_dbscan_on_sparse(device):
    from ember.ml.cluster import DBSCAN
    from sklearn.cluster import DBSCAN as SkDBSCAN
    X = sp.random(150, 5, density=0.6, format="csr", random_state=9)
    ref = SkDBSCAN(eps=0.35, min_samples=4).fit(X)
    with ember.Device(device):
        m = DBSCAN(eps=0.35, min_samples=4).fit(X)
    assert len(set(ref.labels_)) > 2
    np.testing.assert_array_equal(m.labels_, ref.labels_)
    np.testing.assert_array_equal(m.core_sample_indices_, ref.core_sample_indices_)
    # scikit-learn's components_ stay sparse, ember's are dense
    np.testing.assert_array_equal(m.components_, ref.components_.toarray())


# ---- neighbours and TruncatedSVD ----------------------------------------------

def test_kneighbors_on_sparse_matches_sklearn(device):
    # dense enough that no two rows tie (all-zero rows would)
    X, y = _sparse_reg(n=60, p=6, seed=4, density=0.7)
    Q = sp.random(9, 6, density=0.7, format="csr", random_state=5)
    ref = sk_nb.NearestNeighbors(n_neighbors=4).fit(X)
    with ember.Device(device):
        m = NearestNeighbors(n_neighbors=4).fit(X)
    d, i = m.kneighbors(Q)
    rd, ri = ref.kneighbors(Q)
    np.testing.assert_array_equal(i, ri)
    _close(d, rd)
    ref = sk_nb.KNeighborsRegressor(n_neighbors=3).fit(X, y)
    with ember.Device(device):
        r = KNeighborsRegressor(n_neighbors=3).fit(X, y)
    _close(r.predict(Q), ref.predict(Q))


@pytest.mark.parametrize("graph_kind", ["scipy", "ember"])
def test_precomputed_sparse_graph_as_sklearn(device, graph_kind):
    # the gallery's plot_caching_nearest_neighbors: KNeighborsTransformer's
    # graph holds only each row's nearest pairs; the others are not neighbours
    rng = np.random.default_rng(6)
    X, Xq = rng.normal(size=(70, 4)), rng.normal(size=(15, 4))
    y = (X[:, 0] > 0).astype(int)
    t = sk_nb.KNeighborsTransformer(n_neighbors=6, mode="distance").fit(X)
    G, Gq = t.transform(X), t.transform(Xq)
    ref = sk_nb.KNeighborsClassifier(n_neighbors=5, metric="precomputed").fit(G, y)
    if graph_kind == "ember":
        G, Gq = (esp.csr_matrix(g, device=ember.Device(device)) for g in (G, Gq))
    with ember.Device(device):
        m = KNeighborsClassifier(n_neighbors=5, metric="precomputed").fit(G, y)
    d, i = m.kneighbors(Gq)
    rd, ri = ref.kneighbors(t.transform(Xq))
    np.testing.assert_array_equal(_np(i), ri)
    _close(d, rd)
    _close(m.predict_proba(Gq), ref.predict_proba(t.transform(Xq)))
    assert isinstance(m.predict(Gq), ember.ndarray if graph_kind == "ember" else np.ndarray)
    # a pipeline as the gallery builds it
    pipe = make_pipeline(sk_nb.KNeighborsTransformer(n_neighbors=6, mode="distance"),
                         KNeighborsClassifier(n_neighbors=5, metric="precomputed"))
    with ember.Device(device):
        np.testing.assert_array_equal(pipe.fit(X, y).predict(Xq),
                                      ref.predict(t.transform(Xq)))
    with ember.Device(device):
        with pytest.raises(ValueError, match="8 neighbors per samples are required, "
                           "but some samples have only 7"):
            m.kneighbors(Gq, n_neighbors=8)
        bad = sp.csr_matrix(t.transform(X))
        bad.data[0] = -1.0
        with pytest.raises(ValueError, match="Negative values"):
            KNeighborsClassifier(metric="precomputed").fit(bad, y)


def test_truncated_svd_on_sparse(device):
    X = sp.random(60, 20, density=0.2, format="csr", random_state=7)
    ref = SkTruncatedSVD(n_components=3, algorithm="arpack").fit(X)
    with ember.Device(device):
        m = TruncatedSVD(n_components=3, algorithm="arpack").fit(X)
        Z = m.transform(X)
    _close(m.singular_values_, ref.singular_values_, rtol=1e-6)
    _close(np.abs(Z), np.abs(ref.transform(X)), rtol=1e-5, atol=1e-8)
