"""Object columns (_object_column.py) as keys: sort_values, groupby,
value_counts, unique, duplicated, isin, == and !=. A box column is keyed
by its typed child (its values compare as the Python objects they read
as). Host cells and list cells are factorized once on the host, as
pandas' factorize does (a hash table of the Python objects: 1, 1.0 and
True are one key; None, NaN, NA and NaT are the column's nulls), and the
operation then runs on the device over an int64 column of those codes
with the object column's null bitmap: ember's integer-key machinery.

The codes' order depends on what the operation needs from the cells, as
in pandas:
- "hash": equality only (value_counts, duplicated, drop_duplicates,
  isin, ==): codes in order of appearance; a list, dict or set cell is
  keyed by its contents, as pandas 3's hash tables key them;
- "unique": the same, but an unhashable cell is pandas' TypeError
  (unique, nunique, groupby);
- "sort": Python's order of the cells (sort_values); cells that do not
  compare raise Python's TypeError, as pandas' sort does;
- "group": pandas' safe_sort for groupby's sorted keys: Python's order,
  or numbers before strings where both occur, else the TypeError."""
import numbers

import numpy as np

import ember

from ember.frame._column import Column


def is_object(col):
    return getattr(col, "layout", None) is not None and col.dtype.is_object


def _box_child(col):
    """A box's typed child with the box's nulls."""
    nulls = col.null_mask()
    return col.child if nulls is None else col.child.with_validity(~nulls)


def host_cells(col):
    """(NumPy object array of the cells, NumPy bool nulls)."""
    nulls = col.null_mask()
    nulls = np.zeros(col.length, bool) if nulls is None else ember.asnumpy(nulls)
    cells = col.host if col.layout == "host" else col.to_pandas_array()
    return cells, nulls


def _contents(x):
    """A hashable stand-in for a list, dict or set cell: its contents (a
    tag keeps a list apart from a tuple of the same items)."""
    if isinstance(x, list):
        return ("\0list", tuple(_contents(v) for v in x))
    if isinstance(x, dict):
        return ("\0dict", frozenset((k, _contents(v)) for k, v in x.items()))
    if isinstance(x, set):
        return ("\0set", frozenset(x))
    return x


def factorize(cells, nulls, table=None, loose=False):
    """int64 codes of the non-null cells in order of first appearance (-1
    where null) and the table of keys to codes (extended when given, so
    two sets of cells share one code space). loose: unhashable cells are
    keyed by their contents instead of raising TypeError."""
    table = {} if table is None else table
    out = np.full(len(cells), -1, np.int64)
    idx = np.flatnonzero(~nulls)
    vals = cells[idx]
    keyed = _contents if loose else (lambda x: x)
    setdefault = table.setdefault
    try:
        out[idx] = [setdefault(keyed(x), len(table)) for x in vals]
    except TypeError:
        if not loose:
            raise
        out[idx] = [setdefault(_contents(x), len(table)) for x in vals]
    return out, table


def _ranks(keys, mode):
    """The rank of each key (int64) in the order the mode wants."""
    idx = range(len(keys))
    try:
        order = sorted(idx, key=keys.__getitem__)
    except TypeError:
        strs = [i for i in idx if isinstance(keys[i], str)]
        rest = [i for i in idx if not isinstance(keys[i], str)]
        if mode == "sort" or not strs or not all(isinstance(keys[i], numbers.Number)
                                                 for i in rest):
            raise
        # pandas' safe_sort of mixed numbers and strings: numbers first
        order = sorted(rest, key=keys.__getitem__) + sorted(strs, key=keys.__getitem__)
    rank = np.empty(len(keys), np.int64)
    rank[order] = np.arange(len(keys), dtype=np.int64)
    return rank


def proxy(col, mode):
    """The typed key column that stands for object column col (see the
    module's note for the modes)."""
    if col.layout == "box":
        return _box_child(col)
    if col.layout == "list" and mode in ("unique", "group"):
        raise TypeError("unhashable type: 'list'")
    cells, nulls = host_cells(col)
    if col.layout == "list":   # flat lists of scalars: their items' tuples
        cells = np.array([tuple(x) if isinstance(x, list) else x for x in cells] + [None],
                         dtype=object)[:-1]
    if mode in ("hash", "unique"):
        return _null_kinds_apart(col, cells, nulls, mode)
    codes, table = factorize(cells, nulls, loose=mode == "hash")
    if mode in ("sort", "group") and table:
        rank = _ranks(list(table), mode)
        codes = np.where(codes >= 0, rank[np.maximum(codes, 0)], -1)
    values = ember.asarray(np.maximum(codes, 0), device=col.device)
    return Column("int64", values, col.validity)


def _null_kinds_apart(col, cells, nulls, mode):
    """Codes for pandas' hash tables, where None, NaN, NA and NaT are four
    distinct keys (unique, duplicated and value_counts(dropna=False) keep
    them apart): each null cell coded as its kind, no null bitmap. The
    callers that drop nulls read them from the object column itself."""
    if nulls.any():
        rows = np.flatnonzero(nulls)
        kinds = _row_null_kinds(col, cells, nulls)
        cells = cells.copy()
        cells[rows] = [("\0null", k) for k in kinds[rows]]
    codes, _ = factorize(cells, np.zeros(col.length, bool), loose=mode == "hash")
    return Column("int64", ember.asarray(codes, device=col.device))


def null_kinds(col):
    """How many distinct kinds of null (None, NaN, NA, NaT) the column holds."""
    cells, nulls = host_cells(col)
    if not nulls.any():
        return 0
    kinds = _row_null_kinds(col, cells, nulls)
    return len(set(kinds[nulls].tolist()))


def sorted_strings(col):
    """pandas 3's Series.sort_values gives an object column of strings
    (and nulls) back as its str dtype: a box of strings as that column,
    anything else as it is."""
    if col.layout == "box" and col.child.dtype.is_string:
        child = _box_child(col)
        return Column("str", child.values, child.validity, child.offsets, child.length)
    return col


def nan_nulls(col):
    """A group key column with every null cell NaN: pandas labels the null
    group of object keys NaN whatever kind of null its rows held
    (factorize's na_value), and which row represents a group is any."""
    nulls = col.null_mask()
    if nulls is None or not bool(ember.any(nulls)):
        return col
    from ember.frame._object_column import from_objects
    cells, nulls = host_cells(col)
    cells = cells.copy()
    cells[nulls] = np.nan
    return from_objects(cells, device=col.device)


def as_key(col, mode):
    return proxy(col, mode) if is_object(col) else col


def _nulls(col):
    m = col.null_mask()
    return ember.zeros(col.length, dtype="bool", device=col.device) if m is None else m


def compare(op, a, b):
    """a == b or a != b, where a or b is an object column and the other a
    column or a scalar: pandas compares cell by cell with Python's ==
    (a null equals nothing, not even a null); here both sides' cells are
    factorized into one code space on the host and the codes compared on
    the device."""
    col, other = (a, b) if is_object(a) else (b, a)
    if isinstance(other, Column) and other.length != col.length:
        raise ValueError(f"lengths must match: {col.length} and {other.length}")
    cells, nulls = host_cells(col)
    codes, table = factorize(cells, nulls, loose=True)
    if isinstance(other, Column):
        from ember.frame._object_column import boxed
        ocells, onulls = host_cells(boxed(other))
        ocodes, _ = factorize(ocells, onulls, table, loose=True)
        theirs = ember.asarray(ocodes, device=col.device)
        none = _nulls(other)
    else:
        if other is None or (isinstance(other, float) and other != other):
            eq = ember.zeros(col.length, dtype="bool", device=col.device)
            return Column("bool", eq if op == "eq" else ~eq)
        try:
            key = _contents(other)
            code = table.get(key, -2)
        except TypeError:
            code = -2
        theirs, none = code, None
    mine = ember.asarray(codes, device=col.device)
    eq = (mine == theirs) & ~_nulls(col)
    if none is not None:
        eq = eq & ~none
    return Column("bool", eq if op == "eq" else ~eq)


def _null_kind(x):
    """'None', 'nan', 'NA' or 'NaT' for a null cell, '' for a value."""
    if x is None:
        return "None"
    if isinstance(x, float) and x != x:
        return "nan"
    return {"NAType": "NA", "NaTType": "NaT"}.get(type(x).__name__, "")


def _row_null_kinds(col, cells, nulls):
    """Each row's null kind ('' for a value): a host column keeps its null
    cells as they came; the others remember None or NaN (nan_nulls)."""
    kinds = np.full(col.length, "", dtype=object)
    rows = np.flatnonzero(nulls)
    if col.layout == "host":
        kinds[rows] = [_null_kind(x) for x in cells[rows]]
        return kinds
    nan = col.nan_nulls
    if isinstance(nan, str):
        kinds[rows] = nan
        return kinds
    nan = ember.asnumpy(nan) if isinstance(nan, ember.ndarray) else \
        np.full(col.length, bool(nan))
    kinds[rows] = np.where(nan[rows], "nan", "None")
    return kinds


def isin(col, values):
    """Series.isin of an object column: a cell is found among the values
    by pandas' hash-table rule (None meets None, NaN meets NaN, not each
    other)."""
    items = values.to_pandas().tolist() if hasattr(values, "to_pandas") else list(values)
    cells, nulls = host_cells(col)
    codes, table = factorize(cells, nulls, loose=True)
    vcells = np.empty(len(items), dtype=object)
    vcells[:] = items
    vkinds = [_null_kind(x) for x in items]
    vcodes, _ = factorize(vcells, np.array([k != "" for k in vkinds], bool), table,
                          loose=True)
    wanted = np.unique(vcodes[vcodes >= 0])
    found = ember.isin(ember.asarray(codes, device=col.device),
                       ember.asarray(wanted, device=col.device)) & ~_nulls(col)
    want_nulls = {k for k in vkinds if k}
    if want_nulls and nulls.any():
        kinds = _row_null_kinds(col, cells, nulls)
        hit = nulls & np.isin(kinds.astype(str), list(want_nulls))
        found = found | ember.asarray(hit, device=col.device)
    return Column("bool", found)


def fillna(col, value):
    """fillna of an object column: a box whose values take the fill value
    as they are (a str box and a str) fills its typed child on the
    device; otherwise the cells are filled on the host and the column
    made again from them (the fill can change its layout, never its
    dtype: object, as pandas keeps it)."""
    nulls = col.null_mask()
    if nulls is None:
        return col
    from ember.frame._object_column import ObjectColumn, from_objects
    child = col.child if col.layout == "box" else None
    same = child is not None and not isinstance(value, bool) and (
        (child.dtype.is_string and isinstance(value, str)) or
        (child.dtype.kind == "f" and isinstance(value, float)) or
        (child.dtype.kind in "iu" and isinstance(value, int)))
    if same:
        from ember.frame._ops import fill_nulls
        filled = fill_nulls(child.with_validity(~nulls), value)
        return ObjectColumn("box", col.length, filled, None, None, None, False)
    cells = col.to_pandas_array().copy()
    cells[ember.asnumpy(nulls)] = value
    return from_objects(cells, col.device)
