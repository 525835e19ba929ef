"""nlargest/nsmallest without a sort of the column: a threshold that at
least n non-null rows reach, read off a strided sample of a few thousand
values, and one comparison pass that keeps only those rows (in row
order). The selection itself then sorts only the candidates, typically
2n plus a few dozen rows, so pandas' keep= rules and ties apply to them
unchanged: every row as good as the n-th best reaches the threshold.
This is the partial selection pandas' SelectNSeries does with a
quickselect; a comparison and a compaction are ember's ufunc and
flatnonzero on either device."""
import numpy as np

import ember

# the sample's size, and the shortest column worth sampling
_SAMPLE = 4096
_MIN_ROWS = 1 << 15
# rows beyond the expected n the threshold leaves as a margin
_MARGIN = 16


def candidates(col, n, largest):
    """Positions (ascending, int64) of the non-null rows at least as good
    as col's n-th best non-null value, or None where sampling does not
    pay (a short column, n a large part of it, or a dtype compared through
    codes)."""
    d = col.dtype
    m = col.length
    if d.kind not in "iufMm" or d.is_categorical or m < _MIN_ROWS or n * 16 > m:
        return None
    v = col.values
    # a plain float's NaN fails both comparisons; other nulls are masked
    nulls = col.null_mask() if col.validity is not None or d.kind in "Mm" else None
    step = max(m // _SAMPLE, 1)
    sample = ember.asnumpy(v[::step])
    if nulls is not None:
        sample = sample[~ember.asnumpy(nulls[::step])]
    if d.kind == "f":
        sample = sample[~np.isnan(sample)]
    if sample.shape[0] < 2:
        return None
    sample = np.sort(sample)
    if not largest:
        sample = sample[::-1]
    # expected rows of the column at or past the sample's r-th best: r * m / s
    want = 2 * n * sample.shape[0] // m + _MARGIN
    for r in (want, want * 8):
        if r >= sample.shape[0]:
            return None
        thr = sample[sample.shape[0] - 1 - r].item()
        cond = (v >= thr) if largest else (v <= thr)   # NaN fails either
        if nulls is not None:
            cond = cond & ~nulls
        rows = ember.flatnonzero(cond)
        if rows.shape[0] >= n:
            return rows if str(rows.dtype) == "int64" else rows.astype("int64")
    return None

