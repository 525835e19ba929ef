"""Slices of strings by code point (slice, get, s.str[...]) and strings
assembled from byte ranges of several sources (pad, zfill, cat, repeat),
all as gathers over the utf-8 bytes: no kernel of their own."""
import ember

from ember.frame import _bitmap
from ember.frame._column import Column
from ember.frame._str_kernels import lead_prefix, offsets, ranges_result, scan_offsets
from ember.frame._strings import _gather_ranges


def _char_starts(col):
    """(byte position of every code point of the values, with the bytes'
    length appended; each row's index of its first code point)."""
    v = col.values
    lead = ember.flatnonzero((v & 0xC0) != 0x80) if v.shape[0] else \
        ember.zeros(0, dtype="int64", device=col.device)
    end = ember.full(1, v.shape[0], dtype="int64", device=col.device)
    cs = lead_prefix(col)
    return ember.concatenate([lead, end]), cs[offsets(col)]


def _bound(x, L, default, lo, hi_off):
    """Python's slice bound rules, row by row: x (an int or None) against
    lengths L, clipped to [lo, L + hi_off]."""
    if x is None:
        return default
    v = ember.where(x < 0, L + x, x) if x < 0 else ember.full_like(L, x)
    return ember.minimum(ember.maximum(v, lo), L + hi_off)


def slice_chars(col, start=None, stop=None, step=None):
    step = 1 if step is None else step
    if step == 0:
        raise ValueError("slice step cannot be zero")
    starts, first = _char_starts(col)
    off = offsets(col)
    L = first[1:] - first[:-1]
    if step > 0:
        s = _bound(start, L, ember.zeros_like(L), 0, 0)
        e = _bound(stop, L, L, 0, 0)
        cnt = ember.maximum((e - s + step - 1) // step, 0)
    else:
        s = _bound(start, L, L - 1, -1, -1)
        e = _bound(stop, L, ember.full_like(L, -1), -1, -1)
        cnt = ember.maximum((s - e - step - 1) // -step, 0)
    if step == 1:
        def byte_at(k):   # byte offset of the row's k-th code point
            g = ember.minimum(first[:-1] + k, starts.shape[0] - 1)
            return ember.where(k >= L, off[1:], starts[g])
        stop_b = byte_at(e)
        start_b = ember.minimum(byte_at(s), stop_b)
        return ranges_result(col, start_b, stop_b)
    n = col.length
    char_off = scan_offsets(cnt, col.device)
    total = int(char_off[n]) if n else 0
    row = ember.repeat(ember.arange(n, dtype="int64", device=col.device), cnt)
    j = ember.arange(total, dtype="int64", device=col.device) - char_off[:-1][row]
    g = first[:-1][row] + s[row] + step * j
    b0 = starts[g]
    b1 = ember.minimum(starts[ember.minimum(g + 1, starts.shape[0] - 1)], off[1:][row])
    pos, byte_off = _gather_ranges(b0, b1 - b0, col.device)
    return Column(col.dtype, col.values[pos], col.validity, byte_off[char_off])


def get_char(col, i):
    """The code point at i of each row (null where a row is shorter)."""
    from ember.frame._str_kernels import char_lengths, valid_mask
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
    pos, off = _gather_ranges(starts, lens, device)
    data = ember.concatenate(bufs) if len(bufs) > 1 else bufs[0]
    out = data[pos] if pos.shape[0] else ember.zeros(0, dtype="uint8", device=device)
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
