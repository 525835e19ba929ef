"""Hierarchical clustering on every device: ember.ml's AgglomerativeClustering
against scikit-learn's (labels as a partition, children_ and distances_) and
ember.scipy.cluster.hierarchy against SciPy's (Z, fcluster's numbering,
inconsistent, leaves_list), including the block kernels on cpu and their
errors."""
import pathlib

import numpy as np
import pytest

import ember

sk_cluster = pytest.importorskip("sklearn.cluster")
H = pytest.importorskip("scipy.cluster.hierarchy")
from scipy.spatial.distance import pdist  # noqa: E402
from sklearn.datasets import make_blobs  # noqa: E402
from sklearn.metrics import adjusted_rand_score  # noqa: E402

from ember.ml import cluster as ec  # noqa: E402
from ember.scipy.cluster import _linkage  # noqa: E402
from ember.scipy.cluster import hierarchy as eh  # noqa: E402

# cpu follows SciPy's operations in order (bit-equal); the GPU's reductions
# may round otherwise
TOL = dict(rtol=1e-10, atol=1e-12)
METHODS = ["single", "complete", "average", "weighted", "ward"]


@pytest.fixture(scope="module")
def blobs():
    X, _ = make_blobs(160, 4, centers=5, cluster_std=2.0, random_state=3)
    return X


def _e(X, device):
    return ember.asarray(X, device=device)


def _np(a):
    return ember.asnumpy(a) if isinstance(a, ember.ndarray) else np.asarray(a)


def _same_fit(a, b, distances=True):
    assert adjusted_rand_score(a.labels_, _np(b.labels_)) == 1.0
    np.testing.assert_array_equal(_np(b.children_), a.children_)
    assert _np(b.children_).dtype == np.int64
    assert (b.n_leaves_, b.n_connected_components_, b.n_clusters_) == \
        (a.n_leaves_, a.n_connected_components_, a.n_clusters_)
    if distances:
        assert _np(b.distances_).dtype == np.float64
        np.testing.assert_allclose(_np(b.distances_), a.distances_, **TOL)


# ---------------------------------------------------------------- scikit-learn
@pytest.mark.parametrize("linkage,metric", [
    ("ward", "euclidean"), ("ward", "l2"),
    ("complete", "euclidean"), ("complete", "l1"), ("complete", "cosine"),
    ("average", "euclidean"), ("average", "manhattan"), ("average", "cosine"),
    ("single", "euclidean"), ("single", "l1"), ("single", "cosine"),
    ("average", "chebyshev"), ("complete", "braycurtis"), ("single", "sqeuclidean")])
def test_equals_sklearn(device, blobs, linkage, metric):
    X = blobs
    for kw in (dict(n_clusters=5, compute_distances=True),
               dict(n_clusters=1, compute_distances=True),
               dict(n_clusters=None, distance_threshold=3.0)):
        if kw.get("distance_threshold") and metric in ("cosine", "braycurtis"):
            kw = dict(kw, distance_threshold=0.05)
        a = sk_cluster.AgglomerativeClustering(linkage=linkage, metric=metric, **kw).fit(X)
        b = ec.AgglomerativeClustering(linkage=linkage, metric=metric,
                                       **kw).fit(_e(X, device))
        assert isinstance(b.labels_, ember.ndarray) and b.labels_.device == \
            ember.Device(device)
        _same_fit(a, b)


def test_default_is_ward_and_numpy_out(blobs, on_cpu):
    a = sk_cluster.AgglomerativeClustering(n_clusters=3).fit(blobs)
    b = ec.AgglomerativeClustering(n_clusters=3).fit(blobs)
    assert isinstance(b.labels_, np.ndarray) and isinstance(b.children_, np.ndarray)
    _same_fit(a, b, distances=False)
    assert not hasattr(b, "distances_")
    assert adjusted_rand_score(a.labels_, b.fit_predict(blobs)) == 1.0


@pytest.mark.parametrize("linkage", ["complete", "average", "single"])
def test_precomputed_and_callable(device, blobs, linkage):
    from scipy.spatial.distance import cdist
    M = cdist(blobs, blobs, "cityblock")
    for metric, data in (("precomputed", M),
                         (lambda X: cdist(ember.asnumpy(X), ember.asnumpy(X), "cityblock"),
                          blobs)):
        a = sk_cluster.AgglomerativeClustering(n_clusters=4, linkage=linkage, metric=(
            metric if isinstance(metric, str) else (lambda X: cdist(X, X, "cityblock"))),
            compute_distances=True).fit(data)
        b = ec.AgglomerativeClustering(n_clusters=4, linkage=linkage, metric=metric,
                                       compute_distances=True).fit(_e(data, device))
        _same_fit(a, b)


def test_float32_input(device, blobs):
    X = blobs.astype(np.float32)
    for linkage in ("ward", "average"):
        a = sk_cluster.AgglomerativeClustering(n_clusters=5, linkage=linkage,
                                               compute_distances=True).fit(X)
        b = ec.AgglomerativeClustering(n_clusters=5, linkage=linkage,
                                       compute_distances=True).fit(_e(X, device))
        _same_fit(a, b)


def test_larger_on_device(device):
    # cpu: a size that still takes well under a second; the GPU a larger one
    n = 3000 if device.startswith("cuda") else 900
    X, _ = make_blobs(n, 6, centers=8, cluster_std=3.0, random_state=5)
    for linkage in ("ward", "single"):
        a = sk_cluster.AgglomerativeClustering(n_clusters=8, linkage=linkage,
                                               compute_distances=True).fit(X)
        b = ec.AgglomerativeClustering(n_clusters=8, linkage=linkage,
                                       compute_distances=True).fit(_e(X, device))
        _same_fit(a, b)


def test_sklearn_errors(blobs, on_cpu):
    X = blobs[:30]
    A = ec.AgglomerativeClustering
    with pytest.raises(ValueError, match="'linkage' parameter"):
        A(linkage="centroid").fit(X)
    with pytest.raises(ValueError, match="'metric' parameter"):
        A(metric="nope", linkage="average").fit(X)
    with pytest.raises(ValueError, match="Ward can only work with euclidean"):
        A(metric="manhattan").fit(X)
    with pytest.raises(ValueError, match="Ward can only work with euclidean"):
        A(metric="cosine", linkage="ward").fit(X)
    with pytest.raises(ValueError, match="more clusters than samples: 31 clusters"):
        A(n_clusters=31).fit(X)
    with pytest.raises(ValueError, match="Exactly one"):
        A(n_clusters=None).fit(X)
    with pytest.raises(ValueError, match="Exactly one"):
        A(n_clusters=2, distance_threshold=1.0).fit(X)
    with pytest.raises(ValueError, match="compute_full_tree must be True"):
        A(n_clusters=None, distance_threshold=1.0, compute_full_tree=False).fit(X)
    with pytest.raises(ValueError, match="n_clusters"):
        A(n_clusters=0).fit(X)
    with pytest.raises(ValueError, match="distance_threshold"):
        A(n_clusters=None, distance_threshold=-1.0).fit(X)
    with pytest.raises(ValueError):
        A().fit(X[:1])
    Z0 = X.copy()
    Z0[3] = 0
    with pytest.raises(ValueError, match="zero vectors"):
        A(metric="cosine", linkage="average").fit(Z0)
    with pytest.raises(ValueError,
                       match=r"should be square, got matrix of shape \(30, 4\)"):
        A(metric="precomputed", linkage="average").fit(X)
    with pytest.raises(NotImplementedError, match="connectivity"):
        A(connectivity=np.eye(30)).fit(X)
    with pytest.raises(NotImplementedError, match="mahalanobis"):
        A(metric="mahalanobis", linkage="average").fit(X)
    # scikit-learn raises the same classes
    with pytest.raises(ValueError):
        sk_cluster.AgglomerativeClustering(linkage="centroid").fit(X)
    with pytest.raises(ValueError):
        sk_cluster.AgglomerativeClustering(n_clusters=31).fit(X)
    with pytest.raises(ValueError):
        sk_cluster.AgglomerativeClustering(metric="manhattan").fit(X)


# ---------------------------------------------------------------- SciPy
@pytest.mark.parametrize("method", METHODS)
def test_linkage_equals_scipy(device, blobs, method):
    X = blobs
    # observations, and condensed distances (ward too, as SciPy allows)
    for y in (X, pdist(X), pdist(X, "cityblock")):
        Zs = H.linkage(y, method)
        Ze = eh.linkage(_e(y, device), method)
        assert Ze.device == ember.Device(device) and Ze.dtype == np.float64
        Ze = ember.asnumpy(Ze)
        assert Ze.shape == (len(X) - 1, 4)
        np.testing.assert_array_equal(Ze[:, [0, 1, 3]], Zs[:, [0, 1, 3]])
        np.testing.assert_allclose(Ze[:, 2], Zs[:, 2], **TOL)
        if device == "cpu":
            np.testing.assert_array_equal(Ze, Zs)


@pytest.mark.parametrize("metric", ["cityblock", "cosine", "sqeuclidean", "chebyshev",
                                    "canberra"])
def test_linkage_metrics(device, blobs, metric):
    for method in ("single", "average"):
        Zs = H.linkage(blobs, method, metric)
        Ze = ember.asnumpy(eh.linkage(_e(blobs, device), method, metric))
        np.testing.assert_array_equal(Ze[:, [0, 1, 3]], Zs[:, [0, 1, 3]])
        np.testing.assert_allclose(Ze[:, 2], Zs[:, 2], **TOL)


def test_linkage_metric_aliases_and_errors(device, blobs):
    X = _e(blobs[:40], device)
    for alias, name in (("cos", "cosine"), ("cb", "cityblock"), ("sqe", "sqeuclidean")):
        for method in ("single", "complete"):
            np.testing.assert_array_equal(ember.asnumpy(eh.linkage(X, method, alias)),
                                          ember.asnumpy(eh.linkage(X, method, name)))
    with pytest.raises(ValueError, match="Unknown Distance Metric"):
        eh.linkage(X, "single", "nope")
    with pytest.raises(ValueError):
        H.linkage(blobs[:40], "single", "nope")
    with pytest.raises(NotImplementedError, match="mahalanobis"):
        eh.linkage(X, "average", "mahalanobis")


def test_linkage_shortcuts_and_numpy_in(device, blobs):
    with ember.Device(device):
        for name in ("single", "complete", "average", "weighted", "ward"):
            Z = getattr(eh, name)(blobs)
            assert Z.device == ember.Device(device)
            Zs = getattr(H, name)(blobs)
            np.testing.assert_array_equal(ember.asnumpy(Z)[:, [0, 1, 3]], Zs[:, [0, 1, 3]])
            np.testing.assert_allclose(ember.asnumpy(Z)[:, 2], Zs[:, 2], **TOL)


def test_ties_follow_scipy_and_sklearn(device):
    # a grid: every distance ties with many others, so the order of the
    # merges is SciPy's tie rules (the chain's previous element, then the
    # lowest index; a stable sort by distance)
    g = np.stack(np.meshgrid(np.arange(6.0), np.arange(5.0)), -1).reshape(-1, 2)
    for method in METHODS:
        Zs = H.linkage(g, method)
        Ze = ember.asnumpy(eh.linkage(_e(g, device), method))
        np.testing.assert_array_equal(Ze[:, [0, 1, 3]], Zs[:, [0, 1, 3]])
        np.testing.assert_allclose(Ze[:, 2], Zs[:, 2], **TOL)
        for k in (2, 4, 7):
            np.testing.assert_array_equal(ember.asnumpy(eh.fcluster(Ze, k, "maxclust")),
                                          H.fcluster(Zs, k, "maxclust"))
    for linkage in ("ward", "complete", "average", "single"):
        a = sk_cluster.AgglomerativeClustering(n_clusters=5, linkage=linkage,
                                               compute_distances=True).fit(g)
        b = ec.AgglomerativeClustering(n_clusters=5, linkage=linkage,
                                       compute_distances=True).fit(_e(g, device))
        _same_fit(a, b)


@pytest.mark.parametrize("method", ["single", "average", "ward", "centroid"])
def test_fcluster_and_leaves_equal_scipy(device, blobs, method):
    # centroid's Z comes from SciPy: its distances are not monotone, so the
    # largest distance under each cluster is not its own
    Zs = H.linkage(blobs, method)
    Ze = _e(Zs, device)
    ll = eh.leaves_list(Ze)
    assert ll.dtype == np.int32
    np.testing.assert_array_equal(ember.asnumpy(ll), H.leaves_list(Zs))
    with pytest.raises(ValueError, match="t >= 1"):
        eh.fcluster(Ze, 0, "maxclust")   # SciPy's answer there is undefined
    for k in (1, 2, 3, 7, 40, 159, 160, 500):
        T = eh.fcluster(Ze, k, "maxclust")
        assert T.dtype == np.int32 and T.device == ember.Device(device)
        np.testing.assert_array_equal(ember.asnumpy(T), H.fcluster(Zs, k, "maxclust"))
    for t in np.quantile(Zs[:, 2], [0.0, 0.3, 0.8, 0.99, 1.0]).tolist() + [-1.0, 1e9]:
        np.testing.assert_array_equal(ember.asnumpy(eh.fcluster(Ze, t, "distance")),
                                      H.fcluster(Zs, t, "distance"))
    mc = np.random.default_rng(0).uniform(size=len(Zs))
    mc = np.maximum.accumulate(mc)
    for t in (0.2, 0.5, 0.9):
        np.testing.assert_array_equal(
            ember.asnumpy(eh.fcluster(Ze, t, "monocrit", monocrit=_e(mc, device))),
            H.fcluster(Zs, t, "monocrit", monocrit=mc))
    np.testing.assert_array_equal(
        ember.asnumpy(eh.fcluster(Ze, 5, "maxclust_monocrit", monocrit=mc)),
        H.fcluster(Zs, 5, "maxclust_monocrit", monocrit=mc))


@pytest.mark.parametrize("method", ["single", "average", "ward", "centroid"])
def test_inconsistent_and_fclusterdata(device, blobs, method):
    Zs = H.linkage(blobs, method)
    Ze = _e(Zs, device)
    for d in (0, 1, 2, 3, 6, 500):
        Re = eh.inconsistent(Ze, d)
        assert Re.device == ember.Device(device)
        np.testing.assert_allclose(ember.asnumpy(Re), H.inconsistent(Zs, d), **TOL)
    for depth in (1, 2, 4):
        for t in (0.6, 0.9, 1.1, 1.5, 3.0):
            np.testing.assert_array_equal(ember.asnumpy(eh.fcluster(Ze, t, depth=depth)),
                                          H.fcluster(Zs, t, depth=depth))
    R = H.inconsistent(Zs, 3)
    np.testing.assert_array_equal(ember.asnumpy(eh.fcluster(Ze, 1.0, R=_e(R, device))),
                                  H.fcluster(Zs, 1.0, R=R))
    if method == "centroid":
        return
    X = _e(blobs, device)
    for metric in ("euclidean", "cityblock"):
        # ward over another metric's distances, as SciPy's fclusterdata
        np.testing.assert_array_equal(
            ember.asnumpy(eh.fclusterdata(X, 1.0, metric=metric, method=method)),
            H.fclusterdata(blobs, 1.0, metric=metric, method=method))
        np.testing.assert_array_equal(
            ember.asnumpy(eh.fclusterdata(X, 4, "maxclust", metric=metric, method=method)),
            H.fclusterdata(blobs, 4, "maxclust", metric=metric, method=method))


@pytest.mark.parametrize("threads", [8, 32, 64])
def test_block_kernels_on_cpu(monkeypatch, blobs, threads):
    # the GPU's schedule (a block of threads reducing each row together:
    # by halving below a warp, by shuffles from one) in the block
    # simulator: the same merges as one thread's
    monkeypatch.setattr(_linkage, "THREADS", dict(_linkage.THREADS, cpu=threads))
    X = _e(blobs[:90], "cpu")
    for method in METHODS:
        for metric in ("euclidean", "cosine"):
            if method == "ward" and metric != "euclidean":
                continue
            Ze = ember.asnumpy(eh.linkage(X, method, metric))
            Zs = H.linkage(blobs[:90], method, metric)
            # SciPy's cosine is another formula, equal to rounding
            np.testing.assert_array_equal(Ze[:, [0, 1, 3]], Zs[:, [0, 1, 3]])
            np.testing.assert_allclose(Ze[:, 2], Zs[:, 2], **TOL)


@pytest.fixture
def on_cpu():
    with ember.Device("cpu"):
        yield


def test_scipy_errors(blobs, on_cpu):
    X = blobs[:20]
    with pytest.raises(ValueError, match="Invalid method: nope"):
        eh.linkage(X, "nope")
    for m in ("centroid", "median"):
        with pytest.raises(NotImplementedError, match=m):
            eh.linkage(X, m)
        with pytest.raises(NotImplementedError, match=m):
            getattr(eh, m)(X)
    with pytest.raises(ValueError, match="requires the distance metric to be Euclidean"):
        eh.linkage(X, "ward", "cityblock")
    with pytest.raises(ValueError, match="binomial coefficient"):
        eh.linkage(np.ones(7))
    with pytest.raises(ValueError, match="finite"):
        eh.linkage(np.array([1.0, np.inf, 2.0]))
    for method in ("average", "single"):
        with pytest.raises(ValueError, match="finite"):
            eh.linkage(np.vstack([X[:3], np.zeros((1, 4))]), method, "cosine")
        with pytest.raises(ValueError):
            H.linkage(np.vstack([X[:3], np.zeros((1, 4))]), method, "cosine")
    with pytest.raises(ValueError, match="1 or 2 dimensional"):
        eh.linkage(np.ones((2, 2, 2)))
    with pytest.raises(NotImplementedError, match="optimal_ordering"):
        eh.linkage(X, optimal_ordering=True)
    for bad in (np.ones(7), np.array([1.0, np.inf, 2.0]), np.ones((2, 2, 2))):
        with pytest.raises(ValueError):
            H.linkage(bad)
    Z = H.linkage(X, "average")
    with pytest.raises(ValueError, match="Invalid cluster formation criterion: nope"):
        eh.fcluster(Z, 2, "nope")
    with pytest.raises(ValueError, match="nonnegative integer"):
        eh.inconsistent(Z, -1)
    with pytest.raises(ValueError, match="nonnegative integer"):
        H.inconsistent(Z, -1)
    R = H.inconsistent(Z)
    with pytest.raises(ValueError, match="4 columns"):
        eh.fcluster(Z, 1.0, R=R[:, :3])
    badR = R.copy()
    badR[0, 2] = -1
    with pytest.raises(ValueError, match="negative link counts"):
        eh.fcluster(Z, 1.0, R=badR)
    assert not eh.is_valid_im(badR) and not H.is_valid_im(badR)
    assert eh.is_valid_im(R) and H.is_valid_im(R)
    with pytest.raises(ValueError, match="rows"):
        eh.fcluster(Z, 1.0, R=R[:5])
    with pytest.raises(TypeError, match="n by m"):
        eh.fclusterdata(np.ones(5), 1.0)
    with pytest.raises(TypeError, match="must contain doubles"):
        eh.leaves_list(Z.astype(np.int64))
    with pytest.raises(ValueError, match="4 columns"):
        eh.leaves_list(Z[:, :3])
    bad = Z.copy()
    bad[2, 0] = -1
    with pytest.raises(ValueError, match="negative indices"):
        eh.fcluster(bad, 2, "maxclust")
    bad = Z.copy()
    bad[0, 1] = len(Z) + 5
    with pytest.raises(ValueError, match="before it is formed"):
        eh.leaves_list(bad)
    for v in (np.nan, 2.5):
        bad = Z.copy()
        bad[3, 1] = v
        with pytest.raises(ValueError, match="not integers"):
            eh.fcluster(bad, 2, "distance")
    bad = Z.copy()
    bad[5, :2] = bad[4, :2]
    with pytest.raises(ValueError, match="more than once"):
        eh.leaves_list(bad)
    assert eh.is_valid_linkage(Z) and not eh.is_valid_linkage(bad)
    assert H.is_valid_linkage(Z) and not H.is_valid_linkage(bad)


def test_kernels_compile_for_the_gpu(need_nvrtc):
    # every instantiation the GPU uses, through NVRTC (no GPU needed);
    # linkage.cuh is compiled after linkage_dist.cuh, as _linkage does
    kdir = pathlib.Path(_linkage._DIR)
    t = _linkage.THREADS["cuda"]
    dist = (kdir / "linkage_dist.cuh").read_text()
    inst = "".join(
        f"template __global__ void em_linkage_chain<{m}, {t}>(double *, long long, "
        "int *, int *, long long *, long long *, double *);\n" for m in range(1, 5))
    inst += (f"template __global__ void em_linkage_prim<{t}>(const double *, long long, "
             "double *, int *, long long *, long long *, double *);\n")
    inst += "".join(
        f"template __global__ void em_linkage_prim_x<{m}, {t}>(const double *, long long, "
        "int, double *, int *, long long *, long long *, double *);\n" for m in range(5))
    ptx = ember.cuda.Program(dist + (kdir / "linkage.cuh").read_text() + inst,
                             ).compile("ptx").code
    assert ptx.count(b".entry") == 11
    ptx = ember.cuda.Program((kdir / "linkage_tree.cuh").read_text()).compile("ptx").code
    assert ptx.count(b".entry") == 5
    inst = "".join(f"template __global__ void em_linkage_dist<{m}>(const double *, "
                   "long long, int, double *);\n" for m in range(5))
    ptx = ember.cuda.Program(dist + inst).compile("ptx").code
    assert ptx.count(b".entry") == 5


def test_namespace():
    import ember.scipy
    assert "cluster" in ember.scipy.__all__
    assert ember.scipy.cluster.hierarchy is eh
    assert {"linkage", "fcluster", "fclusterdata", "inconsistent",
            "leaves_list"} <= set(eh.__all__)
