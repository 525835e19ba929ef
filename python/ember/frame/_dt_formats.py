"""to_datetime with the day-month-year formats pandas' tutorials use
(format='%d/%m/%Y', '%m/%d/%Y', '%d-%m-%Y', '%d.%m.%Y', '%Y/%m/%d',
'%Y%m%d', with the same separators): each row's bytes are moved into the
ISO layout 'YYYY-MM-DD' by one gather a byte position (the fields have
fixed widths), and _dt_parse.parse_iso reads the result."""
import ember

from ember.frame._column import Column

# format -> (its width, the source position of each ISO byte (None: the
# '-' it writes), {position: the separator byte the source must hold})
_LAYOUTS = {}


def _layout(fmt):
    """The positions of %Y, %m, %d in a fixed-width date format."""
    pos, i, out, seps = 0, 0, {}, {}
    while i < len(fmt):
        if fmt[i] == "%" and i + 1 < len(fmt) and fmt[i + 1] in "Ymd":
            out[fmt[i + 1]] = pos
            pos += 4 if fmt[i + 1] == "Y" else 2
            i += 2
        elif fmt[i] in "/-. ":
            seps[pos] = ord(fmt[i])
            pos += 1
            i += 1
        else:
            return None
    if sorted(out) != ["Y", "d", "m"]:
        return None
    y, m, d = out["Y"], out["m"], out["d"]
    src = [y, y + 1, y + 2, y + 3, None, m, m + 1, None, d, d + 1]
    return pos, src, seps


def supported(fmt):
    if fmt not in _LAYOUTS:
        _LAYOUTS[fmt] = _layout(fmt) if isinstance(fmt, str) else None
    return _LAYOUTS[fmt] is not None


def to_iso(col, fmt, errors):
    """The str column rewritten as 'YYYY-MM-DD' (a row that does not have
    the format's width and separators becomes '' so parse_iso reads it as
    bad: ValueError naming it for errors='raise', NaT for 'coerce')."""
    width, src, seps = _LAYOUTS[fmt]
    n, dev = col.length, col.device
    off = col.offsets.astype("int64")
    start, ln = off[:n], off[1:] - off[:n]
    raw = col.values
    nb = raw.shape[0]
    fits = ln == width
    if nb:
        for p, b in seps.items():
            fits = fits & (raw[ember.minimum(start + p, nb - 1)] == b)
    nulls = col.null_mask()
    bad = ~fits if nulls is None else ~fits & ~nulls
    if errors == "raise" and bool(bad.any()):
        from ember.frame._strings import to_pylist
        text = to_pylist(col.take(ember.flatnonzero(bad)[:1]))[0]
        raise ValueError(f'time data "{text}" doesn\'t match format "{fmt}"')
    out = ember.empty((n, 10), dtype="uint8", device=dev)
    for j, p in enumerate(src):
        if p is None or not nb:
            out[:, j] = 45   # '-'
        else:
            out[:, j] = raw[ember.minimum(start + p, nb - 1)]
    keep = fits if nulls is None else fits & ~nulls
    # rows kept are 10 bytes, the others (bad or null) none
    lens = ember.where(keep, 10, 0).astype("int64")
    offsets = ember.concatenate([ember.zeros(1, dtype="int64", device=dev),
                                 ember.cumsum(lens)])
    values = out.reshape(n * 10)[ember.flatnonzero(ember.repeat(keep, 10))]
    validity = col.validity
    return Column("str", values, validity, offsets, n)
