"""ffill/bfill and combine_first: nulls filled from the nearest valid row
before (or after) them, or from another Series of the same labels. The
row each null takes is a running maximum (minimum, from the end) of the
valid rows' positions, one ember.parallel scan on the device; the rows are then taken
by _align.reindexed, which leaves a null where no valid row came yet."""
import ember

from ember.frame._align import reindexed


def fill_column(col, backward=False, limit=None):
    if limit is not None:
        raise NotImplementedError("ffill/bfill(limit=): fill every null, or mask "
                                  "the result")
    nulls = col.null_mask()
    if nulls is None or not bool(nulls.any()):
        return col
    n = col.length
    pos = ember.arange(n, dtype="int64", device=col.values.device)
    from ember.parallel import inclusive_scan
    if not backward:
        src = inclusive_scan(ember.where(nulls, -1, pos), "max")
    else:
        src = inclusive_scan(ember.ascontiguousarray(ember.where(nulls, n, pos)[::-1]),
                             "min")[::-1]
        src = ember.where(src == n, -1, src)
    return reindexed(col, ember.ascontiguousarray(src))


def combine_first(a, b):
    """a's values, b's where a is null (pandas' Series.combine_first), for
    Series of one index; another index is NotImplementedError (pandas
    takes the union of the labels)."""
    from ember.frame._where import choose
    if not a.index.equals(b.index):
        raise NotImplementedError("combine_first of Series with other indexes "
                                  "(alignment to the union of their labels)")
    nulls = a._col.null_mask()
    if nulls is None:
        return a
    return a._like(choose(a._col, ~nulls, b._col, "combine_first"))
