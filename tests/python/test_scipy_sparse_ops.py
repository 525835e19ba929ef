"""ember.scipy.sparse's elementwise arithmetic, canonical form, reductions,
indexing and sparse products against scipy.sparse on the same matrices:
rows left empty, duplicates, explicit zeros and values that cancel, so
each result's structure (which zeros SciPy drops, which it keeps) is
compared as well as its values, dtype, shape and format."""
import numpy as np
import pytest
import scipy.sparse as ss

import ember
import ember.scipy.sparse as es

DTYPES = [np.float64, np.float32, np.int64]


def raw(m, n, dtype, seed):
    """(data, indices, indptr) with every quirk: empty rows, unsorted and
    repeated indices, stored zeros. Values are small multiples of 1/2, so
    sums are exact in float32 too and results compare bit for bit."""
    rng = np.random.default_rng(seed)
    lengths = rng.integers(0, 6, m)
    lengths[::4] = 0
    indptr = np.concatenate([[0], np.cumsum(lengths)])
    indices = rng.integers(0, n, indptr[-1])
    vals = rng.integers(-3, 4, indptr[-1])
    data = (vals if dtype == np.int64 else vals * 0.5).astype(dtype)
    return data, indices, indptr


def pair(fmt, m, n, dtype, seed, device):
    """The same matrix in ember (on device) and in SciPy; for CSC the
    arrays are read as columns."""
    data, indices, indptr = raw(m if fmt != "csc" else n,
                                n if fmt != "csc" else m, dtype, seed)
    cls = "csc" if fmt == "csc" else "csr"
    # SciPy sums duplicates in place, and ember.asarray may share the
    # host buffers: each side gets its own
    s = getattr(ss, cls + "_matrix")((data.copy(), indices.copy(),
                                      indptr.copy()), shape=(m, n))
    E = lambda x: ember.asarray(x, device=device)  # noqa: E731
    e = getattr(es, cls + "_matrix")((E(data), E(indices), E(indptr)),
                                     shape=(m, n))
    if fmt == "coo":
        return e.tocoo(), s.tocoo()
    return e, s


def N(x):
    return ember.asnumpy(x)


def same(got, want, exact=True):
    """got (ember) is want (SciPy): format, shape, dtype, the number of
    stored elements, and the arrays of the canonical form."""
    assert es.issparse(got), type(got)
    assert got.format == want.format
    assert got.shape == want.shape and got.dtype == want.dtype, \
        (got.shape, got.dtype, want.shape, want.dtype)
    assert got.nnz == want.nnz     # the same elements stored, zeros too
    if want.format == "coo":
        got, want = got.tocsr(), want.tocsr()
    got, w = got.copy(), want.copy()
    got.sum_duplicates()
    w.sum_duplicates()
    np.testing.assert_array_equal(N(got.indptr), w.indptr)
    np.testing.assert_array_equal(N(got.indices), w.indices)
    if exact:
        np.testing.assert_array_equal(N(got.data), w.data)
    else:
        tol = 1e-5 if got.dtype == np.float32 else 1e-12
        np.testing.assert_allclose(N(got.data), w.data, rtol=tol, atol=tol)


def same_dense(got, want):
    assert isinstance(got, ember.ndarray)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(N(got), np.asarray(want))


FORMATS = ["csr", "csc"]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", FORMATS + ["coo"])
@pytest.mark.parametrize("ofmt", FORMATS)
def test_sparse_with_sparse(device, fmt, ofmt, dtype):
    a, sa = pair(fmt, 13, 9, dtype, 1, device)
    b, sb = pair(ofmt, 13, 9, dtype, 2, device)
    for op in (lambda x, y: x + y, lambda x, y: x - y,
               lambda x, y: x.multiply(y), lambda x, y: x.maximum(y),
               lambda x, y: x.minimum(y), lambda x, y: x != y,
               lambda x, y: x < y, lambda x, y: x > y,
               lambda x, y: x == y, lambda x, y: x <= y,
               lambda x, y: x >= y, lambda x, y: x - x):
        same(op(a, b), op(sa, sb))
    # mixed dtypes promote as SciPy's
    c, sc = pair(ofmt, 13, 9, np.float32, 3, device)
    same(a + c, sa + sc)
    same(a.multiply(c), sa.multiply(sc))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_with_dense_and_scalars(device, fmt, dtype):
    a, sa = pair(fmt, 12, 7, dtype, 4, device)
    d = np.random.default_rng(5).integers(-2, 3, (12, 7)).astype(dtype)
    ed = ember.asarray(d, device=device)
    same_dense(a + ed, sa + d)
    same_dense(a - ed, sa - d)
    same_dense(ed + a, d + sa)
    same_dense(ed - a, d - sa)
    same_dense(a.maximum(ed), sa.maximum(d))
    same_dense(a.minimum(ed), sa.minimum(d))
    same_dense(a < ed, sa < d)
    same(a.multiply(ed), sa.multiply(d))
    row = ember.asarray(d[:1], device=device)
    same(a.multiply(row), sa.multiply(d[:1]))
    for op in (lambda x: x + 0, lambda x: x - 0, lambda x: x.multiply(2),
               lambda x: x.maximum(1), lambda x: x.maximum(-1),
               lambda x: x.minimum(1), lambda x: x.minimum(-1),
               lambda x: x.maximum(0), lambda x: x > 0, lambda x: x > -1,
               lambda x: x < 1, lambda x: x < 0, lambda x: x != 0,
               lambda x: x == 0, lambda x: x >= 1, lambda x: x <= -1,
               lambda x: abs(x), lambda x: -x, lambda x: x.power(2),
               lambda x: x.power(3)):
        same(op(a), op(sa))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", FORMATS + ["coo"])
def test_elementwise_functions(device, fmt, dtype):
    a, sa = pair(fmt, 10, 8, dtype, 6, device)
    p, sp = abs(a), abs(sa)
    for name in ("sqrt", "expm1", "log1p", "sin", "tanh", "arctan",
                 "arcsinh", "sinh", "tan", "deg2rad", "rad2deg"):
        same(getattr(p, name)(), getattr(sp, name)(), exact=False)
    for name in ("sign", "floor", "ceil", "rint", "trunc"):
        same(getattr(a, name)(), getattr(sa, name)())
    if dtype != np.int64:
        same(p.power(0.5), sp.power(0.5), exact=False)
        same(a.power(2, dtype=np.float64), sa.power(2, dtype=np.float64))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_canonical_form(device, fmt, dtype):
    a, sa = pair(fmt, 11, 6, dtype, 7, device)
    assert a.nnz == sa.nnz
    assert a.has_canonical_format == sa.has_canonical_format is False
    assert a.has_sorted_indices == sa.has_sorted_indices
    srt, ssrt = a.sorted_indices(), sa.sorted_indices()
    assert srt.has_sorted_indices and srt.nnz == ssrt.nnz
    # the sort is stable: duplicates keep their order, as in SciPy
    a2, sa2 = a.copy(), sa.copy()
    a2.sort_indices()
    sa2.sort_indices()
    for got, want in ((a2, sa2), (srt, ssrt)):
        np.testing.assert_array_equal(N(got.indices), want.indices)
        np.testing.assert_array_equal(N(got.indptr), want.indptr)
        np.testing.assert_array_equal(N(got.data), want.data)
    a.sum_duplicates()
    sa.sum_duplicates()
    assert a.has_canonical_format and a.nnz == sa.nnz
    np.testing.assert_array_equal(N(a.data), sa.data)   # zeros still kept
    np.testing.assert_array_equal(N(a.indices), sa.indices)
    a.eliminate_zeros()
    sa.eliminate_zeros()
    assert a.nnz == sa.nnz
    np.testing.assert_array_equal(N(a.data), sa.data)
    np.testing.assert_array_equal(N(a.indptr), sa.indptr)
    assert a.indices.dtype == sa.indices.dtype


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", FORMATS + ["coo"])
def test_reductions(device, fmt, dtype):
    a, sa = pair(fmt, 12, 9, dtype, 8, device)
    assert a.nnz == sa.nnz
    assert a.count_nonzero() == sa.count_nonzero()
    tol = 1e-6 if dtype == np.float32 else 1e-13
    m, sm = a.mean(), sa.mean()
    assert N(m).dtype == sm.dtype
    np.testing.assert_allclose(N(m), sm, rtol=tol)
    for axis in (0, 1, -1):
        m, sm = a.mean(axis=axis), sa.mean(axis=axis)
        assert m.shape == sm.shape and N(m).dtype == sm.dtype
        np.testing.assert_allclose(N(m), np.asarray(sm), rtol=tol, atol=tol)
        np.testing.assert_array_equal(N(a.count_nonzero(axis=axis)),
                                      sa.count_nonzero(axis=axis))
    for name in ("max", "min"):
        r, sr = getattr(a, name)(), getattr(sa, name)()
        assert N(r).dtype == sr.dtype and N(r) == sr
        for axis in (0, 1):
            same(getattr(a, name)(axis=axis), getattr(sa, name)(axis=axis))
    for k in (0, 1, -2):
        t, st = a.trace(k), sa.trace(k)
        assert N(t).dtype == st.dtype and N(t) == st


@pytest.mark.parametrize("dtype", [np.float64, np.int64])
@pytest.mark.parametrize("fmt", FORMATS)
def test_getitem(device, fmt, dtype):
    a, sa = pair(fmt, 14, 10, dtype, 9, device)
    mask = np.arange(14) % 3 == 0
    for key in (2, -1, slice(1, 5), slice(None, None, 2), slice(12, 3, -3),
                [3, 0, 3, 13], np.array([5, -2]),
                (slice(None), 2), (slice(None), slice(1, 4)),
                (slice(2, 9), [0, 2, 9]), (4, slice(None)), (mask,),
                (slice(None), [-1, 0])):
        key = key[0] if isinstance(key, tuple) and len(key) == 1 else key
        ekey = tuple(ember.asarray(k, device=device)
                     if isinstance(k, np.ndarray) else k for k in key) \
            if isinstance(key, tuple) else (
                ember.asarray(key, device=device)
                if isinstance(key, np.ndarray) else key)
        same(a[ekey], sa[key])
    for i, j in ((1, 3), (0, 0), (-1, -1), (5, 7)):
        v, sv = a[i, j], sa[i, j]
        assert N(v).dtype == np.asarray(sv).dtype and N(v) == sv
    with pytest.raises(IndexError):
        a[14]
    with pytest.raises(IndexError):
        a[0, 10]
    with pytest.raises(IndexError):
        a[[0, 20]]


@pytest.mark.parametrize("fmt,ofmt", [("csr", "csr"), ("csr", "csc"),
                                      ("csc", "csc"), ("csc", "csr"),
                                      ("coo", "csr")])
@pytest.mark.parametrize("dtype,odtype", [(np.float64, np.float64),
                                          (np.float32, np.float32),
                                          (np.float32, np.float64),
                                          (np.int64, np.int64)])
def test_spgemm(device, fmt, ofmt, dtype, odtype):
    a, sa = pair(fmt, 15, 11, dtype, 10, device)
    b, sb = pair(ofmt, 11, 8, odtype, 11, device)
    same(a @ b, sa @ sb)
    same(a @ a.T, sa @ sa.T)
    z = getattr(es, ofmt + "_matrix")((11, 4), dtype=odtype, device=device)
    same(a @ z, sa @ getattr(ss, ofmt + "_matrix")((11, 4), dtype=odtype))


@pytest.mark.parametrize("fmt", FORMATS)
def test_errors(device, fmt):
    a, sa = pair(fmt, 6, 5, np.float64, 13, device)
    b, sb = pair(fmt, 5, 5, np.float64, 14, device)
    for op in (lambda x, y: x + y, lambda x, y: x - y,
               lambda x, y: x.multiply(y), lambda x, y: x.maximum(y),
               lambda x, y: x < y):
        with pytest.raises(ValueError):
            op(sa, sb)
        with pytest.raises(ValueError, match=r"\(6, 5\).*\(5, 5\)"):
            op(a, b)
    assert (a == b) is False and (sa == sb) is False
    assert (a != b) is True and (sa != sb) is True
    with pytest.raises(ValueError, match=r"\(6, 5\) @ \(6, 5\)"):
        a @ a
    for op in (lambda x: x + 1, lambda x: x - 2, lambda x: x.power(0)):
        with pytest.raises(NotImplementedError):
            op(sa)
        with pytest.raises(NotImplementedError):
            op(a)
    e = es.csr_matrix((0, 4), device=device)
    with pytest.raises(ValueError, match="zero-size"):
        e.max()
    with pytest.raises(ValueError, match="zero-size"):
        ss.csr_matrix((0, 4)).max()


def test_large_products_match_dense(device):
    """A product with long rows and many duplicate (i, j) meetings."""
    rng = np.random.default_rng(15)
    d = rng.integers(-2, 3, (60, 50)).astype(np.float64)
    d[rng.random(d.shape) < 0.6] = 0
    a = es.csr_matrix(ember.asarray(d, device=device))
    sa = ss.csr_matrix(d)
    same(a @ a.T, sa @ sa.T)
    same(a.T @ a, sa.T @ sa)


# sparse.linalg: gmres, eigsh and LinearOperator against SciPy's answers on
# well-conditioned problems

def nonsymmetric(n, seed, dtype=np.float64):
    rng = np.random.default_rng(seed)
    d = rng.standard_normal((n, n))
    d[rng.random((n, n)) > 0.05] = 0
    return (d + 4 * np.eye(n)).astype(dtype)


def symmetric(n, seed, dtype=np.float64):
    rng = np.random.default_rng(seed)
    d = rng.standard_normal((n, n))
    d[rng.random((n, n)) > 0.04] = 0
    return (d + d.T + np.diag(np.linspace(1, 30, n))).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_gmres(device, dtype):
    import scipy.sparse.linalg as ssl
    m = nonsymmetric(90, 20, dtype)
    b = np.random.default_rng(21).standard_normal(90).astype(dtype)
    a = es.csr_matrix(ember.asarray(m, device=device))
    eb = ember.asarray(b, device=device)
    rtol = 1e-10 if dtype == np.float64 else 1e-5
    x, info = es.linalg.gmres(a, eb, rtol=rtol, restart=10)
    want, winfo = ssl.gmres(ss.csr_matrix(m), b, rtol=rtol, restart=10)
    assert info == winfo == 0 and N(x).dtype == want.dtype
    np.testing.assert_allclose(N(x), want, rtol=rtol * 1e3, atol=rtol * 1e2)
    assert np.linalg.norm(m @ N(x) - b) <= rtol * np.linalg.norm(b) * 1.01
    # not converged: info is maxiter, as SciPy's
    x1, info1 = es.linalg.gmres(a, eb, rtol=1e-14, restart=2, maxiter=3)
    assert info1 == 3 == ssl.gmres(m, b, rtol=1e-14, restart=2,
                                   maxiter=3)[1]
    # x0, a preconditioner (Jacobi, as a LinearOperator) and the callbacks
    inv = ember.asarray(1 / np.diag(m), device=device)
    M = es.linalg.LinearOperator(m.shape, matvec=lambda v: inv * v,
                                 dtype=dtype)
    seen = []
    x2, info2 = es.linalg.gmres(a, eb, x0=ember.asarray(np.ones(90, dtype),
                                                        device=device),
                                rtol=rtol, M=M, callback=seen.append,
                                callback_type="x")
    assert info2 == 0 and seen and isinstance(seen[-1], ember.ndarray)
    np.testing.assert_allclose(N(x2), want, rtol=rtol * 1e3, atol=rtol * 1e2)
    norms = []
    es.linalg.gmres(a, eb, rtol=rtol, callback=norms.append,
                    callback_type="pr_norm")
    assert norms and norms[-1] <= rtol
    zero, zinfo = es.linalg.gmres(a, eb * 0)
    assert zinfo == 0 and not N(zero).any()
    with pytest.raises(ValueError, match="callback_type"):
        es.linalg.gmres(a, eb, callback=print, callback_type="y")
    with pytest.raises(ValueError, match=r"\(90, 90\).*\(7,\)"):
        es.linalg.gmres(a, ember.asarray(np.ones(7), device=device))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_spsolve(device, dtype):
    """spsolve against SciPy's: one and several right-hand sides, integer
    matrices upcast to float64, float32 kept; a singular matrix warns and
    gives NaNs; shapes SciPy refuses are refused with its messages."""
    import scipy.sparse.linalg as ssl
    m = nonsymmetric(60, 22, np.float64)
    if dtype == np.int64:
        m = np.round(m * 4)
    m = m.astype(dtype)
    rng = np.random.default_rng(31)
    b = rng.standard_normal(60).astype(np.float32 if dtype == np.float32
                                       else np.float64)
    a = es.csr_matrix(ember.asarray(m, device=device))
    want = ssl.spsolve(ss.csr_matrix(m), b)
    x = es.linalg.spsolve(a, ember.asarray(b, device=device))
    assert N(x).dtype == want.dtype and N(x).shape == (60,)
    tol = 2e-4 if dtype == np.float32 else 1e-10
    np.testing.assert_allclose(N(x), want, rtol=tol, atol=tol)
    # several right-hand sides, a CSC matrix, and b of shape (n, 1)
    B = rng.standard_normal((60, 3))
    X = es.linalg.spsolve(es.csc_matrix(a), ember.asarray(B, device=device))
    np.testing.assert_allclose(N(X), ssl.spsolve(ss.csc_matrix(m), B),
                               rtol=tol, atol=tol)
    assert es.linalg.spsolve(a, ember.asarray(b[:, None], device=device)
                             ).shape == (60,)
    # singular: a zero row
    s = m.copy()
    s[7] = 0
    with pytest.warns(es.linalg.MatrixRankWarning, match="singular"):
        xs = es.linalg.spsolve(es.csr_matrix(ember.asarray(s, device=device)),
                               ember.asarray(b, device=device))
    assert np.isnan(N(xs)).all()
    with pytest.raises(ValueError, match=r"square \(has shape \(60, 59\)\)"):
        es.linalg.spsolve(es.csr_matrix(ember.asarray(m[:, :59],
                                                      device=device)),
                          ember.asarray(b, device=device))
    with pytest.raises(ValueError, match="dimension mismatch"):
        es.linalg.spsolve(a, ember.asarray(b[:59], device=device))


@pytest.mark.parametrize("which", ["LA", "SA", "LM", "SM"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_eigsh(device, which, dtype):
    import scipy.sparse.linalg as ssl
    s = symmetric(100, 22, dtype)
    a = es.csr_matrix(ember.asarray(s, device=device))
    w, V = es.linalg.eigsh(a, k=4, which=which, rng=1)
    ws, Vs = ssl.eigsh(ss.csr_matrix(s), k=4, which=which)
    order = np.argsort(ws)
    ws, Vs = ws[order], Vs[:, order]
    assert N(w).dtype == ws.dtype and V.shape == Vs.shape == (100, 4)
    tol = 1e-10 if dtype == np.float64 else 1e-4
    np.testing.assert_allclose(N(w), ws, rtol=tol, atol=tol)
    # eigenvectors up to sign
    np.testing.assert_allclose(np.abs(np.sum(N(V) * Vs, axis=0)), 1,
                               atol=tol * 10)
    only = es.linalg.eigsh(a, k=2, which=which, return_eigenvectors=False,
                           rng=2)
    np.testing.assert_allclose(N(only), np.sort(ssl.eigsh(
        ss.csr_matrix(s), k=2, which=which, return_eigenvectors=False)),
        rtol=tol, atol=tol)


def test_eigsh_errors_and_operators(device):
    s = symmetric(30, 23)
    a = es.csr_matrix(ember.asarray(s, device=device))
    with pytest.raises(ValueError, match="k must be greater than 0"):
        es.linalg.eigsh(a, k=0)
    with pytest.raises(TypeError, match="k >= N"):
        es.linalg.eigsh(a, k=30)
    with pytest.raises(ValueError, match="which"):
        es.linalg.eigsh(a, k=2, which="XX")
    with pytest.raises(NotImplementedError):
        es.linalg.eigsh(a, k=2, sigma=1.0)
    # an operator given only as products
    op = es.linalg.aslinearoperator(a)
    w = es.linalg.eigsh(es.linalg.LinearOperator(
        s.shape, matvec=op.matvec, dtype=np.float64), k=3, which="LA",
        return_eigenvectors=False,
        v0=ember.asarray(np.ones(30), device=device))
    np.testing.assert_allclose(N(w), np.linalg.eigvalsh(s)[-3:], rtol=1e-10)


def test_linear_operator(device):
    import scipy.sparse.linalg as ssl
    m = nonsymmetric(20, 24)
    dm = ember.asarray(m, device=device)
    x = ember.asarray(np.arange(20.0), device=device)
    X = ember.asarray(np.ones((20, 3)), device=device)
    # a NumPy matrix goes to the default device: tried where that is this
    for A in (es.csr_matrix(dm), dm) + (
            (m,) if str(ember.asarray(m).device) == device else ()):
        op = es.linalg.aslinearoperator(A)
        assert op.shape == (20, 20) and op.dtype == np.float64
        np.testing.assert_allclose(N(op @ x), m @ np.arange(20.0))
        np.testing.assert_allclose(N(op.matvec(x.reshape(20, 1))),
                                   (m @ np.arange(20.0)).reshape(20, 1))
        np.testing.assert_allclose(N(op.rmatvec(x)), m.T @ np.arange(20.0))
        np.testing.assert_allclose(N(op.matmat(X)), m @ np.ones((20, 3)))
        np.testing.assert_allclose(N(op.H @ x), m.T @ np.arange(20.0))
    only = es.linalg.LinearOperator((20, 20), matvec=lambda v: dm @ v)
    assert only.dtype == np.float64
    np.testing.assert_allclose(N(only @ X), m @ np.ones((20, 3)))
    with pytest.raises(ValueError, match="dimension mismatch"):
        only.matvec(ember.asarray(np.ones(3), device=device))
    # SciPy's `A * x` (the lectures' solvers page): dot, and a scalar scales
    np.testing.assert_allclose(N(only * x), m @ np.arange(20.0))
    np.testing.assert_allclose(N(only.dot(X)), m @ np.ones((20, 3)))
    np.testing.assert_allclose(N((2.5 * only) * x), 2.5 * (m @ np.arange(20.0)))
    np.testing.assert_allclose(N((only * -1.0).matvec(x)), -(m @ np.arange(20.0)))
    # the solvers take operators, as SciPy's
    spd = m @ m.T + 20 * np.eye(20)
    sop = es.linalg.aslinearoperator(ember.asarray(spd, device=device))
    b = np.ones(20)
    xs, info = es.linalg.cg(sop, ember.asarray(b, device=device), rtol=1e-10)
    assert info == 0
    np.testing.assert_allclose(N(xs), ssl.cg(spd, b, rtol=1e-10)[0],
                               rtol=1e-7)
    with pytest.raises(TypeError):
        es.linalg.aslinearoperator("not a matrix")
