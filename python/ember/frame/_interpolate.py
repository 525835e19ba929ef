"""Series/DataFrame.interpolate: pandas' arguments, checks and errors, in
pandas' order, and which columns are interpolated how; the device work is
_interpolate_col.py.

Methods: 'linear' (x is the position), 'index'/'values' (x is the index),
'time' (a datetime index) and 'nearest'. SciPy's other methods
(polynomial, spline, akima, ...) are NotImplementedError naming them;
pandas 3 itself refuses 'pad'/'ffill'/'bfill' here (ValueError), as
ember does. Columns follow pandas' dtype rules: ints and bools have no
nulls and come back unchanged, nullable ints become Float64, datetimes
and timedeltas interpolate linearly, str columns are TypeError and
category and boolean NotImplementedError, as in pandas."""
import ember

from ember.frame._column import Column

_NUMPY = ("linear", "time", "index", "values")
_SCIPY = ("nearest", "zero", "slinear", "quadratic", "cubic", "barycentric", "krogh",
          "spline", "polynomial", "from_derivatives", "piecewise_polynomial", "pchip",
          "akima", "cubicspline")
_DIRECTIONS = ["forward", "backward", "both"]
_AREAS = ["inside", "outside"]


def _check_inplace(inplace):
    if inplace is not None and not isinstance(inplace, bool):
        raise ValueError(f'For argument "inplace" expected type bool, received type '
                         f"{type(inplace).__name__}.")


def _direction(direction, method):
    if direction is None:
        return "backward" if method in ("backfill", "bfill") else "forward"
    if method in ("pad", "ffill") and direction != "forward":
        raise ValueError(f"`limit_direction` must be 'forward' for method `{method}`")
    if method in ("backfill", "bfill") and direction != "backward":
        raise ValueError(f"`limit_direction` must be 'backward' for method `{method}`")
    return direction


def _check_method(method, index):
    """pandas' checks of the method against the index, before any column
    (then of limit_direction, then _check_index)."""
    from ember.frame._multiindex import MultiIndex
    if not isinstance(method, str):
        raise ValueError("'method' should be a string, not None.")
    if isinstance(index, MultiIndex) and method != "linear":
        raise ValueError("Only `method=linear` interpolation is supported on "
                         "MultiIndexes.")


def _check_index(method, index, device):
    if method not in _NUMPY + _SCIPY:
        raise ValueError(f"Can not interpolate with method={method}.")
    if method == "linear":
        return
    d = index.dtype
    if method not in ("index", "values", "nearest", "time") and not (
            (d.is_numeric and not d.is_categorical) or d.kind in "Mm"):
        raise ValueError("Index column must be numeric or datetime type when using "
                         f"{method} method other than linear. Try setting a numeric "
                         "or datetime index column before interpolating.")
    if index._column(device).has_nulls():
        raise NotImplementedError("Interpolation with NaNs in the index has not been "
                                  "implemented. Try filling those NaNs before "
                                  "interpolating.")


class _Options:
    """The checks pandas makes only when a column can hold a null (an int
    or bool column is returned before them), each made once."""

    def __init__(self, obj, method, limit, direction, area, kwargs):
        self.obj, self.method, self.limit = obj, method, limit
        self.direction, self.area, self.kwargs = direction, area, kwargs
        self._checked = False
        self._xs = None

    def check(self):
        if self._checked:
            return
        m, index = self.method, self.obj.index
        if m in ("spline", "polynomial") and self.kwargs.get("order") is None:
            raise ValueError("You must specify the order of the spline or polynomial.")
        if m not in ("linear", "index", "values", "time", "nearest"):
            raise NotImplementedError(
                f"interpolate(method={m!r}) is not supported by ember.frame: SciPy's "
                "interpolators (other than 'nearest') are not built on the device; use "
                "method='linear', 'index', 'time' or 'nearest', or to_pandas()")
        if m == "time" and index.dtype.kind not in "Mm":
            raise ValueError("time-weighted interpolation only works on Series or "
                             "DataFrames with a DatetimeIndex")
        self.direction = self.direction.lower()
        if self.direction not in _DIRECTIONS:
            raise ValueError(f"Invalid limit_direction: expecting one of {_DIRECTIONS}, "
                             f"got '{self.direction}'.")
        if self.area is not None:
            self.area = self.area.lower()
            if self.area not in _AREAS:
                raise ValueError(f"Invalid limit_area: expecting one of {_AREAS}, got "
                                 f"{self.area}.")
        from ember.frame._fill import check_limit
        self.limit = check_limit(self.limit)
        self._checked = True

    def abscissae(self, device):
        """The index as x (float64, as np.interp reads it), made once."""
        from ember.frame._interpolate_col import Abscissae
        if self.method == "linear":
            return None
        if self._xs is None:
            index = self.obj.index
            d = index.dtype
            if d.is_string or d.is_categorical:
                raise TypeError(f"interpolate(method={self.method!r}) needs a numeric or "
                                f"datetime index, not {d.name} (pandas: cannot cast "
                                "array data from dtype('O') to dtype('float64'))")
            x = index._column(device).values
            self._xs = Abscissae(ember.ascontiguousarray(x.astype("float64")))
        return self._xs


def _column(col, name, opts):
    """col interpolated, or col itself when pandas returns it unchanged."""
    d = col.dtype
    if d.is_string:
        raise TypeError(f"Cannot interpolate with {d.name} dtype")
    if d.is_categorical:
        raise NotImplementedError("Categorical does not implement interpolate")
    if d.kind in "iu" and not d.masked or d.kind == "b" and not d.masked:
        return col                      # no nulls to fill: pandas returns them
    if d.kind == "b":
        raise NotImplementedError(f"interpolate is not implemented for dtype={d.name}")
    if d.kind in "Mm" and opts.method != "linear":
        raise NotImplementedError(f"interpolate(method={opts.method!r}) of the "
                                  f"{d.name} column {name!r}: pandas interpolates "
                                  "datetimes and timedeltas only linearly")
    opts.check()
    nulls = col.null_mask()
    valid = ~nulls if nulls is not None else ember.ones(col.length, dtype="bool",
                                                         device=col.device)
    from ember.frame._interpolate_col import interpolated
    y = col.values.astype("float64")
    out = interpolated(y, valid, opts.abscissae(col.device), opts.method, opts.limit,
                       opts.direction, opts.area)
    if d.masked and d.kind in "iu":     # pandas: nullable ints become Float64
        from ember.frame._dtypes import lookup
        if out is None:
            return Column(lookup("Float64"), y, col.validity)
        values, filled = out
        return Column(lookup("Float64"), values).with_validity(valid | filled)
    if out is None:
        return col
    values, filled = out
    if d.masked:
        return Column(d, values.astype(d.storage)).with_validity(valid | filled)
    if d.kind in "Mm":   # np.interp's float64 written into int64 (truncated)
        from ember.frame._column import _NAT
        kept = valid | filled
        ints = ember.where(kept, values, 0.0).astype("int64")
        return Column(d, ember.where(kept, ints, _NAT))
    return Column(d, values.astype(d.storage))


def interpolate(obj, method="linear", axis=0, limit=None, inplace=False,
                limit_direction=None, limit_area=None, **kwargs):
    from ember.frame.series import Series
    is_series = isinstance(obj, Series)
    _check_inplace(inplace)
    axes = ("index", "rows", 0) if is_series else ("index", "rows", 0, "columns", 1)
    if axis not in axes:
        raise ValueError(f"No axis named {axis} for object type {type(obj).__name__}")
    if obj.empty:
        out = obj.copy()
    elif axis in ("columns", 1):   # along each row: pandas transposes the frame
        out = interpolate(obj.T, method, 0, limit, False, limit_direction, limit_area,
                          **kwargs).T
    else:
        _check_method(method, obj.index)
        direction = _direction(limit_direction, method)
        _check_index(method, obj.index, obj._dev())
        opts = _Options(obj, method, limit, direction, limit_area, kwargs)
        if is_series:
            out = obj._like(_column(obj._col, obj.name, opts))
        else:
            from ember.frame._colname import keep
            from ember.frame.frame import DataFrame
            out = keep(obj, DataFrame._make(
                {k: _column(c, k, opts) for k, c in obj._cols.items()}, obj._index))
    if not inplace:
        return out
    if is_series:
        obj._col = out._col
    else:
        obj._cols = out._cols
    return None
