"""between_time, at_time and asfreq of a Series or DataFrame on a
datetime index. The time arguments are read on the host (they are
scalars); the rows are kept by one comparison of each label's time of
day (its ticks past midnight, as _dt_fields computes them), and asfreq
reindexes onto a date_range (_asfreq)."""
import datetime
import re

import ember

from ember.frame._column import _NAT
from ember.frame._dt_fields import _PER_SECOND, unit_of

# pandas' to_time forms: H:MM[:SS[.f]] and the compact HHMM[SS], with an
# optional AM/PM (then the hour is 1-12)
_CLOCK = re.compile(r"(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?\s*([AaPp][Mm])?")
_COMPACT = re.compile(r"(\d{1,2}?)(\d{2})?(\d{2})?\s*([AaPp][Mm])?")
_INCLUSIVE = ("both", "neither", "left", "right")


def _time(x):
    """A time of day (str or datetime.time) as microseconds past midnight;
    pandas' ValueError for what is neither."""
    if isinstance(x, datetime.time):
        if x.tzinfo is not None:
            raise NotImplementedError("between_time/at_time with a time zone "
                                      "(datetimes are naive here)")
        return ((x.hour * 60 + x.minute) * 60 + x.second) * 10 ** 6 + x.microsecond
    if isinstance(x, str):
        t = x.strip()
        m = _CLOCK.fullmatch(t)
        if m:
            h, mi, s, frac, ampm = m.groups()
        else:
            m = _COMPACT.fullmatch(t)
            h, mi, s, ampm = m.groups() if m else (None,) * 4
            frac = None
        if h is not None:
            h, mi, s = int(h), int(mi or 0), int(s or 0)
            us = int((frac or "").ljust(6, "0") or 0)
            if ampm is not None:
                ok = 1 <= h <= 12
                h = h % 12 + (12 if ampm.lower() == "pm" else 0)
            else:
                ok = True
            if ok and h < 24 and mi < 60 and s < 60:
                return ((h * 60 + mi) * 60 + s) * 10 ** 6 + us
    raise ValueError(f"Cannot convert arg [{x!r}] to a time")


def datetime_labels(obj):
    """The index's int64 ticks and its unit; TypeError, as pandas, when
    it is not a datetime index."""
    idx = obj.index
    if getattr(idx, "nlevels", 1) != 1 or getattr(idx.dtype, "kind", "") != "M":
        raise TypeError("Index must be DatetimeIndex")
    return idx._column(idx.device).values, unit_of(idx.dtype)


def _time_of_day(obj):
    """Each label's ticks past midnight (-1 for NaT, which no time
    selects), and ticks per microsecond's conversion of the arguments."""
    v, unit = datetime_labels(obj)
    tpd = 86400 * _PER_SECOND[unit]
    tod = v - ember.floor_divide(v, tpd) * tpd
    return ember.where(v == _NAT, -1, tod), unit


def _bounds(us, unit):
    """Microseconds past midnight in the index's unit, floored and ceiled
    (equal unless the unit is coarser than the time)."""
    x = us * _PER_SECOND[unit]
    return x // 10 ** 6, -((-x) // 10 ** 6)


def between_time(obj, start_time, end_time, inclusive="both", axis=None):
    from ember.frame._select import keep_rows
    if axis not in (None, 0, "index", "rows"):
        raise NotImplementedError("between_time(axis=1): only the row index is a "
                                  "datetime index here")
    if inclusive not in _INCLUSIVE:
        raise ValueError("Inclusive has to be either 'both', 'neither', 'left' or 'right'")
    tod, unit = _time_of_day(obj)
    a, b = _time(start_time), _time(end_time)
    (a_lo, a_hi), (b_lo, b_hi) = _bounds(a, unit), _bounds(b, unit)
    left = (tod >= a_hi) if inclusive in ("both", "left") else (tod > a_lo)
    right = (tod <= b_lo) if inclusive in ("both", "right") else (tod < b_hi)
    keep = (left & right) if a <= b else (left | right)   # across midnight: either side
    return keep_rows(obj, keep & (tod >= 0))


def at_time(obj, time, asof=False, axis=None):
    from ember.frame._select import keep_rows
    if asof:
        raise NotImplementedError("at_time(asof=True) is not implemented")   # pandas too
    if axis not in (None, 0, "index", "rows"):
        raise NotImplementedError("at_time(axis=1): only the row index is a datetime "
                                  "index here")
    tod, unit = _time_of_day(obj)
    us = _time(time)
    t = us * _PER_SECOND[unit]
    if t % 10 ** 6:   # finer than the index's unit: no label is at it
        return keep_rows(obj, tod < -1)
    return keep_rows(obj, tod == t // 10 ** 6)


class TimeSelectMethods:
    """The datetime-index selections of Series and DataFrame."""

    def between_time(self, start_time, end_time, inclusive="both", axis=None):
        """The rows whose time of day is between start_time and end_time
        (across midnight when start_time is later), as pandas."""
        return between_time(self, start_time, end_time, inclusive, axis)

    def at_time(self, time, asof=False, axis=None):
        """The rows whose time of day is `time`."""
        return at_time(self, time, asof, axis)

    def asfreq(self, freq, method=None, how=None, normalize=False, fill_value=None):
        """The values at a regular date range from the first label to the
        last (pandas' asfreq): a label the index lacks is null, or
        fill_value, or its neighbour's value with method ffill/bfill."""
        from ember.frame._asfreq import asfreq
        return asfreq(self, freq, method, how, normalize, fill_value)
