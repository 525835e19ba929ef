"""The groups of a groupby as objects: iteration, get_group, groups and
indices, and the groups GroupBy.filter hands its function. The frame is
gathered once into group order (Groups.order, the stable radix sort of
the group codes every grouped scan uses) and each group is a slice of
that copy, so a group keeps its rows' order and labels; the offsets
come to the host in one transfer and the keys in another. The loop over
groups is the user's (the API's nature); nothing here runs per row."""
import datetime

import ember


def selected(gb):
    """What a group is a part of (pandas' _selected_obj): the Series, the
    selected column, the selected columns, or the whole frame, keys
    included."""
    obj, sel = gb._obj, gb._selection
    if not hasattr(obj, "_cols") or sel is None:
        return obj
    return obj[sel]


def host_keys(gb):
    """The groups' keys as pandas iterates its result index: scalars (a
    missing key NaN, NaT or NA, as pandas has it), tuples for several
    keys. Made once for the groupby and its column selections."""
    keys = gb._shared.get("host_keys")
    if keys is None:
        keys = list(gb._key_index().to_pandas()) if gb._g.k else []
        gb._shared["host_keys"] = keys
    return keys


def _bounds(gb):
    """(rows in group order, the groups' offsets as a host list)."""
    rows, offsets = gb._g.order()
    return rows, ember.asnumpy(offsets).tolist()     # one transfer for all groups


def group_objects(gb, obj):
    """(key, sub-frame or sub-Series) for each group, in the groups' order."""
    rows, bounds = _bounds(gb)
    ordered = obj._take(rows)
    for j, key in enumerate(host_keys(gb)):
        yield key, ordered._slice(bounds[j], bounds[j + 1])


def iterate(gb):
    """pandas' GroupBy.__iter__: (key, group) pairs; a list of one key
    gives one-element tuples, as pandas 3 does."""
    parts = group_objects(gb, selected(gb))
    if gb._one_list:
        return (((key,), part) for key, part in parts)
    return parts


def _missing(x):
    return x is None or type(x).__name__ in ("NaTType", "NAType") or (
        isinstance(x, float) and x != x)


def _nan_key(key):
    """pandas' indices' key: a missing key (or part of a tuple) as NaN."""
    import numpy as np
    if isinstance(key, tuple):
        return tuple(np.nan if _missing(k) else k for k in key)
    return np.nan if _missing(key) else key


def _numbers(gb):
    """{indices' key: group number}, made once for the groupby."""
    table = gb._shared.get("key_numbers")
    if table is None:
        table = {_nan_key(k): j for j, k in enumerate(host_keys(gb))}
        gb._shared["key_numbers"] = table
    return table


def indices(gb):
    """{key: the group's positions (a NumPy int64 array)}: pandas'
    GroupBy.indices, host data (one transfer of the rows in group order)."""
    rows, bounds = _bounds(gb)
    host = ember.asnumpy(rows)
    return {k: host[bounds[j]:bounds[j + 1]] for k, j in _numbers(gb).items()}


def groups(gb):
    """{key: the group's row labels (an Index)}: the labels gathered once
    into group order on the frame's device, each group's a slice."""
    if gb._one_list == "by":       # pandas warns for by=[key], not level=[n]
        import warnings
        key = gb._keys[0][0]
        warnings.warn(
            "In a future version, the keys of `groups` will be a tuple with a single "
            f"element, e.g. ({key},) , instead of a scalar, e.g. {key}, when grouping "
            f"by a list with a single element. Use ``df.groupby(by='{key}').groups`` "
            f"instead of ``df.groupby(by=['{key}']).groups`` to avoid this warning",
            DeprecationWarning, stacklevel=3)
    rows, bounds = _bounds(gb)
    labels = gb._obj.index.take(rows)      # each group's labels a view of these
    return {k: labels.slice(bounds[j], bounds[j + 1])
            for j, k in enumerate(host_keys(gb))}


def _lookup_key(gb, name):
    """name as pandas' _get_index reads it against the groups' keys: a
    missing value is NaN, a datetime key converts name to a Timestamp,
    several keys want a tuple of as many parts."""
    import numpy as np
    if not isinstance(name, tuple) and _missing(name):
        return np.nan
    keys = host_keys(gb)
    sample = keys[0] if keys else None
    # a missing part stays NaN (pandas turns it back into NaT for a
    # datetime key, which then finds no group: its KeyError for (NaT, 3))
    convert = (lambda s: _timestamp if isinstance(s, datetime.datetime)
               else (lambda x: x))
    if isinstance(sample, tuple):
        if not isinstance(name, tuple):
            raise ValueError("must supply a tuple to get_group with multiple "
                             "grouping keys")
        name = _nan_key(name)
        if len(name) != len(sample):
            if name in _numbers(gb):
                return name
            raise ValueError("must supply a same-length tuple to get_group with "
                             "multiple grouping keys")
        return tuple(convert(s)(n) for s, n in zip(sample, name))
    return convert(sample)(_nan_key(name))


def _timestamp(x):
    import pandas as pd
    return x if _missing(x) else pd.Timestamp(x)


def get_group(gb, name):
    """pandas' get_group: the group's rows of the selected object, in
    their order (one gather of only those rows); KeyError(name) for a key
    with no group."""
    if gb._one_list:
        if isinstance(name, tuple) and len(name) == 1:
            name = name[0]
        else:
            raise KeyError(name)
    j = _numbers(gb).get(_lookup_key(gb, name))
    if j is None:
        raise KeyError(name)
    rows, offsets = gb._g.order()
    lo, hi = ember.asnumpy(offsets[j:j + 2]).tolist()
    if lo == hi:   # an unused category's group (observed=False): pandas has no rows
        raise KeyError(name)
    return selected(gb)._take(rows[lo:hi])
