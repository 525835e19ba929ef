"""The DataFrame operations that repeated column labels change
(_dup_labels.py says how they are kept): selecting the columns of
a repeated label or by a bool mask over the columns, and the pandas
frame such a frame becomes."""
import numpy as np

import ember

from ember.frame import _dup_labels as _dup


def select(df, keys):
    """The columns of these keys (each the key of one column), in order; a
    key named twice gives its column twice, as pandas' df[['a', 'a']]."""
    pairs = [(_dup.label(k), df._cols[k]) for k in keys]
    return type(df)._make(_dup.rekeyed(pairs), df._index)


def select_mask(df, mask):
    """loc[:, mask]: the columns where mask is True (the mask is one bool a
    column: host bookkeeping of the column list, as pandas does it)."""
    if isinstance(mask, ember.ndarray):
        mask = ember.asnumpy(mask)
    elif type(mask).__module__.split(".")[0] == "ember":   # an ember Series or Index
        mask = ember.asnumpy(mask._col.values if hasattr(mask, "_col") else mask)
    m = np.asarray(mask, dtype=bool)
    keys = list(df._cols)
    if m.shape != (len(keys),):
        raise IndexError(f"Boolean index has wrong length: {m.shape[0]} instead of "
                         f"{len(keys)}")
    return select(df, [k for k, ok in zip(keys, m.tolist()) if ok])


def to_pandas(df, pd, index):
    """A pandas frame whose columns repeat labels: built column by position
    (a dict cannot hold the repeats), then given its labels."""
    from ember.frame._pandas import column_to_pandas, held_as
    series = [pd.Series(column_to_pandas(c), index=index, copy=False, dtype=held_as(c))
              for c in df._cols.values()]
    out = pd.concat(series, axis=1, ignore_index=True)
    out.columns = pd.Index(_dup.labels(df._cols), name=df._colname
                           if not isinstance(df._colname, list) else None)
    return out
