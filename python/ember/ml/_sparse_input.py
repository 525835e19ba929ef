"""Sparse X for the estimators that scikit-learn lets take it: ember.ml
computes on dense arrays, so a SciPy or ember.scipy.sparse matrix is made
dense on the target device first, as cuML does for several of its
estimators. The results are scikit-learn's, which gives a sparse X the same
answer as its dense form. A matrix whose dense form would not fit is a
TypeError naming the size, not a slow swap or an out-of-memory halfway
through a fit (docs/ml.md, "Sparse input")."""
import math

import ember

# The largest dense form made without being asked: beyond it a fit would
# spend most of the device's memory (or time) on zeros.
DENSE_LIMIT = 2 << 30
# ... and at most this share of the device's free memory.
FREE_SHARE = 0.5


def is_sparse(X):
    """A SciPy sparse matrix or array, or an ember.scipy.sparse one."""
    mod = type(X).__module__ or ""
    if mod.startswith("scipy.sparse"):
        return hasattr(X, "tocoo")
    if mod.startswith("ember.scipy"):
        from ember.scipy import sparse
        return sparse.issparse(X)
    return False


def _limit(device):
    try:
        free = int(device.mem_info[0])
    except Exception:  # a device that cannot say: the fixed limit alone
        return DENSE_LIMIT
    return min(DENSE_LIMIT, int(free * FREE_SHARE))


def _as_ember_coo(X, device):
    """X's stored entries, duplicates summed, as an ember COO on device (an
    ember matrix on another device is the ValueError a dense one gets)."""
    from ember.scipy import sparse
    if sparse.issparse(X):
        if device is not None and X.device != device:
            raise ValueError(f"input is on {X.device} but the estimator was fitted "
                             f"on {device}; move it with ember.asarray(x, device=...)")
        # a copy: summing duplicates must not rewrite the caller's matrix
        m = sparse.csr_matrix(X).copy()
        m.sum_duplicates()
    else:
        m = sparse.csr_matrix(X, device=device)
    return m.tocoo()


def densify(X, device=None, fill=0.0):
    """X (sparse) as a dense ember array on `device` (ember's current device
    when None), entries not stored set to `fill` (a precomputed neighbours
    graph leaves out the far pairs: fill=inf). A TypeError when the dense
    form is over the limit."""
    dev = device if device is not None else (
        X.device if hasattr(X, "device") and not isinstance(X.device, str)
        else ember.get_device())
    shape = tuple(int(s) for s in X.shape)
    kind = ember.dtype(str(X.dtype)).kind
    item = ember.dtype(str(X.dtype)).itemsize if kind == "f" else 8
    need = math.prod(shape) * item
    lim = _limit(dev)
    if need > lim:
        raise TypeError(
            f"A sparse matrix of shape {shape} ({X.dtype}) was passed; ember.ml works "
            f"on dense data and its dense form would take {need / 2**30:.2f} GiB, "
            f"over the {lim / 2**30:.2f} GiB ember.ml makes dense on {dev} "
            "(ember.ml._sparse_input.DENSE_LIMIT). Reduce the features or pass "
            "dense data.")
    coo = _as_ember_coo(X, dev)
    dt = coo.data.dtype
    if fill != 0 and dt.kind != "f":
        dt = ember.float64
    dense = ember.full(shape, fill, dtype=dt, device=dev)
    if coo.data.size:
        dense[coo.row, coo.col] = coo.data.astype(dt)
    return dense


def stored_per_row(X):
    """How many entries each row of sparse X stores (host ints; the check
    of a precomputed graph's rows, as scikit-learn makes it)."""
    import numpy as np
    from ember.scipy import sparse
    if sparse.issparse(X):
        indptr = ember.asnumpy(sparse.csr_matrix(X).indptr)
    else:
        indptr = X.tocsr().indptr
    return np.diff(np.asarray(indptr))
