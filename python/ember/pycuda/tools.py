"""PyCUDA's ``pycuda.tools``: per-device memoization, the device and
page-locked memory pools, the default context and the dtype -> C type
names that PyCUDA programs build kernel source from.

The pools are ember's own: DeviceMemoryPool allocates from the current
device's caching pool (src/runtime/pool.c), so there is one device cache
however many PyCUDA pools a program makes; each PageLockedMemoryPool is
one of ember.cuda's PinnedMemoryPools, holding its own page-locked blocks
as PyCUDA's pools do."""
import functools
import weakref

import numpy

import ember
from ember._api.vectorize import CTYPES as _CTYPES

from . import driver
from ._vec import VEC_CTYPES as _VEC_CTYPES

__all__ = ["context_dependent_memoize", "clear_context_caches",
           "DeviceMemoryPool", "PageLockedMemoryPool", "make_default_context",
           "get_default_device", "dtype_to_ctype"]

# ---- memoization per device ------------------------------------------------

_caches = []      # every context_dependent_memoize cache, for clearing


def context_dependent_memoize(func):
    """Cache func's result per (current device, arguments): PyCUDA keys on
    the context, and ember has one context per device, so a kernel built
    on one device is never handed to a launch on another."""
    cache = {}
    _caches.append(cache)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        key = (ember.get_current_device(), args,
               tuple(sorted(kwargs.items())))
        try:
            return cache[key]
        except KeyError:
            r = cache[key] = func(*args, **kwargs)
            return r
        except TypeError:
            raise TypeError("%s: context_dependent_memoize needs hashable "
                            "arguments" % func.__name__) from None
    wrapper.clear_cache = cache.clear
    return wrapper


def clear_context_caches():
    """Forget every context_dependent_memoize result."""
    for c in _caches:
        c.clear()


# ---- memory pools ------------------------------------------------------------

class PooledDeviceAllocation(driver.DeviceAllocation):
    """A DeviceMemoryPool block: a DeviceAllocation that its pool counts
    as active until it is freed or collected."""

    def __init__(self, buf, pool):
        super().__init__(buf)
        pool._active.add(self)

    def release(self):
        self.free()


class DeviceMemoryPool:
    """PyCUDA's DeviceMemoryPool over ember's caching pool of the current
    device: allocate(nbytes) returns a DeviceAllocation whose memory goes
    back to ember's pool when freed. held_blocks and free_held() are that
    pool's cached blocks."""

    def __init__(self, allocator=None):
        if allocator is not None:
            raise NotImplementedError(
                "DeviceMemoryPool(allocator=%r): ember's pool takes memory "
                "from the device itself; pass no allocator" % (allocator,))
        self._active = weakref.WeakSet()

    def allocate(self, nbytes):
        n = int(nbytes)
        if n < 0:
            raise ValueError("allocate: nbytes must be >= 0, got %d" % n)
        return PooledDeviceAllocation(ember.alloc(n), self)

    __call__ = allocate

    @property
    def active_blocks(self):
        return sum(1 for a in list(self._active) if a._buf is not None)

    @property
    def active_bytes(self):
        return sum(a.size for a in list(self._active) if a._buf is not None)

    @property
    def held_blocks(self):
        return ember.MemoryPool().n_free_blocks()

    @property
    def managed_bytes(self):
        return ember.MemoryPool().total_bytes()

    def free_held(self):
        ember.MemoryPool().free_all_blocks()

    def stop_holding(self):
        """Release the cached blocks. ember's pool goes on caching what is
        freed later (it is shared by every array); that never changes a
        result, only when memory returns to the driver."""
        self.free_held()


class PageLockedMemoryPool:
    """PyCUDA's PageLockedMemoryPool over ember.cuda's pinned-memory pool:
    allocate(shape, dtype, order='C') returns a NumPy array in
    page-locked memory; its block is reused once the array is collected."""

    def __init__(self, allocator=None):
        if allocator is not None:
            raise NotImplementedError(
                "PageLockedMemoryPool(allocator=%r): the pool takes "
                "page-locked memory from ember itself; pass no allocator"
                % (allocator,))
        self._pool = ember.cuda.PinnedMemoryPool()
        self._active = weakref.WeakSet()     # the blocks arrays still use

    def allocate(self, shape, dtype, order="C"):
        if order not in ("C", "F"):
            raise ValueError("order must be 'C' or 'F', got %r" % (order,))
        dtype = numpy.dtype(dtype)
        shape = tuple(shape) if numpy.iterable(shape) else (int(shape),)
        if any(int(s) < 0 for s in shape):
            raise ValueError("negative dimensions are not allowed: %r"
                             % (shape,))
        count = int(numpy.prod(shape, dtype=numpy.int64))
        mem = self._pool.malloc(count * dtype.itemsize)
        self._active.add(mem)
        # the array's base chain holds the pointer, so the block returns to
        # the pool only when no array uses it
        return numpy.asarray(mem).view(dtype).reshape(shape, order=order)

    __call__ = allocate

    @property
    def active_blocks(self):
        return len(self._active)

    @property
    def held_blocks(self):
        return self._pool.n_free_blocks()

    def free_held(self):
        self._pool.free_all_blocks()

    stop_holding = free_held


# ---- contexts ----------------------------------------------------------------

def get_default_device(default=0):
    """The device PyCUDA would pick: ember's default ($EMBER_DEVICE, else
    cuda:0 when a GPU works, else the cpu device)."""
    return driver.Device(ember.default_device())


def make_default_context(ctx_maker=None):
    """Make the default device current and return its Context (pop() it
    to go back). ctx_maker(device), if given, makes the context."""
    dev = get_default_device()
    if ctx_maker is None:
        return dev.make_context()
    return ctx_maker(dev)


# ---- dtypes --------------------------------------------------------------------

# complex as PyCUDA names it (pycuda-complex.hpp, which ember provides)
_COMPLEX = {"complex64": "pycuda::complex<float>",
            "complex128": "pycuda::complex<double>"}


def dtype_to_ctype(dtype, with_fp_tex_hack=False):
    """The C type of a NumPy dtype, as kernel source spells it: numbers
    as ember's kernels name them, complex as pycuda::complex<T>, and
    gpuarray.vec's structured dtypes as CUDA's vector types."""
    if dtype is None:
        raise ValueError("dtype may not be None")
    dt = numpy.dtype(dtype)
    if with_fp_tex_hack and dt.name in ("float32", "float64"):
        raise NotImplementedError(
            "dtype_to_ctype(with_fp_tex_hack=True): texture references are "
            "gone from CUDA 12, and ember has none")
    name = _VEC_CTYPES.get(dt) or _COMPLEX.get(dt.name) or \
        _CTYPES.get(dt.name)
    if name is None:
        raise ValueError("unable to map dtype '%s'" % dt)
    return name
