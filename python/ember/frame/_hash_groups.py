"""Rows grouped by hashing their keys (frame/kernels/key_hash.cuh), for
the operations that need equal keys but not sorted ones: value_counts
(counts, ties in order of first appearance), duplicated and
drop_duplicates. pandas hashes there too; a sort of 10^6 keys costs more
than one pass over a table that stays in cache.

A key column becomes 64-bit keys plus null rows: integers, bools and
times as themselves (a small range, max - min at most about 2n, is
addressed directly, as key_codes does for groupby: no probing), floats by
their bits with -0.0 made 0.0 and every NaN one NaN, strings and
categoricals by their codes. Several columns: each one's slots renumbered
densely, combined arithmetically, hashed again."""
import numpy as np

import ember

from ember.frame._kernels import geometry, launch
from ember.frame._keys import _small

_BIG = 1 << 62
_SAMPLE = 4096   # keys _guess looks at
_PROBES = 64     # probes of a guessed table before a row overflows
_FILE = "key_hash.cuh"
SLOTS, COUNTS = 1, 2   # what an insert records (kernels/key_hash.cuh's mode bits)


class Slots:
    """slot (int32 or int64 a row, when recorded) in [0, entries); ent:
    two int64 a slot, its first row (n where none; with rev, n - 1 - the
    last row) and its rows (when counted); null: the slot of null rows."""
    __slots__ = ("slot", "ent", "counted", "entries", "null", "n", "rev")

    def __init__(self, slot, ent, counted, entries, null, n, rev):
        self.slot, self.ent, self.counted, self.entries = slot, ent, counted, entries
        self.null, self.n, self.rev = null, n, rev

    @property
    def first(self):
        return self.ent[0::2]

    def counts(self):
        if self.counted:
            return self.ent[1::2]
        return ember.bincount(self.slot, minlength=self.entries)


def _bits(col):
    """(int64 keys, null mask or None, (lo, hi) bounds of the keys or None)."""
    d = col.dtype
    if col.length == 0:
        return ember.zeros(0, dtype="int64", device=col.device), None, (0, 0)
    if d.is_categorical or d.is_string:
        return _codes(col)
    nulls = col.null_mask()
    v = col.values
    if d.kind == "f":
        v = v.astype("float64") if str(v.dtype) != "float64" else v
        # one NaN, and -0.0 + 0.0 is 0.0: equal floats, equal bits
        v = ember.where(ember.isnan(v), float("nan"), v + 0.0)
        return v.view("int64"), nulls, None
    if d.kind == "b":
        return v.astype("int64"), nulls, (0, 1)
    if d.kind == "u" and str(v.dtype) == "uint64":
        hi = int(v.max())
        lo = int(v.min())
        v = v.view("int64")
        return v, nulls, ((lo, hi) if hi < 1 << 63 else None)
    v = v.astype("int64") if str(v.dtype) != "int64" else v
    return v, nulls, _bounds(v)


def _codes(col):
    """_bits of a categorical's codes, or of a string column's sorted codes."""
    from ember.frame._order import codes
    c, k = codes(col)
    nulls = c < 0
    return c, (nulls if bool(nulls.any()) else None), (0, max(k - 1, 0))


def _string_hashes(col):
    """A string column's rows as 64-bit hashes of their bytes
    (kernels/str_hash.cuh), and its null rows."""
    from ember.frame import _str_kernels as sk
    n = col.length
    h = ember.empty(n, dtype="int64", device=col.device)
    sk.launch(col.device, "em_str_hash", n, (sk.offsets(col), col.values, sk.i64(n), h))
    return h, col.null_mask()


def _exact(col, s):
    """Whether every row of string column col has its slot's first row's
    bytes (else two strings shared a hash)."""
    from ember.frame import _str_kernels as sk
    n = col.length
    other = s.first[s.slot]
    if s.rev:
        other = n - 1 - other
    same = ember.empty(n, dtype="uint8", device=col.device)
    sk.launch(col.device, "em_str_same", n, (sk.offsets(col), col.values, sk.i64(n),
                                             other, same))
    return bool(same.all())


def string_slots(col, rev=False, mode=SLOTS):
    """The Slots of a (non-empty) string column by the hashes of its bytes,
    or None when two strings share a hash: every row is checked against its
    slot's first row, so the slots that come back are exact groups."""
    keys, nulls = _string_hashes(col)
    s = _insert(keys, nulls, None, rev, mode | SLOTS)
    return s if _exact(col, s) else None


def _column(col, rev, mode):
    """The Slots of one key column. Strings hash their bytes (string_slots);
    a hash two strings share sends the column to its sorted codes instead."""
    d = col.dtype
    if d.is_object:   # Python objects: their codes, factorized once (_object_keys)
        from ember.frame._object_keys import proxy
        col = proxy(col, "hash")
        d = col.dtype
    if d.is_string and not d.is_categorical and col.length:
        s = string_slots(col, rev, mode)
        if s is not None:
            return s
        return _insert(*_codes(col), rev, mode)
    return _insert(*_bits(col), rev, mode)


def _bounds(keys):
    """(min, max) of int64 keys in one pass."""
    n = keys.shape[0]
    dev = keys.device
    grid, block, chunk = geometry(dev, n, most=1024)
    t = grid[0] * block[0]
    lo = ember.empty(t, dtype="int64", device=dev)
    hi = ember.empty(t, dtype="int64", device=dev)
    _launch(dev, "em_kh_bounds", grid, block, (keys, np.int64(n), np.int64(chunk), lo, hi))
    return int(lo.min()), int(hi.max())


def _launch(dev, kernel, grid, block, args):
    launch(dev, _FILE, kernel, grid, block, args)


def _guess(keys):
    """A table size for keys (a power of two), four times the distinct keys
    an evenly spread sample suggests (Chao's estimate: the distinct keys
    seen, plus those seen once squared over twice those seen twice, for
    the keys the sample missed). A table of twice the rows is tens of MB
    to set up and misses cache on every probe, while a groupby key of a
    thousand values needs a few KB. A guess that proves short costs one
    more insert, of rows that give up after _PROBES probes (key_hash.cuh's
    overflow slot), into the whole table."""
    n = keys.shape[0]
    if n < _SAMPLE * 16:
        return 1 << 62
    _, counts = ember.unique(keys[::n // _SAMPLE][:_SAMPLE], return_counts=True)
    f = ember.asnumpy(ember.bincount(ember.minimum(counts, 3), minlength=4))
    est = counts.shape[0] + int(f[1]) * max(int(f[1]) - 1, 0) // (2 * (int(f[2]) + 1))
    return 1 << max((4 * est - 1).bit_length(), 12)


def _insert(keys, nulls, bounds, rev, mode, whole=False):
    """Slots of int64 keys (nulls: True where the row is null); mode:
    SLOTS and/or COUNTS, what to record; whole: a table of twice the rows
    rather than one sized by _guess."""
    n = keys.shape[0]
    dev = keys.device
    direct = bounds is not None and _small(bounds[1] - bounds[0] + 1, n)
    if direct:
        lo = bounds[0]
        cap = bounds[1] - lo + 1
        tkeys = ember.zeros(1, dtype="int64", device=dev)
    else:
        lo = 0
        full = 1 << max((2 * n - 1).bit_length(), 10)   # at most half full
        cap = full if whole else min(full, _guess(keys))
        tkeys = ember.full(cap, -1, dtype="int64", device=dev)
    # two int64 an entry: the table, the null rows', the all-ones key's
    # and the overflow's (a guessed table that filled up)
    ent = ember.zeros((cap + 3) * 2, dtype="int64", device=dev)
    ent[0::2] = n
    wide = cap + 2 >= 1 << 31
    slot = ember.empty(n if mode & SLOTS else 1, dtype="int64" if wide else "int32",
                       device=dev)
    valid = (~nulls).astype("uint8") if nulls is not None else \
        ember.ones(1, dtype="uint8", device=dev)
    grid, block, chunk = geometry(dev, n)
    if n:
        _launch(dev, "em_kh_insert" + ("64" if wide else "32"), grid, block, (
            keys, valid, np.int32(nulls is not None), np.int64(n), np.int64(chunk),
            np.int32(rev), np.uint64(lo & ((1 << 64) - 1)), np.int32(direct),
            np.uint64(cap - 1), np.int64(cap if direct or cap == full else _PROBES),
            tkeys, ent, slot, np.int32(mode)))
        if not direct and cap < full and int(ent[2 * (cap + 2)]) < n:
            # more distinct keys than the sample showed: the whole table
            return _insert(keys, nulls, bounds, rev, mode, whole=True)
    return Slots(slot if mode & SLOTS else None, ent, bool(mode & COUNTS), cap + 2, cap,
                 n, rev)


def slots(cols, mode, rev=False):
    """The Slots of the rows of key columns (a null in a key is a value
    equal to the other nulls of that column, as pandas' duplicated)."""
    if len(cols) == 1:
        return _column(cols[0], rev, mode)
    combined, span = None, 1
    for col in cols:
        s = _column(col, False, SLOTS | COUNTS)
        ids, k = _dense(s)
        if combined is not None and span * k >= _BIG:   # renumber before a wrap
            ids0, span = _dense(_insert(combined, None, (0, span - 1), False,
                                        SLOTS | COUNTS))
            combined = ids0
        if combined is None:
            combined, span = ids, k
        else:
            combined, span = combined * k + ids, span * k
    return _insert(combined, None, (0, span - 1), rev, mode)


def _dense(s):
    """(ids 0..k-1 of the occupied slots, k)."""
    present = s.counts() > 0
    remap = ember.cumsum(present.astype("int64")) - 1
    return remap[s.slot], int(remap[s.entries - 1]) + 1


def first_rows(col):
    """(first row of each distinct value in order of appearance, its
    count, True where that value is null): value_counts' groups."""
    s = slots([col], COUNTS)
    counts = s.counts()
    occ = ember.flatnonzero(counts > 0)
    first, counts = s.first[occ], counts[occ]
    appear = ember.argsort(first)   # distinct rows: no ties to keep stable
    return first[appear], counts[appear], (occ == s.null)[appear]


def distinct(col):
    """(distinct non-null values, whether a row is null): nunique."""
    if col.length == 0:
        return 0, False
    s = slots([col], COUNTS)
    counts = s.counts()
    null = bool(counts[s.null] > 0)
    return int((counts > 0).sum()) - null, null


def kept_rows(cols, keep):
    """drop_duplicates' rows, ascending (int64): the first (or last) row of
    each distinct key, or with keep=False the rows whose key is theirs
    alone. Only the slots' first rows are read (k of them, then sorted),
    so no row's slot is written and no mask of n rows made."""
    n = cols[0].length
    s = slots(cols, COUNTS if keep is False else 0, rev=keep == "last")
    first = s.first
    occ = ember.flatnonzero(s.counts() == 1 if keep is False else first < n)
    rows = first[occ]
    return ember.sort(n - 1 - rows if s.rev else rows)


def duplicated(cols, keep):
    """pandas' duplicated of the rows of key columns (keep first, last or
    False)."""
    s = slots(cols, SLOTS | (COUNTS if keep is False else 0), rev=keep == "last")
    if keep is False:
        counts = s.counts()
        return counts[s.slot] > 1
    out = ember.empty(s.n, dtype="bool", device=s.slot.device)
    if s.n:
        wide = str(s.slot.dtype) == "int64"
        grid, block, chunk = geometry(out.device, s.n)
        _launch(out.device, "em_kh_dup" + ("64" if wide else "32"), grid, block,
                (s.slot, s.ent, np.int64(s.n), np.int64(chunk), np.int32(s.rev), out))
    return out
