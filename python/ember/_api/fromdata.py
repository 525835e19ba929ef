"""NumPy's constructors from existing data: asanyarray, asarray_chkfinite,
require, fromfunction, and the readers of host data (frombuffer, fromfile,
fromiter, fromstring, fromregex).

The readers parse bytes, text or a Python iterator, which only the host
can do: NumPy's own parser makes the host array (the formats are NumPy's)
and ember.asarray puts it on the device, one copy. device= (not NumPy's)
names the device; the current device otherwise."""
from ember import _ember as _e
from ember._api.interop import _numpy


def _device(device, like):
    if device is None and isinstance(like, _e.ndarray):
        return like.device
    return device


def _upload(host, device):
    return _e.asarray(host, device=device)


def _read(reader, dtype, device, like, *args, binary=False, **kw):
    np = _numpy("reading host data")
    bf16 = not isinstance(dtype, np.dtype) and _is_bfloat16(dtype)
    if not bf16:
        return _upload(reader(*args, dtype=dtype, **kw), _device(device, like))
    # NumPy has no bfloat16: its bits are read as uint16 and viewed as it,
    # its values (text, an iterator) as float32 and rounded on the device
    host = reader(*args, dtype=np.uint16 if binary else np.float32, **kw)
    out = _upload(host, _device(device, like))
    return out.view(_e.bfloat16) if binary else out.astype(_e.bfloat16)


def _is_bfloat16(dtype):
    if dtype is None:
        return False
    try:
        return _e.dtype(dtype) == _e.bfloat16
    except (TypeError, ValueError):
        return False


def asanyarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    """ember has no ndarray subclasses to pass through: asarray."""
    return _e.asarray(a, dtype=dtype, order=order, device=_device(device, like),
                      copy=copy)


def asarray_chkfinite(a, dtype=None, order=None, *, device=None):
    """asarray, then ValueError if a float or complex result holds an inf
    or a NaN (one reduction; its answer is read back, so this waits for
    the device)."""
    a = _e.asarray(a, dtype=dtype, order=order, device=device)
    if a.dtype.kind in "fc" and not bool(_e.isfinite(a).all()):
        raise ValueError("array must not contain infs or NaNs")
    return a


_REQUIREMENTS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C",
                 "F": "F", "F_CONTIGUOUS": "F", "FORTRAN": "F",
                 "A": "A", "ALIGNED": "A", "W": "W", "WRITEABLE": "W",
                 "O": "O", "OWNDATA": "O", "E": "E", "ENSUREARRAY": "E"}


def require(a, dtype=None, requirements=None, *, like=None, device=None):
    """An array meeting `requirements` ('C', 'F', 'A', 'W', 'O', 'E' or
    their long names), copied only when a is not one already."""
    device = _device(device, like)
    if not requirements:
        return asanyarray(a, dtype=dtype, device=device)
    if isinstance(requirements, str):
        requirements = [requirements]
    # an unknown name is NumPy's KeyError
    req = {_REQUIREMENTS[r.upper()] for r in requirements}
    if "C" in req and "F" in req:
        raise ValueError("Cannot specify both 'C' and 'F' order")
    order = "C" if "C" in req else "F" if "F" in req else "A"
    arr = _e.asarray(a, dtype=dtype, order=order, device=device)
    f = arr.flags
    if ("W" in req and not f.writeable) or ("O" in req and not f.owndata) or \
            ("A" in req and not f.aligned):
        arr = _e.asarray(arr, order="F" if order == "F" else "C", copy=True)
    return arr


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """function(*indices, **kwargs), called once with one index array per
    axis (ember.indices on the current device), as NumPy's."""
    device = _device(None, like)
    args = _e.indices(shape, dtype=dtype, device=device)
    return function(*args, **kwargs)


def frombuffer(buffer, dtype=float, count=-1, offset=0, *, like=None,
               device=None):
    np = _numpy("frombuffer")
    return _read(np.frombuffer, dtype, device, like, buffer, count=count,
                 offset=offset, binary=True)


def fromfile(file, dtype=float, count=-1, sep="", offset=0, *, like=None,
             device=None):
    np = _numpy("fromfile")
    return _read(np.fromfile, dtype, device, like, file, count=count, sep=sep,
                 offset=offset, binary=not sep)


def fromiter(iter, dtype, count=-1, *, like=None, device=None):
    np = _numpy("fromiter")
    return _read(np.fromiter, dtype, device, like, iter, count=count)


def fromstring(string, dtype=float, count=-1, *, sep, like=None, device=None):
    np = _numpy("fromstring")
    return _read(np.fromstring, dtype, device, like, string, count=count, sep=sep,
                 binary=not sep)


def fromregex(file, regexp, dtype, encoding=None, *, device=None):
    np = _numpy("fromregex")
    return _upload(np.fromregex(file, regexp, dtype, encoding=encoding), device)
