"""Arithmetic, comparisons and logic of a DataFrame with a scalar or
another DataFrame, column by column through the Series operators (which
align the rows); columns only one side has come out NaN, as pandas."""
import ember

from ember.frame import _ops
from ember.frame._column import Column


def _nan_column(n, device):
    return Column("float64", ember.full(n, float("nan"), dtype="float64", device=device))


def frame_binary(df, op, other, reflected=False):
    from ember.frame.frame import DataFrame
    from ember.frame.series import Series
    if isinstance(other, Series):
        raise NotImplementedError(f"DataFrame {op} Series (broadcast along the columns "
                                  "by label); use a scalar or a DataFrame")
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
        setattr(FrameOpsMethods, _op, _fwd)
FrameOpsMethods.__hash__ = None
del _op, _fwd, _rev
