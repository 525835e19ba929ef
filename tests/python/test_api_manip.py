"""ember._api.manip, typecheck and histogramdd against NumPy on every
device: append, delete, insert, resize, trim_zeros, asfortranarray,
broadcast, real_if_close, isscalar, histogramdd."""
import numpy as np
import pytest

import ember
from helpers import assert_array_equal_np


def E(a, device):
    return ember.asarray(np.asarray(a), device=device)


@pytest.mark.parametrize("dtype", [np.int8, np.float32, np.complex64, np.bool_])
def test_append(device, dtype):
    a = np.arange(6).reshape(2, 3).astype(dtype)
    b = np.ones((1, 3), dtype=dtype)
    assert_array_equal_np(ember.append(E(a, device), E(b, device)), np.append(a, b), device)
    assert_array_equal_np(ember.append(E(a, device), E(b, device), axis=0),
                          np.append(a, b, axis=0), device)
    assert_array_equal_np(ember.append(E(a, device), E(b.T[:2], device).T[:, :0] if False
                                       else E(np.zeros((2, 1), dtype), device), axis=1),
                          np.append(a, np.zeros((2, 1), dtype), axis=1), device)
    with pytest.raises(ValueError):
        ember.append(E(a, device), E(np.ones((1, 2), dtype), device), axis=0)


@pytest.mark.parametrize("obj,axis", [(1, None), (-1, 0), (slice(0, 3, 2), 1),
                                      ([0, 2], 1), ([], 0), (np.array([1, 1]), 1),
                                      (np.array([True, False, True, False]), 1)])
def test_delete(device, obj, axis):
    a = np.arange(12).reshape(3, 4).astype(np.float64)
    eobj = E(obj, device) if isinstance(obj, np.ndarray) else obj
    assert_array_equal_np(ember.delete(E(a, device), eobj, axis=axis),
                          np.delete(a, obj, axis=axis), device)


def test_delete_errors(device):
    a = E(np.arange(4), device)
    with pytest.raises(IndexError, match="out of bounds"):
        ember.delete(a, 4)
    with pytest.raises(ValueError, match="match the axis length"):
        ember.delete(a, E([True, False], device))


@pytest.mark.parametrize("obj,values,axis", [
    (1, 9, None), (0, [7, 8], None), (4, [7, 8, 9], 1), ([1], [[7, 8, 9]], 1),
    ([2], 6, 1), (-1, 5, 1), (1, [[7], [8], [9]], 1),
    (1, [7, 8, 9], 1), (2, 5, 0), ([1, 3], [7, 8], 1), ([2, 0, 2], [10, 20, 30], 1),
    (slice(0, 4, 2), [6, 7], 1), ([0, 1], 5, 0), ([4, -4], [1, 2], 1),
    (np.array([True, False, True, False]), [5, 6], 1),
    (np.array([False, True, False]), [[5, 6, 7, 8]], 0),
])
def test_insert(device, obj, values, axis):
    a = np.arange(12).reshape(3, 4).astype(np.int32)
    want = np.insert(a, obj, values, axis=axis)
    got = ember.insert(E(a, device), E(obj, device) if isinstance(obj, np.ndarray)
                       else obj, values, axis=axis)
    assert_array_equal_np(got, want, device)


def test_insert_errors(device):
    with pytest.raises(IndexError, match="out of bounds"):
        ember.insert(E(np.arange(3), device), 5, 1)
    with pytest.raises(IndexError, match="out of bounds"):
        ember.insert(E(np.arange(3), device), [0, -5], [1, 2])


@pytest.mark.parametrize("shape", [(2, 3), 7, (0,), (4, 0), (3, 3, 2), ()])
def test_resize(device, shape):
    a = np.array([[1, 2], [3, 4]], dtype=np.int16)
    assert_array_equal_np(ember.resize(E(a, device), shape), np.resize(a, shape), device)
    assert_array_equal_np(ember.resize(E(np.zeros(0, np.int16), device), shape),
                          np.resize(np.zeros(0, np.int16), shape), device)
    with pytest.raises(ValueError, match="non-negative"):
        ember.resize(E(a, device), (-1, 2))


@pytest.mark.parametrize("trim", ["fb", "f", "b", "BF"])
def test_trim_zeros(device, trim):
    a = np.array([0, 0, 1, 0, 2, 3, 0, 0], dtype=np.float32)
    assert_array_equal_np(ember.trim_zeros(E(a, device), trim), np.trim_zeros(a, trim),
                          device)
    z = np.zeros(4)
    assert_array_equal_np(ember.trim_zeros(E(z, device), trim), np.trim_zeros(z, trim),
                          device)
    m = np.zeros((4, 5), dtype=np.int8)
    m[1, 2] = m[2, 3] = 1
    assert_array_equal_np(ember.trim_zeros(E(m, device), trim), np.trim_zeros(m, trim),
                          device)
    assert_array_equal_np(ember.trim_zeros(E(m, device), trim, axis=1),
                          np.trim_zeros(m, trim, axis=1), device)
    with pytest.raises(ValueError, match="unexpected character"):
        ember.trim_zeros(E(a, device), "x")


def test_asfortranarray(device):
    a = np.arange(6).reshape(2, 3)
    for dtype in (None, np.float32):
        got = ember.asfortranarray(E(a, device), dtype=dtype)
        want = np.asfortranarray(a, dtype=dtype)
        assert got.flags.f_contiguous
        assert_array_equal_np(got, want, device)
    f = ember.asfortranarray(E(a, device))
    assert ember.asfortranarray(f) is f
    assert_array_equal_np(ember.asfortranarray(E(np.float64(3), device)),
                          np.asfortranarray(np.float64(3)), device)


def test_broadcast(device):
    x, y = np.arange(3).reshape(3, 1), np.arange(4.0)
    b = ember.broadcast(E(x, device), E(y, device))
    nb = np.broadcast(x, y)
    assert (b.shape, b.nd, b.ndim, b.size, b.numiter) == (
        nb.shape, nb.nd, nb.ndim, nb.size, nb.numiter)
    got = [tuple(v.item() for v in t) for t in b]
    assert got == [tuple(v.item() for v in t) for t in nb]
    b.reset()
    assert b.index == 0
    assert [v.shape for v in b.values] == [(3, 4), (3, 4)]
    with pytest.raises(ValueError):
        ember.broadcast(E(np.ones(2), device), E(np.ones(3), device))


def test_real_if_close(device):
    a = np.array([2.1 + 4e-14j, 5.2 + 3e-15j])
    assert_array_equal_np(ember.real_if_close(E(a, device)), np.real_if_close(a), device)
    b = np.array([2.1 + 4e-13j, 5.2 + 3e-15j])
    assert_array_equal_np(ember.real_if_close(E(b, device), tol=1000),
                          np.real_if_close(b, tol=1000), device)
    assert_array_equal_np(ember.real_if_close(E(b, device)), np.real_if_close(b), device)
    c = np.array([1 + 1e-6j], dtype=np.complex64)
    assert_array_equal_np(ember.real_if_close(E(c, device), tol=1e-5),
                          np.real_if_close(c, tol=1e-5), device)
    r = np.arange(3.0)
    assert_array_equal_np(ember.real_if_close(E(r, device)), np.real_if_close(r), device)


def test_isscalar(device):
    for v in (3, 2.5, 1j, True, "s", b"b", np.float32(1), np.int8(2)):
        assert ember.isscalar(v) == np.isscalar(v)
    from fractions import Fraction
    for v in ([1], (1,), None, Fraction(1, 2), E(np.float64(2), device), np.array(2.0)):
        assert ember.isscalar(v) == np.isscalar(v if not isinstance(v, ember.ndarray)
                                                else np.array(2.0))


@pytest.mark.parametrize("kw", [{}, {"bins": 4}, {"bins": (3, 5)},
                                {"bins": 3, "range": [(-2, 2), (0, 1)]},
                                {"bins": 4, "density": True},
                                {"bins": [np.array([-3, -1, 0, 0.5, 3]),
                                          np.array([0.0, 0.25, 1.0])]},
                                {"bins": [np.array([-3, 0, 3]), np.array([0, 1])]}])
def test_histogramdd(device, kw):
    rng = np.random.default_rng(1)
    s = np.stack([rng.standard_normal(200), rng.random(200)], axis=1)
    s[0] = [3.0, 1.0]                           # on the last edges
    w = rng.random(200)
    for weights in (None, w):
        want_h, want_e = np.histogramdd(s, weights=weights, **kw)
        ekw = dict(kw)
        if "bins" in kw and isinstance(kw["bins"], list):
            ekw["bins"] = [E(b, device) for b in kw["bins"]]
        got_h, got_e = ember.histogramdd(E(s, device), weights=None if weights is None
                                         else E(weights, device), **ekw)
        assert got_h.dtype == want_h.dtype and got_h.shape == want_h.shape
        np.testing.assert_allclose(ember.asnumpy(got_h), want_h, rtol=1e-12)
        assert len(got_e) == len(want_e)
        for g, e in zip(got_e, want_e):
            assert g.dtype == e.dtype
            np.testing.assert_allclose(ember.asnumpy(g), e, rtol=1e-15)
    # 3-d, given as a sequence of coordinate arrays
    cols = [rng.random(50) for _ in range(3)]
    got_h, _ = ember.histogramdd([E(c, device) for c in cols], bins=2)
    want_h, _ = np.histogramdd(cols, bins=2)
    np.testing.assert_array_equal(ember.asnumpy(got_h), want_h)


def test_rollaxis(device):
    a = np.zeros((3, 4, 5, 6))
    for axis, start in [(3, 1), (2, 0), (1, 4), (-1, 0), (0, 4), (2, 2), (1, -1)]:
        got = ember.rollaxis(E(a, device), axis, start)
        assert got.shape == np.rollaxis(a, axis, start).shape
    x = np.arange(24).reshape(2, 3, 4)
    assert_array_equal_np(ember.rollaxis(E(x, device), 2, 1), np.rollaxis(x, 2, 1), device)
    with pytest.raises(ember.AxisError):
        ember.rollaxis(E(a, device), 0, 6)


def test_shape_queries(device):
    a = np.zeros((2, 3, 4), dtype=np.complex64)
    ea = E(a, device)
    assert ember.ndim(ea) == np.ndim(a) and ember.shape(ea) == np.shape(a)
    assert ember.size(ea) == np.size(a) and ember.size(ea, 1) == np.size(a, 1)
    assert ember.size(ea, (0, 2)) == np.size(a, (0, 2))
    assert ember.ndim(3) == 0 and ember.shape([[1, 2]]) == (1, 2)
    assert ember.iscomplexobj(ea) and not ember.isrealobj(ea)
    assert not ember.iscomplexobj(E(np.ones(2), device)) and ember.iscomplexobj(1j)
    z = np.array([1 + 0j, 2j, 3 - 1e-30j], dtype=np.complex128)
    assert_array_equal_np(ember.iscomplex(E(z, device)), np.iscomplex(z), device)
    assert_array_equal_np(ember.isreal(E(z, device)), np.isreal(z), device)
    r = np.array([1.0, 2.0])
    assert_array_equal_np(ember.iscomplex(E(r, device)), np.iscomplex(r), device)
    assert_array_equal_np(ember.isreal(E(r, device)), np.isreal(r), device)
