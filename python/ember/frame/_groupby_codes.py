"""Group codes: the rows of a frame split by key columns into dense group
numbers 0..k-1 (one int64 per row, -1 for a row in no group), computed
once per groupby (by _keys.key_codes, which merge shares) and shared by
every aggregation of it."""
import ember

from ember.frame._keys import key_codes


class Groups:
    """The groups of rows by key columns: codes (int64 per row, -1 for a
    row in no group), k groups, keys (one Column of k values per key),
    complete (no row is in no group), and, made on first use, the rows in
    group order."""

    def __init__(self, keys, dropna=True, sort=True):
        n = keys[0].length
        self.n, self.device = n, keys[0].device
        kc = key_codes(keys, "drop" if dropna else "last")
        self.codes, self.k, self.complete, self._size = kc.codes, kc.k, kc.complete, \
            kc.counts
        self._order = self._bins = None
        if kc.direct is not None:
            self.keys = [_from_slots(keys[0], *kc.direct)]
        elif kc.rows is not None and len(keys) == 1:
            self.keys = [keys[0].take(kc.rows)]
        else:
            self.keys = [col.take(self._representatives()) for col in keys]
        if any(c.dtype.is_object for c in keys):   # pandas 3: string keys as str
            from ember.frame._object_keys import nan_nulls, sorted_strings
            self.keys = [sorted_strings(nan_nulls(c)) if c.dtype.is_object else c
                         for c in self.keys]
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
