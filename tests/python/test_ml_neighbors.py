"""ember.ml.neighbors against scikit-learn's on the same data, on every
device: neighbours' indices equal, distances allclose, votes and means."""
import pickle

import numpy as np
import pytest

import ember

skn = pytest.importorskip("sklearn.neighbors")
from sklearn.base import clone  # noqa: E402
from sklearn.model_selection import GridSearchCV  # noqa: E402
from sklearn.pipeline import Pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402

from ember.ml import neighbors as EN  # noqa: E402
from ember.ml.exceptions import NotFittedError  # noqa: E402

METRICS = [("minkowski", 2), ("minkowski", 1), ("euclidean", 2), ("manhattan", 2),
           ("cosine", 2), ("sqeuclidean", 2), ("chebyshev", 2), ("minkowski", 3)]


def _data(n=80, q=13, d=4, seed=0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)).astype(dtype)
    Q = rng.normal(size=(q, d)).astype(dtype)
    return X, Q, rng.integers(0, 3, n), rng.normal(size=n)


def _e(a, device):
    return ember.asarray(a, device=device)


@pytest.mark.parametrize("metric,p", METRICS)
def test_kneighbors(device, metric, p):
    X, Q, _, _ = _data()
    a = skn.NearestNeighbors(n_neighbors=6, metric=metric, p=p).fit(X)
    b = EN.NearestNeighbors(n_neighbors=6, metric=metric, p=p).fit(_e(X, device))
    assert b.effective_metric_ == a.effective_metric_
    assert b.effective_metric_params_ == {k: v for k, v in
                                          a.effective_metric_params_.items() if k != "w"}
    assert b.n_samples_fit_ == 80 and b.n_features_in_ == 4
    for q in (Q, None):
        wd, wi = a.kneighbors(q)
        d, i = b.kneighbors(None if q is None else _e(q, device))
        assert isinstance(d, ember.ndarray) and i.dtype == ember.int64
        np.testing.assert_array_equal(ember.asnumpy(i), wi)
        np.testing.assert_allclose(ember.asnumpy(d), wd, rtol=1e-7, atol=1e-7)
    i = b.kneighbors(_e(Q, device), n_neighbors=2, return_distance=False)
    np.testing.assert_array_equal(ember.asnumpy(i),
                                  a.kneighbors(Q, 2, return_distance=False))


def test_blocks_and_large_k(monkeypatch, device):
    X, Q, _, _ = _data(n=120, q=37)
    from ember.ml.neighbors import _search
    # a budget of 3 rows a block; k past the kernel's 64 takes the sort
    monkeypatch.setattr(_search, "BLOCK", 3 * 120)
    monkeypatch.setattr(_search.kneighbors, "__defaults__", (False, True, 3 * 120))
    a = skn.NearestNeighbors(n_neighbors=70).fit(X)
    b = EN.NearestNeighbors(n_neighbors=70).fit(X)
    for q in (Q, None):
        wd, wi = a.kneighbors(q)
        d, i = b.kneighbors(q)
        np.testing.assert_array_equal(i, wi)
        np.testing.assert_allclose(d, wd, rtol=1e-7, atol=1e-7)


@pytest.mark.parametrize("streams", [False, True])
def test_blocks_on_two_streams(monkeypatch, device, streams):
    # blocks alternate between two streams on a GPU (STREAM_DEVICES); here
    # on cpu too, with many small blocks, and self-exclusion
    from ember.ml.neighbors import _search
    monkeypatch.setattr(_search, "STREAM_DEVICES", {"cpu", "cuda"} if streams else set())
    X, Q, _, _ = _data(n=300, q=101, d=5)
    monkeypatch.setattr(_search.kneighbors, "__defaults__", (False, True, 7 * 300))
    for metric, dt in (("euclidean", np.float64), ("cosine", np.float64),
                       ("manhattan", np.float32)):
        Xd, Qd = X.astype(dt), Q.astype(dt)
        a = skn.NearestNeighbors(n_neighbors=6, metric=metric).fit(Xd)
        b = EN.NearestNeighbors(n_neighbors=6, metric=metric).fit(_e(Xd, device))
        for q in (Qd, None):
            wd, wi = a.kneighbors(q)
            d, i = b.kneighbors(None if q is None else _e(q, device))
            assert d.dtype == dt
            np.testing.assert_array_equal(ember.asnumpy(i), wi)
            np.testing.assert_allclose(ember.asnumpy(d), wd, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_top_k_kernel(device, dtype):
    # kernels/topk_rows.cuh (run by the cpu's block simulator here): many
    # ties, rows shorter than the block, k at both template sizes
    from ember.ml.neighbors import _search
    rng = np.random.default_rng(3)
    for b, n, k in ((5, 7, 3), (9, 1000, 10), (4, 300, 40), (3, 50, 50)):
        S = rng.integers(0, 20, size=(b, n)).astype(dtype)
        want = np.argsort(S, axis=1, kind="stable")[:, :k]
        for threads in (1, 128):    # cpu's and the GPU's block shapes
            v, i = _search.top_k_kernel(_e(S, device), k, threads=threads)
            np.testing.assert_array_equal(ember.asnumpy(i), want)
            np.testing.assert_array_equal(ember.asnumpy(v),
                                          np.take_along_axis(S, want, 1))
        # top_k_rows overwrites its block (ember.asarray may share S on cpu)
        v2, i2 = _search.top_k_rows(_e(S.copy(), device), k)
        np.testing.assert_array_equal(ember.asnumpy(i2), want)
        # the row vector added as the block is read
        add = rng.integers(0, 3, size=n).astype(dtype)
        want = np.argsort(S + add, axis=1, kind="stable")[:, :k]
        for f in (_search.top_k_kernel, _search.top_k_rows):
            v, i = f(_e(S.copy(), device), k, _e(add, device))
            np.testing.assert_array_equal(ember.asnumpy(i), want)
            np.testing.assert_array_equal(ember.asnumpy(v),
                                          np.take_along_axis(S + add, want, 1))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_top_k_warp_kernel(device, dtype):
    # kernels/topk_warp.cuh, the GPU's path (the cpu's block simulator runs
    # it here): ties everywhere, rows shorter than a warp and than one
    # chunk of loads, n not a multiple of the chunk, k = n, k at both
    # register layouts (one and two entries a lane), rows past a block's
    # warps, and a row of equal scores
    from ember.ml.neighbors import _search
    rng = np.random.default_rng(4)
    for b, n, k in ((5, 7, 3), (11, 1000, 10), (4, 300, 40), (3, 50, 50),
                    (2, 600, 64), (3, 33, 32), (1, 520, 1)):
        S = rng.integers(0, 20, size=(b, n)).astype(dtype)
        S[0] = 5
        add = rng.integers(0, 3, size=n).astype(dtype)
        for a in (None, add):
            T = S if a is None else S + a
            want = np.argsort(T, axis=1, kind="stable")[:, :k]
            v, i = _search.top_k_warp(_e(S, device), k,
                                      None if a is None else _e(a, device))
            np.testing.assert_array_equal(ember.asnumpy(i), want)
            np.testing.assert_array_equal(ember.asnumpy(v),
                                          np.take_along_axis(T, want, 1))
    # distinct values falling along the row: every candidate is inserted
    S = np.tile(np.arange(700, 0, -1, dtype=dtype), (2, 1))
    v, i = _search.top_k_warp(_e(S, device), 20)
    np.testing.assert_array_equal(ember.asnumpy(i), np.tile(np.arange(699, 679, -1), (2, 1)))


def test_top_k_warp_kernel_compiles_for_the_gpu(need_nvrtc):
    from ember.ml.neighbors import _search
    inst = "".join(
        f"template __global__ void {e}(const {c} *, const {c} *, long long, "
        f"long long, int, {c} *, long long *);\n"
        for e, c in zip(_search._warp_names(), ["float"] * 4 + ["double"] * 4))
    ptx = ember.cuda.Program(_search._WARP_KERNEL.read_text() + inst).compile("ptx").code
    assert ptx.count(b".entry") == 8


def test_float32_and_inner_product(device):
    X, Q, _, _ = _data(dtype=np.float32)
    b = EN.NearestNeighbors(n_neighbors=4).fit(_e(X, device))
    d, i = b.kneighbors(_e(Q, device))
    assert d.dtype == ember.float32
    wd, wi = skn.NearestNeighbors(n_neighbors=4).fit(X.astype(np.float64)).kneighbors(
        Q.astype(np.float64))
    np.testing.assert_array_equal(ember.asnumpy(i), wi)
    np.testing.assert_allclose(ember.asnumpy(d), wd, rtol=1e-4, atol=1e-4)
    # cuML's inner_product: the largest products first, reported as products
    ip = EN.NearestNeighbors(n_neighbors=3, metric="inner_product").fit(X)
    d, i = ip.kneighbors(Q)
    P = Q.astype(np.float64) @ X.T.astype(np.float64)
    np.testing.assert_array_equal(i, np.argsort(-P, axis=1, kind="stable")[:, :3])
    np.testing.assert_allclose(d, np.take_along_axis(P, i, 1), rtol=1e-5)


def test_self_exclusion_with_duplicates(device):
    # duplicates of a point: scikit-learn drops the point itself, or the
    # first neighbour where the point itself fell out of the k + 1
    X = np.array([[0.0, 0], [0, 0], [0, 0], [5, 5], [5, 6], [9, 9]])
    a = skn.NearestNeighbors(n_neighbors=2).fit(X)
    b = EN.NearestNeighbors(n_neighbors=2).fit(_e(X, device))
    wd, wi = a.kneighbors()
    d, i = b.kneighbors()
    np.testing.assert_allclose(ember.asnumpy(d), wd, atol=1e-12)
    # among equal distances ember keeps index order; scikit-learn's heaps
    # give some order: the same sets, ours sorted
    i = ember.asnumpy(i)
    np.testing.assert_array_equal(i[:3], [[1, 2], [0, 2], [0, 1]])
    np.testing.assert_array_equal(np.sort(i[:3], 1), np.sort(wi[:3], 1))
    np.testing.assert_array_equal(i[3:], wi[3:])


@pytest.mark.parametrize("mode", ["connectivity", "distance"])
def test_graphs(device, mode):
    X, Q, _, _ = _data()
    a = skn.NearestNeighbors(n_neighbors=3, radius=1.2).fit(X)
    b = EN.NearestNeighbors(n_neighbors=3, radius=1.2).fit(X)
    for q in (Q, None):
        g, w = b.kneighbors_graph(q, mode=mode), a.kneighbors_graph(q, mode=mode)
        assert g.format == "csr" and g.shape == w.shape
        np.testing.assert_allclose(g.toarray(), w.toarray(), atol=1e-12)
        g = b.radius_neighbors_graph(q, mode=mode)
        np.testing.assert_allclose(g.toarray(), a.radius_neighbors_graph(
            q, mode=mode).toarray(), atol=1e-12)
    ge = EN.NearestNeighbors(n_neighbors=3).fit(_e(X, device)).kneighbors_graph()
    from ember.scipy.sparse import issparse
    assert issparse(ge)
    np.testing.assert_array_equal(ge.get().toarray(), a.kneighbors_graph().toarray())


def test_radius_neighbors(device):
    X, Q, _, _ = _data()
    a = skn.NearestNeighbors(radius=1.3).fit(X)
    b = EN.NearestNeighbors(radius=1.3).fit(X)
    for q in (Q, None):
        wd, wi = a.radius_neighbors(q, sort_results=True)
        d, i = b.radius_neighbors(q, sort_results=True)
        assert len(i) == len(wi)
        for x, y, u, v in zip(d, wd, i, wi):
            np.testing.assert_array_equal(u, v)
            np.testing.assert_allclose(x, y, atol=1e-12)
        wi = a.radius_neighbors(q, radius=0.9, return_distance=False)
        i = b.radius_neighbors(q, radius=0.9, return_distance=False)
        for u, v in zip(i, wi):
            np.testing.assert_array_equal(np.sort(u), np.sort(v))


def test_precomputed(device):
    X, Q, _, _ = _data()
    from sklearn.metrics import pairwise_distances
    D, DQ = pairwise_distances(X), pairwise_distances(Q, X)
    a = skn.NearestNeighbors(n_neighbors=4, metric="precomputed").fit(D)
    b = EN.NearestNeighbors(n_neighbors=4, metric="precomputed").fit(_e(D, device))
    for q in (DQ, None):
        wd, wi = a.kneighbors(q)
        d, i = b.kneighbors(None if q is None else _e(q, device))
        np.testing.assert_array_equal(ember.asnumpy(i), wi)
        np.testing.assert_allclose(ember.asnumpy(d), wd)


@pytest.mark.parametrize("weights", ["uniform", "distance"])
@pytest.mark.parametrize("metric", ["minkowski", "cosine", "manhattan"])
def test_classifier(device, weights, metric):
    X, Q, y, _ = _data()
    a = skn.KNeighborsClassifier(5, weights=weights, metric=metric).fit(X, y)
    b = EN.KNeighborsClassifier(5, weights=weights, metric=metric).fit(
        _e(X, device), _e(y, device))
    P = b.predict_proba(_e(Q, device))
    assert isinstance(P, ember.ndarray)
    np.testing.assert_allclose(ember.asnumpy(P), a.predict_proba(Q), rtol=1e-10)
    np.testing.assert_array_equal(ember.asnumpy(b.predict(_e(Q, device))), a.predict(Q))
    assert isinstance(b.classes_, ember.ndarray) and not b.outputs_2d_
    np.testing.assert_array_equal(ember.asnumpy(b.classes_), a.classes_)
    assert isinstance(EN.KNeighborsClassifier().fit(X, y).classes_, np.ndarray)
    assert b.score(_e(X, device), _e(y, device)) == pytest.approx(a.score(X, y))


def test_classifier_string_labels_and_ties():
    X, Q, y, _ = _data()
    names = np.array(["cat", "dog", "emu"])[y]
    a = skn.KNeighborsClassifier(4).fit(X, names)
    b = EN.KNeighborsClassifier(4).fit(X, names)
    np.testing.assert_array_equal(b.classes_, a.classes_)
    # k=4 gives 2-2 votes: the smaller label wins in both
    np.testing.assert_array_equal(b.predict(Q), a.predict(Q))
    np.testing.assert_allclose(b.predict_proba(Q), a.predict_proba(Q))
    Xt = np.array([[0.0], [1.0], [2.0], [3.0]])
    yt = np.array([5, 1, 5, 1])
    np.testing.assert_array_equal(
        EN.KNeighborsClassifier(2).fit(Xt, yt).predict([[0.4], [2.6]]),
        skn.KNeighborsClassifier(2).fit(Xt, yt).predict([[0.4], [2.6]]))


@pytest.mark.parametrize("weights", ["uniform", "distance"])
def test_classifier_multi_output(device, weights):
    X, Q, y, _ = _data()
    Y = np.stack([y, (y * 7 + np.arange(80)) % 2 * 5], axis=1)
    a = skn.KNeighborsClassifier(4, weights=weights).fit(X, Y)
    b = EN.KNeighborsClassifier(4, weights=weights).fit(X, Y)
    assert b.outputs_2d_ and isinstance(b.classes_, list)
    for u, v in zip(b.classes_, a.classes_):
        assert isinstance(u, np.ndarray)
        np.testing.assert_array_equal(u, v)
    np.testing.assert_array_equal(b.predict(Q), a.predict(Q))
    for u, v in zip(b.predict_proba(Q), a.predict_proba(Q)):
        np.testing.assert_allclose(u, v, rtol=1e-12)
    names = np.array(["x", "y", "z"])[Y % 3]
    np.testing.assert_array_equal(
        EN.KNeighborsClassifier(4, weights=weights).fit(X, names).predict(Q),
        skn.KNeighborsClassifier(4, weights=weights).fit(X, names).predict(Q))
    e = EN.KNeighborsClassifier(4).fit(_e(X, device), _e(Y, device)).predict(_e(Q, device))
    assert isinstance(e, ember.ndarray) and e.shape == (13, 2)
    np.testing.assert_array_equal(ember.asnumpy(e),
                                  skn.KNeighborsClassifier(4).fit(X, Y).predict(Q))


def test_distance_weights_with_exact_match():
    X, _, y, r = _data()
    Q = X[:5] + 0.0      # zero distance: those neighbours weigh 1, the rest 0
    for E, S, t in ((EN.KNeighborsClassifier, skn.KNeighborsClassifier, y),
                    (EN.KNeighborsRegressor, skn.KNeighborsRegressor, r)):
        b = E(3, weights="distance", metric="manhattan").fit(X, t)
        a = S(3, weights="distance", metric="manhattan").fit(X, t)
        np.testing.assert_allclose(b.predict(Q), a.predict(Q))


@pytest.mark.parametrize("weights", ["uniform", "distance", lambda d: 1.0 / (1 + d)])
def test_regressor(device, weights):
    X, Q, _, r = _data()
    a = skn.KNeighborsRegressor(6, weights=weights).fit(X, r)
    b = EN.KNeighborsRegressor(6, weights=weights).fit(_e(X, device), _e(r, device))
    got = b.predict(_e(Q, device))
    assert isinstance(got, ember.ndarray) and got.ndim == 1
    np.testing.assert_allclose(ember.asnumpy(got), a.predict(Q), rtol=1e-10)
    R = np.stack([r, 2 * r + 1], axis=1)
    a.fit(X, R)
    b.fit(X, R)
    np.testing.assert_allclose(b.predict(Q), a.predict(Q), rtol=1e-10)
    assert b.score(Q, a.predict(Q)) == pytest.approx(1.0)


def test_float32_regressor_and_int_targets():
    X, Q, y, r = _data(dtype=np.float32)
    b = EN.KNeighborsRegressor(3).fit(X, r.astype(np.float32))
    assert b.predict(Q).dtype == np.float32
    got = EN.KNeighborsRegressor(3).fit(X, y).predict(Q)
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, skn.KNeighborsRegressor(3).fit(X, y).predict(Q),
                               rtol=1e-6)


def test_frames_and_params():
    pd = pytest.importorskip("pandas")
    X, Q, y, _ = _data()
    cols = ["a", "b", "c", "d"]
    pdf, qdf = pd.DataFrame(X, columns=cols), pd.DataFrame(Q, columns=cols)
    b = EN.KNeighborsClassifier(3).fit(pdf, pd.Series(y))
    assert list(b.feature_names_in_) == cols
    want = skn.KNeighborsClassifier(3).fit(X, y).predict(Q)
    np.testing.assert_array_equal(b.predict(qdf), want)
    import ember.frame as ef
    got = b.fit(ef.from_pandas(pdf), ember.asarray(y)).predict(ef.from_pandas(qdf))
    assert isinstance(got, ember.ndarray)
    np.testing.assert_array_equal(ember.asnumpy(got), want)
    c = clone(b)
    assert c.get_params() == b.get_params() and not hasattr(c, "classes_")
    c.set_params(n_neighbors=7, weights="distance")
    assert c.n_neighbors == 7 and repr(c) == \
        "KNeighborsClassifier(n_neighbors=7, weights='distance')"
    before = dict(b.__dict__)
    b.predict(qdf)
    assert b.__dict__.keys() == before.keys()    # a query leaves the estimator as is
    b2 = pickle.loads(pickle.dumps(b))
    np.testing.assert_array_equal(ember.asnumpy(b2.predict(ember.asarray(Q))), want)


def test_pipeline_gridsearch():
    X, _, y, _ = _data(n=90)
    pipe = Pipeline([("s", StandardScaler()), ("k", EN.KNeighborsClassifier())])
    ref = Pipeline([("s", StandardScaler()), ("k", skn.KNeighborsClassifier())])
    np.testing.assert_array_equal(pipe.fit(X, y).predict(X), ref.fit(X, y).predict(X))
    g = GridSearchCV(EN.KNeighborsClassifier(), {"n_neighbors": [1, 5, 9],
                                                 "weights": ["uniform", "distance"]},
                     cv=3).fit(X, y)
    w = GridSearchCV(skn.KNeighborsClassifier(), {"n_neighbors": [1, 5, 9],
                                                  "weights": ["uniform", "distance"]},
                     cv=3).fit(X, y)
    assert g.best_params_ == w.best_params_
    np.testing.assert_allclose(g.cv_results_["mean_test_score"],
                               w.cv_results_["mean_test_score"])


def test_errors():
    X, Q, y, _ = _data()
    with pytest.raises(NotFittedError):
        EN.NearestNeighbors().kneighbors(Q)
    nn = EN.NearestNeighbors(n_neighbors=3).fit(X)
    with pytest.raises(ValueError, match="Expected n_neighbors <= n_samples_fit"):
        nn.kneighbors(Q, n_neighbors=81)
    with pytest.raises(ValueError, match="Expected n_neighbors < n_samples_fit, but "
                       "n_neighbors = 80, n_samples_fit = 80, n_samples = 80"):
        nn.kneighbors(None, n_neighbors=80)
    # every other point, and every point
    X6 = X[:6]
    d, i = EN.NearestNeighbors().fit(X6).kneighbors(None, 5)
    wd, wi = skn.NearestNeighbors().fit(X6).kneighbors(None, 5)
    np.testing.assert_array_equal(i, wi)
    d, i = EN.NearestNeighbors().fit(X6).kneighbors(Q, 6)
    np.testing.assert_array_equal(i, skn.NearestNeighbors().fit(X6).kneighbors(Q, 6)[1])
    with pytest.raises(ValueError, match="Expected n_neighbors > 0"):
        nn.kneighbors(Q, n_neighbors=0)
    with pytest.raises(TypeError, match="does not take"):
        nn.kneighbors(Q, n_neighbors=2.5)
    with pytest.raises(ValueError, match="features"):
        nn.kneighbors(Q[:, :2])
    with pytest.raises(ValueError, match="NaN"):
        nn.kneighbors(np.full((1, 4), np.nan))
    for bad in (dict(n_neighbors=0), dict(algorithm="nope"), dict(metric="nope"),
                dict(p=0), dict(leaf_size=0)):
        with pytest.raises(ValueError):
            EN.KNeighborsClassifier(**bad).fit(X, y)
    with pytest.raises(ValueError):
        EN.KNeighborsClassifier(weights="nope").fit(X, y)
    with pytest.raises(ValueError, match="Unknown label type"):
        EN.KNeighborsClassifier().fit(X, np.linspace(0, 1, 80))
    with pytest.raises(ValueError, match="inconsistent"):
        EN.KNeighborsRegressor().fit(X, y[:10])
    with pytest.raises(ValueError, match="requires y"):
        EN.KNeighborsRegressor().fit(X, None)
    import scipy.sparse
    # sparse X is made dense (test_ml_sparse_input.py) unless too large
    with pytest.raises(TypeError, match="works on dense data"):
        EN.NearestNeighbors().fit(scipy.sparse.csr_matrix((10**5, 10**5)))
    Xo = X.astype(object)
    Xo[0, 0] = {"a": 1}
    with pytest.raises(TypeError, match="argument must be"):
        EN.NearestNeighbors().fit(Xo)
    with pytest.raises(NotImplementedError):
        EN.NearestNeighbors(metric_params={"w": 1}).fit(X)
    with pytest.raises(NotImplementedError):
        EN.NearestNeighbors(metric=lambda a, b: 0).fit(X)
    # every algorithm name gives the brute-force answer
    for alg in ("ball_tree", "kd_tree", "brute"):
        np.testing.assert_array_equal(
            EN.NearestNeighbors(algorithm=alg).fit(X).kneighbors(Q)[1],
            skn.NearestNeighbors(algorithm=alg).fit(X).kneighbors(Q)[1])


def test_accessible_from_ember_ml():
    import ember.ml
    assert ember.ml.neighbors.KNeighborsRegressor is EN.KNeighborsRegressor


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_gpu_sizes(need_cuda, dtype):
    # the GPU's path at sizes that take several blocks and the kernel's
    # long rows: 3,000 queries over 60,000 x 32
    rng = np.random.default_rng(7)
    X = rng.normal(size=(60000, 32)).astype(dtype)
    Q = rng.normal(size=(3000, 32)).astype(dtype)
    a = skn.NearestNeighbors(n_neighbors=10).fit(X.astype(np.float64))
    b = EN.NearestNeighbors(n_neighbors=10).fit(ember.asarray(X, device="cuda:0"))
    wd, wi = a.kneighbors(Q.astype(np.float64))
    d, i = b.kneighbors(ember.asarray(Q, device="cuda:0"))
    d, i = ember.asnumpy(d), ember.asnumpy(i)
    # float32 rounding may swap neighbours whose distances nearly tie
    assert (i == wi).mean() > (0.9999 if dtype == np.float64 else 0.995)
    np.testing.assert_allclose(d, wd, rtol=1e-4 if dtype == np.float32 else 1e-9)
    Xs = X[:20000]
    wd, wi = skn.NearestNeighbors(n_neighbors=5).fit(Xs.astype(np.float64)).kneighbors()
    d, i = EN.NearestNeighbors(n_neighbors=5).fit(
        ember.asarray(Xs, device="cuda:0")).kneighbors()
    assert (ember.asnumpy(i) == wi).mean() > 0.995
    np.testing.assert_allclose(ember.asnumpy(d), wd, rtol=1e-4 if dtype == np.float32
                               else 1e-9)


def _tf32(a):
    """float32 as a TF32 tensor core reads it, toward zero (the worse of
    the two roundings cuBLAS may use)."""
    return (np.ascontiguousarray(a, dtype=np.float32).view(np.int32) &
            np.int32(~0x1FFF)).view(np.float32)


def test_split_pieces_keep_float32_products_on_tf32():
    # _split's pieces through emulated TF32 inputs (products summed in
    # float64): float32's error, where TF32 alone errs by ~2^-11
    from ember.ml.neighbors import _split
    rng = np.random.default_rng(3)
    X = (rng.normal(size=(200, 64)) * 3 + 1).astype(np.float32)
    Y = (rng.normal(size=(300, 64)) * 7 - 2).astype(np.float32)
    A = ember.asnumpy(_split.left(ember.asarray(X)))
    B = ember.asnumpy(_split.right(ember.asarray(Y)))
    assert A.shape == (200, 192) and B.shape == (300, 192) and A.dtype == np.float32
    hi, lo = A[:, :64], A[:, 64:128]
    np.testing.assert_array_equal(A[:, 128:], hi)
    np.testing.assert_array_equal(hi + lo, X)
    np.testing.assert_array_equal(_tf32(hi), hi)
    np.testing.assert_array_equal(B[:, 64:128], B[:, :64])
    np.testing.assert_array_equal(B[:, :64] + B[:, 128:], Y)
    exact = X.astype(np.float64) @ Y.T.astype(np.float64)
    scale = np.abs(X).astype(np.float64) @ np.abs(Y).T.astype(np.float64)
    split = _tf32(A).astype(np.float64) @ _tf32(B).T.astype(np.float64)
    plain = _tf32(X).astype(np.float64) @ _tf32(Y).T.astype(np.float64)
    assert np.max(np.abs(split - exact) / scale) < 2.0 ** -20
    assert np.max(np.abs(plain - exact) / scale) > 2.0 ** -14
    # the training norms as three TF32-exact columns against three ones
    YY = (Y.astype(np.float64) ** 2).sum(1).astype(np.float32)
    A4, B4 = (ember.asnumpy(x) for x in _split.with_norms(
        ember.asarray(A), ember.asarray(B), ember.asarray(YY)))
    assert A4.shape == (200, 196) and B4.shape == (300, 196)
    np.testing.assert_array_equal(A4[:, :192], A)
    np.testing.assert_array_equal(A4[:, 192:], np.tile([1, 1, 1, 0], (200, 1)))
    np.testing.assert_array_equal(B4[:, :192], B)
    np.testing.assert_array_equal(B4[:, 195], 0)
    np.testing.assert_array_equal(_tf32(B4[:, 192:195]), B4[:, 192:195])
    np.testing.assert_array_equal(B4[:, 192:195].astype(np.float64).sum(1), YY)


@pytest.mark.parametrize("metric", ["euclidean", "sqeuclidean", "cosine",
                                    "inner_product"])
def test_split_product_path(monkeypatch, device, metric):
    # float32 product metrics take _split's 3xTF32 product on a GPU; here
    # on cpu too, over several blocks (the last short) on two streams (as
    # on a GPU) and with self-exclusion
    from ember.ml.neighbors import _search, _split
    monkeypatch.setattr(_split, "SPLIT_DEVICES", {"cpu", "cuda"})
    monkeypatch.setattr(_search, "STREAM_DEVICES", {"cpu", "cuda"})
    monkeypatch.setattr(_search.kneighbors, "__defaults__", (False, True, 9 * 400))
    rng = np.random.default_rng(5)
    X = (rng.normal(size=(400, 24)) * 4 + 2).astype(np.float32)
    Q = (rng.normal(size=(90, 24)) * 4 + 2).astype(np.float32)
    b = EN.NearestNeighbors(n_neighbors=7, metric=metric).fit(_e(X, device))
    # (a row's largest product need not be with itself: self-exclusion is
    # checked on the distances)
    for q in (Q,) if metric == "inner_product" else (Q, None):
        d, i = b.kneighbors(None if q is None else _e(q, device))
        assert d.dtype == ember.float32
        if metric == "inner_product":
            P = q.astype(np.float64) @ X.T.astype(np.float64)
            wi = np.argsort(-P, axis=1, kind="stable")[:, :7]
            wd = np.take_along_axis(P, wi, 1)
        else:
            a = skn.NearestNeighbors(n_neighbors=7, metric=metric).fit(
                X.astype(np.float64))
            wd, wi = a.kneighbors(None if q is None else q.astype(np.float64))
        np.testing.assert_array_equal(ember.asnumpy(i), wi)
        np.testing.assert_allclose(ember.asnumpy(d), wd, rtol=1e-4, atol=1e-4)


def test_split_product_only_where_it_applies(monkeypatch):
    # the split takes float32 product metrics within MAX_PIECE_BYTES;
    # float64, manhattan and larger pieces keep the plain product
    from ember.ml.neighbors import _split
    calls = []
    real = _split.tf32_matmul
    monkeypatch.setattr(_split, "tf32_matmul",
                        lambda *a, **kw: calls.append(1) or real(*a, **kw))
    # NumPy inputs run on the default device: cuda:0 on a GPU host
    monkeypatch.setattr(_split, "SPLIT_DEVICES", {"cpu", "cuda"})
    X, Q, _, _ = _data(n=100, q=9, d=6, dtype=np.float32)

    def used(dtype=np.float32, metric="euclidean"):
        calls.clear()
        b = EN.NearestNeighbors(n_neighbors=3, metric=metric).fit(X.astype(dtype))
        i = b.kneighbors(Q.astype(dtype), return_distance=False)
        wi = skn.NearestNeighbors(n_neighbors=3, metric=metric).fit(X).kneighbors(
            Q, return_distance=False)
        np.testing.assert_array_equal(i, wi)
        return bool(calls)
    assert used()
    assert not used(np.float64)
    assert not used(metric="manhattan")
    monkeypatch.setattr(_split, "MAX_PIECE_BYTES", 3 * (100 + 9) * 6 * 4 - 1)
    assert not used()
