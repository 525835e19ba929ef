"""DataFrame.reindex and column assignment of a Series of another index:
the rows taken by label, as pandas aligns them. Each target label's row
in the source comes from _align.positions_in (both indexes coded
together); a label the source lacks is a null there (NaN in a plain
float column, which is where pandas' int columns go too)."""
from ember.frame._align import positions_in, reindexed


def as_index(labels, device):
    """An Index (ember's, pandas', a list, an array) as ember's."""
    from ember.frame._index import Index, RangeIndex, on_device
    if type(labels).__module__.split(".")[0] == "pandas":
        from ember.frame._pandas import from_pandas
        return from_pandas(labels, device)
    if isinstance(labels, (Index, RangeIndex)) or hasattr(labels, "nlevels"):
        return on_device(labels, device)
    return Index(list(labels) if not hasattr(labels, "dtype") else labels, device=device)


def union_index(indexes, device):
    """The labels of several indexes once each, sorted, as pandas' union
    of indexes that differ (what DataFrame({name: Series}) aligns on)."""
    from ember.frame._index import Index
    from ember.frame._merge_concat import concat
    from ember.frame.series import Series
    labels = concat([Series(i._column(device)) for i in indexes], ignore_index=True)
    names = {i.name for i in indexes}
    return Index(labels.drop_duplicates().sort_values()._col,
                 name=names.pop() if len(names) == 1 else None, device=device)


def aligned_column(series, index, device):
    """series' column on the rows of `index`, by label (null where it has
    none)."""
    if series.index.equals(index):
        return series._col
    return reindexed(series._col, positions_in(series.index, index, device,
                                               "column assignment"))


def _fill(fill_value):
    """None for pandas' default (a null, NaN in a plain float column)."""
    import math
    if fill_value is None or (isinstance(fill_value, float) and math.isnan(fill_value)):
        return None
    return fill_value


def reindex_frame(df, index=None, columns=None, fill_value=None):
    """pandas' DataFrame.reindex(index=, columns=, fill_value=): rows in
    the order of the new labels, columns by name; a new row or column
    holds fill_value (default a null; a new column is then NaN, float64)."""
    import ember
    from ember.frame._column import Column
    from ember.frame._convert import repeat_scalar
    from ember.frame.frame import DataFrame
    fill = _fill(fill_value)
    dev = df._device()
    cols, rows = dict(df._cols), df._index
    if index is not None:
        rows = as_index(index, dev)
        if not rows.equals(df._index):
            pos = positions_in(df._index, rows, dev, "reindex")
            cols = {k: reindexed(c, pos, fill) for k, c in cols.items()}
    if columns is not None:
        n = len(rows)
        cols = {k: cols[k] if k in cols else (Column(
            "float64", ember.full(n, float("nan"), dtype="float64", device=dev))
            if fill is None else repeat_scalar(fill, n, None, dev)) for k in columns}
    return DataFrame._make(cols, rows)


def reindex_series(s, index=None, fill_value=None):
    """pandas' Series.reindex(index=, fill_value=)."""
    from ember.frame.series import Series
    if index is None:
        return Series._make(s._col, s.index, s.name)
    dev = s._col.device
    rows = as_index(index, dev)
    if rows.equals(s.index):
        return Series._make(s._col, rows, s.name)
    pos = positions_in(s.index, rows, dev, "reindex")
    return Series._make(reindexed(s._col, pos, _fill(fill_value)), rows, s.name)
