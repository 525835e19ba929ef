"""unique (NumPy's and the Array API's), isin/in1d and the set operations
against NumPy on every device."""
import warnings

import numpy as np
import pytest

import ember

from helpers import assert_array_equal_np

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
          "uint32", "uint64", "float16", "float32", "float64"]


def _data(dtype, n, distinct=50, seed=0):
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.integers(0, 2, n).astype(bool)
    v = rng.integers(0, distinct, n)
    if np.dtype(dtype).kind == "i":
        v = v - distinct // 2
    return v.astype(dtype)


def _check_unique(a, device, **kw):
    x = ember.asarray(a, device=device)
    got = ember.unique(x, return_index=True, return_inverse=True,
                       return_counts=True, **kw)
    exp = np.unique(a, return_index=True, return_inverse=True,
                    return_counts=True, **kw)
    for g, e in zip(got, exp):
        assert_array_equal_np(g, e, device)
    # ember's sort is always stable, so of -0.0 and 0.0 the first in input
    # order is kept: NumPy's choice with return_index (its plain unique
    # uses an unstable sort and may keep either)
    assert_array_equal_np(ember.unique(x, **kw),
                          np.unique(a, return_index=True, **kw)[0], device)


@pytest.mark.parametrize("dtype", DTYPES)
def test_unique_dtypes(device, dtype):
    _check_unique(_data(dtype, 3001, seed=1), device)


@pytest.mark.parametrize("n", [0, 1, 2, 255, 257, 65537])
def test_unique_sizes(device, n):
    _check_unique(_data("int32", n, distinct=max(1, n // 3), seed=n), device)


def test_unique_large(device):
    a = _data("int64", 2_000_003, distinct=100_000, seed=2)
    _check_unique(a, device)
    _check_unique(np.full(100_001, 7, np.int32), device)


@pytest.mark.parametrize("dtype", ["int32", "uint32", "int64", "uint64"])
@pytest.mark.parametrize("n,distinct", [(0, 1), (1, 1), (2, 2), (4097, 3),
                                        (200_003, 5000), (300_001, 290_000)])
def test_unique_plain_ints(device, dtype, n, distinct):
    # plain unique of 4- and 8-byte integers goes through a hash set; the
    # all-ones pattern (-1, or the maximum unsigned) is the table's empty
    # key and must still come out
    a = _data(dtype, n, distinct=distinct, seed=n)
    if n > 10:
        a[3] = np.array(-1).astype(dtype)
        a[-1] = np.iinfo(dtype).min
    x = ember.asarray(a, device=device)
    assert_array_equal_np(ember.unique(x), np.unique(a), device)
    # return_counts: a counter per slot, sorted with the values
    got = ember.unique(x, return_counts=True)
    exp = np.unique(a, return_counts=True)
    assert_array_equal_np(got[0], exp[0], device)
    assert_array_equal_np(got[1], exp[1], device)


def test_unique_hash_fallback(device, monkeypatch):
    # a table too small for the distinct values overflows and unique falls
    # back to sorting: the same answer
    a = _data("int64", 100_003, distinct=3000, seed=4)
    monkeypatch.setenv("EMBER_TEST_HASH_SLOTS_LOG2", "8")
    assert_array_equal_np(ember.unique(ember.asarray(a, device=device)),
                          np.unique(a), device)
    got = ember.unique(ember.asarray(a, device=device), return_counts=True)
    exp = np.unique(a, return_counts=True)
    assert_array_equal_np(got[1], exp[1], device)
    monkeypatch.delenv("EMBER_TEST_HASH_SLOTS_LOG2")
    # more distinct values than the largest table holds at half load
    b = np.random.default_rng(5).permutation(2_500_000).astype(np.int32)
    assert_array_equal_np(ember.unique(ember.asarray(b, device=device)),
                          np.unique(b), device)


def test_unique_special_floats(device):
    a = np.array([np.nan, 1.0, -0.0, 0.0, np.inf, -np.inf, np.nan, 1.0,
                  0.0, -0.0, np.nan])
    _check_unique(a, device)
    _check_unique(a, device, equal_nan=False)
    _check_unique(a.astype(np.float32), device)
    _check_unique(np.full(5, np.nan), device)


def test_unique_layouts(device):
    a = _data("int16", 6 * 7 * 5, seed=3).reshape(6, 7, 5)
    x = ember.asarray(a, device=device)
    for av, xv in [(a, x), (a[::-2, 1:, ::3], x[::-2, 1:, ::3]),
                   (a.T, x.T)]:
        got = ember.unique(xv, return_index=True, return_inverse=True,
                           return_counts=True)
        exp = np.unique(av, return_index=True, return_inverse=True,
                        return_counts=True)
        for g, e in zip(got, exp):
            assert_array_equal_np(g, e, device)
    s = ember.asarray(np.int32(4), device=device)
    assert_array_equal_np(ember.unique(s), np.unique(np.int32(4)), device)
    b = np.arange(4)
    assert_array_equal_np(ember.unique(ember.asarray(b, device=device),
                                       axis=0), np.unique(b, axis=0), device)


def test_unique_array_api(device):
    a = np.array([3.0, np.nan, 1.0, 3.0, np.nan, 2.0, 1.0])
    x = ember.asarray(a, device=device)
    assert_array_equal_np(ember.unique_values(x), np.unique_values(a), device)
    v, c = ember.unique_counts(x)
    e = np.unique_counts(a)
    assert_array_equal_np(v, e.values, device)
    assert_array_equal_np(c, e.counts, device)
    v, i = ember.unique_inverse(x)
    e = np.unique_inverse(a)
    assert_array_equal_np(v, e.values, device)
    assert_array_equal_np(i, e.inverse_indices, device)
    v, idx, inv, c = ember.unique_all(x)
    e = np.unique_all(a)
    assert_array_equal_np(v, e.values, device)
    assert_array_equal_np(idx, e.indices, device)
    assert_array_equal_np(inv, e.inverse_indices, device)
    assert_array_equal_np(c, e.counts, device)


def test_unique_bad_input(device):
    with pytest.raises(TypeError, match="unique.*complex128"):
        ember.unique(ember.asarray(np.ones(3, complex), device=device))
    x = ember.asarray(np.ones((2, 2)), device=device)
    with pytest.raises(ember.AxisError):
        ember.unique(x, axis=2)
    with pytest.raises(NotImplementedError, match="axis"):
        ember.unique(x, axis=0)


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint8", "float32",
                                   "float64", "float16"])
def test_isin(device, dtype):
    a = _data(dtype, 5001, distinct=200, seed=4).reshape(3, 1667)
    b = _data(dtype, 300, distinct=400, seed=5)
    x, y = ember.asarray(a, device=device), ember.asarray(b, device=device)
    for invert in (False, True):
        assert_array_equal_np(ember.isin(x, y, invert=invert),
                              np.isin(a, b, invert=invert), device)
    assert_array_equal_np(ember.in1d(x, y), np.isin(a, b).ravel(), device)


def test_isin_special(device):
    a = np.array([np.nan, 0.0, -0.0, 1.0, np.inf, 2.5])
    b = np.array([np.nan, -0.0, np.inf, 7.0])
    x, y = ember.asarray(a, device=device), ember.asarray(b, device=device)
    assert_array_equal_np(ember.isin(x, y), np.isin(a, b), device)
    assert_array_equal_np(ember.isin(x, ember.asarray(np.zeros(0), device=device)),
                          np.isin(a, np.zeros(0)), device)
    assert_array_equal_np(
        ember.isin(ember.asarray(np.zeros(0), device=device), y),
        np.isin(np.zeros(0), b), device)
    # mixed dtypes compare in the promoted type
    i = np.array([1, 2, 3], np.int32)
    assert_array_equal_np(ember.isin(ember.asarray(i, device=device),
                                     ember.asarray(np.array([2.0, 3.5]),
                                                   device=device)),
                          np.isin(i, np.array([2.0, 3.5])), device)


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64",
                                   "uint16"])
def test_set_ops(device, dtype):
    a = _data(dtype, 2001, distinct=300, seed=6)
    b = _data(dtype, 1503, distinct=500, seed=7).reshape(3, 501)
    x, y = ember.asarray(a, device=device), ember.asarray(b, device=device)
    assert_array_equal_np(ember.union1d(x, y), np.union1d(a, b), device)
    assert_array_equal_np(ember.intersect1d(x, y), np.intersect1d(a, b),
                          device)
    assert_array_equal_np(ember.setdiff1d(x, y), np.setdiff1d(a, b), device)
    assert_array_equal_np(ember.setxor1d(x, y), np.setxor1d(a, b), device)
    got = ember.intersect1d(x, y, return_indices=True)
    exp = np.intersect1d(a, b, return_indices=True)
    for g, e in zip(got, exp):
        assert_array_equal_np(g, e, device)
    ua, ub = np.unique(a), np.unique(b)
    xu, yu = ember.asarray(ua, device=device), ember.asarray(ub, device=device)
    assert_array_equal_np(ember.intersect1d(xu, yu, assume_unique=True),
                          np.intersect1d(ua, ub, assume_unique=True), device)
    got = ember.intersect1d(xu, yu, assume_unique=True, return_indices=True)
    exp = np.intersect1d(ua, ub, assume_unique=True, return_indices=True)
    for g, e in zip(got, exp):
        assert_array_equal_np(g, e, device)
    assert_array_equal_np(ember.setdiff1d(xu, yu, assume_unique=True),
                          np.setdiff1d(ua, ub, assume_unique=True), device)
    assert_array_equal_np(ember.setxor1d(xu, yu, assume_unique=True),
                          np.setxor1d(ua, ub, assume_unique=True), device)


def test_set_ops_mixed_and_empty(device):
    a = np.array([1, 5, 3, 3, 9], np.int32)
    b = np.array([3.0, 9.5, 1.0, np.nan])
    e = np.zeros(0, np.int64)
    x, y = ember.asarray(a, device=device), ember.asarray(b, device=device)
    z = ember.asarray(e, device=device)
    for fn in ("union1d", "intersect1d", "setdiff1d", "setxor1d"):
        for (p, q), (pn, qn) in [((x, y), (a, b)), ((x, z), (a, e)),
                                 ((z, x), (e, a)), ((z, z), (e, e))]:
            assert_array_equal_np(getattr(ember, fn)(p, q),
                                  getattr(np, fn)(pn, qn), device)
    with pytest.raises(TypeError, match="complex"):
        ember.union1d(x, ember.asarray(np.ones(2, complex), device=device))


# ---- median, quantile, percentile ------------------------------------------

QDTYPES = ["int8", "int32", "int64", "uint8", "uint64", "float16", "float32",
           "float64"]


def _close(got, exp, device, src=None):
    exp = np.asarray(exp)
    assert got.dtype == exp.dtype, (got.dtype, exp.dtype)
    assert got.shape == exp.shape, (got.shape, exp.shape)
    assert got.device == ember.Device(device)
    g = ember.asnumpy(got)
    if exp.dtype == np.float64 and src != np.float16:
        # ember computes in float64 exactly as NumPy's float64 path
        np.testing.assert_array_equal(g, exp)
    else:
        # NumPy interpolates float16/float32 in their own precision; ember
        # in float64, rounded once
        tol = 2e-3 if np.float16 in (exp.dtype, src) else 1e-6
        np.testing.assert_allclose(g, exp, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", QDTYPES)
def test_median_quantile_dtypes(device, dtype):
    # small integers: NumPy subtracts neighbours in the integer type and
    # wraps on overflow, ember interpolates in float64
    a = _data(dtype, 6 * 35, distinct=100, seed=8).reshape(6, 35)
    if np.dtype(dtype).kind == "f":
        a = (a / 7).astype(dtype)
    x = ember.asarray(a, device=device)
    src = np.dtype(dtype)
    _close(ember.median(x), np.median(a), device, src)
    for axis in (0, 1, -1):
        _close(ember.median(x, axis=axis), np.median(a, axis=axis), device,
               src)
        _close(ember.quantile(x, 0.3, axis=axis),
               np.quantile(a, 0.3, axis=axis), device, src)
    _close(ember.quantile(x, [0.0, 0.25, 0.5, 0.75, 1.0], axis=1),
           np.quantile(a, [0.0, 0.25, 0.5, 0.75, 1.0], axis=1), device, src)
    _close(ember.percentile(x, [[10, 90], [33.3, 50]], axis=0),
           np.percentile(a, [[10, 90], [33.3, 50]], axis=0), device, src)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 255, 257, 100001])
def test_quantile_sizes(device, n):
    a = np.random.default_rng(n).standard_normal(n)
    x = ember.asarray(a, device=device)
    _close(ember.median(x), np.median(a), device)
    qs = np.linspace(0, 1, 13)
    _close(ember.quantile(x, qs), np.quantile(a, qs), device)
    _close(ember.percentile(x, 37.5), np.percentile(a, 37.5), device)


def test_quantile_keepdims_layouts_nan(device):
    a = np.random.default_rng(9).standard_normal((5, 4, 6))
    a[1, 2, 3] = np.nan
    a[3, 0, 0] = np.inf
    a[0, 1, 1] = -0.0
    x = ember.asarray(a, device=device)
    with np.errstate(invalid="ignore"):
        for axis in (None, 0, 1, 2, (1,), (0, 2), (2, 0), (0, 1, 2), ()):
            for kd in (False, True):
                _close(ember.median(x, axis=axis, keepdims=kd),
                       np.median(a, axis=axis, keepdims=kd), device)
                _close(ember.quantile(x, [0.2, 0.9], axis=axis, keepdims=kd),
                       np.quantile(a, [0.2, 0.9], axis=axis, keepdims=kd),
                       device)
        v = a[::-1, :, ::2]
        _close(ember.median(x[::-1, :, ::2], axis=1), np.median(v, axis=1),
               device)
    b = np.array([True, False, True, True])
    _close(ember.median(ember.asarray(b, device=device)), np.median(b), device)


def test_quantile_bad_input(device):
    x = ember.asarray(np.arange(5.0), device=device)
    with pytest.raises(ValueError, match="Quantiles must be in the range"):
        ember.quantile(x, 1.5)
    with pytest.raises(ValueError, match="Percentiles must be in the range"):
        ember.percentile(x, [-1, 50])
    with pytest.raises(ember.AxisError):
        ember.median(x, axis=1)
    with pytest.raises(ValueError, match="repeated axis"):
        ember.median(ember.asarray(np.ones((2, 2)), device=device),
                     axis=(0, -2))
    with pytest.raises(ValueError, match="method"):
        ember.quantile(x, 0.5, method="nearest")
    with pytest.raises(TypeError, match="median.*complex"):
        ember.median(ember.asarray(np.ones(3, complex), device=device))
    with pytest.raises(TypeError, match="bool"):
        ember.quantile(ember.asarray(np.ones(3, bool), device=device), 0.5)


def test_nan_quantiles(device):
    rng = np.random.default_rng(10)
    a = rng.standard_normal((6, 9))
    a[rng.random((6, 9)) < 0.3] = np.nan
    a[2, :] = np.nan
    x = ember.asarray(a, device=device)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for axis in (None, 0, 1):
            _close(ember.nanmedian(x, axis=axis), np.nanmedian(a, axis=axis),
                   device)
            _close(ember.nanquantile(x, [0.1, 0.5, 0.95], axis=axis),
                   np.nanquantile(a, [0.1, 0.5, 0.95], axis=axis), device)
            _close(ember.nanpercentile(x, 40, axis=axis, keepdims=True),
                   np.nanpercentile(a, 40, axis=axis, keepdims=True), device)
    i = np.arange(10, dtype=np.int32)
    _close(ember.nanmedian(ember.asarray(i, device=device)), np.nanmedian(i),
           device)


def test_bfloat16(device):
    # NumPy has no bfloat16: compare with the same values as float32
    a = np.array([1.5, -2.0, 1.5, 0.25, np.nan, 3.0, -0.0, 0.0], np.float32)
    x = ember.asarray(a, device=device).astype(ember.bfloat16)
    u = ember.unique(x)
    assert u.dtype == ember.bfloat16
    np.testing.assert_array_equal(ember.asnumpy(u.astype(ember.float32)),
                                  np.unique(a))
    m = ember.median(x)
    assert m.dtype == ember.bfloat16
    assert np.isnan(ember.asnumpy(m.astype(ember.float32)))
    q = ember.nanquantile(x, 0.5)
    assert float(ember.asnumpy(q.astype(ember.float32))) == np.nanquantile(a, 0.5)
    assert_array_equal_np(ember.isin(x, [1.5, 3.0]), np.isin(a, [1.5, 3.0]),
                          device)
    h, e = ember.histogram(x, bins=3, range=(0, 3))
    assert_array_equal_np(h, np.histogram(a, bins=3, range=(0, 3))[0], device)
    assert_array_equal_np(ember.digitize(x, [0, 1, 2]),
                          np.digitize(a, [0, 1, 2]), device)
