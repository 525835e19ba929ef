"""MiniBatchKMeans: scikit-learn's mini-batch k-means over ember arrays
(random batches with replacement, per-center learning rates from the
accumulated weights, early stop on the smoothed batch inertia, random
reassignment of small centers)."""
import math

import numpy as np

import ember
from ember._progress import progress
from ember.ml import _validation as V
from ember.ml._random import check_random_state, numpy_random_state
from ember.ml.cluster import _kmeans_steps as S
from ember.ml.cluster._common import sample_weight_of, sq_norms
from ember.ml.cluster._kmeans import _KMeansBase


def _rng(random_state, device):
    """scikit-learn's RandomState for random_state (its draws, in its
    order: the validation rows, each seeding's subset and centers, each
    batch, each reassignment), or an ember Generator's own stream."""
    rng = numpy_random_state(random_state)
    return check_random_state(random_state, device) if rng is None else rng


def _ints(rng, n, size):
    """size indices in [0, n) with replacement: RandomState.randint as
    scikit-learn draws them, or the Generator's integers."""
    if isinstance(rng, np.random.RandomState):
        return rng.randint(0, n, size)
    return rng.integers(0, n, size)


class MiniBatchKMeans(_KMeansBase):
    """Mini-batch k-means (scikit-learn's MiniBatchKMeans)."""

    def __init__(self, n_clusters=8, *, init="k-means++", max_iter=100, batch_size=1024,
                 verbose=0, compute_labels=True, random_state=None, tol=0.0,
                 max_no_improvement=10, init_size=None, n_init="auto",
                 reassignment_ratio=0.01):
        self.n_clusters = n_clusters
        self.init = init
        self.max_iter = max_iter
        self.batch_size = batch_size
        self.verbose = verbose
        self.compute_labels = compute_labels
        self.random_state = random_state
        self.tol = tol
        self.max_no_improvement = max_no_improvement
        self.init_size = init_size
        self.n_init = n_init
        self.reassignment_ratio = reassignment_ratio

    def __getstate__(self):
        # The generator stays behind; a restored model draws afresh.
        state = super().__getstate__()
        state.pop("_rng", None)
        return state

    def _check(self, X):
        n_init = self._check_common(X, auto_random=3)
        V.check_scalar(self.batch_size, "batch_size", V.Integral, min_val=1, est=self)
        V.check_scalar(self.reassignment_ratio, "reassignment_ratio", V.Real, min_val=0,
                       est=self)
        if self.max_no_improvement is not None:
            V.check_scalar(self.max_no_improvement, "max_no_improvement", V.Integral,
                           min_val=0, est=self)
        if self.init_size is not None:
            V.check_scalar(self.init_size, "init_size", V.Integral, min_val=1, est=self)
        n, k = X.shape[0], self.n_clusters
        self._batch_size = min(self.batch_size, n)
        init_size = self.init_size if self.init_size is not None else 3 * self._batch_size
        if init_size < k:
            init_size = 3 * k
        self._init_size = min(init_size, n)
        return n_init

    def _seed(self, X, w, rng):
        """Centers from init on a random subset of init_size rows."""
        n = X.shape[0]
        if self._init_size < n:
            idx = ember.asarray(_ints(rng, n, self._init_size),
                                device=X.device).astype(ember.int64)
            X, w = ember.take(X, idx, axis=0), ember.take(w, idx)
        C = self._init_centers(X, sq_norms(X), w, rng)
        return C.astype(X.dtype), X, w

    def _step(self, Xb, wb, rng, any_empty=None):
        """One mini-batch update of the centers; returns the batch's inertia
        on the centers it started from and the squared center shift, on the
        device. any_empty: whether a center had no weight yet, when the
        caller read it already (else it is read here)."""
        C, counts = self._C, self._counts
        labels, sums, wsum = S.assign(Xb, C, wb, update=True)
        batch_inertia = S.inertia(Xb, C, labels, wb)
        tot = counts + wsum
        safe = ember.where(tot > 0, tot, 1)
        C_new = ember.where((wsum > 0)[:, None],
                            (C * counts[:, None] + sums) / safe[:, None], C)
        if any_empty is None:
            any_empty = bool((counts == 0).any())
        counts = tot
        self._n_since_last_reassign += self._batch_size
        if self.reassignment_ratio > 0 and (
                self._n_since_last_reassign >= 10 * self.n_clusters or any_empty):
            self._n_since_last_reassign = 0
            C_new, counts = self._reassign(Xb, wb, C_new, counts, rng)
        shift = ((C_new - C) ** 2).sum()
        self._C, self._counts = C_new, counts
        return batch_inertia, shift

    def _reassign(self, Xb, wb, C, counts, rng):
        # Centers with little weight move to batch points drawn uniformly
        # (scikit-learn 1.9's choice), at most half the batch of them.
        low = counts < self.reassignment_ratio * counts.max()
        cap = int(0.5 * Xb.shape[0])
        n_low = int(low.sum())
        if n_low > cap:
            keep = ember.argsort(counts)[cap:]
            low[keep] = False
            n_low = cap
        if n_low == 0:
            return C, counts
        pick = rng.choice(Xb.shape[0], size=n_low, replace=False)
        pick = ember.asarray(pick, device=Xb.device).astype(ember.int64)
        where = ember.nonzero(low)[0]
        C = C.copy()
        C[where] = ember.take(Xb, pick, axis=0)
        floor = ember.where(low, ember.asarray(float("inf"), dtype=counts.dtype,
                                               device=counts.device), counts).min()
        counts = ember.where(low, floor, counts)
        return C, counts

    def fit(self, X, y=None, sample_weight=None):
        X, _ = self._fit_input(X)
        n_init = self._check(X)
        w = sample_weight_of(sample_weight, X)
        rng = _rng(self.random_state, X.device)
        n, k = X.shape[0], self.n_clusters
        vidx = ember.asarray(_ints(rng, n, self._init_size),
                             device=X.device).astype(ember.int64)
        Xv, wv = ember.take(X, vidx, axis=0), ember.take(w, vidx)
        best = None
        for _ in range(n_init):
            C, _, _ = self._seed(X, w, rng)
            labels = S.assign(Xv, C)[0]
            inert = S.as_host_float(S.inertia(Xv, C, labels, wv))
            if best is None or inert < best[0]:
                best = (inert, C)
        self._C = best[1]
        self._counts = ember.zeros(k, dtype=X.dtype, device=X.device)
        self._n_since_last_reassign = 0
        tol = S.tolerance(X, self.tol)
        bs = self._batch_size
        n_steps = (self.max_iter * n) // bs
        ewa = ewa_min = None
        no_improve = 0
        alpha = min(bs * 2.0 / (n + 1), 1.0)
        i = -1
        any_empty = None
        # batches are drawn in proportion to the weights and then count
        # as unit weights, as scikit-learn 1.9 draws them (NumPy's
        # choice(n, bs, p=w / w.sum()): one uniform a row placed in the
        # normalised float64 cumulative weights, here on the device)
        p = (w / w.sum()).astype(ember.float64)
        cdf = ember.cumsum(p)
        cdf = cdf / cdf[-1]
        unit = ember.ones(bs, dtype=X.dtype, device=X.device)
        with progress(n_steps, "MiniBatchKMeans.fit", "step") as bar:
            for i in range(n_steps):
                u = ember.asarray(np.asarray(rng.uniform(size=bs), dtype=np.float64),
                                  device=X.device)
                idx = ember.minimum(ember.searchsorted(cdf, u, side="right"), n - 1)
                binert, shift = self._step(ember.take(X, idx, axis=0), unit, rng, any_empty)
                # One read a step: the batch inertia, the shift and whether a
                # center still has no weight (for the next step's reassignment).
                empty = (self._counts == 0).any()
                figs = ember.asnumpy(ember.stack([binert.astype(ember.float64),
                                                  shift.astype(ember.float64),
                                                  empty.astype(ember.float64)]))
                any_empty = bool(figs[2])
                bar.update()
                if i == 0:
                    continue  # the first batch measures the seeding, not a step
                bi = figs[0] / bs
                ewa = bi if ewa is None else ewa * (1 - alpha) + bi * alpha
                if tol > 0 and figs[1] <= tol:
                    break
                if ewa_min is None or ewa < ewa_min:
                    no_improve, ewa_min = 0, ewa
                else:
                    no_improve += 1
                if self.max_no_improvement is not None and no_improve >= self.max_no_improvement:
                    break
        self._finish(X, w)
        self.n_steps_ = i + 1
        self.n_iter_ = int(math.ceil((i + 1) * bs / n))
        return self

    def _finish(self, X, w):
        self.cluster_centers_ = self._C
        self._n_features_out = self.n_clusters
        if self.compute_labels:
            labels = S.assign(X, self._C)[0]
            self.labels_ = labels.astype(ember.int32)
            self.inertia_ = S.as_host_float(S.inertia(X, self._C, labels, w))

    def partial_fit(self, X, y=None, sample_weight=None):
        """One mini-batch step on X (the first call also seeds the centers
        from X)."""
        first = "cluster_centers_" not in self.__dict__
        X, _ = self._fit_input(X, reset=first) if first else (self._predict_input(X), None)
        self._check(X) if first else None
        w = sample_weight_of(sample_weight, X)
        if first or "_rng" not in self.__dict__:
            self._rng = _rng(self.random_state, X.device)
        if first:
            self._C, _, _ = self._seed(X, w, self._rng)
            self._counts = ember.zeros(self.n_clusters, dtype=X.dtype, device=X.device)
            self._n_since_last_reassign = 0
            self.n_steps_ = 0
        else:
            self._C = self._dev("cluster_centers_").astype(X.dtype)
        self._step(X, w, self._rng)
        self._finish(X, w)
        self.n_steps_ += 1
        return self
