"""nvmath's memory-manager protocol, so programs that define an allocator
run. ember draws every buffer from its own stream-ordered pool
(docs/arrays.md), so an allocator given in MatmulOptions or FFTOptions is
accepted and not called."""
import dataclasses
from typing import Protocol, runtime_checkable

__all__ = ["BaseCUDAMemoryManager", "MemoryPointer"]


@dataclasses.dataclass
class MemoryPointer:
    """A device pointer, its size in bytes and the function that frees it."""
    device_ptr: int
    size: int
    finalizer: object = None

    def free(self):
        if self.finalizer is not None:
            f, self.finalizer = self.finalizer, None
            f()


@runtime_checkable
class BaseCUDAMemoryManager(Protocol):
    def memalloc(self, size):
        """Return a MemoryPointer to size bytes of device memory."""
        ...
