"""Time zones: a `datetime64[unit, tz]` column holds UTC instants (int64
counts, NaT as in a naive column) and its dtype names the zone. Wall
clock times are the instants plus the zone's UTC offset at them. A zone's
offsets are a table of transitions, built on the host for the span the
data covers only (Python's zoneinfo for IANA zones; one row for a fixed
offset), then applied on the device: a `searchsorted` of the instants
(or of wall times, for tz_localize) in the table and one gather, so the
work per row is vectorised whatever the zone."""
import datetime
import re

import ember

from ember.frame._column import Column, _NAT
from ember.frame._dtypes import Dtype

_UTC = datetime.timezone.utc
_PER_SECOND = {"s": 1, "ms": 10 ** 3, "us": 10 ** 6, "ns": 10 ** 9}
_MIN = -(2 ** 63)
_MAX = 2 ** 63 - 1
_OFFSET = re.compile(r"(?:UTC)?([+-])(\d\d):?(\d\d)")


class DatetimeTZDtype(Dtype):
    """pandas' datetime64[unit, tz]: int64 UTC counts of `unit`; `tz` the
    tzinfo (zoneinfo.ZoneInfo or datetime.timezone)."""
    __slots__ = ("unit", "tz")

    def __init__(self, unit, tz):
        super().__init__(f"datetime64[{unit}, {tz_name(tz)}]", "int64", False, "M")
        self.unit, self.tz = unit, tz

    @property
    def dtype(self):
        """The NumPy dtype of the UTC counts (NumPy has no zones)."""
        import numpy as np
        return np.dtype(f"datetime64[{self.unit}]")

    @property
    def naive(self):
        from ember.frame._dtypes import lookup
        return lookup(f"datetime64[{self.unit}]")

    __eq__ = Dtype.__eq__
    __hash__ = Dtype.__hash__

    def __repr__(self):
        return f"DatetimeTZDtype(unit={self.unit!r}, tz={tz_name(self.tz)!r})"


_DTYPES = {}


def tz_dtype(unit, tz):
    """The (shared) dtype of unit and a zone (a name or tzinfo)."""
    tz = zone(tz)
    key = (unit, tz_name(tz))
    if key not in _DTYPES:
        _DTYPES[key] = DatetimeTZDtype(unit, tz)
    return _DTYPES[key]


def parse_name(name):
    """'datetime64[ns, Europe/Paris]' -> its dtype, or None for other names."""
    m = re.fullmatch(r"datetime64\[(s|ms|us|ns), ?(.+)\]", name)
    return tz_dtype(m.group(1), m.group(2)) if m else None


def zone(tz):
    """A tzinfo from a name ('UTC', 'Europe/Paris', '+05:30', 'UTC+05:30'),
    a datetime.timezone, a zoneinfo.ZoneInfo, or another library's zone
    (by its name). ZoneInfoNotFoundError (a KeyError) for an unknown name,
    as pandas raises."""
    import zoneinfo
    if isinstance(tz, (datetime.timezone, zoneinfo.ZoneInfo)):
        return _UTC if tz == _UTC else tz
    if isinstance(tz, datetime.tzinfo):   # pytz, dateutil: by their name
        name = getattr(tz, "zone", None) or getattr(tz, "key", None) or str(tz)
        return zone(name)
    if not isinstance(tz, str):
        raise TypeError(f"a time zone is a name or a tzinfo, not {type(tz).__name__}")
    if tz in ("UTC", "utc", "Z", "Etc/UTC", "GMT"):
        return _UTC
    m = _OFFSET.fullmatch(tz)
    if m:
        sign = -1 if m.group(1) == "-" else 1
        delta = datetime.timedelta(hours=int(m.group(2)), minutes=int(m.group(3)))
        return _UTC if not delta else datetime.timezone(sign * delta)
    return zoneinfo.ZoneInfo(tz)


def tz_name(tz):
    """pandas' name of a zone in a dtype: 'UTC', 'UTC+05:30', the IANA key."""
    return str(tz)


# ---- offset tables
def _offset_s(tz, t):
    """The zone's UTC offset in seconds at the instant t (seconds)."""
    return int(datetime.datetime.fromtimestamp(t, tz).utcoffset().total_seconds())


_TABLES = {}
_EPOCH_MIN = -62135596800 + 2 * 86400   # 0001-01-03: datetime's range, with room
_EPOCH_MAX = 253402300799 - 2 * 86400


def _table_s(tz, lo, hi):
    """(transition instants, offsets) in seconds covering [lo, hi]: the
    first instant is -inf (None). Offsets are sampled a day apart and each
    change is bisected to its second."""
    if isinstance(tz, datetime.timezone):
        return [None], [int(tz.utcoffset(None).total_seconds())]
    day = 86400
    lo = max(_EPOCH_MIN, (lo // day - 2) * day)
    hi = min(_EPOCH_MAX, (hi // day + 3) * day)
    key = (tz_name(tz), lo, hi)
    if key in _TABLES:
        return _TABLES[key]
    starts, offs = [None], [_offset_s(tz, lo)]
    prev_t, prev = lo, offs[0]
    t = lo + day
    while t <= hi:
        cur = _offset_s(tz, t)
        if cur != prev:
            a, b = prev_t, t   # offset(a) == prev, offset(b) == cur
            while b - a > 1:
                mid = (a + b) // 2
                if _offset_s(tz, mid) == prev:
                    a = mid
                else:
                    b = mid
            starts.append(b)
            offs.append(cur)
            prev = cur
        prev_t = t
        t += day
    _TABLES[key] = (starts, offs)
    return starts, offs


def _span(values, nat):
    """(lo, hi) of the non-NaT values (one transfer), or None."""
    ok = ember.flatnonzero(~nat)
    if ok.shape[0] == 0:
        return None
    v = values[ok]
    lo, hi = ember.asnumpy(ember.stack([v.min(), v.max()])).tolist()
    return lo, hi


def _device_table(tz, unit, lo, hi, device, slack=0):
    """The table as ember arrays in ticks of unit: (starts, offsets)."""
    per = _PER_SECOND[unit]
    starts, offs = _table_s(tz, lo // per - slack, hi // per + slack)
    t = [_MIN] + [s * per for s in starts[1:]]
    return (ember.asarray(t, dtype="int64", device=device),
            ember.asarray([o * per for o in offs], dtype="int64", device=device))


def to_local(values, unit, tz):
    """UTC counts -> wall-clock counts in tz (NaT stays NaT)."""
    nat = values == _NAT
    span = _span(values, nat)
    if span is None:
        return values
    starts, offs = _device_table(tz, unit, span[0], span[1], values.device)
    if starts.shape[0] == 1:
        return ember.where(nat, _NAT, values + offs[0])
    at = ember.searchsorted(starts, values, side="right") - 1
    return ember.where(nat, _NAT, values + offs[ember.maximum(at, 0)])


def _fmt(v, unit):
    from ember.frame._pandas import pandas
    return str(pandas().Timestamp(int(v), unit=unit))


def localize(values, unit, tz, ambiguous="raise", nonexistent="raise"):
    """Wall-clock counts in tz -> UTC counts, as pandas' tz_localize:
    a wall time a change of offset repeats is ambiguous ('raise', 'NaT', or
    True/False, one or a bool a row: True takes the DST reading, the larger
    offset), one it skips nonexistent ('raise', 'NaT', 'shift_forward',
    'shift_backward')."""
    nat = values == _NAT
    span = _span(values, nat)
    if span is None:
        return values
    dev = values.device
    starts, offs = _device_table(tz, unit, span[0], span[1], dev, slack=2 * 86400)
    if starts.shape[0] == 1:
        return ember.where(nat, _NAT, values - offs[0])
    k = starts.shape[0]
    # each period's first wall time (the first period's: -inf)
    local = ember.concatenate([starts[:1], starts[1:] + offs[1:]])
    nxt = ember.concatenate([starts[1:], ember.asarray([_MAX], dtype="int64", device=dev)])
    L = ember.where(nat, 0, values)
    j = ember.clip(ember.searchsorted(local, L, side="right") - 1, 0, k - 1)
    jp = ember.maximum(j - 1, 0)
    cur_ok = (L - offs[j]) < nxt[j]
    prev_ok = (j >= 1) & ((L - offs[jp]) < starts[j])
    out = ember.where(cur_ok, L - offs[j], L - offs[jp])
    both = cur_ok & prev_ok & ~nat
    gap = ~cur_ok & ~prev_ok & ~nat
    if bool(both.any()):
        dst = offs[jp] > offs[j]   # the earlier period has the larger offset
        if isinstance(ambiguous, str):
            if ambiguous == "raise":
                bad = int(ember.asnumpy(L[ember.flatnonzero(both)[:1]])[0])
                raise ValueError(f"Cannot infer dst time from {_fmt(bad, unit)}, try "
                                 "using the 'ambiguous' argument")
            if ambiguous == "NaT":
                out = ember.where(both, _NAT, out)
            elif ambiguous == "infer":
                raise NotImplementedError("tz_localize(ambiguous='infer') (reads the "
                                          "order of repeated times); pass a bool array")
            else:
                raise ValueError(f"Unknown ambiguous value {ambiguous!r}")
        else:
            flag = ambiguous
            if isinstance(flag, (bool, int)) or getattr(flag, "ndim", 1) == 0:
                want_dst = ember.full(L.shape[0], bool(flag), dtype="bool", device=dev)
            else:
                from ember.frame._convert import column_from
                want_dst = column_from(flag, device=dev).values.astype("bool")
                if want_dst.shape[0] != L.shape[0]:
                    raise ValueError("Length of ambiguous bool-array must be the same "
                                     "size as vals")
            take_prev = ember.where(dst, want_dst, ~want_dst)
            out = ember.where(both, ember.where(take_prev, L - offs[jp], L - offs[j]),
                              out)
    if bool(gap.any()):
        if nonexistent == "raise":
            bad = int(ember.asnumpy(L[ember.flatnonzero(gap)[:1]])[0])
            raise ValueError(f"{_fmt(bad, unit)} is a nonexistent time due to daylight "
                             "savings time. Try using the 'nonexistent' argument.")
        if nonexistent == "NaT":
            out = ember.where(gap, _NAT, out)
        elif nonexistent in ("shift_forward", "shift_backward"):
            edge = nxt[j] - (1 if nonexistent == "shift_backward" else 0)
            out = ember.where(gap, edge, out)
        elif isinstance(nonexistent, str):
            raise ValueError("The nonexistent argument must be one of 'raise', 'NaT', "
                             "'shift_forward', 'shift_backward' or a timedelta object")
        else:
            raise NotImplementedError("tz_localize(nonexistent=<timedelta>); use "
                                      "'shift_forward' or 'shift_backward'")
    return ember.where(nat, _NAT, out)


# ---- the .dt methods
def tz_of(dtype):
    return dtype.tz if isinstance(dtype, DatetimeTZDtype) else None


def tz_localize(col, tz, ambiguous="raise", nonexistent="raise"):
    """A naive column's wall times in tz (tz None: an aware column's wall
    times, naive)."""
    d = col.dtype
    if tz is None:
        if not isinstance(d, DatetimeTZDtype):
            return col
        return Column(d.naive, to_local(col.values, d.unit, d.tz))
    if isinstance(d, DatetimeTZDtype):
        raise TypeError("Already tz-aware, use tz_convert to convert.")
    from ember.frame._dt_fields import unit_of
    unit = unit_of(d)
    z = zone(tz)
    return Column(tz_dtype(unit, z), localize(col.values, unit, z, ambiguous, nonexistent))


def tz_convert(col, tz):
    """An aware column's instants shown in tz (None: naive UTC)."""
    d = col.dtype
    if not isinstance(d, DatetimeTZDtype):
        raise TypeError("Cannot convert tz-naive timestamps, use tz_localize to localize")
    if tz is None:
        return Column(d.naive, col.values)
    return Column(tz_dtype(d.unit, tz), col.values)


# ---- exchange
def from_pandas_values(s):
    """The int64 UTC counts of a pandas tz-aware Series or Index."""
    import numpy as np
    return np.asarray(s.array.asi8 if hasattr(s, "array") else s.asi8)


def to_pandas_array(values, dtype):
    """A pandas DatetimeArray of the counts (NumPy datetime64, UTC) in dtype's zone."""
    from ember.frame._pandas import pandas
    pd = pandas()
    naive = values.view(f"datetime64[{dtype.unit}]")
    return pd.DatetimeIndex(naive).tz_localize("UTC").tz_convert(dtype.tz).array


def scalar(v, dtype):
    """pandas' Timestamp of the UTC count v in dtype's zone (NaT for NaT)."""
    from ember.frame._pandas import pandas
    pd = pandas()
    if v == _NAT:
        return pd.NaT
    return pd.Timestamp(v, unit=dtype.unit, tz="UTC").tz_convert(dtype.tz)


def scalar_utc(x, dtype):
    """A datetime scalar (Timestamp, datetime, numpy datetime64) made a
    naive UTC one to meet a column of dtype: an aware one is converted;
    one aware and the other not is pandas' TypeError."""
    aware = getattr(x, "tzinfo", None) is not None
    if aware != (tz_of(dtype) is not None) and hasattr(x, "year"):
        raise TypeError(f"Invalid comparison between dtype={dtype.name} and "
                        f"{type(x).__name__}")
    if aware:
        from ember.frame._pandas import pandas
        return pandas().Timestamp(x).tz_convert("UTC").tz_localize(None).to_datetime64()
    return x


def astype_zone(col, to):
    """astype between datetime dtypes, as pandas: aware to aware converts the
    zone (same instants), aware and naive do not mix (TypeError); returns
    col in to's zone, its unit still col's."""
    a, b = tz_of(col.dtype), tz_of(to)
    if a is None and b is None:
        return col
    if b is None:
        raise TypeError("Cannot use .astype to convert from timezone-aware dtype to "
                        "timezone-naive dtype. Use obj.tz_localize(None) or "
                        "obj.tz_convert('UTC').tz_localize(None) instead.")
    if a is None:
        raise TypeError("Cannot use .astype to convert from timezone-naive dtype to "
                        "timezone-aware dtype. Use obj.tz_localize instead or "
                        "series.dt.tz_localize instead")
    from ember.frame._dt_fields import unit_of
    return Column(tz_dtype(unit_of(col.dtype), b), col.values)


def index_tz(obj, how, tz, axis=0, level=None, ambiguous="raise", nonexistent="raise"):
    """Series/DataFrame.tz_localize and tz_convert: the same values under
    the index's labels localized or converted."""
    from ember.frame._index import Index
    if axis not in (0, "index", "rows") or level is not None:
        raise NotImplementedError(f"tz_{how} with axis= or level= (the columns or a "
                                  "level of a MultiIndex); it works on the row index")
    idx = obj.index
    if not isinstance(idx, Index) or getattr(idx, "nlevels", 1) > 1 or \
            idx.dtype.kind != "M":
        raise TypeError(f"index is not a valid DatetimeIndex or PeriodIndex")
    col = tz_localize(idx._col, tz, ambiguous, nonexistent) if how == "localize" else \
        tz_convert(idx._col, tz)
    out = obj.copy(deep=False)
    out._index = Index(col, name=idx.name)
    return out
