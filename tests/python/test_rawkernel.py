import numpy as np
import pytest

import ember

from helpers import assert_array_equal, to_device, to_numpy

ADD = r'''
extern "C" __global__ void add(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
'''

GRID2D = r'''
extern "C" __global__ void coords(int *out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h)
        out[y * w + x] = x + 1000 * y;
}
'''

ATOMIC = r'''
extern "C" __global__ void total(const int *x, int *sum, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(sum, x[i]);
}
'''

SCALARS = r'''
extern "C" __global__ void scalars(double *out, float f, double d, int i, long long l,
                                   short s, unsigned char b) {
    out[0] = f; out[1] = d; out[2] = i; out[3] = (double)l; out[4] = s; out[5] = b;
}
'''

MODULE = r'''
extern "C" __global__ void fill(int *p, int v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v;
}
extern "C" __global__ void scale(float *p, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] *= s;
}
'''


@pytest.fixture
def add(device):
    with ember.Device(device):
        yield ember.RawKernel(ADD, "add")


def test_vector_add(device):
    rng = np.random.default_rng(1)
    n = 1000
    a = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    with ember.Device(device):
        k = ember.RawKernel(ADD, "add")
        da, db, dc = to_device(a, device), to_device(b, device), ember.alloc(a.nbytes)
        k(((n + 127) // 128,), (128,), (da, db, dc, n))
        assert_array_equal(to_numpy(dc, np.float32), a + b)
        # grid and block as ints, args as a list, keywords
        dc.memset(0)
        k((n + 127) // 128, 128, [da, db, dc, n], shared_mem=0, stream=None)
        assert_array_equal(to_numpy(dc, np.float32), a + b)


def test_launch_follows_stream_device(device):
    """stream= picks the device; the per-device compile is cached."""
    n = 64
    a = np.arange(n, dtype=np.float32)
    k = ember.RawKernel(ADD, "add")
    s = ember.Stream(device=device)
    with ember.Device("cpu"):
        da, db, dc = (to_device(a, device) for _ in range(3))
        k(1, n, (da, db, dc, n), stream=s)
        s.synchronize()
        assert_array_equal(to_numpy(dc, np.float32), a + a)
    assert k.kernel.device == ember.get_current_device()


def test_2d_grid(device):
    w, h = 37, 21
    with ember.Device(device):
        k = ember.RawKernel(GRID2D, "coords")
        out = ember.alloc(w * h * 4)
        k(((w + 7) // 8, (h + 3) // 4), (8, 4), (out, w, h))
        ys, xs = np.mgrid[0:h, 0:w]
        assert_array_equal(to_numpy(out, np.int32, (h, w)), (xs + 1000 * ys).astype(np.int32))


def test_atomic_add(device):
    x = np.arange(1, 5001, dtype=np.int32)
    with ember.Device(device):
        k = ember.RawKernel(ATOMIC, "total")
        dsum = to_device(np.zeros(1, np.int32), device)
        k((x.size + 255) // 256, 256, (to_device(x, device), dsum, x.size))
        assert to_numpy(dsum, np.int32)[0] == x.sum()


def test_in_out_inout(device):
    n = 300
    a = np.arange(n, dtype=np.float32)
    b = np.full(n, 0.5, dtype=np.float32)
    c = np.zeros(n, dtype=np.float32)
    with ember.Device(device):
        ember.RawKernel(ADD, "add")(3, 128, (ember.In(a), ember.In(b), ember.Out(c), n))
        assert_array_equal(c, a + b)
        m = ember.RawModule(code=MODULE)
        p = a.copy()
        m.get_function("scale")(3, 128, (ember.InOut(p), np.float32(3.0), n))
        assert_array_equal(p, a * np.float32(3))
        assert repr(ember.In(a)).startswith("ember.In(")
        with pytest.raises(TypeError):
            ember.In(5)
        with pytest.raises(TypeError):     # Out needs a writable array
            ember.RawKernel(ADD, "add")(1, 1, (ember.In(a), ember.In(b),
                                               ember.Out(b"x" * 4), 1))


def test_scalar_arguments(device):
    with ember.Device(device):
        k = ember.RawKernel(SCALARS, "scalars")
        out = ember.alloc(6 * 8)
        assert k.kernel.param_sizes == (8, 4, 8, 4, 8, 2, 1)
        k(1, 1, (out, 1.5, 2.25, -3, 2**40, -7, 100))
        assert to_numpy(out, np.float64).tolist() == [1.5, 2.25, -3, 2**40, -7, 100]
        k(1, 1, (out, np.float32(0.5), np.float64(-1.0), np.int32(7), np.int64(-2**40),
                 np.int16(300), np.uint8(255)))
        assert to_numpy(out, np.float64).tolist() == [0.5, -1.0, 7, -2**40, 300, 255]
        k(1, 1, (out, 0.25, 0.125, True, False, True, True))
        assert to_numpy(out, np.float64).tolist() == [0.25, 0.125, 1, 0, 1, 1]
        k(1, 1, (out, 0.0, 0.0, 0, 0, 0, 128))       # unsigned char, from the source
        assert to_numpy(out, np.float64).tolist()[5] == 128
        with pytest.raises(OverflowError, match=r"args\[6\].*unsigned char b"):
            k(1, 1, (out, 0.0, 0.0, 0, 0, 0, 256))
        with pytest.raises(OverflowError, match=r"args\[6\]"):
            k(1, 1, (out, 0.0, 0.0, 0, 0, 0, -1))
        with pytest.raises(OverflowError, match=r"args\[5\]"):
            k(1, 1, (out, 0.0, 0.0, 0, 0, -40000, 0))
        with pytest.raises(TypeError, match=r"args\[5\].*numpy.int32.*4 bytes.*2 bytes"):
            k(1, 1, (out, 0.0, 0.0, 0, 0, np.int32(1), 0))


def test_wrong_argument_count(add):
    buf = ember.alloc(16)
    with pytest.raises(TypeError, match=r"kernel 'add' takes 4 arguments \(3 given\)"):
        add(1, 1, (buf, buf, buf))
    with pytest.raises(TypeError, match=r"\(5 given\)"):
        add(1, 1, (buf, buf, buf, 1, 2))


def test_wrong_argument_types(add):
    buf = ember.alloc(16)
    with pytest.raises(TypeError, match=r"args\[3\] \(int n\) is an integer; got numpy.float64"):
        add(1, 1, (buf, buf, buf, np.float64(1)))
    with pytest.raises(TypeError, match=r"args\[2\].*ember.In"):
        add(1, 1, (buf, buf, np.zeros(4, np.float32), 4))
    with pytest.raises(TypeError, match=r"args\[0\]"):
        add(1, 1, ("a string", buf, buf, 4))
    with pytest.raises(TypeError, match=r"args\[3\]"):
        add(1, 1, (buf, buf, buf, 1.5 + 2j))
    with pytest.raises(OverflowError, match=r"args\[3\]"):
        add(1, 1, (buf, buf, buf, 2**31))
    with pytest.raises(TypeError):
        add(1, 1, buf)                          # args must be a sequence
    with pytest.raises(TypeError):
        add(1, 1, (buf, buf, buf, 4), stream="s")
    with pytest.raises(TypeError):
        add(1, 1, (buf, buf, buf, 4), bogus=1)
    with pytest.raises(TypeError):
        add(1, 1)


def test_device_pointer_on_cpu_rejected():
    class FakeCuda:
        __cuda_array_interface__ = {"data": (0x7f0000000000, False), "shape": (4,),
                                    "typestr": "<f4", "version": 3}

    with ember.Device("cpu"):
        k = ember.RawKernel(ADD, "add")
        buf = ember.alloc(16)
        with pytest.raises(TypeError, match="__cuda_array_interface__"):
            k(1, 4, (FakeCuda(), buf, buf, 4))


def test_cuda_array_interface_argument(need_cuda):
    class Wrapped:
        def __init__(self, buf):
            self.buf = buf
            self.__cuda_array_interface__ = buf.__cuda_array_interface__

    a = np.arange(16, dtype=np.float32)
    with ember.Device("cuda:0"):
        da, dc = to_device(a, "cuda:0"), ember.alloc(a.nbytes)
        ember.RawKernel(ADD, "add")(1, 16, (Wrapped(da), da, Wrapped(dc), 16))
        assert_array_equal(to_numpy(dc, np.float32), a + a)


def test_buffer_of_other_device_rejected(need_cuda):
    with ember.Device("cpu"):
        k = ember.RawKernel(ADD, "add")
        gpu = ember.alloc(16, device="cuda:0")
        with pytest.raises(TypeError, match="cuda:0"):
            k(1, 4, (gpu, gpu, gpu, 4))


@pytest.mark.parametrize("grid, block, exc", [
    (0, 1, ValueError),
    ((1, 0), 1, ValueError),
    (1, 100000, ValueError),
    (-1, 1, ValueError),
    ((1, 1, 1, 1), 1, ValueError),
    ((), 1, ValueError),
    (2**40, 1, ValueError),
    ("1", 1, TypeError),
    (1.0, 1, TypeError),
])
def test_bad_grid_block(add, grid, block, exc):
    buf = ember.alloc(16)
    with pytest.raises(exc):
        add(grid, block, (buf, buf, buf, 0))


def test_bad_shared_mem(add):
    buf = ember.alloc(16)
    with pytest.raises(ValueError):
        add(1, 1, (buf, buf, buf, 0), shared_mem=-1)
    with pytest.raises(ValueError):
        add(1, 1, (buf, buf, buf, 0), shared_mem=1 << 30)


def test_missing_kernel(device):
    with ember.Device(device):
        k = ember.RawKernel(ADD, "nope")
        with pytest.raises(AttributeError, match="nope"):
            k(1, 1, ())
        with pytest.raises(AttributeError, match="nope"):
            ember.RawModule(code=ADD).get_function("nope")


def test_compile_error(device):
    src = ADD.replace("a[i] + b[i]", "a[i] + missing_name[i]")
    with ember.Device(device):
        with pytest.raises(ember.CompileError) as e:
            ember.RawKernel(src, "add").compile()
    assert "missing_name" in e.value.log
    assert e.value.lineno == 5
    assert "missing_name" in e.value.source_line


def test_raw_module(device):
    with ember.Device(device) as d:
        m = ember.RawModule(code=MODULE, options=("-DUNUSED=1",))
        assert m.device == d
        fill = m.get_function("fill")
        assert isinstance(fill, ember.Function) and fill.name == "fill"
        assert fill.num_params == 3 and fill.device == d
        buf = ember.alloc(40)
        fill(1, 10, (buf, 42, 10))
        assert to_numpy(buf, np.int32).tolist() == [42] * 10
    with pytest.raises(TypeError):
        ember.RawModule()
    with pytest.raises(TypeError):
        ember.RawModule(code=MODULE, cubin=b"x")


def test_launch_on_stream(device):
    n = 4096
    with ember.Device(device):
        m = ember.RawModule(code=MODULE)
        fill = m.get_function("fill")
        s = ember.Stream(non_blocking=True)
        buf = ember.alloc(n * 4, stream=s)
        fill(n // 256, 256, (buf, 5, n), stream=s)
        s.synchronize()
        assert to_numpy(buf, np.int32).tolist() == [5] * n
        with s:
            fill(n // 256, 256, (buf, 6, n))       # the current stream
            end = s.record()
        end.synchronize()
        assert to_numpy(buf, np.int32).tolist() == [6] * n


def test_function_outlives_module(device):
    with ember.Device(device):
        f = ember.RawModule(code=MODULE).get_function("fill")
        buf = ember.alloc(4)
        f(1, 1, (buf, 9, 1))
        assert to_numpy(buf, np.int32).tolist() == [9]


def test_cuda_array_interface_with_refusing_buffer(need_cuda):
    """CuPy arrays have a buffer slot that raises; the CAI must win."""
    class CupyLike:
        def __init__(self, buf):
            self.buf = buf
            self.__cuda_array_interface__ = buf.__cuda_array_interface__

        def __buffer__(self, flags):
            raise TypeError("device memory")

    a = np.arange(8, dtype=np.float32)
    with ember.Device("cuda:0"):
        da, dc = to_device(a, "cuda:0"), ember.alloc(a.nbytes)
        ember.RawKernel(ADD, "add")(1, 8, (CupyLike(da), da, CupyLike(dc), 8))
        assert_array_equal(to_numpy(dc, np.float32), a + a)


def test_cupy_arrays_as_arguments(need_cuda):
    cupy = pytest.importorskip("cupy")
    a = cupy.arange(64, dtype=cupy.float32)
    c = cupy.zeros(64, dtype=cupy.float32)
    with ember.Device("cuda:0"):
        ember.RawKernel(ADD, "add")(1, 64, (a, a, c, 64))
        ember.get_current_device().synchronize()
    assert_array_equal(cupy.asnumpy(c), np.arange(64, dtype=np.float32) * 2)
    # and the other way: an ember Buffer viewed by CuPy without a copy
    buf = to_device(np.arange(4, dtype=np.uint8), "cuda:0")
    assert cupy.asarray(buf).tolist() == [0, 1, 2, 3]
