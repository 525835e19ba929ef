"""Reductions of one column to a scalar, as pandas gives them: nulls
skipped (skipna=True) or making the result null, NumPy scalars for plain
results, pd.NA (when pandas is loaded) for a null of a nullable dtype."""
import ember

from ember.frame._dtypes import masked_form

NUMERIC = ("sum", "prod", "mean", "std", "var", "min", "max")


def na():
    """pandas' NA when pandas is present, else None."""
    try:
        from pandas import NA
        return NA
    except ImportError:
        return None


def _np_scalar(x, dtype=None):
    import numpy as np
    v = ember.asnumpy(x)[()] if isinstance(x, ember.ndarray) else x
    return np.dtype(dtype).type(v) if dtype is not None else v


def reduce(col, how, skipna=True, ddof=1, min_count=0):
    import numpy as np
    d = col.dtype
    if d.is_categorical:
        from ember.frame._categorical import reduce as cat_reduce
        return cat_reduce(col, how, skipna)
    if how == "count":
        nulls = col.null_mask()
        return np.int64(col.length - (int(nulls.sum()) if nulls is not None else 0))
    if d.is_string and how in ("min", "max"):
        return _string_extreme(col, how, skipna)
    if d.is_string or (d.kind in "Mm" and how not in ("min", "max")):
        raise TypeError(f"{how} of a {d.name} column is not supported"
                        + (" (only count, min, max)" if d.kind in "Mm" else ""))
    nulls = col.null_mask()
    values = col.values
    if nulls is not None:
        if not skipna and bool(nulls.any()):
            return _null(d, how)
        values = values[~nulls]
    n = values.shape[0]
    if how in ("sum", "prod"):
        if n < min_count:
            return _null(d, how)
        acc = "int64" if d.kind in "bi" else ("uint64" if d.kind == "u" else None)
        r = values.sum(dtype=acc) if how == "sum" else values.prod(dtype=acc)
        return _np_scalar(r)
    if how in ("min", "max"):
        if n == 0:
            return _null(d, how)
        r = values.min() if how == "min" else values.max()
        if getattr(d, "tz", None) is not None:   # an aware Timestamp (_tz.py)
            from ember.frame._tz import scalar
            return scalar(int(r), d)
        if d.kind in "Mm":
            return np.array(int(r), dtype=np.int64).view(d.name)[()]
        return _np_scalar(r)
    if how == "mean":
        if n == 0:
            return _null(d, how)
        r = values.astype("float64").mean() if d.kind != "f" else values.mean()
        return _np_scalar(r)
    if how in ("std", "var"):
        if n - ddof <= 0:
            return _null(d, how)
        v = values.astype("float64") if d.kind != "f" else values
        r = v.var(ddof=ddof) if how == "var" else v.std(ddof=ddof)
        return _np_scalar(r)
    raise NotImplementedError(f"the reduction {how!r} (supported: count, "
                              + ", ".join(NUMERIC) + ")")


def _string_extreme(col, how, skipna):
    """The least or greatest string (by code point, as Python and pandas
    compare), from the rows' ordered codes: one position found on the
    device, one string to the host."""
    from ember.frame._order import codes
    from ember.frame._strings import to_pylist
    c, k = codes(col)
    if k == 0 or (not skipna and bool((c < 0).any())):
        # pandas' str dtype's null is a float NaN, string's NA
        return float("nan") if col.dtype.na_is_nan else na()
    # nulls (-1) must lose a min: they are lifted past every code
    pos = ember.argmin(ember.where(c < 0, k, c)) if how == "min" else ember.argmax(c)
    return to_pylist(col.take(ember.reshape(pos, (1,)).astype("int64")))[0]


def _null(d, how):
    import numpy as np
    if d.masked:
        return na()
    if d.kind in "Mm":
        return np.array(-(2 ** 63), dtype=np.int64).view(d.name.split(",")[0] + "]"
                                                          if "," in d.name else d.name)[()]
    return np.float64("nan") if d.kind != "f" or how in ("mean", "std", "var") \
        else np.dtype(d.storage).type("nan")


def result_dtype(col, how):
    """The dtype pandas gives a reduction's result in a Series of them."""
    import numpy as np
    d = col.dtype
    if how == "count":
        return "int64"
    if how in ("mean", "std", "var"):
        t = d.storage if d.kind == "f" else "float64"
    elif how in ("sum", "prod"):
        t = "int64" if d.kind in "bi" else ("uint64" if d.kind == "u" else d.storage)
    else:
        t = d.storage if d.kind not in "Mm" else d.name
    if d.masked and d.kind != "U":
        return masked_form(np.dtype(t).name).name
    return t
