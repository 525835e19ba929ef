"""The arithmetic of k-means on ember arrays: k-means++ and random seeding,
the assignment of rows to centers (one GEMM a block of rows) with the
weighted per-cluster sums for the update (a second GEMM, one-hot^T @ X),
empty-cluster relocation, Lloyd's loop and the inertia."""
import math

import numpy as np

import ember
from ember.ml.cluster import _kmeans_fused as _fused
from ember.ml.cluster import _lloyd
from ember.ml.cluster._common import row_blocks, sq_dist_block, sq_norms


def kmeans_plusplus(X, k, xx, w, rng, n_local_trials=None):
    """Greedy k-means++: each new center is the best (lowest potential) of
    n_local_trials candidates drawn in proportion to w * D^2. Returns the
    indices of the chosen rows, kept on the device (no sync a center).
    With a NumPy RandomState the draws are scikit-learn's (one uniform for
    the first center, n_local_trials for each next, scaled by the current
    potential), so a random_state gives its centers; the distances, sums
    and searches stay on the device."""
    dev = X.device
    if n_local_trials is None:
        n_local_trials = 2 + int(math.log(k))
    first = _first(w, rng, dev)
    chosen = [first]
    closest = sq_dist_block(ember.take(X, first, axis=0), ember.take(xx, first), X, xx)[0]
    pot = (closest * w).sum()
    for _ in range(1, k):
        cum = ember.cumsum(w * closest)
        cand = _draw(cum, pot, rng, n_local_trials, dev)
        dc = sq_dist_block(ember.take(X, cand, axis=0), ember.take(xx, cand), X, xx)
        dc = ember.minimum(closest[None, :], dc)
        pots = (dc * w[None, :]).sum(axis=1)
        best = ember.argmin(pots).reshape(1)
        chosen.append(ember.take(cand, best))
        closest = ember.take(dc, best, axis=0)[0]
        pot = ember.take(pots, best)[0]
    return ember.concatenate(chosen)


def _first(w, rng, dev):
    """The first center, drawn in proportion to w as NumPy's
    choice(n, p=w / w.sum()) draws it: one uniform placed (right side) in
    the normalised float64 cumulative sum of the probabilities."""
    p = w.astype(ember.float64)
    cdf = ember.cumsum(p / p.sum())
    cdf = cdf / cdf[-1]
    u = ember.asarray(np.asarray(rng.uniform(size=1), dtype=np.float64), device=dev)
    idx = ember.searchsorted(cdf, u, side="right")
    return ember.minimum(idx, cdf.shape[0] - 1)


def _draw(cum, pot, rng, size, dev):
    # Inverse-CDF sampling on the device: uniform draws scaled by the
    # potential and placed by searchsorted (the left side, clipped to the
    # last row), as scikit-learn's k-means++.
    u = ember.asarray(rng.uniform(size=size), device=dev).astype(cum.dtype)
    idx = ember.searchsorted(cum, u * pot.astype(cum.dtype))
    return ember.minimum(idx, cum.shape[0] - 1)


def random_rows(n, k, rng, dev, w=None):
    """k distinct row indices drawn in proportion to w (init='random'):
    with a NumPy RandomState scikit-learn's choice(n, k, replace=False,
    p=w / w.sum()) itself (w copied to the host: n values, once a
    seeding), else ember's uniform choice."""
    if isinstance(rng, (np.random.RandomState, np.random.Generator)):
        p = None
        if w is not None:
            p = ember.asnumpy(w).astype(np.float64)
            p = p / p.sum()
        idx = rng.choice(n, size=k, replace=False, p=p)
        return ember.asarray(np.asarray(idx, dtype=np.int64), device=dev)
    return ember.asarray(rng.choice(n, size=k, replace=False), device=dev).astype(ember.int64)


def assign(X, C, w=None, *, update=False):
    """Labels of the rows of X (nearest center, int64) and, with update,
    the weighted per-cluster sums of X and of w (w=None: unit weights, which
    spares a pass over the one-hot matrix). Where k * d fits the fused
    kernel's shared memory that is one kernel (_kmeans_fused); past it,
    blocks of rows bound the
    n x k distance matrix; each block is one GEMM for the distances and one
    for the sums (the one-hot matrix of its labels, transposed, times X)."""
    if _fused.applies(X, C):
        labels, _, sums, wsum = _fused.assign_fused(X, C, w)
        return (labels, sums, wsum) if update else (labels, None, None)
    n, k = X.shape[0], C.shape[0]
    cc = sq_norms(C)
    Ct2 = C.T * -2.0
    labels = ember.empty(n, dtype=ember.int64, device=X.device)
    sums = wsum = None
    if update:
        sums = ember.zeros(C.shape, dtype=X.dtype, device=X.device)
        ks = ember.arange(k, device=X.device)
        unit = w is None
    for s, e in row_blocks(n, k):
        Xb = X[s:e]
        d = Xb @ Ct2
        d += cc[None, :]
        lab = ember.argmin(d, axis=1)
        labels[s:e] = lab
        if update:
            oh = (lab[:, None] == ks[None, :]).astype(X.dtype)
            if not unit:
                oh *= w[s:e, None]
            sums += oh.T @ Xb
    if update:
        # Weights a cluster: one pass over n, not over the n x k one-hot.
        wsum = ember.bincount(labels, weights=w, minlength=k).astype(X.dtype)
    return labels, sums, wsum


def inertia(X, C, labels, w):
    """sum_i w_i ||x_i - c_{label_i}||^2, computed from the differences
    (not from the GEMM expansion) so float32 keeps its digits; on cpu one
    host kernel (_lloyd.inertia_host), in float64."""
    fast = _lloyd.inertia_host(X, C, labels, w)
    if fast is not None:
        return fast
    tot = None
    for s, e in row_blocks(X.shape[0], X.shape[1]):
        diff = X[s:e] - ember.take(C, labels[s:e], axis=0)
        part = ((diff * diff).sum(axis=1) * w[s:e]).sum()
        tot = part if tot is None else tot + part
    return tot


def relocate_empty(X, w, C_old, labels, sums, wsum, n_empty):
    """scikit-learn's rule: each empty cluster takes one of the points
    farthest from their centers, which leaves its old cluster."""
    dist = ((X - ember.take(C_old, labels, axis=0)) ** 2).sum(axis=1)
    _, far = ember.parallel.top_k(dist, n_empty)
    empty = ember.nonzero(wsum == 0)[0]
    # The loop is over empty clusters (at most k), never over samples.
    for j in range(n_empty):
        e = empty[j:j + 1]
        f = far[j:j + 1]
        xf = ember.take(X, f, axis=0) * ember.take(w, f)[:, None]
        old = ember.take(labels, f)
        sums[old] = ember.take(sums, old, axis=0) - xf
        sums[e] = xf
        wf = ember.take(w, f)
        wsum[old] = ember.take(wsum, old) - wf
        wsum[e] = wf
    return sums, wsum


def centers_from(sums, wsum, C_old):
    safe = ember.where(wsum > 0, wsum, 1)
    return ember.where((wsum > 0)[:, None], sums / safe[:, None], C_old)


def lloyd(X, w, C, max_iter, tol, unit=False, tick=None):
    """Lloyd's iterations as scikit-learn's lloyd: stop when the labels do
    not change (strict convergence) or the squared center shift is <= tol.
    One host sync per iteration (the three stopping figures together);
    tick() after each (a progress bar's update). The iterations are
    _lloyd's kernels where they apply, else the composition below."""
    if _lloyd.applies(X, C):
        return _lloyd_kernels(X, w, C, max_iter, tol, unit, tick)
    labels_old = None
    strict = False
    it = 0
    for it in range(max_iter):
        labels, sums, wsum = assign(X, C, None if unit else w, update=True)
        changed = (ember.asarray(1, device=X.device) if labels_old is None
                   else (labels != labels_old).any().astype(ember.int64))
        C_new = centers_from(sums, wsum, C)
        shift = ((C_new - C) ** 2).sum()
        figs = ember.asnumpy(ember.stack([(wsum == 0).sum().astype(ember.float64),
                                          shift.astype(ember.float64),
                                          changed.astype(ember.float64)]))
        n_empty = int(figs[0])
        if n_empty:
            sums, wsum = relocate_empty(X, w, C, labels, sums, wsum, n_empty)
            C_new = centers_from(sums, wsum, C)
            figs[1] = float(((C_new - C) ** 2).sum())
        C = C_new
        labels_old = labels
        if tick is not None:
            tick()
        if not figs[2]:
            strict = True
            break
        if figs[1] <= tol:
            break
    if not strict:
        labels, _, _ = assign(X, C)
    return labels, C, it + 1


def _lloyd_kernels(X, w, C, max_iter, tol, unit, tick):
    """lloyd through _lloyd.Lloyd: the same stopping rules and relocation,
    a few launches and one read of three figures an iteration."""
    L = _lloyd.Lloyd(X, None if unit else w, C.shape[0])
    C = ember.ascontiguousarray(C.astype(X.dtype))
    strict = False
    it = 0
    for it in range(max_iter):
        C_new, n_empty, shift, moved = L.step(C, it > 0)
        if n_empty:
            sums, wsum = L.sums()
            sums, wsum = relocate_empty(X, w, C, L.labels, sums, wsum, n_empty)
            C_new = ember.ascontiguousarray(centers_from(sums, wsum, C))
            shift = float(((C_new - C) ** 2).sum())
        C = C_new
        L.swap()
        if tick is not None:
            tick()
        if not moved:
            strict = True
            break
        if shift <= tol:
            break
    # after swap() old holds the last labels; without strict convergence
    # the labels are recomputed against the final centers, as scikit-learn
    labels = L.old if strict else L.labels_only(C)
    return labels, C, it + 1


def tolerance(X, tol):
    """scikit-learn's tol is relative to the mean variance of the features."""
    if tol == 0:
        return 0.0
    return float(ember.var(X, axis=0).mean()) * tol


def as_host_float(x):
    return float(np.asarray(ember.asnumpy(x)))
