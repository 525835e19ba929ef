"""apply and map: a user function becomes one kernel over the columns it
reads (_udf); map by a dict or a Series is a lookup through the columns'
codes (_order)."""
import ember

from ember.frame import _bitmap
from ember.frame._column import Column
from ember.frame._dtypes import masked_form
from ember.frame._udf import ROW_LABEL, compile_udf, run_udf


def _python_type(d, what):
    """The kernel type of the values pandas hands a function of one value:
    Python's int, float and bool, so narrower types widen."""
    if d.is_string:
        raise NotImplementedError(f"{what} of a {d.name} column: the kernel translator "
                                  "compiles functions of numbers; use the .str methods")
    if d.kind in "Mm":
        raise NotImplementedError(f"{what} of a {d.name} column: the kernel translator "
                                  "compiles functions of numbers; use the .dt methods "
                                  "or astype('int64')")
    if d.is_categorical:
        raise NotImplementedError(f"{what} of a category column; map its categories "
                                  "(.cat.rename_categories) or astype the categories' "
                                  "dtype first")
    return {"b": "bool", "i": "int64", "u": "int64", "f": "float64"}[d.kind]


def _kernel_input(col, storage):
    v = col.values
    if str(v.dtype) == "uint64" and storage == "int64" and v.shape[0] \
            and bool((v >= 2 ** 63).any()):
        raise NotImplementedError("apply of uint64 values past 2**63 - 1 (the "
                                  "kernel sees them as int64)")
    return v if str(v.dtype) == storage else v.astype(storage)


def _result(out, valid):
    """The kernel's output as a column; with `valid` (bool), nullable."""
    if valid is None:
        return Column(str(out.dtype), out)
    return Column(masked_form(out.dtype), out, _bitmap.pack(valid))


def _valid_of(cols):
    valid = None
    for c in cols:
        if c.validity is not None:
            v = _bitmap.unpack(c.validity, c.length)
            valid = v if valid is None else valid & v
    return valid


def series_apply(s, func, args=(), kwargs=None, what="Series.apply"):
    """func of each value, compiled; a nullable column's nulls stay null
    (pandas hands the function NA, which most arithmetic returns)."""
    if len(s) == 0:   # pandas returns the empty Series unchanged, f unseen
        return s._like(s._col)
    col = s._col
    ufunc, _ = compile_udf(func, what, None, tuple(args), kwargs)
    x = _kernel_input(col, _python_type(col.dtype, what))
    out = run_udf(ufunc, [x], what, func)
    valid = _valid_of([col]) if col.dtype.masked else None
    if col.dtype.masked and valid is None:
        return s._like(Column(masked_form(out.dtype), out))
    return s._like(_result(out, valid))


def _row_types(df, what):
    """The type each column's value has in pandas' row: one NumPy dtype
    for a frame of numbers (int and float columns give float rows), else
    an object row of Python values."""
    import numpy as np
    ds = [c.dtype for c in df._cols.values()]
    if all(d.kind in "iuf" for d in ds):
        common = np.result_type(*[d.storage for d in ds]).name
        return lambda d: common
    if all(d.kind == "b" for d in ds):
        return lambda d: "bool"
    return lambda d: _python_type(d, what)


def frame_apply(df, func, axis=0, raw=False, result_type=None, args=(), kwargs=None):
    from ember.frame.series import Series
    what = "DataFrame.apply"
    if raw:
        raise NotImplementedError(f"{what}(raw=True); use raw=False (rows by name)")
    if result_type is not None:
        raise NotImplementedError(f"{what}(result_type=...); use result_type=None")
    if axis in (0, "index"):
        return _apply_columns(df, func, args, kwargs or {})
    if axis not in (1, "columns"):
        raise ValueError(f"No axis named {axis} for object type DataFrame")
    ufunc, cols = compile_udf(func, what, list(df._cols), tuple(args), kwargs)
    n = len(df)
    if n == 0:   # pandas cannot see a result type: float64, as it gives
        return Series._make(Column("float64", ember.zeros(0, dtype="float64",
                                                          device=df._device())),
                            df._index, None)
    kind = _row_types(df, what)
    used = [df.index._column(df._device()) if c is ROW_LABEL else df._cols[c]
            for c in cols]
    # pandas' row.name is the label as it is, not in the row's dtype
    xs = [_kernel_input(c, _python_type(c.dtype, what) if k is ROW_LABEL else kind(c.dtype))
          for k, c in zip(cols, used)] or \
        [ember.zeros(n, dtype="int8", device=df._device())]
    out = run_udf(ufunc, xs, what, func)
    masked = any(c.dtype.masked for c in used)
    valid = _valid_of(used)
    if masked and valid is None:
        return Series._make(Column(masked_form(out.dtype), out), df._index, None)
    return Series._make(_result(out, valid), df._index, None)


def _apply_columns(df, func, args, kwargs):
    """func of each column (a loop over columns, each call ember's)."""
    from ember.frame.series import Series
    from ember.frame.frame import DataFrame
    res = {k: func(df[k], *args, **kwargs) for k in df._cols}
    if res and all(isinstance(v, Series) for v in res.values()):
        return DataFrame(res)
    if any(isinstance(v, Series) for v in res.values()):
        raise NotImplementedError("DataFrame.apply whose function returns a Series "
                                  "for some columns and a scalar for others")
    vals = [v.item() if hasattr(v, "item") else v for v in res.values()]
    s = Series(vals, device=df._device())
    return Series._make(s._col, df._labels(list(df._cols)), None)


def frame_map(df, func, na_action=None, kwargs=None):
    """DataFrame.map: func of each value, column by column."""
    from ember.frame.frame import DataFrame
    from ember.frame.series import Series
    _check_na_action(na_action)
    return DataFrame._make({k: series_apply(Series._make(c, df._index, k), func, (),
                                            kwargs, "DataFrame.map")._col
                            for k, c in df._cols.items()}, df._index)


def _check_na_action(na_action):
    if na_action not in (None, "ignore"):
        raise ValueError(f"na_action must either be 'ignore' or None, {na_action!r} "
                         "was passed")


def series_map(s, arg, na_action=None, kwargs=None):
    from ember.frame.series import Series
    from ember.frame._convert import column_from
    _check_na_action(na_action)
    if isinstance(arg, Series):
        keys, values = arg.index._column(s.device), arg._col
    elif isinstance(arg, dict):
        if hasattr(type(arg), "__missing__"):
            raise NotImplementedError("Series.map with a dict that has a default "
                                      "(__missing__); use a plain dict")
        keys = column_from(list(arg.keys()), device=s.device)
        values = column_from(list(arg.values()), device=s.device)
    elif callable(arg):
        return series_apply(s, arg, (), kwargs, "Series.map")
    else:
        raise TypeError(f"Series.map takes a function, a dict or a Series, not "
                        f"{type(arg).__name__}")
    return s._like(_lookup(s._col, keys, values))


def _lookup(col, keys, values):
    """values[i] where keys[i] equals the row (nulls meet a null key), null
    where no key does."""
    from ember.frame._column import concat
    from ember.frame._order import codes
    n, dev = col.length, col.device
    if keys.length == 0 or n == 0 or col.dtype.is_string != keys.dtype.is_string:
        found = ember.zeros(n, dtype="bool", device=dev)
        pos = ember.zeros(n, dtype="int64", device=dev)
    elif _plain_numbers(col) and _plain_numbers(keys) and not keys.has_nulls():
        # the values themselves are searched among the few sorted keys
        # (O(n log k)); a NaN row finds no key
        found, pos = _find_numbers(col.values, keys.values)
    else:
        both, _ = codes(concat(col, keys))
        found, pos = _search(both[:col.length], both[col.length:])
    if values.length == 0:
        values = Column("float64", ember.full(1, float("nan"), device=dev))
        pos = ember.zeros(n, dtype="int64", device=dev)
    out = values.take(pos)
    everywhere = bool(found.all()) if n else True
    d = out.dtype
    if col.dtype.masked and not col.dtype.is_string and not d.masked and \
            d.kind in "biuf":
        # pandas gives a nullable source's result the nullable dtype
        storage = d.storage if everywhere or d.kind in "fb" else "float64"
        out = Column(masked_form(storage), out.values.astype(storage))
        d = out.dtype
    if everywhere:
        return out
    if d.masked:
        return out.with_validity(found & ~out.isna())
    if d.kind in "iu":
        return Column("float64", ember.where(found, out.values.astype("float64"),
                                             float("nan")))
    if d.kind == "f":
        return Column(d, ember.where(found, out.values, float("nan")))
    if d.kind in "Mm":
        return Column(d, ember.where(found, out.values, -(2 ** 63)))
    # pandas makes an object column of True/False/NaN; ember has none
    return out.with_validity(found, "boolean")


def _plain_numbers(col):
    return col.dtype.kind in "biuf" and col.validity is None


def _find_numbers(values, keys):
    """_search for plain numbers; integer keys in a range not much wider
    than the column are a table indexed by value - min (one gather)."""
    import numpy as np
    n, k = values.shape[0], keys.shape[0]
    if values.dtype.kind in "iu" and keys.dtype.kind in "iu":
        lo, hi = int(keys.min()), int(keys.max())
        if hi - lo <= 2 * n + 1024 and ember.unique(keys).shape[0] == k:
            dev = values.device
            table = ember.full(hi - lo + 1, -1, dtype="int64", device=dev)
            table[(keys - lo).astype("int64")] = ember.arange(k, dtype="int64", device=dev)
            rel = values.astype("int64") - lo
            inside = (rel >= 0) & (rel <= hi - lo)
            pos = table[ember.where(inside, rel, 0)]
            found = inside & (pos >= 0)
            return found, ember.maximum(pos, 0)
    t = np.result_type(values.dtype, keys.dtype).name
    return _search(values.astype(t), keys.astype(t))


def _search(mine, theirs):
    """(found, where) of each of `mine` among the distinct `theirs`."""
    order = ember.argsort(theirs, kind="stable")
    st = theirs[order]
    if st.shape[0] > 1 and bool((st[1:] == st[:-1]).any()):
        _not_unique()
    at = ember.minimum(ember.searchsorted(st, mine), st.shape[0] - 1)
    return st[at] == mine, order[at]


def _not_unique():
    try:
        from pandas.errors import InvalidIndexError as err
    except ImportError:
        err = ValueError
    raise err("Reindexing only valid with uniquely valued Index objects")
