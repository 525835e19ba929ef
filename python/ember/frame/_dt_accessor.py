"""Series.dt: fields and arithmetic of datetime64/timedelta64 columns."""


class DtMethods:
    """The .dt accessor of a Series."""
