"""Ordering and distinct values: every column becomes dense codes (0..k-1
in ascending value order, -1 for null), and sorts, unique, value_counts
and nunique are sorts and scans of codes."""
import ember


def codes(col):
    """(codes, k): int64 codes ordered as the values, -1 where null, and
    the number of distinct non-null values."""
    dev = col.device
    if col.dtype.is_object:   # Python's order of the cells (_object_keys)
        from ember.frame._object_keys import proxy
        col = proxy(col, "sort")
    if col.dtype.is_categorical:   # category order is the codes' order
        from ember.frame._categorical import dense_codes
        return dense_codes(col)
    if col.dtype.is_string:
        return _string_codes(col)
    nulls = col.null_mask()
    values = col.values if nulls is None else col.values[~nulls]
    if values.shape[0] == 0:
        return ember.full(col.length, -1, dtype="int64", device=dev), 0
    uniq, inv = ember.unique(values, return_inverse=True)
    inv = inv.astype("int64")
    if nulls is None:
        return inv, uniq.shape[0]
    out = ember.full(col.length, -1, dtype="int64", device=dev)
    out[~nulls] = inv
    return out, uniq.shape[0]


def _dense(c):
    """Renumber codes >= 0 to 0..k-1 keeping their order (-1 stays)."""
    valid = c >= 0
    if not bool(valid.any()):
        return c, 0
    uniq, inv = ember.unique(c[valid], return_inverse=True)
    out = ember.full(c.shape[0], -1, dtype="int64", device=c.device)
    out[valid] = inv.astype("int64")
    return out, uniq.shape[0]


def _string_codes(col):
    """(codes, k) of a string column (-1 where null): string_codes' first two."""
    return string_codes(col)[:2]


def string_codes(col):
    """(codes, k, rows) of a string column (-1 where null; rows: one row of
    each code, in code order, or None): its rows hashed into
    groups (_hash_groups.string_slots, exact), and only the k distinct
    strings, one row of each group, sorted by their bytes. A key column
    with few distinct values (groupby's, merge's) sorts k strings instead
    of n: at 10^6 rows of 10 values this is most of groupby's time. When
    two strings share a hash, every row is sorted instead."""
    from ember.frame._hash_groups import string_slots
    n = col.length
    if n == 0:
        return ember.zeros(0, dtype="int64", device=col.device), 0, None
    s = string_slots(col)
    if s is None:
        nulls = col.null_mask()
        inv, k = _sorted_string_codes(col)
        if nulls is not None:
            inv, k = _dense(ember.where(nulls, -1, inv))
        return inv, k, None
    first = s.first.copy()
    first[s.null] = n   # the null rows' slot is no value
    occ = ember.flatnonzero(first < n)
    k = occ.shape[0]
    if k == 0:   # every row null
        return ember.full(n, -1, dtype="int64", device=col.device), 0, None
    reps = first[occ]
    rank, _ = _sorted_string_codes(col.take(reps))   # distinct: a permutation
    table = ember.full(s.entries, -1, dtype="int64", device=col.device)
    table[occ] = rank
    rows = ember.empty(k, dtype="int64", device=col.device)
    rows[rank] = reps
    return table[s.slot], k, rows


def _sorted_string_codes(col):
    """(codes, k) of a string column's rows by their bytes: an LSD chain
    of stable radix sorts of the rows' words (the last word first), each
    carrying the order so far, then one scan of where the words change."""
    from ember.frame._strings import words
    n = col.length
    dev = col.device
    if n == 0:
        return ember.zeros(0, dtype="int64", device=dev), 0
    ws, lens = words(col)
    keys = ws[::-1]   # least significant first
    if not ws or bool((col.values == 0).any()):
        # a NUL byte reads as the words' zero padding: only the length
        # tells "a" from "a\0" (without one, words that differ in length
        # differ in a byte)
        keys = [lens] + keys
    order = ember.arange(n, dtype="int64", device=dev)
    for i, key in enumerate(keys):
        bits = max(int(lens.max()).bit_length(), 1) if key is lens else None
        top, order = ember.parallel.radix_sort(key if i == 0 else key[order], order,
                                               end_bit=bits)
    change = top[1:] != top[:-1]
    for key in keys[:-1]:
        ks = key[order]
        change = change | (ks[1:] != ks[:-1])
    new = ember.ones(n, dtype="int64", device=dev)
    new[1:] = change.astype("int64")
    rank = ember.cumsum(new) - 1
    out = ember.empty(n, dtype="int64", device=dev)
    out[order] = rank
    return out, int(rank[n - 1]) + 1


def _plain(col, na_position):
    """Whether col's own values sort it (NaN last, as ember's sorts put it):
    a number or bool column without a validity bitmap, nulls last (an int
    or bool column has none, so there na_position does not matter)."""
    kinds = "biuf" if na_position == "last" else "biu"
    return col.validity is None and col.dtype.kind in kinds and \
        not col.dtype.is_categorical


def _nan_first(order, keys):
    """A float key's sort with its NaN rows (last, in row order) moved to
    the front, as na_position="first" wants: one rotation."""
    n = keys.shape[0]
    k = int(ember.isnan(keys).sum())
    if k == 0 or k == n:
        return order, keys
    return (ember.concatenate([order[n - k:], order[:n - k]]),
            ember.concatenate([keys[n - k:], keys[:n - k]]))


def _flipped(values):
    """Values whose ascending order is values' descending one, ties and
    NaN (still last) in place: -x for floats, ~x for ints and bools (no
    overflow at the int minimum or for unsigned ints). Its own inverse."""
    return -values if values.dtype.kind == "f" else ~values


def sorted_key(cols, ascending, na_position):
    """(order, the first key's column in that order, or None): sort_values
    on one plain number column gets its sorted values from the sort itself
    (the radix sort carries them with the positions), saving the gather of
    that column; otherwise sort_indexer's order and None."""
    if na_position not in ("first", "last"):
        raise ValueError(f"invalid na_position: {na_position!r}")
    col = cols[0]
    nan_first = na_position == "first" and col.dtype.kind == "f" and \
        _plain(col, "last")
    if len(cols) == 1 and (_plain(col, na_position) or nan_first) and \
            col.dtype.kind != "b" and col.length > 1:
        from ember.frame._column import Column
        from ember.parallel import radix_sort
        # 4-byte positions while they fit: each radix pass moves a quarter
        # fewer bytes (about 2/3 of the int64 sort's time on the 2-core
        # host); the order is widened once for the gathers
        pdt = "int32" if col.length < 2 ** 31 else "int64"
        v = col.values if ascending[0] else _flipped(col.values)
        keys, order = radix_sort(v, ember.arange(col.length, dtype=pdt, device=col.device))
        keys = keys if ascending[0] else _flipped(keys)
        if nan_first:
            order, keys = _nan_first(order, keys)
        return order.astype("int64", copy=False), Column(col.dtype, keys)
    return sort_indexer(cols, ascending, na_position), None


def sort_indexer(cols, ascending, na_position):
    """The stable order of rows sorted by several columns (the first is the
    primary key), each ascending or descending, nulls first or last."""
    if na_position not in ("first", "last"):
        raise ValueError(f"invalid na_position: {na_position!r}")
    keys = []
    for col, asc in zip(cols, ascending):
        if _plain(col, na_position):
            # ember's stable sorts already put NaN last: no codes needed
            keys.append(col.values if asc else _flipped(col.values))
            continue
        c, k = codes(col)
        if not asc:
            c = ember.where(c >= 0, k - 1 - c, c)
        if na_position == "last":
            c = ember.where(c < 0, k, c)
        keys.append(c)
    if not keys:
        raise ValueError("sort needs at least one key")
    if len(keys) == 1:
        return ember.argsort(keys[0], kind="stable")
    return ember.lexsort(tuple(keys[::-1]))


def first_rows(c, k):
    """For codes c: one row per distinct code (null's included), the first
    where it occurs, in order of first occurrence; and each one's count."""
    n = c.shape[0]
    dev = c.device
    if n == 0:
        z = ember.zeros(0, dtype="int64", device=dev)
        return z, z, z
    order = ember.argsort(c, kind="stable")
    sc = c[order]
    head = ember.ones(n, dtype="bool", device=dev)
    head[1:] = sc[1:] != sc[:-1]
    starts = ember.flatnonzero(head)
    bounds = ember.concatenate([starts, ember.asarray([n], dtype=starts.dtype,
                                                      device=dev)])
    counts = (bounds[1:] - bounds[:-1]).astype("int64")
    first = order[starts]
    appear = ember.argsort(first, kind="stable")
    return first[appear], counts[appear], sc[starts][appear]


def duplicated(cols, keep="first"):
    """pandas' duplicated over several columns (nulls equal each other),
    by hashing the rows' keys (_hash_groups) as pandas does."""
    if keep not in ("first", "last", False):
        raise ValueError("keep must be either 'first', 'last' or False")
    n = cols[0].length if cols else 0
    dev = cols[0].device if cols else None
    if n == 0:
        return ember.zeros(0, dtype="bool", device=dev)
    from ember.frame._hash_groups import duplicated as hashed
    return hashed(cols, keep)


def unduplicated_rows(cols, keep="first"):
    """drop_duplicates' rows (ascending int64 positions), by hashing."""
    if keep not in ("first", "last", False):
        raise ValueError("keep must be either 'first', 'last' or False")
    dev = cols[0].device if cols else None
    if not cols or cols[0].length == 0:
        return ember.zeros(0, dtype="int64", device=dev)
    from ember.frame._hash_groups import kept_rows
    return kept_rows(cols, keep)


def isin(col, values, match_nulls):
    """col's rows found among the values (a Column); a null row is found
    when match_nulls (pandas' rule depends on how the values were given:
    Series.isin decides)."""
    from ember.frame._column import concat
    from ember.frame._categorical import decode, is_cat
    col, values = (decode(c) if is_cat(c) else c for c in (col, values))
    n = col.length
    nulls = col.isna()
    if values.length == 0 or n == 0 or col.dtype.is_string != values.dtype.is_string:
        return nulls & match_nulls
    both, _ = codes(concat(col, values))
    mine, theirs = both[:n], ember.unique(both[n:])
    at = ember.minimum(ember.searchsorted(theirs, mine), theirs.shape[0] - 1)
    return ember.where(nulls, match_nulls, theirs[at] == mine)
