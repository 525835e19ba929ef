"""pandas' date offsets added to datetime columns (Series and
DatetimeIndex): the offset is read from its class name and attributes,
so pandas' own objects (pd.offsets.BDay(5)) and ember.frame.offsets'
work alike, and applied as array operations over the column's int64
counts on its device: the day count and time of day by floor division,
the weekday as (days + 3) mod 7 (1970-01-01 was a Thursday), months
through the civil-from-days arithmetic of the dt accessor. The rules
(roll forward or back before shifting, by the sign of n) are pandas'
own, stated in its liboffsets; NaT stays NaT; normalize=True drops the
time of day after the shift; on an aware column a calendar offset moves
the wall times and localizes them again, as pandas does."""
import ember
import ember.parallel as P

from ember.frame._column import Column, _NAT
from ember.frame._dt_fields import _CIVIL, _NAT_C, _PER_SECOND, _fdiv, \
    days_from_civil, month_days, unit_of

# pandas' DateOffset reports the module "pandas"
_MODULES = ("pandas._libs.tslibs.offsets", "pandas", "ember.frame.offsets")
# ticks: nanoseconds a unit (pandas 3's Day is a calendar day, not a tick)
_TICK_NS = {"Hour": 3600 * 10 ** 9, "Minute": 60 * 10 ** 9, "Second": 10 ** 9,
            "Milli": 10 ** 6, "Micro": 10 ** 3, "Nano": 1}
# anchored offsets: (months a period, the anchor attribute, its default,
# which day of the month the offset lands on)
_ANCHORED = {
    "MonthEnd": (1, None, 0, "end"), "MonthBegin": (1, None, 0, "start"),
    "BusinessMonthEnd": (1, None, 0, "bend"), "BusinessMonthBegin": (1, None, 0, "bstart"),
    "QuarterEnd": (3, "startingMonth", 3, "end"),
    "QuarterBegin": (3, "startingMonth", 3, "start"),
    "BQuarterEnd": (3, "startingMonth", 3, "bend"),
    "BQuarterBegin": (3, "startingMonth", 3, "bstart"),
    "YearEnd": (12, "month", 12, "end"), "YearBegin": (12, "month", 1, "start"),
    "BYearEnd": (12, "month", 12, "bend"), "BYearBegin": (12, "month", 1, "bstart"),
}
# DateOffset's relative keywords that pandas also applies as array work;
# the singular ones (year=, month=, day=, ...) replace fields instead
_RELATIVE = ("years", "months", "weeks", "days", "hours", "minutes", "seconds",
             "milliseconds", "microseconds", "nanoseconds")
_KW_NS = {"days": 86400 * 10 ** 9, "hours": 3600 * 10 ** 9, "minutes": 60 * 10 ** 9,
          "seconds": 10 ** 9, "milliseconds": 10 ** 6, "microseconds": 10 ** 3,
          "nanoseconds": 1}
BUILT = ("BusinessDay", "Day", "Week", "DateOffset") + tuple(_TICK_NS) + tuple(_ANCHORED)


def is_offset(x):
    return type(x).__module__ in _MODULES and hasattr(x, "n")


def _kind(off):
    name = type(off).__name__
    if name not in BUILT:
        raise NotImplementedError(
            f"date offset {name} is not supported by ember.frame; the ones built are "
            f"{', '.join(BUILT)}")
    return name


def apply(col, off, op, reflected=False):
    """col + off (op 'add') or col - off (op 'sub') for a datetime64 or
    timedelta64 Column and a date offset."""
    if reflected and op == "sub":
        raise TypeError(f"cannot subtract a {col.dtype.name} column from "
                        f"{type(off).__name__}")
    name = _kind(off)
    if col.dtype.kind not in "Mm":
        raise TypeError(f"cannot add a date offset ({name}) to a {col.dtype.name} column")
    n = -int(off.n) if op == "sub" else int(off.n)
    unit = unit_of(col.dtype)
    per = 10 ** 9 // _PER_SECOND[unit]   # ns a count of the column's unit
    if col.dtype.kind == "m":
        if name not in _TICK_NS and name != "Day":
            raise TypeError(f"cannot add {name} to a {col.dtype.name} column "
                            "(only fixed offsets: Day, Hour, Minute, Second, ...)")
        return Column(col.dtype, _shift_ticks(col.values, n * _ns(name), per, name))
    v = col.values
    if name in _TICK_NS:
        return Column(col.dtype, _shift_ticks(v, n * _TICK_NS[name], per, name))
    tz = getattr(col.dtype, "tz", None)
    if tz is not None:   # pandas moves the wall times, then localizes them again
        from ember.frame._tz import localize, to_local
        v = to_local(v, unit, tz)
    out = _calendar(v, off, name, n, unit, per)
    if tz is not None:
        out = localize(out, unit, tz)
    return Column(col.dtype, out)


def _calendar(v, off, name, n, unit, per):
    """The int64 counts v moved by a calendar offset (n steps)."""
    tpd = 86400 * _PER_SECOND[unit]
    days = P.transform(f"a == {_NAT_C} ? 0LL : {_fdiv('a', tpd)}", v)
    tod = ember.where(v == _NAT, 0, v - days * tpd)
    extra = 0   # counts added after the day arithmetic (BusinessDay's offset=)
    if name == "BusinessDay":
        new = days + _bday_shift(days, n)
        # pandas adds offset= after the shift whatever n's sign (-off keeps it)
        extra = _td_counts(getattr(off, "offset", None), per)
    elif name == "Day":
        new = days + n
    elif name == "Week":
        new = _week(days, n, getattr(off, "weekday", None))
    elif name == "DateOffset":
        new, extra = _relative(days, n, off, per)
    else:
        months, attr, default, opt = _ANCHORED[name]
        anchor = default if attr is None else int(getattr(off, attr) or default)
        new = _anchored(days, n, months, anchor, opt)
    out = new * tpd + (0 if off.normalize else tod) + extra
    return ember.where(v == _NAT, _NAT, out)


def _ns(name):
    return 86400 * 10 ** 9 if name == "Day" else _TICK_NS[name]


def _shift_ticks(v, ns, per, name):
    if ns % per:
        raise NotImplementedError(f"{name} is finer than the column's unit; astype "
                                  "a finer unit first")
    return ember.where(v == _NAT, _NAT, v + ns // per)


def _td_counts(td, per):
    """A timedelta (BusinessDay's offset=) as counts of the column's unit."""
    if td is None:
        return 0
    ns = (td.days * 86400 + td.seconds) * 10 ** 9 + td.microseconds * 1000 + \
        int(getattr(td, "nanoseconds", 0))
    return ns // per


def _bday_shift(days, n):
    """Days to add for n business days from each day (pandas' shift_bdays:
    whole weeks first, then the remainder within or past a weekend; a
    weekend day rolls forward for n <= 0)."""
    weeks = n // 5
    wd = n - 5 * weeks                            # weekday start: 0..4
    we = (n + 1 if n <= 0 else n) - 5 * weeks     # weekend start
    return P.transform(
        f"(((a + 3) % 7 + 7) % 7 > 4 ? ({we} == 0 ? 4 - ((a + 3) % 7 + 7) % 7 : "
        f"7 - ((a + 3) % 7 + 7) % 7 + {we} - 1) : "
        f"(((a + 3) % 7 + 7) % 7 + {wd} <= 4 ? {wd} : {wd} + 2)) + {7 * weeks}LL", days)


def _week(days, n, weekday):
    """Week(n, weekday): n weeks; with a weekday, a day off it first moves
    forward to it (which counts as one of n > 0 weeks)."""
    if weekday is None:
        return days + 7 * n
    delta = ember.remainder(int(weekday) - 3 - days, 7)
    k = n - (delta != 0).astype("int64") if n > 0 else n
    return days + delta + 7 * k


def _civil(days):
    return (P.transform(_CIVIL["y"], days), P.transform(_CIVIL["m"], days))


def _landing(y, m, opt):
    """The day (days since 1970) an offset lands on in month (y, m):
    the first or last day, or the first or last weekday."""
    first = days_from_civil(y, m, ember.ones_like(m))
    if opt in ("start", "bstart"):
        if opt == "start":
            return first
        w = ember.remainder(first + 3, 7)
        return first + ember.where(w == 5, 2, ember.where(w == 6, 1, 0))
    last = first + month_days(y, m) - 1
    if opt == "end":
        return last
    w = ember.remainder(last + 3, 7)
    return last - ember.where(w == 5, 1, ember.where(w == 6, 2, 0))


def _shift_months(y, m, months, opt, day=None):
    """The landing day `months` months after (y, m); opt None keeps the
    day of the month, clipped to the new month's length."""
    total = y * 12 + (m - 1) + months
    ny, nm = ember.floor_divide(total, 12), ember.remainder(total, 12) + 1
    if opt is None:
        first = days_from_civil(ny, nm, ember.ones_like(nm))
        return first + ember.minimum(day, month_days(ny, nm)) - 1
    return _landing(ny, nm, opt)


def _anchored(days, n, months, anchor, opt):
    """Month, quarter and year offsets (pandas' roll_qtrday and
    shift_month): a date before its period's landing day counts as a step
    of n > 0, one after it as a step of n <= 0, then the shift."""
    y, m = _civil(days)
    if months == 1:
        since = m * 0
    elif months == 3:   # months from the quarter's anchor month
        since = ember.remainder(m, 3) - anchor % 3
    else:
        since = m - anchor
    cmp = _landing(y, m, opt)
    if n > 0:
        k = n - ((since < 0) | ((since == 0) & (days < cmp))).astype("int64")
    else:
        k = n + ((since > 0) | ((since == 0) & (days > cmp))).astype("int64")
    shift = k * 12 + (anchor - m) if months == 12 else k * months - since
    return _shift_months(y, m, shift, opt)


def _relative(days, n, off, per):
    """DateOffset(years=, months=, weeks=, days=, hours=, ...) times n:
    the months first (the day clipped to the month), then the rest as a
    fixed length; DateOffset() alone is one day."""
    kw = dict(getattr(off, "kwds", {}) or {})
    kw.pop("n", None)
    kw.pop("normalize", None)
    bad = [k for k in kw if k not in _RELATIVE]
    if bad:
        raise NotImplementedError(
            f"DateOffset({', '.join(k + '=' for k in bad)}) is not supported by "
            "ember.frame (only the relative keywords: " + ", ".join(_RELATIVE) + ")")
    if not kw:
        return days + n, 0
    months = (int(kw.get("years", 0)) * 12 + int(kw.get("months", 0))) * n
    new = days
    if months:
        y, m = _civil(days)
        d = P.transform(_CIVIL["d"], days)
        new = _shift_months(y, m, months, None, d)
    new = new + int(kw.get("weeks", 0)) * 7 * n
    ns = sum(kw.get(k, 0) * _KW_NS[k] for k in _KW_NS) * n
    if ns != int(ns) or int(ns) % per:
        raise NotImplementedError("DateOffset: a length finer than the column's unit")
    return new, int(ns) // per
