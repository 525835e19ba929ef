"""What frames and series do with a MultiIndex index: reset_index's
level columns, loc by a tuple, groupby(level=), concat of the levels."""

from ember.frame._multiindex import MultiIndex


def reset_names(index):
    """The column names reset_index gives an index's levels (pandas':
    the level's name, else 'index' for one level or level_i of several)."""
    if isinstance(index, MultiIndex):
        return [n if n is not None else f"level_{i}" for i, n in enumerate(index.names)]
    return [index.name if index.name is not None else "index"]


def split_levels(index, level, device, existing):
    """({name: Column} of the levels reset_index moves to columns (all, or
    those named by level), the index left: the other levels, or a
    RangeIndex). ValueError for a name that `existing` already has."""
    from ember.frame._index import RangeIndex
    multi = isinstance(index, MultiIndex)
    names = reset_names(index)
    cols = index._cols if multi else [index._column(device)]
    if level is None:
        nums = list(range(len(cols)))
    else:
        levels = level if isinstance(level, (list, tuple)) else [level]
        if multi:
            nums = sorted({index._level_number(lv) for lv in levels})
        else:
            for lv in levels:
                if lv not in (0, -1, index.name):
                    raise KeyError(f"Requested level ({lv}) does not match index name "
                                   f"({index.name})")
            nums = [0]
    out = {}
    for i in nums:
        if names[i] in existing or names[i] in out:
            raise ValueError(f"cannot insert {names[i]}, already exists")
        out[names[i]] = cols[i]
    keep = [i for i in range(len(cols)) if i not in nums]
    return out, index._pick(keep) if keep else RangeIndex(0, len(index))


def loc_label(obj, key, drop_level=True):
    """obj.loc[key] for a MultiIndex: a tuple of every level's value picks
    those rows (one row of a frame: a Series named by the label); a shorter
    tuple or one value picks the rows that start so, without those levels."""
    index = obj.index
    key = key if isinstance(key, tuple) else (key,)
    pos = index.tuple_positions(key)
    if not drop_level:
        return obj._take(pos)
    if len(key) == index.nlevels:
        if pos.shape[0] == 1:
            return obj._row(pos)
        return obj._take(pos)
    out = obj._take(pos)
    out._index = out._index._pick(list(range(len(key), index.nlevels)))
    return out


def level_keys(index, level, device):
    """[(name, Column)] of the index levels groupby(level=) groups by."""
    levels = level if isinstance(level, (list, tuple)) else [level]
    if not levels:
        raise ValueError("No group keys passed!")
    if isinstance(index, MultiIndex):
        nums = [index._level_number(lv) for lv in levels]
        return [(index.names[i], index._cols[i]) for i in nums]
    for lv in levels:
        if isinstance(lv, int) and lv not in (0, -1):
            raise ValueError("level > 0 or level < -1 only valid with MultiIndex")
        if not isinstance(lv, int) and lv != index.name:
            raise ValueError(f"level name {lv} is not the name of the index")
    return [(index.name, index._column(device))] * len(levels)


def concat_levels(indexes, device):
    """The MultiIndexes one after the other (concat's rows): each level's
    columns concatenated, a level named where every index names it alike."""
    from ember.frame._merge_cols import concat
    if not all(isinstance(i, MultiIndex) for i in indexes) or \
            len({i.nlevels for i in indexes}) > 1:
        raise NotImplementedError("concat of a MultiIndex with another index (pandas "
                                  "makes an Index of tuples); reset_index first")
    lens = [len(i) for i in indexes]
    cols, names = [], []
    for lv in range(indexes[0].nlevels):
        cols.append(concat([i._cols[lv] for i in indexes], lens, device))
        found = {i.names[lv] for i in indexes}
        names.append(found.pop() if len(found) == 1 else None)
    return MultiIndex._make(cols, names)
