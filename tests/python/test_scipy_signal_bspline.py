"""ember.scipy.signal's B-spline filters against scipy.signal: cspline1d
and qspline1d (with smoothing for the cubic), cspline2d/qspline2d with
their precision rule, symiirorder1, the splines' evaluation inside and
mirrored outside the samples, spline_filter, gauss_spline, the signal
tutorial's cspline2d example, and SciPy's errors."""
import numpy as np
import pytest
import scipy.signal as ss

import ember
import ember.scipy.signal as es
from helpers import assert_close_scaled

rng = np.random.default_rng(17)


def E(x, device):
    return ember.asarray(x, device=device)


def close(got, want, tol=1e-12):
    assert_close_scaled(got, want, tol)


def same(got, want, tol=1e-12):
    """ember's call gives SciPy's answer, or a ValueError where SciPy's
    does (its starting sum needs more samples than a line has; for one
    sample SciPy's smoothing spline fails by an IndexError)."""
    try:
        w = want()
    except (ValueError, IndexError):
        with pytest.raises(ValueError):
            got()
        return
    close(got(), w, tol)


@pytest.mark.parametrize("n", [1, 2, 3, 30])
def test_1d_coefficients(device, n):
    x = rng.standard_normal(n)
    close(es.cspline1d(E(x, device)), ss.cspline1d(x))
    close(es.qspline1d(E(x, device)), ss.qspline1d(x))
    z = x + 1j * rng.standard_normal(n)
    close(es.cspline1d(E(z, device)), ss.cspline1d(z))
    close(es.cspline1d(E(x.astype(np.float32), device)),
          ss.cspline1d(x.astype(np.float32)), 1e-6)
    close(es.cspline1d(E(np.arange(n), device)),
          ss.cspline1d(np.arange(n)))
    for lamb in (0.5, 2.0, 8.0):
        same(lambda: es.cspline1d(E(x, device), lamb),
             lambda: ss.cspline1d(x, lamb))


def test_eval(device):
    x = rng.standard_normal(25)
    nx = np.r_[np.linspace(-60, 90, 401), 0, 24, 12.0]
    for fit, ev in ((ss.cspline1d, "cspline1d_eval"),
                    (ss.qspline1d, "qspline1d_eval")):
        c = fit(x)
        f, g = getattr(es, ev), getattr(ss, ev)
        close(f(E(c, device), E(nx, device)), g(c, nx))
        close(f(E(c, device), E(nx, device), dx=0.5, x0=3),
              g(c, nx, dx=0.5, x0=3))
        close(f(E(c, device), E(nx.reshape(4, -1).astype(np.float32),
                                  device)),
              g(c, nx.reshape(4, -1).astype(np.float32)), 1e-5)
        close(f(E(c, device), E(np.arange(-5, 40), device)),
              g(c, np.arange(-5, 40)))
        close(f(E(c, device), E(np.zeros(0), device)), g(c, np.zeros(0)))
        with pytest.raises(ValueError):
            f(E(np.zeros(0), device), E(nx, device))
    c = ss.cspline1d(x) * (1 + 2j)
    close(es.cspline1d_eval(E(c, device), E(nx, device)),
          ss.cspline1d_eval(c, nx))


@pytest.mark.parametrize("shape", [(20, 25), (7,), (3, 4, 30), (14, 3, 30)])
def test_2d(device, shape):
    X = rng.standard_normal(shape)
    x = E(X, device)
    same(lambda: es.cspline2d(x), lambda: ss.cspline2d(X))
    same(lambda: es.qspline2d(x), lambda: ss.qspline2d(X))
    for prec in (1e-3, 0.1, 5.0):
        same(lambda: es.cspline2d(x, 0.0, prec),
             lambda: ss.cspline2d(X, 0.0, prec))
        same(lambda: es.qspline2d(x, -1.0, prec),
             lambda: ss.qspline2d(X, -1.0, prec))
    X32 = X.astype(np.float32)
    same(lambda: es.cspline2d(E(X32, device)), lambda: ss.cspline2d(X32),
         1e-5)
    Z = (X + 1j * X[::-1]).astype(np.complex64)
    same(lambda: es.cspline2d(E(Z, device)), lambda: ss.cspline2d(Z), 1e-5)


def test_symiirorder1(device):
    X = rng.standard_normal((6, 40))
    with pytest.raises(ValueError):   # 0.9 ** 40 is not yet 1e-11
        es.symiirorder1(E(X, device), 1.0, 0.9)
    for c0, z1, prec in ((0.5, 0.3, -1.0), (2.0, -0.6, 1e-4),
                         (1.0, 0.9, 0.05)):
        close(es.symiirorder1(E(X, device), c0, z1, prec),
              ss.symiirorder1(X, c0, z1, prec))
        close(es.symiirorder1(E(X[0], device), c0, z1, prec),
              ss.symiirorder1(X[0], c0, z1, prec))
        X32 = X.astype(np.float32)
        close(es.symiirorder1(E(X32, device), c0, z1, prec),
              ss.symiirorder1(X32, c0, z1, prec), 1e-5)
    Z = X + 1j * X[::-1]
    close(es.symiirorder1(E(Z, device), 0.5, 0.3),
          ss.symiirorder1(Z, 0.5, 0.3))
    close(es.symiirorder1(E(np.arange(40), device), 0.5, 0.3),
          ss.symiirorder1(np.arange(40), 0.5, 0.3))
    # the starting sum must end before the line does, as SciPy's
    for n in range(1, 14):
        try:
            want = ss.symiirorder1(X[0, :n], 0.5, 0.3, 1e-6)
        except ValueError:
            with pytest.raises(ValueError):
                es.symiirorder1(E(X[0, :n], device), 0.5, 0.3, 1e-6)
        else:
            close(es.symiirorder1(E(X[0, :n], device), 0.5, 0.3, 1e-6),
                  want)
    for bad in ((E(X, device), 1.0, 1.0), (E(X, device), 1.0, -1.5),
                (E(X[None], device), 1.0, 0.5)):
        with pytest.raises(ValueError):
            es.symiirorder1(*bad)


def test_smoothing_2d_and_spline_filter(device):
    """lambda > 1/144: the smoothing spline of cspline1d's definition,
    along the last axis and then the first. SciPy's cspline2d starts its
    second-order passes with sums it truncates at `precision` (and differs
    from its own cspline1d there, near the edges); the interior agrees."""
    X = rng.standard_normal((60, 70))
    got = es.cspline2d(E(X, device), 8.0)
    rows = np.array([ss.cspline1d(r, 8.0) for r in X])
    want = np.array([ss.cspline1d(c, 8.0) for c in rows.T]).T
    close(got, want)
    close(ember.asnumpy(got)[20:-20, 20:-20],
          ss.cspline2d(X, 8.0)[20:-20, 20:-20], 1e-4)
    got = ember.asnumpy(es.spline_filter(E(X, device)))
    close(got[20:-20, 20:-20], ss.spline_filter(X)[20:-20, 20:-20], 1e-4)
    X32 = X.astype(np.float32)
    assert es.spline_filter(E(X32, device)).dtype == ember.float32
    with pytest.raises(TypeError):
        es.spline_filter(E(np.arange(12).reshape(3, 4), device))
    with pytest.raises(ValueError):
        es.qspline2d(E(X, device), 1.0)
    with pytest.raises(ValueError):
        es.qspline1d(E(X[0], device), 1.0)


def test_signal_tutorial(device):
    """The signal tutorial's B-spline example: cspline2d(image, 8.0), the
    derivative filter's sepfir2d pair, and the cubic spline of a 1-D signal
    evaluated between its samples."""
    image = rng.random((96, 80)).astype(np.float32) * 255
    image = image.astype(np.float64)
    derfilt = np.array([1.0, -2, 1.0], dtype=np.float32)
    ck = es.cspline2d(E(image, device), 8.0)
    deriv = es.sepfir2d(ck, E(derfilt, device), E([1.0], device)) + \
        es.sepfir2d(ck, E([1.0], device), E(derfilt, device))
    ck_s = ss.cspline2d(image, 8.0)
    want = ss.sepfir2d(ck_s, derfilt, [1]) + ss.sepfir2d(ck_s, [1], derfilt)
    close(ember.asnumpy(deriv)[25:-25, 25:-25], want[25:-25, 25:-25], 1e-4)
    x = np.arange(-10, 10)
    y = np.cos(-x**2 / 3.0)
    cj = es.cspline1d(E(y, device))
    xnew = np.linspace(-10, 10, 201)
    close(es.cspline1d_eval(cj, E(xnew, device), dx=1, x0=x[0]),
          ss.cspline1d_eval(ss.cspline1d(y), xnew, dx=1, x0=x[0]))


def test_gauss_spline(device):
    x = np.linspace(-4, 4, 33)
    for n in (0, 2, 3):
        close(es.gauss_spline(E(x, device), n), ss.gauss_spline(x, n))
