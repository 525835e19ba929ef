"""Transposed operands: on the GPU these go through shared-memory tiles, 32x32
elements, or 64x64 moved in pairs when every operand is 2 bytes wide, the
extents are even and the pointers 4-byte aligned. The shapes below cross
tile edges, and the views below break each condition of the pair kernel in
turn, so both kernels and the fallbacks are compared with NumPy."""
import numpy as np
import pytest

import ember
from helpers import assert_array_equal_np

SHAPES = [(2, 2), (64, 64), (130, 66), (66, 130), (97, 45), (1, 8), (8, 1)]
TWO_BYTE = ["float16", "int16", "uint16"]


def rand(shape, dtype, seed=0):
    r = np.random.default_rng(seed)
    return (r.standard_normal(shape) * 100).astype(dtype)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", TWO_BYTE + ["float32", "int8"])
def test_transpose_plus_self(device, shape, dtype):
    m = rand(shape, dtype)
    sq = rand((shape[0], shape[0]), dtype, 1)
    x = ember.asarray(sq, device=device)
    assert_array_equal_np(x.T + x, sq.T + sq, device)
    xm = ember.asarray(m, device=device)
    assert_array_equal_np(ember.ascontiguousarray(xm.T),
                          np.ascontiguousarray(m.T), device)


@pytest.mark.parametrize("dtype", TWO_BYTE)
def test_pairs_conditions(device, dtype):
    """Each view breaks one condition of the pair kernel: an odd offset
    (2-byte aligned pointer), a negative step along the tiled axis, an odd
    row step, an odd extent; the result must not change."""
    big = rand((131, 131), dtype, 2)
    x = ember.asarray(big, device=device)
    cases = {
        "aligned": (slice(0, 128), slice(0, 128)),
        "odd offset": (slice(1, 129), slice(1, 129)),
        "odd extent": (slice(0, 127), slice(0, 127)),
    }
    for name, idx in cases.items():
        a, v = big[idx], x[idx]
        assert_array_equal_np(v.T + v, a.T + a, device)
        assert_array_equal_np(ember.ascontiguousarray(v.T),
                              np.ascontiguousarray(a.T), device)
    # A negative step along the axis the transposed view runs on.
    a, v = big[128:0:-1, :128], x[128:0:-1, :128]
    assert_array_equal_np(v.T + v.T.copy(), a.T + a.T.copy(), device)
    # A row step of an odd number of elements.
    a, v = big[:64, :128:2], x[:64, :128:2]
    assert_array_equal_np(ember.ascontiguousarray(v.T), np.ascontiguousarray(a.T),
                          device)


def test_cast_through_transpose(device):
    """float16 <- int16 transposed copy (both 2 bytes: pairs with a cast)
    and float16 -> float32 (mixed widths: the 32x32 kernel)."""
    a = rand((128, 64), "int16", 3)
    x = ember.asarray(a, device=device)
    out = ember.empty((64, 128), dtype="float16", device=device)
    out[...] = x.T
    assert_array_equal_np(out, a.T.astype(np.float16), device)
    out32 = ember.empty((64, 128), dtype="float32", device=device)
    out32[...] = x.T.astype("float16")
    assert_array_equal_np(out32, a.T.astype(np.float16).astype(np.float32), device)
