"""The .str methods that run one string kernel a call (case, strip,
literal search and replace, character classes), column in, column out."""
import numpy as np

import ember

from ember.frame import _str_tables
from ember.frame._str_kernels import (build, host_bytes, i32, i64, int_result, launch,
                                      offsets, ranges_result)

_WHITESPACE = None


CASE_OPS = ("lower", "upper", "title", "capitalize", "swapcase")


def case(col, op):
    dev, n = col.device, col.length
    up, low = _str_tables.table("upper", dev), _str_tables.table("lower", dev)
    props = _str_tables.table("props", dev)
    bad = ember.zeros(max(n, 1), dtype="uint8", device=dev)
    out = build(col, "em_str_case", (up, low, props, i64(up.shape[0]),
                                     i32(CASE_OPS.index(op))), (bad,))
    _unknown(bad[:n], "str." + op)
    return out


_CASEFOLD = None


def map_chars(col, mapping):
    """Each code point in `mapping` (code point -> str) replaced by its
    string (em_str_map); the others kept."""
    dev = col.device
    keys = sorted(mapping)
    nidx = (keys[-1] + 1) if keys else 1
    idx = np.full(nidx, -1, dtype=np.int32)
    idx[keys] = np.arange(len(keys), dtype=np.int32)
    reps = [mapping[k].encode("utf-8") for k in keys]
    rep_off = np.zeros(len(keys) + 1, dtype=np.int64)
    np.cumsum([len(r) for r in reps], out=rep_off[1:])
    rep = np.frombuffer(b"".join(reps) or b"\0", dtype=np.uint8)
    return build(col, "em_str_map", (ember.asarray(idx, device=dev), i64(nidx),
                                     ember.asarray(rep, device=dev),
                                     ember.asarray(rep_off, device=dev)))


def casefold(col):
    """Python's str.casefold (pandas runs it in Python, so Python's own
    table is the reference: exact for every code point)."""
    global _CASEFOLD
    if _CASEFOLD is None:
        _CASEFOLD = {c: chr(c).casefold() for c in range(0x20000)
                     if not 0xD800 <= c < 0xE000 and chr(c).casefold() != chr(c)}
    return map_chars(col, _CASEFOLD)


def translate(col, table):
    """Python's str.translate: table maps code points to code points,
    strings or None (deleted); other keys are ignored as Python does."""
    if not hasattr(table, "items"):
        raise NotImplementedError("str.translate with a table that is not a dict "
                                  "(str.maketrans gives one)")
    mapping = {}
    for k, v in table.items():
        if not isinstance(k, int):
            continue
        if v is None:
            mapping[k] = ""
        elif isinstance(v, int):
            mapping[k] = chr(v)
        elif isinstance(v, str):
            mapping[k] = v
        else:
            raise TypeError("character mapping must return integer, None or str")
    return map_chars(col, mapping)


def strip_bounds(col, to_strip, side):
    """Each row's byte range [start, stop) left once the characters of
    to_strip (None: whitespace) are stripped from the left (side & 1) and
    right (side & 2)."""
    global _WHITESPACE
    dev = col.device
    if to_strip is None:
        if _WHITESPACE is None:   # Unicode's whitespace, as Python's isspace
            _WHITESPACE = [c for c in range(0x3001) if chr(c).isspace()]
        cps = _WHITESPACE
    elif isinstance(to_strip, str):
        cps = sorted({ord(c) for c in to_strip})
    else:
        raise TypeError(f"to_strip must be a str or None, not {type(to_strip).__name__}")
    s = ember.asarray(np.asarray(cps or [0], dtype=np.int32), device=dev)
    n = col.length
    start = ember.zeros(n, dtype="int64", device=dev)
    stop = ember.zeros(n, dtype="int64", device=dev)
    launch(dev, "em_str_strip", n, (offsets(col), col.values, i64(n), s, i64(len(cps)),
                                    i32(side), start, stop))
    return start, stop


def strip(col, to_strip, side):
    return ranges_result(col, *strip_bounds(col, to_strip, side))


def find_raw(col, pat, mode):
    """em_str_find's answer per row (int64; see str_search.cuh)."""
    dev, n = col.device, col.length
    p, m = host_bytes(pat, dev)
    out = ember.zeros(n, dtype="int64", device=dev)
    launch(dev, "em_str_find", n, (offsets(col), col.values, i64(n), p, i64(m), i32(mode),
                                   out))
    return out


def find(col, sub, start=0, end=None, last=False):
    """The code-point index of the first (last) sub in each row's
    [start:end], or -1, by Python's str.find rules (a start past the end
    finds nothing, not even an empty sub)."""
    from ember.frame._str_kernels import char_lengths
    from ember.frame._str_slice import slice_chars
    _check_str(sub, "find")
    mode = (4 if last else 0) | 8
    start = 0 if start is None else start
    if start == 0 and end is None:
        return int_result(col, find_raw(col, sub, mode))
    L = char_lengths(col)
    r = find_raw(slice_chars(col, start, end), sub, mode)
    s = ember.maximum(L + start, 0) if start < 0 else ember.full_like(L, start)
    return int_result(col, ember.where((r >= 0) & (s <= L), r + s, -1))


def remove_affix(col, affix, mode):
    """removeprefix (mode 2) / removesuffix (3)."""
    _check_str(affix, "removeprefix")
    hit = find_raw(col, affix, mode)
    m = len(affix.encode("utf-8"))
    off = offsets(col)
    if mode == 2:
        return ranges_result(col, off[:-1] + hit * m, off[1:])
    return ranges_result(col, off[:-1], off[1:] - hit * m)


def partition(col, sep, last):
    """The three columns of partition / rpartition (before, sep, after)."""
    _check_str(sep, "partition")
    if sep == "":
        raise ValueError("empty separator")
    pos = find_raw(col, sep, 4 if last else 0)
    m = len(sep.encode("utf-8"))
    off = offsets(col)
    b, e = off[:-1], off[1:]
    hit = pos >= 0
    at = b + pos
    cut0 = ember.where(hit, at, b if last else e)
    cut1 = ember.where(hit, at + m, b if last else e)
    return [ranges_result(col, b, cut0), ranges_result(col, cut0, cut1),
            ranges_result(col, cut1, e)]


def replace(col, pat, repl, n):
    dev = col.device
    p, m = host_bytes(pat, dev)
    r, k = host_bytes(repl, dev)
    return build(col, "em_str_replace", (p, i64(m), r, i64(k), i64(n)))


def isclass(col, name):
    """isdigit, isalpha, ... as Arrow's utf8_is_* (an empty string is
    False; islower/isupper want a cased char and none of the other case)."""
    dev, n = col.device, col.length
    props = _str_tables.table("props", dev)
    bits = _str_tables.BITS
    mode, veto = 0, 0
    want = 1 << bits.get(name, 0)
    if name in ("islower", "isupper"):
        mode, veto = 1, 1 << bits["not" + name[2:]]
    elif name == "istitle":   # lower: bit 4; other cased chars: bit 7
        mode, want, veto = 2, 1 << bits["islower"], 1 << bits["notlower"]
    elif name == "isalnum":
        want = (1 << bits["isalpha"]) | (1 << bits["isnumeric"])
    out = ember.zeros(n, dtype="uint8", device=dev)
    bad = ember.zeros(n, dtype="uint8", device=dev)
    launch(dev, "em_str_isclass", n, (offsets(col), col.values, i64(n), props,
                                      i64(props.shape[0]), i32(want), i32(veto),
                                      i32(mode), out, bad))
    _unknown(bad, "str." + name)
    return out


def _unknown(bad, what):
    if bad.shape[0] and bool(bad.any()):
        raise NotImplementedError(
            f"{what}: a string holds a character this Python's Unicode "
            f"{_str_tables.unicodedata.unidata_version} does not know (pandas reads it "
            "by a newer one); use to_pandas()")


def _check_str(x, what):
    if not isinstance(x, str):
        raise TypeError(f"expected a string object, not {type(x).__name__}")


def split_positions(col, pat, cols, right):
    """(n, cols) absolute byte offsets of the separators and their count."""
    dev, n = col.device, col.length
    p, m = host_bytes(pat, dev)
    pos = ember.zeros((max(n, 1), max(cols, 1)), dtype="int64", device=dev)
    cnt = ember.zeros(n, dtype="int64", device=dev)
    launch(dev, "em_str_split", n, (offsets(col), col.values, i64(n), p, i64(m),
                                    i64(cols), i32(int(right)), pos, cnt))
    return pos[:n], cnt, m

