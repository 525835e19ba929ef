"""crosstab: a pivot_table (_pivot) of one row key against one column key,
counting rows (or aggregating values) in each cell; margins are the same
aggregation by one key alone (_groupby_codes.Groups), normalize divides
the cells by sums on the device."""
import ember

from ember.frame._column import Column


def _is_key_list(x):
    """pandas' nested list: a list of keys rather than one key's values."""
    from ember.frame.series import Series
    return isinstance(x, (list, tuple)) and len(x) > 0 and all(
        isinstance(k, (Series, ember.ndarray, list, tuple)) or hasattr(k, "__array__")
        for k in x)


def _keys(keys, what):
    keys = list(keys) if _is_key_list(keys) else [keys]
    if not keys:
        raise ValueError(f"crosstab: no {what} keys")
    return keys


def _names(keys, names, prefix):
    from ember.frame.series import Series
    if names is None:
        return [k.name if isinstance(k, Series) and k.name is not None else
                f"{prefix}_{i}" for i, k in enumerate(keys)]
    names = list(names)
    if len(names) != len(keys):
        raise AssertionError("arrays and names must have the same length")
    return names


def _columns(objs):
    """The Columns of the keys and values, from Series (which must share
    one index: pandas aligns them on it) or arrays and lists."""
    from ember.frame._convert import column_from
    from ember.frame.series import Series
    series = [o for o in objs if isinstance(o, Series)]
    for s in series[1:]:
        if not s.index.equals(series[0].index):
            raise NotImplementedError("crosstab of Series with different indexes (pandas "
                                      "keeps the labels they share); align them first, "
                                      "e.g. with reindex")
    dev = series[0]._col.device if series else None
    cols = [o._col if isinstance(o, Series) else column_from(o, device=dev) for o in objs]
    lengths = {c.length for c in cols}
    if len(lengths) > 1:
        raise ValueError(f"crosstab: the keys and values must have one length, got "
                         f"lengths {[c.length for c in cols]}")
    return cols, (series[0].index if series else None)


def _floats(col):
    """A cell column as float64 values, NaN where missing."""
    v = col.values.astype("float64")
    miss = col.null_mask()
    return v if miss is None else ember.where(miss, float("nan"), v)


def _normalize(table, normalize, margins, margins_name):
    """pandas' normalize: cells over the grand total ('all'/True), their
    row's ('index') or their column's ('columns') total; missing cells 0.
    With margins, the margins are normalized the same way and the one
    across the normalized direction is dropped."""
    from ember.frame.frame import DataFrame
    from ember.frame._index import Index
    labels = list(table._cols)
    core = labels[:-1] if margins else labels
    n = len(table.index) - (1 if margins else 0)
    m = [_floats(table._cols[k])[:n] for k in core]
    dev = table._device()
    zero = ember.zeros(n, dtype="float64", device=dev)
    filled = [ember.where(ember.isnan(a), 0.0, a) for a in m]
    rows = sum(filled, zero) if filled else zero
    if normalize == "index":
        out = [a / rows for a in m]
    elif normalize == "columns":
        out = [a / ember.nansum(a) for a in m]
    else:
        total = ember.nansum(rows)
        out = [a / total for a in m]
    out = [ember.where(ember.isnan(a), 0.0, a) for a in out]
    index = table.index
    if margins:
        row_total = _floats(table._cols[labels[-1]])[:n]
        col_total = ember.concatenate([_floats(table._cols[k])[n:] for k in core]) \
            if core else zero[:0]
        if normalize in ("columns", "all"):   # the margin column, normalized
            out.append(row_total / ember.nansum(row_total))
            core = core + [labels[-1]]
        if normalize in ("index", "all"):   # the margin row, normalized
            last = col_total / ember.nansum(col_total)
            if normalize == "all":
                last = ember.concatenate([last, ember.ones(1, dtype="float64",
                                                           device=dev)])
            out = [ember.concatenate([a, last[i:i + 1]]) for i, a in enumerate(out)]
        else:
            index = Index(index._col.take(ember.arange(n, dtype="int64", device=dev)),
                          name=index.name)
    res = DataFrame._make({k: Column("float64", a) for k, a in zip(core, out)}, index)
    res._colname = table._colname
    return res


def _margins(table, groups_r, groups_c, vcol, how, margins_name):
    """The table with an `All` column (each row key's aggregate over all
    its rows) and an `All` row (each column key's, and the grand one),
    over the rows both keys have, as pandas' pivot_table margins."""
    from ember.frame._column import concat
    from ember.frame._convert import column_from
    from ember.frame._groupby_agg import aggregate
    from ember.frame._groupby_codes import Groups
    from ember.frame._index import Index
    from ember.frame.frame import DataFrame
    if not table.index.dtype.is_string:
        raise NotImplementedError(f"crosstab(margins=True) of {table.index.dtype.name} "
                                  f"row labels (pandas makes an object index of them and "
                                  f"{margins_name!r}); cast the row key with astype(str)")
    dev = vcol.device
    both = (groups_r.codes >= 0) & (groups_c.codes >= 0)

    def by(groups):
        codes = ember.where(both, groups.codes, -1)
        return aggregate(Groups.from_codes(codes, groups.k), vcol, how)

    def picked(col, labels, key):
        # the groups' results in table order: labels matched to the groups'
        # keys, a missing label (dropna=False) to the missing key
        from ember.frame._categorical import recode
        pos = recode(labels, key)
        gone = labels.null_mask()
        if gone is not None and bool(gone.any()):
            at = ember.flatnonzero(key.isna())
            pos = ember.where(gone, at[0], pos)
        return col.take(ember.maximum(pos, 0))

    per_row = picked(by(groups_r), table.index._col, groups_r.keys[0])
    all_rows = Groups.from_codes(ember.where(both, 0, -1), 1)
    grand = aggregate(all_rows, vcol, how)
    per_col = by(groups_c)
    col_keys = column_from(list(table._cols), device=dev)
    per_col = picked(per_col, col_keys, groups_c.keys[0]) if len(table._cols) else per_col
    out = {}
    for i, (k, c) in enumerate(table._cols.items()):
        cell = per_col.take(ember.asarray([i], dtype="int64", device=dev))
        out[k] = concat(c, cell)
    out[margins_name] = concat(per_row, grand)
    idx = concat(table.index._col, column_from([margins_name], device=dev))
    res = DataFrame._make(out, Index(idx, name=table.index.name))
    res._colname = table._colname
    return res


def crosstab(index, columns, values=None, rownames=None, colnames=None, aggfunc=None,
             margins=False, margins_name="All", dropna=True, normalize=False):
    """pandas' crosstab of one row key and one column key (Series, arrays or
    lists): rows counted in each cell (int64, 0 where none), or `values`
    reduced by aggfunc (a name or numpy/builtin function pivot_table
    takes; NaN where no row). margins adds an `All` row and column;
    normalize ('all'/True, 'index'/0, 'columns'/1) divides by totals."""
    from ember.frame._groupby_agg import AGGS
    from ember.frame._groupby_codes import Groups
    from ember.frame._groupby_obj import how_name
    from ember.frame._index import RangeIndex
    from ember.frame._pivot import pivot_table
    from ember.frame.frame import DataFrame
    if values is None and aggfunc is not None:
        raise ValueError("aggfunc cannot be used without values.")
    if values is not None and aggfunc is None:
        raise ValueError("values cannot be used without an aggfunc.")
    if not isinstance(normalize, (bool, str)):
        if normalize not in (0, 1):
            raise ValueError("Not a valid normalize argument")
        normalize = {0: "index", 1: "columns"}[normalize]
    normalize = "all" if normalize is True else normalize
    if normalize is not False and normalize not in ("all", "index", "columns"):
        raise ValueError("Not a valid normalize argument")
    rows, cols = _keys(index, "index"), _keys(columns, "columns")
    rnames = _names(rows, rownames, "row")
    cnames = _names(cols, colnames, "col")
    how = "size" if values is None else how_name(aggfunc)
    if how not in AGGS:
        raise NotImplementedError(f"crosstab with aggfunc={aggfunc!r} (supported: one "
                                  "of " + ", ".join(AGGS) + ", by name or as the numpy "
                                  "function)")
    objs = rows + cols + ([] if values is None else [values])
    kc, _ = _columns(objs)
    if len(rows) > 1 or len(cols) > 1:
        return _several(kc, len(rows), len(cols), values is not None, rnames, cnames,
                        how, margins, margins_name, dropna, normalize)
    rname, cname = rnames[0], cnames[0]
    if not dropna and (kc[0].dtype.is_categorical or kc[1].dtype.is_categorical):
        raise NotImplementedError("crosstab(dropna=False) of a categorical key (pandas "
                                  "lists its unobserved categories too); use "
                                  "dropna=True, or astype the key to its categories' "
                                  "dtype")
    n = kc[0].length
    dev = kc[0].device
    vcol = kc[2] if values is not None else Column("int64", ember.zeros(
        n, dtype="int64", device=dev))
    # the keys under names of our own: pandas allows a row and column key
    # of one name (crosstab(s, s)) and names that are not strings
    data = DataFrame._make({"r": kc[0], "c": kc[1], "v": vcol}, RangeIndex(0, n))
    table = pivot_table(data, values="v", index="r", columns="c", aggfunc=how,
                        fill_value=0 if values is None else None, dropna=dropna)
    if len(table.index) == 0:   # pandas keeps the row key's dtype and name
        from ember.frame._index import Index
        table = DataFrame._make({}, Index(kc[0].take(ember.zeros(0, dtype="int64",
                                                                 device=dev))))
    table.index.name = rname
    table._colname = cname
    if margins:
        table = _margins(table, Groups([kc[0]], dropna, True), Groups([kc[1]], dropna,
                                                                       True),
                         vcol, how, margins_name)
    if normalize is not False:
        table = _normalize(table, normalize, margins, margins_name)
    return table


def _several(kc, nr, nc, has_values, rnames, cnames, how, margins, margins_name, dropna,
             normalize):
    """crosstab of several row or column keys: pivot_table's MultiIndex rows
    or columns (its margins are pandas' crosstab margins: each key set's
    totals, over the rows where no key is missing)."""
    from ember.frame._index import RangeIndex
    from ember.frame._multiindex import MultiIndex
    from ember.frame._pivot_multi import pivot_table
    from ember.frame.frame import DataFrame
    if normalize is not False:
        raise NotImplementedError("crosstab(normalize=) with several row or column keys; "
                                  "normalize the table's values yourself")
    if any(c.dtype.is_categorical for c in kc[:nr + nc]):
        raise NotImplementedError("crosstab of several keys with a categorical among "
                                  "them (pandas' categorical levels); astype the key "
                                  "to its categories' dtype")
    n, dev = kc[0].length, kc[0].device
    rk = [f"r{i}" for i in range(nr)]
    ck = [f"c{i}" for i in range(nc)]
    vcol = kc[nr + nc] if has_values else Column("int64", ember.zeros(n, dtype="int64",
                                                                       device=dev))
    data = DataFrame._make({**dict(zip(rk + ck, kc[:nr + nc])), "v": vcol},
                           RangeIndex(0, n))
    # counting: "count" of the never-null zeros ("size" is laid out otherwise)
    table = pivot_table(data, values="v", index=rk, columns=ck,
                        aggfunc="count" if how == "size" else how,
                        fill_value=None if has_values else 0, margins=margins,
                        dropna=dropna, margins_name=margins_name)
    if isinstance(table.index, MultiIndex):
        table.index.names = rnames
    else:
        table.index.name = rnames[0]
    table._colname = cnames if nc > 1 else cnames[0]
    return table
