"""Trees grown level by level on binned features, a batch of trees at a
time: every node of a level, in every tree of the batch, is split at once.
A level is one bincount of (node, drawn feature, bin, class) keys over the
(tree, row) pairs still in play, a cumulative sum along the bins and a
vectorised best-split search; pairs then move to their child with one
gather. The host sees a few small arrays a level (one entry per node), so
the launches of a level are shared by the whole batch."""
from dataclasses import dataclass

import ember

# bound on one level's histogram (nodes x features x bins x classes);
# levels with more nodes are searched in chunks of nodes
_HIST_LIMIT = 1 << 25
# a level's histogram cells (nodes x bins x classes) over its pairs above
# which the search takes only the occupied cells (_search_sparse)
SPARSE_RATIO = 1


@dataclass
class Tree:
    """A fitted tree as host arrays, one entry per node: the split feature
    and bin (-1 for a leaf), children, the node's weighted class counts or
    mean, its total weight and the weighted impurity decrease of its split."""
    feature: object
    split_bin: object
    left: object
    right: object
    value: object
    weight: object
    gain: object
    depth: int


def _xlog2x(a):
    # x log2 x with 0 log 0 = 0: entropy in bits, as scikit-learn's
    return a * ember.log2(ember.maximum(a, 1e-300))


def _search(Xflat, p, ri, y, w, local, m, *, n_classes, B, k, rng, min_samples_leaf,
            min_weight_leaf, counts, criterion="gini", ranges=None, class_out=()):
    """Best split of each of m nodes from the pairs (ri, y, w) at local
    node `local`: device arrays best feature, best bin, gain, node weight,
    node value and node row count (None unless `counts`). Leaf sizes count
    rows, as scikit-learn's n_node_samples (a bootstrap draw's repeats are
    one row); min_weight_leaf (per node) bounds their weight. The gain is
    the weighted impurity decrease (gini or entropy in bits for classes,
    squared error for targets). With `ranges` (lo, hi: p x B, each bin's
    smallest and largest value) each drawn feature is cut at one random
    place, as extra trees do: a threshold uniform between the node's
    smallest and largest value, rounded to the bin edge that splits the
    node's rows as that threshold would (the same rows where every distinct
    value has its own bin)."""
    dev = ri.device
    C = max(n_classes, 1)
    if k >= p:
        F = ember.broadcast_to(ember.arange(p, device=dev), (m, p))
    else:
        F = ember.argsort(rng.random((m, p)), axis=1)[:, :k]
    kk = F.shape[1]
    F = ember.ascontiguousarray(F).reshape(-1)
    js = ember.arange(kk, device=dev)[:, None]
    fr = ember.take(F, local[None, :] * kk + js)                        # kk x n
    bins = ember.take(Xflat, (ri * p)[None, :] + fr).astype(ember.int64)
    kb = (local[None, :] * kk + js) * B + bins
    n, O = y.shape
    ww = ember.broadcast_to(w, (kk, n)).reshape(-1)
    size = m * kk * B
    if n_classes:
        # one key an output: each output's classes hold their own columns
        # (y holds global class numbers), so a cell's counts over all
        # columns sum to O times its weight
        key = ((kb * C)[:, :, None] + y[None, :, :]).reshape(-1)
        wo = ember.broadcast_to(w[None, :, None], (kk, n, O)).reshape(-1)
        H = ember.bincount(key, weights=wo, minlength=size * C).reshape(m, kk, B, C)
        L = ember.cumsum(H, axis=2)
        T = L[:, :, B - 1:, :]
        R = T - L
        WL, WR = L.sum(axis=3) / O, R.sum(axis=3) / O
        T0 = T[:, 0, 0, :]
        WT = T0.sum(axis=1) / O
        # impurity is the mean over outputs of each output's, as
        # scikit-learn's multi-output criteria
        if criterion == "entropy":
            # minus the children's weighted entropy, up to terms the split
            # does not change
            score = (_xlog2x(L).sum(axis=3) - O * _xlog2x(WL) + _xlog2x(R).sum(axis=3) -
                     O * _xlog2x(WR)) / O
            parent = (_xlog2x(T0).sum(axis=1) - O * _xlog2x(WT)) / O
        else:
            score = ((L * L).sum(axis=3) / ember.maximum(WL, 1e-300) +
                     (R * R).sum(axis=3) / ember.maximum(WR, 1e-300)) / O
            parent = (T0 * T0).sum(axis=1) / ember.maximum(WT, 1e-300) / O
        value = T0
    else:
        key = kb.reshape(-1)
        keyo = ((kb * O)[:, :, None] + ember.arange(O, device=dev)).reshape(-1)
        ws = ember.broadcast_to((w[:, None] * y)[None, :, :], (kk, n, O)).reshape(-1)
        Hw = ember.bincount(key, weights=ww, minlength=size).reshape(m, kk, B)
        Hs = ember.bincount(keyo, weights=ws, minlength=size * O).reshape(m, kk, B, O)
        WL, SL = ember.cumsum(Hw, axis=2), ember.cumsum(Hs, axis=2)
        WT, ST = WL[:, 0, B - 1], SL[:, 0, B - 1, :]
        WR, SR = WT[:, None, None] - WL, ST[:, None, None, :] - SL
        score = ((SL * SL).sum(axis=3) / ember.maximum(WL, 1e-300) +
                 (SR * SR).sum(axis=3) / ember.maximum(WR, 1e-300)) / O
        parent = (ST * ST).sum(axis=1) / ember.maximum(WT, 1e-300) / O
        value = ST / ember.maximum(WT, 1e-300)[:, None]
    valid = (WL > 0) & (WR > 0)
    if ranges is not None:
        valid = valid & _random_cut(WL, WR, F, ranges, rng, m, kk, B)
    NT = None
    if counts:
        NL = ember.cumsum(ember.bincount(kb.reshape(-1), minlength=size).reshape(m, kk, B),
                          axis=2)
        NT = NL[:, 0, B - 1]
        valid = valid & (NL >= min_samples_leaf) & (NT[:, None, None] - NL >= min_samples_leaf)
    if min_weight_leaf is not None:
        mw = min_weight_leaf[:, None, None]
        valid = valid & (WL >= mw) & (WR >= mw)
    score = ember.where(valid, score, -ember.inf).reshape(m, kk * B)
    best = ember.argmax(score, axis=1)
    gain = ember.max(score, axis=1) - parent
    bf = ember.take(F, ember.arange(m, device=dev) * kk + best // B)
    return bf, best % B, gain, WT, value, NT


def _search_sparse(Xflat, p, ri, y, w, local, m, *, n_classes, B, k, rng,
                   min_samples_leaf, min_weight_leaf, counts, criterion="gini",
                   ranges=None, class_out=()):
    """_search for levels of many small nodes: the histogram over only the
    occupied (node, feature, bin) cells. The (pair, drawn feature) entries
    are sorted by that key (a stable sort, so a cell's entries stay in pair
    order and sum as bincount sums them), reduced to one sum a cell, and
    the cells summed along each (node, feature) run by one scan by key, as
    _search's cumulative sum along the bins; the split after each occupied
    cell is scored and a node's best is its first highest score. So the
    choice, the draws and the returned arrays are _search's, and a level
    costs O(pairs x features) instead of O(nodes x features x bins)."""
    from ember import parallel as par
    dev = ri.device
    C = max(n_classes, 1)
    if k >= p:
        F = ember.broadcast_to(ember.arange(p, device=dev), (m, p))
    else:
        F = ember.argsort(rng.random((m, p)), axis=1)[:, :k]
    kk = F.shape[1]
    F = ember.ascontiguousarray(F).reshape(-1)
    n = ri.shape[0]
    js = ember.arange(kk, device=dev)[:, None]
    segk = local[None, :] * kk + js                                     # kk x n
    fr = ember.take(F, segk)
    bins = ember.take(Xflat, (ri * p)[None, :] + fr).astype(ember.int64)
    key = (segk * B + bins).reshape(-1)
    order = ember.argsort(key, kind="stable")
    ks = ember.take(key, order)
    pi = order % n                                                      # the pair
    ww = ember.take(w, pi)
    O = y.shape[1]
    yc = [ember.take(y[:, o], pi) for o in range(O)]
    if n_classes:
        # column c counts the class c of its output (y holds global class
        # numbers, outputs' classes side by side)
        cols = tuple((ww * (yc[class_out[c]] == c)) for c in range(C))
    else:
        cols = (ww,) + tuple(ww * a for a in yc)
    if counts:
        cols = cols + (ember.ones(ks.shape[0], dtype=ww.dtype, device=dev),)

    def by_key(fn, keys, vals):
        # one call for 2 to 4 columns (what a tuple takes), else one each
        if 2 <= len(vals) <= 4:
            return fn(keys, vals)
        outs = [fn(keys, v) for v in vals]
        if fn is par.scan_by_key:
            return tuple(outs)
        return outs[0][0], tuple(o[1] for o in outs)

    ks, sums = by_key(par.reduce_by_key, ks, cols)                      # one a cell
    seg = ks // B
    N = ks.shape[0]
    cum = by_key(par.scan_by_key, seg, sums)
    nxt = ember.concatenate([ks[1:], ember.full(1, -1, dtype=ks.dtype, device=dev)])
    seg_end = seg != nxt // B
    ends = ember.nonzero(seg_end)[0]
    # each cell's (node, feature) run, numbered: a scan of the run ends
    segno = ember.cumsum(ember.concatenate([ember.zeros(1, dtype=ember.int64, device=dev),
                                            seg_end[:-1].astype(ember.int64)]))
    at_end = ember.take(ends, segno)
    nodes = seg // kk
    # the node's totals come from its first drawn feature's run, as
    # _search reads them off its histogram (its classes' totals from each
    # feature's own run)
    first_end = ember.take(ends, ember.arange(m, device=dev) * kk)
    tot_at = at_end if n_classes else ember.take(first_end, nodes)
    Ls = list(cum)
    Rs = [ember.take(c, tot_at) - c for c in cum]
    ncl = C if n_classes else 1 + O
    if n_classes:
        WL = sum(Ls[1:C], Ls[0]) / O
        WR = sum(Rs[1:C], Rs[0]) / O
        if criterion == "entropy":
            score = (sum((_xlog2x(a) for a in Ls[1:C]), _xlog2x(Ls[0])) - O * _xlog2x(WL) +
                     sum((_xlog2x(a) for a in Rs[1:C]), _xlog2x(Rs[0])) - O * _xlog2x(WR)) / O
        else:
            score = (sum((a * a for a in Ls[1:C]), Ls[0] * Ls[0]) / ember.maximum(WL, 1e-300)
                     + sum((a * a for a in Rs[1:C]), Rs[0] * Rs[0]) /
                     ember.maximum(WR, 1e-300)) / O
    else:
        WL, WR = Ls[0], Rs[0]
        score = (sum((a * a for a in Ls[2:ncl]), Ls[1] * Ls[1]) / ember.maximum(WL, 1e-300) +
                 sum((a * a for a in Rs[2:ncl]), Rs[1] * Rs[1]) / ember.maximum(WR, 1e-300)) / O
    valid = ~seg_end & (WL > 0) & (WR > 0)
    if counts:
        valid = valid & (Ls[ncl] >= min_samples_leaf) & (Rs[ncl] >= min_samples_leaf)
    if min_weight_leaf is not None:
        mw = ember.take(min_weight_leaf, nodes)
        valid = valid & (WL >= mw) & (WR >= mw)
    if ranges is not None:
        lo, hi = ranges
        u = rng.random((m, kk)).astype(lo.dtype).reshape(-1)
        f_e = ember.take(F, seg)
        b_e = ks % B
        starts = ember.concatenate([ember.zeros(1, dtype=ends.dtype, device=dev),
                                    ends[:-1] + 1])
        first = ember.take(ember.take(ks, starts) % B, segno)
        last = ember.take(ks, at_end) % B
        lof = lo.reshape(-1)
        vmin = ember.take(lof, f_e * B + first)
        vmax = ember.take(hi.reshape(-1), f_e * B + last)
        t = vmin + ember.take(u, seg) * (vmax - vmin)
        b_next = nxt % B
        # the cell whose bins up to the next occupied one hold the cut
        # _random_cut makes (the same split of the node's rows)
        lo_n = ember.take(lof, f_e * B + ember.minimum(b_next, B - 1))
        valid = valid & (ember.take(lof, f_e * B + b_e) <= t) & \
            ((lo_n > t) | (b_next == last))
    score = ember.where(valid, score, -ember.inf)
    _, mx = par.reduce_by_key(nodes, score, op="max")
    best_at = ember.where(valid & (score == ember.take(mx, nodes)),
                          ember.arange(N, device=dev), N)
    _, pos = par.reduce_by_key(nodes, best_at, op="min")
    kb = ember.take(ks, ember.minimum(pos, N - 1))
    bf = ember.take(F, ember.arange(m, device=dev) * kk + (kb // B) % kk)
    if n_classes:
        T0 = ember.stack([ember.take(c, first_end) for c in cum[:C]], axis=1)
        WT = T0.sum(axis=1) / O
        if criterion == "entropy":
            parent = (_xlog2x(T0).sum(axis=1) - O * _xlog2x(WT)) / O
        else:
            parent = (T0 * T0).sum(axis=1) / ember.maximum(WT, 1e-300) / O
        value = T0
    else:
        WT = ember.take(cum[0], first_end)
        ST = ember.stack([ember.take(c, first_end) for c in cum[1:ncl]], axis=1)
        parent = (ST * ST).sum(axis=1) / ember.maximum(WT, 1e-300) / O
        value = ST / ember.maximum(WT, 1e-300)[:, None]
    NT = ember.take(cum[ncl], first_end).astype(ember.int64) if counts else None
    return bf, kb % B, mx - parent, WT, value, NT


def _random_cut(WL, WR, F, ranges, rng, m, kk, B):
    """m x kk x B mask of the one bin edge each (node, drawn feature) is
    cut at: a threshold t drawn uniform between the node's smallest and
    largest value of the feature, and the cut after the last bin whose
    smallest value is at or below t (clipped inside the node's bins)."""
    lo, hi = ranges
    dev = WL.device
    lo_f = ember.take(lo, F, axis=0).reshape(m, kk, B)                  # bins' minima
    first = (WL <= 0).astype(ember.int64).sum(axis=2)                   # node's lowest bin
    last = (WR > 0).astype(ember.int64).sum(axis=2)                     # and highest
    bins = ember.arange(B, device=dev)
    base = F.reshape(m, kk) * B
    vmin = ember.take(lo.reshape(-1), base + first)
    vmax = ember.take(hi.reshape(-1), base + last)
    t = vmin + rng.random((m, kk)).astype(lo.dtype) * (vmax - vmin)
    cut = (lo_f <= t[:, :, None]).astype(ember.int64).sum(axis=2) - 1
    cut = ember.minimum(ember.maximum(cut, first), last - 1)
    return bins == cut[:, :, None]


def grow(Xb, y, W, *, n_classes, max_bins, max_depth, min_samples_split,
         min_samples_leaf, min_weight_fraction_leaf, min_impurity_decrease, k, rng,
         criterion="gini", ranges=None):
    """Grow one tree per row of W (trees x n sample weights: bootstrap
    counts times user weights) over Xb (n x p uint8 bins); y holds class
    codes (int64) or targets (float64), n or n x outputs; n_classes is 0
    for regression, else the classes (a list of each output's for several
    outputs, whose Tree.value then holds the outputs' class columns side by
    side).
    criterion is 'gini' or 'entropy' for classes (the target's is squared
    error); ranges (each bin's smallest and largest value, p x B) makes the
    cuts random (_random_cut). Returns a list of Tree."""
    import numpy as np
    G, n0 = W.shape
    p = Xb.shape[1]
    Xflat = Xb.reshape(-1)
    dev = Xb.device
    B = max_bins
    if y.ndim == 1:
        y = y[:, None]
    ncs = list(n_classes) if isinstance(n_classes, (list, tuple)) else \
        [n_classes] * y.shape[1]
    n_classes = sum(ncs)
    class_out = tuple(o for o, c in enumerate(ncs) for _ in range(c))
    if n_classes and y.shape[1] > 1:
        offs = np.concatenate([[0], np.cumsum(ncs)[:-1]]).astype(np.int64)
        y = y + ember.asarray(offs, device=dev)[None, :]
    C = n_classes or y.shape[1]
    # the (tree, row) pairs with weight: node g is tree g's root
    pair = ember.nonzero(W.reshape(-1) > 0)[0]
    node = pair // n0
    ri = pair - node * n0
    w = ember.take(W.reshape(-1), pair)
    yy = ember.take(y, ri, axis=0)
    total_w = ember.asnumpy(W.sum(axis=1))
    counts = min_samples_leaf > 1 or min_samples_split > 2
    recs, lefts, trees_of = [], [], []
    tree_of = np.arange(G)
    start, m, depth = 0, G, 0
    while m > 0:
        local = node - start
        chunk = max(1, _HIST_LIMIT // (max(k, 1) * B * C))
        parts = []
        for c0 in range(0, m, chunk):
            c1 = min(m, c0 + chunk)
            if c0 == 0 and c1 == m:
                sel_local, sel = local, None
            else:
                sel = ember.nonzero((local >= c0) & (local < c1))[0]
                sel_local = ember.take(local, sel) - c0
            args = (ri, yy, w) if sel is None else (ember.take(ri, sel),
                                                    ember.take(yy, sel, axis=0),
                                                    ember.take(w, sel))
            mwl = None
            if min_weight_fraction_leaf:
                mwl = ember.asarray(min_weight_fraction_leaf * total_w[tree_of[c0:c1]],
                                    device=dev)
            # a level of many small nodes takes the occupied cells only
            search = _search_sparse if (c1 - c0) * B * C > SPARSE_RATIO * args[0].shape[0] \
                else _search
            parts.append(search(Xflat, p, *args, sel_local, c1 - c0, n_classes=n_classes,
                                 B=B, k=k, rng=rng, min_samples_leaf=min_samples_leaf,
                                 min_weight_leaf=mwl, counts=counts, criterion=criterion,
                                 ranges=ranges, class_out=class_out))
        bf, bb, gain, WT, value, NT = (ember.concatenate([q[i] for q in parts])
                                       if len(parts) > 1 and parts[0][i] is not None
                                       else parts[0][i] for i in range(6))
        tw = ember.asarray(total_w[tree_of], device=dev)
        can = (gain > 1e-12 * ember.maximum(WT, 1e-300)) & \
            (gain / tw >= min_impurity_decrease) & ember.isfinite(gain)
        if NT is not None:
            can = can & (NT >= min_samples_split)
        if max_depth is not None and depth >= max_depth:
            can = can & False
        fdt = ember.float64
        host = ember.asnumpy(ember.concatenate([
            can.astype(fdt)[:, None], bf.astype(fdt)[:, None], bb.astype(fdt)[:, None],
            WT.astype(fdt)[:, None], ember.where(can, gain, 0).astype(fdt)[:, None],
            value.astype(fdt)], axis=1))
        split = host[:, 0] > 0
        recs.append((np.where(split, host[:, 1], -1).astype(np.int32),
                     np.where(split, host[:, 2], -1).astype(np.int32),
                     host[:, 3], host[:, 4], host[:, 5:]))
        trees_of.append(tree_of)
        nsplit = int(split.sum())
        nxt = start + m
        left = np.full(m, -1, np.int64)
        left[split] = nxt + 2 * np.arange(nsplit)
        lefts.append(left)
        if nsplit == 0:
            break
        # pairs of split nodes move to a child; the rest leave play
        lrow = ember.take(ember.asarray(left, device=dev), local)
        xb = ember.take(Xflat, ri * p + ember.take(bf, local)).astype(ember.int64)
        new = ember.where(lrow >= 0, lrow + (xb > ember.take(bb, local)), -1)
        live = new >= 0
        if not bool(live.all()):
            idx = ember.nonzero(live)[0]
            ri, yy, w, new = (ember.take(ri, idx), ember.take(yy, idx, axis=0),
                              ember.take(w, idx), ember.take(new, idx))
        node = new
        tree_of = np.repeat(tree_of[split], 2)
        start, m, depth = nxt, 2 * nsplit, depth + 1
    return _split_batch(recs, lefts, trees_of, G, depth)


def _split_batch(recs, lefts, trees_of, G, depth):
    """The batch's node tables cut into one Tree per tree, each numbered
    from its root in level order."""
    import numpy as np
    feat, sbin, weight, gain, value = (np.concatenate([r[i] for r in recs])
                                       for i in range(5))
    left = np.concatenate(lefts)
    owner = np.concatenate(trees_of)
    out = []
    for g in range(G):
        ids = np.nonzero(owner == g)[0]
        renum = np.full(len(owner), -1, np.int64)
        renum[ids] = np.arange(len(ids))
        lg = np.where(left[ids] >= 0, renum[np.maximum(left[ids], 0)], -1)
        out.append(Tree(feature=feat[ids], split_bin=sbin[ids], left=lg,
                        right=np.where(lg >= 0, lg + 1, -1), value=value[ids],
                        weight=weight[ids], gain=gain[ids], depth=depth))
    return out
