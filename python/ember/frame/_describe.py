"""describe() of numeric columns: count, mean, std, min, quartiles, max."""
import ember

from ember.frame._column import Column
from ember.frame._reduce import reduce

LABELS = ["count", "mean", "std", "min", "25%", "50%", "75%", "max"]


def describe_column(col):
    """A float64 (Float64 for a nullable column) column of the statistics,
    and their labels."""
    import numpy as np
    d = col.dtype
    if not d.is_numeric or d.kind == "b":
        raise NotImplementedError(f"describe of a {d.name} column (numeric only "
                                  "for now)")
    nulls = col.null_mask()
    values = col.values if nulls is None else col.values[~nulls]
    n = values.shape[0]
    if n:
        q = ember.quantile(values.astype("float64"),
                           ember.asarray([0.25, 0.5, 0.75], device=col.device))
        q = ember.asnumpy(q).tolist()
        lo, hi = float(values.min()), float(values.max())
    else:
        q, lo, hi = [np.nan] * 3, np.nan, np.nan
    stats = [float(n), _f(reduce(col, "mean")), _f(reduce(col, "std")), lo] + q + [hi]
    host = np.asarray(stats, dtype=np.float64)
    values = ember.asarray(host, device=col.device)
    if d.masked:
        from ember.frame import _bitmap
        valid = ember.asarray(~np.isnan(host), device=col.device)
        return Column("Float64", ember.where(valid, values, 0.0),
                      _bitmap.pack(valid)), LABELS
    return Column("float64", values), LABELS


def _f(x):
    try:
        return float(x)
    except TypeError:   # pandas' NA
        return float("nan")
