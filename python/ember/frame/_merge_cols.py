"""Columns put together from rows of others, for merge and concat: a
gather where -1 makes a null row, and a concatenation of pieces (an
absent piece is all nulls), with the dtypes pandas gives them."""
import ember

from ember.frame import _bitmap
from ember.frame._column import Column, _NAT
from ember.frame._dtypes import lookup, masked_form


def nullable(dtype):
    """The dtype a column takes when null rows join it: pandas makes plain
    ints float64 (NaN) and bool object; ember makes bool `boolean`, having
    no object columns. Floats, datetimes and masked dtypes stay."""
    d = lookup(dtype)
    if d.masked or d.kind in "fMmO":   # a categorical's null is code -1
        return d
    return lookup("float64" if d.kind in "iu" else "boolean")


def _fill(d):
    return float("nan") if d.kind == "f" else (_NAT if d.kind in "Mm" else
                                               (-1 if d.kind == "O" else 0))


def nulls(dtype, n, device):
    """A column of n null rows."""
    d = lookup(dtype)
    validity = ember.zeros((n + 7) // 8, dtype="uint8", device=device) \
        if d.masked and n else None
    if d.is_string:
        return Column(d, ember.zeros(0, dtype="uint8", device=device), validity,
                      ember.zeros(n + 1, dtype="int64", device=device))
    return Column(d, ember.full(n, _fill(d), dtype=d.storage, device=device), validity)


def _valid(col):
    if col.validity is None:
        return None
    return _bitmap.unpack(col.validity, col.length)


def take(col, idx, missing):
    """col's rows at idx; where `missing` (a bool array, or None for no
    row), a null row in the dtype `nullable` gives."""
    if missing is None:
        return col.take(idx)
    to = nullable(col.dtype)
    dev = idx.device
    if col.length == 0:
        return nulls(to, idx.shape[0], dev)
    safe = ember.where(missing, 0, idx)
    valid = _valid(col)
    valid = ~missing if valid is None else valid[safe] & ~missing
    if col.offsets is not None:   # a null row keeps no bytes
        from ember.frame._str_kernels import copy_segments
        off = col.offsets
        starts = off[:-1][safe].astype("int64", copy=False)
        lens = ember.where(missing, 0, off[1:][safe] - starts)
        values, new_off = copy_segments(col.values, starts, lens, dev)
        return Column(col.dtype, values, _bitmap.pack(valid),
                      new_off.astype(col.offsets.dtype, copy=False))
    values = col.values[safe].astype(to.storage)
    if to.masked:
        return Column(to, values, _bitmap.pack(valid))
    return Column(to, ember.where(missing, _fill(to), values))


def common_dtype(dtypes):
    """The dtype pandas gives a concatenation of columns of these dtypes
    (NotImplementedError where pandas would make an object column)."""
    ds = [lookup(d) for d in dtypes]
    first = ds[0]
    if all(d == first for d in ds):
        return first
    if any(d.is_categorical for d in ds):   # other categories: the values, as pandas
        return common_dtype([d.categories.dtype if d.is_categorical else d for d in ds])
    if all(d.kind == "b" for d in ds):
        return lookup("boolean")
    if all(d.is_string for d in ds):   # str meeting string reads NA, as pandas
        return lookup("string")
    if any(not d.is_numeric or d.kind == "b" for d in ds):
        names = sorted({d.name for d in ds})
        raise NotImplementedError(f"concat of {' and '.join(names)} columns (pandas "
                                  "makes an object column); astype them to one dtype")
    import numpy as np   # dtype names only
    storage = np.result_type(*[d.storage for d in ds]).name
    return masked_form(storage) if any(d.masked for d in ds) else lookup(storage)


def _mixed(ds):
    """Whether pandas makes an object column of these dtypes (strings or
    bools beside other kinds)."""
    kinds = {"U" if d.is_string else "b" if d.kind == "b" else "n" if d.is_numeric
             else d.name for d in ds if not d.is_categorical}
    return len(kinds) > 1 and bool(kinds & {"U", "b"}) and all(
        k in ("U", "b", "n") for k in kinds)


def concat(pieces, lengths, device):
    """The rows of the pieces (Columns, or None for a piece of null rows of
    the given length) one after another, in their common dtype."""
    from ember.frame._convert import astype
    present = [p.dtype for p in pieces if p is not None]
    if any(d.is_object for d in present) or _mixed(present):
        from ember.frame._object_concat import concat as objects   # pandas' object
        return objects(pieces, lengths, device)
    to = common_dtype(present)
    if len(present) < len(pieces):
        to = nullable(to)
    cols = [astype(p, to) if p is not None else nulls(to, n, device)
            for p, n in zip(pieces, lengths)]
    if len(cols) == 1:
        return cols[0]
    total = sum(lengths)
    validity = None
    if any(c.validity is not None for c in cols):
        validity = _bitmap.pack(ember.concatenate([
            _valid(c) if c.validity is not None else
            ember.ones(c.length, dtype="bool", device=device) for c in cols]))
    values = ember.concatenate([c.values for c in cols])
    if not to.is_string:
        return Column(to, values, validity, None, total)
    offs, base = [cols[0].offsets[:1].astype("int64")], 0
    for c in cols:   # every piece's bytes are kept, so its offsets shift by base
        offs.append(c.offsets[1:].astype("int64") + base)
        base += c.values.shape[0]
    return Column(to, values, validity, ember.concatenate(offs), total)
