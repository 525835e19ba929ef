"""get_dummies: one indicator column per category of a column. The
categories and each row's code are the categorical's (_categorical:
sorted distinct values, or a categorical's own categories, unused ones
included, as pandas); each indicator is one comparison of the codes on
the device. Only the category labels (a few values) come to the host, to
name the columns."""
import ember

from ember.frame._column import Column

# the column dtypes pandas encodes when columns= is not given
_ENCODED_KINDS = "UO"   # strings and categoricals


def _levels(col):
    """(codes: int64 a row, -1 missing; categories Column)."""
    from ember.frame import _categorical
    from ember.frame._dtypes import CategoricalDtype
    if not col.dtype.is_categorical:
        col = _categorical.encode(col, CategoricalDtype(None, False))
    return _categorical.codes_of(col).astype("int64"), col.dtype.categories


def _out_dtype(col, dtype):
    from ember.frame._dtypes import lookup
    if dtype is None:
        d = col.dtype.categories.dtype if col.dtype.is_categorical else col.dtype
        # pandas' NA strings give NA-aware indicators
        return lookup("boolean" if d.is_string and d.name == "string" else "bool")
    if dtype is object or str(dtype) in ("object", "O"):
        raise ValueError("dtype=object is not a valid dtype for get_dummies")
    d = lookup(dtype)
    if d.is_categorical or d.is_string:
        raise ValueError("dtype=object is not a valid dtype for get_dummies")
    return d


def _one(col, prefix, prefix_sep, dummy_na, drop_first, dtype):
    """{label: indicator Column} of one column, in pandas' order."""
    from ember.frame._convert import astype
    from ember.frame._index import Index
    out_dtype = _out_dtype(col, dtype)
    codes, cats = _levels(col)
    levels = Index(cats).tolist()   # the labels: a host read of k values
    wanted = list(range(len(levels)))
    if dummy_na:
        # NaN among int labels makes them floats (pandas' Index.insert); a
        # `string` column's missing value prints as <NA>
        if cats.dtype.kind in "iu":
            levels = [float(v) for v in levels]
        na = "<NA>" if cats.dtype.name == "string" and prefix is not None else float("nan")
        levels.append(na)
        wanted.append(-1)
    if not levels or (drop_first and len(levels) == 1):
        return {}
    if drop_first:
        levels, wanted = levels[1:], wanted[1:]
    if prefix is not None:
        levels = [f"{prefix}{prefix_sep}{v}" for v in levels]
    out = {}
    for label, code in zip(levels, wanted):   # one column a category, not a row
        hit = Column("bool", codes == code)
        out[label] = hit if out_dtype.name == "bool" else astype(hit, out_dtype)
    return out


def _is_list_like(x):
    return not isinstance(x, (str, bytes)) and hasattr(x, "__iter__")


def _per_column(value, name, names):
    """prefix or prefix_sep as one value for each encoded column."""
    if isinstance(value, dict):
        return [value[k] for k in names]
    if _is_list_like(value):
        value = list(value)
        if len(value) != len(names):
            raise ValueError(f"Length of '{name}' ({len(value)}) did not match the "
                             f"length of the columns being encoded ({len(names)}).")
        return value
    return [value] * len(names) if value is not None else list(names)


def _frame(data, prefix, prefix_sep, dummy_na, columns, drop_first, dtype):
    from ember.frame.frame import DataFrame
    if columns is None:
        names = [k for k, c in data._cols.items() if c.dtype.kind in _ENCODED_KINDS]
    elif not _is_list_like(columns):
        raise TypeError("Input must be a list-like for parameter `columns`")
    else:
        names = list(columns)
        missing = [k for k in names if k not in data._cols]
        if missing:
            raise KeyError(f"{missing} not in index")
    prefixes = _per_column(prefix, "prefix", names)
    seps = _per_column(prefix_sep, "prefix_sep", names)
    # pandas: the columns not encoded first, then each encoded one's dummies
    out = {k: c for k, c in data._cols.items() if k not in names}
    for k, pre, sep in zip(names, prefixes, seps):
        for label, col in _one(data._cols[k], pre, sep, dummy_na, drop_first,
                               dtype).items():
            if label in out:
                raise NotImplementedError(f"get_dummies giving the column name {label!r} "
                                          "twice (ember.frame has unique column names); "
                                          "pass another prefix or prefix_sep")
            out[label] = col
    return DataFrame._make(out, data.index)


def get_dummies(data, prefix=None, prefix_sep="_", dummy_na=False, columns=None,
                sparse=False, drop_first=False, dtype=None):
    """pandas' get_dummies of a Series (or list or array) or DataFrame: bool
    indicator columns (dtype= for others) named by the category, or by
    prefix + prefix_sep + category; a DataFrame encodes its str and
    categorical columns (or those named by columns=), each prefixed by its
    name unless prefix= (a str, a list, or a dict by column) says."""
    from ember.frame.frame import DataFrame
    from ember.frame.series import Series
    if sparse:
        raise NotImplementedError("get_dummies(sparse=True): ember.frame has no sparse "
                                  "columns; use sparse=False")
    if isinstance(data, DataFrame):
        return _frame(data, prefix, prefix_sep, dummy_na, columns, drop_first, dtype)
    if not isinstance(data, Series):
        data = Series(data)
    cols = _one(data._col, prefix, prefix_sep, dummy_na, drop_first, dtype)
    if not cols:   # pandas returns DataFrame(index=...), columns and all
        return DataFrame(index=data.index)
    return DataFrame._make(cols, data.index)
