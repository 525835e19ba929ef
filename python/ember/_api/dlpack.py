"""DLPack's Python side: ember.from_dlpack and the arguments of
ndarray.__dlpack__ (read once per exchange). The capsules themselves, the
tensor structs and the stream handshake are the extension's
(python/ember/_ext/array/dlpack.c)."""
import operator

from ember import _ember

__all__ = ["from_dlpack"]

_CPU, _CUDA, _CUDA_HOST, _CUDA_MANAGED = 1, 2, 3, 13


def _pair(o, arg, parts):
    if not isinstance(o, tuple) or len(o) != 2:
        raise TypeError("%s must be a %s tuple or None (got %r)" % (arg, parts, o))
    return int(o[0]), int(o[1])


def _device(kind, ordinal):
    """The ember device of DLPack's (device_type, device_id), or None."""
    if kind in (_CPU, _CUDA_HOST):
        return _ember.Device("cpu")
    if kind in (_CUDA, _CUDA_MANAGED):
        return _ember.Device("cuda:%d" % ordinal)
    return None


def export(a, *, stream=None, max_version=None, dl_device=None, copy=None):
    """__dlpack__(*, stream=None, max_version=None, dl_device=None,
    copy=None): a DLPack capsule over this array's memory
    ('dltensor_versioned' when max_version >= (1, 0), else 'dltensor')."""
    versioned = max_version is not None and _pair(
        max_version, "max_version", "(major, minor)")[0] >= 1
    target = None
    if dl_device is not None:
        kind, ordinal = _pair(dl_device, "dl_device", "(device_type, device_id)")
        target = _device(kind, ordinal)
        if target is None:
            raise BufferError("ember cannot export to DLPack device type %d" % kind)
    if copy is not None:
        copy = bool(copy)
    if target == a.device:
        target = None
    if not versioned and not a.flags.writeable and copy is not True:
        # As NumPy: the unversioned form cannot say "read-only", and a
        # consumer writing through it would be a silent wrong answer.
        raise BufferError("cannot export a read-only array through the "
                          "unversioned DLPack capsule; the consumer needs "
                          "DLPack 1.0 (max_version=(1, 0)), or pass copy=True")
    whole = all(s % a.itemsize == 0 for s in a.strides)
    if copy is False and target is not None:
        raise BufferError("the array is on %s; exporting it to another device "
                          "needs a copy, and copy=False" % a.device)
    if copy is False and not whole:
        raise BufferError("the array's strides are not whole elements, which "
                          "DLPack cannot describe, and copy=False")
    copied = copy is True or target is not None or not whole
    if copied:
        # a fresh C-ordered copy on the asked device, ordered on its stream
        # like any other ember copy
        a = _ember.asarray(a, order="C", device=target, copy=True)
    return _ember._dlpack_export(a, _sync(a, stream), versioned, copied)


def _sync(a, stream):
    """The consumer's stream= as _dlpack_export waits for it: a CUDA stream
    handle (1: the legacy default stream; on cpu: wait for the device), or
    None when the consumer orders the work itself (-1)."""
    if a.device.type == "cpu":
        if stream is not None and not (isinstance(stream, int) and stream == -1):
            raise ValueError("stream must be None for an array on cpu (got %r)"
                             % (stream,))
        return None if stream == -1 else 1
    if stream is None:
        return 1   # the legacy default stream, as the standard says
    if not isinstance(stream, int):
        raise TypeError("stream must be an int or None (got %s)"
                        % type(stream).__name__)
    if stream == 0:
        raise ValueError("stream 0 is ambiguous for CUDA and not allowed by "
                         "DLPack; pass 1 for the legacy default stream, 2 for "
                         "the per-thread one")
    return None if stream == -1 else stream


def capsule(x):
    """(x.__dlpack__(stream=..., max_version=(1, 0)), the ember device of
    its memory) for the extension's import, which wraps the capsule. The
    stream is ember's current one on that device; a producer that rejects
    max_version is asked with the pre-1.0 signature."""
    d = x.__dlpack_device__()
    if not isinstance(d, tuple) or len(d) != 2:
        raise TypeError("__dlpack_device__() must return (type, id)")
    kind, ordinal = operator.index(d[0]), operator.index(d[1])
    dev = _device(kind, ordinal)
    if dev is None:
        raise BufferError("ember cannot use memory of DLPack device type %d "
                          "(cpu 1, cuda 2, cuda_host 3, cuda_managed 13 are "
                          "supported)" % kind)
    stream = _ember._dlpack_stream(dev) if dev.type != "cpu" else None
    try:
        return x.__dlpack__(stream=stream, max_version=(1, 0)), dev
    except TypeError:
        return x.__dlpack__(stream=stream), dev


def from_dlpack(x, /, *, device=None, copy=None):
    """from_dlpack(x, /, *, device=None, copy=None): an ember array over the
    memory of any object with __dlpack__ (NumPy, CuPy, PyTorch, JAX),
    without a copy unless device= or copy=True asks for one."""
    if device is not None:
        device = _ember.Device(device)
    if copy is not None:
        copy = bool(copy)
    if not hasattr(x, "__dlpack__"):
        raise TypeError("from_dlpack needs an object with __dlpack__ and "
                        "__dlpack_device__ (got %s)" % type(x).__name__)
    w = _ember._dlpack_import(x)
    # kernels need aligned elements: an unaligned tensor is copied unless
    # the caller forbids it (then it stays usable for copies)
    if copy is None and not w.flags.aligned:
        copy = True
    return _ember.asarray(w, device=device, copy=copy)
