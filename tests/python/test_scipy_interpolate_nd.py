"""ember.scipy.interpolate's NdBSpline (values, partial derivatives,
extrapolation, trailing and complex coefficients, derivative()) and
NearestNDInterpolator (norms, distance bounds, rescaling, the calling
conventions, dtypes) against SciPy, with SciPy's errors.

Tolerances: NdBSpline within 1e-10 of the values' scale (extrapolated
derivatives are large); the nearest neighbour is an exact gather, so its
values equal SciPy's (the data is drawn without ties)."""
import numpy as np
import pytest
import scipy.interpolate as si

import ember
import ember.scipy.interpolate as ei
from helpers import assert_close_scaled

rng = np.random.default_rng(21)


@pytest.fixture(autouse=True)
def _same_data():
    global rng
    rng = np.random.default_rng(21)


def E(a, device):
    return ember.asarray(a, device=device)


def close(got, want, tol=1e-10):
    got = ember.asnumpy(got)
    want = np.asarray(want)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    m = ~np.isnan(want)
    assert got.shape == want.shape
    assert_close_scaled(got[m], want[m], tol)


def knots(k, inner=4):
    return np.r_[(0.0,) * (k + 1), np.sort(rng.random(inner)),
                 (1.0,) * (k + 1)]


@pytest.mark.parametrize("k", [(3, 2, 1), 3, (0, 1)])
def test_ndbspline(device, k):
    kk = k if isinstance(k, tuple) else (k,) * 3
    t = tuple(knots(kd) for kd in kk)
    c = rng.standard_normal(tuple(ti.size - kd - 1 for ti, kd in
                                  zip(t, kk)) + (2,))
    xi = rng.random((7, 5, len(kk))) * 1.2 - 0.1
    xi[0, 0, 0] = np.nan
    want = si.NdBSpline(t, c, k)
    got = ei.NdBSpline(tuple(E(ti, device) for ti in t), E(c, device), k)
    assert got.k == want.k
    nus = [None, (1,) + (0,) * (len(kk) - 1), (0,) * (len(kk) - 1) + (1,),
           (kk[0] + 1,) + (0,) * (len(kk) - 1)]
    for nu in nus:
        for ex in (True, False):
            r = got(E(xi, device), nu=nu, extrapolate=ex)
            assert r.dtype == ember.float64
            close(r, want(xi, nu=nu, extrapolate=ex))
    nu = (1,) * len(kk)
    close(got.derivative(nu)(E(xi, device)), want.derivative(nu)(xi))


def test_ndbspline_complex_and_flat(device):
    t = (knots(3), knots(3, 6))
    c = rng.standard_normal((8, 10)) + 1j * rng.standard_normal((8, 10))
    xi = rng.random((11, 2))
    want = si.NdBSpline(t, c, 3, extrapolate=False)
    got = ei.NdBSpline(tuple(E(ti, device) for ti in t), E(c, device), 3,
                       extrapolate=False)
    r = got(E(xi, device))
    assert r.dtype == ember.complex128 and r.shape == (11,)
    close(r, want(xi))
    close(got(E(xi[0], device)), want(xi[0]))


def test_ndbspline_errors(device):
    with ember.Device(device):
        t = (E(knots(3), device), E(knots(3), device))
        c = E(rng.standard_normal((8, 8)), device)
        for args, msg in (((list(t), c, 3), "tuple of array-likes"),
                          ((t, c, (3, 3, 3)), "len\\(t\\) = 2 != "),
                          ((t, c, -1), "cannot be negative"),
                          ((t, c[0], 3), "at least 2-dimensional"),
                          ((t, c[:5], 3), "inconsistent"),
                          (((t[0][::-1], t[1]), c, 3), "non-decreasing"),
                          (((t[0][:5], t[1]), c, 3), "Need at least 8")):
            with pytest.raises(ValueError, match=msg):
                ei.NdBSpline(*args)
        spl = ei.NdBSpline(t, c, 3)
        with pytest.raises(ValueError, match="Shapes: xi.shape"):
            spl(E(np.zeros((4, 3)), device))
        with pytest.raises(ValueError, match="derivative orders"):
            spl(E(np.zeros((4, 2)), device), nu=(1, 1, 1))
        with pytest.raises(ValueError, match="must be positive"):
            spl(E(np.zeros((4, 2)), device), nu=(-1, 0))


@pytest.mark.parametrize("rescale", [False, True])
def test_nearest(device, rescale):
    scale = np.array([1.0, 10.0, 100.0])
    p = rng.random((40, 3)) * scale
    v = rng.standard_normal((40, 2))
    q = (rng.random((6, 4, 3)) * 1.4 - 0.2) * scale
    want = si.NearestNDInterpolator(p, v, rescale=rescale)
    got = ei.NearestNDInterpolator(E(p, device), E(v, device),
                                   rescale=rescale)
    bound = 0.2 if rescale else 20.0
    for opts in ({}, {"distance_upper_bound": bound}, {"p": 1},
                 {"p": np.inf, "distance_upper_bound": bound},
                 {"eps": 0.0, "workers": 1}):
        r = got(E(q, device), **opts)
        assert r.dtype == ember.float64
        np.testing.assert_array_equal(ember.asnumpy(r), want(q, **opts))
    # coordinates as separate broadcastable arrays
    a, b, c = (E(q[..., j], device) for j in range(3))
    np.testing.assert_array_equal(ember.asnumpy(got(a, b, c)),
                                  want(q[..., 0], q[..., 1], q[..., 2]))


def test_nearest_values_and_shapes(device):
    p = rng.random((25, 2))
    for v in (np.arange(25), rng.random(25).astype(np.float32),
              rng.random(25) + 1j * rng.random(25)):
        want = si.NearestNDInterpolator(p, v)
        got = ei.NearestNDInterpolator(E(p, device), E(v, device))
        for args in (([0.5, 0.3],), (np.array([0.5, 0.3]),),
                     (rng.random((3, 2)),)):
            dargs = tuple(E(a, device) for a in args)
            w = want(*args)
            r = ember.asnumpy(got(*dargs))
            assert r.dtype == w.dtype and r.shape == w.shape
            np.testing.assert_array_equal(r, w)
        with ember.Device(device):
            w = want(0.5, 0.3)
            r = ember.asnumpy(got(0.5, 0.3))
            assert r.shape == w.shape and r == w


def test_nearest_errors(device):
    with ember.Device(device):
        v = E(np.arange(10.0), device)
        for pts, vals, msg in ((np.ones(10), v, "at least 2-D"),
                               (np.ones((10, 1)), v, "at least 2-D"),
                               (np.ones((10, 2, 1)), v, "invalid shape"),
                               (np.ones((10, 2)), v[:9], "different number")):
            with pytest.raises(ValueError, match=msg):
                si.NearestNDInterpolator(pts, ember.asnumpy(vals))
            with pytest.raises(ValueError, match=msg):
                ei.NearestNDInterpolator(E(pts, device), vals)
        f = ei.NearestNDInterpolator(E(rng.random((10, 2)), device), v)
        with pytest.raises(ValueError, match="number of dimensions in xi"):
            f(E(np.ones((4, 3)), device))
        with pytest.raises(TypeError, match="unexpected query options"):
            f(E(np.ones((4, 2)), device), k=3)


def test_ndbspline_design_matrix(device):
    t = (knots(3), knots(2, 3))
    xv = rng.random((9, 2)) * 1.2 - 0.1
    want = si.NdBSpline.design_matrix(xv, t, (3, 2)).toarray()
    got = ei.NdBSpline.design_matrix(E(xv, device),
                                     tuple(E(ti, device) for ti in t), (3, 2))
    ncoef = (t[0].size - 4) * (t[1].size - 3)
    assert got.shape == (9, ncoef)
    close(got[:, :want.shape[1]], want)
    assert not np.any(ember.asnumpy(got[:, want.shape[1]:]))
    # the matrix times the coefficients is the spline
    c = rng.standard_normal(ncoef)
    spl = si.NdBSpline(t, c.reshape(t[0].size - 4, t[1].size - 3), (3, 2))
    close(ember.matmul(got, E(c, device)), spl(xv))
    with pytest.raises(ValueError, match="Data and knots are inconsistent"):
        ei.NdBSpline.design_matrix(E(xv, device), (E(t[0], device),), 3)
