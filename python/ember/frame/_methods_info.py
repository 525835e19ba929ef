"""info() and memory_usage(): pandas' layout over ember's own buffers
(values, validity bitmap, string offsets), so a nullable column counts a
bit a row for its nulls where pandas counts a byte."""
import sys

import ember

from ember.frame._column import Column

_RANGE_INDEX_BYTES = 132   # what pandas reports for any RangeIndex


def _nbytes(col):
    if col.dtype.is_object:   # its child column, or pandas' pointer a host cell
        own = sum(int(a.nbytes) for a in (col.validity, col.offsets) if a is not None)
        return own + (_nbytes(col.child) if col.child is not None else 8 * col.length)
    return sum(int(a.nbytes) for a in (col.values, col.validity, col.offsets)
               if a is not None)


def _index_bytes(obj):
    from ember.frame._index import RangeIndex
    idx = obj._index
    return _RANGE_INDEX_BYTES if isinstance(idx, RangeIndex) else _nbytes(
        idx._column(obj._dev()))


def memory_usage(obj, index=True):
    import numpy as np
    from ember.frame._methods import _series
    if obj.ndim == 1:
        return _nbytes(obj._col) + (_index_bytes(obj) if index else 0)
    names = (["Index"] if index else []) + list(obj._cols)
    vals = ([_index_bytes(obj)] if index else []) + [_nbytes(c) for c in
                                                     obj._cols.values()]
    arr = ember.asarray(np.asarray(vals, dtype=np.int64), device=obj._dev())
    return _series(Column("int64", arr), obj._labels(names), None)


def _size(num):
    for unit in ("bytes", "KB", "MB", "GB", "TB"):
        if num < 1024.0:
            return f"{num:3.1f} {unit}"
        num /= 1024.0
    return f"{num:3.1f} PB"


def _index_line(obj):
    from ember.frame._index import RangeIndex
    idx = obj._index
    kind = "RangeIndex" if isinstance(idx, RangeIndex) else "Index"
    n = len(idx)
    span = ""
    if n:
        ends = idx.take(ember.asarray([0, n - 1], dtype="int64",
                                      device=obj._dev())).tolist()
        span = f", {ends[0]} to {ends[1]}"
    return f"{kind}: {n} entries{span}"


def _table(rows):
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in rows]


def _dtype_counts(dtypes):
    counts = {}
    for d in dtypes:
        counts[d] = counts.get(d, 0) + 1
    return "dtypes: " + ", ".join(f"{d}({c})" for d, c in sorted(counts.items()))


def info(obj, buf=None):
    out = buf if buf is not None else sys.stdout
    kind = "Series" if obj.ndim == 1 else "DataFrame"
    lines = [f"<class 'ember.frame.{kind}'>", _index_line(obj)]
    if obj.ndim == 1:
        n = obj.count()
        lines.append(f"Series name: {obj.name}")
        lines += _table([["Non-Null Count", "Dtype"], ["-" * 14, "-----"],
                         [f"{n} non-null", obj.dtype.name]])
        dtypes = [obj.dtype.name]
        total = memory_usage(obj)
    else:
        lines.append(f"Data columns (total {len(obj._cols)} columns):")
        counts = obj.count().tolist() if obj._cols else []
        rows = [[" # ", "Column", "Non-Null Count", "Dtype"],
                ["---", "------", "-" * 14, "-----"]]
        rows += [[f" {i}", str(k), f"{cnt} non-null", c.dtype.name]
                 for i, ((k, c), cnt) in enumerate(zip(obj._cols.items(), counts))]
        lines += _table(rows)
        dtypes = [c.dtype.name for c in obj._cols.values()]
        total = int(sum(memory_usage(obj).tolist()))
    lines.append(_dtype_counts(dtypes))
    lines.append(f"memory usage: {_size(float(total))}")
    out.write("\n".join(lines) + "\n")
