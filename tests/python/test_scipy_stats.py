"""ember.scipy.stats against scipy.stats on every device: values, dtypes
and shapes along each axis, NaN policies, empty inputs, and SciPy's
exception classes and messages for bad arguments."""
import warnings

import numpy as np
import pytest
import scipy.stats as ss

import ember
import ember.scipy.stats as es

rng = np.random.default_rng(2718)
TOL = {"float32": 2e-5, "float64": 1e-12}


def E(a, device):
    return ember.asarray(np.asarray(a), device=device)


def check(got, want, dtype=None):
    want = np.asarray(want)
    got = ember.asnumpy(got)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    tol = TOL[dtype or want.dtype.name]
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol, equal_nan=True)


def ref(f, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            return f(*a, **k)


# ---- boxcox_llf -------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("lmb", [0, 0.5, -1.3, 2.0])
@pytest.mark.parametrize("axis", [0, 1, None])
def test_boxcox_llf(device, dtype, lmb, axis):
    x = rng.lognormal(size=(7, 5)).astype(dtype)
    check(es.boxcox_llf(lmb, E(x, device), axis=axis),
          ref(ss.boxcox_llf, lmb, x, axis=axis), dtype)


def test_boxcox_llf_large_lambda_and_keepdims(device):
    # data**lmb overflows float64 here; the log-likelihood does not
    x = rng.uniform(1e3, 1e4, size=(50, 2))
    check(es.boxcox_llf(150.0, E(x, device)), ss.boxcox_llf(150.0, x))
    check(es.boxcox_llf(0.3, E(x, device), axis=1, keepdims=True),
          ss.boxcox_llf(0.3, x, axis=1, keepdims=True))


def test_boxcox_llf_ints_edges(device):
    x = np.array([1, 2, 3, 7], np.int64)
    check(es.boxcox_llf(0.5, E(x, device)), ss.boxcox_llf(0.5, x))
    for data in (np.zeros((0, 3)), np.ones((3, 0)), np.array([-1.0, 2.0, 3.0]),
                 np.array([4.0])):
        check(es.boxcox_llf(1.0, E(data, device)), ref(ss.boxcox_llf, 1.0, data))


def test_boxcox_llf_errors(device):
    x = E([1.0, np.nan, 2.0], device)
    with pytest.raises(ValueError, match="The input contains nan values"):
        es.boxcox_llf(1.0, x, nan_policy="raise")
    with pytest.raises(ValueError, match="nan_policy must be one of"):
        es.boxcox_llf(1.0, x, nan_policy="foo")
    with pytest.raises(np.exceptions.AxisError):
        es.boxcox_llf(1.0, x, axis=1)
    check(es.boxcox_llf(1.0, x), ref(ss.boxcox_llf, 1.0, ember.asnumpy(x)))


# ---- entropy -----------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("axis", [0, 1, -1, None])
@pytest.mark.parametrize("base", [None, 2, 10.0])
def test_entropy(device, dtype, axis, base):
    p = rng.uniform(size=(4, 6)).astype(dtype)
    p[1, 2] = 0
    q = rng.uniform(0.1, 1, size=(4, 6)).astype(dtype)
    check(es.entropy(E(p, device), base=base, axis=axis),
          ss.entropy(p, base=base, axis=axis), dtype)
    check(es.entropy(E(p, device), E(q, device), base=base, axis=axis),
          ss.entropy(p, q, base=base, axis=axis), dtype)


def test_entropy_broadcast_ints_edges(device):
    p = np.array([[1, 2, 3]], np.int8)
    q = np.array([[1], [2]], np.int64)
    check(es.entropy(E(p, device), E(q, device), axis=1), ss.entropy(p, q, axis=1))
    check(es.entropy(E(p, device), keepdims=True, axis=1),
          ss.entropy(p, keepdims=True, axis=1))
    # zero where q is zero and p is not: inf; a negative p: -inf
    check(es.entropy(E([1.0, 1.0], device), E([1.0, 0.0], device)),
          ss.entropy([1.0, 1.0], [1.0, 0.0]))
    check(es.entropy(E([1.0, -2.0, 3.0], device)), ref(ss.entropy, [1.0, -2.0, 3.0]))
    check(es.entropy(E(np.zeros(0), device)), ss.entropy(np.zeros(0)))
    check(es.entropy(E(np.zeros((0, 3)), device)), ss.entropy(np.zeros((0, 3))))


def test_entropy_errors(device):
    with pytest.raises(ValueError, match="`base` must be a positive number or `None`."):
        es.entropy(E([1.0, 2.0], device), base=-1)
    with pytest.raises(ValueError, match="Array shapes are incompatible for broadcasting."):
        es.entropy(E([1.0, 2.0, 3.0], device), E([1.0, 2.0], device))
    with pytest.raises(np.exceptions.AxisError):
        es.entropy(E(np.ones((2, 3)), device), axis=2)
    with pytest.raises(ValueError, match="The input contains nan values"):
        es.entropy(E([1.0, np.nan], device), nan_policy="raise")
    with pytest.raises(NotImplementedError, match="omit"):
        es.entropy(E([1.0, np.nan], device), nan_policy="omit")


# ---- trim_mean ---------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float64", "float32", "int32"])
@pytest.mark.parametrize("axis", [0, 1, None])
@pytest.mark.parametrize("cut", [0.0, 0.1, 0.25, 0.49])
def test_trim_mean(device, dtype, axis, cut):
    a = (rng.standard_normal((11, 8)) * 50).astype(dtype)
    a[3, :] = a[4, :]   # ties sort as any order does
    want = ss.trim_mean(a, cut, axis=axis)
    check(es.trim_mean(E(a, device), cut, axis=axis), want,
          "float32" if dtype == "float32" else "float64")


def test_trim_mean_edges(device):
    check(es.trim_mean(E([1.0, 2.0], device), 0.6), ref(ss.trim_mean, [1.0, 2.0], 0.6))
    check(es.trim_mean(E([1.0, 2.0], device), -0.1), ss.trim_mean([1.0, 2.0], -0.1))
    for shape, axis in (((0,), 0), ((0, 3), 0), ((3, 0), 0), ((0, 3), 1)):
        z = np.zeros(shape)
        check(es.trim_mean(E(z, device), 0.1, axis=axis),
              ref(ss.trim_mean, z, 0.1, axis=axis))
    a = rng.standard_normal((5, 4))
    check(es.trim_mean(E(a, device), 0.2, axis=1, keepdims=True),
          ss.trim_mean(a, 0.2, axis=1, keepdims=True))


def test_trim_mean_nan(device):
    a = np.array([[1.0, 2.0, np.nan], [1.0, 2.0, 3.0]])
    check(es.trim_mean(E(a, device), 0.34, axis=1), ss.trim_mean(a, 0.34, axis=1))
    check(es.trim_mean(E(a, device), 0.34, axis=None), ss.trim_mean(a, 0.34, axis=None))
    with pytest.raises(ValueError, match="The input contains nan values"):
        es.trim_mean(E(a, device), 0.1, nan_policy="raise")


def test_trim_mean_errors(device):
    with pytest.raises(ValueError, match="Proportion too big."):
        es.trim_mean(E([1.0, 2.0, 3.0], device), 0.9)
    with pytest.raises(np.exceptions.AxisError):
        es.trim_mean(E(np.arange(10.0), device), 0.1, axis=1)


# ---- zscore and zmap ---------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
@pytest.mark.parametrize("axis", [0, 1, None])
@pytest.mark.parametrize("ddof", [0, 1])
def test_zscore(device, dtype, axis, ddof):
    a = (rng.standard_normal((6, 5)) * 10).astype(dtype)
    want = ss.zscore(a, axis=axis, ddof=ddof)
    check(es.zscore(E(a, device), axis=axis, ddof=ddof), want,
          "float32" if dtype == "float32" else "float64")


@pytest.mark.parametrize("axis", [0, 1, None])
@pytest.mark.parametrize("policy", ["propagate", "omit"])
def test_zscore_nan_policy(device, axis, policy):
    a = rng.standard_normal((6, 5))
    a[1, 2] = a[4, 0] = np.nan
    a[:, 3] = np.nan   # a column with nothing left under omit
    a[2, :] = 7.0      # a constant row: NaN along axis 1
    check(es.zscore(E(a, device), axis=axis, nan_policy=policy, ddof=1),
          ref(ss.zscore, a, axis=axis, nan_policy=policy, ddof=1))


def test_zscore_edges(device):
    for a in ([1.0, 1.0, 1.0], [1e10, 1e10 + 1e-5, 1e10], np.zeros(0)):
        check(es.zscore(E(a, device)), ref(ss.zscore, a))
    check(es.zscore(E([1.0, 2.0, 3.0], device), ddof=3),
          ref(ss.zscore, [1.0, 2.0, 3.0], ddof=3))
    a32 = np.array([1, 2, 3], np.float32)
    check(es.zscore(E(a32, device), nan_policy="omit"), ss.zscore(a32, nan_policy="omit"))


def test_zmap(device):
    s = rng.standard_normal((4, 3))
    c = rng.standard_normal((9, 3))
    check(es.zmap(E(s, device), E(c, device)), ss.zmap(s, c))
    check(es.zmap(E(s, device), E(c, device), ddof=1), ss.zmap(s, c, ddof=1))
    c2 = rng.standard_normal((4, 7))
    check(es.zmap(E(s, device), E(c2, device), axis=1)[:, :1],
          ss.zmap(s, c2, axis=1)[:, :1])
    check(es.zmap(E(s, device), E(c2[:, :3], device), axis=None),
          ss.zmap(s, c2[:, :3], axis=None))
    check(es.zmap(E([1.0, 2.0, 3.0], device), E([1.0, np.nan], device),
                  nan_policy="omit"),
          ref(ss.zmap, [1.0, 2.0, 3.0], [1.0, np.nan], nan_policy="omit"))
    check(es.zmap(E([1.0, 2.0, 3.0], device), E(np.zeros(0), device)),
          ref(ss.zmap, [1.0, 2.0, 3.0], []))
    # mixed dtypes promote as SciPy's (float32 scores, float64 compare)
    s32 = s.astype(np.float32)
    check(es.zmap(E(s32, device), E(c, device)), ss.zmap(s32, c))


def test_zscore_zmap_errors(device):
    with pytest.raises(ValueError, match="nan_policy must be one of"):
        es.zscore(E([1.0, 2.0], device), nan_policy="foo")
    with pytest.raises(ValueError, match="The input contains nan values"):
        es.zscore(E([1.0, np.nan], device), nan_policy="raise")
    with pytest.raises(ValueError, match="The input contains nan values"):
        es.zmap(E([1.0, 2.0], device), E([1.0, np.nan], device), nan_policy="raise")
    # NaN in the scores only is not 'raise''s business (SciPy checks compare)
    check(es.zmap(E([1.0, np.nan], device), E([1.0, 2.0, 3.0], device), nan_policy="raise"),
          ss.zmap([1.0, np.nan], [1.0, 2.0, 3.0], nan_policy="raise"))
    with pytest.raises(np.exceptions.AxisError):
        es.zscore(E([1.0, 2.0, 3.0], device), axis=1)
    with pytest.raises(ValueError):
        es.zmap(E([1.0, 2.0, 3.0], device), E([[1.0, 2.0], [3.0, 4.0]], device))


def test_zero_dim(device):
    # one sample: SciPy's functions take a 0-d input as a 1-element one
    x = E(np.float64(3.0), device)
    check(es.entropy(x), ss.entropy(3.0))
    check(es.entropy(x, E(np.float64(2.0), device)), ss.entropy(3.0, 2.0))
    check(es.trim_mean(x, 0.1), ss.trim_mean(3.0, 0.1))
    check(es.boxcox_llf(0.5, x), ref(ss.boxcox_llf, 0.5, 3.0))
    check(es.zscore(x, axis=None), ref(ss.zscore, 3.0, axis=None))


def test_lists_on_the_current_device(device):
    with ember.Device(device):
        z = es.zscore([1.0, 2.0, 4.0])
        assert str(z.device) == str(ember.Device(device))
        check(z, ss.zscore([1.0, 2.0, 4.0]))
        check(es.entropy([1, 2, 3], [3, 2, 1]), ss.entropy([1, 2, 3], [3, 2, 1]))
