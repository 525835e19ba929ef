"""ember.frame.offsets: pandas.tseries.offsets' spellings for the date
offsets ember.frame applies (_offsets.py does the arithmetic, reading
these and pandas' own objects alike). They are host values, as pandas'
are: n, normalize and each offset's anchor; `to_pandas()` gives pandas'
object, which also serves a Timestamp + offset."""
import datetime

_MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT",
           "NOV", "DEC")
_TICK_NS = {"h": 3600 * 10 ** 9, "min": 60 * 10 ** 9, "s": 10 ** 9, "ms": 10 ** 6,
            "us": 10 ** 3, "ns": 1}
_DAYS = ("MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN")


class BaseOffset:
    _code = None          # pandas' frequency code (freqstr)
    _attrs = ()           # the anchor attributes, with their defaults below
    _defaults = {}
    _display = None       # pandas' name in the repr, where not the class's

    def __init__(self, n=1, normalize=False, **attrs):
        if isinstance(n, bool) or not isinstance(n, int) and not \
                (hasattr(n, "__index__") and not isinstance(n, float)):
            raise TypeError(f"`n` argument must be an integer, got {type(n)}")
        self.n, self.normalize = int(n), bool(normalize)
        for k in self._attrs:
            setattr(self, k, attrs.pop(k, self._defaults.get(k)))
        if attrs:
            raise TypeError(f"{type(self).__name__}() got an unexpected keyword "
                            f"argument {next(iter(attrs))!r}")

    def _with_n(self, n):
        return type(self)(n, self.normalize, **{k: getattr(self, k) for k in self._attrs})

    def __neg__(self):
        return self._with_n(-self.n)

    def __mul__(self, k):
        if isinstance(k, int) and not isinstance(k, bool):
            return self._with_n(self.n * k)
        return NotImplemented

    __rmul__ = __mul__

    def _key(self):
        return (type(self).__name__, self.n, self.normalize) + tuple(
            getattr(self, k) for k in self._attrs)

    def __eq__(self, other):
        if isinstance(other, BaseOffset):
            return self._key() == other._key()
        return NotImplemented

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        # pandas shows an anchor and weekday= always, offset= when set
        extra = ", ".join(f"{k}={getattr(self, k)!r}" for k in self._attrs
                          if getattr(self, k) != datetime.timedelta(0))
        name = self._display or type(self).__name__
        head = f"<{name}" if self.n == 1 else \
            f"<{self.n} * {name}{'s' if abs(self.n) != 1 else ''}"
        return head + (f": {extra}>" if extra else ">")

    @property
    def freqstr(self):
        """pandas' frequency string ('5B', 'W-MON', 'QE-DEC'): what
        date_range(freq=) reads."""
        return (str(self.n) if self.n != 1 else "") + self._rule()

    def _rule(self):
        return self._code

    def to_pandas(self):
        from ember.frame._pandas import pandas
        cls = getattr(pandas().offsets, type(self).__name__)
        kw = {k: getattr(self, k) for k in self._attrs}
        return cls(self.n, normalize=self.normalize, **kw) if not isinstance(
            self, Tick) else cls(self.n)

    # a Series or Index takes the offset itself (Series.__radd__); any
    # other operand (a Timestamp) is pandas' business
    def __add__(self, other):
        if type(other).__module__.startswith("ember"):
            return other.__radd__(self)
        return self.to_pandas() + other

    __radd__ = __add__

    def __rsub__(self, other):
        if type(other).__module__.startswith("ember"):
            return other.__sub__(self)
        return other - self.to_pandas()


class Tick(BaseOffset):
    def __init__(self, n=1, normalize=False):
        if normalize:
            raise ValueError("Tick offset with `normalize=True` is not allowed.")
        BaseOffset.__init__(self, n)

    @property
    def nanos(self):
        """The length in nanoseconds (what a time window reads)."""
        return self.n * _TICK_NS[self._code]


class Hour(Tick):
    _code = "h"


class Minute(Tick):
    _code = "min"


class Second(Tick):
    _code = "s"


class Milli(Tick):
    _code = "ms"


class Micro(Tick):
    _code = "us"


class Nano(Tick):
    _code = "ns"


class Day(BaseOffset):
    _code = "D"


class BusinessDay(BaseOffset):
    _code = "B"
    _attrs = ("offset",)
    _defaults = {"offset": datetime.timedelta(0)}


class Week(BaseOffset):
    _attrs = ("weekday",)

    def _rule(self):
        return "W" if self.weekday is None else "W-" + _DAYS[self.weekday]


class MonthEnd(BaseOffset):
    _code = "ME"


class MonthBegin(BaseOffset):
    _code = "MS"


class BusinessMonthEnd(BaseOffset):
    _code = "BME"


class BusinessMonthBegin(BaseOffset):
    _code = "BMS"


class _Anchored(BaseOffset):
    def _rule(self):
        return f"{self._code}-{_MONTHS[getattr(self, self._attrs[0]) - 1]}"


class QuarterEnd(_Anchored):
    _code, _attrs, _defaults = "QE", ("startingMonth",), {"startingMonth": 3}


class QuarterBegin(_Anchored):
    _code, _attrs, _defaults = "QS", ("startingMonth",), {"startingMonth": 3}


class BQuarterEnd(_Anchored):
    _display = "BusinessQuarterEnd"
    _code, _attrs, _defaults = "BQE", ("startingMonth",), {"startingMonth": 3}


class BQuarterBegin(_Anchored):
    _display = "BusinessQuarterBegin"
    _code, _attrs, _defaults = "BQS", ("startingMonth",), {"startingMonth": 3}


class YearEnd(_Anchored):
    _code, _attrs, _defaults = "YE", ("month",), {"month": 12}


class YearBegin(_Anchored):
    _code, _attrs, _defaults = "YS", ("month",), {"month": 1}


class BYearEnd(_Anchored):
    _code, _attrs, _defaults = "BYE", ("month",), {"month": 12}


class BYearBegin(_Anchored):
    _code, _attrs, _defaults = "BYS", ("month",), {"month": 1}


class DateOffset(BaseOffset):
    """DateOffset(n=1, normalize=False, years=, months=, weeks=, days=,
    hours=, minutes=, seconds=, milliseconds=, microseconds=,
    nanoseconds=): relative lengths, months first."""

    def __init__(self, n=1, normalize=False, **kwds):
        BaseOffset.__init__(self, n, normalize)
        self.kwds = dict(kwds)

    def _with_n(self, n):
        return DateOffset(n, self.normalize, **self.kwds)

    def _key(self):
        return ("DateOffset", self.n, self.normalize, tuple(sorted(self.kwds.items())))

    def __repr__(self):
        kw = ", ".join(f"{k}={v}" for k, v in sorted(self.kwds.items()))
        plural = "s" if abs(self.n) != 1 else ""
        return f"<DateOffset{': ' + kw if kw else ''}>" if self.n == 1 else \
            f"<{self.n} * DateOffset{plural}{': ' + kw if kw else ''}>"

    @property
    def freqstr(self):
        return repr(self)

    def to_pandas(self):
        from ember.frame._pandas import pandas
        return pandas().DateOffset(self.n, normalize=self.normalize, **self.kwds)


BDay = BusinessDay
BMonthEnd = BusinessMonthEnd
BMonthBegin = BusinessMonthBegin
