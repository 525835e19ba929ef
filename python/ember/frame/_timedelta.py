"""pandas' to_timedelta: numbers counted in a unit, timedelta64 values,
and strings (_timedelta_parse), in pandas 3's units: integers in a unit
coarser than ns give timedelta64[us], floats and ns timedelta64[ns],
strings [us] unless a value needs [ns]. A Series gives a Series, other
arrays an Index, and a scalar a pandas Timedelta (ember.frame's
Timedelta is pandas' host value type; the value is computed as a
one-row column, by the same code as a column)."""
import ember

from ember.frame._column import Column, _NAT
from ember.frame._timedelta_parse import _NS, UNIT_NAMES


def _unit(unit):
    """pandas' spelling of a unit -> 'ns' ... 'W'; its ValueErrors."""
    if unit is None:
        return "ns"
    if unit in ("M", "Y", "y"):
        raise ValueError("Units 'M', 'Y', and 'y' are no longer supported, as they do "
                         "not represent unambiguous timedelta values durations.")
    if isinstance(unit, str):
        low = "m" if unit == "m" else unit.lower()
        for name, spellings in UNIT_NAMES.items():
            if low in spellings:
                return name
    raise ValueError(f"invalid unit abbreviation: {unit}")


def _from_numbers(col, unit):
    d = col.dtype
    m = _NS[unit]
    nulls = col.null_mask()
    v = col.values
    if d.kind == "f":   # to ns, the fraction rounded as pandas rounds it
        nan = ember.isnan(v)
        nulls = nan if nulls is None else nulls | nan
        x = ember.where(nulls, 0.0, v)
        if bool((ember.abs(x) >= 2.0 ** 63 / m).any()):
            _raise_bounds(x, ember.abs(x) >= 2.0 ** 63 / m, unit)
        base = ember.trunc(x)
        out = base.astype("int64") * m + ember.rint((x - base) * m).astype("int64")
        res = "ns"
    else:
        x = v.astype("int64") if nulls is None else ember.where(nulls, 0, v).astype("int64")
        step = m if unit == "ns" else m // 1000
        res = "ns" if unit == "ns" else "us"
        big = ember.abs(x) > (2 ** 63 - 1) // step
        if bool(big.any()):
            _raise_bounds(x, big, unit)
        out = x * step
    if nulls is not None:
        out = ember.where(nulls, _NAT, out)
    return Column(f"timedelta64[{res}]", out)


def _raise_bounds(x, big, unit):
    from ember.frame._time_units import _out_of_bounds
    first = ember.asnumpy(x[ember.flatnonzero(big)[:1]])[0]
    raise _out_of_bounds("m", "ns", f"input {first} with the unit {unit!r}")


def convert(col, unit, errors):
    """A column of numbers, timedelta64 or str as timedelta64."""
    from ember.frame._timedelta_parse import parse
    d = col.dtype
    if d.is_string:
        if unit is not None:
            raise ValueError("unit must not be specified if the input contains a str")
        return parse(col, errors)
    if d.kind == "m":
        return col
    if d.kind in "iuf":
        return _from_numbers(col, _unit(unit))
    raise TypeError(f"dtype {d.name} cannot be converted to timedelta64[ns]")


def _scalar(arg, unit, errors):
    """pandas' Timedelta of one value (NaT for a missing one)."""
    from ember.frame._convert import column_from
    from ember.frame._pandas import pandas
    pd = pandas()
    if type(arg).__name__ in ("Timedelta", "timedelta", "timedelta64"):
        return pd.Timedelta(arg)
    if isinstance(arg, bool):
        raise TypeError("dtype bool cannot be converted to timedelta64[ns]")
    col = convert(column_from([arg], device="cpu"), unit, errors)
    v = int(ember.asnumpy(col.values)[0])
    if v == _NAT:
        return pd.NaT
    return pd.Timedelta(v, unit=col.dtype.name[12:-1])


def to_timedelta(arg, unit=None, errors="raise"):
    from ember.frame._index import Index
    from ember.frame.series import Series
    if errors not in ("raise", "coerce"):
        raise ValueError("errors must be one of 'raise', or 'coerce'.")
    if unit is not None:
        _unit(unit)
    if arg is None:
        return None
    if isinstance(arg, (str, int, float)) or type(arg).__name__ in (
            "Timedelta", "timedelta", "timedelta64", "int64", "float64", "int32"):
        return _scalar(arg, unit, errors)
    if type(arg).__module__.split(".")[0] == "pandas":
        from ember.frame._pandas import from_pandas
        arg = from_pandas(arg)
    if isinstance(arg, Series):
        return arg._like(convert(arg._col, unit, errors))
    if type(arg).__name__ == "DataFrame":
        raise TypeError("arg must be a string, timedelta, list, tuple, 1-d array, "
                        "or Series")
    if isinstance(arg, Index):
        return Index(convert(arg._col, unit, errors), name=arg.name)
    if getattr(arg, "ndim", 1) != 1:
        raise TypeError("arg must be a string, timedelta, list, tuple, 1-d array, "
                        "or Series")
    from ember.frame._convert import column_from
    if isinstance(arg, (list, tuple)):
        items = list(arg)
        if not items:   # pandas: an empty object array, whose unit is seconds
            return Index(Column("timedelta64[s]", ember.zeros(0, dtype="int64")))
        # ints with None are pandas' object ints (unit us), not floats (ns)
        ints = all(x is None or (isinstance(x, int) and not isinstance(x, bool))
                   for x in items)
        return Index(convert(column_from(items, dtype="Int64" if ints else None),
                             unit, errors))
    return Index(convert(column_from(arg), unit, errors))
