"""ember.scipy.spatial (KDTree, distance_matrix) and .distance (cdist,
pdist, squareform, the metrics) against SciPy on every device: values,
dtypes and shapes, ties (distances compared always, indices only where a
query's distance is unique), float32 and integer inputs, empty inputs,
and SciPy's exception classes and messages."""
import math
import warnings

import numpy as np
import pytest
import scipy.spatial as ssp
import scipy.spatial.distance as ssd

import ember
import ember.scipy.spatial as es
import ember.scipy.spatial.distance as ed

rng = np.random.default_rng(1618)
METRICS = ["euclidean", "sqeuclidean", "cityblock", "chebyshev", "cosine",
           "correlation", "hamming", "jaccard", "canberra", "braycurtis", "minkowski"]


def E(a, device):
    return ember.asarray(np.asarray(a), device=device)


def N(x):
    return ember.asnumpy(x) if isinstance(x, ember.ndarray) else np.asarray(x)


def check(got, want, tol=1e-12):
    want = np.asarray(want)
    got = N(got)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol, equal_nan=True)


def grid_points(n, dim):
    # small integers: many exactly tied distances
    return rng.integers(0, 4, size=(n, dim)).astype(np.float64)


# ---- cdist / pdist ----------------------------------------------------------------

@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "bool"])
def test_cdist(device, metric, dtype):
    if dtype == "bool":
        A, B = rng.random((9, 5)) > 0.5, rng.random((7, 5)) > 0.5
    else:
        A = (rng.standard_normal((9, 5)) * 3).astype(dtype)
        B = (rng.standard_normal((7, 5)) * 3).astype(dtype)
        A[2] = 0   # zero rows: SciPy's NaNs (cosine) and 0/0 terms (canberra)
        B[1] = 0
    with np.errstate(all="ignore"):
        want = ssd.cdist(A, B, metric)
    check(ed.cdist(E(A, device), E(B, device), metric), want)


@pytest.mark.parametrize("p", [1, 2, 3, 0.5, 1.5, math.inf])
def test_cdist_minkowski_p(device, p):
    A, B = rng.standard_normal((6, 4)), rng.standard_normal((5, 4))
    check(ed.cdist(E(A, device), E(B, device), "minkowski", p=p),
          ssd.cdist(A, B, "minkowski", p=p))
    check(ed.cdist(E(A, device), E(B, device), "pnorm", p=p),
          ssd.cdist(A, B, "pnorm", p=p))


@pytest.mark.parametrize("metric", METRICS)
def test_pdist_squareform(device, metric):
    X = grid_points(13, 3)
    X[0] = 0
    with np.errstate(all="ignore"):
        want = ssd.pdist(X, metric)
    got = ed.pdist(E(X, device), metric)
    check(got, want)
    check(ed.squareform(got), ssd.squareform(want))
    # NaNs (cosine of the zero row) fail the symmetry check, as in SciPy
    check(ed.squareform(ed.squareform(got), checks=False), want)


def test_cdist_pdist_empty(device):
    for metric in ("euclidean", "chebyshev", "cosine", "hamming", "braycurtis",
                   "canberra", "correlation"):
        for a, b in ((np.zeros((0, 2)), np.ones((3, 2))),
                     (np.ones((2, 0)), np.ones((3, 0)))):
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                want = ssd.cdist(a, b, metric)
            check(ed.cdist(E(a, device), E(b, device), metric), want)
    for x in (np.zeros((0, 2)), np.ones((1, 2))):
        check(ed.pdist(E(x, device)), ssd.pdist(x))


def test_cdist_out_and_aliases(device):
    A, B = rng.standard_normal((4, 3)), rng.standard_normal((2, 3))
    with ember.Device(device):
        out = ember.zeros((4, 2))
    r = ed.cdist(E(A, device), E(B, device), "eu", out=out)
    assert r is out
    check(out, ssd.cdist(A, B))
    check(ed.pdist(E(A, device), "cb"), ssd.pdist(A, "cb"))
    with pytest.raises(ValueError, match="Output array has incorrect shape."):
        with ember.Device(device):
            ed.cdist(E(A, device), E(B, device), out=ember.zeros((4, 3)))
    with pytest.raises(ValueError, match="wrong out dtype, expected float64"):
        with ember.Device(device):
            ed.cdist(E(A, device), E(B, device),
                     out=ember.zeros((4, 2), dtype=ember.float32))


def test_cdist_errors(device):
    A, B = E(np.ones((3, 2)), device), E(np.ones((2, 2)), device)
    with pytest.raises(ValueError, match="Unknown Distance Metric: foo"):
        ed.cdist(A, B, "foo")
    with pytest.raises(ValueError, match="Unknown Distance Metric: foo"):
        ed.pdist(A, "foo")
    with pytest.raises(ValueError, match=r"XA must be a 2-dimensional array."):
        ed.cdist(E(np.ones(2), device), B)
    with pytest.raises(ValueError, match=r"XB must be a 2-dimensional array."):
        ed.cdist(A, E(np.ones((1, 2, 2)), device))
    with pytest.raises(ValueError, match=r"XA and XB must have the same number of columns"):
        ed.cdist(A, E(np.ones((2, 3)), device))
    with pytest.raises(ValueError, match=r"A 2-dimensional array must be passed. "
                                         r"\(Shape was \(2,\)\)."):
        ed.pdist(E(np.ones(2), device))
    with pytest.raises(TypeError, match="2nd argument metric must be a string identifier"):
        ed.cdist(A, B, 3)
    with pytest.raises(ValueError, match="Unsupported dtype complex128"):
        ed.cdist(E(np.ones((3, 2), complex), device), B)
    with pytest.raises(NotImplementedError, match="callable"):
        ed.cdist(A, B, lambda u, v: 0.0)
    with pytest.raises(NotImplementedError, match="mahalanobis"):
        ed.cdist(A, B, "mahalanobis")
    with pytest.raises(ValueError, match="p must be greater than 0"):
        ed.cdist(A, B, "minkowski", p=0)
    for f in (ssd.cdist, ed.cdist):   # SciPy refuses p for other metrics too
        with pytest.raises(TypeError):
            f(N(A) if f is ssd.cdist else A, N(B) if f is ssd.cdist else B, "cosine", p=3)


def test_squareform_edges_errors(device):
    check(ed.squareform(E(np.array([], np.float64), device)), ssd.squareform(np.array([])))
    check(ed.squareform(E(np.zeros((1, 1)), device)), ssd.squareform(np.zeros((1, 1))))
    v = np.array([1, 2, 3], np.int32)
    check(ed.squareform(E(v, device)), ssd.squareform(v))
    check(ed.squareform(E(np.array([[0.0, 2], [3, 0]]), device), checks=False),
          ssd.squareform(np.array([[0.0, 2], [3, 0]]), checks=False))
    cases = [(np.array([1.0, 2.0]), {}, "Incompatible vector size. It must be a binomial"),
             (np.array([[1.0, 2], [2, 1]]), {},
              "Distance matrix 'X' diagonal must be zero."),
             (np.array([[0.0, 2], [3, 0]]), {}, "Distance matrix 'X' must be symmetric."),
             (np.zeros((2, 3)), {}, "The matrix argument must be square."),
             (np.zeros((2, 2, 2)), {}, "The first argument must be one or two dimensional"),
             (np.array([1.0, 2, 3]), {"force": "tovector"},
              "Forcing 'tovector' but input X is not a distance matrix.")]
    for a, kw, msg in cases:
        with pytest.raises(ValueError, match=msg):
            ssd.squareform(a, **kw)
        with pytest.raises(ValueError, match=msg):
            ed.squareform(E(a, device), **kw)


def test_vector_metrics(device):
    u, v = rng.standard_normal(6), rng.standard_normal(6)
    for name in ("braycurtis", "canberra", "chebyshev", "cityblock", "correlation",
                 "cosine", "euclidean", "hamming", "jaccard", "sqeuclidean"):
        got = getattr(ed, name)(E(u, device), E(v, device))
        check(got, np.float64(getattr(ssd, name)(u, v)))
    check(ed.minkowski(E(u, device), E(v, device), 3), ssd.minkowski(u, v, 3))
    with pytest.raises(ValueError, match="p must be greater than 0"):
        ed.minkowski(E(u, device), E(v, device), 0)
    with pytest.raises(ValueError, match="Input vector should be 1-D."):
        ed.euclidean(E([[1.0, 2.0]], device), E([[3.0, 4.0]], device))
    with pytest.raises(ValueError, match="operands could not be broadcast together"):
        ed.euclidean(E([1.0, 2.0], device), E([3.0, 4.0, 5.0], device))


# ---- distance_matrix ----------------------------------------------------------------

@pytest.mark.parametrize("p", [1, 2, 3, 0.5, math.inf])
def test_distance_matrix(device, p):
    x = rng.standard_normal((8, 3)).astype(np.float32)
    y = rng.standard_normal((5, 3))
    check(es.distance_matrix(E(x, device), E(y, device), p=p),
          ssp.distance_matrix(x, y, p=p))
    check(es.distance_matrix(E(x, device), E(y, device), p=p, threshold=1),
          ssp.distance_matrix(x, y, p=p, threshold=1))


def test_distance_matrix_edges_errors(device):
    check(es.distance_matrix(E(np.zeros((0, 2)), device), E([[3.0, 4.0]], device)),
          ssp.distance_matrix(np.zeros((0, 2)), [[3.0, 4.0]]))
    with pytest.raises(ValueError, match="x contains 2-dimensional vectors but y "
                                         "contains 1-dimensional vectors"):
        es.distance_matrix(E(np.ones((3, 2)), device), E(np.ones((2, 1)), device))
    with pytest.raises(ValueError):
        es.distance_matrix(E([1.0, 2.0], device), E([3.0, 4.0], device))
    with pytest.raises(ZeroDivisionError):
        es.distance_matrix(E([[1.0, 2.0]], device), E([[3.0, 4.0]], device), p=0)


# ---- KDTree.query -------------------------------------------------------------------

def unique_mask(D, d, tol=1e-9):
    """Per returned distance d[j, c], whether exactly one point of the
    query's row D[j] lies at that distance (its index is then determined)."""
    return (np.abs(D[:, None, :] - d[:, :, None]) <= tol).sum(axis=2) == 1


def check_query(got, want, D):
    (d, i), (d2, i2) = got, want
    check(d, d2)
    i, i2 = N(i), np.asarray(i2)
    assert i.dtype == np.int64 and i.shape == i2.shape
    if D is not None and i2.size:
        dd = np.asarray(d2).reshape(-1, np.asarray(d2).shape[-1] if np.ndim(d2) > 1 else 1)
        u = unique_mask(D, dd).reshape(i2.shape) | ~np.isfinite(np.asarray(d2))
        assert (i[u] == i2[u]).all()


@pytest.mark.parametrize("p", [1, 2, 3, math.inf])
@pytest.mark.parametrize("k", [1, 3, [1, 4], [2]])
def test_query_ties(device, p, k):
    X = grid_points(60, 3)
    Q = grid_points(17, 3) + np.array([0.0, 0.5, 0.0])
    T, S = es.KDTree(E(X, device)), ssp.KDTree(X)
    D = ssd.cdist(Q, X, "minkowski", p=p)
    check_query(T.query(E(Q, device), k=k, p=p), S.query(Q, k=k, p=p), D)


@pytest.mark.parametrize("k", [1, 5, 70])
def test_query_random_float32(device, k):
    X = rng.standard_normal((300, 4)).astype(np.float32)
    Q = rng.standard_normal((40, 4)).astype(np.float32)
    T, S = es.KDTree(E(X, device)), ssp.KDTree(X)
    assert T.data.dtype == ember.float64 and (T.n, T.m) == (S.n, S.m)
    check(T.data, S.data)
    d, i = T.query(E(Q, device), k=k)
    d2, i2 = S.query(Q, k=k)
    check(d, d2)
    assert (N(i) == i2).all()


def test_query_exact_small_distances(device):
    # far from the origin, the matmul identity would lose these distances
    X = 1e6 + rng.standard_normal((50, 3)) * 1e-3
    Q = X[:5] + 1e-7
    d, i = es.KDTree(E(X, device)).query(E(Q, device), k=2)
    d2, i2 = ssp.KDTree(X).query(Q, k=2)
    np.testing.assert_allclose(N(d), d2, rtol=1e-6)
    assert (N(i) == i2).all()


def test_query_shapes_bound_padding(device):
    X = grid_points(10, 2)
    T, S = es.KDTree(E(X, device)), ssp.KDTree(X)
    D = lambda Q: ssd.cdist(Q.reshape(-1, 2), X)   # noqa: E731
    q1 = np.array([0.5, 1.5])
    d, i = T.query(E(q1, device))
    assert d.shape == () and i.shape == ()
    check_query((d, i), S.query(q1), None)
    assert float(d) == pytest.approx(S.query(q1)[0])
    check_query(T.query(E(q1, device), k=3), S.query(q1, k=3), D(q1))
    Q3 = rng.uniform(0, 3, size=(2, 3, 2))
    check_query(T.query(E(Q3, device), k=[1, 2]), S.query(Q3, k=[1, 2]), D(Q3))
    # k past n: inf and index n
    check_query(T.query(E(Q3, device), k=12), S.query(Q3, k=12), D(Q3))
    for p in (1, 2, math.inf):
        for bound in (1.0, 1.5, 0.0):
            check_query(T.query(E(Q3, device), k=4, p=p, distance_upper_bound=bound),
                        S.query(Q3, k=4, p=p, distance_upper_bound=bound), D(Q3))
    # a bound exactly at a distance excludes it (SciPy's strict <)
    check_query(T.query(E([[0.0, 0.0]], device), k=3, distance_upper_bound=1.0),
                S.query([[0.0, 0.0]], k=3, distance_upper_bound=1.0), D(np.zeros(2)))


def test_query_empty(device):
    X = grid_points(10, 2)
    T, S = es.KDTree(E(X, device)), ssp.KDTree(X)
    for Q, k in ((np.zeros((0, 2)), 1), (np.zeros((0, 2)), 2), (np.zeros((3, 0, 2)), 2)):
        check_query(T.query(E(Q, device), k=k), S.query(Q, k=k), None)
    T0, S0 = es.KDTree(E(np.zeros((0, 2)), device)), ssp.KDTree(np.zeros((0, 2)))
    assert T0.n == 0 and T0.m == 2
    check_query(T0.query(E([[0.0, 0.0]], device), k=2), S0.query([[0.0, 0.0]], k=2), None)


def test_kdtree_errors(device):
    X = E(grid_points(10, 2), device)
    T = es.KDTree(X)
    with pytest.raises(ValueError, match="Only p-norms with 1<=p<=infinity permitted"):
        T.query(X, p=0.5)
    with pytest.raises(ValueError, match=r"x must consist of vectors of length 2 but "
                                         r"has shape \(1, 3\)"):
        T.query(E([[0.0, 0.0, 0.0]], device))
    with pytest.raises(ValueError, match="k must be at least 1"):
        T.query(X, k=0)
    with pytest.raises(TypeError, match="k must be an integer"):
        T.query(X, k=1.5)
    with pytest.raises(ValueError, match="data must be of shape"):
        es.KDTree(E(np.zeros(3), device))
    with pytest.raises(ValueError, match="data must be finite"):
        es.KDTree(E([[np.nan, 1.0]], device))
    with pytest.raises(ValueError, match="leafsize must be at least 1"):
        es.KDTree(X, leafsize=0)
    with pytest.raises(ValueError, match="'x' must be finite, check for nan or inf"):
        T.query(E([[np.nan, 0.0]], device))
    with pytest.raises(ValueError, match="'x' must be finite, check for nan or inf"):
        T.query_ball_point(E([np.inf, 0.0], device), 1.0)
    with pytest.raises(ValueError, match="Only p-norms"):
        T.query_ball_point(X, 1.0, p=0.5)
    with pytest.raises(ValueError, match="x must consist of vectors of length 2"):
        T.query_ball_point(E([0.0, 0.0, 0.0], device), 1.0)


# ---- query_ball_point and count_neighbors -----------------------------------------

@pytest.mark.parametrize("p", [1, 2, 3, math.inf])
def test_query_ball_point(device, p):
    X = rng.uniform(0, 4, size=(80, 2))
    Q = rng.uniform(0, 4, size=(3, 4, 2))
    T, S = es.KDTree(E(X, device)), ssp.KDTree(X)
    got, want = T.query_ball_point(E(Q, device), 1.1, p=p), S.query_ball_point(Q, 1.1, p=p)
    assert got.dtype == object and got.shape == want.shape
    assert all(a == sorted(b) for a, b in zip(got.ravel(), want.ravel()))
    r = rng.uniform(0, 2, size=(3, 4))
    got, want = T.query_ball_point(E(Q, device), E(r, device), p=p), \
        S.query_ball_point(Q, r, p=p)
    assert all(a == sorted(b) for a, b in zip(got.ravel(), want.ravel()))
    n = T.query_ball_point(E(Q, device), 1.1, p=p, return_length=True)
    check(n, S.query_ball_point(Q, 1.1, p=p, return_length=True))
    one = T.query_ball_point(E(Q[0, 0], device), 1.1, p=p)
    assert isinstance(one, list) and one == sorted(S.query_ball_point(Q[0, 0], 1.1, p=p))


def test_query_ball_point_ties_empty(device):
    X = grid_points(40, 2)
    T, S = es.KDTree(E(X, device)), ssp.KDTree(X)
    # radius exactly at grid distances: SciPy's <= r
    got = T.query_ball_point(E(X[:5], device), 1.0, return_sorted=True)
    want = S.query_ball_point(X[:5], 1.0, return_sorted=True)
    assert all(a == b for a, b in zip(got, want))
    e = T.query_ball_point(E(np.zeros((0, 2)), device), 1.0)
    assert e.shape == (0,) and e.dtype == object
    T0 = es.KDTree(E(np.zeros((0, 2)), device))
    assert T0.query_ball_point(E([0.0, 0.0], device), 1.0) == []


@pytest.mark.parametrize("p", [1, 2, 3, math.inf])
def test_query_pairs_ball_tree(device, p):
    A, B = grid_points(30, 2), rng.uniform(0, 3, size=(12, 2))
    T, U = es.KDTree(E(A, device)), es.KDTree(E(B, device))
    S, V = ssp.KDTree(A), ssp.KDTree(B)
    for r in (1.0, 1.5, 0.0):   # grid distances exactly at r count
        assert T.query_pairs(r, p=p) == S.query_pairs(r, p=p)
        got = T.query_pairs(r, p=p, output_type="ndarray")
        want = S.query_pairs(r, p=p, output_type="ndarray")
        # SciPy's rows come in its tree's order; ember's by (i, j)
        check(got, want[np.lexsort((want[:, 1], want[:, 0]))])
        assert U.query_ball_tree(T, r, p=p) == \
            [sorted(v) for v in V.query_ball_tree(S, r, p=p)]
    one = es.KDTree(E(A[:1], device))
    assert one.query_pairs(5.0) == set()
    assert one.query_pairs(5.0, output_type="ndarray").shape == (0, 2)
    with pytest.raises(ValueError, match="Invalid output type"):
        T.query_pairs(1.0, output_type="foo")
    with pytest.raises(ValueError, match="different dimensionality"):
        T.query_ball_tree(es.KDTree(E(np.ones((3, 1)), device)), 1.0)


@pytest.mark.parametrize("p", [1, 2, math.inf])
def test_count_neighbors(device, p):
    A, B = grid_points(30, 2), grid_points(25, 2)
    T, U = es.KDTree(E(A, device)), es.KDTree(E(B, device))
    S, V = ssp.KDTree(A), ssp.KDTree(B)
    assert T.count_neighbors(U, 1.0, p=p) == S.count_neighbors(V, 1.0, p=p)
    r = np.array([2.0, 0.0, 1.0, 1.5, 0.5])
    check(T.count_neighbors(U, r, p=p), S.count_neighbors(V, r, p=p))
    # non-cumulative bins, weights (a tuple, one side None, one array for self)
    rs = np.array([0.0, 0.5, 1.0, 1.0, 2.5])
    check(T.count_neighbors(U, rs, p=p, cumulative=False),
          S.count_neighbors(V, rs, p=p, cumulative=False))
    assert T.count_neighbors(U, 1.0, p=p, cumulative=False) == \
        S.count_neighbors(V, 1.0, p=p, cumulative=False)
    wa, wb = rng.uniform(size=30), rng.uniform(size=25)
    check(T.count_neighbors(U, r, p=p, weights=(E(wa, device), E(wb, device))),
          S.count_neighbors(V, r, p=p, weights=(wa, wb)))
    check(T.count_neighbors(U, rs, p=p, weights=(None, E(wb, device)), cumulative=False),
          S.count_neighbors(V, rs, p=p, weights=(None, wb), cumulative=False))
    check(T.count_neighbors(T, rs, p=p, weights=E(wa, device)),
          S.count_neighbors(S, rs, p=p, weights=wa))
    got = T.count_neighbors(U, 1.5, p=p, weights=(E(wa, device), None))
    assert isinstance(got, float)
    want = S.count_neighbors(V, 1.5, p=p, weights=(wa, None))
    assert got == pytest.approx(want, rel=1e-12)
    with pytest.raises(ValueError, match="r must be non-decreasing for non-cumulative"):
        T.count_neighbors(U, [1.0, 0.5], cumulative=False)
    with pytest.raises(ValueError, match="Two different trees are used. Specify weights"):
        T.count_neighbors(U, 1.0, weights=E(wa, device))
    with pytest.raises(ValueError, match="Number of weights differ from the number"):
        T.count_neighbors(U, 1.0, weights=(E(wb, device), E(wb, device)))
    with pytest.raises(ValueError, match="r must be either a single value or a "
                                         "one-dimensional array of values"):
        T.count_neighbors(U, [[1.0]])
    with pytest.raises(ValueError, match="Trees passed to count_neighbors have "
                                         "different dimensionality"):
        T.count_neighbors(es.KDTree(E(np.ones((3, 1)), device)), 1.0)
    with pytest.raises(TypeError, match="Argument 'other' has incorrect type"):
        T.count_neighbors(E(B, device), 1.0)


def test_lists_on_the_current_device(device):
    with ember.Device(device):
        T = es.KDTree([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
        assert str(T.data.device) == str(ember.Device(device))
        d, i = T.query([0.4, 0.3], k=2)
        d2, i2 = ssp.KDTree(N(T.data)).query([0.4, 0.3], k=2)
        check(d, d2)
        assert (N(i) == i2).all()
        check(ed.cdist([[1.0, 2.0]], [[3.0, 4.0]]), ssd.cdist([[1.0, 2.0]], [[3.0, 4.0]]))
        check(es.distance_matrix([[1.0, 2.0]], [[3.0, 4.0]]),
              ssp.distance_matrix([[1.0, 2.0]], [[3.0, 4.0]]))


# ---- blocks and sizes that fuse ------------------------------------------------------

def test_blocks(device, monkeypatch):
    """Small budgets, so that every blocked loop takes several blocks."""
    from ember.scipy.spatial import _kdtree, _metrics
    monkeypatch.setattr(_metrics, "_BLOCK", {"cpu": 200})
    monkeypatch.setattr(_metrics, "_GPU_BLOCK", 200)
    monkeypatch.setattr(_metrics, "ROWS_BUDGET", 100)
    monkeypatch.setattr(_kdtree, "KNN_BUDGET", 150)
    A, B = rng.standard_normal((37, 3)), rng.standard_normal((29, 3))
    for metric in ("euclidean", "canberra", "hamming", "cosine"):
        check(ed.cdist(E(A, device), E(B, device), metric), ssd.cdist(A, B, metric))
    check(ed.pdist(E(A, device), "cityblock"), ssd.pdist(A, "cityblock"))
    T, S = es.KDTree(E(B, device)), ssp.KDTree(B)
    for p in (2, 3):
        d, i = T.query(E(A, device), k=4, p=p)
        d2, i2 = S.query(A, k=4, p=p)
        check(d, d2)
        assert (N(i) == i2).all()
    got, want = T.query_ball_point(E(A, device), 0.9), S.query_ball_point(A, 0.9)
    assert all(a == sorted(b) for a, b in zip(got, want))
    r = np.array([0.3, 1.0, 2.5])
    check(T.count_neighbors(es.KDTree(E(A, device)), r),
          S.count_neighbors(ssp.KDTree(A), r))


def test_fused_sizes(device):
    # hundreds of thousands of elements a step: fused expressions on cpu too
    A, B = rng.standard_normal((300, 6)), rng.standard_normal((250, 6))
    for metric, kw in (("euclidean", {}), ("minkowski", {"p": 3}), ("canberra", {}),
                       ("braycurtis", {})):
        check(ed.cdist(E(A, device), E(B, device), metric, **kw),
              ssd.cdist(A, B, metric, **kw), 1e-11)
    check(ed.cdist(E(A > 0, device), E(B > 0, device), "jaccard"),
          ssd.cdist(A > 0, B > 0, "jaccard"))
    X = rng.uniform(size=(3000, 3))
    Q = rng.uniform(size=(500, 3))
    d, i = es.KDTree(E(X, device)).query(E(Q, device), k=8)
    d2, i2 = ssp.KDTree(X).query(Q, k=8)
    check(d, d2)
    assert (N(i) == i2).all()
