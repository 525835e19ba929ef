""".str of object columns, and the .str methods that make lists.

pandas' .str works on an object column cell by cell: on lists, len(),
[i], get(i) and slices are list operations; on strings it is the string
method. Here a list column's are array work over its offsets (the
results are object columns as pandas', items at NaN where a row has
none); a box of strings runs the str column's kernels and boxes what
comes back as strings. str.split(expand=False) and str.findall make list
columns from the bounds the string kernels find."""
import ember

from ember.frame import _bitmap
from ember.frame._object_column import ObjectColumn, from_lists


class ObjectStrMethods:
    def __init__(self, series):
        col = series._col
        if col.layout == "box" and col.child.dtype.is_string:
            self._kind = "str"
        elif col.layout == "list":
            self._kind = "list"
        elif col.layout == "box":
            raise AttributeError("Can only use .str accessor with string values!")
        else:   # pandas calls each method on each cell of a mixed column
            raise NotImplementedError(".str of an object column of mixed Python "
                                      "objects (ember takes lists of one type and "
                                      "strings)")
        self._s, self._col = series, col

    def _wrap(self, col):
        return type(self._s)._make(col, self._s.index, self._s.name)

    def _strings(self):
        """The box's strings as a str Series with the box's nulls."""
        c = self._col
        child = c.child if c.validity is None else c.child.with_validity(~c.null_mask())
        return type(self._s)._make(child, self._s.index, self._s.name)

    def __getattr__(self, name):
        if name.startswith("_") or self._kind != "str":
            raise AttributeError(f"'.str' of a list column has no method {name!r} "
                                 "(len, get, [i] and slices work on lists)")
        method = getattr(self._strings().str, name)

        def call(*args, **kwargs):
            return self._objects(method(*args, **kwargs))
        return call

    def _objects(self, out):
        """A str method's result as pandas gives it for object cells:
        strings, and bools beside nulls, are objects, a null cell staying
        the None or NaN it was."""
        c = self._col
        if not hasattr(out, "_col") or out._col.length != c.length:
            return out
        r = out._col
        if r.dtype.is_string or (r.dtype.kind == "b" and c.validity is not None):
            return self._wrap(ObjectColumn("box", c.length, r, None, c.validity, None,
                                           c.nan_nulls))
        return out

    def len(self):
        if self._kind == "str":
            return self._strings().str.len()
        from ember.frame._column import Column
        lens = self._col.lengths()
        nulls = self._col.null_mask()
        if nulls is None or not bool(nulls.any()):
            return self._wrap(Column("int64", lens))
        return self._wrap(Column("float64", ember.where(nulls, float("nan"),
                                                         lens.astype("float64"))))

    def get(self, i):
        if self._kind == "str":
            return self.__getattr__("get")(i)
        if isinstance(i, bool) or not isinstance(i, int):
            raise NotImplementedError("str.get of a list column takes an int position")
        c = self._col
        lens = c.lengths()
        at = ember.where(lens + i >= 0, lens + i, -1) if i < 0 else \
            ember.where(lens > i, i, -1)
        ok = at >= 0
        nulls = c.null_mask()
        if nulls is not None:
            ok = ok & ~nulls
        child = c.child
        if child.length == 0:
            child = type(child)("float64", ember.full(1, float("nan"), dtype="float64",
                                                     device=c.device))
        items = child.take(ember.where(ok, c.offsets[:-1] + at, 0))
        return self._wrap(_converted(items, ok))

    def __getitem__(self, key):
        if self._kind == "str":
            return self._objects(self._strings().str[key])
        if isinstance(key, slice):
            return self.slice(key.start, key.stop, key.step)
        return self.get(key)

    def slice(self, start=None, stop=None, step=None):
        """Each list's items start:stop (Python's bounds, row by row)."""
        if self._kind == "str":
            return self.__getattr__("slice")(start, stop, step)
        if step not in (None, 1):
            raise NotImplementedError("a slice of lists with a step")
        from ember.frame._strings import _gather_ranges
        c = self._col
        lens = c.lengths()

        def bound(x, default):
            if x is None:
                return default
            return ember.maximum(lens + x, 0) if x < 0 else ember.minimum(lens * 0 + x, lens)
        s = bound(start, lens * 0)
        t = ember.minimum(bound(stop, lens), lens)
        cnt = ember.maximum(t - s, 0)
        pos, off = _gather_ranges(c.offsets[:-1] + s, cnt, c.device)
        return self._wrap(ObjectColumn("list", c.length, c.child.take(pos), off,
                                       c.validity, None, c.nan_nulls))


def _converted(items, ok):
    """Items picked a row (ok: the row has one) as pandas converts such
    objects: numbers to int64, or float64 with NaN where a row has none;
    bools to bool when every row has one; anything else objects."""
    from ember.frame._column import Column
    k = items.dtype.kind
    every = bool(ok.all())
    if k in "iuf" and not items.dtype.masked:
        if every:
            return items
        return Column("float64", ember.where(ok, items.values.astype("float64"),
                                             float("nan")))
    if k == "b" and every and not items.dtype.masked:
        return items
    return ObjectColumn("box", items.length, items, None, _bitmap.pack(ok), None, True)


def split_lists(series, parts):
    """str.split(expand=False): each row's parts (the columns expand=True
    gives, a part null past a row's last) as one list a row; a null row
    stays null (NaN, as pandas)."""
    from ember.frame._merge_cols import concat
    col = series._col
    n, dev = col.length, col.device
    cols = list(parts._cols.values())
    if not cols:
        items = col.take(ember.zeros(0, dtype="int64", device=dev))
        return from_lists(ember.zeros(n + 1, dtype="int64", device=dev), items,
                          _valid(col), True)
    have = ember.stack([~c.isna() for c in cols], axis=1)   # [rows, parts]
    k = len(cols)
    flat = ember.flatnonzero(have.reshape(-1))   # row-major: row r's parts in order
    src = (flat % k) * n + flat // k   # where concat puts part j of row r
    items = concat(cols, [n] * k, dev).take(src)
    off = ember.zeros(n + 1, dtype="int64", device=dev)
    if n:
        off[1:] = ember.cumsum(have.sum(axis=1).astype("int64"))
    return from_lists(off, items, _valid(col), True)


def findall(series, pat, flags):
    """Each row's matches of pat (re.findall's: the whole match, or the one
    group's text) as a list; a null row stays null."""
    from ember.frame._str_accessor import _pattern
    from ember.frame._str_capture import all_matches
    from ember.frame._str_kernels import ranges_result
    text, case = _pattern(pat, True, flags, "findall")
    col = series._col
    caps, cnt, ngroups, _ = all_matches(col, text, case)
    if ngroups > 1:
        raise NotImplementedError("str.findall of a pattern with several groups "
                                  "(lists of tuples); use str.extractall")
    valid = _valid(col)
    if valid is not None:   # a null row matched as "" by a pattern that can
        caps, cnt = caps[ember.repeat(valid, cnt)], ember.where(valid, cnt, 0)
    g = 2 * ngroups
    start, stop = caps[:, g], caps[:, g + 1]
    took = start >= 0   # re.findall gives "" for a group that takes no part
    start, stop = ember.where(took, start, 0), ember.where(took, stop, 0)
    items = ranges_result(col, start, stop, ember.ones(start.shape[0], dtype="bool",
                                                         device=col.device))
    n = col.length
    off = ember.zeros(n + 1, dtype="int64", device=col.device)
    if n:
        off[1:] = ember.cumsum(cnt)
    return type(series)._make(from_lists(off, items, valid, True), series.index,
                              series.name)


def _valid(col):
    m = col.null_mask()
    return None if m is None else ~m
