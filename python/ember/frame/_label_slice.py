"""loc with a slice of labels: inclusive of both ends, as pandas. A
RangeIndex is solved arithmetically; a sorted index by two searchsorted
(the bounds need not be labels); an unsorted one needs each bound to be
one label of it, or of one run of equal labels (KeyError otherwise, as
pandas)."""
import math

import ember


def _bound_positions(index, labels, device):
    """(index keys, bound keys) comparable by value: numbers as they are,
    others as the codes of one ordering of both."""
    from ember.frame._column import concat
    from ember.frame._convert import column_from
    col = index._column(device)
    if col.dtype.kind == "M":   # bounds already ticks of its unit (_time_bounds)
        return col.values, ember.asarray(labels, dtype="int64", device=device)
    bounds = column_from(labels, device=device)
    if col.dtype.kind in "iuf" and bounds.dtype.kind in "iuf" and \
            col.validity is None and not col.dtype.is_string:
        return col.values, bounds.values
    if col.dtype.is_string != bounds.dtype.is_string:
        raise TypeError(f"cannot do slice indexing on an Index of {col.dtype.name} "
                        f"with these indexers {labels!r}")
    from ember.frame._order import codes
    both, _ = codes(concat(col, bounds))
    n = col.length
    return both[:n], both[n:]


def _time_bounds(start, stop, dtype):
    """Date-like bounds of a datetime index as int ticks of its unit, by
    pandas' partial string rule: a string names a period as long as its
    precision ('2013-01' a month, '20130102' a day), the slice starting at
    its first tick and ending at its last."""
    import numpy as np
    from ember.frame._dt_parse import scalar_datetime
    unit = dtype.name[dtype.name.index("[") + 1:-1].split(",")[0]

    def ticks(x, end):
        v = scalar_datetime(x)
        if end and isinstance(x, str):   # the period's last tick
            return int((v + 1).astype(f"M8[{unit}]").astype(np.int64)) - 1
        return int(v.astype(f"M8[{unit}]").astype(np.int64))
    lo = None if start is None else ticks(start, False)
    hi = None if stop is None else ticks(stop, True)
    tz = getattr(dtype, "tz", None)
    if tz is not None:   # wall times in the index's zone: their instants (_tz.py)
        from ember.frame._tz import localize
        def utc(v, first):
            if v is None:
                return None
            return int(ember.asnumpy(localize(
                ember.asarray([v], dtype="int64"), unit, tz, ambiguous=first,
                nonexistent="shift_forward" if first else "shift_backward"))[0])
        lo, hi = utc(lo, True), utc(hi, False)
    return lo, hi


def _range_slice(r, start, stop):
    n = len(r)
    lo = 0 if start is None else math.ceil((start - r.start) / r.step)
    hi = n if stop is None else math.floor((stop - r.start) / r.step) + 1
    lo, hi = min(max(lo, 0), n), min(max(hi, 0), n)
    return lo, max(hi, lo)


def _sorted_slice(keys, bounds, start, stop, n, step):
    lo, hi, i = 0, n, 0
    if start is not None:
        lo = int(ember.searchsorted(keys, bounds[0:1], side="left")[0])
        i = 1
    if stop is not None:
        hi = int(ember.searchsorted(keys, bounds[i:i + 1], side="right")[0])
    return slice(lo, max(hi, lo), step)


def label_slice(key, index, device):
    """The positional slice that loc[key] selects."""
    from ember.frame._index import RangeIndex
    if key.step is not None and key.step < 0:
        raise NotImplementedError("loc with a label slice of negative step")
    start, stop = key.start, key.stop
    if isinstance(index, RangeIndex):
        if not all(x is None or isinstance(x, (int, float)) for x in (start, stop)):
            raise TypeError(f"cannot do slice indexing on RangeIndex with these "
                            f"indexers [{start!r}, {stop!r}]")
        lo, hi = _range_slice(index._range, start, stop)
        return slice(lo, hi, key.step)
    n = len(index)
    d = index.dtype
    if getattr(d, "kind", None) == "M":
        start, stop = _time_bounds(start, stop, d)
    given = [x for x in (start, stop) if x is not None]
    keys, bounds = _bound_positions(index, given, device)
    if n < 2 or bool((keys[1:] >= keys[:-1]).all()):
        return _sorted_slice(keys, bounds, start, stop, n, key.step)
    if bool((keys[1:] <= keys[:-1]).all()):   # decreasing: search the negation
        return _sorted_slice(-keys, -bounds, start, stop, n, key.step)
    found = []
    for j, (side, label) in enumerate([(s, x) for s, x in (("left", start),
                                                           ("right", stop))
                                       if x is not None]):
        at = ember.flatnonzero(keys == bounds[j])
        if at.shape[0] == 0:
            raise KeyError(label)
        first, last = int(at[0]), int(at[-1])
        if last - first + 1 != at.shape[0]:   # pandas takes a run of one label
            raise KeyError(f"Cannot get {side} slice bound for non-unique label: "
                           f"{label!r}")
        found.append((side, first if side == "left" else last))
    pos = dict(found)
    lo = pos.get("left", 0)
    hi = pos["right"] + 1 if "right" in pos else n
    return slice(lo, max(hi, lo), key.step)


def positional(key):
    """Whether [] takes a slice by position (int bounds, as pandas) rather
    than by label."""
    return all(x is None or isinstance(x, int) for x in (key.start, key.stop))


def name_slice(key, names):
    """The column names loc[:, a:b] selects: from a to b inclusive."""
    def at(label, side):
        if label not in names:
            raise KeyError(label)
        if names.count(label) > 1:
            raise KeyError(f"Cannot get {side} slice bound for non-unique label: "
                           f"{label!r}")
        return names.index(label)
    lo = 0 if key.start is None else at(key.start, "left")
    hi = len(names) if key.stop is None else at(key.stop, "right") + 1
    return names[lo:hi:key.step]


def partial_date(key, index, device):
    """loc[str] of a datetime index by pandas' partial string rule: a string
    naming a period longer than the labels' resolution (a day of hourly
    labels, a month of daily ones) selects the period's rows as a slice;
    None when the string is as fine as the labels (an exact label)."""
    from ember.frame._column import _NAT
    d = index.dtype
    lo, hi = _time_bounds(key, key, d)
    unit = d.name[d.name.index("[") + 1:-1].split(",")[0]
    tps = {"s": 1, "ms": 10 ** 3, "us": 10 ** 6, "ns": 10 ** 9}[unit]
    v = index._col.values
    tz = getattr(d, "tz", None)
    if tz is not None:   # the resolution of the wall times (pandas')
        from ember.frame._tz import to_local
        v = to_local(v, unit, tz)
    v = v[ember.flatnonzero(v != _NAT)]
    reso = 1
    for step in (86400 * tps, 3600 * tps, 60 * tps, tps, tps // 1000, tps // 10 ** 6):
        if step >= 1 and (v.shape[0] == 0 or not bool((v % step != 0).any())):
            reso = step
            break
    if hi - lo + 1 <= reso:   # an exact label: its rows, KeyError for none
        at = ember.flatnonzero(index._col.values == lo)
        if at.shape[0] == 0:
            raise KeyError(key)
        return "label", at
    sl = label_slice(slice(key, key), index, device)
    if sl.stop <= sl.start:   # pandas: a period wholly before or after the labels
        w = index._col.values[ember.flatnonzero(index._col.values != _NAT)]
        if w.shape[0] == 0 or hi < int(w.min()) or lo > int(w.max()):
            raise KeyError(key)
    return "slice", sl
