"""NumPy's one-input ufuncs on a Series or DataFrame (np.sqrt(s), as
dask's groupby std calls on a partition): ember's ufunc of the same name
on each column's values, on their device, index and nulls kept."""
import ember

from ember.frame._column import Column


def _apply(col, f):
    if not (col.dtype.is_numeric or col.dtype.kind == "b"):
        raise TypeError(f"ufunc {f.__name__!r} is not supported for a "
                        f"{col.dtype.name} column")
    out = f(col.values)
    return Column(str(out.dtype), out, col.validity)


class UfuncMethods:
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        f = getattr(ember, ufunc.__name__, None)
        if (method != "__call__" or kwargs or len(inputs) != 1 or inputs[0] is not self
                or ufunc.nin != 1 or ufunc.nout != 1 or f is None):
            return NotImplemented
        if hasattr(self, "_cols"):
            from ember.frame.frame import DataFrame
            return DataFrame._make({k: _apply(c, f) for k, c in self._cols.items()},
                                   self._index)
        return self._like(_apply(self._col, f))
