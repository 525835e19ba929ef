"""linspace, logspace, geomspace: NumPy's signatures, dtypes and errors
here; the values come from one kernel each in the C core
(include/ember/manip.h), reached through the extension's entries
`_space` (scalar ends) and `_linspace_array` (array ends)."""
import operator

from ember import _ember as _e
from ember._api._util import as_array, device_of, normalize_axis

_INT32_MAX = 2**31 - 1


def _num(num):
    """The number of samples, as NumPy reads it."""
    n = operator.index(num)
    if n > 2**63 - 1:
        raise ValueError("Maximum allowed dimension exceeded")
    if n < 0:
        raise ValueError(f"Number of samples, {n}, must be non-negative.")
    return n


def _is_scalar(v):
    """A Python number, a NumPy scalar or a 0-d array."""
    if isinstance(v, (bool, int, float, complex)):
        return True
    return hasattr(v, "dtype") and getattr(v, "ndim", None) == 0


def _scalar(v, fn):
    """(value, whether complex) of a scalar end or base."""
    if isinstance(v, _e.ndarray) and v.ndim != 0:
        raise NotImplementedError(f"{fn}: only scalar start and stop are "
                                  "supported by ember yet")
    if not _is_scalar(v):
        raise NotImplementedError(f"{fn}: only scalar start and stop are "
                                  "supported by ember yet, not "
                                  f"{type(v).__name__}")
    kind = v.dtype.kind if hasattr(v, "dtype") else (
        "c" if isinstance(v, complex) else "f")
    return (complex(v), True) if kind == "c" else (float(v), False)


def _axis_1d(axis):
    """The result of scalar ends is 1-D: axis is 0 or -1."""
    normalize_axis(operator.index(0 if axis is None else axis), 1)


def _computes_in_64(start, stop):
    """Whether NumPy computes linspace of these scalar ends in float64 or
    complex128; NumPy float32 or float16 scalars make it compute in their
    type, which the array path does step by step."""
    try:
        dt = _e.result_type(start, stop)
    except TypeError:
        return True
    return dt.kind not in "fc" or dt in (_e.float64, _e.complex128)


def _linspace_arrays(start, stop, num, endpoint, retstep, dtype, axis,
                     device):
    dev = _e.Device(device) if device is not None else device_of(start, stop)
    # Python scalars stay themselves so that they promote weakly.
    ends = [v if isinstance(v, _e.ndarray) or _is_scalar(v)
            else as_array(v, dev) for v in (start, stop)]
    compute = _e.result_type(*ends)
    if compute.kind not in "fc":
        compute = _e.float64
    a, b = (as_array(v, dev, compute) for v in ends)
    axis = operator.index(0 if axis is None else axis)
    if not -_INT32_MAX <= axis <= _INT32_MAX:
        axis = _INT32_MAX                # out of range for any array
    return _e._linspace_array(a, b, num, bool(endpoint), axis, compute,
                              compute if dtype is None else dtype,
                              bool(retstep))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None,
             axis=0, *, device=None):
    """num evenly spaced values from start to stop (stop left out unless
    endpoint); with retstep, (values, step)."""
    if (not (_is_scalar(start) and _is_scalar(stop))
            or not _computes_in_64(start, stop)):
        return _linspace_arrays(start, stop, _num(num), endpoint, retstep,
                                dtype, axis, device)
    a, ca = _scalar(start, "linspace")
    b, cb = _scalar(stop, "linspace")
    num = _num(num)
    _axis_1d(axis)
    cplx = ca or cb
    dt = _e.dtype(dtype) if dtype is not None else (
        _e.complex128 if cplx else _e.float64)
    if cplx and dt.kind != "c":
        raise TypeError(f"linspace: complex start or stop for dtype {dt.name}")
    if not cplx and dt.kind == "c":
        # real ends, complex result: NumPy computes in float64
        r, step = _e._space("linspace", a, b, num, bool(endpoint), 10.0,
                            _e.float64, device)
        r = r.astype(dt)
    else:
        r, step = _e._space("linspace", a, b, num, bool(endpoint), 10.0, dt,
                            device)
    if not retstep:
        return r
    return r, (step if cplx else step.real)


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None,
             axis=0, *, device=None):
    """num values base**t for t evenly spaced from start to stop."""
    a, ca = _scalar(start, "logspace")
    b, cb = _scalar(stop, "logspace")
    num = _num(num)
    base, cbase = (10.0, False) if base is None else _scalar(base, "logspace")
    _axis_1d(axis)
    if ca or cb or cbase:
        raise NotImplementedError("logspace: complex start, stop or base is "
                                  "not supported by ember yet")
    return _e._space("logspace", a, b, num, bool(endpoint), base,
                     _e.float64 if dtype is None else dtype, device)[0]


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0, *,
              device=None):
    """num values from start to stop, evenly spaced on a log scale."""
    a, ca = _scalar(start, "geomspace")
    b, cb = _scalar(stop, "geomspace")
    num = _num(num)
    _axis_1d(axis)
    if ca or cb:
        raise NotImplementedError("geomspace: complex start or stop is not "
                                  "supported by ember yet")
    return _e._space("geomspace", a, b, num, bool(endpoint), 0.0,
                     _e.float64 if dtype is None else dtype, device)[0]
