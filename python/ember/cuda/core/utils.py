"""cuda.core.utils' StridedMemoryView and args_viewable_as_strided_memory:
a pointer, shape, element strides and dtype for any array a C or CUDA
function is handed (ember arrays, NumPy and other host arrays, CuPy or
PyTorch arrays through __cuda_array_interface__ or DLPack), with the
stream ordering cuda.core asks of device arrays. No bytes are copied."""
import functools

import numpy

import ember

__all__ = ["StridedMemoryView", "args_viewable_as_strided_memory"]

_KDLCUDA = 2   # DLPack's device type of CUDA memory


def _on_gpu(obj):
    if isinstance(obj, ember.ndarray):
        return obj.device != ember.Device("cpu")
    if hasattr(obj, "__cuda_array_interface__"):
        return True
    dev = getattr(obj, "__dlpack_device__", None)
    return dev is not None and dev()[0] == _KDLCUDA


class StridedMemoryView:
    """StridedMemoryView(obj, stream_ptr): obj's memory as ptr, shape,
    strides (in elements; None when C-contiguous), dtype, device_id (-1 on
    the host), is_device_accessible and readonly. For a device array
    stream_ptr is the stream the memory will be used on, made to wait for
    the work ember has queued on its current stream (-1: no ordering)."""

    def __init__(self, obj=None, stream_ptr=None):
        self.exporting_obj = obj
        if _on_gpu(obj):
            if stream_ptr is None:
                raise BufferError("StridedMemoryView of a device array needs "
                                  "stream_ptr (the consumer's stream; -1 for "
                                  "none)")
            x = obj if isinstance(obj, ember.ndarray) else ember.asarray(obj)
            if int(stream_ptr) != -1:
                ev = ember.get_current_stream().record()
                ember.cuda.ExternalStream(int(stream_ptr),
                                          x.device.id).wait_event(ev)
            self.ptr, self.device_id = x.data.ptr, x.device.id
            self.is_device_accessible = True
            self.readonly = not x.flags.writeable
            arr = x
        else:
            # host memory: an ember cpu array or anything NumPy views
            h = obj if isinstance(obj, ember.ndarray) else (
                numpy.from_dlpack(obj) if hasattr(obj, "__dlpack__") and
                not isinstance(obj, numpy.ndarray) else numpy.asarray(obj))
            self.ptr = h.data.ptr if isinstance(h, ember.ndarray) else \
                h.__array_interface__["data"][0]
            self.device_id, self.is_device_accessible = -1, False
            self.readonly = not h.flags.writeable
            arr = h
        self.shape, self.dtype = tuple(arr.shape), numpy.dtype(arr.dtype)
        self.strides = None if arr.flags.c_contiguous else tuple(
            st // self.dtype.itemsize for st in arr.strides)

    def __repr__(self):
        return ("StridedMemoryView(ptr=%#x, shape=%s, strides=%s, dtype=%s, "
                "device_id=%d, is_device_accessible=%s, readonly=%s)"
                % (self.ptr, self.shape, self.strides, self.dtype,
                   self.device_id, self.is_device_accessible, self.readonly))


class _Viewable:
    """An argument that args_viewable_as_strided_memory hands the function:
    view(stream_ptr) gives its StridedMemoryView."""

    def __init__(self, obj):
        self.obj = obj

    def view(self, stream_ptr=None):
        return StridedMemoryView(self.obj, stream_ptr)


def args_viewable_as_strided_memory(arg_indices):
    """A decorator: the positional arguments at arg_indices reach the
    function wrapped so that arg.view(stream_ptr) is their
    StridedMemoryView."""
    def deco(f):
        @functools.wraps(f)
        def wrapped(*args, **kwargs):
            args = list(args)
            for i in arg_indices:
                args[i] = _Viewable(args[i])
            return f(*args, **kwargs)
        return wrapped
    return deco
