"""repr, str and pickling of ndarray, and ember.array_repr, array_str and
array2string: NumPy's formatting of a host copy (cold paths; NumPy is
only imported when asked), so NumPy's print options, set through
ember.set_printoptions or numpy.set_printoptions alike, decide them."""
from ember import _ember as _e
from ember._api.interop import _numpy, to_numpy


def _host(a, threshold=None, edgeitems=None):
    """A host array that NumPy prints as it would print a's values. Past
    the print options' threshold NumPy reads only `edgeitems` from each end
    of each long axis, so only those come from the device (gathered there,
    one copy) into an otherwise unread host array: printing a large GPU
    array does not copy it all."""
    np = _numpy("printing an array")
    opts = np.get_printoptions()
    threshold = opts["threshold"] if threshold is None else threshold
    edge = opts["edgeitems"] if edgeitems is None else edgeitems
    if a.size <= threshold or opts.get("override_repr") is not None:
        return to_numpy(_printable(a))
    corners, picks = a, []
    for axis, n in enumerate(a.shape):
        if n > 2 * edge:
            idx = list(range(edge)) + list(range(n - edge, n))
            corners = corners.take(_e.asarray(idx, dtype=_e.intp, device=a.device),
                                   axis=axis)
            picks.append(idx)
        else:
            picks.append(list(range(n)))
    corners = to_numpy(_printable(corners))
    host = _unread(np, a.shape, corners.dtype)
    if host is None:
        return to_numpy(_printable(a))
    host[np.ix_(*picks)] = corners
    return host


def _printable(a):
    # NumPy has no bfloat16: printed as its exact float32 widening.
    return a.astype(_e.float32) if a.dtype == _e.bfloat16 else a


def _unread(np, shape, dtype):
    """An uninitialised host array of shape whose untouched pages cost no
    memory (a private anonymous mapping without swap reservation), or
    None when even that cannot be had."""
    import math
    import mmap
    nbytes = math.prod(shape) * dtype.itemsize
    try:
        mm = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS
                       | getattr(mmap, "MAP_NORESERVE", 0))
        return np.frombuffer(mm, dtype=dtype).reshape(shape)
    except (OSError, ValueError, OverflowError):
        try:
            return np.empty(shape, dtype)
        except MemoryError:
            return None


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    """NumPy's repr with the device before the closing parenthesis:
    array([1., 2.], dtype=float32, device='cuda:0')."""
    np = _numpy("printing an array")
    if not isinstance(arr, _e.ndarray):
        return np.array_repr(arr, max_line_width, precision, suppress_small)
    r = np.array_repr(_host(arr), max_line_width, precision, suppress_small)
    if arr.dtype == _e.bfloat16:
        r = r.replace("dtype=float32", "dtype=bfloat16")
    if not r.endswith(")"):
        return r
    return f"{r[:-1]}, device='{arr.device}')"


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    np = _numpy("printing an array")
    return np.array_str(_host(a) if isinstance(a, _e.ndarray) else a,
                        max_line_width, precision, suppress_small)


def array2string(a, *args, **kwargs):
    """NumPy's array2string of a's values, with all its keywords."""
    np = _numpy("printing an array")
    if not isinstance(a, _e.ndarray):
        return np.array2string(a, *args, **kwargs)
    return np.array2string(_host(a, kwargs.get("threshold"), kwargs.get("edgeitems")),
                           *args, **kwargs)


def array_reduce(a):
    """Pickled through the host: ember.asarray(host copy, device=...)."""
    return _e._rebuild, (to_numpy(a), str(a.device))
