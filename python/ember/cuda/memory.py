"""CuPy's memory spellings (cupy.cuda.memory): MemoryPool, set_allocator,
get_allocator, over ember's one caching pool per device.

ember allocates every array and buffer from its device's pool in C
(src/runtime/pool.c); there is no hook for another allocator on that path,
and a per-call Python allocator would put a Python frame on the hot path
(DESIGN.md). So:
  - ``MemoryPool()`` is a view of the current device's ember pool: every
    instance answers for the same pool, as every ember.MemoryPool does;
  - ``set_allocator(None)`` and ``set_allocator(pool.malloc)`` of any ember
    pool are accepted and change nothing: arrays keep coming from the pool;
  - any other allocator raises NotImplementedError, never silently ignored.
"""
from ember import _ember

__all__ = ["MemoryPool", "set_allocator", "get_allocator",
           "OutOfMemoryError"]

# CuPy's cupy.cuda.memory.OutOfMemoryError: ember raises MemoryError (with
# the requested, in-use, cached and free bytes), so catching this catches it.
OutOfMemoryError = MemoryError


class MemoryPool:
    """cupy.cuda.MemoryPool(allocator=None): the caching pool of whichever
    device is current when a method is called (CuPy's pool is per device
    in the same way)."""

    def __init__(self, allocator=None):
        if allocator is not None:
            raise NotImplementedError(
                "ember.cuda.MemoryPool(allocator=%r): ember's pools take "
                "memory from the device themselves; pass no allocator"
                % (allocator,))

    @staticmethod
    def _pool():
        return _ember.MemoryPool()

    def malloc(self, size):
        """A Buffer of size bytes on the current device (.ptr, .size)."""
        return self._pool().malloc(size)

    def used_bytes(self):
        return self._pool().used_bytes()

    def free_bytes(self):
        return self._pool().free_bytes()

    def total_bytes(self):
        return self._pool().total_bytes()

    def n_free_blocks(self):
        return self._pool().n_free_blocks()

    def free_all_blocks(self, stream=None):
        # ember's pool releases the cached blocks of every stream at once;
        # releasing more cached memory than asked never changes a result.
        self._pool().free_all_blocks()

    def set_limit(self, size=None, fraction=None):
        self._pool().set_limit(size=size, fraction=fraction)

    def get_limit(self):
        return self._pool().get_limit()

    def __repr__(self):
        return "<ember.cuda.MemoryPool of %s>" % _ember.get_current_device()


_allocator = None


def _is_ember_malloc(f):
    owner = getattr(f, "__self__", None)
    return (isinstance(owner, (MemoryPool, _ember.MemoryPool))
            and getattr(f, "__name__", "") == "malloc")


def set_allocator(allocator=None):
    """Accepts None or an ember pool's malloc (both leave ember allocating
    from its pool); anything else raises NotImplementedError."""
    global _allocator
    if allocator is not None and not _is_ember_malloc(allocator):
        raise NotImplementedError(
            "ember.cuda.set_allocator(%r): ember's arrays always come from its "
            "own caching pool; only None or an ember MemoryPool's malloc is "
            "accepted" % (allocator,))
    _allocator = allocator


def get_allocator():
    """What set_allocator was given last (the default pool's malloc at
    first)."""
    return _allocator if _allocator is not None else _default_malloc


def _default_malloc(size):
    return _ember.MemoryPool().malloc(size)


_default_malloc.__name__ = "malloc"

