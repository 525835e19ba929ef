"""resample on a datetime index: each row's bin is an integer computed
from its timestamp (floor division by a fixed step, or a calendar period
of its date for ME, QS, W, B ...: _resample_calendar), the bins'
statistics are ember.parallel.reduce_by_key over the rows stably
sorted by time (skipped when the index is already in order), and every
bin from the first to the last is in the result, empty ones included,
as in pandas."""
import ember
import ember.parallel as P

from ember.frame import _bitmap
from ember.frame._column import Column, _NAT
from ember.frame._dt_fields import _PER_SECOND, fixed_ns, unit_of
from ember.frame._dtypes import masked_form

_HOWS = ("sum", "mean", "count", "min", "max", "first", "last", "size")


class Resampler:
    """obj.resample(rule): rule a fixed frequency ('15min', 'h', 'D', '3D',
    's', ...) or a calendar one (ME, MS, QE, QS, YE, YS, W, B and their
    multiples), closed and labelled as pandas does each."""

    def __init__(self, obj, rule, closed=None, label=None, on=None,
                 origin="start_day", offset=None):
        from ember.frame._index import Index
        from ember.frame._resample_calendar import calendar_rule
        if on is not None or offset is not None:
            raise NotImplementedError("resample with on= or offset= (resample a "
                                      "frame whose index is the datetimes)")
        idx = obj.index
        if not isinstance(idx, Index) or idx.dtype.kind != "M":
            raise TypeError("Only valid with DatetimeIndex, TimedeltaIndex or "
                            f"PeriodIndex, but got an instance of '{type(idx).__name__}'")
        cal = calendar_rule(rule)
        side = cal.side if cal is not None else "left"
        for name, v in (("closed", closed), ("label", label)):
            if v not in (None, side):
                raise NotImplementedError(f"resample({rule!r}) with {name}={v!r} "
                                          f"(only pandas' default, {side!r})")
        if origin not in ("start_day", "epoch", "start"):
            raise NotImplementedError(f"resample with origin={origin!r} (supported: "
                                      "'start_day', 'epoch', 'start')")
        unit = unit_of(idx.dtype)
        tps = _PER_SECOND[unit]
        t = idx._col.values
        self._tz = getattr(idx.dtype, "tz", None)
        keep = t != _NAT
        self._rows = None if bool(keep.all()) else ember.flatnonzero(keep)
        if self._rows is not None:
            t = t[self._rows]
        self._obj, self._unit = obj, unit
        if t.shape[0] == 0:
            self._code, self._labels, self._order = t, t, None
            return
        tpd = 86400 * tps
        step = None if cal is not None else fixed_ns(rule, "resample")
        # an aware index: days and calendar bins are the zone's (wall-clock
        # times, labels read back in the zone); shorter steps count real
        # time from the zone's midnight, as pandas does (_tz.py)
        self._wall = self._tz is not None and (step is None or step % 86400_000_000_000 == 0)
        if self._tz is not None:
            from ember.frame._tz import localize, to_local
            if self._wall:
                t = to_local(t, unit, self._tz)
        if cal is not None:
            # right-closed calendar bins end at the end of their last day, so
            # a row's bin is that of its date
            self._code, days = cal.bins(ember.floor_divide(t, tpd))
            self._labels = days * tpd
        else:
            per = 10 ** 9 // tps
            if step % per:
                raise ValueError(f"resample: {rule!r} is finer than the index's unit")
            step //= per
            tmin = int(t.min())
            o = {"epoch": 0, "start": tmin, "start_day": tmin // tpd * tpd}[origin]
            if self._tz is not None and not self._wall and origin == "start_day":
                day = to_local(t[ember.argmin(t):][:1], unit, self._tz)
                o = int(ember.asnumpy(localize(ember.floor_divide(day, tpd) * tpd, unit,
                                               self._tz, nonexistent="shift_forward"))[0])
            k = ember.floor_divide(t - o, step)
            k0 = int(k.min())
            self._code = k - k0
            nb = int(self._code.max()) + 1
            self._labels = o + (k0 + ember.arange(nb, dtype="int64", device=t.device)) * step
        # pandas sorts the index first, so first/last follow time order
        inorder = bool((t[1:] >= t[:-1]).all())
        self._order = None if inorder else ember.argsort(t, kind="stable")

    def _index(self):
        from ember.frame._index import Index
        labels, dtype = self._labels, f"datetime64[{self._unit}]"
        if self._tz is not None:
            from ember.frame._tz import localize, tz_dtype
            dtype = tz_dtype(self._unit, self._tz)
            if self._wall and labels.shape[0]:
                labels = localize(labels, self._unit, self._tz, nonexistent="shift_forward")
        return Index(Column(dtype, labels), name=self._obj.index.name)

    def _apply(self, how):
        from ember.frame.series import Series
        obj = self._obj
        if isinstance(obj, Series):
            return Series._make(self._column(obj._col, how), self._index(), obj.name)
        from ember.frame.frame import DataFrame
        return DataFrame._make({k: self._column(c, how) for k, c in obj._cols.items()},
                               self._index())

    def _column(self, col, how):
        if self._rows is not None:
            col = col.take(self._rows)
        nb = self._labels.shape[0]
        code = self._code
        if self._order is not None:
            col, code = col.take(self._order), code[self._order]
        nulls = col.null_mask()
        if how == "count":
            c = code if nulls is None else code[~nulls]
            out = ember.bincount(c, minlength=nb).astype("int64")
            return Column("Int64" if col.dtype.masked and not col.dtype.is_string
                          else "int64", out)
        d = col.dtype
        if (d.is_string and how not in ("first", "last")) or \
                (d.kind in "Mm" and how in ("sum", "mean")):
            raise TypeError(f"resample {how} of a {d.name} column is not supported")
        if nulls is not None and bool(nulls.any()):
            ok = ember.flatnonzero(~nulls)
            col, code = col.take(ok), code[ok]
        if d.is_string:
            return _string_ends(col, code, nb, how)
        v = col.values
        if how == "mean" or (how == "sum" and d.storage == "float64"):
            # a weighted bincount: one scatter pass (float sums in any order,
            # as pandas' are to rounding)
            sums = ember.bincount(code, weights=v.astype("float64"), minlength=nb)
            if sums.dtype != ember.float64:   # no rows: bincount's int64 zeros
                sums = sums.astype("float64")
            if how == "sum":
                return Column(d, sums)
            cnt = ember.bincount(code, minlength=nb)
            out = sums / ember.maximum(cnt, 1).astype("float64")
            if d.masked:
                return Column(masked_form(out.dtype), out, _bitmap.pack(cnt > 0))
            return Column("float64", ember.where(cnt > 0, out, float("nan")))
        present = ember.zeros(nb, dtype="bool", device=v.device)
        if code.shape[0] == 0:
            keys, red = code, v
        elif how in ("sum", "min", "max"):
            acc = v
            if how == "sum" and d.kind in "biu":
                acc = v.astype("uint64" if d.kind == "u" else "int64")
            op = "add" if how == "sum" else how
            keys, red = P.reduce_by_key(code, acc, op)
        else:   # first, last: the first or last row of each run of a bin
            keys, _ = P.run_length_encode(code)
            side = "left" if how == "first" else "right"
            pos = ember.searchsorted(code, keys, side=side) - (how == "last")
            red = v[pos]
        present[keys] = True
        if how == "sum":   # an empty bin sums to 0
            out = ember.zeros(nb, dtype=red.dtype, device=v.device)
            out[keys] = red
            kind = masked_form(out.dtype) if d.masked else str(out.dtype)
            return Column(kind, out)
        out = ember.zeros(nb, dtype=v.dtype, device=v.device)
        out[keys] = red
        return _holes(d, out, present)

    def sum(self):
        return self._apply("sum")

    def mean(self):
        return self._apply("mean")

    def count(self):
        return self._apply("count")

    def min(self):
        return self._apply("min")

    def max(self):
        return self._apply("max")

    def first(self):
        return self._apply("first")

    def last(self):
        return self._apply("last")

    def size(self):
        from ember.frame.series import Series
        nb = self._labels.shape[0]
        counts = ember.bincount(self._code, minlength=nb).astype("int64") if nb else \
            ember.zeros(0, dtype="int64", device=self._code.device)
        name = getattr(self._obj, "name", None) if isinstance(self._obj, Series) else None
        return Series._make(Column("int64", counts), self._index(), name)

    def agg(self, func):
        from ember.frame._window_roll import aggregate
        return aggregate(self, func, _HOWS)

    aggregate = agg

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        raise NotImplementedError(f"resample(...).{name} (supported: "
                                  + ", ".join(_HOWS) + ")")


def _holes(d, out, present):
    """Per-bin values with the empty bins null: NaN (ints become float64),
    NaT, or NA for nullable dtypes."""
    if d.masked:
        return Column(d, out, _bitmap.pack(present))
    if d.kind in "Mm":
        return Column(d, ember.where(present, out, _NAT))
    if bool(present.all()):
        return Column(d, out)
    f = out if d.kind == "f" else out.astype("float64")
    return Column(str(f.dtype), ember.where(present, f, float("nan")))


def _string_ends(col, code, nb, how):
    """first/last of a str column: the row gathered per bin, null where the
    bin has none."""
    dev = col.device
    pos = ember.zeros(nb, dtype="int64", device=dev)
    present = ember.zeros(nb, dtype="bool", device=dev)
    if code.shape[0]:
        keys, _ = P.run_length_encode(code)
        side = "left" if how == "first" else "right"
        pos[keys] = ember.searchsorted(code, keys, side=side) - (how == "last")
        present[keys] = True
    else:   # nothing to gather from: every bin is null
        col = Column(col.dtype, ember.zeros(0, dtype="uint8", device=dev), None,
                     ember.zeros(2, dtype="int64", device=dev))
    return col.take(pos).with_validity(present)
