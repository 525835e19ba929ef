"""read_parquet of one local file with pyarrow's decode and the copy to the
device overlapped.

pyarrow's dataset scanner (what pq.read_table runs) decodes record batches
on its own threads and reads ahead; this thread takes each batch as it
comes and copies its number columns into their place in arrays of the
whole file's length, so when the last batch is decoded only its copy is
left. Reading the table first and copying after (from_arrow) adds the
whole copy to the decode: 9.9 ms of 164 on the H200 host, 14 ms on its
cpu device. Columns that cannot be copied that way (strings, booleans,
dates, dictionaries, a batch with nulls) are built from the batches at the
end by from_arrow's rules, so the frame is the one from_arrow makes."""
import numpy as np

import ember
from ember.frame._column import Column
from ember.frame._dtypes import lookup


def _copyable(t, pa):
    """Arrow types whose values buffer is the column's values as they are."""
    return (pa.types.is_integer(t) or pa.types.is_floating(t)) and \
        not pa.types.is_float16(t)


def _scanner(path, columns):
    """The scanner pq.read_table builds for one file (pre_buffer on, the
    file's own schema), so the batches are the chunks read_table gives;
    `columns` and the index's columns (pandas' use_pandas_metadata)."""
    import pyarrow.dataset as ds
    fmt = ds.ParquetFileFormat(pre_buffer=True)
    dataset = ds.dataset(path, format=fmt)
    if columns is not None:   # pandas reads the index's columns too
        meta = dataset.schema.pandas_metadata or {}
        columns = list(columns) + [c for c in meta.get("index_columns", [])
                                   if isinstance(c, str) and c not in columns]
    return dataset, dataset.scanner(columns=columns, use_threads=True)


class _Dest:
    """One column's array of the whole length and the batches' values
    copied into it so far (rows [0, filled))."""

    def __init__(self, field_index, np_type, n, device):
        self.i = field_index
        self.np_type = np_type
        self.out = ember.empty(n, dtype=str(np_type), device=device)

    def take(self, batch, row):
        """Copy the batch's values to rows [row, row + len); False when it
        has nulls (the column is then built from the batches instead)."""
        from ember import _ember
        c = batch.column(self.i)
        if c.null_count:
            return False
        k, size = len(c), self.np_type.itemsize
        if k:
            piece = memoryview(c.buffers()[1])[c.offset * size:(c.offset + k) * size]
            _ember._from_host_pieces(self.out[row:row + k], [piece], None)
        return True

    def column(self):
        return Column(lookup(str(self.np_type)), self.out)


def read_file(path, columns, device, bar, total=0):
    """(table, built): the file's Arrow table (its batches, not copied) and
    the Columns already on `device`, by name, for _io._from_table; `bar`
    counts `total` bytes (total_bytes) as the rows come."""
    import pyarrow as pa
    dataset, scanner = _scanner(path, columns)
    schema = scanner.projected_schema
    # the rows by the metadata, asked only where needed (a second batch, or
    # a bar): 0.2-0.6 ms, a sixth of reading a 10^5-row file
    n = None

    def destinations():
        out = {}
        for i, f in enumerate(schema):
            if _copyable(f.type, pa) and schema.names.count(f.name) == 1:
                out[f.name] = _Dest(i, np.dtype(f.type.to_pandas_dtype()), n, device)
        return out

    def copy(dests, b, row):
        for name in [k for k, d in dests.items() if not d.take(b, row)]:
            del dests[name]

    # A file of one batch is from_arrow's (shared on cpu, one copy to a
    # GPU): the destinations are made, and the first batch copied, when a
    # second batch comes.
    dests, batches, row, shown = None, [], 0, 0
    for b in scanner.to_batches():
        batches.append(b)
        if len(batches) == 2:
            n = dataset.count_rows() if n is None else n
            dests = destinations()
            copy(dests, batches[0], 0)
        if dests is not None:
            copy(dests, b, row)
        row += b.num_rows
        if total:   # the file's bytes, counted out by rows read
            n = dataset.count_rows() if n is None else n
        if total and n:
            step = total * row // n - shown
            bar.update(step)
            shown += step
    if n is not None and row != n:
        raise ValueError(f"read_parquet: {path} holds {n} rows by its metadata, "
                         f"its batches {row}")
    table = pa.Table.from_batches(batches, schema=schema)
    return table, {name: d.column() for name, d in (dests or {}).items()}


def total_bytes(path):
    """The file's row groups' uncompressed bytes (what the bar counts)."""
    import pyarrow.parquet as pq
    md = pq.ParquetFile(path).metadata
    return sum(md.row_group(i).total_byte_size for i in range(md.num_row_groups))
