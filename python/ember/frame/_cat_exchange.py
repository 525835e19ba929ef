"""Categorical columns to and from pandas (Categorical: codes plus a
categories Index) and Arrow (dictionary arrays: indices plus a dictionary).
The codes travel as they are (shared on cpu from pandas), the categories as
any other column does."""
import ember

from ember.frame._column import Column
from ember.frame._dtypes import CategoricalDtype, code_storage


def from_pandas(s, device):
    """A pandas Categorical, or a Series or CategoricalIndex of one -> Column."""
    from ember.frame._pandas import column_from_pandas, pandas
    pd = pandas()
    cat = s if isinstance(s, pd.Categorical) else s.array
    cats = None
    if isinstance(cat.categories, pd.IntervalIndex):   # cut's labels (_intervals)
        from ember.frame._intervals import from_pandas as intervals
        cats = intervals(cat.categories, device)
    if cats is None:
        cats = column_from_pandas(pd.Series(cat.categories), device)
    codes = ember.asarray(cat.codes, device=device)
    return Column(CategoricalDtype(cats, cat.ordered), codes)


def to_pandas(col):
    """pandas' Categorical of the column (codes are copied to the host)."""
    from ember.frame._pandas import column_to_pandas, pandas
    from ember.frame._categorical import codes_of
    pd = pandas()
    d = col.dtype
    cats = pd.Index(column_to_pandas(d.categories))
    codes = ember.asnumpy(codes_of(col))
    dtype = pd.CategoricalDtype(cats, ordered=d.ordered)
    return pd.Categorical.from_codes(codes, dtype=dtype, validate=False)


def to_arrow(col):
    """A pyarrow DictionaryArray: the codes as indices (a null where -1),
    the categories as the dictionary."""
    from ember.frame import _bitmap
    from ember.frame._arrow import _buffer, _pa, column_to_arrow
    from ember.frame._categorical import codes_of
    pa = _pa()
    c = codes_of(col)
    null = c < 0
    validity = _bitmap.pack(~null) if col.length and bool(null.any()) else None
    t = pa.from_numpy_dtype(str(c.dtype))
    indices = pa.Array.from_buffers(t, col.length, [_buffer(validity), _buffer(c)])
    return pa.DictionaryArray.from_arrays(indices, column_to_arrow(col.dtype.categories),
                                          ordered=col.dtype.ordered, safe=False)


def from_arrow(arr, device):
    """A pyarrow DictionaryArray -> Column; the codes take pandas' width
    for the number of categories, a null index becomes -1."""
    from ember.frame import _bitmap
    from ember.frame._arrow import column_from_arrow
    dictionary = arr.dictionary
    if dictionary.null_count:
        raise NotImplementedError("an Arrow dictionary with null entries as a "
                                  "categorical (pandas' categories hold no null)")
    cats = column_from_arrow(dictionary, device)
    idx = column_from_arrow(arr.indices, device)
    codes = idx.values.astype(code_storage(cats.length))
    if idx.validity is not None:
        codes = ember.where(_bitmap.unpack(idx.validity, idx.length), codes, -1)
    return Column(CategoricalDtype(cats, arr.type.ordered), codes.astype(
        code_storage(cats.length)))
