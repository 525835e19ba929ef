"""NumPy's take, take_along_axis, put, put_along_axis, choose, select,
where, nonzero, flatnonzero, argwhere, compress and extract, and the
ndarray methods over them: argument rules, conversions and device checks
here; each gather, scatter, choice or compaction is one C call (the
extension's `_take`, `_put`, `_choose`, `_where` and `_nonzero` over
include/ember/index.h, and `_par_select`'s em_select)."""
import operator

import ember
from ember import _ember as _e

_MODES = {"raise": 0, "wrap": 1, "clip": 2}
_FLAT = -1000       # EM_TAKE_FLAT: the C entries' axis for "the flattened array"
_CHOOSE_MAX = 32    # EM_CHOOSE_MAX
_NOARG = object()


def _array(o, dtype=None, device=None):
    if isinstance(o, _e.ndarray) and (dtype is None or o.dtype == dtype):
        return o
    return _e.asarray(o, dtype=dtype, device=device)


def _elsewhere(fn, what, o, a):
    # ember never copies between devices behind the caller's back
    if isinstance(o, _e.ndarray) and o.device != a.device:
        raise ValueError(f"{fn}{what} are on {o.device} but the array on "
                         f"{a.device}")


def _indices(o, a):
    """Indices on a's device; [] (a float array when inferred) is int64."""
    _elsewhere("", "the indices", o, a)
    r = _array(o, device=a.device)
    if r.size == 0 and r.dtype.kind == "f" and not isinstance(o, _e.ndarray):
        r = _array(o, _e.int64, a.device)
    return r


def _mode(mode):
    if mode is None:
        return 0
    if not isinstance(mode, str):
        raise TypeError(f"mode must be a str, not {type(mode).__name__}")
    if mode not in _MODES:
        raise ValueError(f"mode must be 'raise', 'wrap' or 'clip', not "
                         f"'{mode}'")
    return _MODES[mode]


def _axis(axis):
    """None for the flattened array, else an int, clamped to a C int
    that is out of range for every array when it is."""
    if axis is None:
        return _FLAT
    return max(-100, min(100, operator.index(axis)))


def _values(vo, a, fn):
    if isinstance(vo, _e.ndarray):
        if vo.device != a.device:
            raise ValueError(f"{fn}: the values are on {vo.device} but the "
                             f"array on {a.device}")
        return vo
    return _e.asarray(vo, dtype=a.dtype, device=a.device)


def take(a, indices, axis=None, out=None, mode="raise"):
    m, ax = _mode(mode), _axis(axis)
    if out is not None and not isinstance(out, _e.ndarray):
        raise TypeError("take: out must be an ember array")
    a = _array(a)
    ind = _indices(indices, a)
    if out is not None and out.device != a.device:
        raise ValueError(f"take: out is on {out.device} but the array on "
                         f"{a.device}")
    return _e._take(a, ind, ax, m, out)


def take_along_axis(arr, indices, axis=-1):
    # NumPy 2.3+ and the Array API 2024.12 default to the last axis.
    ax = _axis(axis)
    a = _array(arr)
    ind = _indices(indices, a)
    if ax == _FLAT:
        if ind.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single "
                             "dimension.")
        return _e._take_along_axis(a.ravel(), ind, 0, 0, None)
    return _e._take_along_axis(a, ind, ax, 0, None)


def put(a, ind, v, mode="raise"):
    if not isinstance(a, _e.ndarray):
        raise TypeError("put: a must be an ember array")
    m = _mode(mode)
    i = _indices(ind, a)
    _e._put(a, i, _values(v, a, "put"), m)


def put_along_axis(arr, indices, values, axis):
    if not isinstance(arr, _e.ndarray):
        raise TypeError("put_along_axis: arr must be an ember array")
    ax = _axis(axis)
    if ax == _FLAT:
        raise NotImplementedError("put_along_axis with axis=None is not "
                                  "supported by ember; use put()")
    i = _indices(indices, arr)
    _e._put_along_axis(arr, i, _values(values, arr, "put_along_axis"), ax)


def nonzero(a):
    a = _array(a)
    nz = _e._nonzero(a)
    return tuple(nz[d] for d in range(a.ndim))


def flatnonzero(a):
    return _e._nonzero(_array(a).ravel())[0]


def argwhere(a):
    a = _array(a)
    if a.ndim == 0:
        # NumPy: one row of no coordinates per nonzero element
        n = flatnonzero(a).shape[0]
        return _e.empty((n, 0), dtype=_e.int64, device=a.device)
    return _e._nonzero(a).T


def where(condition, x=_NOARG, y=_NOARG):
    if x is _NOARG and y is _NOARG:
        return nonzero(condition)
    if x is _NOARG or y is _NOARG:
        raise ValueError("either both or neither of x and y should be given")
    dev = None
    for o in (condition, x, y):
        if isinstance(o, _e.ndarray):
            dev = o.device
            break
    return _e._where(_array(condition, device=dev), x, y)


def _array_and_condition(a, condition, fn):
    a = _array(a)
    cond = _array(condition, device=a.device)
    if cond.device != a.device:
        raise ValueError(f"{fn}: the condition is on {cond.device} but the "
                         f"array on {a.device}")
    return a, cond


def _compact(a, cond, direct, axis, out):
    """compress and extract: one compaction (em_select) where the mask is
    bool, on a's device and of a's length (flat, or axis 0's); otherwise
    the condition's flat nonzero positions, then a gather."""
    if direct and cond.dtype == _e.bool_ and cond.device == a.device:
        if axis is None and cond.size == a.size:
            return _e._par_select(a.ravel(), cond.ravel(), False)
        if (axis is not None and a.ndim >= 1 and cond.ndim == 1
                and cond.shape[0] == a.shape[0]):
            return _e._par_select(a, cond, False)
    return take(a, flatnonzero(cond), axis, out)


def compress(condition, a, axis=None, out=None):
    a, cond = _array_and_condition(a, condition, "compress")
    if cond.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    direct = out is None and (axis is None or (
        isinstance(axis, int) and (axis + a.ndim if axis < 0 else axis) == 0))
    return _compact(a, cond, direct, axis, out)


def extract(condition, arr):
    a, cond = _array_and_condition(arr, condition, "extract")
    return _compact(a, cond, True, None, None)


def choose(a, choices, out=None, mode="raise"):
    m = _mode(mode)
    a = _array(a)
    if a.dtype.kind not in "iu":
        raise TypeError(f"choose: the index array must be of an integer "
                        f"dtype, not {a.dtype.name}")
    try:
        seq = list(choices)
    except TypeError:
        raise TypeError("choices must be a sequence of arrays") from None
    if not 1 <= len(seq) <= _CHOOSE_MAX:
        raise ValueError(f"choose: {len(seq)} choices (ember takes 1 to "
                         f"{_CHOOSE_MAX})")
    seq = tuple(_array(c, device=a.device) for c in seq)
    if out is not None and not isinstance(out, _e.ndarray):
        raise TypeError("choose: out must be an ember array")
    return _e._choose(a, seq, m, out)


def _sequence(o, what):
    try:
        return list(o)
    except TypeError:
        raise TypeError(f"{what} must be a sequence") from None


def select(condlist, choicelist, default=0):
    """The default everywhere, then each choice where its condition holds,
    last to first, so the first true condition wins: one where() a case,
    whose dtypes promote as result_type(*choicelist, default) does."""
    cs = _sequence(condlist, "condlist")
    hs = _sequence(choicelist, "choicelist")
    if len(cs) != len(hs):
        raise ValueError("list of cases must be same length as list of "
                         "conditions")
    if not 1 <= len(cs) <= _CHOOSE_MAX:
        raise ValueError(f"select: {len(cs)} cases (ember takes 1 to "
                         f"{_CHOOSE_MAX})")
    dev = None
    for c, h in zip(cs, hs):
        for o in (c, h):
            if dev is None and isinstance(o, _e.ndarray):
                dev = o.device
    shape = ()
    for i, (c, h) in enumerate(zip(cs, hs)):
        cs[i] = c = _array(c, device=dev)
        hs[i] = h = _array(h, device=dev)
        dev = c.device
        if c.dtype != _e.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be "
                            f"boolean ndarray")
        if h.device != dev:
            raise ValueError(f"select: arrays on {dev} and {h.device} (ember "
                             f"does not copy between devices implicitly)")
        try:
            shape = ember.broadcast_shapes(shape, c.shape, h.shape)
        except ValueError:
            raise ValueError("shape mismatch: objects cannot be broadcast to "
                             "a single shape") from None
    if not _is_scalar(default):
        raise TypeError("select: default must be a scalar in ember")
    res = default
    for c, h in zip(reversed(cs), reversed(hs)):
        res = _e._where(c, h, res)
    return res


def _is_scalar(o):
    """A Python number, or a NumPy scalar or other 0-d host value."""
    if isinstance(o, (int, float, complex)):
        return True
    return not isinstance(o, _e.ndarray) and hasattr(o, "dtype") and \
        getattr(o, "shape", None) == ()


# the ndarray methods whose parameters differ from the functions'

def _nd_put(self, indices, values, mode="raise"):
    return put(self, indices, values, mode)


def _nd_compress(self, condition, axis=None, out=None):
    return compress(condition, self, axis, out)
