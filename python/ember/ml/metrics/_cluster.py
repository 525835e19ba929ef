"""silhouette_samples and silhouette_score as scikit-learn's, a block of rows
at a time: each block's distances to every sample (b x n) times the
one-hot of the labels (n x k) give the block's per-cluster distance sums
in one matmul, so the n x n matrix never exists (docs/ml.md, "Neighbours
and distances")."""
import numbers

import ember
from ember.ml import _labels
from ember.ml import _validation as V
from ember.ml.metrics._base import out
from ember.ml.metrics.pairwise import (BLOCK, Prepared, resolve_metric, row_blocks,
                                          zero_self)

ONEHOT_MAX = BLOCK // 4


def _check(X, labels, metric, kwds):
    Xa = V.check_array(X, dtype=(ember.float64, ember.float32))
    classes, codes = _labels.encode(labels, Xa.device)
    n, k = Xa.shape[0], len(classes)
    if codes.shape[0] != n:
        raise ValueError("Found input variables with inconsistent numbers of "
                         f"samples: [{n}, {codes.shape[0]}]")
    if not 2 <= k <= n - 1:
        raise ValueError(f"Number of labels is {k}. Valid values are 2 to "
                         "n_samples - 1 (inclusive)")
    if metric == "precomputed":
        if Xa.shape[0] != Xa.shape[1]:
            raise ValueError(f"Precomputed matrix must be square. Input is a "
                             f"{Xa.shape[0]}x{Xa.shape[1]} matrix.")
        tol = 1e-5 if Xa.dtype == ember.float32 else 1e-10
        if bool((ember.abs(ember.diagonal(Xa)) > tol).any()):
            raise ValueError("The precomputed distance matrix contains non-zero "
                             "elements on the diagonal. Use np.fill_diagonal(X, 0).")
        m, p = "precomputed", None
    else:
        kw = dict(kwds)
        m, p = resolve_metric(metric, kw.pop("p", None), "silhouette_samples")
        if kw:
            raise NotImplementedError(f"silhouette: keyword arguments {sorted(kw)} "
                                      "are not supported")
    return Xa, codes, k, m, p


def _samples(Xa, codes, k, m, p):
    n = Xa.shape[0]
    dt = Xa.dtype
    ks = ember.arange(k, dtype=codes.dtype, device=codes.device).reshape(1, -1)
    # per-cluster sums by a matmul with the n x k one-hot while that is
    # small; with many clusters by a bincount over (row, cluster) keys, so
    # memory stays at the block's whatever k is
    onehot = (codes.reshape(-1, 1) == ks).astype(dt) if n * k <= ONEHOT_MAX else None
    counts = ember.bincount(codes, minlength=k).astype(dt)
    prep = Prepared(Xa, m, p)
    parts = []
    for s in row_blocks(n, n + k):
        c = codes[s]
        D = zero_self(prep.block(Xa[s]), s.start, m)
        if onehot is not None:
            sums = D @ onehot
        else:
            nb = s.stop - s.start
            key = codes.reshape(1, -1) + ember.arange(
                0, nb * k, k, dtype=codes.dtype, device=codes.device).reshape(-1, 1)
            sums = ember.bincount(key.reshape(-1), weights=D.reshape(-1),
                                  minlength=nb * k).reshape(nb, k).astype(dt)
        own = ember.take_along_axis(sums, c.reshape(-1, 1), axis=1).reshape(-1)
        size = ember.take(counts, c)
        a = own / (size - 1)
        mean = sums / counts.reshape(1, -1)
        mine = c.reshape(-1, 1) == ks
        b = ember.where(mine, ember.full_like(mean, float("inf")), mean).min(axis=1)
        sil = (b - a) / ember.maximum(a, b)
        # singletons (a = 0/0) and all-zero distances are 0, as scikit-learn's
        # nan_to_num
        parts.append(ember.where(ember.isfinite(sil), sil, ember.zeros_like(sil)))
    return parts[0] if len(parts) == 1 else ember.concatenate(parts)


def silhouette_samples(X, labels, *, metric="euclidean", **kwds):
    """The silhouette coefficient of each sample."""
    Xa, codes, k, m, p = _check(X, labels, metric, kwds)
    return out(_samples(Xa, codes, k, m, p), X)


def silhouette_score(X, labels, *, metric="euclidean", sample_size=None,
                     random_state=None, **kwds):
    """The mean silhouette coefficient (of a random subset of sample_size
    samples when given: scikit-learn's subset for the same random_state)."""
    if sample_size is not None:
        V.check_scalar(sample_size, "sample_size", numbers.Integral, min_val=1)
        Xa = V.check_array(X, dtype=(ember.float64, ember.float32))
        from ember.ml._random import check_random_state, numpy_random_state
        # scikit-learn's subset for the same random_state (its permutation
        # of the n row indices, drawn on the host); an ember Generator
        # draws its own
        rng = numpy_random_state(random_state) or check_random_state(random_state)
        idx = rng.permutation(Xa.shape[0])[:sample_size]
        idx = ember.asarray(idx, device=Xa.device)
        X = ember.take(Xa, idx, axis=0)
        if metric == "precomputed":
            X = ember.take(X, idx, axis=1)
        lab = labels
        if isinstance(lab, ember.ndarray) or (type(lab).__module__ or "").startswith(
                "ember.frame"):
            lab = ember.take(V.column_or_1d(lab, device=Xa.device), idx)
        else:
            import numpy as np
            lab = np.asarray(lab)[ember.asnumpy(idx)]
        labels = lab
    Xa, codes, k, m, p = _check(X, labels, metric, kwds)
    return float(_samples(Xa, codes, k, m, p).mean())


__all__ = ["silhouette_samples", "silhouette_score"]
