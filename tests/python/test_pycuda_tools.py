"""PyCUDA's tools, curandom, driver exceptions and attributes, gpuarray.vec,
pycuda-complex.hpp and DynamicSourceModule (ember.pycuda), on every
device; results checked against NumPy or hand-computed values."""
import numpy as np
import pytest

import ember


@pytest.fixture
def drv(device):
    with ember.Device(device):
        from ember.pycuda import driver as drv
        yield drv


# ---- tools ---------------------------------------------------------------

def test_context_dependent_memoize(drv):
    from ember.pycuda.tools import (context_dependent_memoize,
                                    clear_context_caches)
    calls = []

    @context_dependent_memoize
    def build(n, scale=1):
        calls.append(n)
        return [n * scale]

    first = build(3)
    assert build(3) is first and calls == [3]
    assert build(4) == [4] and calls == [3, 4]
    assert build(3, scale=2) == [6] and calls == [3, 4, 3]
    # another device is another context: built again there
    with ember.Device("cpu"):
        other = build(3)
    same_device = ember.get_current_device() == ember.Device("cpu")
    assert (other is first) == same_device
    clear_context_caches()
    assert build(3) is not first
    with pytest.raises(TypeError, match="hashable"):
        build([1])


def test_device_memory_pool(drv):
    from ember.pycuda import gpuarray
    from ember.pycuda.tools import DeviceMemoryPool
    pool = DeviceMemoryPool()
    a = pool.allocate(400)
    assert isinstance(a, drv.DeviceAllocation) and a.size == 400
    assert pool.active_blocks == 1 and pool.active_bytes == 400
    drv.memcpy_htod(a, np.arange(100, dtype=np.float32))
    np.testing.assert_array_equal(drv.from_device(a, (100,), np.float32),
                                  np.arange(100, dtype=np.float32))
    a.free()
    assert pool.active_blocks == 0
    # allocator= of gpuarray takes the pool's allocate
    h = np.linspace(0, 1, 37)
    g = gpuarray.to_gpu(h, allocator=pool.allocate)
    np.testing.assert_array_equal(g.get(), h)
    np.testing.assert_array_equal((g * 2).get(), h * 2)
    assert pool.active_blocks == 1 and pool.active_bytes == h.nbytes
    del g
    import gc
    gc.collect()
    assert pool.active_blocks == 0
    assert pool.held_blocks >= 0 and pool.managed_bytes >= 0
    pool.free_held()
    pool.stop_holding()
    with pytest.raises(ValueError):
        pool.allocate(-1)
    with pytest.raises(NotImplementedError):
        DeviceMemoryPool(allocator=drv.mem_alloc)
    with pytest.raises(TypeError, match="DeviceAllocation"):
        gpuarray.to_gpu(h, allocator=lambda n: 1234)


def test_page_locked_memory_pool(drv):
    from ember.pycuda.tools import PageLockedMemoryPool
    pool = PageLockedMemoryPool()
    a = pool.allocate((3, 4), np.float64)
    assert a.shape == (3, 4) and a.dtype == np.float64 and a.flags.c_contiguous
    f = pool.allocate((3, 4), np.int16, order="F")
    assert f.flags.f_contiguous and f.dtype == np.int16
    assert pool.active_blocks == 2
    a[...] = np.arange(12).reshape(3, 4)
    d = drv.mem_alloc(a.nbytes)
    drv.memcpy_htod(d, a)
    back = pool.allocate(12, np.float64)
    drv.memcpy_dtoh(back, d)
    np.testing.assert_array_equal(back, np.arange(12.0))
    del a, f, back
    import gc
    gc.collect()
    assert pool.active_blocks == 0 and pool.held_blocks == 3
    again = pool.allocate((3, 4), np.float64)       # a held block reused
    assert pool.held_blocks == 2 and again.shape == (3, 4)
    pool.stop_holding()
    assert pool.held_blocks == 0
    with pytest.raises(ValueError):
        pool.allocate((2, -1), np.float32)
    with pytest.raises(ValueError):
        pool.allocate((2,), np.float32, order="K")


def test_make_default_context_and_device(drv):
    from ember.pycuda import tools
    before = ember.get_current_device()
    dev = tools.get_default_device()
    assert isinstance(dev, drv.Device)
    assert dev == drv.Device(ember.default_device())
    ctx = tools.make_default_context()
    assert ember.get_current_device() == ember.default_device()
    ctx.pop()
    assert ember.get_current_device() == before
    made = []
    tools.make_default_context(lambda d: made.append(d) or "ctx")
    assert made == [dev]


def test_dtype_to_ctype(drv):
    from ember.pycuda import gpuarray
    from ember.pycuda.tools import dtype_to_ctype
    expect = {np.float32: "float", np.float64: "double", np.int32: "int",
              np.uint8: "unsigned char", np.int8: "signed char",
              np.int16: "short", np.uint32: "unsigned int",
              np.int64: "long long", np.bool_: "bool",
              np.complex64: "pycuda::complex<float>",
              np.complex128: "pycuda::complex<double>",
              gpuarray.vec.float3: "float3", gpuarray.vec.int4: "int4",
              gpuarray.vec.double2: "double2"}
    for dt, name in expect.items():
        assert dtype_to_ctype(dt) == name, dt
    with pytest.raises(ValueError, match="unable to map"):
        dtype_to_ctype(np.dtype("U3"))
    with pytest.raises(ValueError):
        dtype_to_ctype(None)


# ---- curandom ----------------------------------------------------------------

def test_curandom_rand(drv):
    from ember.pycuda import curandom, gpuarray
    ember.random.seed(5)
    a = curandom.rand((1000,))
    assert isinstance(a, gpuarray.GPUArray) and a.dtype == np.float32
    h = a.get()
    assert h.shape == (1000,) and (h >= 0).all() and (h < 1).all()
    assert 0.4 < h.mean() < 0.6 and len(np.unique(h)) > 990
    ember.random.seed(5)
    np.testing.assert_array_equal(curandom.rand((1000,)).get(), h)
    d = curandom.rand((20, 30), dtype=np.float64).get()
    assert d.shape == (20, 30) and d.dtype == np.float64
    assert (d >= 0).all() and (d < 1).all() and 0.4 < d.mean() < 0.6
    u = curandom.rand(4000, dtype=np.uint32).get()
    assert u.dtype == np.uint32 and u.max() > 2 ** 31 and u.min() < 2 ** 31
    i = curandom.rand(4000, dtype=np.int32).get()
    assert i.dtype == np.int32 and i.min() < 0 < i.max()
    s = drv.Stream()
    assert curandom.rand(8, stream=s).shape == (8,)
    with pytest.raises(NotImplementedError):
        curandom.rand(10, dtype=np.int16)


def test_curandom_generators(drv):
    from ember.pycuda import curandom, gpuarray
    g = curandom.XORWOWRandomNumberGenerator(curandom.seed_getter_unique)
    u = g.gen_uniform((5000,), np.float32)
    assert isinstance(u, gpuarray.GPUArray) and u.dtype == np.float32
    h = u.get()
    assert (h > 0).all() and (h <= 1).all() and 0.45 < h.mean() < 0.55
    n = g.gen_normal(20000, np.float64).get()
    assert n.dtype == np.float64
    assert abs(n.mean()) < 0.05 and abs(n.std() - 1) < 0.05
    ln = g.gen_log_normal(20000, np.float32, 0.5, 0.25).get()
    assert ln.dtype == np.float32 and (ln > 0).all()
    assert abs(np.log(ln).mean() - 0.5) < 0.02
    p = g.gen_poisson(20000, np.uint32, 3.0).get()
    assert p.dtype == np.uint32 and abs(p.mean() - 3.0) < 0.1
    # the same seeds give the same numbers; fill_* writes in place
    seeds = lambda n: np.arange(n, dtype=np.int32)  # noqa: E731
    m1 = curandom.MRG32k3aRandomNumberGenerator(seeds)
    m2 = curandom.MRG32k3aRandomNumberGenerator(seeds)
    x = gpuarray.empty(100, np.float32)
    assert m1.fill_uniform(x) is x
    np.testing.assert_array_equal(x.get(), m2.gen_uniform(100, np.float32).get())
    # the documented stream: one Philox seeded with the seeds and offset,
    # drawn as 1 - u to land in CURAND's (0, 1]
    n_seeds = m1.block_count * m1.generators_per_block
    ref = ember.random.Generator(ember.random.Philox(
        list(range(n_seeds)) + [0]))
    np.testing.assert_array_equal(
        x.get(), 1 - ref.random(100, dtype=np.float32).get())
    other = curandom.MRG32k3aRandomNumberGenerator(seeds, offset=1)
    assert (other.gen_uniform(100, np.float32).get() != x.get()).any()
    y = gpuarray.zeros(1000, np.float64)
    m1.fill_normal(y)
    assert y.get().std() > 0.5
    with pytest.raises(NotImplementedError):
        g.gen_uniform(10, np.int32)
    with pytest.raises(NotImplementedError):
        g.gen_poisson(10, np.float32, 1.0)
    with pytest.raises(ValueError):
        curandom.XORWOWRandomNumberGenerator(offset=-1)


# ---- driver ------------------------------------------------------------------

def test_mem_alloc_like(drv):
    h = np.arange(24, dtype=np.float64).reshape(4, 6)
    d = drv.mem_alloc_like(h)
    assert d.size == h.nbytes == 192
    drv.memcpy_htod(d, h)
    np.testing.assert_array_equal(drv.from_device_like(d, h), h)
    with pytest.raises(ValueError):
        drv.memcpy_htod(d, np.zeros(25))


def test_exception_names(drv):
    import builtins
    assert drv.Error is ember.CUDAError
    assert drv.MemoryError is builtins.MemoryError
    assert drv.CompileError is ember.CompileError
    for cls in (drv.LogicError, drv.LaunchError, drv.RuntimeError):
        assert issubclass(cls, drv.Error) and cls is not drv.Error
    # what ember raises is caught by PyCUDA's names
    with pytest.raises(drv.MemoryError):
        drv.mem_alloc(1 << 62)
    from ember.pycuda.compiler import SourceModule
    with pytest.raises(drv.CompileError):
        SourceModule("__global__ void k( { }")
    with pytest.raises(drv.LogicError):
        drv.Context.pop()


def test_driver_failures_as_pycuda_reports_them(drv):
    """ember's CUDAError, re-raised by the driver calls as the kind PyCUDA
    reports for its CUresult; ember's own failures (no CUresult) stay
    Error, and what is already a kind passes through."""
    from ember.pycuda import _errors

    def failing(name):
        @_errors.translated
        def call():
            raise ember.CUDAError._from_c("cuCtxSynchronize: " + name, 1, name)
        return call
    cases = {"CUDA_ERROR_LAUNCH_FAILED": drv.LaunchError,
             "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES": drv.LaunchError,
             "CUDA_ERROR_ILLEGAL_ADDRESS": drv.LogicError,
             "CUDA_ERROR_INVALID_VALUE": drv.LogicError,
             "CUDA_ERROR_NO_BINARY_FOR_GPU": drv.RuntimeError,
             "CUDA_ERROR_UNKNOWN": drv.Error, "": drv.Error}
    for name, cls in cases.items():
        with pytest.raises(cls) as info:
            failing(name)()
        assert type(info.value) is cls and info.value.name == name
        assert isinstance(info.value, ember.CUDAError)
        assert str(info.value) == "cuCtxSynchronize: " + name

    @_errors.translated
    def already():
        raise drv.LogicError("pop without push")
    with pytest.raises(drv.LogicError, match="pop without push"):
        already()
    # the driver's entry points are wrapped
    for f in (drv.mem_alloc, drv.memcpy_htod, drv.memcpy_dtoh_async,
              drv.memset_d32, drv.Context.synchronize, drv.Stream.synchronize,
              drv.Event.record, drv.Device.get_attribute):
        assert f.__wrapped__ is not None, f


def test_device_attribute_numbers(drv):
    da = drv.device_attribute
    # CUDA's CUdevice_attribute numbers, from cuda.h
    assert da.MAX_THREADS_PER_BLOCK == 1 and da.WARP_SIZE == 10
    assert da.CONCURRENT_KERNELS == 31 and da.MULTIPROCESSOR_COUNT == 16
    assert da.COMPUTE_CAPABILITY_MAJOR == 75 and da.L2_CACHE_SIZE == 38
    assert da.SHARED_MEMORY_PER_BLOCK is da.MAX_SHARED_MEMORY_PER_BLOCK
    assert str(da.CONCURRENT_KERNELS) == "CONCURRENT_KERNELS"
    dev = drv.Device(0) if ember.get_current_device().type == "cuda" else \
        drv.Device("cpu")
    e = ember.get_current_device()
    assert dev.get_attribute(da.CONCURRENT_KERNELS) == e.attribute(31)
    assert dev.get_attribute(da.MAX_THREADS_PER_BLOCK) == \
        e.properties["maxThreadsPerBlock"]
    assert dev.get_attribute(da.MULTIPROCESSOR_COUNT) == \
        e.properties["multiProcessorCount"]
    assert dev.get_attribute(da.COMPUTE_CAPABILITY_MAJOR) == \
        e.compute_capability[0]
    attrs = dev.get_attributes()
    assert len(attrs) > 100 and attrs[da.WARP_SIZE] == e.attribute(10)
    assert all(isinstance(k, da) for k in attrs)
    with pytest.raises(TypeError):
        dev.get_attribute("WARP_SIZE")
    with pytest.raises(ValueError):
        dev.get_attribute(100000)


# ---- gpuarray.vec ----------------------------------------------------------

def test_vec_types(drv):
    from ember.pycuda import gpuarray
    vec = gpuarray.vec
    assert vec.float3.itemsize == 12 and vec.float3.names == ("x", "y", "z")
    assert vec.double2.itemsize == 16 and vec.char4.itemsize == 4
    assert vec.int1.names == ("x",) and vec.ulonglong4.itemsize == 32
    v = vec.make_float3(1, 2.5, -3)
    assert v.shape == () and v.dtype == vec.float3
    assert (float(v["x"]), float(v["y"]), float(v["z"])) == (1, 2.5, -3)
    assert vec.zeros_int2().tolist() == (0, 0)
    assert vec.filled_uchar4(7).tolist() == (7, 7, 7, 7)
    assert vec.types[vec.float4] == "float4"
    assert vec.type_to_scalar_and_count[vec.short3] == (np.dtype(np.int16), 3)
    with pytest.raises(TypeError):
        vec.make_float3(1, 2)


def test_vec_arrays_and_kernels(drv):
    from ember.pycuda import gpuarray
    from ember.pycuda.elementwise import ElementwiseKernel
    vec = gpuarray.vec
    n = gpuarray.zeros((4, 3), dtype=vec.float3)
    assert n.shape == (4, 3) and n.dtype == vec.float3 and n.size == 12
    assert (n.get().view(np.float32) == 0).all()
    rng = np.random.default_rng(7)
    pts = rng.uniform(-10, 10, (4, 3, 3)).astype(np.float32)
    for i in range(4):
        for j in range(3):
            n[i, j] = vec.make_float3(*pts[i, j])
    got = n.get()
    assert got.dtype == vec.float3 and got.shape == (4, 3)
    np.testing.assert_array_equal(got["y"], pts[..., 1])
    # a by-value float3 and a float3 * array as kernel arguments
    dist = ElementwiseKernel(
        "float3 pt, float3 *ns, float *rs",
        "rs[i] = sqrtf((pt.x-ns[i].x)*(pt.x-ns[i].x) + "
        "(pt.y-ns[i].y)*(pt.y-ns[i].y) + (pt.z-ns[i].z)*(pt.z-ns[i].z))",
        "vec_dist")
    r = gpuarray.zeros((4, 3), np.float32)
    p = np.array([1.0, -2.0, 0.5], np.float32)
    dist(vec.make_float3(*p), n, r)
    np.testing.assert_allclose(r.get(), np.sqrt(((pts - p) ** 2).sum(-1)),
                               rtol=1e-6)
    # set/get round trip, slices, to_gpu of a structured array, fill
    h = np.zeros(5, vec.int2)
    h["x"], h["y"] = np.arange(5), -np.arange(5)
    g = gpuarray.to_gpu(h)
    np.testing.assert_array_equal(g.get()["y"], -np.arange(5))
    np.testing.assert_array_equal(g[1:3].get()["x"], [1, 2])
    g[2:4] = vec.make_int2(9, 8)
    np.testing.assert_array_equal(g.get()["x"], [0, 1, 9, 9, 4])
    g.fill(vec.make_int2(1, 2))
    assert g.get().tolist() == [(1, 2)] * 5
    e = gpuarray.empty_like(g)
    assert e.dtype == vec.int2 and e.shape == (5,)
    with pytest.raises(TypeError):
        g.set(np.zeros(5, np.float32))
    with pytest.raises(ValueError):
        g.set(np.zeros(6, vec.int2))
    with pytest.raises(IndexError):
        g[1, 2] = vec.make_int2(0, 0)


# ---- pycuda-complex.hpp ----------------------------------------------------

COMPLEX_OPS = r"""
#include <pycuda-complex.hpp>
typedef pycuda::complex<%(T)s> c_t;
__global__ void ops(c_t *x, c_t *y, c_t *out, %(T)s *absx, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    c_t a = x[i], b = y[i];
    out[7 * i + 0] = a * b + a / b - c_t(2) * a;
    out[7 * i + 1] = pycuda::conj(a) + 1 - (%(T)s)0.5 * b;
    out[7 * i + 2] = pycuda::exp(a);
    out[7 * i + 3] = pycuda::log(b);
    out[7 * i + 4] = pycuda::sqrt(a);
    out[7 * i + 5] = pycuda::sin(a) * pycuda::cosh(b);
    out[7 * i + 6] = pycuda::pow(b, a);
    absx[i] = abs(a) + pycuda::norm(b) + pycuda::arg(a) + real(a) * imag(b);
}
"""


@pytest.mark.parametrize("dt,T,rtol", [(np.complex64, "float", 2e-5),
                                       (np.complex128, "double", 1e-12)])
def test_pycuda_complex_header(drv, dt, T, rtol):
    from ember.pycuda import gpuarray
    from ember.pycuda.compiler import SourceModule
    rng = np.random.default_rng(11)
    n = 50
    x = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dt)
    y = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dt)
    rt = np.float32 if dt == np.complex64 else np.float64
    f = SourceModule(COMPLEX_OPS % {"T": T}).get_function("ops")
    xg, yg = gpuarray.to_gpu(x), gpuarray.to_gpu(y)
    out = gpuarray.zeros(7 * n, dt)
    ab = gpuarray.zeros(n, rt)
    f(xg, yg, out, ab, np.int32(n), block=(64, 1, 1), grid=(1, 1))
    o = out.get().reshape(n, 7)
    exp = [x * y + x / y - 2 * x, np.conj(x) + 1 - 0.5 * y, np.exp(x),
           np.log(y), np.sqrt(x), np.sin(x) * np.cosh(y), y ** x]
    for k, e in enumerate(exp):
        np.testing.assert_allclose(o[:, k], e, rtol=rtol, atol=rtol, err_msg=k)
    np.testing.assert_allclose(ab.get(), np.abs(x) + np.abs(y) ** 2 +
                               np.angle(x) + x.real * y.imag,
                               rtol=rtol, atol=rtol)


def test_pycuda_complex_elementwise(drv):
    """demo_complex.py's kernel, and a default-constructed value is 0."""
    from ember.pycuda import gpuarray
    from ember.pycuda.elementwise import ElementwiseKernel
    mul = ElementwiseKernel(
        "pycuda::complex<float> *x, pycuda::complex<float> *y, "
        "pycuda::complex<float> *z",
        "z[i] = x[i] * y[i]; if (i == 0) z[i] = pycuda::complex<float>()",
        "complex_mul", preamble="#include <pycuda-complex.hpp>")
    rng = np.random.default_rng(3)
    a = (rng.standard_normal(400) + 1j * rng.standard_normal(400)).astype(np.complex64)
    b = (rng.standard_normal(400) + 1j * rng.standard_normal(400)).astype(np.complex64)
    c = gpuarray.empty_like(gpuarray.to_gpu(a))
    mul(gpuarray.to_gpu(a), gpuarray.to_gpu(b), c)
    exp = a * b
    exp[0] = 0
    np.testing.assert_allclose(c.get(), exp, rtol=1e-6, atol=1e-6)


def test_dynamic_source_module_refused(drv):
    from ember.pycuda.compiler import DynamicSourceModule, SourceModule
    assert issubclass(DynamicSourceModule, SourceModule)
    src = r"""
    __global__ void child() { }
    __global__ void parent() { child<<<1, 1>>>(); }
    """
    why = "block simulator" if ember.get_current_device().type == "cpu" \
        else "cudadevrt"
    with pytest.raises(NotImplementedError, match=why):
        DynamicSourceModule(src)


def test_pycuda_complex_header_nvrtc():
    """The header under NVRTC, inside SourceModule's extern "C" { } (where
    templates need its extern "C++"): compiled to PTX, which needs NVRTC
    but no GPU, so a machine without one still checks the GPU's side."""
    from conftest import HAVE_NVRTC
    if not HAVE_NVRTC:
        pytest.skip("NVRTC not found")
    from ember.cuda.core import Program, ProgramOptions
    from ember.pycuda import compiler
    for T in ("float", "double"):
        src = 'extern "C" {\n%s\n}\n' % (COMPLEX_OPS % {"T": T})
        opts = ProgramOptions(include_path=[compiler._INCLUDE], arch="sm_90")
        ptx = Program(src, "c++", options=opts).compile("ptx").code
        text = ptx.decode() if isinstance(ptx, bytes) else ptx
        assert ".entry ops" in text


def test_reduction_kernel_over_complex(drv):
    """ReductionKernel's preamble reaches both of its kernels with the
    header on their include path: the sum of |x| of complex values."""
    from ember.pycuda import gpuarray
    from ember.pycuda.reduction import ReductionKernel
    k = ReductionKernel(np.float64, neutral="0", reduce_expr="a+b",
                        map_expr="pycuda::abs(x[i])",
                        arguments="pycuda::complex<double> *x",
                        preamble="#include <pycuda-complex.hpp>")
    x = np.array([3 + 4j, -1 + 0j, 0 - 2j, 1 + 1j])
    r = k(gpuarray.to_gpu(x))
    np.testing.assert_allclose(float(r.get()), 5 + 1 + 2 + np.sqrt(2),
                               rtol=1e-15)
