"""explode and len() of object columns (_object_column.py): on a list
column both are array work over its offsets and items; on host objects
they are what pandas does, a pass over the Python cells."""
import numpy as np

import ember

from ember.frame import _bitmap
from ember.frame._object_column import ObjectColumn, from_objects


def _list_like(x):
    # pandas' is_list_like: anything iterable but a string (a dict's keys)
    return hasattr(x, "__iter__") and not isinstance(x, (str, bytes)) and \
        getattr(x, "ndim", 1) != 0


def explode_column(col):
    """(the source row of each new row, the new column): each item of a
    list its own row; an empty list a NaN row, a null row itself, any
    other value itself, as pandas' explode."""
    dev, n = col.device, col.length
    rows_all = ember.arange(n, dtype="int64", device=dev)
    if not isinstance(col, ObjectColumn) or col.layout == "box":
        return rows_all, col
    if col.layout == "host":   # Python objects: a pass over them, as pandas'
        cells = col.host
        counts = np.fromiter((max(len(x), 1) if _list_like(x) else 1 for x in cells),
                             np.int64, count=n)
        items = []
        for x in cells:
            if _list_like(x):
                items.extend(list(x) if len(x) else [np.nan])
            else:
                items.append(x)
        rows = ember.repeat(rows_all, ember.asarray(counts, device=dev))
        return rows, from_objects(items, dev)
    from ember.frame._strings import _gather_ranges
    lens = col.lengths()
    nulls = col.null_mask()
    full = lens > 0 if nulls is None else (lens > 0) & ~nulls
    counts = ember.where(full, lens, 1)
    rows = ember.repeat(rows_all, counts)
    pos, _ = _gather_ranges(col.offsets[:-1], counts, dev)
    ok = full[rows]
    child = col.child
    if child.length == 0:   # only empty lists and nulls: every row is null
        child = type(child)("float64", ember.full(1, np.nan, dtype="float64", device=dev))
    child = child.take(ember.where(ok, pos, 0))
    if child.dtype.is_string:   # pandas 3 reads exploded strings as its str dtype
        from ember.frame._column import Column
        return rows, Column("str", child.values, _bitmap.pack(ok), child.offsets)
    # an empty list reads as NaN; a null row as it did (None or NaN)
    nan = col.nan_nulls
    if isinstance(nan, ember.ndarray):
        nan = nan[rows] | (~ok & ~nulls[rows] if nulls is not None else ~ok)
    elif not nan and nulls is not None and bool(nulls.any()):
        nan = ~nulls[rows]
    else:
        nan = True
    return rows, ObjectColumn("box", int(rows.shape[0]), child, None, _bitmap.pack(ok),
                              None, nan)


def explode_series(s, ignore_index):
    from ember.frame._index import RangeIndex
    rows, col = explode_column(s._col)
    index = RangeIndex(0, col.length) if ignore_index else s.index.take(rows)
    return type(s)._make(col, index, s.name)


def explode_frame(df, column, ignore_index):
    """The rows of df repeated for the items of column (a label or a list
    of labels whose lists have the same lengths row by row)."""
    from ember.frame._index import RangeIndex
    names = column if isinstance(column, (list, tuple)) else [column]
    if not names:
        raise ValueError("column must be nonempty")
    if len(set(names)) != len(names):
        raise ValueError("column must be unique")
    if not df.columns.is_unique:
        raise ValueError("DataFrame columns must be unique for explode.")
    cols = [df._column(k) for k in names]
    rows, first = explode_column(cols[0])
    new = {names[0]: first}
    for k, c in zip(names[1:], cols[1:]):
        r, e = explode_column(c)
        if r.shape[0] != rows.shape[0] or not bool((r == rows).all()):
            raise ValueError("columns must have matching element counts")
        new[k] = e
    out = {k: new[k] if k in new else c.take(rows) for k, c in df._cols.items()}
    index = RangeIndex(0, int(rows.shape[0])) if ignore_index else df.index.take(rows)
    return type(df)._make(out, index)


def lengths(s):
    """s.apply(len): each cell's len() as int64; a cell without one (a
    null) is pandas' TypeError."""
    from ember.frame._column import Column
    col = s._col
    nulls = col.null_mask()
    if nulls is not None and bool(nulls.any()):
        nan = getattr(col, "nan_nulls", True)
        if isinstance(nan, ember.ndarray):
            nan = bool(nan[ember.flatnonzero(nulls)[0]])
        raise TypeError(f"object of type '{'float' if nan else 'NoneType'}' has no len()")
    if isinstance(col, ObjectColumn):
        if col.layout == "list":
            out = col.lengths()
        elif col.layout == "host":   # the Python cells' own len()
            out = ember.asarray(np.fromiter((len(x) for x in col.host), np.int64,
                                            count=col.length), device=col.device)
        elif col.child.dtype.is_string:
            return lengths(type(s)._make(col.child, s.index, s.name))
        else:
            raise TypeError(f"object of type '{_py_type(col.child)}' has no len()")
    elif col.dtype.is_string:
        from ember.frame._str_kernels import char_lengths
        out = char_lengths(col)
    else:
        raise TypeError(f"object of type '{_py_type(col)}' has no len()")
    return type(s)._make(Column("int64", out), s.index, s.name)


def _py_type(col):
    k = col.dtype.kind
    return {"b": "bool", "i": "int", "u": "int", "f": "float"}.get(k, col.dtype.name)
