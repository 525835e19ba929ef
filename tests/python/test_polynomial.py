"""NumPy's polynomial API on every device against NumPy: the legacy
functions and poly1d (ember.polyval, polyfit, roots, ...) and
ember.polynomial (polynomial, polyutils, the Polynomial class): values
with tolerances, dtypes, shapes, keywords, and NumPy's errors and
warnings."""
import warnings

import numpy as np
import numpy.polynomial.polynomial as NP
import numpy.polynomial.polyutils as NPU
import pytest

import ember
import ember.polynomial.polynomial as EP
import ember.polynomial.polyutils as EPU

RankWarning = np.exceptions.RankWarning


def E(a, device):
    return ember.asarray(np.asarray(a), device=device)


def close(got, want, device, rtol=1e-10, atol=1e-12):
    """got is an ember array on device with want's dtype, shape and values."""
    want = np.asarray(want)
    assert isinstance(got, ember.ndarray), type(got)
    assert got.device == ember.Device(device), (got.device, device)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(ember.asnumpy(got), want, rtol=rtol, atol=atol)


def _root_order(r):
    # real part rounded first: a GPU's eigensolver may give a pair +-i real
    # parts of opposite tiny signs, which an exact sort would swap
    r = np.asarray(r)
    return r[np.lexsort((r.imag, np.round(r.real, 6)))] if r.dtype.kind == "c" \
        else np.sort(r)


def close_roots(got, want, device, rtol=1e-8):
    """Roots as multisets: the dtype, then the values in one order."""
    want = np.asarray(want)
    assert got.device == ember.Device(device)
    g = ember.asnumpy(got)
    if g.dtype != want.dtype:
        # NumPy's roots are real only when every eigenvalue's imaginary part
        # is exactly 0, which rests on the eigensolver's rounding (the GPU
        # host's NumPy gave complex roots with 0j-looking parts where this
        # one gives real ones): a real and a complex answer agree when the
        # complex one's imaginary parts are rounding noise.
        assert {g.dtype.kind, want.dtype.kind} == {"f", "c"}, (g.dtype, want.dtype)
        assert np.finfo(g.dtype).bits == np.finfo(want.dtype).bits
        c = g if g.dtype.kind == "c" else want
        assert np.abs(c.imag).max() <= 1e-7 * max(1.0, np.abs(c).max()), c
        g, want = g.real, want.real
    assert g.shape == want.shape, (g.shape, want.shape)
    np.testing.assert_allclose(_root_order(g), _root_order(want), rtol=rtol, atol=1e-9)


RNG = np.random.default_rng(7)
P3 = np.array([2.0, -3.0, 0.5, 4.0])
XS = np.linspace(-2, 3, 11)


# ---- legacy: polyval --------------------------------------------------------

@pytest.mark.parametrize("pdt,xdt", [
    (np.float64, np.float64), (np.float32, np.float32), (np.int64, np.int64),
    (np.int32, np.float32), (np.float32, np.int64), (np.complex128, np.float64),
    (np.float64, np.complex64), (np.complex64, np.complex64), (np.int16, np.int8)])
def test_polyval_dtypes(device, pdt, xdt):
    p = (P3 * (1 + 1j if np.dtype(pdt).kind == "c" else 1)).astype(pdt)
    x = (XS * (1 - 0.5j if np.dtype(xdt).kind == "c" else 1)).astype(xdt)
    want = np.polyval(p, x)
    tol = 1e-5 if np.result_type(pdt, xdt) in (np.float32, np.complex64) else 1e-12
    close(ember.polyval(E(p, device), E(x, device)), want, device, rtol=tol,
          atol=tol)


def test_polyval_shapes_and_specials(device):
    x2 = XS.reshape(1, 11)[:, ::-1] * np.ones((3, 1))
    close(ember.polyval(E(P3, device), E(x2, device)), np.polyval(P3, x2), device)
    close(ember.polyval(E(P3, device), E(np.float64(1.5), device)),
          np.asarray(np.polyval(P3, 1.5)), device)
    # a list x goes to p's device; a 2-d p broadcasts its columns against x
    close(ember.polyval(E(P3, device), [1.0, 2.0]), np.polyval(P3, [1.0, 2.0]), device)
    p2 = RNG.standard_normal((4, 3))
    close(ember.polyval(E(p2, device), E(XS[:3], device)), np.polyval(p2, XS[:3]), device)
    # NumPy's loop starts at 0 * x: an infinite x gives NaN, not inf
    with np.errstate(invalid="ignore"):
        want = np.polyval([1.0, 2.0], np.array([np.inf, -1.0]))
    close(ember.polyval(E([1.0, 2.0], device), E([np.inf, -1.0], device)), want, device)
    close(ember.polyval(E(np.zeros(0), device), E(XS, device)), np.zeros_like(XS), device)
    with pytest.raises(TypeError):
        np.polyval(np.float64(2.0), XS)
    with pytest.raises(TypeError):
        ember.polyval(E(np.float64(2.0), device), E(XS, device))


def test_polyval_poly1d(device):
    p = ember.poly1d(E([1.0, 2.0, 3.0], device))
    q = ember.poly1d(E([2.0, -1.0], device))
    got = ember.polyval(p, q)
    want = np.polyval(np.poly1d([1.0, 2.0, 3.0]), np.poly1d([2.0, -1.0]))
    assert isinstance(got, ember.poly1d)
    close(got.coeffs, want.coeffs, device)
    close(ember.polyval(p, E(XS, device)), np.polyval([1.0, 2.0, 3.0], XS), device)


# ---- legacy: arithmetic and calculus ----------------------------------------

@pytest.mark.parametrize("a,b", [([1.0, 2.0, 3.0], [4.0, 5.0]), ([1, 2], [3, 4, 5, 6]),
                                 ([0.0, 0.0, 1.0, 2.0], [1.0, 1j]), ([3.0], [2.0])])
def test_polyadd_sub_mul(device, a, b):
    for name in ("polyadd", "polysub", "polymul"):
        got = getattr(ember, name)(E(a, device), E(b, device))
        close(got, getattr(np, name)(np.asarray(a), np.asarray(b)), device)
    got = ember.polyadd(ember.poly1d(E(a, device)), E(b, device))
    assert isinstance(got, ember.poly1d)
    close(got.coeffs, np.polyadd(np.poly1d(a), b).coeffs, device)


@pytest.mark.parametrize("u,v", [([1.0, 2.0, 3.0, 4.0, 5.0], [2.0, 1.0]),
                                 ([3.0, 5.0, 2.0], [1.0, 2.0, 1.0, 7.0]),
                                 ([1.0, -6.0, 11.0, -6.0], [1.0, -1.0]),
                                 ([4, 2, 7, 1, 3], [2, 0, 1]),
                                 ([1.0 + 1j, 2.0, 3.0], [1j, 1.0]),
                                 ([2.0, 4.0], [2.0])])
def test_polydiv(device, u, v):
    q, r = ember.polydiv(E(u, device), E(v, device))
    wq, wr = np.polydiv(np.asarray(u), np.asarray(v))
    close(q, wq, device)
    close(r, wr, device)
    q, r = ember.poly1d(E(u, device)) / ember.poly1d(E(v, device))
    assert isinstance(q, ember.poly1d) and isinstance(r, ember.poly1d)
    close(q.coeffs, wq, device)


def test_polydiv_float32(device):
    u = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
    v = np.array([2.0, 1.0], np.float32)
    q, r = ember.polydiv(E(u, device), E(v, device))
    wq, wr = np.polydiv(u, v)
    close(q, wq, device, rtol=1e-6)
    close(r, wr, device, rtol=1e-6)


def test_polydiv_zero_leading(device):
    # NumPy divides by the zero and returns inf/NaN; ember refuses
    with pytest.raises(ZeroDivisionError):
        ember.polydiv(E([1.0, 2.0], device), E([0.0, 1.0], device))


@pytest.mark.parametrize("p", [[1, 2, 3, 4], [2.0, -1.5, 0.25], [1j, 2.0], [5.0]])
@pytest.mark.parametrize("m", [0, 1, 2, 4])
def test_polyder_polyint(device, p, m):
    close(ember.polyder(E(p, device), m), np.polyder(np.asarray(p), m), device)
    close(ember.polyint(E(p, device), m), np.polyint(np.asarray(p), m), device)
    if m:
        k = list(range(1, m + 1))
        close(ember.polyint(E(p, device), m, k), np.polyint(np.asarray(p), m, k), device)
        close(ember.polyint(E(p, device), m, 3.0), np.polyint(np.asarray(p), m, 3.0),
              device)


def test_polyder_polyint_errors(device):
    p = E([1.0, 2.0], device)
    with pytest.raises(ValueError, match="Order of derivative"):
        ember.polyder(p, -1)
    with pytest.raises(ValueError, match="Order of integral"):
        ember.polyint(p, -1)
    with pytest.raises(ValueError, match="k must be a scalar"):
        ember.polyint(p, 3, [1.0, 2.0])


# ---- legacy: poly and roots -------------------------------------------------

@pytest.mark.parametrize("z", [[1.0, 2.0, 3.0], [1j, -1j, 2.0], [1 + 2j, 3.0],
                               [2, 2, -1, 0, 5], np.arange(1.0, 12.0),
                               np.array([0.5, -0.25], np.float32)])
def test_poly(device, z):
    want = np.poly(np.asarray(z))
    got = ember.poly(E(z, device))
    close(got, want, device, rtol=1e-5 if want.dtype == np.float32 else 1e-9,
          atol=1e-6)


def test_poly_matrix_and_errors(device):
    # a matrix's eigenvalues as roots: real ones and a conjugate pair
    for a in ([[1.0, 2.0], [3.0, 4.0]], [[0.0, -1.0], [1.0, 0.0]],
              [[1.0, 1j], [0.0, 2.0]]):
        close(ember.poly(E(a, device)), np.poly(np.asarray(a)), device, atol=1e-9)
    assert ember.poly(E(np.zeros(0), device)) == 1.0 == np.poly([])
    with pytest.raises(ValueError, match="1d or non-empty square 2d"):
        ember.poly(E(np.ones((2, 3)), device))
    with pytest.raises(ValueError, match="1d or non-empty square 2d"):
        np.poly(np.ones((2, 3)))


@pytest.mark.parametrize("p", [[1.0, -3.0, 2.0], [1.0, 0.0, 1.0], [1, -6, 11, -6],
                               [0.0, 0.0, 2.0, -4.0, 0.0, 0.0], [1j, 2.0, 1.0],
                               [3.0], [0.0, 5.0, 0.0], [2.0, 3.0, 4.0, 5.0, 6.0, 7.0],
                               np.array([1.0, -1.0, -2.0], np.float32)])
def test_roots(device, p):
    want = np.roots(np.asarray(p))
    got = ember.roots(E(p, device))
    close_roots(got, want, device, rtol=1e-5 if want.dtype.itemsize <= 8
                and want.dtype != np.float64 else 1e-8)


def test_roots_edges(device):
    close(ember.roots(E([0.0, 0.0], device)), np.roots([0.0, 0.0]), device)
    with pytest.raises(ValueError, match="rank-1"):
        ember.roots(E(np.ones((2, 2)), device))
    with pytest.raises(ValueError, match="rank-1"):
        np.roots(np.ones((2, 2)))


# ---- legacy: polyfit ----------------------------------------------------------

X = np.linspace(0.0, 2.0, 25)
Y = 1.0 + 0.5 * X - 2.0 * X ** 2 + 0.1 * np.sin(7 * X)
Y2 = np.stack([Y, np.cos(X)], axis=1)
W = np.linspace(1.0, 2.0, 25)


@pytest.mark.parametrize("deg", [0, 1, 2, 5])
def test_polyfit(device, deg):
    close(ember.polyfit(E(X, device), E(Y, device), deg), np.polyfit(X, Y, deg),
          device, rtol=1e-7, atol=1e-9)
    close(ember.polyfit(E(X, device), E(Y2, device), deg, w=E(W, device)),
          np.polyfit(X, Y2, deg, w=W), device, rtol=1e-7, atol=1e-9)


def test_polyfit_full_cov(device):
    got = ember.polyfit(E(X, device), E(Y, device), 3, full=True)
    want = np.polyfit(X, Y, 3, full=True)
    for g, w in zip(got[:2], want[:2]):
        close(g, w, device, rtol=1e-7, atol=1e-9)
    assert got[2] == want[2] and got[4] == pytest.approx(want[4])
    close(got[3], want[3], device, rtol=1e-7)
    for cov in (True, "unscaled"):
        c, v = ember.polyfit(E(X, device), E(Y, device), 2, cov=cov)
        wc, wv = np.polyfit(X, Y, 2, cov=cov)
        close(c, wc, device, rtol=1e-7, atol=1e-9)
        close(v, wv, device, rtol=1e-6, atol=1e-12)
    c, v = ember.polyfit(E(X, device), E(Y2, device), 2, cov=True)
    close(v, np.polyfit(X, Y2, 2, cov=True)[1], device, rtol=1e-6, atol=1e-12)


def test_polyfit_float32_and_rcond(device):
    x, y = X.astype(np.float32), Y.astype(np.float32)
    close(ember.polyfit(E(x, device), E(y, device), 2), np.polyfit(x, y, 2), device,
          rtol=1e-3, atol=1e-3)
    close(ember.polyfit(E(X, device), E(Y, device), 2, rcond=1e-3),
          np.polyfit(X, Y, 2, rcond=1e-3), device, rtol=1e-7, atol=1e-9)


def test_polyfit_rank_warning(device):
    with pytest.warns(RankWarning, match="Polyfit may be poorly conditioned"):
        np.polyfit([1.0, 2.0], [1.0, 2.0], 3)
    with pytest.warns(RankWarning, match="Polyfit may be poorly conditioned"):
        ember.polyfit(E([1.0, 2.0], device), E([1.0, 2.0], device), 3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ember.polyfit(E([1.0, 2.0], device), E([1.0, 2.0], device), 3, full=True)


@pytest.mark.parametrize("args,kw,exc,msg", [
    ((X, Y, -1), {}, ValueError, "expected deg >= 0"),
    ((X.reshape(5, 5), Y, 1), {}, TypeError, "expected 1D vector for x"),
    ((np.zeros(0), np.zeros(0), 1), {}, TypeError, "non-empty vector"),
    ((X, np.zeros((25, 2, 2)), 1), {}, TypeError, "1D or 2D array for y"),
    ((X, Y[:5], 1), {}, TypeError, "same length"),
    ((X, Y, 1), {"w": np.ones((25, 1))}, TypeError, "1-d array for weights"),
    ((X, Y, 1), {"w": np.ones(3)}, TypeError, "w and y to have the same length"),
    ((X[:3], Y[:3], 2), {"cov": True}, ValueError, "must exceed order"),
])
def test_polyfit_errors(device, args, kw, exc, msg):
    with pytest.raises(exc, match=msg), warnings.catch_warnings():
        warnings.simplefilter("ignore", RankWarning)
        np.polyfit(*args, **kw)
    ekw = {k: E(v, device) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
    with pytest.raises(exc, match=msg), warnings.catch_warnings():
        warnings.simplefilter("ignore", RankWarning)
        ember.polyfit(E(args[0], device), E(args[1], device), args[2], **ekw)


# ---- poly1d -------------------------------------------------------------------

@pytest.mark.parametrize("c", [[1, 2, 3], [0.0, 0.0, 1.5, -2.0, 0.25], [0.0],
                               [1.0, 0.0, -1.0], [1e-5, 123456.0, 3.0],
                               [1j, 2.0, 1 + 1j], [-1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                   0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7]])
def test_poly1d_text_and_attributes(device, c):
    p, q = ember.poly1d(E(c, device)), np.poly1d(c)
    assert repr(p) == repr(q)
    assert str(p) == str(q)
    close(p.coeffs, q.coeffs, device)
    for name in ("c", "coef", "coefficients"):
        close(getattr(p, name), q.coeffs, device)
    assert p.order == q.order == p.o == len(p)
    assert p.variable == "x"
    v = ember.poly1d(E(c, device), variable="z")
    assert str(v) == str(np.poly1d(c, variable="z"))


def test_poly1d_arithmetic(device):
    a, b = [1.0, 2.0, 3.0], [2.0, -1.0]
    p, q = ember.poly1d(E(a, device)), ember.poly1d(E(b, device))
    P, Q = np.poly1d(a), np.poly1d(b)
    for got, want in [(p + q, P + Q), (p - q, P - Q), (p * q, P * Q), (-p, -P),
                      (p * 2, P * 2), (2 * p, 2 * P), (p + [1.0], P + [1.0]),
                      ([1.0, 1.0] - p, [1.0, 1.0] - P), (p ** 3, P ** 3),
                      (p ** 0, P ** 0), (p / 2, P / 2), (p.deriv(), P.deriv()),
                      (p.deriv(2), P.deriv(2)), (p.integ(), P.integ()),
                      (p.integ(2, k=[1.0, 2.0]), P.integ(2, k=[1.0, 2.0])),
                      (+p, +P)]:
        assert isinstance(got, ember.poly1d)
        close(got.coeffs, want.coeffs, device)
    quo, rem = p / q
    wq, wr = P / Q
    close(quo.coeffs, wq.coeffs, device)
    close(rem.coeffs, wr.coeffs, device)
    close(p(E(XS, device)), P(XS), device)
    close_roots(p.roots, P.roots, device)
    close_roots(ember.poly1d(E([1.0, 2.0], device), r=True).coeffs,
                np.poly1d([1.0, 2.0], r=True).coeffs, device)
    assert p == ember.poly1d(E(a, device)) and p != q and not (p == q)
    with pytest.raises(ValueError, match="non-negative integers"):
        p ** -1
    with pytest.raises(ValueError, match="non-negative integers"):
        P ** -1
    with pytest.raises(ValueError, match="1d only"):
        ember.poly1d(E(np.ones((2, 2)), device))


def test_poly1d_items(device):
    p, P = ember.poly1d(E([1.0, 2.0, 3.0], device)), np.poly1d([1.0, 2.0, 3.0])
    for k in (0, 1, 2, 5, -1):
        assert float(p[k]) == float(P[k])
    p[4] = 7.0
    P[4] = 7.0
    close(p.coeffs, P.coeffs, device)
    p[0] = -1.0
    P[0] = -1.0
    close(p.coeffs, P.coeffs, device)
    with pytest.raises(ValueError, match="negative powers"):
        p[-1] = 2.0
    with pytest.raises(AttributeError):
        p.coeffs = E([1.0], device)
    assert np.asarray(p).tolist() == np.asarray(P).tolist()


# ---- ember.polynomial.polynomial ----------------------------------------------

C = np.array([1.0, -2.0, 0.5, 3.0])


@pytest.mark.parametrize("cdt", [np.float64, np.float32, np.int64, np.complex128, np.bool_])
def test_polyval_series(device, cdt):
    c = (C * (1 + 2j if np.dtype(cdt).kind == "c" else 1)).astype(cdt)
    close(EP.polyval(E(XS, device), E(c, device)), NP.polyval(XS, c), device,
          rtol=1e-5 if cdt == np.float32 else 1e-12)
    # a Python scalar x is weak: float32 coefficients give float32
    got = EP.polyval(1.5, E(c, device))
    want = np.asarray(NP.polyval(1.5, c))
    close(got, want, device, rtol=1e-6)
    close(EP.polyval([1.0, 2.0], E(c, device)), NP.polyval([1.0, 2.0], c), device,
          rtol=1e-6)


def test_polyval_tensor(device):
    c = RNG.standard_normal((4, 2, 3))
    x = RNG.standard_normal((2, 3))
    close(EP.polyval(E(x, device), E(c, device)), NP.polyval(x, c), device)
    close(EP.polyval(E(x, device), E(c, device), tensor=False),
          NP.polyval(x, c, tensor=False), device)
    close(EP.polyvalfromroots(E(x, device), E(c, device)), NP.polyvalfromroots(x, c),
          device)
    close(EP.polyvalfromroots(E(x[0, :], device), E(c, device), tensor=False),
          NP.polyvalfromroots(x[0, :], c, tensor=False), device)
    with pytest.raises(ValueError, match="x.ndim must be < r.ndim"):
        EP.polyvalfromroots(E(x, device), E(c[:, 0], device), tensor=False)
    c2 = RNG.standard_normal((3, 4))
    xs, ys = RNG.standard_normal(5), RNG.standard_normal(5)
    close(EP.polyval2d(E(xs, device), E(ys, device), E(c2, device)),
          NP.polyval2d(xs, ys, c2), device)
    close(EP.polygrid2d(E(xs, device), E(ys[:3], device), E(c2, device)),
          NP.polygrid2d(xs, ys[:3], c2), device)
    with pytest.raises(ValueError, match="x, y are incompatible"):
        EP.polyval2d(E(xs, device), E(ys[:3], device), E(c2, device))


@pytest.mark.parametrize("a,b", [([1.0, 2.0, 3.0], [0.0, 1.0]), ([1, 2], [3, 4, 5, 0, 0]),
                                 ([1.0, 2.0], [1.0, 2.0]), ([1j, 2.0], [3.0]),
                                 ([5.0, 1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0]),
                                 (np.float32([1, 2, 3]), np.float32([2, 1]))])
def test_series_arithmetic(device, a, b):
    tol = 1e-5 if np.asarray(a).dtype == np.float32 else 1e-10
    for name in ("polyadd", "polysub", "polymul"):
        close(getattr(EP, name)(E(a, device), E(b, device)),
              getattr(NP, name)(a, b), device, rtol=tol)
    q, r = EP.polydiv(E(a, device), E(b, device))
    wq, wr = NP.polydiv(a, b)
    close(q, wq, device, rtol=tol, atol=tol)
    close(r, wr, device, rtol=tol, atol=tol)
    close(EP.polymulx(E(a, device)), NP.polymulx(a), device)
    for n in (0, 1, 2, 5):
        close(EP.polypow(E(a, device), n), NP.polypow(a, n), device, rtol=tol)


def test_series_arithmetic_errors(device):
    with pytest.raises(ZeroDivisionError):
        EP.polydiv(E([1.0, 2.0], device), E([0.0], device))
    with pytest.raises(ValueError, match="non-negative integer"):
        EP.polypow(E([1.0, 2.0], device), -1)
    with pytest.raises(ValueError, match="Power is too large"):
        EP.polypow(E([1.0, 2.0], device), 5, maxpower=4)
    with pytest.raises(ValueError, match="no common type"):
        EP.polyadd(E([True, False], device), E([1.0], device))


@pytest.mark.parametrize("m", [0, 1, 2, 5])
def test_series_calculus(device, m):
    c = RNG.standard_normal((4, 3))
    for kw in ({}, {"scl": 2.0}, {"axis": 1}):
        close(EP.polyder(E(c, device), m, **kw), NP.polyder(c, m, **kw), device)
    for kw in ({}, {"k": [1.0] * m}, {"lbnd": 0.5, "scl": -1.5}, {"axis": 1}):
        close(EP.polyint(E(c, device), m, **kw), NP.polyint(c, m, **kw), device)
    close(EP.polyint(E([0.0], device), m, k=list(range(m))),
          NP.polyint([0.0], m, k=list(range(m))), device)
    close(EP.polyder(E([1, 2, 3], device), m), NP.polyder([1, 2, 3], m), device)
    f32 = np.float32([1, 2, 3])
    close(EP.polyint(E(f32, device), m), NP.polyint(f32, m), device, rtol=1e-6)


def test_series_calculus_errors(device):
    c = E([1.0, 2.0], device)
    with pytest.raises(ValueError, match="order of derivation"):
        EP.polyder(c, -1)
    with pytest.raises(TypeError, match="the order of derivation must be an integer"):
        EP.polyder(c, 1.5)
    with pytest.raises(ValueError, match="order of integration"):
        EP.polyint(c, -1)
    with pytest.raises(ValueError, match="Too many integration constants"):
        EP.polyint(c, 1, k=[1, 2])
    with pytest.raises(ValueError, match="lbnd must be a scalar"):
        EP.polyint(c, 1, lbnd=[1, 2])
    with pytest.raises(ember.AxisError):
        EP.polyder(c, 1, axis=2)


def test_vander(device):
    x = RNG.standard_normal((2, 3))
    for deg in (0, 1, 4):
        close(EP.polyvander(E(x, device), deg), NP.polyvander(x, deg), device)
    close(EP.polyvander(E([1, 2, 3], device), 2), NP.polyvander([1, 2, 3], 2), device)
    xs, ys, zs = RNG.standard_normal((3, 4))
    close(EP.polyvander2d(E(xs, device), E(ys, device), [2, 3]),
          NP.polyvander2d(xs, ys, [2, 3]), device)
    close(EP.polyvander3d(E(xs, device), E(ys, device), E(zs, device), [1, 2, 1]),
          NP.polyvander3d(xs, ys, zs, [1, 2, 1]), device)
    with pytest.raises(ValueError, match="deg must be non-negative"):
        EP.polyvander(E(xs, device), -1)


@pytest.mark.parametrize("deg", [3, [0, 2, 3], np.array([1, 3])])
def test_series_fit(device, deg):
    close(EP.polyfit(E(X, device), E(Y, device), deg), NP.polyfit(X, Y, deg), device,
          rtol=1e-7, atol=1e-9)
    close(EP.polyfit(E(X, device), E(Y2, device), deg, w=E(W, device)),
          NP.polyfit(X, Y2, deg, w=W), device, rtol=1e-7, atol=1e-9)
    c, (res, rank, s, rcond) = EP.polyfit(E(X, device), E(Y, device), deg, full=True)
    wc, (wres, wrank, ws, wrcond) = NP.polyfit(X, Y, deg, full=True)
    close(res, wres, device, rtol=1e-6)
    close(s, ws, device, rtol=1e-8)
    assert rank == wrank and rcond == pytest.approx(wrcond)


def test_series_fit_errors(device):
    with pytest.warns(RankWarning, match="The fit may be poorly conditioned"):
        EP.polyfit(E([1.0, 2.0], device), E([1.0, 2.0], device), 3)
    for deg, exc in ([1.5, TypeError], [[], TypeError], [-1, ValueError],
                     [True, TypeError]):
        with pytest.raises(exc):
            NP.polyfit(X, Y, deg)
        with pytest.raises(exc):
            EP.polyfit(E(X, device), E(Y, device), deg)
    with pytest.raises(TypeError, match="expected x and w to have same length"):
        EP.polyfit(E(X, device), E(Y, device), 2, w=E(W[:3], device))


@pytest.mark.parametrize("c", [[-6.0, 11.0, -6.0, 1.0], [1.0, 0.0, 1.0], [2.0, 4.0],
                               [3.0], [1.0, 2.0, 3.0, 4.0, 5.0], [1j, 0.0, 2.0],
                               np.float32([2, -3, 1])])
def test_series_roots(device, c):
    got, want = EP.polyroots(E(c, device)), NP.polyroots(c)
    close_roots(got, want, device, rtol=1e-5 if want.dtype.itemsize <= 8 and
                want.dtype != np.float64 else 1e-8)
    if len(c) >= 2:
        close(EP.polycompanion(E(c, device)), NP.polycompanion(c), device, rtol=1e-6)


def test_fromroots_line_trim(device):
    for r in ([1.0, 2.0, 3.0], [1j, -1j, 0.5], [2, 2], np.linspace(-1, 1, 9), []):
        close(EP.polyfromroots(E(r, device)), NP.polyfromroots(r), device, rtol=1e-9,
              atol=1e-12)
    close(EP.polyline(E(np.float64(3.0), device), E(np.float64(2.0), device)),
          NP.polyline(3.0, 2.0), device)
    close(EP.polyline(E(np.float64(3.0), device), E(np.float64(0.0), device)),
          NP.polyline(3.0, 0.0), device)
    close(EP.polytrim(E([1.0, 1e-3, 1e-5, 0.0], device), 1e-4),
          NP.polytrim([1.0, 1e-3, 1e-5, 0.0], 1e-4), device)
    with pytest.raises(ValueError, match="maximum degree of at least 1"):
        EP.polycompanion(E([1.0], device))
    for name in ("polyzero", "polyone", "polyx", "polydomain"):
        assert ember.asnumpy(getattr(EP, name)).tolist() == getattr(NP, name).tolist()
        assert getattr(EP, name).dtype == getattr(NP, name).dtype
    # host constants (importing the module starts no device) that go to
    # the other operand's device
    close(EP.polyadd(EP.polyx, E([1.0, 2.0, 3.0], device)),
          NP.polyadd(NP.polyx, [1.0, 2.0, 3.0]), device)
    close(EL.legmul(EL.legx, E([1.0, 2.0], device)), NL.legmul(NL.legx, [1.0, 2.0]), device)


# ---- polyutils ----------------------------------------------------------------

def test_polyutils(device):
    got = EPU.as_series([E([1, 2, 0], device), E([1.0, 0.0, 0.0], device)])
    want = NPU.as_series([[1, 2, 0], [1.0, 0.0, 0.0]])
    for g, w in zip(got, want):
        close(g, w, device)
    got = EPU.as_series([E(np.float32([1, 0]), device), E([2j], device)], trim=False)
    want = NPU.as_series([np.float32([1, 0]), [2j]], trim=False)
    for g, w in zip(got, want):
        close(g, w, device)
    for bad, msg in ((np.zeros(0), "empty"), (np.ones((2, 2)), "not 1-d"),
                     (np.array([True]), "no common type")):
        with pytest.raises(ValueError, match=msg):
            NPU.as_series([bad])
        with pytest.raises(ValueError, match=msg):
            EPU.as_series([E(bad, device)])
    close(EPU.trimseq(E([1.0, 0.0, 2.0, 0.0, 0.0], device)),
          NPU.trimseq(np.array([1.0, 0.0, 2.0, 0.0, 0.0])), device)
    close(EPU.trimseq(E([0.0, 0.0], device)), NPU.trimseq(np.array([0.0, 0.0])), device)
    close(EPU.trimcoef(E([0.0, 1e-3, 0.0], device), 1e-2),
          NPU.trimcoef([0.0, 1e-3, 0.0], 1e-2), device)
    with pytest.raises(ValueError, match="tol must be non-negative"):
        EPU.trimcoef(E([1.0], device), -1)
    close(EPU.getdomain(E([3.0, -1.0, 2.0], device)), NPU.getdomain([3.0, -1.0, 2.0]),
          device)
    close(EPU.getdomain(E([1 + 2j, -1 - 1j, 3.0], device)),
          NPU.getdomain([1 + 2j, -1 - 1j, 3.0]), device)
    old, new = E([0.0, 4.0], device), E([-1.0, 1.0], device)
    off, scl = EPU.mapparms(old, new)
    woff, wscl = NPU.mapparms([0.0, 4.0], [-1.0, 1.0])
    assert float(off) == woff and float(scl) == wscl
    close(EPU.mapdomain(E(XS, device), old, new),
          NPU.mapdomain(XS, [0.0, 4.0], [-1.0, 1.0]), device)


# ---- Polynomial ---------------------------------------------------------------

def test_polynomial_text(device):
    for coef, dom in (([1.0, 2.0, 3.0], None), ([1, -2, 0, 4], [0, 4]),
                      ([1e-9, 2.5e9, -3.0], [1, 3]), ([1j, 2.0], None)):
        p = ember.polynomial.Polynomial(E(coef, device), domain=dom)
        q = np.polynomial.Polynomial(coef, domain=dom)
        assert repr(p) == repr(q)
        assert str(p) == str(q)
        assert format(p, "ascii") == format(q, "ascii")
        assert format(p, "unicode") == format(q, "unicode")
    with pytest.raises(ValueError, match="Unsupported format string"):
        format(p, "latex")
    long = np.arange(1.0, 30.0)
    assert str(ember.polynomial.Polynomial(E(long, device))) == str(
        np.polynomial.Polynomial(long))


def _same_series(p, q, device, rtol=1e-9):
    assert type(p).__name__ == type(q).__name__
    close(p.coef, q.coef, device, rtol=rtol, atol=1e-10)
    close(p.domain, q.domain, device)
    close(p.window, q.window, device)
    assert p.symbol == q.symbol


def test_polynomial_class(device):
    P, NPoly = ember.polynomial.Polynomial, np.polynomial.Polynomial
    a, b = [1.0, 2.0, 3.0], [-1.0, 1.0]
    p, q = P(E(a, device), domain=[0, 2]), P(E(b, device), domain=[0, 2])
    np_, nq = NPoly(a, domain=[0, 2]), NPoly(b, domain=[0, 2])
    with ember.Device(device):   # made from no array: on the current device
        ident, basis = P.identity(domain=[1, 3]), P.basis(3, window=[0, 1])
    for got, want in [(p + q, np_ + nq), (p - q, np_ - nq), (p * q, np_ * nq),
                      (p + 2.0, np_ + 2.0), (2.0 - p, 2.0 - np_), (3 * p, 3 * np_),
                      (p // q, np_ // nq), (p % q, np_ % nq), (p / 2, np_ / 2),
                      (p ** 3, np_ ** 3), (-p, -np_), (p.deriv(2), np_.deriv(2)),
                      (p.integ(2, k=[1, 2], lbnd=1), np_.integ(2, k=[1, 2], lbnd=1)),
                      (p.convert(), np_.convert()), (p.trim(2.5), np_.trim(2.5)),
                      (p.truncate(2), np_.truncate(2)), (p.cutdeg(1), np_.cutdeg(1)),
                      (p.copy(), np_.copy()),
                      (ident, NPoly.identity(domain=[1, 3])),
                      (basis, NPoly.basis(3, window=[0, 1])),
                      (P.cast(p), NPoly.cast(np_))]:
        _same_series(got, want, device)
    assert p.degree() == 2 and len(p) == 3
    close(p(E(XS, device)), np_(XS), device)
    close(p(1.5), np.asarray(np_(1.5)), device)
    close_roots(p.roots(), np_.roots(), device)
    x, y = p.linspace(5)
    wx, wy = np_.linspace(5)
    close(x, wx, device)
    close(y, wy, device)
    assert p == P(E(a, device), domain=[0, 2]) and p != q
    assert divmod(p, q)[0] == p // q


def test_polynomial_fit(device):
    P, NPoly = ember.polynomial.Polynomial, np.polynomial.Polynomial
    for kw in ({}, {"domain": [-1, 3]}, {"window": [0, 1]}, {"domain": []},
               {"w": W}, {"deg": [0, 2, 3]}):
        kw = dict(kw)
        deg = kw.pop("deg", 3)
        ekw = {k: E(v, device) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
        got = P.fit(E(X, device), E(Y, device), deg, **ekw)
        want = NPoly.fit(X, Y, deg, **kw)
        _same_series(got, want, device, rtol=1e-7)
        close(got(E(X, device)), want(X), device, rtol=1e-8)
    got, status = P.fit(E(X, device), E(Y, device), 2, full=True)
    want, wstatus = NPoly.fit(X, Y, 2, full=True)
    _same_series(got, want, device, rtol=1e-7)
    assert status[1] == wstatus[1]
    # one distinct x: NumPy widens the domain by 1 each way
    _same_series(P.fit(E([2.0, 2.0, 2.0], device), E([1.0, 2.0, 3.0], device), 0),
                 NPoly.fit([2.0, 2.0, 2.0], [1.0, 2.0, 3.0], 0), device)
    got = P.fromroots(E([1.0, 2.0, 5.0], device), domain=[0, 5])
    _same_series(got, NPoly.fromroots([1.0, 2.0, 5.0], domain=[0, 5]), device)


def test_polynomial_errors(device):
    P = ember.polynomial.Polynomial
    with pytest.raises(ValueError, match="Domain has wrong number of elements"):
        P(E([1.0], device), domain=[0, 1, 2])
    with pytest.raises(ValueError, match="Window has wrong number of elements"):
        P(E([1.0], device), window=[0])
    with pytest.raises(ValueError, match="valid Python identifier"):
        P(E([1.0], device), symbol="1x")
    with pytest.raises(TypeError, match="non-empty string"):
        P(E([1.0], device), symbol=3)
    with pytest.raises(TypeError, match="Domains differ"):
        P(E([1.0], device)) + P(E([1.0], device), domain=[0, 1])
    with pytest.raises(TypeError, match="Windows differ"):
        P(E([1.0], device)) + P(E([1.0], device), window=[0, 1])
    with pytest.raises(ValueError, match="symbols differ"):
        P(E([1.0], device)) + P(E([1.0], device), symbol="y")
    with pytest.raises(TypeError, match="unsupported types for true division"):
        P(E([1.0], device)) / P(E([1.0], device))
    with pytest.raises(ZeroDivisionError):
        P(E([1.0], device)) // P(E([0.0], device))
    with pytest.raises(ValueError, match="deg must be non-negative"):
        P.basis(-1)


# ---- Chebyshev, Legendre, Hermite, HermiteE and Laguerre -------------------------

import numpy.polynomial.chebyshev as NC  # noqa: E402
import numpy.polynomial.legendre as NL  # noqa: E402
import numpy.polynomial.hermite as NH  # noqa: E402
import numpy.polynomial.hermite_e as NHE  # noqa: E402
import numpy.polynomial.laguerre as NLA  # noqa: E402
import ember.polynomial.chebyshev as EC  # noqa: E402
import ember.polynomial.legendre as EL  # noqa: E402
import ember.polynomial.hermite as EH  # noqa: E402
import ember.polynomial.hermite_e as EHE  # noqa: E402
import ember.polynomial.laguerre as ELA  # noqa: E402

BASES = [pytest.param((EC, NC, "cheb", ember.polynomial.Chebyshev,
                       np.polynomial.Chebyshev), id="chebyshev"),
         pytest.param((EL, NL, "leg", ember.polynomial.Legendre,
                       np.polynomial.Legendre), id="legendre"),
         pytest.param((EH, NH, "herm", ember.polynomial.Hermite,
                       np.polynomial.Hermite), id="hermite"),
         pytest.param((EHE, NHE, "herme", ember.polynomial.HermiteE,
                       np.polynomial.HermiteE), id="hermite_e"),
         pytest.param((ELA, NLA, "lag", ember.polynomial.Laguerre,
                       np.polynomial.Laguerre), id="laguerre")]


@pytest.mark.parametrize("basis", BASES)
def test_ortho_eval_vander(device, basis):
    em, nm, p = basis[:3]
    rng = np.random.default_rng(11)
    c, x = rng.standard_normal(7), np.linspace(-1.5, 1.5, 9)
    val, nval = getattr(em, p + "val"), getattr(nm, p + "val")
    close(val(E(x, device), E(c, device)), nval(x, c), device)
    close(val(E(x + 0.5j, device), E(c - 1j, device)), nval(x + 0.5j, c - 1j), device)
    close(val(E(x, device), E(c[:1], device)), nval(x, c[:1]), device)
    close(val(E(x, device), E([1, 2, 3], device)), nval(x, [1, 2, 3]), device)
    c32 = c.astype(np.float32)
    close(val(1.5, E(c32, device)), np.asarray(nval(1.5, c32)), device, rtol=1e-5)
    cc = rng.standard_normal((5, 2, 3))
    close(val(E(x[:4], device), E(cc, device)), nval(x[:4], cc), device)
    xx = rng.standard_normal((2, 3))
    close(val(E(xx, device), E(cc, device), tensor=False), nval(xx, cc, tensor=False),
          device)
    for deg in (0, 1, 5):
        close(getattr(em, p + "vander")(E(x, device), deg),
              getattr(nm, p + "vander")(x, deg), device)
    close(getattr(em, p + "vander2d")(E(x, device), E(x, device), [2, 3]),
          getattr(nm, p + "vander2d")(x, x, [2, 3]), device)
    close(getattr(em, p + "val2d")(E(x, device), E(x, device), E(cc[:, :, 0], device)),
          getattr(nm, p + "val2d")(x, x, cc[:, :, 0]), device)
    close(getattr(em, p + "grid2d")(E(x[:2], device), E(x, device), E(cc[:, :, 0], device)),
          getattr(nm, p + "grid2d")(x[:2], x, cc[:, :, 0]), device)


@pytest.mark.parametrize("basis", BASES)
@pytest.mark.parametrize("a,b", [([1.0, 2.0, 3.0, -1.0, 0.5, 2.0], [0.5, -1.0, 2.0]),
                                 ([1.0, 2.0], [3.0, 4.0, 5.0]), ([2.0, 1.0], [4.0]),
                                 ([1j, 2.0, 1.0], [1.0, 1.0])])
def test_ortho_arithmetic(device, basis, a, b):
    em, nm, p = basis[:3]
    for op in ("add", "sub", "mul"):
        close(getattr(em, p + op)(E(a, device), E(b, device)),
              getattr(nm, p + op)(a, b), device, rtol=1e-9, atol=1e-12)
    q, r = getattr(em, p + "div")(E(a, device), E(b, device))
    wq, wr = getattr(nm, p + "div")(a, b)
    close(q, wq, device, rtol=1e-9, atol=1e-12)
    close(r, wr, device, rtol=1e-9, atol=1e-12)
    close(getattr(em, p + "mulx")(E(a, device)), getattr(nm, p + "mulx")(a), device)
    for n in (0, 1, 3):
        close(getattr(em, p + "pow")(E(b, device), n), getattr(nm, p + "pow")(b, n),
              device, rtol=1e-9, atol=1e-12)
    with pytest.raises(ValueError, match="Power is too large"):
        getattr(em, p + "pow")(E(b, device), 17)
    with pytest.raises(ZeroDivisionError):
        getattr(em, p + "div")(E(a, device), E([0.0], device))


@pytest.mark.parametrize("basis", BASES)
@pytest.mark.parametrize("m", [0, 1, 2, 3, 8])
def test_ortho_calculus(device, basis, m):
    em, nm, p = basis[:3]
    rng = np.random.default_rng(m)
    c, cc = rng.standard_normal(7), rng.standard_normal((5, 2, 3))
    der, nder = getattr(em, p + "der"), getattr(nm, p + "der")
    itg, nitg = getattr(em, p + "int"), getattr(nm, p + "int")
    for kw in ({}, {"scl": 1.5}):
        close(der(E(c, device), m, **kw), nder(c, m, **kw), device)
    want = nder(cc, m, axis=1)
    if p == "herme" and m >= cc.shape[1]:
        # NumPy's hermeder returns the zero series before moving the axis
        # back (its other bases' der do not); ember keeps the axis in place
        want = np.moveaxis(want, 0, 1)
    close(der(E(cc, device), m, axis=1), want, device)
    for kw in ({}, {"k": [1.0] * m, "lbnd": 0.3, "scl": 2.0}):
        close(itg(E(c, device), m, **kw), nitg(c, m, **kw), device)
    close(itg(E(cc, device), m, axis=2), nitg(cc, m, axis=2), device)
    close(itg(E([0.0], device), m, k=list(range(m))), nitg([0.0], m, k=list(range(m))),
          device)
    with pytest.raises(ValueError, match="order of derivation"):
        der(E(c, device), -1)
    with pytest.raises(ValueError, match="Too many integration constants"):
        itg(E(c, device), 1, k=[1, 2])


@pytest.mark.parametrize("basis", BASES)
def test_ortho_roots_fit(device, basis):
    em, nm, p = basis[:3]
    for c in ([0.3, -1.2, 0.5, 2.0, 1.0], [1.0, 0.0, 1.0], [2.0, 4.0], [3.0],
              [1j, 0.5, 2.0]):
        close_roots(getattr(em, p + "roots")(E(c, device)), getattr(nm, p + "roots")(c),
                    device)
        if len(c) > 1:
            close(getattr(em, p + "companion")(E(c, device)),
                  getattr(nm, p + "companion")(c), device)
    for r in ([0.1, 0.5, -0.3, 2.0], [1j, -1j, 0.5], [], [2, 2]):
        close(getattr(em, p + "fromroots")(E(r, device)), getattr(nm, p + "fromroots")(r),
              device, rtol=1e-9, atol=1e-12)
    x = np.linspace(-1, 1, 30)
    y = np.stack([np.exp(x), np.cos(3 * x)], axis=1)
    for deg in (5, [0, 2, 4]):
        close(getattr(em, p + "fit")(E(x, device), E(y, device), deg, w=E(x * 0 + 2, device)),
              getattr(nm, p + "fit")(x, y, deg, w=x * 0 + 2), device, rtol=1e-8, atol=1e-10)
    with pytest.warns(RankWarning, match="The fit may be poorly conditioned"):
        getattr(em, p + "fit")(E([0.0, 1.0], device), E([1.0, 2.0], device), 4)
    close(getattr(em, p + "line")(E(np.float64(2.0), device), E(np.float64(3.0), device)),
          getattr(nm, p + "line")(2.0, 3.0), device)
    close(getattr(em, p + "trim")(E([1.0, 1e-5, 0.0], device), 1e-4),
          getattr(nm, p + "trim")([1.0, 1e-5, 0.0], 1e-4), device)
    for name in ("zero", "one", "x", "domain"):
        assert (ember.asnumpy(getattr(em, p + name)).tolist() ==
                getattr(nm, p + name).tolist())


@pytest.mark.parametrize("basis", BASES)
def test_ortho_class(device, basis):
    K, NK = basis[3:]
    rng = np.random.default_rng(5)
    c, c2 = rng.standard_normal(6), rng.standard_normal(3)
    with ember.Device(device):   # made from no array: on the current device
        kid = K.identity(domain=[1, 2])
    a, b = K(E(c, device), domain=[0, 3]), NK(c, domain=[0, 3])
    s, t = K(E(c2, device), domain=[0, 3]), NK(c2, domain=[0, 3])
    assert repr(a) == repr(b) and str(a) == str(b)
    assert format(a, "ascii") == format(b, "ascii")
    for got, want in [(a + s, b + t), (a - s, b - t), (a * s, b * t), (a // s, b // t),
                      (a % s, b % t), (s ** 2, t ** 2), (a.deriv(2), b.deriv(2)),
                      (a.integ(2, lbnd=1), b.integ(2, lbnd=1)),
                      (a.convert(), b.convert()),
                      (K.fromroots(E([0.5, 2.0], device)), NK.fromroots([0.5, 2.0])),
                      (kid, NK.identity(domain=[1, 2]))]:
        _same_series(got, want, device, rtol=1e-8)
    close(a(E(XS, device)), b(XS), device)
    close_roots(a.roots(), b.roots(), device)
    conv = a.convert(kind=ember.polynomial.Polynomial)
    wconv = b.convert(kind=np.polynomial.Polynomial)
    _same_series(conv, wconv, device, rtol=1e-8)
    back = ember.polynomial.Polynomial(E(c, device)).convert(kind=K)
    _same_series(back, np.polynomial.Polynomial(c).convert(kind=NK), device, rtol=1e-8)
    x = np.linspace(0, 3, 40)
    y = np.exp(-x)
    _same_series(K.fit(E(x, device), E(y, device), 5), NK.fit(x, y, 5), device, rtol=1e-7)
    with pytest.raises(TypeError, match="Polynomial types differ"):
        a + ember.polynomial.Polynomial(E(c, device), domain=[0, 3])


# Gauss rules: (module, numpy module, prefix, weight function)
GAUSS = [pytest.param((EC, NC, "cheb", None), id="chebyshev"),
         pytest.param((EL, NL, "leg", None), id="legendre"),
         pytest.param((EH, NH, "herm", NH.hermweight), id="hermite"),
         pytest.param((EHE, NHE, "herme", NHE.hermeweight), id="hermite_e"),
         pytest.param((ELA, NLA, "lag", NLA.lagweight), id="laguerre")]


@pytest.mark.parametrize("basis", GAUSS)
@pytest.mark.parametrize("deg", [1, 2, 5, 30, 100])
def test_ortho_gauss(device, basis, deg):
    em, nm, p, nweight = basis
    with ember.Device(device):   # made from no array: on the current device
        x, w = getattr(em, p + "gauss")(deg)
    wx, ww = getattr(nm, p + "gauss")(deg)
    scale = np.abs(wx).max()
    close(x, wx, device, rtol=0, atol=1e-13 * max(scale, 1.0))
    # the weights come through the degree-deg derivative at each node: on
    # cuda (cuSOLVER's eigh) Laguerre's first at degree 100 is 6e-12 off
    close(w, ww, device, rtol=0, atol=1e-11 * ww.max())
    if nweight is not None:
        close(getattr(em, p + "weight")(E(XS, device)), nweight(XS), device)


@pytest.mark.parametrize("basis", GAUSS)
def test_ortho_gauss_errors(device, basis):
    em, p = basis[0], basis[2]
    with ember.Device(device):
        with pytest.raises(ValueError, match="deg must be a positive integer"):
            getattr(em, p + "gauss")(0)
        with pytest.raises(TypeError, match="deg must be an integer"):
            getattr(em, p + "gauss")(2.5)


@pytest.mark.parametrize("basis", BASES)
@pytest.mark.parametrize("c", [[1.0], [0.5, -2.0], [0.3, -1.2, 0.5, 2.0, 1.0, -0.7, 0.25],
                               [1j, 0.5, 2.0 - 1j], [1.0, 2.0, 0.0], [0.0, 0.0, 1.0]])
def test_ortho_conversions(device, basis, c):
    em, nm, p = basis[:3]
    to_poly, from_poly = getattr(em, p + "2poly"), getattr(em, "poly2" + p)
    want = getattr(nm, p + "2poly")(c)
    close(to_poly(E(c, device)), want, device, rtol=1e-10, atol=1e-11 * np.abs(want).max())
    want = getattr(nm, "poly2" + p)(c)
    close(from_poly(E(c, device)), want, device, rtol=1e-10,
          atol=1e-11 * np.abs(want).max())
    close(from_poly(to_poly(E(c, device))), NPU.trimseq(np.asarray(c)), device, rtol=1e-9,
          atol=1e-11)
    # degree 30: NumPy's series-product loop, to rounding
    c30 = np.random.default_rng(2).standard_normal(30)
    want = getattr(nm, p + "2poly")(c30)
    close(to_poly(E(c30, device)), want, device, rtol=0, atol=1e-13 * np.abs(want).max())


def test_ortho_high_degree_products(device):
    """Hermite and Laguerre products of degree 40 through the bases' Gauss
    points (at Chebyshev points their Vandermonde systems are singular in
    float64 by then)."""
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal(21), rng.standard_normal(20)
    for em, nm, p in [(EH, NH, "herm"), (EHE, NHE, "herme"), (ELA, NLA, "lag")]:
        want = getattr(nm, p + "mul")(a, b)
        close(getattr(em, p + "mul")(E(a, device), E(b, device)), want, device,
              rtol=0, atol=1e-10 * np.abs(want).max())


def test_laguerre_default_domain(device):
    c = E([1.0, 2.0], device)
    a, b = ember.polynomial.Laguerre(c), np.polynomial.Laguerre([1.0, 2.0])
    assert repr(a) == repr(b)
    close(a.domain, b.domain, device)
    close(a.window, b.window, device)
    close(ELA.lagroots(E([1.0, 2.0], device)), NLA.lagroots([1.0, 2.0]), device)
    close(EH.hermroots(E([1.0, 2.0], device)), NH.hermroots([1.0, 2.0]), device)


@pytest.mark.parametrize("basis", BASES)
def test_ortho_bad_inputs(device, basis):
    em, nm, p, K = basis[:4]
    with pytest.raises(ValueError, match="maximum degree of at least 1"):
        getattr(em, p + "companion")(E([2.0], device))
    with pytest.raises(ValueError, match="deg must be non-negative"):
        getattr(em, p + "vander")(E(XS, device), -1)
    with pytest.raises(TypeError, match="deg must be an integer"):
        getattr(em, p + "vander")(E(XS, device), 1.5)
    other = (ember.polynomial.Hermite if K is not ember.polynomial.Hermite
             else ember.polynomial.Laguerre)
    with pytest.raises(TypeError, match="Polynomial types differ"):
        K(E([1.0, 2.0], device)) + other(E([1.0, 2.0], device))
    # a series in one basis through another's class: NumPy's values
    c = [0.5, -1.0, 2.0]
    got = K(E(c, device)).convert(kind=other, domain=[-1, 1], window=[-1, 1])
    NO = np.polynomial.Hermite if other is ember.polynomial.Hermite \
        else np.polynomial.Laguerre
    want = basis[4](c).convert(kind=NO, domain=[-1, 1], window=[-1, 1])
    close(got.coef, want.coef, device, atol=1e-12)


def test_cheb_points_and_interpolate(device):
    with ember.Device(device):
        for n in (1, 2, 7):
            close(EC.chebpts1(n), NC.chebpts1(n), device, atol=1e-15)
            if n > 1:
                close(EC.chebpts2(n), NC.chebpts2(n), device, atol=1e-15)
        for deg in (0, 3, 12):
            close(EC.chebinterpolate(ember.exp, deg), NC.chebinterpolate(np.exp, deg),
                  device, atol=1e-14)
        close(EC.chebinterpolate(lambda x, k: ember.cos(k * x), 9, args=(2.0,)),
              NC.chebinterpolate(lambda x, k: np.cos(k * x), 9, args=(2.0,)), device,
              atol=1e-14)
        with pytest.raises(ValueError, match="npts must be >= 1"):
            EC.chebpts1(0)
        with pytest.raises(ValueError, match="npts must be >= 2"):
            EC.chebpts2(1)
        with pytest.raises(ValueError, match="npts must be integer"):
            EC.chebpts1(2.5)
        with pytest.raises(ValueError, match="expected deg >= 0"):
            EC.chebinterpolate(ember.exp, -1)
        with pytest.raises(TypeError, match="deg must be an int"):
            EC.chebinterpolate(ember.exp, 2.5)


# ---- the evaluation kernels as NVRTC compiles them for a GPU ---------------------

@pytest.mark.parametrize("name,params,outs", [
    ("horner", "const T x, const long long col, const T *c, long long n, long long m",
     "T &y"),
    ("clenshaw", "const T x, const long long col, const T *c, long long n, long long m, "
     "long long basis", "T &y"),
    ("horner_complex", "const T xr, const T xi, const long long col, const T *cr, "
     "const T *ci, long long n, long long m", "T &yr, T &yi"),
    ("clenshaw_complex", "const T xr, const T xi, const long long col, const T *cr, "
     "const T *ci, long long n, long long m, long long basis", "T &yr, T &yi")])
@pytest.mark.parametrize("ctype", ["float", "double"])
def test_eval_kernels_compile_for_the_gpu(need_nvrtc, name, params, outs, ctype):
    """Each operation (kernels/<name>.c) in a device function with the
    parameters ElementwiseKernel gives it, for both real element types."""
    import pathlib
    import ember._api as api
    body = (pathlib.Path(api.__file__).parent / "kernels" / f"{name}.c").read_text()
    body = body.split("/* operation */", 1)[1]
    src = (f"typedef {ctype} T;\n"
           f"__device__ void op(long long i, {params}, {outs}) {{\n{body}\n}}\n"
           f"extern \"C\" __global__ void probe(T *o, const T *c) {{\n"
           f"  T a = 0, b = 0;\n"
           f"  op(threadIdx.x, (T)1, {'(T)0, ' if 'complex' in name else ''}0, c, "
           f"{'c, ' if 'complex' in name else ''}3, 1"
           f"{', 1' if 'clenshaw' in name else ''}, a{', b' if 'complex' in name else ''});\n"
           f"  o[threadIdx.x] = a + b;\n}}\n")
    ptx = ember.cuda.Program(src).compile("ptx").code
    assert b".entry probe" in ptx
