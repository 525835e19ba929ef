"""Columns from Python lists, NumPy and ember arrays, and astype."""
import ember

from ember.frame import _bitmap
from ember.frame._column import Column, _NAT
from ember.frame._dtypes import lookup, masked_form


def _is_null(x):
    return x is None or type(x).__name__ == "NAType"   # None or pandas' NA


def _is_time(x):
    import datetime
    return isinstance(x, (datetime.date, datetime.timedelta)) or \
        type(x).__name__ in ("datetime64", "timedelta64", "NaTType")


def _is_nan(x):
    return isinstance(x, float) and x != x


def _is_str_list(items):
    # pandas reads a NaN among strings as missing (np.nan is its old NA)
    return any(isinstance(x, str) for x in items) and all(
        _is_null(x) or _is_nan(x) or isinstance(x, str) for x in items)


def _is_objects(items):
    """Whether pandas makes an object column of these cells: lists, dicts,
    sets or tuples among them, or strings beside other values."""
    if any(isinstance(x, (list, dict, set, tuple)) for x in items):
        return True
    strs = [isinstance(x, str) for x in items]
    return any(strs) and not all(s or _is_null(x) or _is_nan(x)
                                 for s, x in zip(strs, items))


def repeat_scalar(value, n, dtype=None, device=None):
    """A column of n copies of a scalar: one row made, then gathered."""
    col = column_from([value], dtype=dtype, device=device)
    return col.take(ember.zeros(n, dtype="int64", device=col.device))


def column_from(data, dtype=None, device=None):
    """A Column from a list, tuple, range, NumPy array or ember array (the
    values of a Series or Index are taken as they are)."""
    import numpy as np
    want = None if dtype is None else lookup(dtype)
    if want is not None and want.is_object:   # pandas' object column (_object_column)
        from ember.frame import _object_column as obj
        if isinstance(data, (Column, ember.ndarray)) or type(data).__module__.split(".")[0] \
                in ("pandas", "ember"):
            return astype(column_from(data, device=device), want)
        return obj.from_objects(data, device)
    if want is not None and want.is_categorical:   # the values, then their codes
        if isinstance(data, (list, tuple)) and want.categories is None and \
                any(_is_null(x) for x in data):
            # pandas infers the categories from the values that are there
            # (ints stay ints though a None would make the list float)
            from ember.frame._categorical import with_categories_of
            return with_categories_of(column_from(data, device=device), want, column_from(
                [x for x in data if not _is_null(x)], device=device))
        return astype(column_from(data, device=device), want)
    from ember.frame._index import Index
    if isinstance(data, Index):   # an Index's labels (to_datetime's, date_range's)
        data = data._col
    if isinstance(data, Column):
        col = data
        if device is not None and str(col.device) != str(device):
            col = col.to_device(device)
    elif type(data).__name__ == "Categorical":   # pandas' own, codes and all
        from ember.frame._cat_exchange import from_pandas
        col = from_pandas(data, device or str(ember.get_device()))
    elif isinstance(data, ember.ndarray):
        if data.ndim != 1:
            raise ValueError(f"a column must be 1-dimensional, got shape {data.shape}")
        if device is not None and str(data.device) != str(device):
            data = data.to_device(device)
        col = Column(str(data.dtype), data)
    elif isinstance(data, np.ndarray):
        if data.ndim != 1:
            raise ValueError(f"a column must be 1-dimensional, got shape {data.shape}")
        col = _from_numpy(data, want, device)
    elif type(data).__module__.split(".")[0] == "pandas":   # Index, Series, array
        from ember.frame._pandas import column_from_pandas, pandas
        if not hasattr(data, "array"):
            data = pandas().Series(data, copy=False)
        col = column_from_pandas(data, device)
    elif isinstance(data, (list, tuple, range)):
        items = list(data)
        if _is_objects(items):   # lists, dicts, mixed kinds: pandas' object column
            from ember.frame._object_column import from_objects
            return from_objects(items, device) if want is None else \
                astype(from_objects(items, device), want)
        if any(_is_time(x) for x in items):   # pandas' own scalars: pandas' units
            from ember.frame._pandas import pandas
            return column_from(pandas().Series(items), dtype, device)
        if (want is not None and want.is_string) or (want is None and _is_str_list(items)):
            from ember.frame import _strings
            items = [None if _is_nan(x) else x for x in items]
            return _strings.from_pylist(items, want or "str", device)
        nulls = [_is_null(x) for x in items]
        if any(nulls):
            filled = [0 if n else x for x, n in zip(items, nulls)]
            arr = np.asarray(filled)
            if want is None or not want.masked:
                arr = arr.astype(np.float64)
                arr[np.asarray(nulls)] = np.nan
                col = _from_numpy(arr, None, device)
            else:
                col = _from_numpy(arr, None, device)
                col = col.with_validity(ember.asarray(~np.asarray(nulls), device=device))
        else:
            arr = np.asarray(items) if items else np.zeros(0, dtype=np.float64)
            col = _from_numpy(arr, None, device)
    else:
        raise TypeError(f"cannot make a column from {type(data).__name__}")
    return col if want is None else astype(col, want)


def _from_numpy(arr, want, device):
    import numpy as np
    kind = arr.dtype.kind
    if kind in "MmU" or kind == "O":
        if kind == "O" or kind == "U":
            items = arr.tolist()
            if kind == "U" or _is_str_list(items):
                from ember.frame import _strings
                return _strings.from_pylist(items, want or "str", device)
            from ember.frame._object_column import from_objects
            return from_objects(items, device)
        unit = np.datetime_data(arr.dtype)[0]
        name = ("datetime64" if kind == "M" else "timedelta64") + f"[{unit}]"
        return Column(name, ember.asarray(arr.view(np.int64), device=device))
    name = lookup(str(arr.dtype)).name
    return Column(name, ember.asarray(arr, device=device))


def astype(col, dtype):
    """pandas' astype for the dtypes ember.frame holds."""
    to = lookup(dtype)
    src = col.dtype
    if to.is_object or src.is_object:
        from ember.frame._object_astype import astype as obj_astype
        return obj_astype(col, to)
    if to.is_categorical or src.is_categorical:
        from ember.frame._categorical import astype as cat_astype
        return cat_astype(col, to)
    if to == src:
        return col
    if src.is_string or to.is_string:
        if src.is_string and to.is_string:
            return Column(to, col.values, col.validity, col.offsets, col.length)
        raise NotImplementedError(f"astype from {src.name} to {to.name} is not "
                                  "supported yet")
    if (src.kind in "Mm") != (to.kind in "Mm"):
        if not ((src.kind in "Mm" and to.name == "int64") or
                (to.kind in "Mm" and src.kind in "iu")):
            raise TypeError(f"cannot astype {src.name} to {to.name}")
    elif src.kind in "Mm":   # counts of another unit: scaled, as pandas
        if src.kind == "M" and to.kind == "M":   # a zone kept, changed, never added
            from ember.frame._tz import astype_zone
            col = astype_zone(col, to)
            if col.dtype == to:
                return col
            src = col.dtype
        if src.kind != to.kind:
            raise TypeError(f"Cannot cast {'Datetime' if src.kind == 'M' else 'Timedelta'}"
                            f"Array to dtype {to.name}")
        from ember.frame._time_units import to_unit
        return to_unit(col, to.name)
    nulls = col.null_mask()
    values = col.values.astype(to.storage)
    if to.masked:
        if nulls is not None and src.kind == "f" and not src.masked:
            values = ember.where(nulls, 0, values).astype(to.storage)
        valid = None if nulls is None else ~nulls
        _check_safe(col, values, valid, to)
        return Column(to, values, None if valid is None else _bitmap.pack(valid))
    if nulls is not None and bool(nulls.any()):
        if to.kind == "f":
            values = ember.where(nulls, float("nan"), values)
        elif to.kind in "Mm":
            values = ember.where(nulls, _NAT, values)
        elif to.kind == "b" and not src.masked:
            pass   # NumPy's and pandas' NaN -> True
        else:
            raise ValueError(f"cannot convert NA to {to.name} (astype from "
                             f"{src.name}); fillna first or use {masked_form(to.storage).name}")
    return Column(to, values)


def _check_safe(col, values, valid, to):
    """pandas casts a NumPy column to a nullable dtype only when every
    valid value keeps its value (no fraction dropped, no wrap, only 0 and 1 to
    boolean)."""
    src = col.dtype
    if src.masked or (src.kind == to.kind and ember.can_cast(src.storage, to.storage)):
        return   # between nullable dtypes pandas casts as NumPy does
    same = values.astype("float64") == col.values.astype("float64")
    if valid is not None:
        same = same | ~valid
    if not bool(same.all()):
        raise TypeError(f"cannot safely cast non-equivalent {src.name} to {to.name}")
