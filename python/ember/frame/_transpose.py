"""DataFrame.T / transpose, and to_numpy / values of frames and Series."""
import ember

from ember.frame import _bitmap
from ember.frame._column import Column, concat
from ember.frame._unsupported import to_orc

NO_VALUE = object()   # pandas' lib.no_default for na_value=


def _plain(d):
    return not (d.masked or d.is_string or getattr(d, "is_categorical", False))


def _host(values, nulls, dtype, na_value):
    """The device values as NumPy, na_value written where nulls first."""
    if na_value is not NO_VALUE and nulls is not None:
        values = ember.where(nulls, na_value, values)
    if dtype is not None:
        values = values.astype(dtype)
    return ember.asnumpy(values)


def series_to_numpy(s, dtype=None, copy=False, na_value=NO_VALUE):
    """Series.to_numpy: plain dtypes leave the device in one copy; nullable
    and str ones, which pandas turns into object or float arrays with its
    own NA rules, go through to_pandas, as the explicit exchange."""
    d = s._col.dtype
    if not _plain(d) or (d.kind in "Mm" and na_value is not NO_VALUE):
        kw = {} if na_value is NO_VALUE else {"na_value": na_value}
        return s.to_pandas().to_numpy(dtype=dtype, **kw)
    values = s._col.values
    if d.kind in "Mm":
        out = ember.asnumpy(values).view(d.name)
        return out if dtype is None else out.astype(dtype)
    return _host(values, s._col.null_mask() if d.kind == "f" else None, dtype, na_value)


class FrameShapeMethods:
    to_orc = to_orc

    @property
    def T(self):
        return self.transpose()

    def transpose(self, *args, copy=False):
        from ember.frame._row import _common
        from ember.frame.frame import DataFrame
        cols = list(self._cols.values())
        if getattr(self.index, "nlevels", 1) > 1:
            raise NotImplementedError("transpose of a frame indexed by a MultiIndex "
                                      "(the columns would be a MultiIndex); "
                                      "reset_index first")
        from ember.frame._dup_labels import keys_for
        labels = keys_for(self.index.tolist())   # a repeated row label: repeated columns
        index = self._labels(list(self._cols))
        if not cols:
            return DataFrame._make({}, index)
        d = _common([c.dtype for c in cols])
        if d is None or not (d.is_string or _plain(d) or d.masked):
            kinds = ", ".join(sorted({c.dtype.name for c in cols}))
            raise NotImplementedError(f"transpose of a DataFrame of mixed dtypes ({kinds}): "
                                      "pandas makes object columns, which ember.frame "
                                      "does not hold; astype one dtype first")
        n, k = len(self), len(cols)
        if d.is_string:   # row j of every column, by one gather each
            allc = cols[0]
            for c in cols[1:]:
                allc = concat(allc, c)
            step = ember.arange(k, dtype="int64", device=self._device()) * n
            out = {}
            for j, lab in enumerate(labels):
                c = allc.take(step + j)
                out[lab] = Column(d, c.values, c.validity, c.offsets, c.length)
            return DataFrame._make(out, index)
        # one (k, n) stack, made contiguous transposed: row j is column j
        t = ember.ascontiguousarray(ember.stack([c.values.astype(d.storage)
                                                 for c in cols]).T)
        valid = None
        if d.masked:
            valid = ember.ascontiguousarray(ember.stack([~c.isna() for c in cols]).T)
        return DataFrame._make({lab: Column(d, t[j], None if valid is None else
                                            _bitmap.pack(valid[j]))
                                for j, lab in enumerate(labels)}, index)

    def to_numpy(self, dtype=None, copy=False, na_value=NO_VALUE):
        """A 2-D NumPy array in the columns' common dtype (pandas'
        interleaving); nullable, str and mixed frames through to_pandas."""
        import numpy as np
        from ember.frame._row import _common
        cols = list(self._cols.values())
        d = _common([c.dtype for c in cols]) if cols else None
        if d is None or not _plain(d) or d.kind in "Mm":
            kw = {} if na_value is NO_VALUE else {"na_value": na_value}
            return self.to_pandas().to_numpy(dtype=dtype, **kw)
        values = ember.stack([c.values.astype(d.storage) for c in cols], axis=1) if \
            len(self) else ember.zeros((0, len(cols)), dtype=d.storage,
                                       device=self._device())
        nulls = ember.isnan(values) if d.kind == "f" else None
        return np.asarray(_host(values, nulls, dtype, na_value))

    @property
    def values(self):
        return self.to_numpy()
