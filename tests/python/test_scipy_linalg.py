"""ember.scipy.linalg against scipy.linalg on every device: values (LU
and pivots as SciPy's; QR, SVD and eigenvectors through reconstructions,
as their signs are the vendor's choice), dtypes, shapes, batches, and
the errors SciPy raises. Two dtypes for most functions (float64 and
complex64) keep the kernels compiled for a GPU run few."""
import numpy as np
import pytest
import scipy
import scipy.linalg as sl

import ember
import ember.scipy.linalg as el

rng = np.random.default_rng(4321)
TOL = {"float32": 3e-4, "complex64": 3e-4, "float64": 1e-10,
       "complex128": 1e-10}
ALL = ["float32", "float64", "complex64", "complex128"]
TWO = ["float64", "complex64"]
LinAlgError = np.linalg.LinAlgError
# SciPy batches its linalg functions (and its special matrices) from 1.15;
# an older SciPy on a test host is compared only where it does not
BATCH = tuple(int(v) for v in scipy.__version__.split(".")[:2]) >= (1, 15)


def need_batch():
    if not BATCH:
        pytest.skip(f"SciPy {scipy.__version__} has no batched linalg")


def each(f, *arrays):
    """f over the leading axis of arrays, stacked: SciPy's batch rule
    without relying on the host SciPy's batch support."""
    return np.stack([f(*xs) for xs in zip(*arrays)])


def E(a, device):
    return ember.asarray(a, device=device)


def N(x):
    return ember.asnumpy(x) if isinstance(x, ember.ndarray) else np.asarray(x)


def rand(shape, dtype):
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


def well(shape, dtype):
    return (rand(shape, dtype) + 3 * shape[-1] ** 0.5 *
            np.eye(shape[-1])).astype(dtype)


def hpd(shape, dtype):
    a = rand(shape, dtype)
    return (a @ np.conj(np.swapaxes(a, -1, -2)) +
            shape[-1] * np.eye(shape[-1])).astype(dtype)


def close(x, want, tol_dtype=None, scale=None):
    want = np.asarray(want)
    got = N(x)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    tol = TOL.get(tol_dtype or want.dtype.name, 1e-10)
    if want.size:
        s = scale if scale is not None else max(np.max(np.abs(want)), 1.0)
        err = np.max(np.abs(got.astype(np.complex128) - want)) / s
        assert err < tol, (err, tol)


# ---- LU -----------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("batch", [(), (3,)])
def test_lu_factor_solve(device, dtype, batch):
    if batch:
        need_batch()
    a = rand(batch + (6, 6), dtype)
    b = rand(batch + (6, 2), dtype)
    lu, piv = el.lu_factor(E(a, device))
    lu2, piv2 = sl.lu_factor(a)
    close(lu, lu2, dtype)
    assert N(piv).dtype == np.int32 and (N(piv) == piv2).all()
    for trans in (0, 1, 2):
        close(el.lu_solve((lu, piv), E(b, device), trans=trans),
              sl.lu_solve((lu2, piv2), b, trans=trans), dtype)
    v = rand((6,), dtype)
    if not batch:
        close(el.lu_solve((lu, piv), E(v, device)),
              sl.lu_solve((lu2, piv2), v), dtype)


@pytest.mark.parametrize("dtype", TWO)
@pytest.mark.parametrize("shape", [(5, 5), (6, 4), (4, 6), (2, 5, 3)])
def test_lu(device, dtype, shape):
    if len(shape) > 2:
        need_batch()
    a = rand(shape, dtype)
    p, l, u = el.lu(E(a, device))
    p2, l2, u2 = sl.lu(a)
    close(p, p2)
    close(l, l2, dtype)
    close(u, u2, dtype)
    pi, l, u = el.lu(E(a, device), p_indices=True)
    pi2 = sl.lu(a, p_indices=True)[0]
    assert N(pi).dtype == pi2.dtype and (N(pi) == pi2).all()
    pl, u = el.lu(E(a, device), permute_l=True)
    close(pl, sl.lu(a, permute_l=True)[0], dtype)
    # ints compute in float64, as SciPy
    close(el.lu(E(np.arange(9).reshape(3, 3) % 4, device))[2],
          sl.lu(np.arange(9).reshape(3, 3) % 4)[2])


def test_lu_factor_singular_warns(device):
    a = np.array([[1.0, 2.0], [2.0, 4.0]])
    with pytest.warns(RuntimeWarning, match="exactly zero"):
        lu, piv = el.lu_factor(E(a, device))
    close(lu, sl.lu_factor(a)[0])


# ---- triangular, Cholesky ----------------------------------------------

@pytest.mark.parametrize("dtype", TWO)
def test_solve_triangular(device, dtype):
    a = well((2, 5, 5), dtype)
    b = rand((2, 5, 3), dtype)
    for lower in (False, True):
        for trans in (0, 1, 2):
            for unit in (False, True):
                close(el.solve_triangular(E(a, device), E(b, device),
                                          trans=trans, lower=lower,
                                          unit_diagonal=unit),
                      each(lambda x, y: sl.solve_triangular(
                          x, y, trans=trans, lower=lower,
                          unit_diagonal=unit), a, b), dtype)
    close(el.solve_triangular(E(a[0], device), E(b[0, :, 0], device),
                              lower=True),
          sl.solve_triangular(a[0], b[0, :, 0], lower=True), dtype)


@pytest.mark.parametrize("dtype", TWO)
def test_cholesky_family(device, dtype):
    a = hpd((3, 4, 4), dtype)
    b = rand((3, 4, 2), dtype)
    for lower in (False, True):
        close(el.cholesky(E(a, device), lower=lower),
              each(lambda x: sl.cholesky(x, lower=lower), a), dtype)
        c = el.cho_factor(E(a, device), lower=lower)
        assert c[1] is lower
        close(el.cho_solve(c, E(b, device)),
              each(lambda x, y: sl.cho_solve(sl.cho_factor(x, lower=lower),
                                             y), a, b), dtype)


# ---- solve, inv, det ----------------------------------------------------

STRUCTS = [None, "gen", "sym", "her", "pos", "diagonal", "tridiagonal",
           "upper triangular", "lower triangular", "banded"]


def described(a, kind, lower):
    """The full matrix that solve's assume_a reads from a (the reference
    is then SciPy's general solve, in every SciPy version)."""
    if kind == "diagonal":
        return np.diag(np.diag(a))
    if kind == "tridiagonal":
        return np.triu(np.tril(a, 1), -1)
    if kind == "upper triangular":
        return np.triu(a)
    if kind == "lower triangular":
        return np.tril(a)
    if kind in ("sym", "her", "pos"):
        herm = kind != "sym" and np.iscomplexobj(a)
        t = np.tril(a, -1) if lower else np.triu(a, 1)
        d = np.diag(a).real if herm else np.diag(a)
        return (t + (np.conj(t.T) if herm else t.T) +
                np.diag(d)).astype(a.dtype)
    return a


def _matrix_for(kind, dtype):
    if kind == "pos":
        return hpd((5, 5), dtype)
    if kind == "diagonal":
        return np.diag(np.arange(1, 6)).astype(dtype)
    return well((5, 5), dtype)


@pytest.mark.parametrize("dtype", ALL)
def test_solve_structures(device, dtype):
    b = rand((5, 3), dtype)
    for kind in STRUCTS:
        a = _matrix_for(kind, dtype)
        for lower in (False, True):
            close(el.solve(E(a, device), E(b, device), assume_a=kind,
                           lower=lower),
                  sl.solve(described(a, kind, lower), b), dtype)
    a = well((5, 5), dtype)
    close(el.solve(E(a, device), E(b[:, 0], device)),
          sl.solve(a, b[:, 0]), dtype)
    if dtype.startswith("float"):
        close(el.solve(E(a, device), E(b, device), transposed=True),
              sl.solve(a, b, transposed=True), dtype)


@pytest.mark.parametrize("dtype", TWO)
def test_solve_batches(device, dtype):
    need_batch()
    a = well((2, 1, 4, 4), dtype)
    b = rand((3, 4, 2), dtype)
    close(el.solve(E(a, device), E(b, device)), sl.solve(a, b), dtype)
    v = rand((4,), dtype)
    close(el.solve(E(a, device), E(v, device)), sl.solve(a, v), dtype)
    close(el.solve(E(a, device), E(b, device), assume_a="gen"),
          sl.solve(a, b, assume_a="gen"), dtype)


@pytest.mark.parametrize("dtype", ALL)
def test_inv_det(device, dtype):
    a = well((3, 5, 5), dtype)
    close(el.inv(E(a, device)), each(sl.inv, a), dtype)
    for kind in ("upper triangular", "lower triangular", "sym", "pos"):
        m = _matrix_for(kind, dtype)
        close(el.inv(E(m, device), assume_a=kind),
              sl.inv(described(m, kind, False)), dtype)
    close(el.det(E(a, device)), each(sl.det, a), dtype)
    close(el.det(E(np.arange(4).reshape(2, 2), device)),
          sl.det(np.arange(4).reshape(2, 2)))
    close(el.det(E(np.zeros((0, 0)), device)), sl.det(np.zeros((0, 0))))


# ---- lstsq, pinv, qr, svd, eigh, norm ----------------------------------

def real_residues(res):
    """SciPy's lstsq residues as SciPy 1.17 (and ember) give them: older
    SciPy (the GPU host's) sums a complex residual's squares as complex
    numbers, real sums with rounding-size imaginary parts."""
    res = np.asarray(res)
    if np.iscomplexobj(res):
        assert np.abs(res.imag).max() <= 1e-5 * np.abs(res).max()
        res = res.real
    return res


@pytest.mark.parametrize("dtype", TWO)
def test_lstsq_pinv(device, dtype):
    a = rand((7, 4), dtype)
    b = rand((7, 2), dtype)
    x, res, rank, s = el.lstsq(E(a, device), E(b, device))
    x2, res2, rank2, s2 = sl.lstsq(a, b)
    close(x, x2, dtype)
    close(res, real_residues(res2), dtype)
    assert rank == rank2
    close(s, s2, dtype)
    x, res, rank, s = el.lstsq(E(a, device), E(b[:, 0], device),
                               lapack_driver="gelsy")
    x2, res2, _, s2 = sl.lstsq(a, b[:, 0], lapack_driver="gelsy")
    close(x, x2, dtype)
    assert s is None and s2 is None
    low = a[:, :2] @ rand((2, 4), dtype)  # rank 2
    close(el.lstsq(E(low, device), E(b, device))[0],
          sl.lstsq(low, b)[0], dtype)
    assert el.lstsq(E(low, device), E(b, device))[2] == 2
    if BATCH:
        ab, bb = rand((2, 7, 4), dtype), rand((2, 7, 1), dtype)
        got, want = el.lstsq(E(ab, device), E(bb, device)), sl.lstsq(ab, bb)
        close(got[0], want[0], dtype)
        close(got[1], real_residues(want[1]), dtype)
        for g, w in zip(got[2:], want[2:]):
            close(g, np.asarray(w), dtype)
    close(el.pinv(E(a, device)), sl.pinv(a), dtype)
    pb, rank = el.pinv(E(low, device), return_rank=True)
    pb2, rank2 = sl.pinv(low, return_rank=True)
    close(pb, pb2, dtype)
    assert rank == rank2 == 2
    close(el.pinv(E(np.stack([a, a]), device), atol=0.5),
          each(lambda x: sl.pinv(x, atol=0.5), np.stack([a, a])), dtype)


@pytest.mark.parametrize("dtype", TWO)
@pytest.mark.parametrize("shape", [(6, 4), (4, 6)])
def test_qr_svd(device, dtype, shape):
    a = rand(shape, dtype)
    k = min(shape)
    tol = TOL[dtype] * 10
    for mode in ("full", "economic"):
        q, r = el.qr(E(a, device), mode=mode)
        q2, r2 = sl.qr(a, mode=mode)
        assert N(q).shape == q2.shape and N(r).shape == r2.shape
        assert N(q).dtype == q2.dtype
        assert np.allclose(N(q) @ N(r), a, atol=tol)
        assert np.allclose(np.abs(N(r)), np.abs(r2), atol=tol)
        assert np.allclose(np.triu(N(r)), N(r))
    (r,) = el.qr(E(a, device), mode="r")
    assert np.allclose(np.abs(N(r)), np.abs(sl.qr(a, mode="r")[0]), atol=tol)
    (h, tau), r = el.qr(E(a, device), mode="raw")
    (h2, tau2), r2 = sl.qr(a, mode="raw")
    assert N(h).shape == h2.shape and N(tau).shape == tau2.shape
    assert N(r).shape == r2.shape
    close(h, h2, dtype)  # Householder reflectors: LAPACK's convention
    close(tau, tau2, dtype)
    u, s, vh = el.svd(E(a, device))
    u2, s2, vh2 = sl.svd(a)
    close(s, s2, dtype)
    assert N(u).shape == u2.shape and N(vh).shape == vh2.shape
    us = N(u)[:, :k] * N(s)
    assert np.allclose(us @ N(vh)[:k], a, atol=tol)
    close(el.svd(E(a, device), compute_uv=False), s2, dtype)
    u, s, vh = el.svd(E(a, device), full_matrices=False,
                      lapack_driver="gesvd")
    assert N(u).shape == (shape[0], k) and N(vh).shape == (k, shape[1])


@pytest.mark.parametrize("dtype", TWO)
def test_eigh(device, dtype):
    a = hpd((5, 5), dtype)
    b = hpd((5, 5), dtype)
    tol = TOL[dtype] * 10
    for lower in (True, False):
        junk = np.triu(a, 1) * 7 if lower else np.tril(a, -1) * 7
        w, v = el.eigh(E(a + junk, device), lower=lower)
        close(w, sl.eigh(a)[0], dtype)
        v = N(v)
        assert np.allclose(a @ v, v * N(w), atol=tol * 20)
    close(el.eigh(E(a, device), eigvals_only=True), sl.eigvalsh(a), dtype)
    for typ in (1, 2, 3):
        w, v = el.eigh(E(a, device), E(b, device), type=typ)
        w2, v2 = sl.eigh(a, b, type=typ)
        close(w, w2, dtype)
        v = N(v)
        lhs = {1: a @ v, 2: a @ b @ v, 3: b @ a @ v}[typ]
        rhs = (b @ v) * N(w) if typ == 1 else v * N(w)
        assert np.allclose(lhs, rhs, atol=tol * 50 * np.abs(rhs).max())
        norm = np.conj(v.T) @ (np.linalg.inv(b) if typ == 3 else b) @ v
        assert np.allclose(norm, np.eye(5), atol=tol * 50)
    w, v = el.eigh(E(a, device), subset_by_index=[1, 3])
    close(w, sl.eigh(a, subset_by_index=[1, 3])[0], dtype)
    assert N(v).shape == (5, 3)
    w2 = sl.eigvalsh(a)
    lo, hi = (w2[0] + w2[1]) / 2, (w2[3] + w2[4]) / 2
    close(el.eigh(E(a, device), subset_by_value=(lo, hi),
                  eigvals_only=True),
          sl.eigh(a, subset_by_value=(lo, hi), eigvals_only=True), dtype)
    ab = hpd((3, 4, 4), dtype)
    close(el.eigh(E(ab, device))[0], each(lambda x: sl.eigh(x)[0], ab),
          dtype)


def test_norm(device):
    a = rand((4, 5), "float64")
    for ord_ in (None, "fro", 1, -1, 2, np.inf, "nuc"):
        close(el.norm(E(a, device), ord_), sl.norm(a, ord_))
    close(el.norm(E(a, device), axis=1, keepdims=True),
          sl.norm(a, axis=1, keepdims=True))
    close(el.norm(E(a[0], device), 3), sl.norm(a[0], 3))


# ---- banded, Toeplitz ---------------------------------------------------

@pytest.mark.parametrize("dtype", TWO)
def test_solve_banded_toeplitz(device, dtype):
    ab = rand((4, 6), dtype)
    ab[1] += 5  # the diagonal (l = 2, u = 1)
    b = rand((6, 2), dtype)
    close(el.solve_banded((2, 1), E(ab, device), E(b, device)),
          sl.solve_banded((2, 1), ab, b), dtype)
    close(el.solve_banded((2, 1), E(np.stack([ab, ab]), device),
                          E(b[:, 0], device)),
          each(lambda x: sl.solve_banded((2, 1), x, b[:, 0]),
               np.stack([ab, ab])), dtype)
    c = rand((5,), dtype)
    c[0] += 6
    r = rand((5,), dtype)
    r[0] = c[0]
    bt = rand((5, 2), dtype)
    wt = np.complex128 if dtype.startswith("complex") else np.float64
    for arg in (c, (c, r)):
        got = el.solve_toeplitz(
            tuple(E(x, device) for x in arg) if isinstance(arg, tuple)
            else E(arg, device), E(bt, device))
        close(got, sl.solve_toeplitz(arg, bt).astype(wt), dtype)
    close(el.solve_toeplitz(E(c, device), E(bt[:, 0], device)),
          sl.solve_toeplitz(c, bt[:, 0]).astype(wt), dtype)


# ---- expm ---------------------------------------------------------------

@pytest.mark.parametrize("dtype", TWO)
def test_expm(device, dtype):
    base = rand((5, 5), dtype)
    # norms that take each Pade degree and, large, the scaling
    for scale in (1e-4, 1e-2, 0.2, 0.8, 2.0, 30.0):
        a = (base * scale / np.abs(base).sum(axis=0).max()).astype(dtype)
        close(el.expm(E(a, device)), sl.expm(a), dtype)
    close(el.expm(E(np.stack([base, base * 0.01]), device)),
          each(sl.expm, np.stack([base, base * 0.01])), dtype)
    d = np.diag(np.arange(1, 5)).astype(dtype)
    close(el.expm(E(d, device)), sl.expm(d), dtype)
    close(el.expm(E(np.array([[2.0]], dtype), device)),
          sl.expm(np.array([[2.0]], dtype)), dtype)
    close(el.expm(E(np.arange(4).reshape(2, 2), device)),
          sl.expm(np.arange(4).reshape(2, 2)))
    nil = np.triu(np.ones((4, 4)), 1)  # nilpotent: the series ends
    close(el.expm(E(nil, device)), sl.expm(nil))


# ---- special matrices ---------------------------------------------------

def test_special_from_operands(device):
    c = np.array([1.0, 2 - 1j, 3, 4j])
    r = np.array([9.0, 5, 6])
    d = device
    close(el.toeplitz(E(c, d)), sl.toeplitz(c))
    close(el.toeplitz(E(c, d), E(r, d)), sl.toeplitz(c, r))
    cb = rand((2, 3), "float64")
    close(el.toeplitz(E(cb, d)), each(sl.toeplitz, cb))
    close(el.circulant(E(c, d)), sl.circulant(c))
    close(el.circulant(E(cb, d)), each(sl.circulant, cb))
    close(el.hankel(E(c, d)), sl.hankel(c))
    close(el.hankel(E(c, d), E(r, d)), sl.hankel(c, r))
    f = np.array([0.1, 2.0, 1.5, 0.2])
    s = np.array([0.2, 0.8, 0.7])
    close(el.leslie(E(f, d), E(s, d)), sl.leslie(f, s))
    close(el.leslie(E(np.stack([f, f]), d), E(s, d)),
          each(lambda x: sl.leslie(x, s), np.stack([f, f])))
    ints = np.array([1, -10, 31, -30])
    close(el.companion(E(ints, d)), sl.companion(ints))
    close(el.companion(E(ints.astype("float32"), d)),
          sl.companion(ints.astype("float32")))
    close(el.fiedler(E(np.array([1, 4, 12, 45, 77]), d)),
          sl.fiedler(np.array([1, 4, 12, 45, 77])))
    close(el.fiedler(E(cb, d)), each(sl.fiedler, cb))
    for p in ([1.0, -2, 3, 5, -1, 4], [2.0, 1, -3, 4, 5], [1.0, 2.0],
              [3.0, 1, 2]):
        close(el.fiedler_companion(E(np.array(p), d)),
              sl.fiedler_companion(np.array(p)))
    a = np.array([1.0, 2, -1, 3])
    for n in (2, 4, 6):
        for mode in ("full", "valid", "same"):
            close(el.convolution_matrix(E(a, d), n, mode),
                  sl.convolution_matrix(a, n, mode))
    close(el.convolution_matrix(E(cb, d), 4, "same"),
          each(lambda x: sl.convolution_matrix(x, 4, "same"), cb))
    m1 = rand((2, 3), "float64")
    m2 = rand((3, 3), "complex64")
    close(el.block_diag(E(m1, d), E(m2, d), E(np.array([7]), d)),
          sl.block_diag(m1, m2, np.array([7])))
    close(el.block_diag(E(np.stack([m1, m1]), d), E(m1, d)),
          np.stack([sl.block_diag(m1, m1)] * 2))
    close(el.kron(E(m1, d), E(m2, d)), np.kron(m1, m2), "complex64")
    k1, k2 = rand((3, 4), "float64"), rand((2, 4), "float64")
    close(el.khatri_rao(E(k1, d), E(k2, d)), sl.khatri_rao(k1, k2))
    close(el.khatri_rao(E(np.stack([k1, k1]), d), E(k2, d)),
          np.stack([sl.khatri_rao(k1, k2)] * 2))


def test_special_from_sizes(device):
    with ember.Device(device):
        for n in (1, 2, 8):
            close(el.hadamard(n), sl.hadamard(n))
        close(el.hadamard(4, dtype=np.float32),
              sl.hadamard(4, dtype=np.float32))
        for full in (False, True):
            close(el.helmert(5, full=full), sl.helmert(5, full=full))
        close(el.hilbert(6), sl.hilbert(6))
        close(el.invhilbert(6), sl.invhilbert(6), scale=None)
        close(el.invhilbert(12, exact=True), sl.invhilbert(12, exact=True))
        for scale in (None, "sqrtn", "n"):
            close(el.dft(7, scale=scale), sl.dft(7, scale=scale))
        assert el.dft(3).device == ember.Device(device)


# ---- errors -------------------------------------------------------------

def test_errors(device):
    d = device
    sing = E(np.array([[1.0, 2.0], [2.0, 4.0]]), d)
    rect = E(np.ones((2, 3)), d)
    v3 = E(np.ones(3), d)
    with pytest.raises(LinAlgError, match="singular"):
        el.solve(sing, E(np.ones(2), d))
    with pytest.raises(LinAlgError, match=r"slice\(s\) \[1\]"):
        el.inv(E(np.stack([np.eye(2), N(sing)]), d))
    with pytest.raises(LinAlgError, match="diagonal 1"):
        el.solve_triangular(E(np.array([[1.0, 2.0], [0.0, 0.0]]), d),
                            E(np.ones(2), d))
    with pytest.raises(LinAlgError):
        el.cholesky(E(-np.eye(3), d))
    with pytest.raises(LinAlgError):
        el.solve(E(-np.eye(3), d), v3, assume_a="pos")
    with pytest.raises(LinAlgError):
        el.solve_banded((0, 0), E(np.array([[1.0, 0.0]]), d),
                        E(np.ones(2), d))
    with pytest.raises(ValueError, match="square"):
        el.solve(rect, v3)
    with pytest.raises(ValueError, match=r"incompatible shapes"):
        el.solve(E(np.eye(2), d), v3)
    with pytest.raises(ValueError, match="not a recognized"):
        el.solve(E(np.eye(3), d), v3, assume_a="weird")
    with pytest.raises(NotImplementedError):
        el.solve(E(np.eye(2, dtype=complex), d), E(np.ones(2), d),
                 transposed=True)
    with pytest.raises(ValueError, match="square"):
        el.inv(rect)
    with pytest.raises(ValueError, match="square"):
        el.det(rect)
    with pytest.raises(ValueError, match="square"):
        el.cholesky(rect)
    with pytest.raises(ValueError, match="incompatible"):
        el.solve_triangular(E(np.eye(2), d), v3)
    with pytest.raises(ValueError, match="incompatible"):
        el.lu_solve(el.lu_factor(E(np.eye(2), d)), v3)
    with pytest.raises(ValueError, match="trans"):
        el.lu_solve(el.lu_factor(E(np.eye(3), d)), v3, trans=5)
    with pytest.raises(ValueError, match="infs or NaNs"):
        el.lu_factor(E(np.array([[1.0, np.nan], [0, 1]]), d))
    with pytest.raises(ValueError, match="infs or NaNs"):
        el.solve(E(np.eye(2), d), E(np.array([1.0, np.inf]), d))
    with pytest.raises(ValueError, match="should be 2D"):
        el.lstsq(v3, v3)
    with pytest.raises(ValueError, match="Shape mismatch"):
        el.lstsq(rect, v3)
    with pytest.raises(ValueError, match="not found"):
        el.lstsq(rect, E(np.ones(2), d), lapack_driver="gels")
    with pytest.raises(ValueError, match="positive"):
        el.pinv(rect, atol=-1)
    with pytest.raises(ValueError, match="Mode"):
        el.qr(rect, mode="complete")
    with pytest.raises(NotImplementedError):
        el.qr(rect, pivoting=True)
    with pytest.raises(ValueError, match="lapack_driver"):
        el.svd(rect, lapack_driver="gesvj")
    with pytest.raises(ValueError, match="expected matrix"):
        el.svd(v3)
    with pytest.raises(ValueError, match="square"):
        el.eigh(rect)
    with pytest.raises(ValueError, match="not valid"):
        el.eigh(E(np.eye(3), d), subset_by_index=[2, 5])
    with pytest.raises(ValueError, match="unknown"):
        el.eigh(E(np.eye(3), d), driver="evz")
    with pytest.raises(LinAlgError):
        el.eigh(E(np.eye(3), d), E(-np.eye(3), d))
    with pytest.raises(ValueError, match="l\\+u\\+1"):
        el.solve_banded((1, 1), E(np.ones((2, 3)), d), v3)
    with pytest.raises(ValueError, match="not compatible"):
        el.solve_banded((1, 0), E(np.ones((2, 4)), d), v3)
    with pytest.raises(ValueError, match="Incompatible"):
        el.solve_toeplitz(E(np.ones(2), d), v3)
    with pytest.raises(LinAlgError, match="square"):
        el.expm(rect)
    with pytest.raises(LinAlgError, match="two-dimensional"):
        el.expm(v3)
    with pytest.raises(ValueError, match="power of 2"):
        el.hadamard(6)
    with pytest.raises(ValueError, match="must not be zero"):
        el.companion(E(np.array([0.0, 1, 2]), d))
    with pytest.raises(ValueError, match="Incorrect lengths"):
        el.leslie(v3, v3)
    with pytest.raises(ValueError, match="mode"):
        el.convolution_matrix(v3, 2, "circular")
    with pytest.raises(ValueError, match="same number of columns|columns"):
        el.khatri_rao(rect, E(np.ones((2, 2)), d))
    with pytest.raises(ValueError, match="scale"):
        el.dft(3, scale="m")


def test_namespaces():
    import ember.scipy
    assert ember.scipy.linalg is el
    assert "linalg" in ember.scipy.__all__
    import ember.cupyx.scipy.linalg as cl
    assert cl is el
    # ember.linalg's, a subclass of numpy.linalg's (which SciPy's is)
    assert issubclass(el.LinAlgError, LinAlgError)
