"""merge, join and concat: rows of several frames put together in
pandas' order (docs/frames.md, "Merge, join and concat")."""
import ember

from ember.frame import _merge_cols
from ember.frame._merge_concat import concat
from ember.frame._merge_core import check_pair, join_rows, key_codes, rows, stacked

__all__ = ["MergeError", "merge", "concat"]

_HOWS = ("left", "right", "inner", "outer", "cross", "left_anti", "right_anti")
_VALIDATE = {"one_to_one": (True, True, "one-to-one"), "1:1": (True, True, "one-to-one"),
             "one_to_many": (True, False, "one-to-many"),
             "1:m": (True, False, "one-to-many"),
             "many_to_one": (False, True, "many-to-one"),
             "m:1": (False, True, "many-to-one"),
             "many_to_many": (False, False, ""), "m:m": (False, False, "")}
_INDEX = object()   # a key that is the frame's index, not a column


class MergeError(ValueError):
    """pandas.errors.MergeError's counterpart: a ValueError, so code that
    catches pandas' (a ValueError subclass too) by ValueError catches it."""


def _frame(obj):
    from ember.frame.frame import DataFrame
    from ember.frame.series import Series
    if isinstance(obj, DataFrame):
        return obj
    if isinstance(obj, Series):
        if obj.name is None:
            raise ValueError("Cannot merge a Series without a name")
        return DataFrame._make({obj.name: obj._col}, obj.index)
    raise TypeError(f"Can only merge Series or DataFrame objects, a {type(obj)} was passed")


def _listed(x):
    if x is None:
        return []
    keys = list(x) if isinstance(x, (list, tuple)) else [x]
    for k in keys:
        if hasattr(k, "__len__") and not isinstance(k, str):
            raise NotImplementedError("merge on arrays or Series as keys; assign them "
                                      "as columns and merge on their names")
    return keys


def _key_names(left, right, on, left_on, right_on, left_index, right_index):
    """[(left key, right key)], each a column name or _INDEX."""
    if on is not None:
        if left_on is not None or right_on is not None:
            raise MergeError('Can only pass argument "on" OR "left_on" and "right_on", '
                             "not a combination of both.")
        if left_index or right_index:
            raise MergeError('Can only pass argument "on" OR "left_index" and '
                             '"right_index", not a combination of both.')
        return [(k, k) for k in _listed(on)]
    lk = [_INDEX] if left_index else _listed(left_on)
    rk = [_INDEX] if right_index else _listed(right_on)
    if left_index and left_on is not None or right_index and right_on is not None:
        raise MergeError('Can only pass argument "left_on" OR "left_index" (and '
                         '"right_on" OR "right_index"), not both.')
    if not lk and not rk:
        common = [k for k in left._cols if k in right._cols]
        if not common:
            raise MergeError("No common columns to perform merge on. Merge options: "
                             f"left_on={left_on}, right_on={right_on}, "
                             f"left_index={left_index}, right_index={right_index}")
        return [(k, k) for k in common]
    if not rk:
        raise MergeError('Must pass "right_on" OR "right_index".')
    if not lk:
        raise MergeError('Must pass "left_on" OR "left_index".')
    if len(lk) != len(rk):
        if left_index or right_index:
            raise ValueError("len(left_on) must equal the number of levels in the "
                             "index (a MultiIndex is not supported)")
        raise ValueError("len(right_on) must equal len(left_on)")
    return list(zip(lk, rk))


def _key_col(frame, key, dev):
    return frame.index._column(dev) if key is _INDEX else frame._column(key)


def _unique(keys):
    return ember.unique(keys).shape[0] == keys.shape[0]


def _validate(validate, lk, rk):
    if validate is None:
        return
    if validate not in _VALIDATE:
        raise ValueError(f'"{validate}" is not a valid argument. Valid arguments are:\n'
                         '- "1:1"\n- "1:m"\n- "m:1"\n- "m:m"\n- "one_to_one"\n'
                         '- "one_to_many"\n- "many_to_one"\n- "many_to_many"')
    need_l, need_r, what = _VALIDATE[validate]
    if need_l and not _unique(lk):
        raise MergeError(f"Merge keys are not unique in left dataset; not a {what} merge")
    if need_r and not _unique(rk):
        raise MergeError(f"Merge keys are not unique in right dataset; not a {what} merge")


def _missing(idx):
    if idx is None:
        return None
    miss = idx < 0
    return miss if bool(miss.any()) else None


def _joined_key(lcol, rcol, li, ri, lmiss, rmiss):
    """A key shared by both sides: the left row's value, or the right's
    where there is no left row (then in both dtypes' common one, as pandas)."""
    if lmiss is None:
        return _take(lcol, li, None)
    if rmiss is None and lcol.dtype == rcol.dtype:
        return _take(rcol, ri, None)
    ri = rows(ri, rcol.length, lmiss.device)
    return stacked(lcol, rcol).take(ember.where(lmiss, ri + lcol.length, li))


def _take(col, idx, miss):
    return col if idx is None else _merge_cols.take(col, idx, miss)


def _take_index(index, idx):
    return index if idx is None else index.take(idx)


def _suffixed(lnames, rnames, shared, suffixes):
    """Left and right output names: pandas' suffixes on the names both
    sides hold, other than the keys they share."""
    try:
        ls, rs = suffixes
    except (TypeError, ValueError):
        raise ValueError("suffixes must be a tuple of two strings or None") from None
    both = [k for k in lnames if k in rnames and k not in shared]
    if both and not ls and not rs:
        raise ValueError(f"columns overlap but no suffix specified: {both}")
    lout = {k: f"{k}{ls}" if k in both and ls else k for k in lnames}
    rout = {k: f"{k}{rs}" if k in both and rs else k for k in rnames if k not in shared}
    names = list(lout.values()) + list(rout.values())
    dup = {k for k in names if names.count(k) > 1}
    if dup:
        raise MergeError(f"Passing 'suffixes' which cause duplicate columns {dup} is "
                         "not allowed.")
    return lout, rout


def _length(li, ri):
    return (li if li is not None else ri).shape[0]


def _assemble(left, right, li, ri, how, shared, suffixes, indicator, index_of):
    """The output frame of rows (li, ri); `shared` names the key columns
    both sides hold (one output column each), index_of(lmiss, rmiss) makes
    the index."""
    from ember.frame.frame import DataFrame
    from ember.frame._convert import column_from
    # a side that every output row has needs no look for -1
    lmiss = None if how in ("inner", "left", "cross") else _missing(li)
    rmiss = None if how in ("inner", "right", "cross") else _missing(ri)
    lout, rout = _suffixed(list(left._cols), list(right._cols), shared, suffixes)
    cols = {}
    for k, c in left._cols.items():
        if k in shared:
            cols[k] = _joined_key(c, right._cols[k], li, ri, lmiss, rmiss)
        else:
            cols[lout[k]] = _take(c, li, lmiss)
    for k, c in right._cols.items():
        if k not in shared:
            cols[rout[k]] = _take(c, ri, rmiss)
    if indicator:
        name = "_merge" if indicator is True else indicator
        if not isinstance(name, str):
            raise ValueError("indicator option can only accept boolean or string arguments")
        if name in cols:
            raise ValueError(f"Cannot use `indicator=True` option when data contains a "
                             f"column named {name}")
        # pandas' categorical: codes into (left_only, right_only, both)
        from ember.frame._categorical import make
        from ember.frame._dtypes import CategoricalDtype
        dev = (li if li is not None else ri).device
        cats = column_from(["left_only", "right_only", "both"], device=dev)
        which = ember.full(_length(li, ri), 2, dtype="int8", device=dev)
        if rmiss is not None:
            which = ember.where(rmiss, 0, which)
        if lmiss is not None:
            which = ember.where(lmiss, 1, which)
        cols[name] = make(which, CategoricalDtype(cats, False))
    return DataFrame._make(cols, index_of(lmiss, rmiss))


def merge(left, right, how="inner", on=None, left_on=None, right_on=None,
          left_index=False, right_index=False, sort=False, suffixes=("_x", "_y"),
          copy=None, indicator=False, validate=None):
    """pandas.merge: the rows of left and right whose keys are equal, in
    pandas' order (inner and left: left rows in order, each one's matches
    in right order; right: the mirror; outer: sorted by the keys)."""
    from ember.frame._index import Index, RangeIndex
    left, right = _frame(left), _frame(right)
    if how not in _HOWS:
        raise ValueError(f"'{how}' is not a valid Merge type: left, right, inner, "
                         "outer, left_anti, right_anti, cross, asof")
    dev = left._device() or right._device()
    if left._device() is not None and right._device() is not None and \
            str(left._device()) != str(right._device()):
        raise ValueError(f"merge of frames on {left._device()} and {right._device()}: "
                         "move one with to_device")
    n, m = len(left), len(right)
    if how == "cross":
        if on is not None or left_on is not None or right_on is not None or \
                left_index or right_index:
            raise MergeError("Can not pass on, right_on, left_on or set right_index=True "
                             "or left_index=True")
        li = ember.repeat(ember.arange(n, dtype="int64", device=dev), m)
        ri = ember.tile(ember.arange(m, dtype="int64", device=dev), n)
        return _assemble(left, right, li, ri, how, (), suffixes, indicator,
                         lambda a, b: RangeIndex(0, n * m))
    pairs = _key_names(left, right, on, left_on, right_on, left_index, right_index)
    lcols = [_key_col(left, a, dev) for a, _ in pairs]
    rcols = [_key_col(right, b, dev) for _, b in pairs]
    for (a, b), lc, rc in zip(pairs, lcols, rcols):
        check_pair(lc, rc, a if a is not _INDEX else b)
    lk, rk, size = key_codes(lcols, rcols)
    _validate(validate, lk, rk)
    shared = {a for a, b in pairs if a is not _INDEX and a == b}
    with_index = [a is _INDEX for a, _ in pairs][0], [b is _INDEX for _, b in pairs][0]
    if with_index == (False, False):
        index_of = (lambda lmiss, rmiss: RangeIndex(0, _length(li, ri)))
    elif with_index == (True, True):
        index_of = (lambda lmiss, rmiss: Index(_joined_key(
            lcols[0], rcols[0], li, ri, lmiss, rmiss),
            name=(right if how == "right" else left).index.name))
    elif with_index == (False, True) and how in ("left", "inner", "left_anti"):
        index_of = (lambda lmiss, rmiss: _take_index(left.index, li))
    elif with_index == (True, False) and how in ("right", "inner", "right_anti"):
        index_of = (lambda lmiss, rmiss: _take_index(right.index, ri))
    else:
        raise NotImplementedError(f"merge how={how!r} of an index with a column (pandas' "
                                  "index is then a mix of both sides); use "
                                  "reset_index() and merge on columns")
    if how in ("left_anti", "right_anti"):
        # a side's rows without a match, as they stand in its own left (or
        # right) join: pandas numbers them by their place there
        lft = how == "left_anti"
        a, b = join_rows(lk, rk, size, "left", bool(sort)) if lft else \
            join_rows(rk, lk, size, "left", bool(sort))[::-1]
        a, b = rows(a, n, dev), rows(b, m, dev)
        pos = ember.flatnonzero((b if lft else a) < 0).astype("int64")
        li, ri = a[pos], b[pos]
        if with_index == (False, False):
            index_of = (lambda lmiss, rmiss: Index(pos, dtype="int64"))
        return _assemble(left, right, li, ri, how, shared, suffixes, indicator, index_of)
    li, ri = join_rows(lk, rk, size, how, bool(sort))
    return _assemble(left, right, li, ri, how, shared, suffixes, indicator, index_of)


class MergeMethods:
    """DataFrame.merge and DataFrame.join."""

    def merge(self, right, how="inner", on=None, left_on=None, right_on=None,
              left_index=False, right_index=False, sort=False, suffixes=("_x", "_y"),
              copy=None, indicator=False, validate=None):
        return merge(self, right, how=how, on=on, left_on=left_on, right_on=right_on,
                     left_index=left_index, right_index=right_index, sort=sort,
                     suffixes=suffixes, indicator=indicator, validate=validate)

    def join(self, other, on=None, how="left", lsuffix="", rsuffix="", sort=False,
             validate=None):
        """pandas' DataFrame.join: other's rows by its index, matched to this
        frame's index (or to the column(s) `on`)."""
        from ember.frame.series import Series
        if isinstance(other, Series) and other.name is None:
            raise ValueError("Other Series must have a name")
        if isinstance(other, (list, tuple)):
            raise NotImplementedError("join with a list of frames; join them one by one "
                                      "or use concat(axis=1)")
        if how == "cross":
            return merge(self, other, how=how, suffixes=(lsuffix, rsuffix), sort=sort,
                         validate=validate)
        if on is None:
            return merge(self, other, how=how, left_index=True, right_index=True,
                         suffixes=(lsuffix, rsuffix), sort=sort, validate=validate)
        return merge(self, other, how=how, left_on=on, right_index=True,
                     suffixes=(lsuffix, rsuffix), sort=sort, validate=validate)
