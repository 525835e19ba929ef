"""ember.cuda: the CUDA-flavoured spellings (cuda.core, CuPy's cupy.cuda,
PyCUDA) of ember's runtime API. Everything here also works on the cpu device
except Program, which needs NVRTC (but no GPU)."""

from ember._ember import (
    RawKernel, Function,
    Device, Stream, Event, get_current_stream,
    Buffer, PinnedMemory, alloc, alloc_pinned_memory,
    CUDAError, CompileError, BackendUnavailableError,
)

# CuPy's pointers into device memory: a.data, ember.ndarray(memptr=...).
from ember._ember import MemoryPointer, UnownedMemory  # noqa: E402


# Numba-CUDA's data movement. Its arrays are DeviceNDArrays: a[0] is a
# NumPy scalar, as in Numba (python/ember/cuda/devicearray.py).
from .devicearray import (  # noqa: E402
    DeviceNDArray, to_device, device_array, device_array_like, pinned_array,
    mapped_array, is_cuda_ndarray)
# Numba's cuda.stream() and CuPy's cupy.cuda.stream module in one object,
# with Numba's events (python/ember/cuda/stream.py).
from . import stream  # noqa: E402
from .stream import (default_stream, event, event_elapsed_time,  # noqa: E402
                     ExternalStream)
# Numba's context is the current device here (synchronize(), mem_info()).
from ember._ember import get_current_device  # noqa: E402
current_context = get_current_device


def synchronize():
    """Numba's cuda.synchronize(): wait for all work on the current
    device."""
    get_current_device().synchronize()


# Imported on first use, so `import ember` does not pay for them: Python
# kernels (Numba-CUDA's decorator and its types, dispatcher.py),
# cupy.cuda.runtime's spellings (runtime.py), Numba's xoroshiro128p
# generators (random.py), cuda.compute's algorithms (compute/),
# cuda.declare_device (ffi.py), and Program, ObjectCode,
# RawModule, In/Out/InOut, the pool's and events' functions and is_available
# (ember/_api/program.py, rawmodule.py, wrappers.py, memorypool.py, devices.py).
_DISPATCHER = ("jit", "Dispatcher", "LaunchConfig", "DeviceFunction")


def __getattr__(name):
    if name in _DISPATCHER:
        from . import dispatcher
        return getattr(dispatcher, name)
    if name in ("runtime", "random", "nccl", "compute", "cufft", "texture"):
        import importlib
        return importlib.import_module(__name__ + "." + name)
    if name in ("CUDAGraph", "graph", "graphs"):   # graphs.py
        import importlib
        graphs = importlib.import_module(__name__ + ".graphs")
        return graphs if name == "graphs" else getattr(graphs, name)
    if name == "declare_device":   # foreign CUDA C++ device functions
        from .ffi import declare_device
        return declare_device
    if name in ("Program", "ObjectCode", "RawModule", "In", "Out", "InOut",
                "get_default_memory_pool", "get_elapsed_time"):
        from ember import _api
        return _api.load(name)
    if name == "is_available":
        from ember._api.devices import cuda_is_available
        return cuda_is_available
    raise AttributeError(f"module 'ember.cuda' has no attribute {name!r}")


def reduce(func):
    """numba.cuda.reduce: ember.reduce, imported on first use."""
    from ember._api.ufunc_reduce import reduce as make
    return make(func)

# CuPy's pools and allocator hooks (memory.py, pinned_memory.py say what
# ember does with them).
from . import memory, pinned_memory  # noqa: E402
from .memory import (MemoryPool, MemoryAsyncPool, set_allocator,  # noqa: E402
                     get_allocator, malloc_managed, malloc_async)
from .pinned_memory import (  # noqa: E402
    PinnedMemoryPool, PinnedMemoryPointer, set_pinned_memory_allocator)

__all__ = [
    "MemoryPointer", "UnownedMemory",
    "runtime", "Program", "ObjectCode", "RawModule", "RawKernel", "Function",
    "Device", "Stream", "Event", "get_current_stream", "get_elapsed_time",
    "Buffer", "MemoryPool", "PinnedMemory", "alloc", "alloc_pinned_memory",
    "get_default_memory_pool", "In", "Out", "InOut", "CUDAError",
    "CompileError", "BackendUnavailableError", "is_available",
    "jit", "Dispatcher", "LaunchConfig", "DeviceFunction",
    "to_device", "device_array", "device_array_like", "pinned_array",
    "mapped_array", "DeviceNDArray", "is_cuda_ndarray",
    "stream", "default_stream", "event", "event_elapsed_time", "synchronize",
    "current_context", "get_current_device", "reduce",
    "set_allocator", "get_allocator", "PinnedMemoryPool", "MemoryAsyncPool",
    "malloc_managed", "malloc_async", "cufft", "texture",
    "PinnedMemoryPointer", "set_pinned_memory_allocator",
    "CUDAGraph", "graph",
]

# Numba's type objects, for signatures (python/ember/cuda/types.py).
from . import types  # noqa: E402
from .types import (  # noqa: E402,F401
    void, boolean, int8, int16, int32, int64, uint8, uint16, uint32, uint64, intp,
    uintp, float16, float32, float64, complex64, complex128, CPointer)
from . import config  # noqa: E402  (Numba's settings ember reads)
from . import cg  # noqa: E402  (cooperative groups: cg.this_grid().sync())
