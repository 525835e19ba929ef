"""Assignment to rows: s[key] = v, s.loc/iloc[key] = v, df[mask] = v,
df.loc/iloc[rows, cols] = v, with pandas 3's rules: a value the column's
dtype cannot hold raises TypeError (an int column taking 1.5, int8
taking 300, a str column taking 5), except a missing value in a plain int
column, which makes it float64; a label loc lacks in a list is KeyError,
a position iloc lacks IndexError, and one new label of a Series is a new
row (pandas' enlargement).

Each assignment writes into a new array of the touched column (one copy,
one scatter; a str column one gather from the column and the new
values), so another Series or frame sharing the column, or the pandas
frame a cpu column came from, never changes: pandas 3's copy-on-write."""
import ember

from ember.frame._column import Column, _NAT, concat
from ember.frame._where import _fits, _is_null, _object, _scalar_kind


def _invalid(value, d):
    raise TypeError(f"Invalid value '{value!s}' for dtype '{d.name}'")


def _is_scalar(x):
    from ember.frame._construct import is_scalar
    return is_scalar(x) or type(x).__name__ in ("datetime", "timedelta", "date",
                                                 "datetime64", "timedelta64")


def _scalar_column(d, value, dev):
    import numpy as np
    from ember.frame._convert import column_from
    null = _is_null(value) or type(value).__name__ == "NaTType"
    if d.kind in "Mm":
        if null:
            v = _NAT
        else:
            from ember.frame._ops import _time_scalar
            v = _time_scalar(d, value)
        return Column(d, ember.asarray(np.asarray([v], np.int64), device=dev))
    if null:
        if d.masked or d.is_string:
            return column_from([None], dtype=d, device=dev)
        if d.kind in "iuf":   # pandas 3 makes a plain int column float64 here
            storage = d.storage if d.kind == "f" else "float64"
            return Column(storage, ember.full(1, float("nan"), dtype=storage, device=dev))
        _object("setting", d, value)
    k = _scalar_kind(value)
    if d.is_string:
        if k != "U":
            raise TypeError(f"Invalid value '{value!s}' for dtype '{d.name}'. Value should "
                            f"be a string or missing value, got '{type(value).__name__}' "
                            "instead.")
        return column_from([value], dtype=d, device=dev)
    if k not in ("b", "i", "f") or (d.kind == "b") != (k == "b"):
        _invalid(value, d)
    if d.kind in "iu" and (k == "f" and not float(value).is_integer() or
                           not _fits(value, d.storage)):
        _invalid(value, d)
    return Column(d, ember.asarray(np.asarray([value], dtype=d.storage), device=dev))


def _fit(d, vals):
    """The values of a list-like in the column's dtype (TypeError when it
    cannot hold them; plain ints with a missing value become float64)."""
    vd = vals.dtype
    if d.is_string or vd.is_string:
        if d.is_string and vd.is_string:
            return Column(d, vals.values, vals.validity, vals.offsets, vals.length)
        _invalid(f"{vd.name} values", d)
    if d.kind in "Mm" or vd.kind in "Mm":
        if vd == d:
            return vals
        raise NotImplementedError(f"setting {vd.name} values into a {d.name} column")
    if (d.kind == "b") != (vd.kind == "b"):
        _invalid(f"{vd.name} values", d)
    nulls = vals.null_mask()
    has_nulls = nulls is not None and bool(nulls.any())
    v = vals.values
    cast = v.astype(d.storage)
    same = cast.astype(vd.storage) == v
    if nulls is not None:
        same = same | nulls
    if not bool(same.all()):
        _invalid(f"{vd.name} values", d)
    if has_nulls and d.kind in "iu" and not d.masked:
        return Column("float64", ember.where(nulls, float("nan"), v.astype("float64")))
    if d.masked:
        return Column(d, cast, None if not has_nulls else vals.with_validity(~nulls).validity)
    if has_nulls:
        cast = ember.where(nulls, float("nan"), cast).astype(d.storage)
    return Column(d, cast)


def _value_column(col, value, m, dev, obj_index=None):
    """(values Column, whether one value goes to every row)."""
    from ember.frame.series import Series
    from ember.frame._convert import column_from
    if _is_scalar(value):
        return _scalar_column(col.dtype, value, dev), True
    if isinstance(value, Series):
        if not (len(value) == col.length == m and obj_index is not None and
                value.index.equals(obj_index)):
            raise NotImplementedError("setting rows from a Series aligns on its labels, "
                                      "which ember.frame does not do yet; pass "
                                      "its values (.to_numpy()) for positional setting")
        vals = value._col
    else:
        vals = column_from(value, device=dev)
    if vals.length != m:
        raise ValueError("cannot set using a list-like indexer with a different length "
                         "than the value")
    return _fit(col.dtype, vals), False


def set_positions(col, pos, vals, broadcast):
    """The column with the rows at pos (int64 positions) taken from vals."""
    n, d = col.length, col.dtype
    if not d.is_string and vals.dtype == d and vals.validity is None and \
            col.validity is None:
        v = col.values.copy()
        v[pos] = vals.values[0] if broadcast else vals.values
        return Column(d, v)
    perm = ember.arange(n, dtype="int64", device=col.device)
    m = pos.shape[0]
    perm[pos] = n if broadcast else n + ember.arange(m, dtype="int64", device=col.device)
    out = concat(col, vals).take(perm)
    keep = vals.dtype if vals.dtype != d and not vals.dtype.is_string else d
    return Column(keep, out.values, out.validity, out.offsets, out.length)


def _plus_row(col, value, dev):
    vals, _ = _value_column(col, value, 1, dev)
    new = concat(col, vals)
    return Column(vals.dtype if vals.dtype != col.dtype and not col.dtype.is_string
                  else col.dtype, new.values, new.validity, new.offsets, new.length)


def _append_row(obj, label, value, dev):
    """pandas' enlargement: loc[new label] = value adds a row at the end (a
    frame takes a scalar or one value a column)."""
    from ember.frame._convert import column_from
    from ember.frame._index import Index
    if obj.index.dtype.is_string != isinstance(label, str):
        raise NotImplementedError(f"adding the label {label!r} to an index of "
                                  f"{obj.index.dtype.name}: pandas makes an object "
                                  "index, which ember.frame does not hold")
    index = Index(concat(obj.index._column(dev), column_from([label], device=dev)),
                  obj.index.name)
    if obj.ndim == 1:
        obj._col = _plus_row(obj._col, value, dev)
    else:
        names = list(obj._cols)
        values = [value] * len(names) if _is_scalar(value) else list(value)
        if len(values) != len(names):
            raise ValueError("cannot set a row with mismatched columns")
        obj._cols = {k: _plus_row(obj._cols[k], v, dev) for k, v in zip(names, values)}
    obj._index = index


def _positions(obj, key, how):
    """int64 positions of the rows a key sets, or ('new', label) for a
    label a Series lacks."""
    from ember.frame import _select
    n, dev = len(obj), obj._dev()
    if how == "[]":
        if isinstance(key, slice) and all(x is None or isinstance(x, int)
                                           for x in (key.start, key.stop)):
            how = "iloc"
        elif _is_mask(key):
            how = "iloc"
        else:
            how = "loc"
    if how == "iloc":
        try:
            kind, what = _select.iloc_rows(key, n, dev)
        except IndexError:
            if _select._is_scalar(key):
                raise IndexError("iloc cannot enlarge its target object") from None
            raise
    else:
        try:
            kind, what = _select.loc_rows(key, obj.index, dev)
        except KeyError:
            if _is_scalar(key):
                return ("new", key)
            raise
    if kind == "int":
        return ember.asarray([what], dtype="int64", device=dev)
    if kind == "slice":
        return ember.arange(*what.indices(n), dtype="int64", device=dev)
    return what


def _is_mask(key):
    from ember.frame.series import Series
    if isinstance(key, Series):
        return key.dtype.kind == "b"
    if isinstance(key, ember.ndarray) or type(key).__name__ == "ndarray":
        return str(key.dtype) == "bool"
    return isinstance(key, list) and bool(key) and all(isinstance(x, bool) for x in key)


def is_row_key(key):
    """Whether df[key] = value sets rows (a mask, a slice, a bool frame)
    rather than a column."""
    from ember.frame.frame import DataFrame
    return isinstance(key, (slice, DataFrame)) or _is_mask(key)


def _target_columns(df, cols, how):
    names = list(df._cols)
    if cols is None or (isinstance(cols, slice) and cols == slice(None)):
        return names
    if how == "iloc":
        if isinstance(cols, slice):
            return names[cols]
        if isinstance(cols, (list, tuple)):
            return [names[j] for j in cols]
        return [names[cols]]
    picked = list(cols) if isinstance(cols, (list, tuple)) else [cols]
    missing = [k for k in picked if k not in df._cols]
    if missing:
        raise NotImplementedError(f"adding columns {missing} with loc; use df[name] = "
                                  "value")
    return picked


def set_rows(obj, key, value, how):
    """obj[key] = value (how '[]'), obj.loc[key] = value, obj.iloc[key] = value."""
    from ember.frame.frame import DataFrame
    dev = obj._dev()
    if isinstance(obj, DataFrame):
        cols = None
        if how != "[]" and isinstance(key, tuple):
            key, cols = key
        if isinstance(key, DataFrame) and isinstance(value, DataFrame):
            # df[bool frame] = other frame: each column's mask by the other's
            # column of that name, as pandas' df.mask(key, other)
            for k in _target_columns(obj, None, how):
                if k in key._cols and k in value._cols:
                    obj._cols[k] = obj[k].mask(key[k], value[k])._col
            return
        if isinstance(key, DataFrame):   # df[bool frame] = value, column by column
            for k in _target_columns(obj, None, how):
                if k in key._cols:
                    set_rows(obj, (key[k], k), value, "loc")
            return
        pos = _positions(obj, key, how)
        if isinstance(pos, tuple):
            if cols is not None:
                raise NotImplementedError(f"adding the row {pos[1]!r} to some columns "
                                          "with loc (the others would be null); set "
                                          "the whole row")
            _append_row(obj, pos[1], value, dev)
            return
        for k in _target_columns(obj, cols, how):
            col = obj._cols[k]
            vals, one = _value_column(col, value, pos.shape[0], dev, obj.index)
            obj._cols[k] = set_positions(col, pos, vals, one)
        return
    pos = _positions(obj, key, how)
    col = obj._col
    if isinstance(pos, tuple):   # a new label: one more row
        _append_row(obj, pos[1], value, dev)
        return
    vals, one = _value_column(col, value, pos.shape[0], dev, obj.index)
    obj._col = set_positions(col, pos, vals, one)
