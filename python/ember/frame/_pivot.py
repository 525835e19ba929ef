"""pivot and pivot_table (whose work is _pivot_multi.py's): a groupby over
the index keys and the columns keys together, each (index, column) cell
reduced once, laid out as one column per value of the columns keys."""


def _one_key(key, what):
    if isinstance(key, (list, tuple)):
        if len(key) != 1:
            raise NotImplementedError(f"pivot with several {what} keys (a "
                                      "MultiIndex); use pivot_table")
        key = key[0]
    return key


def pivot_table(data, values=None, index=None, columns=None, aggfunc="mean",
                fill_value=None, margins=False, dropna=True, margins_name="All",
                observed=True, sort=True):
    """pandas' pivot_table (_pivot_multi.py)."""
    from ember.frame._pivot_multi import pivot_table as table
    return table(data, values, index, columns, aggfunc, fill_value, margins, dropna,
                 margins_name, observed, sort)


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
