"""Index helpers: diagonal and triangle indices, flat index conversion,
open meshes (ix_), and the writes through masks and flat positions
(fill_diagonal, putmask, place)."""
import operator

from ember import _ember as _e
from ember._api.selection import nonzero, put, where
from ember._api._util import as_array, device_of
from ember._api.elementwise import clip
from ember._api.manip import tile


def diag_indices(n, ndim=2):
    """NumPy's diag_indices: ndim copies of arange(n) (current device)."""
    idx = _e.arange(n)
    return (idx,) * ndim


def indices(dimensions, dtype=int, sparse=False, *, device=None):
    """NumPy's indices: the grid of each axis's index over `dimensions`,
    stacked (N, *dimensions), or as N broadcastable arrays when sparse.
    device= (not NumPy's) places it; the current device otherwise."""
    dims = tuple(operator.index(d) for d in dimensions)
    n = len(dims)
    rows = [_e.arange(d, dtype=dtype, device=device).reshape(
        (1,) * i + (d,) + (1,) * (n - i - 1)) for i, d in enumerate(dims)]
    if sparse:
        return tuple(rows)
    out = _e.empty((n,) + dims, dtype=rows[0].dtype if rows else dtype,
                   device=device)
    for i, r in enumerate(rows):
        out[i] = r
    return out


def diag_indices_from(arr):
    if arr.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    if any(s != arr.shape[0] for s in arr.shape):
        raise ValueError("All dimensions of input must be of equal length "
                         f"(shape {arr.shape})")
    return (_e.arange(arr.shape[0], device=arr.device),) * arr.ndim


def _tri_nonzero(n, k, m, device, upper):
    # The positions of tri's mask in C order are NumPy's order; the upper
    # triangle from k on is the complement of the lower one below k.
    mask = _e.tri(n, m, k - 1 if upper else k, dtype=_e.bool_, device=device)
    if upper:
        mask = _e.logical_not(mask)
    return tuple(nonzero(mask))


def tril_indices(n, k=0, m=None):
    return _tri_nonzero(n, k, m, None, False)


def triu_indices(n, k=0, m=None):
    return _tri_nonzero(n, k, m, None, True)


def _from2d(arr, k, upper):
    if arr.ndim != 2:
        raise ValueError(f"input array must be 2-d (got shape {arr.shape})")
    return _tri_nonzero(arr.shape[-2], k, arr.shape[-1], arr.device, upper)


def tril_indices_from(arr, k=0):
    return _from2d(arr, k, False)


def triu_indices_from(arr, k=0):
    return _from2d(arr, k, True)


def fill_diagonal(a, val, wrap=False):
    """In place, as NumPy: the flat positions 0, step, 2 step, ... with
    step = 1 + sum of the cumulative products of the leading extents;
    values repeat cyclically (put's rule)."""
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    end = None
    if a.ndim == 2:
        step = a.shape[1] + 1
        if not wrap:
            end = a.shape[1] * a.shape[1]
    else:
        if any(s != a.shape[0] for s in a.shape):
            raise ValueError("All dimensions of input must be of equal length "
                             f"(shape {a.shape})")
        step, p = 1, 1
        for s in a.shape[:-1]:
            p *= s
            step += p
    stop = a.size if end is None else min(end, a.size)
    if stop == 0:
        return None
    put(a, _e.arange(0, stop, step, device=a.device), val)
    return None


def _cyclic(values, n, device, dtype):
    """values raveled and repeated to n elements (NumPy's flat-repeat rule)."""
    v = _e.ravel(as_array(values, device))
    if v.size == n:
        return v.astype(dtype, copy=False)
    reps = -(-n // v.size)
    return tile(v, reps)[:n].astype(dtype, copy=False)


def putmask(a, mask, values):
    """a.flat[i] = values.flat[i % values.size] wherever mask.flat[i]."""
    if not isinstance(a, _e.ndarray):
        raise TypeError("putmask: first argument must be an ember array")
    mask = as_array(mask, a.device)
    if mask.size != a.size:
        raise ValueError("putmask: mask and data must be the same size "
                         f"(mask shape {mask.shape}, data shape {a.shape})")
    scalar = isinstance(values, (bool, int, float, complex))
    vals = as_array(values, a.device)
    if not scalar and not _e.can_cast(vals.dtype, a.dtype, "safe"):
        # NumPy's putmask casts array values safely (Python scalars are weak).
        raise TypeError(f"Cannot cast array data from dtype('{vals.dtype}') to "
                        f"dtype('{a.dtype}') according to the rule 'safe'")
    if vals.size == 0:
        return None
    if vals.size != 1 or vals.ndim:
        vals = _cyclic(vals, a.size, a.device, a.dtype).reshape(a.shape)
    mask = mask.reshape(a.shape).astype(_e.bool_, copy=False)
    a[...] = where(mask, vals.astype(a.dtype, copy=False), a)
    return None


def place(arr, mask, vals):
    """arr[mask] = the first count(mask) elements of vals repeated."""
    if not isinstance(arr, _e.ndarray):
        raise TypeError(f"argument 1 must be an ember array, not {type(arr).__name__}")
    mask = as_array(mask, arr.device)
    if mask.size != arr.size:
        raise ValueError("place: mask and data must be the same size "
                         f"(mask shape {mask.shape}, data shape {arr.shape})")
    mask = mask.reshape(arr.shape).astype(_e.bool_, copy=False)
    n = int(_e.count_nonzero(mask))
    if n == 0:
        return None
    scalar = isinstance(vals, (bool, int, float, complex))
    v = _e.ravel(as_array(vals, arr.device))
    if v.size == 0:
        raise ValueError("Cannot insert from an empty array!")
    if not scalar and not _e.can_cast(v.dtype, arr.dtype, "safe"):
        # NumPy's place casts array values safely (Python scalars are weak).
        raise TypeError(f"Cannot cast array data from dtype('{v.dtype}') to "
                        f"dtype('{arr.dtype}') according to the rule 'safe'")
    arr[mask] = _cyclic(v, n, arr.device, arr.dtype)
    return None


def _check_int(x, what):
    if x.dtype.kind not in "iu" and x.dtype != _e.bool_:
        raise TypeError(f"only int indices permitted ({what} has dtype {x.dtype})")


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    dims = tuple(operator.index(d) for d in (dims if isinstance(dims, (tuple, list))
                                             else (dims,)))
    if len(multi_index) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length "
                         f"{len(dims)}")
    modes = mode if isinstance(mode, (tuple, list)) else (mode,) * len(dims)
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    dev = device_of(*multi_index)
    idx = [as_array(m, dev) for m in multi_index]
    for x in idx:
        _check_int(x, "multi_index")
    strides, s = [0] * len(dims), 1
    for ax in (reversed(range(len(dims))) if order == "C" else range(len(dims))):
        strides[ax] = s
        s *= dims[ax]
    out = None
    for x, d, st, md in zip(idx, dims, strides, modes):
        x = x.astype(_e.int64, copy=False)
        if md == "raise":
            if x.size and bool(_e.any((x < 0) | (x >= d))):
                raise ValueError("invalid entry in coordinates array")
        elif md == "wrap":
            x = _e.remainder(x, d) if d else x
        elif md == "clip":
            x = clip(x, 0, d - 1)
        else:
            raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' "
                             f"(got {md!r})")
        term = x * st
        out = term if out is None else out + term
    return out


def unravel_index(indices, shape, order="C"):
    shape = tuple(operator.index(d) for d in (shape if isinstance(shape, (tuple, list))
                                              else (shape,)))
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    x = as_array(indices, device_of(indices))
    if x.dtype.kind not in "iu":
        raise TypeError(f"only int indices permitted (indices have dtype {x.dtype})")
    size = 1
    for d in shape:
        if d < 0:
            raise ValueError(f"dimensions must be non-negative (shape {shape})")
        size *= d
    x = x.astype(_e.int64, copy=False)
    if x.size and bool(_e.any((x < 0) | (x >= size))):
        bad = int(_e.max(x)) if int(_e.max(x)) >= size else int(_e.min(x))
        raise ValueError(f"index {bad} is out of bounds for array with size {size}")
    out = [None] * len(shape)
    axes = reversed(range(len(shape))) if order == "C" else range(len(shape))
    for ax in axes:
        d = shape[ax]
        out[ax] = _e.remainder(x, d) if d else x
        x = _e.floor_divide(x, d) if d else x
    return tuple(out)


def ix_(*args):
    """Open-mesh index arrays: the k-th of n sequences shaped (1,..,n_k,..,1);
    a boolean sequence stands for its nonzero positions."""
    out = []
    nd = len(args)
    dev = device_of(*args)
    for k, new in enumerate(args):
        if isinstance(new, _e.ndarray):
            a = new
        else:
            a = _e.asarray(new, device=dev)
            if a.size == 0:                   # [] is an empty index, intp
                a = a.astype(_e.int64)
        if a.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional "
                             f"(argument {k} has shape {a.shape})")
        if a.dtype == _e.bool_:
            a = nonzero(a)[0]
        elif a.dtype.kind not in "iu":
            raise IndexError("arrays used as indices must be of integer (or "
                             f"boolean) type (argument {k} has dtype {a.dtype})")
        out.append(a.reshape((1,) * k + (a.size,) + (1,) * (nd - k - 1)))
    return tuple(out)
