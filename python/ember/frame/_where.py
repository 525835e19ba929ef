"""where, mask, between and DataFrame.isin: choosing each row's value
from the column or from `other` by a boolean condition (one ember.where,
or one gather from both columns for strings)."""
import ember

from ember.frame import _bitmap
from ember.frame._column import Column, _NAT, concat

NULL = object()   # other= not given: pandas' NaN/NA/NaT


def _bool_values(c, what):
    """(values, valid) of a boolean condition column."""
    if c.dtype.kind != "b":
        raise TypeError(f"Boolean array expected for the condition, not {c.dtype.name}")
    valid = None if c.validity is None else _bitmap.unpack(c.validity, c.length)
    return c.values, valid


def condition(obj, cond, n, index, what, keep_true=True):
    """Where each row keeps its value, from a condition (Series, array,
    list): where cond holds (keep_true) or where it does not (mask). A null
    in the condition, or a label a Series condition lacks, replaces the
    row in both, as pandas reads them as False before mask inverts."""
    from ember.frame.series import Series
    from ember.frame._convert import column_from
    found = None
    if isinstance(cond, Series):
        col = cond._col
        if not (len(cond) == n and cond.index.equals(index)):
            from ember.frame._align import positions_in
            pos = positions_in(cond.index, index, obj._dev())
            found = pos >= 0
            col = col.take(ember.maximum(pos, 0)) if col.length else \
                Column("bool", ember.zeros(n, dtype="bool", device=obj._dev()))
    else:
        col = column_from(cond, device=obj._dev())
    if col.length != n:
        raise ValueError("Array conditional must be same shape as self")
    v, valid = _bool_values(col, what)
    valid = valid if found is None else (found if valid is None else found & valid)
    kept = v if keep_true else ~v
    return kept if valid is None else kept & valid


def _scalar_kind(x):
    if isinstance(x, bool) or type(x).__name__ == "bool_":
        return "b"
    if isinstance(x, str):
        return "U"
    if isinstance(x, int) or (type(x).__module__ == "numpy" and x.dtype.kind in "iu"):
        return "i"
    if isinstance(x, float) or (type(x).__module__ == "numpy" and x.dtype.kind == "f"):
        return "f"
    return None


def _object(what, d, other):
    raise NotImplementedError(f"{what} of a {d.name} column with "
                              f"{type(other).__name__} {other!r}: pandas makes an object "
                              "column, which ember.frame does not hold")


def _is_null(x):
    return x is NULL or x is None or type(x).__name__ == "NAType" or (
        isinstance(x, float) and x != x)


def choose(col, keep, other, what):
    """Each row's value where keep, else other's (a Column or a scalar)."""
    d = col.dtype
    if bool(keep.all()):
        return col    # pandas leaves the column (and its dtype) as it is
    if d.is_categorical:   # a choice of codes; other must be a category
        from ember.frame._categorical import choose as cat_choose
        return cat_choose(col, keep, other, isinstance(other, Column) or _is_null(other))
    if isinstance(other, Column):
        return _choose_columns(col, keep, other, what)
    if _is_null(other):
        if d.masked:
            return col.with_validity(keep & ~col.isna())
        if d.kind in "iuf":
            v = col.values if d.kind == "f" else col.values.astype("float64")
            return Column(str(v.dtype), ember.where(keep, v, float("nan")))
        if d.kind in "Mm":
            return Column(d, ember.where(keep, col.values, _NAT))
        _object(what, d, other)
    k = _scalar_kind(other)
    if d.kind in "Mm" and k is None:    # a Timestamp, datetime64, Timedelta...
        from ember.frame._ops import _time_scalar
        return Column(d, ember.where(keep, col.values, _time_scalar(d, other)))
    if d.is_string:
        if k != "U":
            _object(what, d, other)
        from ember.frame._convert import repeat_scalar
        return _choose_columns(col, keep, repeat_scalar(other, col.length, d,
                                                        col.device), what)
    if k is None or k == "U" or d.kind in "Mm":
        _object(what, d, other)
    if (d.kind == "b") != (k == "b"):
        if d.masked:
            raise TypeError(f"Invalid value '{other!s}' for dtype '{d.name}'")
        _object(what, d, other)
    storage = d.storage
    if d.kind in "iu" and (k == "f" and not float(other).is_integer() or
                           not _fits(other, storage)):
        if d.masked:
            raise TypeError(f"Invalid value '{other!s}' for dtype '{d.name}'")
        storage = "float64" if k == "f" and not float(other).is_integer() else \
            _int_result(storage, int(other))
    v = ember.where(keep, col.values.astype(storage), other).astype(storage)
    if d.masked:
        return Column(d, v, None if col.validity is None else
                      _bitmap.pack(~col.isna() | ~keep))
    return Column(storage, v)


def _int_result(storage, x):
    """pandas' dtype for an int column taking an integer it cannot hold:
    the smallest that holds both (int8 and 1000: int16; uint8 and -1:
    int16)."""
    import numpy as np
    small = np.min_scalar_type(x)
    if storage[0] == "i" and 0 < x <= np.iinfo(small).max:
        small = np.dtype(f"i{small.itemsize}")
    out = np.result_type(storage, small).name
    if out[0] not in "iu" or not _fits(x, out):   # pandas fails here; widen
        out = np.result_type(storage, np.min_scalar_type(x), np.int16).name
    return out if out[0] in "iu" else "float64"


def _fits(x, storage):
    import numpy as np
    if storage[0] not in "iu":
        return True
    info = np.iinfo(storage)
    return info.min <= int(x) <= info.max


def _choose_columns(a, b_keep, b, what):
    keep = b_keep
    if b.length != a.length:
        raise ValueError(f"{what}: other has {b.length} rows, the object {a.length}")
    da, db = a.dtype, b.dtype
    if da.is_string or db.is_string:
        if not (da.is_string and db.is_string):
            _object(what, da if not da.is_string else db, "a column")
        n = a.length
        i = ember.arange(n, dtype="int64", device=a.device)
        out = concat(a, b).take(ember.where(keep, i, i + n))
        return Column(da, out.values, out.validity, out.offsets, n)
    if (da.kind == "b") != (db.kind == "b") or (da.kind in "Mm") != (db.kind in "Mm"):
        _object(what, da, "a column")
    v = ember.where(keep, a.values, b.values)
    if da.masked or db.masked:
        from ember.frame._dtypes import masked_form
        valid = ember.where(keep, ~a.isna(), ~b.isna())
        return Column(masked_form(v.dtype), v, _bitmap.pack(valid))
    return Column(da if da.kind in "Mm" else str(v.dtype), v)


def _other_column(obj, other, n, what):
    from ember.frame.series import Series
    from ember.frame._convert import column_from
    if isinstance(other, Series):
        if len(other) == n and other.index.equals(obj.index):
            return other._col
        from ember.frame._align import positions_in, reindexed
        return reindexed(other._col, positions_in(other.index, obj.index, obj._dev()))
    if isinstance(other, (list, tuple, ember.ndarray)) or \
            type(other).__name__ == "ndarray":
        return column_from(other, device=obj._dev())
    return other


def series_where(s, cond, other, keep_true, what):
    if callable(cond):
        cond = cond(s)
    if callable(other):
        other = other(s)
    keep = condition(s, cond, len(s), s.index, what, keep_true)
    return s._like(choose(s._col, keep, _other_column(s, other, len(s), what), what))


def frame_where(df, cond, other, keep_true, what):
    from ember.frame.frame import DataFrame
    from ember.frame.series import Series
    if callable(cond):
        cond = cond(df)
    if callable(other):
        other = other(df)
    n = len(df)
    if isinstance(cond, Series):
        raise ValueError("Must specify axis=0 or 1")
    if isinstance(other, Series):
        raise NotImplementedError(f"{what} with a Series as other (axis=); use a "
                                  "scalar or a DataFrame")
    grid = not isinstance(cond, DataFrame)
    if grid:
        import numpy as np
        host = ember.asnumpy(cond) if isinstance(cond, ember.ndarray) else np.asarray(cond)
        if host.shape != (n, len(df._cols)):
            raise ValueError("Array conditional must be same shape as self")
    out = {}
    for j, (k, col) in enumerate(df._cols.items()):
        if grid or k in cond._cols:
            keep = condition(df, host[:, j] if grid else cond[k], n, df.index, what,
                             keep_true)
        else:    # pandas fills a column the condition lacks with False
            keep = ember.zeros(n, dtype="bool", device=df._device())
        o = other
        if isinstance(other, DataFrame):
            o = _other_column(df, other[k], n, what) if k in other._cols else NULL
        out[k] = choose(col, keep, o, what)
    return DataFrame._make(out, df.index)


def between(s, left, right, inclusive="both"):
    if inclusive not in ("both", "neither", "left", "right"):
        raise ValueError("Inclusive has to be either string of 'both','left', "
                         "'right', or 'neither'.")
    lo = s >= left if inclusive in ("both", "left") else s > left
    hi = s <= right if inclusive in ("both", "right") else s < right
    return lo & hi


def frame_isin(df, values):
    from ember.frame.frame import DataFrame
    from ember.frame.series import Series
    n, dev = len(df), df._device()

    def nowhere():
        return Column("bool", ember.zeros(n, dtype="bool", device=dev))
    if isinstance(values, str):
        raise TypeError("only list-like or dict-like objects are allowed to be passed "
                        f"to DataFrame.isin(), you passed a '{type(values).__name__}'")
    if isinstance(values, dict):
        return DataFrame._make({k: df[k].isin(values[k])._col if k in values else nowhere()
                                for k in df._cols}, df.index)
    if isinstance(values, (Series, DataFrame)):
        if not values.index.equals(df.index):
            raise NotImplementedError("DataFrame.isin with a Series or DataFrame of "
                                      "another index (alignment) is not supported yet")
        out = {}
        for k in df._cols:
            other = values if isinstance(values, Series) else (
                values[k] if k in values._cols else None)
            if other is None:
                out[k] = nowhere()
                continue
            eq = df[k] == other
            out[k] = Column("bool", eq._col.values & ~eq._col.isna())
        return DataFrame._make(out, df.index)
    items = list(values)
    # a list mixing strings and numbers meets each column with its own kind
    strs = [x for x in items if not isinstance(x, (bool, int, float))]
    nums = [x for x in items if not isinstance(x, str)]
    return DataFrame._make({k: df[k].isin(strs if c.dtype.is_string else nums)._col
                            for k, c in df._cols.items()}, df.index)
