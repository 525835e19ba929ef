"""One column's order statistics as pandas computes them: quantiles and
median over the sorted non-null values, mode from the dense codes'
counts, ranks from runs of equal codes in sorted order, the positions of
nlargest/nsmallest and of the extremes (idxmin/idxmax)."""
import ember

from ember.frame._column import Column
from ember.frame._order import codes

INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")
RANK_METHODS = ("average", "min", "max", "first", "dense")


def numeric_values(col, what, keep_ints=False, times=False):
    """The non-null values of a numeric column, float64 (pandas computes
    quantiles and medians in float); times: datetimes and timedeltas as
    their int64 counts."""
    d = col.dtype
    if d.kind in "Mm" and not times:
        raise NotImplementedError(f"{what} of a {d.name} column (supported: "
                                  "numeric columns)")
    if (not d.is_numeric and d.kind not in "Mm") or d.is_categorical:
        raise TypeError(f"{what} of a {d.name} column: only numeric columns")
    nulls = col.null_mask()
    v = col.values if nulls is None else col.values[~nulls]
    return v.astype("float64") if v.dtype != ember.float64 and not keep_ints else v


def quantiles(col, qs, interpolation="linear"):
    """(values, dtype name): the column's quantile at each q of the host
    list qs (NaN for no values), NumPy's formulas, in pandas' dtype: an
    int column keeps its dtype where no interpolation happens, a nullable
    int one wherever every result is whole."""
    if interpolation not in INTERPOLATIONS:
        raise ValueError(f"interpolation must be one of {INTERPOLATIONS}")
    for q in qs:
        if not 0 <= q <= 1:
            raise ValueError("percentiles should all be in the interval [0, 1]")
    d = col.dtype
    if d.kind == "b":
        raise TypeError("quantile of a bool column (NumPy cannot subtract bools)")
    exact = interpolation in ("lower", "higher", "nearest") and d.kind in "iuMm"
    v = ember.sort(numeric_values(col, "quantile", keep_ints=exact, times=True))
    m = v.shape[0]
    dev = col.device
    if m == 0:
        out = ember.full(len(qs), float("nan"), dtype="float64", device=dev)
        if d.kind in "Mm":
            return ember.full(len(qs), -(2 ** 63), dtype="int64", device=dev), d.name
        return out, "Float64" if d.masked else "float64"
    import numpy as np
    h = np.asarray(qs, dtype=np.float64) * (m - 1)   # host: one per q
    lo = np.floor(h).astype(np.int64)
    hi = np.minimum(lo + 1, m - 1)
    t = h - lo
    if interpolation == "higher":
        lo = np.ceil(h).astype(np.int64)
    elif interpolation == "nearest":
        lo = np.around(h).astype(np.int64)
    elif interpolation == "midpoint":
        t = np.where(t > 0, 0.5, 0.0)
    a = v[ember.asarray(lo, device=dev)]
    if exact or interpolation in ("lower", "higher", "nearest"):
        return a, _exact_dtype(d, a)
    b = v[ember.asarray(hi, device=dev)]
    tt = ember.asarray(t, device=dev)
    diff = b - a
    # NumPy's _lerp: from the nearer end, so that t=1 gives b exactly
    out = ember.where(tt >= 0.5, b - diff * (1 - tt), a + diff * tt)
    if d.kind in "Mm":   # NumPy's float result cast back, toward zero
        return out.astype("int64"), d.name
    # pandas' masked path (some null, not all) gives back ints when whole
    if d.masked and d.kind in "iu" and m < col.length and \
            bool((out == ember.floor(out)).all()):
        return out.astype(d.storage), d.name
    return out, "Float64" if d.masked else "float64"


def _exact_dtype(d, values):
    if d.kind in "iuMm":
        return d.name
    return "Float64" if d.masked else "float64"


def median(col):
    """NumPy's median of the non-null values: the mean of the middle two."""
    v = ember.sort(numeric_values(col, "median"))
    m = v.shape[0]
    if m == 0:
        return float("nan")
    if m % 2:
        return v[m // 2]
    return (v[m // 2 - 1] + v[m // 2]) / 2


def mode_rows(col, dropna=True):
    """Positions of one row for each most frequent value, ascending by
    value (a null last when dropna=False and nulls are as frequent)."""
    c, k = codes(col)
    dev = col.device
    null_code = k
    c = ember.where(c < 0, null_code, c)
    counts = ember.bincount(c, minlength=k + 1)
    if dropna:
        counts[k] = 0
    top = counts.max() if counts.shape[0] else 0
    if col.length == 0 or int(top) == 0:
        return ember.zeros(0, dtype="int64", device=dev)
    winners = ember.flatnonzero(counts == top)
    rep = ember.zeros(k + 1, dtype="int64", device=dev)
    rep[c] = ember.arange(col.length, dtype="int64", device=dev)
    return rep[winners]


def rank(col, method="average", ascending=True, na_option="keep", pct=False,
         nullable=True):
    """pandas' rank of each row (float64; Float64 for a nullable number)."""
    if method not in RANK_METHODS:
        raise ValueError("method must be one of 'average', 'min', 'max', "
                         "'first', 'dense'")
    if na_option not in ("keep", "top", "bottom"):
        raise ValueError("na_option must be one of 'keep', 'top', or 'bottom'")
    n = col.length
    dev = col.device
    if col.dtype.is_categorical and not col.dtype.ordered:
        from ember.frame._categorical import decode   # pandas ranks the values
        col = decode(col)
    c, k = codes(col)
    if not ascending:
        c = ember.where(c >= 0, k - 1 - c, c)
    keep = na_option == "keep"
    if na_option == "bottom":
        c = ember.where(c < 0, k, c)
    order = ember.argsort(c, kind="stable")
    sc = c[order]
    first_valid = int((sc < 0).sum()) if keep else 0
    m = n - first_valid
    out = ember.full(n, float("nan"), dtype="float64", device=dev)
    if m:
        rows, val = order[first_valid:], sc[first_valid:]
        i = ember.arange(m, dtype="int64", device=dev)
        new = ember.ones(m, dtype="bool", device=dev)
        new[1:] = val[1:] != val[:-1]
        run = ember.cumsum(new.astype("int64")) - 1
        run_first = ember.flatnonzero(new)
        run_last = ember.concatenate([run_first[1:], ember.asarray(
            [m], dtype="int64", device=dev)]) - 1
        if method == "average":
            r = (run_first[run] + run_last[run]).astype("float64") / 2 + 1
        elif method == "min":
            r = (run_first[run] + 1).astype("float64")
        elif method == "max":
            r = (run_last[run] + 1).astype("float64")
        elif method == "first":
            r = (i + 1).astype("float64")
        else:
            r = (run + 1).astype("float64")
        if pct:
            r = r / (float(run[m - 1] + 1) if method == "dense" else float(m))
        out[rows] = r
    if nullable and col.dtype.masked and not col.dtype.is_string:
        return Column("Float64", out).with_validity(~ember.isnan(out))
    return Column("float64", out)


def top_rows(col, n, keep, largest):
    """Positions of pandas' Series.nlargest/nsmallest: below the length,
    the n best non-null rows (keep decides among ties at the edge) then
    null rows if too few; from the length up, a stable full sort."""
    if keep not in ("first", "last", "all"):
        raise ValueError('keep must be either "first", "last" or "all"')
    from ember.frame._order import sort_indexer
    length = col.length
    dev = col.device
    n = int(n)
    if n <= 0:
        return ember.zeros(0, dtype="int64", device=dev)
    if n >= length:
        return sort_indexer([col], [not largest], "last")[:n]
    from ember.frame._top_select import candidates
    rows = candidates(col, n, largest)
    if rows is not None:   # the rows that can be picked, then among them only
        return rows[_select(col.take(rows), n, keep, largest)]
    return _select(col, n, keep, largest)


def _select(col, n, keep, largest):
    """top_rows for 0 < n <= the length: a stable sort of the non-null
    rows' keys, the first n (keep decides among ties at the edge), then
    null rows if too few."""
    key, valid = _top_key(col, largest)
    rows, nan_rows = ember.flatnonzero(valid), ember.flatnonzero(~valid)
    key = key[rows]
    if keep == "last":
        rows, key = rows[::-1], key[::-1]
    order = ember.argsort(key, kind="stable")
    m = rows.shape[0]
    take = min(n, m)
    if keep == "all" and take:
        take = int((key <= key[order[take - 1]]).sum())
    sel = rows[order[:take]]
    stop = n
    if keep == "all":
        nans = nan_rows.shape[0]
        stop = nans + take if take < n <= nans + take else take
    return ember.concatenate([sel, nan_rows])[:stop]


def _top_key(col, largest):
    """A key whose ascending order puts the wanted end first, and the
    non-null rows. Integers and times are their own key (~ reverses a
    two's complement or unsigned order exactly), sparing the sort that
    codes take; floats go through codes so that -0.0 ties 0.0."""
    d = col.dtype
    if d.kind in "iuMm" and col.validity is None:
        nulls = col.null_mask()
        valid = ~nulls if nulls is not None else ember.ones(
            col.length, dtype="bool", device=col.device)
        return (~col.values if largest else col.values), valid
    c, k = codes(col)
    return (k - 1 - c if largest else c), c >= 0


def frame_top_rows(cols, n, keep, largest):
    """pandas' DataFrame.nlargest: the first column's best rows, its edge
    ties settled by the next column, and so on; then a stable sort."""
    from ember.frame._order import sort_indexer
    dev = cols[0].device
    cur = None   # every row, until ties narrow them
    picked = ember.zeros(0, dtype="int64", device=dev)
    cur_n = int(n)
    for i, col in enumerate(cols):
        last = i == len(cols) - 1
        sub = col if cur is None else col.take(cur)
        pos = top_rows(sub, cur_n, keep if last else "all", largest)
        got = pos if cur is None else cur[pos]
        if last or pos.shape[0] <= cur_n:
            picked = _join(picked, got, largest)
            break
        # codes of the picked rows only: the edge's ties are equal codes
        cp, _ = codes(sub.take(pos))
        edge = cp[pos.shape[0] - 1]
        border = (cp == edge) & (edge >= 0)
        picked = _join(picked, got[~border], largest)
        cur = got[border]
        cur_n = int(n) - picked.shape[0]
    if len(cols) == 1:
        return picked
    order = sort_indexer([c.take(picked) for c in cols], [not largest] * len(cols),
                         "last")
    return picked[order]


def _join(picked, new, largest):
    return ember.concatenate([new, picked] if largest else [picked, new])


def extreme_row(col, largest, skipna, what):
    """The position of the first min/max (idxmin/idxmax), pandas' errors
    for nulls."""
    d = col.dtype
    if d.is_string and not d.is_categorical:
        c, k = codes(col)
        nulls = c < 0
        v = c
    else:
        if not (d.is_numeric or d.kind in "Mm"):
            raise TypeError(f"{what} of a {d.name} column")
        nulls = col.null_mask()
        v = col.values
    if nulls is not None and bool(nulls.any()):
        if not skipna:
            raise ValueError("Encountered an NA value with skipna=False")
        rows = ember.flatnonzero(~nulls)
        if rows.shape[0] == 0:
            raise ValueError(f"attempt to get {what} of an empty sequence")
        v = v[rows]
    else:
        rows = None
    if v.shape[0] == 0:
        raise ValueError(f"attempt to get {what} of an empty sequence")
    p = ember.argmax(v) if largest else ember.argmin(v)
    return int(p if rows is None else rows[p])
