"""Common pandas methods that Series and DataFrame share: order
statistics (nlargest, idxmin, quantile, median, mode, rank), elementwise
clip/round/abs, agg, and small conveniences (pipe, equals). A frame's
method is its Series' method applied column by column; the column
algorithms live in _methods_col.py."""
import ember

from ember.frame import _methods_col as mc
from ember.frame._column import Column
from ember.frame._index import Index, RangeIndex


def _series(col, index, name):
    from ember.frame.series import Series
    return Series._make(col, index, name)


def _frame(cols, index):
    from ember.frame.frame import DataFrame
    return DataFrame._make(cols, index)


def _positions(rows, device):
    return ember.asarray(rows, dtype="int64", device=device)


def _float_col(values, masked):
    """A float64 result column; Float64 with NaN as NA when the input was
    a nullable number (pandas keeps the nullable kind)."""
    if masked:
        return Column("Float64", values).with_validity(~ember.isnan(values))
    return Column("float64", values)


def _result_col(values, dtype):
    """A result column of values in pandas' dtype; NaN is NA in a nullable
    float one."""
    from ember.frame._dtypes import lookup
    d = lookup(dtype)
    if d.masked:
        valid = ~ember.isnan(values) if values.dtype.kind == "f" else None
        return Column(d, values).with_validity(valid)
    return Column(d, values)


def _q_list(q):
    return (list(q), False) if isinstance(q, (list, tuple)) or (
        hasattr(q, "__len__") and not isinstance(q, str)) else ([q], True)


def _n_dtype(d, method, column=None):
    if (d.is_numeric and not d.is_categorical) or d.kind in "Mm":
        return
    if column is None:
        raise TypeError(f"Cannot use method '{method}' with dtype {d.name}")
    raise TypeError(f"Column {column!r} has dtype {d.name}, cannot use method "
                    f"'{method}' with this dtype")


class StatMethods:

    def _is_series(self):
        return self.ndim == 1

    def _each(self, fn, numeric_only=False):
        """A frame of fn(column Series) over its (numeric) columns."""
        cols = {}
        for k, c in self._cols.items():
            if numeric_only and not (c.dtype.is_numeric and not c.dtype.is_categorical):
                continue
            cols[k] = fn(_series(c, self._index, k))._col
        return _frame(cols, self._index)

    # ---- order statistics
    def nlargest(self, n=5, columns=None, keep="first"):
        return self._top(n, columns, keep, True)

    def nsmallest(self, n=5, columns=None, keep="first"):
        return self._top(n, columns, keep, False)

    def _top(self, n, columns, keep, largest):
        if self._is_series():
            if columns not in (None, "first", "last", "all"):
                raise TypeError("nlargest() takes n and keep")
            keep = columns if columns is not None else keep
            _n_dtype(self._col.dtype, "nlargest" if largest else "nsmallest")
            return self._take(mc.top_rows(self._col, n, keep, largest))
        if columns is None:
            raise TypeError("nlargest() missing 1 required positional argument: "
                            "'columns'")
        names = [columns] if not isinstance(columns, (list, tuple)) else list(columns)
        cols = [self._column(k) for k in names]
        for k, c in zip(names, cols):
            _n_dtype(c.dtype, "nlargest" if largest else "nsmallest", k)
        return self._take(mc.frame_top_rows(cols, n, keep, largest))

    def idxmin(self, skipna=True, numeric_only=False):
        return self._idx(False, skipna, numeric_only, "argmin")

    def idxmax(self, skipna=True, numeric_only=False):
        return self._idx(True, skipna, numeric_only, "argmax")

    def _idx(self, largest, skipna, numeric_only, what):
        if self._is_series():
            p = mc.extreme_row(self._col, largest, skipna, what)
            return self._index.take(_positions([p], self._dev())).tolist()[0]
        names, rows = [], []
        for k, c in self._cols.items():
            if numeric_only and not c.dtype.is_numeric:
                continue
            names.append(k)
            rows.append(mc.extreme_row(c, largest, skipna, what))
        labels = self._index.take(_positions(rows, self._dev()))
        return _series(labels._column(self._dev()), self._labels(names), None)

    def quantile(self, q=0.5, interpolation="linear", numeric_only=False,
                 method="single"):
        import numpy as np
        qs, scalar = _q_list(q)
        dev = self._dev()
        if method not in ("single", "table"):
            raise ValueError(f"Invalid method: {method}. Method must be in "
                             "{'single', 'table'}.")
        if method == "table" and not self._is_series():
            from ember.frame._quantile_table import table_quantile
            out = table_quantile(self, qs, interpolation, numeric_only)
            return out.iloc[0] if scalar else out
        if self._is_series():
            vals, dt = mc.quantiles(self._col, qs, interpolation)
            if scalar:
                host = np.asarray(ember.asnumpy(vals))
                return host.view(dt)[0] if self._col.dtype.kind in "Mm" else host[0]
            return _series(_result_col(vals, dt),
                           Index(qs, dtype="float64", device=dev), self.name)
        names, results = [], []
        for k, c in self._cols.items():
            if numeric_only and not c.dtype.is_numeric:
                continue
            names.append(k)
            results.append(mc.quantiles(c, qs, interpolation))
        if not scalar:
            return _frame({k: _result_col(v, dt) for k, (v, dt) in zip(names, results)},
                          Index(qs, dtype="float64", device=dev))
        if not results:
            return _series(Column("float64", ember.zeros(0, dtype="float64",
                                                         device=dev)),
                           self._labels(names), q)
        from ember.frame._dtypes import lookup, masked_form
        ds = [lookup(dt) for _, dt in results]
        times = {d.name for d in ds if d.kind in "Mm"}
        if times and (len(times) > 1 or any(d.kind not in "Mm" for d in ds)):
            raise NotImplementedError("quantile of times mixed with other columns "
                                      "(pandas gives an object Series)")
        common = np.result_type(*[d.storage for d in ds]).name
        dt = masked_form(common).name if any(d.masked for d in ds) else common
        dt = times.pop() if times else dt
        values = ember.concatenate([v.astype(common) for v, _ in results])
        return _series(_result_col(values, dt), self._labels(names), q)

    def median(self, skipna=True, numeric_only=False):
        if self._is_series():
            return self._median_scalar(skipna)
        import numpy as np
        names, vals, masked = [], [], False
        for k, c in self._cols.items():
            if numeric_only and not c.dtype.is_numeric:
                continue
            names.append(k)
            vals.append(_series(c, self._index, k)._median_scalar(skipna))
            masked = masked or c.dtype.masked
        host = np.asarray([np.nan if v is None or v != v else float(v) for v in vals],
                          dtype=np.float64)
        values = ember.asarray(host, device=self._dev())
        return _series(_float_col(values, masked), self._labels(names), None)

    def _median_scalar(self, skipna):
        import numpy as np
        if not skipna and self._col.has_nulls():
            return np.float64("nan")
        r = mc.median(self._col)
        out = np.float64(ember.asnumpy(r)[()] if isinstance(r, ember.ndarray) else r)
        if self._col.dtype.masked and out != out:
            from ember.frame._reduce import na
            return na()
        return out

    def mode(self, dropna=True, numeric_only=False):
        if self._is_series():
            out = self._take(mc.mode_rows(self._col, dropna))
            out._index = RangeIndex(0, len(out))
            return out
        from ember.frame._groupby_scan import mask_rows
        rows = {k: mc.mode_rows(c, dropna) for k, c in self._cols.items()
                if not numeric_only or c.dtype.is_numeric}
        width = max([r.shape[0] for r in rows.values()], default=0)
        dev = self._dev()
        cols = {}
        for k, r in rows.items():
            col, short = self._cols[k], width - r.shape[0]
            if not short:
                cols[k] = col.take(r)
                continue
            if col.dtype.kind == "b" and not col.dtype.masked:
                raise NotImplementedError("DataFrame.mode padding a bool column "
                                          "(pandas makes it object)")
            if col.length == 0:
                raise NotImplementedError("DataFrame.mode padding an empty column")
            pad = ember.zeros(short, dtype="int64", device=dev)
            gap = ember.arange(width, dtype="int64", device=dev) >= r.shape[0]
            cols[k] = mask_rows(col.take(ember.concatenate([r, pad])), gap)
        return _frame(cols, RangeIndex(0, width))

    def rank(self, method="average", numeric_only=False, na_option="keep",
             ascending=True, pct=False):
        if self._is_series():
            return self._like(mc.rank(self._col, method, ascending, na_option, pct))
        # a frame's ranks are plain float64 even for nullable columns (pandas)
        return self._each(lambda s: s._like(mc.rank(s._col, method, ascending,
                                                    na_option, pct, False)),
                          numeric_only)

    # ---- elementwise
    def abs(self):
        if self._is_series():
            if not self._col.dtype.is_numeric or self._col.dtype.is_categorical:
                raise TypeError(f"bad operand type for abs(): {self._col.dtype.name}")
            return abs(self)
        return self._each(lambda s: s.abs())

    def round(self, decimals=0):
        if self._is_series():
            d = self._col.dtype
            if d.is_categorical or d.kind == "b" or (d.kind in "iu" and decimals >= 0):
                if not d.is_numeric or d.is_categorical:
                    raise TypeError(f"round of a {d.name} Series")
                return self._like(self._col)
            if d.kind not in "iuf":
                raise TypeError(f"round of a {d.name} Series")
            return self._like(Column(d, ember.round(self._col.values, int(decimals)),
                                     self._col.validity))
        if isinstance(decimals, dict):
            return _frame({k: _series(c, self._index, k).round(decimals[k])._col
                           if k in decimals and c.dtype.is_numeric else c
                           for k, c in self._cols.items()}, self._index)
        return _frame({k: _series(c, self._index, k).round(decimals)._col
                       if c.dtype.is_numeric else c
                       for k, c in self._cols.items()}, self._index)

    def clip(self, lower=None, upper=None):
        if self._is_series():
            from ember.frame._methods_clip import clip
            return self._like(clip(self, lower, upper))
        return self._each(lambda s: s.clip(lower, upper))

    # ---- conveniences
    def sample(self, n=None, frac=None, replace=False, weights=None,
               random_state=None, axis=None, ignore_index=False):
        from ember.frame._methods_dict import sample
        return sample(self, n, frac, replace, weights, random_state, axis,
                      ignore_index)

    def info(self, verbose=None, buf=None, max_cols=None, memory_usage=None,
             show_counts=None):
        from ember.frame._methods_info import info
        info(self, buf)

    def memory_usage(self, index=True, deep=False):
        from ember.frame._methods_info import memory_usage
        return memory_usage(self, index)

    def pipe(self, func, *args, **kwargs):
        if isinstance(func, tuple):
            func, target = func
            if target in kwargs:
                raise ValueError(f"{target} is both the pipe target and a keyword "
                                 "argument")
            kwargs[target] = self
            return func(*args, **kwargs)
        return func(self, *args, **kwargs)

    def equals(self, other):
        from ember.frame._methods_frame import equals
        return equals(self, other)

    def agg(self, func=None, *args, **kwargs):
        from ember.frame._methods_agg import agg
        return agg(self, func, *args, **kwargs)

    aggregate = agg

    def ffill(self, axis=0, limit=None):
        return self._fill(False, axis, limit)

    def bfill(self, axis=0, limit=None):
        return self._fill(True, axis, limit)

    def interpolate(self, method="linear", *, axis=0, limit=None, inplace=False,
                    limit_direction=None, limit_area=None, **kwargs):
        from ember.frame._interpolate import interpolate
        return interpolate(self, method, axis, limit, inplace, limit_direction,
                           limit_area, **kwargs)

    def _fill(self, backward, axis, limit):
        from ember.frame._fill import fill_column
        if axis not in (0, "index"):
            raise NotImplementedError(f"ffill/bfill(axis={axis!r}): only axis=0")
        if self._is_series():
            return self._like(fill_column(self._col, backward, limit))
        return self._each(lambda s: s._fill(backward, axis, limit))

    def transform(self, func, *args, axis=0, **kwargs):
        from ember.frame._methods_agg import transform
        if axis not in (0, "index"):
            raise NotImplementedError(f"transform(axis={axis!r}): only axis=0")
        return transform(self, func, *args, **kwargs)
