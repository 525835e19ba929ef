"""A column: an ember array of values on one device, an optional validity
bitmap (Arrow's layout) and its dtype; strings add Arrow offsets over
utf-8 bytes (the values are then the bytes)."""
import ember

from ember.frame import _bitmap
from ember.frame._dtypes import lookup

_NAT = -(2 ** 63)


class Column:
    __slots__ = ("dtype", "values", "validity", "offsets", "length")

    def __init__(self, dtype, values, validity=None, offsets=None, length=None):
        self.dtype = lookup(dtype)
        self.values = values
        self.validity = validity
        self.offsets = offsets
        if length is None:
            length = offsets.shape[0] - 1 if offsets is not None else values.shape[0]
        self.length = length

    def __len__(self):
        return self.length

    @property
    def device(self):
        return self.values.device

    def null_mask(self):
        """True where the row is null, or None when no row can be."""
        d = self.dtype
        if d.is_categorical:   # code -1, or a bitmap a merge's gather made
            from ember.frame._categorical import codes_of
            return codes_of(self) < 0
        if self.validity is not None:
            return ~_bitmap.unpack(self.validity, self.length)
        if d.kind == "f" and not d.masked:
            return ember.isnan(self.values)
        if d.kind in "Mm":
            return self.values == _NAT
        return None

    def isna(self):
        m = self.null_mask()
        return m if m is not None else ember.zeros(self.length, dtype="bool",
                                                   device=self.device)

    def has_nulls(self):
        m = self.null_mask()
        return m is not None and bool(m.any())

    def take(self, idx):
        """The rows at the int64 positions `idx` (an ember array)."""
        validity = None
        if self.validity is not None:
            validity = _bitmap.pack(_bitmap.unpack(self.validity, self.length)[idx])
        if self.offsets is not None:
            from ember.frame import _strings
            values, offsets = _strings.take(self, idx)
            return Column(self.dtype, values, validity, offsets)
        return Column(self.dtype, self.values[idx], validity)

    def slice(self, start, stop):
        """Rows start..stop: views of the values (and of a string column's
        bytes, under its offsets moved to 0: two offsets to the host), the
        validity bits of only those rows, never a gather."""
        stop = max(start, stop)
        n = stop - start
        validity = None if self.validity is None else \
            _bitmap.pack(_bitmap.unpack(self.validity, n, start))
        if self.offsets is None:
            return Column(self.dtype, self.values[start:stop], validity, None, n)
        off = self.offsets[start:stop + 1]
        ends = ember.asnumpy(off[::max(n, 1)]).tolist()
        lo, hi = ends[0], ends[-1]
        return Column(self.dtype, self.values[lo:hi], validity,
                      (off - lo).astype(off.dtype, copy=False), n)

    def with_validity(self, valid, dtype=None):
        """This column's values under a new bool validity array."""
        return Column(dtype or self.dtype, self.values,
                      None if valid is None else _bitmap.pack(valid), self.offsets,
                      self.length)

    def copy(self):
        cp = (lambda a: None if a is None else a.copy())
        return Column(self.dtype, self.values.copy(), cp(self.validity),
                      cp(self.offsets), self.length)

    def to_device(self, device):
        mv = (lambda a: None if a is None else a.to_device(device))
        if self.dtype.is_categorical:
            from ember.frame._categorical import resolve
            return Column(resolve(self.dtype, device), mv(self.values), mv(self.validity))
        return Column(self.dtype, mv(self.values), mv(self.validity),
                      mv(self.offsets), self.length)


def concat(a, b):
    """The rows of a then b as one column (the dtypes' common one)."""
    from ember.frame._dtypes import masked_form
    if a.dtype.is_categorical or b.dtype.is_categorical:
        from ember.frame import _categorical
        return _categorical.concat(a, b)
    valid = None
    if a.validity is not None or b.validity is not None:
        valid = _bitmap.pack(ember.concatenate([~a.isna(), ~b.isna()]))
    values = ember.concatenate([a.values, b.values])
    offsets = None
    if a.offsets is not None and b.offsets is not None:
        oa, ob = a.offsets.astype("int64"), b.offsets.astype("int64")
        offsets = ember.concatenate([oa, ob[1:] + oa[a.length]])
        return Column(a.dtype, values, valid, offsets, a.length + b.length)
    if a.dtype == b.dtype:
        return Column(a.dtype, values, valid)
    masked = a.dtype.masked or b.dtype.masked
    return Column(masked_form(values.dtype) if masked else str(values.dtype), values, valid)
