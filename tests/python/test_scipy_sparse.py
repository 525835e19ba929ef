"""ember.scipy.sparse against scipy.sparse: construction from dense
arrays, triplets (duplicates summed), (data, indices, indptr) and SciPy's
matrices, the stored arrays, products with vectors and matrices, sums,
diagonals, transposes, conversions, and cg against SciPy's solution."""
import itertools

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
    # an ember array already on the device named by its string
    d = es.csr_matrix(E(b.toarray()), device=device)
    np.testing.assert_array_equal(N(d.toarray()), b.toarray())
    assert d.data.device == ember.Device(device)
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
    """The vector product over rows of every length: empty rows, short
    rows and long ones, one very long row (cuSPARSE on cuda for the floating
    types, ember's kernel for int64 and on cpu); indices int32 as SciPy
    stores them."""
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
    """Every kernel instance a GPU compiles from kernels/spmv.cuh (its
    integer products run there), through NVRTC here."""
    import pathlib
    from ember.scipy import sparse as mod
    src = (pathlib.Path(mod.__file__).parent / "kernels" /
           "spmv.cuh").read_text()
    names = mod._kernel_names()
    ptx = ember.cuda.Program(src, options=tuple(
        "--name-expression=" + e for e in names)).compile("ptx").code
    assert ptx.count(b".entry") == len(names) == 6


# cuSPARSE's value types on cuda; on cpu kernels/spmv.cuh's template, the
# complex ones through spmv_complex.cuh
CUS_DTYPES = [np.float32, np.float64, np.complex64, np.complex128]


def cus_matrix(m, n, dtype, density=0.3):
    """A non-square matrix with empty rows and an empty column, complex
    entries with both parts."""
    d = dense(m, n, density)
    if np.dtype(dtype).kind == "c":
        d = d + 1j * np.where(d != 0, rng.standard_normal((m, n)), 0)
    d[[0, 4, m - 1]] = 0
    d[:, 2] = 0
    return d.astype(dtype)


def cus_tol(dtype):
    return 1e-4 if dtype in (np.float32, np.complex64) else 1e-12


def cus_operand(shape, dtype):
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
@pytest.mark.parametrize("dtype", CUS_DTYPES)
def test_products_every_dtype(device, fmt, dtype):
    """@ with a vector, a matrix and a one-column matrix against SciPy's,
    non-square with empty rows: cuSPARSE's SpMV and SpMM on cuda (a CSC
    matrix times a vector the transposed SpMV of its arrays, times a matrix
    and COO through CSR); ember's kernel on cpu, complex values too."""
    d = cus_matrix(41, 29, dtype)
    a = getattr(es, f"{fmt}_matrix")(ember.asarray(d, device=device))
    b = ss.csr_matrix(d)
    tol = cus_tol(dtype)
    for shape in ((29,), (29, 6), (29, 1)):
        x = cus_operand(shape, dtype)
        got = a @ ember.asarray(x, device=device)
        want = b @ x
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(N(got), want, rtol=tol, atol=tol)
    # a product of mixed types computes in the wider one, as SciPy's
    if np.dtype(dtype).kind == "f":
        x = rng.standard_normal(29)
        got = a @ ember.asarray(x, device=device)
        assert got.dtype == np.float64
        np.testing.assert_allclose(N(got), b @ x, rtol=tol, atol=tol)
    # x @ A through the transpose
    x = cus_operand((3, 41), dtype)
    np.testing.assert_allclose(N(ember.asarray(x, device=device) @ a), x @ b,
                               rtol=tol, atol=tol)


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("dtype", CUS_DTYPES)
def test_products_int64_indices(device, fmt, dtype):
    """int64 index arrays (SciPy's for the largest matrices; cuSPARSE's
    64-bit index type) give the same products as int32 ones."""
    d = cus_matrix(33, 50, dtype)
    a = getattr(es, f"{fmt}_matrix")(ember.asarray(d, device=device))
    a.indices = a.indices.astype(ember.int64)
    a.indptr = a.indptr.astype(ember.int64)
    b = ss.csr_matrix(d)
    tol = cus_tol(dtype)
    for shape in ((50,), (50, 3)):
        x = cus_operand(shape, dtype)
        np.testing.assert_allclose(N(a @ ember.asarray(x, device=device)),
                                   b @ x, rtol=tol, atol=tol)


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("dtype", CUS_DTYPES)
def test_products_unsorted_duplicates(device, fmt, dtype):
    """(data, indices, indptr) kept as given, a row's (a column's) indices
    out of order and repeated: the product sums every stored entry, as
    SciPy's."""
    indptr = np.array([0, 3, 3, 7, 8])
    indices = np.array([4, 0, 4, 5, 1, 5, 2, 0])
    data = cus_operand(8, dtype)
    shape = (4, 6) if fmt == "csr" else (6, 4)
    b = getattr(ss, f"{fmt}_matrix")((data, indices, indptr), shape=shape)
    E = lambda v: ember.asarray(v, device=device)  # noqa: E731
    a = getattr(es, f"{fmt}_matrix")((E(data), E(indices), E(indptr)),
                                     shape=shape)
    tol = cus_tol(dtype)
    n = shape[1]
    for xs in ((n,), (n, 1), (n, 4)):
        x = cus_operand(xs, dtype)
        np.testing.assert_allclose(N(a @ E(x)), b @ x, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128, np.float32,
                                   np.int32])
def test_conversion_sums_complex_duplicates(device, dtype):
    """CSC to CSR and back with a column's indices out of order and
    repeated: the duplicates summed in the values' own kind (complex ones
    once lost their imaginary part), on every device."""
    indptr = np.array([0, 3, 3, 7, 8])
    indices = np.array([4, 0, 4, 5, 1, 5, 2, 0])
    data = np.arange(1, 9) * 1.5
    if np.dtype(dtype).kind == "c":
        data = data + 1j * np.arange(8, 0, -1)
    data = data.astype(dtype)
    E = lambda v: ember.asarray(v, device=device)  # noqa: E731
    for fmt, other, shape in (("csc", "tocsr", (6, 4)),
                              ("csr", "tocsc", (4, 6))):
        b = getattr(ss, f"{fmt}_matrix")((data, indices, indptr), shape=shape)
        a = getattr(es, f"{fmt}_matrix")((E(data), E(indices), E(indptr)),
                                         shape=shape)
        c = getattr(a, other)()
        assert c.dtype == dtype
        np.testing.assert_array_equal(N(c.toarray()), b.toarray())


def test_products_empty(device):
    """No rows, no columns, no entries, no right-hand columns: SciPy's
    shapes, and zeros where rows exist."""
    E = lambda v: ember.asarray(v, device=device)  # noqa: E731
    for fmt, (m, n) in itertools.product(("csr", "csc"),
                                         ((0, 5), (4, 0), (3, 4))):
        a = getattr(es, f"{fmt}_matrix")((m, n), device=device)
        b = ss.csr_matrix((m, n))
        for shape in ((n,), (n, 1), (n, 2), (n, 0)):
            x = np.ones(shape)
            got, want = a @ E(x), b @ x
            assert got.shape == want.shape and got.dtype == want.dtype
            np.testing.assert_array_equal(N(got), want)
    a = es.csr_matrix(E(np.zeros((5, 3), np.float32)))
    assert a.nnz == 0
    np.testing.assert_array_equal(N(a @ E(np.ones(3, np.float32))),
                                  np.zeros(5, np.float32))


def test_products_mismatched_shapes(device):
    """SciPy's ValueError for an operand of the wrong length, vector or
    matrix, and for more than two dimensions."""
    a = es.csr_matrix(ember.asarray(cus_matrix(6, 5, np.float32),
                                    device=device))
    for shape in ((4,), (6,), (4, 3), (6, 2), (5, 2, 2)):
        with pytest.raises(ValueError, match="dimension mismatch"):
            a @ ember.asarray(np.ones(shape, np.float32), device=device)


def test_cusparse_call_checks(device):
    """The raw cuSPARSE call (ember._ember._cus_csr_matmul) names what is
    wrong, on any device: values cuSPARSE has no product for, index arrays
    of two types, operands whose shape or dtype does not fit, each with its
    shape and dtype; then a device other than cuda."""
    from ember import _ember
    E = lambda v: ember.asarray(v, device=device)  # noqa: E731
    a = es.csr_matrix(E(cus_matrix(5, 6, np.float64)))
    x, y = E(np.ones(6)), ember.empty(5, device=device)
    if device == "cpu":
        with pytest.raises(NotImplementedError, match="runs on CUDA devices"):
            _ember._cus_csr_matmul(a.data, a.indices, a.indptr, x, y, 6, 0)
    else:
        _ember._cus_csr_matmul(a.data, a.indices, a.indptr, x, y, 6, 0)
        np.testing.assert_allclose(N(y), N(a.toarray()) @ np.ones(6))
    with pytest.raises(TypeError, match="no cuSPARSE product for int64"):
        _ember._cus_csr_matmul(a.data.astype(ember.int64), a.indices,
                               a.indptr, x.astype(ember.int64),
                               y.astype(ember.int64), 6, 0)
    with pytest.raises(ValueError, match=r"indices must be .*int64.*int32"):
        _ember._cus_csr_matmul(a.data, a.indices,
                               a.indptr.astype(ember.int64), x, y, 6, 0)
    with pytest.raises(ValueError, match=r"x \(7,\) does not fit a 5 x 6"):
        _ember._cus_csr_matmul(a.data, a.indices, a.indptr, E(np.ones(7)), y,
                               6, 0)
    with pytest.raises(ValueError, match=r"y must be .*float64 array of "
                       r"shape \(5, 2\).*float64 \(5,\)"):
        _ember._cus_csr_matmul(a.data, a.indices, a.indptr,
                               E(np.ones((6, 2))), y, 6, 0)
    with pytest.raises(ValueError, match=r"x must be .*float64.*not float32"):
        _ember._cus_csr_matmul(a.data, a.indices, a.indptr,
                               x.astype(ember.float32), y, 6, 0)
    # transposed: x has the arrays' 5 rows, y their 6 columns; only vectors
    xt, yt = E(np.arange(5.0)), ember.empty(6, device=device)
    with pytest.raises(ValueError, match=r"x \(6,\) does not fit a 6 x 5 "
                       "matrix \\(the transpose"):
        _ember._cus_csr_matmul(a.data, a.indices, a.indptr, x, yt, 6, 1)
    with pytest.raises(NotImplementedError, match="not wired"):
        _ember._cus_csr_matmul(a.data, a.indices, a.indptr,
                               E(np.ones((5, 2))), E(np.ones((6, 2))), 6, 1)
    if device == "cpu":
        with pytest.raises(NotImplementedError, match="runs on CUDA devices"):
            _ember._cus_csr_matmul(a.data, a.indices, a.indptr, xt, yt, 6, 1)
    else:
        _ember._cus_csr_matmul(a.data, a.indices, a.indptr, xt, yt, 6, 1)
        np.testing.assert_allclose(N(yt), N(a.toarray()).T @ np.arange(5.0))


@pytest.mark.parametrize("dtype", [np.float32, np.complex128])
def test_cusparse_on_a_stream(need_cuda, dtype):
    """Products queued on a non-default stream (the device's cuSPARSE
    handle bound to it for the call) and then on the default stream again
    give SciPy's results; the result is ready once the stream is."""
    d = cus_matrix(3000, 1700, dtype, density=0.02)
    b = ss.csr_matrix(d)
    xv, xm = cus_operand(1700, dtype), cus_operand((1700, 8), dtype)
    tol = cus_tol(dtype)
    with ember.Device("cuda:0"):
        a = es.csr_matrix(ember.asarray(d))
        # a non-blocking stream does not wait for the default one's work
        ember.cuda.Device().synchronize()
        s = ember.cuda.Stream(non_blocking=True)
        with s:
            ev, em = ember.asarray(xv), ember.asarray(xm)
            yv, ym = a @ ev, a @ em
        s.synchronize()
        np.testing.assert_allclose(N(yv), b @ xv, rtol=tol, atol=tol)
        np.testing.assert_allclose(N(ym), b @ xm, rtol=tol, atol=tol)
        np.testing.assert_allclose(N(a @ ev), b @ xv, rtol=tol, atol=tol)
        np.testing.assert_allclose(N(a @ em), b @ xm, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", [np.int8, np.float64, None])
def test_coo_from_shape(device, dtype):
    # the lectures' sp.sparse.coo_array((3, 4), dtype=np.int8)
    a = es.coo_array((3, 4), dtype=dtype, device=device)
    b = ss.coo_array((3, 4), dtype=dtype)
    assert a.shape == b.shape and a.nnz == b.nnz == 0 and a.dtype == b.dtype
    assert a.has_canonical_format == b.has_canonical_format
    assert a.data.device == ember.Device(device)
    np.testing.assert_array_equal(N(a.toarray()), b.toarray())
    np.testing.assert_array_equal(N(a.tocsr().toarray()), b.toarray())
    with pytest.raises(ValueError, match="dimension"):
        es.coo_array(ember.zeros(3, device=device))


def test_tutorial_coo_argmax_canonical(device):
    """What SciPy's sparse tutorial asks of a COO array: argmax/argmin over
    the whole matrix (an implicit zero's position where zero wins),
    todense, and has_canonical_format set by sum_duplicates."""
    sps = ss
    D = np.array([[1, 0, 0, 2], [0, 4, 1, 0], [0, 0, 5, 0]])
    cases = [D, -D, np.ones((2, 3)), -np.ones((2, 3)), np.zeros((2, 2)),
             np.array([[0, -1], [-2, 0]]), np.array([[3, 0], [0, 0]]),
             np.array([[0.0, 2.0], [0.0, 0.0]])]
    for a in cases:
        for cls in ("coo_array", "csr_matrix", "csc_matrix"):
            m = getattr(es, cls)(ember.asarray(a, device=device))
            w = getattr(sps, cls)(a)
            assert m.argmax() == w.argmax(), (cls, a)
            assert m.argmin() == w.argmin(), (cls, a)
    # explicit zeros stored: still SciPy's pick
    z = sps.coo_array(([0.0, -1.0, 0.0], ([0, 0, 1], [1, 2, 0])),
                      shape=(2, 3))
    ez = es.coo_array((ember.asarray([0.0, -1.0, 0.0], device=device),
                       (ember.asarray([0, 0, 1], device=device),
                        ember.asarray([1, 2, 0], device=device))),
                      shape=(2, 3))
    assert ez.argmax() == z.argmax() and ez.argmin() == z.argmin()
    with pytest.raises(ValueError, match="empty"):
        es.csr_matrix(ember.zeros((0, 3), device=device)).argmax()
    # along an axis too now, (1, n) as SciPy's np.matrix
    np.testing.assert_array_equal(
        ember.asnumpy(es.csr_matrix(ember.asarray(D, device=device))
                      .argmax(axis=0)), sps.csr_matrix(D).argmax(axis=0))
    e = lambda v: ember.asarray(v, device=device)  # noqa: E731
    d = es.coo_array((e([1, 2, 1, 3, 1, 5]), (e([0, 0, 1, 1, 1, 2]),
                                              e([0, 3, 1, 1, 2, 2]))))
    w = sps.coo_array(([1, 2, 1, 3, 1, 5], ([0, 0, 1, 1, 1, 2],
                                            [0, 3, 1, 1, 2, 2])))
    assert d.nnz == w.nnz == 6
    np.testing.assert_array_equal(ember.asnumpy(d.todense()), w.todense())
    assert d.has_canonical_format == w.has_canonical_format
    d.sum_duplicates()
    w.sum_duplicates()
    assert d.nnz == w.nnz and d.has_canonical_format == \
        w.has_canonical_format
    np.testing.assert_array_equal(ember.asnumpy(d.toarray()), w.toarray())
    assert es.coo_array(e(D)).has_canonical_format is True
    assert es.csr_array(e(D)).tocoo().has_canonical_format is True
    assert es.csc_array(e(D)).tocoo().has_canonical_format is False
    assert es.coo_array(es.csr_array(e(D))).has_canonical_format is False
    np.testing.assert_array_equal(
        ember.asnumpy(es.csr_matrix(e(D)).todense()), D)
