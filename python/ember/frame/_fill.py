"""ffill/bfill and combine_first: nulls filled from the nearest valid row
before (or after) them, or from another Series of the same labels. The
row each null takes is a running maximum (minimum, from the end) of the
valid rows' positions, one ember.parallel scan on the device; the rows are then taken
by _align.reindexed, which leaves a null where no valid row came yet."""
import ember

from ember.frame._align import reindexed


def last_valid(valid):
    """For each row, the position of the last valid row at or before it,
    -1 where none: a running maximum of the valid rows' positions."""
    from ember.parallel import inclusive_scan
    pos = ember.arange(valid.shape[0], dtype="int64", device=valid.device)
    return inclusive_scan(ember.where(valid, pos, -1), "max")


def next_valid(valid):
    """For each row, the position of the first valid row at or after it,
    n (the length) where none: a running minimum from the end."""
    from ember.parallel import inclusive_scan
    n = valid.shape[0]
    pos = ember.arange(n, dtype="int64", device=valid.device)
    rev = ember.ascontiguousarray(ember.where(valid, pos, n)[::-1])
    return ember.ascontiguousarray(inclusive_scan(rev, "min")[::-1])


def fill_column(col, backward=False, limit=None):
    if limit is not None:
        raise NotImplementedError("ffill/bfill(limit=): fill every null, or mask "
                                  "the result")
    nulls = col.null_mask()
    if nulls is None or not bool(nulls.any()):
        return col
    if not backward:
        src = last_valid(~nulls)
    else:
        src = next_valid(~nulls)
        src = ember.where(src == col.length, -1, src)
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
