"""ember.scipy.sparse: compressed sparse matrices on ember arrays, as
scipy.sparse's and cupyx.scipy.sparse's, on every device: csr_matrix (and
csr_array), csc_matrix and coo_matrix built from dense arrays, triplets,
(data, indices, indptr) or SciPy's own; @ with vectors and dense matrices
(kernels/spmv.cuh), transpose, scalar products, sum, diagonal,
conversions, toarray and get(); linalg.cg. Sparse-sparse arithmetic and the
other solvers are still to come.

The arrays are ember's. CSR and CSC indices are int32 where the shape and
the number of elements allow, else int64, as SciPy picks them (and half the
index bytes a product reads); COO keeps int64. Construction sorts by (row,
column) and sums duplicates, as SciPy's conversion to CSR does."""
import ember as _e
from ember._api._util import as_array as _arr
from ember.scipy import _kernels

__all__ = ["csr_matrix", "csc_matrix", "coo_matrix", "csr_array",
           "csc_array", "coo_array", "issparse", "isspmatrix", "linalg"]

_C_TYPES = {"float32": "float", "float64": "double", "int64": "long long",
            "int32": "int"}
_INT32_MAX = 2 ** 31 - 1


def _kernel(kind, t, it):
    return f"{kind}<{_C_TYPES[t]}, {_C_TYPES[it]}>"


def _kernel_names(gpu):
    """Every instance spmv.cuh is compiled with on a device: the warp-split
    vector product exists only on the GPU."""
    kinds = ("em_csr_matmul", "em_csr_spmv") if gpu else ("em_csr_matmul",)
    return [_kernel(k, t, it) for k in kinds
            for t in ("float32", "float64", "int64")
            for it in ("int32", "int64")]


def _index_dtype(shape, nnz):
    """SciPy's choice: int32 while every index and count fits it."""
    return _e.int32 if max(max(shape, default=0), nnz) <= _INT32_MAX \
        else _e.int64


def _compute(dtype):
    k = _e.dtype(dtype).kind
    if k == "c":
        raise NotImplementedError("ember.scipy.sparse: complex values are "
                                  "not there yet")
    if k == "f":
        return "float32" if _e.dtype(dtype) == _e.float32 else "float64"
    return "int64"


def _csr_from_coo(data, row, col, shape, dtype=None):
    """CSR arrays from triplets: sorted by (row, column), duplicates
    summed."""
    nrows, ncols = shape
    dev = data.device
    row = row.astype(_e.int64)
    col = col.astype(_e.int64)
    key = row * ncols + col
    uniq, inv = _e.unique(key, return_inverse=True)
    t = dtype or data.dtype
    if uniq.size != key.size:
        summed = _e.zeros(uniq.size, dtype=_e.float64 if t.kind in "fb"
                          else _e.int64, device=dev)
        _e.add.at(summed, inv, data.astype(summed.dtype))
        vals = summed.astype(t)
    else:
        order = _e.argsort(key)
        vals = data[order].astype(t)
    r = uniq // ncols
    indices = (uniq % ncols).astype(_e.int64)
    counts = _e.bincount(r, minlength=nrows)
    indptr = _e.concatenate([_e.zeros(1, dtype=_e.int64, device=dev),
                             _e.cumsum(counts).astype(_e.int64)])
    return vals, indices, indptr


class _compressed:
    """What CSR and CSC share: data, indices, indptr over the major axis."""

    format = None
    ndim = 2

    def __init__(self, arg1, shape=None, dtype=None, copy=False,
                 device=None):
        if issparse(arg1):
            src = getattr(arg1, "to" + self.format)()
            self.data, self.indices, self.indptr = src.data, src.indices, \
                src.indptr
            self._shape = src.shape
        elif _is_scipy_sparse(arg1):
            s = getattr(arg1, "to" + self.format)()
            s.sum_duplicates()
            self.data = _e.asarray(s.data, device=device)
            self.indices = _e.asarray(s.indices.astype("int64"), device=device)
            self.indptr = _e.asarray(s.indptr.astype("int64"), device=device)
            self._shape = tuple(s.shape)
        elif isinstance(arg1, tuple) and len(arg1) == 2 and \
                isinstance(arg1[1], tuple):
            coo = coo_matrix(arg1, shape=shape, device=device)
            src = getattr(coo, "to" + self.format)()
            self.data, self.indices, self.indptr = src.data, src.indices, \
                src.indptr
            self._shape = src.shape
        elif isinstance(arg1, tuple) and len(arg1) == 3:
            data, indices, indptr = arg1
            self.data = _arr(data, device)
            dev = self.data.device
            self.indices = _arr(indices, dev).astype(_e.int64)
            self.indptr = _arr(indptr, dev).astype(_e.int64)
            if shape is None:
                major = self.indptr.size - 1
                minor = int(_e.max(self.indices)) + 1 if self.indices.size \
                    else 0
                shape = (major, minor) if self.format == "csr" else \
                    (minor, major)
            self._shape = tuple(int(s) for s in shape)
        elif isinstance(arg1, tuple) and len(arg1) == 2:
            self._shape = tuple(int(s) for s in arg1)
            dev = device
            self.data = _e.empty(0, dtype=dtype or _e.float64, device=dev)
            self.indices = _e.empty(0, dtype=_e.int64, device=dev)
            self.indptr = _e.zeros(self._major() + 1, dtype=_e.int64,
                                   device=dev)
        else:
            dense = _arr(arg1, device)
            if dense.ndim != 2:
                raise ValueError("expected dimension <= 2 array or matrix")
            m = dense if self.format == "csr" else dense.T
            rows, cols = _e.nonzero(m)
            vals, self.indices, self.indptr = _csr_from_coo(
                m[rows, cols], rows, cols, m.shape)
            self.data = vals
            self._shape = tuple(dense.shape)
        if dtype is not None:
            self.data = self.data.astype(dtype)
        it = _index_dtype(self._shape, int(self.indices.size))
        self.indices = self.indices.astype(it, copy=False)
        self.indptr = self.indptr.astype(it, copy=False)
        if copy:
            self.data = self.data.copy()
            self.indices = self.indices.copy()
            self.indptr = self.indptr.copy()

    def _major(self):
        return self._shape[0] if self.format == "csr" else self._shape[1]

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self.data.dtype)
    nnz = property(lambda self: int(self.data.size))
    device = property(lambda self: self.data.device)

    def get_shape(self):
        return self._shape

    def __repr__(self):
        return (f"<{self._shape[0]}x{self._shape[1]} sparse matrix of type "
                f"'{self.dtype}' with {self.nnz} stored elements in "
                f"{'Compressed Sparse Row' if self.format == 'csr' else 'Compressed Sparse Column'}"
                f" format on {self.device}>")

    def _coo_arrays(self):
        """(data, major index, minor index) of every stored element."""
        counts = self.indptr[1:] - self.indptr[:-1]
        major = _e.repeat(_e.arange(self._major(), dtype=_e.int64,
                                    device=self.device), counts)
        return self.data, major, self.indices

    def _other(self):
        """The same matrix compressed along the other axis: its elements
        sorted by (minor, major) index."""
        d, major, minor = self._coo_arrays()
        other = csc_matrix if self.format == "csr" else csr_matrix
        shape = self._shape[::-1] if self.format == "csr" else self._shape
        vals, indices, indptr = _csr_from_coo(d, minor, major, shape)
        return other((vals, indices, indptr), shape=self._shape)

    def tocoo(self, copy=False):
        d, major, minor = self._coo_arrays()
        rc = (major, minor) if self.format == "csr" else (minor, major)
        return coo_matrix((d, rc), shape=self._shape)

    def toarray(self, order=None, out=None):
        d, major, minor = self._coo_arrays()
        r, c = (major, minor) if self.format == "csr" else (minor, major)
        dense = _e.zeros(self._shape, dtype=self.dtype, device=self.device) \
            if out is None else out
        if out is not None:
            dense[...] = 0
        if d.size:
            dense[r, c] = d
        return dense

    todense = toarray

    def astype(self, t):
        return type(self)((self.data.astype(t), self.indices, self.indptr),
                          shape=self._shape)

    def copy(self):
        return type(self)((self.data, self.indices, self.indptr),
                          shape=self._shape, copy=True)

    def get(self):
        """The scipy.sparse matrix of the same values, on the host."""
        import scipy.sparse
        cls = scipy.sparse.csr_matrix if self.format == "csr" \
            else scipy.sparse.csc_matrix
        return cls((_e.asnumpy(self.data), _e.asnumpy(self.indices),
                    _e.asnumpy(self.indptr)), shape=self._shape)

    def sum(self, axis=None, dtype=None):
        """The sum of every element, or a (1, n)/(m, 1) matrix of the sums
        along axis, as SciPy's."""
        if axis is None:
            return _e.sum(self.data, dtype=dtype)
        axis = axis % 2
        d, major, minor = self._coo_arrays()
        r, c = (major, minor) if self.format == "csr" else (minor, major)
        idx = c if axis == 0 else r
        n = self._shape[1 - axis]
        acc_t = _e.float64 if self.dtype.kind == "f" else _e.int64
        out = _e.zeros(n, dtype=acc_t, device=self.device)
        _e.add.at(out, idx, d.astype(acc_t))
        rt = dtype or (_e.int64 if self.dtype.kind in "biu" else self.dtype)
        out = out.astype(rt)
        return out.reshape((1, n)) if axis == 0 else out.reshape((n, 1))

    def diagonal(self, k=0):
        """The k-th diagonal as a dense vector."""
        m, n = self._shape
        length = max(0, min(m + min(k, 0), n - max(k, 0)))
        d, major, minor = self._coo_arrays()
        r, c = (major, minor) if self.format == "csr" else (minor, major)
        on = (c - r) == k
        out = _e.zeros(length, dtype=self.dtype, device=self.device)
        pos = r[on] - (0 if k >= 0 else -k)
        if pos.size:
            _e.add.at(out, pos, d[on])
        return out

    def transpose(self, axes=None, copy=False):
        other = csc_matrix if self.format == "csr" else csr_matrix
        return other((self.data, self.indices, self.indptr),
                     shape=(self._shape[1], self._shape[0]), copy=copy)

    T = property(transpose)

    def __mul__(self, other):
        if _e.ndim(other) == 0:
            return type(self)((self.data * other, self.indices, self.indptr),
                              shape=self._shape)
        return self @ other

    __rmul__ = __mul__

    def __truediv__(self, other):
        return type(self)((self.data / other, self.indices, self.indptr),
                          shape=self._shape)

    def __neg__(self):
        return type(self)((-self.data, self.indices, self.indptr),
                          shape=self._shape)

    def dot(self, other):
        return self @ other

    def __matmul__(self, other):
        if issparse(other):
            return type(self)(self.toarray() @ other.toarray())
        if self.format == "csc":
            return self.tocsr() @ other
        x = _arr(other, self.device)
        vec = x.ndim == 1
        if x.ndim not in (1, 2) or x.shape[0] != self._shape[1]:
            raise ValueError(f"dimension mismatch: {self._shape} @ "
                             f"{tuple(x.shape)}")
        rt = _e.result_type(self.data, x)
        t = _compute(rt)
        xx = _e.ascontiguousarray(x.astype(t)).reshape(x.shape[0], -1)
        k = xx.shape[1]
        y = _e.empty((self._shape[0], k), dtype=t, device=self.device)
        if y.size:
            import numpy
            gpu = self.device.type != "cpu"
            it = str(self.indices.dtype)
            data = _e.ascontiguousarray(self.data.astype(t, copy=False))
            arrays = (data, _e.ascontiguousarray(self.indices),
                      _e.ascontiguousarray(self.indptr),
                      numpy.int64(self._shape[0]), xx)
            if gpu and k == 1:
                # lanes a row: the mean row length's power of two, <= 32
                w = 1
                while w < 32 and w < self.nnz / max(self._shape[0], 1):
                    w *= 2
                kind, n, last = "em_csr_spmv", self._shape[0] * w, \
                    numpy.int32(w)
            else:
                kind, n, last = "em_csr_matmul", y.size, numpy.int64(k)
            _kernels.launch(self.device, "spmv.cuh", _kernel(kind, t, it), n,
                            arrays + (last, y),
                            name_expressions=_kernel_names(gpu))
        y = y.astype(rt, copy=False)
        return y[:, 0] if vec else y

    def __rmatmul__(self, other):
        return (self.T @ _arr(other, self.device).T).T


class csr_matrix(_compressed):
    """scipy.sparse.csr_matrix on ember arrays."""
    format = "csr"

    def tocsr(self, copy=False):
        return self.copy() if copy else self

    def tocsc(self, copy=False):
        return self._other()


class csc_matrix(_compressed):
    """scipy.sparse.csc_matrix on ember arrays."""
    format = "csc"

    def tocsc(self, copy=False):
        return self.copy() if copy else self

    def tocsr(self, copy=False):
        return self._other()


class coo_matrix:
    """scipy.sparse.coo_matrix on ember arrays: data, row, col."""
    format = "coo"
    ndim = 2

    def __init__(self, arg1, shape=None, dtype=None, copy=False,
                 device=None):
        if issparse(arg1):
            src = arg1.tocoo()
            self.data, self.row, self.col = src.data, src.row, src.col
            self._shape = src.shape
        elif _is_scipy_sparse(arg1):
            s = arg1.tocoo()
            self.data = _e.asarray(s.data, device=device)
            self.row = _e.asarray(s.row.astype("int64"), device=device)
            self.col = _e.asarray(s.col.astype("int64"), device=device)
            self._shape = tuple(s.shape)
        elif isinstance(arg1, tuple) and len(arg1) == 2 and \
                isinstance(arg1[1], tuple):
            data, (row, col) = arg1
            self.data = _arr(data, device)
            self.row = _arr(row, self.data.device).astype(_e.int64)
            self.col = _arr(col, self.data.device).astype(_e.int64)
            if shape is None:
                shape = (int(_e.max(self.row)) + 1 if self.row.size else 0,
                         int(_e.max(self.col)) + 1 if self.col.size else 0)
            self._shape = tuple(int(s) for s in shape)
        else:
            dense = _arr(arg1, device)
            if dense.ndim != 2:
                raise ValueError("expected dimension <= 2 array or matrix")
            self.row, self.col = (i.astype(_e.int64) for i in _e.nonzero(dense))
            self.data = dense[self.row, self.col]
            self._shape = tuple(dense.shape)
        if dtype is not None:
            self.data = self.data.astype(dtype)
        if copy:
            self.data = self.data.copy()

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self.data.dtype)
    nnz = property(lambda self: int(self.data.size))

    def tocsr(self, copy=False):
        vals, indices, indptr = _csr_from_coo(self.data, self.row, self.col,
                                              self._shape)
        return csr_matrix((vals, indices, indptr), shape=self._shape)

    def tocsc(self, copy=False):
        return self.tocsr().tocsc()

    def tocoo(self, copy=False):
        return self

    def toarray(self, order=None, out=None):
        return self.tocsr().toarray(out=out)

    def get(self):
        import scipy.sparse
        return scipy.sparse.coo_matrix((_e.asnumpy(self.data),
                                        (_e.asnumpy(self.row),
                                         _e.asnumpy(self.col))),
                                       shape=self._shape)

    def __matmul__(self, other):
        return self.tocsr() @ other

    def transpose(self, axes=None, copy=False):
        return coo_matrix((self.data, (self.col, self.row)),
                          shape=(self._shape[1], self._shape[0]))

    T = property(transpose)


csr_array, csc_array, coo_array = csr_matrix, csc_matrix, coo_matrix


def issparse(x):
    return isinstance(x, (_compressed, coo_matrix))


isspmatrix = issparse


def _is_scipy_sparse(x):
    mod = type(x).__module__ or ""
    return mod.startswith("scipy.sparse") and hasattr(x, "tocoo")


from ember.scipy import sparse_linalg as linalg  # noqa: E402 (sparse.linalg.cg)
import sys as _sys  # noqa: E402

# `import ember.scipy.sparse.linalg` and `from ... .sparse.linalg import cg`,
# as SciPy's package layout allows them
_sys.modules[__name__ + ".linalg"] = linalg
