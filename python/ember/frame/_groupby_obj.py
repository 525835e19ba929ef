"""The object groupby returns: keys, the columns it reduces, and the
group codes, computed on first use and shared by every aggregation and
column selection of it."""
import ember

from ember.frame import _groupby_agg as _agg
from ember.frame import _groupby_scan as _scan
from ember.frame._column import Column
from ember.frame._index import Index, RangeIndex

# numpy and builtin functions agg/transform take for the named reductions
_FUNC_NAMES = {"sum": "sum", "mean": "mean", "min": "min", "max": "max",
               "median": "median", "prod": "prod", "amin": "min", "amax": "max",
               "nanmean": "mean", "nansum": "sum", "nanmin": "min", "nanmax": "max",
               "nanmedian": "median", "len": "size"}
_SCANS = ("cumsum", "cumprod", "cummax", "cummin", "cumcount", "rank", "shift",
          "diff")


def resolve_keys(obj, by):
    """([(name, Column)] of the keys, names of obj's columns used as keys)."""
    from ember.frame.series import Series
    from ember.frame._convert import column_from
    items = list(by) if isinstance(by, list) else [by]
    if not items:
        raise ValueError("No group keys passed!")
    cols = getattr(obj, "_cols", None)
    if isinstance(by, list) and len(by) == len(obj) and not any(
            isinstance(b, (Series, ember.ndarray, list)) or type(b).__name__ == "ndarray"
            or (cols is not None and _hashable(b) and b in cols) for b in by):
        items = [column_from(by, device=obj._dev())]   # the key's values, one a row
    keys, exclude = [], []
    for b in items:
        if isinstance(b, Series):
            if len(b) != len(obj):
                raise ValueError(f"Length of grouper ({len(b)}) and axis ({len(obj)}) "
                                 "must be same length")
            if not b.index.equals(obj.index):
                raise NotImplementedError("groupby by a Series with another index "
                                          "(alignment) is not supported yet")
            if cols is not None and b.name in cols and cols[b.name] is b._col:
                exclude.append(b.name)
            keys.append((b.name, b._col))
        elif isinstance(b, (ember.ndarray, Column)) or type(b).__name__ == "ndarray":
            if len(b) != len(obj):
                raise ValueError(f"Length of grouper ({len(b)}) and axis ({len(obj)}) "
                                 "must be same length")
            keys.append((None, b if isinstance(b, Column) else
                         column_from(b, device=obj._dev())))
        elif callable(b) or isinstance(b, dict):
            raise NotImplementedError("groupby by a function or a mapping of the index "
                                      "labels; group by column names or Series")
        else:
            level = _hashable(b) and b is not None and b in obj.index.names
            if cols is not None and _hashable(b) and b in cols:
                if level:
                    raise ValueError(f"'{b}' is both an index level and a column "
                                     "label, which is ambiguous.")
                keys.append((b, cols[b]))
                exclude.append(b)
            elif level:
                # an index level by name, as pandas groups by it
                ix = obj.index
                lev = ix if ix.nlevels == 1 else ix.get_level_values(b)
                keys.append((b, lev._column(obj._dev())))
            else:
                raise KeyError(b)
    return keys, exclude


def _hashable(x):
    try:
        hash(x)
        return True
    except TypeError:
        return False


def how_name(func):
    """A reduction's name from a str, or a numpy or builtin function."""
    if isinstance(func, str):
        return func
    name = getattr(func, "__name__", None)
    module = getattr(func, "__module__", None) or ""
    if name in _FUNC_NAMES and (module in ("builtins", "numpy")
                                or module.startswith("numpy")):
        return _FUNC_NAMES[name]
    return None


class GroupBy:
    """pandas' DataFrameGroupBy and SeriesGroupBy in one: `selection` is
    None (every column but the keys), a name (a Series result) or a list."""

    def __init__(self, obj, keys, exclude, as_index, sort, dropna, selection=None,
                 shared=None, one_list=False):
        self._obj, self._keys, self._exclude = obj, keys, exclude
        self.as_index, self.sort, self.dropna = as_index, sort, dropna
        self._selection = selection
        self._shared = shared if shared is not None else {}
        # "by" for by=[one key], "level" for level=[one]: pandas 3 iterates
        # one-element tuples
        self._one_list = one_list

    # ---- the groups
    @property
    def _g(self):
        g = self._shared.get("groups")
        if g is None and self._shared.get("observed", True) is False:
            from ember.frame._groupby_observed import unobserved_groups
            g = unobserved_groups([c for _, c in self._keys], self.dropna, self.sort)
            self._shared["groups"] = g
        if g is None:
            from ember.frame._groupby_codes import Groups
            g = Groups([c for _, c in self._keys], self.dropna, self.sort)
            self._shared["groups"] = g
        return g

    @property
    def ngroups(self):
        return self._g.k

    @property
    def groups(self):
        """{key: Index of the group's row labels}."""
        from ember.frame._groupby_split import groups
        return groups(self)

    @property
    def indices(self):
        """{key: NumPy array of the group's row positions}."""
        from ember.frame._groupby_split import indices
        return indices(self)

    def get_group(self, name):
        from ember.frame._groupby_split import get_group
        return get_group(self, name)

    def __len__(self):
        return self._g.k

    @property
    def obj(self):
        """The frame or series grouped (pandas' and cuDF's attribute)."""
        return self._obj

    @property
    def grouping(self):
        """The keys as cuDF spells them: grouping.keys, a list of Series
        aligned with obj, which another frame of obj's index can group by
        (dask's groupby var and std do: obj[col].pow(2).groupby(keys))."""
        from types import SimpleNamespace

        from ember.frame.series import Series
        idx = self._obj.index
        return SimpleNamespace(keys=[Series(c, index=idx, name=n) for n, c in self._keys])

    def __iter__(self):
        from ember.frame._groupby_split import iterate
        return iterate(self)

    def filter(self, func, dropna=True, *args, **kwargs):
        from ember.frame._groupby_filter import group_filter
        return group_filter(self, func, dropna, args, kwargs)

    def describe(self, percentiles=None, include=None, exclude=None):
        from ember.frame._groupby_describe import group_describe
        return group_describe(self, percentiles, include, exclude)

    def quantile(self, q=0.5, interpolation="linear", numeric_only=False):
        from ember.frame._groupby_describe import group_quantile
        return group_quantile(self, q, interpolation, numeric_only)

    # ---- selection
    @property
    def _is_series(self):
        return not hasattr(self._obj, "_cols") or isinstance(self._selection, str) or \
            (self._selection is not None and not isinstance(self._selection, list))

    def __getitem__(self, key):
        if not hasattr(self._obj, "_cols"):
            raise KeyError(key)
        if not isinstance(key, (list, tuple, str)) and hasattr(key, "__iter__") \
                and hasattr(key, "__len__"):
            key = list(key)          # a pandas Index or array of column names
        names = key if isinstance(key, list) else [key]
        if isinstance(key, tuple):
            names = list(key)
            key = list(key)
        missing = [k for k in names if k not in self._obj._cols]
        if missing:
            raise KeyError(f"Columns not found: {', '.join(map(str, missing))}"
                           if len(missing) > 1 or isinstance(key, list) else key)
        return GroupBy(self._obj, self._keys, self._exclude, self.as_index, self.sort,
                       self.dropna, key, self._shared, self._one_list)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        cols = self.__dict__.get("_obj")
        if cols is not None and hasattr(cols, "_cols") and name in cols._cols:
            return self[name]
        raise AttributeError(f"'GroupBy' object has no attribute {name!r}")

    def _values(self):
        """{name: Column} of the columns reduced."""
        obj = self._obj
        if not hasattr(obj, "_cols"):
            return {obj.name: obj._col}
        sel = self._selection
        if sel is None:
            return {k: c for k, c in obj._cols.items() if k not in self._exclude}
        if isinstance(sel, list):
            return {k: obj._cols[k] for k in sel}
        return {sel: obj._cols[sel]}

    # ---- results
    def _key_index(self):
        if len(self._keys) > 1:
            from ember.frame._multiindex import MultiIndex
            return MultiIndex._make(self._g.keys, [name for name, _ in self._keys])
        return Index(self._g.keys[0], name=self._keys[0][0])

    def _wrap(self, cols, series_name=None, force_frame=False):
        """Per-group columns as pandas returns them."""
        from ember.frame.frame import DataFrame
        from ember.frame.series import Series
        if self._is_series and not force_frame and self.as_index:
            (name, col), = cols.items()
            return Series._make(col, self._key_index(), name)
        if self.as_index:
            return DataFrame._make(cols, self._key_index())
        g = self._g
        keys = {}
        for (name, _), kc in zip(self._keys, g.keys):
            if name is not None and name not in cols:
                keys[name] = kc
        return DataFrame._make({**keys, **cols}, RangeIndex(0, g.k))

    def _per_row(self, cols):
        """Per-row columns (transforms) under the object's index."""
        from ember.frame.frame import DataFrame
        from ember.frame.series import Series
        if self._is_series:
            (name, col), = cols.items()
            return Series._make(col, self._obj.index, name)
        return DataFrame._make(cols, self._obj.index)

    def _reduce(self, how, numeric_only=False, **kw):
        g = self._g
        out = {}
        for name, col in self._values().items():
            if numeric_only and not col.dtype.is_numeric:
                continue
            out[name] = _agg.aggregate(g, col, how, **kw)
        return self._wrap(out)

    # ---- reductions
    def sum(self, numeric_only=False, min_count=0, skipna=True):
        return self._reduce("sum", numeric_only, min_count=min_count, skipna=skipna)

    def prod(self, numeric_only=False, min_count=0, skipna=True):
        return self._reduce("prod", numeric_only, min_count=min_count, skipna=skipna)

    def mean(self, numeric_only=False, skipna=True):
        return self._reduce("mean", numeric_only, skipna=skipna)

    def median(self, numeric_only=False, skipna=True):
        return self._reduce("median", numeric_only, skipna=skipna)

    def min(self, numeric_only=False, min_count=-1, skipna=True):
        return self._reduce("min", numeric_only, skipna=skipna)

    def max(self, numeric_only=False, min_count=-1, skipna=True):
        return self._reduce("max", numeric_only, skipna=skipna)

    def std(self, ddof=1, numeric_only=False, skipna=True):
        return self._reduce("std", numeric_only, ddof=ddof, skipna=skipna)

    def var(self, ddof=1, numeric_only=False, skipna=True):
        return self._reduce("var", numeric_only, ddof=ddof, skipna=skipna)

    def count(self):
        return self._reduce("count")

    def nunique(self, dropna=True):
        return self._reduce("nunique", dropna=dropna)

    def first(self, numeric_only=False, min_count=-1, skipna=True):
        return self._reduce("first", numeric_only)

    def last(self, numeric_only=False, min_count=-1, skipna=True):
        return self._reduce("last", numeric_only)

    def size(self):
        from ember.frame.series import Series
        col = Column("int64", self._g.count())
        if self._is_series:
            (name, c), = self._values().items()
            col = _agg.aggregate(self._g, c, "size")
        if self.as_index:
            return Series._make(col, self._key_index(), name if self._is_series else None)
        return self._wrap({"size": col}, force_frame=True)

    # ---- agg
    def agg(self, func=None, *args, **kwargs):
        if func is None:
            if not kwargs:
                raise TypeError("Must provide 'func' or tuples of '(column, aggfunc).")
            return self._named_agg(kwargs)
        if isinstance(func, list):
            if not self._is_series:   # (column, aggregation) labels: MultiIndex columns
                return self._agg_levels({k: func for k in self._values()}, kwargs)
            (name, col), = self._values().items()
            out = {}
            for f in func:
                h = how_name(f)
                out[h or getattr(f, "__name__", "<lambda>")] = self._one(col, f, **kwargs)
            return self._wrap(out, force_frame=True)
        if isinstance(func, dict):
            if self._is_series:
                raise NotImplementedError("nested renamer is not supported (a dict "
                                          "in SeriesGroupBy.agg); use named "
                                          "aggregation")
            if any(isinstance(f, (list, tuple)) for f in func.values()):
                return self._agg_levels(func, kwargs)
            out = {}
            for name, f in func.items():
                if name not in self._obj._cols:
                    raise KeyError(f"Column(s) ['{name}'] do not exist")
                out[name] = self._one(self._obj._cols[name], f)
            return self._wrap(out, force_frame=True)
        h = how_name(func)
        if h is not None and h in _agg.AGGS:
            if h == "size":
                return self.size()
            return getattr(self, h)(*args, **kwargs)
        if callable(func):
            return self.apply(func)
        raise AttributeError(f"'GroupBy' object has no attribute {func!r}")

    aggregate = agg

    def _agg_levels(self, spec, kwargs):
        """agg of {column: aggregations} labelled (column, aggregation), pandas'
        MultiIndex columns; the keys of as_index=False are (key, '')."""
        out = {}
        for name, fs in spec.items():
            if name not in self._obj._cols:
                raise KeyError(f"Column(s) ['{name}'] do not exist")
            col = self._obj._cols[name]
            for f in (fs if isinstance(fs, (list, tuple)) else [fs]):
                label = how_name(f) or getattr(f, "__name__", "<lambda>")
                out[(name, label)] = self._one(col, f, **kwargs)
        res = self._wrap(out, force_frame=True)
        if not self.as_index:
            res._cols = {(k if isinstance(k, tuple) else (k, "")): c
                         for k, c in res._cols.items()}
        return res

    def _one(self, col, f, **kw):
        h = how_name(f)
        if h in _agg.AGGS:
            return _agg.aggregate(self._g, col, h, **kw)
        if callable(f):
            from ember.frame._groupby_apply import apply_column
            return apply_column(self._g, col, f)
        raise AttributeError(f"'SeriesGroupBy' object has no attribute {f!r}")

    def _named_agg(self, spec):
        out = {}
        for new, how in spec.items():
            if self._is_series:
                (_, col), = self._values().items()
            else:
                if not isinstance(how, tuple) or len(how) != 2:
                    raise TypeError("Must provide 'func' or tuples of "
                                    "'(column, aggfunc).")
                name, how = how
                if name not in self._obj._cols:
                    raise KeyError(f"Column(s) ['{name}'] do not exist")
                col = self._obj._cols[name]
            out[new] = self._one(col, how)
        return self._wrap(out, force_frame=True)

    # ---- per-row results
    def transform(self, func, *args, **kwargs):
        h = how_name(func)
        if h in _SCANS:
            return getattr(self, h)(*args, **kwargs)
        g = self._g
        if h in _agg.AGGS:
            return self._per_row({name: _scan.broadcast(g, _agg.aggregate(g, col, h, *args,
                                                                          **kwargs))
                                  for name, col in self._values().items()})
        if callable(func):
            from ember.frame._groupby_apply import transform_column
            return self._per_row({name: transform_column(g, col, func, *args, **kwargs)
                                  for name, col in self._values().items()})
        raise ValueError(f"{func!r} is not a valid function name for transform(name)")

    def _scan(self, fn, *args, **kw):
        g = self._g
        return self._per_row({name: fn(g, col, *args, **kw)
                              for name, col in self._values().items()})

    def cumsum(self, skipna=True):
        return self._scan(_scan.cumulative, "add")

    def cumprod(self, skipna=True):
        return self._scan(_scan.cumulative, "mul")

    def cummax(self, skipna=True):
        return self._scan(_scan.cumulative, "max")

    def cummin(self, skipna=True):
        return self._scan(_scan.cumulative, "min")

    def rolling(self, window, *args, **kwargs):
        """pandas' groupby(...).rolling: windows that stop at each group's
        first row (python/ember/frame/_groupby_window.py)."""
        from ember.frame._groupby_window import rolling
        return rolling(self, window, *args, **kwargs)

    def expanding(self, min_periods=1, method="single"):
        from ember.frame._groupby_window import expanding
        return expanding(self, min_periods, method)

    def cumcount(self, ascending=True):
        from ember.frame.series import Series
        return Series._make(_scan.cumcount(self._g, ascending), self._obj.index, None)

    def shift(self, periods=1, fill_value=None):
        return self._scan(_scan.shift, periods, fill_value)

    def diff(self, periods=1):
        return self._scan(_scan.diff, periods)

    def pct_change(self, periods=1):
        """pandas 3's x / x.shift(periods) - 1 within each group."""
        return self._per_row(self._values()) / self.shift(periods) - 1

    def rank(self, method="average", ascending=True, na_option="keep", pct=False):
        return self._scan(_scan.rank, method, ascending, na_option, pct)

    # ---- apply
    def apply(self, func, *args, **kwargs):
        """func(group) compiled by one call on a proxy group (see
        _groupby_apply): a Series of one value a group."""
        from ember.frame._groupby_apply import apply_frame, apply_column
        g = self._g
        if self._is_series:
            (name, col), = self._values().items()
            return self._wrap({name: apply_column(g, col, func, *args, **kwargs)})
        res = apply_frame(g, self._values(), func, *args, **kwargs)
        if self.as_index:
            from ember.frame.series import Series
            return Series._make(res, self._key_index(), None)
        return self._wrap({None: res}, force_frame=True)
