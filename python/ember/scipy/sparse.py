"""ember.scipy.sparse: compressed sparse matrices on ember arrays, as
scipy.sparse's and cupyx.scipy.sparse's, on every device: csr_matrix (and
csr_array), csc_matrix and coo_matrix built from dense arrays, triplets,
(data, indices, indptr) or SciPy's own; @ with vectors and dense matrices
(cuSPARSE on cuda, kernels/spmv.cuh on cpu and for integer values,
complex ones through spmv_complex.cuh) and
with sparse matrices (expand, sort, compress in sparse_ops.py);
elementwise +, -, multiply, maximum, minimum and the comparisons with
sparse, dense and scalar operands; abs, power, -, and the elementwise
functions that keep zeros (sqrt, expm1, sin, ...);
sum_duplicates, sort_indices, eliminate_zeros; sum, mean, max, min,
count_nonzero, trace, diagonal; indexing of elements, rows and columns
by integers, slices, integer arrays and masks; transpose, conversions,
toarray and get(); linalg.cg, gmres, eigsh and LinearOperator.

Results are SciPy's: the same values, dtype, shape and format (csr + csc
is csr, csr.multiply(dense) is coo, max(axis) is a coo_matrix), the same
elements stored (which zeros an operation drops, which it keeps) and,
once in canonical form, the same index order. Where SciPy gives an
np.matrix (sparse + dense, mean(axis)) the result here is a 2-D ember
array (todense too). The *_array classes are the *_matrix classes with
SciPy's sparse-array semantics (sparse_sparray.py): `*` and `**`
elementwise, sum/mean/argmax/argmin(axis) 1-D, sparse results arrays; a
matrix's `*` is the matrix product and its `**` a matrix power.

Construction (sparse_construct.py, sparse_dia.py, sparse_random.py,
sparse_io.py): eye, identity, diags, spdiags, the dia format, hstack,
vstack, bmat, block_diag, kron, kronsum, tril, triu, find, random, rand,
save_npz and load_npz, with their *_array spellings.

complex64 and complex128 values work on every device, with SciPy's
conj, real, imag and getH. Not here yet: division of sparse by sparse;
broadcasting of a (1, n) or (m, 1) sparse operand in multiply;
assignment into a csr, csc or coo matrix (dok and lil take it); 1-D
sparse arrays (where SciPy gives one, ember's result is the 2-D
coo_array: sparse_sparray.py).

The arrays are ember's. CSR and CSC indices are int32 where the shape and
the number of elements allow, else int64, as SciPy picks them (and half the
index bytes a product reads); COO keeps int64. Construction sorts by (row,
column) and sums duplicates, as SciPy's conversion to CSR does;
(data, indices, indptr) are kept as given, duplicates and all, and the
operations that need the canonical form make it first."""
import ember as _e
from ember._api._util import as_array as _arr
from ember.scipy import _kernels
from ember.scipy import sparse_ops as _ops

__all__ = ["csr_matrix", "csc_matrix", "coo_matrix", "csr_array",
           "csc_array", "coo_array", "issparse", "isspmatrix", "linalg"]
# and the construction functions' names, added at the end

_C_TYPES = {"float32": "float", "float64": "double", "int64": "long long",
            "int32": "int", "complex64": "complex<float>",
            "complex128": "complex<double>"}
_INT32_MAX = 2 ** 31 - 1


def check_power(n):
    """SciPy's refusals of an elementwise power: n must be a scalar, and 0
    would fill the matrix (every format's power() asks here)."""
    if _e.ndim(n) != 0:
        raise NotImplementedError("input is not scalar")
    if n == 0:
        raise NotImplementedError(
            "zero power is not supported as it would densify the "
            "matrix.\nUse `np.ones(A.shape, dtype=A.dtype)` for this case.")

def _kernel(kind, t, it):
    return f"{kind}<{_C_TYPES[t]}, {_C_TYPES[it]}>"


def _kernel_names(complex_values=False):
    """Every instance spmv.cuh is compiled with, or with complex_values
    those of spmv_complex.cuh (the host's complex products)."""
    types = ("complex64", "complex128") if complex_values else \
        ("float32", "float64", "int64")
    return [_kernel("em_csr_matmul", t, it)
            for t in types for it in ("int32", "int64")]


# the value types cuSPARSE multiplies: float16 computes in float32, as the
# host kernel does
_CUSPARSE_TYPES = {"float16": "float32", "float32": "float32",
                   "float64": "float64", "complex64": "complex64",
                   "complex128": "complex128"}


def _index_dtype(shape, nnz):
    """SciPy's choice: int32 while every index and count fits it."""
    return _e.int32 if max(max(shape, default=0), nnz) <= _INT32_MAX \
        else _e.int64


def _compute(dtype):
    k = _e.dtype(dtype).kind
    if k == "c":
        return "complex64" if _e.dtype(dtype) == _e.complex64 \
            else "complex128"
    if k == "f":
        return "float32" if _e.dtype(dtype) == _e.float32 else "float64"
    return "int64"


_csr_from_coo = _ops.compress


def _from_scipy(s, index_names, device):
    """SciPy matrix s's data and its index arrays `index_names` (as int64)
    on device."""
    return [_e.asarray(s.data, device=device)] + [
        _e.asarray(getattr(s, n).astype("int64"), device=device)
        for n in index_names]


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
            self.data, self.indices, self.indptr = _from_scipy(
                s, ("indices", "indptr"), device)
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
        d, r, c = self._rc_arrays()
        out = coo_matrix((d, (r, c)), shape=self._shape)
        # row-major and unique only from a canonical CSR, as SciPy flags it
        out.has_canonical_format = self.format == "csr" and \
            self.has_canonical_format
        return out

    def tocsr(self, copy=False):
        return self._as("csr", copy)

    def tocsc(self, copy=False):
        return self._as("csc", copy)

    def _as(self, fmt, copy):
        if fmt != self.format:
            return self._other()
        return self.copy() if copy else self

    def toarray(self, order=None, out=None):
        """The dense matrix, duplicates summed as SciPy's."""
        d, r, c = self._canonical()._rc_arrays()
        dense = _e.zeros(self._shape, dtype=self.dtype, device=self.device) \
            if out is None else out
        if out is not None:
            dense[...] = 0
        if d.size:
            dense[r, c] = d
        return dense

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
        d, r, c = self._rc_arrays()
        idx = c if axis == 0 else r
        n = self._shape[1 - axis]
        acc_t = {"f": _e.float64, "c": _e.complex128}.get(self.dtype.kind,
                                                           _e.int64)
        out = _e.zeros(n, dtype=acc_t, device=self.device)
        _e.add.at(out, idx, d.astype(acc_t))
        rt = dtype or (_e.int64 if self.dtype.kind in "biu" else self.dtype)
        out = out.astype(rt)
        return out.reshape((1, n)) if axis == 0 else out.reshape((n, 1))

    def diagonal(self, k=0):
        """The k-th diagonal as a dense vector."""
        m, n = self._shape
        length = max(0, min(m + min(k, 0), n - max(k, 0)))
        d, r, c = self._rc_arrays()
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
        return self._map_data(_e.negative)

    # the complex parts, as SciPy's: the stored structure kept, explicit
    # zeros and duplicates too
    def conjugate(self, copy=True):
        return self._with_data(_e.conj(self.data)) \
            if self.dtype.kind == "c" else (self.copy() if copy else self)

    conj = conjugate
    real = property(lambda self: self._with_data(_e.real(self.data)))
    imag = property(lambda self: self._with_data(_e.imag(self.data)))

    def getH(self):
        """The conjugate transpose (SciPy's spmatrix.getH)."""
        return self.transpose().conjugate()

    def dot(self, other):
        return self @ other

    def __matmul__(self, other):
        if issparse(other) or _is_scipy_sparse(other):
            return self._spgemm(other)
        x = _arr(other, self.device)
        vec = x.ndim == 1
        if x.ndim not in (1, 2) or x.shape[0] != self._shape[1]:
            raise ValueError(f"dimension mismatch: {self._shape} @ "
                             f"{tuple(x.shape)}")
        rt = _e.result_type(self.data, x)
        gpu = self.device.type != "cpu" and str(rt) in _CUSPARSE_TYPES
        if self.format == "csc" and not (gpu and (vec or x.shape[1] == 1)):
            return self.tocsr() @ x
        if gpu:
            return self._cusparse_matmul(x, rt)
        t = _compute(rt)
        k = x.shape[1] if x.ndim == 2 else 1
        xx = _e.ascontiguousarray(x.astype(t)).reshape(x.shape[0], k)
        y = _e.empty((self._shape[0], k), dtype=t, device=self.device)
        if y.size:
            import numpy
            it = str(self.indices.dtype)
            data = _e.ascontiguousarray(self.data.astype(t, copy=False))
            cplx = t.startswith("complex")
            _kernels.launch(self.device,
                            "spmv_complex.cuh" if cplx else "spmv.cuh",
                            _kernel("em_csr_matmul", t, it), y.size,
                            (data, _e.ascontiguousarray(self.indices),
                             _e.ascontiguousarray(self.indptr),
                             numpy.int64(self._shape[0]), xx,
                             numpy.int64(k), y),
                            name_expressions=_kernel_names(cplx))
        y = y.astype(rt, copy=False)
        return y[:, 0] if vec else y

    def _cusparse_matmul(self, x, rt):
        """self @ x on a GPU by cuSPARSE (x checked), queued on the current
        stream: SpMV for a vector, SpMM for a matrix. A CSC matrix's arrays
        are the CSR form of its transpose, so its vector product is the
        transposed SpMV of them (no conversion); cuSPARSE's transposed SpMM
        on row-major operands is not relied on, so a CSC matrix times a
        matrix comes here as CSR."""
        from ember import _ember
        t = _CUSPARSE_TYPES[str(rt)]
        xx = _e.ascontiguousarray(x.astype(t, copy=False))
        y = _e.empty((self._shape[0],) + tuple(x.shape[1:]), dtype=t,
                     device=self.device)
        indices, indptr = self.indices, self.indptr
        if indices.dtype != indptr.dtype:
            indices, indptr = indices.astype(_e.int64), indptr.astype(_e.int64)
        if t.startswith("complex") and indices.dtype == _e.int64:
            # cuSPARSE's complex SpMV with 64-bit indices wrote out of
            # bounds on the H200 (driver 580.159, CUDA 13) where the real
            # types' and the 32-bit complex ones are right: 32-bit copies
            # of the indices where they fit, each call
            if max(self._shape) >= 2 ** 31 or self.data.size >= 2 ** 31:
                raise NotImplementedError(
                    "ember.scipy.sparse: a complex product on the GPU with "
                    "more than 2**31 - 1 rows, columns or entries (cuSPARSE's "
                    "complex product with 64-bit indices is not relied on)")
            indices, indptr = indices.astype(_e.int32), indptr.astype(_e.int32)
        _ember._cus_csr_matmul(
            _e.ascontiguousarray(self.data.astype(t, copy=False)),
            _e.ascontiguousarray(indices), _e.ascontiguousarray(indptr), xx,
            y, self._mm_shape()[1], int(self.format == "csc"))
        return y.astype(rt, copy=False)

    def __rmatmul__(self, other):
        return (self.T @ _arr(other, self.device).T).T

    # The canonical form: each row's indices strictly rising. SciPy caches
    # the flag; here it is one comparison over the keys when asked.

    def _mm_shape(self):
        """(major, minor) extents: rows first for CSR, columns for CSC."""
        return self._shape if self.format == "csr" else self._shape[::-1]

    def _arrays(self):
        return self.data, self.indices, self.indptr

    def _rc_arrays(self):
        """(data, row, column) of every stored element."""
        d, major, minor = self._coo_arrays()
        return (d, major, minor) if self.format == "csr" else \
            (d, minor, major)

    def _with_data(self, data):
        return type(self)((data, self.indices, self.indptr),
                          shape=self._shape)

    def _rebuilt(self, data, indices, indptr, nminor=None):
        """A matrix of this format from compressed arrays, over the rows
        (columns for CSC) that indptr counts and nminor columns (rows)."""
        n = int(indptr.size) - 1
        minor = self._mm_shape()[1] if nminor is None else nminor
        return type(self)((data, indices, indptr), shape=(n, minor)
                          if self.format == "csr" else (minor, n))

    def _order_flags(self):
        """(indices sorted within rows, and strictly: canonical)."""
        if self.nnz < 2:
            return True, True
        _, major, minor = self._coo_arrays()
        k = _ops.keys(major, minor, self._mm_shape()[1])
        return bool(_e.all(k[1:] >= k[:-1])), bool(_e.all(k[1:] > k[:-1]))

    has_sorted_indices = property(lambda self: self._order_flags()[0])
    has_canonical_format = property(lambda self: self._order_flags()[1])

    def _set(self, data, indices, indptr):
        """Replaces the arrays in place; the element count never grows
        here, so the index dtype stays."""
        it = self.indices.dtype
        self.data = data
        self.indices = indices.astype(it, copy=False)
        self.indptr = indptr.astype(it, copy=False)

    def sum_duplicates(self):
        """Sorts the indices and sums duplicates, in place; explicit zeros
        stay stored, as SciPy's."""
        if not self.has_canonical_format:
            d, major, minor = self._coo_arrays()
            self._set(*_ops.compress(d, major, minor, self._mm_shape()))

    def sort_indices(self):
        """Sorts each row's indices in place, duplicates kept."""
        if not self.has_sorted_indices:
            d, major, minor = self._coo_arrays()
            order = _e.argsort(_ops.keys(major, minor, self._mm_shape()[1]),
                               kind="stable")
            self._set(d[order], minor[order], self.indptr)

    def sorted_indices(self):
        c = self.copy()
        c.sort_indices()
        return c

    def eliminate_zeros(self):
        """Drops the stored zeros in place."""
        d, major, minor = self._coo_arrays()
        self._set(*_ops.drop_zeros(d, major, minor, self._mm_shape()[0]))

    def _canonical(self):
        if self.has_canonical_format:
            return self
        c = self.copy()
        c.sum_duplicates()
        return c

    def _map_data(self, f, drop=False):
        """f of the canonical values; with drop, the zeros it makes are
        not stored (SciPy's scalar operators), else they are (its
        elementwise functions)."""
        c = self._canonical()
        out = c._with_data(f(c.data))
        if drop:
            out.eliminate_zeros()
        return out

    # Elementwise arithmetic. Sparse with sparse is the union of the two
    # canonical forms under the operator with zero results dropped, in the
    # left operand's format; with a dense operand the result is dense
    # (SciPy's np.matrix for the *_matrix classes is a 2-D array here).

    def _same_format(self, other):
        o = other if issparse(other) else csr_matrix(other,
                                                     device=self.device)
        o = getattr(o, "to" + self.format)()
        if o.shape != self._shape:
            raise ValueError(f"inconsistent shapes {self._shape} and "
                             f"{o.shape}")
        return o

    def _binop(self, other, op):
        a, b = self._canonical(), self._same_format(other)._canonical()
        return type(self)(_ops.union(a._coo_arrays(), b._coo_arrays(),
                                     self._mm_shape(), op),
                          shape=self._shape)

    def _add(self, other, op, verb):
        k = _operand(other)
        if k == "scalar":
            if _scalar(other) != 0:
                raise NotImplementedError(f"{verb} a nonzero scalar to a "
                                          f"sparse matrix is not supported")
            return self.copy()
        if k == "dense":
            return op(self.toarray(), _arr(other, self.device))
        return self._binop(other, op)

    def __add__(self, other):
        return self._add(other, _e.add, "adding")

    __radd__ = __add__

    def __sub__(self, other):
        return self._add(other, _e.subtract, "subtracting")

    def __rsub__(self, other):
        return -self._add(other, _e.subtract, "subtracting")

    def __pos__(self):
        return self.copy()

    def multiply(self, other):
        """The elementwise product, as SciPy's: self's structure scaled
        for a scalar; a coo_matrix of self's elements for a dense operand;
        the intersection, zeros dropped, for a sparse one."""
        k = _operand(other)
        if k == "scalar":
            return self._with_data(self.data * other)
        if k == "dense":
            x = _arr(other, self.device)
            if x.ndim > 2:
                return self.toarray() * x
            try:
                x = _e.broadcast_to(x, self._shape)
            except ValueError:
                raise ValueError(f"inconsistent shapes {self._shape} and "
                                 f"{tuple(x.shape)}") from None
            d, r, c = self._rc_arrays()
            return coo_matrix((d * x[r, c], (r, c)), shape=self._shape)
        return self._binop(other, _e.multiply)

    def _extremum(self, other, name, compare=False):
        """maximum/minimum and the comparisons: a scalar that maps 0 to
        nonzero gives the dense result compressed (SciPy warns and does
        the same); else only the stored values are mapped."""
        uf = getattr(_e, name)
        k = _operand(other)
        if k == "scalar":
            import numpy
            s = _scalar(other)
            if getattr(numpy, name)(0, s):
                return type(self)(uf(self.toarray(), s))
            return self._map_data(lambda d: uf(d, s), drop=True)
        if k == "dense":
            return uf(self.toarray(), _arr(other, self.device))
        if not compare or name in ("not_equal", "less", "greater"):
            return self._binop(other, uf)
        # ==, <= and >= hold wherever both are zero: dense in all but name
        return type(self)(uf(self.toarray(),
                             self._same_format(other).toarray()))

    def maximum(self, other):
        return self._extremum(other, "maximum")

    def minimum(self, other):
        return self._extremum(other, "minimum")

    def __eq__(self, other):
        if issparse(other) and other.shape != self._shape:
            return False            # SciPy's answer, not an error
        return self._extremum(other, "equal", True)

    def __ne__(self, other):
        if issparse(other) and other.shape != self._shape:
            return True
        return self._extremum(other, "not_equal", True)

    def __lt__(self, other):
        return self._extremum(other, "less", True)

    def __gt__(self, other):
        return self._extremum(other, "greater", True)

    def __le__(self, other):
        return self._extremum(other, "less_equal", True)

    def __ge__(self, other):
        return self._extremum(other, "greater_equal", True)

    __hash__ = None

    def __abs__(self):
        return self._map_data(_e.abs)

    def power(self, n, dtype=None):
        """Each stored value to the scalar power n (0 would fill the
        matrix: NotImplementedError, as SciPy's)."""
        check_power(n)
        return self._map_data(lambda d: (d if dtype is None else
                                         d.astype(dtype)) ** n)

    # Reductions over canonical values: an implicit zero counts wherever a
    # row (or column) stores fewer elements than its length.

    def count_nonzero(self, axis=None):
        c = self._canonical()
        nz = c.data != 0
        if axis is None:
            return int(_e.count_nonzero(nz))
        axis = _axis(axis)
        _, r, col = c._rc_arrays()
        return _e.bincount((col if axis == 0 else r)[nz],
                           minlength=self._shape[1 - axis])

    def mean(self, axis=None, dtype=None):
        """As SciPy's: integers average in float64; each value is scaled
        by 1/count before the sum."""
        integral = self.dtype.kind in "biu"
        res = _e.dtype(dtype) if dtype is not None else \
            (_e.float64 if integral else self.dtype)
        inter = self.astype(_e.float64 if integral else res)
        m, n = self._shape
        if axis is None:
            return inter._with_data(inter.data / (m * n)).sum(dtype=res)
        axis = _axis(axis)
        scale = 1.0 / self._shape[axis]
        return inter._with_data(inter.data * scale).sum(axis, dtype=res)

    def _reduce_extreme(self, axis, name):
        uf = getattr(_e, name)
        m, n = self._shape
        c = self._canonical()
        if axis is None:
            if m * n == 0:
                raise ValueError("zero-size array to reduction operation")
            zero = _e.zeros((), dtype=self.dtype, device=self.device)
            if not c.nnz:
                return zero
            r = uf.reduce(c.data)
            return uf(r, zero) if c.nnz < m * n else r
        axis = _axis(axis)
        if self._shape[axis] == 0:
            raise ValueError("zero-size array to reduction operation")
        d, r, col = c._rc_arrays()
        lines = self._shape[1 - axis]
        v = _ops.extreme(d, col if axis == 0 else r, lines,
                         self._shape[axis], uf)
        return coo_matrix(v.reshape((1, lines) if axis == 0 else (lines, 1)))

    def max(self, axis=None, out=None):
        """The largest element (implicit zeros included), or a coo_matrix
        of each column's (axis 0) or row's (axis 1), as SciPy's."""
        return self._reduce_extreme(axis, "maximum")

    def min(self, axis=None, out=None):
        return self._reduce_extreme(axis, "minimum")

    def _arg_extreme(self, axis, name):
        """SciPy's argmax/argmin over the whole matrix: the C-order index
        of the extreme, an implicit zero's (the first missing position)
        where zero wins or ties first."""
        if axis is not None:
            return self._arg_extreme_axis(_axis(axis), name)
        m, n = self._shape
        if m * n == 0:
            raise ValueError("Cannot apply the operation to an empty "
                             "matrix.")
        if self.nnz == 0:
            return 0
        d, r, col = self._canonical()._rc_arrays()
        am = int(getattr(_e, name)(d))
        v = d[am]
        zero = 0
        better = bool(v > zero) if name == "argmax" else bool(v < zero)
        idx = int(r[am]) * n + int(col[am])
        if better or d.size == m * n:
            return idx
        flat = r.astype(_e.int64) * n + col.astype(_e.int64)
        miss = flat != _e.arange(flat.size, dtype=_e.int64,
                                 device=flat.device)
        first = int(_e.argmax(miss)) if bool(_e.any(miss)) else flat.size
        return min(first, idx) if bool(v == zero) else first

    def _arg_extreme_axis(self, axis, name):
        """SciPy's argmax/argmin along axis, a (1, n) or (m, 1) int64
        array: per line the first stored extreme, or the first implicit
        zero where zero beats it; where they tie, SciPy's min of the
        extreme's place among the line's stored values and the zero's
        index (its rule, kept). Over the line-major canonical form."""
        if self._shape[axis] == 0:
            raise ValueError(f"Cannot apply {name} along a zero-sized "
                             "dimension.")
        c = (self.tocsc() if axis == 0 else self.tocsr())._canonical()
        d, line, pos = c._coo_arrays()
        nlines, length = c._mm_shape()
        dev = self.device
        counts = c.indptr[1:] - c.indptr[:-1]
        out = _e.zeros(nlines, dtype=_e.int64, device=dev)
        if d.size:
            uf = _e.maximum if name == "argmax" else _e.minimum
            best = _ops.extreme(d, line, nlines, 0, uf)   # stored only
            rank = _e.arange(d.size, dtype=_e.int64, device=dev) - \
                c.indptr[:-1].astype(_e.int64)[line]
            big = _e.full(nlines, d.size + length, dtype=_e.int64,
                          device=dev)
            hit = d == best[line]
            first_rank, first_pos = big.copy(), big.copy()
            _e.minimum.at(first_rank, line[hit], rank[hit])
            _e.minimum.at(first_pos, line[hit], pos[hit].astype(_e.int64))
            # the first implicit zero: the first place a stored index
            # leaves its rank, else just past the stored ones
            gap = pos.astype(_e.int64) != rank
            zero_at = counts.astype(_e.int64)
            _e.minimum.at(zero_at, line[gap], rank[gap])
            zero = _e.zeros((), dtype=d.dtype, device=dev)
            wins = (best > zero) if name == "argmax" else (best < zero)
            full = counts == length
            out = _e.where(wins | full, first_pos,
                           _e.where(best == zero,
                                    _e.minimum(first_rank, zero_at),
                                    zero_at))
            out = _e.where(counts > 0, out, 0)
        return out.reshape((1, nlines) if axis == 0 else (nlines, 1))

    def argmax(self, axis=None, out=None):
        """scipy.sparse's argmax over the whole matrix (axis=None)."""
        return self._arg_extreme(axis, "argmax")

    def argmin(self, axis=None, out=None):
        """scipy.sparse's argmin over the whole matrix (axis=None)."""
        return self._arg_extreme(axis, "argmin")

    def todense(self, order=None, out=None):
        """The dense matrix as a 2-D ember array (SciPy gives np.matrix,
        cupyx a cupy.ndarray)."""
        return self.toarray(order, out)

    def trace(self, offset=0):
        return self.diagonal(offset).sum()

    # Indexing: an element, or rows and columns picked by an integer, a
    # slice, an integer array or a mask: a gather of whole rows along the
    # compressed axis, a sorted lookup of each element's column along the
    # other; duplicates and stored zeros stay, as SciPy's.

    def __getitem__(self, key):
        if isinstance(key, tuple):
            if len(key) != 2:
                raise IndexError("sparse matrices have two axes, got "
                                 f"{len(key)} indices")
            row, col = key
        else:
            row, col = key, slice(None)
        if _is_int(row) and _is_int(col):
            return self._element(int(row), int(col))
        major, minor = (row, col) if self.format == "csr" else (col, row)
        nmajor, nminor = self._mm_shape()
        out = self
        if not _is_all(major):
            out = self._rebuilt(*_ops.take_major(
                *self._arrays(), _selection(major, nmajor, self.device)))
        if not _is_all(minor):
            sel = _selection(minor, nminor, self.device)
            d, rows, cols = out._coo_arrays()
            out = out._rebuilt(*_ops.take_minor(d, rows, cols, sel,
                                                out._mm_shape()[0]),
                               nminor=int(sel.size))
        return out

    def _element(self, i, j):
        m, n = self._shape
        if not (-m <= i < m and -n <= j < n):
            raise IndexError(f"index ({i}, {j}) out of range for shape "
                             f"{self._shape}")
        i, j = i % m, j % n
        major, minor = (i, j) if self.format == "csr" else (j, i)
        s, e = (int(v) for v in self.indptr[major:major + 2])
        hit = self.indices[s:e] == minor
        return _e.sum(self.data[s:e][hit], dtype=self.dtype)

    def _spgemm(self, other):
        """sparse @ sparse, in self's format as SciPy's."""
        o = other if issparse(other) else csr_matrix(other,
                                                     device=self.device)
        if o.shape[0] != self._shape[1]:
            raise ValueError(f"dimension mismatch: {self._shape} @ "
                             f"{o.shape}")
        t = _e.result_type(self.dtype, o.dtype)
        shape = (self._shape[0], o.shape[1])
        if self.format == "csr":
            b = o.tocsr()
            return csr_matrix(_ops.spgemm(self._arrays(), b._arrays(),
                                          (self._shape, b.shape), t),
                              shape=shape)
        # (A B)^T = B^T A^T, and CSC arrays are the transpose's CSR arrays
        b = o.tocsc()
        return csc_matrix(_ops.spgemm(b._arrays(), self._arrays(),
                                      (b.shape[::-1], self._shape[::-1]), t),
                          shape=shape)


class csr_matrix(_compressed):
    """scipy.sparse.csr_matrix on ember arrays."""
    format = "csr"


class csc_matrix(_compressed):
    """scipy.sparse.csc_matrix on ember arrays."""
    format = "csc"


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
            self.data, self.row, self.col = _from_scipy(s, ("row", "col"),
                                                        device)
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
        elif isinstance(arg1, tuple) and len(arg1) == 2 and \
                all(_is_int(k) for k in arg1):
            # coo_array((M, N), dtype=...): an empty matrix of that shape
            self._shape = tuple(int(s) for s in arg1)
            self.data = _e.empty(0, dtype=dtype or _e.float64, device=device)
            self.row = _e.empty(0, dtype=_e.int64, device=device)
            self.col = _e.empty(0, dtype=_e.int64, device=device)
        else:
            dense = _arr(arg1, device)
            if dense.ndim != 2:
                raise ValueError("expected dimension <= 2 array or matrix")
            self.row, self.col = (i.astype(_e.int64) for i in _e.nonzero(dense))
            self.data = dense[self.row, self.col]
            self._shape = tuple(dense.shape)
        # SciPy's flag: set where the entries are known sorted and unique
        # (from a dense array or a canonical matrix), else clear until
        # sum_duplicates, even when the triplets happen to be canonical
        if isinstance(arg1, coo_matrix):
            self.has_canonical_format = arg1.has_canonical_format
        else:
            self.has_canonical_format = not issparse(arg1) and \
                not _is_scipy_sparse(arg1) and not (
                    isinstance(arg1, tuple) and len(arg1) == 2 and
                    isinstance(arg1[1], tuple))
        if dtype is not None:
            self.data = self.data.astype(dtype)
        if copy:
            self.data = self.data.copy()

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self.data.dtype)
    nnz = property(lambda self: int(self.data.size))
    device = property(lambda self: self.data.device)

    def copy(self):
        c = coo_matrix((self.data, (self.row, self.col)),
                       shape=self._shape, copy=True)
        c.has_canonical_format = self.has_canonical_format
        return c

    def astype(self, t):
        c = coo_matrix((self.data.astype(t), (self.row, self.col)),
                       shape=self._shape)
        c.has_canonical_format = self.has_canonical_format
        return c

    def sum_duplicates(self):
        """Sorts by (row, column) and sums duplicates, in place."""
        c = self.tocsr().tocoo()
        self.data, self.row, self.col = c.data, c.row, c.col
        self.has_canonical_format = True

    def todense(self, order=None, out=None):
        """The dense matrix as a 2-D ember array."""
        return self.toarray(order, out)

    def eliminate_zeros(self):
        keep = self.data != 0
        self.data, self.row, self.col = self.data[keep], self.row[keep], \
            self.col[keep]

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


# SciPy's elementwise functions of a sparse matrix: those that map 0 to 0,
# applied to the canonical values, explicit zeros kept
_UNARY = ("arcsin", "arcsinh", "arctan", "arctanh", "ceil", "deg2rad",
          "expm1", "floor", "log1p", "rad2deg", "rint", "sign", "sin",
          "sinh", "sqrt", "tan", "tanh", "trunc")


def _unary(name):
    def f(self):
        return self._map_data(getattr(_e, name))
    f.__name__ = name
    f.__doc__ = f"{name} of each stored value, the structure kept."
    return f


def _via_csr(name, back=False):
    """A COO method that SciPy's coo_matrix answers through CSR too; with
    back, the result returns to COO, as SciPy's elementwise functions."""
    def f(self, *args, **kw):
        r = getattr(self.tocsr(), name)(*args, **kw)
        return r.tocoo() if back else r
    f.__name__ = name
    return f


for _n in _UNARY:
    setattr(_compressed, _n, _unary(_n))
for _n in ("__add__", "__radd__", "__sub__", "__rsub__", "multiply",
           "maximum", "minimum", "__eq__", "__ne__", "__lt__", "__gt__",
           "__le__", "__ge__", "sum", "mean", "max", "min", "count_nonzero",
           "trace", "diagonal", "__rmatmul__", "argmax", "argmin"):
    setattr(coo_matrix, _n, _via_csr(_n))
for _n in _UNARY + ("__abs__", "power", "__neg__"):
    setattr(coo_matrix, _n, _via_csr(_n, back=True))


def _coo_part(f):
    """A COO matrix of f of each stored value, duplicates kept (SciPy's
    real, imag and conjugate of a coo_matrix)."""
    return lambda self: coo_matrix((f(self.data), (self.row, self.col)),
                                   shape=self._shape)


coo_matrix.real = property(_coo_part(_e.real))
coo_matrix.imag = property(_coo_part(_e.imag))
coo_matrix.conjugate = coo_matrix.conj = \
    lambda self, copy=True: _coo_part(_e.conj)(self)
coo_matrix.getH = lambda self: self.transpose().conjugate()
coo_matrix.__hash__ = None



def _coo_mul(self, other):
    """SciPy's coo_matrix `*`: a scalar scales the stored values (COO
    kept), anything else is the matrix product."""
    if _e.ndim(other) == 0 and not issparse(other):
        c = self.copy()
        c.data = self.data * other
        return c
    return self @ other


def _coo_div(self, other):
    if _e.ndim(other) == 0 and not issparse(other):
        c = self.copy()
        c.data = self.data / other
        return c
    return self.tocsr() / other


coo_matrix.__mul__ = _coo_mul
coo_matrix.__truediv__ = _coo_div
coo_matrix.__rmul__ = lambda self, other: _coo_mul(self, other) \
    if _e.ndim(other) == 0 else self.__rmatmul__(other)


# sparse_dia.py adds dia_matrix when it loads
_SPARSE_TYPES = (_compressed, coo_matrix)


def issparse(x):
    return isinstance(x, _SPARSE_TYPES)


def isspmatrix(x):
    """A sparse matrix, not a sparse array (SciPy's)."""
    return issparse(x) and not _sparray.is_sparray(x)


def _is_scipy_sparse(x):
    mod = type(x).__module__ or ""
    return mod.startswith("scipy.sparse") and hasattr(x, "tocoo")


def _operand(x):
    """What kind of right operand x is: 'sparse', 'scalar' or 'dense'."""
    if issparse(x) or _is_scipy_sparse(x):
        return "sparse"
    return "scalar" if _e.ndim(x) == 0 else "dense"


def _scalar(x):
    return x.item() if hasattr(x, "item") else x


def _axis(axis):
    if axis not in (-2, -1, 0, 1):
        raise ValueError(f"axis {axis} out of range for 2 dimensions")
    return axis % 2


def _is_int(k):
    import numbers
    return isinstance(k, numbers.Integral) or \
        (hasattr(k, "dtype") and _e.ndim(k) == 0 and k.dtype.kind in "iu")


def _is_all(k):
    return isinstance(k, slice) and k == slice(None)


def _selection(k, n, dev):
    """An integer, slice, integer array or boolean mask over an axis of n
    as the int64 positions it picks, checked against n."""
    if isinstance(k, slice):
        return _e.arange(*k.indices(n), dtype=_e.int64, device=dev)
    if _is_int(k):
        k = int(k)
        if not -n <= k < n:
            raise IndexError(f"index ({k}) out of range")
        return _e.asarray([k % n], dtype=_e.int64, device=dev)
    a = _arr(k, dev)
    if a.dtype.kind == "b":
        if a.shape != (n,):
            raise IndexError(f"boolean index of shape {tuple(a.shape)} "
                             f"does not match the axis of {n}")
        return _e.nonzero(a)[0].astype(_e.int64)
    if a.ndim != 1 or a.dtype.kind not in "iu":
        raise IndexError("only integers, slices, 1-D integer arrays and "
                         "boolean masks index a sparse matrix")
    a = a.astype(_e.int64)
    if a.size and (int(_e.max(a)) >= n or int(_e.min(a)) < -n):
        raise IndexError(f"index out of range for an axis of {n}")
    return _e.where(a < 0, a + n, a)


from ember.scipy import sparse_linalg as linalg  # noqa: E402 (sparse.linalg.cg)
from ember.scipy import sparse_sparray as _sparray  # noqa: E402

csr_array = _sparray.array_class(csr_matrix)
csc_array = _sparray.array_class(csc_matrix)
coo_array = _sparray.array_class(coo_matrix)
import sys as _sys  # noqa: E402

# `import ember.scipy.sparse.linalg` and `from ... .sparse.linalg import cg`,
# as SciPy's package layout allows them
_sys.modules[__name__ + ".linalg"] = linalg

# The construction functions and the DIA format live in modules of their
# own, loaded on first use: they build on this module's classes, so an
# import of them here would be a cycle.
_LAZY = {
    **dict.fromkeys(["get_index_dtype", "isspmatrix_csr", "isspmatrix_csc",
                     "isspmatrix_coo", "isspmatrix_dia", "diags_array",
                     "diags", "spdiags", "eye", "eye_array", "identity",
                     "hstack", "vstack", "bmat", "block_array", "block_diag",
                     "kron", "kronsum", "tril", "triu", "find"],
                    "sparse_construct"),
    **dict.fromkeys(["dia_matrix", "dia_array", "SparseWarning",
                     "SparseEfficiencyWarning", "SparseFormatWarning"],
                    "sparse_dia"),
    **dict.fromkeys(["random", "rand", "random_array"], "sparse_random"),
    **dict.fromkeys(["bsr_matrix", "bsr_array"], "sparse_bsr"),
    **dict.fromkeys(["dok_matrix", "dok_array", "lil_matrix", "lil_array"],
                    "sparse_build"),
    **dict.fromkeys(["save_npz", "load_npz"], "sparse_io"),
    **dict.fromkeys(["spmatrix", "sparray", "swapaxes", "permute_dims",
                     "matrix_transpose", "safely_cast_index_arrays"],
                    "sparse_names"),
}
__all__ += list(_LAZY)


def __getattr__(name):
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute "
                             f"{name!r}")
    import importlib
    value = getattr(importlib.import_module("ember.scipy." + _LAZY[name]),
                    name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
