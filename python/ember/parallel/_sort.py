"""ember.parallel's sort family: argument handling over the C calls
(python/ember/_ext/parallel/parallel_sort.c), which take ndarrays on one
device."""
import operator

from ember import _ember as _e
from ember._api.sorting import searchsorted


def _nd(x, dev=None):
    return x if isinstance(x, _e.ndarray) else _e.asarray(x, device=dev)


def _bits(o, default):
    if o is None:
        return default
    v = operator.index(o)
    return 1024 if v < -1 or v > 1024 else v


def _comparator(c):
    if c is not None and not isinstance(c, str):
        raise TypeError("comparator must be a C expression over a and b (a "
                        f"str), not {type(c).__name__}")
    return c


def radix_sort(keys, values=None, descending=False, begin_bit=None,
               end_bit=None):
    """Stable LSD radix sort of 1-D keys (and values): sorted keys, or
    (keys, values)."""
    begin, end = _bits(begin_bit, 0), _bits(end_bit, -1)
    k = _nd(keys)
    v = None if values is None else _nd(values, k.device)
    return _e._par_radix_sort(k, v, bool(descending), begin, end)


def merge_sort(keys, values=None, comparator=None):
    """Stable sort; comparator is a C expression over a and b meaning
    a < b."""
    c = _comparator(comparator)
    k = _nd(keys)
    v = None if values is None else _nd(values, k.device)
    return _e._par_merge_sort(k, v, c)


def merge(a, b, a_values=None, b_values=None, comparator=None):
    """Merge two sorted 1-D arrays (stable: a's first among equals)."""
    c = _comparator(comparator)
    if (a_values is None) != (b_values is None):
        raise ValueError("merge: give both a_values and b_values, or neither")
    a = _nd(a)
    b = _nd(b, a.device)
    if a_values is not None:
        a_values = _nd(a_values, a.device)
        b_values = _nd(b_values, a.device)
    return _e._par_merge(a, b, a_values, b_values, c)


def lower_bound(sorted, needles):
    """First index i with needle <= sorted[i]."""
    return searchsorted(sorted, needles, side="left")


def upper_bound(sorted, needles):
    """First index i with needle < sorted[i]."""
    return searchsorted(sorted, needles, side="right")


def top_k(x, k, largest=True):
    """(values, indices) of the k largest (smallest) elements, in order."""
    k = operator.index(k)
    return _e._par_top_k(_nd(x), k, bool(largest))
