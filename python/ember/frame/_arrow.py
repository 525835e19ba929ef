"""Exchange with Arrow through pyarrow. On cpu the buffers are shared both
ways where Arrow's layout is ember's (numbers, offsets, bytes, bitmaps);
Arrow's bit-packed booleans and chunked columns are copied, and a cuda
column's buffers are copied to the host for pyarrow."""
import ember

from ember.frame import _bitmap
from ember.frame._column import Column
from ember.frame._dtypes import lookup


def _pa():
    try:
        import pyarrow
    except ImportError:
        raise ImportError("Arrow exchange needs pyarrow: pip install pyarrow "
                          "(or ember[frame])") from None
    return pyarrow


def _buffer(a):
    pa = _pa()
    if a is None:
        return None
    if a.nbytes == 0:   # Arrow wants a buffer, even an empty one
        return pa.py_buffer(b"")
    if str(a.device) == "cpu":
        a = ember.ascontiguousarray(a)
        return pa.foreign_buffer(a.__array_interface__["data"][0], a.nbytes, base=a)
    return pa.py_buffer(ember.asnumpy(a))


def _arrow_type(d):
    pa = _pa()
    if d.kind == "M":
        from ember.frame._tz import tz_of
        tz = tz_of(d)
        return pa.timestamp(d.name[11:-1].split(",")[0], tz=None if tz is None else str(tz))
    if d.kind == "m":
        return pa.duration(d.name[12:-1])
    if d.kind == "b":
        return pa.bool_()
    return pa.from_numpy_dtype(d.storage)


def arrow_buffers(col):
    """A column's buffers in Arrow's order (validity or None, [offsets],
    values) as ember arrays on its device: NaT becomes a null, booleans
    are packed into bits; a float NaN stays a value, as pyarrow's own
    export of a NumPy array keeps it."""
    d = col.dtype
    if d.is_categorical:
        raise NotImplementedError("the Arrow device interface for a categorical "
                                  "column; astype it to its categories' dtype first")
    n = col.length
    validity = col.validity
    if d.kind in "Mm" and col.has_nulls():
        validity = _bitmap.pack(~col.null_mask())
    if d.is_string:
        return [validity, col.offsets, col.values]
    values = col.values
    if d.kind == "b":   # Arrow packs booleans into bits
        values = _bitmap.pack(values) if n else None
        if values is None:
            values = ember.full((n + 7) // 8, 255, dtype="uint8", device=col.device)
    return [validity, values]


def column_to_arrow(col):
    pa = _pa()
    d = col.dtype
    if d.is_categorical:
        from ember.frame import _cat_exchange
        return _cat_exchange.to_arrow(col)
    if d.is_object:   # Arrow's list type, the box's values, or pyarrow's reading
        from ember.frame._object_column import to_arrow
        return to_arrow(col, column_to_arrow, pa)
    bufs = [_buffer(b) for b in arrow_buffers(col)]
    if d.is_string:
        t = pa.large_string() if str(col.offsets.dtype) == "int64" else pa.string()
        return pa.Array.from_buffers(t, col.length, bufs)
    return pa.Array.from_buffers(_arrow_type(d), col.length, bufs)


def _host_array(buf, dtype, count, device):
    import numpy as np
    a = np.frombuffer(buf, dtype=dtype, count=-1 if count is None else count)
    return ember.asarray(a, device=device)


def _chunks_to_device(arr, device):
    """A chunked column of plain numbers without nulls: Arrow's buffers
    copied straight into one array, all chunks by one call
    (_from_host_pieces: one staged pipeline to a GPU, the thread pool on
    cpu), instead of joined by pyarrow on one thread first (a Parquet
    file's row groups made read_parquet copy every byte twice) or copied a
    chunk at a time (each a pipeline started and drained: 77 chunks of a
    column moved 6 GB/s). None where that does not apply."""
    import numpy as np
    from ember import _ember
    pa = _pa()
    t = arr.type
    if arr.num_chunks < 2 or arr.null_count or \
            not (pa.types.is_integer(t) or pa.types.is_floating(t)):
        return None
    np_t = np.dtype(t.to_pandas_dtype())
    if np_t == np.float16:
        return None
    out = ember.empty(len(arr), dtype=str(np_t), device=device)
    size = np_t.itemsize
    _ember._from_host_pieces(out, [memoryview(c.buffers()[1])[
        c.offset * size:(c.offset + len(c)) * size] for c in arr.chunks if len(c)],
        None)
    return Column(lookup(str(np_t)), out)


def column_from_arrow(arr, device=None):
    """A pyarrow Array (or ChunkedArray) -> a Column: numbers without nulls
    as plain dtypes, with nulls as pandas' nullable ones; strings as str;
    timestamps (no time zone) and durations as datetime64/timedelta64."""
    import numpy as np
    pa = _pa()
    device = "cpu" if device is None else device   # where Arrow's buffers are
    if pa.types.is_dictionary(arr.type):
        from ember.frame import _cat_exchange
        if isinstance(arr, pa.ChunkedArray):   # one dictionary for all chunks
            arr = arr.unify_dictionaries().combine_chunks()
        return _cat_exchange.from_arrow(arr, device)
    if isinstance(arr, pa.ChunkedArray):
        col = _chunks_to_device(arr, device)
        if col is not None:
            return col
        # one chunk is itself (combine_chunks copies even that one, 2.6 ms
        # of an 8 MB column that cpu would otherwise share)
        arr = arr.chunk(0) if arr.num_chunks == 1 else arr.combine_chunks()
    t = arr.type
    if pa.types.is_list(t) or pa.types.is_large_list(t):   # an object column of lists
        from ember.frame._object_column import from_arrow_lists
        return from_arrow_lists(arr, column_from_arrow, device)
    n, off = len(arr), arr.offset
    bufs = arr.buffers()
    validity = None
    if arr.null_count:
        bits = _host_array(bufs[0], np.uint8, None, device)
        validity = _bitmap.pack(_bitmap.unpack(bits, n, off)) if off else bits
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        ot = np.int32 if pa.types.is_string(t) else np.int64
        offsets = _host_array(bufs[1], ot, off + n + 1, device)[off:]
        values = _host_array(bufs[2], np.uint8, None, device) if bufs[2] else \
            ember.zeros(0, dtype="uint8", device=device)
        # a column's bytes are exactly its strings' (offsets from 0 to the
        # bytes' length), as the frame's string code assumes: a slice of
        # an Arrow array holds its parent's whole data buffer
        first, last = (int(v) for v in ember.asnumpy(offsets[ember.asarray(
            [0, n], device=offsets.device)]))
        if first or last != values.shape[0]:
            offsets, values = offsets - first, values[first:last]
        return Column("str", values, validity, offsets, n)
    if pa.types.is_boolean(t):
        bits = _host_array(bufs[1], np.uint8, None, device)
        values = _bitmap.unpack(bits, n, off)
        return Column("boolean" if validity is not None else "bool", values, validity)
    if pa.types.is_timestamp(t) or pa.types.is_duration(t):
        name = ("datetime64" if pa.types.is_timestamp(t) else "timedelta64") + f"[{t.unit}]"
        if getattr(t, "tz", None):   # UTC counts and the zone (_tz.py)
            from ember.frame._tz import tz_dtype
            name = tz_dtype(t.unit, t.tz)
        values = _host_array(bufs[1], np.int64, off + n, device)[off:]
        if validity is not None:
            values = ember.where(_bitmap.unpack(validity, n), values, -(2 ** 63))
        return Column(name, values)
    if pa.types.is_integer(t) or pa.types.is_floating(t):
        np_t = t.to_pandas_dtype()
        if np_t == np.float16:
            raise TypeError("ember.frame does not support the dtype 'float16'")
        values = _host_array(bufs[1], np_t, off + n, device)[off:]
        d = lookup(str(np.dtype(np_t)))
        if validity is not None:
            from ember.frame._dtypes import masked_form
            d = masked_form(d.storage)
        return Column(d, values, validity)
    raise TypeError(f"ember.frame does not support the Arrow type {t} yet")


def _table(obj):
    pa = _pa()
    if isinstance(obj, (pa.Table, pa.RecordBatch)):
        return obj
    if hasattr(obj, "__arrow_c_stream__"):
        return pa.table(obj)
    if hasattr(obj, "__arrow_c_array__"):
        return pa.record_batch(obj)
    return None


def from_arrow(obj, device=None, built=None):
    """A pyarrow Table/RecordBatch/Array/ChunkedArray, or any object with
    __arrow_c_stream__/__arrow_c_array__ -> DataFrame or Series. `built`:
    a table's columns already made on `device` (read_parquet's), by name."""
    from ember.frame.frame import DataFrame
    from ember.frame.series import Series
    from ember.frame._index import RangeIndex
    pa = _pa()
    if isinstance(obj, (pa.Array, pa.ChunkedArray)):
        col = column_from_arrow(obj, device)
        return Series._make(col, RangeIndex(0, col.length), None)
    t = _table(obj)
    if t is None:
        raise TypeError(f"from_arrow takes a pyarrow Table, RecordBatch, Array or "
                        f"an object with __arrow_c_stream__, not {type(obj).__name__}")
    built = built or {}
    cols = {name: built[name] if name in built else column_from_arrow(t.column(i), device)
            for i, name in enumerate(t.column_names)}
    return DataFrame._make(cols, RangeIndex(0, t.num_rows))
