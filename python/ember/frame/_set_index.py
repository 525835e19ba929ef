"""DataFrame.set_index with pandas' keys: a column label (of any dtype:
numbers, dates, strings, categoricals), or an array the length of the
frame (an ember or pandas Series or Index, a NumPy or ember array, a
list), or a list of those; append= keeps the old index as the first
levels; verify_integrity= refuses duplicate labels. One key gives an
Index, several a MultiIndex; the labels live on the frame's device."""
import ember


def _is_array(key):
    """Whether pandas takes key as the labels themselves (not a column
    name): Series, Index, ndarray, list or iterator."""
    import collections.abc
    from ember.frame._index import Index, RangeIndex
    from ember.frame.series import Series
    if isinstance(key, (Series, Index, RangeIndex, ember.ndarray, list,
                        collections.abc.Iterator)):
        return True
    return type(key).__module__.split(".")[0] in ("pandas", "numpy") and \
        hasattr(key, "__len__") and not isinstance(key, str)


def _levels(key, df, dev):
    """[(Column, name)] that one key adds to the index."""
    from ember.frame._convert import column_from
    from ember.frame._index import RangeIndex
    from ember.frame.series import Series
    if type(key).__module__.split(".")[0] == "pandas":
        from ember.frame._pandas import from_pandas
        key = from_pandas(key, dev)
    if hasattr(key, "nlevels") and key.nlevels > 1:   # a MultiIndex: every level
        return [(c.to_device(dev), n) for c, n in zip(key._cols, key.names)]
    if isinstance(key, Series):
        return [(key._col.to_device(dev), key.name)]
    if isinstance(key, RangeIndex):
        return [(key._column(dev), key.name)]
    if hasattr(key, "_col"):   # an ember Index
        return [(key._col.to_device(dev), key.name)]
    if not isinstance(key, (list, ember.ndarray)) and not hasattr(key, "dtype"):
        key = list(key)   # an iterator
    return [(column_from(key, device=dev), None)]


def set_index(df, keys, drop=True, append=False, verify_integrity=False):
    """(columns, index) of df.set_index(keys, ...)."""
    from ember.frame._index import Index
    from ember.frame._multiindex import MultiIndex
    keys = keys if isinstance(keys, list) else [keys]
    missing = [k for k in keys if not _is_array(k) and k not in df._cols]
    if missing:
        raise KeyError(f"None of {missing} are in the columns")
    dev, n = df._device(), len(df)
    levels = []
    if append:
        old = df._index
        if old.nlevels > 1:
            levels += [(c, nm) for c, nm in zip(old._cols, old.names)]
        else:
            levels.append((old._column(dev), old.name))
    for k in keys:
        got = [(df._cols[k], k)] if not _is_array(k) else _levels(k, df, dev)
        for col, _ in got:
            if col.length != n:
                raise ValueError(f"Length mismatch: Expected {n} rows, received "
                                 f"array of length {col.length}")
        levels += got
    if len(levels) == 1:
        index = Index(levels[0][0], name=levels[0][1])
    else:
        index = MultiIndex._make([c for c, _ in levels], [nm for _, nm in levels])
    if verify_integrity:
        _verify(index)
    dropped = {k for k in keys if not _is_array(k)} if drop else set()
    cols = {k: c for k, c in df._cols.items() if k not in dropped}
    return cols, index


def _verify(index):
    """pandas' ValueError naming the labels that repeat."""
    from ember.frame import _order
    cols = index._cols if index.nlevels > 1 else [index._col]
    dup = _order.duplicated(cols, "first")
    if bool(dup.any()):
        at = ember.flatnonzero(dup)
        labels = index.take(at)
        if labels.nlevels > 1:
            names = list(dict.fromkeys(zip(*[_labels_of(c) for c in labels._cols])))
        else:
            names = list(dict.fromkeys(labels.tolist()))
        raise ValueError(f"Index has duplicate keys: {names}")


def _labels_of(col):
    from ember.frame._index import Index
    return Index(col).tolist()
