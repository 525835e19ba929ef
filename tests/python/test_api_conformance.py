"""Array API 2024.12 gaps closed by issue 18: sort/argsort descending and
stable, unique_* named tuples (complex too), complex sinh/cosh/expm1
special cases, meshgrid/broadcast_arrays lists, arange(stop, step=),
boolean masks with zero-size axes, take_along_axis's default axis, eye
with a huge k. Checked against NumPy 2 or the standard's tables."""
import math

import numpy as np
import pytest

import ember
from helpers import assert_array_equal_np


def E(a, device):
    return ember.asarray(np.asarray(a), device=device)


@pytest.mark.parametrize("dtype", [np.int32, np.uint8, np.float64, np.float32, np.bool_,
                                   np.complex128])
@pytest.mark.parametrize("axis", [-1, 0, None])
def test_sort_descending(device, dtype, axis):
    rng = np.random.default_rng(5)
    a = rng.integers(0, 4, size=(5, 7)).astype(dtype)
    if dtype == np.complex128:
        a = a + 1j * rng.integers(0, 2, size=(5, 7))
    ea = E(a, device)
    asc = np.sort(a, axis=axis)
    want = np.flip(asc, axis=axis if axis is not None else 0)
    assert_array_equal_np(ember.sort(ea, axis=axis, descending=True), want, device)
    assert_array_equal_np(ember.sort(ea, axis=axis, descending=False, stable=True), asc,
                          device)
    # stable descending: ties keep their original order (the standard's rule)
    got = ember.argsort(ea, axis=axis, descending=True, stable=True)
    flat = a.ravel() if axis is None else a
    ax = 0 if axis is None else axis
    n = flat.shape[ax]
    want_i = (n - 1) - np.flip(np.argsort(np.flip(flat, axis=ax), axis=ax, stable=True),
                               axis=ax)
    assert_array_equal_np(got, want_i, device)
    # the meaning, directly: values descend; equal values by increasing index
    g = ember.asnumpy(got)
    assert_array_equal_np(E(np.take_along_axis(flat, g, axis=ax), device), want, device)
    pos = np.take_along_axis(np.broadcast_to(np.arange(n).reshape(
        [-1 if d == ax % flat.ndim else 1 for d in range(flat.ndim)]), flat.shape), g,
        axis=ax)
    vals = np.take_along_axis(flat, g, axis=ax)
    same = np.diff(vals, axis=ax) == 0 if dtype != np.bool_ else \
        ~np.diff(vals, axis=ax)
    assert np.all(np.diff(pos, axis=ax)[same] > 0)
    assert_array_equal_np(ember.argsort(ea, axis=axis, stable=True),
                          np.argsort(a, axis=axis, stable=True), device)


def test_sort_descending_nan_and_empty(device):
    a = np.array([2.0, np.nan, -1.0, 2.0])
    assert_array_equal_np(ember.sort(E(a, device), descending=True), np.sort(a)[::-1],
                          device)
    assert_array_equal_np(ember.argsort(E(a, device), descending=True, stable=True),
                          np.array([1, 0, 3, 2]), device)
    assert_array_equal_np(ember.sort(E(np.zeros((0, 3)), device), axis=0, descending=True),
                          np.zeros((0, 3)), device)


@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.complex128, np.complex64])
def test_unique_named_tuples(device, dtype):
    x = np.array([[3, 1, 2], [1, 3, 3]], dtype=dtype)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * np.array([[0, 1, 0], [1, 0, 2]])
    ex = E(x, device)
    ua, na = ember.unique_all(ex), np.unique_all(x)
    assert type(ua).__name__ == "UniqueAllResult" and isinstance(ua, tuple)
    assert ua._fields == ("values", "indices", "inverse_indices", "counts")
    for f in ua._fields:
        assert_array_equal_np(getattr(ua, f), getattr(na, f), device)
    uc, nc = ember.unique_counts(ex), np.unique_counts(x)
    assert_array_equal_np(uc.values, nc.values, device)
    assert_array_equal_np(uc.counts, nc.counts, device)
    ui, ni = ember.unique_inverse(ex), np.unique_inverse(x)
    assert_array_equal_np(ui.values, ni.values, device)
    assert_array_equal_np(ui.inverse_indices, ni.inverse_indices, device)
    v, iv = ui
    assert_array_equal_np(v, ni.values, device)
    # NumPy 2.3+ leaves unique_values unsorted (the standard allows any
    # order); ember's are sorted.
    assert_array_equal_np(ember.unique_values(ex), np.sort(np.unique_values(x)), device)
    assert "UniqueAllResult(values=" in repr(ua)


def test_unique_complex_nan_and_empty(device):
    x = np.array([1 + 1j, complex(np.nan, 0), 1 + 1j, complex(np.nan, 0), 0j])
    for f in ("unique_all", "unique_counts", "unique_inverse"):
        got, want = getattr(ember, f)(E(x, device)), getattr(np, f)(x)
        for g, w in zip(got, want):
            assert_array_equal_np(g, w, device)
    e = np.zeros(0, dtype=np.complex64)
    for g, w in zip(ember.unique_all(E(e, device)), np.unique_all(e)):
        assert_array_equal_np(g, w, device)


INF, NAN = math.inf, math.nan


def _eq(got, want):
    # The standard leaves some signs unspecified: None there.
    for g, w in ((got.real, want[0]), (got.imag, want[1])):
        if w is None:
            continue
        if math.isnan(w):
            assert math.isnan(g), (got, want)
        else:
            assert g == w, (got, want)
            if w == 0:
                assert math.copysign(1, g) == math.copysign(1, w), (got, want)


def _cis(r, y):
    return (r * math.cos(y), r * math.sin(y))


# (input, cosh, sinh, expm1), from the standard's special-case tables
SPECIAL = [
    ((0.0, 0.0), (1.0, 0.0), (0.0, 0.0), (0.0, 0.0)),
    ((0.0, INF), (NAN, None), (None, NAN), (NAN, NAN)),
    ((0.0, NAN), (NAN, None), (None, NAN), (NAN, NAN)),
    ((1.5, INF), (NAN, NAN), (NAN, NAN), (NAN, NAN)),
    ((1.5, NAN), (NAN, NAN), (NAN, NAN), (NAN, NAN)),
    ((INF, 0.0), (INF, 0.0), (INF, 0.0), (INF, 0.0)),
    ((INF, 2.0), _cis(INF, 2.0), _cis(INF, 2.0), _cis(INF, 2.0)),
    ((INF, INF), (None, NAN), (None, NAN), (None, NAN)),
    ((INF, NAN), (INF, NAN), (None, NAN), (None, NAN)),
    ((NAN, 0.0), (NAN, None), (NAN, 0.0), (NAN, 0.0)),
    ((NAN, 1.0), (NAN, NAN), (NAN, NAN), (NAN, NAN)),
    ((NAN, NAN), (NAN, NAN), (NAN, NAN), (NAN, NAN)),
    ((-INF, 2.0), (INF * math.cos(2.0), -INF * math.sin(2.0)),
     (-INF * math.cos(2.0), INF * math.sin(2.0)), (-1.0, 0.0)),
    ((-INF, INF), (None, NAN), (None, NAN), (-1.0, None)),
    ((-INF, NAN), (INF, NAN), (None, NAN), (-1.0, None)),
    ((1000.0, 0.0), (INF, 0.0), (INF, 0.0), (INF, 0.0)),
]


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_complex_special_cases(device, dtype):
    z = np.array([complex(*s[0]) for s in SPECIAL], dtype=dtype)
    out = {f: ember.asnumpy(getattr(ember, f)(E(z, device)))
           for f in ("cosh", "sinh", "expm1")}
    for k, (_, ch, sh, em1) in enumerate(SPECIAL):
        _eq(complex(out["cosh"][k]), ch)
        _eq(complex(out["sinh"][k]), sh)
        _eq(complex(out["expm1"][k]), em1)
    # finite values still match NumPy
    w = np.array([0.3 + 0.7j, -2.0 + 1.0j, 5.0 - 0.1j, 1e-10 + 1e-10j], dtype=dtype)
    ew = E(w, device)
    tol = 1e-6 if dtype == np.complex64 else 1e-14
    for f in ("cosh", "sinh", "expm1"):
        np.testing.assert_allclose(ember.asnumpy(getattr(ember, f)(ew)),
                                   getattr(np, f)(w), rtol=tol)


def test_lists_and_arange(device):
    a, b = E(np.arange(3), device), E(np.arange(2.0), device)
    m = ember.meshgrid(a, b)
    assert isinstance(m, list)
    for g, w in zip(m, np.meshgrid(np.arange(3), np.arange(2.0))):
        assert_array_equal_np(g, w, device)
    r = ember.broadcast_arrays(a, b.reshape(2, 1))
    assert isinstance(r, list) and [x.shape for x in r] == [(2, 3), (2, 3)]
    with ember.Device(device):
        for args, kw in [((0,), {"step": 2}), ((10,), {"step": 3}), ((5,), {"step": -1}),
                         ((-5,), {"step": -2}), ((4.5,), {"step": 0.5})]:
            assert_array_equal_np(ember.arange(*args, **kw), np.arange(*args, **kw),
                                  device)


def test_zero_size_masks(device):
    x = np.arange(6).reshape(2, 3)
    for xs, ms in [((0, 3), (0,)), ((0, 3), (0, 3)), ((2, 0), (2, 0)), ((2, 0), (2,)),
                   ((2, 0, 4), (2, 0)), ((3, 0), (3,))]:
        a = np.zeros(xs, dtype=np.int32)
        mask = np.ones(ms, dtype=bool)
        assert_array_equal_np(E(a, device)[E(mask, device)], a[mask], device)
        e = E(a, device)
        e[E(mask, device)] = 5
        a[mask] = 5
        assert_array_equal_np(e, a, device)
    with pytest.raises(IndexError):
        E(x, device)[E(np.zeros((0,), dtype=bool), device)]


def test_take_along_axis_default(device):
    a = np.array([[10, 30, 20], [60, 40, 50]], dtype=np.float32)
    idx = np.argsort(a)
    assert_array_equal_np(ember.take_along_axis(E(a, device), E(idx, device)),
                          np.take_along_axis(a, idx), device)
    i0 = np.argsort(a, axis=0)[:1]
    assert_array_equal_np(ember.take_along_axis(E(a, device), E(i0, device), axis=0),
                          np.take_along_axis(a, i0, axis=0), device)


@pytest.mark.parametrize("k", [2**63, -2**63, 2**63 - 1, -(2**64), 2**100, 3, -3, 1])
def test_eye_huge_k(device, k):
    assert_array_equal_np(ember.eye(3, 4, k=k, device=device), np.eye(3, 4, k=k), device)


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_more_complex_special_cases(device, dtype):
    z = np.array([complex(-0.0, 0.0), complex(0.0, INF), complex(0.0, NAN),
                  complex(-0.0, INF)], dtype=dtype)
    e = ember.asnumpy(ember.expm1(E(z[:1], device)))
    _eq(complex(e[0]), (0.0, 0.0))                      # not -0 + 0j
    t = ember.asnumpy(ember.tanh(E(z[1:], device)))
    _eq(complex(t[0]), (0.0, NAN))
    _eq(complex(t[1]), (0.0, NAN))
    _eq(complex(t[2]), (-0.0, NAN))                     # tanh is odd


def test_std_var_correction(device):
    a = np.arange(12.0).reshape(3, 4) ** 1.5
    for f in ("std", "var"):
        for corr in (0, 1, 1.5):
            got = getattr(ember, f)(E(a, device), axis=0, correction=corr, keepdims=True)
            want = getattr(np, f)(a, axis=0, correction=corr, keepdims=True)
            np.testing.assert_allclose(ember.asnumpy(got), want, rtol=1e-13)
            assert got.shape == want.shape and got.device == ember.Device(device)
        np.testing.assert_allclose(ember.asnumpy(getattr(ember, f)(E(a, device), ddof=1)),
                                   getattr(np, f)(a, ddof=1), rtol=1e-13)
        with pytest.raises(ValueError, match="simultaneously"):
            getattr(ember, f)(E(a, device), ddof=1, correction=1)


def test_arange_too_large_is_an_error(device):
    # the host buffer's byte count used to wrap (2**62 * 8), a crash
    with ember.Device(device):
        for args in ((2**62,), (0.0, 2**62), (2**61,)):
            with pytest.raises((ValueError, MemoryError)):
                ember.arange(*args)
        with pytest.raises((ValueError, MemoryError)):
            ember.diag_indices(2**62)
