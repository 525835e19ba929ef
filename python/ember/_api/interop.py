"""ndarray.__array__ and ndarray.set: NumPy's and CuPy's spellings of the
host copies, checked here; the bytes move in the extension
(python/ember/_ext/array/ndarray_interop.c: the buffer protocol,
_to_numpy, _from_host)."""
from ember import _ember


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
        h = _ember._to_numpy(a)
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
