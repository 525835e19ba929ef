"""repr, str and pickling of ndarray, and ember.array_repr, array_str and
array2string: NumPy's formatting of a host copy (cold paths; NumPy is
only imported when asked), so NumPy's print options, set through
ember.set_printoptions or numpy.set_printoptions alike, decide them."""
from ember import _ember as _e
from ember._api.interop import _numpy, to_numpy


def _host(a):
    # NumPy has no bfloat16: printed as its exact float32 widening.
    return to_numpy(a.astype(_e.float32) if a.dtype == _e.bfloat16 else a)


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
    return np.array2string(_host(a) if isinstance(a, _e.ndarray) else a,
                           *args, **kwargs)


def array_reduce(a):
    """Pickled through the host: ember.asarray(host copy, device=...)."""
    return _e._rebuild, (to_numpy(a), str(a.device))
