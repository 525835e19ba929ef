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

from ember._ember import ndarray, _cuda_compat as _cc

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


def to_device(obj, stream=0, copy=True, to=None):
    """A copy of host array obj on the current device (a DeviceNDArray);
    with to=, fills that array and returns it; an ember array is returned
    as it is, as Numba returns a device array."""
    if to is not None or isinstance(obj, ndarray):
        return _cc.to_device(obj, stream, copy, to)
    return _numba_style(_cc.to_device(obj, stream, copy))


def device_array(shape, dtype=float, strides=None, order="C", stream=0):
    return _numba_style(_cc.device_array(shape, dtype, strides, order, stream))


def device_array_like(ary, stream=0):
    return _numba_style(_cc.device_array_like(ary, stream))


def pinned_array(*args, **kwargs):
    return _numba_style(_cc.pinned_array(*args, **kwargs))


def mapped_array(*args, **kwargs):
    return _numba_style(_cc.mapped_array(*args, **kwargs))


for _f in (device_array, device_array_like, pinned_array, mapped_array):
    _f.__doc__ = getattr(_cc, _f.__name__).__doc__
del _f
