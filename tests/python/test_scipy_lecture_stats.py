"""What the Scientific Python Lectures' SciPy chapter calls and ember.scipy
lacked: special.factorial, stats.norm, stats.gmean and stats.normaltest
(with skewtest and kurtosistest), against SciPy on every device."""
import warnings

import numpy as np
import pytest
import scipy.special as ssp
import scipy.stats as ss

import ember
import ember.scipy.special as esp
import ember.scipy.stats as es

rng = np.random.default_rng(31)


def E(a, device):
    return ember.asarray(np.asarray(a), device=device)


def close(got, want, tol=1e-12):
    got = ember.asnumpy(got)
    want = np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol, equal_nan=True)


# ---- factorial ----------------------------------------------------------------

@pytest.mark.parametrize("values", [[-2.0, -0.5, 0.0, 1.0, 3.5, 5.0, 170.0, 171.5, np.nan],
                                    np.arange(-3, 25, dtype=np.int32),
                                    np.float32([0.5, 2.25, 7.0])])
def test_factorial_matches_scipy(device, values):
    a = np.asarray(values)
    # float32 n is a float32 gamma (SciPy's too): its last bits are the device's
    close(esp.factorial(E(a, device)), ssp.factorial(a),
          1e-6 if a.dtype == np.float32 else 1e-12)


def test_factorial_exact(device):
    a = np.array([[0, 1, 5], [-1, 12, 20]])
    got = esp.factorial(E(a, device), exact=True)
    assert got.dtype == ember.int64
    np.testing.assert_array_equal(ember.asnumpy(got), ssp.factorial(a, exact=True))
    assert esp.factorial(25, exact=True) == ssp.factorial(25, exact=True)
    with pytest.raises(OverflowError, match="20!"):
        esp.factorial(E([3, 21], device), exact=True)
    with pytest.raises(ValueError, match="integral"):
        esp.factorial(E([2.5], device), exact=True)
    with pytest.raises(ValueError, match="bool"):
        esp.factorial(E([True], device))
    with pytest.raises(ValueError, match="extend"):
        esp.factorial(E([1.0], device), extend="nope")


# ---- norm ---------------------------------------------------------------------

@pytest.mark.parametrize("method", ["pdf", "logpdf", "cdf", "logcdf", "sf", "logsf"])
def test_norm_functions_match_scipy(device, method):
    x = np.linspace(-9, 9, 37)
    loc = np.array([[0.0], [1.5], [-2.0]])
    scale = np.array([[1.0], [0.25], [-1.0]])     # a negative scale is NaN
    want = getattr(ss.norm, method)(x, loc, scale)
    close(getattr(es.norm, method)(E(x, device), E(loc, device), E(scale, device)), want,
          1e-10)
    frozen = es.norm(loc=E(loc, device), scale=E(scale, device))
    close(getattr(frozen, method)(E(x, device)), want, 1e-10)


@pytest.mark.parametrize("method", ["ppf", "isf"])
def test_norm_quantiles_match_scipy(device, method):
    q = np.array([-0.1, 0.0, 1e-12, 0.025, 0.5, 0.9, 1.0, 1.5])
    close(getattr(es.norm, method)(E(q, device), 2.0, 3.0),
          getattr(ss.norm, method)(q, 2.0, 3.0), 1e-10)


def test_norm_float32_and_moments(device):
    x = np.float32([-1, 0, 2])
    close(es.norm.pdf(E(x, device)), ss.norm.pdf(x), 1e-6)
    d = es.norm(loc=E(3.0, device), scale=E(2.0, device))
    for m in ("mean", "median", "var", "std"):
        close(getattr(d, m)(), getattr(ss.norm(3.0, 2.0), m)())


def test_norm_rvs_and_fit(device):
    with ember.Device(device):
        sample = es.norm(loc=1.0, scale=2.0).rvs(size=200000, random_state=5)
        again = es.norm.rvs(1.0, 2.0, size=200000, random_state=5)
    assert isinstance(sample, ember.ndarray) and sample.device == ember.Device(device)
    assert sample.shape == (200000,)
    np.testing.assert_array_equal(ember.asnumpy(sample), ember.asnumpy(again))
    loc, scale = es.norm.fit(sample)
    h = ember.asnumpy(sample)
    want_loc, want_scale = ss.norm.fit(h)
    np.testing.assert_allclose(float(loc), want_loc, rtol=1e-10)
    np.testing.assert_allclose(float(scale), want_scale, rtol=1e-10)
    assert abs(float(loc) - 1.0) < 0.05 and abs(float(scale) - 2.0) < 0.05
    loc, scale = es.norm.fit(sample, floc=0.0)
    np.testing.assert_allclose(float(scale), ss.norm.fit(h, floc=0.0)[1], rtol=1e-10)
    with pytest.raises(ValueError, match="non-finite"):
        es.norm.fit(E([1.0, np.inf], device))


# ---- gmean --------------------------------------------------------------------

@pytest.mark.parametrize("axis", [0, 1, None])
def test_gmean_matches_scipy(device, axis):
    a = rng.uniform(0.1, 5, (4, 6))
    close(es.gmean(E(a, device), axis=axis), ss.gmean(a, axis=axis))
    close(es.gmean(E(a, device), axis=axis, keepdims=True),
          ss.gmean(a, axis=axis, keepdims=True))
    # SciPy broadcasts weights against a: 1-D along the last axis only
    w = rng.uniform(0.5, 2, 6 if axis == 1 else (4, 6))
    close(es.gmean(E(a, device), axis=axis, weights=E(w, device)),
          ss.gmean(a, axis=axis, weights=w))


def test_gmean_zero_negative_integer_float32(device):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            for a in ([0.0, 2.0], [-1.0, 2.0], [1, 2, 4]):
                close(es.gmean(E(a, device)), ss.gmean(np.asarray(a)))
    f = np.float32([1, 2, 4])
    close(es.gmean(E(f, device)), ss.gmean(f), 1e-6)
    with pytest.raises(ValueError, match="nan"):
        es.gmean(E([1.0, np.nan], device), nan_policy="raise")


# ---- normaltest ---------------------------------------------------------------

@pytest.mark.parametrize("name", ["normaltest", "skewtest", "kurtosistest"])
@pytest.mark.parametrize("axis", [0, 1, None])
def test_normality_tests_match_scipy(device, name, axis):
    a = np.concatenate([rng.standard_normal((3, 50)), rng.standard_exponential((2, 50))])
    a = a if axis != 0 else a.T
    want = getattr(ss, name)(a, axis=axis)
    got = getattr(es, name)(E(a, device), axis=axis)
    close(got.statistic, want.statistic, 1e-9)
    close(got.pvalue, want.pvalue, 1e-9)


def test_normality_tests_bad_input(device):
    with pytest.raises(ValueError, match="at least 8"):
        es.normaltest(E(np.arange(7.0), device))
    with pytest.raises(ValueError, match="at least 5"):
        es.kurtosistest(E(np.arange(4.0), device))
    with pytest.raises(NotImplementedError, match="alternative"):
        es.skewtest(E(np.arange(20.0), device), alternative="less")
