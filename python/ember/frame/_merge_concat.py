"""concat: frames and Series one after another (axis=0, the union or
intersection of their columns) or side by side (axis=1, their rows
aligned on the union or intersection of their indexes)."""
import ember

from ember.frame import _merge_cols


def _pieces(objs):
    if isinstance(objs, dict):
        raise NotImplementedError("concat of a dict (its keys make a MultiIndex); "
                                  "pass a list")
    from ember.frame.frame import DataFrame
    from ember.frame.series import Series
    if isinstance(objs, (DataFrame, Series)):
        raise TypeError("first argument must be an iterable of pandas objects, you "
                        f'passed an object of type "{type(objs).__name__}"')
    objs = list(objs)
    if not objs:
        raise ValueError("No objects to concatenate")
    objs = [o for o in objs if o is not None]
    if not objs:
        raise ValueError("All objects passed were None")
    for o in objs:
        if not isinstance(o, (DataFrame, Series)):
            raise TypeError(f"cannot concatenate object of type '{type(o)}'; only "
                            "Series and DataFrame objs are valid")
    devs = {str(o._dev()) for o in objs if o._dev() is not None}
    if len(devs) > 1:
        raise ValueError(f"concat of objects on several devices ({', '.join(sorted(devs))})"
                         "; move them with to_device")
    return objs, (objs[0]._dev() if devs else None)


def _common_name(names):
    return names[0] if all(n == names[0] for n in names) else None


def _index(objs, dev, ignore_index, total):
    from ember.frame._index import Index, RangeIndex
    if ignore_index:
        return RangeIndex(0, total)
    idx = [o.index for o in objs]
    if all(isinstance(i, RangeIndex) for i in idx):
        at = idx[0].start
        for i in idx:   # consecutive ranges stay a range, as pandas
            if len(i) and (i.start != at or i.step != 1):
                break
            at = i.stop if len(i) else at
        else:
            return RangeIndex(idx[0].start, at, name=_common_name([i.name for i in idx]))
    if any(getattr(i, "nlevels", 1) > 1 for i in idx):
        from ember.frame._multiindex_frame import concat_levels
        return concat_levels(idx, dev)
    col = _merge_cols.concat([i._column(dev) for i in idx], [len(i) for i in idx], dev)
    return Index(col, name=_common_name([i.name for i in idx]))


def concat(objs, axis=0, join="outer", ignore_index=False, keys=None, levels=None,
           names=None, verify_integrity=False, sort=False, copy=None):
    """pandas.concat of DataFrames and Series."""
    from ember.frame.frame import DataFrame
    from ember.frame.series import Series
    if keys is not None or levels is not None or names is not None:
        raise NotImplementedError("concat with keys=/levels=/names= (a MultiIndex); "
                                  "concat without them")
    if verify_integrity:
        raise NotImplementedError("concat(verify_integrity=True); check "
                                  "result.index.duplicated() instead")
    if join not in ("inner", "outer"):
        raise ValueError("Only can inner (intersect) or outer (union) join the other axis")
    if axis in (1, "columns"):
        return _side_by_side(*_pieces(objs), ignore_index, join, sort)
    if axis not in (0, "index", "rows"):
        raise ValueError(f"No axis named {axis} for object type DataFrame")
    objs, dev = _pieces(objs)
    total = sum(len(o) for o in objs)
    if all(isinstance(o, Series) for o in objs):
        col = _merge_cols.concat([o._col for o in objs], [len(o) for o in objs], dev)
        return Series._make(col, _index(objs, dev, ignore_index, total),
                            _common_name([o.name for o in objs]))
    frames = [o if isinstance(o, DataFrame) else
              DataFrame._make({o.name if o.name is not None else 0: o._col}, o.index)
              for o in objs]
    # pandas drops a frame without columns or rows, so that it makes no nulls
    frames = [f for f in frames if f._cols or len(f)] or frames[:1]
    names = []
    for f in frames:
        names += [k for k in f._cols if k not in names]
    if join == "inner":
        names = [k for k in names if all(k in f._cols for f in frames)]
    if sort:
        names = sorted(names)
    cols = {k: _merge_cols.concat([f._cols.get(k) for f in frames],
                                  [len(f) for f in frames], dev) for k in names}
    return DataFrame._make(cols, _index(frames, dev, ignore_index, total))


def _aligned(objs, dev, join, sort):
    """The union (join="outer", in order of first appearance) or the
    intersection (in the first object's order) of the objects' indexes,
    and for each object the row of every label there (-1: none)."""
    from ember.frame._index import Index
    from ember.frame._merge_core import join_rows
    from ember.frame._order import codes, first_rows, sort_indexer
    idx = [o.index for o in objs]
    lens = [len(i) for i in idx]
    labels = _merge_cols.concat([i._column(dev) for i in idx], lens, dev)
    c, k = codes(labels)
    c = ember.where(c < 0, k, c)   # a null label is a label too
    parts, at = [], 0
    for n in lens:
        parts.append(c[at:at + n])
        at += n
    if any(bool(ember.unique(p).shape[0] != p.shape[0]) for p in parts):
        raise ValueError("cannot reindex on an axis with duplicate labels")
    first, count, code = first_rows(c, k + 1)
    if join == "inner":
        keep = ember.flatnonzero(count == len(objs))
        first, code = first[keep], code[keep]
    union = labels.take(first)
    if sort:
        order = sort_indexer([union], [True], "last")
        union, code = union.take(order), code[order]
    names = [i.name for i in idx]
    index = Index(union, name=_common_name(names))
    return index, [join_rows(code, p, k + 1, "left", False)[1] for p in parts]


def _side_by_side(objs, dev, ignore_index, join, sort):
    from ember.frame.frame import DataFrame
    from ember.frame.series import Series
    first = objs[0].index
    where = None
    if not all(o.index.equals(first) for o in objs[1:]):
        first, where = _aligned(objs, dev, join, sort)
    from ember.frame._dup_labels import rekeyed
    cols, unnamed = [], 0
    for j, o in enumerate(objs):
        if isinstance(o, Series):
            name = o.name
            if name is None:
                name, unnamed = unnamed, unnamed + 1
            items = [(name, o._col)]
        else:
            items = list(o._cols.items())
        if where is not None:
            miss = where[j] < 0
            miss = miss if bool(miss.any()) else None
            items = [(k, _merge_cols.take(c, where[j], miss)) for k, c in items]
        cols += items
    if ignore_index:
        return DataFrame._make({i: c for i, (_, c) in enumerate(cols)}, first)
    return DataFrame._make(rekeyed(cols), first)   # a shared name repeats, as pandas
