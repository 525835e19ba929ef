"""A datetime64/timedelta64 column in another unit (s, ms, us, ns), as
pandas' astype gives it: the int64 counts scaled, not reinterpreted. To a
finer unit they are multiplied, and a count that the new unit cannot hold
is pandas' OutOfBoundsDatetime/OutOfBoundsTimedelta; to a coarser unit
they are floored (pandas rounds toward the past: -1.5 s is -2 s). NaT
(the int64 minimum) stays NaT, never scaled."""
import ember

from ember.frame._column import Column, _NAT

_UNITS = ("s", "ms", "us", "ns")


def unit_of(name):
    """'us' of 'datetime64[us]'."""
    return name[name.index("[") + 1:-1].split(",")[0]   # a zone after the unit


def _out_of_bounds(kind, unit, example):
    """pandas' exception for a count the unit cannot hold (a ValueError
    subclass; ValueError without pandas)."""
    import numpy as np
    try:
        from pandas.errors import OutOfBoundsDatetime, OutOfBoundsTimedelta
    except ImportError:
        OutOfBoundsDatetime = OutOfBoundsTimedelta = ValueError
    names = {"s": "second", "ms": "millisecond", "us": "microsecond",
             "ns": "nanosecond"}
    if kind == "M":
        return OutOfBoundsDatetime(f"Out of bounds {names[unit]} timestamp: "
                                   f"{np.datetime_as_string(example).replace('T', ' ')}")
    return OutOfBoundsTimedelta(f"Cannot cast {example} to unit='{unit}' without "
                                "overflow.")


def to_unit(col, name):
    """col (datetime64 or timedelta64) as dtype `name` of the same kind."""
    src, dst = unit_of(col.dtype.name), unit_of(name)
    step = _UNITS.index(dst) - _UNITS.index(src)
    if step == 0:
        return Column(name, col.values, col.validity)
    f = 1000 ** abs(step)
    v = col.values
    nat = v == _NAT
    if step < 0:
        out = v // f
    else:
        limit = (2 ** 63 - 1) // f
        bad = ((v > limit) | (v < -limit)) & ~nat
        if col.validity is not None:   # a null's count is arbitrary
            from ember.frame._bitmap import unpack
            bad = bad & unpack(col.validity, col.length)
        if bool(bad.any()):
            import numpy as np
            first = int(v[ember.flatnonzero(bad)[0:1]][0])
            kind = col.dtype.kind
            raise _out_of_bounds(kind, dst, np.array(first, dtype=np.int64).view(
                f"{'M' if kind == 'M' else 'm'}8[{src}]")[()])
        out = ember.where(nat, 0, v) * f
    return Column(name, ember.where(nat, _NAT, out), col.validity)
