"""Basic indexing of ember arrays against NumPy: integers, slices with any
step, `...`, None and tuples of them, for reading (views) and writing."""
import numpy as np
import pytest

import ember

from helpers import assert_array_equal_np

KEYS = [
    0, -1, 2, slice(None), slice(1, None), slice(None, -1), slice(None, None, -1),
    slice(None, None, 2), slice(3, 0, -2), slice(-100, 100), slice(100, 200),
    slice(2, 2), slice(None, None, -3), Ellipsis, None, (), (0, 0), (-1, 2, 3),
    (slice(None), 1), (Ellipsis, 1), (1, Ellipsis), (None, 1), (1, None, slice(None)),
    (Ellipsis, None), (None, Ellipsis, None), (slice(None, None, -1), Ellipsis, 0),
    (0, slice(1, 3), slice(None, None, -1)), (None, None, 0, None),
    (slice(1, None), None, slice(None, 2), None, -1),
    (np.int64(1), np.int32(-1)), (slice(None, None, 7),),
]


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_getitem_matches_numpy(device, key):
    h = np.arange(3 * 4 * 5, dtype=np.float32).reshape(3, 4, 5)
    x = ember.asarray(h, device=device)
    got = x[key]
    want = h[key]
    assert_array_equal_np(got, np.asarray(want))
    assert got.strides == np.asarray(want).strides or got.size <= 1


def test_getitem_views_share_memory(device):
    h = np.arange(12, dtype=np.int32).reshape(3, 4)
    x = ember.asarray(h, device=device, copy=True)
    v = x[1:, ::-2]
    assert v.base is x
    vv = v[0]
    assert vv.base is x
    v[...] = 0
    h2 = h.copy()
    h2[1:, ::-2] = 0
    assert_array_equal_np(x, h2)


def test_index_of_views_and_negative_strides(device):
    h = np.arange(60).reshape(3, 4, 5)
    x = ember.asarray(h, device=device)
    assert_array_equal_np(x[::-1][1:, ::-2][..., 3], h[::-1][1:, ::-2][..., 3])
    assert_array_equal_np(x.T[::2, None, 1], h.T[::2, None, 1])


def test_0d_and_empty(device):
    z = ember.asarray(5, device=device)
    assert_array_equal_np(z[()], np.asarray(5))
    assert_array_equal_np(z[...], np.asarray(5))
    assert_array_equal_np(z[None], np.asarray(5)[None])
    with pytest.raises(IndexError, match="too many indices"):
        z[0]
    e = ember.zeros((0, 3), device=device)
    assert_array_equal_np(e[:, 1], np.zeros((0, 3))[:, 1])
    with pytest.raises(IndexError, match="out of bounds"):
        e[0]


def test_getitem_errors(device):
    x = ember.zeros((3, 4), device=device)
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        x[3]
    with pytest.raises(IndexError, match="index -5 is out of bounds for axis 1 with size 4"):
        x[0, -5]
    with pytest.raises(IndexError, match="too many indices for array: array is 2-dimensional, but 3 were indexed"):
        x[0, 0, 0]
    with pytest.raises(IndexError, match="single ellipsis"):
        x[..., ...]
    with pytest.raises(IndexError, match="only integers, slices"):
        x[1.5]
    with pytest.raises(IndexError, match="only integers, slices"):
        x["a"]
    # Advanced indexing (arrays, lists, booleans): test_array_advindex.py.
    with pytest.raises(IndexError):
        x[2**70]
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        x[::0]
    with pytest.raises(IndexError, match="integer"):
        x[ember.asarray(1.0, device=device)]
    # A 0-d integer array is an integer index.
    assert_array_equal_np(x[ember.asarray(2, device=device)], np.zeros(4))


# ---- __setitem__ -------------------------------------------------------------------------

SET_CASES = [
    (0, 7), (-1, 2.5), ((1, 2), -3), (slice(None), 1), ((slice(None), 0), 9),
    ((Ellipsis, -1), 4), ((slice(None, None, -1), slice(1, None, 2)), 5),
    (None, 1), (1, [1, 2, 3, 4]), ((slice(None), 1), [7, 8, 9]),
    (slice(0, 2), [[1], [2]]), ((), 0),
]


@pytest.mark.parametrize("key,value", SET_CASES, ids=repr)
def test_setitem_matches_numpy(device, key, value):
    h = np.arange(12, dtype=np.float64).reshape(3, 4)
    x = ember.asarray(h, device=device, copy=True)
    x[key] = value
    h[key] = value
    assert_array_equal_np(x, h)


def test_setitem_from_arrays_with_cast_and_broadcast(device):
    h = np.zeros((3, 4), np.int16)
    x = ember.asarray(h, device=device, copy=True)
    src = np.array([1.9, -2.7, 3.2, 4.0])
    x[1:] = ember.asarray(src, device=device)          # ember array: cast + broadcast
    h[1:] = src
    assert_array_equal_np(x, h)
    x[0] = np.array([5, 6, 7, 8], np.uint8)            # NumPy array
    h[0] = np.array([5, 6, 7, 8], np.uint8)
    assert_array_equal_np(x, h)
    x[:, 2] = np.int16(-9)                              # NumPy scalar
    h[:, 2] = np.int16(-9)
    assert_array_equal_np(x, h)
    x[2, ::-1] = ember.arange(4, device=device)[::-1]  # reversed views on both sides
    h[2, ::-1] = np.arange(4)[::-1]
    assert_array_equal_np(x, h)


def test_setitem_overlapping(device):
    h = np.arange(10)
    x = ember.asarray(h, device=device, copy=True)
    x[1:] = x[:-1]
    h[1:] = h[:-1].copy()
    assert_array_equal_np(x, h)
    x[::-1] = x
    h[::-1] = h.copy()
    assert_array_equal_np(x, h)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int64", "uint64", "float16",
                                   "float32", "complex64"])
def test_setitem_scalars_every_dtype(device, dtype):
    h = np.zeros(5, dtype)
    x = ember.zeros(5, dtype=dtype, device=device)
    for i, v in enumerate([1, True, 0.5 if np.dtype(dtype).kind in "fc" else 3,
                           np.float32(2), -0.0 if np.dtype(dtype).kind in "fc" else 0]):
        x[i] = v
        h[i] = v
    assert_array_equal_np(x, h)


def test_setitem_errors(device):
    x = ember.zeros((2, 3), dtype=ember.int8, device=device)
    with pytest.raises(OverflowError, match="300 out of bounds for int8"):
        x[0, 0] = 300
    with pytest.raises(OverflowError):
        x[0] = [1, 2, 300]
    with pytest.raises(ValueError, match="NaN"):
        x[0, 0] = float("nan")
    with pytest.raises(OverflowError, match="infinity"):
        x[0, 0] = float("inf")
    with pytest.raises(ValueError, match=r"\(4,\)|\(2, 3\)|broadcast"):
        x[0] = [1, 2, 3, 4]
    with pytest.raises(ValueError, match="delete"):
        del x[0]
    with pytest.raises(TypeError):
        x[0] = "a"
    with pytest.raises(TypeError):
        x[0] = None
    with pytest.raises(IndexError):
        x[5] = 1
    ro = ember.asarray(np.zeros(3), device="cpu")
    ro_h = np.zeros(3)
    ro_h.flags.writeable = False
    ro = ember.asarray(ro_h, device="cpu")
    with pytest.raises(ValueError, match="read-only"):
        ro[0] = 1


def test_setitem_other_device_refused(need_cuda):
    x = ember.zeros(3, device="cuda:0")
    with pytest.raises(ValueError, match="cpu.*cuda:0|cuda:0.*cpu"):
        x[...] = ember.ones(3, device="cpu")
