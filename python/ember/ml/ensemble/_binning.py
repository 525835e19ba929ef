"""Feature binning for histogram-based trees: each feature's thresholds
are midpoints between distinct values of a sample of rows, at most
max_bins - 1 of them, so a feature with few distinct values keeps every
split scikit-learn's exact search would consider."""
import ember


def edges(X, max_bins, rng, sample=200_000, side="right"):
    """(E, counts): E is p x (max_bins - 1), each row's thresholds ascending
    and padded with +inf; counts[f] the real thresholds of feature f. For
    side='left' (x <= threshold goes left, scikit-learn's trees) a midpoint
    that rounds up to the larger of its two values becomes the smaller one,
    as scikit-learn's splitter does, so the two stay apart."""
    import numpy as np
    n, p = X.shape
    if n > sample:
        rows = rng.integers(0, n, sample)
        S = ember.take(X, rows, axis=0)
    else:
        S = X
    S = ember.sort(S, axis=0)
    m = max_bins - 1
    # candidate cut positions at the sample's quantiles; a cut between two
    # equal values is dropped, so heavy ties cost bins, not correctness
    pos = np.unique(np.linspace(1, S.shape[0] - 1, min(m, S.shape[0] - 1)).round()
                    .astype(np.int64)) if S.shape[0] > 1 else np.zeros(0, np.int64)
    Sh = ember.asnumpy(S)   # the sample is small: its cuts are chosen on the host
    E = np.full((p, m), np.inf, dtype=Sh.dtype)
    counts = np.zeros(p, dtype=np.int64)
    for f in range(p):
        col = Sh[:, f]
        distinct = np.unique(col)
        if len(distinct) - 1 <= m:
            lo, hi = distinct[:-1], distinct[1:]
        else:
            lo, hi = col[pos - 1], col[pos]
            keep = lo < hi
            lo, hi = lo[keep], hi[keep]
        cuts = lo / 2 + hi / 2
        if side == "left":
            cuts = np.where(cuts >= hi, lo, cuts)
        cuts = np.unique(cuts)
        E[f, :len(cuts)] = cuts
        counts[f] = len(cuts)
    return E, counts


def transform(X, E, side="right"):
    """X binned: column f is the number of f's thresholds at or below x
    (side='right'; below x for side='left'), as uint8 (max_bins <= 256). A
    value below every threshold is bin 0."""
    p = X.shape[1]
    Ed = ember.asarray(E, device=X.device).astype(X.dtype)
    cols = [ember.searchsorted(Ed[f], X[:, f], side=side).astype(ember.uint8)
            for f in range(p)]
    return ember.ascontiguousarray(ember.stack(cols, axis=1))
