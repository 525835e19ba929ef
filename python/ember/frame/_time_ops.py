"""+ and - of datetime and timedelta columns (pandas' rules: datetime -
datetime is a timedelta, datetime +/- timedelta a datetime, timedelta
+/- timedelta a timedelta), as int64 arithmetic on the counts of one
unit, NaT wherever an operand is NaT."""
import ember

from ember.frame._column import Column, _NAT


def _unit(d):
    return d.name[d.name.index("[") + 1:-1].split(",")[0]   # a zone after the unit


def _operand(x, unit):
    """(kind 'M' or 'm', int64 values or scalar, NaT mask or None)."""
    import numpy as np
    if isinstance(x, Column):
        if x.dtype.kind not in "Mm":
            return None
        if _unit(x.dtype) != unit:
            raise NotImplementedError(f"arithmetic between {unit} and {x.dtype.name} "
                                      "columns (units differ); astype one unit first")
        return x.dtype.kind, x.values, x.values == _NAT
    name = type(x).__name__
    if name == "NaTType" or x is None:
        return None
    try:
        if isinstance(x, np.datetime64) or hasattr(x, "year"):
            if getattr(x, "tzinfo", None) is not None:   # an aware one: its UTC time
                from ember.frame._tz import scalar_utc, tz_dtype
                x = scalar_utc(x, tz_dtype(unit, "UTC"))
            v = np.datetime64(x).astype(f"M8[{unit}]")
            return "M", int(v.view(np.int64)), bool(np.isnat(v))
        if isinstance(x, np.timedelta64) or hasattr(x, "days"):
            v = np.timedelta64(x).astype(f"m8[{unit}]")
            return "m", int(v.view(np.int64)), bool(np.isnat(v))
    except (TypeError, ValueError):
        pass
    return None


def time_arith(op, a, b, reflected=False):
    unit = _unit(a.dtype if a.dtype.kind in "Mm" else b.dtype)
    left, right = _operand(a, unit), _operand(b, unit)
    if left is None or right is None:
        raise TypeError(f"unsupported operand types for {op}: {a.dtype.name} and "
                        f"{b.dtype.name if isinstance(b, Column) else type(b).__name__}")
    if reflected:
        left, right = right, left
    kinds = left[0] + right[0]
    out_kind = {("sub", "MM"): "m", ("add", "Mm"): "M", ("add", "mM"): "M",
                ("sub", "Mm"): "M", ("add", "mm"): "m", ("sub", "mm"): "m"}.get(
                    (op, kinds))
    if out_kind is None:
        raise TypeError(f"cannot {op} {kinds[0]}8 and {kinds[1]}8 values")
    tzs = {str(getattr(c.dtype, "tz", None)) for c in (a, b)
           if isinstance(c, Column) and c.dtype.kind == "M"}
    if len(tzs) > 1 and "None" in tzs:   # pandas: an aware and a naive time
        raise TypeError("Cannot subtract tz-naive and tz-aware datetime-like objects.")
    x, y = left[1], right[1]
    values = x - y if op == "sub" else x + y
    nat = None
    for m in (left[2], right[2]):
        if isinstance(m, bool):
            if m:
                n = a.length
                nat = ember.ones(n, dtype="bool", device=a.device)
        else:
            nat = m if nat is None else nat | m
    if nat is not None:
        values = ember.where(nat, _NAT, values)
    name = ("datetime64" if out_kind == "M" else "timedelta64") + f"[{unit}]"
    if out_kind == "M":   # a time moved by a timedelta keeps its zone
        name = next((c.dtype for c in (a, b) if isinstance(c, Column) and
                     c.dtype.kind == "M"), name)
    return Column(name, values.astype("int64"))
