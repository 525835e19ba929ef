"""The runtime objects' cold surface, which Python supplies over the
extension (cuda/stream.py, cuda/memory_objects.py, _api/device_info.py,
_api/devices.py): reprs, Event.wait's stream variants, a Device's
properties, UnownedMemory's checks and foreign memory under a
MemoryPointer, on every device."""
import pytest

import ember
import ember.cuda as cuda


def test_reprs(dev):
    s, e, b = ember.Stream(device=dev), ember.Event(device=dev), ember.alloc(16, dev)
    assert repr(s).startswith("<ember.Stream 0x") and repr(s).endswith(" on %s>" % dev)
    assert repr(ember.Stream.null) == "<ember.Stream null>"
    with dev:
        assert repr(ember.get_current_stream()).endswith(" on %s (default)>" % dev)
    assert repr(e).startswith("<ember.Event 0x") and repr(e).endswith(" on %s>" % dev)
    assert repr(dev) == "<ember.Device %s>" % dev
    assert repr(b) == "<ember.Buffer 16 bytes at %#x on %s>" % (b.ptr, dev)
    u = cuda.UnownedMemory(b.ptr, 16, b, dev)
    assert repr(u) == "<UnownedMemory %#x, 16 bytes on %s>" % (b.ptr, dev)
    assert repr(cuda.MemoryPointer(u, 4)) == "<MemoryPointer %#x on %s>" % (b.ptr + 4, dev)
    p = ember.alloc_pinned_memory(8)
    assert repr(p) == "<ember.PinnedMemory 8 bytes at %#x>" % p.ptr


def test_event_wait_takes_every_stream_spelling(dev):
    s, e = ember.Stream(device=dev), ember.Event(device=dev)
    e.record(s)
    with dev:
        for stream in (None, 0, s, ember.Stream.null):
            e.wait(stream)
        e.wait(stream=s)
        with s:
            e.wait()
    with pytest.raises(TypeError, match="ember.Stream or None, not str"):
        e.wait("x")
    s.synchronize()


def test_record_takes_one_optional_argument(dev):
    s, e = ember.Stream(device=dev), ember.Event(device=dev)
    assert s.record(event=e) is e and s.record(e) is e
    e.record(stream=s)
    e.record(0)
    with pytest.raises(TypeError, match="one optional argument, event"):
        s.record(e, e)
    with pytest.raises(TypeError, match="one optional argument, stream"):
        e.record(s, stream=s)
    with pytest.raises(TypeError, match="one optional argument, stream"):
        e.record(streams=s)


def test_device_properties_and_functions(dev):
    p = dev.properties
    assert isinstance(p["name"], str) and p["name"] == dev.name
    assert (p["major"], p["minor"]) == tuple(dev.compute_capability)
    assert len(p["maxThreadsDim"]) == 3 and len(p["uuid"]) == 16
    assert ember.get_device(dev) == dev == ember.get_device(str(dev))
    assert hash(ember.Device(str(dev))) == hash(dev)
    assert ember.backend_status("cpu") == "ok"
    assert isinstance(ember.cuda.is_available(), bool)
    with pytest.raises(TypeError):
        ember.backend_status(1)


def test_unowned_memory_checks(dev):
    b = ember.alloc(32, dev)
    u = cuda.UnownedMemory(b.ptr, 32, b, -1 if dev == ember.get_current_device() else dev)
    assert (u.ptr, u.size, u.owner, u.device_id) == (b.ptr, 32, b, dev.id)
    with pytest.raises(ValueError, match="size must be >= 0"):
        cuda.UnownedMemory(b.ptr, -1, b)
    with pytest.raises(TypeError, match="UnownedMemory"):
        cuda.UnownedMemory(b.ptr, 1)


def test_memory_pointer_over_foreign_memory(dev):
    b = ember.alloc(32, dev)

    class Foreign:          # CuPy's Memory: .ptr, .size, .device_id
        ptr, size, device_id = b.ptr, 32, dev

    p = cuda.MemoryPointer(Foreign(), 8)
    assert p.ptr == b.ptr + 8 and p.device == dev
    with pytest.raises(ValueError, match="out of range"):
        p + 100

    class Bare:
        ptr = b.ptr

    assert (cuda.MemoryPointer(Bare(), 0) + 1000).ptr == b.ptr + 1000   # size unknown
    with pytest.raises(TypeError, match="needs memory with a .ptr"):
        cuda.MemoryPointer(object(), 0)


def test_buffer_interfaces(dev):
    b = ember.alloc(16, dev)
    assert b.size == b.nbytes == 16
    if dev.type == "cpu":
        assert not hasattr(b, "__cuda_array_interface__")
        assert len(memoryview(b)) == 16
    else:
        cai = b.__cuda_array_interface__
        assert cai["shape"] == (16,) and cai["data"] == (b.ptr, False)
    stats = ember.MemoryPool(dev).stats()
    assert stats["n_allocs"] >= 1 and ember.MemoryPool(dev).n_allocs() == stats["n_allocs"]
