"""concat of columns where pandas makes an object column: object columns,
or strings and bools beside other kinds. Boxes of one child dtype stay a
box and lists of one item dtype a list (their children concatenated on
the device); anything else is host objects, as pandas holds them."""
import numpy as np

import ember

from ember.frame import _bitmap
from ember.frame._object_column import ObjectColumn, boxed, from_objects


def _valid(c):
    m = c.null_mask()
    return ember.ones(c.length, dtype="bool", device=c.device) if m is None else ~m


def _nan_rows(c):
    nan = c.nan_nulls
    if isinstance(nan, ember.ndarray):
        return nan
    return ember.full(c.length, bool(nan), dtype="bool", device=c.device)


def concat(pieces, lengths, device):
    from ember.frame._merge_cols import concat as typed_concat
    cols = [boxed(p) if p is not None else None for p in pieces]
    same = cols[0] is not None and all(
        c is not None and c.layout == cols[0].layout != "host" and
        c.child.dtype == cols[0].child.dtype and not isinstance(c.nan_nulls, str)
        for c in cols)
    if not same:   # the cells themselves, on the host
        cells = [c.to_pandas_array() if c is not None else np.full(n, np.nan, object)
                 for c, n in zip(cols, lengths)]
        return from_objects(np.concatenate(cells) if cells else [], device)
    total = sum(lengths)
    valid = ember.concatenate([_valid(c) for c in cols])
    nan = ember.concatenate([_nan_rows(c) for c in cols])
    validity = None if bool(valid.all()) else _bitmap.pack(valid)
    child = typed_concat([c.child for c in cols], [c.child.length for c in cols], device)
    if cols[0].layout == "box":
        return ObjectColumn("box", total, child, None, validity, None, nan)
    offs, base = [cols[0].offsets[:1]], 0
    for c in cols:   # every piece's items are kept, so its offsets shift by base
        offs.append(c.offsets[1:] + base)
        base += c.child.length
    return ObjectColumn("list", total, child, ember.concatenate(offs), validity, None, nan)
