"""ember.scipy.linalg's Schur family (linalg_schur, linalg_ldl,
linalg_schurfuncs, linalg_logm, linalg_solvers) against scipy.linalg.
Schur and QZ forms are checked through reconstruction, (quasi-)
triangularity and unitarity, never entry by entry (Schur vectors are not
unique); matrix functions, ldl and the equation solvers against SciPy's
values. On cuda everything but solve_discrete_lyapunov's 'direct' method
raises NotImplementedError (cuSOLVER has no Schur, Hessenberg or QZ)."""
import numpy as np
import pytest
import scipy.linalg as sl

import ember
import ember.scipy.linalg as el

rng = np.random.default_rng(97531)
DTYPES = ["float32", "float64", "complex64", "complex128"]
TOL = {"float32": 3e-4, "complex64": 3e-4, "float64": 1e-9,
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
    want = np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape
    tol = TOL[np.dtype(dtype).name] * scale
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * max(
        1.0, float(np.abs(want).max(initial=0))))


def cpu_only(device):
    if device != "cpu":
        pytest.skip("a cpu-only function: its cuda answer is tested below")


def unitary(z, dtype):
    n = z.shape[-1]
    close(z.conj().swapaxes(-1, -2) @ z,
          np.broadcast_to(np.eye(n, dtype=z.dtype), z.shape), dtype, 10)


def quasi_upper(t, real):
    """Upper triangular, or for real forms with 1x1 and 2x2 blocks whose
    subdiagonal entries never touch."""
    assert np.all(np.tril(t, -2) == 0)
    sub = np.diagonal(t, -1, -2, -1)
    if not real:
        assert np.all(sub == 0)
    else:
        assert not np.any((sub[..., 1:] != 0) & (sub[..., :-1] != 0))


# ---- schur, rsf2csf -----------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("output", ["real", "complex"])
def test_schur(device, dtype, output):
    cpu_only(device)
    a = rand((7, 7), dtype)
    t, z = el.schur(E(a, device), output=output)
    st, sz = sl.schur(a, output=output)
    t, z = N(t), N(z)
    assert t.dtype == st.dtype and z.dtype == sz.dtype
    close(z @ t @ z.conj().T, a.astype(t.dtype), dtype, 10)
    quasi_upper(t, t.dtype.kind == "f")
    unitary(z, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("sort", ["lhp", "rhp", "iuc", "ouc", "callable"])
def test_schur_sort(device, dtype, sort):
    cpu_only(device)
    a = rand((8, 8), dtype)
    if sort in ("iuc", "ouc"):
        a = a / 2.5
    real = np.dtype(dtype).kind == "f"
    if sort == "callable":
        key = (lambda x, y: x > 0.3) if real else (lambda x: x.real > 0.3)
        sel = lambda w: w.real > 0.3  # noqa: E731
    else:
        key = sort
        sel = {"lhp": lambda w: w.real < 0, "rhp": lambda w: w.real >= 0,
               "iuc": lambda w: abs(w) <= 1, "ouc": lambda w: abs(w) > 1}[sort]
    t, z, sdim = el.schur(E(a, device), sort=key)
    _, _, ssdim = sl.schur(a, sort=key)
    assert sdim == ssdim
    t, z = N(t), N(z)
    close(z @ t @ z.conj().T, a, dtype, 10)
    unitary(z, dtype)
    w = np.linalg.eigvals(t[:sdim, :sdim]) if sdim else np.array([])
    assert np.all(sel(w))
    rest = np.linalg.eigvals(t[sdim:, sdim:]) if sdim < 8 else np.array([])
    assert not np.any(sel(rest))


def test_schur_batch_and_empty(device):
    cpu_only(device)
    a = rand((3, 5, 5), "float64")
    t, z = el.schur(E(a, device))
    t, z = N(t), N(z)
    assert t.shape == (3, 5, 5)
    np.testing.assert_allclose(z @ t @ z.transpose(0, 2, 1), a, atol=1e-12)
    t, z, sdim = el.schur(E(a, device), sort="lhp")
    np.testing.assert_array_equal(N(sdim), sl.schur(a, sort="lhp")[2])
    t, z = el.schur(E(np.zeros((0, 0), "float32"), device))
    assert N(t).shape == (0, 0) and N(t).dtype == np.float32


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_rsf2csf(device, dtype):
    # ember operations only: runs on cuda too
    a = rand((7, 7), dtype)
    T, Z = sl.schur(a)
    t, z = el.rsf2csf(E(T, device), E(Z, device))
    st, sz = sl.rsf2csf(T, Z)
    close(t, st, dtype, 10)
    close(z, sz, dtype, 10)
    assert np.all(np.tril(N(t), -1) == 0)


def test_schur_bad_inputs(device):
    cpu_only(device)
    with pytest.raises(ValueError):
        el.schur(E(rand((3, 4), "float64"), device))
    with pytest.raises(ValueError):
        el.schur(E(rand((3, 3), "float64"), device), output="other")
    with pytest.raises(ValueError):
        el.schur(E(rand((3, 3), "float64"), device), sort="up")
    with pytest.raises(ValueError):
        el.schur(E(np.array([[1.0, np.nan], [0, 1]]), device))
    with pytest.raises(ValueError, match="must be square"):
        el.rsf2csf(E(rand((3, 3), "float64"), device),
                   E(rand((3, 2), "float64"), device))
    with pytest.raises(ValueError, match="shapes must match"):
        el.rsf2csf(E(rand((3, 3), "float64"), device),
                   E(rand((4, 4), "float64"), device))


# ---- hessenberg ---------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_hessenberg(device, dtype):
    cpu_only(device)
    a = rand((7, 7), dtype)
    h, q = el.hessenberg(E(a, device), calc_q=True)
    sh, sq = sl.hessenberg(a, calc_q=True)
    close(h, sh, dtype, 30)
    close(q, sq, dtype, 30)
    h, q = N(h), N(q)
    assert np.all(np.tril(h, -2) == 0)
    close(q @ h @ q.conj().T, a, dtype, 10)
    close(el.hessenberg(E(a, device)), sh, dtype, 30)


def test_hessenberg_small_and_bad(device):
    cpu_only(device)
    a = np.array([[1, 2], [3, 4]])
    h, q = el.hessenberg(E(a, device), calc_q=True)
    sh, sq = sl.hessenberg(a, calc_q=True)
    np.testing.assert_array_equal(N(h), sh)
    np.testing.assert_array_equal(N(q), sq)
    assert N(q).dtype == sq.dtype
    with pytest.raises(ValueError):
        el.hessenberg(E(rand((3, 4), "float64"), device))


# ---- qz, ordqz ------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("output", ["real", "complex"])
def test_qz(device, dtype, output):
    cpu_only(device)
    a, b = rand((6, 6), dtype), rand((6, 6), dtype)
    aa, bb, q, z = (N(x) for x in el.qz(E(a, device), E(b, device),
                                         output=output))
    ref = sl.qz(a, b, output=output)
    for got, want in zip((aa, bb, q, z), ref):
        assert got.dtype == want.dtype
    close(q @ aa @ z.conj().T, a.astype(aa.dtype), dtype, 30)
    close(q @ bb @ z.conj().T, b.astype(bb.dtype), dtype, 30)
    quasi_upper(aa, aa.dtype.kind == "f")
    assert np.all(np.tril(bb, -1) == 0)
    unitary(q, dtype)
    unitary(z, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("sort", ["lhp", "rhp", "iuc", "ouc"])
def test_ordqz(device, dtype, sort):
    cpu_only(device)
    a, b = rand((6, 6), dtype), rand((6, 6), dtype)
    aa, bb, al, be, q, z = (N(x) for x in el.ordqz(E(a, device),
                                                   E(b, device), sort=sort))
    ref = sl.ordqz(a, b, sort=sort)
    for got, want in zip((aa, bb, al, be, q, z), ref):
        assert got.dtype == want.dtype
    close(q @ aa @ z.conj().T, a, dtype, 30)
    close(q @ bb @ z.conj().T, b, dtype, 30)
    lam = al / be
    pick = {"lhp": lam.real < 0, "rhp": lam.real > 0, "iuc": abs(lam) < 1,
            "ouc": abs(lam) > 1}[sort]
    k = int(pick.sum())
    assert pick[:k].all() and not pick[k:].any()
    np.testing.assert_allclose(np.sort_complex(np.round(lam, 4)),
                               np.sort_complex(np.round(ref[2] / ref[3], 4)),
                               atol=1e-2)


def test_ordqz_callable_and_bad(device):
    cpu_only(device)
    a, b = rand((5, 5), "float64"), rand((5, 5), "float64")
    out = el.ordqz(E(a, device), E(b, device),
                   sort=lambda al, be: ember.real(al / be) > 0)
    ref = sl.ordqz(a, b, sort="rhp")
    np.testing.assert_allclose(np.sort_complex(N(out[2]) / N(out[3])),
                               np.sort_complex(ref[2] / ref[3]), atol=1e-8)
    with pytest.raises(ValueError):
        el.ordqz(E(a, device), E(b, device), sort="up")
    with pytest.raises(ValueError):
        el.qz(E(a, device), E(b, device), sort="lhp")
    with pytest.raises(ValueError, match="square and agree"):
        el.qz(E(a, device), E(rand((4, 4), "float64"), device))


# ---- ldl ----------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("hermitian", [True, False])
def test_ldl(device, dtype, lower, hermitian):
    cpu_only(device)
    x = rand((9, 9), dtype)
    a = x + x.conj().T if hermitian else x + x.T
    np.fill_diagonal(a, 0.01)  # small pivots: 2x2 blocks appear
    lu, d, perm = el.ldl(E(a, device), lower=lower, hermitian=hermitian)
    slu, sd, sperm = sl.ldl(a, lower=lower, hermitian=hermitian)
    close(lu, slu, dtype, 10)
    close(d, sd, dtype, 10)
    np.testing.assert_array_equal(N(perm), sperm)
    lu, d = N(lu), N(d)
    back = lu @ d @ (lu.conj().T if hermitian else lu.T)
    close(back, a, dtype, 30)


def test_ldl_bad(device):
    cpu_only(device)
    with pytest.raises(ValueError, match="square"):
        el.ldl(E(rand((3, 4), "float64"), device))
    lu, d, perm = el.ldl(E(np.zeros((0, 0)), device))
    assert N(lu).shape == (0, 0) and N(perm).shape == (0,)


# ---- sqrtm, funm, signm, logm ---------------------------------------------

def spd_shift(n, dtype):
    return (rand((n, n), dtype) + 3 * np.eye(n)).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [1, 2, 6])
def test_sqrtm(device, dtype, n):
    cpu_only(device)
    a = spd_shift(n, dtype)
    close(el.sqrtm(E(a, device)), sl.sqrtm(a), dtype, 10)


def test_sqrtm_negative_eigenvalue_and_blocks(device):
    cpu_only(device)
    a = np.array([[1.0, 2.0], [3.0, 4.0]])  # an eigenvalue < 0: complex
    close(el.sqrtm(E(a, device)), sl.sqrtm(a), "float64")
    b = rand((70, 70), "float64") + 10 * np.eye(70)  # two blocks of 35
    close(el.sqrtm(E(b, device)), sl.sqrtm(b), "float64", 10)
    c = rand((2, 4, 4), "complex128") + 3 * np.eye(4)
    close(el.sqrtm(E(c, device)), sl.sqrtm(c), "complex128", 10)


@pytest.mark.parametrize("dtype", DTYPES)
def test_funm(device, dtype):
    cpu_only(device)
    a = spd_shift(6, dtype) / 3
    close(el.funm(E(a, device), ember.exp), sl.funm(a, np.exp), dtype, 10)
    f, err = el.funm(E(a, device), ember.exp, disp=False)
    try:
        _, serr = sl.funm(a, np.exp, disp=False)
    except TypeError:  # a SciPy without funm's disp
        serr = err
    assert err == pytest.approx(serr, rel=0.5, abs=1e-12)
    assert 0 < err <= 1


@pytest.mark.parametrize("dtype", DTYPES)
def test_signm(device, dtype):
    cpu_only(device)
    a = rand((6, 6), dtype)
    close(el.signm(E(a, device)), sl.signm(a), dtype, 10)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [1, 2, 6])
def test_logm(device, dtype, n):
    cpu_only(device)
    a = spd_shift(n, dtype)
    # SciPy's float32 Schur form is float32-accurate; the result float64
    close(el.logm(E(a, device)), sl.logm(a),
          "float32" if dtype in ("float32", "complex64") else dtype, 10)


def test_logm_negative_triangular_and_large(device):
    cpu_only(device)
    a = np.array([[-1.0, 2.0], [0.0, 3.0]])  # triangular, negative
    close(el.logm(E(a, device)), sl.logm(a), "complex128")
    b = rand((40, 40), "float64") / 10 + np.eye(40)
    close(el.logm(E(b, device)), sl.logm(b), "float64", 100)


def test_matfuncs_bad(device):
    cpu_only(device)
    with pytest.raises(LinAlgError, match="square"):
        el.sqrtm(E(rand((3, 4), "float64"), device))
    with pytest.raises(ValueError):
        el.logm(E(rand((3, 4), "float64"), device))
    with pytest.raises(ValueError):
        el.funm(E(rand((3, 4), "float64"), device), ember.exp)
    with pytest.raises(ValueError):
        el.signm(E(rand((3, 4), "float64"), device))


# ---- sylvester, lyapunov, riccati ----------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_solve_sylvester(device, dtype):
    cpu_only(device)
    a, b, q = rand((5, 5), dtype), rand((3, 3), dtype), rand((5, 3), dtype)
    close(el.solve_sylvester(E(a, device), E(b, device), E(q, device)),
          sl.solve_sylvester(a, b, q), dtype, 30)


@pytest.mark.parametrize("dtype", DTYPES)
def test_solve_continuous_lyapunov(device, dtype):
    cpu_only(device)
    a, q = rand((5, 5), dtype), rand((5, 5), dtype)
    want = sl.solve_continuous_lyapunov(a, q)
    close(el.solve_continuous_lyapunov(E(a, device), E(q, device)), want,
          dtype, 30)
    close(el.solve_lyapunov(E(a, device), E(q, device)), want, dtype, 30)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [4, 12])
def test_solve_discrete_lyapunov(device, dtype, n):
    a = rand((n, n), dtype) / (2 * np.sqrt(n))
    q = rand((n, n), dtype)
    want = sl.solve_discrete_lyapunov(a, q)
    if device != "cpu" and n >= 10:
        with pytest.raises(NotImplementedError, match="gees"):
            el.solve_discrete_lyapunov(E(a, device), E(q, device))
        got = el.solve_discrete_lyapunov(E(a, device), E(q, device),
                                         method="direct")
        close(got, sl.solve_discrete_lyapunov(a, q, method="direct"),
              "float64", 1e3)
        return
    tol = "float64" if dtype in ("float64", "complex128") else "float32"
    close(el.solve_discrete_lyapunov(E(a, device), E(q, device)), want, tol)


def test_solve_discrete_lyapunov_batch_and_bad(device):
    a = rand((2, 3, 3), "float64") / 3
    q = rand((2, 3, 3), "float64")
    close(el.solve_discrete_lyapunov(E(a, device), E(q, device)),
          sl.solve_discrete_lyapunov(a, q), "float64")
    with pytest.raises(ValueError, match="Unknown solver"):
        el.solve_discrete_lyapunov(E(a, device), E(q, device), method="x")
    with pytest.raises(ValueError):
        el.solve_discrete_lyapunov(E(rand((3, 4), "float64"), device),
                                   E(rand((3, 4), "float64"), device))


def are_inputs(dtype, m=4, k=2):
    a, b = rand((m, m), dtype), rand((m, k), dtype)
    q = np.eye(m, dtype=dtype)
    r = (2 * np.eye(k)).astype(dtype)
    e = (np.eye(m) + rand((m, m), dtype) / 10).astype(dtype)
    s = (rand((m, k), dtype) / 10).astype(dtype)
    return a, b, q, r, e, s


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("general", [False, True])
@pytest.mark.parametrize("balanced", [True, False])
def test_solve_are(device, dtype, general, balanced):
    cpu_only(device)
    a, b, q, r, e, s = are_inputs(dtype)
    args = (a, b, q, r) + ((e, s) if general else ())
    for mine, ref in ((el.solve_continuous_are, sl.solve_continuous_are),
                      (el.solve_discrete_are, sl.solve_discrete_are)):
        got = mine(*[E(x, device) for x in args], balanced=balanced)
        close(got, ref(*args, balanced=balanced), "float64", 1e3)


def test_solve_are_balancing_scales(device):
    cpu_only(device)
    a = np.array([[1e3, 1.0], [0.0, -1e-3]])
    b = np.array([[1.0], [1e-3]])
    q, r = np.diag([1e4, 1e-4]), np.array([[1.0]])
    for mine, ref in ((el.solve_continuous_are, sl.solve_continuous_are),
                      (el.solve_discrete_are, sl.solve_discrete_are)):
        close(mine(*[E(x, device) for x in (a, b, q, r)]), ref(a, b, q, r),
              "float64", 1e3)


def test_solvers_bad(device):
    cpu_only(device)
    a, b, q, r, e, s = are_inputs("float64")
    D = lambda x: E(x, device)  # noqa: E731
    with pytest.raises(ValueError, match="symmetric"):
        el.solve_continuous_are(D(a), D(b), D(a), D(r))
    with pytest.raises(ValueError, match="singular"):
        el.solve_continuous_are(D(a), D(b), D(q), D(np.zeros((2, 2))))
    with pytest.raises(ValueError, match="same number of rows"):
        el.solve_discrete_are(D(a), D(b[:3]), D(q), D(r))
    with pytest.raises(ValueError, match="square"):
        el.solve_continuous_lyapunov(D(b), D(b))
    with pytest.raises(ValueError, match="same shape"):
        el.solve_continuous_lyapunov(D(a), D(np.eye(3)))
    with pytest.raises(ValueError):
        el.solve_sylvester(D(a), D(r), D(q))


# ---- cuda: what cuSOLVER cannot do ---------------------------------------

def sym(x):
    """Exactly symmetric (a product's two triangles may differ on cuda)."""
    return (x @ x.T + (x @ x.T).T) / 2


CPU_ONLY_CALLS = {
    "schur": lambda a: el.schur(a),
    "hessenberg": lambda a: el.hessenberg(a),
    "qz": lambda a: el.qz(a, a),
    "ordqz": lambda a: el.ordqz(a, a),
    "ldl": lambda a: el.ldl(a + a.T),
    "sqrtm": lambda a: el.sqrtm(a),
    "logm": lambda a: el.logm(a),
    "funm": lambda a: el.funm(a, ember.exp),
    "signm": lambda a: el.signm(a),
    "solve_sylvester": lambda a: el.solve_sylvester(a, a, a),
    "solve_continuous_lyapunov": lambda a: el.solve_continuous_lyapunov(a, a),
    "solve_continuous_are": lambda a: el.solve_continuous_are(a, a, sym(a),
                                                              sym(a)),
    "solve_discrete_are": lambda a: el.solve_discrete_are(a, a, sym(a),
                                                          sym(a)),
}


@pytest.mark.parametrize("name", sorted(CPU_ONLY_CALLS))
def test_cuda_not_implemented(device, name):
    if device == "cpu":
        pytest.skip("the cuda answer")
    a = E(rand((4, 4), "float64") + 4 * np.eye(4), device)
    with pytest.raises(NotImplementedError, match="cpu device") as err:
        CPU_ONLY_CALLS[name](a)
    assert "cuSOLVER" in str(err.value)


# ---- SciPy's warnings and failures ----------------------------------------

def test_singular_and_failing_cases(device):
    cpu_only(device)
    D = lambda x: E(np.asarray(x, dtype=float), device)  # noqa: E731
    with pytest.warns(el.LinAlgWarning, match="singular"):
        got = el.sqrtm(D([[0, 1], [0, 0]]))
    np.testing.assert_array_equal(N(got), [[0, np.inf], [0, 0]])
    s = np.array([[1.0, 2.0], [2.0, 4.0]])
    with pytest.warns(el.LinAlgWarning, match="singular"):
        close(el.sqrtm(D(s)), sl.sqrtm(s), "float64")
    with pytest.warns(UserWarning, match="exactly singular"):
        got = el.logm(D(s))
    with pytest.warns(UserWarning):
        want = sl.logm(s)
    close(got, want, "float64", 1e3)
    with pytest.warns(RuntimeWarning, match="eigenvalue pair"):
        got = el.solve_continuous_lyapunov(D([[1, 0], [0, -1]]), D(np.eye(2)))
    np.testing.assert_allclose(N(got), [[0.5, 0], [0, -0.5]])
    b = D([[1], [0]])
    with pytest.raises(LinAlgError, match="finite solution"):
        el.solve_continuous_are(D(np.eye(2)), b, D(np.eye(2)), D([[1]]))
    with pytest.raises(LinAlgError, match="finite solution"):
        el.solve_discrete_are(D(2 * np.eye(2)), b, D(np.eye(2)), D([[1]]))


def test_matfuncs_batch_and_triangular(device):
    cpu_only(device)
    a = rand((2, 4, 4), "float64") + 3 * np.eye(4)
    close(el.logm(E(a, device)), sl.logm(a), "float64", 10)
    close(el.signm(E(a, device)), sl.signm(a), "float64", 10)
    t = np.array([[-4.0, 1.0], [0.0, 9.0]])  # triangular, negative: complex
    close(el.sqrtm(E(t, device)), sl.sqrtm(t), "float64")
    close(el.logm(E(t, device)), sl.logm(t), "float64")
    q = rand((2, 4, 3), "float64")
    b = rand((2, 3, 3), "float64")
    close(el.solve_sylvester(E(a, device), E(b, device), E(q, device)),
          sl.solve_sylvester(a, b, q), "float64", 30)
