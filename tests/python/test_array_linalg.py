"""Products (matmul/@, dot, vdot, inner, outer, tensordot, vecdot,
matrix_transpose), cumulative sums and products, and ember.linalg, against
NumPy on every device."""
import numpy as np
import pytest

import ember
from helpers import assert_array_equal_np

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
          "uint32", "uint64", "float16", "float32", "float64", "complex64",
          "complex128"]

rng = np.random.default_rng(1234)


def small(shape, dtype):
    """Small integers (exact in every dtype, so products compare exactly)."""
    if dtype == "bool":
        return rng.integers(0, 2, size=shape).astype(bool)
    v = rng.integers(0, 4, size=shape)
    if np.dtype(dtype).kind == "c":
        return (v + 1j * rng.integers(-2, 3, size=shape)).astype(dtype)
    return v.astype(dtype)


def E(x, device):
    # A copy: on cpu asarray shares NumPy's memory, and tests write in place.
    return ember.asarray(np.array(x, copy=True), device=device)


def close(x, expected, rtol=1e-6, atol=0.0):
    assert isinstance(x, ember.ndarray)
    expected = np.asarray(expected)
    assert x.dtype == expected.dtype, (x.dtype, expected.dtype)
    assert x.shape == expected.shape, (x.shape, expected.shape)
    np.testing.assert_allclose(ember.asnumpy(x), expected, rtol=rtol,
                               atol=atol, equal_nan=True)


# ---- matmul ---------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
def test_matmul_every_dtype(device, dtype):
    a, b = small((4, 5), dtype), small((5, 3), dtype)
    r = E(a, device) @ E(b, device)
    assert_array_equal_np(r, a @ b, device)
    assert_array_equal_np(ember.matmul(E(a, device), E(b, device)), a @ b)


def test_matmul_bfloat16(device):
    a, b = small((6, 7), "float32"), small((7, 5), "float32")
    x = E(a, device).astype(ember.bfloat16)
    y = E(b, device).astype(ember.bfloat16)
    r = x @ y
    assert r.dtype == ember.bfloat16
    # small integers: exact in bfloat16 and float32 accumulation
    assert_array_equal_np(r.astype(ember.float32), a @ b)


def test_matmul_float16_accumulates_in_float32(device):
    # 2048 + 1 + 1 rounds to 2048 step by step in float16, but the float32
    # accumulator gives 2050, as NumPy's float16 matmul does.
    a = np.array([[2048, 1, 1]], np.float16)
    b = np.ones((3, 1), np.float16)
    assert_array_equal_np(E(a, device) @ E(b, device), a @ b)
    assert (a @ b)[0, 0] == 2050


SHAPES = [
    ((3,), (3,)), ((3,), (3, 4)), ((4, 3), (3,)), ((2, 3, 4), (4, 5)),
    ((2, 1, 3, 4), (5, 4, 2)), ((3, 4), (2, 4, 5)), ((4,), (2, 4, 3)),
    ((2, 3, 4), (4,)), ((1, 1), (1, 1)), ((2, 0), (0, 3)), ((0, 3), (3, 4)),
    ((3, 4), (4, 0)), ((0, 2, 3), (3, 2)), ((37, 53), (53, 29)),
    ((1, 65), (65, 1)), ((70, 1), (1, 66)), ((2, 2, 3, 65), (2, 1, 65, 67)),
]


@pytest.mark.parametrize("sa,sb", SHAPES)
def test_matmul_shapes(device, sa, sb):
    a = rng.standard_normal(sa)
    b = rng.standard_normal(sb)
    close(E(a, device) @ E(b, device), a @ b, rtol=1e-12, atol=1e-12)


def test_matmul_k_zero_gives_zeros(device):
    for dtype in ["bool", "int32", "float32", "complex64"]:
        a, b = np.zeros((3, 0), dtype), np.zeros((0, 2), dtype)
        assert_array_equal_np(E(a, device) @ E(b, device), a @ b)


def test_matmul_layouts(device):
    a = rng.standard_normal((9, 7))
    b = rng.standard_normal((9, 11))
    x, y = E(a, device), E(b, device)
    close(x.T @ y, a.T @ b, 1e-12, 1e-12)                    # transposed
    close(x[::-1, ::2].T @ y[::-1, ::3],
          a[::-1, ::2].T @ b[::-1, ::3], 1e-12, 1e-12)       # negative steps
    c = rng.standard_normal((3, 9, 9))
    z = E(c, device)
    close(z.transpose(1, 0, 2)[:, ::2] @ x[::-1, :],
          c.transpose(1, 0, 2)[:, ::2] @ a[::-1, :], 1e-12, 1e-12)
    # a broadcast row (zero strides) through broadcast batch dims
    r = rng.standard_normal((1, 7))
    close(E(r, device)[None] @ x.T[None, :, :5],
          r[None] @ a.T[None, :, :5], 1e-12, 1e-12)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64",
                                   "complex128"])
@pytest.mark.parametrize("m,k,n", [(50, 40, 1), (1, 40, 50), (1, 40, 1)])
def test_matmul_one_row_or_column(device, dtype, m, k, n):
    # products with a single row or column (gemv on the cpu), each operand
    # stored row- or column-major, with and without a batch axis
    tol = 1e-4 if dtype in ("float32", "complex64") else 1e-12
    for ta in (False, True):
        for tb in (False, True):
            a = rng.standard_normal((k, m)).T if ta else \
                rng.standard_normal((m, k))
            b = rng.standard_normal((n, k)).T if tb else \
                rng.standard_normal((k, n))
            if dtype.startswith("complex"):
                a, b = a * (1 + 2j), b * (2 - 1j)
            a, b = a.astype(dtype), b.astype(dtype)
            close(E(a, device) @ E(b, device), a @ b, tol, tol)
            a3, b3 = np.stack([a, 2 * a]), np.stack([b, b + 1])
            close(E(a3, device) @ E(b3, device), a3 @ b3, tol, tol)
    # every other row and column of larger arrays (strided views)
    a = rng.standard_normal((2 * m, 2 * k)).astype(dtype)
    b = rng.standard_normal((2 * k, 2 * n)).astype(dtype)
    close(E(a, device)[::2, ::2] @ E(b, device)[::2, ::2],
          a[::2, ::2] @ b[::2, ::2], tol, tol)


def test_matmul_large(device):
    a = rng.standard_normal((300, 400)).astype(np.float32)
    b = rng.standard_normal((400, 200)).astype(np.float32)
    close(E(a, device) @ E(b, device), a @ b, rtol=1e-4, atol=1e-3)


def test_matmul_integer_wraparound(device):
    a = np.array([[100, 100], [-128, 1]], np.int8)
    b = np.array([[2, 1], [2, 127]], np.int8)
    assert_array_equal_np(E(a, device) @ E(b, device), a @ b)
    a32 = np.array([[2**31 - 1, 2**31 - 1]], np.int32)
    b32 = np.array([[3], [5]], np.int32)
    assert_array_equal_np(E(a32, device) @ E(b32, device), a32 @ b32)
    u = np.array([[255, 255, 255]], np.uint8)
    assert_array_equal_np(E(u, device) @ E(u.T.copy(), device), u @ u.T)
    big = np.array([[2**63 - 1, 2]], np.int64)
    col = np.array([[3], [2**62]], np.int64)
    assert_array_equal_np(E(big, device) @ E(col, device), big @ col)


def test_matmul_nan_inf(device):
    a = np.array([[1.0, np.nan, 0.0], [np.inf, 1.0, 0.0], [1.0, 2.0, -0.0]])
    b = np.array([[0.0, 1.0], [1.0, 1.0], [np.inf, -1.0]])
    with np.errstate(invalid="ignore"):
        want = a @ b
    close(E(a, device) @ E(b, device), want)
    with np.errstate(invalid="ignore"):
        want32 = a.astype(np.float32) @ b.astype(np.float32)
    close(E(a.astype(np.float32), device) @ E(b.astype(np.float32), device),
          want32)


@pytest.mark.parametrize("da,db", [("int8", "uint8"), ("bool", "int8"),
                                   ("int32", "float32"), ("float16", "float32"),
                                   ("complex64", "float64"), ("bool", "bool"),
                                   ("uint64", "int64")])
def test_matmul_promotion(device, da, db):
    a, b = small((3, 4), da), small((4, 2), db)
    assert_array_equal_np(E(a, device) @ E(b, device), a @ b)


def test_matmul_out_and_dtype(device):
    a, b = small((3, 4), "float32"), small((4, 2), "float32")
    x, y = E(a, device), E(b, device)
    o = ember.zeros((3, 2), dtype=ember.float64, device=device)
    r = ember.matmul(x, y, out=o)
    assert r is o
    assert_array_equal_np(o, (a @ b).astype(np.float64))
    with pytest.raises(ValueError, match=r"\(3, 2\)"):
        ember.matmul(x, y, out=ember.zeros((2, 3), device=device))
    with pytest.raises(TypeError, match="same_kind"):
        ember.matmul(x, y, out=ember.zeros((3, 2), dtype=ember.int32,
                                           device=device))
    i8 = E(small((3, 4), "int8"), device)
    r = ember.matmul(i8, E(small((4, 2), "int8"), device), dtype=ember.float64)
    assert r.dtype == ember.float64
    with pytest.raises(TypeError):
        ember.matmul(x, y, dtype=ember.int32)
    # out overlapping an input goes through a temporary
    s = small((4, 4), "float64")
    z = E(s, device)
    ember.matmul(z, z, out=z)
    assert_array_equal_np(z, s @ s)


def test_imatmul(device):
    s, t = small((3, 3), "int64"), small((3, 3), "int64")
    x = E(s, device)
    x0 = x
    x @= E(t, device)
    assert x is x0
    assert_array_equal_np(x, s @ t)
    with pytest.raises(ValueError):
        y = E(small((3, 3), "int64"), device)
        y @= E(small((3, 4), "int64"), device)


def test_matmul_errors(device):
    x = E(np.ones((2, 3)), device)
    with pytest.raises(ValueError, match="mismatch in its core dimension 0") \
            as ei:
        x @ E(np.ones((4, 5)), device)
    assert "(2, 3)" in str(ei.value) and "(4, 5)" in str(ei.value)
    with pytest.raises(ValueError, match="does not have enough dimensions"):
        ember.matmul(E(np.float64(2.0), device), x)
    with pytest.raises(ValueError, match="does not have enough dimensions"):
        ember.matmul(x, E(np.float64(2.0), device))
    with pytest.raises(ValueError, match="broadcast"):
        E(np.ones((2, 3, 4)), device) @ E(np.ones((5, 4, 3)), device)
    assert (x.__matmul__(3)) is NotImplemented


def test_mixed_devices(need_cuda):
    a = ember.ones((2, 2), device="cpu")
    b = ember.ones((2, 2), device="cuda:0")
    for fn in (ember.matmul, ember.dot, ember.inner, ember.vdot, ember.outer):
        with pytest.raises(ValueError, match="cpu") as ei:
            fn(a, b)
        assert "cuda:0" in str(ei.value)


# ---- dot, vdot, inner, outer, tensordot, vecdot -----------------------------


@pytest.mark.parametrize("sa,sb", [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)),
                                   ((2, 3), (3, 4)), ((2, 3, 4), (4,)),
                                   ((2, 3, 4), (5, 4, 2)), ((), (3, 2)),
                                   ((2, 3), ()), ((0, 3), (3, 2))])
def test_dot(device, sa, sb):
    a, b = small(sa, "int64"), small(sb, "int64")
    assert_array_equal_np(ember.dot(E(a, device), E(b, device)), np.dot(a, b))
    if a.ndim:
        assert_array_equal_np(E(a, device).dot(E(b, device)), a.dot(b))


def test_dot_float_and_errors(device):
    a = rng.standard_normal((5, 6)).astype(np.float32)
    b = rng.standard_normal((6, 7)).astype(np.float32)
    close(ember.dot(E(a, device), E(b, device)), np.dot(a, b), 1e-5, 1e-5)
    with pytest.raises(ValueError, match="not aligned"):
        ember.dot(E(a, device), E(a, device))
    o = ember.empty((5, 7), dtype=ember.float32, device=device)
    assert ember.dot(E(a, device), E(b, device), out=o) is o


@pytest.mark.parametrize("dtype", ["int32", "float64", "complex64",
                                   "complex128", "bool"])
def test_vdot(device, dtype):
    a, b = small((2, 3), dtype), small((3, 2), dtype)
    assert_array_equal_np(ember.vdot(E(a, device), E(b, device)),
                          np.asarray(np.vdot(a, b)))
    # a non-contiguous operand is flattened in C order
    assert_array_equal_np(ember.vdot(E(a, device).T, E(b, device)),
                          np.asarray(np.vdot(a.T, b)))
    with pytest.raises(ValueError):
        ember.vdot(E(a, device), E(small((4,), dtype), device))


def test_vdot_long(device):
    a = rng.standard_normal(100003)
    b = rng.standard_normal(100003)
    close(ember.vdot(E(a, device), E(b, device)), np.asarray(np.vdot(a, b)),
          1e-10)


@pytest.mark.parametrize("sa,sb", [((3,), (3,)), ((2, 3), (4, 3)),
                                   ((2, 2, 3), (3,)), ((3,), (2, 3)),
                                   ((), (2,)), ((2, 0), (3, 0))])
def test_inner(device, sa, sb):
    a, b = small(sa, "float64"), small(sb, "float64")
    assert_array_equal_np(ember.inner(E(a, device), E(b, device)),
                          np.inner(a, b))


def test_inner_mismatch(device):
    with pytest.raises(ValueError, match="not aligned"):
        ember.inner(E(np.ones((2, 3)), device), E(np.ones((2, 4)), device))


def test_outer(device):
    a = np.array([[1.0, -0.0], [2.0, np.nan]])
    b = np.array([3.0, -1.0, 0.0])
    assert_array_equal_np(ember.outer(E(a, device), E(b, device)),
                          np.outer(a, b))
    i = small((4,), "int8")
    assert_array_equal_np(ember.outer(E(i, device), E(i, device)),
                          np.outer(i, i))
    assert_array_equal_np(ember.linalg.outer(E(i, device), E(i, device)),
                          np.outer(i, i))


@pytest.mark.parametrize("axes", [0, 1, 2, ([1, 0], [0, 1]), ([2], [0]),
                                  ((0, 2), (1, 0))])
def test_tensordot(device, axes):
    a = small((3, 4, 2), "int64")
    b = small((2, 3, 4), "int64") if axes == ((0, 2), (1, 0)) else (
        small((4, 3, 5), "int64") if axes == ([1, 0], [0, 1]) else
        small((2, 5), "int64") if axes == ([2], [0]) else
        small((4, 2, 5), "int64") if axes == 2 else
        small((2, 6), "int64") if axes == 1 else small((2, 2), "int64"))
    assert_array_equal_np(ember.tensordot(E(a, device), E(b, device), axes),
                          np.tensordot(a, b, axes))


def test_tensordot_errors(device):
    a = E(np.ones((2, 3)), device)
    with pytest.raises(ValueError, match="shape-mismatch"):
        ember.tensordot(a, a, axes=([0], [1]))
    with pytest.raises(ember.AxisError):
        ember.tensordot(a, a, axes=([2], [0]))


@pytest.mark.parametrize("dtype", ["float64", "complex128", "int32"])
def test_vecdot(device, dtype):
    a, b = small((2, 3, 4), dtype), small((3, 4), dtype)
    assert_array_equal_np(ember.vecdot(E(a, device), E(b, device)),
                          np.vecdot(a, b))
    assert_array_equal_np(ember.linalg.vecdot(E(a, device), E(b, device),
                                              axis=-2),
                          np.vecdot(a, b, axis=-2))
    with pytest.raises(ValueError, match="mismatch"):
        ember.vecdot(E(a, device), E(small((3, 5), dtype), device))


def test_matrix_transpose(device):
    a = small((2, 3, 4), "float32")
    x = E(a, device)
    t = ember.matrix_transpose(x)
    assert_array_equal_np(t, np.linalg.matrix_transpose(a))
    assert ember.linalg.matrix_transpose(x).shape == (2, 4, 3)
    t[0, 0, 0] = 42           # a view
    assert float(x[0, 0, 0]) == 42
    with pytest.raises(ValueError):
        ember.matrix_transpose(E(np.ones(3), device))


# ---- cumsum and cumprod ---------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
def test_cumsum_cumprod_dtypes(device, dtype):
    a = small((3, 5), dtype)
    x = E(a, device)
    for axis in (None, 0, 1, -1):
        assert_array_equal_np(ember.cumsum(x, axis=axis),
                              np.cumsum(a, axis=axis))
        assert_array_equal_np(ember.cumprod(x, axis=axis),
                              np.cumprod(a, axis=axis))


def test_cumsum_axes_layouts(device):
    a = rng.standard_normal((4, 5, 6))
    x = E(a, device)
    for axis in (None, 0, 1, 2, -1, -3):
        close(ember.cumsum(x, axis=axis), np.cumsum(a, axis=axis), 1e-12)
        close(x.cumprod(axis=axis), a.cumprod(axis=axis), 1e-12)
    v = x[::-1, 1::2, ::-3]
    w = a[::-1, 1::2, ::-3]
    for axis in (None, 0, 1, 2):
        close(v.cumsum(axis), w.cumsum(axis), 1e-12)
    close(x.transpose(2, 0, 1).cumsum(), a.transpose(2, 0, 1).cumsum(), 1e-12)


def test_cumsum_dtype_out_and_wrap(device):
    a = np.arange(10, dtype=np.int32) * 30
    x = E(a, device)
    assert_array_equal_np(ember.cumsum(x, dtype=ember.int8),
                          np.cumsum(a, dtype=np.int8))
    assert_array_equal_np(ember.cumsum(x, dtype="float32"),
                          np.cumsum(a, dtype=np.float32))
    o = ember.zeros(10, dtype=ember.int8, device=device)
    assert ember.cumsum(x, out=o) is o
    on = np.zeros(10, np.int8)
    np.cumsum(a, out=on)
    assert_array_equal_np(o, on)
    f = np.array([1e8, 1, 1, 1], np.float64)
    o32 = ember.zeros(4, dtype=ember.float32, device=device)
    ember.cumsum(E(f, device), out=o32)
    n32 = np.zeros(4, np.float32)
    np.cumsum(f, out=n32)
    assert_array_equal_np(o32, n32)
    # in place
    b = np.arange(6.0).reshape(2, 3)
    y = E(b, device)
    ember.cumsum(y, axis=1, out=y)
    assert_array_equal_np(y, np.cumsum(b, axis=1))
    with pytest.raises(ValueError, match="shape"):
        ember.cumsum(x, out=ember.zeros(9, device=device))
    assert_array_equal_np(ember.cumprod(E(np.full(70, 3, np.int64), device)),
                          np.cumprod(np.full(70, 3, np.int64)))


def test_cumsum_float16_rounds_each_step(device):
    a = np.array([2048, 1, 1, 1, 3, -1, 0.5], np.float16)
    assert_array_equal_np(ember.cumsum(E(a, device)), np.cumsum(a))
    b = small((7, 9), "float16") * np.float16(0.1)
    assert_array_equal_np(ember.cumsum(E(b, device), axis=0),
                          np.cumsum(b, axis=0))
    assert_array_equal_np(ember.cumprod(E(b, device), axis=1),
                          np.cumprod(b, axis=1))


def test_cumsum_empty_and_0d(device):
    for shape, axis in [((0,), None), ((0,), 0), ((3, 0), 1), ((3, 0), 0),
                        ((0, 4), 1)]:
        a = np.zeros(shape, np.float32)
        assert_array_equal_np(ember.cumsum(E(a, device), axis=axis),
                              np.cumsum(a, axis=axis))
    s = np.float64(2.5)
    assert_array_equal_np(ember.cumsum(E(s, device)), np.cumsum(s))
    assert_array_equal_np(ember.cumprod(E(s, device), axis=0),
                          np.cumprod(s, axis=0))
    assert_array_equal_np(ember.cumsum(E(np.int8(3), device)),
                          np.cumsum(np.int8(3)))


def test_cumsum_nan_and_signed_zero(device):
    a = np.array([[-0.0, np.nan, 1.0], [np.inf, -np.inf, 2.0]])
    x = E(a, device)
    for fn in ("cumsum", "cumprod", "nancumsum", "nancumprod"):
        for axis in (None, 0, 1):
            assert_array_equal_np(getattr(ember, fn)(x, axis=axis),
                                  getattr(np, fn)(a, axis=axis))
    c = np.array([1 + 1j, complex(np.nan, 0), 2 - 1j, complex(0, np.nan)])
    for fn in ("cumsum", "cumprod", "nancumsum", "nancumprod"):
        assert_array_equal_np(getattr(ember, fn)(E(c, device)),
                              getattr(np, fn)(c))
    i = np.arange(5, dtype=np.int16)
    assert_array_equal_np(ember.nancumsum(E(i, device)), np.nancumsum(i))


def test_cumsum_errors(device):
    x = E(np.ones((2, 3)), device)
    with pytest.raises(ember.AxisError):
        ember.cumsum(x, axis=2)
    with pytest.raises(ember.AxisError):
        x.cumprod(axis=-3)
    with pytest.raises(ember.AxisError):
        ember.cumsum(E(np.float64(1), device), axis=1)
    with pytest.raises(TypeError):
        ember.cumsum(x, axis="0")
    with pytest.raises(TypeError):
        ember.cumsum(x, dtype="nonsense")


# ---- ember.linalg ---------------------------------------------------------


def test_linalg_namespace():
    import ember.linalg as la
    assert la is ember.linalg
    for name in ("matmul", "vecdot", "matrix_transpose", "outer", "tensordot",
                 "norm"):
        assert callable(getattr(la, name))


@pytest.mark.parametrize("ord,axis", [(None, None), ("fro", None), (1, None),
                                      (-1, None), (np.inf, None),
                                      (-np.inf, None), (None, 0), (None, 1),
                                      (1, 1), (0, 0), (3, 1), (np.inf, 0),
                                      (-np.inf, 1), (2, 1), (-1, 0),
                                      (1, (1, 0)), (np.inf, (0, 1))])
def test_norm(device, ord, axis):
    a = rng.standard_normal((5, 4))
    close(ember.linalg.norm(E(a, device), ord=ord, axis=axis),
          np.linalg.norm(a, ord=ord, axis=axis), 1e-12)
    close(ember.linalg.norm(E(a, device), ord=ord, axis=axis, keepdims=True),
          np.linalg.norm(a, ord=ord, axis=axis, keepdims=True), 1e-12)


def test_norm_dtypes(device):
    for dtype in ("int32", "float32", "complex64", "float16", "bool"):
        a = small((3, 4), dtype)
        r = ember.linalg.norm(E(a, device))
        want = np.linalg.norm(a)
        assert r.dtype == np.asarray(want).dtype
        np.testing.assert_allclose(ember.asnumpy(r), want, rtol=2e-3)
    v = rng.standard_normal(10)
    close(ember.linalg.norm(E(v, device), 3), np.linalg.norm(v, 3), 1e-12)
    t = rng.standard_normal((2, 3, 4))
    close(ember.linalg.norm(E(t, device)), np.asarray(np.linalg.norm(t)),
          1e-12)


def test_norm_errors(device):
    x = E(np.ones((3, 3)), device)
    for ord in (2, -2, "nuc"):   # through svdvals (test_linalg_lapack.py)
        if device == "cpu":
            close(ember.linalg.norm(x, ord=ord), np.linalg.norm(np.ones((3, 3)),
                                                                ord=ord), 1e-12)
    with pytest.raises(ValueError):
        ember.linalg.norm(x, ord=3)
    with pytest.raises(ValueError):
        ember.linalg.norm(E(np.ones(3), device), ord="fro")
    with pytest.raises(ember.AxisError):
        ember.linalg.norm(x, axis=2)
    with pytest.raises(ValueError):
        ember.linalg.norm(E(np.ones((2, 2, 2)), device), ord=1)


def test_cumulative_sum_prod(device):
    a = small((3, 4), "int32")
    x = E(a, device)
    for axis in (0, 1, -1):
        for inc in (False, True):
            assert_array_equal_np(
                ember.cumulative_sum(x, axis=axis, include_initial=inc),
                np.cumulative_sum(a, axis=axis, include_initial=inc))
            assert_array_equal_np(
                ember.cumulative_prod(x, axis=axis, include_initial=inc),
                np.cumulative_prod(a, axis=axis, include_initial=inc))
    v = small((5,), "float32")
    assert_array_equal_np(ember.cumulative_sum(E(v, device), dtype="float64"),
                          np.cumulative_sum(v, dtype=np.float64))
    assert_array_equal_np(
        ember.cumulative_sum(E(v, device)[:0], include_initial=True),
        np.cumulative_sum(v[:0], include_initial=True))
    with pytest.raises(ValueError):
        ember.cumulative_sum(x)
    with pytest.raises(ember.AxisError):
        ember.cumulative_sum(x, axis=2)


def test_cumsum_long_lines(device):
    # Few long lines: on CUDA a block per line (a chunked scan), so float
    # sums may round differently from NumPy's sequential loop.
    i = rng.integers(-1000, 1000, size=5003)
    assert_array_equal_np(ember.cumsum(E(i, device)), np.cumsum(i))
    m = rng.integers(-3, 4, size=(3, 2999)).astype(np.int32)
    x = E(m, device)
    assert_array_equal_np(x.cumsum(axis=1), m.cumsum(axis=1))
    assert_array_equal_np(x.T.cumsum(axis=0), m.T.cumsum(axis=0))
    assert_array_equal_np(ember.cumprod(E(m[:, :1500] % 2 + 1, device),
                                        axis=1, dtype=ember.uint8),
                          np.cumprod(m[:, :1500] % 2 + 1, axis=1,
                                     dtype=np.uint8))
    f = rng.standard_normal(4097)
    f[0] = -0.0
    f[100] = np.nan
    r = ember.nancumsum(E(f, device))
    close(r, np.nancumsum(f), rtol=1e-9, atol=1e-9)
    assert np.signbit(ember.asnumpy(r)[0])
    close(ember.cumsum(E(f, device))[:100], np.cumsum(f)[:100], 1e-9, 1e-9)
    assert np.isnan(ember.asnumpy(ember.cumsum(E(f, device)))[100:]).all()
    c = (rng.standard_normal(2000) + 1j * rng.standard_normal(2000)) * 0.05 + 1
    close(ember.cumprod(E(c, device)), np.cumprod(c), rtol=1e-9)
    h = np.ones(3000, np.float16)    # float16 keeps the in-order schedule
    assert_array_equal_np(ember.cumsum(E(h, device)), np.cumsum(h))


def test_matmul_tf32_only_when_asked(device, monkeypatch):
    """float32 products keep float32's precision (cuBLAS's TF32 tensor-core
    path rounds inputs to 10 mantissa bits) unless EMBER_TF32=1 asks, as
    CuPy's CUPY_TF32; either way the product is right to its precision."""
    a = rng.standard_normal((256, 512)).astype(np.float32)
    b = rng.standard_normal((512, 128)).astype(np.float32)
    want = a.astype(np.float64) @ b.astype(np.float64)
    monkeypatch.delenv("EMBER_TF32", raising=False)
    full = ember.asnumpy(E(a, device) @ E(b, device))
    np.testing.assert_allclose(full, want, rtol=0, atol=2e-4)
    monkeypatch.setenv("EMBER_TF32", "1")
    tf32 = ember.asnumpy(E(a, device) @ E(b, device))
    np.testing.assert_allclose(tf32, want, rtol=0, atol=0.1)


def test_gram_products_are_symmetric_and_match_numpy():
    # X.T @ X and X @ X.T of one operand go through ?syrk on cpu (NumPy's
    # choice): the result must be NumPy's and exactly symmetric
    rng = np.random.default_rng(11)
    for dt, tol in ((np.float64, 1e-12), (np.float32, 1e-5)):
        X = rng.standard_normal((400, 37)).astype(dt)
        E = ember.array(X)
        for got, want in ((E.T @ E, X.T @ X), (E[:50] @ E[:50].T, X[:50] @ X[:50].T),
                          (E[::3].T @ E[::3], X[::3].T @ X[::3])):
            g = ember.asnumpy(got)
            np.testing.assert_allclose(g, want, rtol=tol, atol=tol)
            assert np.array_equal(g, g.T)
