"""NumPy's unique, and the Array API's unique_all/_counts/_inverse/_values: named tuples (as
NumPy 2's UniqueAllResult, ...) over the C unique for real dtypes, and a
composite of ember's stable sort for complex ones (which the C unique does
not take). NaNs are distinct, as the standard and NumPy say.

NumPy's isin/in1d and the 1-D set operations: their signatures here, the
work in the C core (src/algo/setops.c, one sort or hash pass each)
through the extension's one entry `_setop`."""
import operator

from ember import _ember as _e
from ember._api.cumulative import cumsum
from ember._api.selection import flatnonzero
from ember._api._util import as_array, device_of, normalize_axis
from ember._api.arrayapi import diff


def _result(name, fields):
    """A tuple subclass with named fields, as collections.namedtuple makes
    (without importing collections at `import ember`)."""
    def __new__(cls, *values):
        return tuple.__new__(cls, values)

    def __repr__(self):
        return name + "(" + ", ".join(f"{f}={v!r}" for f, v in zip(fields, self)) + ")"

    ns = {"__slots__": (), "_fields": fields, "__new__": __new__,
          "__repr__": __repr__, "__module__": __name__}
    for i, f in enumerate(fields):
        ns[f] = property(operator.itemgetter(i), doc=f"Field {i}: {f}.")
    return type(name, (tuple,), ns)


UniqueAllResult = _result("UniqueAllResult",
                          ("values", "indices", "inverse_indices", "counts"))
UniqueCountsResult = _result("UniqueCountsResult", ("values", "counts"))
UniqueInverseResult = _result("UniqueInverseResult", ("values", "inverse_indices"))


def _complex_unique(x):
    """(values, first indices, inverse, counts) by a stable argsort: equal
    neighbours after sorting form one group, whose first member in the sort
    is its first occurrence."""
    flat = _e.ravel(x)
    n = flat.size
    dev = x.device
    if n == 0:
        e = _e.empty((0,), dtype=_e.int64, device=dev)
        return flat, e, _e.empty(x.shape, dtype=_e.int64, device=dev), e
    perm = _e.argsort(flat, stable=True)
    s = flat[perm]
    first = _e.empty((n,), dtype=_e.bool_, device=dev)
    first[:1] = True
    first[1:] = s[1:] != s[:-1]
    values = s[first]
    indices = perm[first]
    inverse = _e.empty((n,), dtype=_e.int64, device=dev)
    inverse[perm] = cumsum(first) - 1
    starts = flatnonzero(first)
    counts = diff(starts, append=n)
    return values, indices, inverse.reshape(x.shape), counts


def _arr(x):
    return as_array(x, x.device if isinstance(x, _e.ndarray) else None)


def _unique(x, c_unique, result, fields):
    """c_unique's answer as result; complex x goes through _complex_unique
    instead, keeping the fields (indices into its 4-tuple) result holds."""
    x = _arr(x)
    if x.dtype.kind == "c":
        parts = _complex_unique(x)
        return result(*(parts[k] for k in fields))
    return result(*c_unique(x))


def unique_all(x, /):
    return _unique(x, _c_unique_all, UniqueAllResult, (0, 1, 2, 3))


def unique_counts(x, /):
    return _unique(x, _c_unique_counts, UniqueCountsResult, (0, 3))


def unique_inverse(x, /):
    return _unique(x, _c_unique_inverse, UniqueInverseResult, (0, 2))


def unique_values(x, /):
    x = _arr(x)
    if x.dtype.kind == "c":
        return _complex_unique(x)[0]
    return _c_unique_values(x)


def _c_unique_all(x):
    return _e._unique(x, False, True, True, True)


def _c_unique_counts(x):
    return _e._unique(x, False, False, False, True)


def _c_unique_inverse(x):
    return _e._unique(x, False, False, True, False)


def _c_unique_values(x):
    return _e._unique(x, False, False, False, False)[0]


def unique(ar, return_index=False, return_inverse=False, return_counts=False,
           axis=None, *, equal_nan=True, sorted=True):
    """NumPy's unique: the sorted distinct values alone, or a tuple of them
    and the parts asked for, in NumPy's order (sorted is accepted: the C
    core always sorts)."""
    a = ar if isinstance(ar, _e.ndarray) else _e.asarray(ar)
    if axis is not None:
        axis = operator.index(axis)
        normalize_axis(axis, a.ndim)
        if a.ndim != 1:
            raise NotImplementedError("ember.unique: axis= on arrays of more "
                                      "than one dimension is not supported "
                                      "yet")
    flags = (bool(return_index), bool(return_inverse), bool(return_counts))
    parts = _e._unique(a, bool(equal_nan), *flags)
    return parts if any(flags) else parts[0]


def _pair(ar1, ar2):
    """Both operands on one device: the first ember array's (a list or a
    NumPy array is uploaded there); ember arrays on two devices are a
    ValueError."""
    a = as_array(ar1, device_of(ar1, ar2))
    return a, as_array(ar2, a.device)


def isin(element, test_elements, assume_unique=False, invert=False, *,
         kind=None):
    """Whether each element of `element` is in test_elements (kind, a
    hint of NumPy's algorithm, is ignored: the C core picks its own)."""
    a, b = _pair(element, test_elements)
    return _e._setop("isin", a, b, bool(assume_unique), bool(invert))


def in1d(ar1, ar2, assume_unique=False, invert=False, *, kind=None):
    """isin, flattened."""
    return isin(ar1, ar2, assume_unique, invert, kind=kind).reshape(-1)


def union1d(ar1, ar2):
    """The sorted distinct values in either array."""
    return _e._setop("union1d", *_pair(ar1, ar2), False, False)


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """The sorted distinct values in both arrays; with return_indices,
    also where each first occurs in ar1 and in ar2 (flattened)."""
    return _e._setop("intersect1d", *_pair(ar1, ar2), bool(assume_unique),
                     bool(return_indices))


def setdiff1d(ar1, ar2, assume_unique=False):
    """The distinct values of ar1 not in ar2 (sorted unless
    assume_unique, as NumPy)."""
    return _e._setop("setdiff1d", *_pair(ar1, ar2), bool(assume_unique),
                     False)


def setxor1d(ar1, ar2, assume_unique=False):
    """The sorted values in exactly one of the arrays."""
    return _e._setop("setxor1d", *_pair(ar1, ar2), bool(assume_unique),
                     False)
