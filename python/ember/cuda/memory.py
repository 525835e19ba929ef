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

CuPy's stream-ordered allocator (MemoryAsyncPool, malloc_async) is what
ember's pool already is: each block is freed on, and reused in order with,
the stream it was used on. So ``MemoryAsyncPool()`` is the same view of the
same pool and ``malloc_async`` its malloc. What ember does not offer:
managed (unified) memory, ``malloc_managed``, and the system memory of
HMM/ATS machines, ``malloc_system``: both raise NotImplementedError saying
so, as does a MemoryPool built over them.
"""
from ember import _ember

__all__ = ["MemoryPool", "MemoryAsyncPool", "set_allocator",
           "get_allocator", "malloc_managed", "malloc_async",
           "malloc_system", "OutOfMemoryError"]

# CuPy's cupy.cuda.memory.OutOfMemoryError: ember raises MemoryError (with
# the requested, in-use, cached and free bytes), so catching this catches it.
OutOfMemoryError = MemoryError


class MemoryPool:
    """cupy.cuda.MemoryPool(allocator=None): the caching pool of whichever
    device is current when a method is called (CuPy's pool is per device
    in the same way)."""

    def __init__(self, allocator=None):
        _not_offered(allocator)
        if allocator is not None and allocator is not malloc_async:
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


class MemoryAsyncPool(MemoryPool):
    """cupy.cuda.MemoryAsyncPool(pool_handles='current'): CuPy's pool over
    the driver's stream-ordered allocator. ember's own pool is already
    stream-ordered (a block freed on a stream is reused in that stream's
    order), so this is the same view of the current device's pool as
    MemoryPool. Only 'current' and 'default' pool handles are taken."""

    def __init__(self, pool_handles="current"):
        if pool_handles not in ("current", "default"):
            raise NotImplementedError(
                "ember.cuda.MemoryAsyncPool(pool_handles=%r): ember allocates "
                "from its own stream-ordered pool; only 'current' or "
                "'default' is accepted" % (pool_handles,))

    def __repr__(self):
        return "<ember.cuda.MemoryAsyncPool of %s>" % _ember.get_current_device()


_MANAGED = ("managed (unified) memory is not offered by ember: its pools "
            "allocate device memory (cuMemAlloc), and host memory on the cpu "
            "device; copy between them with ember.asarray / ember.asnumpy")
_SYSTEM = ("system-allocated memory for CUDA (CuPy's experimental unified "
           "memory programming on HMM/ATS machines) is not offered by ember; "
           "copy between host and device with ember.asarray / ember.asnumpy")


def malloc_managed(size):
    """cupy.cuda.malloc_managed: managed (unified) memory is not offered by
    ember; raises NotImplementedError."""
    raise NotImplementedError(_MANAGED)


def malloc_system(size):
    """cupy.cuda.memory.malloc_system: the system memory of HMM/ATS
    machines (CuPy's experimental unified memory programming) is not
    offered by ember; raises NotImplementedError."""
    raise NotImplementedError(_SYSTEM)


def malloc_async(size):
    """cupy.cuda.malloc_async: a Buffer of size bytes from the current
    device's pool, which is stream-ordered (the block is reused in the
    order of the stream it is used on)."""
    return _ember.MemoryPool().malloc(size)


def _not_offered(f):
    """NotImplementedError when f is one of the allocators ember lacks."""
    if f is malloc_managed:
        raise NotImplementedError(_MANAGED)
    if f is malloc_system:
        raise NotImplementedError(_SYSTEM)


def _is_ember_malloc(f):
    if f is malloc_async:
        return True
    owner = getattr(f, "__self__", None)
    return (isinstance(owner, (MemoryPool, _ember.MemoryPool))
            and getattr(f, "__name__", "") == "malloc")


def set_allocator(allocator=None):
    """Accepts None or an ember pool's malloc (both leave ember allocating
    from its pool); anything else raises NotImplementedError."""
    global _allocator
    _not_offered(allocator)
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

