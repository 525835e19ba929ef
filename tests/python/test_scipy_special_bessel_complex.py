"""ember.scipy.special's Bessel functions of complex argument (the complex
loops of jv, yv, iv, kv, and hankel1, hankel2) against scipy.special's
AMOS: values over every quadrant and orders of both signs (to 1e-12 of
the terms' size: |H1| + |H2| for J, Y and the Hankel functions, |I| + |K|
for I and K, as a value near a zero or a cancelling reflection is no more
exact than those), the real axis against the real loops, the negative
real axis from both zero signs, SciPy's answers at 0, NaN and infinity,
dtypes, broadcasting and bad operands. (NVRTC compiles every loop of
these ops in the C test test_ewise_gen.)"""
import numpy as np
import pytest
import scipy.special as sp

import ember
import ember.scipy.special as es

rng = np.random.default_rng(23)
NAMES = ["jv", "yv", "iv", "kv", "hankel1", "hankel2"]


def E(x, device):
    return ember.asarray(x, device=device)


def scale(name, v, z):
    a = np.abs(v)
    with np.errstate(all="ignore"):
        if name in ("iv", "kv"):
            return np.abs(sp.iv(a, z)) + np.abs(sp.kv(a, z))
        return np.abs(sp.hankel1(a, z)) + np.abs(sp.hankel2(a, z))


def check(name, v, z, got, rtol=1e-12, dtype=np.complex128):
    got = ember.asnumpy(got)
    v, z = np.broadcast_arrays(np.asarray(v), np.asarray(z))
    with np.errstate(all="ignore"):
        want = getattr(sp, name)(v.astype(np.float64 if dtype == np.complex128
                                          else np.float32), z.astype(dtype))
    assert got.dtype == want.dtype and got.shape == want.shape, \
        (got.dtype, want.dtype, got.shape, want.shape)
    s = scale(name, v, z)
    fin = np.isfinite(want) & np.isfinite(s)
    err = np.abs(got[fin].astype(np.complex128) - want[fin]) / \
        np.where(s[fin] > 0, s[fin], 1)
    assert err.max(initial=0) <= rtol, (name, err.max(), v[fin][np.argmax(err)],
                                         z[fin][np.argmax(err)])
    return got, want


def samples():
    v = np.concatenate([rng.uniform(-25, 25, 300),
                        np.round(rng.uniform(-25, 25, 80)),
                        rng.uniform(-2, 2, 120), [0, 0.5, -0.5, 1, -1, 2.5]])
    r = np.concatenate([rng.uniform(0, 40, 300), rng.exponential(3, 80),
                        rng.uniform(0, 2.5, 120), [1, 2, 1.999, 2.001, 25, 1e-4]])
    th = rng.uniform(-np.pi, np.pi, r.size)
    return v, r * np.exp(1j * th)


@pytest.mark.parametrize("name", NAMES)
def test_against_scipy(device, name):
    v, z = samples()
    check(name, v, z, getattr(es, name)(E(v, device), E(z, device)))


@pytest.mark.parametrize("name", NAMES)
def test_axes_and_quadrants(device, name):
    """The real and imaginary axes, a grid over the four quadrants, small
    and moderately large |z| (Temme's series below |w| = 2, CF2 past it),
    the negative real axis from either zero sign (SciPy's AMOS takes the
    upper side for both)."""
    v = np.array([[0.0], [0.3], [1.0], [-1.0], [2.5], [-2.5], [7.2],
                  [-7.2], [30.0]])
    x = np.array([1e-4, 0.5, 1.9, 2.1, 7.0, 33.0])
    z = np.concatenate([x + 0j, -x + 0j, 1j * x, -1j * x,
                        (x + 1j * x) / np.sqrt(2), (-x + 2j * x) / 3,
                        (-x - 0.5j * x), (0.3 * x - 1j * x),
                        np.array([complex(-3.0, -0.0), complex(-0.5, -0.0)])])
    check(name, v, z, getattr(es, name)(E(v, device), E(z, device)))


@pytest.mark.parametrize("name", NAMES)
def test_tiny_arguments(device, name):
    """Below |z| = 1e-5 I (and J through it) is its series' first two
    terms: CF1 and the downward recurrence would overflow there."""
    v = np.array([[0.0], [0.3], [1.0], [2.5], [-1.5], [-2.0], [7.0]])
    z = np.array([1e-6 + 2e-6j, -3e-6 + 1e-7j, 9e-6j, -9.9e-6 - 1e-8j,
                  1e-12 + 0j, 1.1e-5 + 0j, 1e-5j, 1e-300 + 1e-300j,
                  -2e-200 + 0j])
    with np.errstate(all="ignore"):
        got, want = check(name, v, z, getattr(es, name)(E(v, device),
                                                         E(z, device)))
    if name in ("jv", "iv"):   # (z/2)^v underflows to 0, as SciPy's
        assert np.all(got[[3, 6], 7] == 0) and np.all(want[[3, 6], 7] == 0)


def test_real_axis_matches_real_loops(device):
    v = np.array([[0.0], [0.7], [-1.3], [3.0], [-4.0], [12.5]])
    x = np.array([0.05, 1.0, 3.0, 10.0, 40.0])
    for name in ("jv", "yv", "iv", "kv"):
        f = getattr(es, name)
        zc = f(E(v, device), E(x + 0j, device))
        zr = f(E(v, device), E(x, device))
        np.testing.assert_allclose(ember.asnumpy(zc).real,
                                   ember.asnumpy(zr),
                                   rtol=1e-12, atol=1e-300)
        # real there: the imaginary part is 0, past an overflow too
        assert np.all(ember.asnumpy(zc).imag == 0)
    big = es.yv(E(np.array([180.5]), device), E(np.array([1e-12 + 0j]),
                                                    device))
    assert ember.asnumpy(big)[0] == complex(-np.inf, 0)


def test_identities(device):
    """J = (H1 + H2)/2 and Y = (H1 - H2)/2i; conjugate symmetry off the
    cut."""
    v, z = samples()
    ve, ze = E(v, device), E(z, device)
    j, y = ember.asnumpy(es.jv(ve, ze)), ember.asnumpy(es.yv(ve, ze))
    h1 = ember.asnumpy(es.hankel1(ve, ze))
    h2 = ember.asnumpy(es.hankel2(ve, ze))
    s = np.abs(h1) + np.abs(h2)
    assert np.max(np.abs(j - (h1 + h2) / 2) / s) < 1e-13
    assert np.max(np.abs(y - (h1 - h2) / 2j) / s) < 1e-13
    off = np.abs(z.imag) > 1e-3
    jc = ember.asnumpy(es.jv(ve, E(np.conj(z), device)))
    np.testing.assert_allclose(jc[off], np.conj(j[off]), rtol=1e-13,
                               atol=1e-300)


@pytest.mark.parametrize("name", NAMES)
def test_edges_as_scipy(device, name):
    """At z = 0, NaN and infinite arguments and orders: SciPy's answers
    (NaN where AMOS gives NaN; at 0 the real loops' limits, and NaN for
    K and the Hankel functions)."""
    v = np.array([0.0, 1.0, 2.0, -1.0, -2.0, 1.5, -0.5, -2.5, np.nan,
                  np.inf, -np.inf])
    zs = np.array([0j, complex(np.nan, 0), complex(0, np.nan),
                   complex(np.inf, 0), complex(0, np.inf),
                   complex(-np.inf, 1), 1 + 1j])
    V, Z = np.meshgrid(v, zs)
    got = ember.asnumpy(getattr(es, name)(E(V, device), E(Z, device)))
    with np.errstate(all="ignore"):
        want = getattr(sp, name)(V, Z)
    # hankel2(0, 0) is nan+infj in SciPy: an artefact of H2 = J - iY
    skip = (name == "hankel2") & (V == 0) & (Z == 0)
    for part in ("real", "imag"):
        g, w = getattr(got, part)[~skip], getattr(want, part)[~skip]
        assert np.array_equal(np.isnan(g), np.isnan(w)), (name, part, V[~skip][np.isnan(g) != np.isnan(w)], Z[~skip][np.isnan(g) != np.isnan(w)])
        fin = ~np.isnan(w)
        np.testing.assert_allclose(g[fin], w[fin], rtol=1e-13, atol=0)
    assert np.all(np.isnan(got[skip]))


def test_dtypes_and_broadcasting(device):
    c64 = E((np.linspace(0.5, 9, 6) * (1 + 0.5j)).astype(np.complex64), device)
    c128 = E(np.linspace(0.5, 9, 6) * (1 - 0.5j), device)
    f32 = E(np.linspace(-2, 3, 6).astype(np.float32), device)
    f64 = E(np.linspace(-2, 3, 6), device)
    for name in NAMES:
        f = getattr(es, name)
        assert f(f32, c64).dtype == ember.complex64
        assert f(2, c64).dtype == ember.complex64
        assert f(2.5, c64).dtype == ember.complex64
        assert f(f64, c64).dtype == ember.complex128
        assert f(f32, c128).dtype == ember.complex128
        check(name, ember.asnumpy(f32), ember.asnumpy(c64), f(f32, c64),
              2e-6, np.complex64)
        g = f(E(np.array([[0.5], [1.5], [-2.0]]), device), c128)
        assert g.shape == (3, 6)
        check(name, np.array([[0.5], [1.5], [-2.0]]), ember.asnumpy(c128), g)
        # a Python complex is weak too: it takes the order's loop
        assert f(f64, 1 + 1j).dtype == ember.complex128
    # the Hankel functions have only complex loops: a real z is cast
    h = es.hankel1(f64, f64 + 3)
    assert h.dtype == ember.complex128
    check("hankel1", ember.asnumpy(f64), ember.asnumpy(f64) + 3, h)
    assert es.hankel2(f32, f32 + 3).dtype == ember.complex64
    out = ember.empty(6, dtype=ember.complex128, device=device)
    assert es.kv(1, c128, out=out) is out
    check("kv", 1.0, ember.asnumpy(c128), out)


def test_bad_operands(device):
    z = E(np.ones(3) + 1j, device)
    with pytest.raises(TypeError):
        es.jv(z, z)   # a complex order: SciPy has no loop for it
    with pytest.raises(TypeError):
        es.hankel1(z, z)
    with pytest.raises(ValueError):
        es.hankel1(E(np.ones(4), device), z)
    with pytest.raises(TypeError):
        es.hankel2(z)
