"""Series.dt: fields and arithmetic of datetime64/timedelta64 columns, and
pandas' to_datetime and date_range (module-level, through ember.frame's
name table)."""


class DtMethods:
    """The .dt accessor of a Series."""

    @property
    def dt(self):
        from ember.frame._dt_fields import DatetimeFields, TimedeltaFields
        kind = self._col.dtype.kind
        if kind == "M":
            return DatetimeFields(self)
        if kind == "m":
            return TimedeltaFields(self)
        raise AttributeError("Can only use .dt accessor with datetimelike values")


def to_datetime(arg, errors="raise", format=None, unit=None, **kw):
    """pandas' to_datetime of a Series (or list/array: an Index) of ISO-8601
    strings, of integers or floats with unit=, or of datetimes."""
    from ember.frame._dt_parse import to_datetime as f
    return f(arg, errors, format, unit, **kw)


def date_range(start=None, end=None, periods=None, freq=None, name=None,
               inclusive="both", unit=None, **kw):
    """pandas' date_range for fixed frequencies (D, h, min, s, ms, us, ns and
    multiples) and calendar ones (ME, MS, QE, QS, YE, YS, W, B): an Index of
    datetime64."""
    from ember.frame._dt_parse import date_range as f
    return f(start, end, periods, freq, name, inclusive, unit, **kw)
