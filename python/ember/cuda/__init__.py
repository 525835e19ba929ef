"""ember.cuda: the CUDA-flavoured spellings (cuda.core, CuPy's cupy.cuda,
PyCUDA) of ember's runtime API. Everything here also works on the cpu device
except Program, which needs NVRTC (but no GPU)."""
import sys as _sys

from ember._ember import (
    runtime, Program, ObjectCode, RawModule, RawKernel, Function,
    Device, Stream, Event, get_current_stream, get_elapsed_time,
    Buffer, MemoryPool, PinnedMemory, alloc, alloc_pinned_memory,
    get_default_memory_pool, In, Out, InOut,
    CUDAError, CompileError, BackendUnavailableError,
    cuda_is_available as is_available,
)

# `import ember.cuda.runtime` and `from ember.cuda import runtime` both work.
_sys.modules[__name__ + ".runtime"] = runtime

__all__ = [
    "runtime", "Program", "ObjectCode", "RawModule", "RawKernel", "Function",
    "Device", "Stream", "Event", "get_current_stream", "get_elapsed_time",
    "Buffer", "MemoryPool", "PinnedMemory", "alloc", "alloc_pinned_memory",
    "get_default_memory_pool", "In", "Out", "InOut", "CUDAError",
    "CompileError", "BackendUnavailableError", "is_available",
]
