"""to_datetime and date_range. ISO-8601 strings ('YYYY-MM-DD[( |T)HH:MM[:SS
[.fffffffff]]]') are parsed by a fixed number of whole-column passes over
the string bytes: one gather per character position (at most 29), digit
arithmetic, and the civil-date formula for the days; never a loop over
rows."""
import ember
import ember.parallel as P

from ember.frame._column import Column, _NAT
from ember.frame._dt_fields import _PER_SECOND, days_from_civil, fixed_ns, month_days

_FORMATS = {"%Y-%m-%d": 0, "%Y-%m-%d %H:%M": 2, "%Y-%m-%dT%H:%M": 3,
            "%Y-%m-%d %H:%M:%S": 4, "%Y-%m-%dT%H:%M:%S": 5,
            "%Y-%m-%d %H:%M:%S.%f": 6, "%Y-%m-%dT%H:%M:%S.%f": 7}
_UNIT_US = {"D": 86400 * 10 ** 6, "h": 3600 * 10 ** 6, "m": 60 * 10 ** 6,
            "s": 10 ** 6, "ms": 10 ** 3, "us": 1}


def _check_errors(errors):
    if errors not in ("raise", "coerce"):
        raise ValueError(f"errors must be 'raise' or 'coerce', got {errors!r}")


def to_datetime(arg, errors="raise", format=None, unit=None, **kw):
    from ember.frame.series import Series
    from ember.frame._index import Index
    _check_errors(errors)
    utc = bool(kw.pop("utc", False))
    extra = [k for k, v in kw.items() if v not in (None, False)]
    if extra:
        raise NotImplementedError(f"to_datetime with {', '.join(extra)}= (supported: "
                                  "errors, format, unit, utc)")
    if isinstance(arg, (str, int, float)) or type(arg).__name__ == "Timestamp":
        raise NotImplementedError("to_datetime of a scalar (use pandas.Timestamp); "
                                  "ember.frame converts Series and arrays")
    as_index = not isinstance(arg, Series)
    s = arg if isinstance(arg, Series) else Series(
        arg._col if isinstance(arg, Index) else arg)
    col = _convert(s._col, errors, format, unit)
    if utc:   # naive times read as UTC, aware ones shown in UTC (_tz.py)
        from ember.frame._column import Column
        from ember.frame._dt_fields import unit_of
        from ember.frame._tz import tz_dtype
        col = Column(tz_dtype(unit_of(col.dtype), "UTC"), col.values)
    if as_index:
        return Index(col, name=getattr(arg, "name", None))
    return s._like(col)


def _convert(col, errors, format, unit):
    d = col.dtype
    if d.kind == "M":
        return col
    if d.is_string:
        if unit is not None:
            raise ValueError("cannot specify both format and unit" if format else
                             "unit= applies to numbers, not strings")
        return parse_iso(col, errors, format)
    if d.kind in "iuf":
        return _from_numbers(col, unit or "ns")
    raise TypeError(f"to_datetime of a {d.name} column is not supported")


def _from_numbers(col, unit):
    """Numbers counted in `unit` since 1970: integers give datetime64[us]
    (ns for unit='ns'), floats datetime64[ns], as pandas 3 does."""
    if unit not in _UNIT_US and unit != "ns":
        raise ValueError(f"cannot cast unit {unit}")
    nulls = col.null_mask()
    v = col.values
    if col.dtype.kind == "f":
        m = 10 ** 9 if unit == "ns" else _UNIT_US[unit] * 1000
        base = ember.trunc(ember.where(nulls, 0.0, v))
        out = base.astype("int64") * m + ember.rint((v - base) * m).astype("int64")
        res = "ns"
    elif unit == "ns":
        out, res = v.astype("int64"), "ns"
    else:
        out, res = v.astype("int64") * _UNIT_US[unit], "us"
    if nulls is not None:
        out = ember.where(nulls, _NAT, out)
    return Column(f"datetime64[{res}]", out)


def parse_iso(col, errors="raise", format=None):
    """A str column of ISO-8601 dates and times -> datetime64[us] (ns when
    a row has more than 6 fraction digits). Without format=, every row must
    have the first row's shape (pandas infers the format from it);
    format='ISO8601' takes any of the shapes."""
    from ember.frame import _dt_formats
    if format not in (None, "ISO8601") and format not in _FORMATS and \
            _dt_formats.supported(format):   # day-month-year orders: made ISO
        col, format = _dt_formats.to_iso(col, format, errors), "%Y-%m-%d"
    if format not in (None, "ISO8601") and format not in _FORMATS:
        raise NotImplementedError(f"to_datetime with format={format!r} (supported: "
                                  "None, 'ISO8601', " + ", ".join(map(repr, _FORMATS)) + ")")
    n = col.length
    dev = col.device
    off = col.offsets.astype("int64")
    start, ln = off[:n], off[1:] - off[:n]
    raw = col.values
    nbytes = raw.shape[0]
    nulls = col.null_mask()
    present = ember.ones(n, dtype="bool", device=dev) if nulls is None else ~nulls

    # strings of one length (one format, no nulls: the usual column) are
    # a matrix of bytes, read by column; others gather each position
    width = int(ln[0]) if n and nbytes else -1
    grid = None
    if width > 0 and nbytes == n * width and bool((ln == width).all()):
        first = int(off[0])
        grid = raw[first:first + n * width].reshape(n, width)

    def ch(k):
        if grid is not None:
            return grid[:, k].astype("int64") if k < width else \
                ember.full(n, -1, dtype="int64", device=dev)
        if nbytes == 0:
            return ember.full(n, -1, dtype="int64", device=dev)
        b = raw[ember.minimum(start + k, nbytes - 1)].astype("int64")
        return ember.where(ln > k, b, -1)

    def digits(ks):
        """The number the bytes at positions ks spell, and whether all are
        digits: two generated passes (a missing byte reads -1, no digit)."""
        cs = [ch(k) for k in ks]
        names = "abcdefgh"[:len(cs)]
        val = names[0] + " - 48"
        for c in names[1:]:
            val = f"({val}) * 10 + ({c} - 48)"
        ok = " && ".join(f"({c} >= 48 && {c} <= 57)" for c in names)
        return (P.transform(val, *cs, dtype="int64"),
                P.transform(f"({ok}) ? 1 : 0", *cs, dtype="int64") != 0)

    y, oky = digits(range(0, 4))
    mo, okm = digits((5, 6))
    dd, okd = digits((8, 9))
    ok = oky & okm & okd & (ch(4) == 45) & (ch(7) == 45)
    hh, okh = digits((11, 12))
    mi, okn = digits((14, 15))
    ss, oks = digits((17, 18))
    sep = ch(10)
    has_t, has_s, has_f = ln >= 16, ln >= 19, ln >= 21
    ok = ok & ((ln == 10) | (ln == 16) | (ln == 19) | (has_f & (ln <= 29)))
    ok = ok & (~has_t | (((sep == 32) | (sep == 84)) & okh & okn & (ch(13) == 58)))
    ok = ok & (~has_s | (oks & (ch(16) == 58)))
    ok = ok & (~has_f | (ch(19) == 46))
    # nanoseconds, in two groups of positions (a kernel takes 8 inputs);
    # a position past the end (-1) counts as the digit 0
    frac = ember.zeros(n, dtype="int64", device=dev)
    for ks in (range(20, 25), range(25, 29)):
        cs = [ch(k) for k in ks]
        names = "abcdefgh"[:len(cs)]
        val = "0"
        for c in names:
            val = f"({val}) * 10 + ({c} < 0 ? 0 : {c} - 48)"
        good = " && ".join(f"({c} < 0 || ({c} >= 48 && {c} <= 57))" for c in names)
        frac = frac * 10 ** len(cs) + P.transform(val, *cs, dtype="int64")
        ok = ok & (P.transform(f"({good}) ? 1 : 0", *cs, dtype="int64") != 0)
    hh, mi, ss = (ember.where(has_t, hh, 0), ember.where(has_t, mi, 0),
                  ember.where(has_s, ss, 0))
    mo_c = ember.clip(mo, 1, 12)
    ok = ok & (mo >= 1) & (mo <= 12) & (dd >= 1) & (dd <= month_days(y, mo_c)) & \
        (hh < 24) & (mi < 60) & (ss < 60)
    shape = ember.where(has_f, 6, ember.where(has_s, 4, ember.where(has_t, 2, 0))) + \
        (has_t & (sep == 84))
    if format == "ISO8601":
        pass
    elif format is not None:
        ok = ok & (shape == _FORMATS[format])
    else:
        first = ember.flatnonzero(present)
        if first.shape[0]:
            ok = ok & (shape == shape[first[:1]])
    bad = present & ~ok
    if errors == "raise" and bool(bad.any()):
        from ember.frame._strings import to_pylist
        row = ember.flatnonzero(bad)[:1]
        text = to_pylist(col.take(row))[0]
        raise ValueError(f'time data "{text}" doesn\'t match the ISO-8601 format of the '
                         "first row (YYYY-MM-DD[ HH:MM[:SS[.fff]]]), or is not a valid date;"
                         " pass errors='coerce' for NaT, or format='ISO8601' for mixed "
                         "ISO forms")
    good = present & ok
    fine = bool((good & (ln > 26)).any())
    unit = "ns" if fine else "us"
    tps = _PER_SECOND[unit]
    days = days_from_civil(ember.where(good, y, 1970), ember.where(good, mo_c, 1),
                           ember.where(good, dd, 1))
    secs = days * 86400 + hh * 3600 + mi * 60 + ss
    sub = frac if fine else frac // 1000
    out = ember.where(good, secs * tps + sub, _NAT)
    return Column(f"datetime64[{unit}]", out)


# The date strings pandas' tutorials pass to date_range and label slices
# besides ISO 8601 (which NumPy reads): 20130101, and month/day/year
# with an optional time, as dateutil (pandas' parser, dayfirst=False)
# reads them.
_COMPACT = r"(\d{4})(\d{2})(\d{2})"
_US = r"(\d{1,2})/(\d{1,2})/(\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?)?"


def scalar_datetime(x):
    """A date-like scalar (str, Timestamp, datetime, datetime64) as a
    NumPy datetime64; ValueError naming a string none of the forms read."""
    import re
    import numpy as np
    if type(x).__name__ == "Timestamp":
        return x.to_datetime64()
    if not isinstance(x, str):
        return np.datetime64(x)
    t = x.strip()
    m = re.fullmatch(_COMPACT, t)
    if m:
        t = "-".join(m.groups())
    m = re.fullmatch(_US, t)
    if m:
        mo, d, y, hh, mi, ss = m.groups()
        t = f"{y}-{int(mo):02d}-{int(d):02d}"
        if hh is not None:
            whole, _, frac = (ss or "0").partition(".")
            t += f"T{int(hh):02d}:{mi}:{int(whole):02d}" + (f".{frac}" if frac else "")
    try:
        return np.datetime64(t)
    except ValueError:
        raise ValueError(f"could not read {x!r} as a date (ember.frame reads ISO "
                         "8601, YYYYMMDD and M/D/YYYY [HH:MM[:SS]])") from None


def _host_ticks(x, unit):
    """A date-like scalar as an int count of `unit` since 1970 (host
    arithmetic on one value)."""
    import numpy as np
    return int(scalar_datetime(x).astype(f"datetime64[{unit}]").astype(np.int64))


def date_range(start=None, end=None, periods=None, freq=None, name=None,
               inclusive="both", unit=None, **kw):
    from ember.frame._index import Index
    tz = kw.pop("tz", None)
    from ember.frame._offsets import is_offset
    if is_offset(freq):   # pandas' or ember's offset object: its frequency string
        freq = freq.freqstr
    extra = [k for k, v in kw.items() if v not in (None, False)]
    if extra:
        raise NotImplementedError(f"date_range with {', '.join(extra)}=")
    if tz is not None:
        return _zoned_range(start, end, periods, freq, name, inclusive, unit, tz)
    given = sum(v is not None for v in (start, end, periods))
    if given == 3 and freq is None:
        return _spaced(start, end, periods, name, inclusive, unit or "us")
    if given != 2:
        raise ValueError("Of the four parameters: start, end, periods, and freq, "
                         "exactly three must be specified")
    if inclusive not in ("both", "neither", "left", "right"):
        raise ValueError("Inclusive has to be either 'both', 'neither', 'left' or 'right'")
    unit = unit or "us"
    if unit not in _PER_SECOND:
        raise ValueError(f"unit must be one of s, ms, us, ns, not {unit!r}")
    freq = "D" if freq is None else freq
    from ember.frame._resample_calendar import calendar_range, calendar_rule
    cal = calendar_rule(freq)
    a = _host_ticks(start, unit) if start is not None else None
    b = _host_ticks(end, unit) if end is not None else None
    if cal is not None:
        values = calendar_range(cal, a, b, periods, 86400 * _PER_SECOND[unit])
        count = values.shape[0]
    else:
        per = 10 ** 9 // _PER_SECOND[unit]
        step = fixed_ns(freq, "date_range")
        if step % per:
            raise ValueError(f"the frequency {freq!r} is finer than unit={unit!r}")
        step //= per
        if a is None:
            a = b - (periods - 1) * step
        count = periods if periods is not None else max((b - a) // step + 1, 0)
        values = a + ember.arange(count, dtype="int64") * step
    keep_first = inclusive in ("both", "left") or start is None
    keep_last = inclusive in ("both", "right") or end is None
    lo = 0 if keep_first or not count or int(values[0]) != a else 1
    hi = count if keep_last or not count or b is None or \
        int(values[count - 1]) != b else count - 1
    return Index(Column(f"datetime64[{unit}]", values[lo:hi]), name=name)


def _zoned_range(start, end, periods, freq, name, inclusive, unit, tz):
    """date_range(tz=): days and calendar steps are the zone's (wall times
    read in it), shorter steps real time from the first wall time's
    instant, as pandas makes them (_tz.py)."""
    from ember.frame._index import Index
    from ember.frame._tz import localize, tz_dtype, zone
    z = zone(tz)
    for x in (start, end):
        if getattr(x, "tzinfo", None) is not None:
            raise NotImplementedError("date_range(tz=) with an aware start or end; pass "
                                      "naive wall times")
    unit = unit or "us"
    sub_day = False
    if freq is not None and not (start is not None and end is not None and
                                 periods is not None):
        from ember.frame._resample_calendar import calendar_rule
        sub_day = calendar_rule(freq) is None and \
            fixed_ns(freq, "date_range") % 86400_000_000_000 != 0
    if not sub_day:
        idx = date_range(start, end, periods, freq, name, inclusive, unit)
        c = idx._col
        return Index(Column(tz_dtype(c.dtype.name[11:-1], z),
                            localize(c.values, c.dtype.name[11:-1], z)), name=name)
    ends = [x for x in (start, end) if x is not None]
    ticks = [_host_ticks(x, unit) for x in ends]
    utc = [int(v) for v in ember.asnumpy(localize(ember.asarray(ticks, dtype="int64"),
                                                  unit, z))]
    import numpy as np
    conv = [np.datetime64(v, unit) for v in utc]
    s2 = conv[0] if start is not None else None
    e2 = conv[-1] if end is not None else None
    idx = date_range(s2, e2, periods, freq, name, inclusive, unit)
    return Index(Column(tz_dtype(unit, z), idx._col.values), name=name)


def _spaced(start, end, periods, name, inclusive, unit):
    """date_range(start, end, periods): evenly spaced, as NumPy's linspace
    makes them (float steps, truncated; the end exact)."""
    from ember.frame._index import Index
    a, b = _host_ticks(start, unit), _host_ticks(end, unit)
    k = ember.arange(periods, dtype="float64")
    step = (b - a) / (periods - 1) if periods > 1 else 0.0
    values = (k * step + a).astype("int64")
    if periods > 1:
        values[periods - 1:] = b
    lo = 0 if inclusive in ("both", "left") else 1
    hi = periods if inclusive in ("both", "right") else periods - 1
    return Index(Column(f"datetime64[{unit}]", values[lo:max(hi, lo)]), name=name)
