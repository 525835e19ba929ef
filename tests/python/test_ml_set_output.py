"""scikit-learn's set_output on ember.ml's transformers, against
scikit-learn's own transformers: pandas output with the feature names and
the input's index, inside ColumnTransformer and Pipeline, the global
sklearn.set_config(transform_output=...), and its errors."""
import pickle

import numpy as np
import pytest

import ember

sklearn = pytest.importorskip("sklearn")
pd = pytest.importorskip("pandas")
from sklearn.base import clone  # noqa: E402
from sklearn.compose import ColumnTransformer  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402

from ember.ml import cluster as EC  # noqa: E402
from ember.ml import decomposition as ED  # noqa: E402
from ember.ml import preprocessing as EP  # noqa: E402

skp = pytest.importorskip("sklearn.preprocessing")
skd = pytest.importorskip("sklearn.decomposition")
skc = pytest.importorskip("sklearn.cluster")


def _frame():
    rng = np.random.default_rng(0)
    return pd.DataFrame({"a": rng.random(12), "b": rng.random(12) * 5,
                         "c": rng.integers(0, 4, 12).astype(float)},
                        index=[f"r{i}" for i in range(12)])


PAIRS = [("StandardScaler", {}), ("MinMaxScaler", {}), ("PolynomialFeatures", {}),
         ("OneHotEncoder", {"sparse_output": False}), ("PCA", {"n_components": 2}),
         ("TruncatedSVD", {"n_components": 2, "algorithm": "arpack"}),
         ("IncrementalPCA", {"n_components": 2}),
         ("KMeans", {"n_clusters": 2, "init": "random", "random_state": 0})]


def _pair(name, kw):
    for mod_e, mod_s in ((EP, skp), (ED, skd), (EC, skc)):
        if hasattr(mod_e, name) and hasattr(mod_s, name):
            return getattr(mod_e, name)(**kw), getattr(mod_s, name)(**kw)


@pytest.mark.parametrize("name,kw", PAIRS, ids=[p[0] for p in PAIRS])
def test_pandas_output_equals_sklearn(device, name, kw):
    X = _frame()
    ours, ref = _pair(name, kw)
    assert ours.set_output(transform="pandas") is ours
    ref.set_output(transform="pandas")
    want = ref.fit_transform(X)
    got = ours.fit_transform(X)
    assert isinstance(got, pd.DataFrame)
    assert list(got.columns) == list(want.columns)
    assert list(got.index) == list(want.index)
    np.testing.assert_allclose(np.abs(got.to_numpy(float)), np.abs(want.to_numpy(float)),
                               rtol=1e-6, atol=1e-9)
    got = ours.transform(X.iloc[3:7])
    assert list(got.index) == ["r3", "r4", "r5", "r6"]
    # ember input: a pandas frame of the host values, default index
    E = ember.asarray(X.to_numpy(), device=device)
    fresh = _pair(name, kw)[0].set_output(transform="pandas")
    got = fresh.fit(E).transform(E)
    assert isinstance(got, pd.DataFrame) and list(got.index) == list(range(12))
    # "default" goes back to the estimator's own output, clone and pickle keep it
    assert not isinstance(ours.set_output(transform="default").transform(X), pd.DataFrame)
    ours.set_output(transform="pandas")
    assert isinstance(clone(ours).fit(X).transform(X), pd.DataFrame)
    assert isinstance(pickle.loads(pickle.dumps(ours)).transform(X), pd.DataFrame)


def test_column_transformer_and_global_config():
    df = pd.DataFrame({"city": ["a", "b", "a", "c", "b", "a"],
                       "n": [1.0, 2, 3, 4, 5, 6]})
    for mod in (EP, skp):
        ct = ColumnTransformer([("oh", mod.OneHotEncoder(sparse_output=False), ["city"]),
                                ("sc", mod.StandardScaler(), ["n"])])
        out = make_pipeline(ct).set_output(transform="pandas").fit_transform(df)
        if mod is skp:
            want = out
        else:
            got = out
    pd.testing.assert_frame_equal(got, want)
    with sklearn.config_context(transform_output="pandas"):
        got = EP.StandardScaler().fit_transform(df[["n"]])
        want = skp.StandardScaler().fit_transform(df[["n"]])
        assert isinstance(got, pd.DataFrame)
        pd.testing.assert_frame_equal(got, want)
        # the estimator's own setting wins over the global one
        assert isinstance(EP.StandardScaler().set_output(transform="default")
                          .fit_transform(df[["n"]]), np.ndarray)


def test_set_output_errors():
    X = _frame()
    for mod in (EP, skp):
        # LabelEncoder has no feature names, so no set_output
        assert not hasattr(mod.LabelEncoder(), "set_output")
        with pytest.raises(ValueError, match="output config must be in"):
            mod.StandardScaler().set_output(transform="arrow").fit_transform(X)
        # sparse one-hot output cannot be a pandas frame
        with pytest.raises(ValueError, match="Pandas output does not support sparse"):
            mod.OneHotEncoder().set_output(transform="pandas").fit_transform(X[["c"]])
    # set_output(transform=None) changes nothing
    s = EP.StandardScaler()
    assert s.set_output() is s and "_sklearn_output_config" not in s.__dict__
