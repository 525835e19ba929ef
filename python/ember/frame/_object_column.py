"""pandas' object columns (dtype object): cells that hold Python lists or
other objects. The layout follows what the cells hold:

- "list": every cell a list of one scalar type (all int, all float, all
  bool or all str) or null. Arrow's list layout, as strings are Arrow's
  offsets into bytes: int64 offsets (n + 1) into one child Column of
  every row's items, both on the column's device. explode, .str.len(),
  .str[i] and apply(len) are array work on them.
- "box": every cell one scalar of one type, or null: a typed child
  Column (int64, float64, bool, str, datetime, ...) on the device whose
  values read as Python objects. astype(object), explode and .str.get of
  lists make these.
- "host": anything else (mixed types, dicts, sets, tuples, nested lists):
  a NumPy object array in host memory. The column still belongs to its
  frame's device (nothing else moves to the host), and its validity
  bitmap is on that device.

A null cell is None or NaN, and pandas keeps which: `nan_nulls` (a bool,
or a bool array a row) says which a null reads as; "NA" or "NaT" where a
box holds a nullable or datetime column (pandas' astype(object) keeps
pd.NA and NaT)."""
import numpy as np

import ember

from ember.frame import _bitmap
from ember.frame._column import Column

_SCALARS = (int, float, bool, str)


class ObjectColumn(Column):
    __slots__ = ("layout", "child", "host", "nan_nulls", "home")

    def __init__(self, layout, length, child=None, offsets=None, validity=None,
                 host=None, nan_nulls=False, home=None):
        Column.__init__(self, "object", None, validity, offsets, length)
        self.layout, self.child, self.host = layout, child, host
        self.nan_nulls = nan_nulls
        self.home = home if home is not None else (child.device if child is not None
                                                   else offsets.device)

    @property
    def device(self):
        return self.home

    # Code written for typed columns reads `values`; an object column has
    # none, and says so rather than failing on a None somewhere inside.
    def _no_values(self):
        raise NotImplementedError(
            "this operation is not supported on an object column (dtype object: "
            "lists or mixed Python objects) by ember.frame; docs/frames.md 'Object "
            "columns' lists what is, or use to_pandas()")

    values = property(_no_values, lambda self, v: None)

    def null_mask(self):
        if self.validity is None:
            return None
        return ~_bitmap.unpack(self.validity, self.length)

    def _rows(self, a, idx):
        return a[idx] if isinstance(a, ember.ndarray) else a

    def take(self, idx):
        valid = None if self.validity is None else \
            _bitmap.pack(_bitmap.unpack(self.validity, self.length)[idx])
        nan = self._rows(self.nan_nulls, idx)
        n = int(idx.shape[0])
        if self.layout == "box":
            return ObjectColumn("box", n, self.child.take(idx), None, valid, None, nan)
        if self.layout == "host":
            return ObjectColumn("host", n, None, None, valid,
                                self.host[ember.asnumpy(idx)], nan, self.home)
        from ember.frame._strings import _gather_ranges
        starts = self.offsets[:-1][idx]
        pos, off = _gather_ranges(starts, self.offsets[1:][idx] - starts, self.home)
        return ObjectColumn("list", n, self.child.take(pos), off, valid, None, nan)

    def slice(self, start, stop):
        stop = max(start, stop)
        return self.take(ember.arange(start, stop, dtype="int64", device=self.home))

    def with_validity(self, valid, dtype=None):
        if dtype is not None and dtype != "object":
            raise TypeError(f"an object column cannot be read as {dtype}")
        return ObjectColumn(self.layout, self.length, self.child, self.offsets,
                            None if valid is None else _bitmap.pack(valid), self.host,
                            self.nan_nulls, self.home)

    def copy(self):
        cp = (lambda a: a.copy() if a is not None and hasattr(a, "copy") else a)
        return ObjectColumn(self.layout, self.length, cp(self.child), cp(self.offsets),
                            cp(self.validity), cp(self.host), cp(self.nan_nulls), self.home)

    def to_device(self, device):
        mv = (lambda a: a.to_device(device) if isinstance(a, (ember.ndarray, Column)) else a)
        home = self.home if str(self.home) == str(device) else ember.Device(device) \
            if isinstance(device, str) else device
        return ObjectColumn(self.layout, self.length, mv(self.child), mv(self.offsets),
                            mv(self.validity), self.host, mv(self.nan_nulls), home)

    def lengths(self):
        """Items a row of a list column (int64; 0 for a null row)."""
        return self.offsets[1:] - self.offsets[:-1]

    def to_pandas_array(self):
        """The cells as pandas holds them: a NumPy object array of Python
        objects (the host copy pandas' object dtype is)."""
        if self.layout == "host":
            return self.host
        nulls = self.null_mask()
        nulls = np.zeros(self.length, bool) if nulls is None else ember.asnumpy(nulls)
        if self.layout == "box":
            out = python_values(self.child)
        else:
            items = python_values(self.child)
            cuts = ember.asnumpy(self.offsets).tolist()
            out = np.empty(self.length, dtype=object)
            out[:] = [items[a:b].tolist() for a, b in zip(cuts[:-1], cuts[1:])]
        if nulls.any():
            nan = self.nan_nulls
            if isinstance(nan, str):
                from ember.frame._pandas import pandas
                out[nulls] = getattr(pandas(), nan)
                return out
            nan = ember.asnumpy(nan) if isinstance(nan, ember.ndarray) else \
                np.full(self.length, bool(nan))
            out[nulls & nan] = np.nan
            out[nulls & ~nan] = None
        return out


def python_values(col):
    """A typed column's values as a NumPy object array of Python (or
    pandas) scalars, nulls as None, as pandas' astype(object) makes them."""
    from ember.frame._pandas import column_to_pandas
    if col.dtype.is_string:
        from ember.frame._strings import to_pylist
        out = np.empty(col.length, dtype=object)
        out[:] = to_pylist(col)
        return out
    arr = column_to_pandas(col)
    if isinstance(arr, np.ndarray) and arr.dtype.kind in "biuf":
        out = np.empty(col.length, dtype=object)
        out[:] = arr.tolist()   # Python ints and floats, as pandas' cells
    else:
        out = np.asarray(arr, dtype=object)
    nulls = col.null_mask()
    if nulls is not None and col.dtype.kind not in "fMm":
        out[ember.asnumpy(nulls)] = None
    return out


def boxed(col, nan_nulls=True):
    """A typed column read as objects (pandas' astype(object))."""
    if isinstance(col, ObjectColumn):
        return col
    if col.dtype.is_categorical:
        from ember.frame._categorical import decode
        col = decode(col)
    nulls = col.null_mask()
    valid = None if nulls is None else _bitmap.pack(~nulls)
    d = col.dtype
    if d.kind in "Mm":
        nan_nulls = "NaT"
    elif d.masked and d.name != "str":   # nullable numbers and `string`
        nan_nulls = "NA"
    return ObjectColumn("box", col.length, col, None, valid, None, nan_nulls)


def _null_kind(x):
    """None or 'nan' for a null cell, False for a value."""
    if x is None:
        return None
    if isinstance(x, float) and x != x:
        return "nan"
    if type(x).__name__ in ("NAType", "NaTType"):
        return "other"
    return False


def _one_type(items):
    """The one Python scalar type of items (bool apart from int), or None."""
    kinds = {type(x) for x in items}
    if len(kinds) == 1:
        t = kinds.pop()
        if t in _SCALARS:
            return t
    return None


def from_objects(items, device=None):
    """An object column from Python objects (a list or a NumPy object
    array): a list or box layout where the cells allow one, else host."""
    items = list(items)
    device = ember.get_device() if device is None else device
    n = len(items)
    kinds = [_null_kind(x) for x in items]
    nulls = np.fromiter((k is not False for k in kinds), bool, count=n)
    nan = np.fromiter((k == "nan" for k in kinds), bool, count=n)
    valid = ember.asarray(~nulls, device=device)
    validity = _bitmap.pack(valid) if nulls.any() else None
    nan_nulls = ember.asarray(nan, device=device) if nan.any() and not \
        (nan == nulls).all() else bool(nan.any())
    vals = [x for x, k in zip(items, kinds) if k is False]
    if any(k == "other" for k in kinds):   # pd.NA, NaT: only the host keeps them
        return _host(items, n, validity, device)
    col = None
    if vals and all(type(x) is list for x in vals):
        col = _lists(items, nulls, vals, validity, nan_nulls, device)
    elif vals and _one_type(vals) is not None:
        col = _box(items, nulls, _one_type(vals), validity, nan_nulls, device)
    return col if col is not None else _host(items, n, validity, device)


def _host(items, n, validity, device):
    arr = np.empty(n, dtype=object)
    arr[:] = items
    return ObjectColumn("host", n, None, None, validity, arr, False, ember.Device(device)
                        if isinstance(device, str) else device)


def _typed(vals, t, device):
    """A child column of scalars of the one type t, or None where ember's
    column would not give them back as they are (an int past int64)."""
    from ember.frame._convert import column_from
    try:
        col = column_from(vals, dtype="str" if t is str else None, device=device)
    except (OverflowError, TypeError, ValueError):
        return None
    want = {int: "iu", float: "f", bool: "b", str: "U"}[t]
    return col if col.dtype.kind in want else None


def _box(items, nulls, t, validity, nan_nulls, device):
    filled = [x if not m else ("" if t is str else t()) for x, m in zip(items, nulls)]
    child = _typed(filled, t, device)
    if child is None:
        return None
    return ObjectColumn("box", len(items), child, None, validity, None, nan_nulls)


def _lists(items, nulls, vals, validity, nan_nulls, device):
    flat = [x for v in vals for x in v]
    if flat:
        t = _one_type(flat)
        if t is None:
            return None
        child = _typed(flat, t, device)
        if child is None:
            return None
    else:   # lists that are all empty: an item type does not matter
        child = Column("float64", ember.zeros(0, dtype="float64", device=device))
    lens = np.fromiter((0 if m else len(x) for x, m in zip(items, nulls)), np.int64,
                       count=len(items))
    off = np.zeros(len(items) + 1, np.int64)
    np.cumsum(lens, out=off[1:])
    return ObjectColumn("list", len(items), child, ember.asarray(off, device=device),
                        validity, None, nan_nulls)


def to_arrow(col, child_to_arrow, pa):
    """An Arrow array of the cells: a list column as Arrow's large_list
    over its child (the layout it already has), a box as its typed values
    with the box's nulls, host objects as pyarrow reads them (ArrowInvalid
    or ArrowTypeError for cells of mixed types, as pyarrow's own)."""
    mask = col.null_mask()
    if col.layout == "host":
        return pa.array(col.host, from_pandas=True)
    if col.layout == "box":
        child = col.child if mask is None else col.child.with_validity(~mask)
        return child_to_arrow(child)
    mask = None if mask is None else pa.array(ember.asnumpy(mask))
    return pa.LargeListArray.from_arrays(pa.array(ember.asnumpy(col.offsets)),
                                         child_to_arrow(col.child), mask=mask)


def from_arrow_lists(arr, child_from_arrow, device):
    """A list column from an Arrow list array: its offsets (from 0) and its
    items as a child column; nulls read as None, as pandas' to_pandas of
    such an array gives them."""
    off = np.asarray(arr.offsets, dtype=np.int64)
    items = arr.values.slice(int(off[0]), int(off[-1] - off[0])) if len(off) else arr.values
    child = child_from_arrow(items, device)
    if child.dtype.is_object:   # lists of lists: pandas' cells are Python lists
        return from_objects(arr.to_pylist(), device)
    valid = None
    if arr.null_count:
        valid = ember.asarray(~np.asarray(arr.is_null()), device=device)
    return from_lists(ember.asarray(off - off[0], device=device), child, valid, False)


def from_lists(offsets, child, valid, nan_nulls=True):
    """A list column of child's items cut by offsets (int64, n + 1), null
    where valid (a bool ember array, or None) is False."""
    n = int(offsets.shape[0]) - 1
    return ObjectColumn("list", n, child, offsets,
                        None if valid is None else _bitmap.pack(valid), None, nan_nulls)
