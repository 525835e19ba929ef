"""unstack and stack between a MultiIndex and columns: unstack spreads the
last level's values over columns (a scatter of each row into a grid of
row groups by column groups), stack interleaves the columns under a new
last level (a concatenation and one gather)."""
import ember

from ember.frame._index import Index


def _codes(cols):
    """(int64 code a row, k, one row of each code) for the rows keyed by
    cols together, codes in sorted order."""
    from ember.frame._order import _dense, codes
    n = cols[0].length
    combined, span = None, 1
    for col in cols:
        c, k = codes(col)
        if bool((c < 0).any()):
            # pandas sorts a null label first or last by how its levels were
            # built (a null code, or NaN as a level value)
            raise NotImplementedError("unstack of a MultiIndex with null labels; "
                                      "fill them first (fillna on the key columns)")
        if combined is None:
            combined, span = c, k
            continue
        if span * k >= 1 << 62:
            combined, span = _dense(combined)
        combined, span = combined * k + c, span * k
    combined, k = _dense(combined)
    rep = ember.zeros(max(k, 1), dtype="int64", device=combined.device)
    rep[combined] = ember.arange(n, dtype="int64", device=combined.device)
    return combined, k, rep[:k]


def unstack(s, level=-1, fill_value=None):
    """A Series indexed by a MultiIndex -> a DataFrame with one column a
    value of the last level, indexed by the other levels."""
    from ember.frame.frame import DataFrame
    from ember.frame._multiindex import MultiIndex
    from ember.frame._pivot_multi import _cell_column
    index = s.index
    if not isinstance(index, MultiIndex):
        raise ValueError("index must be a MultiIndex to unstack, "
                         f"{type(index)} was passed")
    if isinstance(level, (list, tuple)):
        raise NotImplementedError("unstack of several levels (MultiIndex columns)")
    lv = index._level_number(level)
    if lv != index.nlevels - 1:   # that level last, the others in their order
        order = [i for i in range(index.nlevels) if i != lv] + [lv]
        s = s._take_all()
        s._index = index = index.reorder_levels(order)
    dev = s.device
    n = len(s)
    last = index._cols[-1]
    if last.dtype.kind in "Mm":
        raise NotImplementedError("unstack of a datetime or timedelta level (column "
                                  "labels are host values: numbers, strings); unstack "
                                  "another level")
    rest = list(range(index.nlevels - 1))
    if n == 0:
        return DataFrame._make({}, index._pick(rest))
    rc, kr, rrep = _codes([index._cols[i] for i in rest])
    cc, kc, crep = _codes([last])
    cell = rc * kc + cc
    at = ember.full(kr * kc, -1, dtype="int64", device=dev)
    at[cell] = ember.arange(n, dtype="int64", device=dev)
    if int((at >= 0).sum()) != n:
        raise ValueError("Index contains duplicate entries, cannot reshape")
    grid = at.reshape(kr, kc)
    some_missing = bool((at < 0).any())
    out = {}
    labels = Index(last.take(crep)).tolist()
    for j, label in enumerate(labels):
        a = grid[:, j]
        out[label] = _cell_column(s._col.take(ember.maximum(a, 0)), a < 0, some_missing,
                                  fill_value)
    rows = index._pick(rest).take(rrep)
    res = DataFrame._make(out, rows)
    res._colname = index.names[-1]   # the level unstacked names the columns
    return res


def stack(df, level=-1, dropna=None, sort=None, future_stack=True):
    """A DataFrame -> a Series of its values row by row, indexed by the
    index's levels and a last level of the column names (pandas 3's
    stack: nulls kept)."""
    from ember.frame.series import Series
    from ember.frame._convert import column_from
    from ember.frame._multiindex import MultiIndex
    from ember.frame._reshape import _stack
    if level not in (-1, 0):
        raise NotImplementedError("stack of a level other than the columns' only one")
    if dropna is not None or sort is not None:
        raise ValueError("dropna and sort are deprecated and not allowed with the new "
                         "implementation of stack")
    dev = df._device()
    names = list(df._cols)
    dtypes = {c.dtype.name: c.dtype for c in df._cols.values()}
    if len(dtypes) > 1 and any(d.masked or d.is_string or d.kind in "MmbO"
                               for d in dtypes.values()):
        raise NotImplementedError("stack of columns of mixed dtypes ("
                                  + ", ".join(sorted(dtypes)) + "): pandas makes an "
                                  "object Series, which ember.frame does not hold")
    n, m = len(df), len(names)
    values = _stack([df._cols[k] for k in names], dev)   # column after column
    i = ember.arange(n * m, dtype="int64", device=dev)
    row, col = i // max(m, 1), i % max(m, 1)
    index = df.index
    levels = list(index._cols) if isinstance(index, MultiIndex) else \
        [index._column(dev)]
    lnames = index.names if isinstance(index, MultiIndex) else [index.name]
    keys = column_from(names, device=dev) if names else column_from([], dtype="str",
                                                                     device=dev)
    mi = MultiIndex._make([c.take(row) for c in levels] + [keys.take(col)],
                          list(lnames) + [df._colname])   # the columns' name names it
    return Series._make(values.take(col * n + row), mi, None)
