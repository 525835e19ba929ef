"""Series: one column and its index, with pandas' spellings."""
import ember

from ember.frame import _bitmap, _ops, _order, _reduce, _select
from ember.frame._attrs import attrs_property
from ember.frame._column import Column
from ember.frame._dtypes import masked_form
from ember.frame._index import Index, RangeIndex, on_device
from ember.frame._cat_accessor import CatMethods
from ember.frame._dt_accessor import DtMethods
from ember.frame._groupby import GroupbyMethods
from ember.frame._io import IOMethods
from ember.frame._methods_frame import SeriesMethods
from ember.frame._multiindex_methods import LevelMethods
from ember.frame._replace import ReplaceMethods
from ember.frame._transpose import NO_VALUE, series_to_numpy
from ember.frame._reshape import ReshapeMethods
from ember.frame._str_accessor import StrMethods
from ember.frame._window import WindowMethods
from ember.frame._ufunc import UfuncMethods


def _unit_rank(dtype_name):
    """How fine a datetime64/timedelta64 dtype's unit is (s < ms < us < ns)."""
    return ("s", "ms", "us", "ns").index(
        dtype_name[dtype_name.index("[") + 1:-1].split(",")[0])


def _in_unit(col, name):
    """A datetime or timedelta column in the finer unit of dtype `name`
    (its int64 counts scaled, NaT kept)."""
    from ember.frame._time_units import to_unit
    return col if col.dtype.name == name else to_unit(col, name)


def _index_for(index, n, device):
    if index is None:
        return RangeIndex(0, n)
    if isinstance(index, (Index, RangeIndex)):
        idx = index
    elif isinstance(index, range):
        idx = RangeIndex(index.start, index.stop, index.step)
    elif type(index).__name__ == "MultiIndex":   # pandas' (ember's is an Index)
        from ember.frame._pandas import from_pandas
        idx = from_pandas(index, device)
    else:
        idx = Index(index, device=device)
    if len(idx) != n:
        raise ValueError(f"Length of values ({n}) does not match length of index "
                         f"({len(idx)})")
    return on_device(idx, device)



class _NoArray(NotImplementedError, TypeError):
    """No ember array holds these values. Also a TypeError, which is what
    libraries catch when a column has no array form (dask's quantiles try
    `.values` and keep the Series when it raises TypeError, as for cuDF's
    strings)."""

class Series(_select.Rows, GroupbyMethods, WindowMethods, StrMethods, DtMethods,
             ReplaceMethods,
             IOMethods, ReshapeMethods, CatMethods, SeriesMethods, LevelMethods,
             UfuncMethods):
    """pandas' Series over an ember column: Series(data, index=None,
    name=None, dtype=None, device=None)."""

    def __init__(self, data=None, index=None, name=None, dtype=None, device=None,
                 nan_as_null=None):
        from ember.frame._convert import column_from
        if type(data).__module__.startswith("pandas") and type(data).__name__ == "Series":
            from ember.frame._pandas import from_pandas
            data = from_pandas(data, device)
        if isinstance(data, Series):
            col, index = data._col, index if index is not None else data.index
            name = name if name is not None else data.name
            if dtype is not None:
                from ember.frame._convert import astype
                col = astype(col, dtype)
        else:
            if data is None:
                data = []
            if isinstance(data, dict):   # pandas: the keys are the labels
                if index is not None:
                    raise NotImplementedError("Series(dict, index=) (reindexing)")
                index = list(data) if data else None
                data = list(data.values())
            if isinstance(data, (bool, int, float, str)):
                from ember.frame._convert import repeat_scalar
                col = repeat_scalar(data, len(index) if index is not None else 1,
                                    dtype, device)
            else:
                col = column_from(data, dtype=dtype, device=device)
        if device is not None and str(col.device) != str(device):
            col = col.to_device(device)
        if nan_as_null:
            from ember.frame._construct import nan_to_null
            col = nan_to_null(col)
        self._col = col
        self._index = _index_for(index, col.length, col.device)
        self.name = name

    attrs = attrs_property

    @classmethod
    def _make(cls, col, index, name):
        s = cls.__new__(cls)
        from ember.frame._dup_labels import label
        s._col, s._index, s.name = col, index, label(name)   # a repeated column's label
        return s

    def _like(self, col, index=None):
        return Series._make(col, self._index if index is None else index, self.name)

    # ---- attributes
    index = property(lambda self: self._index)
    dtype = property(lambda self: self._col.dtype)
    device = property(lambda self: self._col.device)
    shape = property(lambda self: (self._col.length,))
    size = property(lambda self: self._col.length)
    ndim = 1
    empty = property(lambda self: self._col.length == 0)

    @property
    def values(self):
        """The ember array of values (strings: NotImplementedError; a null of
        a nullable dtype holds an arbitrary value: see isna)."""
        if self._col.dtype.is_string or self._col.dtype.is_categorical:
            raise _NoArray(f"values of a {self._col.dtype.name} Series (use "
                           "to_pandas or to_arrow; .cat.codes for codes)")
        return self._col.values

    def __len__(self):
        return self._col.length

    def __bool__(self):
        raise ValueError("The truth value of a Series is ambiguous. Use a.empty, "
                         "a.bool(), a.item(), a.any() or a.all().")

    def __iter__(self):   # one copy to the host, then Python's values
        return iter(self.tolist())

    def __array__(self, dtype=None, copy=None):
        a = self.to_numpy()
        return a if dtype is None else a.astype(dtype)

    def any(self):
        return bool(self._nonnull().any())

    def all(self):
        return bool(self._nonnull().all())

    def _nonnull(self):
        if self._col.dtype.kind not in "biuf":
            raise TypeError(f"any/all of a {self._col.dtype.name} Series")
        nulls = self._col.null_mask()
        v = self._col.values
        return v if nulls is None else v[~nulls]

    def copy(self, deep=True):
        """A Series of the same labels and name; deep (the default) copies
        the values, deep=False shares them, as pandas' copy."""
        return Series._make(self._col.copy() if deep else self._col,
                            self._index, self.name)

    def rename(self, index=None, *, inplace=False):
        """A new name (pandas' rename with a scalar); relabelling the rows
        by a mapping or function is not supported."""
        if callable(index) or isinstance(index, dict) or inplace:
            raise NotImplementedError("Series.rename: a mapping, a function or "
                                      "inplace=True (relabelling rows)")
        return Series._make(self._col, self._index, index)

    def rename_axis(self, mapper=NO_VALUE, *, index=NO_VALUE, axis=0, copy=None,
                    inplace=False):
        """The index's new name(s) (pandas' rename_axis), the values shared."""
        from ember.frame._frame_labels import rename_axis
        return rename_axis(self, mapper, index, NO_VALUE, axis, inplace)

    def to_frame(self, name=NO_VALUE):
        """A one-column DataFrame (the column named `name`, else the
        Series' name, else 0), on the same index."""
        from ember.frame.frame import DataFrame
        if name is NO_VALUE:
            name = self.name if self.name is not None else 0
        return DataFrame._make({name: self._col}, self._index)

    # ---- exchange
    def to_pandas(self):
        from ember.frame._pandas import column_to_pandas, held_as, pandas
        pd = pandas()
        return pd.Series(column_to_pandas(self._col), index=self._index.to_pandas(),
                         name=self.name, copy=False, dtype=held_as(self._col))

    def to_numpy(self, dtype=None, copy=False, na_value=NO_VALUE):
        return series_to_numpy(self, dtype, copy, na_value)

    def tolist(self):
        return self.to_pandas().tolist()

    def to_arrow(self):
        from ember.frame._arrow import column_to_arrow
        return column_to_arrow(self._col)

    def __arrow_c_array__(self, requested_schema=None):
        return self.to_arrow().__arrow_c_array__(requested_schema)

    def __arrow_c_stream__(self, requested_schema=None):
        from ember.frame._arrow import _pa
        pa = _pa()
        return pa.chunked_array([self.to_arrow()]).__arrow_c_stream__(requested_schema)

    def to_device(self, device):
        return Series._make(self._col.to_device(device), on_device(self._index, device),
                            self.name)

    def __repr__(self):
        from ember.frame._repr import series_repr
        return series_repr(self)

    # ---- selection
    def _take(self, pos):
        return Series._make(self._col.take(pos), self._index.take(pos), self.name)

    def _slice(self, start, stop):
        return Series._make(self._col.slice(start, stop), self._index.slice(start, stop),
                            self.name)

    def _dev(self):
        return self._col.device

    def _row(self, p):
        if isinstance(p, int):
            p = ember.asarray([p], dtype="int64", device=self.device)
        return _scalar(self._col.take(p))

    def __getitem__(self, key):
        if isinstance(key, Series) and key.dtype.kind == "b":
            self._check_aligned(key, "boolean mask")
            return self._take(_select.mask_positions(key._col, len(self)))
        if isinstance(key, ember.ndarray) and str(key.dtype) == "bool":
            return self._take(_select.mask_positions(key, len(self)))
        if isinstance(key, slice):
            from ember.frame._label_slice import positional
            return self._rows("slice", key) if positional(key) else self.loc[key]
        return self.loc[key]

    def __setitem__(self, key, value):
        from ember.frame._setitem import set_rows
        set_rows(self, key, value, "[]")

    # ---- nulls
    def isna(self):
        return self._like(Column("bool", self._col.isna()))

    isnull = isna

    def notna(self):
        return self._like(Column("bool", ~self._col.isna()))

    notnull = notna

    def fillna(self, value):
        return self._like(_ops.fill_nulls(self._col, value))

    def dropna(self):
        nulls = self._col.null_mask()
        if nulls is None:
            return self
        return self._take(ember.flatnonzero(~nulls))

    # ---- arithmetic and comparisons
    def _check_aligned(self, other, what):
        if len(other) != len(self):
            raise ValueError(f"lengths must match: {len(self)} and {len(other)}")
        if not self._index.equals(other._index):
            raise NotImplementedError(f"{what} between Series with different indexes "
                                      "(alignment) is not supported yet")

    def _binary(self, op, other, reflected=False):
        name = self.name
        if other is None and op in ("eq", "ne"):   # pandas: None equals no value
            d = self._col.dtype
            out = ember.full(len(self), op == "ne", dtype="bool", device=self.device)
            if d.name == "string":
                return self._like(Column("boolean", out, _bitmap.pack(out & False)))
            return self._like(Column("boolean", out, self._col.validity) if d.masked and
                              not d.is_string else Column("bool", out))
        if isinstance(other, Series):
            if op in _ops.ARITH and not (len(other) == len(self) and
                                         self._index.equals(other._index)):
                from ember.frame._align import aligned
                return aligned(op, self, other, reflected)
            if op in _ops.COMPARE and not self._index.equals(other._index):
                raise ValueError("Can only compare identically-labeled Series objects")
            self._check_aligned(other, op)
            name = name if other.name == name else None   # pandas keeps a shared name
            other = other._col
        elif isinstance(other, (ember.ndarray, list, tuple)) or \
                type(other).__name__ == "ndarray":
            from ember.frame._convert import column_from
            other = column_from(other, device=self.device)
            if other.length != len(self):
                raise ValueError(f"lengths must match: {len(self)} and {other.length}")
        return Series._make(_ops.binary(op, self._col, other, reflected), self._index,
                            name)

    def __invert__(self):
        return self._like(_ops.invert(self._col))

    def __neg__(self):
        return self._like(_ops.negate(self._col))

    def __abs__(self):
        if not self._col.dtype.is_numeric and self._col.dtype.kind != "m":
            raise TypeError(f"bad operand type for abs(): {self._col.dtype.name}")
        return self._like(Column(self._col.dtype, ember.abs(self._col.values),
                                 self._col.validity))

    # ---- reductions
    def _reduce(self, how, skipna=True, axis=None, numeric_only=False, **kw):
        # pandas' signature: axis 0 (or None) is the only axis of a Series,
        # numeric_only=True refuses a non-numeric one
        if axis not in (None, 0, "index"):
            raise ValueError(f"No axis named {axis} for object type Series")
        if numeric_only and not self._col.dtype.is_numeric:
            raise TypeError(f"Series.{how} does not allow numeric_only=True with "
                            "non-numeric dtypes.")
        return _reduce.reduce(self._col, how, skipna=skipna, **kw)

    def argsort(self, axis=0, kind="quicksort", order=None, stable=None):
        """The positions that sort the values (stably, nulls last), as an
        int64 Series of this index, as pandas 3 gives them."""
        if order is not None:
            raise ValueError("order= is for structured arrays")
        pos = _order.sort_indexer([self._col], [True], "last")
        return Series._make(Column("int64", pos.astype("int64")), self.index, self.name)

    def combine_first(self, other):
        from ember.frame._fill import combine_first
        return combine_first(self, other)

    def sum(self, axis=None, skipna=True, numeric_only=False, min_count=0, **numpy_kw):
        _numpy_kw(numpy_kw)
        return self._reduce("sum", skipna, axis, numeric_only, min_count=min_count)

    def prod(self, axis=None, skipna=True, numeric_only=False, min_count=0, **numpy_kw):
        _numpy_kw(numpy_kw)
        return self._reduce("prod", skipna, axis, numeric_only, min_count=min_count)

    def mean(self, axis=None, skipna=True, numeric_only=False, **numpy_kw):
        _numpy_kw(numpy_kw)
        return self._reduce("mean", skipna, axis, numeric_only)

    def min(self, axis=None, skipna=True, numeric_only=False, **numpy_kw):
        _numpy_kw(numpy_kw)
        return self._reduce("min", skipna, axis, numeric_only)

    def max(self, axis=None, skipna=True, numeric_only=False, **numpy_kw):
        _numpy_kw(numpy_kw)
        return self._reduce("max", skipna, axis, numeric_only)

    def std(self, axis=None, skipna=True, ddof=1, numeric_only=False, **numpy_kw):
        _numpy_kw(numpy_kw)
        return self._reduce("std", skipna, axis, numeric_only, ddof=ddof)

    def var(self, axis=None, skipna=True, ddof=1, numeric_only=False, **numpy_kw):
        _numpy_kw(numpy_kw)
        return self._reduce("var", skipna, axis, numeric_only, ddof=ddof)

    def count(self):
        return self._reduce("count")

    # ---- types, order, distinct values
    def astype(self, dtype):
        from ember.frame._convert import astype
        return self._like(astype(self._col, dtype))

    def sort_values(self, ascending=True, na_position="last", kind="stable",
                    ignore_index=False):
        pos, col = _order.sorted_key([self._col], [bool(ascending)], na_position)
        if self._col.dtype.is_object:   # pandas 3 reads sorted strings as str
            from ember.frame._object_keys import sorted_strings
            col = sorted_strings(self._col.take(pos))
        return Series._make(self._col.take(pos) if col is None else col,
                            RangeIndex(0, len(self)) if ignore_index else
                            self._index.take(pos), self.name)

    def reset_index(self, level=None, *, drop=False, name=None):
        """drop=True: the values under what is left of the index (or a
        fresh RangeIndex); else a DataFrame of the index (or its levels
        named by level) and the values."""
        from ember.frame._multiindex_frame import split_levels
        moved, rest = split_levels(self._index, level, self.device, {})
        if drop:
            return Series._make(self._col, rest, self.name)
        from ember.frame.frame import DataFrame
        col_name = name if name is not None else (self.name if self.name is not None
                                                  else 0)
        if col_name in moved:
            raise ValueError(f"cannot insert {col_name}, already exists")
        return DataFrame._make({**moved, col_name: self._col}, rest)

    def unstack(self, level=-1, fill_value=None, sort=True):
        from ember.frame._multiindex_reshape import unstack
        return unstack(self, level, fill_value)

    def duplicated(self, keep="first"):
        return self._like(Column("bool", _order.duplicated([self._col], keep)))

    def drop_duplicates(self, keep="first", ignore_index=False):
        return _select.keep_rows(self, _order.unduplicated_rows([self._col], keep),
                                 ignore_index)

    def reindex(self, index=None, *, fill_value=None, method=None, level=None,
                limit=None, tolerance=None):
        """The values at the labels of index (fill_value, default a null,
        where this Series has none), as pandas' reindex."""
        given = [k for k, v in (("method", method), ("level", level), ("limit", limit),
                                ("tolerance", tolerance)) if v is not None]
        if given:
            raise NotImplementedError(f"Series.reindex({given[0]}=)")
        from ember.frame._reindex import reindex_series
        return reindex_series(self, index, fill_value)

    def isin(self, values):
        from ember.frame._convert import column_from
        d = self._col.dtype
        if d.is_object:   # Python's equality of the cells (_object_keys)
            from ember.frame._object_keys import isin
            return self._like(isin(self._col, values))
        if isinstance(values, Series):
            values = values._col
        nulls_in = None
        if not isinstance(values, Column):
            items = list(values) if isinstance(values, (set, frozenset, tuple)) else values
            if isinstance(items, list):
                nulls_in = _list_nulls(items)
            values = column_from(items, device=self.device)
        if nulls_in is None:   # pandas reads a masked number array's NA as NaN,
            vd = values.dtype   # a boolean or string array's as NA
            nulls_in = set() if not values.has_nulls() else (
                {"nan"} if vd.na_is_nan or vd.kind in "iuf" else {"NA"})
        # pandas' rules: a str column's null meets any null; NaN meets NaN;
        # a masked column's NA meets pd.NA given in a list
        match = bool(nulls_in) if d.is_string else (
            "NA" in nulls_in if d.masked else "nan" in nulls_in)
        kind = "boolean" if d.masked and not d.is_string else "bool"
        mine = self._col
        if d.kind in "Mm" and values.dtype.kind == d.kind and values.dtype.name != d.name:
            # instants of two units: both in the finer one, as pandas compares
            finer = max(d.name, values.dtype.name, key=_unit_rank)
            mine, values = _in_unit(mine, finer), _in_unit(values, finer)
        return self._like(Column(kind, _order.isin(mine, values, match)))

    def unique(self):
        """The distinct values in order of appearance: an ember array for
        plain dtypes, a Series (default index) for nullable and str ones."""
        from ember.frame._hash_groups import first_rows
        key = self._col
        if key.dtype.is_object:   # hashable cells only, as pandas (_object_keys)
            from ember.frame._object_keys import proxy
            key = proxy(key, "unique")
        first, _, _ = first_rows(key)   # hashed, in order of appearance
        col = self._col.take(first)
        if col.dtype.is_object:   # pandas' object array of the cells
            return col.to_pandas_array()
        if self._col.dtype.masked or self._col.dtype.is_categorical:
            return Series._make(col, RangeIndex(0, col.length), self.name)
        return col.values

    def factorize(self, sort=False, use_na_sentinel=True):
        from ember.frame._factorize import factorize
        return factorize(self, sort=sort, use_na_sentinel=use_na_sentinel)

    def nunique(self, dropna=True):
        from ember.frame._hash_groups import distinct
        key = self._col
        if key.dtype.is_object:
            from ember.frame._object_keys import proxy
            key = proxy(key, "unique")
        k, null = distinct(key)
        if self._col.dtype.is_object and key.validity is None:   # nulls coded by kind
            from ember.frame._object_keys import null_kinds
            nk = null_kinds(self._col)
            return k - nk if dropna else k
        return k + (0 if dropna or not null else 1)

    def value_counts(self, normalize=False, sort=True, ascending=False, dropna=True):
        if self._col.dtype.is_categorical:   # every category, unused ones too
            from ember.frame._categorical import value_counts
            return value_counts(self, normalize, sort, ascending, dropna)
        d = self._col.dtype
        from ember.frame._hash_groups import first_rows
        first, counts, null = first_rows(self._col)   # hashed, as pandas counts
        if d.is_object and self._col.validity is not None:   # nulls coded by kind
            null = self._col.null_mask()[first]
        if dropna:
            keep = ember.flatnonzero(~null)
            first, counts = first[keep], counts[keep]
        elif d.masked and not d.is_string:
            # pandas counts a masked column's NA after its values, so NA
            # comes last among equal counts
            last = ember.argsort(null.astype("int8"), kind="stable")
            first, counts = first[last], counts[last]
        if sort:
            order = ember.argsort(counts if ascending else -counts, kind="stable")
            first, counts = first[order], counts[order]
        name = "count"
        values = counts
        if normalize:
            total = int(counts.sum()) if counts.shape[0] else 0
            values = counts / (total if total else 1)
            name = "proportion"
        index = Index(self._col.take(first), name=self.name)
        kind = masked_form(values.dtype) if d.masked and not d.is_string else values.dtype
        return Series._make(Column(str(kind), values), index, name)

    def describe(self):
        from ember.frame._describe import describe_column
        col, labels = describe_column(self._col)
        return Series._make(col, Index(labels, device=self.device), self.name)


for _op in list(_ops.ARITH) + list(_ops.COMPARE):
    def _fwd(self, other, _op=_op):
        return self._binary(_op, other)
    setattr(Series, f"__{_op}__", _fwd)
    if _op in _ops.ARITH:
        def _rev(self, other, _op=_op):
            return self._binary(_op, other, reflected=True)
        setattr(Series, f"__r{_op}__", _rev)
        setattr(Series, _op, _fwd)
for _op in _ops.LOGIC:
    def _fwd(self, other, _op=_op):
        return self._binary(_op, other)
    setattr(Series, f"__{_op}__", _fwd)
    setattr(Series, f"__r{_op}__", _fwd)
Series.__hash__ = None
del _op, _fwd, _rev


def _list_nulls(items):
    """The kinds of null a list of values holds: 'nan', 'NA' (pandas' NA),
    'None'."""
    kinds = set()
    for x in items:
        if x is None:
            kinds.add("None")
        elif isinstance(x, float) and x != x:
            kinds.add("nan")
        elif type(x).__name__ == "NAType":
            kinds.add("NA")
    return kinds


def _numpy_kw(kw):
    """NumPy's np.mean(series) calls series.mean(axis=, dtype=None,
    out=None): those defaults are accepted, as pandas accepts them."""
    extra = {k: v for k, v in kw.items()
             if not (k in ("dtype", "out") and v is None or k == "keepdims" and not v)}
    if extra:
        raise TypeError(f"unexpected keyword arguments {sorted(extra)} (NumPy's "
                        "dtype=, out= and keepdims= are taken only as their defaults)")


def _scalar(col):
    """The one value of a one-row column as pandas returns it."""
    import numpy as np
    from ember.frame._pandas import column_to_pandas
    if col.dtype.is_string or col.dtype.masked or col.dtype.kind in "MmO":
        return column_to_pandas(col)[0]
    return ember.asnumpy(col.values)[0] if col.length else np.nan
