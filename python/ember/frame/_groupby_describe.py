"""GroupBy.quantile and GroupBy.describe: every group's values sorted once
(a radix sort of the values carrying their group numbers, then a stable
radix sort of the group numbers carrying the values, as median does), and
each quantile read from each group's run by pandas' linear interpolation.
describe is count, mean, std, min, the percentiles and max of each
numeric column; a frame's labels its columns (column, statistic), pandas'
MultiIndex columns (_column_levels.py)."""
import ember

from ember.frame._column import Column


def _numeric(col, what):
    d = col.dtype
    if d.is_string or d.is_categorical or d.kind in "bMm":
        raise NotImplementedError(f"groupby {what} of a {d.name} column (supported: "
                                  "numbers; pandas' describe of other columns is an "
                                  "object table)")


def quantiles(groups, col, qs):
    """[float64 array of k groups' q-quantiles for q in qs] (NaN for a group
    without a value) and the groups' counts of values."""
    v = col.values
    v = v.astype("float64") if str(v.dtype) != "float64" else v
    ok = ~col.isna()
    if not groups.complete:
        ok = ok & (groups.codes >= 0)
    sel = ember.flatnonzero(ok)
    g = groups.codes[sel]
    v = v[sel]
    counts = groups.count(ok)
    dev = groups.device
    if v.shape[0] == 0:
        nan = ember.full(groups.k, float("nan"), device=dev)
        return [nan for _ in qs], counts
    if groups.k < 1 << 31:   # fewer bytes a pass for both sorts
        g = g.astype("int32")
    v, g = ember.parallel.radix_sort(v, g)
    _, s = ember.parallel.radix_sort(g, v, end_bit=max(int(groups.k).bit_length(), 1))
    start = ember.concatenate([ember.zeros(1, dtype="int64", device=dev),
                               ember.cumsum(counts)[:-1]])
    last = s.shape[0] - 1
    n1 = ember.maximum(counts - 1, 0).astype("float64")
    out = []
    for q in qs:
        pos = n1 * q
        lo = ember.floor(pos)
        frac = pos - lo
        lo = lo.astype("int64")
        hi = ember.minimum(lo + 1, ember.maximum(counts - 1, 0))
        a = s[ember.clip(start + lo, 0, last)]
        b = s[ember.clip(start + hi, 0, last)]
        out.append(ember.where(counts > 0, a + (b - a) * frac, float("nan")))
    return out, counts


def _check_q(q):
    import numbers
    many = isinstance(q, (list, tuple)) or hasattr(q, "__len__")
    qs = [float(x) for x in (q if many else [q])]
    for x in qs:
        if not 0 <= x <= 1:
            raise ValueError(f"Each 'q' must be between 0 and 1. Got '{x}' instead"
                             if isinstance(q, numbers.Number) else
                             "percentiles should all be in the interval [0, 1]")
    return qs, many


def _result_dtype(col):
    return "Float64" if col.dtype.masked else "float64"


def _float_column(values, dtype):
    from ember.frame._groupby_agg import _with_nulls
    from ember.frame._dtypes import lookup
    return _with_nulls(lookup(dtype), values, ember.isnan(values))


def group_quantile(gb, q=0.5, interpolation="linear", numeric_only=False):
    """pandas' GroupBy.quantile for one q (a list makes a MultiIndex of the
    rows: NotImplementedError)."""
    if interpolation != "linear":
        raise NotImplementedError(f"groupby quantile(interpolation={interpolation!r}) "
                                  "(supported: 'linear')")
    qs, many = _check_q(q)
    if many and not gb.as_index:
        raise NotImplementedError("groupby(as_index=False) quantile of a list of q; "
                                  "use as_index=True and reset_index()")
    out = {}
    for name, col in gb._values().items():
        if numeric_only and not col.dtype.is_numeric:
            continue
        if col.dtype.is_string or col.dtype.is_categorical:
            raise TypeError(f"dtype '{col.dtype.name}' does not support operation "
                            "'quantile'")
        _numeric(col, "quantile")
        vals, _ = quantiles(gb._g, col, qs)
        # several q: each group's quantiles together, in the order of q
        vals = ember.stack(vals, axis=1).reshape(-1) if many else vals[0]
        out[name] = _float_column(vals, _result_dtype(col))
    if not many:
        return gb._wrap(out)
    return _with_q_level(gb, out, qs)


def _with_q_level(gb, out, qs):
    """The per-(group, q) columns under the keys' MultiIndex plus a level
    of q, as pandas indexes a quantile of several q."""
    from ember.frame._multiindex import MultiIndex
    from ember.frame.frame import DataFrame
    from ember.frame.series import Series
    g = gb._g
    nq = len(qs)
    dev = g.device
    rows = ember.repeat(ember.arange(g.k, dtype="int64", device=dev), nq)
    qcol = Column("float64", ember.tile(ember.asarray(qs, dtype="float64", device=dev),
                                        g.k))
    levels = [k.take(rows) for k in g.keys] + [qcol]
    idx = MultiIndex._make(levels, [n for n, _ in gb._keys] + [None])
    if gb._is_series:
        (name, col), = out.items()
        return Series._make(col, idx, name)
    return DataFrame._make(out, idx)


def _percent(p):
    """pandas' percentile label: '25%', '2.5%', '33.3333%'."""
    x = p * 100
    text = f"{x:.15g}"
    if "." in text and len(text.split(".")[1]) > 4:
        text = f"{x:.4f}".rstrip("0").rstrip(".")
    return text + "%"


def group_describe(gb, percentiles=None, include=None, exclude=None):
    """pandas' GroupBy.describe of numeric columns: a Series' statistics as
    columns, a frame's under (column, statistic) labels."""
    if include is not None or exclude is not None:
        raise NotImplementedError("groupby describe with include= or exclude= (pandas' "
                                  "object table for other columns)")
    # pandas 3 keeps the percentiles asked for (no added median)
    ps = [0.25, 0.5, 0.75] if percentiles is None else sorted(set(
        float(p) for p in percentiles))
    _check_q(ps)
    values = gb._values()
    if not gb._is_series:
        numeric = {k: c for k, c in values.items()
                   if c.dtype.is_numeric and c.dtype.kind != "b" and
                   not c.dtype.is_categorical}
        if not numeric and values:
            raise NotImplementedError("groupby describe without numeric columns (pandas' "
                                      "count/unique/top/freq object table)")
        values = numeric
    else:
        for c in values.values():
            _numeric(c, "describe")
    from ember.frame._groupby_agg import aggregate
    g = gb._g
    out = {}
    for name, col in values.items():
        dt = _result_dtype(col)
        qv, counts = quantiles(g, col, ps)
        stats = {"count": Column(dt, counts.astype("float64"))}
        stats["mean"] = _as(aggregate(g, col, "mean"), dt)
        stats["std"] = _as(aggregate(g, col, "std"), dt)
        stats["min"] = _as(aggregate(g, col, "min"), dt)
        for p, v in zip(ps, qv):
            stats[_percent(p)] = _float_column(v, dt)
        stats["max"] = _as(aggregate(g, col, "max"), dt)
        for stat, c in stats.items():
            out[stat if gb._is_series else (name, stat)] = c
    res = gb._wrap(out, force_frame=True)
    return res


def _as(col, dtype):
    """A statistic column in describe's dtype (float64, or Float64 for a
    nullable column)."""
    from ember.frame._dtypes import lookup
    if col.dtype.name == dtype:
        return col
    return Column(lookup(dtype), col.values.astype("float64"), col.validity)
