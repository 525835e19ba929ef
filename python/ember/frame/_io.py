"""Files: read_csv, to_csv, read_parquet, to_parquet, read_json.

CSV is parsed by ember's own kernels on the device that will hold the
frame (_io_csv, _io_read, _io_convert); Parquet and JSON lines are
decoded by pyarrow (an optional dependency) and exchanged through Arrow."""
from ember.frame._io_csv import EmptyDataError, ParserError, read_csv

__all__ = ["EmptyDataError", "ParserError", "read_csv", "read_json", "read_parquet"]


def _pa_module(name):
    try:
        import importlib
        return importlib.import_module(name)
    except ImportError:
        raise ImportError(f"this needs pyarrow ({name}): pip install pyarrow "
                          "(or pip install ember[frame])") from None


def read_parquet(path, columns=None, device=None, **kw):
    """pandas' read_parquet: pyarrow decodes the file, the columns move to
    `device` (default: ember's current device) through Arrow."""
    if kw:
        raise NotImplementedError(f"read_parquet: {', '.join(sorted(kw))}")
    import ember
    from ember._progress import OFF, progress
    pq = _pa_module("pyarrow.parquet")
    bar = progress(None, "read_parquet", "B")
    if bar is OFF or not _one_file(path):
        table = pq.read_table(path, columns=columns)
    else:
        table = _by_row_groups(pq, path, columns, bar)
    return _from_table(table, ember.get_device() if device is None else device)


def _one_file(path):
    """A local file or an open one: what ParquetFile reads by row group
    (read_table alone knows datasets, lists and remote URIs)."""
    import os
    if isinstance(path, (str, os.PathLike)):
        return os.path.isfile(path)
    return hasattr(path, "read")


def _by_row_groups(pq, path, columns, bar):
    """The file read a row group at a time, so the bar can count its bytes
    (read_table decodes it in one call that says nothing until done)."""
    pa = _pa_module("pyarrow")
    with bar, pq.ParquetFile(path) as f:
        md = f.metadata
        bar.total = sum(md.row_group(i).total_byte_size for i in range(md.num_row_groups))
        parts = []
        for i in range(md.num_row_groups):
            parts.append(f.read_row_group(i, columns=columns))
            bar.update(md.row_group(i).total_byte_size)
        if not parts:
            return f.read(columns=columns)
        return pa.concat_tables(parts)


def _from_table(table, device):
    from ember.frame._arrow import from_arrow
    meta = table.schema.pandas_metadata or {}
    index_cols = [c for c in meta.get("index_columns", []) if isinstance(c, str)]
    df = from_arrow(table.drop_columns(index_cols) if index_cols else table, device)
    _as_pandas_reads(df, meta)
    if index_cols:
        from ember.frame._arrow import column_from_arrow
        from ember.frame._index import Index
        labels = [None if name.startswith("__index_level_") else name
                  for name in index_cols]
        cols = [column_from_arrow(table.column(name), device) for name in index_cols]
        if len(cols) > 1:   # one column a level
            from ember.frame._multiindex import MultiIndex
            df._index = MultiIndex._make(cols, labels)
        else:
            df._index = Index(cols[0], name=labels[0])
    return df


def _as_pandas_reads(df, meta):
    """The dtypes pandas gives Arrow's columns with nulls: its nullable ones
    where the file's pandas metadata names them, else NaN in float64."""
    from ember.frame._convert import astype
    kept = {c.get("field_name"): c.get("numpy_type") for c in meta.get("columns", [])}
    for k, c in list(df._cols.items()):
        d = c.dtype
        if not d.masked or d.is_string or kept.get(str(k)) == d.name:
            continue
        if d.kind == "b":
            raise NotImplementedError(f"column {k!r}: booleans with nulls, which "
                                      "pandas reads as object")
        df._cols[k] = astype(c, "float64")


def read_json(path_or_buf, orient=None, lines=False, device=None, **kw):
    """JSON lines (lines=True) read by pyarrow.json into Arrow, then moved
    to `device`. Other layouts are not supported yet."""
    if not lines or orient not in (None, "records"):
        raise NotImplementedError("read_json: only lines=True (JSON lines, one "
                                  "record a line); use pandas.read_json and "
                                  "from_pandas for other layouts")
    if kw:
        raise NotImplementedError(f"read_json: {', '.join(sorted(kw))}")
    import io
    import ember
    pj = _pa_module("pyarrow.json")
    src = path_or_buf
    if hasattr(src, "read"):
        raw = src.read()
        src = io.BytesIO(raw.encode("utf-8") if isinstance(raw, str) else raw)
    table = pj.read_json(src)
    return _from_table(table, ember.get_device() if device is None else device)


class IOMethods:
    """to_csv and to_parquet of Series and DataFrame."""

    def to_csv(self, path_or_buf=None, sep=",", na_rep="", header=True, index=True,
               **kw):
        from ember.frame._io_write import to_csv
        return to_csv(self, path_or_buf, sep=sep, na_rep=na_rep, header=header,
                      index=index, **kw)

    def to_parquet(self, path, index=None, **kw):
        """Through pyarrow: the columns as Arrow, and the index as pandas
        stores it (a column and pandas' metadata) unless it is the default
        RangeIndex or index=False."""
        if kw:
            raise NotImplementedError(f"to_parquet: {', '.join(sorted(kw))}")
        pq = _pa_module("pyarrow.parquet")
        from ember.frame._io_write import arrow_with_index
        pq.write_table(arrow_with_index(self, index), path)
