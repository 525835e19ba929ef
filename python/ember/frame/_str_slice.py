"""Slices of strings by code point (slice, get, s.str[...]) and strings
assembled from byte ranges of several sources (pad, zfill, cat, repeat),
the second as one segment copy (em_str_copy) after a scan of the
segments' lengths."""
import ember

from ember.frame import _bitmap
from ember.frame._column import Column
from ember.frame._str_kernels import (build, char_lengths, copy_segments, i32, i64,
                                      offsets, valid_mask)


def slice_chars(col, start=None, stop=None, step=None):
    step = 1 if step is None else step
    if step == 0:
        raise ValueError("slice step cannot be zero")
    has = (start is not None) | (stop is not None) << 1
    return build(col, "em_str_slice", (i64(start or 0), i64(stop or 0), i64(step),
                                       i32(has)))


def get_char(col, i):
    """The code point at i of each row (null where a row is shorter)."""
    out = slice_chars(col, i, None if i == -1 else i + 1, 1)
    L = char_lengths(col)
    ok = (i < L) if i >= 0 else (-i <= L)
    valid = valid_mask(col)
    ok = ok if valid is None else ok & valid
    return Column(col.dtype, out.values, _bitmap.pack(ok), out.offsets)


def assemble(pieces, n, dtype, validity, device):
    """Row r is the concatenation of pieces[k] for k in order, each piece
    (values, starts, lengths): byte ranges of a uint8 array (starts and
    lengths int64 arrays of n, or ints for every row)."""
    bufs, base, st, ln = [], 0, [], []
    for values, starts, lens in pieces:
        bufs.append(values)
        st.append(_full(starts, n, device) + base)
        ln.append(_full(lens, n, device))
        base += values.shape[0]
    k = len(pieces)
    starts = ember.stack(st, axis=1).reshape(n * k)
    lens = ember.stack(ln, axis=1).reshape(n * k)
    data = ember.concatenate(bufs) if len(bufs) > 1 else bufs[0]
    out, off = copy_segments(data, starts, lens, device)
    return Column(dtype, out, validity, off[::k].copy() if k > 1 else off)


def _full(x, n, device):
    if isinstance(x, ember.ndarray):
        return x.astype("int64")
    return ember.full(n, x, dtype="int64", device=device)


def row_piece(col):
    off = offsets(col)
    return col.values, off[:-1], off[1:] - off[:-1]


def fill_piece(fill, count, device):
    """`fill` (one character) repeated count[r] times, as a piece."""
    b = fill.encode("utf-8")
    most = int(count.max()) if count.shape[0] else 0
    import numpy as np
    buf = ember.asarray(np.frombuffer(b * max(most, 1), dtype=np.uint8), device=device)
    return buf, 0, count * len(b)
