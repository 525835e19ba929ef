"""PyCUDA's ``pycuda.gpuarray`` on ember arrays. GPUArray is a subclass of
ember.ndarray with PyCUDA's names (gpudata, ptr, mem_size, set, get,
get_async, fill returning self); the functions here return GPUArrays.
Arithmetic on them is ember's, and returns plain ember arrays, which have
get() and shape/dtype too but no gpudata. An array of one of ``vec``'s
dtypes (float3, ...) is a VecGPUArray (_vecarray.py): ember arrays hold
numbers, not records."""
import numpy

import ember

from .driver import DeviceAllocation, _stream
from ._vec import vec, scalar_and_count
from ._vecarray import VecGPUArray

__all__ = ["GPUArray", "vec", "VecGPUArray", "to_gpu", "to_gpu_async", "empty", "zeros",
           "empty_like", "zeros_like", "ones_like", "arange", "sum", "dot",
           "max", "min", "maximum", "minimum", "if_positive"]


class _ArrayAllocation(DeviceAllocation):
    """gpudata of a GPUArray: its address, kept alive by the array."""

    def __init__(self, arr):
        self._buf = arr
        self.ptr = arr.data.ptr
        self.size = arr.nbytes

    def _memptr(self, offset=0):
        return self._arg().data + offset


class GPUArray(ember.ndarray):
    """GPUArray(shape, dtype, allocator=None, base=None, gpudata=None,
    strides=None, order='C'): an ember array on the current device."""

    def __new__(cls, shape, dtype=numpy.float64, allocator=None, base=None,
                gpudata=None, strides=None, order="C"):
        if scalar_and_count(dtype) is not None:
            if gpudata is not None or strides is not None or \
                    allocator is not None:
                raise NotImplementedError(
                    "GPUArray of %s: gpudata, strides and allocator are "
                    "not taken for vec types" % (numpy.dtype(dtype),))
            return VecGPUArray(shape, dtype)
        if allocator is not None and gpudata is None:
            gpudata = _allocate(allocator, shape, dtype)
        memptr = None
        if gpudata is not None:
            memptr = gpudata._memptr() if isinstance(
                gpudata, DeviceAllocation) else gpudata
        a = super().__new__(cls, shape, dtype, memptr=memptr,
                            strides=strides, order=order)
        if isinstance(gpudata, DeviceAllocation):
            # the memory lives through memptr; the allocation object too,
            # so its pool counts it active and its address stays resolvable
            a._allocation = gpudata
        return a

    @property
    def gpudata(self):
        return _ArrayAllocation(self)

    @property
    def ptr(self):
        return self.data.ptr

    @property
    def mem_size(self):
        return self.size

    def set(self, ary, async_=False, stream=None):
        ary = numpy.asarray(ary)
        if ary.size != self.size:
            raise ValueError("set(): %d elements into an array of %d"
                             % (ary.size, self.size))
        if ary.dtype != numpy.dtype(str(self.dtype)):
            raise TypeError("set(): %s values into a %s array"
                            % (ary.dtype, self.dtype))
        self.copy_to_device(ary.reshape(self.shape), stream=_stream(stream))

    def set_async(self, ary, stream=None):
        self.set(ary, stream=stream)

    def get(self, ary=None, pagelocked=False, async_=False, stream=None):
        return self.copy_to_host(ary, stream=_stream(stream))

    def get_async(self, stream=None, ary=None):
        return self.copy_to_host(ary, stream=_stream(stream))

    def fill(self, value, stream=None):
        super().fill(value)
        return self


def _allocate(allocator, shape, dtype):
    """PyCUDA's allocator=: a callable from a byte count to device memory
    (mem_alloc, DeviceMemoryPool.allocate); its DeviceAllocation becomes
    the array's memory and lives as long as the array."""
    shp = (shape,) if isinstance(shape, (int, numpy.integer)) else shape
    n = int(numpy.prod(shp, dtype=numpy.int64)) * numpy.dtype(dtype).itemsize
    mem = allocator(n)
    if not isinstance(mem, DeviceAllocation):
        raise TypeError("allocator(%d) returned %s, not a DeviceAllocation"
                        % (n, type(mem).__name__))
    return mem


def _wrap(a):
    """a as a GPUArray over the same memory."""
    if isinstance(a, GPUArray):
        return a
    return GPUArray(a.shape, a.dtype, gpudata=a.data, strides=a.strides)


def to_gpu(ary, allocator=None):
    ary = numpy.asarray(ary)
    g = GPUArray(ary.shape, ary.dtype, allocator)
    if isinstance(g, VecGPUArray):
        g.set(ary)
    else:
        g.copy_to_device(ary)
    return g


def to_gpu_async(ary, allocator=None, stream=None):
    ary = numpy.asarray(ary)
    g = GPUArray(ary.shape, ary.dtype, allocator)
    if isinstance(g, VecGPUArray):
        g.set(ary)
    else:
        g.copy_to_device(ary, stream=_stream(stream))
    return g


def empty(shape, dtype=numpy.float64, allocator=None, order="C"):
    return GPUArray(shape, dtype, allocator, order=order)


def zeros(shape, dtype=numpy.float64, allocator=None, order="C"):
    return empty(shape, dtype, allocator, order).fill(0)


def empty_like(other_ary, dtype=None, order="K"):
    if isinstance(other_ary, VecGPUArray):
        return empty(other_ary.shape, dtype or other_ary.dtype)
    order = "F" if order in ("F", "K", "A") and other_ary.flags.f_contiguous \
        and not other_ary.flags.c_contiguous else "C"
    return empty(other_ary.shape, dtype or other_ary.dtype, order=order)


def zeros_like(other_ary, dtype=None, order="K"):
    return empty_like(other_ary, dtype, order).fill(0)


def ones_like(other_ary, dtype=None, order="K"):
    return empty_like(other_ary, dtype, order).fill(1)


def arange(*args, **kwargs):
    return _wrap(ember.arange(*args, **kwargs))


def sum(a, dtype=None, stream=None):
    return ember.sum(a, dtype=dtype)


def dot(a, b, dtype=None, stream=None):
    r = ember.sum(a * b)
    return r if dtype is None else r.astype(dtype)


def max(a, stream=None):
    return ember.max(a)


def min(a, stream=None):
    return ember.min(a)


def maximum(a, b, out=None, stream=None):
    return ember.maximum(a, b, out=out)


def minimum(a, b, out=None, stream=None):
    return ember.minimum(a, b, out=out)


def if_positive(criterion, then_, else_, out=None, stream=None):
    r = ember.where(criterion > 0, then_, else_)
    if out is not None:
        out[...] = r
        return out
    return r
