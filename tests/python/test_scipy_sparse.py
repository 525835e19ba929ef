"""ember.scipy.sparse against scipy.sparse: construction from dense
arrays, triplets (duplicates summed), (data, indices, indptr) and SciPy's
matrices, the stored arrays, products with vectors and matrices, sums,
diagonals, transposes, conversions, and cg against SciPy's solution."""
import numpy as np
import pytest
import scipy.sparse as ss
import scipy.sparse.linalg as ssl

import ember
import ember.scipy.sparse as es

rng = np.random.default_rng(3)


def dense(m, n, density=0.4, dtype=np.float64):
    d = rng.standard_normal((m, n)).astype(dtype)
    d[rng.random((m, n)) > density] = 0
    return d


def N(x):
    return ember.asnumpy(x)


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_compressed_matches_scipy(device, fmt, dtype):
    d = dense(7, 9, dtype=dtype)
    a = getattr(es, f"{fmt}_matrix")(ember.asarray(d, device=device))
    b = getattr(ss, f"{fmt}_matrix")(d)
    assert a.shape == b.shape and a.nnz == b.nnz and a.dtype == b.dtype
    np.testing.assert_array_equal(N(a.data), b.data)
    np.testing.assert_array_equal(N(a.indices), b.indices)
    np.testing.assert_array_equal(N(a.indptr), b.indptr)
    np.testing.assert_array_equal(N(a.toarray()), b.toarray())
    tol = 1e-5 if dtype == np.float32 else 1e-12
    x = rng.standard_normal(9).astype(dtype)
    X = rng.standard_normal((9, 4)).astype(dtype)
    np.testing.assert_allclose(N(a @ ember.asarray(x, device=device)), b @ x,
                               rtol=tol, atol=tol)
    np.testing.assert_allclose(N(a @ ember.asarray(X, device=device)), b @ X,
                               rtol=tol, atol=tol)
    np.testing.assert_allclose(float(a.sum()), b.sum(), rtol=tol)
    for axis in (0, 1):
        np.testing.assert_allclose(N(a.sum(axis=axis)), b.sum(axis=axis),
                                   rtol=tol)
    for k in (0, 2, -3):
        np.testing.assert_array_equal(N(a.diagonal(k)), b.diagonal(k))
    np.testing.assert_array_equal(N(a.T.toarray()), b.T.toarray())
    assert a.T.format == b.T.format
    np.testing.assert_allclose(N((a * 2.5).toarray()), (b * 2.5).toarray())
    np.testing.assert_array_equal(a.get().toarray(), b.toarray())
    other = a.tocsc() if fmt == "csr" else a.tocsr()
    np.testing.assert_array_equal(N(other.toarray()), d)
    np.testing.assert_array_equal(N(a.tocoo().toarray()), d)
    with pytest.raises(ValueError, match="dimension mismatch"):
        a @ ember.asarray(np.ones(3), device=device)


def test_construction_forms(device):
    row = np.array([0, 1, 1, 3, 1])
    col = np.array([2, 0, 0, 4, 3])
    val = np.array([1.0, 2, 3, 4, 5])
    E = lambda x: ember.asarray(x, device=device)  # noqa: E731
    a = es.csr_matrix((E(val), (E(row), E(col))), shape=(5, 6))
    b = ss.csr_matrix((val, (row, col)), shape=(5, 6))
    assert a.nnz == b.nnz == 4            # (1, 0) summed
    np.testing.assert_array_equal(N(a.indptr), b.indptr)
    np.testing.assert_array_equal(N(a.toarray()), b.toarray())
    c = es.csr_matrix((E(b.data), E(b.indices), E(b.indptr)), shape=b.shape)
    np.testing.assert_array_equal(N(c.toarray()), b.toarray())
    s = es.csr_matrix(b, device=device)
    np.testing.assert_array_equal(N(s.toarray()), b.toarray())
    assert es.issparse(s) and not es.issparse(E(val))
    z = es.csr_matrix((3, 4), device=device)
    assert z.nnz == 0 and N(z.toarray()).shape == (3, 4)
    coo = es.coo_matrix((E(val), (E(row), E(col))), shape=(5, 6))
    np.testing.assert_array_equal(N(coo.toarray()), b.toarray())
    np.testing.assert_array_equal(coo.get().toarray(), b.toarray())


def test_cg(device):
    m = dense(40, 40, 0.1)
    spd = m @ m.T + 40 * np.eye(40)
    b = rng.standard_normal(40)
    a = es.csr_matrix(ember.asarray(spd, device=device))
    x, info = es.linalg.cg(a, ember.asarray(b, device=device), rtol=1e-10)
    want, winfo = ssl.cg(ss.csr_matrix(spd), b, rtol=1e-10)
    assert info == 0 == winfo
    np.testing.assert_allclose(N(x), want, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(spd @ N(x), b, rtol=1e-8, atol=1e-8)
    x1, info1 = es.linalg.cg(a, ember.asarray(b, device=device), maxiter=1)
    assert info1 == 1


@pytest.mark.parametrize("mean_row", [0.5, 3, 40, 700])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
def test_matvec_row_lengths(device, mean_row, dtype):
    """The vector product over rows of every length: empty rows, rows
    shorter and longer than the lanes the GPU gives a row (about the mean
    length, so each mean picks another split), one very long row; indices
    int32 as SciPy stores them."""
    m, n = 300, 2000
    lengths = rng.poisson(mean_row, m)
    lengths[:5] = 0
    lengths[7] = 1500
    indptr = np.concatenate([[0], np.cumsum(lengths)])
    indices = rng.integers(0, n, indptr[-1])
    data = (rng.integers(-5, 6, indptr[-1]) if dtype == np.int64 else
            rng.standard_normal(indptr[-1])).astype(dtype)
    b = ss.csr_matrix((data, indices, indptr), shape=(m, n))
    a = es.csr_matrix((ember.asarray(data, device=device),
                       ember.asarray(indices, device=device),
                       ember.asarray(indptr, device=device)), shape=(m, n))
    assert a.indices.dtype == b.indices.dtype == np.int32
    assert a.indptr.dtype == np.int32
    x = (rng.integers(-3, 4, n) if dtype == np.int64 else
         rng.standard_normal(n)).astype(dtype)
    got = N(a @ ember.asarray(x, device=device))
    assert got.dtype == (b @ x).dtype
    tol = 1e-4 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(got, b @ x, rtol=tol, atol=tol)


def test_spmv_compiles_for_the_gpu(need_nvrtc):
    """Every kernel instance a GPU compiles from kernels/spmv.cuh (the
    warp-split vector product exists only there), through NVRTC here."""
    import pathlib
    from ember.scipy import sparse as mod
    src = (pathlib.Path(mod.__file__).parent / "kernels" /
           "spmv.cuh").read_text()
    names = mod._kernel_names(True)
    ptx = ember.cuda.Program(src, options=tuple(
        "--name-expression=" + e for e in names)).compile("ptx").code
    assert ptx.count(b".entry") == len(names) == 12
