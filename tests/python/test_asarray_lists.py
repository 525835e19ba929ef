"""asarray of Python lists and other Python objects (python/ember/_api/
nested.py, pylists.py): NumPy's dtypes and errors, the layouts asked for,
and lists holding arrays, compared with NumPy."""
import enum
from collections import deque, namedtuple

import numpy as np
import pytest

import ember

from helpers import assert_array_equal_np


class Color(enum.IntEnum):
    RED = 1
    BLUE = 7


class Half(float):
    pass


Pair = namedtuple("Pair", "a b")


@pytest.mark.parametrize("obj", [
    [[1 + 2j, 3], [-0.0, 4j]], [[True], [False]], [[2**63, 2**63 + 1]],
    [Color.RED, Color.BLUE], [Half(0.5), 2], [Pair(1, 2), Pair(3.5, 4)],
    [np.int16(3), np.float32(1)], [np.arange(3), np.arange(3, 6)],
    deque([1, 2.5]), [[[]]],
])
def test_matches_numpy(device, obj):
    assert_array_equal_np(ember.asarray(obj, device=device), np.asarray(obj), device)


@pytest.mark.parametrize("order", ["C", "F", "K", "A"])
def test_order(device, order):
    obj = [[1.5, 2, 3], [4, 5, 6j]]
    x = ember.asarray(obj, order=order, device=device)
    assert_array_equal_np(x, np.asarray(obj, order=order))
    assert x.flags.f_contiguous if order == "F" else x.flags.c_contiguous
    assert x.base is None and x.flags.writeable


def test_dtype_given(device):
    assert_array_equal_np(ember.asarray([[1, 2.5], [True, 4]], dtype="float32",
                                        device=device),
                          np.asarray([[1, 2.5], [True, 4]], np.float32))
    assert_array_equal_np(ember.asarray([2**63, 1], dtype="uint64", device=device),
                          np.asarray([2**63, 1], np.uint64))
    x = ember.asarray([1, 2.5], dtype=ember.bfloat16, device=device)
    assert x.dtype == ember.bfloat16 and x.astype(ember.float32).tolist() == [1, 2.5]
    with pytest.raises(OverflowError, match="128 out of bounds for int8"):
        ember.asarray([1.5, 128], dtype="int8", device=device)


@pytest.mark.parametrize("obj,dtype", [
    ([1.5, -2.0, 3.25], None), ([3, -4, 2**62], None), ([True, False], None),
    ([1, 2.5, -7], None), ((1, 2, 3), None), ([True, 2], None),
    ([2**63, 1], None), ([1.5, 2**53 + 1], None), ([3, -4, 5], "float32"),
    ([0.1, 1e300, -2], "float32"), ([1, 2.5], "complex64"),
    ([2**60 + 1, 0.5], "float32"), ([2**60 + 1, 3], "float32"),
    ([16777217, -3], "float32"), ([0.1, 16777217.0], "float32"),
    ([2**60 + 1, 3], "float64"), ([0.1, 2**53 + 1], "float64"),
])
def test_flat_lists(device, obj, dtype):
    """Flat lists of Python numbers (C's reader; mixtures it leaves to
    Python): NumPy's dtype and values, with and without a dtype asked."""
    got = ember.asarray(obj, dtype=dtype, device=device)
    want = np.asarray(obj, dtype=dtype)
    assert got.dtype == want.dtype
    assert_array_equal_np(got, want, device)


def test_flat_lists_as_indices_and_values(device):
    h = np.arange(10.0)
    x = ember.asarray(h, device=device)
    assert_array_equal_np(x[[0, 3, 5, -1]], h[[0, 3, 5, -1]], device)
    x[1:3] = [7, 8.5]
    h[1:3] = [7, 8.5]
    assert_array_equal_np(x, h, device)
    y = ember.zeros(3, dtype="int8", device=device)
    with pytest.raises(OverflowError, match="300 out of bounds for int8"):
        y[0:1] = [300]
    with pytest.raises(IndexError):
        x[[0, 10]]


def test_errors(device):
    with pytest.raises(OverflowError, match="out of bounds for int64 and uint64"):
        ember.asarray([1.5, 2**64], device=device)
    with pytest.raises(OverflowError, match="out of bounds for int64 and uint64"):
        ember.asarray([[1j], [-2**63 - 1]], device=device)
    with pytest.raises(ValueError, match="inhomogeneous shape after 2 dimensions"):
        ember.asarray([[[1], [2]], [[3], [4, 5]]], device=device)
    loop = []
    loop.append(loop)
    with pytest.raises(ValueError, match="deeper"):
        ember.asarray(loop, device=device)
    with pytest.raises(TypeError):
        ember.asarray([1, "2"], device=device)
    with pytest.raises(TypeError):
        ember.asarray({"a": 1}.keys(), device=device)

    class NoBuffer:
        def __array__(self, dtype=None, copy=None):
            return [1, 2]

    with pytest.raises(TypeError, match="which has no buffer"):
        ember.asarray(NoBuffer(), device=device)


def test_lists_of_ember_arrays_stay_on_the_device(device):
    x = ember.arange(3, device=device)
    y = ember.asarray([x, x + 1], device=device)
    assert y.device == x.device
    assert_array_equal_np(y, np.asarray([np.arange(3), np.arange(1, 4)]))
    with pytest.raises(ValueError, match="inhomogeneous"):
        ember.asarray([x, x[:2]], device=device)


def test_ndmin_is_a_view(device):
    x = ember.arange(12, device=device).reshape(3, 4)[:, ::2]
    v = ember.array(x, copy=False, ndmin=4)
    assert v.shape == (1, 1, 3, 2)
    assert_array_equal_np(v, np.array(np.arange(12).reshape(3, 4)[:, ::2], ndmin=4))
    v[0, 0, 0, 0] = 100
    assert x[0, 0].item() == 100
    assert ember.ascontiguousarray(ember.asarray(2.0, device=device)).shape == (1,)
    with pytest.raises(ValueError, match="ndmin"):
        ember.array(x, ndmin=33)


def test_python_numbers(device):
    assert_array_equal_np(ember.asarray(Color.BLUE, device=device), np.asarray(7))
    assert_array_equal_np(ember.asarray(Half(1.5), device=device), np.asarray(1.5))
    assert_array_equal_np(ember.asarray(2**64 - 1, device=device),
                          np.asarray(2**64 - 1))
    assert_array_equal_np(ember.asarray(3, dtype="int8", device=device),
                          np.asarray(3, np.int8))
    with pytest.raises(OverflowError, match="300 out of bounds for int8"):
        ember.asarray(300, dtype="int8", device=device)
    with pytest.raises(ValueError, match="copy"):
        ember.asarray(1.5, copy=False, device=device)
