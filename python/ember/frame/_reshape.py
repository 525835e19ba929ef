"""Reshaping and user functions: pivot_table, melt, apply and map
through ember's kernel translator, query, where, mask."""
import ember

from ember.frame._time_select import TimeSelectMethods
from ember.frame._unsupported import RefusedMethods


class ReshapeMethods(RefusedMethods, TimeSelectMethods):
    """apply, map, melt, pivot, query, eval, where, mask, between, isin and
    the HTML repr, for Series and DataFrame (each method looks at ndim);
    the methods refused with NotImplementedError come from RefusedMethods,
    the datetime-index selections from TimeSelectMethods."""

    def apply(self, func, *args_, by_row="compat", engine=None, engine_kwargs=None,
              **kwargs):
        """Series: apply(func, args=(), **kwargs), func of each value;
        DataFrame: apply(func, axis=0, raw=False, result_type=None, args=(),
        **kwargs), func of each row (axis=1, row['a'] or row.a) or of each
        column (axis=0). A function of values or rows is compiled into one
        kernel by ember's translator (not a Python loop); what it cannot
        compile is NotImplementedError naming the construct. engine= is
        accepted and ignored: the function is always compiled."""
        from ember.frame import _apply
        names = ("args",) if self.ndim == 1 else ("axis", "raw", "result_type", "args")
        if len(args_) > len(names):
            raise TypeError(f"apply() takes at most {len(names) + 1} positional arguments")
        opts = dict(zip(names, args_))
        for n in names:
            if n in kwargs:
                opts[n] = kwargs.pop(n)
        args = tuple(opts.get("args", ()))
        if self.ndim == 1:
            if by_row is False:   # pandas hands func the whole Series
                return func(self, *args, **kwargs)
            if func is len and not args and not kwargs:   # of lists and strings
                from ember.frame._object_ops import lengths
                return lengths(self)
            return _apply.series_apply(self, func, args, kwargs)
        return _apply.frame_apply(self, func, opts.get("axis", 0), opts.get("raw", False),
                                  opts.get("result_type"), args, kwargs)

    def map(self, arg, na_action=None, engine=None, **kwargs):
        """Series: by a function (compiled as apply), a dict or a Series
        (unmatched values give NaN); DataFrame: a function of each value."""
        from ember.frame import _apply
        if self.ndim == 1:
            if arg is len and not kwargs and na_action is None:
                from ember.frame._object_ops import lengths
                return lengths(self)
            return _apply.series_map(self, arg, na_action, kwargs)
        return _apply.frame_map(self, arg, na_action, kwargs)

    def where(self, cond, other=None, inplace=False, axis=None, level=None):
        """Each value where cond holds, else other (default: null)."""
        return self._where(cond, other, True, "where", inplace, axis, level)

    def mask(self, cond, other=None, inplace=False, axis=None, level=None):
        """Each value where cond does not hold, else other."""
        return self._where(cond, other, False, "mask", inplace, axis, level)

    def _where(self, cond, other, keep_true, what, inplace, axis, level):
        from ember.frame import _where
        if axis is not None or level is not None:
            raise NotImplementedError(f"{what} with axis= or level= (alignment)")
        other = _where.NULL if other is None else other
        fn = _where.series_where if self.ndim == 1 else _where.frame_where
        out = fn(self, cond, other, keep_true, what)
        if not inplace:
            return out
        if self.ndim == 1:
            self._col = out._col
        else:
            self._cols = out._cols
        return None

    def between(self, left, right, inclusive="both"):
        from ember.frame._where import between
        if self.ndim != 1:
            raise AttributeError("'DataFrame' object has no attribute 'between'")
        return between(self, left, right, inclusive)

    def isin(self, values):
        from ember.frame._where import frame_isin
        return frame_isin(self, values)

    def pivot(self, *, columns, index=None, values=None):
        from ember.frame._pivot import pivot
        return pivot(self, columns, index, values)

    def melt(self, id_vars=None, value_vars=None, var_name=None, value_name="value",
             col_level=None, ignore_index=True):
        return melt(self, id_vars, value_vars, var_name, value_name, col_level,
                    ignore_index)

    def query(self, expr, *, parser="pandas", engine=None, local_dict=None,
              global_dict=None, resolvers=None, level=0, inplace=False):
        """The rows where a boolean expression of the columns holds
        (docs/frames.md lists what an expression may hold)."""
        from ember.frame._query import caller_scope, query
        _no_resolvers(resolvers)
        out = query(self, expr, caller_scope(1 + level, local_dict, global_dict))
        if not inplace:
            return out
        self._cols, self._index = out._cols, out._index
        return None

    def eval(self, expr, *, parser="pandas", engine=None, local_dict=None,
             global_dict=None, resolvers=None, level=0, inplace=False):
        """The value of an expression of the columns, or with `c = expr`
        the frame with column c set (in place with inplace=True)."""
        from ember.frame._query import caller_scope, evaluate
        _no_resolvers(resolvers)
        out = evaluate(self, expr, caller_scope(1 + level, local_dict, global_dict))
        if not inplace:
            return out
        if not hasattr(out, "_cols"):
            raise ValueError("Cannot operate inplace if there is no assignment")
        self._cols = out._cols
        return None

    @property
    def __dataframe__(self):
        """The dataframe interchange protocol (a DataFrame's only: a Series
        has none, as in pandas, so hasattr tells the two apart)."""
        if self.ndim != 2:
            raise AttributeError("'Series' object has no attribute '__dataframe__'")
        from ember.frame._interchange import exchange
        return lambda nan_as_null=False, allow_copy=True: exchange(self, nan_as_null,
                                                                   allow_copy)

    @property
    def __arrow_array__(self):
        """pyarrow's own hook, which pa.array tries before the device
        capsule: a host Arrow array (a cuda Series is copied), as before the
        device interface came."""
        if self.ndim != 1:
            raise AttributeError("'DataFrame' object has no attribute '__arrow_array__'")

        def to_arrow(type=None):
            arr = self.to_arrow()
            return arr if type is None or arr.type == type else arr.cast(type)
        return to_arrow

    def __arrow_c_device_array__(self, requested_schema=None, **kwargs):
        """Arrow's C Device Data Interface: the columns' own memory on
        their device (a DataFrame is a struct array of its columns)."""
        from ember.frame._arrow_device import device_array
        return device_array(self, requested_schema, **kwargs)

    def __arrow_c_device_stream__(self, requested_schema=None, **kwargs):
        from ember.frame._arrow_device import device_stream
        return device_stream(self, requested_schema, **kwargs)

    def _repr_html_(self):
        from ember.frame._html import html
        return html(self)


def _no_resolvers(resolvers):
    if resolvers:
        raise NotImplementedError("query/eval with resolvers=; use local_dict= and "
                                  "@names")


def _names(x, frame, what):
    if x is None:
        return []
    names = list(x) if isinstance(x, (list, tuple)) else [x]
    missing = [k for k in names if k not in frame._cols]
    if missing:
        raise KeyError("The following id_vars or value_vars are not present in the "
                       f"DataFrame: {missing}")
    return names


def melt(frame, id_vars=None, value_vars=None, var_name=None, value_name="value",
         col_level=None, ignore_index=True):
    """pandas' melt: the id columns repeated once per value column, a
    column naming the value column each row came from, and the values one
    column after the other."""
    from ember.frame._convert import column_from
    from ember.frame._index import RangeIndex
    from ember.frame.frame import DataFrame
    if col_level is not None:
        raise NotImplementedError("melt(col_level=...): ember.frame has no "
                                  "MultiIndex columns")
    if value_name in frame._cols:
        raise ValueError(f"value_name ({value_name}) cannot match an element in the "
                         "DataFrame columns.")
    ids = _names(id_vars, frame, "id_vars")
    values = _names(value_vars, frame, "value_vars") if value_vars is not None else \
        [k for k in frame._cols if k not in ids]
    var_name = "variable" if var_name is None else var_name
    n, k, dev = len(frame), len(values), frame._device()
    i = ember.arange(n * k, dtype="int64", device=dev)
    tile = i % n if n else i
    cols = {c: frame._cols[c].take(tile) for c in ids}
    labels = column_from(values if values else [], dtype=None if values else "str",
                         device=dev)
    cols[var_name] = labels.take(i // n) if n else labels.take(i)
    cols[value_name] = _stack([frame._cols[c] for c in values], dev)
    index = RangeIndex(0, n * k) if ignore_index else frame.index.take(tile)
    return DataFrame._make(cols, index)


def _stack(cols, dev):
    """The columns one after the other, in their common dtype (pandas'
    concat: int and float give float, a nullable one makes it nullable)."""
    from ember.frame import _bitmap
    from ember.frame._column import Column
    if not cols:
        return Column("float64", ember.zeros(0, dtype="float64", device=dev))
    if any(c.dtype.is_categorical for c in cols):   # codes moved to one dtype's
        from ember.frame._merge_cols import concat
        return concat(cols, [c.length for c in cols], dev)
    kinds = {c.dtype.is_string for c in cols}
    bools = {c.dtype.kind == "b" for c in cols}
    times = {c.dtype.name if c.dtype.kind in "Mm" else None for c in cols}
    if len(kinds) > 1 or len(bools) > 1 or len(times) > 1:
        raise NotImplementedError("melt of value columns of mixed kinds ("
                                  + ", ".join(sorted({c.dtype.name for c in cols}))
                                  + "): pandas makes an object column, which "
                                  "ember.frame does not hold")
    if not cols[0].dtype.is_string:
        v = ember.concatenate([c.values for c in cols])
        d = cols[0].dtype if cols[0].dtype.kind in "Mm" else str(v.dtype)
        if not any(c.dtype.masked for c in cols):
            return Column(d, v)
        from ember.frame._dtypes import masked_form
        valid = ember.concatenate([~c.isna() for c in cols])
        return Column(masked_form(v.dtype), v, _bitmap.pack(valid))
    # strings: each column's bytes in use, its offsets moved past the bytes
    # before it (one small read of each column's first and last offset)
    vals, offs, base = [], [ember.zeros(1, dtype="int64", device=dev)], 0
    for c in cols:
        o = c.offsets.astype("int64")
        lo, hi = int(o[0]), int(o[c.length])
        vals.append(c.values[lo:hi])
        offs.append(o[1:] - lo + base)
        base += hi - lo
    valid = _bitmap.pack(ember.concatenate([~c.isna() for c in cols]))
    return Column(cols[0].dtype, ember.concatenate(vals), valid, ember.concatenate(offs))
