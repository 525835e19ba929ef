"""ember.ml.preprocessing against scikit-learn's on the same data, on every
device: transformed values, fitted attributes, dtypes, the kind of array
that comes back, pandas and ember frames, the parameter protocol, and
scikit-learn's errors."""
import pickle
import warnings

import numpy as np
import pytest

import ember
from ember.ml import preprocessing as P

skp = pytest.importorskip("sklearn.preprocessing")
from sklearn.base import clone  # noqa: E402
from sklearn.pipeline import Pipeline  # noqa: E402
pd = pytest.importorskip("pandas")


def _X(dtype=np.float64, n=40, m=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, m)) * np.arange(1, m + 1) + np.arange(m)
    X[:, -1] = 3.0  # a constant column: scale_ 1
    return X.astype(dtype)


def _np(a):
    return ember.asnumpy(a) if isinstance(a, ember.ndarray) else np.asarray(a)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("params", [{}, {"with_mean": False}, {"with_std": False},
                                    {"with_mean": False, "with_std": False}])
def test_standard_scaler(device, dtype, params):
    X = _X(dtype)
    w = np.random.default_rng(1).random(40)
    rtol = 1e-4 if dtype == np.float32 else 1e-10
    for sw in (None, w):
        ours = P.StandardScaler(**params).fit(ember.asarray(X, device=device),
                                              sample_weight=sw)
        ref = skp.StandardScaler(**params).fit(X, sample_weight=sw)
        for a in ("mean_", "var_", "scale_"):
            r = getattr(ref, a)
            g = getattr(ours, a)
            if r is None:
                assert g is None
            else:
                assert isinstance(g, ember.ndarray)
                assert _np(g).dtype == r.dtype
                np.testing.assert_allclose(_np(g), r, rtol=rtol, atol=1e-6)
        assert ours.n_samples_seen_ == pytest.approx(ref.n_samples_seen_, rel=rtol)
        assert type(ours.n_samples_seen_) is type(ref.n_samples_seen_)
        Xt = ours.transform(ember.asarray(X, device=device))
        assert isinstance(Xt, ember.ndarray) and _np(Xt).dtype == dtype
        np.testing.assert_allclose(_np(Xt), ref.transform(X), rtol=rtol, atol=1e-5)
        np.testing.assert_allclose(_np(ours.inverse_transform(Xt)), X, rtol=rtol,
                                   atol=1e-5)


def test_standard_scaler_partial_fit_nan_and_numpy():
    X = _X(n=60)
    X[3, 0] = np.nan
    X[7, 1] = np.nan
    ours, ref = P.StandardScaler(), skp.StandardScaler()
    for part in (X[:10], X[10:35], X[35:]):
        ours.partial_fit(part)
        ref.partial_fit(part)
    assert isinstance(ours.mean_, np.ndarray)
    np.testing.assert_allclose(ours.mean_, ref.mean_, rtol=1e-12)
    np.testing.assert_allclose(ours.var_, ref.var_, rtol=1e-10)
    np.testing.assert_allclose(ours.n_samples_seen_, ref.n_samples_seen_)
    Xt = ours.transform(X)
    assert isinstance(Xt, np.ndarray)
    np.testing.assert_allclose(Xt, ref.transform(X), rtol=1e-10)
    assert np.isnan(Xt[3, 0])
    w = np.random.default_rng(2).random(60)
    ours = P.StandardScaler().partial_fit(X[:30], sample_weight=w[:30]).partial_fit(
        X[30:], sample_weight=w[30:])
    ref = skp.StandardScaler().partial_fit(X[:30], sample_weight=w[:30]).partial_fit(
        X[30:], sample_weight=w[30:])
    np.testing.assert_allclose(ours.var_, ref.var_, rtol=1e-10, atol=1e-20)
    np.testing.assert_allclose(P.scale(X[:, :2]), skp.scale(X[:, :2]), rtol=1e-10)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_minmax_scaler(device, dtype):
    X = _X(dtype)
    for params in ({}, {"feature_range": (-2, 3)}, {"clip": True}):
        ours = P.MinMaxScaler(**params).fit(ember.asarray(X, device=device))
        ref = skp.MinMaxScaler(**params).fit(X)
        for a in ("data_min_", "data_max_", "data_range_", "scale_", "min_"):
            g = getattr(ours, a)
            assert _np(g).dtype == getattr(ref, a).dtype
            np.testing.assert_allclose(_np(g), getattr(ref, a), rtol=1e-5)
        Y = X * 1.5 + 1
        np.testing.assert_allclose(_np(ours.transform(ember.asarray(Y, device=device))),
                                   ref.transform(Y), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(_np(ours.inverse_transform(ember.asarray(
            ref.transform(X), device=device))), X, rtol=1e-4, atol=1e-5)
    ours = P.MinMaxScaler().partial_fit(X[:20]).partial_fit(X[20:])
    ref = skp.MinMaxScaler().partial_fit(X[:20]).partial_fit(X[20:])
    np.testing.assert_allclose(ours.scale_, ref.scale_, rtol=1e-6)
    assert ours.n_samples_seen_ == ref.n_samples_seen_
    with pytest.raises(ValueError, match="Minimum of desired feature range"):
        P.MinMaxScaler(feature_range=(1, 0)).fit(X)


def test_normalize(device):
    X = _X()
    X[5] = 0
    for norm in ("l1", "l2", "max"):
        got = P.normalize(ember.asarray(X, device=device), norm)
        assert isinstance(got, ember.ndarray)
        np.testing.assert_allclose(_np(got), skp.normalize(X, norm), rtol=1e-12)
        np.testing.assert_allclose(P.normalize(X, norm, axis=0),
                                   skp.normalize(X, norm, axis=0), rtol=1e-12)
        np.testing.assert_allclose(P.Normalizer(norm).fit_transform(X),
                                   skp.Normalizer(norm).fit_transform(X), rtol=1e-12)
    with pytest.raises(ValueError):
        P.Normalizer("l3").fit(X)


def _cat_frame():
    return pd.DataFrame({"city": ["Paris", "Oslo", "Rome", "Oslo", "Paris", "Oslo"],
                         "size": [3, 1, 2, 1, 1, 3],
                         "temp": [1.5, 2.0, 1.5, np.nan, 2.0, 1.5]})


@pytest.mark.parametrize("drop", [None, "first", "if_binary"])
def test_one_hot_dense(drop):
    df = _cat_frame()
    ours = P.OneHotEncoder(sparse_output=False, drop=drop).fit(df)
    ref = skp.OneHotEncoder(sparse_output=False, drop=drop).fit(df)
    for a, b in zip(ours.categories_, ref.categories_):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(ours.drop_idx_, ref.drop_idx_)
    got = ours.transform(df)
    assert isinstance(got, np.ndarray) and got.dtype == np.float64
    np.testing.assert_array_equal(got, ref.transform(df))
    np.testing.assert_array_equal(ours.get_feature_names_out(),
                                  ref.get_feature_names_out())
    inv, rinv = ours.inverse_transform(got), ref.inverse_transform(got)
    assert inv.shape == rinv.shape
    for a, b in zip(inv.ravel(), rinv.ravel()):
        assert (a == b) or (a != a and b != b)


def test_one_hot_numeric_sparse_and_unknown(device):
    X = np.array([[1, 10], [2, 20], [1, 30], [3, 10]])
    E = ember.asarray(X, device=device)
    ours = P.OneHotEncoder(handle_unknown="ignore").fit(E)
    ref = skp.OneHotEncoder(handle_unknown="ignore").fit(X)
    Y = np.array([[2, 10], [4, 30], [1, 99]])
    sp = ours.transform(ember.asarray(Y, device=device))
    from ember.scipy import sparse as esp
    assert isinstance(sp, esp.csr_matrix)
    np.testing.assert_array_equal(_np(sp.toarray()), ref.transform(Y).toarray())
    host = P.OneHotEncoder(handle_unknown="ignore").fit(X).transform(Y)
    assert type(host) is type(ref.transform(Y))
    np.testing.assert_array_equal(host.toarray(), ref.transform(Y).toarray())
    dense = P.OneHotEncoder(sparse_output=False, dtype=np.float32).fit_transform(E)
    assert isinstance(dense, ember.ndarray) and dense.dtype == ember.float32
    np.testing.assert_array_equal(_np(dense), skp.OneHotEncoder(
        sparse_output=False).fit_transform(X))
    inv = P.OneHotEncoder(sparse_output=False).fit(E).inverse_transform(dense)
    np.testing.assert_array_equal(_np(inv), X)
    with pytest.raises(ValueError, match="Found unknown categories"):
        P.OneHotEncoder().fit(X).transform(Y)
    with pytest.warns(UserWarning, match="unknown categories"):
        P.OneHotEncoder(handle_unknown="ignore", drop="first",
                        sparse_output=False).fit(X).transform(Y)


def test_one_hot_given_categories_and_errors():
    X = np.array([["a", 1], ["b", 2]], dtype=object)
    cats = [["b", "a", "c"], [1, 2, 3]]
    ours = P.OneHotEncoder(categories=cats, sparse_output=False).fit(X)
    ref = skp.OneHotEncoder(categories=cats, sparse_output=False).fit(X)
    np.testing.assert_array_equal(ours.transform(X), ref.transform(X))
    np.testing.assert_array_equal(ours.get_feature_names_out(["p", "q"]),
                                  ref.get_feature_names_out(["p", "q"]))
    with pytest.raises(ValueError, match="unknown categories"):
        P.OneHotEncoder(categories=[["a"], [1, 2]]).fit(X)
    with pytest.raises(ValueError, match="Unsorted categories"):
        P.OneHotEncoder(categories=[[2, 1]]).fit([[1], [2]])
    with pytest.raises(NotImplementedError, match="min_frequency"):
        P.OneHotEncoder(min_frequency=2).fit(X)
    with pytest.raises(ValueError):
        P.OneHotEncoder(handle_unknown="skip").fit(X)
    with pytest.raises(ValueError, match="features"):
        P.OneHotEncoder().fit(X).transform(np.array([["a"]], dtype=object))


def test_one_hot_ember_frame(device):
    df = _cat_frame()[["city", "size"]]
    ef = ember.frame.from_pandas(df, device=device)
    ours = P.OneHotEncoder(sparse_output=False).fit(ef)
    got = ours.transform(ef)
    assert isinstance(got, ember.ndarray)
    np.testing.assert_array_equal(_np(got), skp.OneHotEncoder(
        sparse_output=False).fit_transform(df))
    assert list(ours.feature_names_in_) == ["city", "size"]


def test_label_encoder(device):
    y = np.array([3.5, 1.0, 2.0, 1.0, 3.5])
    ours, ref = P.LabelEncoder(), skp.LabelEncoder()
    codes = ours.fit_transform(ember.asarray(y, device=device))
    assert isinstance(codes, ember.ndarray)
    np.testing.assert_array_equal(_np(codes), ref.fit_transform(y))
    np.testing.assert_array_equal(_np(ours.classes_), ref.classes_)
    np.testing.assert_array_equal(_np(ours.inverse_transform(codes)), y)
    with pytest.raises(ValueError, match="previously unseen labels"):
        ours.transform(ember.asarray([1.0, 7.0], device=device))
    with pytest.raises(ValueError, match="previously unseen labels"):
        ours.inverse_transform(ember.asarray([0, 5], device=device))
    s = np.array(["dog", "cat", "emu", "cat"], dtype=object)
    le = P.LabelEncoder().fit(s)
    np.testing.assert_array_equal(le.classes_, skp.LabelEncoder().fit(s).classes_)
    np.testing.assert_array_equal(le.transform(["emu", "cat"]), [2, 0])
    np.testing.assert_array_equal(le.inverse_transform([2, 0]), ["emu", "cat"])
    with pytest.raises(ValueError, match="previously unseen labels"):
        le.transform(["cow"])
    assert len(le.transform([])) == 0
    es = ember.frame.from_pandas(pd.DataFrame({"s": s}), device=device)["s"]
    codes = P.LabelEncoder().fit_transform(es)
    assert isinstance(codes, ember.ndarray)
    np.testing.assert_array_equal(_np(codes), [1, 0, 2, 0])
    np.testing.assert_array_equal(le.transform(es), [1, 0, 2, 0])
    from ember.ml.exceptions import NotFittedError
    with pytest.raises(NotFittedError):
        P.LabelEncoder().transform([1])


@pytest.mark.parametrize("params", [{}, {"degree": 3}, {"interaction_only": True},
                                    {"include_bias": False, "degree": 3},
                                    {"degree": (2, 3)}, {"degree": (0, 2)},
                                    {"degree": 3, "interaction_only": True,
                                     "include_bias": False}])
def test_polynomial(device, params):
    X = _X(np.float32, n=10, m=3)
    ours = P.PolynomialFeatures(**params).fit(ember.asarray(X, device=device))
    ref = skp.PolynomialFeatures(**params).fit(X)
    assert ours.n_output_features_ == ref.n_output_features_
    np.testing.assert_array_equal(ours.powers_, ref.powers_)
    got = ours.transform(ember.asarray(X, device=device))
    assert isinstance(got, ember.ndarray) and got.dtype == ember.float32
    np.testing.assert_allclose(_np(got), ref.transform(X), rtol=1e-5)
    np.testing.assert_array_equal(ours.get_feature_names_out(),
                                  ref.get_feature_names_out())


def test_polynomial_errors():
    with pytest.raises(ValueError):
        P.PolynomialFeatures(degree=-1).fit([[1.0]])
    with pytest.raises(ValueError):
        P.PolynomialFeatures(degree=(3, 2)).fit([[1.0]])
    with pytest.raises(ValueError, match="empty output"):
        P.PolynomialFeatures(degree=0, include_bias=False).fit([[1.0]])


def test_protocol_pipeline_pickle():
    X = _X()
    y = (X[:, 0] > 0.5).astype(int)
    for est in (P.StandardScaler(with_mean=False), P.MinMaxScaler((0, 2)),
                P.OneHotEncoder(sparse_output=False), P.PolynomialFeatures(3),
                P.Normalizer("l1")):
        c = clone(est)
        assert c.get_params() == est.get_params()
        data = X.round(0) if isinstance(est, P.OneHotEncoder) else X
        fitted = est.fit(data)
        back = pickle.loads(pickle.dumps(fitted))
        np.testing.assert_allclose(back.transform(data), fitted.transform(data))
    from sklearn.linear_model import LogisticRegression
    pipe = Pipeline([("poly", P.PolynomialFeatures(2)), ("sc", P.StandardScaler()),
                     ("lr", LogisticRegression())]).fit(X, y)
    ref = Pipeline([("poly", skp.PolynomialFeatures(2)), ("sc", skp.StandardScaler()),
                    ("lr", LogisticRegression())]).fit(X, y)
    np.testing.assert_allclose(pipe.predict_proba(X), ref.predict_proba(X), rtol=1e-6)
    with pytest.raises(ValueError, match="features"):
        P.StandardScaler().fit(X).transform(X[:, :2])
    with pytest.raises(ValueError, match="NaN"):
        P.PolynomialFeatures().fit([[np.nan]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        P.StandardScaler().fit(pd.DataFrame(X, columns=list("abcd"))).transform(
            pd.DataFrame(X, columns=list("abcd")))


def test_scalers_refuse_infinity_and_zero_weights():
    X = _X()
    X[0, 0] = np.inf
    with pytest.raises(ValueError, match="infinity"):
        P.StandardScaler().fit(X)
    with pytest.raises(ValueError, match="infinity"):
        P.MinMaxScaler().fit(X)
    with pytest.raises(ValueError, match="non-zero"):
        P.StandardScaler().fit(_X(), sample_weight=np.zeros(40))


@pytest.mark.parametrize("kind", ["int", "str", "float"])
@pytest.mark.parametrize("k", [1, 2, 4])
def test_label_binarizer_equals_sklearn(device, kind, k):
    rng = np.random.default_rng(k)
    codes = rng.integers(0, k, 30)
    y = {"int": codes * 3 - 2, "float": codes * 2.0,
         "str": np.array(["virginica", "setosa", "versicolor", "ant"],
                         dtype=object)[codes]}[kind]
    ye = y if kind == "str" else ember.asarray(y, device=device)
    for kw in ({}, {"neg_label": -1, "pos_label": 2}):
        ours, ref = P.LabelBinarizer(**kw).fit(ye), skp.LabelBinarizer(**kw).fit(y)
        np.testing.assert_array_equal(_np(ours.classes_), ref.classes_)
        assert ours.y_type_ == ref.y_type_
        got, want = ours.transform(ye), ref.transform(y)
        assert isinstance(got, ember.ndarray) == (kind != "str")
        np.testing.assert_array_equal(_np(got), want)
        np.testing.assert_array_equal(_np(ours.inverse_transform(got)),
                                      ref.inverse_transform(want))
        # a label unseen at fit: a row of neg_label, as scikit-learn's
        if k > 2:
            probe = y[:3].copy()
            probe[0] = "zzz" if kind == "str" else 99
            np.testing.assert_array_equal(_np(ours.transform(probe)),
                                          ref.transform(probe))
    # the ROC example's use: string labels, a list, sparse output
    sp = P.LabelBinarizer(sparse_output=True).fit(y).transform(list(y[:5]))
    np.testing.assert_array_equal(sp.toarray(), skp.LabelBinarizer(
        sparse_output=True).fit(y).transform(list(y[:5])).toarray())


def test_label_binarizer_errors():
    for mod in (P, skp):
        with pytest.raises(ValueError, match="must be strictly less than"):
            mod.LabelBinarizer(neg_label=1, pos_label=1).fit([0, 1])
        with pytest.raises(ValueError, match="Sparse binarization"):
            mod.LabelBinarizer(neg_label=-1, sparse_output=True).fit([0, 1])
        with pytest.raises(ValueError, match="y has 0 samples"):
            mod.LabelBinarizer().fit([])
        with pytest.raises(ValueError, match="Unknown label type"):
            mod.LabelBinarizer().fit([0.5, 1.0, 1.5])
        with pytest.raises(ValueError, match="not fitted"):
            mod.LabelBinarizer().transform([0, 1])
    with pytest.raises(NotImplementedError, match="multilabel"):
        P.LabelBinarizer().fit(np.eye(3, dtype=int))
