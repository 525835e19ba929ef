"""The copy methods of ember.Buffer and ember.cuda.MemoryPointer (CuPy's
copy_from_host, copy_to_host, copy_from_device, memset and their _async
forms). They are argument checks over two calls of the extension,
_copy_bytes and _set_bytes, which copy on the device's stream and wait
as asked (python/ember/_ext/runtime/memory.c)."""
import operator

from ember import _ember

_NOWAIT, _STREAM, _DEVICE = 0, 1, 2    # what _copy_bytes waits for after
_MISSING = object()
_UNKNOWN = 2 ** 64 - 1    # MemoryPointer._size of memory of unknown size


# ---- Buffer: whole-buffer copies ---------------------------------------------

def _whole(b, obj, fname, to_host):
    try:
        m = memoryview(obj)
    except TypeError:
        m = None
    if m is None or not m.contiguous or (to_host and m.readonly):
        raise TypeError("%s() needs a %scontiguous object with the buffer protocol, not "
                        "%s" % (fname, "writable " if to_host else "", type(obj).__name__))
    if m.nbytes != b.nbytes:
        raise ValueError("%s(): the %s has %d bytes but the buffer has %d"
                         % (fname, "destination" if to_host else "source", m.nbytes,
                            b.nbytes))


def buffer_copy_from_host(b, src=_MISSING, stream=None):
    """copy_from_host(src, stream=None): copy all bytes of a host object with
    the buffer protocol (its size must equal nbytes); returns when done."""
    if src is _MISSING:
        raise TypeError("copy_from_host() missing the source object")
    _whole(b, src, "copy_from_host", False)
    _ember._copy_bytes(b.device, b.ptr, src, b.nbytes, stream, _STREAM)


def buffer_copy_to_host(b, out=None, stream=None):
    """copy_to_host(out=None, stream=None): fill a writable host buffer of
    nbytes (or a new bytearray) and return it; returns when done."""
    if out is None:
        out = bytearray(b.nbytes)
    _whole(b, out, "copy_to_host", True)
    _ember._copy_bytes(b.device, out, b.ptr, b.nbytes, stream, _STREAM)
    return out


def buffer_copy_from_device(b, src=_MISSING, stream=None):
    """copy_from_device(src, stream=None): copy another Buffer of the same
    size."""
    if not isinstance(src, _ember.Buffer):
        raise TypeError("copy_from_device() needs an ember.Buffer, not %s"
                        % ("nothing" if src is _MISSING else type(src).__name__))
    if src.nbytes != b.nbytes:
        raise ValueError("copy_from_device(): the source has %d bytes but the buffer "
                         "has %d" % (src.nbytes, b.nbytes))
    # memory of cpu is host memory to a CUDA device, not the reverse: the
    # copy runs on the CUDA side when there is one
    d = b.device if b.device.type == "cuda" else src.device
    _ember._copy_bytes(d, b.ptr, src.ptr, b.nbytes, stream, _STREAM)


def buffer_memset(b, value, stream=None):
    """memset(value, stream=None): set every byte, ordered on the stream."""
    value = operator.index(value)
    if not -128 <= value <= 255:
        raise ValueError("memset() value must be a byte (0..255), got %d" % value)
    _ember._set_bytes(b.device, b.ptr, value & 0xff, b.nbytes, stream, _NOWAIT)


# ---- MemoryPointer: size bytes at the pointer --------------------------------

def _room(p, size, what):
    """size, checked to lie in p's memory (when its size is known)."""
    n = operator.index(size)
    if n < 0:
        raise ValueError("%s: size must be >= 0, not %d" % (what, n))
    offset, total = p.ptr - p._base, p._size
    if total != _UNKNOWN and offset + n > total:
        raise ValueError("%s: %d bytes at offset %d pass the end of the memory's %d "
                         "bytes" % (what, n, offset, total))
    return n


def _from_device(p, src, size, stream, wait):
    n = _room(p, size, "copy_from_device")
    if not isinstance(src, _ember.MemoryPointer):
        raise TypeError("the source must be an ember.cuda.MemoryPointer, not %s"
                        % type(src).__name__)
    _room(src, n, "source")
    if src.device != p.device:
        raise ValueError("copy_from_device: the source is on %s and this memory on %s "
                         "(ember copies between devices through the host: "
                         "ember.asarray(x, device=...))" % (src.device, p.device))
    _ember._copy_bytes(p.device, p.ptr, src.ptr, n, stream, wait)


def _host(p, mem, size, stream, wait, to_host):
    """mem: an int address, a ctypes pointer (.value) or a C-contiguous
    buffer (writable to copy into) of at least size bytes."""
    n = _room(p, size, "copy_to_host" if to_host else "copy_from_host")
    try:
        with memoryview(mem) as m:
            if not m.c_contiguous:
                raise BufferError("the host buffer is not C-contiguous")
    except TypeError:
        if not isinstance(mem, int) and hasattr(mem, "value"):
            mem = mem.value or 0
    if to_host:
        _ember._copy_bytes(p.device, mem, p.ptr, n, stream, wait)
    else:
        _ember._copy_bytes(p.device, p.ptr, mem, n, stream, wait)


def memptr_copy_from_device(p, src, size, stream=None):
    """copy_from_device(src, size): size bytes from the MemoryPointer src
    (same device), waiting for the copy."""
    _from_device(p, src, size, None, _DEVICE)


def memptr_copy_from_device_async(p, src, size, stream=None):
    """copy_from_device_async(src, size, stream=None): ordered on the
    stream."""
    _from_device(p, src, size, stream, _NOWAIT)


def memptr_copy_from_host(p, mem, size, stream=None):
    """copy_from_host(mem, size): size bytes from a host address (an int, a
    ctypes pointer or a buffer such as a NumPy array)."""
    _host(p, mem, size, None, _DEVICE, False)


def memptr_copy_from_host_async(p, mem, size, stream=None):
    _host(p, mem, size, stream, _NOWAIT, False)


def memptr_copy_to_host(p, mem, size, stream=None):
    """copy_to_host(mem, size): size bytes to a host address or writable
    buffer."""
    _host(p, mem, size, None, _DEVICE, True)


def memptr_copy_to_host_async(p, mem, size, stream=None):
    _host(p, mem, size, stream, _NOWAIT, True)


def memptr_memset(p, value, size, stream=None):
    """memset(value, size): size bytes set to value."""
    _ember._set_bytes(p.device, p.ptr, operator.index(value), _room(p, size, "memset"),
                      None, _DEVICE)


def memptr_memset_async(p, value, size, stream=None):
    _ember._set_bytes(p.device, p.ptr, operator.index(value), _room(p, size, "memset"),
                      stream, _NOWAIT)
