"""Calendar fields of datetime64/timedelta64 columns from their int64
counts, as ember ufunc compositions: days since 1970 to a proleptic
Gregorian (year, month, day) by the era arithmetic of Howard Hinnant's
days-to-civil algorithm, the time of day by floor division; fixed-step
floor/ceil/round. NaT stays NaT, and makes int fields float64 with NaN,
as in pandas."""
import re

import ember
import ember.parallel as P

from ember.frame._column import Column, _NAT

_PER_SECOND = {"s": 1, "ms": 10 ** 3, "us": 10 ** 6, "ns": 10 ** 9}
_TICKS = {"D": 86400 * 10 ** 9, "h": 3600 * 10 ** 9, "min": 60 * 10 ** 9,
          "s": 10 ** 9, "ms": 10 ** 6, "us": 10 ** 3, "ns": 1}
_DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]


def _local(values, unit, tz):
    from ember.frame._tz import to_local
    return to_local(values, unit, tz)


def unit_of(dtype):
    return dtype.name[dtype.name.index("[") + 1:-1].split(",")[0]   # a zone after it


def fixed_ns(freq, what):
    """The length in ns of a fixed frequency ('15min', 'h', '2D', 's', ...);
    NotImplementedError naming calendar ones (month, year, business day),
    whose length varies."""
    if type(freq).__name__ in ("Timedelta", "timedelta64", "timedelta"):
        import numpy as np
        return int(np.timedelta64(freq, "ns").astype(np.int64))
    # pandas also reads 'Min'/'MIN' as minutes and 'd' as days
    m = re.fullmatch(r"(\d*)(D|d|h|min|Min|MIN|s|ms|us|ns)", str(freq))
    if m is None:
        raise NotImplementedError(
            f"{what} with the frequency {freq!r}: only fixed frequencies (D, h, "
            "min, s, ms, us, ns and their multiples such as '15min') are supported; "
            "calendar ones (M, ME, MS, Q, Y, B, W) vary in length")
    k = int(m.group(1)) if m.group(1) else 1
    if k <= 0:
        raise ValueError(f"Invalid frequency: {freq}")
    unit = m.group(2)
    return k * _TICKS["min" if unit.lower() == "min" else "D" if unit == "d" else unit]


def _fdiv(x, k):
    """C: floor(x / k) of an int64 x for a constant k > 0."""
    return f"(({x}) >= 0 ? ({x}) / {k}LL : -((-({x}) + {k}LL - 1) / {k}LL))"


def _civil_c():
    """(year, month, day) of the int64 day count `a` since 1970-01-01 as
    three C expressions (Hinnant's era arithmetic), so that each field is
    one pass over the column instead of some twenty ufunc calls (the
    compiler shares the repeated subexpressions)."""
    z = "(a + 719468LL)"
    era = _fdiv(z, 146097)
    doe = f"({z} - {era} * 146097LL)"
    yoe = f"(({doe} - {doe} / 1460 + {doe} / 36524 - {doe} / 146096) / 365)"
    doy = f"({doe} - (365 * {yoe} + {yoe} / 4 - {yoe} / 100))"
    mp = f"((5 * {doy} + 2) / 153)"
    m = f"({mp} < 10 ? {mp} + 3 : {mp} - 9)"
    y = f"({yoe} + {era} * 400 + ({m} <= 2))"
    d = f"({doy} - (153 * {mp} + 2) / 5 + 1)"
    leap = f"(({y}) % 4 == 0 && (({y}) % 100 != 0 || ({y}) % 400 == 0))"
    dim = f"({m} == 2 ? 28 + {leap} : ({m} == 4 || {m} == 6 || {m} == 9 || {m} == 11) ? 30 : 31)"
    # doy counts from March 1: January and February close the previous year
    jan = f"({mp} >= 10 ? {doy} - 305 : {doy} + 60 + {leap})"
    return {"y": y, "m": m, "d": d, "leap": leap, "doy": jan, "dim": dim,
            "month_end": f"({d} == {dim})"}


_CIVIL = _civil_c()
_NAT_C = "(-9223372036854775807LL - 1)"


def days_from_civil(y, m, d):
    """The inverse of civil: int64 days since 1970-01-01."""
    y = y - (m <= 2)
    era = ember.floor_divide(y, 400)
    yoe = y - era * 400
    mp = ember.where(m > 2, m - 3, m + 9)
    doy = (153 * mp + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def is_leap(y):
    return ((y % 4) == 0) & (((y % 100) != 0) | ((y % 400) == 0))


def month_days(y, m):
    table = ember.asarray(_DAYS_IN_MONTH, dtype="int64", device=m.device)
    return table[m - 1] + (is_leap(y) & (m == 2))


def _as_unit(col, unit):
    """col in another unit, its counts scaled (floored to a coarser one)."""
    from ember.frame._time_units import to_unit
    if unit not in ("s", "ms", "us", "ns"):
        raise ValueError(f"Supported units are 's', 'ms', 'us', 'ns', got {unit!r}")
    kind = "datetime64" if col.dtype.kind == "M" else "timedelta64"
    return to_unit(col, f"{kind}[{unit}]")


class DatetimeFields:
    """The .dt accessor of a datetime64 Series."""

    def __init__(self, series):
        from ember.frame._tz import tz_of
        self._s = series
        col = series._col
        self._tz = tz_of(col.dtype)
        self._nat = col.values == _NAT
        self._unit = unit_of(col.dtype)
        # an aware column's fields are those of its wall-clock times (_tz.py)
        self._v = col.values if self._tz is None else \
            _local(col.values, self._unit, self._tz)
        self._tpd = 86400 * _PER_SECOND[self._unit]
        self._day_count = None

    def _days(self):
        """Days since 1970 (0 for NaT), computed once."""
        if self._day_count is None:
            self._day_count = P.transform(
                f"a == {_NAT_C} ? 0LL : {_fdiv('a', self._tpd)}", self._v)
        return self._day_count

    def _part(self, k):
        return P.transform(_CIVIL[k], self._days())

    def _of_day(self):
        v = ember.where(self._nat, 0, self._v)
        return v - ember.floor_divide(v, self._tpd) * self._tpd

    def _int(self, values):
        """int32 as pandas gives fields, float64 with NaN when a NaT is there."""
        if bool(self._nat.any()):
            return self._s._like(Column("float64", ember.where(
                self._nat, float("nan"), values.astype("float64"))))
        return self._s._like(Column("int32", values.astype("int32")))

    def _bool(self, values):
        return self._s._like(Column("bool", values & ~self._nat))

    def _md(self):
        return self._part("m"), self._part("d")

    year = property(lambda self: self._int(self._part("y")))
    month = property(lambda self: self._int(self._part("m")))
    day = property(lambda self: self._int(self._part("d")))
    hour = property(lambda self: self._int(self._of_day() // (3600 * self._tps)))
    minute = property(lambda self: self._int(self._of_day() // (60 * self._tps) % 60))
    second = property(lambda self: self._int(self._of_day() // self._tps % 60))
    _tps = property(lambda self: _PER_SECOND[self._unit])

    @property
    def microsecond(self):
        sub = self._of_day() % self._tps
        return self._int(sub // 1000 if self._unit == "ns" else
                         sub * (10 ** 6 // self._tps))

    @property
    def nanosecond(self):
        sub = self._of_day() % self._tps
        return self._int(sub % 1000 if self._unit == "ns" else sub * 0)

    @property
    def day_of_week(self):
        return self._int(ember.remainder(self._days() + 3, 7))

    dayofweek = weekday = day_of_week

    @property
    def day_of_year(self):
        return self._int(self._part("doy"))

    dayofyear = day_of_year

    @property
    def quarter(self):
        return self._int((self._part("m") - 1) // 3 + 1)

    @property
    def days_in_month(self):
        return self._int(self._part("dim"))

    daysinmonth = days_in_month

    @property
    def is_month_start(self):
        return self._bool(self._part("d") == 1)

    @property
    def is_month_end(self):
        return self._bool(self._part("month_end") != 0)

    @property
    def is_leap_year(self):
        return self._bool(self._part("leap") != 0)

    @property
    def is_quarter_start(self):
        m, d = self._md()
        return self._bool((d == 1) & (ember.remainder(m, 3) == 1))

    @property
    def is_quarter_end(self):
        return self._bool((self._part("month_end") != 0) &
                          (ember.remainder(self._part("m"), 3) == 0))

    @property
    def is_year_start(self):
        m, d = self._md()
        return self._bool((m == 1) & (d == 1))

    @property
    def is_year_end(self):
        m, d = self._md()
        return self._bool((m == 12) & (d == 31))

    @property
    def unit(self):
        return self._unit

    def as_unit(self, unit):
        """The instants in unit s, ms, us or ns (pandas' dt.as_unit)."""
        return self._s._like(_as_unit(self._s._col, unit))

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        raise NotImplementedError(f".dt.{name} is not supported (supported: the "
                                  "calendar fields, is_*_start/end, floor, ceil, "
                                  "round, normalize, day_name, month_name, strftime)")

    # ---- text: built on the device from the fields above (_dt_strftime)
    def day_name(self, locale=None):
        from ember.frame._dt_strftime import day_name
        return day_name(self, locale)

    def month_name(self, locale=None):
        from ember.frame._dt_strftime import month_name
        return month_name(self, locale)

    def strftime(self, date_format):
        from ember.frame._dt_strftime import strftime
        return strftime(self, date_format)

    # ---- rounding to a fixed step
    def _step(self, freq, what):
        ns = fixed_ns(freq, what)
        per = 10 ** 9 // _PER_SECOND[self._unit]   # ns per tick of the unit
        if ns % per:
            raise ValueError(f"{what}: the frequency {freq!r} is finer than the "
                             f"column's unit ({self._unit})")
        return ns // per

    def _rounded(self, values):
        values = ember.where(self._nat, _NAT, values)
        if self._tz is not None:   # wall times rounded, then read in the zone again
            from ember.frame._tz import localize
            values = localize(values, self._unit, self._tz)
        return self._s._like(Column(self._s.dtype, values))

    # ---- time zones (_tz.py)
    @property
    def tz(self):
        return self._tz

    def tz_localize(self, tz, ambiguous="raise", nonexistent="raise"):
        """The naive times read as wall times in tz (None: an aware column's
        wall times, naive)."""
        from ember.frame._tz import tz_localize
        return self._s._like(tz_localize(self._s._col, tz, ambiguous, nonexistent))

    def tz_convert(self, tz):
        """The instants shown in tz (None: naive UTC)."""
        from ember.frame._tz import tz_convert
        return self._s._like(tz_convert(self._s._col, tz))

    def floor(self, freq):
        f = self._step(freq, "floor")
        return self._rounded(ember.floor_divide(self._v, f) * f)

    def ceil(self, freq):
        f = self._step(freq, "ceil")
        q = ember.floor_divide(self._v, f)
        return self._rounded((q + (self._v - q * f > 0)) * f)

    def round(self, freq):
        """To the nearest step, a tie to the even step (pandas)."""
        f = self._step(freq, "round")
        q = ember.floor_divide(self._v, f)
        r = self._v - q * f
        up = (2 * r > f) | ((2 * r == f) & (ember.remainder(q, 2) == 1))
        return self._rounded((q + up) * f)

    def normalize(self):
        return self.floor("D")

    @property
    def date(self):
        raise NotImplementedError(".dt.date (Python date objects); use "
                                  ".dt.normalize() or .dt.floor('D')")


class TimedeltaFields:
    """The .dt accessor of a timedelta64 Series: days, seconds,
    microseconds, nanoseconds (pandas' components) and total_seconds."""

    def __init__(self, series):
        self._s = series
        self._v = series._col.values
        self._nat = self._v == _NAT
        self._tps = _PER_SECOND[unit_of(series._col.dtype)]

    def _field(self, values, dtype):
        if bool(self._nat.any()):
            return self._s._like(Column("float64", ember.where(
                self._nat, float("nan"), values.astype("float64"))))
        return self._s._like(Column(dtype, values.astype(dtype)))

    def _parts(self):
        v = ember.where(self._nat, 0, self._v)
        days = ember.floor_divide(v, 86400 * self._tps)
        rest = v - days * 86400 * self._tps
        return days, rest // self._tps, rest % self._tps

    @property
    def days(self):
        return self._field(self._parts()[0], "int64")

    @property
    def seconds(self):
        return self._field(self._parts()[1], "int32")

    @property
    def microseconds(self):
        sub = self._parts()[2]
        return self._field(sub // 1000 if self._tps == 10 ** 9 else
                           sub * (10 ** 6 // self._tps), "int32")

    @property
    def nanoseconds(self):
        sub = self._parts()[2]
        return self._field(sub % 1000 if self._tps == 10 ** 9 else sub * 0, "int32")

    @property
    def unit(self):
        return unit_of(self._s._col.dtype)

    def as_unit(self, unit):
        """The durations in unit s, ms, us or ns (pandas' dt.as_unit)."""
        return self._s._like(_as_unit(self._s._col, unit))

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        raise NotImplementedError(f".dt.{name} of a timedelta column is not supported "
                                  "(supported: days, seconds, microseconds, "
                                  "nanoseconds, total_seconds)")

    def total_seconds(self):
        secs = self._v.astype("float64") / self._tps
        return self._s._like(Column("float64", ember.where(self._nat, float("nan"), secs)))
