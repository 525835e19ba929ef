"""Group codes: the rows of a frame split by key columns into dense group
numbers 0..k-1 (one int64 per row, -1 for a row in no group), computed
once per groupby and shared by every aggregation of it.

Integer keys in a small range are coded by direct addressing (key - min,
then empty slots compacted away with one bincount and a cumsum); other
keys by _order.codes (a sort). Several keys combine their codes
arithmetically, so sorted codes are sorted keys."""
import ember

from ember.frame import _order

# direct addressing while the key range is at most this many times the rows
_SPAN_PER_ROW = 2
_SMALL_SPAN = 1 << 16


def _dense_range(c, span, dev):
    """Codes in [0, span) (-1: none) renumbered to the occupied slots only,
    in order; and the occupied slots."""
    valid = c >= 0
    some_invalid = not bool(valid.all())
    cv = ember.where(valid, c, span) if some_invalid else c
    present = ember.bincount(cv, minlength=span + 1)[:span] > 0
    slots = ember.flatnonzero(present)
    k = slots.shape[0]
    if k == span:
        return c, k, slots
    remap = ember.cumsum(present.astype("int64")) - 1
    out = remap[ember.where(valid, c, 0)] if some_invalid else remap[c]
    return (ember.where(valid, out, -1) if some_invalid else out), k, slots


def _dense_sorted(c):
    """Codes >= 0 of any range renumbered 0..k-1 in order (a sort)."""
    return _order._dense(c)


def densify(c, span, n, dev):
    """Codes in [0, span) (-1: none) -> (dense codes, k)."""
    if span <= max(_SPAN_PER_ROW * n, _SMALL_SPAN):
        out, k, _ = _dense_range(c, span, dev)
        return out, k
    return _dense_sorted(c)


def key_codes(col):
    """(codes, k, lo) of one key column: codes ordered as the values, -1
    for null; lo is the minimum of an integer key coded by direct
    addressing (its group values are then lo + slot), else None."""
    d = col.dtype
    n = col.length
    dev = col.device
    if n and d.kind in "biu" and col.validity is None:
        v = col.values if d.kind != "b" else col.values.astype("int8")
        lo, hi = int(v.min()), int(v.max())
        span = hi - lo + 1
        if hi < 1 << 63 and span <= max(_SPAN_PER_ROW * n, _SMALL_SPAN):
            c = (v.astype("int64") if str(v.dtype) != "int64" else v) - lo
            out, k, slots = _dense_range(c, span, dev)
            return out, k, (lo, slots)
    c, k = _order.codes(col)
    return c, k, None


class Groups:
    """The groups of rows by key columns: codes (int64 per row, -1 for a
    row in no group), k groups, keys (one Column of k values per key),
    and, made on first use, the rows in group order."""

    def __init__(self, keys, dropna=True, sort=True):
        n = keys[0].length
        dev = keys[0].device
        self.n, self.device = n, dev
        combined, span, direct = None, 1, []
        for col in keys:
            c, k, lo = key_codes(col)
            if not dropna and lo is None and n and bool((c < 0).any()):
                c = ember.where(c < 0, k, c)   # nulls: one more group, last
                k += 1
            direct.append(lo)
            if combined is None:
                combined, span = c, k
                continue
            if span * max(k, 1) >= 1 << 62:
                combined, span = densify(combined, span, n, dev)
            combined = ember.where((combined < 0) | (c < 0), -1,
                                   combined * k + c)
            span *= k
        if len(keys) > 1 or direct[0] is None:
            combined, span = densify(combined, span, n, dev) if n else (combined, 0)
        self.codes, self.k = combined, span
        self._order = self._bins = None
        if len(keys) == 1 and direct[0] is not None:
            lo, slots = direct[0]
            self.keys = [_from_slots(keys[0], lo, slots)]
        else:
            self.keys = [col.take(self._representatives()) for col in keys]
        if not sort and self.k > 1:
            self._appearance_order()

    @classmethod
    def from_codes(cls, codes, k):
        """Groups of given codes (groups may be empty; no keys)."""
        g = cls.__new__(cls)
        g.codes, g.k, g.n, g.device = codes, k, codes.shape[0], codes.device
        g._order = g._bins = None
        g.keys = []
        return g

    @property
    def bins(self):
        """codes with a row in no group as k: bincount's bins with one spare."""
        if self._bins is None:
            self._bins = ember.where(self.codes < 0, self.k, self.codes) \
                if self.n and not bool((self.codes >= 0).all()) else self.codes
        return self._bins

    def count(self, mask=None):
        """Rows per group (only those where mask, when given)."""
        b = self.bins if mask is None else ember.where(mask, self.bins, self.k)
        return ember.bincount(b, minlength=self.k + 1)[:self.k]

    def order(self):
        """(rows in group order, stable; rows in no group last; offsets:
        group g's rows are rows[offsets[g]:offsets[g + 1]])."""
        if self._order is None:
            rows = ember.argsort(self.bins, kind="stable")
            counts = self.count()
            offsets = ember.concatenate([ember.zeros(1, dtype="int64", device=self.device),
                                         ember.cumsum(counts)])
            self._order = (rows, offsets)
        return self._order

    def _representatives(self):
        """One row of each group (any row: they share the keys)."""
        rep = ember.zeros(self.k + 1, dtype="int64", device=self.device)
        rep[self.bins] = ember.arange(self.n, dtype="int64", device=self.device)
        return rep[:self.k]

    def first_rows(self):
        rows, offsets = self.order()
        return rows[offsets[:-1]] if self.k else offsets[:0]

    def _appearance_order(self):
        """Renumber the groups in order of their first row (sort=False)."""
        first = self.first_rows()
        perm = ember.argsort(first, kind="stable")
        remap = ember.empty(self.k + 1, dtype="int64", device=self.device)
        remap[perm] = ember.arange(self.k, dtype="int64", device=self.device)
        remap[self.k] = -1
        self.codes = remap[self.bins]
        self.keys = [c.take(perm) for c in self.keys]
        self._order = self._bins = None


def _from_slots(col, lo, slots):
    """The group values of a directly addressed integer key."""
    from ember.frame._column import Column
    v = slots + lo
    storage = col.dtype.storage
    return Column(col.dtype, v.astype(storage) if str(v.dtype) != storage else v)
