"""Series.str.extract and extractall: each group's bounds from the
capture kernels (_str_capture) become a string column of byte ranges of
the input, null where the row is null, has no match, or the group took
no part in the match, as pandas."""
import re

import ember

from ember.frame._str_kernels import ranges_result, valid_mask


def _compiled(pat, flags):
    """re's own check first, as pandas: re.error for a bad pattern,
    ValueError for one without groups."""
    regex = re.compile(pat, flags) if not isinstance(pat, re.Pattern) or flags else pat
    if regex.groups == 0:
        raise ValueError("pattern contains no capture groups")
    return regex


def labels(regex):
    """pandas' column names: a group's name, else its number from 0."""
    names = {v: k for k, v in regex.groupindex.items()}
    return [names.get(g + 1, g) for g in range(regex.groups)]


def group_columns(col, caps, ngroups, valid, empty=True):
    """One column per group from bounds [rows, 2 (groups + 1)]; valid:
    the rows that may hold a value (None: all); empty=False makes an
    empty group null too."""
    out = []
    for g in range(1, ngroups + 1):
        start, stop = caps[:, 2 * g], caps[:, 2 * g + 1]
        ok = start >= 0 if empty else stop > start   # stop is -1 where start is
        ok = ok if valid is None else ok & valid
        out.append(ranges_result(col, ember.where(ok, start, 0), ember.where(ok, stop, 0),
                                 ok))
    return out


def extract(series, pat, flags, expand):
    from ember.frame._str_accessor import _pattern
    from ember.frame._str_capture import first_match
    from ember.frame.frame import DataFrame
    from ember.frame.series import Series
    if not isinstance(expand, bool):
        raise ValueError("expand must be True or False")
    regex = _compiled(pat, flags)
    text, case = _pattern(pat, True, flags, "extract")
    col = series._col
    caps, ngroups, _ = first_match(col, text, case, "extract")
    cols = group_columns(col, caps, ngroups, valid_mask(col))
    names = labels(regex)
    if not expand and ngroups == 1:
        name = names[0] if regex.groupindex else series.name   # pandas: the Series' own
        return Series._make(cols[0], series.index, name)
    return DataFrame._make(dict(zip(names, cols)), series.index)


def extractall(series, pat, flags):
    """A row a match (left to right, not overlapping, as re.finditer),
    indexed by its row's labels and its number within the row (a
    MultiIndex, as pandas); rows that are null or have no match give none."""
    from ember.frame._column import Column
    from ember.frame._multiindex import MultiIndex
    from ember.frame._str_accessor import _pattern
    from ember.frame._str_capture import all_matches
    from ember.frame.frame import DataFrame
    regex = _compiled(pat, flags)
    text, case = _pattern(pat, True, flags, "extractall")
    col = series._col
    caps, cnt, ngroups, _ = all_matches(col, text, case)
    valid = valid_mask(col)
    if valid is not None:   # a null row matched as "" by a pattern that can
        keep = ember.repeat(valid, cnt)
        caps, cnt = caps[keep], ember.where(valid, cnt, 0)
    dev = col.device
    rows = ember.repeat(ember.arange(col.length, dtype="int64", device=dev), cnt)
    first = ember.cumsum(cnt) - cnt
    match = ember.arange(rows.shape[0], dtype="int64", device=dev) - first[rows]
    idx = series.index.take(rows)
    if isinstance(idx, MultiIndex):
        levels, names = list(idx._cols), list(idx.names)
    else:
        levels, names = [idx._column(dev)], [idx.name]
    index = MultiIndex._make(levels + [Column("int64", match)], names + ["match"])
    # pandas reads re.findall's tuples, where a group that takes no part is
    # "" as an empty one, and makes both NaN
    cols = group_columns(col, caps, ngroups, None, empty=False)
    return DataFrame._make(dict(zip(labels(regex), cols)), index)
