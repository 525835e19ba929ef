"""read_parquet of one local file: pyarrow decodes it in pieces of one
(row group, number column) each, on threads, while this thread copies
each finished piece to its place on the device.

pyarrow's own readers split the work coarser: read_table's scanner
decodes a row group at a time and ParquetFile.read a column at a time,
so a file of 10 row groups and 4 columns keeps 10 or 4 of the H200
host's 16 cores busy; in pieces of one (row group, column) the same file
(10^7 rows) is decoded and copied to the GPU in 66 ms where read_table
alone takes 162 (bench/parquet_paths.py). The columns that cannot be
copied that way (strings, booleans, dates, dictionaries, a piece with
nulls) are decoded a row group at a time and built from the pieces at
the end by from_arrow's rules, so the frame is the one from_arrow makes
of read_table's table."""
import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import ember
from ember.frame._column import Column
from ember.frame._dtypes import lookup


def _copyable(t, pa):
    """Arrow types whose values buffer is the column's values as they are."""
    return (pa.types.is_integer(t) or pa.types.is_floating(t)) and \
        not pa.types.is_float16(t)


class _Dest:
    """One column's array of the whole length, the pieces' values copied
    into it as they come."""

    def __init__(self, np_type, n, device):
        self.np_type = np_type
        self.out = ember.empty(n, dtype=str(np_type), device=device)

    def take(self, arr, row):
        """Copy a ChunkedArray's values to rows [row, row + len); False
        when it has nulls (the column is then built from the pieces)."""
        from ember import _ember
        if arr.null_count:
            return False
        size, bufs, k = self.np_type.itemsize, [], 0
        for c in arr.chunks:
            if len(c):
                bufs.append(memoryview(c.buffers()[1])[c.offset * size:
                                                       (c.offset + len(c)) * size])
                k += len(c)
        if k:
            _ember._from_host_pieces(self.out[row:row + k], bufs, None)
        return True

    def column(self):
        return Column(lookup(str(self.np_type)), self.out)


def read_file(pf, path, columns, device, bar, total=0):
    """(table, built): the file's (`path`, open as ParquetFile `pf`) Arrow
    table (its pieces, not copied) and
    the Columns already on `device`, by name, for _io._from_table; `bar`
    counts `total` bytes (total_bytes) as the pieces come. None when a
    column is named twice in the file or `columns` names one it lacks:
    read_table's path, and its errors, as pandas'."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    schema = pf.schema_arrow
    names = list(schema.names)
    if columns is not None:   # pandas reads the index's columns too
        meta = schema.pandas_metadata or {}
        names = list(columns) + [c for c in meta.get("index_columns", [])
                                 if isinstance(c, str) and c not in columns]
    if len(set(schema.names)) != len(schema.names) or \
            any(c not in schema.names for c in names):
        return None
    schema = pa.schema([schema.field(c) for c in names], metadata=schema.metadata)
    md = pf.metadata
    groups = md.num_row_groups
    starts = [0]
    for g in range(groups):
        starts.append(starts[-1] + md.row_group(g).num_rows)
    n = starts[-1]
    number = [c for c in names if _copyable(schema.field(c).type, pa)]
    other = [c for c in names if c not in number]
    local = threading.local()

    def decode(g, cols):   # a ParquetFile a thread: its reads are not shared
        f = getattr(local, "pf", None)
        if f is None:
            f = local.pf = pq.ParquetFile(path)
        return f.read_row_group(g, columns=cols, use_threads=False)

    # a file of one row group is from_arrow's (shared on cpu, one copy to a
    # GPU)
    dests = {c: _Dest(np.dtype(schema.field(c).type.to_pandas_dtype()), n, device)
             for c in number} if groups > 1 else {}
    pieces = {c: [None] * groups for c in names}
    tasks = [(g, [c]) for g in range(groups) for c in number]
    tasks += [(g, other) for g in range(groups) if other]
    shown = 0
    with ThreadPoolExecutor(max_workers=max(1, min(len(tasks), os.cpu_count() or 1))) as ex:
        futs = [(g, cols, ex.submit(decode, g, cols)) for g, cols in tasks]
        for g, cols, fut in futs:   # in submission order: row group by row group
            t = fut.result()
            for c in cols:
                pieces[c][g] = t.column(c)
                d = dests.get(c)
                if d is not None and not d.take(pieces[c][g], starts[g]):
                    del dests[c]
            if total and n:
                step = total * starts[g + 1] // n - shown
                bar.update(step)
                shown += step
    table = pa.Table.from_arrays(
        [pa.chunked_array([ch for p in pieces[c] for ch in p.chunks],
                          type=schema.field(c).type) for c in names], schema=schema)
    return table, {name: d.column() for name, d in dests.items()}


def total_bytes(pf):
    """ParquetFile pf's row groups' uncompressed bytes (what the bar counts)."""
    md = pf.metadata
    return sum(md.row_group(i).total_byte_size for i in range(md.num_row_groups))
