"""The dataframe interchange protocol (`__dataframe__`, data-apis.org):
each column's buffers are the ember arrays themselves, so pandas'
`api.interchange.from_dataframe` and pyarrow's read a cpu frame without a
copy. A cuda frame is copied to the host for these host readers when
allow_copy is True (metadata names the device it came from); with
allow_copy=False it raises, as no copy may be made."""
import enum

import ember


class DtypeKind(enum.IntEnum):
    INT = 0
    UINT = 1
    FLOAT = 2
    BOOL = 20
    STRING = 21
    DATETIME = 22
    CATEGORICAL = 23


class ColumnNullType(enum.IntEnum):
    NON_NULLABLE = 0
    USE_NAN = 1
    USE_SENTINEL = 2
    USE_BITMASK = 3
    USE_BYTEMASK = 4


class DlpackDeviceType(enum.IntEnum):
    CPU = 1
    CUDA = 2


_FORMAT = {"bool": "b", "int8": "c", "uint8": "C", "int16": "s", "uint16": "S",
           "int32": "i", "uint32": "I", "int64": "l", "uint64": "L", "float32": "f",
           "float64": "g"}
_KIND = {"b": DtypeKind.BOOL, "i": DtypeKind.INT, "u": DtypeKind.UINT,
         "f": DtypeKind.FLOAT}
_NAT = -(2 ** 63)


def _device(a):
    dev = str(a.device)
    if dev == "cpu":
        return DlpackDeviceType.CPU, 0
    return DlpackDeviceType.CUDA, int(dev.split(":")[1]) if ":" in dev else 0


class Buffer:
    """One ember array's memory: ptr, bufsize, and DLPack through it."""

    def __init__(self, array):
        self._a = ember.ascontiguousarray(array)

    @property
    def bufsize(self):
        return self._a.nbytes

    @property
    def ptr(self):
        a = self._a
        if _device(a)[0] == DlpackDeviceType.CPU:
            return a.__array_interface__["data"][0]
        return a.__cuda_array_interface__["data"][0]

    def __dlpack__(self, **kw):
        return self._a.__dlpack__(**kw)

    def __dlpack_device__(self):
        return _device(self._a)

    def __repr__(self):
        return f"ember.frame Buffer(bufsize={self.bufsize}, ptr={self.ptr}, " \
               f"device={self._a.device})"


class Column:
    """One column of the frame, rows [offset, offset + size)."""

    def __init__(self, col, offset=0, size=None, allow_copy=True):
        self._col, self._offset = col, offset
        self._size = col.length - offset if size is None else size
        self._allow_copy = allow_copy

    def size(self):
        return self._size

    @property
    def offset(self):
        return self._offset

    @property
    def dtype(self):
        d = self._col.dtype
        if d.is_categorical:   # the codes, described by describe_categorical
            bits = ember.dtype(d.storage).itemsize * 8
            return DtypeKind.CATEGORICAL, bits, _FORMAT[d.storage], "="
        if d.is_string:
            wide = str(self._col.offsets.dtype) == "int64"
            return DtypeKind.STRING, 8, "U" if wide else "u", "="
        if d.kind in "Mm":
            unit = d.name[d.name.index("[") + 1:-1]
            return DtypeKind.DATETIME, 64, ("ts" if d.kind == "M" else "tD") + unit[0] + (
                ":" if d.kind == "M" else ""), "="
        bits = ember.dtype(d.storage).itemsize * 8
        return _KIND[d.kind], bits, _FORMAT[d.storage], "="

    @property
    def describe_categorical(self):
        d = self._col.dtype
        if d.is_categorical:
            return {"is_ordered": d.ordered, "is_dictionary": True,
                    "categories": Column(d.categories)}
        raise TypeError("describe_categorical only works on a column with categorical "
                        "dtype")

    @property
    def describe_null(self):
        c = self._col
        if c.dtype.is_categorical:
            return ColumnNullType.USE_SENTINEL, -1
        if c.validity is not None:
            return ColumnNullType.USE_BITMASK, 0
        if c.dtype.kind == "f" and not c.dtype.masked:
            return ColumnNullType.USE_NAN, None
        if c.dtype.kind in "Mm":
            return ColumnNullType.USE_SENTINEL, _NAT
        return ColumnNullType.NON_NULLABLE, None

    @property
    def null_count(self):
        m = self._col.null_mask()
        if m is None:
            return 0
        return int(m[self._offset:self._offset + self._size].sum())

    @property
    def metadata(self):
        return {}

    def num_chunks(self):
        return 1

    def get_chunks(self, n_chunks=None):
        for start, stop in _bounds(self._size, n_chunks):
            yield Column(self._col, self._offset + start, stop - start, self._allow_copy)

    def get_buffers(self):
        c = self._col
        out = {"data": None, "validity": None, "offsets": None}
        if c.dtype.is_string:
            out["data"] = (Buffer(c.values), (DtypeKind.UINT, 8, "C", "="))
            od = c.offsets.dtype
            out["offsets"] = (Buffer(c.offsets), (DtypeKind.INT, od.itemsize * 8,
                                                  _FORMAT[str(od)], "="))
        elif c.dtype.kind in "Mm":
            out["data"] = (Buffer(c.values), (DtypeKind.INT, 64, "l", "="))
        elif c.dtype.is_categorical:
            from ember.frame._categorical import codes_of
            fmt = self.dtype[1:]
            out["data"] = (Buffer(codes_of(c)), (DtypeKind.INT,) + fmt)
            return out
        else:
            out["data"] = (Buffer(c.values), self.dtype)
        if c.validity is not None:
            out["validity"] = (Buffer(c.validity), (DtypeKind.BOOL, 1, "b", "="))
        return out


def _bounds(n, n_chunks):
    k = 1 if n_chunks is None else int(n_chunks)
    if k < 1:
        raise ValueError("n_chunks must be a positive integer")
    step = -(-n // k) if n else 0
    return [(min(i * step, n), min((i + 1) * step, n)) for i in range(k)]


class DataFrame:
    """The interchange view of an ember DataFrame (rows [offset, offset +
    size) of its columns)."""

    def __init__(self, df, allow_copy=True, offset=0, size=None, device=None):
        self._df, self._allow_copy = df, allow_copy
        self._offset = offset
        self._size = len(df) if size is None else size
        self._from = device

    def __dataframe__(self, nan_as_null=False, allow_copy=True):
        return DataFrame(self._df, allow_copy, self._offset, self._size, self._from)

    @property
    def metadata(self):
        meta = {"ember.device": self._from or str(self._df._device() or "cpu")}
        if self._offset == 0 and self._size == len(self._df):
            try:   # pandas' reader restores the index from it
                meta["pandas.index"] = self._df.index.to_pandas()
            except ImportError:
                pass
        return meta

    def num_columns(self):
        return len(self._df._cols)

    def num_rows(self):
        return self._size

    def num_chunks(self):
        return 1

    def column_names(self):
        return [str(k) for k in self._df._cols]

    def _column(self, col):
        return Column(col, self._offset, self._size, self._allow_copy)

    def get_column(self, i):
        return self._column(list(self._df._cols.values())[i])

    def get_column_by_name(self, name):
        for k, c in self._df._cols.items():
            if str(k) == name:
                return self._column(c)
        raise KeyError(name)

    def get_columns(self):
        return [self._column(c) for c in self._df._cols.values()]

    def select_columns(self, indices):
        names = list(self._df._cols)
        return self._select([names[i] for i in indices])

    def select_columns_by_name(self, names):
        return self._select([k for k in self._df._cols if str(k) in set(names)])

    def _select(self, keys):
        from ember.frame.frame import DataFrame as Frame
        df = Frame._make({k: self._df._cols[k] for k in keys}, self._df.index)
        return DataFrame(df, self._allow_copy, self._offset, self._size, self._from)

    def get_chunks(self, n_chunks=None):
        for start, stop in _bounds(self._size, n_chunks):
            yield DataFrame(self._df, self._allow_copy, self._offset + start,
                            stop - start, self._from)


def exchange(df, nan_as_null=False, allow_copy=True):
    """DataFrame.__dataframe__."""
    dev = df._device()
    if dev is not None and str(dev) != "cpu":
        if not allow_copy:
            raise RuntimeError(f"the frame's columns are on {dev}; the interchange "
                               "protocol's readers (pandas, pyarrow) read host memory, "
                               "which takes a copy: pass allow_copy=True, or use "
                               "__arrow_c_device_array__, which keeps them on the device")
        return DataFrame(df.to_device("cpu"), allow_copy, device=str(dev))
    return DataFrame(df, allow_copy)
