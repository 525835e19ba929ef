"""What the clustering estimators share: row blocks that bound an n x m
distance matrix, seeding from random_state, sample weights, and connected
components by hooking and pointer jumping (DBSCAN's core graph and the
single-linkage forest)."""
import numbers

import ember
from ember.ml import _validation as V
from ember.ml.metrics import pairwise as _pairwise

# Elements of one block of distances: 2^24 (64 MiB in float32) keeps the
# intermediates of every step bounded whatever n is, and is large enough
# that a block is still one big GEMM on the GPU.
BLOCK_ELEMS = 1 << 24


def row_blocks(n, m, elems=None):
    """(start, stop) of row blocks of an n x m matrix, each <= elems
    (BLOCK_ELEMS, read at each call so tests can shrink it)."""
    b = max(1, min(n, (elems or BLOCK_ELEMS) // max(m, 1)))
    return [(s, min(n, s + b)) for s in range(0, n, b)]


# the squared norms and distance blocks are ember.ml.metrics.pairwise's, one
# implementation for the clustering and neighbour estimators
sq_norms = _pairwise.row_norms_sq
sq_dist_block = _pairwise.sq_euclidean_block


def sample_weight_of(sample_weight, X):
    """scikit-learn's _check_sample_weight: ones, a scalar broadcast, or a
    1-d array as long as X, in X's dtype on X's device."""
    n = X.shape[0]
    if sample_weight is None:
        return ember.ones(n, dtype=X.dtype, device=X.device)
    if isinstance(sample_weight, numbers.Number):
        return ember.full(n, sample_weight, dtype=X.dtype, device=X.device)
    w = V.column_or_1d(sample_weight, device=X.device, dtype=X.dtype,
                       input_name="sample_weight")
    if w.shape[0] != n:
        raise ValueError(f"sample_weight.shape == ({w.shape[0]},), expected ({n},)!")
    V._check_finite(w, "sample_weight")
    if not bool((w != 0).any()):
        raise ValueError("Sample weights must contain at least one non-zero number.")
    return w


def compress(parent):
    """Pointer jumping until every entry names its root."""
    while True:
        nxt = ember.take(parent, parent)
        if bool((nxt == parent).all()):
            return nxt
        parent = nxt


def scatter_min(a, idx, vals):
    """a[idx] = min(a[idx], vals) with repeated indices combined: a sort by
    index and a min by key on the device (ufunc.at works on the host)."""
    if idx.shape[0] == 0:
        return
    k, v = ember.parallel.radix_sort(idx, vals)
    uk, mv = ember.parallel.reduce_by_key(k, v, op="min")
    a[uk] = ember.minimum(ember.take(a, uk), mv)


def hook(parent, nodes, targets):
    """Hook the current parent of each node to a smaller target of its own
    component (parent[parent[i]] = min(., target)), keeping parent[x] <= x
    inside x's component, so the roots at the fixpoint are the components'
    smallest indices."""
    scatter_min(parent, ember.take(parent, nodes), targets)
    scatter_min(parent, nodes, targets)


def ranks_of_roots(parent, is_member):
    """Cluster ids 0, 1, ... numbered in the order of the roots' indices;
    -1 where is_member is False."""
    n = parent.shape[0]
    idx = ember.arange(n, device=parent.device)
    root = is_member & (parent == idx)
    ids = ember.cumsum(root.astype(ember.int64)) - 1
    return ember.where(is_member, ember.take(ids, parent), -1)
