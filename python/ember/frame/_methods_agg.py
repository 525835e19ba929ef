"""agg/aggregate of a Series or DataFrame: a reduction named by a
string, a callable, a list of them (one result row each) or a dict of
them by column. Each reduction is the object's own method."""

_NAMES = ("sum", "prod", "mean", "median", "min", "max", "std", "var", "count",
          "nunique", "size", "quantile", "idxmin", "idxmax", "any", "all", "sem")


def _known(f):
    """pandas' table: NumPy's and Python's reductions stand for the method
    of their name (so np.mean is the frame's mean, not NumPy's)."""
    import builtins
    import numpy as np
    table = {builtins.sum: "sum", builtins.min: "min", builtins.max: "max"}
    for name in ("sum", "prod", "mean", "median", "min", "max", "std", "var",
                 "nansum", "nanmean", "nanmedian", "nanmin", "nanmax", "nanstd",
                 "nanvar", "nanprod"):
        table[getattr(np, name)] = name.replace("nan", "", 1) if name.startswith(
            "nan") else name
    return table.get(f, f) if not isinstance(f, str) else f


def _label(f):   # pandas labels a result by the function's own name
    return f if isinstance(f, str) else getattr(f, "__name__", repr(f))


def _one(obj, f, args, kwargs):
    f = _known(f)
    if isinstance(f, str):
        if f == "size":
            return len(obj) if obj.ndim == 1 else _sizes(obj)
        if f not in _NAMES or not hasattr(obj, f):
            raise AttributeError(f"'{f}' is not a valid function for "
                                 f"'{type(obj).__name__}' object")
        return getattr(obj, f)(*args, **kwargs)
    if callable(f):
        if obj.ndim == 2:   # pandas applies it column by column
            return _series_of([f(obj[k], *args, **kwargs) for k in obj._cols],
                              list(obj._cols), None)
        return f(obj, *args, **kwargs)
    raise TypeError(f"{f!r} is not a function name or callable")


def _sizes(df):
    return df._stat_series([len(df)] * len(df._cols))


def _series_of(values, labels, name):
    from ember.frame.series import Series
    return Series(values, index=labels, name=name)


def agg(obj, func, *args, **kwargs):
    if func is None:
        raise TypeError("Must provide 'func' or tuples of '(column, aggfunc).")
    if isinstance(func, (list, tuple)):
        if obj.ndim == 1:
            return _series_of([_one(obj, f, args, kwargs) for f in func],
                              [_label(f) for f in func], obj.name)
        return _frame_of({k: obj[k].agg(list(func), *args, **kwargs)
                          for k in obj._cols}, obj)
    if isinstance(func, dict):
        if obj.ndim == 1:
            return _series_of([_one(obj, f, args, kwargs) for f in func.values()],
                              list(func), obj.name)
        for k in func:
            if k not in obj._cols:
                raise KeyError(f"Column(s) [{k!r}] do not exist")
        if not any(isinstance(f, (list, tuple)) for f in func.values()):
            return _series_of([_one(obj[k], f, args, kwargs) for k, f in func.items()],
                              list(func), None)
        return _frame_of({k: obj[k].agg(f if isinstance(f, (list, tuple)) else [f],
                                        *args, **kwargs)
                          for k, f in func.items()}, obj)
    return _one(obj, func, args, kwargs)


def _frame_of(results, obj):
    """Series of results by column into one frame: the union of their
    labels in order of appearance, NaN where a column lacks one."""
    from ember.frame.frame import DataFrame
    import numpy as np
    labels = []
    for s in results.values():
        labels += [lab for lab in s.index.tolist() if lab not in labels]
    cols = {}
    for k, s in results.items():
        mine = s.index.tolist()
        if mine == labels:
            cols[k] = s
            continue
        got = dict(zip(mine, s.tolist()))
        cols[k] = _series_of([got.get(lab, np.nan) for lab in labels], labels, k)
    if not cols:
        return DataFrame({})
    return DataFrame(cols)


def transform(obj, func, *args, **kwargs):
    """pandas' transform: `func` (a callable or a method's name) of the
    Series, or of each column of a frame, giving as many rows with the same
    index; ValueError "Function did not transform" otherwise, as pandas."""
    from ember.frame.frame import DataFrame
    if isinstance(func, (list, tuple, dict)):
        raise NotImplementedError("transform with a list or dict of functions "
                                  "(a frame with MultiIndex columns)")
    if obj.ndim == 2:
        cols = {k: transform(obj[k], func, *args, **kwargs)._col for k in obj._cols}
        return DataFrame._make(cols, obj.index)
    if isinstance(func, str):
        if not hasattr(obj, func):
            raise AttributeError(f"'{func}' is not a valid function for 'Series' object")
        out = getattr(obj, func)(*args, **kwargs)
    elif callable(func):
        out = func(obj, *args, **kwargs)
    else:
        raise TypeError(f"{func!r} is not a function name or callable")
    if getattr(out, "ndim", 0) != 1 or len(out) != len(obj) or \
            not hasattr(out, "index") or not out.index.equals(obj.index):
        raise ValueError("Function did not transform")
    return out
