"""MultiIndex: row labels of several levels, one Column per level (any
dtype a column holds) plus the level names. A row's label is the tuple of
its levels' values. pandas stores levels (sorted distinct values) and
codes; here the level columns are the data and levels/codes are derived
on request, so a take or slice never carries unused levels along."""
import ember

from ember.frame._index import Index


def _unsupported(what):
    raise NotImplementedError(f"{what} of a MultiIndex (its labels are tuples of "
                              "several columns); use get_level_values or reset_index")


def _missing(labels, where):
    raise KeyError(f"{labels.take(ember.flatnonzero(where)).tolist()} not in index")


def _codes_dtype(k):
    """The int type pandas picks for codes into a level of k values."""
    for name, bits in (("int8", 7), ("int16", 15), ("int32", 31)):
        if k < 1 << bits:
            return name
    return "int64"


class MultiIndex(Index):
    """pandas' MultiIndex over ember columns: MultiIndex(levels, codes,
    names=None), or the from_* constructors."""

    def __init__(self, levels=None, codes=None, names=None, device=None):
        from ember.frame._convert import column_from
        if levels is None or codes is None:
            raise TypeError("Must pass both levels and codes")
        if len(levels) != len(codes):
            raise ValueError("Length of levels and codes must be the same.")
        if not levels:
            raise ValueError("Must pass non-zero number of levels/codes")
        cols = []
        for lev, cod in zip(levels, codes):
            lev = lev._column(None) if isinstance(lev, Index) else \
                column_from(list(lev) if not hasattr(lev, "dtype") else lev,
                            device=device)
            cod = ember.asarray(cod, device=lev.device).astype("int64")
            if cod.shape[0] and bool((cod < 0).any()):
                raise NotImplementedError("MultiIndex codes of -1 (a null label); "
                                          "use from_arrays with nulls")
            if cod.shape[0] and int(cod.max()) >= lev.length:
                raise ValueError("On one of the levels code max >= length of level. "
                                 "NOTE: this index is in an inconsistent state")
            cols.append(lev.take(cod))
        self._init(cols, names)

    def _init(self, cols, names):
        lengths = {c.length for c in cols}
        if len(lengths) > 1:
            raise ValueError("all arrays must be same length")
        self._cols = list(cols)
        self.names = names
        return self

    @classmethod
    def _make(cls, cols, names=None):
        return cls.__new__(cls)._init(cols, names)

    # ---- constructors
    @classmethod
    def from_arrays(cls, arrays, sortorder=None, names=None, device=None):
        from ember.frame.series import Series
        from ember.frame._convert import column_from
        if not isinstance(arrays, (list, tuple)) or not arrays:
            raise TypeError("Input must be a list / sequence of array-likes.")
        cols, found = [], []
        for a in arrays:
            if isinstance(a, Series):
                cols.append(a._col)
                found.append(a.name)
            elif isinstance(a, Index):
                cols.append(a._column(device))
                found.append(a.name)
            else:
                cols.append(column_from(a, device=device))
                found.append(None)
        if len({c.length for c in cols}) > 1:
            raise ValueError("all arrays must be same length")
        if len({str(c.device) for c in cols}) > 1:
            raise ValueError("levels on several devices; pass device= to move them")
        return cls._make(cols, found if names is None else names)

    @classmethod
    def from_tuples(cls, tuples, sortorder=None, names=None, device=None):
        tuples = list(tuples)
        if not tuples:
            if names is None:
                raise TypeError("Cannot infer number of levels from empty list")
            return cls.from_arrays([[] for _ in names], names=names, device=device)
        width = {len(t) for t in tuples}
        if len(width) != 1:
            raise NotImplementedError("from_tuples with tuples of different lengths")
        return cls.from_arrays([list(a) for a in zip(*tuples)], names=names,
                               device=device)

    @classmethod
    def from_product(cls, iterables, sortorder=None, names=None, device=None):
        from ember.frame.series import Series
        from ember.frame._convert import column_from
        levels = [it._col if isinstance(it, Series) else it._column(device)
                  if isinstance(it, Index) else column_from(list(it), device=device)
                  for it in iterables]
        if not levels:
            raise ValueError("Must pass non-zero number of levels/codes")
        if names is None:
            names = [getattr(it, "name", None) for it in iterables]
        sizes = [c.length for c in levels]
        n = 1
        for s in sizes:
            n *= s
        dev = levels[0].device
        row = ember.arange(n, dtype="int64", device=dev)
        cols, stride = [], n
        for c, s in zip(levels, sizes):
            stride //= max(s, 1)
            cols.append(c.take((row // max(stride, 1)) % max(s, 1)) if n else
                        c.slice(0, 0))
        return cls._make(cols, names)

    @classmethod
    def from_frame(cls, df, sortorder=None, names=None):
        cols = list(df._cols.values())
        return cls._make(cols, list(df._cols) if names is None else names)

    # ---- shape and names
    def __len__(self):
        return self._cols[0].length

    @property
    def nlevels(self):
        return len(self._cols)

    @property
    def names(self):
        return list(self._names)

    @names.setter
    def names(self, names):
        if names is None:
            names = [None] * len(self._cols)
        names = list(names)
        if len(names) != len(self._cols):
            raise ValueError("Length of names must match number of levels in "
                             "MultiIndex.")
        self._names = names

    @property
    def name(self):
        return None

    @name.setter
    def name(self, value):
        raise NotImplementedError("name of a MultiIndex; set names (one a level)")

    @property
    def device(self):
        return self._cols[0].device

    @property
    def shape(self):
        return (len(self),)

    def _level_number(self, level):
        if isinstance(level, int) and level not in self._names:
            if not -self.nlevels <= level < self.nlevels:
                raise IndexError(f"Too many levels: Index has only {self.nlevels} "
                                 f"levels, not {level + 1 if level >= 0 else level}")
            return level % self.nlevels
        if self._names.count(level) > 1:
            raise ValueError(f"The name {level} occurs multiple times, use a level "
                             "number")
        if level not in self._names:
            raise KeyError(f"Level {level} not found")
        return self._names.index(level)

    def get_level_values(self, level):
        i = self._level_number(level)
        return Index(self._cols[i], self._names[i])

    def _level_parts(self, i):
        """(sorted distinct values as a Column, int64 codes into them)."""
        from ember.frame._order import codes, first_rows
        c, k = codes(self._cols[i])
        if k == 0:
            return self._cols[i].slice(0, 0), c
        valid = ember.flatnonzero(c >= 0)
        first, _, code = first_rows(c[valid], k)
        at = ember.empty(k, dtype="int64", device=c.device)
        at[code] = valid[first]
        return self._cols[i].take(at), c

    @property
    def levels(self):
        return [Index(self._level_parts(i)[0], self._names[i])
                for i in range(self.nlevels)]

    @property
    def codes(self):
        out = []
        for i in range(self.nlevels):
            lev, c = self._level_parts(i)
            out.append(c.astype(_codes_dtype(lev.length)))
        return out

    @property
    def levshape(self):
        return tuple(len(lev) for lev in self.levels)

    @property
    def dtype(self):
        _unsupported("dtype (pandas: object)")

    @property
    def dtypes(self):
        return {n if n is not None else f"level_{i}": c.dtype
                for i, (n, c) in enumerate(zip(self._names, self._cols))}

    def set_names(self, names, level=None, inplace=False):
        if level is None:
            if not isinstance(names, (list, tuple)):
                raise TypeError("Names should be list-like for a MultiIndex")
            new = list(names)
        else:
            levels = level if isinstance(level, (list, tuple)) else [level]
            names = names if isinstance(names, (list, tuple)) else [names]
            if len(levels) != len(names):
                raise ValueError("Names must be a list-like of the same length as "
                                 "level")
            new = list(self._names)
            for lv, nm in zip(levels, names):
                new[self._level_number(lv)] = nm
        out = MultiIndex._make(self._cols, new)
        if inplace:
            self._names = out._names
            return None
        return out

    def rename(self, names, level=None, inplace=False):
        return self.set_names(names, level=level, inplace=inplace)

    # ---- the Index protocol frame.py and series.py use
    @property
    def _col(self):
        _unsupported("one column of labels")

    def _column(self, device):
        _unsupported("one column of labels")

    def values_on(self, device):
        _unsupported("values")

    def to_device(self, device):
        """The levels' labels on `device` (this index when they are there)."""
        if str(self.device) == str(ember.Device(device)):
            return self
        return MultiIndex._make([c.to_device(device) for c in self._cols], self._names)

    def take(self, idx):
        return MultiIndex._make([c.take(idx) for c in self._cols], self._names)

    def slice(self, start, stop, step=1):
        if step == 1:
            start, stop, _ = slice(start, stop).indices(len(self))
            return MultiIndex._make([c.slice(start, max(start, stop)) for c in self._cols],
                                    self._names)
        return self[start:stop:step]

    def positions(self, labels):
        """Every row of each label of the MultiIndex `labels`, in the
        labels' order (a label's rows in index order); KeyError naming the
        labels missing."""
        from ember.frame._index import _search
        if not isinstance(labels, MultiIndex) or labels.nlevels != self.nlevels:
            raise KeyError(f"{labels!r} not in index")
        n = len(self)
        if n == 0 or len(labels) == 0:
            if len(labels):
                raise KeyError(f"{labels.tolist()} not in index")
            return ember.zeros(0, dtype="int64", device=self.device)
        codes = self._joint_codes(labels)
        return _search(codes[:n], codes[n:], labels, _missing)

    def _joint_codes(self, labels):
        """One int64 code a row of self then of labels (a MultiIndex of
        as many levels), equal where the tuples are equal (nulls too)."""
        from ember.frame._column import concat
        from ember.frame._groupby_codes import Groups
        return Groups([concat(a, b) for a, b in zip(self._cols, labels._cols)],
                      dropna=False).codes

    def isin(self, values, level=None):
        """A bool array: whether each row's tuple is among values (tuples)."""
        if level is not None:
            from ember.frame.series import Series
            s = Series._make(self._cols[self._level_number(level)], self, None)
            return s.isin(values)._col.values
        labels = values if isinstance(values, MultiIndex) else \
            MultiIndex.from_tuples(list(values), names=self._names, device=self.device) \
            if len(values) else None
        n = len(self)
        if labels is None or n == 0:
            return ember.zeros(n, dtype="bool", device=self.device)
        if labels.nlevels != self.nlevels:
            raise ValueError("Length of all the passed tuples must match the number of "
                             "levels")
        codes = self._joint_codes(labels)
        return ember.isin(codes[:n], codes[n:])

    def tuple_positions(self, key, levels=None):
        """The rows whose first len(key) levels (or those numbered levels)
        equal key's values; KeyError when none does."""
        from ember.frame._ops import binary
        if len(key) > self.nlevels:
            raise KeyError(key)
        cols = self._cols if levels is None else [self._cols[i] for i in levels]
        hit = None
        for col, v in zip(cols, key):
            if v is None or (isinstance(v, float) and v != v):
                m = col.isna()
            else:
                if col.dtype.kind in "Mm" and isinstance(v, str):   # as pandas reads it
                    from ember.frame._ops import _time_scalar
                    try:
                        v = _time_scalar(col.dtype, v)
                    except TypeError:
                        raise KeyError(key) from None
                try:
                    eq = binary("eq", col, v)
                except TypeError:
                    raise KeyError(key) from None
                m = eq.values if eq.validity is None else eq.values & ~eq.isna()
            hit = m if hit is None else hit & m
        pos = ember.flatnonzero(hit)
        if pos.shape[0] == 0:
            raise KeyError(key)
        return pos

    def equals(self, other):
        if not isinstance(other, MultiIndex):
            return False
        if other.nlevels != self.nlevels or len(other) != len(self):
            return False
        for a, b in zip(self._cols, other._cols):
            na, nb = a.isna(), b.isna()   # pandas: null labels equal each other
            if not bool((na == nb).all()):
                return False
            if bool(na.any()):
                keep = ember.flatnonzero(~na)
                a, b = a.take(keep), b.take(keep)
            if not Index(a).equals(Index(b)):
                return False
        return True

    def identical(self, other):
        return self.equals(other) and self._names == other._names

    def duplicated(self, keep="first"):
        from ember.frame._order import duplicated
        return duplicated(self._cols, keep)

    @property
    def is_unique(self):
        return len(self) == 0 or not bool(self.duplicated().any())

    def drop_duplicates(self, keep="first"):
        return self.take(ember.flatnonzero(~self.duplicated(keep)))

    # ---- levels
    def droplevel(self, level=0):
        levels = level if isinstance(level, (list, tuple)) else [level]
        drop = {self._level_number(lv) for lv in levels}
        if len(drop) >= self.nlevels:
            raise ValueError(f"Cannot remove {len(drop)} levels from an index with "
                             f"{self.nlevels} levels: at least one level must be left.")
        keep = [i for i in range(self.nlevels) if i not in drop]
        return self._pick(keep)

    def _pick(self, keep):
        """The levels numbered keep: an Index when one is left."""
        if len(keep) == 1:
            return Index(self._cols[keep[0]], self._names[keep[0]])
        return MultiIndex._make([self._cols[i] for i in keep],
                                [self._names[i] for i in keep])

    def swaplevel(self, i=-2, j=-1):
        order = list(range(self.nlevels))
        a, b = self._level_number(i), self._level_number(j)
        order[a], order[b] = order[b], order[a]
        return self._pick(order)

    def reorder_levels(self, order):
        order = [self._level_number(lv) for lv in order]
        if len(order) != self.nlevels:
            raise AssertionError(f"Length of order must be same as number of levels "
                                 f"({self.nlevels}), got {len(order)}")
        return self._pick(order)

    # ---- order
    def sort_indexer(self, ascending=True, na_position="last", level=None,
                     sort_remaining=True):
        from ember.frame._order import sort_indexer
        levels = list(range(self.nlevels)) if level is None else \
            [self._level_number(lv) for lv in
             (level if isinstance(level, (list, tuple)) else [level])]
        if level is not None and sort_remaining:   # the other levels break ties
            levels += [i for i in range(self.nlevels) if i not in levels]
        asc = ascending if isinstance(ascending, (list, tuple)) else \
            [bool(ascending)] * len(levels)
        if len(asc) < len(levels):
            asc = list(asc) + [True] * (len(levels) - len(asc))
        if len(self) == 0:
            return ember.zeros(0, dtype="int64", device=self.device)
        return sort_indexer([self._cols[i] for i in levels], asc, na_position)

    def sort_values(self, return_indexer=False, ascending=True, na_position="last"):
        pos = self.sort_indexer(ascending, na_position)
        out = self.take(pos)
        return (out, pos) if return_indexer else out

    # ---- selection
    def __getitem__(self, key):
        from ember.frame._select import iloc_rows
        kind, what = iloc_rows(key, len(self), self.device)
        if kind == "int":
            return self.take(ember.asarray([what], dtype="int64",
                                           device=self.device)).tolist()[0]
        if kind == "slice":
            start, stop, step = what.indices(len(self))
            if step != 1:
                return self.take(ember.arange(start, stop, step, dtype="int64",
                                              device=self.device))
            return self.slice(start, stop)
        return self.take(what)

    def __iter__(self):
        return iter(self.tolist())

    def __contains__(self, key):
        if not isinstance(key, tuple):
            key = (key,)
        try:
            self.tuple_positions(key)
        except KeyError:
            return False
        return True

    # ---- exchange
    def tolist(self):
        return list(self.to_pandas())

    def to_pandas(self):
        from ember.frame._pandas import column_to_pandas, pandas
        pd = pandas()
        return pd.MultiIndex.from_arrays(
            [pd.Index(column_to_pandas(c)) for c in self._cols], names=self._names)

    def to_frame(self, index=True, name=None, allow_duplicates=False):
        from ember.frame.frame import DataFrame
        from ember.frame._index import RangeIndex
        names = self._names if name is None else list(name)
        if len(names) != self.nlevels:
            raise ValueError("'name' should have same length as number of levels on "
                             "index.")
        names = [i if n is None else n for i, n in enumerate(names)]
        if len(set(names)) != len(names) and not allow_duplicates:
            raise ValueError("Cannot create duplicate column labels if "
                             "allow_duplicates is False")
        return DataFrame._make(dict(zip(names, self._cols)),
                               self if index else RangeIndex(0, len(self)))

    def to_flat_index(self):
        _unsupported("to_flat_index (an Index of tuples)")

    def __repr__(self):
        if len(self) > 1000:
            return (f"<ember.frame.MultiIndex: {len(self)} rows, "
                    f"names={self._names!r}>")
        return repr(self.to_pandas())


def from_pandas(pidx, device):
    from ember.frame._pandas import column_from_pandas
    cols = [column_from_pandas(pidx.get_level_values(i), device)
            for i in range(pidx.nlevels)]
    return MultiIndex._make(cols, list(pidx.names))
