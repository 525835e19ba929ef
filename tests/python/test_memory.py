import gc

import numpy as np
import pytest

import ember

from helpers import assert_array_equal, to_device, to_numpy


def test_round_trip(dev):
    a = np.random.default_rng(0).standard_normal(1000).astype(np.float32)
    buf = ember.alloc(a.nbytes, device=dev)
    assert buf.nbytes == a.nbytes == buf.size and buf.device == dev and buf.ptr != 0
    buf.copy_from_host(a)
    back = buf.copy_to_host()
    assert isinstance(back, bytearray) and bytes(back) == a.tobytes()
    out = np.empty_like(a)
    assert buf.copy_to_host(out) is out
    assert_array_equal(out, a)


def test_copy_from_any_buffer_object(dev):
    buf = ember.alloc(5, device=dev)
    buf.copy_from_host(b"hello")
    assert bytes(buf.copy_to_host()) == b"hello"
    buf.copy_from_host(memoryview(bytearray(b"world")))
    assert bytes(buf.copy_to_host()) == b"world"


def test_copy_size_mismatch(dev):
    buf = ember.alloc(16, device=dev)
    with pytest.raises(ValueError, match="12.*16"):
        buf.copy_from_host(np.zeros(3, np.float32))
    with pytest.raises(ValueError, match="20.*16"):
        buf.copy_to_host(np.zeros(5, np.float32))


def test_copy_type_errors(dev):
    buf = ember.alloc(16, device=dev)
    with pytest.raises(TypeError):
        buf.copy_from_host([1, 2, 3, 4])
    with pytest.raises(TypeError):
        buf.copy_to_host(b"x" * 16)        # read-only
    with pytest.raises(TypeError):
        buf.copy_from_host(np.zeros((4, 4), np.uint8)[:, ::4])  # not contiguous


def test_memset_and_device_copy(dev):
    a = ember.alloc(1000, device=dev)
    a.memset(0xAB)
    assert to_numpy(a, np.uint8).tolist() == [0xAB] * 1000
    b = ember.alloc(1000, device=dev)
    b.copy_from_device(a)
    assert bytes(b.copy_to_host()) == b"\xab" * 1000
    with pytest.raises(ValueError):
        ember.alloc(10, device=dev).copy_from_device(a)
    with pytest.raises(ValueError):
        a.memset(256)


def test_alloc_on_stream(dev):
    s = ember.Stream(device=dev)
    buf = ember.alloc(256, stream=s)
    assert buf.device == dev
    buf.copy_from_host(bytes(range(256)), stream=s)
    assert bytes(buf.copy_to_host(stream=s)) == bytes(range(256))


def test_alloc_errors():
    with pytest.raises(ValueError):
        ember.alloc(-1)
    with pytest.raises(TypeError):
        ember.alloc("10")
    with pytest.raises(TypeError):
        ember.alloc(1.5)
    with pytest.raises(TypeError):
        ember.Buffer()


def test_alloc_zero(dev):
    a = ember.alloc(0, device=dev)
    b = ember.alloc(0, device=dev)
    assert a.nbytes == 0 and a.ptr != 0 and a.ptr != b.ptr
    assert bytes(a.copy_to_host()) == b""


def test_pool_accounting(dev):
    pool = ember.MemoryPool(dev)
    assert pool.device == dev
    gc.collect()
    pool.free_all_blocks()
    used0 = pool.used_bytes()
    assert pool.free_bytes() == 0 and pool.total_bytes() == used0
    n0 = pool.n_allocs()
    buf = ember.alloc(1 << 20, device=dev)        # a size class of its own
    assert pool.used_bytes() == used0 + (1 << 20)
    assert pool.total_bytes() == used0 + (1 << 20)
    assert pool.n_allocs() == n0 + 1
    del buf
    assert pool.used_bytes() == used0
    assert pool.free_bytes() == 1 << 20            # cached for reuse
    assert pool.total_bytes() == used0 + (1 << 20)
    hits = pool.n_hits()
    buf = ember.alloc(1 << 20, device=dev)
    assert pool.n_hits() == hits + 1 and pool.free_bytes() == 0
    del buf
    pool.free_all_blocks()
    assert pool.free_bytes() == 0 and pool.total_bytes() == used0
    st = pool.stats()
    assert st["used_bytes"] == used0 and st["peak_bytes"] >= used0 + (1 << 20)


def test_default_pool_is_current_device(device):
    with ember.Device(device) as d:
        assert ember.get_default_memory_pool().device == d


def test_set_limit_memory_error(dev):
    pool = ember.MemoryPool(dev)
    gc.collect()
    pool.free_all_blocks()
    used = pool.used_bytes()
    try:
        pool.set_limit(size=used + (1 << 20))
        assert pool.get_limit() == used + (1 << 20)
        keep = ember.alloc(1 << 19, device=dev)       # fits
        with pytest.raises(MemoryError) as e:
            ember.alloc(1 << 21, device=dev)
        msg = str(e.value)
        assert str(1 << 21) in msg                     # the request
        assert str(used + (1 << 19)) in msg            # in use
        assert "cached" in msg and "free" in msg
        del keep
    finally:
        pool.set_limit()
    assert pool.get_limit() == 0
    ember.alloc(1 << 21, device=dev)


def test_set_limit_fraction(dev):
    pool = ember.MemoryPool(dev)
    total = dev.mem_info()[1]
    try:
        pool.set_limit(fraction=0.5)
        assert pool.get_limit() == int(total * 0.5)
        with pytest.raises(ValueError):
            pool.set_limit(fraction=1.5)
        with pytest.raises(ValueError):
            pool.set_limit(size=10, fraction=0.1)
        with pytest.raises(ValueError):
            pool.set_limit(size=-1)
    finally:
        pool.set_limit(None)
    assert pool.get_limit() == 0


def test_cpu_buffer_protocol():
    buf = ember.alloc(16, device="cpu")
    view = np.frombuffer(buf, dtype=np.int32)
    view[:] = [1, 2, 3, 4]
    assert_array_equal(to_numpy(buf, np.int32), np.array([1, 2, 3, 4], np.int32))
    assert memoryview(buf).nbytes == 16


def test_cuda_buffer_interfaces(need_cuda):
    buf = ember.alloc(64, device="cuda:0")
    with pytest.raises(BufferError):
        memoryview(buf)
    cai = buf.__cuda_array_interface__
    assert cai["data"][0] == buf.ptr and cai["shape"] == (64,) and cai["typestr"] == "|u1"
    assert not hasattr(ember.alloc(8, device="cpu"), "__cuda_array_interface__")


def test_pinned_memory(dev):
    p = ember.alloc_pinned_memory(4096)
    assert p.nbytes == 4096 and p.ptr != 0 and len(p) == 4096
    a = np.frombuffer(p, dtype=np.float32)
    assert a.shape == (1024,)
    a[:] = np.arange(1024, dtype=np.float32)
    buf = to_device(a, dev)
    b = np.frombuffer(ember.alloc_pinned_memory(4096), dtype=np.float32)
    buf.copy_to_host(b)
    assert_array_equal(b, np.arange(1024, dtype=np.float32))
    with pytest.raises(ValueError):
        ember.alloc_pinned_memory(-5)
