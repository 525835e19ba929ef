"""Repeated column labels, as pandas allows them (columns=['a', 'a'],
concat(axis=1) of frames sharing a name, rename onto an existing name).

A frame's columns are a dict keyed by label, and most of the frame layer
walks that dict. A label that repeats is keyed by `Rep(label, i)`, its
i-th occurrence, so the dict stays a dict and every column-by-column
operation (isna, astype, take, copy, ...) keeps the keys as they are;
only where a label is shown (columns, to_pandas, a Series' name, the
labels of a reduction) or looked up (df[label], drop, rename, del) is the
Rep unwrapped. A label that occurs once is its plain self, so frames
without repeats are unchanged."""


class Rep:
    """The i-th occurrence of a repeated column label."""
    __slots__ = ("label", "i")

    def __init__(self, label, i):
        self.label, self.i = label, i

    def __eq__(self, other):
        return isinstance(other, Rep) and self.i == other.i and self.label == other.label

    def __hash__(self):
        return hash((Rep, self.label, self.i))

    def __str__(self):
        return str(self.label)

    def __repr__(self):   # error messages name the label as pandas does
        return repr(self.label)


def label(key):
    return key.label if isinstance(key, Rep) else key


def labels(keys):
    return [label(k) for k in keys]


def has_reps(keys):
    return any(isinstance(k, Rep) for k in keys)


def keys_for(names):
    """The dict keys of these labels in order: a label seen once is itself,
    one seen more often Rep(label, 0), Rep(label, 1), ..."""
    names = labels(names)
    seen, counts = {}, {}
    for n in names:
        try:
            counts[n] = counts.get(n, 0) + 1
        except TypeError:   # an unhashable label: pandas' TypeError
            raise TypeError(f"unhashable column label {n!r}") from None
    out = []
    for n in names:
        if counts[n] == 1:
            out.append(n)
        else:
            i = seen.get(n, 0)
            seen[n] = i + 1
            out.append(Rep(n, i))
    return out


def rekeyed(pairs):
    """A columns dict from (label or key, column) pairs, keyed by keys_for."""
    pairs = list(pairs)
    return dict(zip(keys_for([k for k, _ in pairs]), [c for _, c in pairs]))


def normal(cols):
    """cols with its keys canonical again (a selection may have left one
    occurrence of a repeated label, which is then its plain self)."""
    if not has_reps(cols):
        return cols
    return rekeyed(cols.items())


def keys_of(cols, name):
    """Every key of cols whose label is name (one for a plain label, every
    occurrence of a repeated one, none for a label not there)."""
    try:
        if name in cols:
            return [name]
    except TypeError:
        return []
    if isinstance(name, Rep):
        return []
    out = []
    for k in cols:
        if isinstance(k, Rep) and k.label == name:
            out.append(k)
    return out


def is_repeated(cols, name):
    return len(keys_of(cols, name)) > 1


def is_mask(key):
    """Whether a columns key is a bool mask (an ember, NumPy or pandas
    array, or a list of bools) rather than labels."""
    import ember
    if isinstance(key, ember.ndarray) or type(key).__name__ in ("ndarray", "Series", "Index"):
        return str(getattr(key, "dtype", "")) in ("bool", "boolean")
    import numpy as np
    return isinstance(key, list) and len(key) > 0 and \
        all(isinstance(k, (bool, np.bool_)) for k in key)


def not_unique(name):
    """pandas' error where one column must be named and the label repeats."""
    return ValueError(f"The column label {label(name)!r} is not unique.")


def check_unique(df, what):
    """pandas' ValueError for a reindex-like operation on repeated labels."""
    if has_reps(df._cols):
        raise ValueError(f"cannot {what} on an axis with duplicate labels")
