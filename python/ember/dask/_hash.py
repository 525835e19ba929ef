"""A 64-bit hash of each row of an ember frame, equal for equal rows in any
partition: what a dask shuffle sends each row by (hash % partitions).

Columns are hashed by value on the device, with ember's uint64 arithmetic
(which wraps, as NumPy's): numbers by their bits (floats with -0.0 as 0.0
and every NaN alike), nulls as one constant, strings by a polynomial of
their bytes summed over each string's span of one wrapping cumulative sum
(no per-row loop), categoricals by their categories' hashes through the
codes (partitions may code the same value differently). Each column's
hash goes through splitmix64's finaliser before the row's are combined."""
import ember

from ember.frame import _bitmap

_NULL = 0x6A09E667F3BCC908   # what a null hashes to
_NAN = 0xBB67AE8584CAA73B
_BASE = 0x100000001B3        # the strings' polynomial base (odd)
_MIX = 0x9E3779B97F4A7C15


def _finish(z):
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB
    return z ^ (z >> 31)


def _const(value, device):
    """A uint64 scalar on the column's device (a cpu partition on a GPU
    host hashes on cpu, not on the default cuda:0)."""
    return ember.asarray(value, dtype="uint64", device=device)


def _string_hash(col):
    """One uint64 a string: sum of byte b at position p of a string of
    length L times BASE^(L - 1 - p), plus L, all mod 2^64."""
    dev = col.device
    off = col.offsets.astype("int64")
    n = col.length
    nbytes = int(off[-1]) - int(off[0]) if n else 0
    lens = off[1:] - off[:-1]
    if nbytes == 0:
        return lens.astype("uint64")
    first = int(off[0])
    data = col.values[first:first + nbytes].astype("uint64")
    # row of each byte, its position from the string's end
    row = ember.searchsorted(off[1:] - first, ember.arange(nbytes, device=dev),
                             side="right")
    back = (off[1:] - first)[row] - 1 - ember.arange(nbytes, device=dev)
    top = int(lens.max())
    powers = ember.cumprod(ember.full(top, _BASE, dtype="uint64", device=dev))
    powers = ember.concatenate([ember.ones(1, dtype="uint64", device=dev),
                                powers[:-1]])
    csum = ember.cumsum(data * powers[back], dtype="uint64")
    csum = ember.concatenate([ember.zeros(1, dtype="uint64", device=dev), csum])
    ends = off[1:] - first
    starts = off[:-1] - first
    return (csum[ends] - csum[starts]) + lens.astype("uint64")


def _column_hash(col):
    d = col.dtype
    if d.is_categorical:
        from ember.frame._categorical import codes_of, resolve
        cats = resolve(d, col.device).categories
        h = _column_hash(cats)
        codes = codes_of(col).astype("int64")
        out = h[ember.maximum(codes, 0)] if len(cats) else \
            ember.zeros(col.length, dtype="uint64", device=col.device)
        return ember.where(codes < 0, _const(_NULL, col.device), out)
    if d.is_string:
        h = _string_hash(col)
    elif d.kind == "f":
        v = col.values.astype("float64") + 0.0        # -0.0 -> 0.0
        h = ember.where(ember.isnan(v), _const(_NAN, col.device),
                        v.view("uint64"))
    elif d.kind == "b":
        h = col.values.astype("uint64")
    else:                                            # ints, datetimes, timedeltas
        h = col.values.astype("int64").view("uint64")
    if col.validity is not None:
        valid = _bitmap.unpack(col.validity, col.length)
        h = ember.where(valid, h, _const(_NULL, col.device))
    return _finish(h)


def hash_rows(obj, index=True):
    """An ember Series of uint64, one a row of obj (a DataFrame, Series or
    Index), over its columns and, with index, its index."""
    from ember.frame import Series
    from ember.frame._index import Index, RangeIndex
    if isinstance(obj, (Index, RangeIndex)):
        cols = [obj._labels()]
    else:
        cols = list(obj._cols.values()) if hasattr(obj, "_cols") else [obj._col]
        if index:
            # on the frame's device (a RangeIndex makes its labels where
            # it is asked; _labels() would make them on the current one)
            dev = cols[0].device if cols else ember.get_device()
            cols.append(obj.index._column(dev))
    h = None
    for c in cols:
        ch = _column_hash(c)
        h = ch if h is None else h * _MIX + ch
    if h is None:
        h = ember.zeros(len(obj), dtype="uint64", device=ember.get_device())
    return Series(h, index=None if isinstance(obj, (Index, RangeIndex)) else obj.index)


def digest(obj):
    """Two uint64s that stand for obj's values, index and row order
    (dask's token for a partition): its rows' hashes, each weighted by a
    hash of its position, summed on the device, so only 16 bytes reach
    the host instead of the whole partition dask would otherwise pickle."""
    from ember.frame._index import Index, RangeIndex
    h = hash_rows(obj, index=not isinstance(obj, (Index, RangeIndex)))._col.values
    n = h.shape[0]
    if n == 0:
        return 0, 0
    pos = _finish(ember.arange(1, n + 1, dtype="uint64", device=h.device))
    both = ember.stack([ember.sum(h * pos, dtype="uint64"),
                        ember.sum(_finish(h + pos), dtype="uint64")])
    return tuple(int(v) for v in ember.asnumpy(both))


def _words(flat):
    """A flat array's elements as uint64 words of their bits (a complex
    number as its real and imaginary parts)."""
    if flat.dtype.kind == "c":
        return ember.concatenate([_words(ember.real(flat)), _words(ember.imag(flat))])
    return flat.view(f"uint{8 * flat.dtype.itemsize}").astype("uint64")


def array_digest(a):
    """digest()'s two uint64s for an ember array's values in C order."""
    n = a.size
    if n == 0:
        return 0, 0
    h = _finish(_words(ember.ascontiguousarray(a).reshape(-1)))
    pos = _finish(ember.arange(1, h.shape[0] + 1, dtype="uint64", device=h.device))
    both = ember.stack([ember.sum(h * pos, dtype="uint64"),
                        ember.sum(_finish(h + pos), dtype="uint64")])
    return tuple(int(v) for v in ember.asnumpy(both))
