"""The memory, CUDA-API, interoperability and performance pages of CuPy's
user guide on ember: stream-ordered pools, the CUDA stream protocol both
ways, RawModule.compile, and the allocators ember does not offer refused
with NotImplementedError rather than an AttributeError."""
import sys

import numpy as np
import pytest

import ember


# ---- memory.rst -------------------------------------------------------------

def test_memory_async_pool_is_the_stream_ordered_pool(device):
    with ember.Device(device):
        pool = ember.cuda.MemoryAsyncPool()
        ember.cuda.set_allocator(pool.malloc)
        try:
            s = ember.cuda.Stream()
            with s:
                a = ember.empty((100,), dtype=ember.float64)
                a[...] = ember.arange(100.0)
            s.synchronize()
            assert a.device == ember.Device(device)
            np.testing.assert_array_equal(ember.asnumpy(a), np.arange(100.0))
            # the same pool as MemoryPool's: its figures count this array
            assert pool.used_bytes() == ember.cuda.MemoryPool().used_bytes() >= 800
            buf = ember.cuda.malloc_async(256)
            assert buf.size >= 256
            del buf
            ember.cuda.set_allocator(ember.cuda.malloc_async)
            assert ember.cuda.get_allocator() is ember.cuda.malloc_async
            ember.cuda.MemoryPool(ember.cuda.malloc_async)
        finally:
            ember.cuda.set_allocator(None)
    with pytest.raises(NotImplementedError, match="pool_handles"):
        ember.cuda.MemoryAsyncPool(pool_handles=[0])


def test_managed_and_system_memory_not_offered():
    with pytest.raises(NotImplementedError, match="managed"):
        ember.cuda.MemoryPool(ember.cuda.malloc_managed)
    with pytest.raises(NotImplementedError, match="managed"):
        ember.cuda.set_allocator(ember.cuda.malloc_managed)
    with pytest.raises(NotImplementedError, match="managed"):
        ember.cuda.malloc_managed(1024)
    with pytest.raises(NotImplementedError, match="HMM/ATS"):
        ember.cuda.MemoryPool(ember.cuda.memory.malloc_system)
    with pytest.raises(NotImplementedError, match="HMM/ATS"):
        ember.cuda.memory.malloc_system(1024)
    # a refused allocator leaves the pool in charge
    assert ember.cuda.get_allocator().__name__ == "malloc"


# ---- interoperability.rst: the CUDA stream protocol ---------------------------

class _Foreign:
    """Another library's stream: the protocol only."""

    def __init__(self, handle):
        self.handle = handle

    def __cuda_stream__(self):
        return (0, self.handle)


def test_stream_exports_protocol(device):
    with ember.Device(device):
        s = ember.cuda.Stream()
        version, ptr = s.__cuda_stream__()
        assert version == 0 and ptr == s.ptr and ptr != 0
        # a default stream's handle is 0, as its ptr is
        assert ember.cuda.Stream.null.__cuda_stream__() == (0, 0)


def test_stream_from_external_round_trip(device):
    with ember.Device(device):
        s = ember.cuda.Stream()
        foreign = _Foreign(s.ptr)
        before = sys.getrefcount(foreign)
        e = ember.cuda.Stream.from_external(foreign)
        assert e == s and type(e) is ember.Stream
        assert sys.getrefcount(foreign) == before + 1   # kept alive by e
        with e:
            assert ember.cuda.get_current_stream() == s
            r = ember.arange(10).sum()
        e.synchronize()
        assert int(r) == 45
        del e, r
        ember.cuda.Stream.null.use()   # the thread's current-stream slot lets go of e
        assert sys.getrefcount(foreign) == before
        assert ember.cuda.Stream.from_external(s) is s
        null = ember.cuda.Stream.from_external(_Foreign(0))
        assert null == ember.cuda.Stream.null


def test_stream_from_external_bad_inputs():
    with pytest.raises(TypeError, match="__cuda_stream__"):
        ember.cuda.Stream.from_external(12345)
    with pytest.raises(TypeError, match="version, handle"):
        ember.cuda.Stream.from_external(type("X", (), {"__cuda_stream__": lambda self: 7})())


# ---- performance.rst: RawModule.compile -------------------------------------

_SRC = r"""
template<typename T>
__global__ void fx3(T* arr, int N) {
    unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < N) arr[tid] = arr[tid] * 3;
}
"""


def test_rawmodule_compile_then_launch(device):
    with ember.Device(device):
        mod = ember.RawModule(code=_SRC, options=("-std=c++17",),
                              name_expressions=["fx3<float>", "fx3<double>"])
        assert mod.compile() is None
        for dt in (np.float32, np.float64):
            a = ember.arange(10, dtype=dt)
            ker = mod.get_function("fx3<float>" if dt == np.float32 else "fx3<double>")
            ker((1,), (10,), (a, np.int32(10)))
            np.testing.assert_array_equal(ember.asnumpy(a), np.arange(10, dtype=dt) * 3)
        with pytest.raises(TypeError, match="write"):
            mod.compile(log_stream=3)
    with pytest.raises(ember.CompileError):
        ember.RawModule(code="__global__ void f( {").compile()


# ---- memory.rst: cupyx's pinned-memory constructors ----------------------------

def test_cupyx_pinned_constructors(device):
    import ember.cupyx as cupyx
    z = cupyx.zeros_pinned((3, 4), dtype=np.float32)
    assert type(z) is np.ndarray and z.dtype == np.float32 and z.shape == (3, 4)
    np.testing.assert_array_equal(z, np.zeros((3, 4), np.float32))
    z[1] = 5
    g = ember.asarray(z, device=device)
    np.testing.assert_array_equal(ember.asnumpy(g), z)
    e = cupyx.empty_pinned(7, dtype=ember.int16, order="F")
    assert e.shape == (7,) and e.dtype == np.int16 and e.flags.writeable
    f = np.zeros((2, 3), order="F")
    assert cupyx.empty_like_pinned(f).flags.f_contiguous
    assert cupyx.empty_like_pinned(f, order="C").flags.c_contiguous
    zl = cupyx.zeros_like_pinned(ember.arange(5, device=device), shape=(2, 2))
    assert zl.dtype == np.int64 and zl.shape == (2, 2) and not zl.any()
    assert cupyx.zeros_pinned(0).size == 0
    with pytest.raises(ValueError, match="negative"):
        cupyx.empty_pinned((-1, 2))
    with pytest.raises(ValueError, match="order"):
        cupyx.zeros_pinned(3, order="X")
    with pytest.raises(TypeError):
        cupyx.empty_pinned((2.5,))
    with pytest.raises(TypeError, match="subok"):
        cupyx.empty_like_pinned(f, subok=True)


# ---- memory.rst: the limit from the environment ----------------------------------

def _limit_in_child(device, env):
    import os
    import subprocess
    code = ("import ember\n"
            "with ember.Device(%r):\n"
            "    print(ember.get_default_memory_pool().get_limit())\n"
            "    try:\n"
            "        ember.zeros(100000)\n"
            "        print('allocated')\n"
            "    except MemoryError as e:\n"
            "        print('MemoryError', 'over the pool' in str(e))\n" % device)
    e = {k: v for k, v in os.environ.items()
         if k not in ("EMBER_GPU_MEMORY_LIMIT", "CUPY_GPU_MEMORY_LIMIT")}
    e.update(env)
    e["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    return subprocess.run([sys.executable, "-c", code], capture_output=True,
                          text=True, env=e, timeout=300)


@pytest.mark.parametrize("env,limit", [
    ({"CUPY_GPU_MEMORY_LIMIT": "4096"}, 4096),
    ({"EMBER_GPU_MEMORY_LIMIT": "8192", "CUPY_GPU_MEMORY_LIMIT": "4096"}, 8192),
    ({"CUPY_GPU_MEMORY_LIMIT": "0%"}, 1),
    ({}, 0)])
def test_memory_limit_from_environment(device, env, limit):
    r = _limit_in_child(device, env)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.split()
    assert int(lines[0]) == limit
    assert r.stdout.strip().endswith("allocated" if limit == 0 else "True")


def test_memory_limit_percentage_and_bad_values(device):
    r = _limit_in_child(device, {"CUPY_GPU_MEMORY_LIMIT": "50%"})
    assert r.returncode == 0, r.stderr
    total = ember.Device(device).mem_info[1]
    assert abs(int(r.stdout.split()[0]) - total // 2) <= 1
    for bad in ("1GB", "150%", "-5", "x%"):
        r = _limit_in_child(device, {"CUPY_GPU_MEMORY_LIMIT": bad})
        assert r.returncode != 0
        assert "CUPY_GPU_MEMORY_LIMIT='%s' is not a memory limit" % bad in r.stderr


# ---- kernel.rst: texture memory, which ember does not offer -------------------------

def test_texture_objects_not_offered():
    from ember.cuda import texture
    assert ember.cuda.texture is texture
    for name in texture.__all__:
        with pytest.raises(NotImplementedError, match="texture and surface"):
            getattr(texture, name)(None, None)
