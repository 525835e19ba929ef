"""ember.scipy.sparse's *_array classes against scipy.sparse's sparse
arrays, and its *_matrix classes against SciPy's matrices, on the same
data: `*` (elementwise for arrays, the matrix product for matrices),
`**`, @, reductions along an axis (1-D for arrays), indexing, result
types of conversions and construction functions, issparse/isspmatrix,
and SciPy's errors for shapes that do not match."""
import numpy as np
import pytest
import scipy.sparse as ss

import ember
import ember.scipy.sparse as es

D = np.array([[1.0, 0, 2, 0], [0, 0, 3, 4], [5, 0, 0, 6]])
# columns and rows whose extreme is stored, an implicit zero, or a tie
ARG = np.array([[1.0, -2, 0, 0], [0, 0, 0, -1], [-1, -1, 0, 3],
                [0, 4, 0, 0]])
FORMATS = ["csr", "csc", "coo", "dia", "bsr", "dok", "lil"]


def N(x):
    return ember.asnumpy(x)


def pair(fmt, kind, d, device):
    """(ember's, SciPy's) fmt_kind of dense d."""
    return (getattr(es, f"{fmt}_{kind}")(ember.asarray(d, device=device)),
            getattr(ss, f"{fmt}_{kind}")(d))


def dense_of(x):
    return N(x.toarray()) if hasattr(x, "toarray") else N(x)


def same(ours, theirs, kind_name=True):
    """Values and shape as SciPy's; with kind_name, the class name too
    (ember's ndarray stands for NumPy's ndarray)."""
    if kind_name:
        want = type(theirs).__name__
        got = type(ours).__name__
        assert got == want, (got, want)
    assert tuple(ours.shape) == tuple(theirs.shape)
    np.testing.assert_allclose(dense_of(ours), np.asarray(
        theirs.toarray() if hasattr(theirs, "toarray") else theirs),
        rtol=1e-12)


@pytest.mark.parametrize("fmt", FORMATS)
def test_array_mul_is_elementwise(device, fmt):
    a, b = pair(fmt, "array", D, device)
    v = np.array([1.0, 2, 3, 4])
    col = np.array([[2.0], [0], [-1]])
    same(a * 2, b * 2)
    same(2.5 * a, 2.5 * b)
    same(a * ember.asarray(v, device=device), b * v)
    same(a * ember.asarray(col, device=device), b * col)
    same(a * ember.asarray(D, device=device), b * D)
    same(a * a, b * b)
    same(a ** 2, b ** 2)
    if fmt == "bsr":                # the block structure kept, as SciPy's
        assert (a ** 2).nnz == (b ** 2).nnz
        assert (a * a).blocksize == (b * b).blocksize
    same(a @ a.T if fmt not in ("dok", "lil") else a @ a.tocsr().T,
         b @ b.T, kind_name=False)
    x = np.arange(4.0)
    np.testing.assert_allclose(N(a @ ember.asarray(x, device=device)),
                               b @ x, rtol=1e-12)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dia"])
def test_mixed_operands(device, fmt):
    """A matrix on the left keeps its own `*` (the matrix product) and
    result class; an array on the left multiplies elementwise."""
    a, b = pair(fmt, "array", D, device)
    m, sm = pair(fmt, "matrix", D, device)
    same(m * a.T, sm * b.T)
    same(m @ a.T, sm @ b.T)
    same(a * m, b * sm)
    same(a @ m.T, b @ sm.T)
    same(m + a, sm + b, kind_name=False)
    assert es.isspmatrix(m + a) == ss.isspmatrix(sm + b)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dia"])
def test_matrix_mul_is_matmul(device, fmt):
    a, b = pair(fmt, "matrix", D, device)
    x = np.arange(4.0)
    np.testing.assert_allclose(N(a * ember.asarray(x, device=device)),
                               b * x, rtol=1e-12)
    np.testing.assert_allclose(N(a * ember.asarray(D.T, device=device)),
                               b * D.T, rtol=1e-12)
    same(a * 2, b * 2)
    same(a * a.T, b * b.T)
    sq, sqs = pair(fmt, "matrix", D[:, :3], device)
    for n in (0, 1, 2, 3):
        same(sq ** n, sqs ** n)


@pytest.mark.parametrize("fmt", ["csr", "coo", "dia"])
def test_bad_shapes_and_powers(device, fmt):
    a, b = pair(fmt, "array", D, device)
    for other in (ss.csr_array(D.T), np.ones((2, 4)),
                  ss.csr_array(np.ones((2, 4)))):
        with pytest.raises(ValueError, match="inconsistent shapes"):
            b * other
        o = es.csr_array(other, device=device) if ss.issparse(other) \
            else ember.asarray(other, device=device)
        with pytest.raises(ValueError, match="inconsistent shapes"):
            a * o
    if fmt != "dia":         # SciPy's DIA takes a (5,) vector (its quirk)
        with pytest.raises(ValueError, match="inconsistent shapes"):
            b * np.ones(5)
        with pytest.raises(ValueError, match="inconsistent shapes"):
            a * ember.ones(5, device=device)
    with pytest.raises(NotImplementedError, match="zero power"):
        b ** 0
    with pytest.raises(NotImplementedError, match="zero power"):
        a ** 0
    m, sm = pair(fmt, "matrix", D, device)
    for n, exc, msg in [(2, TypeError, "not square")]:
        with pytest.raises(exc, match=msg):
            sm ** n
        with pytest.raises(exc, match=msg):
            m ** n
    m, sm = pair(fmt, "matrix", D[:, :3], device)
    for n, msg in [(-1, "exponent must be >= 0"),
                   (1.5, "exponent must be an integer")]:
        with pytest.raises(ValueError, match=msg):
            sm ** n
        with pytest.raises(ValueError, match=msg):
            m ** n


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_reductions_along_an_axis(device, fmt, axis):
    for kind in ("array", "matrix"):
        a, b = pair(fmt, kind, ARG, device)
        for name in ("sum", "mean", "argmax", "argmin"):
            got, want = getattr(a, name)(axis=axis), \
                getattr(b, name)(axis=axis)
            want = np.asarray(want)
            assert got.shape == want.shape, (kind, name)
            np.testing.assert_allclose(N(got), want, rtol=1e-12)
            if name.startswith("arg"):
                assert N(got).dtype.kind == "i"
        for name in ("max", "min"):
            got, want = getattr(a, name)(axis=axis), \
                getattr(b, name)(axis=axis)
            # SciPy's array result is a 1-D coo_array; ember's is the 2-D
            # coo_array of the same values (no 1-D sparse objects here)
            assert type(got).__name__ == type(want).__name__
            np.testing.assert_allclose(N(got.toarray()).reshape(-1),
                                       want.toarray().reshape(-1))
        assert float(a.sum()) == pytest.approx(float(b.sum()))
        assert a.argmax() == b.argmax() and a.argmin() == b.argmin()


def test_argmax_axis_ties_and_empty_lines(device):
    """SciPy's rule where a stored zero ties an implicit one and for
    lines with nothing stored."""
    d = np.array([[0.0, 0, 0], [0, -1, 0], [2, 0, -3]])
    s = ss.csr_matrix(d)
    s[0, 2] = 0.0               # an explicit zero
    a = es.csr_matrix(s, device=device)
    for name in ("argmax", "argmin"):
        for axis in (0, 1):
            np.testing.assert_array_equal(
                N(getattr(a, name)(axis=axis)),
                np.asarray(getattr(s, name)(axis=axis)))
    with pytest.raises(ValueError, match="zero-sized"):
        es.csr_array((0, 3), device=device).argmax(axis=0)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dok", "lil"])
def test_indexing(device, fmt):
    a, b = pair(fmt, "array", D, device)
    for key in (1, (1, slice(None)), (slice(None), 2), (-1, slice(1, 3))):
        got, want = a[key], b[key]
        # SciPy: a 1-D coo_array; ember: the coo_array (1, n) or (m, 1)
        assert type(got).__name__ == "coo_array" == type(want).__name__
        np.testing.assert_array_equal(N(got.toarray()).reshape(-1),
                                      want.toarray())
        assert 1 in got.shape
    for key in ([1], ([1, 2], slice(None)), (slice(0, 2), [0, 2]),
                slice(1, 3)):
        same(a[key], b[key], kind_name=fmt != "coo")
    assert float(a[1, 2]) == b[1, 2]
    if fmt != "coo":
        m, sm = pair(fmt, "matrix", D, device)
        same(m[1], sm[1])
        same(m[:, 2], sm[:, 2])


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dia", "bsr"])
def test_conversions_and_results_stay_arrays(device, fmt):
    a, b = pair(fmt, "array", D, device)
    same(a.T, b.T)
    for conv in ("tocsr", "tocsc", "tocoo"):
        same(getattr(a, conv)(), getattr(b, conv)())
    same(a.copy(), b.copy())
    if fmt != "bsr":
        same(a + a, b + b)
        same(-a, -b)
        same(abs(a), abs(b))
        same(a / 2, b / 2)
        same(a.multiply(ember.asarray(D, device=device)), b.multiply(D))
    # toarray and todense: ember arrays for both kinds (SciPy: ndarray, and
    # np.matrix from a matrix's todense)
    assert isinstance(a.toarray(), ember.ndarray)
    assert isinstance(a.todense(), ember.ndarray)
    m, _ = pair(fmt, "matrix", D, device)
    assert isinstance(m.todense(), ember.ndarray) and m.todense().ndim == 2
    same(a @ ember.asarray(D.T, device=device), b @ D.T, kind_name=False)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dia"])
def test_predicates(device, fmt):
    a, b = pair(fmt, "array", D, device)
    m, sm = pair(fmt, "matrix", D, device)
    test = getattr(es, f"isspmatrix_{fmt}")
    ref = getattr(ss, f"isspmatrix_{fmt}")
    for ours, theirs in ((a, b), (m, sm)):
        assert es.issparse(ours) == ss.issparse(theirs) is True
        assert es.isspmatrix(ours) == ss.isspmatrix(theirs)
        assert test(ours) == ref(theirs)
        assert isinstance(ours, es.sparray) == isinstance(theirs, ss.sparray)
        assert isinstance(ours, es.spmatrix) == \
            isinstance(theirs, ss.spmatrix)
    assert issubclass(type(a), es.sparray) and \
        not issubclass(type(a), es.spmatrix)
    assert issubclass(type(m), es.spmatrix) and \
        not issubclass(type(m), es.sparray)


def test_construction_functions_kinds(device):
    with ember.Device(device):
        a = es.csr_array(ember.asarray(D, device=device))
        m = es.csr_matrix(ember.asarray(D, device=device))
        sa, sm = ss.csr_array(D), ss.csr_matrix(D)
        cases = [
            (es.eye_array(3), ss.eye_array(3)),
            (es.eye_array(3, format="csr"), ss.eye_array(3, format="csr")),
            (es.eye(3), ss.eye(3)),
            (es.identity(3, format="coo"), ss.identity(3, format="coo")),
            (es.diags_array([1.0, 2.0], offsets=1),
             ss.diags_array([1.0, 2.0], offsets=1)),
            (es.diags_array([1.0, 2.0], format="csc"),
             ss.diags_array([1.0, 2.0], format="csc")),
            (es.diags([1.0, 2.0]), ss.diags([1.0, 2.0])),
            (es.block_array([[a, None], [None, a]]),
             ss.block_array([[sa, None], [None, sa]])),
            (es.bmat([[m, m]]), ss.bmat([[sm, sm]])),
            (es.bmat([[m, a]]), ss.bmat([[sm, sa]])),
            (es.hstack([a, a]), ss.hstack([sa, sa])),
            (es.vstack([m, m]), ss.vstack([sm, sm])),
            (es.vstack([m, a], format="coo"),
             ss.vstack([sm, sa], format="coo")),
            (es.block_diag([a, m]), ss.block_diag([sa, sm])),
            (es.kron(a, m, format="csr"), ss.kron(sa, sm, format="csr")),
            (es.kron(m, m, format="coo"), ss.kron(sm, sm, format="coo")),
            (es.kronsum(es.eye_array(2), es.eye_array(3)),
             ss.kronsum(ss.eye_array(2), ss.eye_array(3))),
            (es.tril(a), ss.tril(sa)),
            (es.triu(m, format="csr"), ss.triu(sm, format="csr")),
        ]
        for ours, theirs in cases:
            same(ours, theirs)
        r = es.random_array((4, 5), density=0.5, rng=1)
        assert type(r).__name__ == "coo_array" and r.shape == (4, 5)
        r = es.random_array((4, 5), density=0.5, rng=1, format="csr")
        assert type(r).__name__ == "csr_array"
        assert type(es.random(4, 5, density=0.5, rng=1)).__name__ == \
            "coo_matrix"


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dia"])
def test_save_load_keeps_the_kind(device, fmt, tmp_path):
    """SciPy's _is_array flag both ways: an array loads as an array."""
    for kind in ("array", "matrix"):
        a, b = pair(fmt, kind, D, device)
        es.save_npz(tmp_path / "e.npz", a)
        ss.save_npz(tmp_path / "s.npz", b)
        same(ss.load_npz(tmp_path / "e.npz"), b)
        same(es.load_npz(tmp_path / "s.npz", device=device), b)
        same(es.load_npz(tmp_path / "e.npz", device=device), b)


def test_lecture_dia_array_product(device):
    """The Scientific Python Lectures' dia_array page: mtx * vec is the
    elementwise product, a sparse array."""
    data = np.array([[1, 2, 3, 4]]).repeat(3, axis=0)
    offsets = np.array([0, -1, 2])
    with ember.Device(device):
        mtx = es.dia_array((ember.asarray(data), ember.asarray(offsets)),
                           shape=(4, 4))
        vec = ember.ones((4,))
    ref = ss.dia_array((data, offsets), shape=(4, 4))
    same(mtx * vec, ref * np.ones(4))
    np.testing.assert_allclose(N((mtx * vec).toarray()),
                               (ref * np.ones(4)).toarray())
    np.testing.assert_allclose(N(mtx @ vec), ref @ np.ones(4))
