"""ember.scipy.linalg's composed functions (linalg_eig, linalg_more,
linalg_matfuncs, linalg_fftsolve, linalg_pascal) against scipy.linalg:
values, dtypes, shapes, batches and SciPy's errors. Singular vectors and
eigenvectors are compared through reconstructions and subspaces, never
their signs or phases."""
import numpy as np
import pytest
import scipy.linalg as sl

import ember
import ember.scipy.linalg as el

rng = np.random.default_rng(2468)
TOL = {"float32": 2e-4, "complex64": 2e-4, "float64": 1e-9,
       "complex128": 1e-9}
LinAlgError = np.linalg.LinAlgError


def E(a, device):
    return ember.asarray(a, device=device)


def N(x):
    return ember.asnumpy(x) if isinstance(x, ember.ndarray) else np.asarray(x)


def rand(shape, dtype):
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


def close(got, want, dtype, scale=1.0):
    got = N(got)
    assert got.dtype == np.asarray(want).dtype, (got.dtype, want.dtype)
    assert got.shape == np.shape(want)
    np.testing.assert_allclose(got, want, rtol=TOL[dtype] * scale,
                               atol=TOL[dtype] * scale)


def projector(q):
    return q @ q.conj().swapaxes(-1, -2)


# ---- eig, eigvals, eigvalsh, cdf2rdf ------------------------------------

def sort_c(w):
    return np.sort_complex(np.round(w, 6))


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64",
                                   "complex128"])
def test_eig(device, dtype):
    a = rand((5, 5), dtype)
    w, vl, vr = el.eig(E(a, device), left=True)
    sw, svl, svr = sl.eig(a, left=True)
    assert N(w).dtype == sw.dtype and N(vr).dtype == svr.dtype
    assert N(vl).dtype == svl.dtype
    np.testing.assert_allclose(sort_c(N(w)), sort_c(sw), atol=1e-3)
    w, vl, vr = N(w), N(vl), N(vr)
    tol = 50 * TOL[dtype]
    np.testing.assert_allclose(a @ vr, vr * w, atol=tol)
    np.testing.assert_allclose(a.conj().T @ vl, vl * w.conj(), atol=tol)
    np.testing.assert_allclose(np.linalg.norm(vl, axis=0), 1, atol=tol)
    ev = el.eigvals(E(a, device), homogeneous_eigvals=True)
    assert N(ev).shape == (2, 5)
    np.testing.assert_allclose(N(ev)[1], 1)


def test_eig_real_spectrum_gives_real_vectors(device):
    a = rand((4, 4), "float64")
    a = a + a.T
    w, vr = el.eig(E(a, device))
    assert N(w).dtype == np.complex128 and N(vr).dtype == np.float64
    assert sl.eig(a)[1].dtype == np.float64
    np.testing.assert_allclose(a @ N(vr), N(vr) * N(w).real, atol=1e-9)


def test_eig_batch_and_errors(device):
    a = rand((3, 4, 4), "float64")
    w = N(el.eigvals(E(a, device)))
    sw = sl.eigvals(a)
    for k in range(3):
        np.testing.assert_allclose(sort_c(w[k]), sort_c(sw[k]), atol=1e-5)
    with pytest.raises(ValueError, match="square"):
        el.eig(E(np.ones((3, 4)), device))
    with pytest.raises(ValueError, match="infs or NaNs"):
        el.eig(E(np.full((2, 2), np.nan), device))
    with pytest.raises(NotImplementedError, match="ggev"):
        el.eig(E(a[0], device), E(np.eye(4), device))
    with pytest.raises(ValueError, match="same shape"):
        el.eig(E(a[0], device), E(np.eye(3), device))
    w0 = el.eigvals(E(np.empty((0, 0)), device))
    assert N(w0).shape == (0,) and N(w0).dtype == np.complex128


def test_eigvalsh(device):
    a = rand((6, 6), "complex128")
    a = a + a.conj().T
    np.testing.assert_allclose(N(el.eigvalsh(E(a, device))), sl.eigvalsh(a),
                               atol=1e-10)
    got = el.eigvalsh(E(a, device), subset_by_index=(1, 3))
    np.testing.assert_allclose(N(got), sl.eigvalsh(a, subset_by_index=(1, 3)),
                               atol=1e-10)
    got = el.eigvalsh(E(a, device), subset_by_value=(-1, 2))
    np.testing.assert_allclose(N(got), sl.eigvalsh(a, subset_by_value=(-1, 2)),
                               atol=1e-10)
    with pytest.raises(ValueError):
        el.eigvalsh(E(a, device), subset_by_index=(3, 1))


def test_cdf2rdf(device):
    a = rand((3, 5, 5), "float64")
    w, v = np.linalg.eig(a)
    wr, vr = el.cdf2rdf(E(w, device), E(v, device))
    swr, svr = sl.cdf2rdf(w, v)
    close(wr, swr, "float64")
    close(vr, svr, "float64")
    with pytest.raises(ValueError, match="conjugate pairs"):
        el.cdf2rdf(E(np.array([1 + 1j, 2]), device), E(np.eye(2), device))
    with pytest.raises(ValueError, match="one dimension more"):
        el.cdf2rdf(E(w, device), E(v[0], device))


# ---- SVD-based ----------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "complex128"])
def test_null_space_orth(device, dtype):
    a = rand((6, 3), dtype) @ rand((3, 5), dtype)   # rank 3
    ns, sns = el.null_space(E(a, device)), sl.null_space(a)
    assert N(ns).shape == sns.shape and N(ns).dtype == sns.dtype
    close(projector(N(ns)), projector(sns), dtype, 10)
    o, so = el.orth(E(a, device)), sl.orth(a)
    assert N(o).shape == so.shape and N(o).dtype == so.dtype
    close(projector(N(o)), projector(so), dtype, 10)
    o = el.orth(E(a, device), rcond=0.9)
    assert N(o).shape == sl.orth(a, rcond=0.9).shape
    b = np.stack([a, a])
    assert N(el.null_space(E(b, device))).shape == (2, 5, 2)
    with pytest.raises(ValueError):
        el.null_space(E(np.stack([a, np.eye(6, 5, dtype=dtype)]), device))
    with pytest.raises(ValueError):
        el.orth(E(np.ones(3), device))


def test_svdvals_diagsvd(device):
    a = rand((2, 4, 3), "complex64")
    close(el.svdvals(E(a, device)), sl.svdvals(a), "complex64")
    s = np.array([3.0, 2.0, 1.0], dtype=np.float32)
    close(el.diagsvd(E(s, device), 3, 5), sl.diagsvd(s, 3, 5), "float32")
    close(el.diagsvd(E(s, device), 4, 3), sl.diagsvd(s, 4, 3), "float32")
    si = np.arange(3)
    got = el.diagsvd(E(si, device), 5, 3)
    assert N(got).dtype == sl.diagsvd(si, 5, 3).dtype
    np.testing.assert_array_equal(N(got), sl.diagsvd(si, 5, 3))
    sb = rand((2, 3), "float64")
    close(el.diagsvd(E(sb, device), 3, 4), sl.diagsvd(sb, 3, 4), "float64")
    with pytest.raises(ValueError, match="M or N"):
        el.diagsvd(E(s, device), 4, 5)


@pytest.mark.parametrize("side", ["right", "left"])
@pytest.mark.parametrize("dtype", ["float32", "complex128"])
def test_polar(device, side, dtype):
    a = rand((4, 3), dtype)
    u, p = el.polar(E(a, device), side=side)
    su, sp = sl.polar(a, side=side)
    close(u, su, dtype, 10)
    close(p, sp, dtype, 10)
    with pytest.raises(ValueError, match="side"):
        el.polar(E(a, device), side="up")
    with pytest.raises(ValueError, match="2-D"):
        el.polar(E(a[0], device))


@pytest.mark.parametrize("dtype", ["float64", "complex64"])
def test_pinvh(device, dtype):
    b = rand((5, 3), dtype)
    a = b @ b.conj().T        # rank 3
    got, rank = el.pinvh(E(a, device), return_rank=True)
    want, srank = sl.pinvh(a, return_rank=True)
    assert rank == srank
    close(got, want, dtype, 100)
    ab = np.stack([a, a + a.conj().T])
    close(el.pinvh(E(ab, device)), sl.pinvh(ab), dtype, 100)
    with pytest.raises(ValueError, match="positive"):
        el.pinvh(E(a, device), atol=-1)
    with pytest.raises(ValueError, match="infs or NaNs"):
        el.pinvh(E(np.full((2, 2), np.inf), device))


def test_subspace_angles(device):
    a = rand((6, 3), "float64")
    b = rand((6, 2), "float64")
    close(el.subspace_angles(E(a, device), E(b, device)),
          sl.subspace_angles(a, b), "float64", 10)
    close(el.subspace_angles(E(b, device), E(a, device)),
          sl.subspace_angles(b, a), "float64", 10)
    c = np.hstack([a[:, :1], rand((6, 1), "float64")])
    close(el.subspace_angles(E(a, device), E(c, device)),
          sl.subspace_angles(a, c), "float64", 1e3)
    with pytest.raises(ValueError, match="same number of rows"):
        el.subspace_angles(E(a, device), E(b[:4], device))
    with pytest.raises(ValueError, match="2D"):
        el.subspace_angles(E(a[0], device), E(b, device))


@pytest.mark.parametrize("dtype", ["float32", "complex128"])
def test_orthogonal_procrustes(device, dtype):
    a = rand((6, 4), dtype)
    b = rand((6, 4), dtype)
    r, scale = el.orthogonal_procrustes(E(a, device), E(b, device))
    sr, sscale = sl.orthogonal_procrustes(a, b)
    close(r, sr, dtype, 10)
    assert N(scale).dtype == np.asarray(sscale).dtype
    np.testing.assert_allclose(N(scale), sscale, rtol=10 * TOL[dtype])
    with pytest.raises(ValueError, match="differ"):
        el.orthogonal_procrustes(E(a, device), E(b[:3], device))


@pytest.mark.parametrize("shape", [(3, 5), (5, 3), (4, 4), (2, 3, 5)])
@pytest.mark.parametrize("mode", ["full", "economic", "r"])
@pytest.mark.parametrize("dtype", ["float32", "complex128"])
def test_rq(device, shape, mode, dtype):
    a = rand(shape, dtype)
    got = el.rq(E(a, device), mode=mode)
    want = sl.rq(a, mode=mode)
    if mode == "r":
        got, want = (got,), (want,)
    for g, w in zip(got, want):
        assert N(g).shape == w.shape and N(g).dtype == w.dtype
    r = N(got[0])
    m, n = shape[-2:]
    assert np.all(r == np.triu(r, n - m if mode != "economic" or n < m
                               else 0))
    np.testing.assert_allclose(np.abs(r), np.abs(want[0]),
                               atol=20 * TOL[dtype])
    if mode != "r":
        q = N(got[1])
        np.testing.assert_allclose(r @ q, a, atol=20 * TOL[dtype])
        eye = np.eye(q.shape[-2])
        np.testing.assert_allclose(q @ q.conj().swapaxes(-1, -2),
                                   np.broadcast_to(eye, q.shape[:-2]
                                                   + eye.shape),
                                   atol=20 * TOL[dtype])


def test_rq_errors(device):
    with pytest.raises(ValueError, match="Mode"):
        el.rq(E(np.eye(3), device), mode="raw")
    with pytest.raises(ValueError, match="matrix"):
        el.rq(E(np.ones(3), device))
    with pytest.raises(ValueError, match="infs or NaNs"):
        el.rq(E(np.full((2, 2), np.nan), device))
    r, q = el.rq(E(np.empty((0, 3)), device))
    assert N(r).shape == (0, 3)
    np.testing.assert_array_equal(N(q), np.eye(3))


def test_issymmetric_ishermitian(device):
    a = rand((4, 4), "complex128")
    h = a + a.conj().T
    s = a + a.T
    for f, name in ((el.issymmetric, "issymmetric"),
                    (el.ishermitian, "ishermitian")):
        ref = getattr(sl, name)
        for x in (h, s, a, h.real, np.array([[1, 2], [2, 1]], np.int8)):
            assert f(E(x, device)) is ref(x)
        near = h.real.copy()
        near[0, 1] += 1e-9
        assert f(E(near, device)) is ref(near) is False
        assert f(E(near, device), atol=1e-8) is ref(near, atol=1e-8)
        assert f(E(near, device), rtol=1e-6) is ref(near, rtol=1e-6)
        batch = np.stack([h, s])
        np.testing.assert_array_equal(N(f(E(batch, device))), ref(batch))
        with pytest.raises(ValueError, match="2D"):
            f(E(np.ones(3), device))
        with pytest.raises(ValueError, match="square"):
            f(E(np.ones((2, 3)), device))
        with pytest.raises(TypeError):
            f(E(np.ones((2, 2), np.float16), device))


# ---- matrix functions ---------------------------------------------------

NAMES = ["sinm", "cosm", "tanm", "sinhm", "coshm", "tanhm"]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64",
                                   "complex128"])
def test_matfuncs(device, name, dtype):
    a = rand((4, 4), dtype) * 0.5
    got = getattr(el, name)(E(a, device))
    close(got, getattr(sl, name)(a), dtype, 20)


@pytest.mark.parametrize("name", NAMES)
def test_matfuncs_batch_int_errors(device, name):
    a = rand((2, 3, 3), "float64") * 0.5
    close(getattr(el, name)(E(a, device)), getattr(sl, name)(a), "float64")
    i = np.eye(3, dtype=np.int64)
    close(getattr(el, name)(E(i, device)), getattr(sl, name)(i), "float64")
    with pytest.raises(ValueError, match="square"):
        getattr(el, name)(E(np.ones((2, 3)), device))
    with pytest.raises(ValueError, match="square"):
        getattr(el, name)(E(np.ones(3), device))


# ---- FFT-based ----------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_solve_circulant(device, dtype):
    c = rand((5,), dtype) + 3
    b = rand((5, 2), dtype)
    close(el.solve_circulant(E(c, device), E(b, device)),
          sl.solve_circulant(c, b), dtype, 10)
    cb = rand((3, 5), dtype) + 3
    bb = rand((3, 5), dtype)
    close(el.solve_circulant(E(cb, device), E(bb, device), baxis=-1,
                             outaxis=-1),
          sl.solve_circulant(cb, bb, baxis=-1, outaxis=-1), dtype, 10)


def test_solve_circulant_singular(device):
    c = np.array([1.0, 1.0, 0.0, 0.0])     # fft(c)[2] == 0
    b = np.arange(4.0)
    with pytest.raises(LinAlgError, match="near singular"):
        el.solve_circulant(E(c, device), E(b, device))
    close(el.solve_circulant(E(c, device), E(b, device), singular="lstsq"),
          sl.solve_circulant(c, b, singular="lstsq"), "float64")
    with pytest.raises(ValueError, match="incompatible"):
        el.solve_circulant(E(c, device), E(b[:3], device))
    with pytest.raises(ValueError, match="out of bounds"):
        el.solve_circulant(E(c, device), E(b, device), baxis=2)


@pytest.mark.parametrize("dtype", ["float32", "complex128"])
def test_matmul_toeplitz(device, dtype):
    c = rand((5,), dtype)
    r = rand((4,), dtype)
    x = rand((4, 3), dtype)
    close(el.matmul_toeplitz((E(c, device), E(r, device)), E(x, device)),
          sl.matmul_toeplitz((c, r), x),
          "float64" if dtype == "float32" else dtype)
    xs = rand((5,), dtype)
    close(el.matmul_toeplitz(E(c, device), E(xs, device)),
          sl.matmul_toeplitz(c, xs),
          "float64" if dtype == "float32" else dtype)
    cb = rand((2, 5), dtype)
    xb = rand((2, 4, 3), dtype)
    close(el.matmul_toeplitz((E(cb, device), E(r, device)), E(xb, device)),
          sl.matmul_toeplitz((cb, r), xb),
          "float64" if dtype == "float32" else dtype)
    with pytest.raises(ValueError, match="Incompatible"):
        el.matmul_toeplitz((E(c, device), E(r, device)), E(xs, device))


# ---- Pascal -------------------------------------------------------------

@pytest.mark.parametrize("kind", ["symmetric", "lower", "upper"])
@pytest.mark.parametrize("exact", [True, False])
def test_pascal(device, kind, exact):
    for n in (1, 5, 34):
        want = sl.pascal(n, kind=kind, exact=exact)
        got = N(el.pascal(n, kind=kind, exact=exact, device=device))
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-15)
        want = sl.invpascal(n, kind=kind, exact=exact)
        got = N(el.invpascal(n, kind=kind, exact=exact, device=device))
        assert got.dtype == want.dtype
        if exact:
            np.testing.assert_array_equal(got, want)
        elif n < 20:    # large n: both sides' float rounding diverges
            np.testing.assert_allclose(got, want, rtol=1e-9)


def test_pascal_errors(device):
    with pytest.raises(ValueError, match="kind"):
        el.pascal(3, kind="x", device=device)
    with pytest.raises(ValueError, match="kind"):
        el.invpascal(3, kind="x", device=device)
    with pytest.raises(NotImplementedError, match="object"):
        el.pascal(40, device=device)
    got = N(el.pascal(40, exact=False, device=device))
    np.testing.assert_allclose(got, sl.pascal(40, exact=False), rtol=1e-12)


# ---- Hermitian banded ---------------------------------------------------

def band_of(a, u, lower):
    n = a.shape[-1]
    ab = np.zeros(a.shape[:-2] + (u + 1, n), a.dtype)
    for k in range(u + 1):
        if lower:
            ab[..., k, :n - k] = np.diagonal(a, -k, axis1=-2, axis2=-1)
        else:
            ab[..., u - k, k:] = np.diagonal(a, k, axis1=-2, axis2=-1)
    return ab


def hpd_band(n, u, dtype, batch=()):
    a = rand(batch + (n, n), dtype)
    a = (a + a.conj().swapaxes(-1, -2)) / 2
    a = np.triu(np.tril(a, u), -u) + (2 * u + 4) * np.eye(n)
    return a.astype(dtype)


@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("dtype", ["float64", "complex64"])
def test_hermitian_banded(device, lower, dtype):
    ab = band_of(hpd_band(6, 2, dtype), 2, lower)
    b = rand((6, 2), dtype)
    c = el.cholesky_banded(E(ab, device), lower=lower)
    sc = sl.cholesky_banded(ab, lower=lower)
    close(c, sc, dtype, 10)
    close(el.cho_solve_banded((c, lower), E(b, device)),
          sl.cho_solve_banded((sc, lower), b), dtype, 10)
    close(el.solveh_banded(E(ab, device), E(b[:, 0], device), lower=lower),
          sl.solveh_banded(ab, b[:, 0], lower=lower), dtype, 10)
    tri = band_of(hpd_band(5, 1, dtype), 1, lower)     # SciPy's ptsv path
    close(el.solveh_banded(E(tri, device), E(b[:5], device), lower=lower),
          sl.solveh_banded(tri, b[:5], lower=lower), dtype, 10)


def test_hermitian_banded_batch_errors(device):
    ab = band_of(hpd_band(5, 1, "float64", (3,)), 1, False)
    b = rand((3, 5, 2), "float64")
    close(el.solveh_banded(E(ab, device), E(b, device)),
          sl.solveh_banded(ab, b), "float64")
    close(el.cholesky_banded(E(ab, device)), sl.cholesky_banded(ab),
          "float64")
    with pytest.raises(LinAlgError, match="not positive definite"):
        el.solveh_banded(E(-ab[0], device), E(b[0], device))
    with pytest.raises(LinAlgError, match="not positive definite"):
        el.cholesky_banded(E(-ab[0], device))
    with pytest.raises(ValueError, match="not compatible"):
        el.solveh_banded(E(ab[0], device), E(b[0, :4], device))
    with pytest.raises(ValueError, match="infs or NaNs"):
        el.solveh_banded(E(ab[0] * np.nan, device), E(b[0], device))


def test_return_forms_and_mixed_dtypes(device):
    a = rand((2, 4, 4), "float32")
    w, vl = el.eig(E(a, device), left=True, right=False)
    sw, svl = sl.eig(a, left=True, right=False)
    assert N(vl).dtype == svl.dtype and N(vl).shape == svl.shape
    vl = N(vl)
    np.testing.assert_allclose(a.swapaxes(-1, -2) @ vl,
                               vl * N(w).conj()[..., None, :], atol=2e-3)
    ev = el.eigvals(E(a, device), homogeneous_eigvals=True)
    assert N(ev).shape == sl.eigvals(a, homogeneous_eigvals=True).shape
    c = np.array([4.0, 1.0, 0.0])
    b = np.array([1j, 2, 3])
    close(el.solve_circulant(E(c, device), E(b, device)),
          sl.solve_circulant(c, b), "complex128")
    with pytest.raises(ValueError, match="infs or NaNs"):
        el.matmul_toeplitz(E(np.array([1.0, np.nan]), device),
                           E(np.ones(2), device), check_finite=True)
    h = rand((4, 4), "float64")
    close(el.pinvh(E(h, device), lower=False), sl.pinvh(h, lower=False),
          "float64", 100)
