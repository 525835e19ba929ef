"""Functions whose Python loops over the data became array operations:
each compared with its peer on inputs large enough that a loop an element
(or a full pass a label) would show."""
import numpy as np
import pytest

import ember

scipy_ndimage = pytest.importorskip("scipy.ndimage")


# ---- scipy.ndimage.labeled_comprehension: one sort, a slice a region ----

def test_labeled_comprehension_many_regions(device):
    from ember.scipy import ndimage
    rng = np.random.default_rng(0)
    lab = rng.integers(0, 1500, (300, 400))
    x = rng.random((300, 400))
    # duplicates, an absent label, and labels out of order
    idx = np.concatenate([np.arange(1499, 0, -1), [7, 5000, 7]])
    X = ember.asarray(x, device=device)
    L = ember.asarray(lab, device=device)
    got = ndimage.labeled_comprehension(X, L, idx, lambda v: v.sum(),
                                        np.float64, -1.0)
    want = scipy_ndimage.labeled_comprehension(x, lab, idx, np.sum,
                                               np.float64, -1.0)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(ember.asnumpy(got), want, rtol=1e-12)


def test_labeled_comprehension_positions_in_c_order(device):
    from ember.scipy import ndimage
    rng = np.random.default_rng(1)
    lab = rng.integers(0, 50, 20_000)
    x = rng.random(20_000)
    idx = np.arange(1, 60)

    # the first position of each region: the positions come in C order
    def first(v, p):
        return p[0] if p.size else -1
    got = ndimage.labeled_comprehension(
        ember.asarray(x, device=device), ember.asarray(lab, device=device),
        ember.asarray(idx, device=device), first, np.int64, -1,
        pass_positions=True)
    want = scipy_ndimage.labeled_comprehension(
        x, lab, idx, lambda v, p: p.min(), np.int64, -1, pass_positions=True)
    np.testing.assert_array_equal(ember.asnumpy(got), want)


def test_labeled_comprehension_scalar_index_and_bad_index(device):
    from ember.scipy import ndimage
    x = np.arange(12.0).reshape(3, 4)
    lab = np.array([[1, 1, 0, 2]] * 3)
    X = ember.asarray(x, device=device)
    L = ember.asarray(lab, device=device)
    got = ndimage.labeled_comprehension(X, L, 2, lambda v: v.max(),
                                        np.float64, 0.0)
    assert float(got) == scipy_ndimage.labeled_comprehension(
        x, lab, 2, np.max, np.float64, 0.0)
    with pytest.raises(ValueError, match="labels' type"):
        ndimage.labeled_comprehension(X, L, [1.5], np.max, np.float64, 0.0)


# ---- DataFrame.corr / cov: one Gram matrix when no column has a null ----

def _wide_frame(rows=20_000, cols=40, seed=2):
    import pandas as pd
    rng = np.random.default_rng(seed)
    base = rng.standard_normal((rows, 1))
    data = {f"f{j}": rng.standard_normal(rows) + j / 10 * base[:, 0]
            for j in range(cols)}
    data["i"] = rng.integers(-50, 50, rows)
    data["b"] = rng.random(rows) < 0.3
    data["const"] = np.full(rows, 2.5)
    return pd.DataFrame(data)


@pytest.mark.parametrize("method", ["pearson", "spearman"])
def test_frame_corr_wide(device, method):
    import pandas.testing as tm
    from ember import frame as ef
    pdf = _wide_frame()
    df = ef.from_pandas(pdf, device=device)
    tm.assert_frame_equal(df.corr(method=method).to_pandas(),
                          pdf.corr(method=method), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("ddof", [0, 1, 5])
def test_frame_cov_wide(device, ddof):
    import pandas.testing as tm
    from ember import frame as ef
    pdf = _wide_frame(cols=25)
    df = ef.from_pandas(pdf, device=device)
    tm.assert_frame_equal(df.cov(ddof=ddof).to_pandas(), pdf.cov(ddof=ddof),
                          rtol=1e-10, atol=1e-12)


def test_frame_corr_edges(device):
    import pandas as pd
    import pandas.testing as tm
    from ember import frame as ef
    pdf = _wide_frame(rows=30, cols=3)
    df = ef.from_pandas(pdf, device=device)
    for kw in ({"min_periods": 31}, {"min_periods": 30}):
        tm.assert_frame_equal(df.corr(**kw).to_pandas(), pdf.corr(**kw))
        tm.assert_frame_equal(df.cov(**kw).to_pandas(), pdf.cov(**kw))
    tm.assert_frame_equal(df.cov(ddof=30).to_pandas(), pdf.cov(ddof=30))
    one = pd.DataFrame({"x": [2.5], "y": [7]})
    d1 = ef.from_pandas(one, device=device)
    tm.assert_frame_equal(d1.corr().to_pandas(), one.corr())
    tm.assert_frame_equal(d1.cov().to_pandas(), one.cov())
    # a null anywhere: each pair over its own complete rows, as before
    nul = pdf.copy()
    nul.loc[3, "f1"] = np.nan
    dn = ef.from_pandas(nul, device=device)
    tm.assert_frame_equal(dn.corr().to_pandas(), nul.corr(), rtol=1e-10)
    tm.assert_frame_equal(dn.cov(ddof=0).to_pandas(), nul.cov(ddof=0),
                          rtol=1e-10)
    s = ef.from_pandas(pd.DataFrame({"x": [1.0, 2.0], "t": ["a", "b"]}),
                       device=device)
    with pytest.raises(ValueError, match="could not convert column 't'"):
        s.corr()


# ---- trees: preorder and depths a level at a time, not a node at a time ----

def _random_tree(n_splits, seed):
    """left/right tables of a random binary tree whose node ids are
    shuffled (parents need not come before their children)."""
    rng = np.random.default_rng(seed)
    left, right, leaves = [-1], [-1], [0]
    for _ in range(n_splits):
        i = leaves.pop(int(rng.integers(len(leaves))))
        a, b = len(left), len(left) + 1
        left[i], right[i] = a, b
        left += [-1, -1]
        right += [-1, -1]
        leaves += [a, b]
    left, right = np.array(left), np.array(right)
    perm = rng.permutation(len(left))
    perm[perm == 0], perm[0] = perm[0], 0        # the root stays 0
    inv = np.empty_like(perm)
    inv[perm] = np.arange(len(perm))
    nl = np.where(left[inv] >= 0, perm[np.maximum(left[inv], 0)], -1)
    nr = np.where(right[inv] >= 0, perm[np.maximum(right[inv], 0)], -1)
    return nl, nr


def _ref_preorder(left, right):
    order, stack = [], [0]
    while stack:
        i = stack.pop()
        order.append(i)
        if left[i] >= 0:
            stack += [right[i], left[i]]
    return np.array(order)


def _ref_depths(left, right, order):
    d = np.zeros(len(left), np.int64)
    for i in order:            # preorder: parents first
        if left[i] >= 0:
            d[left[i]] = d[right[i]] = d[i] + 1
    return d


@pytest.mark.parametrize("n_splits", [0, 1, 5, 60_000])
def test_tree_preorder_and_depths(n_splits):
    from ember.ml.tree import _structure
    left, right = _random_tree(n_splits, n_splits)
    want = _ref_preorder(left, right)
    np.testing.assert_array_equal(_structure.preorder(left, right), want)
    np.testing.assert_array_equal(_structure.node_depths(left, right),
                                  _ref_depths(left, right, want))
    # a node no path reaches is left out of the order, as the walk did
    l2, r2 = np.append(left, -1), np.append(right, -1)
    np.testing.assert_array_equal(_structure.preorder(l2, r2), want)


def test_deep_tree_matches_sklearn(device):
    tree = pytest.importorskip("sklearn.tree")
    from ember.ml.tree import DecisionTreeRegressor
    rng = np.random.default_rng(3)
    # few distinct values a feature: the histogram tree's bins are exact
    X = rng.integers(0, 60, (20_000, 3)).astype(np.float64)
    y = rng.random(20_000)
    ref = tree.DecisionTreeRegressor(random_state=0).fit(X, y).tree_
    got = DecisionTreeRegressor(random_state=0).fit(
        ember.asarray(X, device=device), ember.asarray(y, device=device)).tree_
    assert got.node_count == ref.node_count and got.max_depth == ref.max_depth
    # (ties between features' splits may pick other features than
    # scikit-learn's draw does: compare the numbering, not the picks)
    left, right = got.children_left, got.children_right
    inner = np.nonzero(left >= 0)[0]
    np.testing.assert_array_equal(left[inner], inner + 1)   # depth-first ids
    np.testing.assert_array_equal(
        got.compute_node_depths(),
        _ref_depths(left, right, _ref_preorder(left, right)) + 1)
    np.testing.assert_array_equal(_ref_preorder(left, right),
                                  np.arange(got.node_count))


# ---- Generator.multivariate_hypergeometric(method="count"): one bincount ----

def test_multivariate_hypergeometric_count_many_colors(device):
    colors = np.random.default_rng(4).integers(0, 6, 400)
    total, ns, m = int(colors.sum()), 300, 3000
    with ember.Device(device):
        x = ember.asnumpy(ember.random.default_rng(5).multivariate_hypergeometric(
            colors, ns, size=(m // 3, 3), method="count"))
    assert x.shape == (m // 3, 3, colors.size) and x.dtype == np.int64
    x = x.reshape(m, colors.size)
    assert np.all(x.sum(axis=1) == ns)
    assert np.all((x >= 0) & (x <= colors))
    # each color's mean against the hypergeometric's, within 5 sigma
    p = colors / total
    sd = np.sqrt(ns * p * (1 - p) * (total - ns) / (total - 1) / m)
    assert np.all(np.abs(x.mean(axis=0) - ns * p) <= 5 * sd + 1e-12)
    # the NumPy Generator's means agree too
    ref = np.random.default_rng(5).multivariate_hypergeometric(
        colors, ns, size=m, method="count")
    assert np.all(np.abs(x.mean(axis=0) - ref.mean(axis=0)) <= 8 * sd + 1e-12)


def test_multivariate_hypergeometric_count_bad(device):
    with ember.Device(device):
        g = ember.random.default_rng(0)
        for args, msg in ((([3, 4], 8), "nsample > sum"),
                          (([3, -1], 1), "colors")):
            with pytest.raises(ValueError, match=msg):
                g.multivariate_hypergeometric(*args, method="count")
            with pytest.raises(ValueError, match=msg):
                np.random.default_rng(0).multivariate_hypergeometric(
                    *args, method="count")


# ---- OneHotEncoder: values that do not order against the categories ----

def test_onehot_unorderable_values_many_categories(device):
    skp = pytest.importorskip("sklearn.preprocessing")
    from ember.ml.preprocessing import OneHotEncoder
    cats = np.array([f"c{i:04d}" for i in range(1500)], dtype=object)
    rng = np.random.default_rng(6)
    X = cats[rng.integers(0, 1500, 20_000)].reshape(-1, 1).copy()
    X[::7, 0] = None            # None does not order against strings
    X[3::11, 0] = "zz-unseen"
    fit_on = cats[::-1].reshape(-1, 1)
    with ember.Device(device):
        got = OneHotEncoder(handle_unknown="ignore", sparse_output=False
                            ).fit(fit_on).transform(X)
        with pytest.raises(ValueError, match="unknown categories"):
            OneHotEncoder(sparse_output=False).fit(fit_on).transform(X)
    got = ember.asnumpy(got) if isinstance(got, ember.ndarray) else got
    want = skp.OneHotEncoder(handle_unknown="ignore", sparse_output=False
                             ).fit(fit_on).transform(X)
    np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match="unknown categories"):
        skp.OneHotEncoder(sparse_output=False).fit(fit_on).transform(X)


def test_onehot_unknown_message_with_none(device):
    skp = pytest.importorskip("sklearn.preprocessing")
    from ember.ml.preprocessing import OneHotEncoder
    fit_on = np.array([["a"], ["b"]], dtype=object)
    X = np.array([["a"], [None], ["q"]], dtype=object)
    with pytest.raises(ValueError) as want:
        skp.OneHotEncoder().fit(fit_on).transform(X)
    with ember.Device(device):
        with pytest.raises(ValueError) as got:
            OneHotEncoder().fit(fit_on).transform(X)
    assert str(got.value) == str(want.value)


# ---- linalg.cond of a stack holding singular matrices: one batched inverse ----

@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128"])
# ("nuc" left out: ember's svd of the NaN inverse raises, where NumPy's
# gives NaN; that was so before the batched inverse too)
@pytest.mark.parametrize("p", ["fro", 1, -1, np.inf, -np.inf])
def test_cond_stack_with_singular(device, dtype, p):
    rng = np.random.default_rng(7)
    a = rng.standard_normal((4000, 3, 3)) + 3 * np.eye(3)
    if dtype.startswith("complex"):
        a = a + 1j * rng.standard_normal((4000, 3, 3))
    a[::50, 1] = 0           # a zero row: an exact zero pivot on any LAPACK
    a[7, :, 2] = 0           # and a zero column
    a = a.astype(dtype).reshape(400, 10, 3, 3)
    got = ember.asnumpy(ember.linalg.cond(ember.asarray(a, device=device), p))
    want = np.linalg.cond(a, p)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(np.isinf(got), np.isinf(want))
    fin = np.isfinite(want)
    tol = 1e-4 if dtype == "float32" else 1e-10
    np.testing.assert_allclose(got[fin], want[fin], rtol=tol)


def test_cond_bad_input(device):
    with pytest.raises(np.linalg.LinAlgError):
        np.linalg.cond(np.ones((4, 2, 3)), "fro")
    with pytest.raises(np.linalg.LinAlgError):
        ember.linalg.cond(ember.ones((4, 2, 3), device=device), "fro")


# ---- make_lsq_spline's Schoenberg-Whitney check: an accumulate, not a loop ----

def _ref_schoenberg_whitney(hx, ht, k):
    n, m = ht.size - k - 1, hx.size
    if not k + 1 <= n <= m or hx[0] >= ht[k + 1] or hx[-1] <= ht[n - 1]:
        return False
    i = 0
    for j in range(1, n - 1):
        i = max(i + 1, int(np.searchsorted(hx, ht[j], side="right")))
        if i >= m - 1 or hx[i] >= ht[j + k + 1]:
            return False
    return True


def test_schoenberg_whitney_matches_greedy_loop():
    from ember.scipy.interpolate_lsq import schoenberg_whitney
    rng = np.random.default_rng(8)
    seen = set()
    for trial in range(400):
        k = int(rng.integers(0, 5))
        m = int(rng.integers(1, 40))
        x = np.sort(rng.integers(0, 30, m).astype(float))   # repeats too
        inner = np.sort(rng.choice(np.arange(1, 30) - 0.5,
                                   int(rng.integers(0, 25)), replace=False))
        t = np.r_[[x[0] - 1] * (k + 1), inner, [x[-1] + 1] * (k + 1)]
        want = _ref_schoenberg_whitney(x, t, k)
        assert schoenberg_whitney(x, t, k) == want, (trial, k, x, t)
        seen.add(want)
    assert seen == {True, False}


def test_make_lsq_spline_many_knots(device):
    si = pytest.importorskip("scipy.interpolate")
    from ember.scipy.interpolate import make_lsq_spline
    rng = np.random.default_rng(9)
    x = np.sort(rng.random(5000))
    y = np.sin(6 * x) + 0.1 * rng.standard_normal(x.size)
    k = 3
    t = np.r_[[x[0]] * (k + 1), np.linspace(x[0], x[-1], 400)[1:-1],
              [x[-1]] * (k + 1)]
    want = si.make_lsq_spline(x, y, t, k)
    got = make_lsq_spline(ember.asarray(x, device=device),
                          ember.asarray(y, device=device),
                          ember.asarray(t, device=device), k)
    np.testing.assert_allclose(ember.asnumpy(got.c), want.c, rtol=1e-7,
                               atol=1e-9)
    # more inner knots than samples can separate: none in (0.4999, 0.6)
    bad = np.r_[t[:k + 1], np.linspace(0.5, 0.55, 8), t[-(k + 1):]]
    x2 = np.r_[x[x < 0.4999], x[x > 0.6]]
    y2 = np.sin(6 * x2)
    # (SciPy 1.17's make_lsq_spline no longer checks; its
    # LSQUnivariateSpline does, and ember's make_lsq_spline still does)
    from ember.scipy.interpolate import LSQUnivariateSpline
    inner = bad[k + 1:-(k + 1)]
    with pytest.raises(ValueError) as want_err:
        si.LSQUnivariateSpline(x2, y2, inner, k=k)
    with pytest.raises(ValueError) as got_err:
        LSQUnivariateSpline(ember.asarray(x2, device=device),
                            ember.asarray(y2, device=device), inner, k=k)
    assert str(got_err.value) == str(want_err.value)
    with pytest.raises(ValueError, match="Schoenberg-Whitney"):
        make_lsq_spline(ember.asarray(x2, device=device),
                        ember.asarray(y2, device=device),
                        ember.asarray(bad, device=device), k)
