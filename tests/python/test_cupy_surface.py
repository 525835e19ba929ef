"""CuPy's spellings of the runtime in ember: Device(0) on a machine without a
GPU, ember.cuda.stream as CuPy's module and Numba's function, ember.testing,
ember.profiler.benchmark, the memory pools and allocator hooks, and the
ember.cuda.runtime calls example programs make. Each runs on every device."""
import re

import numpy as np
import pytest

import ember
import ember.testing as testing
from conftest import HAVE_CUDA


# ---- Device(0) -----------------------------------------------------------

def test_device_zero_is_the_first_device():
    """A one-GPU program's Device(0): cuda:0 with a GPU, else the cpu."""
    d = ember.cuda.Device(0)
    assert d == (ember.Device("cuda:0") if HAVE_CUDA else ember.Device("cpu"))
    assert d.id == 0 and ember.cuda.Device().id == 0 or HAVE_CUDA
    before = ember.get_current_device()
    try:
        d.use()
        assert ember.get_current_device() == d
        d.synchronize()
        cc = d.compute_capability
        assert (cc.major, cc.minor) == ((0, 0) if d.type == "cpu" else tuple(cc))
        with ember.cuda.Device(0) as e:
            assert ember.get_current_device() == e == d
            x = ember.arange(5)
            assert x.device == d
            np.testing.assert_array_equal(ember.asnumpy(x * 2), np.arange(5) * 2)
        assert ember.cuda.runtime.getDevice() == 0
        ember.cuda.runtime.setDevice(0)
        assert ember.get_current_device() == d
    finally:
        before.use()


def test_other_ordinals_still_fail():
    if HAVE_CUDA:
        pytest.skip("only meaningful without a GPU")
    with pytest.raises(ember.BackendUnavailableError):
        ember.cuda.Device(1)
    with pytest.raises(ember.BackendUnavailableError):
        ember.cuda.runtime.setDevice(1)


def test_info_says_what_device_zero_is():
    out = ember.info()
    if not HAVE_CUDA:
        assert re.search(r"device 0 .*: cpu", out), out


# ---- runtime ------------------------------------------------------------

def test_runtime_names(device):
    rt = ember.cuda.runtime
    with ember.Device(device) as d:
        # ordinal 0 is cuda:0 when a GPU exists, else the cpu device
        named = ember.Device(0)
        p = rt.getDeviceProperties(named.id if d.type == "cpu" else d.id)
        if d.type == "cpu" and HAVE_CUDA:
            d = named
        assert isinstance(p["name"], bytes) and p["name"].decode() == d.name
        assert p["totalGlobalMem"] == d.mem_info()[1] or d.type == "cpu"
        for k in ("multiProcessorCount", "major", "minor", "maxThreadsPerBlock",
                  "warpSize", "sharedMemPerBlock"):
            assert isinstance(p[k], int) and p[k] >= 0, k
        free, total = rt.memGetInfo()
        assert 0 < free <= total
        if d.type == "cpu":
            assert total == ember.Device("cpu").mem_info()[1]
        rt.deviceSynchronize()
        assert (rt.getDeviceCount() > 0) == HAVE_CUDA
        assert rt.is_hip is False and rt.cudaSuccess == 0


# ---- ember.cuda.stream -----------------------------------------------------

def test_stream_module_and_function(device):
    import ember.cuda.stream as stream_mod
    from ember.cuda.stream import Stream, Event, get_current_stream
    assert stream_mod is ember.cuda.stream
    with ember.Device(device):
        s = ember.cuda.stream()           # Numba's call
        assert isinstance(s, ember.Stream) and s.device == ember.Device(device)
        s2 = ember.cuda.stream.Stream(non_blocking=True)   # CuPy's class
        assert Stream is ember.Stream and Event is ember.Event
        with s2:
            assert get_current_stream() is s2
            a = ember.arange(10, dtype=ember.float32)
            e1, e2 = ember.cuda.stream.Event(), ember.cuda.Event()
            e1.record()
            b = (a * 3).sum()
            e2.record()
            e2.synchronize()
            assert ember.cuda.stream.get_elapsed_time(e1, e2) >= 0
        assert float(b) == 135.0
        assert get_current_stream() is not s2
        assert ember.cuda.stream.Stream.null.ptr == 0
        # CuPy's examples time and wait on the null stream itself
        null = ember.cuda.Stream.null
        t0 = null.record()
        c = ember.arange(1000, dtype=ember.int64).sum()
        t1 = null.record()
        null.synchronize()
        assert int(c) == 499500
        assert ember.cuda.get_elapsed_time(t0, t1) >= 0
        # Numba's event() still is a function
        ev = ember.cuda.event(timing=True)
        assert isinstance(ev, ember.Event)


# ---- host <-> device copies --------------------------------------------

def test_ndarray_set(device):
    """CuPy's a.set(arr, stream=None): a host array copied into an existing
    array, whatever the layouts, with CuPy's errors for a wrong kind, dtype
    or shape."""
    with ember.Device(device):
        h = np.arange(12, dtype=np.float32).reshape(3, 4)
        a = ember.empty((3, 4), dtype=ember.float32)
        assert a.set(h) is None
        np.testing.assert_array_equal(ember.asnumpy(a), h)
        s = ember.cuda.Stream()
        a.set(h * 2, stream=s)                   # ordered on s
        s.synchronize()
        np.testing.assert_array_equal(ember.asnumpy(a), h * 2)
        a.set(np.asfortranarray(h + 1), stream=ember.cuda.Stream.null)
        np.testing.assert_array_equal(ember.asnumpy(a), h + 1)
        strided = np.arange(24, dtype=np.float32).reshape(3, 8)[:, ::2]
        a.set(strided)
        np.testing.assert_array_equal(ember.asnumpy(a), strided)
        f = ember.zeros((4, 3), dtype=ember.int64).T       # Fortran-ordered
        f.set(np.arange(12, dtype=np.int64).reshape(3, 4))
        np.testing.assert_array_equal(ember.asnumpy(f), np.arange(12).reshape(3, 4))
        big = ember.zeros((4, 6), dtype=ember.float64)
        big[1:3, ::2].set(np.ones((2, 3)))        # a strided view
        expect = np.zeros((4, 6))
        expect[1:3, ::2] = 1
        np.testing.assert_array_equal(ember.asnumpy(big), expect)
        with pytest.raises(TypeError, match="numpy.ndarray"):
            a.set([[0.0] * 4] * 3)
        with pytest.raises(TypeError, match="float64 array cannot be set to float32"):
            a.set(h.astype(np.float64))
        with pytest.raises(ValueError, match=r"Old shape: \(3, 4\), new shape: \(4, 3\)"):
            a.set(h.T.copy())
        with pytest.raises(ValueError, match="new shape"):
            a.set(h.ravel())
        np.testing.assert_array_equal(ember.asnumpy(a), strided)   # untouched


def test_get_and_asnumpy_on_a_stream(device):
    """get(stream=)/asnumpy(stream=) order the copy on that stream, so they
    read what work queued there wrote (a non-blocking stream: the default
    stream does not wait for it)."""
    with ember.Device(device):
        x = ember.arange(100000, dtype=ember.float64)
        ember.cuda.Device().synchronize()
        s = ember.cuda.Stream(non_blocking=True)
        with s:
            y = x * 3 + 1
        expect = np.arange(100000.0) * 3 + 1
        np.testing.assert_array_equal(y.get(stream=s), expect)
        np.testing.assert_array_equal(ember.asnumpy(y, stream=s), expect)
        with s:
            z = y * 2
        out = np.empty(100000)
        assert z.get(stream=s, out=out) is out
        np.testing.assert_array_equal(out, expect * 2)
        with pytest.raises(TypeError, match="stream"):
            y.get(stream="s")


MATRIX_STRUCT = r"""
template<typename T>
struct Mat2 {
    T v[2][2];
};

template<typename T>
__global__ void mat_axpb(const Mat2<T> *a, const Mat2<T> b, Mat2<T> *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 2; c++) {
            T s = b.v[r][c];
            for (int k = 0; k < 2; k++)
                s += a[i].v[r][k] * b.v[k][c];
            out[i].v[r][c] = s;
        }
}
"""


def test_struct_argument_as_numpy_array(device):
    """A template struct passed by value as a one-element NumPy structured
    array (its bytes), as CuPy's packed_matrix example passes a 4x4
    matrix: out = a @ b + b for each 2x2 matrix of a."""
    with ember.Device(device):
        m = ember.RawModule(code=MATRIX_STRUCT,
                            name_expressions=("mat_axpb<float>", "mat_axpb<double>"))
        for ctype, dt in (("float", np.float32), ("double", np.float64)):
            n = 5
            ha = np.arange(n * 4, dtype=dt).reshape(n, 2, 2) / 3
            hb = np.array([[1.5, -2.0], [0.25, 4.0]], dtype=dt)
            mat = np.dtype({"names": ["v"], "formats": [(dt, (2, 2))]})
            a = ember.asarray(ha)
            out = ember.empty_like(a)
            f = m.get_function("mat_axpb<%s>" % ctype)
            f((1,), (n,), (a, hb.ravel().view(mat), out, np.int32(n)))
            ember.cuda.Device().synchronize()
            np.testing.assert_allclose(ember.asnumpy(out), ha @ hb + hb,
                                       rtol=1e-6)


def test_external_stream_of_ember_stream(device):
    # cuda.core's memory_ops example: cupy.cuda.ExternalStream(s.handle)
    with ember.Device(device):
        s = ember.Stream(non_blocking=True)
        e = ember.cuda.ExternalStream(s.ptr)
        assert isinstance(e, ember.Stream) and e.non_blocking
        assert e.ptr == s.ptr and e.device == s.device
        assert e == s           # ember's own stream is that stream
        h = np.arange(1000, dtype=np.float32)
        with e:
            x = ember.asarray(h) * 2
        del s                   # the creator lets go; the handle still runs
        with e:
            y = x + 1
        e.synchronize()
        np.testing.assert_array_equal(ember.asnumpy(y), h * 2 + 1)
        assert ember.cuda.stream.ExternalStream(0).ptr == 0   # the default
        assert ember.cuda.ExternalStream is ember.cuda.stream.ExternalStream


def test_external_stream_refuses_what_is_not_a_stream():
    with ember.Device("cpu"):
        with pytest.raises(ValueError, match="not the handle of a live stream"):
            ember.cuda.ExternalStream(0x1234)
        s = ember.Stream()
        ptr = s.ptr
        del s                   # torn down: its handle is no stream now
        with pytest.raises(ValueError, match="not the handle"):
            ember.cuda.ExternalStream(ptr)


def test_external_stream_of_another_librarys_stream(device):
    if device == "cpu":
        pytest.skip("the cpu device has no streams but ember's own")
    cupy = pytest.importorskip("cupy")
    cs = cupy.cuda.Stream(non_blocking=True)
    h = np.arange(4096, dtype=np.float32)
    with ember.Device(device):
        e = ember.cuda.ExternalStream(cs.ptr)
        assert e.ptr == cs.ptr and e.non_blocking
        with e:
            x = ember.asarray(h)
            y = ember.sqrt(x) + x
        e.synchronize()
        np.testing.assert_allclose(ember.asnumpy(y), np.sqrt(h) + h, rtol=1e-6)
        del e                   # ember lets go; CuPy's stream lives on
        a = cupy.arange(10)
        with cs:
            b = a * 3
        cs.synchronize()
        assert int(b.sum()) == 135
        # CuPy destroys its stream while ember's arrays made on it live:
        # freeing them later must not touch the gone CUstream (the H200
        # run of 2026-11-29 crashed here: the pool synchronized it)
        del cs, a, b
        import gc
        gc.collect()
        del x, y
        z = ember.asarray(h) * 2
        np.testing.assert_array_equal(ember.asnumpy(z), h * 2)


# ---- memory pools --------------------------------------------------------

def test_memory_pool(device):
    with ember.Device(device):
        pool = ember.cuda.MemoryPool()
        pool.free_all_blocks()
        used0 = pool.used_bytes()
        buf = pool.malloc(3000)
        assert buf.size == 3000 and buf.ptr != 0
        assert buf.device == ember.Device(device)
        assert pool.used_bytes() >= used0 + 3000
        assert pool.total_bytes() >= pool.used_bytes()
        del buf
        assert pool.used_bytes() == used0
        assert pool.n_free_blocks() >= 1
        assert pool.free_bytes() >= 3000
        pool.free_all_blocks()
        assert pool.n_free_blocks() == 0 and pool.free_bytes() == 0
        # the default pool is the same pool, and its malloc is CuPy's
        dflt = ember.get_default_memory_pool()
        b2 = dflt.malloc(100)
        assert pool.used_bytes() == dflt.used_bytes() >= used0 + 100
        del b2
        pool.set_limit(size=1 << 20)
        try:
            assert pool.get_limit() == 1 << 20
            with pytest.raises(ember.cuda.memory.OutOfMemoryError):
                pool.malloc(2 << 20)
        finally:
            pool.set_limit(size=0)
        assert pool.get_limit() == 0


def test_set_allocator():
    pool = ember.cuda.MemoryPool()
    ember.cuda.set_allocator(pool.malloc)
    ember.cuda.set_allocator(ember.get_default_memory_pool().malloc)
    ember.cuda.set_allocator(None)
    assert callable(ember.cuda.get_allocator())
    with pytest.raises(NotImplementedError, match="caching pool"):
        ember.cuda.set_allocator(lambda n: None)
    with pytest.raises(NotImplementedError):
        ember.cuda.MemoryPool(allocator=lambda n: None)
    # arrays are still made, from the pool
    np.testing.assert_array_equal(ember.asnumpy(ember.arange(4)), np.arange(4))


def test_pinned_memory_pool():
    pool = ember.cuda.PinnedMemoryPool()
    p = pool.malloc(256)
    assert p.size == 256 and p.ptr != 0 and int(p) == p.ptr
    h = np.asarray(p).view(np.float32)
    h[:] = np.arange(64, dtype=np.float32)
    assert pool.used_bytes() == 256 and pool.n_free_blocks() == 0
    ptr = p.ptr
    del p
    # a NumPy array over the block keeps it from the free list
    assert pool.n_free_blocks() == 0
    np.testing.assert_array_equal(h, np.arange(64, dtype=np.float32))
    del h
    assert pool.n_free_blocks() == 1 and pool.used_bytes() == 0
    assert pool.total_bytes() == 256
    q = pool.malloc(256)                # reused, same block
    assert q.ptr == ptr and pool.n_free_blocks() == 0
    del q
    pool.free_all_blocks()
    assert pool.n_free_blocks() == 0 and pool.total_bytes() == 0
    from ember.cuda import pinned_memory as pm
    ember.cuda.set_pinned_memory_allocator(pool.malloc)
    try:
        r = pm.alloc_pinned_memory(64)
        assert pool.used_bytes() == 64
        del r
        ember.cuda.set_pinned_memory_allocator(None)
        r = pm.alloc_pinned_memory(64)
        assert pool.used_bytes() == 0 and r.size == 64
        with pytest.raises(NotImplementedError):
            ember.cuda.set_pinned_memory_allocator(print)
    finally:
        ember.cuda.set_pinned_memory_allocator(
            pm.get_default_pinned_memory_pool().malloc)


# ---- ember.testing ------------------------------------------------------

def test_assertions(device):
    with ember.Device(device):
        a = ember.asarray(np.array([1.0, 2.0, 3.0]))
        testing.assert_allclose(a, np.array([1.0, 2.0, 3.0 + 1e-9]), rtol=1e-6)
        testing.assert_array_equal(a, a)
        testing.assert_array_almost_equal(a, np.array([1.0, 2.0, 3.0000001]))
        testing.assert_array_less(a, a + 1)
        with pytest.raises(AssertionError):
            testing.assert_allclose(a, np.array([1.0, 2.0, 3.1]))
        with pytest.raises(AssertionError):
            testing.assert_array_equal(a, np.array([1.0, 2.0, 4.0]))
        with pytest.raises(AssertionError):
            testing.assert_array_less(a, a)
        with pytest.raises(AssertionError):
            testing.assert_array_almost_equal(a, a + 1e-3)


def test_numpy_cupy_decorators_compare(device):
    calls = []

    @testing.numpy_cupy_allclose(rtol=1e-6)
    def good(xp):
        calls.append(xp)
        return xp.sin(xp.arange(10, dtype=xp.float32)) * 2

    @testing.numpy_cupy_array_equal()
    def differs(xp):
        x = xp.arange(5)
        return x + (1 if xp is ember else 0)

    @testing.numpy_cupy_array_equal()
    def wrong_dtype(xp):
        return xp.arange(5, dtype=xp.int32 if xp is ember else xp.int64)

    @testing.numpy_cupy_array_equal(type_check=False)
    def dtype_unchecked(xp):
        return xp.arange(5, dtype=xp.int32 if xp is ember else xp.int64)

    @testing.numpy_cupy_array_equal()
    def host_result(xp):
        return np.arange(3)

    @testing.numpy_cupy_allclose(accept_error=ValueError)
    def both_raise(xp):
        return xp.ones((2, 3)).reshape(5)

    with ember.Device(device):
        good()
        assert calls == [ember, np]
        with pytest.raises(AssertionError):
            differs()
        with pytest.raises(AssertionError, match="dtype"):
            wrong_dtype()
        dtype_unchecked()
        with pytest.raises(AssertionError, match="host"):
            host_result()
        both_raise()


def test_dtype_decorators():
    seen = []

    @testing.for_all_dtypes()
    def t(dtype):
        seen.append(np.dtype(dtype))

    t()
    assert np.dtype(np.float16) in seen and np.dtype(np.complex128) in seen
    assert np.dtype(np.bool_) in seen and len(seen) == 14
    seen.clear()
    testing.for_all_dtypes(no_float16=True, no_bool=True, no_complex=True)(t.__wrapped__)()
    assert len(seen) == 10
    seen.clear()
    testing.for_float_dtypes(name="dt")(lambda dt: seen.append(dt))()
    assert seen == [np.float16, np.float32, np.float64]
    seen.clear()
    testing.for_int_dtypes(no_bool=True)(lambda dtype: seen.append(dtype))()
    assert len(seen) == 8 and np.bool_ not in seen
    seen.clear()
    testing.for_dtypes([np.int8, "f8"])(lambda dtype: seen.append(dtype))()
    assert seen == [np.int8, np.float64]
    # the keyword is hidden from pytest's fixture lookup
    import inspect
    assert "dtype" not in inspect.signature(t).parameters

    @testing.for_float_dtypes(no_float16=True)
    def failing(dtype):
        assert dtype != np.float64

    with pytest.raises(AssertionError):
        failing()


@testing.for_float_dtypes(no_float16=True)
@testing.numpy_cupy_allclose(rtol=1e-5)
def test_decorated_like_cupys_own(xp, dtype):
    a = testing.shaped_arange((3, 4), xp, dtype)
    return (a * 2).sum(axis=1)


def test_shaped_arrays(device):
    with ember.Device(device):
        a = testing.shaped_arange((2, 3), ember, np.float32)
        assert a.device == ember.Device(device)
        np.testing.assert_array_equal(ember.asnumpy(a),
                                      np.arange(1, 7, dtype=np.float32).reshape(2, 3))
        b = testing.shaped_arange((4,), np, np.bool_)
        np.testing.assert_array_equal(b, [False, True, False, True])
        c = testing.shaped_arange((2,), np, np.complex64)
        np.testing.assert_array_equal(c, [1 + 1j, 2 + 2j])
        r = testing.shaped_reverse_arange((3,), np, np.int32)
        np.testing.assert_array_equal(r, [3, 2, 1])
        x = testing.shaped_random((5, 4), ember, np.float64, scale=3, seed=7)
        y = testing.shaped_random((5, 4), np, np.float64, scale=3, seed=7)
        np.testing.assert_array_equal(ember.asnumpy(x), y)
        assert y.min() >= 0 and y.max() < 3
        f = testing.shaped_arange((2, 3), ember, np.int64, order="F")
        assert f.flags.f_contiguous
        np.testing.assert_array_equal(ember.asnumpy(f),
                                      np.arange(1, 7).reshape(2, 3))
        g = testing.shaped_random((3, 4), ember, np.float32, seed=2, order="F")
        assert g.flags.f_contiguous and not g.flags.c_contiguous
        np.testing.assert_array_equal(
            ember.asnumpy(g), testing.shaped_random((3, 4), np, np.float32, seed=2))


def test_asarray_keeps_fortran_order(device):
    """A Fortran-ordered NumPy array stays Fortran-ordered on every device
    for order 'K' (the default) and 'A', as NumPy's and CuPy's asarray."""
    h = np.asfortranarray(np.arange(12, dtype=np.float64).reshape(3, 4))
    for kw in ({}, {"order": "K"}, {"order": "A"}):
        a = ember.asarray(h, device=device, **kw)
        assert a.flags.f_contiguous and not a.flags.c_contiguous, kw
        assert a.strides == h.strides
        np.testing.assert_array_equal(ember.asnumpy(a), h)
    c = ember.asarray(h, device=device, order="C")
    assert c.flags.c_contiguous
    np.testing.assert_array_equal(ember.asnumpy(c), h)
    b = ember.array(h, dtype=ember.float32, device=device)   # a conversion too
    assert b.flags.f_contiguous
    np.testing.assert_array_equal(ember.asnumpy(b), h.astype(np.float32))


# ---- profiler ------------------------------------------------------------

def test_benchmark(device):
    from ember.profiler import benchmark
    import ember.cupyx.profiler as cupyx_profiler
    assert cupyx_profiler.benchmark is benchmark
    calls = []

    def work(a, k=1):
        calls.append(k)
        return (a * k).sum()

    with ember.Device(device) as d:
        a = ember.arange(1000, dtype=ember.float32)
        r = benchmark(work, (a,), {"k": 2}, n_repeat=7, n_warmup=3)
        assert len(calls) == 10 and set(calls) == {2}
        assert r.name == "work"
        assert r.cpu_times.shape == (7,) and r.gpu_times.shape == (1, 7)
        assert (r.cpu_times > 0).all() and (r.gpu_times >= 0).all()
        s = str(r)
        label = "GPU-%d" % d.id if d.type == "cuda" else "CPU-device"
        num = r"\s*[0-9]+\.[0-9]{3}"
        pat = (r"^work {16}:    CPU:%s us   \+/-%s \(min:%s / max:%s\) us"
               r"     %s:%s us   \+/-%s \(min:%s / max:%s\) us$"
               % (num, num, num, num, label, num, num, num, num))
        assert re.match(pat, s), s
        assert r.to_str() == s.split("     " + label)[0]
        mean_us = float(s.split("CPU:")[1].split("us")[0])
        assert abs(mean_us - r.cpu_times.mean() * 1e6) < 1e-3
        one = benchmark(work, (a,), n_repeat=1, n_warmup=0, name="one")
        assert "+/-" not in str(one) and str(one).startswith("one" + " " * 17 + ":")
        # max_duration stops early
        import time
        slow = benchmark(lambda: time.sleep(0.01), n_repeat=1000, n_warmup=0,
                         max_duration=0.05)
        assert 1 <= slow.cpu_times.size < 20
        assert slow.cpu_times.min() >= 0.009


def test_default_pinned_pool_at_top_level():
    pool = ember.get_default_pinned_memory_pool()
    assert isinstance(pool, ember.cuda.PinnedMemoryPool)
    assert pool is ember.cuda.pinned_memory.get_default_pinned_memory_pool()
    n = pool.n_free_blocks()
    p = ember.cuda.pinned_memory.alloc_pinned_memory(48)
    del p
    assert pool.n_free_blocks() == n + 1


def test_mem_info_property_and_call(device):
    d = ember.cuda.Device(device)
    free, total = d.mem_info            # CuPy: a property
    f2, t2 = d.mem_info()               # ember: a call
    assert 0 < free <= total and t2 == total and 0 < f2 <= t2
    assert isinstance(d.mem_info, tuple) and len(d.mem_info) == 2
    with pytest.raises(TypeError):
        d.mem_info(0)


def test_compute_capability_both_spellings(device):
    d = ember.cuda.Device(device)
    cc = d.compute_capability
    major, minor = cc                               # cuda.core: (major, minor)
    assert (cc.major, cc.minor) == (major, minor) == tuple(cc)
    assert str(cc) == "%d%d" % (major, minor)      # CuPy: the string '90'
    assert f"sm_{cc}" == "sm_%d%d" % (major, minor)
    assert cc == str(cc) and cc == (major, minor) and cc != "x"
    assert int(cc) == 10 * major + minor
    assert (cc >= "00") and not (cc < "00")


# ---- cupyx.scipy ---------------------------------------------------------

def test_cupyx_scipy_is_ember_scipy(device):
    """CuPy programs' cupyx.scipy imports, in each spelling, reach
    ember.scipy's own modules (one class per matrix type), and compute."""
    import scipy.sparse as ss

    import ember.cupyx as cupyx
    import ember.cupyx.scipy.ndimage as nd
    import ember.scipy
    from ember.cupyx.scipy.sparse.linalg import cg
    from ember.scipy.sparse import linalg as splinalg
    assert cupyx.scipy is ember.scipy and nd is ember.scipy.ndimage
    assert cg is splinalg.cg
    import ember.cupyx.scipy.interpolate as ci
    import ember.cupyx.scipy.spatial.distance as cdist
    import ember.cupyx.scipy.stats as cs
    assert ci is ember.scipy.interpolate and cs is ember.scipy.stats
    assert cdist is ember.scipy.spatial.distance
    got = cs.zscore(ember.asarray([1.0, 2.0, 4.0], device=device))
    np.testing.assert_allclose(ember.asnumpy(got), [-1.0690449676496976,
                               -0.2672612419124244, 1.3363062095621219])
    d = np.array([[4.0, 1.0], [1.0, 3.0]])
    m = cupyx.scipy.sparse.csr_matrix(ember.asarray(d, device=device))
    assert isinstance(m, ember.scipy.sparse.csr_matrix)
    x, info = cg(m, ember.asarray([1.0, 2.0], device=device))
    assert info == 0
    np.testing.assert_allclose(ember.asnumpy(x), np.linalg.solve(d, [1, 2]),
                               rtol=1e-8)
    np.testing.assert_array_equal(ember.asnumpy(m.toarray()),
                                  ss.csr_matrix(d).toarray())
