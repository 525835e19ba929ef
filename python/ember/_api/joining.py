"""Joining arrays: concatenate (one copy per input, include/ember/manip.h's
em_array_concatenate), stack and the stacks NumPy builds on it, and
atleast_1d/2d/3d, whose extent-1 axes are views by indexing."""
from ember import _ember as _e
from ember._api._axes import index
from ember._api._util import as_array, normalize_axis

_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")
_INT_MAX = 2**31 - 1

# The index that gives a of ndim d at least k dimensions, NumPy's way
# (k = -2: column_stack's columns, a 1-D array as (n, 1)).
_ALL = slice(None)
_AT_LEAST = {
    1: {0: (None,)},
    2: {0: (None, None), 1: (None, _ALL)},
    3: {0: (None, None, None), 1: (None, _ALL, None), 2: (_ALL, _ALL, None)},
    -2: {0: (None, None), 1: (_ALL, None)},
}


def _at_least(a, k):
    key = _AT_LEAST[k].get(a.ndim)
    return a if key is None else a[key]


def _arrays(seq, fname):
    """The items of seq as ember arrays. Items that are not go to the
    device of the first that is (else the current device), so
    concatenate([x_gpu, [1, 2]]) stays on x's device; ember arrays keep
    their own, and the C call names both devices when they differ."""
    if not isinstance(seq, _e.ndarray) and (isinstance(seq, (str, dict)) or
                                            not hasattr(type(seq), "__getitem__")):
        raise TypeError(f"{fname}() needs a sequence of arrays, not "
                        f"{type(seq).__name__}")
    seq = list(seq)
    dev = next((x.device for x in seq if isinstance(x, _e.ndarray)), None)
    return [x if isinstance(x, _e.ndarray) else _e.asarray(x, device=dev) for x in seq]


def _join(arrs, axis, out, dtype, casting):
    if not arrs:
        raise ValueError("need at least one array to concatenate")
    if casting is None:
        casting = "same_kind"
    if not isinstance(casting, str) or casting not in _CASTINGS:
        raise ValueError("casting must be one of 'no', 'equiv', 'safe', "
                         "'same_kind', or 'unsafe'")
    if dtype is not None and out is not None:
        raise TypeError("concatenate() only takes `out` or `dtype` as an argument, "
                        "but both were provided.")
    # past int32 is out of bounds anyway; the C call says so as AxisError
    axis = max(-_INT_MAX - 1, min(axis, _INT_MAX))
    return _e._concatenate(arrs, axis, dtype, _CASTINGS.index(casting), out)


def _concatenate(fname, arrays, axis, out, dtype, casting):
    arrs = _arrays(arrays, fname)
    if axis is None:
        return _join([a.ravel() for a in arrs], 0, out, dtype, casting)
    return _join(arrs, index(axis, "axis"), out, dtype, casting)


def concatenate(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    return _concatenate("concatenate", arrays, axis, out, dtype, casting)


def concat(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    return _concatenate("concat", arrays, axis, out, dtype, casting)


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    axis = index(axis, "axis")
    arrs = _arrays(arrays, "stack")
    if not arrs:
        raise ValueError("need at least one array to stack")
    shape = arrs[0].shape
    for i, a in enumerate(arrs):
        if a.shape != shape:
            raise ValueError("all input arrays must have the same shape, but the "
                             f"array at index 0 has shape {shape} and the array at "
                             f"index {i} has shape {a.shape}")
    if len(shape) >= _e._MAX_NDIM:
        raise ValueError(f"stack: the result would have more than {_e._MAX_NDIM} "
                         "dimensions")
    axis = normalize_axis(axis, len(shape) + 1)
    key = (_ALL,) * axis + (None,)
    return _join([a[key] for a in arrs], axis, out, dtype, casting)


def _stacked(fname, tup, k, axis, dtype, casting):
    arrs = [_at_least(a, k) for a in _arrays(tup, fname)]
    if axis is None:      # hstack: 1-D arrays join end to end
        axis = 0 if arrs and arrs[0].ndim == 1 else 1
    return _join(arrs, axis, None, dtype, casting)


def hstack(tup, *, dtype=None, casting="same_kind"):
    return _stacked("hstack", tup, 1, None, dtype, casting)


def vstack(tup, *, dtype=None, casting="same_kind"):
    return _stacked("vstack", tup, 2, 0, dtype, casting)


def dstack(tup, *, dtype=None, casting="same_kind"):
    return _stacked("dstack", tup, 3, 2, dtype, casting)


def column_stack(tup, *, dtype=None, casting="same_kind"):
    return _stacked("column_stack", tup, -2, 1, dtype, casting)


def _atleast(k, arys):
    r = tuple(_at_least(as_array(a), k) for a in arys)
    return r[0] if len(r) == 1 else r


def atleast_1d(*arys):
    return _atleast(1, arys)


def atleast_2d(*arys):
    return _atleast(2, arys)


def atleast_3d(*arys):
    return _atleast(3, arys)
