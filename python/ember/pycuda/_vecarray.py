"""A GPUArray of a gpuarray.vec dtype (float3, int4, ...).

ember arrays hold numbers, not structured records, so this one keeps an
ember array of the base type with one more axis (float3 of shape (m, n)
is float32 of shape (m, n, 3)): the same bytes a `float3 *` kernel
parameter points at. It offers what PyCUDA programs do with such arrays:
shape, dtype, element and slice assignment of vec values, get/set, fill,
and passing it (or its gpudata) to a kernel; arithmetic on vector types
is not defined in NumPy either."""
import numpy

import ember

from ._vec import scalar_and_count

__all__ = ["VecGPUArray"]


def _norm_shape(shape):
    if isinstance(shape, (int, numpy.integer)):
        return (int(shape),)
    return tuple(int(s) for s in shape)


class VecGPUArray:
    """VecGPUArray(shape, dtype, base=None): dtype one of gpuarray.vec's."""

    def __init__(self, shape, dtype, base=None):
        dtype = numpy.dtype(dtype)
        sc = scalar_and_count(dtype)
        if sc is None:
            raise TypeError("%s is not a gpuarray.vec type" % (dtype,))
        self._scalar, self._count = sc
        self.dtype = dtype
        self.shape = _norm_shape(shape)
        self._device_array = base if base is not None else \
            ember.empty(self.shape + (self._count,), self._scalar)

    # ---- sizes -----------------------------------------------------------
    @property
    def size(self):
        return int(numpy.prod(self.shape, dtype=numpy.int64))

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def nbytes(self):
        return self.size * self.dtype.itemsize

    mem_size = size

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d array")
        return self.shape[0]

    @property
    def device(self):
        return self._device_array.device

    # ---- memory, as GPUArray names it --------------------------------------
    @property
    def gpudata(self):
        from .gpuarray import _ArrayAllocation   # gpuarray imports this file
        return _ArrayAllocation(self._device_array)

    @property
    def ptr(self):
        return self._device_array.data.ptr

    def _host_values(self, value):
        """value (a vec value or array, or a sequence of them) as the base
        type with the trailing axis of count."""
        a = numpy.asarray(value)
        if a.dtype != self.dtype:
            try:
                a = a.astype(self.dtype)
            except (TypeError, ValueError):
                raise TypeError("%s values into a %s array"
                                % (a.dtype, self.dtype)) from None
        flat = numpy.ascontiguousarray(a).reshape(-1)   # 0-d cannot .view
        return flat.view(self._scalar).reshape(a.shape + (self._count,))

    def get(self, ary=None, pagelocked=False, async_=False, stream=None):
        h = self._device_array.get()
        out = numpy.ascontiguousarray(h).view(self.dtype).reshape(self.shape)
        if ary is None:
            return out
        if ary.shape != self.shape or ary.dtype != self.dtype:
            raise TypeError("get(ary): ary must be %s of shape %s"
                            % (self.dtype, self.shape))
        ary[...] = out
        return ary

    def set(self, ary, async_=False, stream=None):
        a = numpy.asarray(ary)
        if a.dtype != self.dtype:
            raise TypeError("set(): %s values into a %s array"
                            % (a.dtype, self.dtype))
        if a.size != self.size:
            raise ValueError("set(): %d elements into an array of %d"
                             % (a.size, self.size))
        self._device_array.copy_to_device(
            self._host_values(a.reshape(self.shape)))

    def fill(self, value, stream=None):
        self._device_array[...] = self._host_values(value)
        return self

    def __setitem__(self, index, value):
        self._device_array[self._index(index)] = self._host_values(value)

    def __getitem__(self, index):
        sub = self._device_array[self._index(index)]
        return VecGPUArray(sub.shape[:-1], self.dtype, base=sub)

    def _index(self, index):
        """index, kept off the hidden last axis."""
        t = index if isinstance(index, tuple) else (index,)
        if any(i is Ellipsis for i in t):
            return t + (slice(None),)
        if len(t) > self.ndim:
            raise IndexError("too many indices for a %d-d array" % self.ndim)
        return t + (slice(None),) * (self.ndim - len(t) + 1)

    def copy(self):
        return VecGPUArray(self.shape, self.dtype,
                           base=self._device_array.copy())

    def __repr__(self):
        return "VecGPUArray(%r, dtype=%s)" % (self.get(), self.dtype)

    def __str__(self):
        return str(self.get())
