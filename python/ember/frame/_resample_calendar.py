"""Calendar frequencies for resample and date_range: month, quarter and
year ends and starts (ME, MS, QE, QS, YE, YS, with pandas' -MON anchors),
weeks (W, W-SUN ... W-SAT) and business days (B). Each timestamp's day
count becomes a period number on the device (a month count y * 12 + m - 1
through the civil-from-days arithmetic of the dt accessor, a week, or a
business-day count) and a bin is a run of `k` periods anchored at the
first row's, as pandas anchors its bins at the first timestamp."""
import re

import ember
import ember.parallel as P

from ember.frame._dt_fields import _CIVIL, days_from_civil

_MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT",
           "NOV", "DEC")
_DAYS = ("MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN")
# (months a period, default anchor, closed and labelled on the right?)
_MONTHLY = {"ME": (1, None, True), "MS": (1, None, False),
            "QE": (3, "DEC", True), "QS": (3, "JAN", False),
            "YE": (12, "DEC", True), "YS": (12, "JAN", False)}
# pandas 3 no longer parses these, and says which to use instead
_RENAMED = {"M": "ME", "Q": "QE", "Y": "YE", "A": "YE", "BM": "BME", "BQ": "BQE",
            "BY": "BYE", "BA": "BYE", "H": "h", "T": "min", "S": "s", "L": "ms",
            "U": "us", "N": "ns", "AS": "YS"}


class CalendarRule:
    """A parsed calendar frequency: kind ('month', 'week', 'bday'), the
    multiple k, and where its bins close."""

    def __init__(self, kind, k, months=1, anchor=0, right=False):
        self.kind, self.k, self.months, self.anchor = kind, k, months, anchor
        self.side = "right" if right else "left"

    def periods(self, days):
        """Each day's period number (int64): the period whose bin holds it."""
        if self.kind == "week":   # the week that ends on the anchor day
            return ember.floor_divide(days + ember.remainder(self.anchor - 3 - days, 7), 7)
        if self.kind == "bday":   # Saturday and Sunday belong to Friday
            return P.transform("(a + 3 >= 0 ? (a + 3) / 7 : -((-(a + 3) + 6) / 7)) * 5 "
                               "+ (((a + 3) % 7 + 7) % 7 < 4 ? ((a + 3) % 7 + 7) % 7 : 4)",
                               days)
        mi = P.transform(f"({_CIVIL['y']}) * 12LL + ({_CIVIL['m']}) - 1", days)
        if self.months == 1:
            return mi
        # periods start on the anchor months
        return ember.floor_divide(mi - self.anchor, self.months)

    def days_of(self, p):
        """The label day (days since 1970) of period numbers p."""
        if self.kind == "week":
            return p * 7 + (self.anchor - 3) % 7
        if self.kind == "bday":
            return ember.floor_divide(p, 5) * 7 + ember.remainder(p, 5) - 3
        first = p * self.months + self.anchor   # the period's first month
        if self.side == "right":   # the last day of its last month
            first = first + self.months
            return days_from_civil(ember.floor_divide(first, 12),
                                   ember.remainder(first, 12) + 1, 1) - 1
        return days_from_civil(ember.floor_divide(first, 12), ember.remainder(first, 12) + 1, 1)

    def bins(self, days):
        """(code, label days): each row's bin from 0, and every bin's label
        from the first row's to the last row's."""
        p = self.periods(days)
        p0 = int(p.min())
        d = p - p0
        if self.k == 1:
            code = d
        elif self.side == "right":   # a bin ends at the first row's period
            code = -ember.floor_divide(-d, self.k)
        else:
            code = ember.floor_divide(d, self.k)
        nb = int(code.max()) + 1
        labels = p0 + ember.arange(nb, dtype="int64", device=days.device) * self.k
        return code, self.days_of(labels)


def calendar_rule(rule):
    """The CalendarRule of a frequency string, None for a fixed one ('3D');
    ValueError for the spellings pandas 3 no longer accepts."""
    if not isinstance(rule, str):
        return None
    m = re.fullmatch(r"(\d*)([A-Za-z]+)(?:-([A-Za-z]{3}))?", rule.strip())
    if m is None:
        return None
    k = int(m.group(1)) if m.group(1) else 1
    base, anchor = m.group(2), m.group(3)
    if base in _RENAMED and anchor is None or base in ("M", "Q", "Y", "A"):
        new = _RENAMED[base]
        raise ValueError(f"Invalid frequency: {rule}. Failed to parse with error "
                         f"message: ValueError(\"'{base}' is no longer supported for "
                         f"offsets. Please use '{new}' instead.\")")
    if base not in _MONTHLY and base not in ("W", "B"):
        return None
    if k <= 0:
        raise ValueError(f"Invalid frequency: {rule}")
    if base == "B":
        if anchor is not None:
            raise ValueError(f"Invalid frequency: {rule}")
        return CalendarRule("bday", k)
    if base == "W":
        day = (anchor or "SUN").upper()
        if day not in _DAYS:
            raise ValueError(f"Invalid frequency: {rule}")
        return CalendarRule("week", k, anchor=_DAYS.index(day), right=True)
    months, default, right = _MONTHLY[base]
    if anchor is not None and months == 1:
        raise ValueError(f"Invalid frequency: {rule}")
    name = (anchor or default or "JAN").upper()
    if name not in _MONTHS:
        raise ValueError(f"Invalid frequency: {rule}")
    a = _MONTHS.index(name)
    # the anchor as the first month of a period, counted from January
    start = (a + 1) % months if right else a % months
    return CalendarRule("month", k, months, start if months > 1 else 0, right)


def calendar_range(cal, a, b, periods, tpd):
    """date_range's int64 ticks over a calendar frequency: the start (a)
    rolled forward, or the end (b) rolled back, to a date on the rule,
    keeping its time of day, then every k-th period. a, b are host ints
    (None when not given); only the few host scalars are worked out here."""
    one = ember.zeros(1, dtype="int64")

    def period(day):
        return int(cal.periods(one + day)[0])

    def label(p):
        return int(cal.days_of(one + p)[0])

    if a is not None:
        day, tod = divmod(a, tpd)
        first = period(day)
        first += label(first) < day   # roll forward
    if b is not None:
        day_b, tod_b = divmod(b, tpd)
        last = period(day_b)
        last -= label(last) > day_b   # roll back
    if a is None:
        first, tod = last - (periods - 1) * cal.k, tod_b
    if periods is None:
        periods = max((last - first) // cal.k + 1, 0)
        if periods and label(first + (periods - 1) * cal.k) * tpd + tod > b:
            periods -= 1   # the last date is on the end's day, but later
    p = first + ember.arange(periods, dtype="int64") * cal.k
    return cal.days_of(p) * tpd + tod
