"""What pandas' constructors take besides a dict of columns: pandas
objects, 2-D arrays, lists of rows or of dicts, a dict holding scalars
with index=; and cuDF's nan_as_null=. Everything here is host-side
reshaping of the input (the data is still on the host, or is one 2-D
array split into columns); the columns are made by _convert."""
import ember

from ember.frame import _bitmap
from ember.frame._column import Column
from ember.frame._dtypes import masked_form
from ember.frame._dup_labels import keys_for


def is_pandas(x):
    return type(x).__module__.split(".")[0] == "pandas"


def is_scalar(x):
    return x is None or isinstance(x, (bool, int, float, str)) or (
        type(x).__module__ == "numpy" and getattr(x, "ndim", 1) == 0) or \
        type(x).__name__ in ("NAType", "NaTType", "Timestamp", "Timedelta")


def _width_error(shape, names):
    raise ValueError(f"Shape of passed values is {tuple(shape)}, indices imply "
                     f"({shape[0]}, {len(names)})")


def _from_2d(data, columns):
    import numpy as np
    if data.ndim == 1:
        names = [0] if columns is None else list(columns)
        if len(names) != 1:
            _width_error((data.shape[0], 1), names)
        return {names[0]: data}
    if data.ndim != 2:
        raise ValueError(f"Must pass 2-d input. shape={tuple(data.shape)}")
    names = list(range(data.shape[1])) if columns is None else list(columns)
    if len(names) != data.shape[1]:
        _width_error(data.shape, names)
    # one copy makes every column one contiguous row of the transpose
    t = ember.ascontiguousarray(data.T) if isinstance(data, ember.ndarray) else \
        np.ascontiguousarray(data.T)
    return {k: t[j] for j, k in enumerate(keys_for(names))}   # a label may repeat


def _from_rows(rows, columns):
    import itertools
    first = next((r for r in rows if r is not None), None)
    if isinstance(first, dict):
        keys = list(columns) if columns is not None else \
            list(dict.fromkeys(k for r in rows for k in r))
        return {k: [r.get(k) for r in rows] for k in keys}
    if not isinstance(first, (list, tuple)):
        return _from_2d_list(rows, columns)
    cols = list(itertools.zip_longest(*rows))
    names = list(range(len(cols))) if columns is None else list(columns)
    if len(names) != len(cols):
        raise ValueError(f"{len(names)} columns passed, passed data had "
                         f"{len(cols)} columns")
    return {k: list(c) for k, c in zip(keys_for(names), cols)}


def _from_2d_list(items, columns):
    names = [0] if columns is None else list(columns)
    if len(names) != 1:
        _width_error((len(items), 1), names)
    return {names[0]: items}


def frame_dict(data, index, columns, device):
    """(dict of columns, index, columns left to select) for DataFrame(data)
    when data is not a dict or DataFrame."""
    from ember.frame.series import Series
    if is_pandas(data):
        if type(data).__name__ == "DataFrame":
            from ember.frame._pandas import from_pandas
            df = from_pandas(data, device)
            if index is not None:
                raise NotImplementedError("DataFrame(pandas DataFrame, index=): "
                                          "reindexing is not supported")
            return {k: Series._make(c, df.index, k) for k, c in df._cols.items()}, \
                None, columns
        if type(data).__name__ == "Series":
            from ember.frame._pandas import from_pandas
            data = from_pandas(data, device)
    if isinstance(data, Series):
        name = data.name if data.name is not None else 0
        if columns is not None and list(columns) != [name]:
            return {}, index, columns
        return {name: data}, index, None
    if isinstance(data, ember.ndarray) or type(data).__name__ == "ndarray":
        return _from_2d(data, columns), index, None
    if isinstance(data, (list, tuple, range)):
        if not len(data):
            return {k: [] for k in (columns or [])}, index, None
        return _from_rows(list(data), columns), index, None
    raise TypeError(f"DataFrame constructor not properly called with "
                    f"{type(data).__name__}")


def broadcast_scalars(data, index, dtype, device):
    """The dict with its scalar values repeated to the other columns' length
    (or the index's), as pandas broadcasts them; pandas Series become
    ember's, so that their index is the frame's."""
    if any(is_pandas(v) and type(v).__name__ == "Series" for v in data.values()):
        from ember.frame._pandas import from_pandas
        data = {k: from_pandas(v, device) if is_pandas(v) and
                type(v).__name__ == "Series" else v for k, v in data.items()}
    scalars = [k for k, v in data.items() if is_scalar(v)]
    if not scalars:
        return data
    n = next((len(v) for k, v in data.items() if k not in scalars), None)
    if n is None:
        if index is None:
            raise ValueError("If using all scalar values, you must pass an index")
        n = len(index)
    from ember.frame._convert import repeat_scalar
    return {k: repeat_scalar(v, n, dtype, device) if k in scalars else v
            for k, v in data.items()}


def nan_to_null(col):
    """cuDF's nan_as_null=True: a plain float column's NaN become nulls of
    its nullable dtype (Float64)."""
    d = col.dtype
    if d.kind != "f" or d.masked:
        return col
    nan = ember.isnan(col.values)
    return Column(masked_form(d.storage), ember.where(nan, 0.0, col.values).astype(d.storage),
                  _bitmap.pack(~nan))
