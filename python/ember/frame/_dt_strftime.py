"""Series.dt.strftime, day_name and month_name. The format is read once,
on the host, into a list of pieces (_str_slice.assemble's): literal
text, a name from a table (_dt_names), or a number's digits; each field
comes from the column's calendar fields (_dt_fields) as whole-column
ufunc passes, and the string column is one segment copy of the pieces.
So no row is formatted on its own, and the output matches what pandas
gets from the C library's strftime (glibc, C locale), directive by
directive: unpadded %Y and %C, an unknown directive kept as written, a
NaT row missing. Time zones are not held, so %Z and %z write nothing."""
import numpy as np

import ember
import ember.parallel as P

from ember.frame import _bitmap
from ember.frame._dt_names import (AM_PM, DAYS, DAYS_ABBR, MONTHS, MONTHS_ABBR, am_pm,
                                   check_locale, table_piece)
from ember.frame._str_slice import assemble

# the C locale's spellings of the composite directives
_COMPOSITE = {"c": "%a %b %e %H:%M:%S %Y", "D": "%m/%d/%y", "x": "%m/%d/%y",
              "F": "%Y-%m-%d", "T": "%H:%M:%S", "X": "%H:%M:%S", "R": "%H:%M",
              "r": "%I:%M:%S %p", "h": "%b", "n": "\n", "t": "\t", "%": "%",
              "Z": "", "z": ""}
# directive -> (field, digits at most, default width, default padding);
# width 1 is glibc's "as many digits as it has" (%Y, %C, %G)
_NUMBERS = {"Y": ("y", 6, 1, "0"), "y": ("y100", 2, 2, "0"), "C": ("c", 4, 1, "0"),
            "m": ("m", 2, 2, "0"), "d": ("d", 2, 2, "0"), "e": ("d", 2, 2, " "),
            "H": ("H", 2, 2, "0"), "k": ("H", 2, 2, " "), "I": ("I", 2, 2, "0"),
            "l": ("I", 2, 2, " "), "M": ("M", 2, 2, "0"), "S": ("S", 2, 2, "0"),
            "f": ("us", 6, 6, "0"), "j": ("doy", 3, 3, "0"), "w": ("wsun", 1, 1, "0"),
            "u": ("wiso", 1, 1, "0"), "U": ("U", 2, 2, "0"), "W": ("W", 2, 2, "0"),
            "V": ("V", 2, 2, "0"), "G": ("G", 6, 1, "0"), "g": ("g100", 2, 2, "0"),
            "s": ("epoch", 12, 1, "0")}
_NAMES = {"a": (DAYS_ABBR, "wd"), "A": (DAYS, "wd"), "b": (MONTHS_ABBR, "m0"),
          "B": (MONTHS, "m0"), "p": (AM_PM, "pm"), "P": (am_pm, "pm")}
_FLAGS = {"-": "", "_": " ", "0": "0"}


def _tokens(fmt, out=None):
    """fmt as [('text', str) | ('num', directive, pad) | ('name', directive)];
    composites are spelled out, unknown directives kept as text (glibc)."""
    out = [] if out is None else out
    i = 0
    while i < len(fmt):
        j = fmt.find("%", i)
        if j < 0:
            out.append(("text", fmt[i:]))
            break
        if j > i:
            out.append(("text", fmt[i:j]))
        k = j + 1
        flag = fmt[k] if k < len(fmt) and fmt[k] in _FLAGS else None
        k += flag is not None
        if k < len(fmt) and fmt[k] in "EO" and k + 1 < len(fmt) and \
                (fmt[k + 1] in _NUMBERS or fmt[k + 1] in _NAMES or fmt[k + 1] in "cxX"):
            k += 1   # the alternative-numerals modifiers mean nothing in C
        c = fmt[k] if k < len(fmt) else ""
        if c in _NUMBERS:
            pad = _NUMBERS[c][3] if flag is None else _FLAGS[flag]
            out.append(("num", c, pad))
        elif c in _NAMES:
            out.append(("name", c))
        elif c and c in "%ntZz":   # plain text (no zone: naive datetimes)
            out.append(("text", _COMPOSITE[c]))
        elif c in _COMPOSITE:
            _tokens(_COMPOSITE[c], out)
        else:
            out.append(("text", fmt[j:k + 1]))
        i = k + 1
    return out


class _Calendar:
    """The fields the directives read, each computed once from the
    accessor's day count and time of day (int64 arrays)."""

    def __init__(self, f):
        self._f, self._memo = f, {}

    def __getitem__(self, k):
        if k not in self._memo:
            self._memo[k] = getattr(self, "_" + k)()
        return self._memo[k]

    def _y(self):
        return self._f._part("y")

    def _y100(self):
        return ember.remainder(self["y"], 100)

    def _c(self):
        return ember.floor_divide(self["y"], 100)

    def _m(self):
        return self._f._part("m")

    def _m0(self):
        return self["m"] - 1

    def _d(self):
        return self._f._part("d")

    def _doy(self):
        return self._f._part("doy")

    def _wd(self):   # Monday 0
        return ember.remainder(self._f._days() + 3, 7)

    def _wsun(self):   # Sunday 0
        return ember.remainder(self._f._days() + 4, 7)

    def _wiso(self):
        return self["wd"] + 1

    def _tod(self):
        return self._f._of_day()

    def _H(self):
        return self["tod"] // (3600 * self._f._tps)

    def _I(self):
        return ember.remainder(self["H"] + 11, 12) + 1

    def _pm(self):
        return (self["H"] >= 12).astype("int64")

    def _M(self):
        return self["tod"] // (60 * self._f._tps) % 60

    def _S(self):
        return self["tod"] // self._f._tps % 60

    def _us(self):
        tps = self._f._tps
        sub = self["tod"] % tps
        return sub // 1000 if tps == 10 ** 9 else sub * (10 ** 6 // tps)

    def _U(self):   # weeks starting Sunday; days before the first are week 0
        return (self["doy"] + 6 - self["wsun"]) // 7

    def _W(self):
        return (self["doy"] + 6 - self["wd"]) // 7

    def _iso(self):
        """ISO 8601 week and its year: the week holding the year's first
        Thursday is week 1."""
        y = self["y"]
        w = (self["doy"] - self["wiso"] + 10) // 7

        def weeks(yr):   # 53 when the year starts on a Thursday, or a leap one on Wednesday
            p = ember.remainder(yr + yr // 4 - yr // 100 + yr // 400, 7)
            q = ember.remainder(yr - 1 + (yr - 1) // 4 - (yr - 1) // 100 +
                                (yr - 1) // 400, 7)
            return 52 + ((p == 4) | (q == 3))
        before, after = w < 1, w > weeks(y)
        return (ember.where(before, weeks(y - 1), ember.where(after, 1, w)),
                y - before + after)

    def _V(self):
        return self["iso"][0]

    def _G(self):
        return self["iso"][1]

    def _g100(self):
        return ember.remainder(self["G"], 100)

    def _epoch(self):
        return self._f._days() * 86400 + self["tod"] // self._f._tps


def _number_piece(v, most, width, pad):
    """v's decimal digits (v >= 0), at least `width` of them, padded on the
    left with '0' or ' ' ('' : none): a [rows, most] matrix of the digits,
    right-aligned, from which each row's piece starts where its text does."""
    n = v.shape[0]
    nd = P.transform(" + ".join(["1"] + [f"(a >= {10 ** i}LL)" for i in range(1, most)]),
                     v, dtype="int64")
    fill = 48 if pad == "0" else 32
    cols = [P.transform(f"({most - 1 - j} >= b ? {fill} : (a / {10 ** (most - 1 - j)}LL)"
                        " % 10 + 48)", v, nd, dtype="uint8") for j in range(most)]
    grid = ember.stack(cols, axis=1).reshape(n * most)
    w = nd if pad == "" or width <= 1 else ember.maximum(nd, width)
    start = ember.arange(n, dtype="int64", device=v.device) * most + (most - w)
    return grid, start, w


def _text_piece(text, device):
    raw = text.encode("utf-8")
    buf = ember.asarray(np.frombuffer(raw or b"\0", dtype=np.uint8), device=device)
    return buf, 0, len(raw)


def _pieces(tokens, cal, device):
    out = []
    for t in tokens:
        if t[0] == "text":
            if out and out[-1][0] == "text":
                out[-1] = ("text", out[-1][1] + t[1])
            else:
                out.append(t)
        else:
            out.append(t)
    pieces = []
    for t in out:
        if t[0] == "text":
            pieces.append(_text_piece(t[1], device))
        elif t[0] == "name":
            names, field = _NAMES[t[1]]
            pieces.append(table_piece(names, cal[field]))
        else:
            field, most, width, _ = _NUMBERS[t[1]]
            v = cal[field]
            if t[1] in "sYGC":   # may be negative: a '-' piece, then the digits
                minus = _text_piece("-", device)
                pieces.append((minus[0], 0, (v < 0).astype("int64")))
                v = ember.abs(v)
            pieces.append(_number_piece(v, most, width, t[2]))
    return pieces


def _string_column(f, pieces):
    """The pieces joined row by row: a NaT row missing (and empty)."""
    n, dev = f._v.shape[0], f._v.device
    keep = ~f._nat
    if not pieces:
        pieces = [_text_piece("", dev)]
    pieces = [(b, s, ember.where(keep, ln, 0)) for b, s, ln in pieces]
    validity = _bitmap.pack(keep) if bool(f._nat.any()) else None
    return f._s._like(assemble(pieces, n, "str", validity, dev))


def strftime(f, date_format):
    if not isinstance(date_format, str):
        raise TypeError(f"date_format must be a str, not {type(date_format).__name__}")
    dev = f._v.device
    return _string_column(f, _pieces(_tokens(date_format), _Calendar(f), dev))


def day_name(f, locale=None):
    check_locale(locale, "day_name")
    return _string_column(f, [table_piece(DAYS, _Calendar(f)["wd"])])


def month_name(f, locale=None):
    check_locale(locale, "month_name")
    return _string_column(f, [table_piece(MONTHS, _Calendar(f)["m0"])])
