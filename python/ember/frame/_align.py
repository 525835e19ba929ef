"""Arithmetic between Series of different indexes, aligned as pandas
aligns them: the result is indexed by the union of the labels (sorted),
and a label one side lacks gives a null there. Both indexes are coded
together (_order.codes), so the union is the codes 0..k-1 and each side's
rows are scattered to their codes' places."""
import ember

from ember.frame._column import concat
from ember.frame._index import Index


def _places(codes, k):
    """For each of the k codes, the row of this side that has it, or -1."""
    pos = ember.full(k, -1, dtype="int64", device=codes.device)
    pos[codes] = ember.arange(codes.shape[0], dtype="int64", device=codes.device)
    return pos


def reindexed(col, pos, fill=None):
    """col's rows at pos, null (or the scalar fill) where pos is -1."""
    from ember.frame._where import NULL, choose
    from ember.frame._column import Column
    present = pos >= 0
    if col.length == 0 and not col.dtype.is_string:   # nothing to take: all null
        taken = Column(col.dtype, ember.zeros(pos.shape[0], dtype=col.dtype.storage,
                                              device=pos.device))
    else:
        taken = col.take(ember.maximum(pos, 0))
    return choose(taken, present, NULL if fill is None else fill, "alignment")


def _coded(a, b, what):
    """(codes of a's labels, codes of b's, k, both's labels) over the two
    indexes' labels."""
    from ember.frame._order import codes
    if a.has_nulls() or b.has_nulls():
        raise NotImplementedError(f"{what} aligned on indexes with null labels")
    if a.dtype.is_string != b.dtype.is_string:
        raise NotImplementedError(f"{what} aligned on a str index and a number index "
                                  "(pandas makes an object index)")
    labels = concat(a, b)
    both, k = codes(labels)
    return both[:a.length], both[a.length:], k, labels


def positions_in(source, target, dev, what="alignment"):
    """For each label of the index `target`, its row in the index
    `source` (whose labels must be distinct), or -1."""
    cs, ct, k, _ = _coded(source._column(dev), target._column(dev), what)
    _distinct(cs, what)
    return _places(cs, k)[ct]


def _distinct(c, what):
    if c.shape[0] and ember.unique(c).shape[0] != c.shape[0]:
        if what == "reindex":   # pandas refuses it too
            raise ValueError("cannot reindex on an axis with duplicate labels")
        raise NotImplementedError(f"{what} aligned on indexes with duplicate labels")


def aligned(op, left, right, reflected=False):
    """left op right over the union of their labels."""
    from ember.frame._ops import binary
    from ember.frame.series import Series
    dev = left.device
    a, b = left.index._column(dev), right.index._column(dev)
    ca, cb, k, labels = _coded(a, b, f"{op} of Series")
    for c in (ca, cb):
        _distinct(c, f"{op} of Series")
    both = ember.concatenate([ca, cb])
    n, m = a.length, b.length
    at = ember.empty(k, dtype="int64", device=dev)     # a row of each label
    at[both] = ember.arange(n + m, dtype="int64", device=dev)
    x = reindexed(left._col, _places(ca, k))
    y = reindexed(right._col, _places(cb, k))
    iname = left.index.name if left.index.name == right.index.name else None
    name = left.name if left.name == right.name else None
    return Series._make(binary(op, x, y, reflected), Index(labels.take(at), iname), name)
