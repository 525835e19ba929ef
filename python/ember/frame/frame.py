"""DataFrame: named columns of one length sharing one index."""
import ember

from ember.frame import _dup_labels as _dup, _order, _select
from ember.frame._attrs import (AttrMethods, attrs_property, set_column_names,
                                set_index_labels)
from ember.frame._frame_ops import FrameOpsMethods
from ember.frame._groupby import GroupbyMethods
from ember.frame._replace import ReplaceMethods
from ember.frame._transpose import NO_VALUE, FrameShapeMethods
from ember.frame._ufunc import UfuncMethods
from ember.frame._io import IOMethods
from ember.frame._merge import MergeMethods
from ember.frame._methods_frame import FrameMethods
from ember.frame._multiindex_methods import LevelMethods
from ember.frame._reshape import ReshapeMethods
from ember.frame._window import WindowMethods
from ember.frame._column import Column
from ember.frame._index import Index, RangeIndex, on_device
from ember.frame.series import Series, _index_for


class DataFrame(_select.Rows, GroupbyMethods, MergeMethods, WindowMethods,
                IOMethods, ReshapeMethods, AttrMethods, FrameShapeMethods, FrameOpsMethods,
                ReplaceMethods, FrameMethods, LevelMethods, UfuncMethods):
    """pandas' DataFrame over ember columns: DataFrame(data, index=None,
    columns=None, dtype=None, device=None), data a dict of lists, NumPy or
    ember arrays, or Series."""

    def __init__(self, data=None, index=None, columns=None, dtype=None, device=None,
                 nan_as_null=None):
        from ember.frame import _construct
        from ember.frame._convert import column_from
        if data is None:
            data = {}
        if isinstance(data, DataFrame):
            data = {k: Series._make(c, data._index, k) for k, c in data._cols.items()}
        if not isinstance(data, dict):
            data, index, columns = _construct.frame_dict(data, index, columns, device)
        data = _construct.broadcast_scalars(data, index, dtype, device)
        if columns is not None:
            missing = [c for c in columns if c not in data]
            data = {c: data[c] for c in columns if c in data}
            if missing:
                raise KeyError(f"{missing} not in data")
        cols = {}
        series_index = _series_index(data)
        for k, v in data.items():
            if isinstance(v, Series):
                if index is None:   # aligned on the union of their labels
                    from ember.frame._reindex import aligned_column
                    v = aligned_column(v, series_index, v._col.device)
                else:
                    v = v._col
            cols[k] = column_from(v, dtype=dtype, device=device)
            if nan_as_null:
                cols[k] = _construct.nan_to_null(cols[k])
            if device is not None and str(cols[k].device) != str(device):
                cols[k] = cols[k].to_device(device)
        devices = {str(c.device) for c in cols.values()}
        if len(devices) > 1:   # ember never copies between devices unasked
            raise ValueError(f"columns on several devices ({', '.join(sorted(devices))}); "
                             "pass device= to move them")
        lengths = {c.length for c in cols.values()}
        if len(lengths) > 1:
            raise ValueError("All arrays must be of the same length")
        n = lengths.pop() if lengths else (len(index) if index is not None else 0)
        if index is None and series_index is not None:
            index = series_index
        dev = next(iter(cols.values())).device if cols else device
        self._cols = cols
        self._index = _index_for(index, n, dev)
        if not cols:   # pandas: RangeIndex without columns=, object from []
            self._empty_columns = "range" if columns is None else "object"

    @classmethod
    def _make(cls, cols, index):
        df = cls.__new__(cls)
        df._cols, df._index = _dup.normal(dict(cols)), index
        return df

    # ---- attributes
    index = property(lambda self: self._index, set_index_labels)
    shape = property(lambda self: (len(self._index), len(self._cols)))
    size = property(lambda self: len(self._index) * len(self._cols))
    ndim = 2
    empty = property(lambda self: len(self._index) == 0 or not self._cols)

    _colname = None   # pandas' columns.name (_colname.py)
    # the columns Index of a frame without columns, which pandas types by
    # the frame's history: str once str labels are all dropped (the
    # default: ember's labels are mostly str), "range" (RangeIndex(0, 0))
    # for a frame built without any, "object" for one built from an empty
    # list of new labels (str.get_dummies of no rows). Row selections keep
    # it (_colname.keep), from_pandas reads it.
    _empty_columns = None

    @property
    def columns(self):
        from ember.frame._colname import ColumnLabels
        names = _dup.labels(self._cols)
        if any(isinstance(n, tuple) for n in names):   # _labels' MultiIndex or object
            from ember.frame import _column_levels
            labels = self._labels(names)
            if _column_levels.is_multi(names):
                labels.names = _column_levels.level_names(self, len(names[0]))
            return labels
        if not names and self._empty_columns == "range":
            return RangeIndex(0, 0)
        if not names and self._empty_columns == "object":   # as _labels does
            from ember.frame._pandas import pandas
            return pandas().Index([], dtype=object)
        return ColumnLabels(self, names)

    columns = columns.setter(set_column_names)
    attrs = attrs_property

    def _labels(self, names):
        """An Index of names (column names, statistics) on the frame's device,
        so that it can be searched next to the values. Tuples make a
        MultiIndex; names of mixed kinds with tuples among them (dask's
        groupby var names its partial sums (name, "-x2")) are host labels
        only, pandas' object Index."""
        names = _dup.labels(names)
        if any(isinstance(n, tuple) for n in names):
            if all(isinstance(n, tuple) and len(n) == len(names[0]) for n in names):
                from ember.frame._multiindex import MultiIndex
                return MultiIndex.from_tuples(names, device=self._device())
            import pandas as pd
            return pd.Index(names, dtype=object, tupleize_cols=False)
        return Index(names, dtype=None if names else "str", device=self._device())

    @property
    def dtypes(self):
        """{column name: Dtype} (pandas gives a Series of dtype objects)."""
        if _dup.has_reps(self._cols):   # a dict cannot repeat a key: pandas' Series
            from ember.frame._pandas import pandas
            return pandas().Series([c.dtype for c in self._cols.values()],
                                   index=_dup.labels(self._cols), dtype=object)
        return {k: c.dtype for k, c in self._cols.items()}

    def __len__(self):
        return len(self._index)

    def __bool__(self):
        raise ValueError("The truth value of a DataFrame is ambiguous. Use a.empty, "
                         "a.bool(), a.item(), a.any() or a.all().")

    def __contains__(self, key):
        return bool(_dup.keys_of(self._cols, key))

    def __iter__(self):
        return iter(_dup.labels(self._cols))

    def keys(self):
        return self.columns

    def items(self):
        for k, c in self._cols.items():   # a repeated label once per occurrence
            yield _dup.label(k), Series._make(c, self._index, k)

    # ---- exchange
    def to_pandas(self):
        from ember.frame._pandas import column_to_pandas, held_as, pandas
        pd = pandas()
        index = self._index.to_pandas()
        if _dup.has_reps(self._cols):
            from ember.frame._dup_frame import to_pandas
            return to_pandas(self, pd, index)
        data = {k: pd.Series(column_to_pandas(c), index=index, copy=False, dtype=held_as(c))
                for k, c in self._cols.items()}
        # no names to infer a dtype from: the columns Index says which (str)
        names = list(self._cols)
        from ember.frame import _column_levels
        if not names:
            names = _column_levels.empty_columns(self, pd)
        if names is None or (not len(names) and not isinstance(names, pd.MultiIndex)):
            names = self.columns
            names = names if isinstance(names, pd.Index) else names.to_pandas()
        if _column_levels.is_multi(names):   # tuple labels: pandas' MultiIndex columns
            names = _column_levels.to_pandas_columns(self, pd)
        out = pd.DataFrame(data, index=index, columns=names, copy=False)
        if self._colname is not None and not isinstance(self._colname, list):
            out.columns.name = self._colname
        return out

    def _arrow_arrays(self):
        from ember.frame._arrow import column_to_arrow
        return ([column_to_arrow(c) for c in self._cols.values()],
                [str(k) for k in self._cols])

    def to_arrow(self):
        """A pyarrow Table sharing the columns' memory on cpu."""
        from ember.frame._arrow import _pa
        pa = _pa()
        return pa.Table.from_arrays(*self._arrow_arrays())

    def __arrow_c_stream__(self, requested_schema=None):
        return self.to_arrow().__arrow_c_stream__(requested_schema)

    def __arrow_c_array__(self, requested_schema=None):
        from ember.frame._arrow import _pa
        pa = _pa()
        batch = pa.RecordBatch.from_arrays(*self._arrow_arrays())
        return batch.__arrow_c_array__(requested_schema)

    def to_device(self, device):
        return DataFrame._make({k: c.to_device(device) for k, c in self._cols.items()},
                               on_device(self._index, device))

    def __repr__(self):
        from ember.frame._repr import frame_repr
        return frame_repr(self)

    # ---- columns
    def _column(self, key):
        try:
            return self._cols[key]
        except (KeyError, TypeError):
            if _dup.is_repeated(self._cols, key):
                raise _dup.not_unique(key) from None
            raise KeyError(key) from None

    def _top_level(self, key):
        """df[key] of the first level of tuple labels (_column_levels), or None."""
        if key in self._cols or not self._cols or \
                not isinstance(next(iter(self._cols)), tuple):
            return None
        from ember.frame._column_levels import select
        return select(self, key)

    def __getitem__(self, key):
        if callable(key):   # pandas: df[lambda d: ...] selects by its result
            key = key(self)
        if isinstance(key, Series) and key.dtype.kind == "b":
            if not key.index.equals(self._index):
                raise NotImplementedError("a boolean Series with another index "
                                          "(alignment) is not supported yet")
            return self._take(_select.mask_positions(key._col, len(self)))
        if isinstance(key, ember.ndarray) and str(key.dtype) == "bool":
            return self._take(_select.mask_positions(key, len(self)))
        if isinstance(key, DataFrame):   # pandas: df[bool_frame] is df.where(it)
            return self.where(key)
        if isinstance(key, slice):
            from ember.frame._label_slice import positional
            return self.iloc[key] if positional(key) else self.loc[key]
        if type(key).__module__.split(".")[0] == "pandas" and \
                type(key).__name__ == "Index":
            key = list(key)             # pandas' Index of names, as dask passes
        if isinstance(key, (list, tuple, Index)) and not (isinstance(key, tuple)
                                                          and key in self._cols):
            keys = [_dup.keys_of(self._cols, k) for k in key]
            missing = [k for k, ks in zip(key, keys) if not ks]
            if missing:
                raise KeyError(f"{missing} not in index")
            from ember.frame._dup_frame import select
            return select(self, [k for ks in keys for k in ks])
        top = self._top_level(key)
        if top is not None:
            return top
        keys = _dup.keys_of(self._cols, key)
        if len(keys) > 1:   # a repeated label: a frame of its columns, as pandas
            from ember.frame._dup_frame import select
            return select(self, keys)
        return Series._make(self._column(key), self._index, key)

    def __setitem__(self, key, value):
        from ember.frame._convert import column_from
        from ember.frame._setitem import is_row_key, set_rows
        if is_row_key(key):
            return set_rows(self, key, value, "[]")
        if isinstance(key, Index) or type(key).__module__.split(".")[0] == "pandas" \
                and type(key).__name__ == "Index":
            key = list(key)
        if isinstance(key, list) and isinstance(value, DataFrame):
            # columns by position, as pandas: df[["a", "b"]] = other
            if len(key) != len(value.columns):
                raise ValueError("Columns must be same length as key")
            for k, c in zip(key, list(value._cols.values())):
                self[k] = Series._make(c, value._index, k)
            return
        if type(value).__module__.split(".")[0] == "pandas" and \
                type(value).__name__ == "Series":
            from ember.frame._pandas import from_pandas
            value = from_pandas(value, self._device())
        n = len(self)
        dev = self._device()
        if isinstance(value, Series):   # aligned on the labels, as pandas
            from ember.frame._reindex import aligned_column
            col = aligned_column(value, self._index, dev)
        elif isinstance(value, (bool, int, float, str)) or type(value).__module__ == "numpy" \
                and not hasattr(value, "__len__"):
            from ember.frame._convert import repeat_scalar
            col = repeat_scalar(value, n, device=dev)
        else:
            col = column_from(value, device=None if isinstance(value, ember.ndarray)
                              else dev)
            if not self._cols and not n:   # the first column sets the length
                self._index, n = RangeIndex(0, col.length), col.length
            if col.length != n:
                raise ValueError(f"Length of values ({col.length}) does not match "
                                 f"length of index ({n})")
        if dev is not None and str(col.device) != str(dev):
            raise ValueError(f"the column is on {col.device}, the frame on {dev}; "
                             "move it with to_device")
        for k in _dup.keys_of(self._cols, key) or [key]:   # every occurrence, as pandas
            self._cols[k] = col

    def __delitem__(self, key):
        keys = _dup.keys_of(self._cols, key)
        if not keys:
            raise KeyError(key)
        for k in keys:   # every occurrence of a repeated label, as pandas
            del self._cols[k]
        self._cols = _dup.normal(self._cols)

    def _device(self):
        for c in self._cols.values():
            return c.device
        return None

    def assign(self, **kw):
        out = self.copy(deep=False)
        for k, v in kw.items():
            out[k] = v(out) if callable(v) else v
        return out

    def copy(self, deep=True):
        from ember.frame._colname import keep
        return keep(self, DataFrame._make({k: c.copy() if deep else c
                                           for k, c in self._cols.items()}, self._index))

    def reindex(self, index=None, columns=None, fill_value=None):
        from ember.frame._reindex import reindex_frame
        if columns is not None:
            _dup.check_unique(self, "reindex")
        return reindex_frame(self, index, columns, fill_value)

    def drop(self, labels=None, *, axis=0, index=None, columns=None, errors="raise"):
        from ember.frame._frame_labels import drop
        return drop(self, labels, axis, index, columns, errors)

    def rename(self, columns=None, *, index=None):
        """columns: a mapping of old to new names, or a function of a name;
        index: a mapping of old to new labels."""
        out = self
        if columns is not None:
            new = columns if callable(columns) else (lambda k: columns.get(k, k))
            # pairs, not a dict: a new name may repeat one there (pandas keeps both)
            out = DataFrame._make(_dup.rekeyed((new(_dup.label(k)), c)
                                               for k, c in out._cols.items()), out._index)
        if index is not None:
            from ember.frame._frame_labels import rename_index
            out = rename_index(out, index)
        return out

    def rename_axis(self, mapper=NO_VALUE, *, index=NO_VALUE, columns=NO_VALUE,
                    axis=0, copy=None, inplace=False):
        from ember.frame._frame_labels import rename_axis
        return rename_axis(self, mapper, index, columns, axis, inplace)

    def get(self, key, default=None):
        from ember.frame._frame_labels import get
        return get(self, key, default)

    def itertuples(self, index=True, name="Pandas"):
        from ember.frame._frame_labels import itertuples
        return itertuples(self, index, name)

    def iterrows(self):
        from ember.frame._iterrows import iterrows
        return iterrows(self)

    # ---- rows
    def _take(self, pos):
        from ember.frame._colname import keep
        return keep(self, DataFrame._make({k: c.take(pos) for k, c in self._cols.items()},
                                          self._index.take(pos)))

    def _slice(self, start, stop):
        from ember.frame._colname import keep
        return keep(self, DataFrame._make({k: c.slice(start, stop)
                                           for k, c in self._cols.items()},
                                          self._index.slice(start, stop)))

    def _dev(self):
        return self._device()

    def _row(self, p):
        from ember.frame._row import frame_row
        return frame_row(self, p)

    def _pick(self, cols, by_label):
        """The columns of a [rows, columns] key: one name gives a Series."""
        names = list(self._cols)
        if _dup.is_mask(cols):   # loc[:, ~df.columns.duplicated()]
            from ember.frame._dup_frame import select_mask
            return select_mask(self, cols)
        if isinstance(cols, slice):
            if by_label and cols != slice(None):
                from ember.frame._label_slice import name_slice
                return self[name_slice(cols, names)]
            return self[names[cols]]
        if isinstance(cols, (list, tuple)):
            return self[list(cols) if by_label else [names[i] for i in cols]]
        return self[cols if by_label else names[cols]]

    # ---- nulls
    def isna(self):
        return DataFrame._make({k: Column("bool", c.isna()) for k, c in self._cols.items()},
                               self._index)

    isnull = isna

    def notna(self):
        return DataFrame._make({k: Column("bool", ~c.isna()) for k, c in
                                self._cols.items()}, self._index)

    notnull = notna

    def fillna(self, value):
        from ember.frame._ops import fill_nulls
        if isinstance(value, Series):   # one value a column, by its label
            value = dict(zip(value.index.tolist(), value.tolist()))
        if isinstance(value, dict):
            return DataFrame._make({k: fill_nulls(c, value[k]) if k in value else c
                                    for k, c in self._cols.items()}, self._index)
        return DataFrame._make({k: fill_nulls(c, value) for k, c in self._cols.items()},
                               self._index)

    def dropna(self, axis=0, how="any", subset=None):
        if how not in ("any", "all"):
            raise ValueError(f"invalid how option: {how}")
        if axis in (1, "columns"):
            if subset is not None:
                raise NotImplementedError("dropna(axis=1, subset=)")
            nulls = {k: c.isna() for k, c in self._cols.items()}
            return DataFrame._make({k: c for k, c in self._cols.items() if not bool(
                nulls[k].any() if how == "any" else nulls[k].all())}, self._index)
        if axis not in (0, "index"):
            raise ValueError(f"No axis named {axis} for object type DataFrame")
        names = list(self._cols) if subset is None else (
            [subset] if isinstance(subset, str) else list(subset))
        drop = None
        for k in names:
            m = self._column(k).null_mask()
            if m is None:
                m = ember.zeros(len(self), dtype="bool", device=self._device())
            drop = m if drop is None else (drop | m if how == "any" else drop & m)
        if drop is None:
            return self
        return self._take(ember.flatnonzero(~drop))

    # ---- reductions, column by column
    def _reduce(self, how, skipna=True, numeric_only=False, axis=0, **kw):
        from ember.frame._reduce import reduce, result_dtype, na
        if axis in (1, "columns"):
            from ember.frame._reduce_rows import row_reduce
            return row_reduce(self, how, skipna, numeric_only, **kw)
        if axis not in (0, None, "index"):
            raise NotImplementedError(f"DataFrame.{how}(axis={axis!r}): only "
                                      "axis=0 (down the columns)")
        from ember.frame._dtypes import lookup, masked_form
        import numpy as np
        names, results, dtypes, masked = [], [], [], False
        for k, c in self._cols.items():
            if numeric_only and not c.dtype.is_numeric:
                continue
            names.append(k)
            results.append(reduce(c, how, skipna=skipna, **kw))
            dtypes.append(result_dtype(c, how))
            masked = masked or (c.dtype.masked and how != "count")
        strings = [self._cols[k].dtype for k in names if self._cols[k].dtype.is_string]
        if strings and how != "count":
            return self._string_results(how, names, results, strings)
        plain = [lookup(t).storage if lookup(t).kind not in "Mm" else t for t in dtypes]
        common = np.result_type(*plain) if plain else np.dtype("float64")
        null = na()
        host = np.asarray([0 if r is null else r for r in results], dtype=common)
        dev = self._device()
        values = ember.asarray(host.view(np.int64) if common.kind in "Mm" else host,
                               device=dev)
        if masked:
            from ember.frame import _bitmap
            # a NaN in a nullable result reads as NA (pandas 3)
            ok = [r is not null and r == r for r in results]
            valid = ember.asarray(np.asarray(ok, bool), device=dev)
            col = Column(masked_form(common.name), values, _bitmap.pack(valid))
        else:
            col = Column(lookup(common.name), values)
        return Series._make(col, self._labels(names), None)

    def _string_results(self, how, names, results, dtypes):
        """min/max of str columns: a str Series as pandas gives it; beside
        number columns pandas' object Series, which ember.frame lacks."""
        from ember.frame._convert import column_from
        if len(dtypes) != len(names) or len({d.name for d in dtypes}) > 1:
            raise NotImplementedError(
                f"DataFrame.{how} of str and other columns (pandas makes an object "
                f"Series); pass numeric_only=True or reduce the columns one by one")
        vals = [r if isinstance(r, str) else None for r in results]
        return Series._make(column_from(vals, dtype=dtypes[0].name, device=self._device()),
                            self._labels(names), None)

    def sum(self, axis=0, skipna=True, numeric_only=False, min_count=0):
        return self._reduce("sum", skipna, numeric_only, axis, min_count=min_count)

    def prod(self, axis=0, skipna=True, numeric_only=False, min_count=0):
        return self._reduce("prod", skipna, numeric_only, axis, min_count=min_count)

    def mean(self, axis=0, skipna=True, numeric_only=False):
        return self._reduce("mean", skipna, numeric_only, axis)

    def min(self, axis=0, skipna=True, numeric_only=False):
        return self._reduce("min", skipna, numeric_only, axis)

    def max(self, axis=0, skipna=True, numeric_only=False):
        return self._reduce("max", skipna, numeric_only, axis)

    def std(self, axis=0, skipna=True, numeric_only=False, ddof=1):
        return self._reduce("std", skipna, numeric_only, axis, ddof=ddof)

    def var(self, axis=0, skipna=True, numeric_only=False, ddof=1):
        return self._reduce("var", skipna, numeric_only, axis, ddof=ddof)

    def count(self, axis=0, numeric_only=False):
        return self._reduce("count", numeric_only=numeric_only, axis=axis)

    # ---- types, order, distinct values
    def astype(self, dtype, copy=None, errors="raise"):
        """errors='ignore' keeps a column whose cast fails as it was."""
        from ember.frame._convert import astype
        if errors not in ("raise", "ignore"):
            raise ValueError("errors must be one of 'raise' or 'ignore'")

        def cast(c, t):
            if errors == "raise":
                return astype(c, t)
            try:
                return astype(c, t)
            except (TypeError, ValueError):
                return c
        if isinstance(dtype, dict) or hasattr(dtype, "items"):
            dtype = dict(dtype.items())
            for k in dtype:
                self._column(k)
            return DataFrame._make({k: cast(c, dtype[k]) if k in dtype else c
                                    for k, c in self._cols.items()}, self._index)
        return DataFrame._make({k: cast(c, dtype) for k, c in self._cols.items()},
                               self._index)

    def sort_values(self, by, ascending=True, na_position="last", kind="stable",
                    ignore_index=False):
        by = [by] if not isinstance(by, (list, tuple)) else list(by)
        asc = [bool(ascending)] * len(by) if isinstance(ascending, (bool, int)) \
            else [bool(a) for a in ascending]
        if len(asc) != len(by):
            raise ValueError(f"Length of ascending ({len(asc)}) != length of by "
                             f"({len(by)})")
        pos, first = _order.sorted_key([self._column(k) for k in by], asc, na_position)
        from ember.frame._colname import keep
        cols = {k: first if first is not None and k == by[0] else c.take(pos)
                for k, c in self._cols.items()}
        return keep(self, DataFrame._make(
            cols, RangeIndex(0, len(self)) if ignore_index else self._index.take(pos)))

    def set_index(self, keys, drop=True, append=False, inplace=False,
                  verify_integrity=False):
        """Columns (or arrays) as the index, as pandas (_set_index.py)."""
        from ember.frame._set_index import set_index
        cols, index = set_index(self, keys, drop, append, verify_integrity)
        if not inplace:
            out = DataFrame._make(cols, index)
            out._colname = self._colname
            return out
        self._cols, self._index = cols, index
        return None

    def reset_index(self, level=None, *, drop=False):
        """The index (or its levels named by level) as the first columns
        (named for them, or 'index' / 'level_i'); what is left of the index,
        or a fresh RangeIndex."""
        from ember.frame._multiindex_frame import split_levels
        moved, rest = split_levels(self._index, level, self._device(),
                                   {} if drop else self._cols)
        return DataFrame._make(self._cols if drop else {**moved, **self._cols}, rest)

    def stack(self, level=-1, dropna=None, sort=None, future_stack=True):
        from ember.frame._multiindex_reshape import stack
        return stack(self, level, dropna, sort, future_stack)

    def unstack(self, level=-1, fill_value=None, sort=True):
        raise NotImplementedError("DataFrame.unstack (its columns would be a "
                                  "MultiIndex); unstack one column: df[name].unstack()")

    def duplicated(self, subset=None, keep="first"):
        return Series._make(Column("bool", _order.duplicated(self._subset(subset), keep)),
                            self._index, None)

    def drop_duplicates(self, subset=None, keep="first", ignore_index=False):
        rows = _order.unduplicated_rows(self._subset(subset), keep)
        return _select.keep_rows(self, rows, ignore_index)

    def _subset(self, subset):
        names = list(self._cols) if subset is None else (
            [subset] if isinstance(subset, str) else list(subset))
        return [self._column(k) for k in names]

    def nunique(self, dropna=True):
        return self._stat_series([Series._make(c, self._index, k).nunique(dropna)
                                  for k, c in self._cols.items()])

    def _stat_series(self, values):
        import numpy as np
        arr = ember.asarray(np.asarray(values, dtype=np.int64), device=self._device())
        return Series._make(Column("int64", arr), self._labels(list(self._cols)), None)

    def describe(self, percentiles=None, include=None, exclude=None):
        import numpy as np
        if percentiles is not None and list(percentiles) != [0.25, 0.5, 0.75]:
            raise NotImplementedError("describe(percentiles=): the quartiles only")
        numbers = any(c.dtype.is_numeric and c.dtype.kind != "b"
                      for c in self._cols.values())
        if exclude is None and (include == "all" or include in (object, "O", "object", [
                object], ["O"], ["object"]) or (include is None and not numbers)):
            from ember.frame._describe_all import describe   # pandas' object frame
            return describe(self, include)
        if exclude is not None or include not in (None, "number", np.number, [np.number],
                                                  ["number"]):
            raise NotImplementedError(f"describe(include={include!r}, exclude="
                                      f"{exclude!r}): the number columns only (counts "
                                      "of strings would make an object frame)")
        from ember.frame._describe import describe_column, LABELS
        cols = {k: describe_column(c)[0] for k, c in self._cols.items()
                if c.dtype.is_numeric and c.dtype.kind != "b"}
        if not cols:
            raise NotImplementedError("describe of a frame without numeric columns")
        return DataFrame._make(cols, self._labels(LABELS))


def _series_index(data):
    """The index a frame of data's Series takes: theirs when they agree,
    else the sorted union of their labels, as pandas (None: no Series)."""
    idxs = [v.index for v in data.values() if isinstance(v, Series)]
    if not idxs or all(idxs[0].equals(i) for i in idxs[1:]):
        return idxs[0] if idxs else None
    if any(i.nlevels > 1 for i in idxs):
        raise NotImplementedError("Series with different MultiIndexes (alignment) "
                                  "is not supported yet")
    from ember.frame._reindex import union_index
    return union_index(idxs, next(v for v in data.values()
                                  if isinstance(v, Series))._col.device)
