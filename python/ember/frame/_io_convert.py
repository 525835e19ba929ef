"""read_csv's typing and conversion of a column's fields, by the
em_csv_parse kernel: one classifying pass that also writes each number's
value (for every column at once where it can), one host read of the
classes' histogram to pick pandas' dtype, and more passes only for
booleans and strings (lengths, then the bytes)."""
import ember

from ember.frame import _bitmap
from ember.frame._column import Column

# em_csv_parse's class bits and modes (ember/csv.h)
NA, NOT_INT, NOT_FLOAT, NOT_BOOL, NOT_UINT, SLOW, BIGINT = 1, 2, 4, 8, 16, 32, 64
CLASSIFY, BOOL, STRLEN, STRCOPY, BLANK = 0, 3, 4, 5, 7

# pandas' default NA strings (pandas.io.parsers: STR_NA_VALUES)
DEFAULT_NA = ("", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan",
              "1.#IND", "1.#QNAN", "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a",
              "nan", "null")


def _ext():
    from ember import _ember
    return _ember


def na_table(strings, device):
    """The NA strings as (bytes, int64 offsets) on the device."""
    import numpy as np
    enc = [s.encode("utf-8") for s in sorted(set(strings))]
    off = np.zeros(len(enc) + 1, dtype=np.int64)
    off[1:] = np.cumsum([len(b) for b in enc]) if enc else []
    data = np.frombuffer(b"".join(enc) or b"\0", dtype=np.uint8)
    return ember.asarray(data, device=device), ember.asarray(off, device=device)


class Fields:
    """Where one block of a file's fields lies: the bytes, the field ends
    (and starts, when the rows were made regular by gathers), the first
    field of the block, its rows and columns."""
    __slots__ = ("buf", "starts", "ends", "base", "nrows", "ncols", "quote", "missing")

    def __init__(self, buf, starts, ends, base, nrows, ncols, quote, missing=None):
        self.buf, self.starts, self.ends, self.base = buf, starts, ends, base
        self.nrows, self.ncols, self.quote, self.missing = nrows, ncols, quote, missing

    def parse(self, col, mode, na, out=None, cls=None, soff=None):
        _ext()._csv_parse(self.buf, self.starts, self.ends, self.base, self.nrows,
                          self.ncols, col, self.quote, mode, na[0], na[1], out, cls, soff)


def classify(f, col, na):
    """The class bits of each row of column col (uint8), the rows' values
    as 8 bytes (int64 bits for int rows, uint64 for uint rows, float64
    otherwise), and the count of rows of each class value (host NumPy)."""
    import numpy as np
    dev = f.buf.device
    cls = ember.empty(f.nrows, dtype="uint8", device=dev)
    vals = ember.empty(f.nrows, dtype="int64", device=dev)
    f.parse(col, CLASSIFY, na, out=vals, cls=cls)
    if f.missing is not None:   # a short row's missing fields are nulls
        cls = ember.where(f.missing[:, col], NA, cls).astype("uint8")
    counts = ember.asnumpy(ember.bincount(cls, minlength=128)) if f.nrows else \
        np.zeros(128, np.int64)
    return cls, vals, counts


def classify_all(f, na):
    """classify of every column at once (one pass over the rows, so the
    bytes are read once rather than once a column): a list of
    (cls, vals, counts) by column."""
    dev = f.buf.device
    n, k = f.nrows, f.ncols
    cls = ember.empty((k, n), dtype="uint8", device=dev)
    vals = ember.empty((k, n), dtype="int64", device=dev)
    _ext()._csv_parse(f.buf, f.starts, f.ends, f.base, n, k, -1, f.quote, CLASSIFY,
                      na[0], na[1], vals, cls, None)
    if f.missing is not None:
        cls = ember.where(f.missing.T, NA, cls).astype("uint8")
    # one host read for every column's histogram
    counts = ember.asnumpy(ember.stack([ember.bincount(cls[c], minlength=128)
                                        for c in range(k)]))
    return [(cls[c], vals[c], counts[c]) for c in range(k)]


def infer(counts, name):
    """pandas' dtype for a column whose classes were counted."""
    has_na = counts[NA] > 0
    present = [c for c in range(128) if counts[c] and c != NA]
    bits = 0
    for c in present:
        bits |= c
    if not present:
        return "float64"
    if not bits & NOT_INT:
        return "float64" if has_na else "int64"
    if all(c & BIGINT or not c & NOT_INT for c in present):
        raise NotImplementedError(f"read_csv: column {name!r} holds integers beyond "
                                  "uint64, which pandas reads as Python ints (object); "
                                  "pass dtype={...: 'float64'} or 'str'")
    if not bits & NOT_UINT and not has_na:
        return "uint64"
    if not bits & NOT_FLOAT:
        return "float64"
    if not bits & NOT_BOOL:
        if has_na:
            raise NotImplementedError(
                f"read_csv: column {name!r} holds booleans and missing values, which "
                "pandas reads as object; pass dtype={...: 'boolean'}")
        return "bool"
    return "str"


def convert(f, col, na, cls, vals, counts, want, name):
    """The Column of column col as dtype `want` (a Dtype, or None to
    infer pandas' one), from classify's results."""
    from ember.frame._dtypes import lookup
    from ember.frame._convert import astype
    dev = f.buf.device
    n = f.nrows
    d = lookup(want) if want is not None else lookup(infer(counts, name))
    nulls = cls == NA
    has_na = bool(counts[NA])
    if d.is_string:
        return _strings(f, col, na, nulls if has_na else None, d)
    if d.kind == "b":
        _check_parsed(counts, NOT_BOOL, name, d)
        out = ember.empty(n, dtype="bool", device=dev)
        f.parse(col, BOOL, na, out=out)
        return _nullable(Column("bool", out), nulls if has_na else None, d, name)
    if d.kind == "i":
        _check_parsed(counts, NOT_INT, name, d)
        return _nullable(Column("int64", vals), nulls if has_na else None, d, name)
    if d.kind == "u":
        _check_parsed(counts, NOT_UINT, name, d)
        return _nullable(Column("uint64", vals.view("uint64")),
                         nulls if has_na else None, d, name)
    if d.kind == "f":
        _check_parsed(counts, NOT_FLOAT, name, d)
        c = Column("float64", _floats(f, col, cls, vals, counts))
        return c if d.name == "float64" else astype(c, d)
    raise NotImplementedError(f"read_csv: dtype {d.name} (supported: bool, integers, "
                              "floats, their nullable forms, str, string)")


def _floats(f, col, cls, vals, counts):
    """classify's values as float64: int and uint rows converted (exactly
    as strtod reads an integer), fields the kernel left (cuda: beyond its
    exact 128-bit path) read on the host, few as they are."""
    import numpy as np
    out = vals.view("float64")
    present = [c for c in range(128) if counts[c] and c != NA]
    if any(not c & NOT_INT for c in present):
        out = ember.where((cls & (NOT_INT | NA)) == 0, vals.astype("float64"), out)
    if any(c & NOT_INT and not c & NOT_UINT for c in present):
        is_u = ((cls & (NOT_INT | NOT_UINT | NA)) == NOT_INT)
        out = ember.where(is_u, vals.view("uint64").astype("float64"), out)
    if any(c & SLOW for c in present):
        idx = ember.flatnonzero((cls & SLOW) != 0)
        texts = _texts(f, col, idx)
        fixed = np.array([t.strip().strip('"') for t in texts], dtype="U").astype(np.float64)
        out = ember.ascontiguousarray(out)
        out[idx] = ember.asarray(fixed, device=f.buf.device)
    return out


def _check_parsed(counts, bit, name, d):
    bad = [c for c in range(128) if counts[c] and c != NA and c & bit]
    if bad:
        raise ValueError(f"Unable to parse column {name!r} as {d.name}")


def _nullable(col, nulls, d, name):
    from ember.frame._convert import astype
    if nulls is None:
        return col if col.dtype == d else astype(col, d)
    if d.masked:
        return Column(d, col.values.astype(d.storage), _bitmap.pack(~nulls))
    if d.kind in "iub":
        raise ValueError(f"Integer column has NA values in column {name!r}"
                         if d.kind in "iu" else
                         f"Bool column has NA values in column {name!r}")
    return astype(col, d)


def _texts(f, col, idx):
    """The fields idx (few) of column col as Python strings."""
    from ember.frame._strings import to_pylist
    k = f.base + idx * f.ncols + col
    e = f.ends[k]
    s = f.starts[k] if f.starts is not None else \
        ember.where(k > 0, f.ends[ember.maximum(k - 1, 0)] + 1, 0)
    sub = Fields(f.buf, ember.ascontiguousarray(s), ember.ascontiguousarray(e), 0,
                 idx.shape[0], 1, f.quote)
    return to_pylist(_strings(sub, 0, na_table([], f.buf.device), None, "str"))


def _strings(f, col, na, nulls, d):
    dev = f.buf.device
    n = f.nrows
    lens = ember.empty(n, dtype="int64", device=dev)
    f.parse(col, STRLEN, na, out=lens)
    off = ember.zeros(n + 1, dtype="int64", device=dev)
    if n:
        off[1:] = ember.cumsum(lens)
    total = int(off[n]) if n else 0
    chars = ember.empty(max(total, 1), dtype="uint8", device=dev)
    f.parse(col, STRCOPY, na, out=chars, soff=off)
    if f.missing is not None:
        miss = f.missing[:, col]
        nulls = miss if nulls is None else nulls | miss
    return Column(d, chars[:total], None if nulls is None else _bitmap.pack(~nulls), off)
