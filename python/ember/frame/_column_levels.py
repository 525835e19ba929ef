"""Columns labelled by several levels (pandas' MultiIndex of the columns):
each label is a tuple of one value a level, as pandas' labels are; the
levels' names are the frame's `_colname` as a list. pivot_table makes
such frames; to_pandas and from_pandas carry them, `df.columns` is an
ember MultiIndex of them, and `df[top]` selects the columns under one
value of the first level, without that level, as pandas does."""


def is_multi(names):
    """True when the labels are tuples of one length (two or more)."""
    return len(names) > 0 and all(isinstance(n, tuple) for n in names) and \
        len({len(n) for n in names}) == 1 and len(names[0]) > 1


def level_names(df, nlevels):
    names = df._colname
    if isinstance(names, list) and len(names) == nlevels:
        return list(names)
    return [None] * nlevels


def empty_columns(df, pd):
    """pandas' empty MultiIndex of the columns of a frame whose columns name
    is a list of level names (a pivot_table with nothing left), or None."""
    if df._cols or not isinstance(df._colname, list):
        return None
    return pd.MultiIndex.from_arrays([[] for _ in df._colname], names=df._colname)


def to_pandas_columns(df, pd):
    """The pandas MultiIndex of df's tuple labels, with the levels' names."""
    names = list(df._cols)
    return pd.MultiIndex.from_tuples(names, names=level_names(df, len(names[0])))


def from_pandas_columns(out, columns, pd):
    """out (made with tuple labels) given pandas' level names."""
    if isinstance(columns, pd.MultiIndex) and any(n is not None for n in columns.names):
        out._colname = list(columns.names)
    elif not isinstance(columns, pd.MultiIndex) and columns.name is not None:
        out._colname = columns.name
    return out


def select(df, key):
    """df[key] for a value of the first level: its columns with the other
    levels as labels (a Series when that leaves one empty label, as pandas);
    None when no label starts with key."""
    from ember.frame.frame import DataFrame
    from ember.frame.series import Series
    names = list(df._cols)
    if not is_multi(names):
        return None
    try:
        picked = [n for n in names if n[0] == key]
    except (TypeError, ValueError):
        return None
    if not picked:
        return None
    rest = [n[1:] if len(n) > 2 else n[1] for n in picked]
    if rest == [""] or rest == [("",) * (len(names[0]) - 1)]:
        return Series._make(df._cols[picked[0]], df._index, key)
    out = DataFrame._make({r: df._cols[n] for r, n in zip(rest, picked)}, df._index)
    lnames = level_names(df, len(names[0]))[1:]
    if len(lnames) > 1:
        out._colname = lnames if any(n is not None for n in lnames) else None
    else:
        out._colname = lnames[0]
    return out
