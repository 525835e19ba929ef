"""Numba-CUDA's device arrays: what ember.cuda.to_device, device_array,
device_array_like, pinned_array and mapped_array return.

Numba and CuPy disagree on one thing users see: indexing every axis with an
integer gives a NumPy scalar from a Numba device array (`print(d_a[0])`,
`np.testing.assert_equal(d_a[0], 523776)`) but a 0-d array from a CuPy
array. ember keeps CuPy's answer for ember.asarray and ember's own
functions and gives Numba's on the arrays made through Numba's spellings:
DeviceNDArray is an ember.ndarray in every other way (views of it stay
DeviceNDArrays; results of arithmetic are plain ember arrays, as CuPy's)."""
import operator

from ember import _ember as _e
from ember._ember import ndarray

__all__ = ["DeviceNDArray", "to_device", "device_array", "device_array_like",
           "pinned_array", "mapped_array", "is_cuda_ndarray"]


def _is_int(k):
    if isinstance(k, (bool, ndarray)) or type(k).__name__ == "bool_":
        return False
    try:
        operator.index(k)
    except TypeError:
        return False
    return True


def _all_integers(key, ndim):
    if not isinstance(key, tuple):
        key = (key,)
    return len(key) == ndim and all(_is_int(k) for k in key)


class DeviceNDArray(ndarray):
    """An ember array that answers as numba.cuda's DeviceNDArray."""

    def __getitem__(self, key):
        r = ndarray.__getitem__(self, key)
        if isinstance(r, ndarray) and r.ndim == 0 and _all_integers(key, self.ndim):
            # Numba's element read: one copy to the host, a NumPy scalar
            return r.copy_to_host()[()]
        return r

    def __iter__(self):
        # Numba's iteration: the elements of a 1-d array as scalars (read
        # in one copy), the rows of a deeper one as device arrays
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        if self.ndim == 1:
            return iter(self.copy_to_host())
        return (self[i] for i in range(self.shape[0]))

    def is_c_contiguous(self):
        return bool(self.flags.c_contiguous)

    def is_f_contiguous(self):
        return bool(self.flags.f_contiguous)

    @property
    def alloc_size(self):
        return self.nbytes

    def split(self, section, stream=0):
        """Numba's split of a 1-d array into views of `section` elements."""
        if self.ndim != 1:
            raise ValueError("split: only 1-d arrays can be split, not %d-d" % self.ndim)
        if section <= 0:
            raise ValueError("split: section must be positive, got %r" % (section,))
        return [self[i:i + section] for i in range(0, self.shape[0], section)]


def _numba_style(a):
    if type(a) is ndarray:
        return a.view(DeviceNDArray)
    return a


def is_cuda_ndarray(obj):
    """Numba's test for a device array: an ember array or an object with
    __cuda_array_interface__."""
    return isinstance(obj, ndarray) or hasattr(obj, "__cuda_array_interface__")


def stream_arg(stream):
    """Numba's stream=0 (and None): the current stream (None); else an
    ember.Stream."""
    if stream is None or (type(stream) is int and stream == 0):
        return None
    if type(stream) is not _e.Stream:
        raise TypeError(f"expected an ember.Stream, not {type(stream).__name__}")
    return stream


def _on(stream, fn, *args, **kw):
    """fn(*args, **kw) with its work and allocations queued on stream (the
    current stream when None)."""
    if stream is None:
        return fn(*args, **kw)
    with stream:
        return fn(*args, **kw)


def _assign(a, value):
    a[...] = value


def _host_dtype(host):
    """The ember dtype of a host buffer (a NumPy array, or any object with
    the buffer protocol)."""
    dt = getattr(host, "dtype", None)
    return _e.dtype(dt if dt is not None else memoryview(host).format.lstrip("@=<"))


def _check_host(what, host, a):
    """host must be a's dtype and shape (Numba's rule for copies)."""
    dt, shape = _host_dtype(host), memoryview(host).shape
    if dt != a.dtype or len(shape) != a.ndim:
        raise TypeError(f"{what}: the host array is {dt.name} of {len(shape)} "
                        f"dimensions, the device array {a.dtype.name} of {a.ndim}")
    for i, (h, d) in enumerate(zip(shape, a.shape)):
        if h != d:
            raise ValueError(f"{what}: shapes differ (axis {i}: {h} on the host, "
                             f"{d} on the device)")


def _fill(what, a, host, stream):
    _check_host(what, host, a)
    _on(stream, _assign, a, host)


def copy_to_host(self, ary=None, stream=0):
    """The values as a NumPy array, or copied into the host array `ary`
    (same shape and dtype), as Numba's."""
    s = stream_arg(stream)
    # ndarray's own get: subclasses (pycuda's GPUArray) define get through
    # copy_to_host
    if ary is None:
        return ndarray.get(self, stream=s)
    _check_host("copy_to_host", ary, self)
    return ndarray.get(self, stream=s, out=ary)


def copy_to_device(self, ary, stream=0):
    """Fill from a host or ember array of the same shape and dtype, as
    Numba's."""
    s = stream_arg(stream)
    if isinstance(ary, ndarray):
        _on(s, _assign, self, ary)
    else:
        _fill("copy_to_device", self, ary, s)


def _to_device(obj, stream, copy, to):
    s = stream_arg(stream)
    if to is not None:
        if not isinstance(to, ndarray):
            raise TypeError("to_device(to=): an ember ndarray is needed, not "
                            f"'{type(to).__name__}'")
        if copy:
            _fill("to_device", to, obj, s)
        return to
    if isinstance(obj, ndarray):   # already on a device: as Numba, as is
        return obj
    # copy=False still gets the values: cheaper than a bug
    return _e.array(obj, copy=True, device=_e.get_current_device())


def to_device(obj, stream=0, copy=True, to=None):
    """A copy of host array obj on the current device (a DeviceNDArray);
    with to=, fills that array and returns it; an ember array is returned
    as it is, as Numba returns a device array."""
    r = _to_device(obj, stream, copy, to)
    return r if to is not None or isinstance(obj, ndarray) else _numba_style(r)


def _layout(fn, shape, dtype, strides, order):
    """(shape, dtype, order) of an allocation; strides only when they are
    C's or Fortran's contiguous ones."""
    shape = (operator.index(shape),) if not isinstance(shape, (tuple, list)) \
        else tuple(operator.index(n) for n in shape)
    dtype = _e.dtype(float if dtype is None else dtype)
    if order is None:
        order = "C"
    if order not in ("C", "F"):
        raise ValueError(f"{fn}: order must be 'C' or 'F'")
    if strides is not None:
        strides = tuple(operator.index(n) for n in strides)
        for o in ("C", "F"):
            dims = shape if o == "F" else shape[::-1]
            want, step = [], dtype.itemsize
            for n in dims:
                want.append(step)
                step *= n
            if strides == tuple(want if o == "F" else want[::-1]):
                return shape, dtype, o
        raise NotImplementedError(f"{fn}: only C- or Fortran-contiguous strides "
                                  "are supported")
    return shape, dtype, order


def device_array(shape, dtype=float, strides=None, order="C", stream=0):
    """An uninitialised array on the current device (a DeviceNDArray)."""
    shape, dtype, order = _layout("device_array", shape, dtype, strides, order)
    s = stream_arg(stream)
    return _numba_style(_on(s, _e.empty, shape, dtype=dtype, order=order,
                            device=_e.get_current_device()))


def device_array_like(ary, stream=0):
    """device_array of ary's shape, dtype and order."""
    flags = getattr(ary, "flags", None)
    fortran = bool(getattr(flags, "f_contiguous", False)) and \
        not getattr(flags, "c_contiguous", False)
    return device_array(ary.shape, ary.dtype, order="F" if fortran else "C",
                        stream=stream)


def pinned_array(shape, dtype=float, strides=None, order="C"):
    """A NumPy array over page-locked host memory (the memory object is
    the array's base, so it lives as long as the array)."""
    import numpy
    shape, dtype, order = _layout("pinned_array", shape, dtype, strides, order)
    n = dtype.itemsize
    for d in shape:
        n *= d
    mem = _e.alloc_pinned_memory(max(n, 1))
    return numpy.ndarray(shape, dtype=dtype.name, buffer=mem, order=order)


def mapped_array(shape, dtype=float, strides=None, order="C", stream=0,
                 portable=False, wc=False):
    """Numba's mapped_array: here a pinned_array. Kernels given it copy it
    in and out around the launch (as for any NumPy array) instead of
    reading host memory in place: the same results, only not zero-copy."""
    stream_arg(stream)
    return pinned_array(shape, dtype, strides, order)
