"""scipy.sparse's DIA format on ember arrays: dia_matrix (and dia_array)
holds `data`, a (diagonals, L) array, and `offsets`, one per row of data;
data[i, j] is the element (j - offsets[i], j), as SciPy lays it out.

Built from (data, offsets) and a shape, a shape alone, a dense array or
another sparse matrix (SciPy's todia: one diagonal per distinct column -
row, a SparseEfficiencyWarning past 100). Conversions mask the band once
(the positions inside the shape, zeros dropped, as SciPy's tocoo) and
compress with one sort. Results keep SciPy's formats: scalar products,
negation and the elementwise functions of the values stay DIA, as do
dia + dia, dia - dia, dia.multiply(dia or dense) and dia @ dia (the last
through CSR and back); other arithmetic goes through CSR and gives what
ember's CSR gives. ember.scipy.sparse loads it on first use."""
import warnings

import numpy as _np

import ember as _e
from ember._api._util import as_array as _arr
from ember.scipy import sparse as _sp


class SparseWarning(Warning):
    """scipy.sparse's base class of its warnings."""


class SparseFormatWarning(SparseWarning):
    pass


class SparseEfficiencyWarning(SparseWarning):
    """An operation that is slow in the format it was asked of."""


def device_arg(device):
    """device= as an ember.Device (a spec string compares unequal to an
    array's Device), or None for the current one."""
    return None if device is None else _e.Device(device)


def index_dtype(maxval):
    """SciPy's get_index_dtype(maxval=...): int32 while maxval fits."""
    return _e.int64 if maxval > _sp._INT32_MAX else _e.int32


def _is_scalar(x):
    return _np.isscalar(x) or getattr(x, "ndim", None) == 0


def _check_shape(shape):
    try:
        m, n = (int(s) for s in shape)
    except (TypeError, ValueError) as err:
        raise TypeError(f"a DIA matrix's shape is two integers, not "
                        f"{shape!r}") from err
    if m < 0 or n < 0:
        raise ValueError(f"'shape' elements cannot be negative: {shape!r}")
    return m, n


class dia_matrix:
    """scipy.sparse.dia_matrix on ember arrays: data, offsets."""
    format = "dia"
    ndim = 2

    def __init__(self, arg1, shape=None, dtype=None, copy=False,
                 device=None):
        dev = device_arg(device)
        if isinstance(arg1, dia_matrix) or (
                _sp._is_scipy_sparse(arg1) and arg1.format == "dia"):
            self.data = _arr(arg1.data, dev)
            self.offsets = _arr(arg1.offsets, self.data.device)
            self._shape = tuple(int(s) for s in arg1.shape)
        elif _sp.issparse(arg1) or _sp._is_scipy_sparse(arg1):
            self._from_coo(_sp.coo_matrix(arg1, device=dev))
        elif isinstance(arg1, tuple) and len(arg1) == 2 and \
                all(isinstance(s, (int, _np.integer)) for s in arg1):
            self._shape = _check_shape(arg1)
            self.data = _e.zeros((0, 0), dtype=dtype or _e.float64,
                                 device=dev)
            self.offsets = _e.zeros(0, dtype=index_dtype(max(self._shape)),
                                    device=dev)
        elif isinstance(arg1, tuple):
            if len(arg1) != 2:
                raise ValueError("unrecognized form for dia_matrix "
                                 "constructor")
            if shape is None:
                raise ValueError("expected a shape argument")
            self._shape = _check_shape(shape)
            self.data = _arr(arg1[0], dev, dtype)
            if self.data.ndim < 2:
                self.data = self.data.reshape((1, -1) if self.data.ndim
                                              else (1, 1))
            self.offsets = _e.atleast_1d(_arr(arg1[1], self.data.device)) \
                .astype(index_dtype(max(self._shape)))
        else:
            dense = _arr(arg1, dev)
            if dense.ndim != 2:
                raise ValueError(f"DIA matrices are 2-D, not {dense.ndim}-D")
            self._from_coo(_sp.coo_matrix(dense))
        if dtype is not None:
            self.data = self.data.astype(dtype, copy=False)
        if self.offsets.ndim != 1:
            raise ValueError("offsets array must have rank 1")
        if self.data.ndim != 2:
            raise ValueError("data array must have rank 2")
        if self.data.shape[0] != self.offsets.size:
            raise ValueError(
                f"number of diagonals ({self.data.shape[0]}) does not match "
                f"the number of offsets ({self.offsets.size})")
        if self.offsets.size > 1 and \
                _e.unique(self.offsets).size != self.offsets.size:
            raise ValueError("offset array contains duplicate values")
        if copy:
            self.data = self.data.copy()
            self.offsets = self.offsets.copy()

    @classmethod
    def _raw(cls, data, offsets, shape):
        """A matrix of arrays that are already right (unique offsets, one
        per row of data), without the checks' wait for the device."""
        self = cls.__new__(cls)
        self.data, self.offsets, self._shape = data, offsets, tuple(shape)
        return self

    def _from_coo(self, coo):
        """SciPy's todia: a row of data per distinct column - row, as wide
        as the last stored column."""
        c = coo.tocsr().tocoo()
        self._shape = coo.shape
        ks = c.col - c.row
        diags, which = _e.unique(ks, return_inverse=True)
        if diags.size > 100:
            warnings.warn(f"Constructing a DIA matrix with {diags.size} "
                          "diagonals is inefficient", SparseEfficiencyWarning,
                          stacklevel=3)
        it = index_dtype(max(self._shape))
        if c.data.size == 0:
            self.data = _e.zeros((0, 0), dtype=c.dtype, device=c.device)
            self.offsets = _e.zeros(0, dtype=it, device=c.device)
            return
        self.data = _e.zeros((diags.size, int(_e.max(c.col)) + 1),
                             dtype=c.dtype, device=c.device)
        self.data[which, c.col] = c.data
        self.offsets = diags.astype(it)

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self.data.dtype)
    device = property(lambda self: self.data.device)

    def get_shape(self):
        return self._shape

    @property
    def nnz(self):
        """The band's positions inside the shape, stored zeros included
        (SciPy's count)."""
        m, n = self._shape
        if not self.offsets.size:
            return 0
        width = min(self.data.shape[1], n)
        off = self.offsets.astype(_e.int64)
        return int(_e.sum(_e.maximum(_e.minimum(off + m, width) -
                                     _e.maximum(off, 0), 0)))

    def __repr__(self):
        return (f"<{self._shape[0]}x{self._shape[1]} sparse matrix of type "
                f"'{self.dtype}' with {self.nnz} stored elements "
                f"({self.offsets.size} diagonals) in DIAgonal format on "
                f"{self.device}>")

    # -- conversions ---------------------------------------------------

    def _triplets(self):
        """(data, row, col) of the band's nonzeros inside the shape, in
        SciPy's tocoo order: diagonal by diagonal."""
        m, n = self._shape
        width = self.data.shape[1]
        dev = self.device
        j = _e.arange(width, dtype=_e.int64, device=dev)
        row = j[None, :] - self.offsets.astype(_e.int64)[:, None]
        keep = (row >= 0) & (row < m) & (j[None, :] < n) & (self.data != 0)
        col = _e.broadcast_to(j[None, :], row.shape)
        return self.data[keep], row[keep], col[keep]

    def tocoo(self, copy=False):
        d, r, c = self._triplets()
        return _sp.coo_matrix((d, (r, c)), shape=self._shape)

    def tocsr(self, copy=False):
        d, r, c = self._triplets()
        return _sp.csr_matrix(_sp._ops.compress(d, r, c, self._shape),
                              shape=self._shape)

    def tocsc(self, copy=False):
        d, r, c = self._triplets()
        return _sp.csc_matrix(_sp._ops.compress(d, c, r, self._shape[::-1]),
                              shape=self._shape)

    def todia(self, copy=False):
        return self.copy() if copy else self

    def asformat(self, format, copy=False):
        from ember.scipy.sparse_construct import asformat
        return asformat(self, format)

    def toarray(self, order=None, out=None):
        d, r, c = self._triplets()
        dense = _e.zeros(self._shape, dtype=self.dtype, device=self.device) \
            if out is None else out
        if out is not None:
            dense[...] = 0
        if d.size:
            dense[r, c] = d
        return dense

    def todense(self, order=None, out=None):
        """The dense matrix as a 2-D ember array (SciPy gives np.matrix)."""
        return self.toarray(order, out)

    def get(self):
        """The scipy.sparse.dia_matrix of the same arrays, on the host."""
        import scipy.sparse
        return scipy.sparse.dia_matrix((_e.asnumpy(self.data),
                                        _e.asnumpy(self.offsets)),
                                       shape=self._shape)

    def copy(self):
        return dia_matrix._raw(self.data.copy(), self.offsets.copy(),
                               self._shape)

    def astype(self, t, copy=True):
        return self._with_data(self.data.astype(t))

    def _with_data(self, data, offsets=None):
        return dia_matrix._raw(data, self.offsets if offsets is None
                               else offsets, self._shape)

    # -- structure -----------------------------------------------------

    def transpose(self, axes=None, copy=False):
        """SciPy's: each diagonal re-read along the other axis (one
        gather), the offsets negated."""
        if axes is not None and tuple(axes) != (1, 0):
            raise ValueError("Sparse arrays/matrices do not support an "
                             "'axes' parameter because swapping dimensions "
                             "is the only logical permutation.")
        m, n = self._shape
        nd, width = self.data.shape
        wide = max(width, m, n)
        dev = self.device
        if not (nd and wide):
            return dia_matrix._raw(_e.zeros((nd, m), dtype=self.dtype,
                                            device=dev), -self.offsets, (n, m))
        data = self.data
        if wide > width:
            data = _e.concatenate([data, _e.zeros((nd, wide - width),
                                                  dtype=data.dtype,
                                                  device=dev)], 1)
        # row i of the result reads column c of the padded band; SciPy's
        # NumPy gather wraps the negative c, as % does here
        r = _e.arange(nd, dtype=_e.int64, device=dev)[:, None]
        c = (_e.arange(m, dtype=_e.int64, device=dev)[None, :] -
             (-self.offsets.astype(_e.int64) % max(m, n))[:, None]) % wide
        return dia_matrix._raw(data[r, c], -self.offsets, (n, m))

    T = property(transpose)

    def diagonal(self, k=0):
        return self.tocsr().diagonal(k)

    def trace(self, offset=0):
        return self.diagonal(offset).sum()

    def count_nonzero(self, axis=None):
        if axis is not None:
            raise NotImplementedError("count_nonzero over an axis is not "
                                      "implemented for DIA format")
        return int(self._triplets()[0].size)

    def sum(self, axis=None, dtype=None):
        return self.tocsr().sum(axis, dtype)

    def mean(self, axis=None, dtype=None):
        return self.tocsr().mean(axis, dtype)

    # -- arithmetic: DIA where SciPy keeps DIA, else through CSR ---------

    def __mul__(self, other):
        if _is_scalar(other):
            return self._with_data(self.data * other)
        return self @ other

    def __rmul__(self, other):
        if _is_scalar(other):
            return self._with_data(other * self.data)
        return self.__rmatmul__(other)

    def __truediv__(self, other):
        if not _is_scalar(other):
            return self.tocsr() / other
        return self._with_data(self.data / other)

    def __neg__(self):
        return self._with_data(-self.data)

    def __pos__(self):
        return self.copy()

    def __abs__(self):
        return self._with_data(_e.abs(self.data))

    def power(self, n, dtype=None):
        _sp.check_power(n)
        d = self.data if dtype is None else self.data.astype(dtype)
        return self._with_data(d ** n)

    def _add(self, other, sign):
        if isinstance(other, dia_matrix):
            if other.shape != self._shape:
                raise ValueError(f"inconsistent shapes {self._shape} and "
                                 f"{other.shape}")
            return self._add_dia(other, sign)
        if _is_scalar(other) and other == 0:
            return self.copy()
        r = self.tocsr()
        return r + other if sign > 0 else r - other

    def _add_dia(self, other, sign):
        """SciPy's dia + dia: the union of the offsets, each operand's rows
        written into theirs; the width SciPy picks, so nnz agrees too."""
        a, b = self, other
        t = _e.result_type(a.data, b.data)
        la, lb = a.data.shape[1], b.data.shape[1]
        both = _e.union1d(a.offsets, b.offsets)
        ia = _e.searchsorted(both, a.offsets)
        ib = _e.searchsorted(both, b.offsets)
        m, n = self._shape
        if la == lb and both.size in (a.offsets.size, b.offsets.size):
            width = la
        else:
            width = min(m + int(both[-1]), n) if both.size else 0
        out = _e.zeros((both.size, max(width, 0)), dtype=t,
                       device=self.device)
        wa, wb = min(la, out.shape[1]), min(lb, out.shape[1])
        if a.offsets.size and wa:
            out[ia, :wa] = a.data[:, :wa].astype(t)
        if b.offsets.size and wb:
            bd = b.data[:, :wb].astype(t)
            out[ib, :wb] = out[ib, :wb] + (bd if sign > 0 else -bd)
        return dia_matrix._raw(out, both, self._shape)

    def __add__(self, other):
        return self._add(other, 1)

    def __radd__(self, other):
        return self._add(other, 1)

    def __sub__(self, other):
        return self._add(other, -1)

    def __rsub__(self, other):
        return -self._add(other, -1)

    def multiply(self, other):
        """The elementwise product: DIA for a scalar, a dense operand
        (gathered along each diagonal) and another DIA matrix (the
        common offsets), as SciPy's; CSR for other sparse operands."""
        if _is_scalar(other):
            return self._with_data(self.data * other)
        if isinstance(other, dia_matrix) and other.shape == self._shape:
            both, ia, ib = _e.intersect1d(self.offsets, other.offsets,
                                          assume_unique=True,
                                          return_indices=True)
            width = min(self.data.shape[1], other.data.shape[1])
            return self._with_data(self.data[ia, :width] *
                                   other.data[ib, :width], both)
        if _sp._operand(other) == "sparse":
            return self.tocsr().multiply(other)
        x = _arr(other, self.device)
        m, n = self._shape
        if x.ndim > 2:
            return self.toarray() * x
        if 0 in self._shape or 1 in self._shape or 0 in x.shape:
            return self.tocsr().multiply(x)
        if x.ndim < 2:
            x = x.reshape((1, -1) if x.ndim else (1, 1))
        xr, xc = x.shape
        width = min(self.data.shape[1], n)
        data = self.data[:, :width].astype(_e.result_type(self.data, x))
        if xr == 1:
            return self._with_data(data * x[0, :width])
        if xr != m or xc not in (1, n):
            raise ValueError(f"inconsistent shapes {self._shape} and "
                             f"{tuple(x.shape)}")
        j = _e.arange(width, dtype=_e.int64, device=self.device)
        i = (j[None, :] - self.offsets.astype(_e.int64)[:, None]) % m
        return self._with_data(data * x[i, j[None, :] if xc == n else 0])

    def __matmul__(self, other):
        if isinstance(other, dia_matrix):
            return dia_matrix(self.tocsr() @ other.tocsr())
        return self.tocsr() @ other

    def __rmatmul__(self, other):
        return self.tocsr().__rmatmul__(other)

    def dot(self, other):
        return self @ other

    __hash__ = None


def _via_csr(name):
    def f(self, *args, **kw):
        return getattr(self.tocsr(), name)(*args, **kw)
    f.__name__ = name
    f.__doc__ = f"SciPy's {name} of the CSR form (SciPy's DIA converts too)."
    return f


def _of_data(name):
    def f(self):
        return self._with_data(getattr(_e, name)(self.data))
    f.__name__ = name
    f.__doc__ = f"{name} of each stored value, the band kept (DIA)."
    return f


for _n in ("maximum", "minimum", "__eq__", "__ne__", "__lt__", "__gt__",
           "__le__", "__ge__"):
    setattr(dia_matrix, _n, _via_csr(_n))
for _n in _sp._UNARY:
    setattr(dia_matrix, _n, _of_data(_n))

dia_array = _sp._sparray.array_class(dia_matrix)
_sp._SPARSE_TYPES += (dia_matrix,)
