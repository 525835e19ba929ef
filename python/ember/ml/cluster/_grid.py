"""Pairs of points within eps in low dimensions through a grid of cells of
side eps: after a sort by cell, a point's candidates are the points of the
3^d cells around its own (searchsorted ranges), so the work is the number
of candidates, not n^2. The distances of candidates are exact differences,
as a kd-tree's are."""
import itertools

import ember

# Candidates expanded at once (pairs of int64 plus their distances): bounds
# the memory of one chunk of query points.
CANDIDATE_BUDGET = 1 << 24
MAX_DIM = 3


def grid_pairs(X, eps, budget):
    """(rows, cols) as int32 arrays of every pair within eps (each point
    with itself included), in the original row order; None when the pairs
    outnumber budget or the cells' keys would not fit in int64."""
    n, d = X.shape
    Xf = X.astype(ember.float64)
    lo = Xf.min(axis=0)
    # Cells a hair wider than eps: two points within eps then always fall
    # in neighbouring cells whatever the rounding of the division.
    g = ember.floor((Xf - lo[None, :]) / (float(eps) * (1 + 1e-9))).astype(ember.int64) + 1
    dims = [int(v) + 2 for v in ember.asnumpy(g.max(axis=0))]
    strides, span = [], 1
    for m in reversed(dims):
        strides.insert(0, span)
        span *= m
    if span >= 2**62:
        return None
    key = (g * ember.asarray(strides, device=X.device)[None, :]).sum(axis=1)
    order = ember.argsort(key, kind="stable")
    # float64 differences, as scikit-learn's trees measure float32 data
    Xs = ember.take(Xf, order, axis=0)
    cells, size = ember.parallel.run_length_encode(ember.take(key, order))
    first = ember.cumsum(size) - size
    n_cells = cells.shape[0]
    eps2 = float(eps) ** 2
    rows, cols, kept = [], [], 0
    # For each neighbouring offset, the pairs of occupied cells (a, b = a +
    # offset) and every point of a against every point of b. Half of the
    # offsets are enough: the pairs of -offset are those of offset mirrored.
    zero = (0,) * d
    for off in itertools.product((-1, 0, 1), repeat=d):
        if off < zero:
            continue
        o = sum(k * st for k, st in zip(off, strides))
        pos = ember.minimum(ember.searchsorted(cells, cells + o), n_cells - 1)
        a = ember.nonzero(ember.take(cells, pos) == cells + o)[0]
        if a.shape[0] == 0:
            continue
        b = ember.take(pos, a)
        la, lb = ember.take(size, a), ember.take(size, b)
        fa, fb = ember.take(first, a), ember.take(first, b)
        for q, k in _expand(la * lb):
            lbq = ember.take(lb, q)
            i = ember.take(fa, q) + k // lbq
            j = ember.take(fb, q) + k % lbq
            diff = ember.take(Xs, i, axis=0) - ember.take(Xs, j, axis=0)
            near = (diff * diff).sum(axis=1) <= eps2
            i, j = i[near], j[near]
            kept += i.shape[0]
            if kept > budget:
                return None
            kept += i.shape[0] if off != zero else 0
            if kept > budget:
                return None
            i = ember.take(order, i).astype(ember.int32)
            j = ember.take(order, j).astype(ember.int32)
            rows.append(i)
            cols.append(j)
            if off != zero:
                rows.append(j)
                cols.append(i)
    return ember.concatenate(rows), ember.concatenate(cols)


def _expand(sizes):
    """Chunks of (pair, k) for k in range(sizes[pair]) of every pair, each
    chunk about CANDIDATE_BUDGET long (a single larger pair is its own)."""
    ends = ember.cumsum(sizes)
    total = int(ends[-1])
    dev = sizes.device
    cuts = ember.searchsorted(ends, ember.arange(CANDIDATE_BUDGET, total, CANDIDATE_BUDGET,
                                                 device=dev), side="left")
    bounds = sorted(set([0] + [int(c) + 1 for c in ember.asnumpy(cuts)] + [sizes.shape[0]]))
    for s, e in zip(bounds[:-1], bounds[1:]):
        sz = sizes[s:e]
        tot = int(sz.sum())
        if tot == 0:
            continue
        q = ember.repeat(ember.arange(e - s, device=dev), sz)
        k = ember.arange(tot, device=dev) - ember.take(ember.cumsum(sz) - sz, q)
        yield q + s, k
