"""Exchange with pandas: from_pandas and to_pandas, one column at a time.
NumPy-backed columns travel as NumPy arrays (zero-copy into a cpu
column), nullable ones as values plus mask, strings through Arrow."""
import ember

from ember.frame import _bitmap
from ember.frame._column import Column
from ember.frame._dtypes import lookup


def pandas():
    """The pandas module, or ImportError naming how to get it."""
    try:
        import pandas
    except ImportError:
        raise ImportError("this needs pandas: pip install pandas (or ember[frame])") \
            from None
    return pandas


def column_from_pandas(s, device):
    """A Column from a pandas Series or Index."""
    import numpy as np
    if s.dtype == object:   # Python objects: _object_column picks the layout
        from ember.frame._object_column import from_objects
        return from_objects(s.to_numpy(dtype=object), device)
    d = lookup(s.dtype)
    if d.is_categorical:
        from ember.frame import _cat_exchange
        return _cat_exchange.from_pandas(s, device)
    if d.is_string:
        from ember.frame import _arrow
        pa = _arrow._pa()
        col = _arrow.column_from_arrow(pa.array(s.array, type=pa.large_string()), device)
        return Column(d, col.values, col.validity, col.offsets, col.length)
    if d.masked:
        mask = np.asarray(s.isna())
        values = s.to_numpy(dtype=d.storage, na_value=0)
        valid = ember.asarray(~mask, device=device)
        return Column(d, ember.asarray(values, device=device), _bitmap.pack(valid))
    if getattr(d, "tz", None) is not None:   # UTC counts (_tz.py)
        from ember.frame._tz import from_pandas_values
        return Column(d, ember.asarray(from_pandas_values(s), device=device))
    values = s.to_numpy()
    if d.kind in "Mm":
        values = values.view(np.int64)
    return Column(d, ember.asarray(values, device=device))


def held_as(col):
    """The dtype= pandas' Series and Index constructors need for the
    column's array: object for an object column (pandas 3 would read an
    object array of str as its str dtype), else None (the array's own)."""
    return object if col.dtype.is_object else None


def column_to_pandas(col):
    """The pandas array (NumPy or extension) that holds the column."""
    import numpy as np
    pd = pandas()
    d = col.dtype
    if hasattr(col, "to_pandas_array"):   # interval categories (_intervals)
        return col.to_pandas_array()
    if d.is_categorical:
        from ember.frame import _cat_exchange
        return _cat_exchange.to_pandas(col)
    if d.is_string:
        from ember.frame import _arrow
        arr = _arrow.column_to_arrow(col)
        sd = pd.StringDtype("pyarrow", na_value=np.nan if d.name == "str" else pd.NA)
        return pd.array(arr, dtype=sd)
    values = ember.asnumpy(col.values)
    if getattr(d, "tz", None) is not None:
        from ember.frame._tz import to_pandas_array
        return to_pandas_array(values, d)
    if d.kind in "Mm":
        return values.view(d.name)
    if not d.masked:
        return values
    mask = (np.zeros(col.length, bool) if col.validity is None else
            ~ember.asnumpy(_bitmap.unpack(col.validity, col.length)))
    cls = {"b": pd.arrays.BooleanArray, "f": pd.arrays.FloatingArray}.get(
        d.kind, pd.arrays.IntegerArray)
    return cls(values, mask)


def index_to_pandas(index):
    pd = pandas()
    from ember.frame._index import RangeIndex
    if isinstance(index, RangeIndex):
        return pd.RangeIndex(index.start, index.stop, index.step, name=index.name)
    if getattr(index, "nlevels", 1) > 1:
        return index.to_pandas()
    return pd.Index(column_to_pandas(index._col), name=index.name, dtype=held_as(index._col))


def index_from_pandas(pidx, device):
    pd = pandas()
    from ember.frame._index import Index, RangeIndex
    if isinstance(pidx, pd.RangeIndex):
        return RangeIndex(pidx.start, pidx.stop, pidx.step, name=pidx.name)
    if isinstance(pidx, pd.MultiIndex):
        from ember.frame._multiindex import from_pandas as multi
        return multi(pidx, device)
    return Index(column_from_pandas(pidx, device), name=pidx.name)


def from_pandas(obj, device=None):
    """A pandas DataFrame, Series or Index -> ember.frame's."""
    pd = pandas()
    from ember.frame.frame import DataFrame
    from ember.frame.series import Series
    if device is None:   # one device for every column, strings included
        device = str(ember.get_device())
    if isinstance(obj, pd.DataFrame):
        from ember.frame._dup_labels import keys_for
        index = index_from_pandas(obj.index, device)
        # by position: a repeated label is a frame, not a column, in pandas
        cols = {k: column_from_pandas(obj.iloc[:, j], device)
                for j, k in enumerate(keys_for(list(obj.columns)))}
        out = DataFrame._make(cols, index)
        if not cols and isinstance(obj.columns, pd.RangeIndex):
            out._empty_columns = "range"   # pandas' DataFrame(index=...) (frame.py)
        elif not cols and obj.columns.dtype == object:
            out._empty_columns = "object"
        if isinstance(obj.columns, pd.MultiIndex):   # tuple labels, the levels' names
            from ember.frame._column_levels import from_pandas_columns
            from_pandas_columns(out, obj.columns, pd)
        return out
    if isinstance(obj, pd.Series):
        return Series._make(column_from_pandas(obj, device),
                            index_from_pandas(obj.index, device), obj.name)
    if isinstance(obj, pd.Index):
        return index_from_pandas(obj, device)
    raise TypeError(f"from_pandas takes a pandas DataFrame, Series or Index, "
                    f"not {type(obj).__name__}")
