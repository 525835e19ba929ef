"""Nested lists and tuples of Python's numbers read into host memory for
asarray (nested.py), without NumPy: a program that never asked for NumPy
does not load it for ember.asarray([1, 2]).

One pass per level of nesting finds the shape and the types met (at C
speed: set(map(type, ...)) and chain.from_iterable); struct packs the
values as the widest kind met into a cpu array, which asarray moves to
the device and casts to the asked dtype. The dtypes are NumPy's
discovery: bool, int64, float64, complex128; Python ints past int64 are
uint64, or float64 next to smaller ones; past uint64 they raise."""
from itertools import chain
from struct import error as struct_error, pack_into

from ember import _ember as _e

_SEQUENCES = frozenset((list, tuple))
_INT64_MAX = 2**63 - 1
# The kinds of Python number in widening order (bool, int, float, complex),
# and the dtype and struct format each packs as (complex: pairs of "d").
_KIND = {bool: 0, int: 1, float: 2, complex: 3}
_PACKS = ((_e.bool_, "?"), (_e.int64, "q"), (_e.float64, "d"), (_e.complex128, "d"))
_CPU = _e.Device("cpu")


def ragged(shape):
    """NumPy's error for nested sequences whose lengths or depths differ
    below shape."""
    return ValueError("setting an array element with a sequence. The requested "
                      f"array has an inhomogeneous shape after {len(shape)} "
                      f"dimensions. The detected shape was {tuple(shape)} + "
                      "inhomogeneous part.")


def too_deep():
    return ValueError(f"nested sequences deeper than ember's {_e._MAX_NDIM} "
                      "dimensions")


def _kind(t):
    """_KIND of a Python number type or a subclass (IntEnum, NumPy's
    float64), None for any other type."""
    k = _KIND.get(t)
    if k is None:
        k = next((_KIND[b] for b in (int, float, complex) if issubclass(t, b)), None)
    return k


def read(seq):
    """(shape, items in C order, the set of their kinds) of a list or tuple
    that nests only lists, tuples and Python's numbers, else None."""
    shape, level = [len(seq)], seq
    while level:
        types = set(map(type, level))
        if types <= _SEQUENCES:
            sizes = set(map(len, level))
            if len(sizes) > 1:
                raise ragged(shape)
            if len(shape) >= _e._MAX_NDIM:
                raise too_deep()
            shape.append(sizes.pop())
            level = list(chain.from_iterable(level))
            continue
        kinds = set(map(_KIND.get, types))
        if None in kinds:   # subclasses, other objects or ragged nesting
            kinds = set(map(_kind, types - _SEQUENCES))
            if None in kinds:
                return None
            if types & _SEQUENCES:
                raise ragged(shape)
        return shape, level, kinds
    return shape, level, set()


def _check_ints(items, kind, dtype):
    """NumPy's OverflowError for a Python int among items past uint64, or
    past an integer dtype asked for (floats are not checked)."""
    lo, hi, name = -2**63, 2**64 - 1, "int64 and uint64"
    if dtype is not None and dtype.kind in "iu":
        bits = 8 * dtype.itemsize
        lo, hi = ((-1 << bits - 1, (1 << bits - 1) - 1) if dtype.kind == "i"
                  else (0, (1 << bits) - 1))
        name = dtype.name
    elif kind > 1 and sum(map(abs, items)) < 2**63:
        return   # no int past int64 among floats (NaN goes on to the check)
    if kind == 1 and lo <= min(items) and max(items) <= hi:
        return
    bad = next((v for v in items if isinstance(v, int) and not lo <= v <= hi), None)
    if bad is not None:
        raise OverflowError(f"Python integer {bad} out of bounds for {name}")


def _host(shape, dtype, fmt, items):
    """A cpu array of shape and dtype holding items packed by struct
    format fmt."""
    a = _e.empty(shape, dtype=dtype, device=_CPU)
    pack_into(f"{len(items)}{fmt}", a, 0, *items)
    return a


def pack(shape, items, kinds, dtype, device, order):
    """The ember array of what read() found, of dtype (None: discovered):
    the values are packed into a cpu array of the widest kind met, which
    asarray moves and casts (and returns itself when nothing else is
    asked)."""
    kind = max(kinds, default=2)    # no items: float64
    if 1 in kinds and (kind > 1 or dtype is not None):
        _check_ints(items, kind, dtype)
    if kind == 3:
        items = [p for v in items for p in (v.real, v.imag)]
    try:
        host = _host(shape, *_PACKS[kind], items)
    except struct_error:
        # Python ints past int64: uint64 alone, float64 next to others.
        _check_ints(items, kind, None)
        small = any(type(v) is not bool and v <= _INT64_MAX for v in items)
        host = _host(shape, *((_e.float64, "d") if small else (_e.uint64, "Q")), items)
    return _e.asarray(host, dtype=dtype, device=device, order=order)
