"""flip, fliplr, flipud and rot90 (views: negative-step indexing and
transposes, both C) and roll (one call of include/ember/manip.h's
em_array_roll for every axis at once)."""
from ember import _ember as _e
from ember._api._axes import index, ints
from ember._api._util import as_array, normalize_axis

_REVERSED = slice(None, None, -1)


def _flipped(a, axes):
    key = tuple(_REVERSED if i in axes else slice(None) for i in range(a.ndim))
    return a[key] if key else a[...]


def flip(m, axis=None):
    a = as_array(m)
    if axis is None:
        return _flipped(a, range(a.ndim))
    axes = [normalize_axis(x, a.ndim) for x in ints(axis, "axis")]
    if len(set(axes)) != len(axes):
        raise ValueError("repeated axis in flip")
    return _flipped(a, axes)


def fliplr(m, /):
    a = as_array(m)
    if a.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return _flipped(a, (1,))


def flipud(m, /):
    a = as_array(m)
    if a.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return _flipped(a, (0,))


def rot90(m, k=1, axes=(0, 1)):
    k = 1 if k is None else index(k, "k")
    axes = ints(axes, "axes")
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    a = as_array(m)
    nd = a.ndim
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == nd:
        raise ValueError("Axes must be different.")
    if not all(-nd <= x < nd for x in axes):
        raise ValueError(f"Axes={tuple(axes)} out of range for array of ndim={nd}.")
    a0, a1 = axes[0] % nd, axes[1] % nd
    k %= 4
    if k == 0:
        return a[...]
    if k == 2:
        return _flipped(a, (a0, a1))
    perm = list(range(nd))
    perm[a0], perm[a1] = a1, a0
    if k == 1:
        return _flipped(a, (a1,)).transpose(perm)
    return _flipped(a.transpose(perm), (a1,))


def roll(a, shift, axis=None):
    shifts = ints(shift, "shift")
    axes = (0,) if axis is None else ints(axis, "axis")
    if len(shifts) != len(axes) and 1 not in (len(shifts), len(axes)):
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences of "
                         "the same length")
    n = len(axes) if len(shifts) == 1 else len(shifts)
    a = as_array(a)
    src = a.ravel() if axis is None else a
    shifts = [shifts[0 if len(shifts) == 1 else i] for i in range(n)]
    axes = [normalize_axis(axes[0 if len(axes) == 1 else i], src.ndim) for i in range(n)]
    r = _e._roll(src, shifts, axes)
    return r.reshape(a.shape) if axis is None else r
