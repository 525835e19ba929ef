"""a.flat, NumPy's flatiter: the elements of a in C order as one 1-d
sequence, iterated, read with any index (a copy, as NumPy's) and assigned
through (values repeated cyclically, as NumPy's put repeats them). Each
step is ndarray's ravel, indexing or put (C), so this is composition."""
import operator

import ember
from ember import _ember as _e


class flatiter:
    """a.flat: the elements of a in C order, iterable, indexable and
    assignable, as NumPy's flatiter."""

    __slots__ = ("base", "index", "_flat")
    __module__ = "ember"

    def __init__(self, base):
        self.base = base
        self.index = 0
        self._flat = None   # the ravel iteration reads, made when it starts

    def __iter__(self):
        return self

    def __next__(self):
        if self._flat is None:
            self._flat = self.base.ravel()
        if self.index >= self._flat.size:
            raise StopIteration
        self.index += 1
        return self._flat[self.index - 1]

    def __len__(self):
        return self.base.size

    def __getitem__(self, key):
        # A fresh ravel each time: the copy of a non-contiguous array must
        # not go stale after a write.
        r = self.base.ravel()[_key(key, self.base.device)]
        if isinstance(key, slice) or key is Ellipsis:
            r = r.copy()    # a slice is a view; a.flat[...] is a copy
        return r

    def __setitem__(self, key, value):
        a = self.base
        if not a.flags.writeable:
            raise ValueError("assignment destination is read-only")
        if a.flags.c_contiguous:
            _assign(a, key, value)
            return
        tmp = a.copy("C")   # written through a C-ordered copy, put back whole
        _assign(tmp, key, value)
        a[...] = tmp

    def __delitem__(self, key):
        raise TypeError("cannot delete array elements")

    def copy(self):
        """The elements as a new 1-d array (a.flatten())."""
        return self.base.flatten()

    def __array__(self, *args, **kw):
        # numpy.asarray(a.flat): the host copy of the elements in C order.
        return self.copy().__array__(*args, **kw)


def _key(key, device):
    """The key as ember indexing takes it: ints, slices and Ellipsis as
    they are, anything else an index array on the device (a boolean one
    must be 1-d, as NumPy's flatiter requires)."""
    if (isinstance(key, (slice, bool)) or key is Ellipsis or
            (hasattr(type(key), "__index__") and not isinstance(key, _e.ndarray)
             and not hasattr(type(key), "__len__"))):
        return key
    k = _e.asarray(key, device=device)
    if k.dtype == _e.bool_ and k.ndim != 1:
        raise IndexError(f"too many indices for flat iterator: flat iterator is "
                         f"1-dimensional, but {k.ndim} were indexed")
    return k


def _count(key, n):
    """How many of n elements a slice or Ellipsis selects."""
    return n if key is Ellipsis else len(range(*key.indices(n)))


def _assign(arr, key0, value):
    flat = arr.ravel()
    key = _key(key0, arr.device)
    val = _e.asarray(value, dtype=arr.dtype, device=arr.device, order="C")
    vflat = val.ravel()
    # Subscript assignment does what NumPy's flat assignment does for a
    # value of one element or of as many as the key selects.
    if vflat.size == 1:
        flat[key] = val
        return
    if ((isinstance(key, slice) or key is Ellipsis) and
            vflat.size == _count(key, flat.size)):
        flat[key] = vflat
        return
    idx = _indices(flat, key)
    if vflat.size == 0:
        if idx.size:
            raise ValueError("cannot assign an empty array to flat elements")
        return
    _e._put(flat, idx, vflat, 0)


def _indices(flat, key):
    """The int64 flat indices a key selects, for the cyclic writes (put)
    that subscript assignment cannot do."""
    if isinstance(key, slice) or key is Ellipsis:
        r = range(flat.size) if key is Ellipsis else range(*key.indices(flat.size))
        return _e.arange(r.start, r.stop, r.step, dtype=_e.int64, device=flat.device)
    if not isinstance(key, _e.ndarray):
        if isinstance(key, bool):
            raise IndexError("a bool is not a flat index")
        return _e.asarray([operator.index(key)], dtype=_e.int64, device=flat.device)
    if key.dtype != _e.bool_:
        return key
    if key.size != flat.size:
        raise IndexError(f"boolean index did not match indexed flat array: "
                         f"{key.size} elements against {flat.size}")
    return ember.nonzero(key)[0]
