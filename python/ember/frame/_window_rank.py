"""Rolling median and quantile over any window bounds [start, end): the
values are ranked once (one argsort), the windows of a block of rows
gathered into one (rows, widest window) matrix of ranks (missing places
last), ordered by one flat sort of (row, rank) keys, and the order
statistic read at q * (count - 1) as pandas' skiplist does. It
costs O(n * w log w) for windows of w rows, blocks bounding the memory;
fine for the short windows these statistics are used with."""
import ember
import ember.parallel as P

from ember.frame import _window_kernels as K

_INTERP = ("linear", "lower", "higher", "midpoint", "nearest")
_CELLS = 1 << 22   # matrix cells a block holds

# the value at q * (N - 1) from the sorted window's values a = v[i] and
# b = v[i + 1] (c the fraction, d the index i), as pandas rounds each kind
_PICK = {"linear": "c == 0.0 ? a : a + (b - a) * c",
         "lower": "a",
         "higher": "c == 0.0 ? a : b",
         "midpoint": "c == 0.0 ? a : (a + b) / 2.0",
         "nearest": "c == 0.0 ? a : (c == 0.5 ? (fmod(d, 2.0) == 0.0 ? a : b) : "
                    "(c < 0.5 ? a : b))",
         None: "c == 0.0 ? a : (a + b) / 2.0"}   # the median


def check_quantile(q, interpolation):
    if not 0 <= q <= 1:
        raise ValueError(f"quantile value {q} not in [0, 1]")
    if interpolation not in _INTERP:
        raise ValueError(f"Interpolation '{interpolation}' is not supported")


def window_quantile(x, start, end, q, interpolation, minp):
    """The q-quantile of the finite values of float64 x in rows [start,
    end) of every window (q None: the median, the mean of the two middle
    values); NaN where fewer than max(minp, 1) values."""
    n = x.shape[0]
    out = ember.empty(n, dtype="float64", device=x.device)
    if n == 0:
        return out
    valid = ember.isfinite(x)
    c = K.pad(ember.cumsum(valid, dtype="int64"), 1, 0, 0)
    N = (c[end] - c[start]).astype("float64")
    # every value's rank among all (missing ones rank n): a window's order
    # statistics are then those of small integers, and one flat sort of
    # (row, rank) keys orders every window of a block at once
    order = ember.argsort(ember.where(valid, x, float("inf")), kind="stable")
    rank = ember.empty(n, dtype="int64", device=x.device)
    rank[order] = ember.arange(n, dtype="int64", device=x.device)
    rank = ember.where(valid, rank, n)
    ranked = K.pad(x[order], 0, 1, float("nan"))   # value of rank r; rank n: NaN
    width = max(int((end - start).max()), 1)
    step = max(1, _CELLS // width)
    cols = ember.arange(width, dtype="int64", device=x.device)[None, :]
    pick = _PICK[None if q is None else interpolation]
    qq = 0.5 if q is None else float(q)
    for r0 in range(0, n, step):   # a block of rows: bounded memory
        s, e = start[r0:r0 + step, None], end[r0:r0 + step, None]
        row = ember.arange(s.shape[0], dtype="int64", device=x.device)
        at = s + cols
        r = ember.where(at < e, rank[ember.minimum(at, n - 1)], n)
        keys = (r + row[:, None] * (n + 1)).reshape(-1)
        v = P.radix_sort(keys, end_bit=int(row.shape[0] * (n + 1)).bit_length())
        cnt = N[r0:r0 + step]
        pos = ember.maximum(cnt - 1.0, 0.0) * qq
        i = ember.floor(pos)
        lo_at = row * width + i.astype("int64")
        hi_at = row * width + ember.minimum(i + 1.0, ember.maximum(cnt - 1.0, 0.0)
                                            ).astype("int64")
        lo = ranked[v[lo_at] - row * (n + 1)]
        hi = ranked[v[hi_at] - row * (n + 1)]
        got = P.transform(pick, lo, hi, pos - i, i)
        out[r0:r0 + step] = P.transform(f"a >= c ? b : {K._NAN}", cnt, got,
                                        float(max(minp, 1)))
    return out
