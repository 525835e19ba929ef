"""cuda.core's Buffer and memory resources over ember's memory: device
memory from the device's caching pool (ember.alloc) and page-locked host
memory (ember.alloc_pinned_memory)."""
import numpy

import ember

from ._stream import _ember_stream

__all__ = ["Buffer", "MemoryResource", "DeviceMemoryResource",
           "LegacyPinnedMemoryResource"]


class MemoryResource:
    """What Buffer asks of its owner: allocate, deallocate and where the
    memory can be read from."""

    def allocate(self, size, stream=None):
        raise NotImplementedError

    def deallocate(self, ptr, size, stream=None):
        pass

    is_device_accessible = True
    is_host_accessible = False
    device_id = -1


class DeviceMemoryResource(MemoryResource):
    """Device memory from ember's stream-ordered pool of one device. On the
    cpu device that memory is host memory, so it is host-accessible too."""

    def __init__(self, device_id=None):
        from ._device import Device
        self._device = device_id if isinstance(device_id, Device) else \
            Device(device_id)

    def allocate(self, size, stream=None):
        mem = ember.alloc(int(size), device=self._device._dev,
                          stream=_ember_stream(stream))
        return Buffer._make(mem, int(size), self)

    @property
    def device_id(self):
        return self._device.device_id

    @property
    def is_host_accessible(self):
        return self._device._dev.type == "cpu"


class LegacyPinnedMemoryResource(MemoryResource):
    """Page-locked host memory (readable by every device)."""

    is_host_accessible = True

    def allocate(self, size, stream=None):
        return Buffer._make(ember.alloc_pinned_memory(int(size)), int(size),
                            self)


class Buffer:
    """size bytes owned by a memory resource: handle (the address), size,
    copy_to/copy_from (stream-ordered), close() and DLPack as a 1-D int8
    array."""

    def __init__(self):
        raise RuntimeError("Buffers come from Device.allocate() or a memory "
                           "resource's allocate()")

    @classmethod
    def _make(cls, mem, size, mr):
        obj = object.__new__(cls)
        obj._mem, obj._size, obj._mr = mem, size, mr
        return obj

    def _live(self):
        if self._mem is None:
            raise RuntimeError("the Buffer was closed")
        return self._mem

    @property
    def handle(self):
        return self._live().ptr if self._mem is not None else 0

    @property
    def size(self):
        return self._size

    @property
    def memory_resource(self):
        return self._mr

    @property
    def is_device_accessible(self):
        return self._mr.is_device_accessible

    @property
    def is_host_accessible(self):
        return self._mr.is_host_accessible

    @property
    def device_id(self):
        return self._mr.device_id

    def close(self, stream=None):
        """Give the memory back now (the pool orders the free on the
        allocation's stream)."""
        self._mem = None

    def _on_device(self):
        return isinstance(self._mem, ember.Buffer)

    def _array(self, dtype=numpy.uint8):
        """The bytes as an ember array (device memory) or a NumPy array
        (page-locked host memory)."""
        mem = self._live()
        n = self._size // numpy.dtype(dtype).itemsize
        if self._on_device():
            return ember.ndarray((n,), dtype,
                                 memptr=ember.cuda.MemoryPointer(mem, 0))
        return numpy.frombuffer(mem, dtype=dtype, count=n)

    def _kernel_arg(self):
        return self._live()

    def copy_to(self, dst=None, *, stream):
        """Copy into dst (a Buffer of at least this size; a new one from
        this buffer's memory resource when None) on stream; returns dst."""
        if stream is None:
            raise ValueError("copy_to(): stream must be given")
        if dst is None:
            dst = self._mr.allocate(self._size, stream)
        _copy(dst, self, stream)
        return dst

    def copy_from(self, src, *, stream):
        if stream is None:
            raise ValueError("copy_from(): stream must be given")
        _copy(self, src, stream)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None,
                   copy=None):
        kw = {} if max_version is None else {"max_version": max_version}
        if dl_device is not None:
            kw["dl_device"] = dl_device
        if copy is not None:
            kw["copy"] = copy
        return self._array(numpy.int8).__dlpack__(stream=stream, **kw)

    def __dlpack_device__(self):
        return self._array(numpy.int8).__dlpack_device__()

    def __repr__(self):
        return "<Buffer %d bytes at %#x>" % (self._size, self.handle)


def _copy(dst, src, stream):
    if src._size > dst._size:
        raise ValueError("copy of a %d-byte buffer into %d bytes"
                         % (src._size, dst._size))
    s = _ember_stream(stream)
    a = src._array()
    b = dst._array()
    if dst._size != src._size:
        b = b[:src._size]
    if isinstance(b, numpy.ndarray) and isinstance(a, numpy.ndarray):
        s.synchronize()          # host to host: after the stream's work
        b[...] = a
    elif isinstance(b, numpy.ndarray):
        a.copy_to_host(b, stream=s)
    else:
        b.copy_to_device(a, stream=s)
