"""groupby(observed=False): a categorical key's groups are all its
categories, used or not, and several keys' groups every combination of
the keys' values (pandas' product of the groupers), so a group may have
no row: the reductions then give what pandas gives an empty group (0 for
sum, count and size, NaN for mean, min, max...). A categorical key is
coded by its own codes (no sort); the keys combine their codes in mixed
radix, which orders the groups as pandas' product does."""
import ember


def _one(col, sort):
    """(codes, k, keys Column) of one key: a categorical's every category,
    in its categories' order, else its observed values."""
    from ember.frame._categorical import codes_of, make
    from ember.frame._groupby_codes import Groups
    if col.dtype.is_categorical:
        k = len(col.dtype.categories)
        codes = codes_of(col).astype("int64")
        keys = make(ember.arange(k, dtype="int64", device=col.device), col.dtype)
        return codes, k, keys
    g = Groups([col], True, sort)
    return g.codes, g.k, g.keys[0]


def unobserved_groups(keys, dropna, sort):
    """Groups of the key Columns with pandas' observed=False groups."""
    from ember.frame._groupby_codes import Groups
    if not dropna:
        raise NotImplementedError("groupby(observed=False, dropna=False) (pandas adds "
                                  "the null key's group to every category's); use "
                                  "dropna=True")
    if not sort and len(keys) > 1:
        raise NotImplementedError("groupby(observed=False, sort=False) with several "
                                  "keys; use sort=True")
    parts = [_one(c, sort) for c in keys]
    dev = keys[0].device
    n = keys[0].length
    codes = ember.zeros(n, dtype="int64", device=dev)
    missing = ember.zeros(n, dtype="bool", device=dev)
    total = 1
    for c, k, _ in parts:
        codes = codes * k + ember.maximum(c, 0)
        missing = missing | (c < 0)
        total *= k
    codes = ember.where(missing, -1, codes)
    slots = ember.arange(total, dtype="int64", device=dev)
    out_keys, stride = [], total
    for _, k, kv in parts:
        stride //= k
        out_keys.append(kv.take((slots // stride) % k) if k else kv)
    if not sort and total:   # pandas: observed ones as they appear, then the rest
        order = _appearance_then_rest(codes, total)
        rank = ember.empty(total, dtype="int64", device=dev)
        rank[order] = slots
        codes = ember.where(codes < 0, -1, rank[ember.maximum(codes, 0)])
        out_keys = [kv.take(order) for kv in out_keys]
    g = Groups.from_codes(codes, total)
    g.keys = out_keys
    return g


def _appearance_then_rest(codes, k):
    """The group numbers, those with rows in order of first row, then the
    others in their order."""
    dev = codes.device
    n = codes.shape[0]
    rows = ember.arange(n, dtype="int64", device=dev)
    first = ember.full(k + 1, n, dtype="int64", device=dev)
    ok = ember.flatnonzero(codes >= 0)
    # each group's first row: the head of its run after a stable sort
    c, r = codes[ok], rows[ok]
    o = ember.argsort(c, kind="stable")
    c, r = c[o], r[o]
    if c.shape[0]:
        head = ember.flatnonzero(ember.concatenate([ember.ones(1, dtype="bool",
                                                               device=dev),
                                                    c[1:] != c[:-1]]))
        first[c[head]] = r[head]
    first = first[:k]
    seen = first < n
    key = ember.where(seen, first, n + ember.arange(k, dtype="int64", device=dev))
    return ember.argsort(key, kind="stable")
