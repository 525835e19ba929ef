"""ember.scipy.sparse's construction functions and DIA format against
scipy.sparse's: the dense values, the format, the dtype and, where ember
follows SciPy's layout (DIA bands, CSR/CSC stacks, find), the stored
arrays; SciPy's exception classes and messages for bad input; random
matrices by their structure and statistics (ember.random's draws are not
NumPy's); .npz files written by one and read by the other."""
import warnings

import numpy as np
import pytest
import scipy.sparse as ss

import ember
import ember.scipy.sparse as es
from helpers import run_python

rng = np.random.default_rng(11)


def N(x):
    return ember.asnumpy(x)


def sparse_dense(m, n, density=0.4, dtype=np.float64, seed=None):
    """A dense matrix of small integers (sums and products stay exact)
    with about `density` of it nonzero."""
    g = rng if seed is None else np.random.default_rng(seed)
    d = g.integers(-4, 5, (m, n)).astype(dtype)
    d[g.random((m, n)) > density] = 0
    return d


def same(a, b, arrays=()):
    """ember matrix a against SciPy's b: format, shape, dtype, values, and
    the named stored arrays."""
    assert a.format == b.format, (a.format, b.format)
    assert a.shape == b.shape
    assert a.dtype == b.dtype, (a.dtype, b.dtype)
    np.testing.assert_array_equal(N(a.toarray()), b.toarray())
    for name in arrays:
        np.testing.assert_array_equal(N(getattr(a, name)), getattr(b, name),
                                      err_msg=name)


def on(x, device):
    assert x.device == ember.Device(device)
    return x


# -- eye, identity, diags, spdiags --------------------------------------------

@pytest.mark.parametrize("m,n,k", [(4, 4, 0), (3, 5, 1), (5, 3, -2),
                                   (4, 4, 3), (3, 5, 4), (0, 0, 0)])
@pytest.mark.parametrize("fmt", [None, "dia", "csr", "csc", "coo"])
def test_eye(device, m, n, k, fmt):
    for dtype in (float, np.int32, np.complex64):
        a = es.eye(m, n, k=k, dtype=dtype, format=fmt, device=device)
        b = ss.eye(m, n, k=k, dtype=dtype, format=fmt)
        same(on(a, device), b, ("data", "offsets") if a.format == "dia"
             else ())
        assert a.nnz == b.nnz
        c = es.eye_array(m, n, k=k, dtype=dtype, format=fmt, device=device)
        same(c, ss.eye_array(m, n, k=k, dtype=dtype, format=fmt))
    if m == n:
        i = es.identity(m, format=fmt, device=device)
        same(i, ss.identity(m, format=fmt))
        if fmt in ("csr", "csc"):
            same(i, ss.identity(m, format=fmt), ("indices", "indptr"))


def test_eye_bad(device):
    with pytest.raises(ValueError, match="Format xyz is unknown"):
        es.eye(3, format="xyz", device=device)
    with pytest.raises(NotImplementedError, match="no lil format"):
        es.eye(3, format="lil", device=device)
    with pytest.raises(ValueError, match=r"Offset 0 \(index 0\) out of "
                       "bounds"):
        es.eye(-1, device=device)
    for fmt in (None, "csr"):
        with pytest.raises(ValueError, match=r"Offset -5 \(index 0\) out "
                           "of bounds"):
            es.eye(3, k=-5, format=fmt, device=device)


DIAGS = [
    ([[1, 2, 3, 4], [5, 6, 7]], [0, 1], None),
    ([[1, 2, 3], [4, 5, 6, 7]], [-1, 0], (4, 4)),
    ([[1.5, -2, 4], [3.0], [7, 8, 9, 10]], [2, -3, 0], (4, 5)),
    ([[1], [-2], [1]], [-1, 0, 1], (5, 5)),            # scalars broadcast
    ([[1, 2, 3, 4, 5, 6]], [1], (3, 4)),                # truncated
    ([1, 2, 3], 0, None),                               # one diagonal
    ([[4, 5], [6, 7, 8]], [-2, 1], (3, 6)),
]


@pytest.mark.parametrize("diagonals,offsets,shape", DIAGS)
@pytest.mark.parametrize("fmt", [None, "csr", "coo"])
def test_diags(device, diagonals, offsets, shape, fmt):
    if isinstance(offsets, int):
        ed = ember.asarray(np.asarray(diagonals, float), device=device)
        sd = np.asarray(diagonals, float)
    else:
        ed = [ember.asarray(np.asarray(d, float), device=device)
              for d in diagonals]
        sd = [np.asarray(d, float) for d in diagonals]
    a = es.diags(ed, offsets, shape=shape, format=fmt)
    b = ss.diags(sd, offsets, shape=shape, format=fmt)
    same(on(a, device), b, ("data", "offsets") if fmt is None else ())
    assert a.nnz == b.nnz
    a = es.diags_array(ed, offsets=offsets, shape=shape, format=fmt,
                       dtype=np.float32)
    same(a, ss.diags_array(sd, offsets=offsets, shape=shape, format=fmt,
                           dtype=np.float32))


def test_diags_dtype(device):
    """dtype=None keeps the inputs' type; left out, it is SciPy 1.17's
    np.common_type with SciPy's FutureWarning."""
    d = [[1, 2, 3], [4, 5]]
    ed = [ember.asarray(np.array(x), device=device) for x in d]
    same(es.diags(ed, [0, 1], dtype=None), ss.diags(d, [0, 1], dtype=None))
    with pytest.warns(FutureWarning, match="Input has data type int64, but "
                      "the output has been cast to float64"):
        a = es.diags(ed, [0, 1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        same(a, ss.diags(d, [0, 1]))
    f32 = [ember.asarray(np.array(x, np.float32), device=device) for x in d]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert es.diags(f32, [0, 1]).dtype == np.float32


def test_diags_bad(device):
    E = lambda x: ember.asarray(np.asarray(x, float), device=device)  # noqa
    with pytest.raises(ValueError, match="Different number of diagonals "
                       "and offsets"):
        es.diags([E([1, 2]), E([3])], [0], dtype=None)
    with pytest.raises(ValueError, match=r"Diagonal length \(index 0: 3 at "
                       r"offset 0\) does not agree with array size "
                       r"\(4, 4\)"):
        es.diags([E([1, 2, 3]), E([1, 2])], [0, 1], shape=(4, 4),
                 dtype=None)
    with pytest.raises(ValueError, match=r"Offset 5 \(index 0\) out of "
                       "bounds"):
        es.diags([E([1])], [5], shape=(3, 3), dtype=None)
    with pytest.raises(ValueError, match="offset array contains duplicate"):
        es.diags([E([1, 2, 3]), E([1, 2, 3])], [0, 0], dtype=None)


def test_spdiags(device):
    data = np.array([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])
    ed = ember.asarray(data, device=device)
    for args in (([0, -1, 2], 4, 4), ([0, 1, -2], (3, 4)), ([1, 0, -1],),
                 ([0, -1, 2], 5, 3)):
        a = es.spdiags(ed, *args)
        b = ss.spdiags(data, *args)
        same(on(a, device), b, ("data", "offsets"))
        assert a.nnz == b.nnz
    same(es.spdiags(ed, [0, -1, 2], 4, 4, format="csc"),
         ss.spdiags(data, [0, -1, 2], 4, 4, format="csc"))


# -- the DIA format -----------------------------------------------------------

def dia_pair(device, data, offsets, shape):
    data = np.asarray(data, float)
    return (es.dia_matrix((ember.asarray(data, device=device),
                           ember.asarray(np.asarray(offsets), device=device)),
                          shape=shape),
            ss.dia_matrix((data, offsets), shape=shape))


def test_dia_conversions(device):
    a, b = dia_pair(device, [[1, 0, 3, 4, 9], [5, 6, 0, 8, 1],
                             [2, 2, 2, 2, 2]], [0, 2, -1], (4, 5))
    same(on(a, device), b, ("data", "offsets"))
    assert a.nnz == b.nnz == 10          # the band, stored zeros counted
    for fmt in ("csr", "csc", "coo"):
        c, d = getattr(a, "to" + fmt)(), getattr(b, "to" + fmt)()
        assert c.nnz == d.nnz            # zeros dropped, as SciPy's
        same(c, d)
    same(a.tocsr(), b.tocsr(), ("indices", "indptr", "data"))
    same(a.T, b.T, ("data", "offsets"))
    same(a.T.T, b.T.T, ("data", "offsets"))
    for k in (0, 2, -1, 4, -6):
        np.testing.assert_array_equal(N(a.diagonal(k)), b.diagonal(k))
    assert a.count_nonzero() == b.count_nonzero()
    np.testing.assert_array_equal(a.get().toarray(), b.toarray())
    assert float(a.sum()) == b.sum()
    for axis in (0, 1):
        np.testing.assert_array_equal(N(a.sum(axis=axis)),
                                      b.sum(axis=axis))
    same(a.astype(np.float32), b.astype(np.float32))
    same(a.copy(), b.copy(), ("data", "offsets"))
    same(a.asformat("csc"), b.asformat("csc"))
    # from dense, CSR and SciPy matrices: SciPy's todia layout
    d = sparse_dense(6, 5, 0.5)
    for src in (ember.asarray(d, device=device),
                es.csr_matrix(ember.asarray(d, device=device))):
        same(es.dia_matrix(src), ss.dia_matrix(d), ("data", "offsets"))
    same(es.dia_matrix(ss.dia_matrix(d), device=device), ss.dia_matrix(d),
         ("data", "offsets"))
    same(es.csr_matrix(a), b.tocsr())
    e = es.dia_matrix((3, 4), device=device)
    same(e, ss.dia_matrix((3, 4)))
    assert e.nnz == 0 and e.tocsr().nnz == 0


def test_dia_arithmetic(device):
    a, b = dia_pair(device, [[1, 0, 3, 4], [5, 6, 7, 8]], [0, 1], (4, 4))
    c, d = dia_pair(device, [[1, 2, 3, 4], [2, 2, 2, 2]], [-1, 1], (4, 4))
    f, g = dia_pair(device, [[1, 2, 3, 4, 5, 6]], [0], (4, 4))   # wider
    x = sparse_dense(4, 4, 0.7)
    ex = ember.asarray(x, device=device)
    v = rng.standard_normal(4)
    cases = [
        (lambda p, q, r: p + q, True), (lambda p, q, r: p - q, True),
        (lambda p, q, r: p + r, True), (lambda p, q, r: r - p, True),
        (lambda p, q, r: p * 2.5, True), (lambda p, q, r: 2 * p, True),
        (lambda p, q, r: p / 4, True), (lambda p, q, r: -p, True),
        (lambda p, q, r: abs(p), True), (lambda p, q, r: p.power(2), True),
        (lambda p, q, r: p.multiply(q), True),
        (lambda p, q, r: p.multiply(r), True),
        (lambda p, q, r: p @ q, False), (lambda p, q, r: p @ r, False),
        (lambda p, q, r: p * q, False),
        (lambda p, q, r: p.tocsr() + p, False),
        (lambda p, q, r: p + p.tocsr(), False),
        (lambda p, q, r: p.multiply(q.tocsr()), False),
        (lambda p, q, r: p @ q.tocsr(), False),
        (lambda p, q, r: p.tocsr() @ q, False),
        (lambda p, q, r: p.maximum(q), False),
        (lambda p, q, r: p != q, False),
    ]
    for op, keeps_structure in cases:
        for (p, sp), (q, sq), (r, sr) in (((a, b), (c, d), (f, g)),
                                          ((c, d), (f, g), (a, b)),
                                          ((f, g), (a, b), (c, d))):
            got, want = op(p, q, r), op(sp, sq, sr)
            same(got, want)
            if keeps_structure:
                assert got.nnz == want.nnz
    same(a.multiply(ex), b.multiply(x))
    same(a.multiply(ex[:1]), b.multiply(x[:1]))
    same(a.multiply(ex[:, :1]), b.multiply(x[:, :1]))
    same(a.sqrt(), b.sqrt())
    np.testing.assert_allclose(N(a @ ember.asarray(v, device=device)), b @ v)
    np.testing.assert_allclose(N(a @ ex), b @ x)
    np.testing.assert_array_equal(N(a + ex), b + x)
    np.testing.assert_array_equal(N(ex @ a), x @ b)
    same(a + 0, b + 0)
    assert float(a.trace(1)) == b.trace(1)


def test_dia_bad(device):
    E = lambda x: ember.asarray(np.asarray(x, float), device=device)  # noqa
    with pytest.raises(ValueError, match="expected a shape argument"):
        es.dia_matrix((E(np.ones((2, 3))), [0, 1]))
    with pytest.raises(ValueError, match=r"number of diagonals \(2\) does "
                       r"not match the number of offsets \(1\)"):
        es.dia_matrix((E(np.ones((2, 3))), [0]), shape=(3, 3))
    with pytest.raises(ValueError, match="offset array contains duplicate "
                       "values"):
        es.dia_matrix((E(np.ones((2, 3))), [1, 1]), shape=(3, 3))
    with pytest.raises(ValueError, match="offsets array must have rank 1"):
        es.dia_matrix((E(np.ones((2, 3))), [[0, 1]]), shape=(3, 3))
    with pytest.raises(ValueError, match="data array must have rank 2"):
        es.dia_matrix((E(np.ones((2, 3, 1))), [0, 1]), shape=(3, 3))
    with pytest.raises(NotImplementedError, match="count_nonzero over an "
                       "axis"):
        es.eye(3, device=device).count_nonzero(axis=0)
    with pytest.warns(es.SparseEfficiencyWarning, match="Constructing a "
                      "DIA matrix with 201 diagonals is inefficient"):
        es.dia_matrix(ember.asarray(np.ones((101, 101)), device=device))


# -- blocks ---------------------------------------------------------------

def pairs(device, fmt, shapes, dtype=np.float64):
    ours, theirs = [], []
    for i, (m, n) in enumerate(shapes):
        d = sparse_dense(m, n, 0.5, dtype, seed=i)
        theirs.append(getattr(ss, fmt + "_matrix")(d))
        ours.append(getattr(es, fmt + "_matrix")(
            ember.asarray(d, device=device)))
    return ours, theirs


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dia"])
def test_stacks(device, fmt):
    ours, theirs = pairs(device, fmt, [(3, 4), (3, 2), (3, 5)])
    arrays = ("data", "indices", "indptr") if fmt in ("csr", "csc") else ()
    same(on(es.hstack(ours), device), ss.hstack(theirs), arrays)
    same(es.vstack([o.T for o in ours]), ss.vstack([t.T for t in theirs]),
         arrays)
    for out in ("csr", "csc", "coo", "dia"):
        same(es.hstack(ours, format=out), ss.hstack(theirs, format=out))
        same(es.vstack([o.T for o in ours], format=out, dtype=np.float32),
             ss.vstack([t.T for t in theirs], format=out, dtype=np.float32))


def test_stack_dtypes_and_mixed_blocks(device):
    a32 = sparse_dense(3, 3, 0.5, np.float32)
    i64 = sparse_dense(3, 2, 0.5, np.int64)
    b = sparse_dense(3, 4, 0.5)
    E = lambda x: ember.asarray(x, device=device)  # noqa: E731
    ours = [es.csr_matrix(E(a32)), es.coo_matrix(E(i64)), E(b)]
    theirs = [ss.csr_matrix(a32), ss.coo_matrix(i64), b]
    same(es.hstack(ours), ss.hstack(theirs))           # COO, upcast
    same(es.hstack(ours, dtype=np.complex128),
         ss.hstack(theirs, dtype=np.complex128))
    # CSR blocks of two dtypes: the fast path's promotion
    same(es.vstack([es.csr_matrix(E(a32)),
                    es.csr_matrix(E(i64[:, :1].T.copy()))]),
         ss.vstack([ss.csr_matrix(a32), ss.csr_matrix(i64[:, :1].T)]))
    # SciPy's own matrices as blocks
    same(es.hstack([ss.csr_matrix(a32), es.csr_matrix(E(b))]),
         ss.hstack([ss.csr_matrix(a32), ss.csr_matrix(b)]))


def test_bmat(device):
    E = lambda x: ember.asarray(x, device=device)  # noqa: E731
    A, B, C = (sparse_dense(*s, 0.5, seed=i)
               for i, s in enumerate([(2, 3), (2, 4), (3, 4)]))
    grid = [[A, B], [None, C]]
    for fmt in (None, "csr", "csc", "dia"):
        ours = [[None if x is None else es.csr_matrix(E(x)) for x in r]
                for r in grid]
        theirs = [[None if x is None else ss.csr_matrix(x) for x in r]
                  for r in grid]
        same(es.bmat(ours, format=fmt), ss.bmat(theirs, format=fmt))
        same(es.block_array(ours, format=fmt, dtype=np.float32),
             ss.block_array(theirs, format=fmt, dtype=np.float32))
    # every block CSR, SciPy joins each block row first, so the block
    # columns need not line up (and CSC the other way round)
    X, Y, D = (sparse_dense(*s, 0.5, seed=i + 7)
               for i, s in enumerate([(2, 1), (3, 1), (3, 3)]))
    rows = [[A, X], [Y, D]]
    ours = [[es.csr_matrix(E(x)) for x in r] for r in rows]
    theirs = [[ss.csr_matrix(x) for x in r] for r in rows]
    same(es.bmat(ours), ss.bmat(theirs), ("data", "indices", "indptr"))
    cols = [[x.T for x in r] for r in zip(*rows)]
    ours = [[es.csc_matrix(E(x)) for x in r] for r in cols]
    theirs = [[ss.csc_matrix(x) for x in r] for r in cols]
    same(es.bmat(ours), ss.bmat(theirs), ("data", "indices", "indptr"))
    # dense blocks and a row of Nones
    same(es.bmat([[E(A), None], [None, None], [None, E(C)]]),
         ss.bmat([[A, None], [None, None], [None, C]]))
    same(es.bmat([[None, None]]), ss.bmat([[None, None]]))
    same(es.bmat(np.array([[es.csr_matrix(E(A)), None],
                           [None, es.coo_matrix(E(C))]], dtype=object)),
         ss.bmat([[ss.csr_matrix(A), None], [None, ss.coo_matrix(C)]]))


def test_blocks_bad(device):
    E = lambda x: es.coo_matrix(ember.asarray(x, device=device))  # noqa
    R = lambda x: es.csr_matrix(ember.asarray(x, device=device))  # noqa
    C = lambda x: es.csc_matrix(ember.asarray(x, device=device))  # noqa
    a, b = np.ones((2, 2)), np.ones((3, 3))
    for bad in ([], [E(a)], "ab", [[E(a)], [E(a), E(a)]]):
        with pytest.raises(ValueError, match="blocks must be 2-D"):
            es.bmat(bad)
    with pytest.raises(ValueError, match=r"blocks\[0,:\] has incompatible "
                       r"row dimensions. Got blocks\[0,1\].shape\[0\] == 3, "
                       "expected 2"):
        es.bmat([[E(a), E(b)]])
    with pytest.raises(ValueError, match=r"blocks\[:,0\] has incompatible "
                       r"column dimensions. Got blocks\[1,0\].shape\[1\] == "
                       "3, expected 2"):
        es.bmat([[E(a)], [E(b)]])
    with pytest.raises(ValueError, match=r"Mismatching dimensions along "
                       r"axis 0: \{2, 3\}"):
        es.hstack([R(a), R(b)])
    with pytest.raises(ValueError, match="incompatible dimensions for axis "
                       "1"):
        es.vstack([R(a), R(b)])
    with pytest.raises(ValueError, match="incompatible dimensions for axis "
                       "0"):
        es.hstack([C(a), C(b)])
    with pytest.raises(IndexError):
        es.hstack([])
    with pytest.raises(ValueError, match="Format xyz is unknown"):
        es.hstack([E(a), E(a)], format="xyz")


def test_block_diag(device):
    E = lambda x: ember.asarray(x, device=device)  # noqa: E731
    d = sparse_dense(2, 3, 0.5)
    s = sparse_dense(3, 2, 0.5, np.float32)
    ours = [E(d), es.csr_matrix(E(s)), [[0, 7]], 3, E(np.zeros((1, 1)))]
    theirs = [d, ss.csr_matrix(s), [[0, 7]], 3, np.zeros((1, 1))]
    for fmt in (None, "csr", "dia"):
        a, b = es.block_diag(ours, format=fmt), ss.block_diag(theirs,
                                                              format=fmt)
        same(on(a, device), b)
        if fmt is None:
            assert a.nnz == b.nnz       # dense blocks stored whole
    same(es.block_diag(ours, dtype=np.int64),
         ss.block_diag(theirs, dtype=np.int64))
    with pytest.raises(ValueError, match="need at least one array"):
        es.block_diag([])


# -- products ---------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.float32])
def test_kron(device, dtype):
    E = lambda x: ember.asarray(x, device=device)  # noqa: E731
    a = sparse_dense(3, 4, 0.4, dtype)
    sparse_b = sparse_dense(4, 5, 0.2, dtype, seed=3)
    full_b = sparse_dense(2, 3, 1.0, dtype, seed=4)
    for b in (sparse_b, full_b):
        for A, B in ((es.csr_matrix(E(a)), es.coo_matrix(E(b))),
                     (E(a), E(b)), (es.csc_matrix(E(a)), E(b))):
            for fmt in ("coo", "csr", "csc", "dia"):
                same(es.kron(A, B, format=fmt),
                     ss.kron(ss.csr_matrix(a), b, format=fmt))
            got, want = es.kron(A, B), ss.kron(ss.csr_matrix(a), b)
            np.testing.assert_array_equal(N(got.toarray()), want.toarray())
            assert got.dtype == want.dtype
            # SciPy's BSR (B at least half full) is CSR here
            assert got.format == ("csr" if want.format == "bsr" else
                                  want.format)
            on(got, device)
    zero = es.kron(es.csr_matrix((2, 2), device=device), E(full_b))
    same(zero, ss.kron(ss.csr_matrix((2, 2)), full_b))
    assert zero.dtype == np.float64


def test_kronsum(device):
    E = lambda x: ember.asarray(x, device=device)  # noqa: E731
    a = sparse_dense(3, 3, 0.5)
    b = sparse_dense(2, 2, 0.6, np.float32)
    for fmt in (None, "coo", "csc"):
        same(es.kronsum(es.csr_matrix(E(a)), E(b), format=fmt),
             ss.kronsum(ss.csr_matrix(a), b, format=fmt))
    with pytest.raises(ValueError, match="A is not square"):
        es.kronsum(E(np.ones((2, 3))), E(b))
    with pytest.raises(ValueError, match="B is not square"):
        es.kronsum(E(a), E(np.ones((2, 3))))


# -- extraction ---------------------------------------------------------------

@pytest.mark.parametrize("k", [0, 1, -2, 5])
def test_tril_triu(device, k):
    d = sparse_dense(5, 6, 0.6, np.int64)
    for src, theirs in ((ember.asarray(d, device=device), d),
                        (es.csr_matrix(ember.asarray(d, device=device)),
                         ss.csr_matrix(d))):
        for fmt in (None, "csr", "dia"):
            same(es.tril(src, k, format=fmt), ss.tril(theirs, k, format=fmt))
            same(es.triu(src, k=k, format=fmt),
                 ss.triu(theirs, k=k, format=fmt))


def test_find(device):
    row = np.array([2, 0, 2, 1, 0, 2])
    col = np.array([1, 3, 1, 0, 0, 2])
    val = np.array([1.5, 2, -1.5, 0, 4, 3])      # (2, 1) cancels; a zero
    a = es.coo_matrix((ember.asarray(val, device=device),
                       (ember.asarray(row, device=device),
                        ember.asarray(col, device=device))), shape=(3, 4))
    b = ss.coo_matrix((val, (row, col)), shape=(3, 4))
    for src, want in ((a, b), (a.tocsc(), b.tocsc()),
                      (a.toarray(), b.toarray())):
        got = es.find(src)
        for g, w in zip(got, ss.find(want)):
            assert g.dtype == w.dtype
            np.testing.assert_array_equal(N(g), w)


# -- random -----------------------------------------------------------------

@pytest.mark.parametrize("density", [0.0, 0.05, 0.5, 1.0])
@pytest.mark.parametrize("dtype", [None, np.float32, np.int8, np.uint16,
                                   np.complex128])
def test_random_structure(device, density, dtype):
    m, n = 60, 45
    a = es.random(m, n, density=density, dtype=dtype, random_state=5,
                  device=device)
    b = ss.random(m, n, density=density, dtype=dtype, rng=5)
    assert a.format == b.format == "coo"
    assert a.dtype == b.dtype and a.shape == b.shape
    assert a.nnz == b.nnz == round(density * m * n)
    on(a.data, device)
    flat = N(a.row) * n + N(a.col)
    assert len(np.unique(flat)) == a.nnz               # distinct places
    vals = N(a.data)
    if dtype is not None and np.dtype(dtype).kind in "iu" and vals.size:
        info = np.iinfo(dtype)
        assert vals.min() >= info.min and vals.max() < info.max
    elif vals.size:
        parts = [vals.real, vals.imag] if np.iscomplexobj(vals) else [vals]
        for p in parts:
            assert p.min() >= 0 and p.max() < 1
    # the same seed gives the same matrix
    c = es.random(m, n, density=density, dtype=dtype, random_state=5,
                  device=device)
    np.testing.assert_array_equal(N(c.toarray()), N(a.toarray()))


def test_random_statistics(device):
    """Uniform places and values: 20000 of 400 x 500 (the rounds-of-draws
    path) and 150000 (the permutation path)."""
    m, n = 400, 500
    for k in (20000, 150000):
        a = es.random(m, n, density=k / (m * n), random_state=1,
                      device=device)
        assert a.nnz == k
        vals = N(a.data)
        assert abs(vals.mean() - 0.5) < 5 * np.sqrt(1 / 12 / k)
        assert abs(vals.var() - 1 / 12) < 0.01
        # each row's count is hypergeometric around k / m
        counts = np.bincount(N(a.row), minlength=m)
        p = k / (m * n)
        assert abs(counts.mean() - k / m) < 1e-9
        chi2 = ((counts - n * p) ** 2 / (n * p * (1 - p))).sum()
        assert chi2 < m + 6 * np.sqrt(2 * m)
        cols = np.bincount(N(a.col), minlength=n)
        chi2 = ((cols - m * p) ** 2 / (m * p * (1 - p))).sum()
        assert chi2 < n + 6 * np.sqrt(2 * n)
        assert len(np.unique(N(a.row) * n + N(a.col))) == k


def test_random_arguments(device):
    a = es.random_array((30, 20), density=0.3, format="csr",
                        rng=ember.random.default_rng(2), device=device)
    b = ss.random_array((30, 20), density=0.3, format="csr", rng=2)
    assert a.format == b.format and a.nnz == b.nnz and a.dtype == b.dtype
    g = np.random.default_rng(4)
    c = es.rand(30, 20, density=0.2, format="csc", rng=g, device=device)
    assert c.format == "csc" and c.nnz == 120
    assert g.integers(10 ** 9) != np.random.default_rng(4).integers(10 ** 9)
    d = es.random(10, 10, 0.5, "coo", np.float64, 3,
                  lambda k: np.arange(k, dtype=float) + 1, device=device)
    np.testing.assert_array_equal(np.sort(N(d.data)), np.arange(50) + 1)
    e = es.random_array((10, 12), density=0.25, device=device,
                        data_sampler=lambda size: np.full(size, 7.0))
    assert e.nnz == 30 and (N(e.data) == 7).all()
    r = es.random(8, 9, density=0.5, random_state=ember.random.RandomState(1),
                  device=device)
    assert r.nnz == 36
    with pytest.raises(ValueError, match=r"density expected to be 0 <= "
                       "density <= 1"):
        es.random(3, 3, density=1.5, device=device)
    with pytest.raises(TypeError, match="random\\(\\) got multiple values "
                       "for argument now known as `rng`"):
        es.random(3, 3, rng=1, random_state=2, device=device)
    with pytest.raises(ValueError, match="cannot be used to seed"):
        es.random(3, 3, random_state="x", device=device)
    with pytest.raises(NotImplementedError, match="2-D"):
        es.random_array((5,), density=0.5, device=device)
    with pytest.raises(ValueError, match="Format xyz is unknown"):
        es.random(3, 3, format="xyz", device=device)


# -- files ------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dia"])
@pytest.mark.parametrize("compressed", [True, False])
def test_npz_both_ways(device, tmp_path, fmt, compressed):
    d = sparse_dense(7, 6, 0.4)
    ours = es.dia_matrix(ember.asarray(d, device=device)) if fmt == "dia" \
        else getattr(es, fmt + "_matrix")(ember.asarray(d, device=device))
    es.save_npz(tmp_path / "e.npz", ours, compressed=compressed)
    back = ss.load_npz(tmp_path / "e.npz")
    assert isinstance(back, getattr(ss, fmt + "_matrix"))
    np.testing.assert_array_equal(back.toarray(), d)
    theirs = getattr(ss, fmt + "_array")(d)
    ss.save_npz(tmp_path / "s.npz", theirs, compressed=compressed)
    got = es.load_npz(tmp_path / "s.npz", device=device)
    same(on(got, device), theirs)
    again = es.load_npz(tmp_path / "e.npz", device=device)
    same(again, getattr(ss, fmt + "_matrix")(d))


def test_npz_bad(device, tmp_path):
    np.savez(tmp_path / "plain.npz", a=np.ones(2))
    with pytest.raises(ValueError, match="does not contain a sparse array "
                       "or matrix"):
        es.load_npz(tmp_path / "plain.npz", device=device)
    ss.save_npz(tmp_path / "bsr.npz", ss.bsr_matrix(np.eye(4)))
    with pytest.raises(NotImplementedError, match="no bsr format"):
        es.load_npz(tmp_path / "bsr.npz", device=device)
    np.savez(tmp_path / "odd.npz", format=b"xyz", shape=(2, 2))
    with pytest.raises(ValueError, match='Unknown format "xyz_matrix"'):
        es.load_npz(tmp_path / "odd.npz", device=device)
    with pytest.raises(NotImplementedError, match="Save is not implemented "
                       "for sparse matrix of format lil"):
        es.save_npz(tmp_path / "x.npz", ss.lil_matrix((2, 2)))


# -- predicates and index dtypes --------------------------------------------

def test_predicates_and_index_dtype(device):
    d = ember.asarray(np.eye(3), device=device)
    mats = {"csr": es.csr_matrix(d), "csc": es.csc_matrix(d),
            "coo": es.coo_matrix(d), "dia": es.dia_matrix(d)}
    for fmt, m in mats.items():
        assert es.issparse(m) and es.isspmatrix(m)
        for other in mats:
            assert getattr(es, "isspmatrix_" + other)(m) == (fmt == other)
    assert not es.issparse(d) and not es.isspmatrix_dia(d)
    assert issubclass(es.SparseEfficiencyWarning, es.SparseWarning)
    assert issubclass(es.SparseWarning, Warning)
    assert es.get_index_dtype(maxval=5) == np.int32
    assert es.get_index_dtype(maxval=2 ** 31) == np.int64
    big = ember.asarray(np.array([1, 2], np.int64), device=device)
    assert es.get_index_dtype((big,)) == np.int64
    assert es.get_index_dtype((big,), check_contents=True) == np.int32
    huge = ember.asarray(np.array([2 ** 40], np.int64), device=device)
    assert es.get_index_dtype((huge,), check_contents=True) == np.int64
    assert es.get_index_dtype(np.array([1], np.int16)) == np.int32
    for args in [dict(maxval=5), dict(arrays=(np.ones(2, np.int64),)),
                 dict(arrays=(np.ones(2, np.int64),), check_contents=True)]:
        assert es.get_index_dtype(**args) == ss.get_index_dtype(**args)


def test_exports():
    """Every name ember.scipy.sparse lists resolves (the construction
    modules load on first use), and the modules load in any order."""
    import ember.scipy.sparse_construct as construct
    import ember.scipy.sparse_io as sio
    import ember.scipy.sparse_random as srandom
    for mod in (construct, sio, srandom):
        assert set(mod.__all__) <= set(es.__all__)
    for name in es.__all__:
        assert getattr(es, name) is not None
    assert "eye" in dir(es)
    for first in ("sparse_random", "sparse_io", "sparse_construct",
                  "sparse_dia"):
        r = run_python("-c", f"import ember.scipy.{first}; "
                       "import ember.scipy.sparse as s; "
                       "print(s.issparse(s.eye(2, device='cpu')))")
        assert r.returncode == 0 and r.stdout.strip() == "True", r.stderr
