"""Arrays of more than 2**31 elements: the generators switch to 64-bit
indices there, and a kernel that kept 32-bit ones would wrap around and
write the wrong elements. GPU only (the issue asks for it there; on cpu the
host kernels always index in 64 bits and the memory would make CI slow).
Each test uses int8/bool data so the arrays stay near 2 GiB."""
import numpy as np
import pytest

import ember

N = 2**31 + 37          # past the 32-bit boundary, not a multiple of anything


@pytest.fixture
def gpu(device):
    if device == "cpu":
        pytest.skip("over-2**31 element arrays are tested on the GPU only")
    free = ember.Device(device).mem_info()[0]
    if free < 12 * N:
        pytest.skip(f"needs {12 * N >> 30} GiB of free device memory")
    return device


def test_contiguous_add_past_2_31(gpu):
    a = ember.ones(N, dtype=ember.int8, device=gpu)
    b = ember.full(N, 2, dtype=ember.int8, device=gpu)
    c = a + b
    # The elements on both sides of the 32-bit boundary and at the end.
    for i in (0, 2**31 - 1, 2**31, 2**31 + 1, N - 1):
        assert int(c[i]) == 3, i
    tail = ember.asnumpy(c[2**31 - 5:])
    assert tail.shape == (N - 2**31 + 5,)
    assert (tail == 3).all()


def test_strided_copy_past_2_31(gpu):
    # A (2, N/2+...) view read with a step: the strided kernel's offsets
    # exceed 2**31 bytes in the second row.
    rows = 2
    cols = (N + 1) // 2
    m = ember.zeros((rows, cols), dtype=ember.int8, device=gpu)
    m[1, :] = 1
    m[1, -1] = 5
    t = m[:, ::-1]
    assert t.flags.c_contiguous is False
    c = ember.ascontiguousarray(t)
    assert int(c[1, 0]) == 5
    assert int(c[1, -1]) == 1
    assert int(c[0, 0]) == 0
    del m, t, c


def test_setitem_slice_past_2_31(gpu):
    a = ember.zeros(N, dtype=ember.bool, device=gpu)
    a[2**31:] = True
    host = ember.asnumpy(a[2**31 - 3:2**31 + 3])
    np.testing.assert_array_equal(host, [False] * 3 + [True] * 3)
    assert bool(a[N - 1]) is True
    assert bool(a[2**31 - 1]) is False
