"""read_csv's parse_dates: ISO 8601 dates and times converted on the
device by em_csv_parse (EM_CSV_DATETIME). pandas infers one format from
the column and keeps the column as strings when a value does not fit it;
so does this, by the forms' codes the kernel reports."""
import ember

from ember.frame._column import Column

_NA_CODE = 255
_FORM = 31   # the code's bits that make the format; 32 says nanoseconds


def date_codes(f, col, na):
    """Column col's values as ns since the epoch (NaT where none), each
    value's form code, and the count of each code (host NumPy)."""
    import numpy as np
    dev = f.buf.device
    ns = ember.empty(f.nrows, dtype="int64", device=dev)
    code = ember.empty(f.nrows, dtype="uint8", device=dev)
    f.parse(col, 8, na, out=ns, cls=code)
    if f.missing is not None:
        code = ember.where(f.missing[:, col], _NA_CODE, code).astype("uint8")
        ns = ember.where(f.missing[:, col], -(2 ** 63), ns)
    counts = ember.asnumpy(ember.bincount(code, minlength=256)) if f.nrows else \
        np.zeros(256, np.int64)
    return ns, code, counts


def unit_of(counts):
    """'us' or 'ns' when every value has one ISO form (pandas' inferred
    format), else None (the column stays strings)."""
    forms = {c & _FORM for c in range(255) if counts[c]}
    if len(forms) > 1 or 0 in forms:
        return None
    return "ns" if any(counts[c] for c in range(255) if c & 32) else "us"


def finish(ns, code, unit):
    if unit == "ns":
        return Column("datetime64[ns]", ns)
    return Column("datetime64[us]", ember.where(code == _NA_CODE, -(2 ** 63), ns // 1000))


def dates_column(f, col, na, fallback):
    """Column col as datetime64[us] (datetime64[ns] when a fraction has
    over 6 digits), or fallback() when its values are not all of one ISO
    form (pandas keeps them as strings then)."""
    ns, code, counts = date_codes(f, col, na)
    unit = unit_of(counts)
    return fallback() if unit is None else finish(ns, code, unit)
