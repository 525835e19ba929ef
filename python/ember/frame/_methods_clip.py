"""Series.clip: bounds that are scalars or Series on the same index (a
null bound leaves its row unclipped, as in pandas)."""
import ember

from ember.frame._column import Column


def _bound(series, b, what):
    """(values, usable rows or None) of one bound."""
    if b is None:
        return None, None
    if hasattr(b, "_col"):
        series._check_aligned(b, "clip")
        c = b._col
        if not c.dtype.is_numeric:
            raise TypeError(f"clip {what} bound of dtype {c.dtype.name}")
        nulls = c.null_mask()
        return c.values, (None if nulls is None else ~nulls)
    if isinstance(b, (list, tuple)) or hasattr(b, "shape"):
        raise NotImplementedError("clip with a list or array bound (supported: "
                                  "scalars and Series)")
    if isinstance(b, bool) or not isinstance(b, (int, float)) and not hasattr(
            b, "dtype"):
        raise TypeError(f"clip {what} bound {b!r}: a number or a Series")
    if b != b:   # NaN: no bound (pandas)
        return None, None
    return b, None


def clip(series, lower, upper):
    col = series._col
    d = col.dtype
    if d.kind in "Mm":
        raise NotImplementedError(f"clip of a {d.name} Series (supported: numbers)")
    if not d.is_numeric or d.is_categorical or d.kind == "b":
        raise TypeError(f"clip of a {d.name} Series")
    v = col.values
    for b, what, op in ((lower, "lower", ember.maximum), (upper, "upper", ember.minimum)):
        bv, ok = _bound(series, b, what)
        if bv is None:
            continue
        if d.masked and v.dtype.kind in "iu" and isinstance(bv, float) and \
                bv != int(bv):
            raise TypeError(f"Invalid value '{bv}' for dtype '{d.name}'")
        clipped = op(v, bv)
        if isinstance(bv, ember.ndarray):
            keep = ember.isnan(bv) if bv.dtype.kind == "f" else None
            if ok is not None:
                keep = ~ok if keep is None else keep | ~ok
            if keep is not None:
                clipped = ember.where(keep, v.astype(clipped.dtype), clipped)
        if v.dtype.kind == "f":   # NaN rows stay NaN
            clipped = ember.where(ember.isnan(v), v, clipped)
        v = clipped
    dtype = d if str(v.dtype) == d.storage else (
        str(v.dtype) if not d.masked else None)
    if dtype is None:
        from ember.frame._dtypes import masked_form
        dtype = masked_form(str(v.dtype))
    return Column(dtype, v, col.validity)
