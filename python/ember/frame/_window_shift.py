"""Cumulative and row-shift functions of one column: cumsum, cumprod,
cummin, cummax (as scans), shift, diff and pct_change, with pandas'
dtypes and null rules."""
import ember
import ember.parallel as P

from ember.frame import _bitmap
from ember.frame._column import Column, _NAT
from ember.frame._dtypes import masked_form
from ember.frame._ops import _time_scalar

_CUM = {"cumsum": "add", "cumprod": "mul", "cummin": "min", "cummax": "max"}


def cumulative(col, how, skipna=True):
    """col's running sum, product, min or max; a null stays null and is
    skipped (skipna) or makes every later row null."""
    d = col.dtype
    if d.is_string or (d.kind == "M" and how in ("cumsum", "cumprod")) or \
            (d.kind == "m" and how == "cumprod"):
        raise TypeError(f"{how} of a {d.name} column is not supported")
    nulls = col.null_mask()
    v = col.values
    if d.kind == "b" and how in ("cumsum", "cumprod"):
        v = v.astype("int64")
    elif d.kind in "iu" and how in ("cumsum", "cumprod"):
        v = v.astype("uint64" if d.kind == "u" else "int64")
    op = _CUM[how]
    if nulls is None:
        out = P.inclusive_scan(v, op) if how in ("cummin", "cummax") else \
            (ember.cumsum(v) if how == "cumsum" else ember.cumprod(v))
        return Column(_result_dtype(d, out), out, col.validity)
    identity = {"add": 0, "mul": 1}.get(op)
    if identity is None:   # the extreme of the dtype never wins a min/max
        identity = _extreme(v.dtype, op)
    filled = ember.where(nulls, identity, v).astype(v.dtype)
    out = P.inclusive_scan(filled, op) if op in ("min", "max") else \
        (ember.cumsum(filled) if op == "add" else ember.cumprod(filled))
    bad = nulls if skipna else ember.cumsum(nulls, dtype="int64") > 0
    return _with_nulls(Column(_result_dtype(d, out), out, col.validity), bad)


def _extreme(dtype, op):
    import numpy as np
    t = np.dtype(str(dtype))
    if t.kind == "f":
        return float("inf") if op == "min" else float("-inf")
    if t.kind == "b":
        return op == "min"
    info = np.iinfo(t)
    return int(info.max) if op == "min" else int(info.min)


def _result_dtype(d, out):
    if d.kind in "Mm":
        return d
    return masked_form(out.dtype) if d.masked else str(out.dtype)


def _with_nulls(col, bad):
    """col with the rows where `bad` null: NaN/NaT in the values of plain
    dtypes, the bitmap for nullable ones."""
    d = col.dtype
    if bad is None:
        bad = ember.zeros(col.length, dtype="bool", device=col.device)
    if d.masked:
        valid = ~bad if col.validity is None else \
            _bitmap.unpack(col.validity, col.length) & ~bad
        return col.with_validity(valid)
    if d.kind in "Mm":
        return Column(d, ember.where(bad, _NAT, col.values))
    values = col.values
    if values.dtype.kind != "f":
        values = values.astype("float64")
    return Column(str(values.dtype), ember.where(bad, float("nan"), values))


def _slide(v, p, fill):
    """v moved down by p rows (up when p < 0), fill in the rows it leaves."""
    n = v.shape[0]
    k = min(abs(p), n)
    pad = ember.full(k, fill, dtype=v.dtype, device=v.device)
    return ember.concatenate([pad, v[:n - k]] if p > 0 else [v[k:], pad])


def shift(col, periods=1, fill_value=None):
    """The rows moved down by `periods` (up when negative); the rows that
    come from outside are null, or fill_value (nulls moved in stay)."""
    n = col.length
    if not isinstance(periods, int) or isinstance(periods, bool):
        raise TypeError(f"periods must be an integer, not {type(periods).__name__}")
    d = col.dtype
    if periods == 0:
        return col.copy()
    if d.is_categorical:   # codes slide; -1 (null) or the fill's code comes in
        from ember.frame._categorical import codes_of, fill_code
        return Column(d, _slide(codes_of(col), periods, fill_code(col, fill_value)))
    if d.is_string:
        if fill_value is not None:
            raise NotImplementedError("shift of a str column with fill_value")
        i = ember.arange(n, dtype="int64", device=col.device) - periods
        outside = (i < 0) | (i >= n)
        moved = col.take(ember.clip(i, 0, max(n - 1, 0))) if n else col
        valid = ~outside if moved.validity is None else \
            _bitmap.unpack(moved.validity, n) & ~outside
        return moved.with_validity(valid)
    if d.kind == "b" and not d.masked and fill_value is None:
        raise NotImplementedError("shift of a bool column without fill_value "
                                  "(pandas makes an object column)")
    v = col.values
    if d.masked:
        valid = _slide(~col.isna(), periods, fill_value is not None)
        fill = 0 if fill_value is None else fill_value
        values = _slide(v, periods, fill) if _fits(d, fill) else \
            _slide(v.astype("float64"), periods, fill)
        kind = d if str(values.dtype) == d.storage else masked_form(values.dtype)
        return Column(kind, values, _bitmap.pack(valid))
    if d.kind in "Mm":
        fill = _NAT if fill_value is None else (
            fill_value if isinstance(fill_value, int) else int(_time_scalar(d, fill_value)))
        return Column(d, _slide(v, periods, fill))
    fill = float("nan") if fill_value is None else fill_value
    if not _fits(d, fill):
        v = v.astype("float64")
    return Column(str(v.dtype), _slide(v, periods, fill))


def _fits(d, fill):
    """Whether the values' dtype holds the fill (else they become float64,
    as pandas does, with a deprecation warning)."""
    if d.kind == "f":
        return True
    if isinstance(fill, float):
        return False
    return d.kind != "b" or isinstance(fill, bool)


def diff(col, periods=1):
    d = col.dtype
    if d.is_string or d.kind == "b":
        raise TypeError(f"diff of a {d.name} column is not supported"
                        + (" (pandas makes an object column)" if d.kind == "b" else ""))
    prev = shift(col, periods)
    if d.kind == "M":
        unit = "[" + d.name[d.name.index("[") + 1:-1].split(",")[0] + "]"
        nulls = col.null_mask() | prev.null_mask()
        out = ember.where(nulls, _NAT, col.values - prev.values)
        return Column("timedelta64" + unit, out)
    if d.kind == "m":
        nulls = col.null_mask() | prev.null_mask()
        return Column(d, ember.where(nulls, _NAT, col.values - prev.values))
    from ember.frame._ops import binary
    if not d.masked and d.kind == "u":   # pandas subtracts in the dtype (wrapping)
        out = (col.values - prev.values.astype(d.storage)).astype("float64")
        return _with_nulls(Column("float64", out), prev.null_mask())
    if not d.masked and d.kind == "i":
        t = "float32" if d.storage in ("int8", "int16") else "float64"
        col = Column(t, col.values.astype(t))
        prev = Column(t, prev.values.astype(t))
    return binary("sub", col, prev)


def pct_change(col, periods=1, fill_method=None):
    if fill_method is not None:
        raise ValueError(f"fill_method must be None; got fill_method={fill_method!r}.")
    d = col.dtype
    if d.kind not in "iuf":
        raise TypeError(f"pct_change of a {d.name} column is not supported")
    from ember.frame._ops import binary
    if not d.masked and d.kind in "iu":
        col = Column("float64", col.values.astype("float64"))
    ratio = binary("truediv", col, shift(col, periods))
    return binary("sub", ratio, 1)
