"""ember.scipy.special's Bessel functions of real order (jv, jn, yv, yn,
iv, kv), jn_zeros and the real loggamma against scipy.special: values
(float64 to 1e-13 of the value's scale: near a zero of an oscillating
function, or where a negative order's reflection cancels, the scale is
the size of the terms, not the result's), SciPy's answers at 0, below 0
and at the infinities, dtypes, broadcasting, bad arguments, and the
Special-functions tutorial's drumhead. (NVRTC compiles every loop of
these ops in the C test test_ewise_gen.)"""
import math

import numpy as np
import pytest
import scipy.special as sp

import ember
import ember.scipy.special as es

rng = np.random.default_rng(7)
# SciPy's yn warns as it truncates a float order; so do float32 casts of
# the large test values
pytestmark = pytest.mark.filterwarnings(
    "ignore:floating point number truncated", "ignore:overflow encountered")


def host(a):
    return ember.asnumpy(a)


def scale(name, v, x):
    """The size of the terms each value is made of (SciPy's own)."""
    with np.errstate(all="ignore"):
        a, ax = np.abs(v), np.abs(x)
        s = np.abs(getattr(sp, name)(v, x))
        if name in ("jv", "yv", "yn"):
            s = s + np.where(a < ax, np.sqrt(2 / np.pi / ax), 0)
            s = s + np.where(v < 0, np.abs(sp.jv(a, ax)) + np.abs(sp.yv(a, ax)), 0)
        if name == "iv":
            s = s + np.where(v < 0, np.abs(sp.kv(a, ax)), 0)
    return s


def check(name, v, x, got, rtol, dtype="float64"):
    got = host(got)
    with np.errstate(all="ignore"):
        want = getattr(sp, name)(np.asarray(v, dtype), np.asarray(x, dtype))
    assert got.dtype == want.dtype and got.shape == want.shape
    fin = np.isfinite(want)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    assert np.array_equal(got[~fin & ~np.isnan(want)], want[~fin & ~np.isnan(want)])
    s = scale(name, *np.broadcast_arrays(np.asarray(v, np.float64),
                                         np.asarray(x, np.float64)))[fin]
    err = np.abs(got[fin].astype(np.float64) - want[fin]) / np.where(s > 0, s, 1)
    where = np.broadcast_to(np.asarray(v), want.shape)[fin]
    assert err.max(initial=0) <= rtol, (name, err.max(),
                                         where[np.argmax(err)])


def samples(name):
    v = np.concatenate([rng.uniform(-30, 30, 400), np.round(rng.uniform(-30, 30, 100)),
                        rng.uniform(-3, 3, 200), [0.0, 0.5, -0.5, 1.0, -1.0, 2.5]])
    x = np.concatenate([rng.uniform(0, 60, 400), rng.exponential(5, 100),
                        rng.uniform(0, 3, 200), [1.0, 2.0, 24.9, 25.0, 25.1, 1e-5]])
    if name == "jv":  # integer orders reach negative arguments
        x[400:500] *= rng.choice([-1, 1], 100)
    return v, x


@pytest.mark.parametrize("name", ["jv", "yv", "iv", "kv"])
def test_against_scipy(device, name):
    v, x = samples(name)
    f = getattr(es, name)
    check(name, v, x, f(ember.asarray(v, device=device),
                        ember.asarray(x, device=device)), 1e-13)
    # float32: SciPy's float32 loop rounds the double result, as ember's
    v32, x32 = v.astype(np.float32), x.astype(np.float32)
    check(name, v32, x32, f(ember.asarray(v32, device=device),
                            ember.asarray(x32, device=device)), 2e-6, "float32")


def test_large_orders_and_arguments(device):
    E = lambda a: ember.asarray(np.asarray(a, np.float64), device=device)
    # large arguments (Hankel's expansion, with the order stepped up)
    v = rng.uniform(-5, 5, 100)
    x = 10 ** rng.uniform(2, 6, 100)
    for name in ("jv", "yv"):
        check(name, v, x, getattr(es, name)(E(v), E(x)), 1e-13)
    # orders to 200 there: SciPy's own values are off by up to 8e-11
    # of the amplitude (against mpmath at 40 digits; ember's by 3e-15)
    v = rng.uniform(0, 200, 100)
    for name in ("jv", "yv"):
        check(name, v, x, getattr(es, name)(E(v), E(x)), 2e-10)
    # large orders, where SciPy's AMOS values are good to about 1e-13
    v = rng.uniform(50, 300, 100)
    x = rng.uniform(1, 400, 100)
    for name in ("jv", "yv", "iv", "kv"):
        check(name, v, x, getattr(es, name)(E(v), E(x)), 3e-13)
    # past under- and overflow, SciPy's 0 and infinities
    v = np.array([1000.0, 50.0, 0.0, 400.0, 1e5, 800.5])
    x = np.array([1.0, 1e4, 1e4, 1e-3, 10.0, 700.0])
    for name in ("jv", "yv", "iv", "kv"):
        check(name, v, x, getattr(es, name)(E(v), E(x)), 3e-13)
    # order 1e20: SciPy's AMOS gives up (NaN) but for iv; ember answers
    big = E([1e20]), E([5.0])
    assert host(es.iv(*big))[0] == sp.iv(1e20, 5.0) == 0
    assert host(es.jv(*big))[0] == 0 and host(es.yv(*big))[0] == -np.inf
    assert host(es.kv(*big))[0] == np.inf
    # small arguments (the series, and Temme's at the switch)
    v = rng.uniform(-6, 6, 100)
    x = 10 ** rng.uniform(-12, -3, 100)
    for name in ("jv", "yv", "iv", "kv"):
        check(name, v, x, getattr(es, name)(E(v), E(x)), 1e-13)


EDGES = np.array([-np.inf, -3.5, -3.0, -2.5, -2.0, -1.5, -1.0, -0.75, -0.5,
                  -0.25, -0.0, 0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0,
                  10.0, 1e3, np.inf, np.nan])


@pytest.mark.parametrize("name", ["jv", "yv", "iv", "kv", "yn"])
def test_edges_as_scipy(device, name):
    v, x = (a.ravel() for a in np.meshgrid(EDGES, EDGES))
    with np.errstate(all="ignore"):
        want = getattr(sp, name)(v, x)
    got = host(getattr(es, name)(ember.asarray(v, device=device),
                                 ember.asarray(x, device=device)))
    if name == "jv":
        # SciPy's AMOS gives J of an infinite order NaN past x = 2 and 0
        # below; ember gives the limit, 0, everywhere
        odd = np.isinf(v) & (x > 2) & np.isfinite(x)
        assert np.all(got[odd] == 0)
        v, x = v[~odd], x[~odd]
    # the infinities' signs are SciPy's (the zeros' are not all: SciPy's
    # jv(1.5, 0) is -0)
    f = getattr(es, name)
    # (SciPy's iv and kv at order and argument 1000 are 1.5e-13 off)
    check(name, v, x, f(ember.asarray(v, device=device),
                        ember.asarray(x, device=device)), 2e-13)


def test_negative_order_reflection(device):
    # half-integer orders are exact: J_-1/2 = -Y_1/2, Y_-3/2 = -J_3/2
    x = np.array([0.3, 1.0, 7.5, 40.0])
    E = lambda a: ember.asarray(np.asarray(a, np.float64), device=device)
    np.testing.assert_allclose(host(es.jv(-0.5, E(x))), -sp.yv(0.5, x), rtol=1e-14)
    np.testing.assert_allclose(host(es.yv(-1.5, E(x))), -sp.jv(1.5, x), rtol=1e-14)
    # integer orders: (-1)^n and, for J and I, negative arguments
    n = np.array([-3.0, -2.0, 3.0, 4.0])
    check("jv", n, -x, es.jv(E(n), E(-x)), 1e-14)
    check("iv", n, -x, es.iv(E(n), E(-x)), 1e-14)
    check("kv", n, x, es.kv(E(n), E(x)), 1e-14)


def test_jn_is_jv_and_yn(device):
    assert es.jn is es.jv
    x = np.linspace(0.1, 30, 37)
    n = np.arange(-6, 6).reshape(-1, 1)
    got = es.yn(ember.asarray(n, device=device), ember.asarray(x, device=device))
    assert got.shape == (12, 37) and got.dtype == ember.float64
    check("yn", n, x, got, 1e-13)
    # the float loops truncate the order, as SciPy's casts do
    with np.errstate(all="ignore"):
        want = sp.yn(np.array([2.7, -1.2, np.nan, np.inf]), 1.5)
    got = host(es.yn(ember.asarray([2.7, -1.2, np.nan, np.inf], device=device), 1.5))
    np.testing.assert_allclose(got, want, rtol=1e-14, equal_nan=True)


def test_dtypes_and_broadcasting(device):
    f32 = ember.asarray(np.linspace(0.5, 9, 6, dtype=np.float32), device=device)
    f64 = ember.asarray(np.linspace(0.5, 9, 6), device=device)
    i64 = ember.asarray(np.arange(6), device=device)
    for name in ("jv", "yv", "iv", "kv"):
        f = getattr(es, name)
        assert f(f32, f32).dtype == ember.float32
        assert f(2, f32).dtype == ember.float32  # a Python int is weak
        assert f(2.5, f32).dtype == ember.float32
        assert f(i64, f32).dtype == ember.float64
        assert f(f32, f64).dtype == ember.float64
        g = f(ember.asarray(np.array([[0.5], [1.5], [-2.0]]), device=device), f64)
        assert g.shape == (3, 6)
        check(name, np.array([[0.5], [1.5], [-2.0]]), host(f64), g, 1e-13)
    # yn's first loop is SciPy's int64-and-double one
    assert es.yn(2, f32).dtype == ember.float64
    assert es.yn(f32, f32).dtype == ember.float32
    assert es.loggamma(f32).dtype == ember.float32
    assert es.loggamma(i64).dtype == ember.float64
    out = ember.empty(6, dtype=ember.float64, device=device)
    r = es.jv(1, f64, out=out)
    assert r is out
    np.testing.assert_allclose(host(out), sp.jv(1, host(f64)), rtol=1e-14)


def test_loggamma(device):
    x = np.concatenate([EDGES, [1e-300, 1e300], rng.uniform(0, 50, 200),
                        10 ** rng.uniform(-5, 5, 100), -rng.uniform(0, 9, 20)])
    with np.errstate(all="ignore"):
        want = sp.loggamma(x)
    got = host(es.loggamma(ember.asarray(x, device=device)))
    assert got.dtype == np.float64
    # near its zeros at 1 and 2 the C library's lgamma and SciPy's agree
    # absolutely
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-15, equal_nan=True)
    # where x > 0 it is gammaln
    p = x[x > 0]
    np.testing.assert_allclose(got[x > 0], sp.gammaln(p), rtol=1e-13, atol=1e-15)
    g32 = host(es.loggamma(ember.asarray(x.astype(np.float32), device=device)))
    with np.errstate(all="ignore"):
        w32 = sp.loggamma(x.astype(np.float32))
    assert g32.dtype == w32.dtype == np.float32
    np.testing.assert_allclose(g32, w32, rtol=2e-6, atol=1e-6, equal_nan=True)


@pytest.mark.parametrize("n,nt", [(0, 1), (0, 30), (1, 5), (2, 40), (5, 12),
                                  (10, 3), (-3, 7), (50, 20), (1200, 2),
                                  (3, 500)])
def test_jn_zeros(n, nt):
    got = es.jn_zeros(n, nt)
    assert isinstance(got, ember.ndarray) and got.dtype == ember.float64
    want = sp.jn_zeros(n, nt)
    assert got.shape == want.shape
    np.testing.assert_allclose(host(got), want, rtol=1e-13)
    # and they are zeros of jv
    assert np.max(np.abs(host(es.jv(abs(n), got)))) < 1e-14


def test_jn_zeros_bad_arguments():
    for args, msg in [((1.5, 3), "integers"), ((1, 2.5), "integers"),
                      ((1, 0), "nt > 0"), ((1, -2), "nt > 0"),
                      (([1], 2), "scalars"), ((1, np.array([2, 3])), "scalars")]:
        with pytest.raises(ValueError, match=msg):
            sp.jn_zeros(*args)
        with pytest.raises(ValueError, match=msg):
            es.jn_zeros(*args)
    # integral floats and NumPy integers are integers, as SciPy's
    np.testing.assert_allclose(host(es.jn_zeros(2.0, np.int64(3))),
                               sp.jn_zeros(2, 3), rtol=1e-13)


def test_bad_operands(device):
    a = ember.asarray(np.ones(3), device=device)
    with pytest.raises(ValueError):
        es.jv(a, ember.asarray(np.ones(4), device=device))  # shapes
    with pytest.raises(TypeError):
        es.jv(a)  # two arguments
    with pytest.raises(TypeError):
        es.loggamma(a, a, a, a)


def test_drumhead_tutorial(device):
    """special.rst's drumhead, with scipy.special as ember.scipy.special
    and NumPy's functions as ember's."""
    def height(mod, spc, n, k, distance, angle, t):
        kth_zero = spc.jn_zeros(n, k)[-1]
        return mod.cos(t) * mod.cos(n * angle) * spc.jn(n, distance * kth_zero)

    theta = np.linspace(0, 2 * np.pi, 50)
    radius = np.linspace(0, 1, 50)
    want = np.array([height(np, sp, 1, 1, r, theta, 0.5) for r in radius])
    # the tutorial's program on one device: jn_zeros makes its zeros on
    # the current one, as ember's constructors do
    with ember.Device(device):
        th = ember.asarray(theta)
        got = ember.stack([height(ember, es, 1, 1, float(r), th, 0.5)
                           for r in radius])
    np.testing.assert_allclose(host(got), want, rtol=1e-13, atol=1e-15)
