"""DataFrame.quantile(method="table"): whole rows at the quantiles of the
rows sorted by every column in turn (nulls last), as pandas picks them:
row np.quantile(arange(n), q, method=interpolation) of that order, so
only 'nearest', 'lower' and 'higher' apply, and string columns take part
(dask asks for it to place a shuffle's boundaries by a string key)."""
import ember

_INTERP = ("lower", "higher", "nearest")


def table_quantile(df, qs, interpolation, numeric_only):
    """A DataFrame indexed by the float qs: one chosen row each."""
    import numpy as np
    from ember.frame import _order
    from ember.frame._index import Index
    if interpolation not in _INTERP:
        raise ValueError(f"Invalid interpolation: {interpolation}. Interpolation must "
                         f"be in {set(_INTERP)}")
    cols = {k: c for k, c in df._cols.items()
            if not numeric_only or c.dtype.is_numeric}
    dev, n = df._device(), len(df)
    q = np.asarray(qs, dtype="float64")
    if n == 0:   # no row to pick: a null each (pandas' NaN row)
        from ember.frame._convert import column_from
        odd = [k for k, c in cols.items()
               if c.dtype.kind != "f" or c.dtype.is_string or c.dtype.is_categorical]
        if odd:
            raise NotImplementedError(f"quantile(method='table') of an empty frame with "
                                      f"columns {odd} (pandas makes them object)")
        out = {k: column_from([None] * len(qs), dtype=c.dtype.name, device=dev)
               for k, c in cols.items()}
    else:
        order = _order.sort_indexer(list(cols.values()), [True] * len(cols), "last") \
            if cols else ember.arange(n, dtype="int64", device=dev)
        at = np.quantile(np.arange(n), q, method=interpolation).astype(np.int64)
        rows = order[ember.asarray(at, device=dev)]
        out = {k: c.take(rows) for k, c in cols.items()}
    from ember.frame.frame import DataFrame
    return DataFrame._make(out, Index(list(q), dtype="float64", device=dev))
