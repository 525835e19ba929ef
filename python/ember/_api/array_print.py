"""repr, str and pickling of ndarray: through NumPy's host copy (cold
paths, and NumPy is only imported when asked)."""
from ember import _ember as _e
from ember._api.interop import to_numpy


def _host(a):
    # NumPy has no bfloat16: printed as its exact float32 widening.
    return to_numpy(a.astype(_e.float32) if a.dtype == _e.bfloat16 else a)


def array_repr(a):
    """NumPy's repr with the device before the closing parenthesis:
    array([1., 2.], dtype=float32, device='cuda:0')."""
    r = repr(_host(a))
    if a.dtype == _e.bfloat16:
        r = r.replace("dtype=float32", "dtype=bfloat16")
    if not r.endswith(")"):
        return r
    return f"{r[:-1]}, device='{a.device}')"


def array_str(a):
    return str(_host(a))


def array_reduce(a):
    """Pickled through the host: ember.asarray(host copy, device=...)."""
    return _e._rebuild, (to_numpy(a), str(a.device))
