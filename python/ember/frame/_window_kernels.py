"""The numerical core of moving windows over float64 ember arrays: window
counts, sums and sums of squares from block-local prefix sums, window
minima and maxima from a doubling (sparse) table, and the running
statistics of expanding windows as one scan. Missing rows (NaN, inf, a
null) arrive as a bool array and take no part; every step is a handful of
whole-array passes, none a loop over rows."""
import math

import ember
import ember.parallel as P

# Chan's merge of (count, mean, M2) summaries: associative, so expanding
# windows are one inclusive scan, and exact for constant runs (the means
# agree, so nothing is added to M2).
_MERGE = ("a0 + b0",
          "(a0 + b0) > 0 ? a1 + (b1 - a1) * (b0 / (a0 + b0)) : 0.0",
          "(a0 + b0) > 0 ? a2 + b2 + (b1 - a1) * (b1 - a1) * (a0 * b0 / (a0 + b0)) : 0.0")


def pad(x, front, back, fill):
    """x with `front` then `back` copies of fill around it."""
    if not front and not back:
        return x
    parts = []
    if front:
        parts.append(ember.full(front, fill, dtype=x.dtype, device=x.device))
    parts.append(x)
    if back:
        parts.append(ember.full(back, fill, dtype=x.dtype, device=x.device))
    return ember.concatenate(parts)


def window_bounds(w, center, n):
    """(front, back): the rows before and after row i in its window, as
    pandas places it (trailing windows end at i, centred ones at
    i + (w - 1) // 2), clipped to the n rows there are. Padding the values with
    that many missing rows makes output i's window ext[i : i + front +
    back + 1]. w >= 1, n >= 1."""
    back = (w - 1) // 2 if center else 0
    return min(w - 1 - back, n - 1), min(back, n - 1)


def counts(valid, w, center):
    """The number of valid rows in each window (int64)."""
    n = valid.shape[0]
    front, back = window_bounds(w, center, n)
    w = front + back + 1
    c = ember.cumsum(pad(valid, front, back, False), dtype="int64")
    c = pad(c, 1, 0, 0)
    return c[w:w + n] - c[:n]


def _blocks(x, front, back):
    """x (NaN where missing) padded and cut into rows of w values, so that
    output i's window ends in block row 1 + i // w at column i % w and
    starts right after the same column of the row before."""
    n = x.shape[0]
    w = front + back + 1
    nb = -(-(n + w) // w)
    xe = pad(x, front + 1, nb * w - n - front - 1, float("nan"))
    return xe.reshape(nb, w), w


_NAN = "ew_nan_f64()"


def _var_expr(N, S, Q, ddof, how):
    """C for the variance (or std) of a window from its count, centred sum
    and centred sum of squares. A sum of squared deviations within
    rounding of Q (a window of equal values) is 0, as pandas makes it."""
    m2 = f"fmax({Q} - {S} * {S} / {N}, 0.0)"
    m2 = f"({m2} <= 1e-14 * {Q} ? 0.0 : {m2})"
    var = f"({N} > 1 ? {m2} / ({N} - {ddof}) : 0.0)"
    return f"sqrt({var})" if how == "std" else var


def moments(x, w, center, how, minp, ddof=1):
    """The rolling sum, mean, var or std of the finite values of float64 x
    (NaN, inf and nulls, as NaN, are missing), NaN where fewer than minp."""
    n = x.shape[0]
    front, back = window_bounds(w, center, n)
    w = front + back + 1
    if n >= 4 * w:
        out = _dense(x, w, front, back, how, minp, ddof)
        if out is not None:
            # the first front + 1 and the last outputs, whose windows the
            # blocks do not hold, from short slices
            lo, hi = w - back, (n // w) * w - back
            out[:lo] = _moments(x[:w], w, center, how, minp, ddof, front, back)[:lo]
            out[hi:] = _moments(x[hi - front:], w, center, how, minp, ddof, front,
                                back)[front:]
            return out
    return _moments(x, w, center, how, minp, ddof)


def _dense(x, w, front, back, how, minp, ddof):
    """moments() of the outputs w - back .. (n // w) * w - back - 1 when x
    is all finite there (None otherwise): x itself cut into blocks of w
    rows (a view), so the window ending at block k, column j is the head
    of block k and the tail of block k - 1 after column j, always w rows.

    Sums and means take prefix sums of the raw values within blocks: each
    term is at most a block's sum of |x|, so a large offset costs nothing
    and nothing global accumulates. Variances centre each block on its
    first value and re-centre the tail on the next block's (Chan)."""
    n = x.shape[0]
    nb = n // w
    xb = x[:nb * w].reshape(nb, w)
    out = ember.empty(n, dtype="float64", device=x.device)
    mid = out[w - back:nb * w - back]
    if how in ("sum", "mean"):
        head = ember.cumsum(xb, axis=1)
        if bool(ember.isfinite(head[:, w - 1]).all()):
            # minus the sum after each column: the tail a window takes
            rest = (head - head[:, w - 1:]).reshape(-1)
            ember.subtract(head.reshape(-1)[w:], rest[:-w], out=mid)
            if how == "mean":
                ember.multiply(mid, 1.0 / w, out=mid)
            return out
        # missing values: the same with them as 0, and their counts
        fin = "ew_fisfinite_f64(a)"
        head = ember.cumsum(P.transform(f"{fin} ? a : 0.0", xb), axis=1)
        cnt = ember.cumsum(P.transform(f"{fin} ? 1.0 : 0.0", xb), axis=1)
        rest = (head - head[:, w - 1:]).reshape(-1)
        crest = (cnt - cnt[:, w - 1:]).reshape(-1)
        N, S = "(a - b)", "(c - d)"
        if how == "sum":   # an empty window sums to 0 when min_periods is 0
            stat = f"{N} >= e ? ({N} > 0 ? {S} : 0.0) : {_NAN}"
        else:
            stat = f"{N} >= e ? {S} / {N} : {_NAN}"
        mid[...] = P.transform(stat, cnt.reshape(-1)[w:], crest[:-w], head.reshape(-1)[w:],
                               rest[:-w], float(minp if how == "sum" else max(minp, 1)))
        return out
    if not bool(ember.isfinite(xb).all()):
        return None
    if w <= ddof:
        mid[...] = float("nan")
        return out
    ref = xb[:, :1]
    u = xb - ref
    l1, l2 = ember.cumsum(u, axis=1), ember.cumsum(u * u, axis=1)
    # minus the (centred) sums after each column, re-centred on the next
    # block's reference by Chan's update with `tail` rows and shift delta
    r1, r2 = l1 - l1[:, w - 1:], l2 - l2[:, w - 1:]
    delta = ref[1:] - ref[:-1]
    tail = (w - 1) - ember.arange(w, dtype="float64", device=x.device)[None, :]
    S = "(a - b - g * c)"
    Q = "(d - e + 2.0 * c * b + g * c * c)"
    mid[...] = P.transform(_var_expr("f", S, Q, ddof, how), l1[1:], r1[:-1], delta,
                           l2[1:], r2[:-1], float(w), tail).reshape(-1)
    return out


def _moments(x, w, center, how, minp, ddof=1, front=None, back=None):
    """moments() of any x: blocks of the values padded with NaN, centred
    on each block's mean over its finite values.

    With blocks of exactly w rows, a window is the tail of one block after
    some column j and the head of the next up to j. The values are
    centred on their block's mean and summed by prefix sums within blocks,
    so every term has the size of a block's spread: a large offset, a
    trend or 10^7 rows cost no precision the way one global prefix sum
    does, and the tail is re-centred on the next block's mean when the two
    meet (Chan's update for the sum of squares). front/back, when given,
    place the windows as in the longer array x was cut from."""
    n = x.shape[0]
    if front is None:
        front, back = window_bounds(w, center, n)
    xb, w = _blocks(x, front, back)
    fin = "ew_fisfinite_f64(a)"
    cnt = P.transform(f"{fin} ? 1.0 : 0.0", xb)
    ref = P.transform(f"{fin} ? a : 0.0", xb).sum(axis=1) / \
        ember.maximum(cnt.sum(axis=1), 1.0)
    u = P.transform(f"{fin} ? a - b : 0.0", xb, ref[:, None])
    lc, l1 = ember.cumsum(cnt, axis=1), ember.cumsum(u, axis=1)
    # the tail of block k - 1 after column j: its count and (centred) sum
    na = P.transform("b - a", lc[:-1], lc[:-1, w - 1:])
    sa = P.transform("b - a", l1[:-1], l1[:-1, w - 1:])
    delta = (ref[1:] - ref[:-1])[:, None]
    N, S = "(a + b)", "(c + d - b * e)"
    nan = _NAN
    # the thresholds are inputs, not literals, so that each min_periods
    # does not compile a kernel of its own
    if how in ("sum", "mean"):
        if how == "sum":   # an empty window sums to 0 when min_periods is 0
            stat = f"{N} >= g ? ({N} > 0 ? f * {N} + {S} : 0.0) : {nan}"
        else:
            stat = f"{N} >= g ? f + {S} / {N} : {nan}"
        out = P.transform(stat, lc[1:], na, l1[1:], sa, delta, ref[1:, None],
                          float(minp if how == "sum" else max(minp, 1)))
        return out.reshape(-1)[:n]
    l2 = ember.cumsum(u * u, axis=1)
    qa = P.transform("b - a", l2[:-1], l2[:-1, w - 1:])
    Q = "(f + g - 2.0 * e * d + b * e * e)"
    var = _var_expr(N, S, Q, ddof, how)
    least = max(minp, 1, math.floor(ddof) + 1)   # N >= min_periods and N > ddof
    stat = f"{N} >= h ? {var} : {nan}"
    out = P.transform(stat, lc[1:], na, l1[1:], sa, delta, l2[1:], qa, float(least))
    return out.reshape(-1)[:n]


def extremes(x, w, center, how):
    """The min or max of the finite values in each window (a missing row
    is +-inf, so a window without one reads that: callers mask by count)."""
    n = x.shape[0]
    fill = float("inf") if how == "min" else float("-inf")
    op = ember.minimum if how == "min" else ember.maximum
    front, back = window_bounds(w, center, n)
    w = front + back + 1
    t = pad(P.transform("ew_fisfinite_f64(a) ? a : b", x, fill), front, back, fill)
    span = 1
    while span * 2 <= w:   # t[j] covers ext[j : j + span]
        t = op(t[:t.shape[0] - span], t[span:])
        span *= 2
    return op(t[:n], t[w - span:w - span + n])


def centre(x, valid):
    """The mean of the valid values, as a 0-d array on x's device (no sync):
    the merges subtract means, which keep no digits of the variance when
    they carry an offset such as 1e9."""
    vx = ember.where(valid, x, 0.0)
    return vx.sum() / ember.maximum(valid.sum(dtype="int64"), 1).astype("float64"), vx


def expanding_moments(x, valid):
    """(count, mean, M2) of the valid values in x[:i + 1] for every i."""
    cnt = valid.astype("float64")
    c, vx = centre(x, valid)
    zero = ember.zeros(x.shape[0], dtype="float64", device=x.device)
    n, mean, m2 = P.inclusive_scan((cnt, ember.where(valid, vx - c, 0.0), zero), _MERGE)
    return n, mean + c, m2


def expanding_extremes(x, valid, how):
    fill = float("inf") if how == "min" else float("-inf")
    return P.inclusive_scan(ember.where(valid, x, fill), how)
