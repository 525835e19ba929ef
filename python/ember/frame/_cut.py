"""cut and qcut: each value's bin is one searchsorted of the values on the
device against the bin edges; only the edges (a few numbers: the data's
min and max, or its quantiles) are read to the host, to check them and to
write the interval labels. The bins become a categorical's codes
(_categorical), with interval categories by default (_intervals)."""
import operator

import numpy as np

import ember
from ember.frame._column import Column


def _input(x):
    """(Column of x's values, the Series x is or None)."""
    from ember.frame._index import Index, RangeIndex
    from ember.frame.series import Series
    if isinstance(x, Series):
        return x._col, x
    if isinstance(x, RangeIndex):
        return Column("int64", ember.arange(x.start, x.stop, x.step, dtype="int64")), None
    if isinstance(x, Index):
        return x._col, None
    ndim = getattr(x, "ndim", None)
    if ndim is not None and ndim != 1:
        raise ValueError("Input array must be 1 dimensional")
    from ember.frame._convert import column_from
    return column_from(x), None


def _numbers(col, what):
    """(values to search: int64 or float64, null mask or None)."""
    d = col.dtype
    if d.is_categorical or d.is_string:
        raise TypeError(f"{what} takes numbers; got values of dtype {d.name}")
    if d.kind in "Mm":
        raise NotImplementedError(f"{what} of {d.name} values (pandas' datetime bins) "
                                  "is not supported by ember.frame; cut "
                                  ".astype('int64') of them")
    null = col.null_mask()
    v = col.values
    if d.kind == "b":   # pandas bins True/False as 1/0
        return v.astype("int64"), null
    if d.masked:   # pandas bins nullable numbers as float64 with NaN
        v = ember.where(null, float("nan"), v.astype("float64"))
    elif d.kind in "iu":
        v = v.astype("int64")
    else:
        v = v.astype("float64")
    return v, null


def _nbins(v, null, nbins, right):
    """nbins equal-width edges over the values' range, widened by 0.1% on
    the open side so that the extreme value falls in a bin."""
    if nbins < 1:
        raise ValueError("`bins` should be a positive integer.")
    if v.shape[0] == 0:
        raise ValueError("Cannot cut empty array")
    valid = v if null is None else v[~null]
    if valid.shape[0] == 0:   # all missing: NaN edges, which are not unique
        mn = mx = float("nan")
    else:
        cast = int if valid.dtype.kind == "i" else float
        mn, mx = cast(valid.min()), cast(valid.max())
    if mn in (float("inf"), float("-inf")) or mx in (float("inf"), float("-inf")):
        raise ValueError("cannot specify integer `bins` when input data contains infinity")
    if mn == mx:
        mn -= 0.001 * abs(mn) if mn != 0 else 0.001
        mx += 0.001 * abs(mx) if mx != 0 else 0.001
        return np.linspace(mn, mx, nbins + 1, endpoint=True)
    bins = np.linspace(mn, mx, nbins + 1, endpoint=True)
    adj = (mx - mn) * 0.001
    if right:
        bins[0] -= adj
    else:
        bins[-1] += adj
    return bins


def _given_bins(bins):
    if type(bins).__name__ == "IntervalIndex":
        raise NotImplementedError("cut with an IntervalIndex as bins is not supported "
                                  "by ember.frame; pass its edges (a sequence of "
                                  "numbers)")
    if isinstance(bins, ember.ndarray):
        bins = ember.asnumpy(bins)
    elif hasattr(bins, "to_numpy"):   # an ember or pandas Series/Index of edges
        bins = bins.to_numpy()
    b = np.asarray(bins)
    if b.ndim != 1 or b.dtype.kind not in "iufb":
        raise ValueError(f"bins must be a 1-dimensional sequence of numbers, got "
                         f"{b.dtype} of shape {b.shape}")
    b = b.astype(np.int64) if b.dtype.kind in "ub" else b
    if len(b) > 1 and not bool(np.all(b[1:] >= b[:-1])):
        raise ValueError("bins must increase monotonically.")
    return b


def _unique_edges(bins, duplicates):
    u = np.unique(bins)   # NaN edges count as one
    if len(u) < len(bins) and len(bins) != 2:
        if duplicates == "raise":
            shown = ", ".join(str(x) for x in bins.tolist())
            raise ValueError(f"Bin edges must be unique: Index([{shown}], "
                             f"dtype='{bins.dtype}').\nYou can drop duplicate edges "
                             "by setting the 'duplicates' kwarg")
        return u
    return bins


def _bin_codes(v, null, bins, right, include_lowest):
    """Each value's bin number, -1 outside every bin or missing."""
    n = len(bins)
    if v.shape[0] == 0:
        return ember.zeros(0, dtype="int64", device=v.device)
    if bins.dtype.kind == "f" and v.dtype.kind != "f":
        v = v.astype("float64")
    edges = ember.asarray(bins.astype(np.float64) if v.dtype.kind == "f" else bins,
                          device=v.device)
    # right-closed bins (a, b]: a value on an edge belongs to the bin left of it
    ids = ember.searchsorted(edges, v, side="left" if right else "right").astype("int64")
    if include_lowest:
        ids = ember.where(v == edges[0], 1, ids)
    out = (ids == 0) | (ids == n)
    if v.dtype.kind == "f":
        out = out | ember.isnan(v)
    if null is not None:
        out = out | null
    return ember.where(out, -1, ids - 1)


def _round_edge(x, precision):
    """An edge rounded to `precision` significant decimals after its
    leading zeros (0.0001234 -> 0.000123), as pandas labels intervals."""
    if not np.isfinite(x) or x == 0 or isinstance(x, np.integer):
        return x
    digits = precision if np.trunc(x) != 0 else \
        -int(np.floor(np.log10(abs(x)))) - 1 + precision
    return np.around(x, digits)


def _breaks(bins, precision, right, include_lowest):
    """The labels' edges: rounded as few digits as keep them distinct."""
    for p in range(precision, 20):
        rounded = [_round_edge(b, p) for b in bins]   # one per edge, not per row
        if len(np.unique(np.asarray(rounded))) == len(bins):
            precision = p
            break
    else:
        rounded = [_round_edge(b, precision) for b in bins]
    if right and include_lowest:
        # the lowest edge is in the first bin: show it just below
        rounded[0] = rounded[0] - 10 ** (-precision)
    return np.asarray(rounded)


def _labelled(codes, bins, labels, right, include_lowest, precision, ordered, device):
    """The categorical column of the bins' labels."""
    from ember.frame import _categorical, _intervals
    from ember.frame._dtypes import CategoricalDtype
    if labels is None:
        cats = _intervals.make(_breaks(bins, precision, right, include_lowest),
                               "right" if right else "left", device)
        return _categorical.make(codes, CategoricalDtype(cats, True))
    labels = list(labels)
    unique = len(set(labels)) == len(labels)
    if ordered and not unique:
        raise ValueError("labels must be unique if ordered=True; pass ordered=False "
                         "for duplicate labels")
    if len(labels) != len(bins) - 1:
        raise ValueError("Bin labels must be one fewer than the number of bin edges")
    from ember.frame._convert import column_from
    lab = column_from(labels, device=device)
    if unique:   # the labels are the categories, in their order
        return _categorical.make(codes, CategoricalDtype(lab, bool(ordered)))
    # repeated labels: pandas' categories are the distinct labels, sorted
    enc = _categorical.encode(lab, CategoricalDtype(None, bool(ordered)))
    per_bin = _categorical.codes_of(enc).astype("int64")
    if per_bin.shape[0]:
        codes = ember.where(codes < 0, -1, per_bin[ember.maximum(codes, 0)])
    return _categorical.make(codes, enc.dtype)


def _is_list_like(x):
    return not isinstance(x, (str, bytes)) and hasattr(x, "__iter__")


def _finish(col, series, v, null, bins, right, labels, retbins, precision,
            include_lowest, duplicates, ordered):
    if not ordered and labels is None:
        raise ValueError("'labels' must be provided if 'ordered = False'")
    if duplicates not in ("raise", "drop"):
        raise ValueError("invalid value for 'duplicates' parameter, valid options are: "
                         "raise, drop")
    bins = _unique_edges(bins, duplicates)
    if not (labels is None or labels is False or _is_list_like(labels)):
        raise ValueError("Bin labels must either be False, None or passed in as a "
                         "list-like argument")
    codes = _bin_codes(v, null, bins, right, include_lowest)
    dev = col.device
    if labels is False:
        missing = codes < 0
        # pandas: int bin numbers, float64 with NaN once one value is in none
        if codes.shape[0] and bool(missing.any()):
            out = Column("float64", ember.where(missing, float("nan"),
                                                codes.astype("float64")))
        else:
            out = Column("int64", codes)
    else:
        out = _labelled(codes, bins, labels, right, include_lowest, precision, ordered,
                        dev)
    if series is not None:
        from ember.frame.series import Series
        result = Series._make(out, series.index, series.name)
    elif labels is False:
        result = out.values
    else:   # pandas' Categorical: the device-held form of one is a CategoricalIndex
        from ember.frame._index import Index
        result = Index(out)
    if retbins:
        return result, ember.asarray(bins, device=dev)
    return result


def cut(x, bins, right=True, labels=None, retbins=False, precision=3,
        include_lowest=False, duplicates="raise", ordered=True):
    """pandas' cut of numbers into bins: an int (that many equal-width
    bins over the values' range) or a sequence of increasing edges. A
    Series gives a Series (same index and name), other input an Index
    (categorical) or, with labels=False, an ember array. The default labels
    are interval categories whose to_pandas() is pandas' IntervalIndex."""
    col, series = _input(x)
    v, null = _numbers(col, "cut")
    if _is_list_like(bins) or type(bins).__name__ == "IntervalIndex":
        edges = _given_bins(bins)
    else:
        edges = _nbins(v, null, operator.index(bins), right)
    return _finish(col, series, v, null, edges, right, labels, retbins, precision,
                   include_lowest, duplicates, ordered)


def _quantile_levels(q):
    if isinstance(q, (int, np.integer)) and not isinstance(q, bool):
        if q < 1:
            raise ValueError("`q` should be a positive integer.")
        levels = np.linspace(0, 1, q + 1)
        # a level like 1/3 that binary cannot hold rounds up, as pandas'
        inexact = q * levels != np.arange(q + 1)
        return np.where(inexact, np.nextafter(levels, 1), levels)
    if _is_list_like(q):
        levels = np.asarray(ember.asnumpy(q) if isinstance(q, ember.ndarray) else
                            list(q), dtype=np.float64)
        if bool(np.any((levels < 0) | (levels > 1))):
            raise ValueError("percentiles should all be in the interval [0, 1]")
        return levels
    raise ValueError("`q` should be a positive integer or list-like of quantiles.")


def qcut(x, q, labels=None, retbins=False, precision=3, duplicates="raise"):
    """pandas' qcut: bins at the quantiles (linear interpolation) of the
    values that are not missing, q of equal size or at the given levels;
    the lowest edge belongs to the first bin."""
    col, series = _input(x)
    v, null = _numbers(col, "qcut")
    levels = _quantile_levels(q)
    valid = v if null is None else v[~null]
    if valid.shape[0] == 0:
        edges = np.full(len(levels), np.nan)
    else:
        qs = ember.asarray(levels, device=valid.device)
        edges = ember.asnumpy(ember.quantile(valid.astype("float64"), qs))
    return _finish(col, series, v, null, edges, True, labels, retbins, precision,
                   True, duplicates, True)
