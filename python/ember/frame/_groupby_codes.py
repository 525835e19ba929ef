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


def _dense_range(c, span, complete):
    """Codes in [0, span) (-1: none, unless complete) renumbered to the
    occupied slots only, in order: (codes, k, occupied slots, rows a group)."""
    valid = None if complete else c >= 0
    cv = c if complete else ember.where(valid, c, span)
    counts = ember.bincount(cv, minlength=span + 1)[:span]
    present = counts > 0
    slots = ember.flatnonzero(present)
    k = slots.shape[0]
    if k == span:
        return c, k, slots, counts
    remap = ember.cumsum(present.astype("int64")) - 1
    if complete:
        return remap[c], k, slots, counts[slots]
    out = ember.where(valid, remap[ember.where(valid, c, 0)], -1)
    return out, k, slots, counts[slots]


def densify(c, span, n, complete):
    """Codes in [0, span) (-1: none) -> (dense codes, k, rows a group or
    None)."""
    if span <= max(_SPAN_PER_ROW * n, _SMALL_SPAN):
        out, k, _, counts = _dense_range(c, span, complete)
        return out, k, counts
    out, k = _order._dense(c)
    return out, k, None


def key_codes(col):
    """(codes, k, direct, has_null) of one key column: codes ordered as the
    values, -1 for null; direct is (min, occupied slots, rows a group) for
    an integer key coded by direct addressing, else None."""
    d = col.dtype
    n = col.length
    if n and d.kind in "biu" and col.validity is None:
        v = col.values if d.kind != "b" else col.values.astype("int8")
        lo, hi = int(v.min()), int(v.max())
        span = hi - lo + 1
        if hi < 1 << 63 and span <= max(_SPAN_PER_ROW * n, _SMALL_SPAN):
            c = v.astype("int64") if str(v.dtype) != "int64" else v
            if lo:
                c = c - lo
            out, k, slots, counts = _dense_range(c, span, True)
            return out, k, (lo, slots, counts), False
    c, k = _order.codes(col)
    return c, k, None, bool((c < 0).any()) if n else False


class Groups:
    """The groups of rows by key columns: codes (int64 per row, -1 for a
    row in no group), k groups, keys (one Column of k values per key),
    complete (no row is in no group), and, made on first use, the rows in
    group order."""

    def __init__(self, keys, dropna=True, sort=True):
        n = keys[0].length
        dev = keys[0].device
        self.n, self.device = n, dev
        combined, span, complete, direct = None, 1, True, None
        for col in keys:
            c, k, direct, has_null = key_codes(col)
            if has_null and not dropna:
                c = ember.where(c < 0, k, c)   # nulls: one more group, last
                k, has_null = k + 1, False
            if combined is None:
                combined, span, complete = c, k, not has_null
                continue
            if span * max(k, 1) >= 1 << 62:
                combined, span, _ = densify(combined, span, n, complete)
            complete = complete and not has_null
            combined = combined * k + c if complete else \
                ember.where((combined < 0) | (c < 0), -1, combined * k + c)
            span *= k
        self._size = direct[2] if direct is not None and len(keys) == 1 else None
        if len(keys) > 1:
            combined, span, self._size = densify(combined, span, n, complete) if n \
                else (combined, 0, None)
        self.codes, self.k, self.complete = combined, span, complete
        self._order = self._bins = None
        if len(keys) == 1 and direct is not None:
            self.keys = [_from_slots(keys[0], direct[0], direct[1])]
        else:
            self.keys = [col.take(self._representatives()) for col in keys]
        if not sort and self.k > 1:
            self._appearance_order()

    @classmethod
    def from_codes(cls, codes, k):
        """Groups of given codes (groups may be empty; no keys)."""
        g = cls.__new__(cls)
        g.codes, g.k, g.n, g.device = codes, k, codes.shape[0], codes.device
        g.complete = g.n == 0 or bool((codes >= 0).all())
        g._order = g._bins = g._size = None
        g.keys = []
        return g

    @property
    def bins(self):
        """codes with a row in no group as k: bincount's bins with one spare."""
        if self._bins is None:
            self._bins = self.codes if self.complete else \
                ember.where(self.codes < 0, self.k, self.codes)
        return self._bins

    def count(self, mask=None):
        """Rows per group (only those where mask, when given)."""
        if mask is None and self._size is not None:
            return self._size
        b = self.bins if mask is None else ember.where(mask, self.bins, self.k)
        out = ember.bincount(b, minlength=self.k + 1)[:self.k]
        if mask is None:
            self._size = out
        return out

    def sort_by_group(self, values, mask=None, codes=None):
        """values in group order, stable (a radix sort of only the bits a
        group number has); rows in no group, or where mask is False, after
        every group. codes: the codes of values when not the rows'."""
        return self._radix(values, mask, codes)[1]

    def _radix(self, values, mask=None, codes=None):
        if codes is None:
            codes = self.bins if mask is None else ember.where(mask, self.bins, self.k)
        if values.shape[0] == 0:
            return codes, values
        return ember.parallel.radix_sort(codes, values,
                                         end_bit=max(int(self.k).bit_length(), 1))

    def order(self):
        """(rows in group order, stable; rows in no group last; offsets:
        group g's rows are rows[offsets[g]:offsets[g + 1]])."""
        if self._order is None:
            self._sorted_bins, rows = self._radix(ember.arange(self.n, dtype="int64",
                                                               device=self.device))
            offsets = ember.concatenate([ember.zeros(1, dtype="int64", device=self.device),
                                         ember.cumsum(self.count())])
            self._order = (rows, offsets)
        return self._order

    def sorted_bins(self):
        """bins in group order (order()'s rows' bins)."""
        self.order()
        return self._sorted_bins

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
        self._size = self._size[perm] if self._size is not None else None
        self._order = self._bins = None


def _from_slots(col, lo, slots):
    """The group values of a directly addressed integer key."""
    from ember.frame._column import Column
    v = slots + lo
    storage = col.dtype.storage
    return Column(col.dtype, v.astype(storage) if str(v.dtype) != storage else v)
