"""Row labels: RangeIndex (start, stop, step; no memory) and Index (a
column of labels)."""
import numbers

import ember

from ember.frame._column import Column


class _OneLevel:
    """names and nlevels of a one-level index, as pandas gives them."""

    @property
    def nlevels(self):
        return 1

    @property
    def names(self):
        """[name], as pandas' one-level index gives it."""
        return [self.name]

    @names.setter
    def names(self, names):
        names = list(names)
        if len(names) != 1:
            raise ValueError(f"Length of new names must be 1, got {len(names)}")
        self.name = names[0]

    def _labels(self):
        # the labels as a column: a RangeIndex makes its own on the
        # current device
        return self._column(self._col.device if hasattr(self, "_col")
                            else ember.get_device())

    def astype(self, dtype, copy=True):
        """The labels cast to dtype, as an Index (pandas' astype)."""
        from ember.frame._convert import astype
        return Index(astype(self._labels(), dtype), self.name)

    def to_series(self, index=None, name=None):
        """The labels as a Series indexed by this index (or `index`)."""
        from ember.frame.series import Series
        return Series._make(self._labels(), self if index is None else index,
                            self.name if name is None else name)

    def isin(self, values):
        """A bool ember array: whether each label is among values."""
        return self.to_series().isin(values)._col.values

    def factorize(self, sort=False, use_na_sentinel=True):
        from ember.frame._factorize import factorize
        return factorize(self, sort=sort, use_na_sentinel=use_na_sentinel)

    def isna(self):
        """A bool ember array: whether each label is missing (pandas'
        Index.isna, which dask's from_pandas asks of an index)."""
        return self.to_series().isna()._col.values

    def notna(self):
        """A bool ember array: whether each label is present."""
        return self.to_series().notna()._col.values

    def min(self, skipna=True):
        return self.to_series().min(skipna=skipna)

    def get_level_values(self, level):
        """This index, its only level (by number 0 or -1, or by its name),
        with pandas' errors for any other."""
        if isinstance(level, int) and not isinstance(level, bool):
            if level < -1:
                raise IndexError("Too many levels: Index has only 1 level, "
                                 f"{level} is not a valid level number")
            if level > 0:
                raise IndexError("Too many levels: Index has only 1 level, "
                                 f"not {level + 1}")
        elif level != self.name:
            raise KeyError(f"Requested level ({level}) does not match index name "
                           f"({self.name})")
        return self

    def duplicated(self, keep="first"):
        """A bool ember array: whether each label repeats an earlier one
        (keep="first"), a later one ("last"), or any (False), as pandas'
        Index.duplicated (a NumPy array there)."""
        return self.to_series().duplicated(keep=keep)._col.values

    @property
    def has_duplicates(self):
        """Whether a label repeats (nulls equal to each other, as pandas')."""
        return len(self) > 1 and bool(self.to_series().duplicated()._col.values.any())

    @property
    def is_unique(self):
        return not self.has_duplicates

    @property
    def is_monotonic_increasing(self):
        return _monotonic(self._labels(), True)

    @property
    def is_monotonic_decreasing(self):
        return _monotonic(self._labels(), False)

    def get_slice_bound(self, label, side):
        """The position where label would go in this sorted index, before
        equal labels (side "left") or after them ("right"), as pandas."""
        if side not in ("left", "right"):
            raise ValueError(f"Invalid value for side kwarg, must be either 'left' or "
                             f"'right': {side}")
        from ember.frame._label_slice import _bound_positions, _time_bounds
        col = self._labels()
        if col.dtype.kind == "M":
            label = _time_bounds(label, None, col.dtype)[0]
        keys, bound = _bound_positions(self, [label], col.device)
        return int(ember.searchsorted(keys, bound, side=side)[0])

    def max(self, skipna=True):
        return self.to_series().max(skipna=skipna)

    def __arrow_array__(self, type=None):
        """pyarrow's hook (pa.array, and Table.from_pandas as dask's
        to_parquet calls it): the labels as one host Arrow array, where
        pyarrow would otherwise read an index label by label."""
        from ember.frame._arrow import column_to_arrow
        arr = column_to_arrow(self._labels())
        return arr if type is None or arr.type == type else arr.cast(type)

    @property
    def unit(self):
        """A datetime or timedelta index's resolution ('ns', 'us', ...)."""
        name = self.dtype.name if hasattr(self, "_col") else "int64"
        if "[" not in name:
            raise AttributeError(f"'{type(self).__name__}' of {name} has no unit")
        return name[name.index("[") + 1:name.index("]")].split(",")[0]

    def to_frame(self, index=True, name=None):
        """A one-column DataFrame of the labels (named `name`, else the
        index's name, else 0), indexed by this index or, with index=False,
        by a RangeIndex."""
        from ember.frame.frame import DataFrame
        if name is None:
            name = self.name if self.name is not None else 0
        return DataFrame._make({name: self._labels()},
                               self if index else RangeIndex(0, len(self)))


def _monotonic(col, increasing):
    """Whether the labels never decrease (or never increase); False with a
    null among them, as pandas."""
    if col.length < 2:
        return col.length == 0 or not col.has_nulls()
    if col.has_nulls():
        return False
    if col.dtype.is_string or col.dtype.is_categorical:
        from ember.frame._order import codes
        v = codes(col)[0]
    else:
        v = col.values
    ok = v[1:] >= v[:-1] if increasing else v[1:] <= v[:-1]
    return bool(ok.all())


class RangeIndex(_OneLevel):
    """pandas' RangeIndex: the labels start, start + step, ... < stop."""

    def __init__(self, start=0, stop=None, step=1, name=None):
        if stop is None:
            start, stop = 0, start
        if step == 0:
            raise ValueError("RangeIndex step must not be zero")
        self._range = range(start, stop, step)
        self.name = name

    has_duplicates = False      # a range never repeats (its step is not 0)
    start = property(lambda self: self._range.start)
    stop = property(lambda self: self._range.stop)
    step = property(lambda self: self._range.step)

    def __len__(self):
        return len(self._range)

    @property
    def dtype(self):
        from ember.frame._dtypes import lookup
        return lookup("int64")

    def values_on(self, device):
        r = self._range
        return ember.arange(r.start, r.stop, r.step, dtype="int64", device=device)

    def _column(self, device):
        return Column("int64", self.values_on(device))

    def to_device(self, device):
        """Itself: a RangeIndex holds no memory, its labels are made on the
        device that asks for them."""
        return self

    def take(self, idx):
        """The labels at positions idx: start + step * position, computed
        (a gather from made labels would cost a random read a row)."""
        r, n = self._range, len(self._range)
        idx = idx.astype("int64", copy=False)
        if idx.shape[0]:
            lo, hi = int(idx.min()), int(idx.max())
            if lo < -n or hi >= n:   # the gather's IndexError, as before
                return Index(self._column(idx.device).take(idx), self.name)
            if lo < 0:
                idx = ember.where(idx < 0, idx + n, idx)
        return Index(Column("int64", idx * r.step + r.start), self.name)

    def slice(self, start, stop, step=1):
        r = self._range[start:stop:step]
        return RangeIndex(r.start, r.stop, r.step, self.name)

    def positions(self, labels):
        """The positions of int labels (a Column); KeyError for a label
        that is not in the index."""
        r = self._range
        if labels.dtype.kind not in "iuf" or labels.validity is not None:
            _missing(labels, None)
        rel = labels.values - r.start
        pos = rel // r.step
        ok = (rel % r.step == 0) & (pos >= 0) & (pos < len(r))
        if not bool(ok.all()):
            _missing(labels, ~ok)
        return pos.astype("int64")

    def equals(self, other):
        if isinstance(other, RangeIndex):
            return self._range == other._range
        return other.equals(self)

    def rename(self, name):
        return RangeIndex(self.start, self.stop, self.step, name)

    def to_pandas(self):
        from ember.frame._pandas import index_to_pandas
        return index_to_pandas(self)

    def tolist(self):
        return list(self._range)

    def __repr__(self):
        return f"RangeIndex(start={self.start}, stop={self.stop}, step={self.step}" + (
            f", name={self.name!r})" if self.name is not None else ")")


class Index(_OneLevel):
    """Labels held as a column (any dtype ember.frame holds)."""

    def __init__(self, data, name=None, dtype=None, device=None):
        if isinstance(data, Column):
            self._col = data
        else:
            from ember.frame._convert import column_from
            self._col = column_from(data, dtype=dtype, device=device)
        self.name = name

    def __len__(self):
        return self._col.length

    @property
    def dtype(self):
        return self._col.dtype

    device = property(lambda self: self._col.device)

    def values_on(self, device):
        return self._col.values

    def _column(self, device):
        return self._col

    def to_device(self, device):
        """The labels on `device` (this index when they are there)."""
        if _same_device(self.device, device):
            return self
        return Index(self._col.to_device(device), self.name)

    def take(self, idx):
        return Index(self._col.take(idx), self.name)

    def slice(self, start, stop, step=1):
        start, stop, step = slice(start, stop, step).indices(len(self))
        if step == 1:      # a view of the labels where the column allows one
            return Index(self._col.slice(start, max(start, stop)), self.name)
        idx = ember.arange(start, stop, step, dtype="int64", device=self._col.device)
        return self.take(idx)

    def positions(self, labels):
        """Positions of the labels (a Column; every match, in index order,
        for a label that repeats); KeyError naming the labels missing."""
        col = self._col
        if col.dtype.is_categorical:   # labels are looked up by value
            from ember.frame._categorical import decode
            col = decode(col)
        if col.dtype.kind in "iu" and labels.dtype.kind in "iu" and \
                col.validity is None and labels.validity is None:
            return _search(col.values, labels.values, labels)
        if col.dtype.is_string != labels.dtype.is_string:
            _missing(labels, None)
        from ember.frame._column import concat
        from ember.frame._order import codes
        both, _ = codes(concat(col, labels))
        n = col.length
        return _search(both[:n], both[n:], labels)

    def equals(self, other):
        if len(self) != len(other):
            return False
        a = self._col
        b = other._column(a.device)
        if a.dtype.is_categorical or b.dtype.is_categorical:
            from ember.frame._categorical import same_rows
            return same_rows(a, b)
        if a.dtype.is_string or b.dtype.is_string:
            if not (a.dtype.is_string and b.dtype.is_string):
                return False
            from ember.frame._strings import equal_columns
            return bool(equal_columns(a, b).all())
        return bool((a.values == b.values).all())

    def rename(self, name):
        return Index(self._col, name)

    def to_pandas(self):
        from ember.frame._pandas import index_to_pandas
        return index_to_pandas(self)

    def tolist(self):
        if self._col.dtype.is_categorical:   # the values, not the codes
            from ember.frame._categorical import decode
            return Index(decode(self._col)).tolist()
        if self._col.validity is not None:   # pandas' NA or NaN for a null, as pandas
            return self.to_pandas().tolist()
        if self._col.dtype.is_string:
            from ember.frame._strings import to_pylist
            return to_pylist(self._col)
        if self._col.dtype.kind in "Mm":   # Timestamps and Timedeltas, as pandas
            import pandas as pd
            from ember.frame._pandas import column_to_pandas
            return pd.Index(column_to_pandas(self._col)).tolist()
        return ember.asnumpy(self._col.values).tolist()

    def __repr__(self):
        return f"Index({self.tolist()!r}, dtype='{self.dtype}'" + (
            f", name={self.name!r})" if self.name is not None else ")")

    def __iter__(self):
        return iter(self.tolist())

    def __getitem__(self, i):
        if isinstance(i, numbers.Integral):
            # one label: one element to the host, not the whole index
            n = len(self)
            j = i + n if i < 0 else int(i)
            if not 0 <= j < n:
                raise IndexError(f"index {i} is out of bounds for axis 0 with size {n}")
            col = self._col
            if col.validity is None and col.dtype.kind in "biuf" and not (
                    col.dtype.is_categorical or col.dtype.is_string):
                return ember.asnumpy(col.values[j:j + 1])[0]   # NumPy's scalar
            return Index(col.take(ember.asarray([j], device=col.device))).tolist()[0]
        return self.tolist()[i]

    # labels moved by a scalar: a date offset, a Timedelta, a number
    # (pandas' Index arithmetic); a container is not taken here
    def _arith(self, op, other, reflected=False):
        if isinstance(other, (list, tuple, _OneLevel)) or hasattr(other, "_col") or \
                hasattr(other, "shape"):
            return NotImplemented
        from ember.frame._ops import binary
        return Index(binary(op, self._col, other, reflected), self.name)

    def __add__(self, other):
        return self._arith("add", other)

    def __radd__(self, other):
        return self._arith("add", other, True)

    def __sub__(self, other):
        return self._arith("sub", other)

    def __rsub__(self, other):
        return self._arith("sub", other, True)


def _same_device(a, b):
    return str(a) == str(ember.Device(b))


def on_device(index, device):
    """index with its labels on `device`: a Series or DataFrame keeps its
    index where its columns are, since an operation that meets labels on
    one device and values on another would fail or copy unasked (an index
    made by from_pandas without device= is on the default device, cuda:0
    on a GPU machine, while the data may be on cpu). None keeps it."""
    if device is None or isinstance(index, RangeIndex) or \
            not hasattr(index, "to_device"):
        return index
    return index.to_device(device)


def _search(keys, wanted, labels, missing=None):
    """Every position of each wanted key in keys, in order; missing(labels,
    where) raises for wanted keys not there (default: _missing)."""
    order = ember.argsort(keys, kind="stable")
    sk = keys[order]
    lo = ember.searchsorted(sk, wanted, side="left")
    hi = ember.searchsorted(sk, wanted, side="right")
    counts = hi - lo
    if not bool((counts > 0).all()):
        (missing or _missing)(labels, counts == 0)
    if bool((counts == 1).all()):
        return order[lo]
    from ember.frame._strings import _gather_ranges
    pos, _ = _gather_ranges(lo, counts, keys.device)
    return order[pos]


def _missing(labels, where):
    """KeyError naming the labels (those where `where`, or all) that the
    index lacks, as pandas words it."""
    if where is not None:
        labels = labels.take(ember.flatnonzero(where))
    names = Index(labels).tolist()
    raise KeyError(f"{names} not in index")
