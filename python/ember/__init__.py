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
)
from ember import cuda

__all__ = [
    "__version__", "Device", "ComputeCapability", "default_device",
    "get_current_device", "get_device", "backend_status", "Stream", "Event",
    "get_current_stream", "get_elapsed_time", "Buffer", "MemoryPool",
    "PinnedMemory", "alloc", "alloc_pinned_memory", "get_default_memory_pool",
    "Program", "ObjectCode", "RawModule", "RawKernel", "Function", "In", "Out",
    "InOut", "CUDAError", "CompileError", "BackendUnavailableError", "info",
    "cuda",
]
