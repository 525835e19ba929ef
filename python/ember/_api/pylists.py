"""Nested lists and tuples of Python's numbers read into host memory for
asarray (nested.py), without NumPy: a program that never asked for NumPy
does not load it for ember.asarray([1, 2]).

One pass per level of nesting finds the shape and the types met (at C
speed: set(map(type, ...)) and chain.from_iterable); struct packs the
values as the widest kind met; the C layer copies them to
the device and casts to the asked dtype. The dtypes are NumPy's
discovery: bool, int64, float64, complex128; Python ints past int64 are
uint64, or float64 next to smaller ones; past uint64 they raise."""
import sys
from array import array
from itertools import chain
from struct import error as struct_error, pack as pack_values

from ember import _ember as _e

_SEQUENCES = frozenset((list, tuple))
_INT64_MAX = 2**63 - 1
# The kinds of Python number in widening order (bool, int, float, complex),
# and the struct format each but complex packs as.
_KIND = {bool: 0, int: 1, float: 2, complex: 3}
_FORMATS = "?qd"


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


class _Complex:
    """Packed pairs of float64 as complex128 through NumPy's array
    interface, which the C layer wraps: a memoryview has no complex
    format."""

    def __init__(self, values, shape):
        self.values = values
        self.__array_interface__ = {
            "shape": shape, "typestr": ("<" if sys.byteorder == "little" else ">")
            + "c16", "version": 3, "data": (values.buffer_info()[0], False)}


def pack(shape, items, kinds, dtype, device, order):
    """The ember array of what read() found, of dtype (None: discovered)."""
    shape = tuple(shape)
    if not items:
        return _e.empty(shape, dtype=_e.float64 if dtype is None else dtype,
                        order=order, device=device)
    kind = max(kinds)
    if 1 in kinds and (kind > 1 or dtype is not None):
        _check_ints(items, kind, dtype)
    if kind == 3:
        host = _Complex(array("d", [p for v in items for p in (v.real, v.imag)]), shape)
    else:
        fmt = _FORMATS[kind]
        try:
            values = pack_values(f"{len(items)}{fmt}", *items)
        except struct_error:
            # Python ints past int64: uint64 alone, float64 next to others.
            _check_ints(items, kind, None)
            fmt = "d" if any(type(v) is not bool and v <= _INT64_MAX for v in items) else "Q"
            values = pack_values(f"{len(items)}{fmt}", *items)
        host = memoryview(values).cast(fmt, shape)
    return _e.asarray(host, dtype=dtype, device=device, copy=True, order=order)
