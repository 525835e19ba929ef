"""KDTree's radius queries by brute force on the device: blocks of rows
of p-th power distance sums (_metrics.power_sums) compared with r^p, as
SciPy's tree compares them, so points exactly at the radius count as in
SciPy. Only the split of the answers into Python lists is on the host."""
import math

import numpy

import ember
from ember.scipy.spatial import _metrics


def _powers(r, p):
    """r^p, with a negative radius holding nothing (its even power would
    be positive)."""
    if p == math.inf:
        return r
    if isinstance(r, ember.ndarray):
        return ember.where(r < 0, -math.inf, ember.abs(r) ** p)
    return numpy.where(r < 0, -numpy.inf, numpy.abs(r) ** p)


def _blocks(Q, n):
    step = _metrics.row_step(n)
    for s in range(0, Q.shape[0], step):
        yield slice(s, min(Q.shape[0], s + step))


def ball(data, Q, r, p, lengths_only):
    """(counts, lists): how many points of data lie within r[j] of Q[j],
    and (unless lengths_only) their indices, a list per row, ascending."""
    dev = Q.device
    counts = ember.zeros((Q.shape[0],), dtype=ember.int64, device=dev)
    cols = []
    if data.shape[0]:
        rp = _powers(r, p)
        for b in _blocks(Q, data.shape[0]):
            inside = _metrics.power_sums(Q[b], data, p) <= rp[b].reshape(-1, 1)
            counts[b] = inside.sum(axis=1)
            if not lengths_only:
                cols.append(ember.nonzero(inside)[1])
    if lengths_only:
        return counts, None
    c = numpy.concatenate([ember.asnumpy(v) for v in cols]) if cols else \
        numpy.zeros(0, dtype=numpy.int64)
    cuts = numpy.cumsum(ember.asnumpy(counts))[:-1]
    return counts, [v.tolist() for v in numpy.split(c, cuts)] if Q.shape[0] else []


def pairs(data, r, p):
    """The (npairs, 2) int64 pairs i < j within r, ordered by (i, j)."""
    n, dev = data.shape[0], data.device
    rp = float(_powers(numpy.float64(r), p))
    out = []
    for b in _blocks(data, n):
        inside = _metrics.power_sums(data[b], data, p) <= rp
        rows = ember.arange(b.start, b.stop, device=dev).reshape(-1, 1)
        upper = ember.arange(n, device=dev).reshape(1, -1) > rows
        i, j = ember.nonzero(ember.logical_and(inside, upper))
        out.append(ember.stack([i.astype(ember.int64) + b.start,
                                j.astype(ember.int64)], axis=1))
    if not out:
        return ember.empty((0, 2), dtype=ember.int64, device=dev)
    return out[0] if len(out) == 1 else ember.concatenate(out, axis=0)


def count(A, B, r, p, w1, w2, cumulative):
    """Per radius of the 1-D host array r, the (weighted) number of pairs
    (a, b) with distance <= r (cumulative) or in (r[i-1], r[i]]: each
    block's pairs land at the first sorted radius that holds them, a
    bincount over those positions. A NumPy array in r's order."""
    dev = A.device
    order = numpy.argsort(r, kind="stable")
    rs = r[order]
    rp = ember.asarray(_powers(rs, p), device=dev)
    weighted = w1 is not None
    hist = ember.zeros((rs.size + 1,), dtype=ember.float64 if weighted else ember.int64,
                       device=dev)
    if A.shape[0] and B.shape[0] and rs.size:
        for b in _blocks(A, B.shape[0]):
            S = _metrics.power_sums(A[b], B, p)
            at = ember.searchsorted(rp, S.reshape(-1), side="left")
            w = (w1[b].reshape(-1, 1) * w2.reshape(1, -1)).reshape(-1) if weighted else None
            hist += ember.bincount(at, weights=w, minlength=rs.size + 1)
    counts = ember.asnumpy(ember.cumsum(hist) if cumulative else hist)[:rs.size]
    res = numpy.empty_like(counts)
    res[order] = counts
    return res
