"""factorize: each value's group number, in order of first appearance (or
of the sorted values), and the distinct values. These are a groupby's
codes and keys over one column (_groupby_codes.Groups), so factorize,
groupby(sort=False) and unique agree on what "equal" and "missing" mean."""
import ember

from ember.frame._column import Column


def _as_column(values):
    """(the Column of values, what kind of uniques pandas returns for it)."""
    from ember.frame._index import Index
    from ember.frame.series import Series
    if isinstance(values, Series):
        return values._col, "index"
    if isinstance(values, Index):
        return values._col, "index"
    if isinstance(values, ember.ndarray):
        if values.ndim != 1:
            raise ValueError(f"factorize takes 1-dimensional values, got shape "
                             f"{values.shape}")
        return Column(str(values.dtype), values), "array"
    if type(values).__module__.startswith("pandas") or \
            type(values).__module__ == "numpy":
        raise TypeError(f"factorize takes ember.frame's Series and Index and ember "
                        f"arrays, not {type(values).__module__}'s "
                        f"{type(values).__name__}; pass it through from_pandas or "
                        "ember.asarray first")
    # pandas 3 refuses lists and other iterables the same way
    raise TypeError(f"factorize requires a Series, Index, ExtensionArray, np.ndarray "
                    f"or NumpyExtensionArray got {type(values).__name__}.")


def factorize(values, sort=False, use_na_sentinel=True, size_hint=None):
    """pandas' factorize: (codes, uniques). codes: an int64 ember array, -1
    at a missing value (with use_na_sentinel=False the missing values are
    one more unique, last when sorted); uniques: an Index for a Series or
    Index (a categorical one keeps its categories), an ember array for an
    ember array. size_hint is accepted and unused (no hash table to size)."""
    from ember.frame._groupby_codes import Groups
    from ember.frame._index import Index
    from ember.frame._index import RangeIndex
    if isinstance(values, RangeIndex):   # distinct already: codes are positions
        return _range(values, sort)
    col, kind = _as_column(values)
    g = Groups([col], dropna=bool(use_na_sentinel), sort=bool(sort))
    codes = g.codes.astype("int64")
    uniques = g.keys[0]
    if kind == "array":
        return codes, uniques.values
    return codes, Index(uniques, name=None)


def _range(r, sort):
    """A RangeIndex's factorize: itself (reversed when sorted and falling)."""
    from ember.frame._index import RangeIndex
    n = len(r)
    codes = ember.arange(n, dtype="int64")
    if sort and r.step < 0 and n:
        last = r.start + (n - 1) * r.step
        return n - 1 - codes, RangeIndex(last, r.start + 1, -r.step)
    return codes, RangeIndex(r.start, r.stop, r.step)
