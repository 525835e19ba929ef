"""ffill/bfill and combine_first: nulls filled from the nearest valid row
before (or after) them, or from another Series of the same labels. The
row each null takes is a running maximum (minimum, from the end) of the
valid rows' positions, one ember.parallel scan on the device
(last_valid/next_valid, which interpolate shares); the rows are then
taken by _align.reindexed, which leaves a null where no valid row came
yet."""
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


def check_limit(limit):
    """pandas' check of a fill limit (ffill, bfill, interpolate): None or
    an integer from 1."""
    import numbers
    if limit is None:
        return None
    if not isinstance(limit, numbers.Integral) or isinstance(limit, bool):
        raise ValueError("Limit must be an integer")
    if limit < 1:
        raise ValueError("Limit must be greater than 0")
    return int(limit)


def fill_column(col, backward=False, limit=None):
    """col's nulls filled from the nearest valid row before (after) them;
    with limit, only the first `limit` nulls after (before) a valid row,
    as pandas: the distance to that row is the scan's position minus the
    row's own. A column that holds no null is returned before the limit
    is checked, as pandas returns int and bool columns."""
    nulls = col.null_mask()
    if nulls is None or col.length == 0:
        return col
    limit = check_limit(limit)
    if not bool(nulls.any()):
        return col
    n = col.length
    if not backward:
        src = last_valid(~nulls)
        far = src < 0
    else:
        src = next_valid(~nulls)
        far = src == n
    if limit is not None:
        pos = ember.arange(n, dtype="int64", device=src.device)
        far = far | (ember.abs(src - pos) > limit)
    return reindexed(col, ember.ascontiguousarray(ember.where(far, -1, src)))


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
