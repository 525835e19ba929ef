"""Making ember arrays: empty/zeros/ones/full and _like, arange, and
asarray/array/ascontiguousarray/copy from every kind of source, compared
with NumPy (values, dtype, shape)."""
import array as pyarray
import os
import subprocess
import sys

import numpy as np
import pytest

import ember

from helpers import assert_array_equal_np

NUMPY_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                "uint32", "uint64", "float16", "float32", "float64", "complex64",
                "complex128"]


def sample(dtype, shape=(2, 3), seed=0):
    """Values of dtype with negatives, fractions and (for floats) specials."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, n).astype(dt).reshape(shape)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return rng.integers(info.min, info.max, n, dtype=dt, endpoint=True).reshape(shape)
    v = rng.standard_normal(n) * 100
    if dt.kind == "c":
        v = v + 1j * rng.standard_normal(n)
    v = v.astype(dt)
    specials = [np.nan, np.inf, -np.inf, -0.0]
    for i, s in enumerate(specials[:n]):
        v[i] = s
    return v.reshape(shape)


# ---- empty, zeros, ones, full ------------------------------------------------

@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_zeros_ones_full(device, dtype):
    assert_array_equal_np(ember.zeros((2, 3), dtype=dtype, device=device),
                          np.zeros((2, 3), dtype), device)
    assert_array_equal_np(ember.ones(4, dtype=dtype, device=device), np.ones(4, dtype),
                          device)
    assert_array_equal_np(ember.full((3, 1), 1, dtype=dtype, device=device),
                          np.full((3, 1), 1, dtype))
    e = ember.empty((5, 0, 2), dtype=dtype, device=device)
    assert e.shape == (5, 0, 2) and e.dtype == dtype and e.size == 0


def test_defaults_and_scalar_shapes(device):
    assert_array_equal_np(ember.zeros(3, device=device), np.zeros(3))
    assert_array_equal_np(ember.zeros((), device=device), np.zeros(()))
    assert_array_equal_np(ember.ones([], device=device), np.ones([]))
    assert_array_equal_np(ember.full(2, 1.5, device=device), np.full(2, 1.5))
    assert_array_equal_np(ember.full(2, 7, device=device), np.full(2, 7))
    assert_array_equal_np(ember.full(2, True, device=device), np.full(2, True))
    assert_array_equal_np(ember.full(2, 1 + 2j, device=device), np.full(2, 1 + 2j))
    assert_array_equal_np(ember.full(2, np.float32(2.5), device=device),
                          np.full(2, np.float32(2.5)))
    assert_array_equal_np(ember.full((2, 3), [1, 2, 3], device=device),
                          np.full((2, 3), [1, 2, 3]))
    assert_array_equal_np(ember.full(3, -0.0, dtype=ember.float32, device=device),
                          np.full(3, -0.0, np.float32))
    assert_array_equal_np(ember.full(3, np.nan, device=device), np.full(3, np.nan))


def test_order_f(device):
    z = ember.zeros((3, 4), order="F", device=device)
    assert z.flags.f_contiguous and not z.flags.c_contiguous
    assert z.strides == np.zeros((3, 4), order="F").strides


def test_full_overflow_and_bad_input(device):
    with pytest.raises(OverflowError, match="300 out of bounds for int8"):
        ember.full(3, 300, dtype=ember.int8, device=device)
    with pytest.raises(OverflowError):
        ember.full(3, -1, dtype="uint8", device=device)
    with pytest.raises(ValueError, match="negative dimensions"):
        ember.zeros((2, -1), device=device)
    with pytest.raises(TypeError):
        ember.zeros(2.5, device=device)
    with pytest.raises(TypeError, match="not understood"):
        ember.zeros(2, dtype="bogus", device=device)
    with pytest.raises(TypeError):
        ember.zeros(2, dtype=object, device=device)
    with pytest.raises(ValueError):
        ember.zeros((1,) * 40, device=device)
    with pytest.raises(TypeError, match="unexpected keyword"):
        ember.zeros(2, bogus=1)


@pytest.mark.parametrize("dtype", ["float32", "int16", "complex64", "bool"])
def test_like(device, dtype):
    src = ember.asarray(sample(dtype, (2, 3)), device=device)
    e = ember.empty_like(src)
    assert e.shape == (2, 3) and e.dtype == dtype and e.device == src.device
    assert_array_equal_np(ember.zeros_like(src), np.zeros((2, 3), dtype))
    assert_array_equal_np(ember.ones_like(src), np.ones((2, 3), dtype))
    assert_array_equal_np(ember.full_like(src, 1), np.full((2, 3), 1, dtype))
    assert_array_equal_np(ember.zeros_like(src, dtype=ember.float64), np.zeros((2, 3)))
    assert_array_equal_np(ember.ones_like(src, shape=(4,)), np.ones(4, dtype))
    # An F-ordered prototype gives an F-ordered result, as order='K' does.
    f = ember.zeros((3, 4), order="F", device=device)
    assert ember.empty_like(f).flags.f_contiguous
    # A NumPy prototype goes to the current (or given) device.
    z = ember.zeros_like(np.ones((2, 2), np.int8), device=device)
    assert_array_equal_np(z, np.zeros((2, 2), np.int8), device)


# ---- arange ----------------------------------------------------------------------

@pytest.mark.parametrize("args,kw", [
    ((5,), {}), ((2, 9), {}), ((2, 9, 3), {}), ((9, 2, -2), {}), ((0, 0), {}),
    ((5, 2), {}), ((0, 1, 0.1), {}), ((1.5,), {}), ((-3.2, 4.7, 0.9), {}),
    ((0, 10, 3), {"dtype": "float32"}), ((0, 1, 0.1), {"dtype": "float32"}),
    ((10,), {"dtype": "int8"}), ((250, 260), {"dtype": "uint8"}),
    ((0.5, 5), {"dtype": "int32"}), ((2,), {"dtype": "bool"}),
    ((10,), {"dtype": "float16"}), ((1, 2, 0.25), {"dtype": "complex64"}),
    ((np.int16(3),), {}), ((np.float32(0.5), 3), {}),
    ((0, 2**40, 2**37), {}), ((10, -10, -3.5), {}), ((0, 1, 3), {}),
    # past 2^16 values a GPU builds them with kernels (src/array/ranges.c)
    ((0, 300001), {}), ((0, 1, 1e-5), {"dtype": "float32"}),
    ((7, -7, -1e-4), {}), ((5, 100005), {"dtype": "uint8"}),
    # past 2^20 values cpu builds them with kernels too; arange(n) is the
    # ramp alone (no multiply by 1, no add of 0)
    ((2**20 + 5,), {}), ((3, 3 + 2**21, 2), {}), ((0.5, 2**20 + 0.5), {}),
    ((0, 1100, 0.001), {"dtype": "float32"}), ((2**20 + 1,), {"dtype": "float64"}),
])
def test_arange_matches_numpy(device, args, kw):
    np_kw = dict(kw)
    assert_array_equal_np(ember.arange(*args, device=device, **kw),
                          np.arange(*args, **np_kw), device)


ARANGE_KERNEL_CASES = """
import numpy as np, ember
cases = [((5,), {}), ((2, 9, 3), {}), ((9, 2, -2), {}), ((1.5,), {}),
         ((0, 1, 0.1), {"dtype": "float32"}), ((-3.2, 4.7, 0.9), {}),
         ((250, 260), {"dtype": "uint8"}), ((0.5, 5), {"dtype": "int32"}),
         ((0, 1000, 0.37), {"dtype": "float32"}), ((0, 2**40, 2**33), {}),
         ((2**63 - 5, 2**63 + 5), {"dtype": "uint64"}),
         ((-2**62, 2**62, 2**55 + 3), {}), ((0, 77777), {"dtype": "int16"}),
         ((3, 4, 1e-5), {}), ((10, -10, -1e-3), {"dtype": "float32"}),
         ((0, 65), {"dtype": "float16"})]
for args, kw in cases:
    got = ember.asnumpy(ember.arange(*args, **kw))
    want = np.arange(*args, **kw)
    assert got.dtype == want.dtype and np.array_equal(got, want), (args, kw)
for args, kw in [((0, 1, 7), {}), ((-2.5, 9.75, 1001), {"endpoint": False}),
                 ((3, -8, 77), {"dtype": "int32"}), ((0, 1, 5000),
                 {"dtype": "float32"}), ((1e-320, 2e-320, 9), {}),
                 ((0, 10, 12), {"retstep": True})]:
    got, want = ember.linspace(*args, **kw), np.linspace(*args, **kw)
    if kw.get("retstep"):
        assert got[1] == want[1], (args, got[1], want[1])
        got, want = got[0], want[0]
    got = ember.asnumpy(got)
    assert got.dtype == want.dtype and np.array_equal(got, want), (args, kw)
print("ok")
"""


def test_range_kernels_match_numpy():
    """The GPU's way of building a long arange or linspace (an index ramp
    doubled by adds, a cast, then NumPy's multiply and add, each a kernel),
    forced on cpu from two values: every value equals NumPy's bit for bit,
    the last partial doubling, integer wrapping, arange's element 1 (start
    + step itself) and linspace's underflowing step included."""
    env = dict(os.environ, EMBER_TEST_ARANGE_KERNELS="1", EMBER_DEVICE="cpu")
    r = subprocess.run([sys.executable, "-c", ARANGE_KERNEL_CASES], env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-3000:]


def test_arange_zero_d_array_bounds(device):
    # the lectures' np.arange(labels.max() + 1): a 0-d array is its number
    with ember.Device(device):
        labels = ember.asarray([[0, 2], [3, 1]])
        half = ember.asarray(0.5)
    assert_array_equal_np(ember.arange(labels.max() + 1, device=device), np.arange(4))
    assert_array_equal_np(ember.arange(half, labels.max(), half, device=device),
                          np.arange(np.float64(0.5), np.int64(3), np.float64(0.5)))
    with pytest.raises(TypeError):
        ember.arange(labels, device=device)


def test_arange_errors(device):
    with pytest.raises(ZeroDivisionError):
        ember.arange(0, 5, 0, device=device)
    with pytest.raises(TypeError, match="booleans"):
        ember.arange(3, dtype=bool, device=device)
    with pytest.raises(TypeError):
        ember.arange("5", device=device)
    with pytest.raises(TypeError):
        ember.arange()


# ---- asarray from Python data ------------------------------------------------------

@pytest.mark.parametrize("obj", [
    3, 2.5, True, 1 + 2j, -0.0, [], [[]], [[], []], [1, 2, 3], [1.0, 2, 3],
    [True, False], [True, 2], [1, 2.5, 3j], [[1, 2], [3, 4]], ((1, 2), [3, 4]),
    [[[1], [2]], [[3], [4]]], [2**63], [2**64 - 1, 1], [-1, 2**63], [float("nan"), -0.0],
    [np.float32(1), np.float32(2)], [np.float32(1), 2], [np.int8(1), np.uint8(2)],
    [np.int8(1), 1.5], [np.float16(1.5)], np.float32(3.5), np.int8(-3), np.bool_(True),
])
def test_from_python_matches_numpy(device, obj):
    assert_array_equal_np(ember.asarray(obj, device=device), np.asarray(obj), device)
    assert_array_equal_np(ember.array(obj, device=device), np.array(obj), device)


@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_from_list_with_dtype(device, dtype):
    obj = [[0, 1, 2], [3, 4, 5]] if dtype != "bool" else [[0, 1], [1, 0]]
    assert_array_equal_np(ember.asarray(obj, dtype=dtype, device=device),
                          np.asarray(obj, dtype=dtype))
    fl = [0.5, 1.75, -2.25] if np.dtype(dtype).kind not in "ub" else [0.5, 1.75, 2.25]
    assert_array_equal_np(ember.asarray(fl, dtype=dtype, device=device),
                          np.asarray(fl, dtype=dtype))


def test_from_python_other_sequences(device):
    assert_array_equal_np(ember.asarray(range(5), device=device), np.arange(5))
    assert_array_equal_np(ember.asarray([range(2), (5, 6)], device=device),
                          np.asarray([range(2), (5, 6)]))
    x = ember.asarray([1.5, 2.5], dtype=ember.float32, device=device)
    assert_array_equal_np(ember.asarray([x, x], device=device),
                          np.asarray([[1.5, 2.5]] * 2, np.float32))
    assert_array_equal_np(ember.asarray([np.arange(3), [4, 5, 6]], device=device),
                          np.asarray([np.arange(3), [4, 5, 6]]))
    assert_array_equal_np(ember.asarray([x[0], 2], device=device),
                          np.asarray([np.float32(1.5), 2]))


def test_from_python_errors(device):
    with pytest.raises(ValueError, match="inhomogeneous"):
        ember.asarray([1, [2, 3]], device=device)
    with pytest.raises(ValueError, match="inhomogeneous"):
        ember.asarray([[1, 2], [3]], device=device)
    with pytest.raises(ValueError, match="inhomogeneous"):
        ember.asarray([[1, 2], 3], device=device)
    with pytest.raises(TypeError):
        ember.asarray(["a", "b"], device=device)
    with pytest.raises(TypeError):
        ember.asarray("abc", device=device)
    with pytest.raises(TypeError):
        ember.asarray([None], device=device)
    with pytest.raises(TypeError):
        ember.asarray(object(), device=device)
    with pytest.raises(TypeError):
        ember.asarray({1: 2}, device=device)
    with pytest.raises(OverflowError):
        ember.asarray([2**64], device=device)
    with pytest.raises(OverflowError, match="300 out of bounds for int8"):
        ember.asarray([1, 300], dtype=ember.int8, device=device)
    with pytest.raises(OverflowError):
        ember.asarray([-1], dtype="uint16", device=device)
    with pytest.raises(ValueError, match="copy"):
        ember.asarray([1, 2], copy=False, device=device)
    with pytest.raises(ValueError):
        deep = 1
        for _ in range(33):
            deep = [deep]
        ember.asarray(deep, device=device)


# ---- asarray from host arrays ------------------------------------------------------

@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_from_numpy_every_dtype(device, dtype):
    h = sample(dtype, (3, 4))
    assert_array_equal_np(ember.asarray(h, device=device), h, device)
    assert_array_equal_np(ember.asarray(h[::2, ::-1], device=device), h[::2, ::-1])
    assert_array_equal_np(ember.asarray(h.T, device=device), h.T)
    assert_array_equal_np(ember.asarray(h[1, 2], device=device), h[1, 2])
    assert_array_equal_np(ember.asarray(h[:0], device=device), h[:0])


def test_from_numpy_with_dtype_and_order(device):
    h = sample("float64", (3, 4))
    assert_array_equal_np(ember.asarray(h, dtype=ember.float32, device=device),
                          h.astype(np.float32))
    assert_array_equal_np(ember.asarray(h, dtype=ember.int32, device=device)[2:],
                          h[2:].astype(np.int32))
    f = ember.asarray(h, order="F", device=device)
    assert f.flags.f_contiguous
    assert_array_equal_np(f, h)
    c = ember.ascontiguousarray(h.T, device=device)
    assert c.flags.c_contiguous
    assert_array_equal_np(c, np.ascontiguousarray(h.T))
    assert_array_equal_np(ember.ascontiguousarray(np.float64(3), device=device),
                          np.ascontiguousarray(np.float64(3)))
    assert_array_equal_np(ember.array(np.arange(3), ndmin=3, device=device),
                          np.array(np.arange(3), ndmin=3))


def test_numpy_on_cpu_is_zero_copy():
    h = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = ember.asarray(h, device="cpu")
    assert x.base is h
    h[0, 0] = 42
    assert x[0, 0].item() == 42
    assert ember.asarray(h, device="cpu", copy=False).base is h
    c = ember.asarray(h, device="cpu", copy=True)
    h[0, 1] = -1
    assert c[0, 1].item() == 1 and c.base is None
    # Read-only NumPy arrays stay read-only.
    h.flags.writeable = False
    r = ember.asarray(h, device="cpu")
    assert not r.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        r[0] = 1


def test_copy_false_to_gpu_fails(need_cuda):
    with pytest.raises(ValueError, match="copy"):
        ember.asarray(np.arange(3), device="cuda:0", copy=False)


def test_from_buffer_protocol_objects(device):
    assert_array_equal_np(ember.asarray(bytearray(b"\x01\x02\xff"), device=device),
                          np.asarray(bytearray(b"\x01\x02\xff")))
    a = pyarray.array("d", [1.5, 2.5])
    assert_array_equal_np(ember.asarray(a, device=device), np.asarray(a))
    a = pyarray.array("h", [-1, 5])
    assert_array_equal_np(ember.asarray(a, device=device), np.asarray(a))
    mv = memoryview(np.arange(12, dtype=np.int32).reshape(3, 4))[::2]
    assert_array_equal_np(ember.asarray(mv, device=device), np.asarray(mv))
    with pytest.raises(TypeError):
        ember.asarray(b"bytes", device=device)
    with pytest.raises(TypeError, match="not supported|no ember dtype"):
        ember.asarray(np.array(["a"]), device=device)
    with pytest.raises(TypeError, match="no ember dtype"):
        ember.asarray(np.zeros(2, np.longdouble), device=device)
    with pytest.raises(TypeError):
        ember.asarray(np.zeros(2, ">f4"), device=device)


class ArrayInterface:
    """A host array known only by __array_interface__."""

    def __init__(self, h):
        self.h = h
        self.__array_interface__ = h.__array_interface__


class ArrayMethod:
    def __init__(self, h):
        self.h = h

    def __array__(self, dtype=None, copy=None):
        return self.h


def test_from_array_interface_and_array_method(device):
    h = sample("int32", (4, 5))[::2, 1:]
    w = ArrayInterface(h)
    x = ember.asarray(w, device=device)
    assert_array_equal_np(x, h, device)
    if device == "cpu":
        assert x.base is w
        h[0, 0] = 7
        assert x[0, 0].item() == 7
    assert_array_equal_np(ember.asarray(ArrayMethod(h), device=device), h)


# ---- asarray from ember arrays ------------------------------------------------------

def test_from_ember_arrays(device):
    x = ember.arange(6, device=device)
    assert ember.asarray(x) is x
    assert ember.asarray(x, device=device) is x
    assert ember.asarray(x, dtype=ember.int64) is x
    y = ember.asarray(x, dtype=ember.float32)
    assert_array_equal_np(y, np.arange(6, dtype=np.float32))
    c = ember.array(x)
    assert c is not x and c.base is None
    assert_array_equal_np(c, np.arange(6))
    assert ember.array(x, copy=False) is x
    assert ember.asarray(x, copy=True) is not x
    with pytest.raises(ValueError, match="copy"):
        ember.asarray(x, dtype=ember.float32, copy=False)
    t = x.reshape(2, 3).T
    ct = ember.ascontiguousarray(t)
    assert ct.flags.c_contiguous
    assert_array_equal_np(ct, np.arange(6).reshape(2, 3).T)
    cp = ember.copy(x)
    cp[0] = 100
    assert x[0].item() == 0


def test_between_devices(need_cuda):
    x = ember.arange(5, device="cpu")
    g = ember.asarray(x, device="cuda:0")
    assert g.device == ember.Device("cuda:0")
    assert_array_equal_np(g, np.arange(5))
    back = ember.asarray(g, device="cpu")
    assert back.device == ember.Device("cpu")
    assert_array_equal_np(back, np.arange(5))
    # Without device=, an ember array stays where it is.
    assert ember.asarray(g) is g


def test_from_cuda_array_interface(need_cuda):
    g = ember.arange(12, dtype=ember.float32, device="cuda:0").reshape(3, 4)[:, 1:]

    class Foreign:
        def __init__(self, a):
            self.a = a
            self.__cuda_array_interface__ = a.__cuda_array_interface__

    f = Foreign(g)
    x = ember.asarray(f)
    assert x.base is f and x.device == ember.Device("cuda:0")
    assert_array_equal_np(x, np.arange(12, dtype=np.float32).reshape(3, 4)[:, 1:])
    c = ember.asarray(f, device="cpu")
    assert c.device == ember.Device("cpu")
    assert_array_equal_np(c, np.arange(12, dtype=np.float32).reshape(3, 4)[:, 1:])


def test_cupy_interop(need_cuda):
    cupy = pytest.importorskip("cupy")
    c = cupy.arange(12, dtype=cupy.float32).reshape(3, 4)[:, ::2]
    x = ember.asarray(c)
    assert x.base is c and x.device == ember.Device("cuda:0")
    assert_array_equal_np(x, cupy.asnumpy(c))
    x[0, 0] = -1                      # zero-copy: CuPy sees the write
    assert float(c[0, 0]) == -1
    back = cupy.asarray(ember.arange(5, dtype=ember.int16, device="cuda:0") * 3)
    assert back.dtype == cupy.int16 and back.tolist() == [0, 3, 6, 9, 12]
    assert_array_equal_np(ember.asarray(c, device="cpu"), cupy.asnumpy(c))


def test_torch_interop(need_cuda):
    torch = pytest.importorskip("torch")
    t = torch.arange(6, dtype=torch.float64, device="cuda").reshape(2, 3).t()
    x = ember.asarray(t)
    assert_array_equal_np(x, t.cpu().numpy())
    back = torch.as_tensor(ember.arange(4, dtype=ember.float32, device="cuda:0") + 1,
                           device="cuda")
    assert back.tolist() == [1.0, 2.0, 3.0, 4.0]
