"""read_csv from the file's bytes: header, rows and columns (after
_io_csv's tokenizer), each column typed and converted on the device."""
import ember

from ember.frame import _io_convert as cv
from ember.frame._io_csv import (EmptyDataError, ParserError, Rows, _data_rows,
                                 _header_names, _mangle, _select_usecols, tokenize)


def _na_for(name, na_values, keep_default_na):
    extra = na_values
    if isinstance(na_values, dict):
        extra = na_values.get(name, ())
    if extra is None:
        extra = ()
    elif isinstance(extra, str):
        extra = (extra,)
    strings = list(cv.DEFAULT_NA) if keep_default_na else []
    return tuple(strings) + tuple(str(v) for v in extra)


def _regular_or_gathered(buf, ends, rows, data, ncols, quote, strict=True):
    """The data rows' fields as a Fields block: straight over `ends` when
    every row has ncols fields and the rows are one run of the file's,
    else gathered into (rows, ncols) starts and ends (short rows' missing
    fields empty and marked)."""
    dev = buf.device
    run = isinstance(data, tuple) and rows.raw is None   # a run of the file's rows
    if not run:
        raw = rows.raw[data[0]:data[1]] if isinstance(data, tuple) else \
            data if rows.raw is None else rows.raw[data]
    if run:
        nf = rows.nf[data[0]:data[1]]
        n = data[1] - data[0]
        r0, r1 = data[0], data[1] - 1
    else:
        nf = rows.nf[raw]
        n = raw.shape[0]
    if n == 0:
        return cv.Fields(buf, None, ends, 0, 0, ncols, quote)
    stats = ember.asnumpy(ember.stack([nf.max(), nf.min()]))
    mx, mn = int(stats[0]), int(stats[1])
    if mx > ncols and strict:
        bad = int(ember.flatnonzero(nf > ncols)[0])
        line = (r0 + bad if run else int(raw[bad])) + 1
        raise ParserError(f"Error tokenizing data. C error: Expected {ncols} fields in "
                          f"line {line}, saw {int(nf[bad])}")
    if mn == mx == ncols and run:
        base = int(rows.last[r0]) - ncols + 1
        return cv.Fields(buf, None, ends, base, n, ncols, quote)
    if run:
        raw = ember.arange(r0, r1 + 1, dtype="int64", device=dev)
    last = rows.last[raw]
    first = last - nf + 1
    k = ember.arange(ncols, dtype="int64", device=dev)
    present = k[None, :] < nf[:, None]
    fid = ember.where(present, first[:, None] + k[None, :], last[:, None])
    e = ends[fid]
    s = ember.where(fid > 0, ends[ember.maximum(fid - 1, 0)] + 1, 0)
    e = ember.where(present, e, s)
    missing = None if mn == ncols else ~present
    return cv.Fields(buf, ember.ascontiguousarray(s.reshape(-1)),
                     ember.ascontiguousarray(e.reshape(-1)), 0, n, ncols, quote, missing)


def _dtype_for(dtype, name, pos):
    if dtype is None:
        return None
    if isinstance(dtype, dict):
        want = dtype.get(name, dtype.get(pos) if pos in dtype else None)
        return None if want is None else _norm(want)
    return _norm(dtype)


def _norm(want):
    if want in (object, "object", "O"):
        return "str"
    return want


class ImplicitIndex(Exception):
    """The header is one field shorter than the rows: pandas makes the
    first column the index (without a name)."""


INDEX = "\0index"   # the implicit index column's name while it is read


class Plan:
    """What the header and the options make of a file: the column names,
    the picked columns, their NA tables and wanted dtypes, the date
    columns; `first` is the first data row of the first block."""

    def __init__(self, buf, rows, sep, quote, dev, header="infer", names=None,
                 usecols=None, dtype=None, parse_dates=None, na_values=None,
                 keep_default_na=True):
        if header == "infer":
            header = 0 if names is None else None
        if isinstance(header, (list, tuple)):
            raise NotImplementedError("read_csv: a header of several rows (a MultiIndex)")
        first = 0 if header is None else int(header)
        if first < rows.n:
            file_names = _header_names(buf, rows, first, sep, quote)
        elif names is None:
            raise EmptyDataError("No columns to parse from file")
        else:
            file_names = list(names)
        if header is None:
            file_names = list(range(len(file_names)))
        else:
            first += 1
        if names is not None:
            names = list(names)
            if len(set(names)) != len(names):
                raise ValueError("Duplicate names are not allowed.")
            self.names = names
        else:
            self.names = _mangle([str(x) for x in file_names]) if header is not None \
                else file_names
        self.first, self.quote = first, quote
        self.ncols = len(self.names)
        # pandas infers an index, and refuses rows with extra fields, only
        # without usecols
        self.strict = usecols is None
        self.check_index = self.strict and (header is not None or names is not None)
        self.picks = _select_usecols(self.names, usecols) if self.ncols else []
        self.dates = _date_columns(parse_dates, self.names)
        tables, self.na, self.want = {}, {}, {}
        for i in self.picks:
            name = self.names[i]
            key = _na_for(name, na_values, keep_default_na)
            if key not in tables:
                tables[key] = cv.na_table(key, dev)
            self.na[i] = tables[key]
            self.want[i] = _dtype_for(dtype, name, i)

    def fields(self, buf, ends, rows, first, nrows):
        """The data rows from row `first` (at most nrows) as Fields."""
        data = _data_rows(rows, first, nrows)
        if self.check_index and data[1] > data[0]:
            d0 = data[0]
            nf0 = int(rows.nf[d0 if rows.raw is None else int(rows.raw[d0])])
            if nf0 == self.ncols + 1:
                raise ImplicitIndex()
        return _regular_or_gathered(buf, ends, rows, data, self.ncols, self.quote,
                                    self.strict)

    def classify_all(self, f):
        """Every column's classes from one pass over the rows, when every
        column is read with one NA table (else None: column by column)."""
        tables = {id(t) for t in self.na.values()}
        if f.nrows == 0 or len(self.picks) != self.ncols or len(tables) != 1 \
                or self.ncols == 1:
            return None
        return cv.classify_all(f, self.na[self.picks[0]])

    def column(self, f, i, want=None, classes=None):
        """Column i of f, as `want` (default: the user's dtype or pandas'
        inferred one); classes: classify's result when already made."""
        name = self.names[i]
        na = self.na[i]
        cls, vals, counts = classes or cv.classify(f, i, na)
        if want is None:
            want = self.want[i]
        if want is None and f.nrows == 0:
            want = "str"   # pandas: no rows, no type to infer (object)
        return cv.convert(f, i, na, cls, vals, counts, want, name)


def frame_from_bytes(host, sep, quote, dev, nrows=None, skiprows=None, **opts):
    try:
        return _frame(host, sep, quote, dev, nrows, skiprows, **opts)
    except ImplicitIndex:
        pass
    # read again with the names (given, or the header's) after a name for
    # the index
    header = opts.pop("header", "infer")
    if opts.get("names") is None:
        probe = _frame(host, sep, quote, dev, 0, skiprows, header=header, **{
            k: v for k, v in opts.items() if k not in ("dtype", "parse_dates")})
        opts["names"] = list(probe.columns)
        header = 0 if header == "infer" else header
    opts["names"] = [INDEX] + list(opts["names"])
    df = _frame(host, sep, quote, dev, nrows, skiprows, header=header, **opts)
    out = df.set_index(INDEX)
    out._index.name = None
    return out


def _frame(host, sep, quote, dev, nrows=None, skiprows=None, **opts):
    from ember.frame.frame import DataFrame
    from ember.frame._index import RangeIndex
    from ember._progress import progress as bar
    # the bar counts the bytes: half for the tokenizing, half the columns
    size = host.shape[0]
    progress = bar(size, "read_csv", "B")
    try:
        buf = _without_bom(ember.asarray(host, device=dev))
        ends, rowend = tokenize(buf, sep, quote)
        rows = Rows(buf, ends, rowend, skip_of(skiprows))
        plan = Plan(buf, rows, sep, quote, dev, **opts)
        if plan.ncols == 0:
            return DataFrame._make({}, RangeIndex(0, 0))
        f = plan.fields(buf, ends, rows, plan.first, nrows)
        progress.update(size // 2)
        cols = _columns(plan, f, progress, (size - size // 2) // max(len(plan.picks), 1))
    finally:
        progress.close()
    return DataFrame._make(cols, RangeIndex(0, f.nrows))


def _columns(plan, f, progress, step):
    every = plan.classify_all(f)
    cols = {}
    for i in plan.picks:
        name = plan.names[i]
        classes = every[i] if every else None
        if name in plan.dates:
            from ember.frame._io_dates import dates_column
            classes = classes or cv.classify(f, i, plan.na[i])
            cols[name] = dates_column(f, i, plan.na[i], lambda: plan.column(
                f, i, "str", classes))
        else:
            cols[name] = plan.column(f, i, classes=classes)
        progress.update(step)
    return cols


def _without_bom(buf):
    """The bytes after a utf-8 byte order mark, which pandas drops."""
    if buf.shape[0] >= 3 and bytes(ember.asnumpy(buf[:3])) == b"\xef\xbb\xbf":
        return buf[3:]
    return buf


def skip_of(skiprows):
    """skiprows as Rows takes it: an int, or a sorted list of line numbers."""
    if skiprows is None:
        return 0
    if isinstance(skiprows, int) and not isinstance(skiprows, bool):
        return skiprows
    return sorted(set(int(s) for s in skiprows))


def _date_columns(parse_dates, names):
    if parse_dates in (None, False):
        return set()
    if parse_dates is True:
        raise NotImplementedError("read_csv: parse_dates=True (the index); name the "
                                  "columns")
    out = set()
    for p in parse_dates:
        if isinstance(p, (list, tuple, dict)):
            raise NotImplementedError("read_csv: parse_dates combining columns")
        nm = names[p] if isinstance(p, int) and p not in names else p
        if nm not in names:
            raise ValueError(f"Missing column provided to 'parse_dates': '{p}'")
        out.add(nm)
    return out
