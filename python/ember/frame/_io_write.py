"""to_csv and the Arrow table to_parquet writes.

A file is written on the host, so the columns come to the host once and
are formatted column by column with NumPy's vectorised conversions (its
float to str is the shortest repr, which is what pandas writes); rows are
joined with NumPy's string additions, no per-row Python."""
import ember


def _quote_if_needed(s, sep, q):
    """csv's QUOTE_MINIMAL over a NumPy str array."""
    import numpy as np
    need = np.zeros(s.shape, bool)
    for ch in (sep, q, "\n", "\r"):
        need |= np.char.find(s, ch) >= 0
    if need.any():
        quoted = np.char.add(np.char.add(q, np.char.replace(s, q, q + q)), q)
        s = np.where(need, quoted, s)
    return s


def _strings_of(col, na_rep, sep, q):
    """A column's cells as they appear in the file (a NumPy str array)."""
    import numpy as np
    from ember.frame._arrow import column_to_arrow
    d = col.dtype
    if d.is_categorical:   # the values, as pandas writes them
        from ember.frame._categorical import decode
        return _strings_of(decode(col), na_rep, sep, q)
    n = col.length
    if d.kind == "m":
        raise NotImplementedError("to_csv of timedelta64 columns; format them with "
                                  "astype(str) first")
    nulls = col.null_mask()
    nulls = ember.asnumpy(nulls) if nulls is not None else np.zeros(n, bool)
    if d.kind == "M":
        s = _datetimes(col, nulls)
    elif d.is_string:
        arr = column_to_arrow(col).to_numpy(zero_copy_only=False)
        s = np.asarray(np.where(nulls, "", arr), dtype=str) if n else np.zeros(0, "U1")
        s = _quote_if_needed(s, sep, q)
    else:
        vals = ember.asnumpy(col.values)
        s = np.where(vals, "True", "False") if d.kind == "b" else vals.astype(str)
    if nulls.any():
        s = np.where(nulls, na_rep, s)
    return s


def _datetimes(col, nulls):
    """pandas' text of a datetime column: dates alone when every time is
    midnight, else to the second (finer times are NotImplementedError)."""
    import numpy as np
    unit = col.dtype.name[11:-1].split(",")[0]
    tz = getattr(col.dtype, "tz", None)
    values = col.values
    if tz is not None:   # wall-clock times and their offsets (_tz.py)
        from ember.frame._tz import to_local
        values = to_local(values, unit, tz)
    v = ember.asnumpy(values).view(f"M8[{unit}]")
    ok = v[~nulls]
    if (ok != ok.astype("M8[s]")).any():
        raise NotImplementedError("to_csv of datetimes with fractions of a second")
    if tz is not None:   # pandas writes an aware time to the second, with its offset
        off = (v.view(np.int64) - ember.asnumpy(col.values)) // \
            {"s": 1, "ms": 10 ** 3, "us": 10 ** 6, "ns": 10 ** 9}[unit] // 60
        sign = np.where(off < 0, "-", "+")
        hh = np.char.zfill((np.abs(off) // 60).astype(str), 2)
        mm = np.char.zfill((np.abs(off) % 60).astype(str), 2)
        text = np.char.replace(np.datetime_as_string(v, unit="s"), "T", " ")
        return np.char.add(np.char.add(np.char.add(text, sign), np.char.add(hh, ":")), mm)
    if (ok == ok.astype("M8[D]")).all():
        return np.datetime_as_string(v, unit="D")
    return np.char.replace(np.datetime_as_string(v, unit="s"), "T", " ")


def _header_cell(name, sep, q):
    import numpy as np
    return str(_quote_if_needed(np.asarray([str(name)]), sep, q)[0])


def to_csv(obj, path_or_buf=None, sep=",", na_rep="", header=True, index=True,
           columns=None, quotechar='"', lineterminator="\n", mode="w",
           encoding=None, float_format=None, index_label=None, **kw):
    """pandas' to_csv: the text (path_or_buf None) or written to a path or
    a file object."""
    import numpy as np
    from ember.frame.series import Series
    if kw or float_format is not None:
        bad = sorted(kw) + (["float_format"] if float_format is not None else [])
        raise NotImplementedError(f"to_csv: {', '.join(bad)}")
    if isinstance(obj, Series):
        cols = {obj.name if obj.name is not None else 0: obj._col}
    else:
        cols = {k: obj._cols[k] for k in (obj._cols if columns is None else columns)}
    n = len(obj.index)
    parts, names = [], []
    nix = 0
    if index:
        ix = obj.index
        multi = getattr(ix, "nlevels", 1) > 1   # a column a level, as pandas
        levels = ix._cols if multi else [ix._column(_dev_of(cols))]
        lnames = ix.names if multi else [ix.name]
        if index_label is not None:
            lnames = list(index_label) if isinstance(index_label, (list, tuple)) \
                else [index_label]
        nix = len(levels)
        for c, name in zip(levels, lnames):
            parts.append(_strings_of(c, na_rep, sep, quotechar))
            names.append(name if name is not None else "")
    for k, c in cols.items():
        parts.append(_strings_of(c, na_rep, sep, quotechar))
        names.append(k)
    lines = []
    if header is not False and header is not None:
        labels = names if header is True else \
            names[:nix] + list(header)
        lines.append(sep.join(_header_cell(x, sep, quotechar) if x != "" else ""
                              for x in labels))
    if n and parts:
        row = parts[0]
        for p in parts[1:]:
            row = np.char.add(np.char.add(row, sep), p)
        if len(parts) == 1:   # csv writes a lone empty field as ""
            row = np.where(row == "", quotechar * 2, row)
        lines.append(lineterminator.join(row.tolist()))
    text = lineterminator.join(lines) + lineterminator if lines else ""
    if path_or_buf is None:
        return text
    if hasattr(path_or_buf, "write"):
        path_or_buf.write(text)
        return None
    with open(path_or_buf, mode, encoding=encoding or "utf-8", newline="") as fh:
        fh.write(text)
    return None


def _dev_of(cols):
    for c in cols.values():
        return c.device
    return ember.get_device()


def _meta_column(name, field, d):
    plain = {"str": "object", "string": "object", "boolean": "bool"}
    pandas_type = plain.get(d.name, d.storage if d.kind not in "Mm" else "datetime")
    return {"name": name, "field_name": field, "pandas_type": pandas_type,
            "numpy_type": d.name, "metadata": None}


def _label_kind(names):
    """pandas' column_indexes entry for int column labels (Arrow's field
    names are str: pandas turns them back into ints by it)."""
    import numbers
    if names and all(isinstance(k, numbers.Integral) and not isinstance(k, bool)
                     for k in names):
        return [{"name": None, "field_name": None, "pandas_type": "int64",
                 "numpy_type": "int64", "metadata": None}]
    return []


def arrow_with_index(obj, index):
    """The pyarrow Table pandas would write: the columns, the index as a
    column unless it is a RangeIndex (kept in the metadata only) or
    index is False, and pandas' metadata, which names each column's dtype
    (so Int64 comes back Int64)."""
    import json
    from ember.frame._arrow import _pa, column_to_arrow
    from ember.frame._index import RangeIndex
    from ember.frame.series import Series
    pa = _pa()
    frame = obj.to_frame() if isinstance(obj, Series) else obj
    names = [str(k) for k in frame._cols]
    arrays = [column_to_arrow(c) for c in frame._cols.values()]
    meta_cols = [_meta_column(str(k), str(k), c.dtype) for k, c in frame._cols.items()]
    ix = frame.index
    index_cols = []
    if isinstance(ix, RangeIndex) and not index:
        if index is None:
            r = ix._range
            index_cols = [{"kind": "range", "name": ix.name, "start": r.start,
                           "stop": r.stop, "step": r.step}]
    elif index is not False:
        multi = getattr(ix, "nlevels", 1) > 1   # a column a level, as pandas
        levels = ix._cols if multi else [ix._column(_dev_of(frame._cols))]
        for i, (name, col) in enumerate(zip(ix.names if multi else [ix.name], levels)):
            label = name if name is not None else f"__index_level_{i}__"
            arrays.append(column_to_arrow(col))
            names.append(label)
            meta_cols.append(_meta_column(name, label, col.dtype))
            index_cols.append(label)
    meta = {"index_columns": index_cols, "column_indexes": _label_kind(frame._cols),
            "columns": meta_cols,
            "attributes": {}, "creator": {"library": "ember"}, "pandas_version": "3.0.0"}
    table = pa.Table.from_arrays(arrays, names)
    return table.replace_schema_metadata({b"pandas": json.dumps(meta).encode()})
