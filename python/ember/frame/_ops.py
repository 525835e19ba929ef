"""Arithmetic, comparisons and logic between columns and scalars, with
pandas' null rules: NaN/NaT propagate through the values; a nullable
operand makes a nullable result whose validity is both operands'."""
import ember

from ember.frame import _bitmap
from ember.frame._column import Column
from ember.frame._dtypes import lookup, masked_form

ARITH = {"add": ember.add, "sub": ember.subtract, "mul": ember.multiply,
         "truediv": ember.true_divide, "floordiv": ember.floor_divide,
         "mod": ember.remainder, "pow": ember.power}
COMPARE = {"eq": ember.equal, "ne": ember.not_equal, "lt": ember.less,
           "le": ember.less_equal, "gt": ember.greater, "ge": ember.greater_equal}
LOGIC = ("and", "or", "xor")


def _valid(col):
    """The validity as bool, or None when every row is valid."""
    if col.validity is None:
        return None
    return _bitmap.unpack(col.validity, col.length)


def _and(a, b):
    if a is None:
        return b
    return a if b is None else a & b


def _scalar_ok(x):
    return isinstance(x, (bool, int, float)) or type(x).__module__ == "numpy"


def _time_scalar(d, x):
    """A Timestamp, Timedelta, datetime or numpy datetime64 as the int64
    count of the column's unit (NaT as its sentinel)."""
    import numpy as np
    unit = d.name[d.name.index("[") + 1:-1].split(",")[0]   # a zone after the unit
    kind = "M8" if d.kind == "M" else "m8"
    if d.kind == "M":   # aware and naive times meet only as pandas lets them (_tz.py)
        from ember.frame._tz import scalar_utc
        x = scalar_utc(x, d)
    try:
        return np.int64(np.asarray(x).astype(f"{kind}[{unit}]").view(np.int64))
    except (TypeError, ValueError):
        raise TypeError(f"cannot compare a {d.name} column with "
                        f"{type(x).__name__}") from None


def binary(op, a, b, reflected=False):
    """a op b for a Column `a` and a Column or Python scalar `b`."""
    if isinstance(b, Column) and a.length != b.length:
        raise ValueError(f"lengths must match: {a.length} and {b.length}")
    if op in ("add", "sub") and not isinstance(b, Column):
        from ember.frame._offsets import apply, is_offset
        if is_offset(b):   # pandas' or ember's date offsets (_offsets.py)
            return apply(a, b, op, reflected)
    if op in ("eq", "ne") and (a.dtype.is_object or (isinstance(b, Column) and
                                                   b.dtype.is_object)):
        from ember.frame._object_keys import compare
        return compare(op, a, b)
    if a.dtype.is_categorical or (isinstance(b, Column) and b.dtype.is_categorical):
        from ember.frame._categorical import compare
        return compare(op, a, b)
    if a.dtype.is_string or (isinstance(b, Column) and b.dtype.is_string) \
            or isinstance(b, str):
        return _string_op(op, a, b, reflected)
    if op in ("add", "sub") and (a.dtype.kind in "Mm" or (
            isinstance(b, Column) and b.dtype.kind in "Mm")):
        from ember.frame._time_ops import time_arith
        return time_arith(op, a, b, reflected)
    if a.dtype.kind in "Mm" and not isinstance(b, Column) and not _scalar_ok(b):
        b = _time_scalar(a.dtype, b)
    if not isinstance(b, Column) and not _scalar_ok(b):
        raise TypeError(f"unsupported operand for {op}: {type(b).__name__}")
    for c in (a, b):
        if isinstance(c, Column) and c.dtype.kind in "Mm" and op not in COMPARE:
            raise NotImplementedError(f"{op} of {c.dtype.name} columns is not "
                                      "supported yet")
    bv = b.values if isinstance(b, Column) else b
    x, y = (bv, a.values) if reflected else (a.values, bv)
    masked = a.dtype.masked or (isinstance(b, Column) and b.dtype.masked)
    valid = _and(_valid(a), _valid(b) if isinstance(b, Column) else None)
    if masked and op not in LOGIC:
        valid = _and(valid, _not_nan(a, b))
    if op in LOGIC:
        return _logic(op, a, b, a.values, bv)   # commutative
    if op in COMPARE:
        out = COMPARE[op](x, y)
        if masked:
            return Column("boolean", out, None if valid is None else _bitmap.pack(valid))
        if a.dtype.kind in "Mm":   # NaT compares as a null: only != holds
            nulls = a.null_mask()
            if isinstance(b, Column) and b.dtype.kind in "Mm":
                nulls = nulls | b.null_mask()
            out = ember.where(nulls, op == "ne", out)
        return Column("bool", out)
    if a.dtype.kind == "b" and (not isinstance(b, Column) or b.dtype.kind == "b") \
            and op in ("sub", "truediv", "floordiv", "mod", "pow"):
        raise TypeError(f"operator {op} is not supported for bool columns")
    if masked and valid is not None and op in ("truediv", "floordiv", "mod", "pow"):
        # keep the null rows' values from raising or warning: give them 1
        x = ember.where(valid, x, 1) if isinstance(x, ember.ndarray) else x
        y = ember.where(valid, y, 1) if isinstance(y, ember.ndarray) else y
    if op in ("floordiv", "mod") and not masked and _int_by_zero(x, y):
        # pandas: an integer // 0 is inf, -inf or NaN, % 0 is NaN, so the
        # result is float64 when a divisor is 0
        x = x.astype("float64") if isinstance(x, ember.ndarray) else float(x)
        y = y.astype("float64") if isinstance(y, ember.ndarray) else float(y)
    out = ARITH[op](x, y)
    if masked:
        if out.dtype.kind == "f":   # pandas 3: a NaN result of a masked op is NA
            valid = _and(valid, ~ember.isnan(out))
        return Column(masked_form(out.dtype), out,
                      None if valid is None else _bitmap.pack(valid))
    return Column(str(out.dtype), out)


def _not_nan(a, b):
    """Where a nullable result meets a plain float operand, pandas reads
    its NaN as NA: the rows where neither operand is NaN (None if all)."""
    valid = None
    for c in (a, b):
        if isinstance(c, Column) and c.dtype.kind == "f" and not c.dtype.masked:
            valid = _and(valid, ~ember.isnan(c.values))
        elif isinstance(c, float) and c != c:
            valid = ember.zeros(a.length, dtype="bool", device=a.device)
    return valid


def _int_by_zero(x, y):
    def is_int(v):
        return (v.dtype.kind in "iu") if isinstance(v, ember.ndarray) else (
            isinstance(v, int) and not isinstance(v, bool))
    if not (is_int(x) and is_int(y)):
        return False
    return bool((y == 0).any()) if isinstance(y, ember.ndarray) else y == 0


def _logic(op, a, b, x, y):
    """&, |, ^ with Kleene's rules for the nullable boolean dtype (True | NA
    is True, False & NA is False)."""
    if a.dtype.kind != "b" or (isinstance(b, Column) and b.dtype.kind != "b"):
        ufunc = {"and": ember.bitwise_and, "or": ember.bitwise_or,
                 "xor": ember.bitwise_xor}[op]
        if a.dtype.masked or (isinstance(b, Column) and b.dtype.masked):
            raise NotImplementedError(f"{op} of nullable integer columns")
        out = ufunc(x, y)
        return Column(str(out.dtype), out)
    va = _valid(a)
    vb = _valid(b) if isinstance(b, Column) else None
    masked = a.dtype.masked or (isinstance(b, Column) and b.dtype.masked)
    xa = x if va is None else x & va
    yb = y if vb is None or not isinstance(y, ember.ndarray) else y & vb
    both = _and(va, vb)
    if op == "xor":
        out, valid = ember.logical_xor(x, y), both
    elif op == "or":   # a valid True decides the row
        out = ember.logical_or(xa, yb)
        valid = None if both is None else out | both
    else:              # a valid False decides the row
        xs = x if va is None else x | ~va
        ys = y if vb is None or not isinstance(y, ember.ndarray) else y | ~vb
        out = ember.logical_and(xs, ys)
        valid = None if both is None else ~out | both
    if masked:
        return Column("boolean", out, None if valid is None else _bitmap.pack(valid))
    return Column("bool", out)


def _string_op(op, a, b, reflected=False):
    from ember.frame import _strings
    if op in ("add", "mul") and a.dtype.is_string:
        from ember.frame._str_build import arith
        return arith(op, a, b, reflected)
    if op not in ("eq", "ne"):
        raise NotImplementedError(f"{op} of str columns is not supported yet "
                                  "(only ==, !=, + and * by an int)")
    if isinstance(b, Column):
        if not (a.dtype.is_string and b.dtype.is_string):
            out = ember.zeros(a.length, dtype="bool", device=a.device)
        else:
            out = _strings.equal_columns(a, b)
        valid = _and(_valid(a), _valid(b))
        na = a.dtype.name == "string" or b.dtype.name == "string"
    elif isinstance(b, str) and a.dtype.is_string:
        out = _strings.equal_scalar(a, b)
        valid, na = _valid(a), a.dtype.name == "string"
    else:
        out = ember.zeros(a.length, dtype="bool", device=a.device)
        valid, na = _valid(a), a.dtype.name == "string"
    if op == "ne":
        out = ~out
    if na:
        return Column("boolean", out, None if valid is None else _bitmap.pack(valid))
    if valid is not None and op == "ne":
        out = out | ~valid
    return Column("bool", out)


def invert(col):
    if col.dtype.kind not in "biu":
        raise TypeError(f"bad operand type for unary ~: {col.dtype.name}")
    return Column(col.dtype, ~col.values, col.validity)


def negate(col):
    if col.dtype.kind not in "iuf":
        raise TypeError(f"bad operand type for unary -: {col.dtype.name}")
    return Column(col.dtype, -col.values, col.validity)


def fill_nulls(col, value):
    nulls = col.null_mask()
    if nulls is None:
        return col
    if col.dtype.is_object:
        from ember.frame._object_keys import fillna
        return fillna(col, value)
    if col.dtype.is_categorical:
        from ember.frame._categorical import fillna
        return fillna(col, value)
    if col.dtype.is_string:   # the where of strings: a str value fills them
        from ember.frame._where import choose
        return choose(col, ~nulls, value, "fillna")
    if col.dtype.kind in "Mm" and (hasattr(value, "year") or hasattr(value, "days") or
                                   type(value).__name__ in ("datetime64", "timedelta64")):
        value = _time_scalar(col.dtype, value)   # a Timestamp's count (an aware one's UTC)
    v = ember.where(nulls, value, col.values)
    d = col.dtype
    if d.kind in "Mm" and str(v.dtype) == "int64":
        return Column(d, v)
    if str(v.dtype) != d.storage:
        d = lookup(str(v.dtype)) if not d.masked else masked_form(v.dtype)
    return Column(d, v)
