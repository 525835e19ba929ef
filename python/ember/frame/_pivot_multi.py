"""pivot_table in full: any number of index and columns keys, a list of
values, a list or dict of aggregations, and margins. Every (index,
columns) cell is one group of one set of codes; each (aggregation, value)
pair is one aggregation of those groups (a block of columns), so the work
is a few launches a block whatever the number of keys. Several levels of
column labels are tuples, which the frame shows as a MultiIndex of its
columns (_column_levels.py)."""
import ember

from ember.frame._column import Column, concat


def _key_list(key, data):
    """A key or list of keys: column names of data (KeyError naming a
    missing one, as pandas)."""
    if key is None:
        return []
    keys = list(key) if isinstance(key, (list, tuple)) else [key]
    for k in keys:
        if isinstance(k, (list, tuple)) or k not in data._cols:
            raise KeyError(k)
    return keys


def _label(func):
    """pandas' label of an aggregation in a list: a name, or the function's."""
    return func if isinstance(func, str) else getattr(func, "__name__", func)


def _how(func):
    from ember.frame._groupby_agg import AGGS
    from ember.frame._groupby_obj import how_name
    how = how_name(func)
    if how not in AGGS:
        raise NotImplementedError(f"pivot_table with aggfunc={func!r} (supported: one of "
                                  + ", ".join(AGGS) + ", by name or as the numpy "
                                  "function, alone, in a list or in a dict)")
    return how


def _blocks(values, aggfunc, sort):
    """[(label prefix, how, value)] in pandas' column order: aggregations of
    a list outermost (in their order), values sorted when sort=True."""
    if isinstance(aggfunc, dict):
        for v in aggfunc:
            if v not in values:
                raise KeyError(v)
        out = []
        for v, f in aggfunc.items():
            if isinstance(f, (list, tuple)):
                raise NotImplementedError("pivot_table with a list in an aggfunc dict "
                                          "(a level of aggregation names under the "
                                          "value); pass one aggregation a value")
            out.append(((v,), _how(f), v))
        return sorted(out, key=lambda b: b[2]) if sort else out
    vals = sorted(values) if sort else list(values)
    if isinstance(aggfunc, (list, tuple)):
        return [((_label(f), v), _how(f), v) for f in aggfunc for v in vals]
    how = _how(aggfunc)
    return [((v,), how, v) for v in vals]


def pivot_table(data, values=None, index=None, columns=None, aggfunc="mean",
                fill_value=None, margins=False, dropna=True, margins_name="All",
                observed=True, sort=True):
    """pandas' pivot_table: index and columns a key or a list of keys,
    values one column or a list, aggfunc a reduction (name or numpy
    function), a list of them or a dict by value; margins adds
    margins_name totals."""
    from ember.frame._groupby_codes import Groups
    from ember.frame._index import Index, RangeIndex
    from ember.frame.frame import DataFrame
    keys, ckeys = _key_list(index, data), _key_list(columns, data)
    if not keys:
        raise NotImplementedError("pivot_table without index= (a one-row frame or a "
                                  "MultiIndex); pass index=")
    for k in ckeys:
        if k in keys:   # pandas groups by the pair of both, a 2-D key
            raise ValueError(f"Grouper for '{k}' not 1-dimensional")
    values_multi = values is None or isinstance(values, (list, tuple))
    if values is None:
        values = [k for k in data._cols if k not in keys and k not in ckeys]
    vals = list(values) if values_multi else [values]
    for v in vals:
        if v not in data._cols:
            raise KeyError(v)
    if not dropna and (len(keys) > 1 or len(ckeys) > 1):
        raise NotImplementedError("pivot_table(dropna=False) with several index or "
                                  "columns keys (pandas lists every combination of the "
                                  "keys' values); use dropna=True")
    if not sort and ckeys and (len(keys) > 1 or len(ckeys) > 1):
        raise NotImplementedError("pivot_table(sort=False) with several index or columns "
                                  "keys (pandas orders them by the cells' first rows); "
                                  "use sort=True")
    if margins and not dropna:
        raise NotImplementedError("pivot_table(margins=True, dropna=False) (margins over "
                                  "the null keys' rows); use dropna=True")
    if not observed and any(data._column(k).dtype.is_categorical for k in keys + ckeys):
        raise NotImplementedError("pivot_table(observed=False) with a categorical key "
                                  "(rows and columns for unused categories); use the "
                                  "default observed=True")
    blocks = _blocks(vals, aggfunc, sort)
    hows = {how for _, how, _ in blocks}
    if "size" in hows and (isinstance(aggfunc, (list, tuple, dict)) or len(ckeys) != 1
                           or values_multi or margins):
        raise NotImplementedError("pivot_table(aggfunc='size') other than with one "
                                  "columns key and one value without margins (pandas' "
                                  "layout of it differs case by case); use "
                                  "aggfunc='count' of a column without nulls")
    if margins and hows & {"first", "last"}:
        raise NotImplementedError("pivot_table(margins=True) with aggfunc first or last "
                                  "(pandas raises AttributeError there)")

    if ckeys and not values_multi and not isinstance(aggfunc, dict):
        blocks = [(p[:-1], how, v) for p, how, v in blocks]   # no level for one value
    dev = data._device()
    gi = Groups([data._column(k) for k in keys], dropna, sort)
    ki = gi.k
    if ckeys:
        gc = Groups([data._column(k) for k in ckeys], dropna, sort)
        kc, ccodes = gc.k, gc.codes
        cell = ember.where((gi.codes < 0) | (ccodes < 0), -1, gi.codes * kc + ccodes)
    else:
        gc, kc, ccodes, cell = None, 1, None, gi.codes
    # only the cells that have rows are groups, so a cell's result keeps
    # the dtype its aggregation gives (a missing cell is filled later)
    slots = ember.unique(cell[ember.flatnonzero(cell >= 0)])
    dense = ember.where(cell >= 0, ember.searchsorted(slots, cell), -1)
    cells_g = Groups.from_codes(dense, slots.shape[0])
    at = ember.full(ki * kc, -1, dtype="int64", device=dev)
    at[slots] = ember.arange(slots.shape[0], dtype="int64", device=dev)
    at0 = ember.maximum(at, 0)
    results = [_aggregate(cells_g, data._column(v), how) for _, how, v in blocks]
    present = at >= 0
    if dropna and results:   # pandas drops the cells whose every result is null
        some = None
        for r in results:
            ok = ~r.isna()[at0]
            some = ok if some is None else some | ok
        present = present & some
    grid = present.reshape(ki, kc)
    keep_r = ember.flatnonzero(grid.any(axis=1)) if dropna else \
        ember.arange(ki, dtype="int64", device=dev)
    used_c = grid.any(axis=0) if dropna else ember.ones(kc, dtype="bool", device=dev)
    some_missing = bool((~grid[keep_r][:, ember.flatnonzero(used_c)]).any()) \
        if ki and kc else False
    # the columns each block keeps: with dropna, those with a value in a kept
    # row; with fill_value, pandas' unstack has filled every combination of
    # columns keys some block has, so all blocks keep those
    if dropna and results and fill_value is not None:
        kept = [ember.asnumpy(used_c).tolist()] * len(results)
    elif dropna and results:
        kept = ember.stack([(present & ~r.isna()[at0]).reshape(ki, kc)[keep_r].any(axis=0)
                            for r in results])
        kept = ember.asnumpy(kept)
    else:
        kept = [[True] * kc for _ in results]
    clabels = _column_labels(gc, kc)
    cells = ember.arange(ki * kc, dtype="int64", device=dev).reshape(ki, kc)
    if margins and keep_r.shape[0] == 0:   # pandas: an empty table has no margins
        margins = False
    if margins:
        marg = _Margins(data, keys, ckeys, vals, gi, gc, keep_r, margins_name, fill_value)
        if dropna and ckeys and fill_value is None:
            # pandas drops the empty columns after adding the margins row: a
            # column with a margins value stays
            used = ember.asnumpy(used_c)
            with_margin = ember.asnumpy(ember.stack(
                [~marg._agg(marg.by_cols, how, v).isna() for _, how, v in blocks]))
            kept = [[bool(k) or bool(m and u) for k, m, u in zip(kb, mb, used)]
                    for kb, mb in zip(kept, with_margin)]
    out = {}
    tables = {}   # the columns of each aggregation of a list (pandas' tables)
    for b, ((prefix, how, v), res) in enumerate(zip(blocks, results)):
        table = tables.setdefault(prefix[0] if isinstance(aggfunc, (list, tuple)) else
                                  None, [])
        for j in range(kc):
            if not kept[b][j]:
                continue
            c = cells[:, j][keep_r]
            col = _cell_column(res.take(at0[c]), ~present[c], some_missing, fill_value)
            label = _name(prefix + clabels[j])
            out[label] = col if not margins else (col, marg.row(how, v, j))
            table.append(label)
        if margins and ckeys:
            total = _name(prefix + (margins_name,) + ("",) * (len(ckeys) - 1))
            out[total] = marg.column(how, v)
    if margins:   # the margins row under each column, in the table's common dtype
        for labels in tables.values():
            _add_margins_row(out, labels, bool(ckeys))
    if len(keys) > 1:
        from ember.frame._multiindex import MultiIndex
        levels = [k.take(keep_r) for k in gi.keys]
        idx = MultiIndex._make(marg.index(levels) if margins else levels, keys)
    else:
        level = gi.keys[0].take(keep_r)
        idx = Index(marg.index([level])[0] if margins else level, name=keys[0])
    res = DataFrame._make(out, idx if ki or margins else RangeIndex(0, 0))
    names = [None] * len(blocks[0][0] if blocks else ()) + ckeys
    if len(names) > 1:
        res._colname = names
    elif names:
        res._colname = names[0]
    return res


def _add_margins_row(out, labels, common):
    """Each (column, its margins cell) of one table made one column; pandas
    adds the row as one Series, so a float cell among integer ones makes
    the integer columns float (Float64 for a nullable one)."""
    from ember.frame._column import Column as C
    cells = [out[k][1] if isinstance(out[k], tuple) else None for k in labels]
    kinds = {c.dtype.kind for c in cells if c is not None}
    kinds |= {out[k].dtype.kind for k in labels if not isinstance(out[k], tuple)}
    to_float = common and "f" in kinds and kinds & set("iub")
    for k in labels:
        if isinstance(out[k], tuple):
            col, cell = out[k]
            col = concat(col, cell)
        else:
            col = out[k]
        if to_float and col.dtype.kind in "iub":
            d = "Float64" if col.dtype.masked else "float64"
            if col.dtype.masked:
                col = C(d, col.values.astype("float64"), col.validity)
            else:
                col = C(d, col.values.astype("float64"))
        out[k] = col


def _name(label):
    return label[0] if len(label) == 1 else label


def _aggregate(groups, col, how):
    from ember.frame._groupby_agg import aggregate
    if how == "size":   # pandas' pivot size counts rows as int64 whatever the values
        return Column("int64", groups.count())
    return aggregate(groups, col, how)


def _column_labels(gc, kc):
    """Each column key combination's labels, a tuple (host values)."""
    from ember.frame._index import Index
    if gc is None:
        return [()]
    levels = [Index(k).tolist() for k in gc.keys]
    return [tuple(level[j] for level in levels) for j in range(kc)]


def _cell_column(col, missing, some_missing, fill_value):
    """One pivot column: missing cells null, or fill_value (pandas makes the
    whole table float64 when a cell of an integer one is missing)."""
    from ember.frame._groupby_scan import mask_rows
    d = col.dtype
    if fill_value is not None:   # pandas fills missing cells and null results
        if d.kind in "Mm":
            if not bool((missing | col.isna()).any()):
                return col
            raise TypeError(f"pivot_table fill_value={fill_value!r} in a {d.name} "
                            "column (pandas: 'Cannot change data-type for array of "
                            "references')")
        if d.is_string:
            raise NotImplementedError("pivot_table fill_value for str values")
        fill = missing | col.isna()
        return Column(d, ember.where(fill, fill_value, col.values).astype(d.storage))
    if some_missing and d.kind in "iub" and not d.masked:
        col = Column("float64", col.values.astype("float64"))
    return mask_rows(col, missing)


class _Margins:
    """pandas' margins: each value aggregated by the index keys alone (the
    margins column), by the columns keys alone (the margins row) and over
    all rows (their corner), over the rows where no key and no value is
    missing (pandas drops those before it adds margins)."""

    def __init__(self, data, keys, ckeys, vals, gi, gc, keep_r, name, fill_value=None):
        from ember.frame._groupby_codes import Groups
        for k in keys:
            if not data._column(k).dtype.is_string:
                raise NotImplementedError(
                    f"pivot_table(margins=True) with the {data._column(k).dtype.name} "
                    f"index key {k!r} (pandas makes an object index of its values and "
                    f"{name!r}); cast the key with astype(str)")
        valid = gi.codes >= 0
        if gc is not None:
            valid = valid & (gc.codes >= 0)
        for v in vals:
            valid = valid & ~data._column(v).isna()
        self.data, self.gi, self.gc, self.keep_r, self.name = data, gi, gc, keep_r, name
        self.by_rows = Groups.from_codes(ember.where(valid, gi.codes, -1), gi.k)
        self.by_cols = None if gc is None else \
            Groups.from_codes(ember.where(valid, gc.codes, -1), gc.k)
        self.all = Groups.from_codes(ember.where(valid, 0, -1), 1)
        self._memo = {}
        self.fill_value = fill_value

    def _agg(self, groups, how, v):
        """The aggregation, null for a group without a row (pandas' margins
        groupby has no such group and reindexes it to NaN)."""
        from ember.frame._groupby_scan import mask_rows
        key = (id(groups), how, v)
        if key not in self._memo:
            res = _aggregate(groups, self.data._column(v), how)
            empty = groups.count() == 0
            if self.fill_value is not None:   # pandas fills the margins' nulls too
                res = _cell_column(res, empty, False, self.fill_value)
            else:
                res = mask_rows(res, empty)
            self._memo[key] = res
        return self._memo[key]

    def row(self, how, v, j):
        """The margins row's cell under column key combination j."""
        dev = self.gi.codes.device
        if self.by_cols is None:
            return self._agg(self.all, how, v)
        return self._agg(self.by_cols, how, v).take(
            ember.asarray([j], dtype="int64", device=dev))

    def column(self, how, v):
        return concat(self._agg(self.by_rows, how, v).take(self.keep_r),
                      self._agg(self.all, how, v))

    def index(self, levels):
        """The index levels with the margins row's label: the name on the
        first level, '' on the others (pandas' tuple ('All', '', ...))."""
        from ember.frame._convert import column_from
        dev = self.gi.codes.device
        return [concat(level, column_from([self.name if i == 0 else ""], device=dev))
                for i, level in enumerate(levels)]
