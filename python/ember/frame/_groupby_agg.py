"""Per-group reductions of one column: one value per group (a Column of
k rows) from the group codes of _groupby_codes.Groups.

Sums, means, counts and variances are bincounts weighted by the values
(O(n), no sort); min, max, prod, first and last are segmented reductions
over the rows in group order (one cached stable sort per groupby);
median and nunique sort the values within the groups."""
import ember

from ember.frame._column import Column
from ember.frame._dtypes import lookup
from ember.frame._reduce import result_dtype
from ember.parallel._scan import rising_segmented_reduce

AGGS = ("sum", "mean", "count", "size", "min", "max", "std", "var", "median",
        "nunique", "first", "last", "prod")
_NUMERIC_ONLY = ("sum", "mean", "std", "var", "median", "prod")
# float64 sums of integers are exact below this magnitude
_EXACT = 1 << 53


def aggregate(groups, col, how, skipna=True, ddof=1, min_count=0, dropna=True):
    """How (one of AGGS) of col's values in each group, as pandas gives it."""
    d = col.dtype
    if how == "size":   # pandas' SeriesGroupBy.size is Int64 for nullable columns
        return Column("Int64" if d.masked and d.name != "str" else "int64",
                      groups.count())
    if how not in AGGS:
        raise NotImplementedError(f"groupby aggregation {how!r} (supported: "
                                  + ", ".join(AGGS) + ")")
    if d.is_categorical and how not in ("count", "nunique", "first", "last"):
        if how in ("min", "max") and d.ordered:   # would be a gather of codes
            raise NotImplementedError(f"groupby {how} of an ordered categorical column "
                                      "(supported: count, nunique, first, last)")
        raise TypeError(f"dtype 'category' does not support operation '{how}'")
    if how in _NUMERIC_ONLY and (d.is_string or (d.kind in "Mm" and
                                                 how not in ("median", "mean", "std"))):
        if how == "sum" and d.is_string:
            raise NotImplementedError("groupby sum of a str column (string "
                                      "concatenation); use numeric_only=True")
        raise TypeError(f"dtype '{d.name}' does not support operation '{how}'")
    if d.kind in "Mm" and how == "median":
        raise NotImplementedError("groupby median of datetimes (supported: count, "
                                  "mean, min, max, first, last, nunique)")
    out = lookup(d.name if d.kind in "Mm" else
                 result_dtype(col, how if how != "median" else "mean"))
    if d.kind in "Mm" and how == "std":   # a spread of times is a timedelta
        out = lookup("timedelta64[" + d.name[d.name.index("[") + 1:-1].split(",")[0] + "]")
    if how in ("sum", "mean") and d.kind == "f" and not d.masked and skipna:
        # a NaN makes its group's sum NaN: without one, no value is null
        # and the null mask (two passes) is not needed
        s = _fsum(groups, col.values, None)
        if not bool(ember.isnan(s).any()):
            counts = groups.count()
            if how == "mean":
                return _with_nulls(out, s / ember.maximum(counts, 1), counts == 0)
            return _with_nulls(out, s, counts < min_count if min_count > 0 else None)
    nulls = col.null_mask()
    if nulls is not None and not bool(nulls.any()):
        nulls = None
    valid = None if nulls is None else ~nulls
    if how == "count":
        return Column("Int64" if d.masked and not d.is_string else "int64",
                      groups.count(valid))
    if how == "nunique":
        return Column("int64", _nunique(groups, col, nulls, dropna))
    counts = groups.count(valid)
    empty = counts == 0
    if how in ("first", "last"):
        return _take_rows(groups, col, valid, counts, how == "first")
    if how in ("min", "max") and d.is_string:
        return _string_extreme(groups, col, valid, counts, how)
    if how in ("sum", "prod"):
        values = _sum(groups, col, valid) if how == "sum" else \
            _segmented(groups, col, valid, "mul")
        empty = counts < min_count if min_count > 0 else None
        if d.kind in "iu":
            out = lookup(fit_back(values, d))
    elif how in ("min", "max"):
        values = _segmented(groups, col, valid, how)
    elif how == "mean":
        values = _fsum(groups, col.values, valid) / ember.maximum(counts, 1)
        if d.kind in "Mm":   # pandas truncates a time's mean to its unit
            values = ember.where(counts > 0, values, 0).astype("int64")
    elif how in ("std", "var"):
        values = _var(groups, col, valid, counts, ddof)
        if how == "std":
            values = ember.sqrt(values)
        empty = counts <= ddof
        if d.kind in "Mm":
            values = ember.where(empty, 0, values).astype("int64")
    else:
        values = _median(groups, col, valid, counts)
    if not skipna and nulls is not None:
        has_null = groups.count(nulls) > 0
        empty = has_null if empty is None else (empty | has_null)
    return _with_nulls(out, values, empty)


def fit_back(values, d):
    """The dtype pandas gives an integer column's sums (computed in 64
    bits): the column's own when every result fits in it, else the 64-bit
    one (nullable for a nullable column)."""
    import numpy as np
    from ember.frame._dtypes import masked_form
    name = d.storage
    if name not in ("int64", "uint64") and values.shape[0]:
        info = np.iinfo(name)
        if int(values.min()) < info.min or int(values.max()) > info.max:
            name = "int64" if d.kind == "i" else "uint64"
    return masked_form(name).name if d.masked else name


def _with_nulls(dtype, values, null_groups):
    """A result column with nulls where null_groups, read as the dtype
    reads them (NaN, NaT or the bitmap); a NumPy integer dtype becomes
    float64, as in pandas."""
    storage = dtype.storage
    if str(values.dtype) != storage:
        values = values.astype(storage)
    if null_groups is None or not bool(null_groups.any()):
        return Column(dtype, values)
    if dtype.masked:
        return Column(dtype, values).with_validity(~null_groups)
    if dtype.kind == "f":
        return Column(dtype, ember.where(null_groups, float("nan"), values))
    if dtype.kind in "Mm":
        return Column(dtype, ember.where(null_groups, -(2 ** 63), values))
    if dtype.kind == "O":   # a categorical's null is code -1
        return Column(dtype, ember.where(null_groups, -1, values).astype(storage))
    if dtype.kind in "iu":   # pandas' NaN needs a float
        return Column("float64", ember.where(null_groups, float("nan"),
                                             values.astype("float64")))
    raise NotImplementedError("a bool result with nulls (pandas makes an object "
                              "column); cast to 'boolean' first")


def _fsum(groups, values, valid):
    """float64 sums of values per group (nulls left out)."""
    w = values.astype("float64") if str(values.dtype) != "float64" else values
    if valid is not None:
        w = ember.where(valid, w, 0.0)
    return ember.bincount(groups.bins, weights=w, minlength=groups.k + 1)[:groups.k]


def _sum(groups, col, valid):
    d = col.dtype
    if d.kind == "f":
        return _fsum(groups, col.values, valid)
    v = col.values.astype("int64") if str(col.values.dtype) != "int64" else col.values
    if valid is not None:
        v = ember.where(valid, v, 0)
    if groups.n == 0:
        return ember.zeros(groups.k, dtype="int64", device=groups.device)
    top = max(abs(int(v.min())), abs(int(v.max())))
    if top * groups.n < _EXACT:
        return _fsum(groups, v, None).astype("int64")
    # three 21-bit pieces, each summed exactly in float64, joined with
    # int64's wrap-around (pandas' overflow behaviour)
    mask = (1 << 21) - 1
    out = None
    for shift in (0, 21, 42):
        piece = v >> shift if shift == 42 else (v >> shift) & mask
        s = _fsum(groups, piece, None).astype("int64") * (1 << shift)
        out = s if out is None else out + s
    return out


def _var(groups, col, valid, counts, ddof):
    v = col.values
    if col.dtype.kind in "Mm" and valid is not None and bool(valid.any()):
        # times as offsets from the first valid one: exact in float64
        v = v - v[ember.flatnonzero(valid)[0]]
    v = v.astype("float64") if str(v.dtype) != "float64" else v
    mean = _fsum(groups, v, valid) / ember.maximum(counts, 1)
    dev = v - ember.concatenate([mean, ember.zeros(1, device=groups.device)])[groups.bins]
    sq = _fsum(groups, dev * dev, valid)
    return sq / ember.maximum(counts - ddof, 1)


def valid_order(groups, valid):
    """(rows of groups in group order, stable, nulls left out; offsets)."""
    rows, offsets = groups.order()
    rows = rows[:int(offsets[groups.k])] if groups.k else rows[:0]
    if valid is None:
        return rows, offsets
    rows = rows[ember.flatnonzero(valid[rows])]
    counts = groups.count(valid)
    return rows, ember.concatenate([offsets[:1], ember.cumsum(counts)])


def _segmented(groups, col, valid, op):
    v = col.values
    if col.dtype.kind == "b":
        v = v.astype("int64" if op == "mul" else "int8")
    elif op == "mul" and col.dtype.kind in "iu":
        v = v.astype("int64" if col.dtype.kind == "i" else "uint64")
    counts = groups.count(valid)
    offsets = ember.concatenate([ember.zeros(1, dtype="int64", device=groups.device),
                                 ember.cumsum(counts)])
    return rising_segmented_reduce(groups.sort_by_group(v, valid), offsets, op,
                                   identity(op, str(v.dtype)), dtype=v.dtype)


def identity(op, storage):
    """x op identity == x for every x of the dtype."""
    import numpy as np
    if op in ("add", "mul"):
        return 0 if op == "add" else 1
    if storage.startswith(("int", "uint")):
        info = np.iinfo(storage)
        return int(info.min) if op == "max" else int(info.max)
    return float("-inf") if op == "max" else float("inf")


def _take_rows(groups, col, valid, counts, first):
    rows, offsets = valid_order(groups, valid)
    if groups.k == 0 or rows.shape[0] == 0:
        at = ember.zeros(groups.k, dtype="int64", device=groups.device)
        picked = col.take(at) if col.length else col
    else:
        pos = offsets[:-1] if first else offsets[1:] - 1
        pos = ember.clip(pos, 0, rows.shape[0] - 1)
        picked = col.take(rows[pos])
    return _mask_groups(picked, counts == 0)


def _mask_groups(col, null_groups):
    """col (one row a group) with the groups where null_groups made null."""
    if not bool(null_groups.any()):
        return col
    d = col.dtype
    if d.masked:
        return col.with_validity(~null_groups & ~col.isna())
    return _with_nulls(d, col.values, null_groups)


def _string_extreme(groups, col, valid, counts, how):
    from ember.frame._order import codes
    vc, kv = codes(col)
    rows, offsets = valid_order(groups, valid)
    if rows.shape[0] == 0:
        return _take_rows(groups, col, valid, counts, True)
    best = rising_segmented_reduce(vc[rows], offsets, how, identity(how, "int64"),
                                   dtype="int64")
    rep = ember.zeros(kv, dtype="int64", device=groups.device)
    rep[vc[rows]] = rows
    picked = col.take(rep[ember.clip(best, 0, kv - 1)])
    return _mask_groups(picked, counts == 0)


def sorted_within(groups, keyvals, valid, key_bits=None):
    """Rows in group order and, within a group, by keyvals (stable); nulls
    and rows in no group left out. Two radix sorts: by the values, then by
    the few bits of the group numbers (key_bits: how many bits the values
    need, when they are codes >= 0)."""
    ok = groups.codes >= 0
    if valid is not None:
        ok = ok & valid
    sel = ember.flatnonzero(ok)
    if sel.shape[0] == 0:
        return sel
    kw = {} if key_bits is None else {"end_bit": max(key_bits, 1)}
    _, sel = ember.parallel.radix_sort(keyvals[sel], sel, **kw)
    return groups.sort_by_group(sel, codes=groups.codes[sel])


def _median(groups, col, valid, counts):
    """The middle of each group's sorted values: the values sorted with
    their group numbers carried, then stably by group number (a radix sort
    of only its bits) with the values carried, so no row is gathered."""
    v = col.values.astype("float64") if str(col.values.dtype) != "float64" else col.values
    g = groups.codes
    ok = valid if groups.complete else (g >= 0 if valid is None else valid & (g >= 0))
    if ok is not None:
        sel = ember.flatnonzero(ok)
        v, g = v[sel], g[sel]
    if v.shape[0] == 0:
        return ember.full(groups.k, float("nan"), device=groups.device)
    if groups.k < 1 << 31:   # fewer bytes a pass for both sorts
        g = g.astype("int32")
    v, g = ember.parallel.radix_sort(v, g)
    _, s = ember.parallel.radix_sort(g, v, end_bit=max(int(groups.k).bit_length(), 1))
    start = ember.concatenate([ember.zeros(1, dtype="int64", device=groups.device),
                               ember.cumsum(counts)[:-1]])
    last = s.shape[0] - 1
    lo = ember.clip(start + (counts - 1) // 2, 0, last)
    hi = ember.clip(start + counts // 2, 0, last)
    return (s[lo] + s[hi]) / 2


def _nunique(groups, col, nulls, dropna):
    from ember.frame._order import codes
    vc, kv = codes(col)
    ok = (groups.codes >= 0) & (vc >= 0)
    pair = groups.codes[ember.flatnonzero(ok)] * max(kv, 1) + vc[ember.flatnonzero(ok)]
    g = ember.unique(pair) // max(kv, 1)
    out = ember.bincount(g, minlength=groups.k)[:groups.k] if groups.k else \
        ember.zeros(0, dtype="int64", device=groups.device)
    if not dropna and nulls is not None:
        out = out + (groups.count(nulls) > 0).astype("int64")
    return out.astype("int64")
