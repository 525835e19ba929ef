"""pandas' module-level names that tutorials reach for besides the
constructors: isna/notna of any object, and pandas' own host value types
(Timestamp, Timedelta, NaT, NA, Categorical; date offsets are
ember.frame.offsets', and pandas' own are taken too), which
ember's constructors, comparisons and date arithmetic take as they are.
These are values built on the host, as a list is, never computation:
taking one loads pandas, as from_pandas does."""

def pandas_value(name):
    from ember.frame._pandas import pandas
    return getattr(pandas(), name)


def isna(obj):
    """pandas.isna: a Series or frame's own isna; a scalar's or a host
    array's by pandas' rules (NaN, None, NaT and NA are missing)."""
    if hasattr(obj, "isna") and type(obj).__module__.startswith("ember"):
        return obj.isna()
    from ember.frame._pandas import pandas
    return pandas().isna(obj)


def notna(obj):
    if hasattr(obj, "notna") and type(obj).__module__.startswith("ember"):
        return obj.notna()
    from ember.frame._pandas import pandas
    return pandas().notna(obj)


isnull, notnull = isna, notna
