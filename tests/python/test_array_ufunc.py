"""Operators and ufuncs on ember arrays against NumPy: values, dtypes and
shapes, NEP 50 promotion of Python scalars, broadcasting, views, special
values, overflow, in-place and reflected forms, ember.ufunc objects and
__array_ufunc__, and the errors for what does not go together."""
import inspect
import operator
import warnings

import numpy as np
import pytest

import ember

from helpers import assert_array_equal_np

NUMPY_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                "uint32", "uint64", "float16", "float32", "float64", "complex64",
                "complex128"]
INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOATS = ["float16", "float32", "float64"]


def values(dtype, n=12, nonzero=False, seed=0):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        v = rng.integers(0, 2, n).astype(bool)
        return np.ones(n, bool) if nonzero else v
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo, hi = (max(info.min, -50), min(info.max, 50))
        v = rng.integers(lo, hi, n, endpoint=True).astype(dt)
        if nonzero:
            v[v == 0] = 3
        return v
    v = (rng.standard_normal(n) * 10).astype(dt)
    if dt.kind == "c":
        v = (v + 1j * rng.standard_normal(n)).astype(dt)
    return v


def numpy_result(fn, *args):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args)


def ember_args(device, *hs):
    return [ember.asarray(h, device=device) for h in hs]


BINARY = [operator.add, operator.sub, operator.mul, operator.truediv,
          operator.floordiv, operator.mod, operator.pow]


def supported(op, dtype):
    kind = np.dtype(dtype).kind
    if kind == "b" and op in (operator.sub, operator.floordiv, operator.mod, operator.pow):
        return False
    if kind == "c" and op in (operator.floordiv, operator.mod):
        return False
    return True


@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
@pytest.mark.parametrize("op", BINARY, ids=lambda f: f.__name__)
def test_binary_same_dtype(device, op, dtype):
    if not supported(op, dtype):
        pytest.skip("NumPy has no such loop")
    a = values(dtype, seed=1)
    b = values(dtype, nonzero=True, seed=2)
    if op is operator.pow and np.dtype(dtype).kind in "iu":
        b = (np.abs(b.astype(np.int64)) % 4).astype(dtype)
    if op is operator.pow and np.dtype(dtype).kind in "fc":
        a = np.abs(a) if np.dtype(dtype).kind == "f" else a
    x, y = ember_args(device, a, b)
    want = numpy_result(op, a, b)
    got = op(x, y)
    # Results of several roundings (complex products, powers, quotients)
    # may differ in the last place from NumPy's order of operations.
    inexact = op in (operator.pow, operator.truediv, operator.floordiv, operator.mod)
    if (np.dtype(dtype).kind == "f" and inexact) or (
            np.dtype(dtype).kind == "c" and op is not operator.add and op is not operator.sub):
        assert got.dtype == want.dtype and got.shape == want.shape
        rtol = {"float16": 2e-3, "float32": 2e-6, "complex64": 2e-6}.get(dtype, 1e-13)
        np.testing.assert_allclose(ember.asnumpy(got), want, rtol=rtol)
    else:
        assert_array_equal_np(got, want)


MIXED = [("int8", "uint8"), ("int8", "int64"), ("uint8", "float16"), ("int16", "float32"),
         ("int32", "float32"), ("uint64", "int64"), ("float32", "float64"),
         ("float32", "complex64"), ("float64", "complex64"), ("bool", "int8"),
         ("bool", "float32"), ("uint32", "int8"), ("float16", "int64")]


@pytest.mark.parametrize("a_t,b_t", MIXED)
@pytest.mark.parametrize("op", [operator.add, operator.mul, operator.truediv,
                                operator.lt, operator.eq], ids=lambda f: f.__name__)
def test_binary_mixed_dtypes(device, op, a_t, b_t):
    a, b = values(a_t, seed=3), values(b_t, nonzero=True, seed=4)
    x, y = ember_args(device, a, b)
    want = numpy_result(op, a, b)
    got = op(x, y)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(ember.asnumpy(got), want, rtol=1e-3)
    got = op(y, x)
    want = numpy_result(op, b, a)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(ember.asnumpy(got), want, rtol=1e-3)


# ---- NEP 50: Python scalars are weak ---------------------------------------------

@pytest.mark.parametrize("dtype,scalar,op", [
    ("uint8", 1, operator.add), ("int8", -3, operator.mul), ("int32", 1.5, operator.mul),
    ("float32", 1.0, operator.add), ("float16", 2.5, operator.sub),
    ("float32", 1j, operator.add), ("int16", True, operator.add),
    ("uint8", 200, operator.add), ("int64", 2.0, operator.truediv),
    ("uint16", 3, operator.floordiv), ("int8", 2, operator.pow),
    ("bool", 1, operator.add), ("bool", 1.5, operator.mul), ("complex64", 2.0, operator.mul),
    ("uint64", 2**63, operator.add), ("float32", 1e300, operator.mul),
])
def test_weak_python_scalars(device, dtype, scalar, op):
    a = values(dtype, nonzero=True, seed=5)
    if np.dtype(dtype).kind in "iu" or op is operator.pow:
        a = np.abs(a)   # no negative integer powers (NumPy raises for them)
    x = ember.asarray(a, device=device)
    for got, want in ((op(x, scalar), numpy_result(op, a, scalar)),
                      (op(scalar, x), numpy_result(op, scalar, a))):
        assert got.dtype == want.dtype, (got.dtype, want.dtype)
        np.testing.assert_allclose(ember.asnumpy(got).astype(np.complex128),
                                   np.asarray(want).astype(np.complex128), rtol=1e-3)


def test_weak_scalar_overflow(device):
    x = ember.zeros(3, dtype=ember.int8, device=device)
    with pytest.raises(OverflowError, match="300 out of bounds for int8"):
        x + 300
    with pytest.raises(OverflowError):
        300 + x
    u = ember.zeros(3, dtype=ember.uint8, device=device)
    with pytest.raises(OverflowError):
        u + (-1)
    assert_array_equal_np(u + 255, np.zeros(3, np.uint8) + 255)
    with pytest.raises(OverflowError):
        x + 2**70
    # Comparisons with out-of-range Python ints compare the values.
    assert_array_equal_np(x < 300, np.zeros(3, np.int8) < 300)
    assert_array_equal_np(u == -1, np.zeros(3, np.uint8) == -1)


def test_numpy_scalars_are_strong(device):
    a = np.arange(4, dtype=np.float32)
    x = ember.asarray(a, device=device)
    for s in (np.float64(1.5), np.int64(2), np.float16(1), np.int8(3), np.complex64(1j)):
        got, want = x + s, a + s
        assert got.dtype == want.dtype, (s, got.dtype, want.dtype)
        np.testing.assert_allclose(ember.asnumpy(got), want)
    i = ember.arange(3, dtype=ember.int8, device=device)
    assert (i + np.int16(1)).dtype == ember.int16
    assert (i + np.float64(1)).dtype == ember.float64


# ---- layouts, broadcasting, special values -----------------------------------------

def test_broadcasting_and_views(device):
    a = np.arange(12, dtype=np.float64).reshape(3, 4)
    b = np.arange(4, dtype=np.float64)
    c = np.arange(3, dtype=np.float64).reshape(3, 1)
    x, y, z = ember_args(device, a, b, c)
    assert_array_equal_np(x + y, a + b)
    assert_array_equal_np(y + z, b + c)
    assert_array_equal_np(x[:, ::-1] * y[::-1], a[:, ::-1] * b[::-1])
    assert_array_equal_np(x.T - z.T, a.T - c.T)
    assert_array_equal_np(x[::2, 1::2] + x[1:, :2], a[::2, 1::2] + a[1:, :2])
    assert_array_equal_np(x[None, :, None, 1] + z, a[None, :, None, 1] + c)
    s = ember.asarray(2.0, device=device)
    assert_array_equal_np(s * s, np.asarray(4.0))
    assert_array_equal_np(x * s, a * 2.0)
    e = ember.zeros((0, 4), device=device)
    assert_array_equal_np(e + y, np.zeros((0, 4)) + b)
    big = np.arange(3 * 1 * 4 * 1 * 2).reshape(3, 1, 4, 1, 2).astype(np.int32)
    other = np.arange(4 * 5 * 1).reshape(4, 5, 1).astype(np.int32)
    assert_array_equal_np(ember.asarray(big, device=device) * ember.asarray(other, device=device),
                          big * other)


def test_special_values(device):
    a = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0], np.float64)
    b = np.array([1.0, np.inf, np.inf, 0.0, -0.0, np.nan, -0.0], np.float64)
    x, y = ember_args(device, a, b)
    for op in (operator.add, operator.sub, operator.mul, operator.truediv):
        assert_array_equal_np(op(x, y), numpy_result(op, a, b))
    for name in ("maximum", "minimum", "copysign", "hypot", "arctan2"):
        assert_array_equal_np(getattr(ember, name)(x, y), numpy_result(getattr(np, name), a, b))
    for name in ("fmax", "fmin"):
        # The sign of fmax(-0.0, 0.0) is left to the platform by C and NumPy.
        np.testing.assert_array_equal(ember.asnumpy(getattr(ember, name)(x, y)),
                                      numpy_result(getattr(np, name), a, b))
    for name in ("isnan", "isinf", "isfinite", "signbit", "negative", "absolute", "sign",
                 "floor", "ceil", "trunc", "rint", "sqrt", "square"):
        assert_array_equal_np(getattr(ember, name)(x), numpy_result(getattr(np, name), a))
    assert_array_equal_np(x == x, a == a)
    assert_array_equal_np(x != x, a != a)
    f = x.astype(ember.float32)
    assert_array_equal_np(-f, -a.astype(np.float32))


def test_integer_overflow_wraps(device):
    a = np.array([127, -128, 100], np.int8)
    x = ember.asarray(a, device=device)
    assert_array_equal_np(x + x, numpy_result(operator.add, a, a))
    assert_array_equal_np(x * x, numpy_result(operator.mul, a, a))
    assert_array_equal_np(-x, numpy_result(operator.neg, a))
    u = ember.asarray(np.array([0, 1, 255], np.uint8), device=device)
    assert_array_equal_np(u - ember.asarray(np.uint8(1), device=device),
                          numpy_result(operator.sub, np.array([0, 1, 255], np.uint8),
                                       np.uint8(1)))
    big = np.array([2**62, -2**63], np.int64)
    assert_array_equal_np(ember.asarray(big, device=device) * 4,
                          numpy_result(operator.mul, big, 4))


def test_integer_division_signs(device):
    a = np.array([7, -7, 7, -7, 0, 5], np.int32)
    b = np.array([2, 2, -2, -2, 3, -5], np.int32)
    x, y = ember_args(device, a, b)
    assert_array_equal_np(x // y, a // b)
    assert_array_equal_np(x % y, a % b)
    q, r = divmod(x, y)
    assert_array_equal_np(q, a // b)
    assert_array_equal_np(r, a % b)
    f, g = ember_args(device, a.astype(np.float64), b.astype(np.float64))
    assert_array_equal_np(f // g, a.astype(np.float64) // b.astype(np.float64))
    assert_array_equal_np(f % g, a.astype(np.float64) % b.astype(np.float64))


def test_integer_division_by_zero_does_not_crash(device):
    a = np.array([7, -7, 0], np.int32)
    z = np.zeros(3, np.int32)
    x, y = ember_args(device, a, z)
    assert_array_equal_np(x // y, numpy_result(operator.floordiv, a, z))
    assert_array_equal_np(x % y, numpy_result(operator.mod, a, z))


# ---- comparisons, bitwise, unary -----------------------------------------------------

@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_comparisons(device, dtype):
    a, b = values(dtype, seed=6), values(dtype, seed=7)
    x, y = ember_args(device, a, b)
    ops = [operator.eq, operator.ne]
    if np.dtype(dtype).kind != "c":
        ops += [operator.lt, operator.le, operator.gt, operator.ge]
    for op in ops:
        assert_array_equal_np(op(x, y), op(a, b))
        assert_array_equal_np(op(x, 1), op(a, 1))


@pytest.mark.parametrize("dtype", ["bool"] + INTS)
def test_bitwise(device, dtype):
    a, b = values(dtype, seed=8), values(dtype, seed=9)
    x, y = ember_args(device, a, b)
    for op in (operator.and_, operator.or_, operator.xor):
        assert_array_equal_np(op(x, y), op(a, b))
    assert_array_equal_np(~x, ~a)
    if dtype != "bool":
        s = (np.abs(b.astype(np.int64)) % (np.dtype(dtype).itemsize * 8)).astype(dtype)
        sy = ember.asarray(s, device=device)
        assert_array_equal_np(x << sy, numpy_result(operator.lshift, a, s))
        assert_array_equal_np(x >> sy, numpy_result(operator.rshift, a, s))
        assert_array_equal_np(x & 3, a & 3)


@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_unary_operators(device, dtype):
    a = values(dtype, seed=10)
    x = ember.asarray(a, device=device)
    if dtype != "bool":
        assert_array_equal_np(-x, numpy_result(operator.neg, a))
        assert_array_equal_np(+x, numpy_result(operator.pos, a))
    if np.dtype(dtype).kind == "c":
        # |z| is a hypot: correctly rounded in NumPy's libm, within an ulp here.
        got = abs(x)
        assert got.dtype == np.abs(a).dtype
        np.testing.assert_allclose(ember.asnumpy(got), np.abs(a), rtol=4e-7)
    else:
        assert_array_equal_np(abs(x), numpy_result(abs, a))


# ---- in-place and reflected ---------------------------------------------------------

def test_inplace_writes_through_views(device):
    h = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = ember.asarray(h, device=device, copy=True)
    v = x[1:, ::2]
    ident = id(v)
    v += 10
    assert id(v) == ident
    v *= 2
    v -= ember.asarray([1, 2], device=device)
    h[1:, ::2] += 10
    h[1:, ::2] *= 2
    h[1:, ::2] -= np.array([1, 2])
    assert_array_equal_np(x, h)
    x /= 4
    h /= 4
    x **= 2
    h **= 2
    assert_array_equal_np(x, h)
    i = ember.arange(10, device=device)
    hi = np.arange(10)
    i //= 3
    hi //= 3
    i %= 2
    hi %= 2
    i <<= 2
    hi <<= 2
    i |= 1
    hi |= 1
    i ^= 7
    hi ^= 7
    i &= 6
    hi &= 6
    i >>= 1
    hi >>= 1
    assert_array_equal_np(i, hi)


def test_inplace_casting_rules(device):
    i = ember.arange(3, device=device)
    with pytest.raises(TypeError, match="same_kind|cast"):
        i += 1.5
    f = ember.zeros(3, dtype=ember.float32, device=device)
    f += ember.ones(3, dtype=ember.float64, device=device)     # same kind: allowed
    assert_array_equal_np(f, np.ones(3, np.float32))
    with pytest.raises(ValueError):
        f += ember.ones(4, device=device)
    ro_h = np.zeros(3)
    ro_h.flags.writeable = False
    ro = ember.asarray(ro_h, device="cpu")
    with pytest.raises(ValueError, match="read-only"):
        ro += 1


def test_reflected(device):
    a = np.array([1.0, 2.0, 4.0])
    x = ember.asarray(a, device=device)
    for op in BINARY:
        assert_array_equal_np(op(3, x), numpy_result(op, 3, a))
        assert_array_equal_np(op(2.5, x), numpy_result(op, 2.5, a))
    assert_array_equal_np(1 < x, 1 < a)
    assert_array_equal_np(5 & ember.arange(4, device=device), 5 & np.arange(4))


def test_operators_with_host_data(device):
    a = np.arange(4.0)
    x = ember.asarray(a, device=device)
    assert_array_equal_np(x + [1, 2, 3, 4], a + [1, 2, 3, 4])
    assert_array_equal_np((1, 2, 3, 4) * x, (1, 2, 3, 4) * a)
    if device == "cpu":
        got = x + a
        assert_array_equal_np(got, a + a)
    else:
        with pytest.raises(TypeError, match="asarray"):
            x + a


# ---- ufunc objects --------------------------------------------------------------------

def test_ufunc_objects():
    assert isinstance(ember.add, ember.ufunc)
    assert ember.add.nin == 2 and ember.add.nout == 1 and ember.add.nargs == 3
    assert ember.sqrt.nin == 1 and ember.sqrt.__name__ == "sqrt"
    assert ember.abs is ember.absolute and ember.conj is ember.conjugate
    assert ember.divide is ember.true_divide and ember.pow is ember.power
    assert ember.bitwise_not is ember.invert and ember.acos is ember.arccos
    assert repr(ember.add) == "<ufunc 'add'>"
    assert "add" in ember.add.__doc__
    for name in ("add", "subtract", "multiply", "true_divide", "floor_divide", "remainder",
                 "power", "maximum", "minimum", "equal", "less", "logical_and",
                 "bitwise_xor", "left_shift", "arctan2", "hypot", "logaddexp", "ldexp",
                 "negative", "absolute", "sign", "sqrt", "cbrt", "exp", "log1p", "sin",
                 "arccosh", "floor", "rint", "isnan", "signbit", "logical_not", "invert",
                 "conjugate", "heaviside", "float_power", "nextafter", "reciprocal"):
        assert isinstance(getattr(ember, name), ember.ufunc), name
    with pytest.raises(TypeError):
        ember.ufunc()


@pytest.mark.parametrize("name", ["sqrt", "exp", "log", "sin", "cos", "tanh", "arctan",
                                  "expm1", "log1p", "cbrt", "exp2", "log2", "log10"])
@pytest.mark.parametrize("dtype", FLOATS)
def test_unary_math_ufuncs(device, name, dtype):
    a = np.abs(values(dtype, seed=11)) + np.asarray(0.5, dtype)
    x = ember.asarray(a, device=device)
    got = getattr(ember, name)(x)
    want = numpy_result(getattr(np, name), a)
    assert got.dtype == want.dtype and got.shape == want.shape
    rtol = {"float16": 2e-3, "float32": 2e-6, "float64": 1e-13}[dtype]
    np.testing.assert_allclose(ember.asnumpy(got), want, rtol=rtol)


def test_ufunc_out_and_where(device):
    a, b = np.arange(6.0).reshape(2, 3), np.full((2, 3), 10.0)
    x, y = ember_args(device, a, b)
    out = ember.zeros((2, 3), device=device)
    r = ember.add(x, y, out=out)
    assert r is out
    assert_array_equal_np(out, a + b)
    r = ember.multiply(x, 2, out=(out,))
    assert r is out
    assert_array_equal_np(out, a * 2)
    ember.subtract(x, y, out)
    assert_array_equal_np(out, a - b)
    f32 = ember.zeros((2, 3), dtype=ember.float32, device=device)
    ember.add(x, y, out=f32)                                  # same_kind cast
    assert_array_equal_np(f32, (a + b).astype(np.float32))
    with pytest.raises(TypeError):
        ember.add(x, y, out=ember.zeros((2, 3), dtype=ember.int64, device=device))
    with pytest.raises(ValueError):
        ember.add(x, y, out=ember.zeros((3,), device=device))
    mask = np.array([[True, False, True], [False, True, False]])
    out2 = ember.full((2, 3), -1.0, device=device)
    ember.add(x, y, out=out2, where=ember.asarray(mask, device=device))
    want = np.full((2, 3), -1.0)
    np.add(a, b, out=want, where=mask)
    assert_array_equal_np(out2, want)
    out3 = ember.full((2, 3), -1.0, device=device)
    ember.sqrt(x, out=out3, where=[True, False, True])
    want = np.full((2, 3), -1.0)
    np.sqrt(a, out=want, where=[True, False, True])
    assert_array_equal_np(out3, want)
    sub = ember.zeros((4, 6), device=device)
    ember.add(x, 1, out=sub[::2, ::2])                         # into a view
    want = np.zeros((4, 6))
    want[::2, ::2] = a + 1
    assert_array_equal_np(sub, want)


def test_ufunc_scalars_only(device):
    with ember.Device(device):
        r = ember.add(1, 2)
        assert_array_equal_np(r, np.asarray(3), device)
        assert_array_equal_np(ember.multiply(2.5, np.float32(2)), np.asarray(np.float32(5.0)))
        assert_array_equal_np(ember.sqrt(4.0), np.asarray(2.0))


def test_ufunc_call_errors(device):
    x = ember.arange(3, device=device)
    with pytest.raises(TypeError):
        ember.add(x)
    with pytest.raises(TypeError):
        ember.add(x, x, x, x)
    with pytest.raises(TypeError, match="unexpected keyword"):
        ember.add(x, x, bogus=1)
    with pytest.raises(TypeError):
        ember.add(x, "a")
    with pytest.raises(TypeError):
        ember.add(x, x, out=np.zeros(3))
    # reduce and dtype= exist (test_ndarray_surface.py tests them fully)
    assert int(ember.add.reduce(x)) == 3
    assert ember.add(x, x, dtype=ember.float32).dtype == ember.float32
    with pytest.raises(TypeError):
        ember.add(x, 1.5, dtype=ember.float32, out=np.zeros(3))


# ---- __array_ufunc__ -------------------------------------------------------------------

def test_numpy_ufuncs_dispatch_to_ember(device):
    a = np.arange(1.0, 5.0)
    x = ember.asarray(a, device=device)
    r = np.add(x, x)
    assert isinstance(r, ember.ndarray)
    assert_array_equal_np(r, a + a)
    assert_array_equal_np(np.sqrt(x), np.sqrt(a))
    assert_array_equal_np(np.multiply(x, 2), a * 2)
    assert_array_equal_np(np.divide(x, 2), a / 2)
    assert_array_equal_np(np.abs(-x), a)
    out = ember.empty(4, device=device)
    assert np.add(x, 1, out=out) is out
    assert_array_equal_np(out, a + 1)
    if device == "cpu":
        assert_array_equal_np(a + x, a + a)             # NumPy's operator defers
        assert isinstance(np.maximum(a, x), ember.ndarray)
    else:
        with pytest.raises(TypeError):
            a + x
    r = np.add.reduce(x)                  # ufunc methods dispatch too
    assert isinstance(r, ember.ndarray) and float(r) == a.sum()
    with pytest.raises(TypeError):
        np.isnat(ember.asarray([1, 3], device=device))   # no such ember ufunc
    # NumPy ufuncs that ember holds as functions
    h = np.array([-90.0, 30.0, 180.0])
    e = ember.asarray(h, device=device)
    for f in (np.deg2rad, np.radians):
        r = f(e)
        assert isinstance(r, ember.ndarray)
        np.testing.assert_allclose(ember.asnumpy(r), f(h), rtol=1e-15)
    for f in (np.rad2deg, np.degrees):
        np.testing.assert_allclose(ember.asnumpy(f(e)), f(h), rtol=1e-15)
    np.testing.assert_allclose(ember.asnumpy(np.vecdot(e, e)), np.vecdot(h, h), rtol=1e-15)


# ---- errors --------------------------------------------------------------------------------

def test_shape_mismatch_names_both_shapes(device):
    x, y = ember.zeros((2, 3), device=device), ember.zeros((4,), device=device)
    with pytest.raises(ValueError, match=r"\(2, 3\).*\(4,\)|\(4,\).*\(2, 3\)"):
        x + y


def test_unsupported_dtypes_name_ufunc_and_dtypes(device):
    f = ember.zeros(3, device=device)
    with pytest.raises(TypeError, match="bitwise_and.*float64"):
        f & f
    with pytest.raises(TypeError, match="left_shift"):
        f << 1
    b = ember.zeros(3, dtype=ember.bool_, device=device)
    with pytest.raises(TypeError, match="boolean subtract"):
        b - b
    with pytest.raises(TypeError, match="boolean negative"):
        -b
    c = ember.zeros(3, dtype=ember.complex64, device=device)
    with pytest.raises(TypeError, match="floor_divide"):
        c // c


def test_other_operand_types(device):
    x = ember.arange(3, device=device)
    with pytest.raises(TypeError):
        x + "a"
    with pytest.raises(TypeError):
        x + None
    with pytest.raises(TypeError):
        None * x
    assert (x == None) is False  # noqa: E711 (Python falls back to identity)


def test_mixing_devices(need_cuda):
    c = ember.zeros(3, device="cpu")
    g = ember.zeros(3, device="cuda:0")
    with pytest.raises(ValueError, match="cpu.*cuda:0|cuda:0.*cpu"):
        c + g
    with pytest.raises(ValueError, match="cpu.*cuda:0|cuda:0.*cpu"):
        ember.add(g, c)
    with pytest.raises(ValueError, match="cpu.*cuda:0|cuda:0.*cpu"):
        ember.add(g, g, out=c)


# ---- complex inverse trigonometric and hyperbolic functions ---------------

ATRIG = ["arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh"]


def _atrig_grid():
    """Both branch cuts of every function (the real and imaginary axes past
    +-1, with +0.0 and -0.0 imaginary or real parts), the points +-1 and
    +-i, tiny and huge magnitudes, infinities and NaN, in all combinations."""
    parts = [0.0, 1e-300, 1e-30, 1e-8, 0.5, 1 - 1e-10, 1.0, 1 + 1e-10, 1.5, 2.0,
             1e5, 1e20, 1e300, np.inf, np.nan]
    parts = parts + [-p for p in parts]
    return np.array([complex(a, b) for a in parts for b in parts])


def _close_complex(got, want, rtol, z=None):
    """Each part equal to NumPy's within rtol of |want| (NaN where NumPy has
    NaN, the same infinity, and the sign of an exact zero NumPy returns).
    Where an input part is NaN, C99 Annex G leaves the sign of an infinite
    or zero result part unspecified (catanh(NaN + i inf) = +-0 + i pi/2),
    and NumPy's sign then follows the sign bit of the NaN, which the GPU
    does not keep through arithmetic: there only magnitudes are compared."""
    zs = z.ravel() if z is not None else [0j] * got.size
    for g, w, zi in zip(got.ravel(), want.ravel(), zs):
        nan_in = np.isnan(zi.real) or np.isnan(zi.imag)
        for a, b in ((g.real, w.real), (g.imag, w.imag)):
            if nan_in:
                a, b = abs(a), abs(b)
            if np.isnan(b):
                assert np.isnan(a), (g, w)
            elif np.isinf(b) or np.isinf(a):
                assert a == b, (g, w)
            elif b == 0 and a == 0:
                assert np.signbit(a) == np.signbit(b), (g, w)
            else:
                scale = abs(w) if np.isfinite(abs(w)) else abs(b)
                assert a == b or abs(a - b) <= rtol * max(scale, 1e-300), (g, w)


@pytest.mark.parametrize("name", ATRIG)
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_inverse_trig_grid(device, name, dtype):
    with np.errstate(over="ignore"):     # 1e300 is inf in complex64
        z = _atrig_grid().astype(dtype)
    want = numpy_result(getattr(np, name), z)
    got = getattr(ember, name)(ember.asarray(z, device=device))
    assert got.dtype == want.dtype and got.shape == want.shape
    _close_complex(ember.asnumpy(got), want, 2e-6 if dtype == "complex64" else 1e-14, z)


@pytest.mark.parametrize("name", ATRIG)
def test_complex_inverse_trig_random(device, name):
    # Random points in a few decades, the unit circle (where atanh's
    # imaginary part is most sensitive) included; a strided view and a 2-d
    # shape for the layout paths.
    rng = np.random.default_rng(7)
    r = 10.0 ** rng.uniform(-6, 6, 400)
    r[:100] = 1 + rng.uniform(-1e-3, 1e-3, 100)
    z = (r * np.exp(1j * rng.uniform(-np.pi, np.pi, 400))).reshape(20, 20)
    for dtype, rtol in (("complex128", 1e-14), ("complex64", 2e-6)):
        h = z.astype(dtype)
        x = ember.asarray(h, device=device)[:, ::-3]
        want = numpy_result(getattr(np, name), h[:, ::-3])
        _close_complex(ember.asnumpy(getattr(ember, name)(x)), want, rtol)


# ---- integer power with a negative integer array exponent ----------------

@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64"])
def test_negative_integer_array_exponent_raises(device, dtype):
    a = ember.asarray(np.array([2, 3, 4], dtype=dtype), device=device)
    e = ember.asarray(np.array([1, -1, 2], dtype=dtype), device=device)
    with pytest.raises(ValueError, match="Integers to negative integer powers are not allowed."):
        a ** e
    with pytest.raises(ValueError, match="Integers to negative integer powers"):
        ember.power(a, e[::-1])          # strided view
    with pytest.raises(ValueError, match="Integers to negative integer powers"):
        ember.power(a, e[1])             # 0-d array exponent
    with pytest.raises(ValueError, match="Integers to negative integer powers"):
        a **= e
    np.testing.assert_array_equal(ember.asnumpy(a), [2, 3, 4])  # untouched
    # Non-negative exponents compute as NumPy does, as do empty ones.
    ok = np.array([0, 1, 5], dtype=dtype)
    h = np.array([2, -3, 2], dtype=dtype)
    assert_array_equal_np(ember.asarray(h, device=device) ** ember.asarray(ok, device=device),
                          h ** ok)
    z = ember.zeros(0, dtype=dtype, device=device)
    assert (z ** z).shape == (0,)


def test_negative_exponent_mixed_and_float(device):
    # uint8 ** int8 promotes to int16: still refused for a negative element.
    a = ember.asarray(np.array([2, 3], np.uint8), device=device)
    e = ember.asarray(np.array([1, -2], np.int8), device=device)
    with pytest.raises(ValueError, match="negative integer powers"):
        a ** e
    # Unsigned exponents never raise; float loops allow negative powers.
    u = ember.asarray(np.array([1, 2], np.uint16), device=device)
    assert_array_equal_np(a ** u, np.array([2, 3], np.uint8) ** np.array([1, 2], np.uint16))
    f = ember.asarray(np.array([2.0, 4.0]), device=device)
    # CUDA's pow is within 2 ulp (4.0 ** -2.0 gave 0.06249999999999999).
    np.testing.assert_allclose(ember.asnumpy(f ** e),
                               np.array([2.0, 4.0]) ** np.array([1, -2], np.int8),
                               rtol=4e-16, atol=0)


# ---- functions composed from ufuncs ---------------------------------------

SPECIAL = np.array([1.25, -2.5, 0.5, -0.0, np.nan, np.inf, -np.inf, 3.75, 1e4, -7.5])


def _complex(re, im, dtype):
    """Parts put in place (re + 1j * im would turn inf * 0 into NaN)."""
    z = np.empty(len(re), dtype)
    z.real, z.imag = re, im
    return z


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int64", "float16", "float32", "float64"])
def test_clip(device, dtype):
    # -0.0 is left out: NumPy keeps it against a 0 bound given as a scalar
    # but not as an array; ember (maximum then minimum) gives +0.0 for both.
    h = (SPECIAL[SPECIAL != 0] if np.dtype(dtype).kind == "f"
         else values(dtype, seed=3)).astype(dtype)
    x = ember.asarray(h, device=device)
    for lo, hi in ((-1, 2), (None, 2), (1, None), (3, 1)):
        assert_array_equal_np(ember.clip(x, lo, hi), numpy_result(np.clip, h, lo, hi))
    assert_array_equal_np(ember.clip(x, min=0, max=1), np.clip(h, 0, 1))
    # Array bounds broadcast; out= is written.
    lo = np.zeros((3, 1), dtype)
    out = ember.empty((3, h.size), dtype=dtype, device=device)
    r = ember.clip(x, ember.asarray(lo, device=device), 5, out=out)
    assert r is out
    assert_array_equal_np(out, numpy_result(np.clip, h, lo, 5))
    assert_array_equal_np(ember.clip(x), h)
    # NumPy's keywords; the positional bounds carry the Array API's names
    assert_array_equal_np(ember.clip(x, a_min=0, a_max=1), np.clip(h, 0, 1))
    assert list(inspect.signature(ember.clip).parameters)[:3] == ["a", "min", "max"]
    with pytest.raises(TypeError, match="not both"):
        ember.clip(x, 0, 1, a_min=0)
    if np.dtype(dtype).kind in "iu":
        # bounds at and past the dtype's ends (int64's lower end took a
        # negation of INT64_MIN, which UBSan caught)
        info = np.iinfo(dtype)
        for lo, hi in ((int(info.min), 3), (int(info.min) - 1, int(info.max) + 1)):
            assert_array_equal_np(ember.clip(x, lo, hi), np.clip(h, lo, hi))


@pytest.mark.parametrize("dtype", ["int16", "uint8", "float16", "float32", "float64",
                                   "complex64", "complex128"])
@pytest.mark.parametrize("decimals", [0, 1, 2, -1])
def test_round(device, dtype, decimals):
    if np.dtype(dtype).kind in "fc":
        h = (SPECIAL * 1.01).astype(dtype)
        if np.dtype(dtype).kind == "c":
            h = _complex(SPECIAL * 1.01, SPECIAL[::-1] * 0.37, dtype)
    else:
        h = np.array([15, 25, 35, 44, 5, 0, 99, 101], dtype)
    x = ember.asarray(h, device=device)
    want = numpy_result(np.round, h, decimals)
    assert_array_equal_np(ember.round(x, decimals), want)
    assert_array_equal_np(ember.around(x, decimals=decimals), want)


def test_divmod_angle_real_imag(device):
    a = np.array([7, -7, 7, -7, 0], np.int32)
    b = np.array([2, 2, -2, -2, 3], np.int32)
    q, r = ember.divmod(ember.asarray(a, device=device), ember.asarray(b, device=device))
    wq, wr = np.divmod(a, b)
    assert_array_equal_np(q, wq)
    assert_array_equal_np(r, wr)
    z = np.array([1 + 1j, -1 + 0j, -1 - 0j, 2.5 - 3.5j, np.nan + 1j, 0j], np.complex64)
    x = ember.asarray(z, device=device)
    got = ember.angle(x)
    assert got.dtype == np.float32   # atan2f may differ from NumPy's in the last place
    np.testing.assert_allclose(ember.asnumpy(got), np.angle(z), rtol=1e-6)
    np.testing.assert_allclose(ember.asnumpy(ember.angle(x, deg=True)), np.angle(z, deg=True),
                               rtol=1e-6)
    for h in (np.array([1, -1, 0], np.int8), np.array([-0.0, 2.0, -3.0])):
        assert_array_equal_np(ember.angle(ember.asarray(h, device=device)), np.angle(h))
    assert_array_equal_np(ember.real(x), z.real)
    assert_array_equal_np(ember.imag(x), z.imag)
    assert_array_equal_np(ember.real(ember.asarray(a, device=device)), a)


@pytest.mark.parametrize("name", ["deg2rad", "radians", "rad2deg", "degrees"])
@pytest.mark.parametrize("dtype", ["bool", "int8", "int16", "int64", "float16", "float32",
                                   "float64"])
def test_degrees_radians(device, name, dtype):
    h = values(dtype, seed=4)
    got = getattr(ember, name)(ember.asarray(h, device=device))
    want = getattr(np, name)(h)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(ember.asnumpy(got), want,
                               rtol={"float16": 1e-3, "float32": 1e-6}.get(str(want.dtype), 1e-15))


def test_degrees_of_complex_raises(device):
    with pytest.raises(TypeError, match="deg2rad.*complex128"):
        ember.deg2rad(ember.zeros(2, dtype=ember.complex128, device=device))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128",
                                   "int32"])
def test_nan_to_num(device, dtype):
    h = SPECIAL.astype(dtype) if np.dtype(dtype).kind != "i" else np.arange(4, dtype=dtype)
    if np.dtype(dtype).kind == "c":
        h = _complex(SPECIAL, SPECIAL[::-1], dtype)
    x = ember.asarray(h, device=device)
    assert_array_equal_np(ember.nan_to_num(x), np.nan_to_num(h))
    assert_array_equal_np(ember.nan_to_num(x, nan=5, posinf=7, neginf=-7),
                          np.nan_to_num(h, nan=5, posinf=7, neginf=-7))
    np.testing.assert_array_equal(ember.asnumpy(x), h)   # copy=True leaves x
    y = ember.nan_to_num(x, copy=False)
    assert y is x
    assert_array_equal_np(x, np.nan_to_num(h))
