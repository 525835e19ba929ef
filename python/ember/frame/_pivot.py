"""pivot_table: a groupby over the index key and the columns key together,
each (index, column) cell reduced once, laid out as one column per value
of the columns key (owner: issue 22's groupby)."""
import ember

from ember.frame._column import Column
from ember.frame._index import Index, RangeIndex


def _one_key(key, what):
    if isinstance(key, (list, tuple)):
        if len(key) != 1:
            raise NotImplementedError(f"pivot_table with several {what} keys (a "
                                      "MultiIndex of the columns); use one key")
        key = key[0]
    return key


def pivot_table(data, values=None, index=None, columns=None, aggfunc="mean",
                fill_value=None, margins=False, dropna=True, margins_name="All",
                observed=True, sort=True):
    """pandas' pivot_table for one index key, at most one columns key, one
    value column and one aggregation named by a string."""
    from ember.frame._groupby_agg import AGGS, aggregate
    from ember.frame._groupby_codes import Groups
    from ember.frame._groupby_obj import how_name
    from ember.frame.frame import DataFrame
    if margins:
        raise NotImplementedError("pivot_table(margins=True); add the totals with "
                                  "a groupby")
    how = how_name(aggfunc)
    if how not in AGGS:
        raise NotImplementedError(f"pivot_table with aggfunc={aggfunc!r} (supported: "
                                  "one of " + ", ".join(AGGS) + "; lists would make "
                                  "MultiIndex columns)")
    if index is None:
        raise NotImplementedError("pivot_table without index= (a one-row frame or a "
                                  "MultiIndex); pass index=")
    # several index keys make a MultiIndex of the rows
    index = list(index) if isinstance(index, (list, tuple)) and len(index) > 1 else \
        _one_key(index, "index")
    keys = index if isinstance(index, list) else [index]
    columns = _one_key(columns, "columns")
    if not dropna and len(keys) > 1:
        raise NotImplementedError("pivot_table(dropna=False) with several index keys "
                                  "(pandas lists every combination of the keys' "
                                  "values); use dropna=True or one index key")
    if columns is None:
        sel = values if values is not None else [k for k in data._cols if k not in keys]
        return data.groupby(index, sort=sort, dropna=dropna)[
            [sel] if isinstance(sel, str) else list(sel)].agg(how)
    if not isinstance(values, str) and not (values is not None and not
                                            isinstance(values, (list, tuple))):
        raise NotImplementedError("pivot_table with values=None or a list (MultiIndex "
                                  "columns); pass one column name as values=")
    if columns in keys:   # pandas groups by the pair of both, a 2-D key
        raise ValueError(f"Grouper for '{columns}' not 1-dimensional")
    vcol = data._column(values)
    gi = Groups([data._column(k) for k in keys], dropna, sort)
    gc = Groups([data._column(columns)], dropna, sort)
    ki, kc = gi.k, gc.k
    cell = ember.where((gi.codes < 0) | (gc.codes < 0), -1, gi.codes * kc + gc.codes)
    # only the cells that have rows are groups, so a cell's result keeps
    # the dtype the aggregation gives (a missing cell is filled later)
    slots = ember.unique(cell[ember.flatnonzero(cell >= 0)])
    dense = ember.where(cell >= 0, ember.searchsorted(slots, cell), -1)
    cell_groups = Groups.from_codes(dense, slots.shape[0])
    # pandas' pivot size counts rows as int64 whatever the values' dtype
    res = aggregate(cell_groups, vcol, how) if how != "size" else \
        Column("int64", cell_groups.count())
    dev = data._device()
    at = ember.full(ki * kc, -1, dtype="int64", device=dev)
    at[slots] = ember.arange(slots.shape[0], dtype="int64", device=dev)
    null_res = res.isna()
    present = at >= 0
    if dropna:
        present = present & ~null_res[ember.maximum(at, 0)]
    grid = present.reshape(ki, kc)
    keep_r = ember.flatnonzero(grid.any(axis=1)) if dropna else \
        ember.arange(ki, dtype="int64", device=dev)
    keep_c = ember.flatnonzero(grid.any(axis=0)) if dropna else \
        ember.arange(kc, dtype="int64", device=dev)
    some_missing = not bool(present.reshape(ki, kc)[keep_r].all()) if ki else False
    labels = Index(gc.keys[0].take(keep_c)).tolist()
    cells = ember.arange(ki * kc, dtype="int64", device=dev).reshape(ki, kc)
    out = {}
    for j, label in zip(ember.asnumpy(keep_c).tolist(), labels):
        c = cells[:, j][keep_r]
        out[label] = _cell_column(res.take(ember.maximum(at[c], 0)), ~present[c],
                                  some_missing, fill_value)
    if len(keys) > 1:
        from ember.frame._multiindex import MultiIndex
        idx = MultiIndex._make([k.take(keep_r) for k in gi.keys], keys)
    else:
        idx = Index(gi.keys[0].take(keep_r), name=index)
    res = DataFrame._make(out, idx if ki else RangeIndex(0, 0))
    res._colname = columns   # pandas names the columns by their key
    return res


def _cell_column(col, missing, some_missing, fill_value):
    """One pivot column: missing cells null, or fill_value (pandas makes the
    whole table float64 when a cell of an integer one is missing)."""
    from ember.frame._groupby_scan import mask_rows
    d = col.dtype
    if fill_value is not None:   # pandas fills missing cells and null results
        if d.is_string:
            raise NotImplementedError("pivot_table fill_value for str values")
        fill = missing | col.isna()
        return Column(d, ember.where(fill, fill_value, col.values).astype(d.storage))
    if some_missing and d.kind in "iub" and not d.masked:
        col = Column("float64", col.values.astype("float64"))
    return mask_rows(col, missing)


def pivot(data, columns, index=None, values=None):
    """pandas' DataFrame.pivot for one index column, one columns column and
    one values column: pivot_table's layout with each cell's one value
    (ValueError for a repeated (index, columns) pair, as pandas)."""
    if index is None:
        raise NotImplementedError("pivot without index= (the frame's own index as "
                                  "the rows); pass index=")
    if values is None or isinstance(values, (list, tuple)):
        raise NotImplementedError("pivot of several value columns (a MultiIndex of "
                                  "the columns); pass one name as values=")
    index, columns = _one_key(index, "index"), _one_key(columns, "columns")
    if bool(data[[index, columns]].duplicated().any()):
        raise ValueError("Index contains duplicate entries, cannot reshape")
    return pivot_table(data, values=values, index=index, columns=columns,
                       aggfunc="first", dropna=False)
