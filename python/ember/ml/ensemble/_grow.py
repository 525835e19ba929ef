"""One tree grown level by level on binned features: every node of a level
is split at once. A level is one bincount of (node, drawn feature, bin,
class) keys over the rows still in play, a cumulative sum along the bins,
and a vectorised best-split search; rows then move to their child with one
gather. Host work per level is a few small arrays (one entry per node)."""
from dataclasses import dataclass

import ember


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


def grow(Xb, y, w, *, n_classes, max_bins, max_depth, min_samples_split,
         min_samples_leaf, min_impurity_decrease, k, rng):
    """Xb: n x p uint8 bins; y: class codes (int64) or targets (float);
    w: sample weights (bootstrap counts times user weights); n_classes 0
    for regression."""
    import numpy as np
    keep = w > 0
    rows = ember.nonzero(keep)[0]
    Xb, y, w = ember.take(Xb, rows, axis=0), ember.take(y, rows), ember.take(w, rows)
    n, p = Xb.shape
    dev = Xb.device
    fdt = w.dtype
    B = max_bins
    C = max(n_classes, 1)
    total_w = float(w.sum())
    node = ember.zeros(n, dtype=ember.int64, device=dev)
    rec = {key: [] for key in ("feature", "split_bin", "value", "weight", "gain")}
    children = []          # (left, right) per level, host arrays
    start, m, depth = 0, 1, 0
    flatX = Xb.reshape(-1)
    prow = ember.arange(n, device=dev) * p
    while m > 0:
        local = node - start
        if k >= p:
            F = ember.broadcast_to(ember.arange(p, device=dev), (m, p))
        else:
            F = ember.argsort(rng.random((m, p)), axis=1)[:, :k]
        kk = F.shape[1]
        F = ember.ascontiguousarray(F)
        # (node, j, bin) keys of every row for each of its node's kk features
        fr = ember.take(F.reshape(-1), (local * kk)[None, :] +
                        ember.arange(kk, device=dev)[:, None])          # kk x n
        bins = ember.take(flatX, prow[None, :] + fr).astype(ember.int64)
        key = ((local[None, :] * kk + ember.arange(kk, device=dev)[:, None]) * B + bins)
        size = m * kk * B
        if n_classes:
            key = (key * C + y[None, :]).reshape(-1)
            ww = ember.broadcast_to(w, (kk, n)).reshape(-1)
            H = ember.bincount(key, weights=ww, minlength=size * C).reshape(m, kk, B, C)
            L = ember.cumsum(H, axis=2)
            T = L[:, :, B - 1:, :]
            R = T - L
            WL, WR = L.sum(axis=3), R.sum(axis=3)
            score = (L * L).sum(axis=3) / ember.maximum(WL, 1e-300) + \
                (R * R).sum(axis=3) / ember.maximum(WR, 1e-300)
            T0 = T[:, 0, 0, :]
            WT = T0.sum(axis=1)
            parent = (T0 * T0).sum(axis=1) / ember.maximum(WT, 1e-300)
            value = T0
        else:
            key = key.reshape(-1)
            ww = ember.broadcast_to(w, (kk, n)).reshape(-1)
            ws = ember.broadcast_to(w * y, (kk, n)).reshape(-1)
            Hw = ember.bincount(key, weights=ww, minlength=size).reshape(m, kk, B)
            Hs = ember.bincount(key, weights=ws, minlength=size).reshape(m, kk, B)
            WL, SL = ember.cumsum(Hw, axis=2), ember.cumsum(Hs, axis=2)
            WT, ST = WL[:, 0, B - 1], SL[:, 0, B - 1]
            WR, SR = WT[:, None, None] - WL, ST[:, None, None] - SL
            score = SL * SL / ember.maximum(WL, 1e-300) + SR * SR / ember.maximum(WR, 1e-300)
            parent = ST * ST / ember.maximum(WT, 1e-300)
            value = (ST / ember.maximum(WT, 1e-300))[:, None]
        valid = (WL >= min_samples_leaf) & (WR >= min_samples_leaf)
        score = ember.where(valid, score, -ember.inf).reshape(m, kk * B)
        best = ember.argmax(score, axis=1)
        gain = ember.max(score, axis=1) - parent
        bj, bb = best // B, best % B
        bf = ember.take(F.reshape(-1), ember.arange(m, device=dev) * kk + bj)
        can = (WT >= min_samples_split) & (gain > 1e-12 * ember.maximum(WT, 1.0)) & \
            (gain / total_w >= min_impurity_decrease) & ember.isfinite(gain)
        if max_depth is not None and depth >= max_depth:
            can = can & False
        # one transfer a level: the per-node results the tree keeps
        host = ember.asnumpy(ember.concatenate([
            can.astype(fdt)[:, None], bf.astype(fdt)[:, None], bb.astype(fdt)[:, None],
            WT.astype(fdt)[:, None], ember.where(can, gain, 0).astype(fdt)[:, None],
            value.astype(fdt)], axis=1))
        split = host[:, 0] > 0
        rec["feature"].append(np.where(split, host[:, 1], -1).astype(np.int32))
        rec["split_bin"].append(np.where(split, host[:, 2], -1).astype(np.int32))
        rec["weight"].append(host[:, 3])
        rec["gain"].append(host[:, 4])
        rec["value"].append(host[:, 5:])
        nsplit = int(split.sum())
        nxt = start + m
        left = np.full(m, -1, np.int64)
        left[split] = nxt + 2 * np.arange(nsplit)
        children.append(left)
        if nsplit == 0:
            break
        # rows of split nodes move to a child; the rest leave play
        dleft = ember.asarray(left, device=dev)
        lrow = ember.take(dleft, local)
        xb = ember.take(flatX, prow + ember.take(bf, local)).astype(ember.int64)
        new = ember.where(lrow >= 0, lrow + (xb > ember.take(bb, local)), -1)
        live = new >= 0
        if not bool(live.all()):
            idx = ember.nonzero(live)[0]
            Xb, y, w, new = (ember.take(Xb, idx, axis=0), ember.take(y, idx),
                             ember.take(w, idx), ember.take(new, idx))
            n = Xb.shape[0]
            flatX = Xb.reshape(-1)
            prow = ember.arange(n, device=dev) * p
        node = new
        start, m, depth = nxt, 2 * nsplit, depth + 1
    left = np.concatenate(children)
    right = np.where(left >= 0, left + 1, -1)
    return Tree(feature=np.concatenate(rec["feature"]),
                split_bin=np.concatenate(rec["split_bin"]),
                left=left, right=right, value=np.concatenate(rec["value"]),
                weight=np.concatenate(rec["weight"]), gain=np.concatenate(rec["gain"]),
                depth=depth)
