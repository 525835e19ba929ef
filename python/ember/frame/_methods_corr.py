"""Pearson (and Spearman: Pearson of ranks) correlation and covariance over pairwise complete rows:
one matrix product for all pairs when no column has a null, else one
pass of ember reductions for each pair of columns (c^2/2 pairs); the
small result matrix assembled on the host."""
import ember

from ember.frame._column import Column


def _numeric(col, name):
    d = col.dtype
    if d.kind not in "biuf" or d.is_categorical:
        raise ValueError(f"could not convert column {name!r} of dtype {d.name} to "
                         "float (use numeric_only=True)")
    nulls = col.null_mask()
    v = col.values.astype("float64")
    return v, (ember.ones(col.length, dtype="bool", device=col.device)
               if nulls is None else ~nulls)


def _ranked(v):
    from ember.frame._methods_col import rank
    return rank(Column("float64", v)).values


def _pair(x, okx, y, oky, how, min_periods, ddof, method="pearson"):
    import numpy as np
    both = okx & oky
    if not bool(both.all()):
        x, y = x[both], y[both]
    if method == "spearman":   # pearson of the ranks among complete rows
        x, y = _ranked(x), _ranked(y)
    n = x.shape[0]
    if n < max(min_periods, 1) or (how == "cov" and n - ddof <= 0) or \
            (how == "corr" and n < 2):
        return np.nan
    dx, dy = x - x.mean(), y - y.mean()
    sxy = float((dx * dy).sum())
    if how == "cov":
        return sxy / (n - ddof)
    sxx, syy = float((dx * dx).sum()), float((dy * dy).sum())
    den = np.sqrt(sxx * syy)
    if den == 0:
        return np.nan
    return max(-1.0, min(1.0, sxy / den))


def _pairs(data, how, min_periods, ddof, method):
    """Pairwise complete rows: each pair's own rows, one pair at a time."""
    import numpy as np
    m = len(data)
    out = np.full((m, m), np.nan)
    for i in range(m):
        for j in range(i, m):
            r = _pair(*data[i], *data[j], how, min_periods, ddof, method)
            if how == "corr" and i == j and r == r:
                r = 1.0
            out[i, j] = out[j, i] = r
    return out


def _gram(data, how, min_periods, ddof, method):
    """Every pair at once when no column has a null: the centred columns'
    Gram matrix from one product (pandas' matrix path), the m x m
    normalisation on the host."""
    import numpy as np
    m = len(data)
    if m == 0:
        return np.empty((0, 0))
    cols = [_ranked(v) if method == "spearman" else v for v, _ in data]
    x = ember.stack(cols, axis=1)
    n = x.shape[0]
    if n < max(min_periods, 1) or (how == "corr" and n < 2):
        return np.full((m, m), np.nan)
    xc = x - x.mean(axis=0)
    g = ember.asnumpy(ember.matmul(xc.T, xc))
    if how == "cov":   # ddof >= n divides by 0 (inf), as pandas' np.cov
        with np.errstate(divide="ignore", invalid="ignore"):
            return g / max(n - ddof, 0)
    d = np.sqrt(np.diag(g))
    den = np.outer(d, d)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(den == 0, np.nan, np.clip(g / np.where(den == 0, 1, den), -1, 1))
    np.fill_diagonal(r, np.where(d == 0, np.nan, 1.0))
    return r


def _check(method):
    if method not in ("pearson", "spearman"):
        if method == "kendall" or callable(method):
            raise NotImplementedError(f"corr with method={method!r} (supported: "
                                      "'pearson', 'spearman')")
        raise ValueError("method must be either 'pearson', 'spearman', 'kendall', "
                         f"or a callable, '{method}' was supplied")


def frame_matrix(df, how, method, min_periods, numeric_only, ddof=1):
    import numpy as np
    from ember.frame._methods import _frame
    _check(method)
    mp = 1 if min_periods is None else int(min_periods)
    names, data = [], []
    for k, c in df._cols.items():
        if numeric_only and (c.dtype.kind not in "biuf" or c.dtype.is_categorical):
            continue
        names.append(k)
        data.append(_numeric(c, k))
    m = len(names)
    full = m == 0 or bool(ember.stack([ok.all() for _, ok in data]).all())
    if how == "cov" and not full:
        ddof = 1   # pandas' pairwise path (any null) ignores ddof
    out = (_gram if full else _pairs)(data, how, mp, ddof, method)
    dev = df._dev()
    cols = {k: Column("float64", ember.asarray(np.ascontiguousarray(out[:, j]),
                                                device=dev))
            for j, k in enumerate(names)}
    return _frame(cols, df._labels(names))


def series_pair(a, b, how, method, min_periods, ddof=1):
    import numpy as np
    _check(method)
    if not hasattr(b, "_col"):
        raise TypeError(f"{how} with a {type(b).__name__} (supported: a Series)")
    a._check_aligned(b, how)
    mp = 1 if min_periods is None else int(min_periods)
    return np.float64(_pair(*_numeric(a._col, a.name), *_numeric(b._col, b.name),
                            how, mp, ddof, method))
