"""PyCUDA's spellings (ember.pycuda): autoinit, driver memory and copies,
SourceModule kernels called PyCUDA's way, prepared calls, streams, events
and gpuarray, on every device; results checked against NumPy."""
import numpy as np
import pytest

import ember

MULTIPLY = r"""
__global__ void multiply_them(float *dest, float *a, float *b)
{
  const int i = threadIdx.x;
  dest[i] = a[i] * b[i];
}
"""

AXPY = r"""
__global__ void axpy(double a, double *x, double *y, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
"""


@pytest.fixture
def drv(device):
    with ember.Device(device):
        from ember.pycuda import autoinit  # noqa: F401  (changes nothing)
        from ember.pycuda import driver as drv
        assert ember.get_current_device() == ember.Device(device)
        yield drv


def test_autoinit_names_current_device(device):
    with ember.Device(device):
        from ember.pycuda import autoinit as ai
        before = ember.get_current_device()
        import importlib
        importlib.reload(ai)
        assert ember.get_current_device() == before
        assert isinstance(ai.device, ember.pycuda.driver.Device)


def test_pycuda_tutorial_multiply(drv):
    from ember.pycuda.compiler import SourceModule
    mod = SourceModule(MULTIPLY)
    multiply_them = mod.get_function("multiply_them")
    rng = np.random.default_rng(1)
    a = rng.standard_normal(400).astype(np.float32)
    b = rng.standard_normal(400).astype(np.float32)
    dest = np.zeros_like(a)
    multiply_them(drv.Out(dest), drv.In(a), drv.In(b), block=(400, 1, 1),
                  grid=(1, 1))
    np.testing.assert_array_equal(dest, a * b)


def test_mem_alloc_and_copies(drv):
    a = np.arange(16, dtype=np.float32).reshape(4, 4)
    a_gpu = drv.mem_alloc(a.nbytes)
    assert isinstance(int(a_gpu), int) and int(a_gpu) != 0
    drv.memcpy_htod(a_gpu, a)
    back = np.empty_like(a)
    drv.memcpy_dtoh(back, a_gpu)
    np.testing.assert_array_equal(back, a)
    # dtod, and addresses with an offset into the block
    b_gpu = drv.mem_alloc(a.nbytes)
    drv.memcpy_dtod(b_gpu, a_gpu, a.nbytes)
    drv.memcpy_htod(int(b_gpu) + 8, np.array([100, 101], np.float32))
    out = drv.from_device(b_gpu, (16,), np.float32)
    exp = a.ravel().copy()
    exp[2:4] = [100, 101]
    np.testing.assert_array_equal(out, exp)
    np.testing.assert_array_equal(drv.from_device_like(a_gpu, a), a)
    drv.memset_d32(b_gpu, 7, 4)
    drv.memset_d8(int(b_gpu) + 16, 0, 16)
    got = drv.from_device(b_gpu, (16,), np.uint32)
    assert (got[:4] == 7).all() and (got[4:8] == 0).all()
    assert got[8] == np.float32(8).view(np.uint32)
    c = drv.to_device(np.arange(5, dtype=np.int64))
    np.testing.assert_array_equal(drv.from_device(c, (5,), np.int64), np.arange(5))
    with pytest.raises(ValueError):
        drv.memcpy_htod(c, np.zeros(6, np.int64))      # larger than the block
    with pytest.raises(ValueError):
        drv.memcpy_dtoh(np.zeros((4, 4))[:, ::2], c)   # not contiguous
    free, total = drv.mem_get_info()
    assert 0 < free <= total


def test_kernel_with_allocations_and_scalars(drv):
    from ember.pycuda.compiler import SourceModule
    f = SourceModule(AXPY).get_function("axpy")
    n = 1000
    x = np.linspace(0, 1, n)
    y = np.linspace(1, 2, n)
    x_gpu, y_gpu = drv.to_device(x), drv.to_device(y)
    f(np.float64(2.5), x_gpu, y_gpu, np.int32(n), block=(128, 1, 1),
      grid=((n + 127) // 128, 1))
    np.testing.assert_allclose(drv.from_device_like(y_gpu, y), 2.5 * x + y,
                               rtol=1e-15)
    # the same through prepare/prepared_call with a raw address
    f.prepare("dPPi")
    f.prepared_call(((n + 127) // 128, 1), (128, 1, 1), 1.0, int(x_gpu),
                    y_gpu, n)
    np.testing.assert_allclose(drv.from_device_like(y_gpu, y), 3.5 * x + y,
                               rtol=1e-15)
    f.prepare([np.float64, np.intp, np.intp, np.int32])
    s = drv.Stream()
    f.prepared_async_call(((n + 127) // 128, 1), (128, 1, 1), s, -3.5, x_gpu,
                          y_gpu, n)
    s.synchronize()
    assert s.is_done()
    np.testing.assert_allclose(drv.from_device_like(y_gpu, y), y, rtol=1e-14)
    t = f.prepared_timed_call((8, 1), (128, 1, 1), 0.0, x_gpu, y_gpu, n)()
    assert t >= 0
    with pytest.raises(TypeError):
        f(np.float64(1), x_gpu, y_gpu, block=(1, 1, 1))      # missing n
    with pytest.raises(ValueError, match="block"):
        f(np.float64(1), x_gpu, y_gpu, np.int32(n))
    with pytest.raises(TypeError, match="no live"):
        f.prepared_call((1, 1), (1, 1, 1), 1.0, 12345, y_gpu, n)


def test_stream_event_timing(drv):
    from ember.pycuda.compiler import SourceModule
    f = SourceModule(MULTIPLY).get_function("multiply_them")
    a = np.arange(64, dtype=np.float32)
    a_gpu = drv.to_device(a)
    d_gpu = drv.mem_alloc(a.nbytes)
    s = drv.Stream()
    start, end = drv.Event(), drv.Event()
    start.record(s)
    f(d_gpu, a_gpu, a_gpu, block=(64, 1, 1), stream=s)
    end.record(s).synchronize()
    assert end.query() and end.time_since(start) >= 0
    assert start.time_till(end) == pytest.approx(end.time_since(start))
    h = drv.pagelocked_empty((64,), np.float32)
    drv.memcpy_dtoh_async(h, d_gpu, s)
    s.synchronize()
    np.testing.assert_array_equal(h, a * a)
    secs = f(d_gpu, a_gpu, a_gpu, block=(64, 1, 1), time_kernel=True)
    assert secs >= 0
    z = drv.pagelocked_zeros((3, 2), np.int16)
    assert z.shape == (3, 2) and (z == 0).all()
    assert drv.pagelocked_zeros_like(z).dtype == np.int16


def test_device_and_context(drv):
    dev = drv.Device(0)
    assert drv.Device.count() >= 1
    assert isinstance(dev.name(), str) and dev.total_memory() > 0
    assert len(dev.pci_bus_id()) == 12 and dev.pci_bus_id()[4] == ":"
    cc = dev.compute_capability()
    assert isinstance(cc, tuple) and len(cc) == 2
    attrs = dev.get_attributes()
    assert attrs[drv.device_attribute.MAX_THREADS_PER_BLOCK] == \
        dev.get_attribute(drv.device_attribute.MAX_THREADS_PER_BLOCK) > 0
    assert dev.get_attribute(drv.device_attribute.WARP_SIZE) in (1, 32)
    before = ember.get_current_device()
    ctx = drv.Device("cpu").make_context()
    assert ember.get_current_device() == ember.Device("cpu")
    ctx.synchronize()
    drv.Context.pop()
    assert ember.get_current_device() == before
    drv.Context.synchronize()
    assert drv.Context.get_device() == drv.Device(before)


def test_gpuarray(drv):
    from ember.pycuda import gpuarray, cumath
    from ember.pycuda.compiler import SourceModule
    a = np.random.default_rng(3).standard_normal((4, 5)).astype(np.float32)
    a_gpu = gpuarray.to_gpu(a)
    assert isinstance(a_gpu, gpuarray.GPUArray) and isinstance(a_gpu, ember.ndarray)
    assert a_gpu.device == ember.get_current_device()
    np.testing.assert_array_equal(a_gpu.get(), a)
    doubled = (2 * a_gpu).get()
    np.testing.assert_array_equal(doubled, 2 * a)
    np.testing.assert_allclose(cumath.sin(a_gpu).get(), np.sin(a), rtol=1e-6)
    np.testing.assert_allclose(float(gpuarray.sum(a_gpu).get()), a.sum(),
                               rtol=1e-5)
    np.testing.assert_allclose(float(gpuarray.dot(a_gpu, a_gpu).get()),
                               (a * a).sum(), rtol=1e-5)
    assert float(gpuarray.max(a_gpu).get()) == a.max()
    z = gpuarray.zeros((3, 2), np.int32)
    np.testing.assert_array_equal(z.get(), np.zeros((3, 2), np.int32))
    e = gpuarray.empty(10, np.float64)
    e.set(np.arange(10.0))
    np.testing.assert_array_equal(e.get(), np.arange(10.0))
    with pytest.raises(ValueError):
        e.set(np.arange(11.0))
    out = np.empty(10)
    assert e.get(out) is out
    o = gpuarray.ones_like(e)
    np.testing.assert_array_equal(o.get(), np.ones(10))
    r = gpuarray.arange(5, dtype=np.float32)
    assert isinstance(r, gpuarray.GPUArray)
    np.testing.assert_array_equal(r.get(), np.arange(5, dtype=np.float32))
    # a GPUArray and its gpudata are kernel arguments, as in PyCUDA
    f = SourceModule(MULTIPLY).get_function("multiply_them")
    x = gpuarray.to_gpu(np.arange(32, dtype=np.float32))
    d = gpuarray.empty_like(x)
    f(d, x, x.gpudata, block=(32, 1, 1))
    np.testing.assert_array_equal(d.get(), np.arange(32, dtype=np.float32) ** 2)
    assert int(x.gpudata) == x.ptr and x.mem_size == 32
    np.testing.assert_array_equal(drv.from_device(x.gpudata, (32,), np.float32),
                                  np.arange(32, dtype=np.float32))


def test_source_module_options(drv):
    from ember.pycuda.compiler import SourceModule
    src = r"""
    __global__ void fill(int *out) { out[threadIdx.x] = SCALE * threadIdx.x; }
    """
    f = SourceModule(src, options=["-DSCALE=3"]).get_function("fill")
    out = np.zeros(8, np.int32)
    f(drv.Out(out), block=(8, 1, 1))
    np.testing.assert_array_equal(out, 3 * np.arange(8))
    # no_extern_c: the source declares extern "C" itself
    g = SourceModule('extern "C" ' + src.strip(), options=["-DSCALE=2"],
                     no_extern_c=True).get_function("fill")
    g(drv.Out(out), block=(8, 1, 1))
    np.testing.assert_array_equal(out, 2 * np.arange(8))
    with pytest.raises(NotImplementedError, match="arch"):
        SourceModule(src, arch="sm_80")
    with pytest.raises(ember.CompileError):
        SourceModule("__global__ void broken( { }")
    with pytest.raises(AttributeError):
        SourceModule(src, options=["-DSCALE=1"]).get_function("nope")


def test_get_global_constant(drv):
    from ember.pycuda.compiler import SourceModule
    mod = SourceModule(r"""
    __constant__ float coef[4];
    __global__ void apply(float *out) { out[threadIdx.x] = coef[threadIdx.x] * 2; }
    """)
    ptr, size = mod.get_global("coef")
    assert size == 16
    drv.memcpy_htod(ptr, np.array([1, 2, 3, 4], np.float32))
    back = np.zeros(4, np.float32)
    drv.memcpy_dtoh(back, ptr)
    np.testing.assert_array_equal(back, [1, 2, 3, 4])
    out = np.zeros(4, np.float32)
    mod.get_function("apply")(drv.Out(out), block=(4, 1, 1))
    np.testing.assert_array_equal(out, [2, 4, 6, 8])


def test_elementwise_kernel(drv):
    from ember.pycuda import gpuarray
    from ember.pycuda.elementwise import ElementwiseKernel
    lin = ElementwiseKernel("float a, float *x, float b, float *y, float *z",
                            "z[i] = a*x[i] + b*y[i]", "linear_combination")
    hx = np.random.default_rng(2).standard_normal(1000).astype(np.float32)
    hy = np.random.default_rng(3).standard_normal(1000).astype(np.float32)
    x, y = gpuarray.to_gpu(hx), gpuarray.to_gpu(hy)
    z = gpuarray.empty_like(x)
    lin(np.float32(5), x, 6, y, z)
    # The GPU contracts a*x + b*y into an FMA: one rounding fewer than NumPy.
    np.testing.assert_allclose(z.get(), 5 * hx + 6 * hy, rtol=1e-6, atol=1e-6)
    # range= and slice=, and n inside the operation
    idx = ElementwiseKernel("int *out", "out[i] = n - i", "count_down")
    o = gpuarray.zeros(10, np.int32)
    idx(o, range=slice(1, 10, 4))
    np.testing.assert_array_equal(o.get(), [0, 9, 0, 0, 0, 5, 0, 0, 0, 1])
    idx(o, slice=slice(-2, None))
    np.testing.assert_array_equal(o.get(), [0, 9, 0, 0, 0, 5, 0, 0, 2, 1])
    with pytest.raises(TypeError, match="array"):
        idx(drv.mem_alloc(40))
    with pytest.raises(TypeError):
        lin(np.float32(5), x, 6, y)


def test_reduction_kernel(drv):
    from ember.pycuda import gpuarray
    from ember.pycuda.reduction import ReductionKernel
    dot = ReductionKernel(np.float32, neutral="0", reduce_expr="a+b",
                          map_expr="x[i]*y[i]",
                          arguments="float *x, float *y")
    hx = np.arange(100, dtype=np.float32)
    hy = np.linspace(0, 1, 100).astype(np.float32)
    r = dot(gpuarray.to_gpu(hx), gpuarray.to_gpu(hy))
    assert isinstance(r, gpuarray.GPUArray) and r.shape == ()
    np.testing.assert_allclose(r.get(), np.dot(hx, hy), rtol=1e-5)
    mx = ReductionKernel(np.int64, neutral="-1", reduce_expr="a > b ? a : b",
                         arguments="const int *in")
    hi = np.random.default_rng(4).integers(0, 1 << 30, 777).astype(np.int32)
    assert int(mx(gpuarray.to_gpu(hi)).get()) == hi.max()
    part = dot(gpuarray.to_gpu(hx), gpuarray.to_gpu(np.ones(100, np.float32)),
               range=slice(10, 20))
    assert float(part.get()) == hx[10:20].sum()


STRUCT_DOUBLE = r"""
struct Op { int n, pad; float *ptr; };
__global__ void double_op(Op *a)
{
    a += blockIdx.x;
    for (int i = threadIdx.x; i < a->n; i += blockDim.x)
        a->ptr[i] *= 2;
}
"""


def test_address_inside_a_block_as_pointer_argument(drv):
    """A pointer parameter given an address inside a mem_alloc block (a
    NumPy uintp or an int, as PyCUDA's struct example passes) points the
    kernel there; an empty view of that address was a null pointer on cpu
    (a crash)."""
    import struct
    from ember.pycuda.compiler import SourceModule
    f = SourceModule(STRUCT_DOUBLE).get_function("double_op")
    xs = [np.array([1, 2, 3], np.float32), np.array([5, 7], np.float32)]
    bufs = [drv.to_device(x) for x in xs]
    size = 8 + np.uintp(0).nbytes
    ops = drv.mem_alloc(2 * size)
    for k, (x, b) in enumerate(zip(xs, bufs)):
        drv.memcpy_htod(int(ops) + k * size,
                        struct.pack("ixP", x.size, np.uintp(b)))
    second = int(ops) + size
    f(ops, block=(32, 1, 1), grid=(2, 1))                    # both
    f(np.uintp(second), block=(32, 1, 1), grid=(1, 1))       # the second
    f.prepare("P")
    f.prepared_call((1, 1), (32, 1, 1), second)              # the second
    got = [drv.from_device(b, x.shape, x.dtype) for x, b in zip(xs, bufs)]
    np.testing.assert_array_equal(got[0], xs[0] * 2)
    np.testing.assert_array_equal(got[1], xs[1] * 8)
