"""ember._api.indexing, index_tricks and assign against NumPy, on every
device: triangle and diagonal indices, fill_diagonal, putmask, place,
copyto, ravel_multi_index, unravel_index, ix_, r_ and c_."""
import numpy as np
import pytest

import ember
from helpers import assert_array_equal_np


def E(a, device):
    return ember.asarray(np.asarray(a), device=device)


def check_tuple(got, want, device=None):
    assert isinstance(got, tuple) and len(got) == len(want)
    for g, w in zip(got, want):
        assert_array_equal_np(g, w, device)


@pytest.mark.parametrize("n,k,m", [(4, 0, None), (4, 1, None), (4, -2, 6),
                                   (3, 5, 2), (0, 0, None), (5, -9, 3)])
def test_tri_indices(device, n, k, m):
    with ember.Device(device):
        check_tuple(ember.tril_indices(n, k, m), np.tril_indices(n, k, m), device)
        check_tuple(ember.triu_indices(n, k, m), np.triu_indices(n, k, m), device)
    a = np.zeros((n, m if m is not None else n), dtype=np.float32)
    check_tuple(ember.tril_indices_from(E(a, device), k), np.tril_indices_from(a, k),
                device)
    check_tuple(ember.triu_indices_from(E(a, device), k), np.triu_indices_from(a, k),
                device)


def test_tri_indices_errors(device):
    with pytest.raises(ValueError, match="2-d"):
        ember.tril_indices_from(E(np.zeros(3), device))
    with pytest.raises(ValueError, match="at least 2-d"):
        ember.diag_indices_from(E(np.zeros(3), device))
    with pytest.raises(ValueError, match="equal length"):
        ember.diag_indices_from(E(np.zeros((2, 3)), device))


def test_diag_indices(device):
    with ember.Device(device):
        check_tuple(ember.diag_indices(4), np.diag_indices(4), device)
        check_tuple(ember.diag_indices(3, 3), np.diag_indices(3, 3), device)
    a = np.zeros((3, 3, 3))
    check_tuple(ember.diag_indices_from(E(a, device)), np.diag_indices_from(a), device)


@pytest.mark.parametrize("shape,wrap", [((4, 4), False), ((5, 3), False),
                                        ((7, 3), True), ((3, 5), False),
                                        ((3, 3, 3), False), ((1, 1), False)])
@pytest.mark.parametrize("dtype", [np.int16, np.float64, np.complex64, np.bool_])
def test_fill_diagonal(device, shape, wrap, dtype):
    a = np.arange(np.prod(shape)).reshape(shape).astype(dtype)
    e = E(a, device)
    assert ember.fill_diagonal(e, 7, wrap=wrap) is None
    np.fill_diagonal(a, 7, wrap=wrap)
    assert_array_equal_np(e, a, device)
    # cyclic values
    a = np.zeros(shape, dtype=dtype)
    e = E(a, device)
    ember.fill_diagonal(e, [1, 2], wrap=wrap)
    np.fill_diagonal(a, [1, 2], wrap=wrap)
    assert_array_equal_np(e, a, device)


def test_fill_diagonal_strided(device):
    a = np.zeros((6, 8))
    e = E(a, device)
    ember.fill_diagonal(e[::2, 1::2], 5.0)
    np.fill_diagonal(a[::2, 1::2], 5.0)
    assert_array_equal_np(e, a, device)
    with pytest.raises(ValueError, match="at least 2-d"):
        ember.fill_diagonal(E(np.zeros(3), device), 1)


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.complex128])
def test_putmask_place(device, dtype):
    a = np.arange(12).reshape(3, 4).astype(dtype)
    mask = (a.real % 3) == 0
    for values in (np.array([-1, -2, -3, -4, -5], dtype=dtype), 9,
                   (np.arange(12).reshape(3, 4) * 10).astype(dtype)):
        x, e = a.copy(), E(a, device)
        np.putmask(x, mask, values)
        assert ember.putmask(e, E(mask, device), values) is None
        assert_array_equal_np(e, x, device)
    for vals in (np.array([-1, -2], dtype=dtype), 5, np.arange(7).astype(dtype)):
        x, e = a.copy(), E(a, device)
        np.place(x, mask, vals)
        assert ember.place(e, E(mask, device), vals) is None
        assert_array_equal_np(e, x, device)
    if dtype != np.complex128:
        with pytest.raises(TypeError, match="Cannot cast"):
            ember.putmask(E(a, device), E(mask, device), E(np.ones(2, np.complex128), device))
    with pytest.raises(ValueError, match="same size"):
        ember.putmask(E(a, device), E(mask[:2], device), 1)
    with pytest.raises(ValueError, match="empty array"):
        ember.place(E(a, device), E(mask, device), [])


@pytest.mark.parametrize("src_dtype,dst_dtype,casting,ok", [
    (np.int16, np.float32, "same_kind", True),
    (np.float64, np.float32, "same_kind", True),
    (np.float64, np.int32, "same_kind", False),
    (np.float64, np.int32, "unsafe", True),
    (np.int64, np.int8, "safe", False),
    (np.uint8, np.int16, "safe", True),
])
def test_copyto(device, src_dtype, dst_dtype, casting, ok):
    src = (np.arange(4) * 1.5).astype(src_dtype)
    dst = np.zeros((3, 4), dtype=dst_dtype)
    e = E(dst, device)
    if not ok:
        with pytest.raises(TypeError, match="Cannot cast"):
            ember.copyto(e, E(src, device), casting=casting)
        with pytest.raises(TypeError):
            np.copyto(dst, src, casting=casting)
        return
    np.copyto(dst, src, casting=casting)
    ember.copyto(e, E(src, device), casting=casting)
    assert_array_equal_np(e, dst, device)
    where = np.array([True, False, True, False])
    dst2, e2 = np.full((3, 4), 7, dtype=dst_dtype), E(np.full((3, 4), 7, dtype=dst_dtype), device)
    np.copyto(dst2, src, casting=casting, where=where)
    ember.copyto(e2, E(src, device), casting=casting, where=E(where, device))
    assert_array_equal_np(e2, dst2, device)


def test_copyto_scalar_and_shapes(device):
    dst = np.zeros(5, dtype=np.float32)
    e = E(dst, device)
    ember.copyto(e, 2.5, where=E([True, False, True, False, False], device))
    np.copyto(dst, 2.5, where=[True, False, True, False, False])
    assert_array_equal_np(e, dst, device)
    with pytest.raises(ValueError):
        ember.copyto(e, E(np.zeros(3), device))


@pytest.mark.parametrize("order", ["C", "F"])
def test_ravel_unravel(device, order):
    dims = (3, 4, 5)
    idx = [np.array([0, 2, 1, 2]), np.array([3, 0, 1, 3]), np.array([4, 0, 2, 1])]
    got = ember.ravel_multi_index(tuple(E(i, device) for i in idx), dims, order=order)
    assert_array_equal_np(got, np.ravel_multi_index(tuple(idx), dims, order=order),
                          device)
    flat = np.array([0, 7, 59, 22, 31])
    check_tuple(ember.unravel_index(E(flat, device), dims, order=order),
                np.unravel_index(flat, dims, order=order), device)
    # 2-d indices keep their shape
    flat2 = flat[:4].reshape(2, 2)
    check_tuple(ember.unravel_index(E(flat2, device), dims, order=order),
                np.unravel_index(flat2, dims, order=order), device)


def test_ravel_multi_index_modes(device):
    idx = (np.array([-1, 5, 2]), np.array([3, -4, 9]))
    for mode in ("wrap", "clip", ("clip", "wrap")):
        got = ember.ravel_multi_index(tuple(E(i, device) for i in idx), (4, 6), mode=mode)
        assert_array_equal_np(got, np.ravel_multi_index(idx, (4, 6), mode=mode), device)
    with pytest.raises(ValueError, match="invalid entry"):
        ember.ravel_multi_index(tuple(E(i, device) for i in idx), (4, 6))
    with pytest.raises(ValueError, match="out of bounds"):
        ember.unravel_index(E([3, 24], device), (4, 6))
    with pytest.raises(TypeError, match="int"):
        ember.unravel_index(E([1.0], device), (4, 6))


def test_ix(device):
    a = np.arange(24).reshape(4, 6)
    rows, cols = np.array([0, 3]), np.array([True, False, True, False, False, True])
    got = ember.ix_(E(rows, device), E(cols, device))
    check_tuple(got, np.ix_(rows, cols), device)
    assert_array_equal_np(E(a, device)[got], a[np.ix_(rows, cols)], device)
    with ember.Device(device):
        check_tuple(ember.ix_([1, 2], [], [0]), np.ix_([1, 2], [], [0]), device)
    with pytest.raises(ValueError, match="1 dimensional"):
        ember.ix_(E(np.zeros((2, 2), dtype=int), device))


def test_r_c(device):
    with ember.Device(device):
        cases = [
            (ember.r_[1:5], np.r_[1:5]),
            (ember.r_[0:1:5j], np.r_[0:1:5j]),
            (ember.r_[E([1, 2, 3], device), 0, 0, E([4, 5], device)],
             np.r_[np.array([1, 2, 3]), 0, 0, np.array([4, 5])]),
            (ember.r_[E(np.array([1, 2], dtype=np.int8), device), 3],
             np.r_[np.array([1, 2], dtype=np.int8), 3]),
            (ember.r_[1, 2.5], np.r_[1, 2.5]),
            (ember.r_["-1", E(np.ones((2, 2)), device), E(np.zeros((2, 1)), device)],
             np.r_["-1", np.ones((2, 2)), np.zeros((2, 1))]),
            (ember.r_["0,2", E([1, 2, 3], device), E([4, 5, 6], device)],
             np.r_["0,2", [1, 2, 3], [4, 5, 6]]),
            (ember.r_["0,2,0", E([1, 2, 3], device), E([4, 5, 6], device)],
             np.r_["0,2,0", [1, 2, 3], [4, 5, 6]]),
            (ember.r_["1,2,0", E([1, 2, 3], device), E([4, 5, 6], device)],
             np.r_["1,2,0", [1, 2, 3], [4, 5, 6]]),
            (ember.c_[E([1, 2, 3], device), E([4, 5, 6], device)],
             np.c_[np.array([1, 2, 3]), np.array([4, 5, 6])]),
            (ember.c_[E([[1, 2, 3]], device), 0, 0, E([[4, 5, 6]], device)],
             np.c_[np.array([[1, 2, 3]]), 0, 0, np.array([[4, 5, 6]])]),
        ]
    for got, want in cases:
        assert_array_equal_np(got, want, device)
