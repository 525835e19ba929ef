"""ember.scipy.special against scipy.special: values (within the
precision's rounding: the C library's and CUDA's functions differ from
SciPy's Cephes in the last bits), dtypes as SciPy resolves them, SciPy's
answers at poles and infinities, broadcasting and the compositions."""
import numpy as np
import pytest
import scipy
import scipy.special as sp

import ember
import ember.scipy.special as es
from conftest import HAVE_NVRTC
from ember.scipy import _special_beta

UNARY = ["erf", "erfc", "gamma", "gammaln", "expit", "logit", "log_expit",
         "ndtr", "j0", "j1", "y0", "y1", "sinc", "erfinv", "erfcinv", "digamma",
         "i0", "i1", "zeta"]
EDGES = np.array([-np.inf, -800.0, -171.5, -2.5, -2.0, -1.0, -0.5, -0.0, 0.0,
                  1e-300, 0.3, 0.5, 1.0, 2.0, 3.7, 30.5, 171.2, 800.0, np.inf,
                  np.nan])


def host(x):
    return ember.asnumpy(x)


def close(got, want, dtype):
    """got has dtype (SciPy 1.18's resolution) and want's values; want may
    come from an older SciPy that computed in float64."""
    got = host(got)
    want = np.asarray(want).astype(dtype)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape
    rtol = 2e-5 if want.dtype == np.float32 else 2e-12
    with np.errstate(invalid="ignore"):
        np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol * 1e-3,
                                   equal_nan=True)
    # the sign of a zero or an infinity is part of the answer
    both = np.isinf(want) | (want == 0)
    assert np.array_equal(np.signbit(got[both]), np.signbit(want[both]))


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_unary_against_scipy(device, name, dtype):
    rng = np.random.default_rng(3)
    x = np.concatenate([EDGES, rng.uniform(-6, 6, 200),
                        rng.uniform(0, 1, 100)]).astype(dtype)
    if name in ("logit", "erfinv", "erfcinv"):
        # their domains' ends and tails: [0, 1], [-1, 1], [0, 2]
        t = 10.0 ** -np.arange(1, 15)
        x = np.concatenate([x, [0.0, 1.0, -1.0, 2.0, 1e-12, 1 - 1e-7], t,
                            1 - t, -1 + t, 2 - t, 10.0 ** -np.arange(20, 300, 23)]
                           ).astype(dtype)
    with np.errstate(all="ignore"):
        want = getattr(sp, name)(x)
    got = getattr(es, name)(ember.asarray(x, device=device))
    if name in ("gamma", "gammaln") and dtype == "float32":
        # float32 tgamma/lgamma near the poles: compare where SciPy's
        # value is not within float32 rounding of a pole
        keep = ~(np.abs(x - np.round(x)) < 1e-3) | (x > 0)
        got, want = host(got)[keep], want[keep]
    if name in ("j0", "j1", "y0", "y1"):
        # past |x| = 8 CUDA bounds their absolute error, not the relative
        # (j0f: 2.2e-6 in the CUDA Math API's tables): there, absolutely
        got, far = host(got), np.abs(x) >= 8
        with np.errstate(invalid="ignore"):
            np.testing.assert_allclose(
                got[far], want[far], rtol=0, equal_nan=True,
                atol=5e-6 if dtype == "float32" else 1e-12)
        got, want = got[~far], want[~far]
    close(got, want, dtype)


@pytest.mark.parametrize("name", ["xlogy", "xlog1py"])
def test_binary_against_scipy(device, name):
    x = np.array([0.0, 0.0, 0.0, 1.0, -2.0, 3.0, np.nan, 0.0, 2.5])
    y = np.array([0.0, np.nan, -1.0, 0.0, 5.0, -0.5, 1.0, np.inf, 1e-300])
    with np.errstate(all="ignore"):
        want = getattr(sp, name)(x, y)
    f = getattr(es, name)
    close(f(ember.asarray(x, device=device), ember.asarray(y, device=device)),
          want, "float64")
    # broadcasting and Python scalars (weak, as NumPy 2's)
    m = np.linspace(0.1, 3, 12).reshape(3, 4).astype(np.float32)
    close(f(ember.asarray(m, device=device), 2.0), getattr(sp, name)(m, 2.0),
          "float32")
    close(f(ember.asarray(m[:, :1], device=device),
            ember.asarray(m[0], device=device)),
          getattr(sp, name)(m[:, :1], m[0]), "float32")


def test_i1_tails(device):
    """i1 past the power series (x > 20: the asymptotic one), to the edge
    of exp's range (inf past 709.78, as SciPy's), odd in x."""
    x = np.concatenate([np.linspace(15, 30, 61), np.geomspace(30, 709, 40),
                        [709.9, 750.0]])
    x = np.concatenate([x, -x])
    with np.errstate(over="ignore"):
        want = sp.i1(x)
    close(es.i1(ember.asarray(x, device=device)), want, "float64")


def test_zeta_against_scipy(device):
    """Riemann's zeta across its reflection (x < -20) and its poles, and
    Hurwitz's zeta(x, q) on a grid of x and q with SciPy's domain: inf at
    x = 1 and at q = 0, -1, ...; NaN below x = 1 and for q < 0 with a
    fractional x."""
    x = np.concatenate([np.linspace(-60, 60, 241), [-201.0, -171.5, -300.5,
                        -200.0, 1 - 1e-9, 1 + 1e-9, 1e-300, -1e-300, 1.5]])
    with np.errstate(all="ignore"):
        close(es.zeta(ember.asarray(x, device=device)), sp.zeta(x), "float64")
    xs = np.array([1.0, 1.0001, 1.5, 2.0, 2.5, 3.0, 7.0, 30.5, 100.0, 0.5,
                   -2.0, np.inf, np.nan])[:, None]
    qs = np.array([1.0, 0.5, 1e-3, 2.0, 9.5, 10.5, 1e3, 1e9, np.inf, 0.0,
                   -1.0, -0.5, -2.5, np.nan])[None, :]
    with np.errstate(all="ignore"):
        want = sp.zeta(xs, qs)
    got = es.zeta(ember.asarray(xs, device=device),
                  ember.asarray(qs, device=device))
    close(got, want, "float64")
    # float32 loops and a Python scalar q
    x32 = np.linspace(1.1, 8, 20).astype(np.float32)
    close(es.zeta(ember.asarray(x32, device=device), 2.0),
          sp.zeta(x32, 2.0), "float32")
    out = ember.zeros(20, dtype=ember.float32, device=device)
    assert es.zeta(ember.asarray(x32, device=device), out=out) is out
    close(out, sp.zeta(x32), "float32")


# SciPy 1.18's dtypes (f->f is its first loop, as CuPy's), read off
# scipy.special 1.18.1 on NumPy 2.5.2: input -> erf(x), xlogy(x, x),
# xlogy(x, 2.0). SciPy 1.17 listed d->d first (float16 -> float64).
SCIPY_118 = {"float16": ("float32", "float32", "float32"),
             "float32": ("float32", "float32", "float32"),
             "float64": ("float64", "float64", "float64"),
             "int8": ("float32", "float32", "float64"),
             "int32": ("float64", "float64", "float64"),
             "uint16": ("float32", "float32", "float64"),
             "bool": ("float32", "float32", "float64")}
NEW_SCIPY = tuple(int(v) for v in scipy.__version__.split(".")[:2]) >= (1, 18)


def test_dtypes_resolve_as_scipy(device):
    """SciPy 1.18's loop order; sinc keeps float16, as np.sinc."""
    for t, (unary, binary, scalar) in SCIPY_118.items():
        h = np.ones(3, t)
        e = ember.asarray(h, device=device)
        for name in ("erf", "gamma", "expit", "j0", "i1", "zeta"):
            got = getattr(es, name)(e).dtype
            assert got == unary, (name, t, got)
            if NEW_SCIPY:
                assert got == getattr(sp, name)(h).dtype, (name, t)
        assert es.xlogy(e, e).dtype == binary, t
        assert es.xlogy(e, 2.0).dtype == scalar, t
        if NEW_SCIPY:
            assert es.xlogy(e, 2.0).dtype == sp.xlogy(h, 2.0).dtype, t
        assert es.sinc(e).dtype == np.sinc(h).dtype, t
    assert es.erf.__name__ == "erf" and es.xlogy.nin == 2
    # ufunc machinery: out= and where=
    x = ember.asarray(np.linspace(-2, 2, 8), device=device)
    out = ember.zeros(8, device=device)
    assert es.erf(x, out=out) is out
    close(out, sp.erf(np.linspace(-2, 2, 8)), "float64")
    # the names stay out of ember's NumPy namespace
    assert not hasattr(ember, "erf") and not hasattr(ember, "gammaln")


def test_compositions(device):
    rng = np.random.default_rng(5)
    a = rng.standard_normal((4, 6)) * 30
    e = ember.asarray(a, device=device)
    for axis in (None, 0, 1, -1):
        for keep in (False, True):
            close(es.logsumexp(e, axis=axis, keepdims=keep),
                  np.asarray(sp.logsumexp(a, axis=axis, keepdims=keep)),
                  "float64")
        close(es.softmax(e, axis=axis), sp.softmax(a, axis=axis), "float64")
        close(es.log_softmax(e, axis=axis), sp.log_softmax(a, axis=axis),
              "float64")
    b = rng.uniform(-1, 1, (4, 6))
    r, s = es.logsumexp(e, axis=1, b=ember.asarray(b, device=device),
                        return_sign=True)
    r2, s2 = sp.logsumexp(a, axis=1, b=b, return_sign=True)
    close(r, r2, "float64")
    close(s, s2, "float64")
    p = rng.uniform(0.1, 5, 20)
    q = rng.uniform(-3.5, 5, 20)
    close(es.betaln(ember.asarray(p, device=device),
                    ember.asarray(q, device=device)), sp.betaln(p, q),
          "float64")
    close(es.beta(ember.asarray(p, device=device),
                  ember.asarray(q, device=device)), sp.beta(p, q), "float64")


def test_betaln_large(device):
    """log B(a, b) where an argument is large: the gammas' logarithms are
    80,000 and more there, log B a few tens, and a plain difference of them
    is 8e-13 off at (2, 1e4). At an integer a, B(a, b) = (a-1)! / (b (b+1)
    ... (b+a-1)) gives the answer to an ulp or two (SciPy 1.17's betaln is
    itself 5e-13 off at (2, 1e4), 2e-11 at (1e6, 3) and 1.3e-11 at (1/2,
    1e5)); elsewhere
    SciPy's to its 1e-11; float32 in float32."""
    import math
    if device == "cpu" and HAVE_NVRTC:   # the same source through NVRTC
        _special_beta._betaln_kernel()._set_check_cuda(True)
    ia = np.r_[1, 2, 3, 5, 2, 3, 4]
    ib = np.r_[1e4, 1e4, 1e3, 123456.5, 1e6, 3e5, 20.0]
    want = [math.log(math.factorial(k - 1)) - math.fsum(math.log(v + j) for j in range(k))
            for k, v in zip(ia, ib)]
    got = host(es.betaln(ember.asarray(ia.astype(np.float64), device=device),
                         ember.asarray(ib, device=device)))
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, want, rtol=1e-14)
    got = host(es.betaln(ember.asarray(ib, device=device),   # b >= 10 first
                         ember.asarray(ia.astype(np.float64), device=device)))
    np.testing.assert_allclose(got, want, rtol=1e-14)
    # B(1/2, b) = sqrt(pi) Gamma(b) / Gamma(b + 1/2), whose ratio's
    # logarithm is (log b) / 2 - 1 / (8 b) + 1 / (192 b^3) + O(b^-5)
    b = 1e5
    got = host(es.betaln(ember.asarray([0.5], device=device), b))
    np.testing.assert_allclose(got, [math.log(math.pi) / 2 - (
        math.log(b) / 2 - 1 / (8 * b) + 1 / (192 * b ** 3))], rtol=1e-14)
    a = np.r_[30, 1e4, 1e-3, 7.5, 1e-300, 12.0, 3e5]
    b = np.r_[1e3, 1e4, 50, 9.5, 1e4, 10.0, 3e5]
    got = host(es.betaln(ember.asarray(a, device=device),
                         ember.asarray(b, device=device)))
    np.testing.assert_allclose(got, sp.betaln(a, b), rtol=1e-11)
    got32 = es.betaln(ember.asarray(a.astype(np.float32), device=device), 2.0)
    close(got32, sp.betaln(a.astype(np.float32), np.float32(2.0)), "float32")
    with pytest.raises(TypeError, match="betaln"):
        es.betaln(ember.asarray([1j], device=device), 1.0)
