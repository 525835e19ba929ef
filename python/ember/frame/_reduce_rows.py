"""DataFrame reductions along a row (axis=1): sum, prod, mean, min, max,
std, var and count of each row over the number and bool columns. The
columns are stacked into one (rows, columns) array in their common dtype
and reduced along axis 1 by ember's NaN-skipping reductions, one call for
all rows; pandas' result dtypes (int64 sums of ints and bools, float64
means, the common dtype for min and max)."""
import warnings

import numpy as np

import ember

_NAN = {"sum": ember.nansum, "prod": ember.nanprod, "mean": ember.nanmean,
        "min": ember.nanmin, "max": ember.nanmax, "std": ember.nanstd,
        "var": ember.nanvar}
_PLAIN = {"sum": ember.sum, "prod": ember.prod, "mean": ember.mean, "min": ember.min,
          "max": ember.max, "std": ember.std, "var": ember.var}


def _columns(df, how, numeric_only):
    cols = []
    for k, c in df._cols.items():
        d = c.dtype
        if d.kind in "biuf" and not d.masked and not d.is_categorical:
            cols.append(c)
        elif d.masked and d.kind in "biuf":
            raise NotImplementedError(f"DataFrame.{how}(axis=1) over the nullable column "
                                      f"{k!r} ({d.name}); astype('float64') first")
        elif not numeric_only:
            raise TypeError(f"DataFrame.{how}(axis=1): the column {k!r} is {d.name}, "
                            "not a number; pass numeric_only=True")
    return cols


def row_reduce(df, how, skipna=True, numeric_only=False, min_count=0, ddof=1):
    from ember.frame._column import Column
    from ember.frame._dtypes import lookup
    from ember.frame.series import Series
    dev, n = df._device(), len(df)
    cols = _columns(df, how, numeric_only)
    if how == "count":
        out = ember.zeros(n, dtype="int64", device=dev)
        for c in df._cols.values():
            out = out + (~c.isna()).astype("int64")
        return Series._make(Column("int64", out), df._index, None)
    common = np.result_type(*[c.dtype.storage for c in cols]) if cols else np.dtype("float64")
    if how in ("mean", "std", "var") or common.kind == "f":
        work = np.dtype("float64") if common.kind != "f" else common
    elif how in ("sum", "prod"):
        work = np.dtype("int64") if common.kind in "bi" else \
            np.dtype("uint64") if common.kind == "u" else common
    else:
        work = common
    if not cols:
        value = 0.0 if how in ("sum", "prod") and not min_count else np.nan
        if how == "prod" and not min_count:
            value = 1.0
        out = ember.full(n, value, dtype="float64", device=dev)
        return Series._make(Column("float64", out), df._index, None)
    if work.kind != "f" and how in ("sum", "prod") and min_count > len(cols):
        out = ember.full(n, np.nan, dtype="float64", device=dev)   # no row has enough
        return Series._make(Column("float64", out), df._index, None)
    a = ember.stack([c.values.astype(str(work)) for c in cols], axis=1)
    kw = {"ddof": ddof} if how in ("std", "var") else {}
    fn = _NAN[how] if skipna and work.kind == "f" else _PLAIN[how]
    with warnings.catch_warnings():   # pandas gives NaN for an all-NaN row, silently
        warnings.simplefilter("ignore", RuntimeWarning)
        out = fn(a, axis=1, **kw)
    if work.kind == "f" and (min_count or how in ("std", "var")):
        # pandas: NaN where a row has fewer values than min_count (sum,
        # prod) or not more than ddof (std, var)
        have = ember.sum(~ember.isnan(a), axis=1) if skipna else \
            ember.full(n, len(cols), dtype="int64", device=dev)
        need = min_count if how in ("sum", "prod") else ddof + 1
        out = ember.where(have < need, np.nan, out)
    out = out.astype(str(work)) if out.dtype != work else out
    return Series._make(Column(lookup(str(work)), out), df._index, None)
