"""scipy.linalg.bandwidth: how far the nonzeros of a matrix (or of each
matrix in a batch, SciPy 1.17's batching) reach below and above the
diagonal, as one masked max over the index-difference grid on the
array's device."""
import ember as _e
from ember.scipy._linalg_common import arr

__all__ = ["bandwidth"]


def bandwidth(a):
    """(lower, upper) bandwidth of a: the largest i - j and j - i over the
    nonzero a[i, j] (0 where there is none), as Python ints; for a batch
    (..., m, n) two int64 arrays of the batch's shape, in a list as
    SciPy's batching returns them. NaN counts as nonzero. SciPy's
    ValueError below 2 dimensions and for a batch of size 0, its
    TypeError for float16 (and dtypes it has no loop for)."""
    a = arr(a)
    if a.ndim < 2:
        raise ValueError("Input array must be a 2D NumPy array (or a batch "
                         f"of them); got shape {tuple(a.shape)}")
    dt = a.dtype
    if dt.kind not in "biufc" or (dt.kind == "f" and dt.itemsize < 4):
        raise TypeError(f"No matching signature found for dtype {dt.name}: "
                        "bandwidth takes bool, integers, float32/64 and "
                        "complex64/128")
    batch, (m, n) = tuple(a.shape[:-2]), a.shape[-2:]
    if batch and 0 in batch:
        raise ValueError("`bandwidth` does not support zero-size batches "
                         f"(got shape {tuple(a.shape)})")
    if m == 0 or n == 0:
        if not batch:
            return 0, 0
        z = _e.zeros(batch, dtype=_e.int64, device=a.device)
        return [z, z.copy()]
    i = _e.arange(m, dtype=_e.int64, device=a.device)[:, None]
    j = _e.arange(n, dtype=_e.int64, device=a.device)[None, :]
    # the grid holds 0 on the diagonal, so each max is at least 0
    nz = a != 0
    lower = _e.max(_e.where(nz, i - j, 0), axis=(-2, -1))
    upper = _e.max(_e.where(nz, j - i, 0), axis=(-2, -1))
    if not batch:
        return int(lower), int(upper)
    return [lower, upper]
