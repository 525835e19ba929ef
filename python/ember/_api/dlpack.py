"""DLPack's Python side: ember.from_dlpack and the arguments of
ndarray.__dlpack__ (read once per exchange). The capsules themselves, the
tensor structs and the stream handshake are the extension's
(python/ember/_ext/array/dlpack.c)."""
from ember import _ember

__all__ = ["from_dlpack"]

_CPU, _CUDA, _CUDA_HOST, _CUDA_MANAGED = 1, 2, 3, 13


def _pair(o, arg, parts):
    if not isinstance(o, tuple) or len(o) != 2:
        raise TypeError("%s must be a %s tuple or None (got %r)" % (arg, parts, o))
    return int(o[0]), int(o[1])


def export(a, *, stream=None, max_version=None, dl_device=None, copy=None):
    """__dlpack__(*, stream=None, max_version=None, dl_device=None,
    copy=None): a DLPack capsule over this array's memory
    ('dltensor_versioned' when max_version >= (1, 0), else 'dltensor')."""
    versioned = max_version is not None and _pair(
        max_version, "max_version", "(major, minor)")[0] >= 1
    target = None
    if dl_device is not None:
        kind, ordinal = _pair(dl_device, "dl_device", "(device_type, device_id)")
        if kind in (_CPU, _CUDA_HOST):
            target = _ember.Device("cpu")
        elif kind in (_CUDA, _CUDA_MANAGED):
            target = _ember.Device("cuda:%d" % ordinal)
        else:
            raise BufferError("ember cannot export to DLPack device type %d" % kind)
    return _ember._dlpack_export(a, stream, versioned, target, copy)


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
