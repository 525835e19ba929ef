"""The methods pandas gives only one of the two kinds: FrameMethods
(insert/pop, select_dtypes, any/all, to_dict, corr/cov matrices) and
SeriesMethods (to_dict, corr/cov with another Series), each on top of the
shared StatMethods; equals for both. Dictionaries live in _methods_dict.py,
corr/cov in _methods_corr.py."""
import ember

from ember.frame._column import Column
from ember.frame._methods import StatMethods, _series


def equals(a, b):
    """pandas' equals: same kind, shape, labels, dtypes, and values, nulls
    in the same places counting as equal."""
    if type(a) is not type(b) or a.shape != b.shape:
        return False
    if not a.index.equals(b.index):
        return False
    if a.ndim == 1:
        return _same_column(a._col, b._col)
    if list(a._cols) != list(b._cols):
        return False
    return all(_same_column(a._cols[k], b._cols[k]) for k in a._cols)


def _same_column(x, y):
    if x.dtype != y.dtype:
        return False
    nx, ny = x.isna(), y.isna()
    if not bool((nx == ny).all()):
        return False
    if x.length == 0:
        return True
    if x.dtype.is_string or x.dtype.is_categorical:
        from ember.frame._column import concat
        from ember.frame._order import codes
        c, _ = codes(concat(x, y))
        return bool(((c[:x.length] == c[x.length:]) | nx).all())
    return bool(((x.values == y.values) | nx).all())


_SPECS = {
    "number": lambda d: d.kind in "iufm" and not d.is_categorical,
    "bool": lambda d: d.kind == "b",
    "datetime": lambda d: d.kind == "M",
    "datetime64": lambda d: d.kind == "M",
    "timedelta": lambda d: d.kind == "m",
    "timedelta64": lambda d: d.kind == "m",
    "string": lambda d: d.is_string,
    "str": lambda d: d.is_string,
    "object": lambda d: d.is_string,   # pandas 3 still counts str (deprecated)
    "category": lambda d: d.is_categorical,
    "integer": lambda d: d.kind in "ium",
    "floating": lambda d: d.kind == "f",
}


def _matcher(spec):
    import numpy as np
    if isinstance(spec, str) and spec in _SPECS:
        return _SPECS[spec]
    if spec is str:
        return _SPECS["str"]
    if spec is bool:
        return _SPECS["bool"]
    named = {np.number: "number", np.integer: "integer", np.floating: "floating",
             np.bool_: "bool", np.datetime64: "datetime", np.timedelta64: "timedelta",
             np.object_: "object"}
    if isinstance(spec, type) and spec in named:
        return _SPECS[named[spec]]
    try:
        want = np.dtype(spec)
    except TypeError:
        from ember.frame._dtypes import lookup
        try:
            want = lookup(spec)
        except (TypeError, ValueError, KeyError):
            raise TypeError(f"data type '{spec}' not understood") from None
        return lambda d: d == want
    # pandas: NumPy's int64 also picks Int64 (one kind, nulls aside)
    return lambda d: d.kind == want.kind and (d.storage == want.name or
                                              d.name == want.name)


def _spec_list(x):
    if x is None:
        return []
    return list(x) if isinstance(x, (list, tuple, set, frozenset)) else [x]


class FrameMethods(StatMethods):

    def insert(self, loc, column, value, allow_duplicates=False):
        from ember.frame._dup_labels import label, rekeyed
        if column in self and not allow_duplicates:
            raise ValueError(f"cannot insert {column}, already exists")
        if isinstance(loc, bool) or not isinstance(loc, int):
            raise TypeError("loc must be int")
        n = len(self._cols)
        if not 0 <= loc <= n:
            raise IndexError(f"index {loc} is out of bounds for axis 0 with size {n}")
        # without the label's columns, so that the value is made, not assigned
        tmp = type(self)._make({k: c for k, c in self._cols.items()
                                if label(k) != column}, self._index)
        tmp[column] = value
        items = list(self._cols.items())
        items.insert(loc, (column, tmp._cols[column]))
        self._cols = rekeyed(items)   # allow_duplicates: the label repeats
        if len(tmp._index) != len(self._index) or not n:
            self._index = tmp._index

    def pop(self, item):
        out = self[item]
        del self[item]
        return out

    def select_dtypes(self, include=None, exclude=None):
        inc, exc = _spec_list(include), _spec_list(exclude)
        if not inc and not exc:
            raise ValueError("at least one of include or exclude must be nonempty")
        overlap = [s for s in inc if any(s is t or (isinstance(s, str) and s == t)
                                         for t in exc)]
        if overlap:
            raise ValueError(f"include and exclude overlap on {set(map(str, overlap))}")
        inc_m, exc_m = [_matcher(s) for s in inc], [_matcher(s) for s in exc]
        keep = {k: c for k, c in self._cols.items()
                if (not inc_m or any(m(c.dtype) for m in inc_m))
                and not any(m(c.dtype) for m in exc_m)}
        return type(self)._make(keep, self._index)

    def any(self, axis=0, bool_only=False, skipna=True):
        return self._any_all("any", axis, bool_only, skipna)

    def all(self, axis=0, bool_only=False, skipna=True):
        return self._any_all("all", axis, bool_only, skipna)

    def _any_all(self, how, axis, bool_only, skipna):
        if axis not in (0, 1, "index", "columns"):
            raise ValueError(f"No axis named {axis} for object type DataFrame")
        names, truths, masked = [], [], False
        for k, c in self._cols.items():
            if bool_only and c.dtype.kind != "b":
                continue
            if not c.dtype.is_numeric or c.dtype.is_categorical:
                raise TypeError(f"DataFrame.{how} of a {c.dtype.name} column "
                                f"{k!r}")
            nulls = c.null_mask()
            t = c.values != 0
            if nulls is not None:   # a skipped null is neutral; kept, NaN is True
                fill = (how == "all") if skipna or c.dtype.masked else True
                t = ember.where(nulls, fill, t)
            names.append(k)
            truths.append(t)
            masked = masked or c.dtype.masked
        dev = self._dev()
        if axis in (1, "columns"):
            out = ember.full(len(self), how == "all", dtype="bool", device=dev)
            for t in truths:
                out = (out | t) if how == "any" else (out & t)
            return _series(Column("bool", out), self._index, None)
        import numpy as np
        vals = [bool(t.any()) if how == "any" else bool(t.all()) for t in truths]
        arr = ember.asarray(np.asarray(vals, dtype=bool), device=dev)
        return _series(Column("boolean" if masked else "bool", arr),
                       self._labels(names), None)

    def to_dict(self, orient="dict", into=dict, index=True):
        from ember.frame._methods_dict import frame_to_dict
        return frame_to_dict(self, orient, into, index)

    def corr(self, method="pearson", min_periods=1, numeric_only=False):
        from ember.frame._methods_corr import frame_matrix
        return frame_matrix(self, "corr", method, min_periods, numeric_only)

    def cov(self, min_periods=None, ddof=1, numeric_only=False):
        from ember.frame._methods_corr import frame_matrix
        return frame_matrix(self, "cov", "pearson", min_periods, numeric_only, ddof)


class SeriesMethods(StatMethods):

    def to_dict(self, into=dict):
        from ember.frame._methods_dict import host_values
        return into(zip(self._index.tolist(), host_values(self)))

    def corr(self, other, method="pearson", min_periods=None):
        from ember.frame._methods_corr import series_pair
        return series_pair(self, other, "corr", method, min_periods)

    def cov(self, other, min_periods=None, ddof=1):
        from ember.frame._methods_corr import series_pair
        return series_pair(self, other, "cov", "pearson", min_periods, ddof)
