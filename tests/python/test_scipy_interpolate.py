"""ember.scipy.interpolate against scipy.interpolate on the same data:
interp1d (every kind, fill values, extrapolation, bounds errors, axis,
dtypes), PPoly, CubicSpline (every bc_type, derivatives, antiderivatives,
integrals), PCHIP, Akima/makima, BSpline and make_interp_spline,
RegularGridInterpolator and interpn, and SciPy's errors.

Tolerances: float64 within 1e-10 of the values' scale (the setup solves
differ from LAPACK's banded solver by rounding, and extrapolated values
are large); float32 inputs are compared within 1e-5 (SciPy keeps some
results in float32)."""
import numpy as np
import pytest
import scipy.interpolate as si

import ember
import ember.scipy.interpolate as ei
from helpers import assert_close_scaled

rng = np.random.default_rng(5)


@pytest.fixture(autouse=True)
def _same_data():
    """Every test draws its data from a fresh generator, so the cpu and
    cuda runs of a test (and a test run alone) see the same numbers."""
    global rng
    rng = np.random.default_rng(5)
KINDS = ["linear", "nearest", "nearest-up", "zero", "slinear", "quadratic",
         "cubic", "previous", "next"]


def E(x, device):
    return ember.asarray(x, device=device)


def close(got, want, tol=1e-10):
    """Values (NaN where SciPy has NaN), dtype and shape as SciPy's."""
    got = ember.asnumpy(got)
    want = np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, \
        (got.dtype, want.dtype, got.shape, want.shape)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    m = ~np.isnan(want)
    assert_close_scaled(got[m], want[m], tol)


def data(n=12, trail=(3,)):
    x = np.sort(rng.random(n)) * 10
    y = rng.standard_normal((n,) + trail)
    return x, y


XN = np.r_[np.linspace(-1.5, 11.5, 61), 0.0, np.nan]


@pytest.mark.parametrize("kind", KINDS)
def test_interp1d_kinds(device, kind):
    x, y = data()
    y = y.T  # interpolation along the last axis, interp1d's default
    xs = rng.permutation(x.size)  # unsorted input is sorted, as SciPy's
    for fv in (np.nan, "extrapolate", (-1.0, 2.0), 0.5):
        want = si.interp1d(x[xs], y[:, xs], kind=kind, bounds_error=False,
                           fill_value=fv)(XN[:-1])
        got = ei.interp1d(E(x[xs], device), E(y[:, xs], device), kind=kind,
                          bounds_error=False, fill_value=fv)(
                              E(XN[:-1], device))
        close(got, want)
    # axis=0 and a 2-D x_new
    xn = x[0] + rng.random((4, 5)) * (x[-1] - x[0])
    close(ei.interp1d(E(x, device), E(y.T, device), kind=kind, axis=0)(
        E(xn, device)), si.interp1d(x, y.T, kind=kind, axis=0)(xn))


@pytest.mark.parametrize("kind", ["linear", "nearest", "previous", "cubic"])
def test_interp1d_dtypes(device, kind):
    x = np.arange(8.0)
    y32 = (x ** 2).astype(np.float32)
    xn = np.array([0.5, 3.25, 6.9])
    for xx, yy, xq in ((x, y32, xn), (x.astype(np.float32), y32,
                                      xn.astype(np.float32)),
                       (x, np.arange(8), xn)):
        want = si.interp1d(xx, yy, kind=kind)(xq)
        got = ei.interp1d(E(xx, device), E(yy, device), kind=kind)(
            E(xq, device))
        close(got, want, 1e-6)


def test_interp1d_bounds_and_errors(device):
    x, y = data(6, ())
    f = ei.interp1d(E(x, device), E(y, device))
    with pytest.raises(ValueError, match="below the interpolation range"):
        f(E([x[0] - 1], device))
    with pytest.raises(ValueError, match="above the interpolation range"):
        f(E([x[-1] + 1], device))
    with pytest.raises(ValueError, match="Cannot extrapolate and raise"):
        ei.interp1d(E(x, device), E(y, device), bounds_error=True,
                    fill_value="extrapolate")
    with pytest.raises(NotImplementedError, match="unsupported"):
        ei.interp1d(E(x, device), E(y, device), kind="bogus")
    with pytest.raises(ValueError, match="at least 4 entries"):
        ei.interp1d(E(x[:3], device), E(y[:3], device), kind="cubic")
    with pytest.raises(ValueError, match="exactly one dimension"):
        ei.interp1d(E(np.ones((2, 3)), device), E(y, device))
    with pytest.raises(ValueError, match="broadcast up to shape"):
        ei.interp1d(E(x, device), E(np.ones((2, 6)), device),
                    bounds_error=False, fill_value=np.zeros(3))
    # fill per column, broadcast as SciPy's
    yy = rng.standard_normal((2, 6))
    close(ei.interp1d(E(x, device), E(yy, device), bounds_error=False,
                      fill_value=E([7.0, 8.0], device))(E(XN, device)),
          si.interp1d(x, yy, bounds_error=False,
                      fill_value=np.array([7.0, 8.0]))(XN))


BCS = ["not-a-knot", "natural", "clamped",
       ((1, np.array([1.0, -2.0, 0.5])), (2, np.zeros(3)))]


@pytest.mark.parametrize("bc", range(len(BCS)))
@pytest.mark.parametrize("n", [2, 3, 4, 12])
def test_cubic_spline(device, bc, n):
    bc = BCS[bc]
    x, y = data(n)
    want = si.CubicSpline(x, y, bc_type=bc)
    got = ei.CubicSpline(E(x, device), E(y, device), bc_type=bc)
    close(got(E(XN, device)), want(XN))
    for nu in (1, 2, 3):
        close(got(E(XN, device), nu), want(XN, nu))
    close(got.antiderivative(2)(E(XN, device)), want.antiderivative(2)(XN))
    close(got.derivative()(E(XN, device)), want.derivative()(XN))
    for a, b, ext in ((0.5, 7.0, None), (9.0, -3.0, True), (-3.0, 2.0,
                                                            False)):
        close(got.integrate(a, b, extrapolate=ext),
              want.integrate(a, b, extrapolate=ext))
    close(got(E(XN, device), extrapolate=False), want(XN, extrapolate=False))


@pytest.mark.parametrize("n", [3, 4, 9])
def test_cubic_spline_periodic_and_axis(device, n):
    x, y = data(n, (2, 3))
    y[-1] = y[0]
    yt = np.moveaxis(y, 0, 1)
    want = si.CubicSpline(x, yt, axis=1, bc_type="periodic")
    got = ei.CubicSpline(E(x, device), E(yt, device), axis=1,
                         bc_type="periodic")
    assert got.extrapolate == "periodic"
    close(got(E(XN, device)), want(XN))
    close(got(E(XN, device), 1), want(XN, 1))
    close(got.integrate(-4.0, 25.0), want.integrate(-4.0, 25.0))


def test_cubic_spline_float32_and_errors(device):
    x, y = data(9, ())
    want = si.CubicSpline(x.astype(np.float32), y.astype(np.float32))
    got = ei.CubicSpline(E(x.astype(np.float32), device),
                         E(y.astype(np.float32), device))
    close(got(E(XN, device)), want(XN), 1e-6)
    cs = ei.CubicSpline
    with pytest.raises(ValueError, match="strictly increasing"):
        cs(E(x[::-1], device), E(y, device))
    with pytest.raises(ValueError, match="at least 2 elements"):
        cs(E(x[:1], device), E(y[:1], device))
    with pytest.raises(ValueError, match="doesn't match the length"):
        cs(E(x, device), E(y[:-1], device))
    with pytest.raises(ValueError, match="only finite values"):
        cs(E(x, device), E(np.r_[y[:-1], np.inf], device))
    with pytest.raises(ValueError, match="must be identical"):
        cs(E(x, device), E(y, device), bc_type="periodic")
    with pytest.raises(ValueError, match="not allowed"):
        cs(E(x, device), E(y, device), bc_type="bogus")
    with pytest.raises(ValueError, match="must be 1 or 2"):
        cs(E(x, device), E(y, device), bc_type=((3, 0.0), (1, 0.0)))
    with pytest.raises(ValueError, match="cannot be used with other"):
        cs(E(x, device), E(y, device), bc_type=("periodic", "natural"))


@pytest.mark.parametrize("n", [2, 3, 15])
def test_pchip_akima(device, n):
    x, y = data(n, (2,))
    y[n // 2:] = np.cumsum(np.abs(y[n // 2:]), axis=0)  # monotone runs
    if n > 3:
        y[3] = y[2]  # a flat step
    X, Y = E(x, device), E(y, device)
    close(ei.PchipInterpolator(X, Y)(E(XN, device)),
          si.PchipInterpolator(x, y)(XN))
    close(ei.pchip_interpolate(X, Y, E(XN, device), der=1),
          si.pchip_interpolate(x, y, XN, der=1))
    for method in ("akima", "makima"):
        w = si.Akima1DInterpolator(x, y, method=method)
        g = ei.Akima1DInterpolator(X, Y, method=method)
        close(g(E(XN, device)), w(XN))
        close(ei.Akima1DInterpolator(X, Y, method=method, extrapolate=True)(
            E(XN, device)), si.Akima1DInterpolator(
                x, y, method=method, extrapolate=True)(XN))
    with pytest.raises(ValueError, match="only works with real values"):
        ei.PchipInterpolator(X, E(y + 1j, device))
    with pytest.raises(NotImplementedError, match="unsupported"):
        ei.Akima1DInterpolator(X, Y, method="bogus")


def test_hermite_and_ppoly(device):
    x, y = data(7, (2,))
    d = rng.standard_normal(y.shape)
    close(ei.CubicHermiteSpline(E(x, device), E(y, device), E(d, device))(
        E(XN, device)), si.CubicHermiteSpline(x, y, d)(XN))
    c = rng.standard_normal((4, 6, 2, 3))
    for xx in (x, x[::-1]):
        for ext in (True, False, "periodic"):
            want = si.PPoly(c, xx, extrapolate=ext)
            got = ei.PPoly(E(c, device), E(xx, device), extrapolate=ext)
            close(got(E(XN, device)), want(XN))
    cx = np.moveaxis(c, (0, 1), (1, 2))  # (2, 4, 6, 3), axis=1
    want = si.PPoly(cx, x, axis=1)
    got = ei.PPoly(E(cx, device), E(x, device), axis=1)
    close(got(E(XN, device)), want(XN))
    close(got.antiderivative()(E(XN, device)), want.antiderivative()(XN))
    close(got.integrate(1.0, 6.0), want.integrate(1.0, 6.0))
    cc = c + 1j * rng.standard_normal(c.shape)
    close(ei.PPoly(E(cc, device), E(x, device))(E(XN, device)),
          si.PPoly(cc, x)(XN))
    with pytest.raises(ValueError, match="strictly increasing or"):
        ei.PPoly(E(c, device), E(x[[0, 2, 1, 3, 4, 5, 6]], device))
    with pytest.raises(ValueError, match="number of coefficients"):
        ei.PPoly(E(c, device), E(x[:-1], device))
    with pytest.raises(ValueError, match="at least 2-dimensional"):
        ei.PPoly(E(c[0, 0, 0], device), E(x, device))


@pytest.mark.parametrize("k", [0, 1, 2, 3, 5])
def test_make_interp_spline(device, k):
    x, y = data(11, (2,))
    want = si.make_interp_spline(x, y.T, k=k, axis=1)
    got = ei.make_interp_spline(E(x, device), E(y.T, device), k=k, axis=1)
    close(got.t, want.t)
    close(got(E(XN, device)), want(XN))
    close(got(E(XN, device), extrapolate=False), want(XN, extrapolate=False))
    for nu in range(1, k + 1):
        close(got(E(XN, device), nu), want(XN, nu), 1e-9)
    close(got.antiderivative(2)(E(XN, device)), want.antiderivative(2)(XN))
    close(got.integrate(-2.0, 8.0), want.integrate(-2.0, 8.0))
    close(got.integrate(9.0, -2.0, extrapolate=False),
          want.integrate(9.0, -2.0, extrapolate=False))
    if k == 3:
        d1 = rng.standard_normal(2)
        for bc in ("natural", "clamped", ("clamped", "natural"),
                   ([(1, d1)], [(2, 2 * d1)])):
            for m in (2, 3, 11):
                close(ei.make_interp_spline(E(x[:m], device),
                                            E(y[:m], device),
                                            bc_type=bc)(E(XN, device)),
                      si.make_interp_spline(x[:m], y[:m], bc_type=bc)(XN))
        with pytest.raises(NotImplementedError, match="bc_type only"):
            ei.make_interp_spline(E(x, device), E(y, device), k=5,
                                  bc_type="natural")


def test_bspline_direct(device):
    t = np.r_[0, 0, 0, 0, np.sort(rng.random(5)) * 4, 4, 4, 4, 4.0]
    c = rng.standard_normal(t.size - 4)
    want = si.BSpline(t, c, 3)
    got = ei.BSpline(E(t, device), E(c, device), 3)
    xs = np.linspace(-1, 5, 41)
    close(got(E(xs, device)), want(xs))
    close(ei.BSpline(E(t, device), E(c, device), 3, extrapolate="periodic")(
        E(xs, device)), si.BSpline(t, c, 3, extrapolate="periodic")(xs))
    tb = [0.0, 1.0, 2.5, 3.0, 4.0]
    close(ei.BSpline.basis_element(E(tb, device))(E(xs, device)),
          si.BSpline.basis_element(tb)(xs))
    xd = np.linspace(0, 4, 17)
    close(ei.BSpline.design_matrix(E(xd, device), E(t, device), 3),
          si.BSpline.design_matrix(xd, t, 3).toarray())
    with pytest.raises(ValueError, match="non-decreasing"):
        ei.BSpline(E(t[::-1], device), E(c, device), 3)
    with pytest.raises(ValueError, match="Need at least 8 knots"):
        ei.BSpline(E(t[:6], device), E(c[:2], device), 3)
    with pytest.raises(ValueError, match="strictly increasing"):
        ei.make_interp_spline(E([0.0, 1, 1, 2], device),
                              E([1.0, 2, 3, 4], device))


@pytest.mark.parametrize("method", ["linear", "nearest"])
def test_regular_grid(device, method):
    g = (np.sort(rng.random(5)), np.arange(6.0)[::-1], np.linspace(0, 1, 4))
    v = rng.standard_normal((5, 6, 4, 2))
    pts = rng.random((9, 3)) * np.array([1.2, 6, 1.1]) - 0.05
    inside = np.clip(pts, [g[0][0], 0, 0], [g[0][-1], 5, 1])
    Gs = tuple(E(a, device) for a in g)
    for fv in (np.nan, None, 3.5):
        want = si.RegularGridInterpolator(g, v, method=method,
                                          bounds_error=False, fill_value=fv)
        got = ei.RegularGridInterpolator(Gs, E(v, device), method=method,
                                         bounds_error=False, fill_value=fv)
        close(got(E(pts, device)), want(pts))
    close(ei.interpn(Gs, E(v, device), E(inside.reshape(3, 3, 3), device),
                     method=method),
          si.interpn(g, v, inside.reshape(3, 3, 3), method=method))
    v32 = v.astype(np.float32)
    close(ei.interpn(Gs, E(v32, device), E(inside, device), method=method),
          si.interpn(g, v32, inside, method=method), 1e-6)
    with pytest.raises(ValueError, match="out of bounds in dimension 1"):
        ei.interpn(Gs, E(v, device), E([[0.5, 7.0, 0.5]], device),
                   method=method)
    with pytest.raises(ValueError, match="have dimension 2"):
        ei.interpn(Gs, E(v, device), E([[0.5, 0.5]], device),
                   method=method)


def test_regular_grid_errors(device):
    g = (np.arange(3.0), np.arange(4.0))
    v = E(np.ones((3, 4)), device)
    rgi = ei.RegularGridInterpolator
    with pytest.raises(ValueError, match="strictly ascending or"):
        rgi((np.array([0.0, 2, 1]), g[1]), v)
    with pytest.raises(ValueError, match="3 point arrays, but values has 2"):
        rgi(g + (np.arange(2.0),), v)
    with pytest.raises(ValueError, match="There are 3 points and 4 values"):
        rgi((g[0], np.arange(3.0)), v)
    with pytest.raises(ValueError, match="Method 'bogus' is not defined"):
        rgi(g, v, method="bogus")
    with pytest.raises(ValueError, match="only understands the methods"):
        ei.interpn(g, v, E([[0.5, 0.5]], device), method="bogus")


@pytest.mark.parametrize("method", ["slinear", "cubic", "quintic"])
def test_regular_grid_splines(device, method):
    """SciPy solves its spline methods iteratively (gcrotmk, within its
    tolerance) unless given a direct solver; ember solves directly, so the
    comparison is with SciPy's spsolve."""
    import scipy.sparse.linalg as ssl
    g = (np.sort(rng.random(7)), np.arange(8.0)[::-1], np.linspace(0, 1, 6))
    v = rng.standard_normal((7, 8, 6, 2))
    pts = rng.random((9, 3)) * np.array([1.2, 8, 1.1]) - 0.05
    kw = {} if method == "slinear" else dict(solver=ssl.spsolve)
    Gs = tuple(E(a, device) for a in g)
    for fv in (np.nan, None):
        want = si.RegularGridInterpolator(g, v, method=method,
                                          bounds_error=False, fill_value=fv,
                                          **kw)(pts)
        got = ei.RegularGridInterpolator(Gs, E(v, device), method=method,
                                         bounds_error=False,
                                         fill_value=fv)(E(pts, device))
        close(got, want, 1e-9)
    with pytest.raises(ValueError, match="requires at least 6 points"):
        ei.interpn((np.arange(5.0),), E(np.ones(5), device),
                   E([[1.0]], device), method="quintic")
    with pytest.raises(ValueError, match="does not accept the 'solver'"):
        ei.RegularGridInterpolator(Gs, E(v, device), solver=ssl.spsolve)


def test_barycentric_krogh(device):
    # SciPy multiplies the weights' factors in a random order (rng), so
    # its rounding varies; well-spread nodes and points near them keep
    # that variation under the tolerance.
    x = np.sort(np.linspace(0, 3, 9) + rng.random(9) * 0.1)
    y = rng.standard_normal((2, 9))
    xn = np.r_[np.linspace(x[0] - 0.2, x[-1] + 0.2, 20), x[3]]
    X, Y, XN_ = E(x, device), E(y, device), E(xn, device)
    sr = np.random.default_rng(0)
    close(ei.BarycentricInterpolator(X, Y, axis=1)(XN_),
          si.BarycentricInterpolator(x, y, axis=1, rng=sr)(xn), 1e-9)
    close(ei.barycentric_interpolate(X, Y[0], E(1.5, device)),
          si.barycentric_interpolate(x, y[0], 1.5, rng=sr), 1e-9)
    b = ei.BarycentricInterpolator(X)
    b.set_yi(E(y.T, device))
    close(b(XN_), si.BarycentricInterpolator(x, y.T, rng=sr)(xn), 1e-9)
    close(ei.KroghInterpolator(X, E(y.T, device))(XN_),
          si.KroghInterpolator(x, y.T)(xn), 1e-9)
    # repeated nodes take derivatives, as SciPy's
    xr = np.array([0, 0, 1, 1, 1, 2.0])
    yr = rng.standard_normal((6, 2)) + 1j * rng.standard_normal((6, 2))
    close(ei.krogh_interpolate(E(xr, device), E(yr, device), XN_),
          si.krogh_interpolate(xr, yr, xn), 1e-9)
    with pytest.raises(ValueError, match="can't be equal"):
        ei.KroghInterpolator(E([0.0, 1, 0], device), E([1.0, 2, 3], device))
    with pytest.raises(ValueError, match="must be distinct"):
        ei.BarycentricInterpolator(E([0.0, 1, 0], device),
                                   E([1.0, 2, 3], device))
    with pytest.raises(ValueError, match="equal in length"):
        ei.BarycentricInterpolator(X, E(y[:, :5], device), axis=1)


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_splrep_splev(device, k):
    x = np.sort(rng.random(10)) * 5
    y = np.sin(x) + rng.standard_normal(10) * 0.1
    tw = si.splrep(x, y, k=k)
    tg = ei.splrep(E(x, device), E(y, device), k=k)
    close(tg[0], tw[0])
    assert tg[2] == tw[2] and tg[1].shape == tw[1].shape
    xs = np.linspace(-1, 6, 29)
    for ext in (0, 1, 3):
        close(ei.splev(E(xs, device), tg, ext=ext), si.splev(xs, tw,
                                                             ext=ext))
    close(ei.splev(E(xs, device), tg, der=1), si.splev(xs, tw, der=1))
    close(ei.splint(0.5, 7.0, tg), si.splint(0.5, 7.0, tw))
    close(ei.splev(E(xs, device), ei.splder(tg)),
          si.splev(xs, si.splder(tw)))
    close(ei.splev(E(xs, device), ei.splantider(tg, 2)),
          si.splev(xs, si.splantider(tw, 2)))
    with pytest.raises(ValueError, match="not in the domain"):
        ei.splev(E(xs, device), tg, ext=2)
    with pytest.raises(TypeError, match="m > k must hold"):
        ei.splrep(E(x[:k], device), E(y[:k], device), k=k)
    with pytest.raises(NotImplementedError, match="s=0"):
        ei.splrep(E(x, device), E(y, device), s=1.0)


@pytest.mark.parametrize("kernel", ["linear", "thin_plate_spline", "cubic",
                                    "quintic", "multiquadric",
                                    "inverse_multiquadric",
                                    "inverse_quadratic", "gaussian"])
def test_rbf(device, kernel):
    y = rng.random((30, 2)) * 3
    d = np.sin(y[:, 0]) * np.cos(y[:, 1])
    x = rng.random((25, 2)) * 3.4 - 0.2
    kw = dict(kernel=kernel, epsilon=1.3)
    want = si.RBFInterpolator(y, d, **kw)(x)
    got = ei.RBFInterpolator(E(y, device), E(d, device), **kw)(E(x, device))
    # A GPU's solver rounds differently; the interpolant's values are far
    # less sensitive to that than its coefficients.
    close(got, want, 1e-7)
    # vector data, smoothing per point, a given degree
    dd = np.stack((d, y[:, 0] ** 2), axis=1) + 1j
    sm = rng.random(30) * 1e-3
    want = si.RBFInterpolator(y, dd, smoothing=sm, degree=2, **kw)(x)
    got = ei.RBFInterpolator(E(y, device), E(dd, device),
                             smoothing=E(sm, device), degree=2, **kw)(
                                 E(x, device))
    close(got, want, 1e-7)


def test_rbf_errors(device):
    y = E(rng.random((5, 2)), device)
    d = E(rng.random(5), device)
    with pytest.raises(ValueError, match="`epsilon` must be specified"):
        ei.RBFInterpolator(y, d, kernel="gaussian")
    with pytest.raises(ValueError, match="`kernel` must be one of"):
        ei.RBFInterpolator(y, d, kernel="bogus")
    with pytest.raises(ValueError, match="first axis of `d`"):
        ei.RBFInterpolator(y, E(rng.random(4), device))
    with pytest.raises(ValueError, match="At least 10 data points"):
        ei.RBFInterpolator(y, d, degree=3)
    with pytest.raises(ValueError, match="second axis of `x`"):
        ei.RBFInterpolator(y, d)(E(np.ones((3, 3)), device))
    with pytest.raises(np.linalg.LinAlgError, match="full column rank"):
        ei.RBFInterpolator(E(np.ones((5, 2)), device), d)


def test_bpoly(device):
    x = np.sort(rng.random(7)) * 4
    c = rng.standard_normal((4, 6, 2))
    # Far outside short intervals t is large: the Bernstein sums, added in
    # another order than SciPy's, agree to about 1e-10 of their size.
    for xx in (x, x[::-1]):
        for ext in (True, False, "periodic"):
            close(ei.BPoly(E(c, device), E(xx, device), extrapolate=ext)(
                E(XN, device)), si.BPoly(c, xx, extrapolate=ext)(XN), 1e-9)
    want = si.BPoly(c, x)
    got = ei.BPoly(E(c, device), E(x, device))
    for nu in (1, 2, 4):
        close(got(E(XN, device), nu), want(XN, nu), 1e-9)
        close(got.derivative(nu)(E(XN, device)), want.derivative(nu)(XN),
              1e-9)
    close(got.antiderivative(2)(E(XN, device)), want.antiderivative(2)(XN),
          1e-9)
    close(got.integrate(0.3, 5.0), want.integrate(0.3, 5.0))
    close(got.integrate(3.0, -1.0, extrapolate=False),
          want.integrate(3.0, -1.0, extrapolate=False))
    pp = si.PPoly.from_bernstein_basis(want)
    gp = ei.PPoly.from_bernstein_basis(got)
    assert type(gp) is ei.PPoly
    close(gp.c, pp.c, 1e-9)
    close(ei.BPoly.from_power_basis(gp).c,
          si.BPoly.from_power_basis(pp).c, 1e-9)
    with pytest.raises(TypeError, match="only accepts PPoly"):
        ei.BPoly.from_power_basis(got)


@pytest.mark.parametrize("kind", ["linear", "nearest", "cubic", "previous"])
def test_complex_axis_scalar_and_empty(device, kind):
    """Complex y with the axis in the middle, a scalar x (SciPy's shape
    drops the axis) and an empty x_new."""
    x = np.sort(rng.random(8)) * 5
    y = rng.standard_normal((2, 8, 3)) + 1j * rng.standard_normal((2, 8, 3))
    X, Y = E(x, device), E(y, device)
    f, g = ei.interp1d(X, Y, kind=kind, axis=1), si.interp1d(x, y, kind=kind,
                                                             axis=1)
    close(f(E(2.5, device)), g(2.5))
    close(f(E(np.zeros((0, 2)), device)), g(np.zeros((0, 2))))
    close(ei.CubicSpline(X, Y, axis=1)(E([[1.0, 2], [3, 4]], device)),
          si.CubicSpline(x, y, axis=1)([[1.0, 2], [3, 4]]))
    close(ei.CubicSpline(X, Y, axis=1).integrate(1, 2),
          si.CubicSpline(x, y, axis=1).integrate(1, 2))
    close(ei.make_interp_spline(X, Y, axis=1)(E(2.5, device)),
          si.make_interp_spline(x, y, axis=1)(2.5))
    close(ei.BarycentricInterpolator(X, Y, axis=1)(E(2.5, device)),
          si.BarycentricInterpolator(x, y, axis=1,
                                     rng=np.random.default_rng(0))(2.5),
          1e-9)


def test_ppoly_from_spline(device):
    x = np.sort(rng.random(9)) * 4
    y = rng.standard_normal(9)
    tck = si.splrep(x, y)
    want = si.PPoly.from_spline(tck)
    got = ei.PPoly.from_spline(ei.splrep(E(x, device), E(y, device)))
    close(got.x, want.x)
    close(got(E(XN, device)), want(XN))
    b = si.make_interp_spline(x, y, k=5)
    gb = ei.make_interp_spline(E(x, device), E(y, device), k=5)
    close(ei.PPoly.from_spline(gb, extrapolate=False)(E(XN, device)),
          si.PPoly.from_spline(b, extrapolate=False)(XN), 1e-9)
