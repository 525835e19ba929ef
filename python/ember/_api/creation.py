"""Making arrays from others or from ranges: empty_like, zeros_like,
ones_like and full_like (the C empty/zeros/ones/full with the prototype's
shape, dtype, order and device), copy, arange (NumPy's length and dtype
rules over one C entry) and meshgrid (views, broadcast, copied when
asked)."""
import math

from ember import _ember as _e
from ember._api._axes import no_like
from ember._api._util import device_of


def _like(make, a, fill, dtype, order, shape, device):
    proto = a if isinstance(a, _e.ndarray) else _e.asarray(a)
    if order is None:
        order = "K"
    if not isinstance(order, str) or len(order) != 1 or order not in "CFAKcfak":
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    order = order.upper()
    if shape is None:
        shape = proto.shape
    if order in "KA":
        try:
            nd = len(shape)
        except TypeError:
            nd = 1
        f = proto.flags
        order = "F" if nd == proto.ndim and f.f_contiguous and not f.c_contiguous else "C"
    args = (shape,) if fill is None else (shape, fill)
    return make(*args, dtype=proto.dtype if dtype is None else dtype, order=order,
                device=proto.device if device is None else device)


def empty_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return _like(_e.empty, a, None, dtype, order, shape, device)


def zeros_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return _like(_e.zeros, a, None, dtype, order, shape, device)


def ones_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return _like(_e.ones, a, None, dtype, order, shape, device)


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, *,
              device=None):
    return _like(_e.full, a, fill_value, dtype, order, shape, device)


def copy(a, order="K", subok=False, *, device=None):
    return _e.asarray(a, order=order, device=device, copy=True)


def _number_kind(o):
    """0, 1 or 2: o is an integer (bool included), a real or a complex
    number, a Python or a NumPy one."""
    if isinstance(o, int):
        return 0
    t = None if isinstance(o, (_e.ndarray, str, bytes)) else getattr(o, "dtype", None)
    kind = getattr(t, "kind", None)
    if getattr(o, "ndim", None) == 0 and isinstance(kind, str) and kind in "biufc":
        return {"f": 1, "c": 2}.get(kind, 0)
    if isinstance(o, float):
        return 1
    if isinstance(o, complex):
        return 2
    raise TypeError(f"arange() needs numbers, not {type(o).__name__}")


def arange(start, stop=None, step=None, dtype=None, *, device=None, like=None):
    """NumPy's arange: the length is ceil((stop - start) / step) in Python
    arithmetic; the first two values are start and start + step in the
    result dtype, and element i is first + i * (second - first) computed
    in that dtype (float32 in float, as NumPy's fill does)."""
    no_like(like)
    dtype = None if dtype is None else _e.dtype(dtype)
    if stop is None:     # arange(stop), arange(stop, step=s) as NumPy reads them
        start, stop = 0, start
    # A 0-d array bound (np.arange(labels.max() + 1)) is its number, as in
    # NumPy; reading it is one device-to-host copy of the scalar.
    start, stop, step = (x.item() if isinstance(x, _e.ndarray) and x.ndim == 0 else x
                         for x in (start, stop, step))
    kind = max(_number_kind(x) for x in (start, stop, step) if x is not None)
    if step is None:
        step = 1
    q = (stop - start) / step
    f = min(q.real, q.imag) if isinstance(q, complex) else float(q)
    if f != f:
        raise ValueError("arange: cannot compute length")
    if f > 9.2e18:
        raise ValueError("Maximum allowed size exceeded")
    n = math.ceil(f) if f > 0 else 0
    if dtype is None:
        dtype = (_e.int64, _e.float64, _e.complex128)[kind]
    if dtype == _e.bool_ and n > 2:
        raise TypeError("arange() is only supported for booleans when the result "
                        "has at most length 2.")
    ends = (start, start + step)
    if dtype.kind in "fc":
        pack = {"f": _e.float32, "c": _e.complex128}[dtype.kind]
        pack = _e.float64 if dtype == _e.float64 else pack
        ends = tuple(complex(e) for e in ends)
    else:
        # the ends truncate toward zero, then wrap as in the dtype
        pack = {"u": _e.uint64, "b": _e.bool_}.get(dtype.kind, _e.int64)
        ends = tuple(int(e) for e in ends)
    if n > (2**63 - 1) // pack.itemsize:
        raise ValueError("Maximum allowed size exceeded")
    r = _e._arange(ends[0], ends[1], n, pack, device)
    return r if pack == dtype else r.astype(dtype)


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    if indexing is None:
        indexing = "xy"
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    n = len(xi)
    if n > _e._MAX_NDIM:
        raise ValueError(f"meshgrid: at most {_e._MAX_NDIM} inputs")
    dev = device_of(*xi)
    xs = [(x if isinstance(x, _e.ndarray) else _e.asarray(x, device=dev)).ravel()
          for x in xi]
    swap = indexing == "xy" and n > 1
    shape = [x.size for x in xs]
    if swap:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, x in enumerate(xs):
        at = 1 - i if swap and i < 2 else i
        r = x[tuple(slice(None) if j == at else None for j in range(n))]
        if not sparse:
            r = _e.broadcast_to(r, shape)
        out.append(r.copy() if copy else r)
    return out
