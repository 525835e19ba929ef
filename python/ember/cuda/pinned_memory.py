"""CuPy's pinned-memory spellings (cupy.cuda.pinned_memory): a caching pool
of page-locked host blocks, over ember.alloc_pinned_memory.

ember's C runtime does not cache page-locked memory (em_host_alloc), and
page-locking is slow, so this pool keeps freed blocks by size, as CuPy's
does. A block goes back to the pool when its PinnedMemoryPointer is
collected; NumPy arrays made from a pointer (numpy.asarray(p)) hold the
pointer, so a block is never reused under a live array.

set_pinned_memory_allocator(None) turns the cache off (every malloc
page-locks anew), as CuPy's does; a pool's malloc turns it on; other
allocators raise NotImplementedError.
"""
import threading

from ember import _ember

__all__ = ["PinnedMemoryPool", "PinnedMemoryPointer",
           "set_pinned_memory_allocator", "alloc_pinned_memory"]


class PinnedMemoryPointer:
    """size bytes of page-locked host memory: .ptr, .size, .mem (the
    ember.PinnedMemory, with the buffer protocol) and the NumPy array
    interface (uint8), so numpy.asarray(p).view(dtype) sees it."""

    def __init__(self, mem, size, pool=None):
        self.mem = mem
        self.size = size
        self.ptr = mem.ptr
        self._pool = pool

    @property
    def __array_interface__(self):
        return {"shape": (self.size,), "typestr": "|u1", "version": 3,
                "data": (self.ptr, False)}

    def __int__(self):
        return self.ptr

    def __len__(self):
        return self.size

    def __del__(self):
        pool, self._pool = self._pool, None
        if pool is not None:
            pool._give_back(self.mem)

    def __repr__(self):
        return "<PinnedMemoryPointer %d bytes at %#x>" % (self.size, self.ptr)


class PinnedMemoryPool:
    """cupy.cuda.PinnedMemoryPool(): page-locked blocks kept for reuse by
    their byte size."""

    def __init__(self, allocator=None):
        if allocator is not None:
            raise NotImplementedError(
                "ember.cuda.PinnedMemoryPool(allocator=%r): the pool takes "
                "page-locked memory from ember itself; pass no allocator"
                % (allocator,))
        # reentrant: a collection inside a locked section may run a
        # pointer's __del__, which gives its block back under the lock
        self._lock = threading.RLock()
        self._free = {}          # size -> [PinnedMemory]
        self._in_use = 0

    def malloc(self, size):
        size = int(size)
        if size < 0:
            raise ValueError("malloc: size must be >= 0, got %d" % size)
        with self._lock:
            blocks = self._free.get(size)
            mem = blocks.pop() if blocks else None
            self._in_use += size
        if mem is None:
            try:
                mem = _ember.alloc_pinned_memory(size)
            except BaseException:
                with self._lock:
                    self._in_use -= size
                raise
        return PinnedMemoryPointer(mem, size, self)

    def _give_back(self, mem):
        with self._lock:
            self._in_use -= mem.nbytes
            self._free.setdefault(mem.nbytes, []).append(mem)

    def free_all_blocks(self):
        """Release every cached block (blocks in use stay)."""
        with self._lock:
            self._free.clear()

    def n_free_blocks(self):
        with self._lock:
            return sum(len(v) for v in self._free.values())

    def used_bytes(self):
        with self._lock:
            return self._in_use

    def free_bytes(self):
        with self._lock:
            return sum(k * len(v) for k, v in self._free.items())

    def total_bytes(self):
        return self.used_bytes() + self.free_bytes()


_default_pool = PinnedMemoryPool()
_use_pool = True


def get_default_pinned_memory_pool():
    return _default_pool


def set_pinned_memory_allocator(allocator=None):
    """None: no cache (each allocation page-locks anew); a PinnedMemoryPool's
    malloc: the cache. Anything else raises NotImplementedError."""
    global _use_pool, _default_pool
    if allocator is None:
        _use_pool = False
        return
    owner = getattr(allocator, "__self__", None)
    if isinstance(owner, PinnedMemoryPool) and allocator.__name__ == "malloc":
        _default_pool, _use_pool = owner, True
        return
    raise NotImplementedError(
        "ember.cuda.set_pinned_memory_allocator(%r): only None or a "
        "PinnedMemoryPool's malloc is accepted" % (allocator,))


def alloc_pinned_memory(size):
    """size bytes of page-locked memory from the current pinned allocator."""
    if _use_pool:
        return _default_pool.malloc(size)
    return PinnedMemoryPointer(_ember.alloc_pinned_memory(int(size)), int(size))
