"""The .str methods that assemble new strings from pieces of old ones:
repeat, pad (center, ljust, rjust), zfill, cat, split and rsplit."""
import numpy as np

import ember

from ember.frame import _bitmap, _str_ops
from ember.frame._column import Column
from ember.frame._str_kernels import char_lengths, offsets, ranges_result, valid_mask
from ember.frame._str_slice import assemble, fill_piece, row_piece


def _int(x, what):
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
        raise TypeError(f"{what} must be of integer type, not {type(x).__name__}")
    return int(x)


def repeat(col, repeats):
    if not isinstance(repeats, (int, np.integer)) and hasattr(repeats, "__len__"):
        raise NotImplementedError("str.repeat by a sequence of counts (one int only)")
    k = _int(repeats, "repeats")
    if k <= 0:
        k = 0
    values, starts, lens = row_piece(col)
    pieces = [(values, starts, lens)] * k or [(values, starts, lens * 0)]
    return assemble(pieces, col.length, col.dtype, col.validity, col.device)


def slice_replace(col, start, stop, repl):
    """s[:start] + repl + s[max(start, stop):], the bounds by Python's
    slice rules row by row (pandas, through Arrow's utf8_replace_slice)."""
    from ember.frame._str_kernels import i64, launch
    repl = "" if repl is None else repl
    if not isinstance(repl, str):
        raise TypeError(f"repl must be a str, not {type(repl).__name__}")
    dev, n = col.device, col.length
    L = char_lengths(col)

    def bound(x, default):
        if x is None:
            return default
        v = ember.maximum(L + x, 0) if x < 0 else ember.full_like(L, x)
        return ember.minimum(v, L)
    s = bound(start, ember.zeros_like(L))
    t = ember.maximum(bound(stop, L), s)
    at = ember.zeros((2, n), dtype="int64", device=dev)
    off = offsets(col)
    for j, k in enumerate((s, t)):
        launch(dev, "em_str_char_offset", n, (off, col.values, i64(n), k, at[j]))
    raw = repl.encode("utf-8")
    buf = ember.asarray(np.frombuffer(raw or b"\0", dtype=np.uint8), device=dev)
    return assemble([(col.values, off[:-1], at[0] - off[:-1]), (buf, 0, len(raw)),
                     (col.values, at[1], off[1:] - at[1])], n, col.dtype, col.validity, dev)


def join_chars(col, sep):
    """sep between the code points of every row ('abc' -> 'a-b-c'): sep
    inserted at every boundary, then the outer two cut off."""
    if not isinstance(sep, str):
        raise TypeError(f"sep must be a str, not {type(sep).__name__}")
    m = len(sep.encode("utf-8"))
    if m == 0:
        return col
    wide = _str_ops.replace(col, "", sep, -1)
    off = offsets(wide)
    empty = off[1:] - off[:-1] <= m   # an empty row became one sep
    return ranges_result(wide, ember.where(empty, off[:-1], off[:-1] + m),
                         ember.where(empty, off[:-1], off[1:] - m))


def _fillchar(fillchar):
    if not isinstance(fillchar, str):
        raise TypeError(f"fillchar must be a character, not {type(fillchar).__name__}")
    if len(fillchar) != 1:
        raise TypeError("fillchar must be a character, not str")
    return fillchar


def pad(col, width, side, fillchar):
    width = _int(width, "width")
    fill = _fillchar(fillchar)
    if side not in ("left", "right", "both"):
        raise ValueError(f"Invalid side: {side}. Side must be one of 'left', 'right', "
                         "'both'")
    dev = col.device
    total = ember.maximum(width - char_lengths(col), 0)
    if side == "left":
        left, right = total, total * 0
    elif side == "right":
        left, right = total * 0, total
    else:   # Python's center: the odd one goes left when width is odd
        left = total // 2 + (total & width & 1)
        right = total - left
    return assemble([fill_piece(fill, left, dev), row_piece(col),
                     fill_piece(fill, right, dev)], col.length, col.dtype, col.validity, dev)


def zfill(col, width):
    width = _int(width, "width")
    dev = col.device
    values, starts, lens = row_piece(col)
    zeros = ember.maximum(width - char_lengths(col), 0)
    first = values[ember.minimum(starts, max(values.shape[0] - 1, 0))] \
        if values.shape[0] else starts.astype("uint8")
    signed = (lens > 0) & ((first == ord("+")) | (first == ord("-")))
    sign = signed.astype("int64")
    return assemble([(values, starts, sign), fill_piece("0", zeros, dev),
                     (values, starts + sign, lens - sign)], col.length, col.dtype,
                    col.validity, dev)


def _as_columns(series, others):
    from ember.frame.series import Series
    from ember.frame._convert import column_from
    if type(others).__name__ == "DataFrame":
        raise NotImplementedError("str.cat of a DataFrame (pass its columns as a list "
                                  "of Series)")
    if type(others).__name__ == "ndarray" and others.ndim == 1:   # NumPy's str array
        others = [others.tolist()]
    if isinstance(others, Series):
        others = [others]
    elif isinstance(others, (list, tuple)) and others and all(isinstance(o, str)
                                                                 for o in others):
        others = [column_from(list(others), device=series.device)]
    elif not isinstance(others, (list, tuple)):
        raise TypeError("others must be Series, Index, DataFrame, np.ndarray or "
                        "list-like (of objects that are Series/Index/np.ndarray/1-dim "
                        "list-likes)")
    cols = []
    for o in others:
        if isinstance(o, Series):
            series._check_aligned(o, "str.cat")
            o = o._col
        elif isinstance(o, (list, tuple)):
            o = column_from(list(o), device=series.device)
        if o.length != series._col.length:
            raise ValueError("All arrays must be same length, except those having an "
                             "index if 'join' is not None")
        if not o.dtype.is_string:
            raise NotImplementedError("str.cat of a non-string column (astype('str') "
                                      "first)")
        cols.append(o)
    return cols


def cat(series, others, sep, na_rep, join):
    col, dev = series._col, series.device
    sep = "" if sep is None else sep
    sepb = ember.asarray(np.frombuffer(sep.encode() or b"\0", dtype=np.uint8), device=dev)
    sep_piece = (sepb, 0, len(sep.encode()))
    if others is None:
        valid = valid_mask(col)
        if na_rep is None and valid is not None:
            col = col.take(ember.flatnonzero(valid))
        pieces = [_na_piece(col, na_rep, dev), sep_piece]
        out = assemble(pieces, col.length, col.dtype, None, dev)
        data = bytes(ember.asnumpy(out.values))
        return data[:len(data) - len(sep.encode())].decode("utf-8") if col.length else ""
    cols = [col] + _as_columns(series, others)
    pieces, valid = [], None
    for i, c in enumerate(cols):
        if i:
            pieces.append(sep_piece)
        pieces.append(_na_piece(c, na_rep, dev))
        v = valid_mask(c)
        if na_rep is None and v is not None:
            valid = v if valid is None else valid & v
    return assemble(pieces, col.length, col.dtype, None if valid is None else
                    _bitmap.pack(valid), dev)


def _na_piece(col, na_rep, dev):
    values, starts, lens = row_piece(col)
    valid = valid_mask(col)
    if na_rep is None or valid is None:
        return values, starts, lens
    rep = na_rep.encode("utf-8")
    buf = ember.asarray(np.frombuffer(rep or b"\0", dtype=np.uint8), device=dev)
    base = values.shape[0]
    return (ember.concatenate([values, buf]), ember.where(valid, starts, base),
            ember.where(valid, lens, len(rep)))


def split(series, pat, n, expand, regex, right):
    from ember.frame import _str_regex, _str_regex_first
    from ember.frame.frame import DataFrame
    what = "rsplit" if right else "split"
    if not expand:   # the parts of expand=True, a list a row (_object_str)
        from ember.frame._object_str import split_lists
        parts = split(series, pat, n, True, regex, right)
        return type(series)._make(split_lists(series, parts), series.index, series.name)
    col = series._col
    n = -1 if n is None or n <= 0 else _int(n, "n")
    right = right and n > 0   # every split: the same from either side
    blank = None
    if pat is None:
        col, blank = _words(col, n, right)
        pat, regex = r"\s+", True
    lit = pat
    if regex or (regex is None and len(pat) > 1):
        lit = _str_regex.literal(pat)
    if lit == "":
        raise NotImplementedError(f"str.{what} on an empty pattern")
    grp = None   # a pattern's groups: their text joins the parts, as re.split
    if lit is not None:
        cnt = _str_ops.find_raw(col, lit, 1)
    elif _str_regex.groups(pat):
        from ember.frame._str_capture import all_matches
        caps, cnt, ngroups, _ = all_matches(col, pat, True, what)
        grp = (caps, ember.cumsum(cnt) - cnt, ngroups)
    else:
        cnt = _str_regex_first.count(col, pat)
    if right and lit is None:   # rsplit on whitespace: the last n runs
        starts, ends, cnt, cols = _last_matches(col, pat, cnt, n)
    else:
        if n >= 0:
            cnt = ember.minimum(cnt, n)
        cols = int(cnt.max()) if col.length else -1
    parts = {}
    if blank is not None and col.length and col.validity is None and bool(blank.all()):
        cols = -1   # pandas: words of no row, and no null row, make no column
    if cols >= 0:
        if right and lit is None:
            pass
        elif grp is not None:
            starts, ends = _match_bounds(grp, cols, 0), _match_bounds(grp, cols, 1)
        elif lit is not None:
            pos, cnt, m = _str_ops.split_positions(col, lit, cols, right)
            starts, ends = pos, pos + m
        else:
            pos, cnt = _str_regex_first.split_positions(col, pat, cols, right)
            starts, ends = pos[:, 0::2], pos[:, 1::2]
        off = offsets(col)
        valid = valid_mask(col)
        for j in range(cols + 1):
            start = off[:-1] if j == 0 else ends[:, j - 1]
            stop = off[1:] if j == cols else ember.where(cnt > j, starts[:, j], off[1:])
            ok = cnt >= j
            ok = ok if valid is None else ok & valid
            ok = ok if blank is None else ok & ~blank
            start = ember.where(ok, start, 0)
            parts[len(parts)] = ranges_result(col, start, ember.where(ok, stop, 0), ok)
            for g in range(1, grp[2] + 1) if grp is not None and j < cols else ():
                gs, ge = _match_bounds(grp, cols, 2 * g), _match_bounds(grp, cols, 2 * g + 1)
                ok = (cnt > j) & (gs[:, j] >= 0)
                ok = ok if valid is None else ok & valid
                parts[len(parts)] = ranges_result(col, ember.where(ok, gs[:, j], 0),
                                                  ember.where(ok, ge[:, j], 0), ok)
    return DataFrame._make(parts, series.index)


def _match_bounds(grp, cols, slot):
    """Bound `slot` of each row's first `cols` matches, [rows, cols], from
    extractall's flat bounds (a row a match, from first[i] on)."""
    caps, first, _ = grp
    if not caps.shape[0]:
        return ember.zeros((first.shape[0], max(cols, 1)), dtype="int64",
                           device=first.device) - 1
    j = ember.arange(max(cols, 1), dtype="int64", device=first.device)[None, :]
    at = ember.minimum(first[:, None] + j, caps.shape[0] - 1)
    return caps[:, slot][at.reshape(-1)].reshape(at.shape)


def _last_matches(col, pat, total, n):
    """(starts, ends, count, columns) of each row's last n matches of a
    regular expression, from the bounds of all of them."""
    from ember.frame import _str_regex_first
    dev, rows = col.device, col.length
    every = int(total.max()) if rows else 0
    pos, _ = _str_regex_first.split_positions(col, pat, every, False)
    cnt = ember.minimum(total, n)
    cols = int(cnt.max()) if rows else -1
    j = ember.arange(max(cols, 1), dtype="int64", device=dev)[None, :]
    at = ember.minimum((total - cnt)[:, None] + j, max(every - 1, 0))
    base = ember.arange(rows, dtype="int64", device=dev)[:, None] * pos.shape[1]
    flat = pos.reshape(-1)
    return flat[base + 2 * at], flat[base + 2 * at + 1], cnt, cols


def get_dummies(series, sep):
    """One int64 column per distinct token (sorted), 1 where a row's
    split by sep holds it; a null row holds none."""
    from ember.frame import _order
    from ember.frame._column import concat
    from ember.frame._strings import to_pylist
    from ember.frame.frame import DataFrame
    if not isinstance(sep, str) or sep == "":
        raise NotImplementedError("str.get_dummies by an empty or non-str separator")
    parts = split(series, sep, -1, True, False, False)._cols
    n, dev = len(series), series.device
    if not n:   # no labels to type: pandas' columns are an object Index
        out = DataFrame._make({}, series.index)
        out._empty_columns = "object"
        return out
    tokens, rows = None, []
    for col in parts.values():
        tokens = col if tokens is None else concat(tokens, col)
        rows.append(ember.arange(n, dtype="int64", device=dev))
    rows = ember.concatenate(rows)
    c, k = _order.codes(tokens)
    hit = ember.flatnonzero(c >= 0)
    cells = ember.zeros(n * k, dtype="int64", device=dev)
    cells[rows[hit] * k + c[hit]] = 1
    first, _, code = _order.first_rows(c, k)
    keep = ember.flatnonzero(code >= 0)
    first = first[keep][ember.argsort(code[keep])]
    labels = to_pylist(tokens.take(first))
    cells = cells.reshape(n, k)
    return DataFrame._make({lab: Column("int64", cells[:, j].copy())
                            for j, lab in enumerate(labels)}, series.index)


def _words(col, n, right):
    """split(None, n) as Python's str.split: the row without its outer
    whitespace (but its trailing run when it has more than n words, which
    the last part keeps) to be split at runs of whitespace;
    and the rows that hold no word (every part null)."""
    from ember.frame import _str_regex_first
    start, stop = _str_ops.strip_bounds(col, None, 3)
    if n > 0:   # the last part keeps its outer run (rsplit: the first part)
        runs = _str_regex_first.count(ranges_result(col, start, stop), r"\s+")
        if right:
            start = ember.where(runs >= n, offsets(col)[:-1], start)
        else:
            stop = ember.where(runs >= n, offsets(col)[1:], stop)
    return ranges_result(col, start, stop), stop <= start


def arith(op, a, b, reflected):
    """a + b (b + a when reflected) with a str or another string column,
    and a * int (repeat); a null on either side makes a null row."""
    what = type(b).__name__ if not isinstance(b, Column) else b.dtype.name
    if op == "mul" and isinstance(b, (int, np.integer)) and not isinstance(b, bool):
        return repeat(a, b)
    if op != "add" or not (isinstance(b, str) or (isinstance(b, Column) and
                                                  b.dtype.is_string)):
        raise TypeError(f"operation '{op}' not supported for dtype '{a.dtype.name}' "
                        f"with object of type {what}")
    dev = a.device
    if isinstance(b, str):
        raw = b.encode("utf-8")
        buf = ember.asarray(np.frombuffer(raw or b"\0", dtype=np.uint8), device=dev)
        other, valid = (buf, 0, len(raw)), valid_mask(a)
    else:
        other = row_piece(b)
        va, vb = valid_mask(a), valid_mask(b)
        valid = va if vb is None else (vb if va is None else va & vb)
    pieces = [other, row_piece(a)] if reflected else [row_piece(a), other]
    return assemble(pieces, a.length, a.dtype, None if valid is None else
                    _bitmap.pack(valid), dev)
