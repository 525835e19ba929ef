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


def read_parquet(path, engine="auto", columns=None, device=None, **kw):
    """pandas' read_parquet: pyarrow decodes the file, the columns move to
    `device` (default: ember's current device) through Arrow. One local
    file is decoded in pieces on threads, each piece's number column copied
    as it finishes (_io_parquet), or on a cpu of few cores a column a
    thread and shared; a folder, a list or an open file is
    pq.read_table's, then copied."""
    if kw:
        raise NotImplementedError(f"read_parquet: {', '.join(sorted(kw))}")
    _engine("read_parquet", engine)
    import os
    import ember
    from ember._progress import OFF, progress
    pq = _pa_module("pyarrow.parquet")
    device = ember.get_device() if device is None else device
    if not _local_file(path):
        return _from_table(pq.read_table(path, columns=columns, use_pandas_metadata=True),
                           device)
    from ember.frame import _io_parquet
    pf = pq.ParquetFile(path)   # its metadata read once, for all below
    bar = progress(None, "read_parquet", "B")
    total = 0 if bar is OFF else _io_parquet.total_bytes(pf)
    if total:
        bar.total = total
    if ember.Device(device).type == "cpu" and (os.cpu_count() or 1) <= pf.metadata.num_columns \
            and all(c in pf.schema_arrow.names for c in columns or ()):
        # ParquetFile.read decodes a column a thread into one chunk, which
        # from_arrow shares on cpu: with no more cores than columns the
        # pieces' parallel decode gains less than their copy costs
        # (10^7 rows on 2 cores: 107 ms against 126; on 16, 58.6 against 238)
        with bar:
            table = pf.read(columns=columns, use_pandas_metadata=True)
            bar.update(total)
        return _from_table(table, device)
    with bar:
        got = _io_parquet.read_file(pf, path, columns, device, bar, total)
    if got is None:   # a missing or doubled column: read_table's error
        return _from_table(pq.read_table(path, columns=columns, use_pandas_metadata=True),
                           device)
    return _from_table(got[0], device, got[1])


def _engine(fn, engine):
    """pandas' engine=: pyarrow is the one ember reads and writes with."""
    if engine in ("auto", "pyarrow"):
        return
    if engine == "fastparquet":
        raise NotImplementedError(f"{fn}: engine='fastparquet'; ember reads and "
                                  "writes Parquet with pyarrow (engine='pyarrow')")
    raise ValueError("engine must be one of 'pyarrow', 'fastparquet'")


def _local_file(path):
    """A path of a local file: what _io_parquet reads (an open file, a
    folder, a list and remote URIs go to read_table)."""
    import os
    return isinstance(path, (str, os.PathLike)) and os.path.isfile(path)


def _from_table(table, device, built=None):
    """The frame of a table read from a file, its pandas metadata's index
    restored; `built`: columns already on `device`, by name."""
    from ember.frame._arrow import from_arrow
    built = built or {}
    meta = table.schema.pandas_metadata or {}
    index_cols = [c for c in meta.get("index_columns", [])
                  if isinstance(c, str) and c in table.column_names]
    df = from_arrow(table.drop_columns(index_cols) if index_cols else table, device,
                    built)
    _as_pandas_reads(df, meta)
    _int_labels(df, meta)
    if index_cols:
        from ember.frame._arrow import column_from_arrow
        from ember.frame._index import Index
        labels = [None if name.startswith("__index_level_") else name
                  for name in index_cols]
        cols = [built[name] if name in built else
                column_from_arrow(table.column(name), device) for name in index_cols]
        if len(cols) > 1:   # one column a level
            from ember.frame._multiindex import MultiIndex
            df._index = MultiIndex._make(cols, labels)
        else:
            df._index = Index(cols[0], name=labels[0])
    return df


def _int_labels(df, meta):
    """Column labels pandas wrote as ints (Arrow's names are str; pandas'
    metadata says the labels were int64) back as ints, as pandas reads."""
    kinds = meta.get("column_indexes") or []
    if len(kinds) == 1 and kinds[0].get("pandas_type") == "int64":
        try:
            df._cols = {int(k): c for k, c in df._cols.items()}
        except ValueError:   # not every name is a number: leave them
            pass


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

    def to_parquet(self, path, engine="auto", index=None, **kw):
        """Through pyarrow: the columns as Arrow, and the index as pandas
        stores it (a column and pandas' metadata) unless it is the default
        RangeIndex or index=False."""
        if kw:
            raise NotImplementedError(f"to_parquet: {', '.join(sorted(kw))}")
        _engine("to_parquet", engine)
        pq = _pa_module("pyarrow.parquet")
        from ember.frame._io_write import arrow_with_index
        pq.write_table(arrow_with_index(self, index), path)
