"""Row selection shared by Series and DataFrame: keys of iloc, loc and []
turned into positions (an int64 ember array) or a slice."""
import ember

from ember.frame._column import Column


def _as_array(key, device):
    """A list, NumPy array, ember array, Series or Index -> ember array."""
    from ember.frame.series import Series
    if isinstance(key, Series):
        return key._col
    if isinstance(key, ember.ndarray):
        return key if str(key.device) == str(device) else key.to_device(device)
    import numpy as np
    a = np.asarray(key)
    if a.dtype == object and a.size == 0:
        a = a.astype(np.int64)
    return ember.asarray(a, device=device)


def _is_scalar(key):
    import datetime
    return isinstance(key, (int, float, str, datetime.date, datetime.timedelta)) or (
        type(key).__module__ == "numpy" and getattr(key, "ndim", 1) == 0)


def mask_positions(mask, n):
    """The positions where a bool mask (array or Column) is True."""
    if isinstance(mask, Column):
        if mask.dtype.kind != "b":
            raise TypeError("a row mask must be boolean")
        if mask.validity is not None and bool(mask.isna().any()):
            raise ValueError("Cannot mask with non-boolean array containing NA / NaN values")
        mask = mask.values
    if mask.shape[0] != n:
        raise IndexError(f"boolean index has length {mask.shape[0]}; expected {n}")
    return ember.flatnonzero(mask)


def iloc_rows(key, n, device):
    """iloc's row key -> ('int', p) | ('slice', slice) | ('take', positions)."""
    import operator
    if isinstance(key, slice):
        return "slice", key
    if _is_scalar(key):
        p = operator.index(key)
        if not -n <= p < n:
            raise IndexError(f"single positional indexer is out-of-bounds: {p} "
                             f"for {n} rows")
        return "int", p % n if n else p
    arr = _as_array(key, device)
    if isinstance(arr, Column):
        return "take", mask_positions(arr, n)
    if str(arr.dtype) == "bool":
        return "take", mask_positions(arr, n)
    if arr.dtype.kind not in "iu":
        raise IndexError(f".iloc requires integer positions, got {arr.dtype}")
    arr = arr.astype("int64")
    if arr.shape[0] and bool(((arr < -n) | (arr >= n)).any()):
        raise IndexError("positional indexers are out-of-bounds")
    return "take", ember.where(arr < 0, arr + n, arr)


def loc_rows(key, index, device):
    """loc's row key (bool mask, label list/array, or a slice of all)."""
    n = len(index)
    if isinstance(key, slice):
        if key == slice(None):
            return "slice", key
        from ember.frame._label_slice import label_slice
        return "slice", label_slice(key, index, device)
    if getattr(index, "nlevels", 1) > 1:
        if isinstance(key, tuple) or _is_scalar(key):   # the rows under the label
            return "take", index.tuple_positions(key if isinstance(key, tuple) else (key,))
        if isinstance(key, list) and all(isinstance(k, tuple) for k in key):
            from ember.frame._multiindex import MultiIndex
            return "take", index.positions(MultiIndex.from_tuples(key, device=device))
    from ember.frame._convert import column_from
    if isinstance(key, str) and getattr(getattr(index, "dtype", None), "kind", None) == "M":
        from ember.frame._label_slice import partial_date   # a day of hourly labels...
        return partial_date(key, index, device)
    if _is_scalar(key):
        return "label", index.positions(column_from([key], device=device))
    from ember.frame.series import Series
    from ember.frame._index import Index
    if isinstance(key, Series):
        labels = key._col
    elif isinstance(key, Index):
        labels = key._column(device)
    else:
        labels = column_from(key if not isinstance(key, tuple) else list(key),
                             device=device)
    if labels.dtype.kind == "b":
        return "take", mask_positions(labels, n)
    return "take", index.positions(labels)


def _row_label(key, frame):
    """Whether a tuple key of a MultiIndex-indexed frame's loc is one row
    label (no list, slice or array in it, and not (label, column name))."""
    if any(isinstance(k, (tuple, list, slice, dict, set)) or hasattr(k, "__len__")
           and not isinstance(k, str) for k in key):
        return False
    try:
        return not (len(key) == 2 and key[1] in frame._cols)
    except TypeError:
        return True


class Rows:
    """Row selection that Series and DataFrame share; each supplies
    _take(positions), _slice(start, stop), _row(position) and _dev()."""

    def _rows(self, kind, key):
        if kind == "slice":
            start, stop, step = key.indices(len(self))
            if step == 1:
                return self._slice(start, stop)
            key = ember.arange(start, stop, step, dtype="int64", device=self._dev())
        return self._take(key)

    def head(self, n=5):
        return self._rows("slice", slice(0, n))

    def tail(self, n=5):
        return self._rows("slice", slice(max(len(self) - n, 0), None) if n >= 0
                          else slice(-n, None))

    def sort_index(self, *, axis=0, level=None, ascending=True, na_position="last",
                   ignore_index=False, sort_remaining=True):
        from ember.frame._order import sort_indexer
        from ember.frame._index import RangeIndex
        if axis in (1, "columns") and self.ndim == 2:
            # the labels are host values: sorted as pandas sorts them (a
            # TypeError for labels that do not compare, as pandas')
            names = sorted(self._cols, reverse=not ascending)
            out = self[names]
            if ignore_index:
                out.columns = list(range(len(names)))
            return out
        if axis not in (0, "index"):
            raise ValueError(f"No axis named {axis} for object type "
                             f"{type(self).__name__}")
        index = self.index
        if getattr(index, "nlevels", 1) > 1:
            pos = index.sort_indexer(ascending, na_position, level, sort_remaining)
        elif level not in (None, 0, index.name):
            raise KeyError(f"Level {level} not found")
        else:
            pos = sort_indexer([index._column(self._dev())], [bool(ascending)],
                               na_position)
        out = self._take(pos)
        if ignore_index:
            out._index = RangeIndex(0, len(out))
        return out

    @property
    def iloc(self):
        return _Indexer(self, False)

    @property
    def loc(self):
        return _Indexer(self, True)

    @property
    def at(self):
        return _ScalarIndexer(self, True)

    @property
    def iat(self):
        return _ScalarIndexer(self, False)


class _Indexer:
    """obj.iloc[rows] / obj.loc[rows], and [rows, columns] of a DataFrame."""

    def __init__(self, obj, by_label):
        self._obj, self._by_label = obj, by_label

    def __getitem__(self, key):
        obj = self._obj
        key = _called(key, obj)
        multi = self._by_label and getattr(obj.index, "nlevels", 1) > 1
        if isinstance(key, tuple) and obj.ndim == 2 and not (
                multi and _row_label(key, obj)):
            key, cols = key
            obj = obj._pick(cols, self._by_label)
        if multi and (isinstance(key, tuple) or _is_scalar(key)):
            from ember.frame._multiindex_frame import loc_label
            return loc_label(obj, key)
        if self._by_label:
            kind, what = loc_rows(key, obj.index, obj._dev())
        else:
            kind, what = iloc_rows(key, len(obj), obj._dev())
        if kind == "int" or (kind == "label" and what.shape[0] == 1):
            return obj._row(what)
        return obj._rows("take" if kind == "label" else kind, what)

    def __setitem__(self, key, value):
        from ember.frame._setitem import set_rows
        set_rows(self._obj, _called(key, self._obj), value,
                 "loc" if self._by_label else "iloc")


def _called(key, obj):
    """pandas' callable keys: loc[lambda df: mask], also in a [rows, cols]
    tuple, are called with the object first."""
    if callable(key):
        return key(obj)
    if isinstance(key, tuple) and any(callable(k) for k in key):
        return tuple(k(obj) if callable(k) else k for k in key)
    return key


class _ScalarIndexer:
    """obj.at[label(s)] / obj.iat[position(s)]: loc and iloc of one value
    (a row and a column of a frame), ValueError for anything else as
    pandas' at and iat raise."""

    def __init__(self, obj, by_label):
        self._obj, self._by_label = obj, by_label

    def _check(self, key):
        import numbers
        parts = key if isinstance(key, tuple) else (key,)
        one = all(not isinstance(k, (list, tuple, slice, dict, set)) and
                  getattr(k, "ndim", 0) == 0 for k in parts)
        if len(parts) != self._obj.ndim or not one:
            if self._by_label:
                raise ValueError("Invalid call for scalar access (getting)!")
            raise ValueError("iAt based indexing can only have integer indexers")
        if not self._by_label and not all(isinstance(k, numbers.Integral) for k in parts):
            raise ValueError("iAt based indexing can only have integer indexers")
        return key

    def __getitem__(self, key):
        key = self._check(key)
        return (self._obj.loc if self._by_label else self._obj.iloc)[key]

    def __setitem__(self, key, value):
        key = self._check(key)
        (self._obj.loc if self._by_label else self._obj.iloc)[key] = value


def keep_rows(obj, keep, ignore_index=False):
    """The rows of a Series or DataFrame where the bool array `keep` holds
    (or at the ascending int64 positions `keep`)."""
    out = obj._take(keep if str(keep.dtype) == "int64" else ember.flatnonzero(keep))
    if ignore_index:
        from ember.frame._index import RangeIndex
        out._index = RangeIndex(0, len(out))
    return out
