"""groupby(...).apply(f) compiled, not looped: f is called once with a
proxy group whose columns stand for every group at once. A reduction of
a proxy column is the vector of the groups' results (k values), and
arithmetic between vectors and numbers is elementwise, so f's scalar
expression becomes the same expression over vectors. Row-level
arithmetic between a group's columns (g["v"] * g["w"]) stays row-level
until it is reduced."""
import ember

from ember.frame import _ops
from ember.frame._column import Column
from ember.frame._groupby_agg import AGGS, aggregate

SUPPORTED = ("reductions of the group's columns (" + ", ".join(AGGS) + "), "
             "arithmetic and comparisons between columns, reductions and numbers, "
             "abs and negation")


def _unsupported(what):
    return NotImplementedError(f"groupby.apply: {what} cannot be compiled; a function "
                               f"of a group may use {SUPPORTED}")


class _Arith:
    """Operators of a proxy, each making another of the same kind."""
    __slots__ = ()

    def _bin(self, op, other, reflected=False):
        if isinstance(other, _Arith):
            if type(other) is not type(self):
                # a group's value meets its rows: the value goes to each row
                if isinstance(self, ColumnProxy):
                    a, b = self.col, _rows_of(self.groups, other.col)
                else:
                    a, b = _rows_of(self.groups, self.col), other.col
                return ColumnProxy(self.groups, _ops.binary(op, a, b, reflected))
            other = other.col
        elif not isinstance(other, (bool, int, float)) and \
                type(other).__module__ != "numpy":
            raise _unsupported(f"an operand of type {type(other).__name__}")
        return type(self)(self.groups, _ops.binary(op, self.col, other, reflected))

    def __neg__(self):
        return type(self)(self.groups, _ops.negate(self.col))

    def __abs__(self):
        return type(self)(self.groups, Column(self.col.dtype, ember.abs(self.col.values),
                                              self.col.validity))

    def __bool__(self):
        raise _unsupported("a condition on a group's values (if, and, or, not)")

    def __len__(self):
        raise _unsupported("len() (use .size() or .count() of a column)")

    def __iter__(self):
        raise _unsupported("iterating over a group's values")

    def __float__(self):
        raise _unsupported("float() of a group's value")

    __int__ = __index__ = __float__

    def __array__(self, *a, **k):
        raise _unsupported("a NumPy function of a group's values")

    __array_ufunc__ = None


for _op in list(_ops.ARITH) + list(_ops.COMPARE):
    def _fwd(self, other, _op=_op):
        return self._bin(_op, other)
    setattr(_Arith, f"__{_op}__", _fwd)
    if _op in _ops.ARITH:
        def _rev(self, other, _op=_op):
            return self._bin(_op, other, True)
        setattr(_Arith, f"__r{_op}__", _rev)
del _op, _fwd, _rev


class Vector(_Arith):
    """One value a group: the result of a reduction."""
    __slots__ = ("groups", "col")

    def __init__(self, groups, col):
        self.groups, self.col = groups, col

    def __getattr__(self, name):
        raise _unsupported(f"the method {name!r} of a reduction's result")


class ColumnProxy(_Arith):
    """One column of "a group": every group's rows of the column."""
    __slots__ = ("groups", "col")

    def __init__(self, groups, col):
        self.groups, self.col = groups, col

    def _agg(self, how, **kw):
        return Vector(self.groups, aggregate(self.groups, self.col, how, **kw))

    def sum(self, skipna=True, min_count=0):
        return self._agg("sum", skipna=skipna, min_count=min_count)

    def prod(self, skipna=True, min_count=0):
        return self._agg("prod", skipna=skipna, min_count=min_count)

    def mean(self, skipna=True):
        return self._agg("mean", skipna=skipna)

    def median(self, skipna=True):
        return self._agg("median", skipna=skipna)

    def min(self, skipna=True):
        return self._agg("min", skipna=skipna)

    def max(self, skipna=True):
        return self._agg("max", skipna=skipna)

    def std(self, ddof=1, skipna=True):
        return self._agg("std", ddof=ddof, skipna=skipna)

    def var(self, ddof=1, skipna=True):
        return self._agg("var", ddof=ddof, skipna=skipna)

    def count(self):
        return self._agg("count")

    def size(self):
        return self._agg("size")

    def nunique(self, dropna=True):
        return self._agg("nunique", dropna=dropna)

    def first(self):
        return self._agg("first")

    def last(self):
        return self._agg("last")

    def __getattr__(self, name):
        raise _unsupported(f"the method {name!r} of a group's column")


class GroupProxy:
    """"A group" of a DataFrame: its columns by name."""

    def __init__(self, groups, cols):
        self._groups, self._cols = groups, cols

    def __getitem__(self, key):
        if isinstance(key, (list, tuple)):
            raise _unsupported("selecting several columns of a group")
        if key not in self._cols:
            raise KeyError(key)
        return ColumnProxy(self._groups, self._cols[key])

    def __getattr__(self, name):
        cols = self.__dict__.get("_cols", {})
        if name in cols:
            return self[name]
        raise _unsupported(f"the attribute {name!r} of a group (only its columns)")

    def __len__(self):
        raise _unsupported("len(group) (use group[column].size())")

    def __iter__(self):
        raise _unsupported("iterating over a group")


def _rows_of(groups, col_k):
    from ember.frame._groupby_scan import broadcast
    return broadcast(groups, col_k)


def _result(groups, r):
    if isinstance(r, Vector):
        return r.col
    if isinstance(r, bool) or (isinstance(r, (int, float)) and not isinstance(r, bool)):
        from ember.frame._convert import repeat_scalar
        return repeat_scalar(r, groups.k, device=groups.device)
    if isinstance(r, ColumnProxy):
        raise _unsupported("a function returning a group's rows (not one value)")
    raise _unsupported(f"a function returning {type(r).__name__}")


def _call(f, proxy, args, kwargs):
    try:
        return f(proxy, *args, **kwargs)
    except (TypeError, AttributeError, ValueError) as e:
        raise _unsupported(f"the function ({type(e).__name__}: {e})") from e


def apply_frame(groups, cols, f, *args, **kwargs):
    """f(group) of a DataFrame's groups: a Column of one value a group."""
    return _result(groups, _call(f, GroupProxy(groups, cols), args, kwargs))


def apply_column(groups, col, f, *args, **kwargs):
    """f(group's values) of one column's groups."""
    return _result(groups, _call(f, ColumnProxy(groups, col), args, kwargs))


def transform_column(groups, col, f, *args, **kwargs):
    """f(group's values) as one value a row: f may return a reduction
    (broadcast to its rows) or rows (x - x.mean())."""
    from ember.frame._groupby_scan import broadcast, mask_rows, _outside
    r = _call(f, ColumnProxy(groups, col), args, kwargs)
    if isinstance(r, ColumnProxy):
        return mask_rows(r.col, _outside(groups))
    return broadcast(groups, _result(groups, r))
