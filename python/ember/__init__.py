"""ember: the GPU computing stack for Python, with a C core.

Every program also runs on the CPU: the device ``cpu`` compiles the same
kernels with the system C compiler. This module only re-exports the C
extension; importing it starts no device and imports no NumPy.
"""
from ember._ember import (
    __version__,
    # devices
    Device, ComputeCapability, default_device, get_current_device, get_device,
    backend_status,
    # streams and events
    Stream, Event, get_current_stream, get_elapsed_time,
    # memory
    Buffer, MemoryPool, PinnedMemory, alloc, alloc_pinned_memory,
    get_default_memory_pool,
    # compilation and kernels
    Program, ObjectCode, RawModule, RawKernel, Function, In, Out, InOut,
    # errors
    CUDAError, CompileError, BackendUnavailableError,
    info,
    # arrays
    ndarray, dtype, ufunc, flagsobj, AxisError, asnumpy, result_type,
    promote_types, can_cast, empty, zeros, ones, full, empty_like, zeros_like,
    ones_like, full_like, arange, asarray, array, ascontiguousarray, copy,
)
from ember import _ember
from ember import cuda

# The dtypes (ember.float32, ..., and ember.bool as in NumPy 2) and ufuncs
# (ember.add, ember.sqrt, ...) under their NumPy names and NumPy 2's
# aliases, as the extension made them. Nothing below may call the builtin
# bool or abs, which these shadow in this module.
_array_names = sorted(
    name for name, obj in vars(_ember).items()
    if not name.startswith("_") and isinstance(obj, (dtype, ufunc)))
globals().update({name: getattr(_ember, name) for name in _array_names})

newaxis = None
inf = float("inf")
nan = float("nan")
pi = 3.141592653589793
e = 2.718281828459045
__array_api_version__ = "2024.12"

__all__ = [
    "__version__", "Device", "ComputeCapability", "default_device",
    "get_current_device", "get_device", "backend_status", "Stream", "Event",
    "get_current_stream", "get_elapsed_time", "Buffer", "MemoryPool",
    "PinnedMemory", "alloc", "alloc_pinned_memory", "get_default_memory_pool",
    "Program", "ObjectCode", "RawModule", "RawKernel", "Function", "In", "Out",
    "InOut", "CUDAError", "CompileError", "BackendUnavailableError", "info",
    "cuda", "ndarray", "dtype", "ufunc", "flagsobj", "AxisError", "asnumpy",
    "result_type", "promote_types", "can_cast", "empty", "zeros", "ones", "full",
    "empty_like", "zeros_like", "ones_like", "full_like", "arange", "asarray",
    "array", "ascontiguousarray", "copy", "newaxis", "inf", "nan", "pi", "e",
] + _array_names
