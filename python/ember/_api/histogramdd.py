"""histogramdd: NumPy's multidimensional histogram, composed from
searchsorted per dimension, ravel_multi_index and one bincount."""
import builtins
import operator

from ember import _ember as _e
from ember._api.selection import where
from ember._api._util import as_array, device_of
from ember._api.histograms import bincount
from ember._api.indexing import ravel_multi_index
from ember._api.ranges import linspace


def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    dev = device_of(sample, weights)
    if isinstance(sample, (list, tuple)) and sample and (
            isinstance(sample[0], _e.ndarray) or hasattr(sample[0], "__len__")):
        # A sequence of D 1-d coordinate arrays, as NumPy takes it.
        s = _e.stack([as_array(c, dev) for c in sample], axis=1)
    else:
        s = as_array(sample, dev)
        if s.ndim == 1:
            s = s.reshape(-1, 1)
    if s.ndim != 2:
        raise ValueError(f"sample must be (N, D) or a sequence of D arrays (got "
                         f"shape {s.shape})")
    N, D = s.shape
    if isinstance(bins, (list, tuple)) or (isinstance(bins, _e.ndarray) and bins.ndim):
        if len(bins) != D:
            raise ValueError("The dimension of bins must be equal to the dimension "
                             "of the sample x.")
        bins = list(bins)
    else:
        bins = [bins] * D
    if range is None:
        range = [None] * D
    elif len(range) != D:
        raise ValueError("range argument must have one entry per dimension")
    edges = []
    for i in builtins.range(D):
        b = bins[i]
        if isinstance(b, _e.ndarray) or isinstance(b, (list, tuple)):
            e = as_array(b, s.device)
            if e.ndim != 1:
                raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")
            if e.size > 1 and bool(_e.any(e[1:] < e[:-1])):
                raise ValueError(f"`bins[{i}]` must be monotonically increasing, "
                                 "when an array")
            edges.append(e)         # NumPy returns given edges as they are
            continue
        try:
            nb = operator.index(b)
        except TypeError:
            raise TypeError(f"`bins[{i}]` must be an integer, when a scalar") from None
        if nb < 1:
            raise ValueError(f"`bins[{i}]` must be positive, when an integer")
        if range[i] is None:
            col = s[:, i]
            if N == 0:
                lo, hi = 0.0, 1.0
            else:
                lo, hi = float(_e.min(col)), float(_e.max(col))
        else:
            lo, hi = (float(v) for v in range[i])
            if lo > hi:
                raise ValueError(f"max must be larger than min in range parameter "
                                 f"(range[{i}] = {range[i]})")
        if not (abs(lo) < float("inf") and abs(hi) < float("inf")):
            raise ValueError(f"supplied range of [{lo}, {hi}] is not finite")
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        edges.append(linspace(lo, hi, nb + 1, device=s.device))
    nbin = tuple(e.size + 1 for e in edges)      # plus the two outlier bins
    counts = []
    for i, e in enumerate(edges):
        col = s[:, i]
        c = _e.searchsorted(e, col, side="right")
        # Values on the last edge belong to the last bin, as in NumPy.
        c = where(col == e[-1], c - 1, c)
        counts.append(c)
    total = 1
    for n in nbin:
        total *= n
    if N:
        xy = ravel_multi_index(counts, nbin)
        w = None if weights is None else as_array(weights, s.device)
        hist = bincount(xy, weights=w, minlength=total)
    else:
        hist = _e.zeros((total,), dtype=_e.int64, device=s.device)
    hist = hist.reshape(nbin).astype(_e.float64)
    hist = hist[(slice(1, -1),) * D]
    if density:
        tot = _e.sum(hist)
        for i, e in enumerate(edges):
            shape = [1] * D
            shape[i] = e.size - 1
            hist = hist / (e[1:] - e[:-1]).reshape(shape)
        hist = hist / tot
    return hist, edges


