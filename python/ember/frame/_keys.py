"""Key codes: the rows of one or several key columns as int64 codes,
equal where the keys are equal and ordered as the keys, computed the same
way for groupby (a frame's groups) and merge (both sides' keys stacked,
so that the two sides share one code space).

Integer keys in a small range (max - min at most about 2n) are coded by
direct addressing (key - min); floats without a mask by one unique (NaN
comes out as the last value); other keys by _order.codes (a sort).
Several keys combine their codes arithmetically (c1 * k2 + c2), so sorted
codes are sorted keys."""
import ember

from ember.frame import _order

# direct addressing while the key range is at most this many times the rows
_SPAN_PER_ROW = 2
_SMALL_SPAN = 1 << 16
_BIG = 1 << 62


class Codes:
    """codes (int64 a row), k (codes lie in [0, k), or are -1 for a row
    with a null key when nulls were dropped), complete (no -1), counts
    (rows a code when known, else None), and for one integer key coded
    by direct addressing with dense codes, direct = (min, occupied slots):
    code i is the key slots[i] + min; for one string key, rows: a row of
    each code in code order (or None), so its group keys need no pass to
    find them."""
    __slots__ = ("codes", "k", "complete", "counts", "direct", "rows")

    def __init__(self, codes, k, complete, counts=None, direct=None, rows=None):
        self.codes, self.k, self.complete = codes, k, complete
        self.counts, self.direct, self.rows = counts, direct, rows


def _dense_range(c, span, complete):
    """Codes in [0, span) (-1: none, unless complete) renumbered to the
    occupied slots only, in order: (codes, k, occupied slots, rows a group)."""
    valid = None if complete else c >= 0
    cv = c if complete else ember.where(valid, c, span)
    counts = ember.bincount(cv, minlength=span + 1)[:span]
    present = counts > 0
    slots = ember.flatnonzero(present)
    k = slots.shape[0]
    if k == span:
        return c, k, slots, counts
    remap = ember.cumsum(present.astype("int64")) - 1
    if complete:
        return remap[c], k, slots, counts[slots]
    out = ember.where(valid, remap[ember.where(valid, c, 0)], -1)
    return out, k, slots, counts[slots]


def _small(span, n):
    return span <= max(_SPAN_PER_ROW * n, _SMALL_SPAN)


def densify(c, span, n, complete):
    """Codes in [0, span) (-1: none) -> (dense codes, k, rows a code or
    None)."""
    if _small(span, n):
        out, k, _, counts = _dense_range(c, span, complete)
        return out, k, counts
    out, k = _order._dense(c)
    return out, k, None


def _direct(col, dense):
    """A Codes of a plain integer or bool column whose values lie in a
    small range, or None."""
    n = col.length
    v = col.values if col.dtype.kind != "b" else col.values.astype("int8")
    lo, hi = int(v.min()), int(v.max())
    span = hi - lo + 1
    if hi >= 1 << 63 or not _small(span, n):
        return None
    c = v.astype("int64") if str(v.dtype) != "int64" else v
    if lo:
        c = c - lo
    if not dense:
        return Codes(c, span, True)
    out, k, slots, counts = _dense_range(c, span, True)
    return Codes(out, k, True, counts, (lo, slots))


def _floats(col):
    """(codes, k, has_nan) of a float column without a mask: one unique,
    every NaN one last value (as NumPy's)."""
    uniq, inv = ember.unique(col.values, return_inverse=True)
    k = uniq.shape[0]
    inv = inv if str(inv.dtype) == "int64" else inv.astype("int64")
    return inv, k, bool(ember.isnan(uniq[k - 1]))


def _one(col, nulls, dense):
    """A Codes of one key column under the null policy (see key_codes)."""
    d = col.dtype
    n = col.length
    if n == 0:
        return Codes(ember.zeros(0, dtype="int64", device=col.device), 0, True)
    obj = d.is_object
    if obj:   # Python objects: codes in pandas' group order (_object_keys);
        # no direct addressing, whose keys would be the codes, not the cells
        from ember.frame._object_keys import proxy
        col = proxy(col, "group")
        d = col.dtype
    if d.kind in "biu" and col.validity is None and not obj:
        out = _direct(col, dense)
        if out is not None:
            return out
    if d.kind == "f" and col.validity is None and not d.masked:
        c, k, has_null = _floats(col)
        if has_null and nulls == "drop":
            return Codes(ember.where(c == k - 1, -1, c), k - 1, False)
        return Codes(c, k, True)
    rows = None
    if d.is_string and not d.is_categorical:
        c, k, rows = _order.string_codes(col)
    else:
        c, k = _order.codes(col)
    if not bool((c < 0).any()):
        return Codes(c, k, True, rows=rows)
    if nulls == "drop":
        return Codes(c, k, False, rows=rows)
    if nulls == "value" and d.kind in "Mm":   # pandas sorts NaT by its int64 value
        return Codes(c + 1, k + 1, True)
    return Codes(ember.where(c < 0, k, c), k + 1, True)


def key_codes(cols, nulls="drop", dense=True):
    """A Codes of the rows of key columns (all as long; the first is the
    primary key).

    nulls: 'drop' (a row with a null in any key gets -1: groupby's
    dropna=True), 'last' (a null is one more key value after every other:
    groupby's dropna=False), 'value' (a null meets a null, as in pandas'
    merge, and sorts where pandas' merge puts it: NaT first, others last).
    dense: codes 0..k-1 each taken by some row (groups); otherwise k only
    bounds the codes (merge addresses tables by them)."""
    n = cols[0].length
    out = None
    for col in cols:
        c = _one(col, nulls, dense)
        if out is None:
            out = c
            continue
        if out.k * max(c.k, 1) >= _BIG:   # renumber densely before it could wrap
            code, k, _ = densify(out.codes, out.k, n, out.complete)
            out = Codes(code, k, out.complete)
        complete = out.complete and c.complete
        code = out.codes * c.k + c.codes
        if not complete:
            code = ember.where((out.codes < 0) | (c.codes < 0), -1, code)
        out = Codes(code, out.k * c.k, complete)
    if len(cols) > 1 and dense and n:
        code, k, counts = densify(out.codes, out.k, n, out.complete)
        out = Codes(code, k, out.complete, counts)
    return out
