"""ndarray.get, __array__ and set, and ember.asnumpy: NumPy's and CuPy's
spellings of the host copies, checked here; the bytes move in the
extension (python/ember/_ext/array/ndarray_interop.c: the buffer
protocol, _to_host, _from_host)."""
from ember import _ember


def _numpy(what):
    try:
        import numpy
    except ImportError:
        raise ImportError(f"{what} needs NumPy, which is not installed "
                          f"(pip install numpy)") from None
    return numpy


def to_numpy(a, stream=None):
    """A new NumPy array holding a's values, the copy ordered on stream."""
    if a.dtype.name == "bfloat16":
        raise TypeError("bfloat16 has no NumPy dtype; convert with "
                        "astype(ember.float32) first")
    np = _numpy("copying an ember array to NumPy")
    return _ember._to_host(a, np.empty(a.shape, a.dtype.name), stream)


def array_interface(a):
    """__array_interface__: a cpu array's memory for NumPy; AttributeError
    elsewhere, so NumPy goes on to __array__ (a copy)."""
    if a.device.type != "cpu":
        raise AttributeError(f"__array_interface__ is for host memory; this "
                             f"array is on {a.device}")
    return _host_interface(a)


def host_cuda_array_interface(a):
    """A cpu array's __cuda_array_interface__ where no CUDA driver loads:
    Numba-style code passing its pointer to a kernel runs on cpu."""
    return dict(_host_interface(a), stream=None)


def _host_interface(a):
    # the consumer knows nothing of ember's streams: queued work finishes
    # before it may read or write the memory
    if a.dtype.name == "bfloat16":
        raise TypeError("bfloat16 has no array-interface type; convert with "
                        "astype(ember.float32) first")
    a.device.synchronize()
    t = a.dtype.str
    return {"shape": a.shape, "typestr": t, "descr": [("", t)],
            "data": (a.data.ptr if a.size else 0, not a.flags.writeable),
            "strides": None if a.flags.c_contiguous else a.strides,
            "version": 3}


def get(a, stream=None, order="C", out=None, blocking=True):
    """get(stream=None, order='C', out=None, blocking=True): a NumPy copy
    on the host, or the values copied into the host array out (same shape
    and dtype), ordered on stream as CuPy's."""
    if out is not None:
        return _ember._to_host(a, out, stream)
    return to_numpy(a, stream)


def asnumpy(a, stream=None, order="C", out=None, blocking=True):
    """asnumpy(a, stream=None, order='C', out=None): a NumPy array on the
    host (a copy of an ember array; numpy.asarray of anything else)."""
    if isinstance(a, _ember.ndarray):
        return get(a, stream, order, out, blocking)
    return _numpy("asnumpy").asarray(a)


def array(a, dtype=None, copy=None):
    """__array__(dtype=None, copy=None): a NumPy array of a cpu array's
    memory (no copy unless copy=True), else a copy on the host."""
    import numpy as np
    if a.device.type == "cpu" and copy is not True and a.dtype.name != "bfloat16":
        h = np.asarray(memoryview(a))
    else:
        if copy is False:
            raise ValueError("Unable to avoid copy while creating a NumPy array from "
                             "an ember array on %s" % a.device)
        h = to_numpy(a)
    return h if dtype is None else h.astype(dtype, copy=False)


def set(a, arr, stream=None):
    """CuPy's a.set(arr, stream=None): the host-to-device copy into an
    existing array. arr must be a NumPy array of a's dtype and shape; any
    layout on either side. The copy is ordered on stream (the current
    stream when None) and returns once arr may be reused."""
    import numpy as np
    if not isinstance(arr, np.ndarray):
        raise TypeError("Only numpy.ndarray can be set to an ember.ndarray, not %s"
                        % type(arr).__name__)
    if arr.dtype.name != a.dtype.name:
        raise TypeError("%s array cannot be set to %s array" % (arr.dtype.name,
                                                                a.dtype.name))
    if arr.shape != a.shape:
        raise ValueError("Shape mismatch. Old shape: %r, new shape: %r"
                         % (a.shape, arr.shape))
    _ember._from_host(a, arr, stream)
