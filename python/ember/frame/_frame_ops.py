"""Arithmetic, comparisons and logic of a DataFrame with a scalar or
another DataFrame, column by column through the Series operators (which
align the rows); columns only one side has come out NaN, as pandas."""
import ember

from ember.frame import _ops
from ember.frame._column import Column


def _nan_column(n, device):
    return Column("float64", ember.full(n, float("nan"), dtype="float64", device=device))


def _with_series(df, op, other, reflected, axis):
    """df op series: by rows (axis 'index': each column with the Series,
    aligned on the index) or by columns (the Series' labels are the
    column names: each column with its one value)."""
    from ember.frame.frame import DataFrame
    if axis in (0, "index", "rows"):
        out, index = {}, df.index
        for k in df._cols:
            s = df[k]._binary(op, other, reflected)
            out[k], index = s._col, s.index
        return DataFrame._make(out, index)
    if axis not in (1, "columns"):
        raise ValueError(f"No axis named {axis} for object type DataFrame")
    if other.index.tolist() != list(df._cols):
        raise NotImplementedError(f"DataFrame {op} Series whose labels are not the "
                                  "frame's column names in order (pandas aligns them "
                                  "to the union of both)")
    values = other.tolist()
    return DataFrame._make({k: df[k]._binary(op, v, reflected)._col
                            for k, v in zip(df._cols, values)}, df.index)


def frame_binary(df, op, other, reflected=False, axis="columns"):
    from ember.frame.frame import DataFrame
    from ember.frame.series import Series
    if isinstance(other, Series):
        return _with_series(df, op, other, reflected, axis)
    if not isinstance(other, DataFrame):
        if isinstance(other, (list, tuple, dict)) or hasattr(other, "shape"):
            raise NotImplementedError(f"DataFrame {op} {type(other).__name__}; use a "
                                      "scalar or a DataFrame")
        return DataFrame._make({k: df[k]._binary(op, other, reflected)._col
                                for k in df._cols}, df.index)
    mine, theirs = list(df._cols), list(other._cols)
    if op in _ops.COMPARE and (mine != theirs or not df.index.equals(other.index)):
        raise ValueError("Can only compare identically-labeled (both index and "
                         "columns) DataFrame objects")
    if mine == theirs:
        names = mine
    else:
        try:
            names = sorted(set(mine) | set(theirs))
        except TypeError:
            raise NotImplementedError("aligning DataFrames whose column names do not "
                                      "sort together") from None
    out, index = {}, None
    for k in names:
        if k in df._cols and k in other._cols:
            s = df[k]._binary(op, other[k], reflected)
            out[k], index = s._col, s.index
    if index is None:
        if not df.index.equals(other.index):
            raise NotImplementedError("aligning the rows of DataFrames without a "
                                      "shared column")
        index = df.index
    for k in names:
        if k not in out:
            out[k] = _nan_column(len(index), df._device())
    return DataFrame._make(out, index)


class FrameOpsMethods:

    def __neg__(self):
        from ember.frame.frame import DataFrame
        return DataFrame._make({k: _ops.negate(c) for k, c in self._cols.items()},
                               self.index)

    def __invert__(self):
        from ember.frame.frame import DataFrame
        return DataFrame._make({k: _ops.invert(c) for k, c in self._cols.items()},
                               self.index)

    def __abs__(self):
        from ember.frame.frame import DataFrame
        return DataFrame._make({k: Column(c.dtype, ember.abs(c.values), c.validity)
                                for k, c in self._cols.items()}, self.index)


for _op in list(_ops.ARITH) + list(_ops.COMPARE) + list(_ops.LOGIC):
    def _fwd(self, other, _op=_op):
        return frame_binary(self, _op, other)
    setattr(FrameOpsMethods, f"__{_op}__", _fwd)
    if _op in _ops.ARITH or _op in _ops.LOGIC:
        def _rev(self, other, _op=_op):
            return frame_binary(self, _op, other, reflected=True)
        setattr(FrameOpsMethods, f"__r{_op}__", _rev)
    if _op in _ops.ARITH or _op in _ops.COMPARE:
        def _named(self, other, axis="columns", level=None, _op=_op):
            # df.sub(s, axis="index"): pandas' named operators take an axis
            if level is not None:
                raise NotImplementedError(f"DataFrame.{_op}(level=)")
            return frame_binary(self, _op, other, axis=axis)
        setattr(FrameOpsMethods, _op, _named)
FrameOpsMethods.__hash__ = None
del _op, _fwd, _rev, _named
