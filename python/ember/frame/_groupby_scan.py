"""Per-row results of a groupby (one value a row, in the rows' order):
scans by key over the rows in group order (cumsum, cummax, ...), a
row's place in its group (cumcount, shift, diff), ranks, and a group's
value broadcast back to its rows (transform). A row in no group (a null
key with dropna=True) gets a null, as in pandas."""
import ember

from ember.frame._column import Column
from ember.frame._dtypes import lookup, masked_form
from ember.frame._groupby_agg import _with_nulls, fit_back, identity, sorted_within


def mask_rows(col, mask):
    """col with the rows where mask made null; a NumPy integer column
    becomes float64 (pandas' NaN needs a float)."""
    if mask is None or not bool(mask.any()):
        return col
    if col.dtype.masked:
        return col.with_validity(~mask & ~col.isna())
    return _with_nulls(col.dtype, col.values, mask)


def _outside(groups):
    """True for the rows in no group, or None."""
    return None if groups.complete or groups.n == 0 else groups.codes < 0


def _not_categorical(col, what):
    if col.dtype.kind == "O":
        raise NotImplementedError(f"groupby {what} of a categorical column "
                                  "(supported: shift, count, nunique, first, last)")


def broadcast(groups, col_k):
    """A column of one value a group as one value a row."""
    if groups.n == 0:
        return col_k.take(ember.zeros(0, dtype="int64", device=groups.device))
    out = mask_rows(col_k.take(ember.maximum(groups.codes, 0)), _outside(groups))
    return out


def _place(groups):
    """(rows in group order, each row's position in its group, by row)."""
    rows, offsets = groups.order()
    n = groups.n
    sorted_pos = ember.arange(n, dtype="int64", device=groups.device) - \
        offsets[groups.sorted_bins()]
    pos = ember.empty(n, dtype="int64", device=groups.device)
    pos[rows] = sorted_pos
    return rows, pos


def cumcount(groups, ascending=True):
    if groups.n == 0:
        return Column("int64", ember.zeros(0, dtype="int64", device=groups.device))
    _, pos = _place(groups)
    if not ascending:
        counts = ember.concatenate([groups.count(), ember.zeros(1, dtype="int64",
                                                                  device=groups.device)])
        pos = counts[groups.bins] - 1 - pos
    return mask_rows(Column("int64", pos), _outside(groups))


def cumulative(groups, col, op):
    _not_categorical(col, "cumulative ops")
    d = col.dtype
    if d.is_string or (d.kind in "Mm" and op in ("add", "mul")):
        name = {"add": "cumsum", "mul": "cumprod", "max": "cummax", "min": "cummin"}[op]
        raise TypeError(f"dtype '{d.name}' does not support operation '{name}'")
    v = col.values
    if op in ("add", "mul"):
        t = "int64" if d.kind in "bi" else ("uint64" if d.kind == "u" else d.storage)
    else:
        t = d.storage if d.kind != "b" else "int8"
    if str(v.dtype) != t:
        v = v.astype(t)
    nulls = col.null_mask()
    if nulls is not None and not bool(nulls.any()):   # no pass to fill them
        nulls = None
    if nulls is not None:
        v = ember.where(nulls, identity(op, t), v)
    out_dtype = d.name if d.kind in "Mm" else (d.storage if d.kind in "iu" else t)
    if d.kind in "iu" and op in ("add", "mul"):
        out_dtype = None
    if d.kind == "b" and op in ("max", "min"):
        out_dtype = "bool"
    if d.masked and out_dtype is not None:
        out_dtype = masked_form(lookup(out_dtype).storage).name
    res = v
    if groups.n:
        bins, rows, v = _in_group_order(groups, v)
        scanned = ember.parallel.scan_by_key(bins, v, op=op, dtype=t)
        res = ember.empty(groups.n, dtype=t, device=groups.device)
        res[rows] = scanned
    if out_dtype is None:   # pandas: the column's own dtype when the sums fit
        out_dtype = fit_back(res, d)
    res = res.astype(lookup(out_dtype).storage) if t != lookup(out_dtype).storage else res
    out = Column(out_dtype, res)
    if nulls is not None:
        out = mask_rows(out, nulls)
    return mask_rows(out, _outside(groups))


def _in_group_order(groups, v):
    """(group numbers, rows, v's values), all in group order (stable). One
    radix sort of only a group number's bits, of keys that carry the row
    in their low bits, with the values carried along: no gather of v at
    random rows."""
    n, k = groups.n, groups.k
    low = max(n - 1, 1).bit_length()
    high = max(int(k).bit_length(), 1)
    if groups._order is not None or low + high > 62:
        rows, _ = groups.order()
        return groups.sorted_bins(), rows, v[rows]
    P = ember.parallel
    key = P.transform(f"(a << {low}) | b", groups.bins,
                      ember.arange(n, dtype="int64", device=groups.device), dtype="int64")
    key, v = P.radix_sort(key, v, begin_bit=low, end_bit=low + high)
    return (P.transform(f"a >> {low}", key, dtype="int64"),
            P.transform(f"a & {(1 << low) - 1}", key, dtype="int64"), v)


def _shift_rows(groups, periods):
    """For each row, the row `periods` before it in its group, or -1."""
    rows, pos = _place(groups)
    counts = ember.concatenate([groups.count(), ember.zeros(1, dtype="int64",
                                                              device=groups.device)])
    src_pos = pos - periods
    ok = (src_pos >= 0) & (src_pos < counts[groups.bins]) & (groups.codes >= 0)
    sorted_at = ember.empty(groups.n, dtype="int64", device=groups.device)
    sorted_at[rows] = ember.arange(groups.n, dtype="int64", device=groups.device)
    src = ember.clip(sorted_at - periods, 0, max(groups.n - 1, 0))
    return ember.where(ok, rows[src], -1)


def shift(groups, col, periods=1, fill_value=None):
    if groups.n == 0:
        return col
    if int(periods) == 0:   # pandas: every row, null keys' too, as it was
        return col
    src = _shift_rows(groups, int(periods))
    missing = src < 0
    taken = col.take(ember.maximum(src, 0))
    if fill_value is not None and not col.dtype.is_string:
        vals = ember.where(missing, fill_value, taken.values).astype(col.dtype.storage)
        out = Column(col.dtype, vals, taken.validity)
        if out.validity is not None:
            out = out.with_validity(~taken.isna() | missing)
        return out
    if fill_value is not None:
        raise NotImplementedError("groupby shift of a str column with fill_value")
    return mask_rows(taken, missing)


def diff(groups, col, periods=1):
    _not_categorical(col, "diff")
    from ember.frame._ops import binary
    d = col.dtype
    if d.kind == "b" and d.masked:
        raise TypeError("numpy boolean subtract, the `-` operator, is not supported")
    if d.kind == "b":
        raise NotImplementedError("groupby diff of a bool column (pandas gives an "
                                  "object column)")
    if d.kind in "Mm" or d.is_string:
        raise NotImplementedError(f"groupby diff of a {d.name} column (supported: "
                                  "numbers and their nullable forms)")
    if groups.n == 0:
        return Column("float64" if not d.masked else d, col.values.astype("float64")
                      if not d.masked else col.values)
    if periods == 0:   # pandas: every row minus itself, null keys' too
        return binary("sub", col, col)
    before = shift(groups, col, periods)
    if d.kind in "iu" and not d.masked:
        # pandas: float32 for int8 and int16, float64 for the others
        t = "float32" if d.storage in ("int8", "int16") else "float64"
        col = Column(t, col.values.astype(t))
        before = Column(t, before.values.astype(t))
    return binary("sub", col, before)


def rank(groups, col, method="average", ascending=True, na_option="keep", pct=False):
    _not_categorical(col, "rank")
    if method not in ("average", "min", "max", "first", "dense"):
        raise ValueError("method must be one of 'average', 'min', 'max', 'first', "
                         "'dense'")
    if na_option != "keep":
        raise NotImplementedError(f"groupby rank with na_option={na_option!r} "
                                  "(supported: 'keep')")
    out = ember.full(groups.n, float("nan"), dtype="float64", device=groups.device)
    if groups.n:
        out = _ranks(groups, col, out, method, ascending, pct)
    if col.dtype.masked and not col.dtype.is_string:
        return Column("Float64", out).with_validity(~ember.isnan(out))
    return Column("float64", out)


def _ranks(groups, col, out, method, ascending, pct):
    """out (NaN a row) with each valid row's rank in its group."""
    from ember.frame._order import codes
    dev = groups.device
    vc, kv = codes(col)
    if not ascending:
        vc = ember.where(vc >= 0, kv - 1 - vc, vc)
    valid = vc >= 0
    rows = sorted_within(groups, vc, valid, int(kv).bit_length())
    m = rows.shape[0]
    if m == 0:
        return out
    g, val = groups.codes[rows], vc[rows]
    counts = groups.count(valid)
    starts = ember.concatenate([ember.zeros(1, dtype="int64", device=dev),
                                ember.cumsum(counts)[:-1]])
    i = ember.arange(m, dtype="int64", device=dev)
    gstart = starts[g]
    new = ember.ones(m, dtype="bool", device=dev)
    new[1:] = (g[1:] != g[:-1]) | (val[1:] != val[:-1])
    run = ember.cumsum(new.astype("int64")) - 1
    run_first = ember.flatnonzero(new)
    run_last = ember.concatenate([run_first[1:], ember.asarray([m], dtype="int64",
                                                               device=dev)]) - 1
    lo, hi = run_first[run] - gstart, run_last[run] - gstart
    if method == "average":
        r = (lo + hi).astype("float64") / 2 + 1
    elif method == "min":
        r = (lo + 1).astype("float64")
    elif method == "max":
        r = (hi + 1).astype("float64")
    elif method == "first":
        r = (i - gstart + 1).astype("float64")
    else:
        r = (run - run[gstart] + 1).astype("float64")
    if pct:
        if method == "dense":
            gend = starts[g] + counts[g] - 1
            total = run[gend] - run[gstart] + 1
        else:
            total = counts[g]
        r = r / total
    out[rows] = r
    return out
