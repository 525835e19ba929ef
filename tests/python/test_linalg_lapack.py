"""ember.linalg's LAPACK functions against numpy.linalg: values (through
reconstructions where factors are sign-ambiguous), dtypes, shapes,
batches, empty and strided inputs, and the errors NumPy raises."""
import numpy as np
import pytest

import ember
import ember.linalg as la
from helpers import run_python

rng = np.random.default_rng(1234)
DTYPES = ["float32", "float64", "complex64", "complex128"]
TOL = {"float32": 2e-4, "complex64": 2e-4, "float64": 1e-10,
       "complex128": 1e-10}


def E(a, device):
    return ember.asarray(a, device=device)


def N(x):
    return ember.asnumpy(x) if isinstance(x, ember.ndarray) else np.asarray(x)


def rand(shape, dtype):
    a = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


def well(shape, dtype):
    """Random square matrices with a strong diagonal: well conditioned."""
    a = rand(shape, dtype)
    return (a + 3 * shape[-1] ** 0.5 * np.eye(shape[-1])).astype(dtype)


def hpd(shape, dtype):
    a = rand(shape, dtype)
    return (a @ np.conj(np.swapaxes(a, -1, -2)) +
            shape[-1] * np.eye(shape[-1])).astype(dtype)


def close(x, want, dtype=None, scale=None):
    """x is an ember array (or scalar) with NumPy's dtype and shape and
    values within the tolerance of the dtype, relative to the largest."""
    want = np.asarray(want)
    got = N(x)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    tol = TOL[dtype or want.dtype.name if (dtype or want.dtype.name) in TOL
              else "float64"]
    if want.size:
        s = scale if scale is not None else max(np.max(np.abs(want)), 1.0)
        err = np.max(np.abs(got.astype(np.complex128) - want)) / s
        assert err < tol, (err, tol)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch", [(), (3,), (2, 2)])
def test_solve_inv_det(device, dtype, batch):
    d = device
    a = well(batch + (5, 5), dtype)
    b = rand(batch + (5, 3), dtype)
    v = rand((5,), dtype)
    close(la.solve(E(a, d), E(b, d)), np.linalg.solve(a, b), dtype)
    close(la.solve(E(a, d), E(v, d)), np.linalg.solve(a, v), dtype)
    close(la.inv(E(a, d)), np.linalg.inv(a), dtype)
    close(la.det(E(a, d)), np.linalg.det(a), dtype)
    sign, logabs = la.slogdet(E(a, d))
    s2, l2 = np.linalg.slogdet(a)
    close(sign, s2, dtype)
    close(logabs, l2, dtype)
    r = la.slogdet(E(a, d))
    assert type(r).__name__ == "SlogdetResult" and r.sign is r[0]


@pytest.mark.parametrize("dtype", DTYPES)
def test_cholesky(device, dtype):
    d = device
    for batch in ((), (4,)):
        a = hpd(batch + (6, 6), dtype)
        # the other triangle is ignored, as NumPy's
        junk = np.triu(rand(batch + (6, 6), dtype), 1)
        close(la.cholesky(E(a + junk, d)), np.linalg.cholesky(a + junk), dtype)
        lo = np.tril(rand(batch + (6, 6), dtype), -1)
        close(la.cholesky(E(a + lo, d), upper=True),
              np.linalg.cholesky(a + lo, upper=True), dtype)


def test_broadcast_and_strides(device):
    d = device
    a = well((2, 1, 4, 4), "float64")
    b = rand((3, 4, 2), "float64")
    close(la.solve(E(a, d), E(b, d)), np.linalg.solve(a, b))
    # transposed, sliced and negatively strided operands
    big = well((8, 8), "float64")
    for view in (lambda x: x.T, lambda x: x[::2, ::2], lambda x: x[::-1, ::-1],
                 lambda x: x[1:6, 2:7]):
        want = view(big)
        got = view(E(big, d))
        close(la.inv(got), np.linalg.inv(want))
        close(la.det(got), np.linalg.det(want))
        close(la.svdvals(got), np.linalg.svd(want, compute_uv=False))
        h = want @ want.T + 8 * np.eye(want.shape[0])
        close(la.cholesky(E(h, d).T), np.linalg.cholesky(h.T))


def test_empty(device):
    d = device
    z = np.zeros((0, 0))
    close(la.inv(E(z, d)), np.linalg.inv(z))
    close(la.det(E(z, d)), np.linalg.det(z))
    assert float(N(la.det(E(z, d)))) == 1.0
    s, l = la.slogdet(E(np.zeros((2, 0, 0)), d))
    close(s, np.linalg.slogdet(np.zeros((2, 0, 0)))[0])
    close(la.solve(E(z, d), E(np.zeros((0, 3)), d)),
          np.linalg.solve(z, np.zeros((0, 3))))
    close(la.cholesky(E(z, d)), np.linalg.cholesky(z))
    close(la.inv(E(np.zeros((0, 3, 3)), d)), np.linalg.inv(np.zeros((0, 3, 3))))
    close(la.eigvalsh(E(z, d)), np.linalg.eigvalsh(z))
    for shape in ((0, 3), (3, 0)):
        x = np.zeros(shape)
        for mode in ("reduced", "complete", "r"):
            got, want = la.qr(E(x, d), mode=mode), np.linalg.qr(x, mode=mode)
            for g, w in zip(got if mode != "r" else [got],
                            want if mode != "r" else [want]):
                close(g, w)
        for full in (True, False):
            for g, w in zip(la.svd(E(x, d), full_matrices=full),
                            np.linalg.svd(x, full_matrices=full)):
                close(g, w)
        close(la.pinv(E(x, d)), np.linalg.pinv(x))


def test_integer_and_bool_upcast(device):
    d = device
    a = np.array([[4, 1], [2, 3]], dtype=np.int32)
    close(la.inv(E(a, d)), np.linalg.inv(a))
    close(la.det(E(a, d)), np.linalg.det(a))
    close(la.solve(E(a, d), E(np.array([1, 2]), d)), np.linalg.solve(a, [1, 2]))
    close(la.eigvalsh(E(a + a.T, d)), np.linalg.eigvalsh(a + a.T))
    b = np.array([[True, False], [True, True]])
    close(la.inv(E(b, d)), np.linalg.inv(b))
    # float32 with a float64 right-hand side computes in float64
    f = well((3, 3), "float32")
    close(la.solve(E(f, d), E(np.ones(3), d)), np.linalg.solve(f, np.ones(3)))
    with pytest.raises(TypeError, match="float16 is unsupported"):
        la.inv(E(np.eye(2, dtype=np.float16), d))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (2, 5, 5), (3, 7, 2)])
def test_qr(device, dtype, shape):
    d = device
    a = rand(shape, dtype)
    m, n = shape[-2:]
    k = min(m, n)
    for mode in ("reduced", "complete"):
        q, r = la.qr(E(a, d), mode=mode)
        q2, r2 = np.linalg.qr(a, mode=mode)
        assert q.shape == q2.shape and r.shape == r2.shape
        assert q.dtype == q2.dtype and r.dtype == r2.dtype
        q, r = N(q), N(r)
        close(q @ r, a, dtype)
        eye = np.broadcast_to(np.eye(q.shape[-1]), q.shape[:-2] +
                              (q.shape[-1],) * 2)
        close(np.conj(np.swapaxes(q, -1, -2)) @ q, eye.astype(dtype), dtype)
        assert np.all(np.tril(r, -1) == 0)
    r = la.qr(E(a, d), mode="r")
    close(np.abs(N(r)), np.abs(np.linalg.qr(a, mode="r")), dtype)
    h, tau = la.qr(E(a, d), mode="raw")
    h2, tau2 = np.linalg.qr(a, mode="raw")
    assert h.shape == h2.shape and tau.shape == tau2.shape
    assert h.shape[-2:] == (n, m) and tau.shape[-1] == k
    close(h, h2, dtype)      # LAPACK's geqrf in both: the same reflectors
    close(tau, tau2, dtype)
    with pytest.raises(ValueError, match="Unrecognized mode"):
        la.qr(E(a, d), mode="bogus")
    with pytest.warns(DeprecationWarning):
        q, r = la.qr(E(a, d), mode="full")
    close(N(q) @ N(r), a, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_eigh(device, dtype):
    d = device
    for batch in ((), (3,)):
        a = hpd(batch + (6, 6), dtype)
        for uplo in ("L", "U", "u"):
            # only the named triangle is read
            other = (np.triu if uplo.upper() == "L" else np.tril)(
                rand(batch + (6, 6), dtype), 1 if uplo.upper() == "L" else -1)
            w, v = la.eigh(E(a + other, d), UPLO=uplo)
            w2, _ = np.linalg.eigh(a + other, UPLO=uplo)
            close(w, w2, dtype, scale=np.max(np.abs(w2)))
            w, v = N(w), N(v)
            close(a @ v, v * w[..., None, :], dtype, scale=np.max(np.abs(a)))
            close(la.eigvalsh(E(a + other, d), UPLO=uplo),
                  np.linalg.eigvalsh(a + other, UPLO=uplo), dtype)
    with pytest.raises(ValueError, match="UPLO"):
        la.eigh(E(np.eye(2), d), UPLO="X")


@pytest.mark.parametrize("dtype", DTYPES)
def test_eig(device, dtype):
    d = device
    a = rand((3, 5, 5), dtype)
    w, v = la.eig(E(a, d))
    w2, v2 = np.linalg.eig(a)
    assert w.dtype == w2.dtype and v.dtype == v2.dtype
    assert w.shape == w2.shape and v.shape == v2.shape
    w, v = N(w), N(v)
    close(a @ v, v * w[..., None, :], dtype, scale=np.max(np.abs(a)))
    nv = np.linalg.norm(v, axis=-2)
    close(nv, np.ones(w.shape, nv.dtype), "float32")
    key = lambda x: np.sort_complex(x.ravel())  # noqa: E731
    close(key(N(la.eigvals(E(a, d)))), key(np.linalg.eigvals(a)), dtype)
    # real input with real eigenvalues: complex results, as NumPy 2.5's
    # (older NumPy gives real ones)
    s = hpd((4, 4), dtype)
    if dtype.startswith("float"):
        w, v = la.eig(E(s, d))
        want = np.result_type(dtype, np.complex64)
        assert w.dtype == want and v.dtype == want
        assert la.eigvals(E(s, d)).dtype == want
        close(np.sort(N(w).real), np.linalg.eigvalsh(s), dtype)
        assert np.abs(N(w).imag).max() <= 1e-3 * np.abs(N(w).real).max()
    with pytest.raises(np.linalg.LinAlgError, match="infs or NaNs"):
        la.eigvals(E(np.full((2, 2), np.nan), d))
    # conjugate pairs beside real eigenvalues, in a batch (a real geev
    # packs each pair's vectors into two real columns)
    r = np.zeros((2, 4, 4), dtype)
    r[:, :2, :2] = [[0, -2], [2, 0]]
    r[:, 2:, 2:] = [[3, 1], [0, -1]]
    r[1] = r[1] @ np.diag([1, 2, 3, 4]).astype(dtype) + np.eye(4, dtype=dtype)
    w, v = la.eig(E(r, d))
    w, v = N(w), N(v)
    close(r @ v, v * w[..., None, :], dtype, scale=4)
    # ordered by the real part rounded (a pair's real parts are zeros that
    # round differently) then the imaginary part
    pair_key = lambda x: x[np.lexsort((x.imag, np.round(x.real, 3)))]  # noqa: E731
    close(pair_key(w[0]), pair_key(np.linalg.eigvals(r[0])), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (3, 5, 5), (2, 3, 7, 2)])
def test_svd(device, dtype, shape):
    d = device
    a = rand(shape, dtype)
    k = min(shape[-2:])
    for full in (True, False):
        u, s, vh = la.svd(E(a, d), full_matrices=full)
        u2, s2, vh2 = np.linalg.svd(a, full_matrices=full)
        for g, w in ((u, u2), (s, s2), (vh, vh2)):
            assert g.dtype == w.dtype and g.shape == w.shape
        close(s, s2, dtype)
        u, s, vh = N(u), N(s), N(vh)
        close((u[..., :k] * s[..., None, :]) @ vh[..., :k, :], a, dtype)
        close(np.conj(np.swapaxes(u, -1, -2)) @ u,
              np.broadcast_to(np.eye(u.shape[-1]), u.shape[:-2] +
                              (u.shape[-1],) * 2).astype(dtype), dtype)
    close(la.svd(E(a, d), compute_uv=False), np.linalg.svd(a, compute_uv=False),
          dtype)
    close(la.svdvals(E(a, d)), np.linalg.svdvals(a), dtype)
    r = la.svd(E(a, d))
    assert type(r).__name__ == "SVDResult" and r.U is r[0]


def test_svd_hermitian(device):
    d = device
    a = rand((3, 5, 5), "complex128")
    h = a + np.conj(np.swapaxes(a, -1, -2))
    u, s, vh = la.svd(E(h, d), hermitian=True)
    close(s, np.linalg.svd(h, hermitian=True)[1])
    u, s, vh = N(u), N(s), N(vh)
    close((u * s[..., None, :]) @ vh, h)
    close(la.svd(E(h, d), compute_uv=False, hermitian=True),
          np.linalg.svd(h, compute_uv=False, hermitian=True))


@pytest.mark.parametrize("dtype", DTYPES)
def test_lstsq(device, dtype):
    d = device
    for m, n in ((8, 5), (5, 8), (6, 6)):
        a = rand((m, n), dtype)
        for b in (rand((m, 3), dtype), rand((m,), dtype)):
            got = la.lstsq(E(a, d), E(b, d))
            want = np.linalg.lstsq(a, b)
            close(got[0], want[0], dtype)
            close(got[1], want[1], dtype)
            assert got[2] == want[2]
            close(got[3], want[3], dtype)
    # rank deficient: the minimum-norm solution, and no residuals
    a = np.array([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])
    b = np.array([1.0, 2.0, 3.5])
    got, want = la.lstsq(E(a, d), E(b, d)), np.linalg.lstsq(a, b)
    close(got[0], want[0])
    close(got[1], want[1])
    assert got[2] == want[2] == 1
    got = la.lstsq(E(a, d), E(b, d), rcond=0.5)
    close(got[0], np.linalg.lstsq(a, b, rcond=0.5)[0])
    with pytest.raises(np.linalg.LinAlgError, match="Incompatible dimensions"):
        la.lstsq(E(a, d), E(np.ones(4), d))
    with pytest.raises(np.linalg.LinAlgError, match="two-dimensional"):
        la.lstsq(E(np.ones((2, 3, 3)), d), E(np.ones(3), d))


@pytest.mark.parametrize("dtype", DTYPES)
def test_pinv_rank_cond_power(device, dtype):
    d = device
    a = rand((3, 5, 4), dtype)
    close(la.pinv(E(a, d)), np.linalg.pinv(a), dtype)
    close(la.pinv(E(a, d), rtol=0.3), np.linalg.pinv(a, rtol=0.3), dtype)
    close(la.pinv(E(a, d), rcond=0.3), np.linalg.pinv(a, rcond=0.3), dtype)
    h = hpd((4, 4), dtype)
    close(la.pinv(E(h, d), hermitian=True), np.linalg.pinv(h, hermitian=True),
          dtype)
    with pytest.raises(ValueError, match="can't be both set"):
        la.pinv(E(a, d), rcond=0.1, rtol=0.1)
    low = (rand((6, 2), dtype) @ rand((2, 5), dtype))
    for x in (a, low, h):
        assert np.array_equal(N(la.matrix_rank(E(x, d))),
                              np.linalg.matrix_rank(x))
    assert np.array_equal(N(la.matrix_rank(E(low, d), tol=1e-3)),
                          np.linalg.matrix_rank(low, tol=1e-3))
    assert np.array_equal(N(la.matrix_rank(E(h, d), hermitian=True, rtol=0.1)),
                          np.linalg.matrix_rank(h, hermitian=True, rtol=0.1))
    assert la.matrix_rank(E(np.zeros(3), d)) == 0
    assert la.matrix_rank(E(np.ones(3), d)) == 1
    s = well((2, 4, 4), dtype)
    for p in (None, 2, -2, 1, -1, np.inf, -np.inf, "fro", "nuc"):
        close(la.cond(E(s, d), p), np.linalg.cond(s, p), dtype)
    for n in (0, 1, 2, 3, 5, -1, -4):
        close(la.matrix_power(E(s / 4, d), n),
              np.linalg.matrix_power(s / 4, n), dtype)


def test_matrix_power_cond_edges(device):
    d = device
    i = np.array([[1, 1], [0, 1]], dtype=np.int64)
    close(la.matrix_power(E(i, d), 6), np.linalg.matrix_power(i, 6))
    with pytest.raises(TypeError, match="exponent must be an integer"):
        la.matrix_power(E(i, d), 1.5)
    sing = np.array([[1.0, 2.0], [2.0, 4.0]])
    assert N(la.cond(E(sing, d), 1)) == np.linalg.cond(sing, 1) == np.inf
    with pytest.raises(np.linalg.LinAlgError, match="empty"):
        la.cond(E(np.zeros((0, 0)), d))


@pytest.mark.parametrize("ord", [2, -2, "nuc"])
def test_norm_svd_orders(device, ord):
    d = device
    a = rand((3, 4, 5), "float64")
    for axis in ((1, 2), (2, 0), (-1, -2)):
        for keepdims in (False, True):
            close(la.norm(E(a, d), ord=ord, axis=axis, keepdims=keepdims),
                  np.linalg.norm(a, ord=ord, axis=axis, keepdims=keepdims))
    close(la.norm(E(a[0], d), ord=ord), np.linalg.norm(a[0], ord=ord))
    c = rand((4, 4), "complex64")
    close(la.norm(E(c, d), ord=ord), np.linalg.norm(c, ord=ord), "complex64")


def test_errors(device):
    d = device
    sing = E(np.array([[1.0, 2.0], [2.0, 4.0]]), d)
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        la.inv(sing)
    with pytest.raises(la.LinAlgError, match="Singular matrix"):
        la.solve(sing, E(np.ones(2), d))
    # a singular matrix in a batch fails the whole call, as NumPy's
    with pytest.raises(la.LinAlgError):
        la.inv(E(np.stack([np.eye(2), np.zeros((2, 2))]), d))
    assert float(N(la.det(sing))) == 0.0
    s, l = la.slogdet(sing)
    assert float(N(s)) == 0.0 and float(N(l)) == -np.inf
    with pytest.raises(np.linalg.LinAlgError, match="not positive definite"):
        la.cholesky(E(-np.eye(3), d))
    nan = E(np.full((3, 3), np.nan), d)
    with pytest.raises(np.linalg.LinAlgError, match="SVD did not converge"):
        la.svd(nan)
    with pytest.raises(np.linalg.LinAlgError, match="did not converge"):
        la.eigh(nan)
    for f in (la.inv, la.det, la.slogdet, la.cholesky, la.eigh, la.eigvalsh,
              la.eig, la.eigvals):
        with pytest.raises(np.linalg.LinAlgError,
                           match="Last 2 dimensions of the array must be "
                           "square"):
            f(E(np.ones((2, 3)), d))
        with pytest.raises(np.linalg.LinAlgError,
                           match="1-dimensional array given. Array must be at "
                           "least two-dimensional"):
            f(E(np.ones(3), d))
    for f in (la.qr, la.svd, la.svdvals, la.pinv):
        with pytest.raises(np.linalg.LinAlgError, match="at least two"):
            f(E(np.ones(3), d))
    with pytest.raises(ValueError, match="mismatch in its core dimension"):
        la.solve(E(np.eye(3), d), E(np.ones((2, 1)), d))
    with pytest.raises(ValueError, match="mismatch in its core dimension"):
        la.solve(E(np.eye(3), d), E(np.ones(2), d))
    with pytest.raises(TypeError):
        la.inv(E(np.eye(2), d), 3)
    # the error class is NumPy's subclass and a ValueError
    assert issubclass(la.LinAlgError, np.linalg.LinAlgError)
    assert issubclass(la.LinAlgError, ValueError)


def test_arrayapi_names(device):
    d = device
    x = rand((2, 3, 3), "float64")
    assert np.array_equal(N(la.diagonal(E(x, d), offset=1)),
                          np.linalg.diagonal(x, offset=1))
    close(la.trace(E(x, d)), np.linalg.trace(x))
    close(la.trace(E(x, d), offset=-1, dtype=ember.float32),
          np.linalg.trace(x, offset=-1, dtype=np.float32))
    u, v = rand((4, 3), "float64"), rand((3,), "float64")
    close(la.cross(E(u, d), E(v, d)), np.linalg.cross(u, v))
    w = rand((3, 2), "float64")
    close(la.cross(E(w, d), E(w[::-1], d), axis=0),
          np.linalg.cross(w, w[::-1], axis=0))
    with pytest.raises(ValueError, match="3-dimensional vectors"):
        la.cross(E(np.ones(2), d), E(np.ones(2), d))
    for ord in (2, 1, np.inf, -np.inf, 0, 3):
        for axis in (None, 1, (0, 2), -1):
            for keepdims in (False, True):
                close(la.vector_norm(E(x, d), axis=axis, ord=ord,
                                     keepdims=keepdims),
                      np.linalg.vector_norm(x, axis=axis, ord=ord,
                                            keepdims=keepdims))
    close(la.vector_norm(E(np.arange(4), d)),
          np.linalg.vector_norm(np.arange(4)))
    for ord in ("fro", 1, np.inf, -1):
        close(la.matrix_norm(E(x, d), ord=ord), np.linalg.matrix_norm(x, ord=ord))


def test_multi_dot_tensor(device):
    d = device
    arrs = [rand((4, 7), "float64"), rand((7, 2), "float64"),
            rand((2, 9), "float64"), rand((9,), "float64")]
    close(la.multi_dot([E(a, d) for a in arrs]), np.linalg.multi_dot(arrs))
    close(la.multi_dot([E(arrs[3], d), E(arrs[2].T, d), E(arrs[1].T, d)]),
          np.linalg.multi_dot([arrs[3], arrs[2].T, arrs[1].T]))
    a = well((6, 6), "float64").reshape(6, 2, 3)
    close(la.tensorinv(E(a, d), ind=1), np.linalg.tensorinv(a, ind=1))
    b = rand((6,), "float64")
    close(la.tensorsolve(E(a, d), E(b, d)), np.linalg.tensorsolve(a, b))


def test_namespace():
    missing = sorted(n for n in dir(np.linalg) if not n.startswith("_")
                     and n not in ("test",) and not hasattr(la, n))
    assert missing == []
    assert "solve" in dir(la)


def test_missing_wheel_and_lazy_import():
    # Without the wheel (nor NumPy's bundled copy of it) a LAPACK call
    # names the pip package; import ember and import ember.linalg load
    # neither the LAPACK front end nor NumPy.
    code = (
        "import sys, os.path\n"
        "real = os.path.isdir\n"
        "os.path.isdir = lambda p: ('scipy_openblas64' not in p and\n"
        "                           'numpy.libs' not in p and real(p))\n"
        "import ember, ember.linalg\n"
        "assert 'ember._api.linalg' not in sys.modules\n"
        "assert 'numpy' not in sys.modules\n"
        "x = ember.ones((40, 40), device='cpu')\n"
        "print('matmul', float((x @ x)[3, 5]))\n"
        "try:\n"
        "    ember.linalg.inv(ember.eye(2, device='cpu'))\n"
        "except Exception as e:\n"
        "    print(type(e).__name__, e)\n")
    r = run_python("-c", code)
    assert r.returncode == 0, r.stderr
    assert "pip install scipy-openblas64" in r.stdout, r.stdout
    # matmul keeps working without OpenBLAS: the generated kernel
    assert "matmul 40.0" in r.stdout, r.stdout


@pytest.mark.parametrize("dtype", DTYPES + ["int64"])
def test_matmul_layouts(device, dtype):
    """matmul on the cpu goes to OpenBLAS's gemm where the layout fits and
    to the generated kernel otherwise: every layout against NumPy."""
    d = device
    a = rand((3, 40, 50), dtype) if dtype != "int64" else \
        rng.integers(-9, 9, (3, 40, 50))
    b = rand((50, 30), dtype) if dtype != "int64" else \
        rng.integers(-9, 9, (50, 30))
    cases = [
        (lambda x: x, lambda y: y),                       # C order
        (lambda x: x.transpose(0, 2, 1).copy().transpose(0, 2, 1),
         lambda y: y.T.copy().T),                         # Fortran order
        (lambda x: x[:, ::2, :], lambda y: y[:, ::-1]),   # strided, negative
        (lambda x: x[:, :, ::2], lambda y: y[::2, :]),    # strided along k
        (lambda x: x[1], lambda y: y),                    # 2-D
        (lambda x: x[0, 0], lambda y: y),                 # 1-D @ 2-D
        (lambda x: x, lambda y: y[:, 0]),                 # 2-D @ 1-D
    ]
    for fa, fb in cases:
        want = fa(a) @ fb(b)
        got = fa(E(a, d)) @ fb(E(b, d))
        if dtype == "int64":
            assert np.array_equal(N(got), want)
        else:
            close(got, want, dtype, scale=np.max(np.abs(want)))
    # a result written into a transposed out=, and a batch broadcast
    out = ember.empty((3, 30, 40), dtype=dtype, device=d).transpose(0, 2, 1)
    ember.matmul(E(a, d), E(b, d), out=out)
    if dtype == "int64":
        assert np.array_equal(N(out), a @ b)
    else:
        close(out, a @ b, dtype, scale=np.max(np.abs(a @ b)))
        c = rand((2, 1, 50, 20), dtype)
        close(ember.matmul(E(a, d), E(c, d)), a @ c, dtype,
              scale=np.max(np.abs(a @ c)))


def test_streams_and_threads(device):
    """gemm and LAPACK run on the calling thread after the stream's queued
    work; calls from several threads at once agree with NumPy."""
    import threading
    a = well((120, 120), "float64")
    s = ember.Stream()
    with s:
        x = E(a, device) * 2.0
        y = x @ x
        z = la.inv(x)
        w = y + 1.0
    s.synchronize()
    close(y, (2 * a) @ (2 * a))
    close(z, np.linalg.inv(2 * a))
    close(w, (2 * a) @ (2 * a) + 1)
    out = []

    def work():
        for _ in range(3):
            r = la.solve(E(a, device), E(a[:, :3], device))
            out.append(np.allclose(N(r), np.linalg.solve(a, a[:, :3])))

    ts = [threading.Thread(target=work) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert out == [True] * 12


def test_numpy_dispatch(device):
    """numpy.linalg's functions on ember arrays run ember.linalg's
    (__array_function__)."""
    a = well((4, 4), "float64")
    b = rand((4, 2), "float64")
    r = np.linalg.solve(E(a, device), E(b, device))
    assert isinstance(r, ember.ndarray)
    close(r, np.linalg.solve(a, b))
    u, s, vh = np.linalg.svd(E(a, device))
    assert isinstance(s, ember.ndarray)
    close(s, np.linalg.svd(a)[1])


# ---- the cuda composition over a NumPy stand-in for cuSOLVER ----------------
# linalg_cuda.py's transposes, conjugations, pivots and info handling, run
# on cpu arrays: each _cus_* call is done by NumPy on the column-major
# matrices the contract (include/ember/cusolver.h) describes.

def _cm(x):
    """The column-major matrices of a C-contiguous stack, as writable
    NumPy views (batch flattened)."""
    h = np.asarray(x)
    assert h.flags.c_contiguous
    return np.swapaxes(h.reshape((-1,) + h.shape[-2:]), -1, -2)


def _lu(m):
    n = m.shape[0]
    a = m.astype(np.complex128 if m.dtype.kind == "c" else np.float64)
    piv = np.arange(n)
    info = 0
    for j in range(n):
        p = j + int(np.argmax(np.abs(a[j:, j])))
        piv[j] = p
        a[[j, p]] = a[[p, j]]
        if a[j, j] == 0:
            info = info or j + 1
            continue
        a[j + 1:, j] /= a[j, j]
        a[j + 1:, j + 1:] -= np.outer(a[j + 1:, j], a[j, j + 1:])
    return a, piv + 1, info


def _from_lu(lu, ipiv):
    n = lu.shape[0]
    lo = np.tril(lu, -1) + np.eye(n)
    m = lo @ np.triu(lu)
    for j in reversed(range(n)):            # undo the interchanges
        p = ipiv[j] - 1
        m[[j, p]] = m[[p, j]]
    return m


class _FakeCusolver:
    _np_exception = staticmethod(__import__("ember")._ember._np_exception)

    def _cus_getrf(self, a, ipiv, info):
        ms, pv, inf = _cm(a), np.asarray(ipiv).reshape(-1, a.shape[-1]), \
            np.asarray(info).reshape(-1)
        for i in range(ms.shape[0]):
            lu, p, inf[i] = _lu(ms[i])
            ms[i] = lu
            pv[i] = p

    def _cus_getrs(self, lu, ipiv, b, trans, info):
        ls, pv, bs = _cm(lu), np.asarray(ipiv).reshape(-1, lu.shape[-1]), _cm(b)
        for i in range(bs.shape[0]):
            m = _from_lu(ls[i], pv[i])
            op = m if trans == 0 else m.T if trans == 1 else m.conj().T
            bs[i] = np.linalg.solve(op, bs[i])
        np.asarray(info)[...] = 0

    def _cus_potrf(self, a, lower, info):
        ms, inf = _cm(a), np.asarray(info).reshape(-1)
        for i in range(ms.shape[0]):
            t = np.tril(ms[i]) if lower else np.triu(ms[i])
            h = t + np.conj(t.T) - np.diag(np.diag(t).real)
            try:
                f = np.linalg.cholesky(h, upper=not lower)
            except np.linalg.LinAlgError:
                inf[i] = 1
                continue
            keep = np.triu(ms[i], 1) if lower else np.tril(ms[i], -1)
            ms[i] = f + keep
            inf[i] = 0

    def _cus_syevd(self, a, w, lower, vectors, info):
        ms, ws = _cm(a), np.asarray(w).reshape(-1, a.shape[-1])
        for i in range(ms.shape[0]):
            ws[i], v = np.linalg.eigh(ms[i], UPLO="L" if lower else "U")
            if vectors:
                ms[i] = v
        np.asarray(info)[...] = 0

    def _cus_geqrf(self, a, tau, info):
        if tau.size == 0:   # no reflectors: the C call returns at once
            return
        ms = _cm(a)
        ts = np.asarray(tau).reshape(-1, tau.shape[-1])
        for i in range(ms.shape[0]):
            h, ts[i] = np.linalg.qr(ms[i], mode="raw")
            ms[i] = h.T
        np.asarray(info)[...] = 0

    def _cus_orgqr(self, a, tau, info):
        assert tau.size   # qr makes the identity itself without reflectors
        ms = _cm(a)
        ts = np.asarray(tau).reshape(-1, tau.shape[-1])
        m, n = ms.shape[-2:]
        for i in range(ms.shape[0]):
            q = np.eye(m, dtype=ms.dtype)
            for j in reversed(range(ts.shape[-1])):   # Q = H_1 ... H_k
                v = np.zeros(m, ms.dtype)
                v[j] = 1
                v[j + 1:] = ms[i][j + 1:, j]
                q = q - ts[i][j] * np.outer(v, np.conj(v) @ q)
            ms[i] = q[:, :n]
        np.asarray(info)[...] = 0

    def _cus_gesvd(self, a, s, u, vt, full, info):
        ms = _cm(a)
        rows, cols = ms.shape[-2:]
        assert rows >= cols
        ss = np.asarray(s).reshape(-1, cols)
        for i in range(ms.shape[0]):
            if u is None:
                ss[i] = np.linalg.svd(ms[i], compute_uv=False)
                continue
            uu, ss[i], vv = np.linalg.svd(ms[i], full_matrices=bool(full))
            _cm(u)[i] = uu
            _cm(vt)[i] = vv
        np.asarray(info)[...] = 0


@pytest.mark.parametrize("dtype", DTYPES)
def test_cuda_composition_over_a_numpy_cusolver(monkeypatch, dtype):
    from ember._api import linalg_cuda as lc
    monkeypatch.setattr(lc, "_c", _FakeCusolver())
    d = "cpu"
    a = well((2, 5, 5), dtype)
    b = rand((2, 5, 3), dtype)
    close(lc.solve(E(a, d), E(b, d)), np.linalg.solve(a, b), dtype)
    close(lc.inv(E(a, d)), np.linalg.inv(a), dtype)
    sign, logabs = lc.slogdet(E(a, d))
    s2, l2 = np.linalg.slogdet(a)
    close(sign, s2, dtype)
    close(logabs, l2, dtype)
    close(lc.det(E(a, d)), np.linalg.det(a), dtype)
    # a zero pivot: det 0, slogdet (0, -inf), as NumPy's
    z = np.zeros((3, 3), dtype)
    z[0, 0] = 1
    sign, logabs = lc.slogdet(E(z, d))
    assert N(sign) == 0 and N(logabs) == -np.inf
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        lc.solve(E(z, d), E(z, d))
    h = hpd((3, 4, 4), dtype)
    junk = np.triu(rand((3, 4, 4), dtype), 1)
    close(lc.cholesky(E(h + junk, d), False), np.linalg.cholesky(h + junk), dtype)
    lo = np.tril(rand((3, 4, 4), dtype), -1)
    close(lc.cholesky(E(h + lo, d), True),
          np.linalg.cholesky(h + lo, upper=True), dtype)
    with pytest.raises(np.linalg.LinAlgError, match="positive definite"):
        lc.cholesky(E(-h, d), False)
    for lower in (1, 0):
        w, v = lc.eigh(E(h + (junk if lower else lo), d), lower, True)
        w2, v2 = np.linalg.eigh(h + (junk if lower else lo),
                                UPLO="L" if lower else "U")
        close(w, w2, dtype)
        # eigenvectors up to a phase: compare the reconstruction
        close(N(v) @ (N(w)[..., None] * np.conj(np.swapaxes(N(v), -1, -2))),
              h, dtype, scale=np.abs(h).max())
    for shape in ((2, 6, 4), (2, 4, 6), (5, 5), (3, 0), (2, 0, 3)):
        x = rand(shape, dtype)
        for full in (True, False):
            u, s, vh = lc.svd(E(x, d), full, True)
            u2, s2, vh2 = np.linalg.svd(x, full_matrices=full)
            assert N(u).shape == u2.shape and N(vh).shape == vh2.shape
            if x.size == 0:   # the identities NumPy gives
                close(u, u2, dtype)
                close(vh, vh2, dtype)
            close(s, s2, dtype)
            k = s2.shape[-1]
            rec = (N(u)[..., :, :k] * N(s)[..., None, :]) @ N(vh)[..., :k, :]
            close(rec, x, dtype, scale=np.abs(x).max(initial=1.0))
        close(lc.svd(E(x, d), False, False), np.linalg.svd(x, compute_uv=False),
              dtype)
    for shape in ((6, 4), (4, 6), (2, 5, 5), (3, 0), (0, 3)):
        x = rand(shape, dtype)
        for mode in ("reduced", "complete"):
            q, r = lc.qr(E(x, d), mode)
            q2, r2 = np.linalg.qr(x, mode=mode)
            assert N(q).shape == q2.shape and N(r).shape == r2.shape
            close(q, q2, dtype)      # the same reflectors: the same Q and R
            close(r, r2, dtype)
        close(lc.qr(E(x, d), "r")[0], np.linalg.qr(x, mode="r"), dtype)
        h, tau = lc.qr(E(x, d), "raw")
        h2, tau2 = np.linalg.qr(x, mode="raw")
        close(h, h2, dtype)
        close(tau, tau2, dtype)
    for m, n in ((8, 5), (5, 8), (6, 6)):
        a = rand((m, n), dtype)
        b = rand((m, 3), dtype)
        eps = np.finfo(np.empty(0, dtype).real.dtype).eps * max(m, n)
        got = lc.lstsq(E(a, d), E(b, d), eps)
        want = np.linalg.lstsq(a, b, rcond=None)
        close(got[0], want[0], dtype)
        close(got[1], want[1], dtype)
        assert got[2] == want[2]
        close(got[3], want[3], dtype)


def test_cusolver_binding_bad_input():
    # The raw bindings check before any device work: a wrong call raises
    # TypeError/ValueError naming the routine, a cpu array is refused.
    from ember import _ember
    # cpu arrays whatever the default device is: the last call must reach
    # the device check
    a = ember.zeros((3, 3), dtype=ember.float64, device="cpu")
    ipiv = ember.zeros((3,), dtype=ember.int32, device="cpu")
    info = ember.zeros((), dtype=ember.int32, device="cpu")
    with pytest.raises(TypeError, match="takes 3 arguments"):
        _ember._cus_getrf(a, ipiv)
    with pytest.raises(TypeError, match="argument 0 must be an ember"):
        _ember._cus_getrf(np.zeros((3, 3)), ipiv, info)
    with pytest.raises(TypeError, match="no cuSOLVER routine for int64"):
        _ember._cus_getrf(ember.zeros((3, 3), dtype=ember.int64, device="cpu"),
                         ipiv, info)
    with pytest.raises(ValueError, match="C-contiguous"):
        _ember._cus_getrf(ember.zeros((3, 6), device="cpu")[:, ::2], ipiv, info)
    with pytest.raises(NotImplementedError, match="runs on CUDA devices"):
        _ember._cus_getrf(a, ipiv, info)
    # geev: vr may be None (values only), w may not
    w = ember.zeros((6,), dtype=ember.float64, device="cpu")
    with pytest.raises(TypeError, match="_cus_geev takes 4 arguments"):
        _ember._cus_geev(a, w, None)
    with pytest.raises(TypeError, match="argument 1 must be an ember"):
        _ember._cus_geev(a, None, None, info)
    with pytest.raises(NotImplementedError, match="runs on CUDA devices"):
        _ember._cus_geev(a, w, None, info)


def test_one_openblas_with_numpy():
    # ember opens the OpenBLAS NumPy bundles where NumPy has one, so a
    # program calling both keeps one BLAS thread pool.
    import glob
    import os
    libs = glob.glob(os.path.join(os.path.dirname(np.__file__), os.pardir,
                                  "numpy.libs", "libscipy_openblas64_-*.so"))
    if not libs:
        pytest.skip("this NumPy bundles no scipy-openblas64 (built from source)")
    code = ("import ember, numpy as np\n"
            "x = ember.linalg.inv(ember.eye(3, device='cpu') * 2)\n"
            "np.linalg.inv(np.eye(3))\n"
            "maps = open('/proc/self/maps').read()\n"
            "print(sorted({l.split()[-1] for l in maps.splitlines()\n"
            "              if 'openblas' in l}))\n")
    r = run_python("-c", code)
    assert r.returncode == 0, r.stderr
    assert "numpy.libs" in r.stdout and r.stdout.count("openblas") == 1, r.stdout
