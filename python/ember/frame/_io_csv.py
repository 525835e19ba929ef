"""read_csv: the file's bytes go to the device once; the em_csv kernels
find the field ends there (a quote-parity pass, then the ends), rows and
the header come from those ends by ember's scans and compactions, and
each column is typed and converted on the device (_io_convert)."""
import ember

from ember.frame import _io_convert as cv


class ParserError(ValueError):
    """A file read_csv cannot tokenize (pandas.errors.ParserError)."""


class EmptyDataError(ValueError):
    """A file without columns (pandas.errors.EmptyDataError)."""


_COMPRESSION = {".gz": "gzip", ".bz2": "bz2", ".xz": "xz", ".zip": "zip"}


def _decompress(raw, how):
    import bz2
    import gzip
    import io
    import lzma
    import zipfile
    if how == "gzip":
        return gzip.decompress(raw)
    if how == "bz2":
        return bz2.decompress(raw)
    if how == "xz":
        return lzma.decompress(raw)
    if how == "zip":
        with zipfile.ZipFile(io.BytesIO(raw)) as z:
            names = z.namelist()
            if len(names) != 1:
                raise ValueError(f"Multiple files found in ZIP file. Only one file "
                                 f"per ZIP: {names}")
            return z.read(names[0])
    raise ValueError(f"Unrecognized compression type: {how}")


def _host_bytes(src, compression):
    """A buffer's or a compressed file's bytes as a host uint8 NumPy array
    ending with a newline (plain files go through _device_file)."""
    import os
    import numpy as np
    if hasattr(src, "read"):
        raw = src.read()
        if isinstance(raw, str):
            raw = raw.encode("utf-8")
        if compression not in (None, "infer"):
            raw = _decompress(raw, compression)
        return _with_newline(np.frombuffer(raw, dtype=np.uint8))
    path = os.fspath(src)
    how = compression
    if how == "infer":
        how = _COMPRESSION.get(os.path.splitext(str(path))[1].lower())
    with open(path, "rb") as fh:
        return _with_newline(np.frombuffer(_decompress(fh.read(), how), np.uint8))


_PIECE = 16 << 20


def _read_parallel(fd, view, done=None):
    """Fill view from the file's start: pieces read by several threads at
    once (os.preadv lets go of the GIL), since one thread copying from the
    page cache is slower than the copy to a GPU after it; done(lo, hi),
    when given, is called with each piece once it is read (by its thread,
    so a piece goes on to the GPU while others are still being read).
    Returns the bytes read (fewer at the file's end)."""
    import os
    n = len(view)
    if n <= 2 * _PIECE or not hasattr(os, "preadv"):
        got = 0
        while got < n:
            k = os.preadv(fd, [view[got:]], got) if hasattr(os, "preadv") else \
                os.readv(fd, [view[got:]])
            if k == 0:
                break
            got += k
        if done is not None and got:
            done(0, got)
        return got
    from concurrent.futures import ThreadPoolExecutor

    def piece(lo):
        hi = min(lo + _PIECE, n)
        at = lo
        while at < hi:
            k = os.preadv(fd, [view[at:hi]], at)
            if k == 0:
                break
            at += k
        if done is not None and at > lo:
            done(lo, at)
        return at - lo

    with ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 1)) as pool:
        return sum(pool.map(piece, range(0, n, _PIECE)))


def _device_file(path, size, dev, copy=None):
    """The file's bytes on dev, a newline after them where there is none:
    read straight into a cpu array's memory; for a GPU (or copy=True)
    into host memory, each piece copied to the device by the thread that
    read it."""
    import numpy as np
    out = ember.empty(size + 1, dtype="uint8", device=dev)
    if copy is None:
        copy = str(out.device) != "cpu"
    host = np.empty(size + 1, np.uint8) if copy else np.asarray(out)

    def to_device(lo, hi):
        out[lo:hi] = ember.asarray(host[lo:hi], device=out.device)

    with open(path, "rb") as fh:
        got = _read_parallel(fh.fileno(), memoryview(host)[:size],
                             to_device if copy else None)
    if got and host[got - 1] == 10:
        return out[:got]
    host[got] = 10
    if copy:
        to_device(got, got + 1)
    return out[:got + 1]


def _with_newline(a):
    import numpy as np
    if a.shape[0] and a[-1] == 10:
        return a
    return np.concatenate([a, np.asarray([10], np.uint8)])


def tokenize(buf, sep, quote, final=True):
    """(ends, rowend): every field end's byte position (int64) and 1 where
    it ends a row, by the two em_csv passes and two scans. A block that is
    not the file's last may end inside quotes (its last row goes on in
    the next block)."""
    e = cv._ext()
    counts, chunk = e._csv_count(buf, sep, quote)
    nch = counts.shape[0]
    dev = buf.device
    q = counts[:, 0]
    qpre = ember.zeros(nch, dtype="int64", device=dev)
    if nch > 1:
        qpre[1:] = ember.cumsum(q[:-1])
    cnt = ember.where((qpre & 1) == 1, counts[:, 2], counts[:, 1])
    offs = ember.zeros(nch + 1, dtype="int64", device=dev)
    if nch:
        offs[1:] = ember.cumsum(cnt)
    tail = ember.asnumpy(ember.stack([offs[nch], qpre[nch - 1] + q[nch - 1]])) \
        if nch else [0, 0]
    if final and int(tail[1]) & 1:
        raise ParserError("Error tokenizing data. C error: EOF inside string")
    return e._csv_fields(buf, sep, quote, chunk, qpre, offs, int(tail[0]))


class Rows:
    """The file's rows: each one's last field, field count, first and end
    byte; blank ones (one empty field) are dropped as pandas skips them."""

    def __init__(self, buf, ends, rowend, skip=0):
        """skip: the file's first lines to drop (an int), or the numbers of
        lines to drop (a list), as pandas' skiprows counts them."""
        last = ember.flatnonzero(rowend)
        n = last.shape[0]
        dev = buf.device
        # each row's field count, first and end byte, and whether it may be
        # blank (one field, empty or starting with a blank), in one pass
        # (frame/kernels/csv_rows.cuh); the parse's BLANK mode looks closer
        nf, rs, re = (ember.empty(n, dtype="int64", device=dev) for _ in range(3))
        blank = ember.zeros(n, dtype="bool", device=dev)
        if n:
            import numpy as np
            from ember.frame._kernels import geometry, launch
            grid, block, chunk = geometry(dev, n)
            launch(dev, "csv_rows.cuh", "em_csv_rows", grid, block,
                   (last, ends, buf, np.int64(buf.shape[0]), np.int64(n), np.int64(chunk),
                    nf, rs, re, blank))
        one = ember.flatnonzero(blank)
        if one.shape[0]:
            sp = ember.empty(one.shape[0], dtype="uint8", device=dev)
            na = cv.na_table([], dev)
            cv._ext()._csv_parse(buf, rs[one], re[one], 0, one.shape[0], 1, 0, -1,
                                 cv.BLANK, na[0], na[1], sp, None, None)
            blank[one] = sp.astype("bool")
        if isinstance(skip, int) and skip:
            blank[:skip] = True
        elif not isinstance(skip, int):
            drop = [i for i in skip if 0 <= i < n]
            if drop:
                blank[ember.asarray(drop, dtype="int64", device=dev)] = True
        self.contiguous = not (one.shape[0] or skip) or not bool(blank.any())
        # the raw row of each row; None: the same (no blank rows)
        self.raw = None if self.contiguous else ember.flatnonzero(~blank)
        self.n = n if self.raw is None else self.raw.shape[0]
        self.last, self.nf, self.rs, self.re = last, nf, rs, re


def _header_names(buf, rows, r, sep, quote):
    """The fields of row r (the header) as Python strings."""
    import csv
    raw = r if rows.raw is None else int(rows.raw[r])
    lo, hi = int(rows.rs[raw]), int(rows.re[raw])
    text = bytes(ember.asnumpy(buf[lo:hi])).decode("utf-8").rstrip("\r")
    q = chr(quote) if quote >= 0 else None
    return next(csv.reader([text], delimiter=chr(sep), quotechar=q,
                           quoting=csv.QUOTE_MINIMAL if q else csv.QUOTE_NONE))


def _mangle(names):
    """pandas' names for empty and repeated header fields."""
    out, seen = [], {}
    for i, nm in enumerate(names):
        if nm == "":
            nm = f"Unnamed: {i}"
        base = nm
        while nm in seen:
            seen[base] += 1
            nm = f"{base}.{seen[base]}"
        seen.setdefault(nm, 0)
        out.append(nm)
    return out


def _select_usecols(names, usecols):
    if usecols is None:
        return list(range(len(names)))
    if callable(usecols):
        return [i for i, nm in enumerate(names) if usecols(nm)]
    usecols = list(usecols)
    if all(isinstance(u, int) and not isinstance(u, bool) for u in usecols):
        bad = [u for u in usecols if u >= len(names) or u < -len(names)]
        if bad:
            raise ParserError(f"Defining usecols with out-of-bounds indices is not "
                              f"allowed. {bad} are out-of-bounds.")
        return sorted({u % len(names) for u in usecols})
    missing = [u for u in usecols if u not in names]
    if missing:
        raise ValueError(f"Usecols do not match columns, columns expected but not "
                         f"found: {missing}")
    want = set(usecols)
    return [i for i, nm in enumerate(names) if nm in want]


def _data_rows(rows, first, nrows):
    """The data rows (numbers into rows) from `first` on, at most nrows:
    a (start, stop) run."""
    stop = rows.n if nrows is None else min(rows.n, first + nrows)
    return (first, max(stop, first))


def read_csv(filepath_or_buffer, sep=",", delimiter=None, header="infer", names=None,
             index_col=None, usecols=None, dtype=None, parse_dates=None, na_values=None,
             keep_default_na=True, nrows=None, skiprows=None, quotechar='"',
             compression="infer", device=None, chunksize=None, encoding=None,
             chunk_bytes=None, **kw):
    """pandas' read_csv, parsed on `device` (default: ember's current
    device). A file of more than chunk_bytes (default 1 GiB) is read in
    blocks of about that many bytes, so the device holds the result, one
    block and, while the blocks' columns are joined, the result again.
    See docs/frames.md, 'Files', for what is supported."""
    if kw:
        raise NotImplementedError(f"read_csv: {', '.join(sorted(kw))} (supported: sep, "
                                  "header, names, usecols, dtype, parse_dates, "
                                  "na_values, keep_default_na, nrows, skiprows, "
                                  "quotechar, compression)")
    if chunksize is not None:
        raise NotImplementedError("read_csv: chunksize= (an iterator of frames); ember "
                                  "reads large files in blocks itself (chunk_bytes=)")
    if encoding not in (None, "utf-8", "utf8", "UTF-8"):
        raise NotImplementedError(f"read_csv: encoding={encoding!r} (only utf-8)")
    if delimiter is not None:
        sep = delimiter
    if not isinstance(sep, str) or len(sep.encode()) != 1:
        raise NotImplementedError(f"read_csv: sep={sep!r} (a one-byte separator only)")
    if callable(skiprows):
        raise NotImplementedError("read_csv: a callable skiprows")
    opts = dict(header=header, names=names, usecols=usecols, dtype=dtype,
                parse_dates=parse_dates, na_values=na_values,
                keep_default_na=keep_default_na, nrows=nrows, skiprows=skiprows)
    df = _read(filepath_or_buffer, ord(sep), ord(quotechar) if quotechar else -1,
               compression, ember.get_device() if device is None else device,
               chunk_bytes, opts)
    if index_col is None or index_col is False:
        return df
    cols = list(df.columns)
    wanted = list(index_col) if isinstance(index_col, (list, tuple)) else [index_col]
    keys = []
    for ic in wanted:   # several make a MultiIndex
        if isinstance(ic, int) and ic not in cols and not -len(cols) <= ic < len(cols):
            raise IndexError("list index out of range")
        key = cols[ic] if isinstance(ic, int) and ic not in cols else ic
        if key not in cols:
            raise ValueError(f"Index {ic} invalid")
        keys.append(key)
    return df.set_index(keys if len(keys) > 1 else keys[0])


def _read(filepath_or_buffer, sep, quote, compression, dev, chunk_bytes, opts):
    """The frame, read in one block or in blocks of chunk_bytes."""
    limit = _CHUNK_BYTES if chunk_bytes is None else int(chunk_bytes)
    if limit < 1:
        raise ValueError(f"chunk_bytes must be positive, not {chunk_bytes}")
    from ember.frame._io_read import frame_from_bytes
    plain = _plain_path(filepath_or_buffer, compression)
    if plain is not None:
        import os
        size = os.path.getsize(plain)
        if size > limit:
            from ember.frame._io_chunks import read_chunked
            return read_chunked(lambda: open(plain, "rb"), size, limit, sep, quote,
                                dev, **opts)
        return frame_from_bytes(_device_file(plain, size, dev), sep, quote, dev,
                                **opts)
    host = _host_bytes(filepath_or_buffer, compression)
    if host.shape[0] > limit:
        import io
        from ember.frame._io_chunks import read_chunked
        return read_chunked(lambda: io.BytesIO(host.tobytes()), host.shape[0], limit,
                            sep, quote, dev, **opts)
    return frame_from_bytes(host, sep, quote, dev, **opts)


_CHUNK_BYTES = 1 << 30


def _plain_path(src, compression):
    """The path of an uncompressed file, or None."""
    import os
    if hasattr(src, "read"):
        return None
    path = os.fspath(src)
    how = compression
    if how == "infer":
        how = _COMPRESSION.get(os.path.splitext(str(path))[1].lower())
    return path if how is None else None
