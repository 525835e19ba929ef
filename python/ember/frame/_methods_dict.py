"""DataFrame.to_dict (one copy of each column to the host, then Python's
values as pandas gives them) and sample (positions drawn by ember's
random generator on the frame's device)."""
import ember


def host_values(s):
    """The Series' values as Python objects; pandas' dicts hold None for
    NA (a host pass over values already copied out)."""
    values = s.tolist()
    if s.dtype.masked and not s.dtype.na_is_nan:
        from ember.frame._reduce import na
        null = na()
        values = [None if v is null else v for v in values]
    return values


def frame_to_dict(df, orient, into, index):
    labels = df._index.tolist()
    names = list(df._cols)
    values = [host_values(df[k]) for k in names]
    if orient == "dict":
        return into((k, into(zip(labels, v))) for k, v in zip(names, values))
    if orient == "list":
        return into(zip(names, values))
    if orient == "series":
        return into((k, df[k]) for k in names)
    if orient == "records":
        return [into(zip(names, row)) for row in zip(*values)] if names else \
            [into() for _ in labels]
    if orient == "index":
        return into((lab, into(zip(names, row))) for lab, row in
                    zip(labels, zip(*values) if names else [() for _ in labels]))
    if orient in ("split", "tight"):
        out = into()
        if index:
            out["index"] = labels
        out["columns"] = names
        out["data"] = [list(r) for r in zip(*values)] if names else [[] for _ in labels]
        if orient == "tight":
            out["index_names"] = df._index.names
            out["column_names"] = [None]
        return out
    raise ValueError(f"orient '{orient}' not understood")


def sample(obj, n, frac, replace, weights, random_state, axis, ignore_index):
    if axis not in (None, 0, "index", "rows"):
        raise NotImplementedError("sample along columns (supported: axis=0)")
    rows = len(obj)
    if n is not None and frac is not None:
        raise ValueError("Please enter a value for `frac` OR `n`, not both")
    if frac is not None:
        if frac < 0:
            raise ValueError("A negative number of rows requested. Please provide "
                             "`n` >= 0.")
        if frac > 1 and not replace:
            raise ValueError("Replace has to be set to `True` when upsampling the "
                             "population `frac` > 1.")
        k = int(round(frac * rows))
    else:
        k = 1 if n is None else n
        if k != int(k):
            raise ValueError("Only integers accepted as `n` values")
        k = int(k)
        if k < 0:
            raise ValueError("A negative number of rows requested. Please provide "
                             "`n` >= 0.")
    if k > rows and not replace:
        raise ValueError("Cannot take a larger sample than population when "
                         "'replace=False'")
    if isinstance(random_state, ember.random.Generator):
        rng = random_state
    else:
        rng = ember.random.default_rng(random_state)
    dev = obj._dev()
    if weights is not None:
        pos = _weighted(obj, weights, k, replace, rng, dev)
    elif replace:
        pos = rng.integers(0, max(rows, 1), size=k) if k else None
    else:
        pos = rng.permutation(rows)[:k]
    if pos is None:
        pos = ember.zeros(0, dtype="int64", device=dev)
    pos = pos.astype("int64")
    if str(pos.device) != str(dev):
        pos = pos.to_device(dev)
    out = obj._take(pos)
    if ignore_index:
        from ember.frame._index import RangeIndex
        out._index = RangeIndex(0, len(out))
    return out


def _weights(obj, weights, dev):
    """The weights as float64 on the frame's device, pandas' checks made
    (a null weight is 0)."""
    if isinstance(weights, str):
        if obj.ndim == 1 or weights not in obj._cols:
            raise KeyError("String passed to weights not a valid column")
        weights = obj[weights]
    if hasattr(weights, "_col"):
        obj_index = obj.index
        if not obj_index.equals(weights.index):
            raise NotImplementedError("sample weights on another index (alignment)")
        col = weights._col
        w = col.values.astype("float64")
        nulls = col.null_mask()
        if nulls is not None:
            w = ember.where(nulls, 0.0, w)
    else:
        w = ember.asarray(weights, dtype="float64", device=dev)
    if w.shape[0] != len(obj):
        raise ValueError("Weights and axis to be sampled must be of same length")
    if bool(ember.isinf(w).any()):
        raise ValueError("weight vector may not include `inf` values")
    if bool((w < 0).any()):
        raise ValueError("weight vector many not include negative values")
    w = ember.where(ember.isnan(w), 0.0, w)
    if not bool((w > 0).any()):
        raise ValueError("Invalid weights: weights sum to zero")
    return w


def _weighted(obj, weights, k, replace, rng, dev):
    w = _weights(obj, weights, dev)
    if not replace and k > int((w > 0).sum()):
        raise ValueError("Fewer non-zero entries in p than size")
    if replace:   # inverse CDF of k uniform draws
        cdf = ember.cumsum(w)
        u = rng.random(k).to_device(dev) * cdf[-1]
        return ember.minimum(ember.searchsorted(cdf, u, side="right"), w.shape[0] - 1)
    # Efraimidis-Spirakis: the k smallest E_i / w_i are a weighted draw
    # without replacement
    e = rng.standard_exponential(w.shape[0]).to_device(dev)
    keys = ember.where(w > 0, e / w, float("inf"))
    return ember.argsort(keys, kind="stable")[:k]
