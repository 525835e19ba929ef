"""ember.scipy.interpolate.make_smoothing_spline against SciPy's: knots,
coefficients and values for given lam (0 is the natural interpolating
spline), weights, trailing axes of y and axis, the GCV-chosen lam on
noisy data, and SciPy's errors.

Tolerances: ember diagonalises the problem once (Demmler-Reinsch) where
SciPy solves a banded system per lam, so the two agree to rounding of
differently conditioned computations: 1e-7 of the values' scale for
moderate lam. For a very large lam SciPy's banded solve loses digits
(its bend is rounding), so there the objective is compared: ember's is
no larger than SciPy's. GCV's lam is a bounded Brent minimum with
SciPy's tolerances; the GCV curve is flat there, so lam is compared at
1e-3 and the fits at 1e-6."""
import numpy as np
import pytest
import scipy.interpolate as si

import ember
import ember.scipy.interpolate as ei
from ember.scipy import interpolate_smoothing as ism
from helpers import assert_close_scaled

rng = np.random.default_rng(5)


@pytest.fixture(autouse=True)
def _same_data():
    global rng
    rng = np.random.default_rng(5)


def E(a, device):
    return ember.asarray(a, device=device)


def noisy(n=60, cols=()):
    x = np.sort(rng.random(n)) * 4 - 2
    f = x ** 3 + x ** 2 * np.sin(4 * x)
    y = f.reshape((n,) + (1,) * len(cols)) + rng.normal(
        scale=1.5, size=(n,) + cols)
    return x, y


def same_spline(got, want, xs, tol):
    assert isinstance(got, ei.BSpline)
    assert got.k == 3 and got.axis == want.axis
    np.testing.assert_array_equal(ember.asnumpy(got.t), want.t)
    c = ember.asnumpy(got.c)
    assert c.shape == want.c.shape and c.dtype == np.float64
    assert_close_scaled(c, want.c, tol)
    assert_close_scaled(ember.asnumpy(got(E(xs, got.c.device))),
                        want(xs), tol)


def objective(spl, x, y, w, lam):
    """sum w (y - f)^2 + lam integral f''^2, f'' piecewise linear."""
    f, d2, h = spl(x), spl.derivative(2)(x), np.diff(x)
    integ = np.sum(h / 3 * (d2[:-1] ** 2 + d2[1:] ** 2 + d2[:-1] * d2[1:]))
    return np.sum(w * (y - f) ** 2) + lam * integ


@pytest.mark.parametrize("lam", [0.0, 1e-4, 0.1, 3.0, 100.0])
def test_given_lam(device, lam):
    x, y = noisy()
    want = si.make_smoothing_spline(x, y, lam=lam)
    got = ei.make_smoothing_spline(E(x, device), E(y, device), lam=lam)
    assert got.c.device == ember.Device(device)
    xs = np.linspace(-2.5, 2.5, 41)
    same_spline(got, want, xs, 1e-7)
    if lam == 0.0:
        # the natural interpolating spline
        np.testing.assert_allclose(ember.asnumpy(got(E(x, device))), y,
                                   atol=1e-9)


@pytest.mark.parametrize("lam", [1e4, 1e7, 1e10])
def test_large_lam_tends_to_the_line(device, lam):
    x, y = noisy(40)
    w = rng.random(40) + 0.5
    want = si.make_smoothing_spline(x, y, w=w, lam=lam)
    got = ei.make_smoothing_spline(E(x, device), E(y, device), E(w, device),
                                   lam=lam)
    g = si.BSpline(ember.asnumpy(got.t), ember.asnumpy(got.c), 3)
    jg, jw = objective(g, x, y, w, lam), objective(want, x, y, w, lam)
    assert jg <= jw * (1 + 1e-12)
    if lam < 1e6:
        assert_close_scaled(g(x), want(x), 1e-6)
    # the limit: the weighted least-squares line
    line = np.polyval(np.polyfit(x, y, 1, w=np.sqrt(w)), x)
    assert_close_scaled(g(x), line, 1e-2 if lam == 1e4 else 1e-6)


def my_gcv_lam(x, y, w, device):
    """ember's GCV choice of lam for one column, from its internals."""
    n = x.size
    with ember.Device(device):
        xe = E(x, device)
        sw = E(np.sqrt(w), device)
        t = ember.concatenate((xe[:1], xe[:1], xe[:1], xe, xe[-1:],
                               xe[-1:], xe[-1:]))
        a, p, _ = ism._design(xe, E(w, device), t, n)
        ys = sw * E(y, device)
        return ism._fminbound(lambda lm: ism._gcv(lm, a, p, sw, ys),
                              0.0, float(n))


def test_gcv(device, monkeypatch):
    import scipy.interpolate._bsplines as sb
    x, y = noisy(200)
    lams = []
    inner = sb._compute_optimal_gcv_parameter
    monkeypatch.setattr(sb, "_compute_optimal_gcv_parameter",
                        lambda *a: lams.append(inner(*a)) or lams[-1])
    want = si.make_smoothing_spline(x, y)
    got = ei.make_smoothing_spline(E(x, device), E(y, device))
    # The same minimum of the same curve, found through rounding of
    # different computations: lam within Brent's tolerance, and the fit
    # at ember's lam is SciPy's fit there.
    lam = my_gcv_lam(x, y, np.ones(200), device)
    assert abs(lam - lams[0]) <= 1e-5
    same_spline(got, si.make_smoothing_spline(x, y, lam=lam),
                np.linspace(-2, 2, 57), 1e-7)
    same_spline(got, want, np.linspace(-2, 2, 57), 1e-4)


def test_gcv_criterion_and_minimiser(device):
    """ember's GCV at a few lam against the definition over SciPy's
    fits (the influence matrix's columns are the fits of unit vectors),
    and its Brent against SciPy's minimize_scalar on the same curve."""
    import scipy.optimize as so
    x, y = noisy(80)
    yy = y[:, None]

    def scipy_gcv(lam, w):
        a = np.stack([si.make_smoothing_spline(x, e, w=w, lam=lam)(x)
                      for e in np.eye(80)], axis=1)
        r = yy[:, 0] - a @ yy[:, 0]
        return (r @ r / 80) / (1 - np.trace(a) / 80) ** 2
    with ember.Device(device):
        xe = E(x, device)
        w = rng.random(80) + 0.5
        sw = E(np.sqrt(w), device)
        t = ember.concatenate((xe[:1], xe[:1], xe[:1], xe, xe[-1:],
                               xe[-1:], xe[-1:]))
        a, p, _ = ism._design(xe, E(w, device), t, 80)
        ys = sw * E(yy[:, 0], device)

        def gcv(lam):
            return ism._gcv(lam, a, p, sw, ys)
        for lam in (0.01, 0.3, 2.0):
            assert abs(gcv(lam) - scipy_gcv(lam, w)) <= 1e-8 * gcv(lam)
        lam = ism._fminbound(gcv, 0.0, 80.0)
    ref = so.minimize_scalar(gcv, bounds=(0, 80), method="bounded")
    # the same steps; a device's unordered sums may round GCV apart
    assert abs(lam - ref.x) <= 1e-6


def test_fminbound_matches_scipy():
    import scipy.optimize as so
    for f, b in [(lambda u: (u - 0.3) ** 2, (0.0, 5.0)),
                 (lambda u: np.cos(u) + 0.1 * u, (0.0, 9.0)),
                 (lambda u: abs(u - 1.7), (0.0, 3.0)),
                 (lambda u: -u, (0.0, 2.0))]:
        want = so.minimize_scalar(f, bounds=b, method="bounded").x
        assert ism._fminbound(f, *b) == want


def test_weights(device):
    x, y = noisy(50)
    w = rng.random(50) * 3 + 0.1
    for lam in (None, 0.5):
        want = si.make_smoothing_spline(x, y, w=w, lam=lam)
        got = ei.make_smoothing_spline(E(x, device), E(y, device),
                                       w=E(w, device), lam=lam)
        same_spline(got, want, np.linspace(-2, 2, 33), 1e-6)
    # host inputs work too
    got = ei.make_smoothing_spline(x, y, w=w.tolist(), lam=0.5)
    same_spline(got, si.make_smoothing_spline(x, y, w=w, lam=0.5),
                x, 1e-7)


@pytest.mark.parametrize("lam", [None, 0.2])
def test_columns_and_axis(device, lam):
    x, y = noisy(40, (3, 2))
    want = si.make_smoothing_spline(x, y, lam=lam)
    got = ei.make_smoothing_spline(E(x, device), E(y, device), lam=lam)
    xs = np.linspace(-2, 2, 9)
    same_spline(got, want, xs, 1e-6)
    # each column has its own GCV lam: the same as fitting it alone
    if lam is None:
        one = si.make_smoothing_spline(x, y[:, 2, 1])
        assert_close_scaled(ember.asnumpy(got.c)[:, 2, 1], one.c, 1e-6)
    ym = np.moveaxis(y, 0, 1)
    want = si.make_smoothing_spline(x, ym, lam=lam, axis=1)
    got = ei.make_smoothing_spline(E(x, device), E(ym, device), lam=lam,
                                   axis=-2)
    assert got.axis == 1
    r = ember.asnumpy(got(E(xs, device)))
    assert r.shape == (3, 9, 2)
    assert_close_scaled(r, want(xs), 1e-6)


def test_five_points_and_integer_data(device):
    x = np.array([0, 1, 3, 4, 7])
    y = np.array([1, 0, 2, 5, 3])
    for lam in (None, 0.0, 1.0):
        want = si.make_smoothing_spline(x, y, lam=lam)
        got = ei.make_smoothing_spline(E(x, device), E(y, device), lam=lam)
        same_spline(got, want, np.linspace(-1, 8, 19), 1e-7)


def test_complex_y_drops_imaginary_part(device):
    x, y = noisy(20)
    with pytest.warns(np.exceptions.ComplexWarning):
        want = si.make_smoothing_spline(x, y + 2j, lam=0.3)
    with pytest.warns(np.exceptions.ComplexWarning):
        got = ei.make_smoothing_spline(E(x, device), E(y + 2j, device),
                                       lam=0.3)
    same_spline(got, want, x, 1e-7)


def test_errors(device):
    x = np.arange(8.0)
    y = np.sin(x)

    def e(a):
        return ember.asarray(a, device=device)

    cases = [
        (ValueError, "ascending", lambda m: m(e(x[::-1]), e(y))),
        (ValueError, "ascending",
         lambda m: m(e(np.r_[0, 0, 1, 2, 3, 4, 5, 6.0]), e(y))),
        (ValueError, "at least 5", lambda m: m(e(x[:4]), e(y[:4]))),
        (ValueError, "should be 1D", lambda m: m(e(x), e(y[:7]))),
        (ValueError, "should be 1D", lambda m: m(e(x[None]), e(y))),
        (ValueError, "Invalid vector of weights",
         lambda m: m(e(x), e(y), w=e(-np.ones(8)))),
        (ValueError, "Invalid vector of weights",
         lambda m: m(e(x), e(y), w=e(np.r_[1, 1, 0, 1, 1, 1, 1, 1.0]))),
        (ValueError, "non-negative", lambda m: m(e(x), e(y), lam=-1.0)),
        (IndexError, None, lambda m: m(e(x), e(y), axis=2)),
        (ValueError, "NaN", lambda m: m(e(x), e(y * np.nan), lam=1.0)),
    ]
    for exc, match, fn in cases:
        with pytest.raises(exc, match=match):
            fn(si.make_smoothing_spline)
        with pytest.raises(exc, match=match):
            fn(ei.make_smoothing_spline)
    # SciPy fails with a broadcasting ValueError deep inside; ember names
    # the shapes
    for bad in (np.ones(7), np.ones(9), np.ones((8, 1))):
        with pytest.raises(ValueError):
            si.make_smoothing_spline(x, y, w=bad)
        with pytest.raises(ValueError, match=r"shape \(.*\) does not match"):
            ei.make_smoothing_spline(e(x), e(y), w=e(bad))
