"""ember.frame: pandas-style DataFrames whose columns are ember arrays on
one device, in Arrow's memory layout (docs/frames.md).

Importing it imports neither pandas nor pyarrow: they are loaded by the
functions that exchange data with them (from_pandas, to_pandas, the
Arrow calls)."""
from ember.frame._dtypes import CategoricalDtype, Dtype
from ember.frame._index import Index, RangeIndex
from ember.frame.series import Series
from ember.frame.frame import DataFrame


def from_pandas(obj, device=None, nan_as_null=None):
    """A pandas DataFrame, Series or Index as ember.frame's, its columns on
    `device` (default: ember's current device); cuDF's nan_as_null=True
    makes a float column's NaN nulls (Float64)."""
    from ember.frame._pandas import from_pandas as f
    out = f(obj, device)
    if nan_as_null and not isinstance(out, (Index, RangeIndex)):
        from ember.frame._construct import nan_to_null
        if isinstance(out, Series):
            return out._like(nan_to_null(out._col))
        return DataFrame._make({k: nan_to_null(c) for k, c in out._cols.items()},
                               out.index)
    return out


def from_arrow(obj, device=None):
    """A pyarrow Table, RecordBatch, Array or ChunkedArray, or anything with
    __arrow_c_stream__/__arrow_c_array__, as a DataFrame or Series."""
    from ember.frame._arrow import from_arrow as f
    return f(obj, device)


def from_dlpack(obj, device=None):
    """A DataFrame (2-D) or Series (1-D) of an array exported through
    DLPack (an object with __dlpack__; cuDF's older bare capsule is not
    taken), cuDF's from_dlpack: the array is ember.from_dlpack's, then
    moved to `device` if one is given; the frame's columns are its
    columns."""
    import ember
    a = ember.from_dlpack(obj, device=device)
    if a.ndim == 1:
        return Series(a)
    if a.ndim == 2:
        return DataFrame(a)
    raise ValueError(f"from_dlpack: a frame holds 1 or 2 dimensions, got an array "
                     f"of shape {a.shape}")


# pandas' module-level functions, each loaded from the module that holds
# its area on first use, so importing ember.frame stays cheap.
_LAZY = {"read_csv": "_io", "read_parquet": "_io", "read_json": "_io",
         "ParserError": "_io", "EmptyDataError": "_io",
         "merge": "_merge", "concat": "_merge", "MergeError": "_merge",
         "pivot_table": "_pivot", "melt": "_reshape",
         "to_datetime": "_dt_accessor", "date_range": "_dt_accessor",
         "MultiIndex": "_multiindex", "read_orc": "_unsupported",
         "isna": "_toplevel", "isnull": "_toplevel", "notna": "_toplevel",
         "notnull": "_toplevel", "crosstab": "_crosstab",
         "get_dummies": "_dummies", "cut": "_cut", "qcut": "_cut",
         "factorize": "_factorize", "to_timedelta": "_timedelta",
         "DateOffset": "offsets"}


def __getattr__(name):
    if name == "offsets":   # ember's spellings of pandas.tseries.offsets
        import importlib
        return importlib.import_module("ember.frame.offsets")
    mod = _LAZY.get(name)
    if mod is None and name in _PANDAS_VALUES:
        from ember.frame._toplevel import pandas_value
        return pandas_value(name)
    if mod is None:
        raise AttributeError(f"module 'ember.frame' has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module("ember.frame." + mod), name)
    globals()[name] = value
    return value


# pandas' host value types (Timestamp, NA, Categorical...), taken from pandas
# on first use: ember's constructors and operators take them (_toplevel)
_PANDAS_VALUES = ("Timestamp", "Timedelta", "NaT", "NA", "Categorical")

__all__ = ["CategoricalDtype", "DataFrame", "Dtype", "Index", "RangeIndex", "Series",
           "from_arrow", "from_dlpack", "from_pandas"] + sorted(_LAZY)
