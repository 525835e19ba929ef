"""ember.scipy.sparse with complex64 and complex128 values against
scipy.sparse: products (spmv_complex.cuh on cpu, cuSPARSE on cuda) with
mixed value types, duplicates and x @ A; sums along an axis and the
complex parts; spsolve (SuperLU on cpu, cuSOLVER's complex sparse QR on
cuda) on well conditioned and singular systems with SciPy's dtypes; cg,
gmres, aslinearoperator's adjoint, eigsh and lobpcg on Hermitian and
general complex matrices."""
import warnings

import numpy as np
import pytest
import scipy.sparse as ss
import scipy.sparse.linalg as ssl

import ember
import ember.scipy.sparse as es
from ember.scipy.sparse import linalg as el

CDTYPES = [np.complex64, np.complex128]


def N(x):
    return ember.asnumpy(x)


def crandn(rng, shape, dtype=np.complex128):
    return (rng.standard_normal(shape) +
            1j * rng.standard_normal(shape)).astype(dtype)


def csparse(rng, m, n, density, dtype=np.complex128):
    d = crandn(rng, (m, n))
    d[rng.random((m, n)) > density] = 0
    return d.astype(dtype)


def tol(dtype):
    return 2e-4 if np.dtype(dtype) in (np.complex64, np.float32) else 1e-10


def test_spmv_complex_compiles_for_the_gpu(need_nvrtc):
    """spmv_complex.cuh's instances through NVRTC, as a GPU would build
    them (RawModule gives both compilers the same expanded text)."""
    from ember._api.rawsource import expand_cupy_includes
    from ember.scipy import _kernels
    from ember.scipy import sparse as mod
    names = mod._kernel_names(complex_values=True)
    src = expand_cupy_includes(_kernels.source("spmv_complex.cuh"))
    ptx = ember.cuda.Program(src, options=tuple(
        "--name-expression=" + e for e in names)).compile("ptx").code
    assert ptx.count(b".entry") == len(names) == 4


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
@pytest.mark.parametrize("dtype", CDTYPES)
def test_products_mixed_types(device, fmt, dtype):
    """A complex matrix times real and complex vectors and matrices, and a
    real matrix times complex ones: SciPy's values and result dtypes;
    rows long and short, x @ A too."""
    rng = np.random.default_rng(1)
    d = csparse(rng, 70, 150, 0.2, dtype)
    d[5] = crandn(rng, 150, dtype)          # one full row
    d[[0, 9]] = 0
    a = getattr(es, f"{fmt}_matrix")(ember.asarray(d, device=device))
    b = getattr(ss, f"{fmt}_matrix")(d)
    E = lambda v: ember.asarray(v, device=device)  # noqa: E731
    for x in (rng.standard_normal(150), rng.standard_normal(150)
              .astype(np.float32), crandn(rng, (150, 3), dtype),
              crandn(rng, 150, np.complex128)):
        got, want = a @ E(x), b @ x
        assert got.dtype == want.dtype and got.shape == want.shape
        t = tol(want.dtype)
        np.testing.assert_allclose(N(got), want, rtol=t, atol=t)
    ar = getattr(es, f"{fmt}_matrix")(ember.asarray(d.real.copy(),
                                                    device=device))
    x = crandn(rng, (150, 2), dtype)
    got, want = ar @ E(x), getattr(ss, f"{fmt}_matrix")(d.real) @ x
    assert got.dtype == want.dtype
    np.testing.assert_allclose(N(got), want, rtol=tol(dtype), atol=tol(dtype))
    y = crandn(rng, (4, 70), dtype)
    np.testing.assert_allclose(N(E(y) @ a), y @ b, rtol=tol(dtype),
                               atol=tol(dtype))


@pytest.mark.parametrize("index", ["int32", "int64"])
@pytest.mark.parametrize("dtype", CDTYPES)
def test_coo_duplicates_product(device, index, dtype):
    """COO triplets out of order with repeated positions (summed on
    conversion, as SciPy's) and CSR arrays with int32 or int64 indices
    kept unsorted and duplicated: the products sum every entry."""
    rng = np.random.default_rng(2)
    row = rng.integers(0, 12, 90)
    col = rng.integers(0, 17, 90)
    vals = crandn(rng, 90, dtype)
    E = lambda v: ember.asarray(v, device=device)  # noqa: E731
    a = es.coo_matrix((E(vals), (E(row), E(col))), shape=(12, 17))
    b = ss.coo_matrix((vals, (row, col)), shape=(12, 17))
    x = crandn(rng, (17, 2), dtype)
    np.testing.assert_allclose(N(a @ E(x)), b @ x, rtol=tol(dtype),
                               atol=tol(dtype))
    order = np.argsort(row, kind="stable")
    indptr = np.concatenate([[0], np.cumsum(np.bincount(row, minlength=12))])
    c = es.csr_matrix((E(vals[order]), E(col[order]), E(indptr)),
                      shape=(12, 17))
    c.indices = c.indices.astype(index)
    c.indptr = c.indptr.astype(index)
    h = ss.csr_matrix((vals[order], col[order], indptr), shape=(12, 17))
    for xs in ((17,), (17, 5)):
        x = crandn(rng, xs, dtype)
        np.testing.assert_allclose(N(c @ E(x)), h @ x, rtol=tol(dtype),
                                   atol=tol(dtype))


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
@pytest.mark.parametrize("dtype", CDTYPES)
def test_sums_and_parts(device, fmt, dtype):
    """sum and mean along an axis keep both parts (the axis sums once
    truncated complex values to integers), and conj, conjugate, real,
    imag and getH are SciPy's."""
    rng = np.random.default_rng(3)
    d = csparse(rng, 9, 6, 0.5, dtype)
    a = getattr(es, f"{fmt}_matrix")(ember.asarray(d, device=device))
    b = getattr(ss, f"{fmt}_matrix")(d)
    t = tol(dtype)
    for axis in (0, 1, -1):
        for name in ("sum", "mean"):
            got = getattr(a, name)(axis=axis)
            want = np.asarray(getattr(b, name)(axis=axis))
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_allclose(N(got), want, rtol=t, atol=t)
    np.testing.assert_allclose(complex(a.sum()), b.sum(), rtol=t)
    for name in ("conj", "conjugate", "getH"):
        got, want = getattr(a, name)(), getattr(b, name)()
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(N(got.toarray()), want.toarray())
    for name in ("real", "imag"):
        got, want = getattr(a, name), getattr(b, name)
        assert got.dtype == want.dtype and got.format == want.format
        np.testing.assert_array_equal(N(got.toarray()), want.toarray())


def hermitian(rng, n, density, dtype, shift=0.0):
    d = csparse(rng, n, n, density)
    return ((d + d.conj().T) / 2 + np.diag(np.linspace(-3, 5, n) + shift)
            ).astype(dtype)


def general(rng, n, dtype):
    """Well conditioned: a random sparse part under a dominant diagonal."""
    d = csparse(rng, n, n, min(1.0, 4.0 / n))
    return (d + np.diag(4 + np.abs(d).sum(axis=1))).astype(dtype)


@pytest.mark.parametrize("n", [1, 7, 60, 200])
@pytest.mark.parametrize("dtype", CDTYPES)
def test_spsolve_complex(device, n, dtype):
    """Complex systems against SciPy's spsolve: a vector, an (n, 1) and an
    (n, 3) right-hand side, CSR and CSC."""
    rng = np.random.default_rng(n)
    m = general(rng, n, dtype)
    t = tol(dtype)
    for fmt in ("csr", "csc"):
        a = getattr(es, f"{fmt}_matrix")(ember.asarray(m, device=device))
        h = getattr(ss, f"{fmt}_matrix")(m)
        for shape in ((n,), (n, 1), (n, 3)):
            b = crandn(rng, shape, dtype)
            got = el.spsolve(a, ember.asarray(b, device=device))
            want = ssl.spsolve(h, b)
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_allclose(N(got), want, rtol=t, atol=t)


@pytest.mark.parametrize("dtype", CDTYPES)
def test_spsolve_complex_singular(device, dtype):
    """A complex matrix with a zero row and one with a zero column:
    MatrixRankWarning and NaNs, as SciPy's (and as ember's real case)."""
    rng = np.random.default_rng(5)
    m = general(rng, 30, dtype)
    b = crandn(rng, 30, dtype)
    zero_row = m.copy()
    zero_row[4] = 0
    zero_col = m.copy()
    zero_col[:, 9] = 0
    for s in (zero_row, zero_col):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = ssl.spsolve(ss.csr_matrix(s), b)
        assert np.isnan(want).all()
        with pytest.warns(el.MatrixRankWarning, match="singular"):
            got = el.spsolve(es.csr_matrix(ember.asarray(s, device=device)),
                             ember.asarray(b, device=device))
        assert got.dtype == want.dtype and np.isnan(N(got)).all()


@pytest.mark.parametrize("mt, bt", [
    (np.float64, np.complex128), (np.float32, np.complex64),
    (np.complex64, np.float64), (np.int64, np.complex64),
    (np.complex64, np.complex128), (np.complex128, np.float32)])
def test_spsolve_promotion(device, mt, bt):
    """A real matrix with a complex right-hand side (and the other mixes)
    solves in SciPy's result dtype."""
    rng = np.random.default_rng(6)
    m = general(rng, 40, np.complex128)
    m = (m if np.dtype(mt).kind == "c" else np.round(m.real * 3)).astype(mt)
    b = crandn(rng, (40, 2)) if np.dtype(bt).kind == "c" else \
        rng.standard_normal((40, 2))
    b = b.astype(bt)
    want = ssl.spsolve(ss.csr_matrix(m), b)
    got = el.spsolve(es.csr_matrix(ember.asarray(m, device=device)),
                     ember.asarray(b, device=device))
    assert got.dtype == want.dtype
    t = tol(want.dtype)
    np.testing.assert_allclose(N(got), want, rtol=t, atol=t)


def test_spsolve_complex_bad_shapes(device):
    m = general(np.random.default_rng(7), 8, np.complex128)
    E = lambda v: ember.asarray(v, device=device)  # noqa: E731
    with pytest.raises(ValueError, match=r"square \(has shape \(8, 7\)\)"):
        el.spsolve(es.csr_matrix(E(m[:, :7])), E(np.ones(8, complex)))
    with pytest.raises(ValueError, match="dimension mismatch"):
        el.spsolve(es.csr_matrix(E(m)), E(np.ones(5, complex)))


@pytest.mark.parametrize("dtype", CDTYPES)
def test_cg_gmres_complex(device, dtype):
    """cg on a Hermitian positive definite matrix and gmres (restarted and
    not) on a general one converge to SciPy's solutions; a real matrix
    with a complex b solves in complex, as SciPy's."""
    rng = np.random.default_rng(8)
    n = 80
    d = csparse(rng, n, n, 0.08)
    hpd = (d @ d.conj().T + n * np.eye(n)).astype(dtype)
    gen = general(rng, n, dtype)
    b = crandn(rng, n, dtype)
    E = lambda v: ember.asarray(v, device=device)  # noqa: E731
    rtol = 1e-5 if dtype == np.complex64 else 1e-8
    x, info = el.cg(es.csr_matrix(E(hpd)), E(b), rtol=rtol)
    w, winfo = ssl.cg(ss.csr_matrix(hpd), b, rtol=rtol)
    assert info == winfo == 0 and x.dtype == w.dtype
    np.testing.assert_allclose(N(x), w, rtol=50 * rtol, atol=50 * rtol)
    for restart in (None, 4):
        x, info = el.gmres(es.csr_matrix(E(gen)), E(b), rtol=rtol,
                           restart=restart, maxiter=500)
        w, winfo = ssl.gmres(ss.csr_matrix(gen), b, rtol=rtol,
                             restart=restart, maxiter=500)
        assert info == winfo == 0 and x.dtype == w.dtype
        res = np.linalg.norm(gen @ N(x) - b) / np.linalg.norm(b)
        assert res <= 2 * rtol
        np.testing.assert_allclose(N(x), w, rtol=50 * rtol, atol=50 * rtol)
    real = gen.real.astype(np.float64)
    x, info = el.gmres(es.csr_matrix(E(real)), E(b.astype(np.complex128)))
    w, _ = ssl.gmres(ss.csr_matrix(real), b.astype(np.complex128))
    assert info == 0 and x.dtype == w.dtype == np.complex128
    np.testing.assert_allclose(N(x), w, rtol=1e-4, atol=1e-4)


def test_linear_operator_adjoint(device):
    """aslinearoperator's rmatvec, rmatmat and H of a complex matrix are
    the conjugate transpose's products, as SciPy's."""
    rng = np.random.default_rng(9)
    d = csparse(rng, 12, 7, 0.4)
    E = lambda v: ember.asarray(v, device=device)  # noqa: E731
    for A in (es.csr_matrix(E(d)), E(d)):
        op, ref = el.aslinearoperator(A), ssl.aslinearoperator(d)
        y, Y = crandn(rng, 12), crandn(rng, (12, 3))
        x = crandn(rng, 7)
        np.testing.assert_allclose(N(op.rmatvec(E(y))), ref.rmatvec(y),
                                   rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(N(op.rmatmat(E(Y))), ref.rmatmat(Y),
                                   rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(N(op.H.matvec(E(y))), ref.H.matvec(y),
                                   rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(N(op.matvec(E(x))), ref.matvec(x),
                                   rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("which", ["LA", "SA", "LM", "SM"])
@pytest.mark.parametrize("dtype", CDTYPES)
def test_eigsh_hermitian(device, which, dtype):
    """A complex Hermitian matrix: real eigenvalues of the real dtype and
    complex vectors (SciPy's dtypes), the values eigvalsh's (SciPy's
    ARPACK, through eigs for complex matrices, misses some of the 'SM'
    ones from some random starts)."""
    rng = np.random.default_rng(10)
    h = hermitian(rng, 90, 0.08, dtype)
    w, V = el.eigsh(es.csr_matrix(ember.asarray(h, device=device)), k=4,
                    which=which)
    ws, Vs = ssl.eigsh(ss.csr_matrix(h), k=4, which="LA")
    assert w.dtype == ws.dtype and V.dtype == Vs.dtype
    ev = np.linalg.eigvalsh(h.astype(np.complex128))
    key = {"LA": -ev, "SA": ev, "LM": -np.abs(ev), "SM": np.abs(ev)}[which]
    want = np.sort(ev[np.argsort(key, kind="stable")[:4]])
    t = 1e-3 if dtype == np.complex64 else 1e-9
    np.testing.assert_allclose(np.sort(N(w)), want, rtol=t, atol=t)
    Vn = N(V).astype(np.complex128)
    np.testing.assert_allclose(h @ Vn, Vn * N(w), atol=50 * t)


@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("dtype", CDTYPES)
def test_lobpcg_hermitian(device, largest, dtype):
    """lobpcg on a complex Hermitian matrix from a real start block: the
    extreme eigenvalues (real) and complex vectors, against eigvalsh and
    SciPy's lobpcg."""
    rng = np.random.default_rng(11)
    h = hermitian(rng, 60, 0.1, dtype)
    X = rng.standard_normal((60, 3))
    lam, V = el.lobpcg(es.csr_matrix(ember.asarray(h, device=device)),
                       ember.asarray(X, device=device), maxiter=200,
                       tol=1e-5, largest=largest)
    ref, _ = ssl.lobpcg(ss.csr_matrix(h), X, maxiter=200, tol=1e-5,
                        largest=largest)
    ev = np.linalg.eigvalsh(h.astype(np.complex128))
    want = ev[::-1][:3] if largest else ev[:3]
    assert lam.dtype.kind == ref.dtype.kind == "f" and V.dtype.kind == "c"
    np.testing.assert_allclose(N(lam), want, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(np.sort(N(lam)), np.sort(ref), rtol=1e-4,
                               atol=1e-4)


@pytest.mark.parametrize("dtype", [np.float32, np.float64] + CDTYPES)
def test_spsolve_lecture_system(device, dtype):
    """The Scientific Python Lectures' bidiagonal CSC system (float32
    right-hand side) in each precision: its exact solution, SciPy's
    dtype."""
    import ember.scipy as esp
    with ember.Device(device):
        mtx = esp.sparse.spdiags([[1, 2, 3, 4, 5], [6, 5, 8, 9, 10]], [0, 1],
                                 5, 5, "csc")
    rhs = np.array([1, 2, 3, 4, 5], dtype=np.float32)
    got = el.spsolve(mtx.astype(dtype), ember.asarray(rhs, device=device))
    want = ssl.spsolve(ss.spdiags([[1, 2, 3, 4, 5], [6, 5, 8, 9, 10]],
                                  [0, 1], 5, 5, "csc").astype(dtype), rhs)
    assert got.dtype == want.dtype
    t = tol(dtype)
    np.testing.assert_allclose(N(got), [106, -21, 5.5, -1.5, 1], rtol=t)
