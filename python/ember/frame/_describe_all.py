"""describe() of columns that are not numbers, and include='all': pandas'
count, unique, top and freq of each such column (an object column, its
cells a count, a string or bool, a count), beside the number columns'
statistics (NaN where a kind of column has none, as pandas fills them)."""
import numpy as np

import ember

from ember.frame._column import Column
from ember.frame._describe import LABELS, describe_column

CAT_LABELS = ["count", "unique", "top", "freq"]


def _categorical(col):
    d = col.dtype
    return d.is_string or d.kind == "b" or d.is_categorical or d.is_object


def _cat_stats(df, k, col):
    """[count, unique, top, freq] of one column: ember's count, nunique and
    value_counts (most frequent first, ties in order of appearance)."""
    from ember.frame.series import Series
    if col.dtype.is_object and col.layout == "box":   # the typed values, its nulls
        col = col.child if col.validity is None else col.child.with_validity(~col.null_mask())
    s = Series._make(col, df.index, k)
    count = int(s.count())
    if not count:
        return [0, 0, np.nan, np.nan]
    vc = s.value_counts()
    return [count, int(s.nunique()), vc.index[0], int(vc.iloc[0])]


def describe(df, include):
    """The frame pandas' describe(include=) gives: include 'all', or
    object/'O' (the non-number columns), or None on a frame without
    number columns."""
    from ember.frame._object_column import from_objects
    names = list(df._cols)
    cats = [k for k in names if _categorical(df._cols[k])]
    nums = [k for k in names if df._cols[k].dtype.is_numeric and k not in cats]
    if include == "all":
        other = [k for k in names if k not in cats and k not in nums]
        if other:
            raise NotImplementedError("describe(include='all') of datetime columns "
                                      f"({other}): describe them on their own")
        keep = names
    elif include is None:   # a frame without numbers: all of its columns
        keep, nums = cats, []
    else:   # object: str columns too, as pandas 3's select_dtypes
        keep = [k for k in cats if df._cols[k].dtype.is_string or df._cols[k].dtype.is_object]
        nums = []
    if not keep:
        raise ValueError("No objects to concatenate")
    if nums and cats:
        labels = CAT_LABELS + LABELS[1:]
    else:
        labels = LABELS if nums else CAT_LABELS
    dev = df._device()
    out = {}
    for k in keep:
        col = df._cols[k]
        if k in cats:   # a few host scalars: pandas' object cells
            out[k] = from_objects(_cat_stats(df, k, col) + [np.nan] * (len(labels) - 4),
                                  dev)
            continue
        stats = dict(zip(LABELS, ember.asnumpy(describe_column(col)[0].values).tolist()))
        values = np.asarray([stats.get(lab, np.nan) for lab in labels], np.float64)
        out[k] = Column("float64", ember.asarray(values, device=dev))
    return type(df)._make(out, df._labels(labels))
