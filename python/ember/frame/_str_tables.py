"""Per-code-point tables for the string kernels, built once from Python's
Unicode database: the simple case mappings of lower/upper and the class
bits of isdigit, isalpha, ...

pandas maps case through Arrow (utf8proc): one code point to one, never
the longer forms of Python's str.upper ('ß' gives 'ẞ', not 'SS'), and
from a newer Unicode than this Python may know. The table therefore
takes Python's mapping where it is one code point, the simple mappings
below where Python's is longer or older, and marks the code points this
Python does not know (unassigned here, maybe assigned in Arrow's) as
unknown: a row holding one raises NotImplementedError instead of a
guess. Above plane 3 (tags, private use, unassigned planes) no code point
has a case or a class bit."""
import unicodedata

import numpy as np

import ember

SPAN = 0x32400   # through plane 3 (CJK extension H); nothing above has a case

# where the simple mapping is not Python's full one, or is from a later
# Unicode (16) than Python 3.11's 14
_UPPER = {0xDF: 0x1E9E, 0x19B: 0xA7DC, 0x264: 0xA7CB, 0x277: 0xA7DD,
          0x27C: 0xA7E2, 0xA7D3: 0xA7D2, 0xA7D5: 0xA7D4, 0xAB4B: 0xAB6C,
          0xAB4C: 0xAB6D, 0x1FB3: 0x1FBC, 0x1FC3: 0x1FCC, 0x1FF3: 0x1FFC}
_UPPER.update({c: c + 8 for base in (0x1F80, 0x1F90, 0x1FA0) for c in range(base, base + 8)})
_LOWER = {0x130: 0x69}

_host = {}
_dev = {}

# class bits of em_str_isclass (frame/kernels/str_utf8.cuh), as Arrow's
# utf8_is_* read them (pandas calls those): digits are Nd and No, numerics
# N*, letters L*; a lower char is Ll or one that only upper-cases, an
# upper one Lu or one that only lower-cases; cased chars also take Lt
# and any char with a case mapping
BITS = {"isdigit": 0, "isalpha": 1, "isnumeric": 2, "isspace": 3, "islower": 4,
        "isupper": 5, "isdecimal": 6, "notlower": 7, "notupper": 8}
UNKNOWN = 1 << 15


def _chars():
    if "chars" not in _host:
        _host["chars"] = [chr(c) if not 0xD800 <= c < 0xE000 else " " for c in range(SPAN)]
        cats = list(map(unicodedata.category, _host["chars"]))
        cats[0x295] = "Lo"   # since Unicode 16
        _host["cats"] = cats
    return _host["chars"]


def _case(op):
    fixes = _UPPER if op == "upper" else _LOWER
    out = np.empty(SPAN, dtype=np.int32)
    chars = _chars()
    cats = _host["cats"]
    for c, ch in enumerate(chars):
        m = getattr(ch, op)()
        if c in fixes:
            out[c] = fixes[c]
        elif cats[c] == "Cn":
            out[c] = -1
        else:   # a longer full mapping has no simple one: the char stays
            out[c] = ord(m) if len(m) == 1 else c
    out[0xD800:0xE000] = -1
    return out


def _props():
    chars = _chars()
    cats = _host["cats"]
    up, low = table_host("upper"), table_host("lower")
    code = np.arange(SPAN)
    lower = np.asarray([k == "Ll" for k in cats]) | ((up != code) & (low == code))
    title = np.asarray([k == "Lt" for k in cats])
    upper = np.asarray([k == "Lu" for k in cats]) | ((up == code) & (low != code) & ~title)
    cased = np.asarray([k in ("Lu", "Ll") for k in cats]) | title | (up != code) | \
        (low != code)
    flags = {"isdigit": [k in ("Nd", "No") for k in cats],
             "isalpha": [k[0] == "L" for k in cats],
             "isnumeric": [k[0] == "N" for k in cats],
             "isspace": list(map(str.isspace, chars)),
             "islower": lower, "isupper": upper,
             "isdecimal": [k == "Nd" for k in cats],
             "notlower": cased & ~lower, "notupper": cased & ~upper}
    out = np.zeros(SPAN, dtype=np.uint16)
    for name, bit in BITS.items():
        out |= np.asarray(flags[name], dtype=np.uint16) << bit
    out[np.asarray([k == "Cn" for k in cats])] = UNKNOWN
    out[0xD800:0xE000] = UNKNOWN
    return out


def table_host(kind):
    h = _host.get(kind)
    if h is None:
        h = _host[kind] = _props() if kind == "props" else _case(kind)
    return h


def table(kind, device):
    """'lower', 'upper' or 'props' as an ember array on device."""
    key = (kind, str(device))
    t = _dev.get(key)
    if t is None:
        t = _dev[key] = ember.asarray(table_host(kind), device=device)
    return t
