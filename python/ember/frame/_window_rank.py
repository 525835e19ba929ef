"""Rolling median and quantile over any window bounds [start, end): the
values are ranked once (one argsort, missing ones last), a wavelet
matrix over the ranks (one stable partition by each bit) finds the k-th
smallest rank of every window at once, log2(n) whole-array steps, and
the order statistic is read at q * (count - 1) as pandas' skiplist
does. O(n log n) whatever the window's length."""
import ember
import ember.parallel as P

from ember.frame import _window_kernels as K

_INTERP = ("linear", "lower", "higher", "midpoint", "nearest")

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
    # statistics are then the k-th smallest of small integers, which a
    # wavelet matrix over the ranks answers for every window at once
    order = ember.argsort(ember.where(valid, x, float("inf")), kind="stable")
    rank = ember.empty(n, dtype="int64", device=x.device)
    rank[order] = ember.arange(n, dtype="int64", device=x.device)
    rank = ember.where(valid, rank, n)
    ranked = K.pad(x[order], 0, 1, float("nan"))   # value of rank r; rank n: NaN
    levels = _wavelet(rank, n.bit_length())
    pos = ember.maximum(N - 1.0, 0.0) * (0.5 if q is None else float(q))
    i = ember.floor(pos)
    k = i.astype("int64")
    # an empty window walks to 2**bits - 1: clipped to rank n (NaN), masked
    lo = ranked[ember.minimum(_kth(levels, start, end, k), n)]
    hi = ranked[ember.minimum(_kth(levels, start, end, ember.minimum(k + 1, ember.maximum(
        (N - 1.0).astype("int64"), 0))), n)]
    got = P.transform(_PICK[None if q is None else interpolation], lo, hi, pos - i, i)
    return P.transform(f"a >= c ? b : {K._NAN}", N, got, float(max(minp, 1)))


def _wavelet(a, bits):
    """The wavelet matrix of int64 a (values below 2**bits): per bit, top
    first, the prefix counts of zeros (n + 1 of them) and how many zeros;
    each level's values are the last one's stably partitioned by that bit,
    zeros first."""
    levels = []
    for b in range(bits - 1, -1, -1):
        zero = ember.bitwise_and(ember.right_shift(a, b), 1) == 0
        pref = K.pad(ember.cumsum(zero, dtype="int64"), 1, 0, 0)
        nz = int(pref[-1])
        levels.append((pref, nz))
        a = ember.concatenate([a[ember.flatnonzero(zero)], a[ember.flatnonzero(~zero)]])
    return levels


def _kth(levels, s, e, k):
    """The k-th smallest (from 0) value in rows [s, e) of every window:
    per level, go to the zeros' part when k of them fit, else the ones'."""
    v = ember.zeros_like(s)
    for pref, nz in levels:
        zs, ze = pref[s], pref[e]
        left = k < ze - zs
        v = v * 2 + ~left
        k = ember.where(left, k, k - (ze - zs))
        s = ember.where(left, zs, nz + s - zs)
        e = ember.where(left, ze, nz + e - ze)
    return v
