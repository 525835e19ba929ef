"""One row of a DataFrame as a Series (df.iloc[i], df.loc[label]): the
columns' values at that row in the dtype pandas gives them together,
indexed by the column names and named by the row's label."""
import ember

from ember.frame import _bitmap
from ember.frame._column import Column, concat
from ember.frame._dtypes import masked_form


def _common(dtypes):
    """The dtype pandas' row of these columns has, or None (object)."""
    import numpy as np
    names = {d.name for d in dtypes}
    if len(names) == 1:
        return dtypes[0]
    if all(d.kind in "iuf" for d in dtypes):
        common = np.result_type(*[d.storage for d in dtypes]).name
        return masked_form(common) if any(d.masked for d in dtypes) else _plain(common)
    if all(d.kind == "b" for d in dtypes):
        return masked_form("bool")     # bool with boolean
    return None


def _plain(name):
    from ember.frame._dtypes import lookup
    return lookup(name)


def frame_row(df, p):
    from ember.frame.series import Series
    dev = df._device()
    pos = ember.asarray([p], dtype="int64", device=dev) if isinstance(p, int) else p
    cols = [c.take(pos) for c in df._cols.values()]
    d = _common([c.dtype for c in cols]) if cols else _plain("float64")
    if d is None:
        kinds = ", ".join(sorted({c.dtype.name for c in cols}))
        raise NotImplementedError(f"one row of a DataFrame of mixed dtypes ({kinds}) as a "
                                  "Series: pandas makes an object Series, which ember.frame "
                                  "does not hold; use iloc[[i]] or loc[[label]] for a "
                                  "one-row DataFrame")
    if not cols:
        col = Column(d, ember.zeros(0, dtype="float64", device=dev))
    elif d.is_string:
        col = cols[0]
        for c in cols[1:]:
            col = concat(col, c)
        col = Column(d, col.values, col.validity, col.offsets, col.length)
    else:
        values = ember.concatenate([c.values.astype(d.storage) for c in cols])
        valid = None
        if d.masked:
            valid = _bitmap.pack(ember.concatenate([~c.isna() for c in cols]))
        col = Column(d, values, valid)
    label = df.index.take(pos).tolist()[0]
    return Series._make(col, df._labels(list(df._cols)), label)
