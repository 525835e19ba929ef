"""read_csv of a file larger than a bound, in blocks of whole rows, so
that the device holds the result, one block and its fields, and at the
end the result twice (while the blocks' columns are concatenated).

Two passes over the file (from the page cache the second time): the
first types every column over all blocks (classes counted per block), the
second converts each block with the column's one dtype, so a column that
is int64 in one block and float64 in another comes out float64 with each
value exactly as read, as pandas reads the whole file."""
import ember

from ember.frame import _bitmap, _io_convert as cv, _io_dates as dt
from ember.frame._column import Column
from ember.frame._io_csv import Rows, tokenize
from ember._progress import progress as bar
from ember.frame._io_read import ImplicitIndex, Plan, skip_of


def _blocks(open_src, chunk_bytes, sep, quote, dev, progress):
    """(buf, ends, rowend) of each block of whole rows, on dev: a block is
    chunk_bytes read after the bytes that the last one's partial row left
    (more when one row is longer than a block)."""
    import numpy as np
    carry = np.zeros(0, np.uint8)
    first = True
    with open_src() as src:
        while True:
            block = np.empty(carry.shape[0] + chunk_bytes + 1, np.uint8)
            block[:carry.shape[0]] = carry
            got = src.readinto(memoryview(block)[carry.shape[0]:-1])
            progress.update(got)
            nb = carry.shape[0] + got
            final = got < chunk_bytes
            if final:
                if nb == 0:
                    return
                if block[nb - 1] != 10:
                    block[nb] = 10
                    nb += 1
            host = block[:nb]
            if not carry.shape[0] and first and bytes(host[:3]) == b"\xef\xbb\xbf":
                host = host[3:]   # a utf-8 byte order mark, which pandas drops
            first = False
            buf = ember.asarray(host, device=dev)
            ends, rowend = tokenize(buf, sep, quote, final)
            last = ember.flatnonzero(rowend)
            if not final and last.shape[0] == 0:   # a row longer than a block
                carry = host.copy()
                continue
            cut = int(ends[last[last.shape[0] - 1]]) + 1 if last.shape[0] else nb
            carry = host[cut:].copy()
            yield buf, ends, rowend, last.shape[0]
            if final:
                return


def _shift(skip, line0, n):
    if isinstance(skip, int):
        return max(skip - line0, 0)
    return [s - line0 for s in skip if line0 <= s < line0 + n]


def _passes(open_src, chunk_bytes, sep, quote, dev, progress, skiprows, nrows, opts,
            state):
    """Each block's Fields (the Plan made from the first block)."""
    skip = skip_of(skiprows)
    line0 = 0
    left = nrows
    for buf, ends, rowend, nlines in _blocks(open_src, chunk_bytes, sep, quote, dev,
                                            progress):
        rows = Rows(buf, ends, rowend, _shift(skip, line0, nlines))
        line0 += nlines
        if state.get("plan") is None:
            state["plan"] = Plan(buf, rows, sep, quote, dev, **opts)
        plan = state["plan"]
        first = plan.first if line0 == nlines else 0   # the header's block (the first)
        if plan.ncols == 0:
            return
        try:
            f = plan.fields(buf, ends, rows, first, left)
        except ImplicitIndex:
            raise NotImplementedError(
                "read_csv in blocks (a file over chunk_bytes) with a header one field "
                "shorter than the rows; pass names= or a larger chunk_bytes") from None
        yield f
        if left is not None:
            left -= f.nrows
            if left <= 0:
                return


def read_chunked(open_src, size, chunk_bytes, sep, quote, dev, nrows=None,
                 skiprows=None, **opts):
    from ember.frame.frame import DataFrame
    from ember.frame._index import RangeIndex
    # both passes read the file: the bar counts its bytes twice
    progress = bar(2 * size, "read_csv (2 passes)", "B")
    state = {}
    counts = {}
    try:
        for f in _passes(open_src, chunk_bytes, sep, quote, dev, progress, skiprows,
                         nrows, opts, state):
            plan = state["plan"]
            for i in plan.picks:
                if plan.names[i] in plan.dates:
                    c = dt.date_codes(f, i, plan.na[i])[2]
                    counts[("d", i)] = counts.get(("d", i), 0) + c
                c = cv.classify(f, i, plan.na[i])[2]
                counts[i] = counts.get(i, 0) + c
        plan = state.get("plan")
        if plan is None or plan.ncols == 0:
            return DataFrame._make({}, RangeIndex(0, 0))
        want, units = {}, {}
        for i in plan.picks:
            w = plan.want[i]
            if plan.names[i] in plan.dates:
                units[i] = dt.unit_of(counts[("d", i)])
                w = w if units[i] else "str"   # pandas keeps them as strings
            if w is None:
                total = counts.get(i)
                w = "str" if total is None or not total.sum() else \
                    cv.infer(total, plan.names[i])
            want[i] = w
        parts = {i: [] for i in plan.picks}
        state = {"plan": plan}
        for f in _passes(open_src, chunk_bytes, sep, quote, dev, progress, skiprows,
                         nrows, opts, state):
            for i in plan.picks:
                if units.get(i):
                    ns, code, _ = dt.date_codes(f, i, plan.na[i])
                    parts[i].append(dt.finish(ns, code, units[i]))
                else:
                    parts[i].append(plan.column(f, i, want[i]))
    finally:
        progress.close()
    cols = {plan.names[i]: concat_columns(parts[i]) for i in plan.picks}
    n = next(iter(cols.values())).length if cols else 0
    return DataFrame._make(cols, RangeIndex(0, n))


def concat_columns(parts):
    """Columns of one dtype, one after another."""
    if len(parts) == 1:
        return parts[0]
    values = ember.concatenate([p.values for p in parts])
    validity = None
    if any(p.validity is not None for p in parts):
        validity = _bitmap.pack(ember.concatenate([~p.isna() for p in parts]))
    offsets = None
    if parts[0].offsets is not None:
        shifted, base = [parts[0].offsets], 0
        for prev, p in zip(parts, parts[1:]):
            base += prev.values.shape[0]
            shifted.append(p.offsets[1:] + base)
        offsets = ember.concatenate(shifted)
    return Column(parts[0].dtype, values, validity, offsets,
                  sum(p.length for p in parts))
