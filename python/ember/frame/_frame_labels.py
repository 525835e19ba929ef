"""pandas' label conveniences of a DataFrame that tutorials use: drop of
rows or columns by label (labels=/axis=/index=/columns=), rename of the
index's labels by a mapping, get(key, default), and row iteration by
itertuples (the columns copied to the host once each, then zipped: the
explicit host loop pandas' itertuples is)."""
import ember
from ember.frame._transpose import NO_VALUE   # pandas' no_default


def drop(df, labels=None, axis=0, index=None, columns=None, errors="raise"):
    from ember.frame._select import loc_rows
    from ember.frame.frame import DataFrame
    if errors not in ("raise", "ignore"):
        raise ValueError("errors must be 'raise' or 'ignore'")
    if labels is not None:
        if index is not None or columns is not None:
            raise ValueError("Cannot specify both 'labels' and 'index'/'columns'")
        if axis in (1, "columns"):
            columns = labels
        elif axis in (0, "index"):
            index = labels
        else:
            raise ValueError(f"No axis named {axis} for object type DataFrame")
    out = df
    if columns is not None:
        from ember.frame._dup_labels import keys_of
        names = list(columns) if isinstance(columns, (list, tuple)) else [columns]
        missing = [k for k in names if not keys_of(df._cols, k)]
        if missing and errors == "raise":
            raise KeyError(f"{missing} not found in axis")
        gone = {k for n in names for k in keys_of(df._cols, n)}   # every occurrence
        out = DataFrame._make({k: c for k, c in out._cols.items() if k not in gone},
                              out._index)
    if index is not None:
        rows = list(index) if isinstance(index, (list, tuple)) else [index]
        dev = out._device()
        if errors == "ignore":
            from ember.frame._convert import column_from
            have = set(out._index.tolist())
            rows = [r for r in rows if r in have]
            if not rows:
                return out
            column_from(rows, device=dev)   # the labels' dtype is checked as raise's
        kind, pos = loc_rows(rows, out._index, dev)
        keep = ember.ones(len(out), dtype="bool", device=dev)
        keep[pos] = False
        out = out._take(ember.flatnonzero(keep))
    return out


def rename_index(df, mapping):
    """The index's labels mapped by a dict (one replace on the device);
    a function of each label would be a Python loop over the rows."""
    from ember.frame._index import Index
    from ember.frame.series import Series
    if callable(mapping):
        raise NotImplementedError("rename(index=function) (a Python call a row); "
                                  "pass a dict of old to new labels")
    ix = df.index
    if getattr(ix, "nlevels", 1) > 1:
        raise NotImplementedError("rename(index=) of a MultiIndex")
    new = Series(ix._column(df._device())).replace(mapping)._col
    out = df.copy()
    out._index = Index(new, name=ix.name)
    return out


def rename_axis(obj, mapper=NO_VALUE, index=NO_VALUE, columns=NO_VALUE, axis=0,
                inplace=False):
    """pandas' rename_axis: new name(s) of the index (a scalar, a list for
    a MultiIndex, or a dict or function of the old names); the values and
    labels are shared, not copied."""
    from ember.frame.series import Series
    is_series = isinstance(obj, Series)
    axes = {0: 0, "index": 0, "rows": 0} if is_series else \
        {0: 0, "index": 0, "rows": 0, 1: 1, "columns": 1}
    if axis not in axes:
        raise ValueError(f"No axis named {axis} for object type {type(obj).__name__}")
    if mapper is not NO_VALUE:
        # as pandas: a name (or list of names) for the axis; index= and
        # columns= are then not looked at
        if callable(mapper) or isinstance(mapper, dict):
            raise ValueError("Use `.rename` to alter labels with a mapper.")
        index, columns = (mapper, NO_VALUE) if axes[axis] == 0 else (NO_VALUE, mapper)
    if columns is not NO_VALUE:
        raise NotImplementedError("rename_axis of the columns: ember.frame's column "
                                  "labels have no name")
    if index is NO_VALUE:
        return None if inplace else obj
    ix = obj.index
    if callable(index) or isinstance(index, dict):
        f = index if callable(index) else (lambda n: index.get(n, n))
        names = [f(n) for n in ix.names]
    elif isinstance(index, (list, tuple)):
        names = list(index)
    else:
        names = [index]
    if len(names) != ix.nlevels:
        raise ValueError(f"Length of names must match number of levels in MultiIndex "
                         f"({ix.nlevels}), got {len(names)}")
    new = ix.rename(names if ix.nlevels > 1 else names[0])
    if inplace:
        obj._index = new
        return None
    if is_series:
        return Series._make(obj._col, new, obj.name)
    return type(obj)._make(dict(obj._cols), new)


def get(obj, key, default=None):
    try:
        return obj[key]
    except (KeyError, IndexError):
        return default


def itertuples(df, index=True, name="Pandas"):
    """Rows as namedtuples (name=None: plain tuples) of host values, the
    index first, as pandas."""
    import collections
    fields = (["Index"] if index else []) + [str(k) for k in df._cols]
    cols = [df._index.tolist()] if index else []
    cols += [df[k].tolist() for k in df._cols]
    if name is None:
        return iter(zip(*cols)) if cols else iter(())
    make = collections.namedtuple(name, fields, rename=True)
    return (make(*vals) for vals in zip(*cols))
