"""The cold surface of ember's memory objects (runtime/memory.c,
runtime/memptr.c): their reprs, a Buffer's __cuda_array_interface__,
device_id, UnownedMemory's arguments, and what MemoryPointer reads from
memory ember did not make."""
import operator


def buffer_repr(b):
    return "<ember.Buffer %d bytes at %#x on %s>" % (b.nbytes, b.ptr, b.device)


def pinned_repr(p):
    return "<ember.PinnedMemory %d bytes at %#x>" % (p.nbytes, p.ptr)


def unowned_repr(u):
    return "<UnownedMemory %#x, %d bytes on %s>" % (u.ptr, u.size, u.device)


def memptr_repr(p):
    return "<MemoryPointer %#x on %s>" % (p.ptr, p.device)


def device_id(m):
    """UnownedMemory.device_id and MemoryPointer.device_id."""
    return m.device.id


def buffer_cai(b):
    """A CUDA Buffer as a 1-D uint8 array, so CuPy, PyTorch and Numba wrap
    it without a copy; a cpu Buffer has none (it has the buffer protocol)."""
    if b.device.type != "cuda":
        raise AttributeError("a cpu Buffer has no __cuda_array_interface__ (it has "
                             "the buffer protocol)")
    return {"shape": (b.nbytes,), "typestr": "|u1", "data": (b.ptr, False),
            "strides": None, "version": 3}


def foreign_facts(mem):
    """(start, size or -1, device) of a foreign allocation such as CuPy's
    Memory (.ptr, .size, .device_id) for MemoryPointer(mem, offset)."""
    try:
        ptr = mem.ptr
    except Exception:
        raise TypeError("MemoryPointer needs memory with a .ptr (UnownedMemory, "
                        "Buffer), not %s" % type(mem).__name__) from None
    size = getattr(mem, "size", None)
    return ptr, -1 if size is None else operator.index(size), getattr(mem, "device_id",
                                                                      None)


def unowned_args(cls, ptr, size, owner, device_id=None):
    """UnownedMemory(ptr, size, owner, device_id=None)'s arguments as it
    keeps them; device_id as ember.Device(spec) reads it, but CuPy's -1 is
    the current device, as None is."""
    size = operator.index(size)
    if size < 0:
        raise ValueError("UnownedMemory size must be >= 0, not %d" % size)
    if isinstance(device_id, int) and device_id == -1:
        device_id = None
    return operator.index(ptr), size, owner, device_id


unowned_args.__qualname__ = "UnownedMemory"    # in its TypeErrors
