"""String columns in Arrow's layout: offsets (int32 or int64, n + 1 of
them) into one array of utf-8 bytes. A null row has no bytes."""
import ember

from ember.frame import _bitmap
from ember.frame._column import Column


def from_pylist(items, dtype, device):
    """Python str/None items -> a string column (the encoding is a pass
    over Python objects, which the list already is)."""
    import numpy as np
    enc = [s.encode("utf-8") if isinstance(s, str) else b"" for s in items]
    lengths = np.fromiter((len(b) for b in enc), dtype=np.int64, count=len(enc))
    offsets = np.zeros(len(enc) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    data = np.frombuffer(b"".join(enc), dtype=np.uint8)
    valid = np.fromiter((isinstance(s, str) for s in items), dtype=bool, count=len(enc))
    validity = _bitmap.pack(ember.asarray(valid, device=device)) if len(enc) else None
    return Column(dtype, ember.asarray(data, device=device), validity,
                  ember.asarray(offsets, device=device))


def lengths(col):
    """Each row's length in bytes (int64)."""
    off = col.offsets.astype("int64")
    return off[1:] - off[:-1]


def _gather_ranges(starts, counts, device):
    """The positions starts[r] .. starts[r] + counts[r] - 1 of every row r,
    concatenated, and the rows' new offsets."""
    n = counts.shape[0]
    new_off = ember.zeros(n + 1, dtype="int64", device=device)
    if n:
        new_off[1:] = ember.cumsum(counts)
    total = int(new_off[n]) if n else 0
    if total == 0:
        return ember.zeros(0, dtype="int64", device=device), new_off
    # byte j of row r comes from j + (starts[r] - new_off[r]): that jump is
    # scattered as a difference at each non-empty row's first byte and
    # summed up by one scan
    nz = ember.flatnonzero(counts > 0)
    jumps = starts[nz] - new_off[:-1][nz]
    diff = ember.zeros(total, dtype="int64", device=device)
    diff[new_off[:-1][nz]] = ember.diff(jumps, prepend=0)
    pos = ember.arange(total, dtype="int64", device=device) + ember.cumsum(diff)
    return pos, new_off


def take(col, idx):
    """(bytes, offsets) of the rows at idx: the rows' bounds gathered (not
    every row's offsets widened and differenced first), then one kernel
    copies each row's bytes (copy_segments), where a gather of byte
    positions made and read several arrays of the output's bytes."""
    from ember.frame._str_kernels import copy_segments
    off = col.offsets
    starts = off[:-1][idx]
    starts = starts if str(starts.dtype) == "int64" else starts.astype("int64")
    lens = off[1:][idx] - starts
    values, new_off = copy_segments(col.values, starts, lens, col.device)
    return values, new_off.astype(col.offsets.dtype, copy=False)


def equal_scalar(col, s):
    """col == s for a Python str (null rows give False)."""
    pat = s.encode("utf-8")
    lens = lengths(col)
    same = lens == len(pat)
    if col.validity is not None:
        same = same & _bitmap.unpack(col.validity, col.length)
    if len(pat) == 0:
        return same
    rows = ember.flatnonzero(same)
    if rows.shape[0] == 0:
        return same
    starts = col.offsets.astype("int64")[:-1][rows]
    k = ember.arange(len(pat), dtype="int64", device=col.device)
    p = ember.asarray(list(pat), dtype="uint8", device=col.device)
    hit = (col.values[starts[:, None] + k[None, :]] == p[None, :]).all(axis=1)
    out = ember.zeros(col.length, dtype="bool", device=col.device)
    out[rows] = hit
    return out


def equal_columns(a, b):
    """a == b row by row (null rows give False)."""
    la, lb = lengths(a), lengths(b)
    same = la == lb
    for c in (a, b):
        if c.validity is not None:
            same = same & _bitmap.unpack(c.validity, c.length)
    rows = ember.flatnonzero(same)
    if rows.shape[0] == 0:
        return same
    pa_, off = _gather_ranges(a.offsets.astype("int64")[:-1][rows], la[rows], a.device)
    pb_, _ = _gather_ranges(b.offsets.astype("int64")[:-1][rows], la[rows], a.device)
    diff = ember.zeros(pa_.shape[0] + 1, dtype="int64", device=a.device)
    if pa_.shape[0]:
        diff[1:] = ember.cumsum(a.values[pa_] != b.values[pb_])
    hit = (diff[off[1:]] - diff[off[:-1]]) == 0
    out = ember.zeros(a.length, dtype="bool", device=a.device)
    out[rows] = hit
    return out


def words(col):
    """The rows as big-endian uint64 words of 8 bytes each, zero padded,
    so that comparing (words..., length) orders rows as their bytes (and
    utf-8 bytes order as code points): one kernel pass (str_keys.cuh)."""
    from ember.frame import _str_kernels as K
    lens = lengths(col)
    n = col.length
    nw = (int(lens.max()) + 7) // 8 if n else 0
    out = ember.empty((nw, n), dtype="uint64", device=col.device)
    if nw:
        K.launch(col.device, "em_str_words", n, (K.offsets(col), col.values, K.i64(n),
                                                 K.i64(nw), out))
    return [out[w] for w in range(nw)], lens


def to_pylist(col):
    import numpy as np
    data = bytes(ember.asnumpy(col.values))
    off = ember.asnumpy(col.offsets).astype(np.int64)
    valid = (ember.asnumpy(_bitmap.unpack(col.validity, col.length))
             if col.validity is not None else np.ones(col.length, bool))
    return [data[off[i]:off[i + 1]].decode("utf-8") if valid[i] else None
            for i in range(col.length)]
