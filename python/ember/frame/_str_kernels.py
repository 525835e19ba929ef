"""The string kernels (frame/kernels/str_*.cuh), compiled once a device
through RawModule (NVRTC on cuda, the host compiler on cpu), and the
steps every .str method shares: a row's offsets as int64, its code
points, the two passes that build a new string column."""
import pathlib

import numpy as np

import ember

from ember.frame import _bitmap
from ember.frame._column import Column

_FILES = ("str_utf8.cuh", "str_search.cuh", "str_regex.cuh", "str_capture.cuh",
          "str_keys.cuh", "str_hash.cuh")
_modules = {}


def _module(dev):
    key = str(dev)
    m = _modules.get(key)
    if m is None:
        here = pathlib.Path(__file__).parent / "kernels"
        code = "\n".join((here / f).read_text() for f in _FILES)
        with ember.Device(dev):
            m = ember.RawModule(code=code)
        _modules[key] = m
    return m


def launch(dev, name, n, args):
    """Kernel `name` over n rows (one thread a row, grid-stride)."""
    if n == 0:
        return
    blocks = max(1, min((n + 255) // 256, 65536))
    with ember.Device(dev):
        _module(dev).get_function(name)((blocks,), (256,), args)


def i64(x):
    return np.int64(x)


def i32(x):
    return np.int32(x)


def offsets(col):
    o = col.offsets
    return o if str(o.dtype) == "int64" else o.astype("int64")


def host_bytes(s, dev):
    """A Python str's utf-8 bytes as a uint8 array (one byte at least, so
    the kernel always gets a pointer)."""
    b = s.encode("utf-8")
    return ember.asarray(np.frombuffer(b or b"\0", dtype=np.uint8), device=dev), len(b)


def char_lengths(col):
    """Each row's length in code points (int64)."""
    n = col.length
    out = ember.zeros(n, dtype="int64", device=col.device)
    launch(col.device, "em_str_nchars", n, (offsets(col), col.values, i64(n), out))
    return out


def copy_segments(src, start, lens, device):
    """The byte ranges src[start[i]:start[i] + lens[i]] one after another:
    (bytes, offsets of the n + 1 segment bounds)."""
    n = lens.shape[0]
    off = scan_offsets(lens, device)
    total = int(off[n]) if n else 0
    out = ember.empty(max(total, 1), dtype="uint8", device=device)   # every byte written
    launch(device, "em_str_copy", n, (src, start, lens, off, i64(n), out))
    return out[:total], off


def build(col, name, args_before, args_after=(), validity="same"):
    """A new string column from a two-pass kernel `name`(off, data, n,
    *args_before, len, [extra outputs], out_off, out, *args_after, mode)."""
    dev, n = col.device, col.length
    off = offsets(col)
    lens = ember.zeros(max(n, 1), dtype="int64", device=dev)
    dummy = ember.zeros(1, dtype="uint8", device=dev)
    launch(dev, name, n, (off, col.values, i64(n), *args_before, lens, *args_after,
                          off, dummy, i32(0)))
    new_off = scan_offsets(lens[:n], dev)
    total = int(new_off[n]) if n else 0
    out = ember.zeros(max(total, 1), dtype="uint8", device=dev)
    launch(dev, name, n, (off, col.values, i64(n), *args_before, lens, *args_after,
                          new_off, out, i32(1)))
    return Column(col.dtype, out[:total], col.validity if validity == "same" else validity,
                  new_off)


def scan_offsets(lens, dev):
    n = lens.shape[0]
    off = ember.zeros(n + 1, dtype="int64", device=dev)
    if n:
        off[1:] = ember.cumsum(lens)
    return off


def valid_mask(col):
    """True where the row is not null (None when none is)."""
    return None if col.validity is None else _bitmap.unpack(col.validity, col.length)


# ---- results in pandas' dtypes for the two string dtypes

def bool_result(col, out, na=None):
    """A bool answer per row: `str` gives bool (a null row False, or na),
    `string` gives boolean with the nulls kept (or filled by na)."""
    valid = valid_mask(col)
    out = out.astype("bool")
    if col.dtype.name == "string":
        if valid is None or (na is not None and not _isnan(na)):
            if valid is not None:
                out = ember.where(valid, out, bool(na))
            return Column("boolean", out)
        return Column("boolean", out, col.validity)
    if valid is not None:
        fill = False if na is None or _isnan(na) else bool(na)
        out = ember.where(valid, out, fill)
    return Column("bool", out)


def _isnan(x):
    return isinstance(x, float) and x != x


def int_result(col, out, valid=None):
    """An int64 answer per row: `str` gives int64, or float64 with NaN
    where a row is null; `string` gives Int64 with the nulls kept."""
    valid = valid_mask(col) if valid is None else valid
    if col.dtype.name == "string":
        return Column("Int64", out, None if valid is None else _bitmap.pack(valid))
    if valid is None or bool(valid.all()):
        return Column("int64", out)
    return Column("float64", ember.where(valid, out.astype("float64"), np.nan))


def ranges_result(col, start, stop, valid=None):
    """The rows' byte ranges [start, stop) as a new string column."""
    values, off = copy_segments(col.values, start, ember.maximum(stop - start, 0),
                                col.device)
    bitmap = col.validity if valid is None else _bitmap.pack(valid)
    return Column(col.dtype, values, bitmap, off)
