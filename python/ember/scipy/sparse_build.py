"""scipy.sparse's incremental formats, dok_matrix/dok_array and
lil_matrix/lil_array, on ember arrays. SciPy keeps them as Python dicts
and lists on the host; here both hold their entries as device arrays
(flat keys row * n_cols + col, sorted, and values) and each assignment is
a handful of whole-array operations: the target keys from the index (the
index's own bookkeeping on the host, as NumPy resolves slices), the old
entries at those keys dropped (isin), the new nonzero ones merged in, the
last write winning where a key repeats. Reading an index goes through CSR's
__getitem__. The dict and list-of-lists views (items(), rows) are not
there; tocsr/tocoo/toarray give the other formats."""
import numbers

import numpy

import ember as _e
from ember._api._util import as_array as _arr
from ember.scipy import sparse as _sp


def _index(k, n):
    """One axis' index as a host int64 vector and whether it is fancy
    (an integer array or list) rather than an int or a slice."""
    if isinstance(k, slice):
        return numpy.arange(*k.indices(n)), False
    if _sp._is_int(k):
        i = int(k)
        if not -n <= i < n:
            raise IndexError(f"index ({i}) out of range")
        return numpy.array([i % n]), False
    h = numpy.asarray(_e.asnumpy(k) if isinstance(k, _e.ndarray) else k)
    if h.dtype.kind not in "iu":
        raise IndexError("sparse indices must be integers, slices or integer arrays")
    if h.size and (h.max() >= n or h.min() < -n):
        raise IndexError(f"index ({int(h.max())}) out of range")
    return h.astype(numpy.int64) % max(n, 1), True


class _builder:
    format = None
    ndim = 2

    def __init__(self, arg1, shape=None, dtype=None, copy=False, device=None):
        if isinstance(arg1, tuple) and len(arg1) == 2 and \
                all(_sp._is_int(k) for k in arg1):
            self._shape = (int(arg1[0]), int(arg1[1]))
            self._key = _e.zeros(0, dtype=_e.int64, device=device)
            self._val = _e.zeros(0, dtype=dtype or _e.float64, device=device)
            return
        if _sp.issparse(arg1) or _sp._is_scipy_sparse(arg1):
            coo = _sp.coo_matrix(arg1, device=device)
        else:
            coo = _sp.coo_matrix(_arr(arg1, device) if not isinstance(arg1, _e.ndarray)
                                 else arg1, device=device)
        coo = coo.tocsr().tocoo()              # canonical: sorted, summed
        self._shape = coo.shape
        keep = coo.data != 0
        self._key = coo.row[keep] * self._shape[1] + coo.col[keep]
        self._val = coo.data[keep]
        if dtype is not None:
            self._val = self._val.astype(dtype)
        elif self._val.dtype.kind in "b":
            self._val = self._val.astype(_e.float64)

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._val.dtype)
    device = property(lambda self: self._val.device)
    nnz = property(lambda self: int(self._val.size))

    def get_shape(self):
        return self._shape

    def __repr__(self):
        kind = {"dok": "Dictionary Of Keys", "lil": "List of Lists"}[self.format]
        return (f"<{self._shape[0]}x{self._shape[1]} sparse matrix of type "
                f"'{self.dtype}' with {self.nnz} stored elements in {kind} "
                f"format on {self.device}>")

    def __str__(self):
        # SciPy's listing of (row, col) and value, below this one's header
        return "\n".join([repr(self)] + str(self.tocoo().get()).splitlines()[2:])

    def tocoo(self, copy=False):
        n = self._shape[1]
        c = _sp.coo_matrix((self._val, (self._key // n, self._key % n)),
                           shape=self._shape)
        c.has_canonical_format = True           # keys are sorted and unique
        return c

    def tocsr(self, copy=False):
        return self.tocoo().tocsr()

    def tocsc(self, copy=False):
        return self.tocoo().tocsc()

    def toarray(self, order=None, out=None):
        return self.tocoo().toarray(out=out)

    todense = toarray

    def copy(self):
        c = type(self)(self._shape, dtype=self.dtype, device=self.device)
        c._key, c._val = self._key.copy(), self._val.copy()
        return c

    def astype(self, t):
        c = self.copy()
        c._val = c._val.astype(t)
        return c

    def __getitem__(self, key):
        got = self.tocsr()[key]
        return type(self)(got) if _sp.issparse(got) else got

    def __setitem__(self, key, value):
        if not isinstance(key, tuple) or len(key) != 2:
            raise IndexError("index must be a pair (row, column)")
        (r, rf), (c, cf) = _index(key[0], self._shape[0]), _index(key[1], self._shape[1])
        if rf and cf:                          # NumPy: fancy with fancy is pointwise
            r, c = numpy.broadcast_arrays(r, c)
            target = r.shape
        else:                                  # else the outer grid, ints dropped
            target = tuple(len(i) for i, k in ((r, key[0]), (c, key[1]))
                           if not _sp._is_int(k))
            r, c = numpy.broadcast_arrays(r[:, None], c[None, :])
        dev = self.device
        keys = _e.asarray((r * self._shape[1] + c).reshape(-1), device=dev)
        if _sp.issparse(value):                # mtx[1, 100:200] = mtx[[0], :100]
            value = value.toarray()
        v = value if isinstance(value, _e.ndarray) else _e.asarray(value, device=dev)
        if v.ndim > len(target) and all(s == 1 for s in v.shape[:v.ndim - len(target)]):
            v = v.reshape(v.shape[v.ndim - len(target):])
        vals = _e.broadcast_to(v, target).reshape(-1).astype(self.dtype)
        # the last write wins where the index repeats a position, as NumPy's
        rev = keys[::-1]
        _, last = _e.unique(rev, return_index=True)
        keys, vals = rev[last], vals[::-1][last]
        stay = ~_e.isin(self._key, keys)
        new = vals != 0
        k = _e.concatenate([self._key[stay], keys[new]])
        order = _e.argsort(k)
        self._key = k[order]
        self._val = _e.concatenate([self._val[stay], vals[new]])[order]

    def setdiag(self, values, k=0):
        """SciPy's setdiag: the k-th diagonal from values (a scalar fills
        it; a shorter array sets its first len(values) entries)."""
        m, n = self._shape
        i0, j0 = max(0, -k), max(0, k)
        length = min(m - i0, n - j0)
        if length <= 0:
            raise ValueError("k exceeds array dimensions")
        if _e.ndim(values) != 0:
            length = min(length, len(values))
            values = values[:length]
        idx = numpy.arange(length)
        self[idx + i0, idx + j0] = values

    def __matmul__(self, other):
        return self.tocsr() @ other

    def __mul__(self, other):
        # a matrix's `*` is the matrix product (the *_array classes' is
        # elementwise: sparse_sparray.py)
        if _e.ndim(other) == 0:
            c = self.copy()
            c._val = c._val * other
            return c
        return self @ other

    __rmul__ = __mul__


class dok_matrix(_builder):
    format = "dok"


class lil_matrix(_builder):
    format = "lil"


dok_array = _sp._sparray.array_class(dok_matrix)
lil_array = _sp._sparray.array_class(lil_matrix)
_sp._SPARSE_TYPES += (_builder,)
