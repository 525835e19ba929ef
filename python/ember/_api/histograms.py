"""NumPy's histogram, histogram_bin_edges, histogram2d, bincount and
digitize: their signatures and NumPy's readings of `bins` and `range`
here; the counting in the C core (src/algo/histogram*.c), reached through
the extension's narrow entries `_histogram`, `_hist_edges`,
`_hist_bin_count`, `_histogram2d`, `_bincount` and `_digitize`."""
import operator

from ember import _ember as _e

# NumPy's bin-width estimators, for a string `bins`.
_ESTIMATORS = frozenset(
    ("stone", "auto", "doane", "fd", "rice", "scott", "sqrt", "sturges"))


def _array(o, device=None):
    if isinstance(o, _e.ndarray):
        return o
    return _e.asarray(o, device=device)


def _beside(a, o, fn, an, on):
    """o as an array on a's device; an ember array elsewhere is NumPy's
    kind of ValueError, naming both (ember never copies silently)."""
    b = _array(o, a.device)
    if b.device != a.device:
        raise ValueError(f"{fn}: {on} is on {b.device} but {an} on "
                         f"{a.device} (ember does not copy between devices "
                         f"implicitly)")
    return b


def _real(v):
    # float() would parse strings; a range's ends must be numbers.
    if isinstance(v, (str, bytes, bytearray)):
        raise TypeError(f"must be real number, not {type(v).__name__}")
    return float(v)


def _sequence(o, what):
    """o's items as a list or tuple (any iterable is read once); else a
    TypeError saying what o must be."""
    if isinstance(o, (list, tuple)):
        return o
    try:
        return list(o)
    except TypeError:
        raise TypeError(what) from None


def _range(r):
    """range=(lo, hi) or None as (has_range, lo, hi)."""
    if r is None:
        return False, 0.0, 0.0
    r = _sequence(r, "range must be a pair (min, max)")
    if len(r) != 2:
        raise ValueError("range must be a pair (min, max)")
    return True, _real(r[0]), _real(r[1])


def _is_count(o):
    """An int-like scalar (a bin count), not an array of edges: arrays
    have __index__ too, but only integer scalars count."""
    if isinstance(o, _e.ndarray):
        return o.ndim == 0 and o.dtype.kind != "f"
    return isinstance(o, int) or (hasattr(type(o), "__index__")
                                  and not hasattr(type(o), "__len__"))


def _bins(a, bins, range, weighted):
    """NumPy's reading of histogram's bins: (edges, count, range) with
    edges an array or None (then count equal bins over range)."""
    if isinstance(bins, str):
        if bins not in _ESTIMATORS:
            raise ValueError(f"{bins!r} is not a valid estimator for `bins`")
        if weighted:
            raise TypeError("Automated estimation of the number of bins is "
                            "not supported for weighted data")
        rng = _range(range)
        return None, _e._hist_bin_count(a, bins, *rng), rng
    if _is_count(bins):
        return None, operator.index(bins), _range(range)
    e = _beside(a, bins, "histogram", "a", "bins")
    if e.ndim != 1:
        raise ValueError("`bins` must be 1d, when an array")
    return e, 0, (False, 0.0, 0.0)


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    a = _array(a)
    edges, count, rng = _bins(a, bins, range, weights is not None)
    return edges if edges is not None else _e._hist_edges(a, count, *rng)


def histogram(a, bins=10, range=None, density=None, weights=None):
    density = density is not None and bool(density)
    a = _array(a)
    w = None if weights is None else _beside(a, weights, "histogram", "a",
                                              "weights")
    edges, count, rng = _bins(a, bins, range, w is not None)
    hist, edges = _e._histogram(a, w, edges, count, *rng, density)
    # NumPy sums weights in their own dtype.
    if (not density and w is not None and w.dtype.kind not in "bc"
            and w.dtype != _e.float64):
        hist = hist.astype(w.dtype)
    return hist, edges


def _axis(x, b, r, i):
    """histogram2d's bins[i] and range[i] as the C entry's (edges, count,
    has_range, lo, hi)."""
    rng = _range(r)
    if _is_count(b):
        return (None, operator.index(b)) + rng
    if isinstance(b, float) or (isinstance(b, _e.ndarray) and b.ndim == 0):
        raise TypeError(f"histogram2d: `bins[{i}]` must be an integer or an "
                        f"array of edges, not {b!r}")
    return (_beside(x, b, "histogram2d", "x", "bins"), 0) + rng


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    density = density is not None and bool(density)
    x = _array(x)
    y = _beside(x, y, "histogram2d", "x", "y")
    w = None if weights is None else _beside(x, weights, "histogram2d", "x",
                                              "weights")
    # a count for both, a pair (each a count or edges), or one array of
    # edges for both
    if _is_count(bins):
        b = (bins, bins)
    elif isinstance(bins, str):
        raise ValueError(f"histogram2d: bins={bins!r}: bin-width estimators "
                         f"are for histogram only")
    else:
        nb = len(bins)
        if nb == 1:
            raise ValueError("The dimension of bins must be equal to the "
                             "dimension of the sample x.")
        b = (bins[0], bins[1]) if nb == 2 else (bins, bins)
    r = (None, None)
    if range is not None:
        range = _sequence(range, "range must be a pair of pairs")
        if len(range) != 2:
            raise ValueError("histogram2d: range must be [[xmin, xmax], "
                             "[ymin, ymax]]")
        r = range
    axes = [_axis(x, b[i], r[i], i) for i in (0, 1)]
    return _e._histogram2d(x, y, w, axes[0], axes[1], density)


def bincount(x, weights=None, minlength=0):
    x = _array(x)
    w = None if weights is None else _beside(x, weights, "bincount", "x",
                                              "weights")
    return _e._bincount(x, w, minlength)


def digitize(x, bins, right=False):
    x = _array(x)
    return _e._digitize(x, _beside(x, bins, "digitize", "x", "bins"),
                        bool(right))
