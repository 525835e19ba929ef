"""The join itself, on integer keys: the right rows ordered by key (stably,
so equal keys keep right order), each left row's run of matches read from
tables addressed by key (counts by bincount, starts by a scan), and the
runs expanded into gather positions, -1 where a side has no row.

Keys of any dtype first become int64 codes in one space shared by both
sides (`key_codes`, by _keys over the two sides' keys stacked); one plain
integer key is used as it is."""
import ember

from ember.frame import _keys
from ember.frame._column import concat

# plain dtypes whose values are the keys themselves (no null, fit in int64)
_RAW = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "bool")


def _family(d):
    return "str" if d.is_string else (d.kind if d.kind in "Mm" else "number")


def check_pair(a, b, name):
    """ValueError as pandas for keys that cannot be compared."""
    if _family(a.dtype) != _family(b.dtype) or (a.dtype.kind == "b") != (b.dtype.kind == "b"):
        raise ValueError(f"You are trying to merge on {a.dtype.name} and {b.dtype.name} "
                         f"columns for key '{name}'. If you wish to proceed you should "
                         "use pd.concat")
    if a.dtype.is_string and a.dtype != b.dtype:
        raise NotImplementedError(f"merge on {a.dtype.name} and {b.dtype.name} keys "
                                  "(pandas makes the key an object column): astype one "
                                  "to the other first")
    if a.dtype.kind in "Mm" and a.dtype != b.dtype:
        raise NotImplementedError(f"merge on {a.dtype.name} and {b.dtype.name} keys "
                                  "(different units): astype one to the other first")


def _i64(a):
    return a if str(a.dtype) == "int64" else a.astype("int64")


def _raw(a, b):
    return a.validity is None and b.validity is None and \
        a.dtype.storage in _RAW and b.dtype.storage in _RAW and \
        a.dtype.kind in "biu" and b.dtype.kind in "biu"


def stacked(a, b):
    """Both sides' keys in one column; object keys stay objects, so that
    _keys codes their cells (_object_keys)."""
    if a.dtype.is_object or b.dtype.is_object:
        from ember.frame._object_concat import concat as objects
        return objects([a, b], [a.length, b.length], a.device)
    return concat(a, b)


def key_codes(lcols, rcols):
    """(lk, rk, K): int64 keys of the left and right rows, equal where the
    rows' keys are equal (a null meets a null, as in pandas) and ordered as
    the keys (nulls last, NaT first); K bounds the codes, or is None for
    raw values."""
    if len(lcols) == 1 and _raw(lcols[0], rcols[0]):
        return _i64(lcols[0].values), _i64(rcols[0].values), None
    n = lcols[0].length
    kc = _keys.key_codes([stacked(a, b) for a, b in zip(lcols, rcols)], "value",
                         dense=False)
    return kc.codes[:n], kc.codes[n:], kc.k


class Match:
    """Where each left row's matches are: rows rorder[lo[i]:lo[i] + cnt[i]]
    of the right (rorder None: lo[i] is the right row itself, or -1)."""
    __slots__ = ("rorder", "lo", "cnt", "most", "m")

    def __init__(self, rorder, lo, cnt, most, m):
        self.rorder, self.lo, self.cnt, self.most, self.m = rorder, lo, cnt, most, m

    def right_matched(self):
        """A bool per right row: some left row meets it."""
        m, dev = self.m, self.cnt.device
        hit = self.cnt > 0
        out = ember.zeros(m, dtype="bool", device=dev)
        if self.rorder is None:
            out[self.lo[hit]] = True
            return out
        lo = self.lo[hit]
        # each matched run [lo, lo + cnt) of the sorted right rows, marked by
        # a +1 at its start and a -1 past its end, summed by one scan
        edge = ember.bincount(lo, minlength=m + 1) - \
            ember.bincount(lo + self.cnt[hit], minlength=m + 1)
        covered = ember.cumsum(edge)[:m] > 0
        out[self.rorder] = covered
        return out


def match(lk, rk, size):
    """A Match of left keys lk against right keys rk (int64 arrays)."""
    n, m = lk.shape[0], rk.shape[0]
    dev = lk.device
    if m == 0 or n == 0:
        return Match(None, ember.full(n, -1, dtype="int64", device=dev),
                     ember.zeros(n, dtype="int64", device=dev), 0, m)
    base = 0
    if size is None:
        base, top = int(rk.min()), int(rk.max())
        size = top - base + 1
    if size > 2 * (n + m):
        # too wide to address by value: dense codes from one sort of both
        # sides (a binary search per left row would miss the cache at
        # every step on a cpu)
        uniq, inv = ember.unique(ember.concatenate([lk, rk]), return_inverse=True)
        inv = _i64(inv)
        lk, rk, size, base = inv[:n], inv[n:], uniq.shape[0], 0
    inside = (lk >= base) & (lk < base + size)   # before a shift could wrap
    if base:
        lk, rk = lk - base, rk - base
    at = ember.where(inside, lk, 0)
    counts = ember.bincount(rk, minlength=size)
    most = int(counts.max())
    if most <= 1:   # unique right keys: a table from key to right row
        table = ember.full(size, -1, dtype="int64", device=dev)
        table[rk] = ember.arange(m, dtype="int64", device=dev)
        row = ember.where(inside, table[at], -1)
        return Match(None, row, (row >= 0).astype("int64"), 1, m)
    start = ember.cumsum(counts) - counts
    rorder = stable_order(rk, size)
    cnt = _i64(ember.where(inside, counts[at], 0))
    return Match(rorder, _i64(start[at]), cnt, most, m)


def expand(mt, n, keep_unmatched):
    """(li, ri): the left and right row of each output row, left rows in
    order, each one's matches in right order; a left row without a match
    gives one row with ri = -1 when keep_unmatched, none otherwise. li is
    None when it would be 0..n-1 (see rows)."""
    m = mt.m
    if mt.most <= 1:
        if mt.rorder is None:
            ri = mt.lo
        else:
            ri = ember.where(mt.cnt > 0, mt.rorder[ember.minimum(mt.lo, m - 1)], -1)
        if keep_unmatched:
            return None, ri
        li = _i64(ember.flatnonzero(mt.cnt > 0))
        if li.shape[0] == n:   # every left row once, in order: no gather
            return None, ri
        return li, ri[li]
    c = ember.maximum(mt.cnt, 1) if keep_unmatched else mt.cnt
    end = ember.cumsum(c)
    total = int(end[n - 1])
    start = end - c
    return _expand_kernel(mt, start, n, total, keep_unmatched)


def _expand_kernel(mt, start, n, total, keep_unmatched):
    """Each driving row writes its own run of output rows
    (frame/kernels/join_expand.cuh): one pass over the output."""
    import numpy as np
    from ember.frame._kernels import geometry, launch
    dev = start.device
    li = ember.empty(total, dtype="int64", device=dev)
    ri = ember.empty(total, dtype="int64", device=dev)
    grid, block, chunk = geometry(dev, n)
    launch(dev, "join_expand.cuh", "em_join_expand", grid, block,
           (start, _i64(mt.cnt), _i64(mt.lo), _i64(mt.rorder), np.int64(n), np.int64(chunk),
            np.int32(bool(keep_unmatched)), li, ri))
    return li, ri


def rows(idx, n, device):
    """Gather positions where None stands for every row in order."""
    return ember.arange(n, dtype="int64", device=device) if idx is None else idx


def join_rows(lk, rk, size, how, sort):
    """(li, ri) of pandas' merge for how in inner, left, right, outer; one
    of them may be None for all of its side's rows in order (see rows).

    A sorted join (sort=True, or outer, which pandas always sorts) orders
    the driving side's rows by key (stably) before matching them, so the
    runs come out in key order: a sort of that side's rows rather than of
    the output, which with repeated keys is many times longer (10^5 x 10^4
    rows of 10^3 keys: 10^6). An outer join's right rows that meet no left
    row are then merged in by key (their keys are no left row's)."""
    dev = lk.device
    if how == "right":
        ri, li = _driven(rk, lk, size, sort, True)[:2]
        return li, ri
    sort = sort or how == "outer"
    li, ri, mt, lks, c = _driven(lk, rk, size, sort, how != "inner")
    if how != "outer":
        return li, ri
    extra = _i64(ember.flatnonzero(~mt.right_matched()))
    e = extra.shape[0]
    if e == 0:
        return li, ri
    li = rows(li, lk.shape[0], dev)
    ek = rk[extra]
    eo = stable_order(ek, size)
    extra, ek = extra[eo], ek[eo]
    # an unmatched right row goes after every output row of a smaller key:
    # the left rows (sorted) below its key, and their runs' lengths summed
    ends = ember.zeros(c.shape[0] + 1, dtype="int64", device=dev)
    if c.shape[0]:
        ends[1:] = ember.cumsum(c)
    at = ends[ember.searchsorted(lks, ek, side="left")] + \
        ember.arange(e, dtype="int64", device=dev)
    t = li.shape[0] + e
    left_out = ember.ones(t, dtype="bool", device=dev)
    left_out[at] = False
    keep = ember.flatnonzero(left_out)
    out_l = ember.empty(t, dtype="int64", device=dev)
    out_r = ember.empty(t, dtype="int64", device=dev)
    out_l[keep] = li
    out_r[keep] = ri
    out_l[at] = -1
    out_r[at] = extra
    return out_l, out_r


def _driven(dk, ok, size, sort, keep_unmatched):
    """(di, oi, match, the driving keys as matched, each driving row's
    output rows): the driving side's rows (dk) each with its matches among
    the other side's (ok), in the driving side's order or, when sort, by
    key (stably); di None for all driving rows in order."""
    n = dk.shape[0]
    perm = stable_order(dk, size) if sort and n else None
    dks = dk if perm is None else dk[perm]
    mt = match(dks, ok, size)
    di, oi = expand(mt, n, keep_unmatched)
    if perm is not None:
        di = perm if di is None else perm[di]
    c = ember.maximum(mt.cnt, 1) if keep_unmatched else mt.cnt
    return di, oi, mt, dks, c


def stable_order(key, size):
    """The stable order of int64 keys; codes in [0, size) (size not None)
    by a radix sort of only the bits a code has, with 4-byte positions
    while they fit: an outer join's 10^6 output rows of 10^3 keys sort in
    two passes instead of a full int64 argsort."""
    n = key.shape[0]
    if size is None or n == 0:
        return ember.argsort(key, kind="stable")
    pos = ember.arange(n, dtype="int32" if n < 2 ** 31 else "int64", device=key.device)
    _, order = ember.parallel.radix_sort(key, pos, end_bit=max(int(size - 1).bit_length(), 1))
    return _i64(order)
